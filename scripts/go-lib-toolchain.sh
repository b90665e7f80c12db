#!/bin/sh
# Prints the rustup toolchain that builds the Go module's prebuilt objects:
# the version pinned in go/lib/rust-toolchain.toml. When the active toolchain
# is that version it is used as it is (nothing is downloaded); otherwise rustup
# installs the pinned version (profile minimal) if it is missing.
#
# Usage: RUSTUP_TOOLCHAIN=$(scripts/go-lib-toolchain.sh) make ...
#
# The pin lives in go/lib/, not in a rust-toolchain.toml at the repository
# root: a root file would switch every cargo command of the workspace (tests,
# benchmarks, the MSRV build) to it and make rustup download it wherever the
# installed stable differs, while only the committed objects need one exact
# compiler to be reproducible.
set -eu

cd "$(dirname "$0")/.."
want=$(sed -n 's/^channel = "\(.*\)"/\1/p' go/lib/rust-toolchain.toml)
if [ -z "$want" ]; then
	echo "go-lib-toolchain: no channel in go/lib/rust-toolchain.toml" >&2
	exit 1
fi
if rustc --version 2>/dev/null | grep -q "^rustc $want "; then
	rustup show active-toolchain | cut -d ' ' -f 1
	exit 0
fi
rustup toolchain list | grep -q "^$want-" || rustup toolchain install "$want" --profile minimal >&2
echo "$want"
