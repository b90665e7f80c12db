#!/bin/sh
# Rebuilds the Go module's prebuilt objects from the committed sources and
# compares them byte for byte with the committed ones: `git archive HEAD` is
# unpacked into a temporary directory and `make go-lib` runs there, from an
# empty Cargo target directory, with the Rust toolchain pinned in
# go/lib/rust-toolchain.toml. Any difference fails, naming the file; a swapped
# object cannot pass.
#
# Usage: scripts/verify-go-lib.sh [REV]   (default HEAD)
# Anyone can run it on a checkout of the commit a downloaded module came from
# (the module's go/lib/SHA256SUMS names the objects' hashes).
set -eu

cd "$(dirname "$0")/.."
rev=${1:-HEAD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git archive "$rev" | tar -x -C "$tmp/src"
CARGO_TARGET_DIR=$tmp/target make -C "$tmp/src" --no-print-directory go-lib RELEASE_DIR="$tmp/target/release" >"$tmp/build.log" 2>&1 || {
	tail -n 40 "$tmp/build.log" >&2
	echo "verify-go-lib: make go-lib failed in the export of $rev" >&2
	exit 1
}
status=0
for f in linux_amd64/randp_linux_amd64.syso linux_arm64/randp_linux_arm64.syso linux_amd64/INPUTS.sha256 \
	linux_arm64/INPUTS.sha256 SHA256SUMS; do
	git show "$rev:go/lib/$f" >"$tmp/committed"
	if cmp -s "$tmp/committed" "$tmp/src/go/lib/$f"; then
		echo "verify-go-lib: go/lib/$f rebuilt from $rev: identical ($(sha256sum <"$tmp/committed" | cut -c1-16)…)"
	else
		echo "verify-go-lib: go/lib/$f rebuilt from $rev DIFFERS from the committed file" >&2
		status=1
	fi
done
exit $status
