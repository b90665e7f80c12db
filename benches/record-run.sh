#!/bin/sh
# Writes the run record (run.txt) as a run starts: what ran and where, from
# which the report names the machine, the toolchains and the commit, so
# that a later render of the committed results names them too. One
# "key: value" line per key, in the order below; a value that cannot be
# found is empty. Run from the repository's root.
#
#   benches/record-run.sh GOVERSION PASSES DESCRIBE >run.txt
#
# GOVERSION is `go env GOVERSION` of the go that runs the benchmarks,
# PASSES the number of passes (samples per contestant), DESCRIBE how the
# run is made (times, counts).
set -u
goversion=$1 passes=$2 describe=$3

# cpu KEY is the first /proc/cpuinfo line's value for KEY.
cpu() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n 1; }
# first COMMAND... is the first line COMMAND prints, "" when it fails.
first() { out=$("$@" 2>&1) && printf '%s\n' "$out" | head -n 1 | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }
# deb PACKAGE is the Debian package and its installed version, or "".
deb() { v=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null) && [ -n "$v" ] && echo "$1 $v"; }
# pick FLAG... is those of the flags the CPU has, in the order given.
have=" $(cpu flags) "
pick() { out=; for f; do case $have in *" $f "*) out="$out $f" ;; esac; done; echo "${out# }"; }
# section NAME is Cargo.toml's [NAME] as "key=value, key=value", or "default".
section() {
	awk -v s="[$1]" '/^\[/ { in_s = ($0 == s); next }
		in_s && NF && !/^#/ { gsub(/[ \t]/, ""); out = out (out == "" ? "" : ", ") $0 }
		END { print (out == "" ? "default" : out) }' Cargo.toml
}

# dirty is "unknown" when git cannot say (the report then refuses the run).
if status=$(git status --porcelain --untracked-files=no 2>/dev/null); then
	dirty=no
	[ -z "$status" ] || dirty=yes
else
	dirty=unknown
fi
# RUSTFLAGS, quoted as a Go string would be.
rustflags=$(printf '%s' "${RUSTFLAGS:-}" | sed 's/\\/\\\\/g; s/"/\\"/g')
vendor=$(cpu vendor_id) family=$(cpu 'cpu family') model=$(cpu model) stepping=$(cpu stepping) microcode=$(cpu microcode)
backend=$(first target/release/randp-cat --backend | cut -d ' ' -f 1)
xsys=$(sed -n 's/^[[:space:]]*\(require[[:space:]]\{1,\}\)\{0,1\}\(golang.org\/x\/sys\)[[:space:]]\{1,\}\([^[:space:]]*\).*/\2 \3/p' benches/go/go.mod | head -n 1)

# The CPU flags kept (cpu_flags), and those of them randp's keystream
# dispatch reads (backend_flags; src/keystream/x86.rs): aes+ssse3 for
# aesni, avx2+vaes for vaes256, avx512f+avx512bw+vaes for vaes512.
cat <<RECORD
date: $(date -u '+%Y-%m-%d %H:%M UTC')
commit: $(first git rev-parse --short=12 HEAD)
dirty: $dirty
cpu: $(cpu 'model name')
cpu_id: ${vendor:-?} family ${family:-0} model ${model:-0} stepping ${stepping:-?}${microcode:+, microcode $microcode}
cpu_flags: $(pick aes vaes vpclmulqdq avx2 avx512f avx512bw sha_ni rdrand rdseed hypervisor)
backend_flags: $(pick aes ssse3 avx2 avx512f avx512bw vaes)
backend: ${backend:-?}
nproc: $(first nproc)
kernel: $(first uname -srm)
libc: $(first ldd --version)
glibc: $(first getconf GNU_LIBC_VERSION)
rustc: $(first rustc --version)
cargo_bench_profile: [profile.bench] $(section profile.bench) (inherits [profile.release] $(section profile.release); opt-level 3); RUSTFLAGS="$rustflags"
go: $goversion
compiler: $(first cc --version)
cxx: $(first c++ --version)
gbench: $(deb libbenchmark-dev)
libbsd: $(deb libbsd0)
openssl_pkg: $(deb libssl3)
xsys: $xsys
passes: $passes
describe: $describe
randp: $(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
RECORD
