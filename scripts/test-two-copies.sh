#!/bin/sh
# Two copies of randp in one program: a crate outside the tree depends on
# randp by path and on the same version from a git repository (a clone of
# this one). Each copy keeps its own thread-local word, named after a symbol
# that carries the copy's crate hash, so the program links (when both copies
# named the word __randp_thread_state_0_1_0 the link failed with a duplicate
# symbol), holds two distinct words (nm), and draws from both, each from a
# state of its own (the internals feature gives their addresses).
#
# Usage: scripts/test-two-copies.sh (from anywhere).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/randp-two-copies.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

fail() {
	echo "test-two-copies: $*" >&2
	exit 1
}

git clone --quiet "$root" "$work/randp-git"
# The working tree's sources, committed in the clone, so that uncommitted
# changes are tested too.
cp -R "$root/src" "$root/Cargo.toml" "$work/randp-git/"
git -C "$work/randp-git" -c user.name=test -c user.email=test@localhost commit --quiet --allow-empty -am "working tree"

crate=$work/consumer
mkdir -p "$crate/src"
cat >"$crate/Cargo.toml" <<TOML
[package]
name = "randp-two-copies"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
randp_path = { package = "randp", path = "$root", features = ["internals"] }
randp_git = { package = "randp", git = "file://$work/randp-git", features = ["internals"] }

[workspace]
TOML
cat >"$crate/src/main.rs" <<'RUST'
fn main() {
    let (a, b) = (randp_path::u64(), randp_git::u64());
    let mut both = [0u8; 64];
    randp_path::fill_bytes(&mut both[..32]);
    randp_git::fill_bytes(&mut both[32..]);
    assert!(a != b && both[..32] != both[32..], "the two copies gave the same output");
    assert!(randp_path::uses_userspace_generator() && randp_git::uses_userspace_generator());
    let states = (randp_path::internals::thread_state_address(), randp_git::internals::thread_state_address());
    let (Some(p), Some(g)) = states else { panic!("a copy has no state after drawing: {states:?}") };
    assert!(p != g, "the two copies draw from one state at {p:#x}");
    println!("two copies drew {a:016x} and {b:016x} from their own states at {p:#x} and {g:#x}");
}
RUST
cp "$root/Cargo.lock" "$crate/Cargo.lock"
export CARGO_TARGET_DIR="$crate/target"
cd "$crate"
cargo build --release 2>"$work/build.log" || {
	cat "$work/build.log" >&2
	fail "two copies of randp do not link"
}
words=$(nm "$CARGO_TARGET_DIR/release/randp-two-copies" | awk '$2 ~ /^[bB]$/ && $3 ~ /ANCHOR.*\.tls$/' | wc -l)
[ "$words" = 2 ] || fail "expected two thread-local words, one per copy, found $words"
"$CARGO_TARGET_DIR/release/randp-two-copies" || fail "the program with two copies failed"
echo "test-two-copies: two copies of randp link side by side, each with its own thread-local word and state"
