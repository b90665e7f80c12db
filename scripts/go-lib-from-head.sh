#!/bin/sh
# Rebuilds go/lib/linux_amd64/ and linux_arm64/ (the Go module's prebuilt
# objects, their INPUTS.sha256 and go/lib/SHA256SUMS) from the committed HEAD rather than the working tree, so the
# record matches what a fresh clone checks even while src/ has uncommitted
# edits. Copies the result into this working tree; commit it afterwards.
#
# Usage: scripts/go-lib-from-head.sh
# The Cargo target directory is kept in $RANDP_GO_LIB_TARGET (default
# /tmp/randp-go-lib-target) so that repeated runs build incrementally.
set -eu

cd "$(dirname "$0")/.."
target=${RANDP_GO_LIB_TARGET:-/tmp/randp-go-lib-target}
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

git archive HEAD | tar -x -C "$src"
CARGO_TARGET_DIR=$target make -C "$src" --no-print-directory go-lib RELEASE_DIR="$target/release"
for arch in amd64 arm64; do
	mkdir -p "go/lib/linux_$arch"
	cp "$src/go/lib/linux_$arch/randp_linux_$arch.syso" "$src/go/lib/linux_$arch/INPUTS.sha256" "go/lib/linux_$arch/"
done
cp "$src/go/lib/SHA256SUMS" go/lib/
echo "go-lib-from-head: go/lib/linux_amd64/ and linux_arm64/ rebuilt from $(git rev-parse --short HEAD); commit them with"
echo "  git add go/lib && git commit -m 'go/lib: prebuilt objects from $(git rev-parse --short HEAD)'"
