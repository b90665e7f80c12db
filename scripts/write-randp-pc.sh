#!/bin/sh
# Prints the pkg-config file randp.pc for an installation.
#
# Usage: scripts/write-randp-pc.sh PREFIX LIBDIR INCLUDEDIR VERSION
#
# Libs.private lists what the static library needs beyond libc: the pthread
# key functions (inside libc from glibc 2.34; -lpthread keeps older systems
# linking). The library is no_std: no unwinder, no libgcc_s, nothing else.
set -eu

prefix=$1
libdir=$2
includedir=$3
version=$4

# Directories under the prefix are written relative to it, as pkg-config
# files usually are, so --define-variable=prefix=... can move them.
case $libdir in "$prefix"/*) libdir="\${prefix}${libdir#"$prefix"}" ;; esac
case $includedir in "$prefix"/*) includedir="\${prefix}${includedir#"$prefix"}" ;; esac

cat <<PC
prefix=$prefix
libdir=$libdir
includedir=$includedir

Name: randp
Description: Unpredictable random numbers as cheap as predictable ones (per-thread, fork-safe AES-256-CTR fast-key-erasure CSPRNG)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lrandp
Libs.private: -lpthread
PC
