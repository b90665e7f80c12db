#!/bin/sh
# The freshness record of the Go module's prebuilt objects
# (go/lib/linux_*/randp_linux_*.syso): a SHA-256 over everything that decides
# their contents, namely every file under src/ (except src/bin/, which is not
# part of the library) and capi/, Cargo.toml, Cargo.lock,
# scripts/localize-staticlib.sh and go/lib/rust-toolchain.toml, the pinned
# Rust toolchain they are built with (scripts/go-lib-toolchain.sh).
#
# Usage:
#   scripts/go-lib-inputs.sh                  print the record (hash line first)
#   scripts/go-lib-inputs.sh --check RECORD   exit 1 if RECORD differs from now
#
# `make go-lib` writes the record next to the objects; `make check-go-lib`
# runs --check, so a change to any input without `make go-lib` fails the
# tests. (`make verify-go-lib` goes further: it rebuilds the objects.)
set -eu

cd "$(dirname "$0")/.."
inputs() {
	find src capi -type f ! -path 'src/bin/*' -print | LC_ALL=C sort | while IFS= read -r f; do
		sha256sum "$f"
	done
	for f in Cargo.toml Cargo.lock scripts/localize-staticlib.sh go/lib/rust-toolchain.toml; do
		if [ -f "$f" ]; then sha256sum "$f"; else echo "absent  $f"; fi
	done
}

toolchain() { sed -n 's/^channel = "\(.*\)"/Rust \1/p' go/lib/rust-toolchain.toml; }

record() {
	echo "$(inputs | sha256sum | cut -d ' ' -f 1)  randp-go-lib-inputs"
	echo "# SHA-256 over src/** (without src/bin/), capi/**, Cargo.toml, Cargo.lock,"
	echo "# scripts/localize-staticlib.sh and go/lib/rust-toolchain.toml; written by \`make go-lib\`."
	echo "# built with $(toolchain)"
}

case ${1:-} in
'')
	record
	;;
--check)
	file=$2
	want=$(record | head -n 1 | cut -d ' ' -f 1)
	have=$(head -n 1 "$file" 2>/dev/null | cut -d ' ' -f 1)
	if [ "$want" != "$have" ]; then
		echo "go/lib is stale: run make go-lib and commit" >&2
		echo "  recorded in $file: ${have:-nothing} ($(sed -n 's/^# built with //p' "$file" 2>/dev/null))" >&2
		echo "  inputs now:         $want ($(toolchain))" >&2
		exit 1
	fi
	echo "check-go-lib: $file matches src/, capi/, Cargo.toml, Cargo.lock, scripts/localize-staticlib.sh and $(toolchain)"
	;;
*)
	echo "usage: $0 [--check RECORD]" >&2
	exit 2
	;;
esac
