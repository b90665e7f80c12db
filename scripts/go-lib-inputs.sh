#!/bin/sh
# The freshness record of the Go module's prebuilt library
# (go/lib/linux_amd64/librandp.a): a SHA-256 over everything that decides its
# contents, namely every file under src/ (except src/bin/, which is not part
# of the library) and capi/, Cargo.toml, Cargo.lock,
# scripts/localize-staticlib.sh and the output of `rustc --version`.
#
# Usage:
#   scripts/go-lib-inputs.sh                  print the record (hash line first)
#   scripts/go-lib-inputs.sh --check RECORD   exit 1 if RECORD differs from now
#
# `make go-lib` writes the record next to the library; `make check-go-lib`
# runs --check, so a change to any input without `make go-lib` fails the tests.
set -eu

cd "$(dirname "$0")/.."
RUSTC=${RUSTC:-rustc}

inputs() {
	find src capi -type f ! -path 'src/bin/*' -print | LC_ALL=C sort | while IFS= read -r f; do
		sha256sum "$f"
	done
	for f in Cargo.toml Cargo.lock scripts/localize-staticlib.sh; do
		if [ -f "$f" ]; then sha256sum "$f"; else echo "absent  $f"; fi
	done
	"$RUSTC" --version
}

record() {
	echo "$(inputs | sha256sum | cut -d ' ' -f 1)  randp-go-lib-inputs"
	echo "# SHA-256 over src/** (without src/bin/), capi/**, Cargo.toml, Cargo.lock,"
	echo "# scripts/localize-staticlib.sh and \`rustc --version\`; written by \`make go-lib\`."
	echo "# $("$RUSTC" --version)"
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
		echo "  recorded in $file: ${have:-nothing} ($(sed -n 's/^# rustc/rustc/p' "$file" 2>/dev/null))" >&2
		echo "  inputs now:         $want ($("$RUSTC" --version))" >&2
		exit 1
	fi
	echo "check-go-lib: $file matches src/, capi/, Cargo.toml, Cargo.lock, scripts/localize-staticlib.sh and $("$RUSTC" --version)"
	;;
*)
	echo "usage: $0 [--check RECORD]" >&2
	exit 2
	;;
esac
