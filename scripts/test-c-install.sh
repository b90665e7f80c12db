#!/bin/sh
# Checks an installation made by `make install PREFIX=...` the way a user
# meets it: the files are where randp.pc says, and the C test program builds
# from `pkg-config` flags alone, once fully static (`pkg-config --static`
# with -static, so Libs.private must be complete) and once against the
# shared library (through its SONAME, librandp.so.0), and both binaries pass;
# the static link prints no warning; `make uninstall` removes every file.
#
# Usage: scripts/test-c-install.sh PREFIX TEST_SOURCE VERSION
set -eu

prefix=$1
src=$2
version=$3
CC=${CC:-cc}

fail() {
	echo "test-c-install: $*" >&2
	exit 1
}

for f in include/randp.h lib/librandp.a "lib/librandp.so.$version" lib/pkgconfig/randp.pc; do
	[ -f "$prefix/$f" ] && [ ! -L "$prefix/$f" ] || fail "$prefix/$f was not installed as a file"
done
[ "$(readlink "$prefix/lib/librandp.so.0")" = "librandp.so.$version" ] || fail "librandp.so.0 does not link to librandp.so.$version"
[ "$(readlink "$prefix/lib/librandp.so")" = "librandp.so.0" ] || fail "librandp.so does not link to librandp.so.0"
readelf -d "$prefix/lib/librandp.so.$version" | grep -q 'SONAME.*\[librandp\.so\.0\]' || fail "the shared library's SONAME is not librandp.so.0"
cmp -s include/randp.h "$prefix/include/randp.h" || fail "installed randp.h differs from include/randp.h"
cmp -s build/librandp.a "$prefix/lib/librandp.a" || fail "installed librandp.a differs from build/librandp.a"

PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
PKG_CONFIG_LIBDIR=$PKG_CONFIG_PATH # only this installation, not the system's
export PKG_CONFIG_LIBDIR

[ "$(pkg-config --modversion randp)" = "$version" ] || fail "randp.pc version is not $version"
[ "$(pkg-config --variable=libdir randp)" = "$prefix/lib" ] || fail "randp.pc libdir is not $prefix/lib"
cflags=$(pkg-config --cflags randp)
static_libs=$(pkg-config --libs --static randp)
shared_libs=$(pkg-config --libs randp)
echo "test-c-install: cflags: $cflags; --libs --static: $static_libs"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# shellcheck disable=SC2086 # the flags are word lists
"$CC" -std=c17 -O2 -static $cflags "$src" $static_libs -o "$out/static" 2>"$out/static.log" ||
	fail "static link failed: $(cat "$out/static.log")"
[ ! -s "$out/static.log" ] || fail "the static link printed: $(cat "$out/static.log")"
if readelf -d "$out/static" | grep -q NEEDED; then
	fail "the -static build still needs shared libraries"
fi
"$out/static"

# shellcheck disable=SC2086
"$CC" -std=c17 -O2 $cflags "$src" $shared_libs -Wl,-rpath,"$prefix/lib" -o "$out/shared"
readelf -d "$out/shared" | grep -q 'NEEDED.*\[librandp\.so\.0\]' || fail "the pkg-config build does not load librandp.so.0"
if ldd "$out/shared" | grep -q libgcc_s; then
	fail "a program linked with librandp depends on libgcc_s"
fi
"$out/shared"
echo "test-c-install: static and shared builds from pkg-config pass"
