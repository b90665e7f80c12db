#!/bin/sh
# randp as somebody else's dependency: a crate created outside the tree that
# depends on randp by path, with a Cargo home of its own (so nothing this
# repository's builds downloaded can help it).
#
#   1. `cargo fetch` downloads what the consumer needs (from crates.io), and
#      none of randp's build or dev-dependencies (cbindgen, serde, criterion,
#      rand);
#   2. `cargo build --offline` then passes inside `unshare -n`, a network
#      namespace with no network (a control checks that nothing is reachable
#      there);
#   3. `cargo tree -e normal,build` for every target lists randp and aes, and
#      no cbindgen and no serde;
#   4. the consumer's target directory holds randp as an rlib and no
#      librandp.a or librandp.so (depending on randp builds no C library);
#   5. the consumer's main is the README's Rust example (the first ```rust
#      block under "## Rust"), which uses `randp::rand_core::Rng` with no
#      rand_core dependency of its own; it runs;
#   6. the same crate builds offline for x86_64-pc-windows-gnu (mingw-w64),
#      and the .exe runs under wine.
#
# Usage: WINE=... WINEPREFIX=... scripts/test-consumer.sh (from anywhere;
# needs root or user namespaces for unshare, and for step 6 the Windows
# target, mingw-w64 and the wine prefix of `make windows-prefix`, which
# `make test-consumer` passes).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/randp-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

fail() {
	echo "test-consumer: $*" >&2
	exit 1
}

# Without root, a user namespace maps us to root inside it.
if [ "$(id -u)" = 0 ]; then unshare_net="unshare -n"; else unshare_net="unshare -rn"; fi

crate=$work/consumer
mkdir -p "$crate/src"
cat >"$crate/Cargo.toml" <<EOF
[package]
name = "randp-consumer"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
randp = { path = "$root" }

[workspace]
EOF

# The README's example, as the body of main.
snippet=$(awk '/^## Rust/ { in_rust = 1; next }
	in_rust && /^```rust/ { in_code = 1; next }
	in_code && /^```/ { exit }
	in_code { print }' "$root/README.md")
[ -n "$snippet" ] || fail "no \`\`\`rust block under \"## Rust\" in README.md"
echo "$snippet" | grep -q 'rand_core::Rng' || fail "the README's Rust example does not use rand_core::Rng"
{
	echo '#![allow(unused_variables)]'
	echo 'fn main() {'
	echo "$snippet"
	echo '}'
} >"$crate/src/main.rs"

# The versions this repository tested, as a user with randp's lock file would
# get them; cargo drops what the consumer does not need.
cp "$root/Cargo.lock" "$crate/Cargo.lock"

export CARGO_HOME="$work/cargo-home"
export CARGO_TARGET_DIR="$crate/target"
cd "$crate"

cargo fetch
fetched=$(find "$CARGO_HOME/registry/cache" -name '*.crate' | sed 's|.*/||' | sort)
[ -n "$fetched" ] || fail "cargo fetch downloaded nothing into $CARGO_HOME"
if echo "$fetched" | grep -E '^(cbindgen|serde|criterion|rand)-[0-9]'; then
	fail "cargo fetch downloaded randp's build or dev-dependencies (above)"
fi
echo "test-consumer: cargo fetch downloaded $(echo "$fetched" | wc -l) crates"

# The control: inside the namespace the only interface is lo.
ifaces=$($unshare_net awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }' /proc/net/dev)
[ "$ifaces" = lo ] || fail "the network namespace has interfaces other than lo ($ifaces): the offline build would prove nothing"
$unshare_net cargo build --offline || fail "cargo build --offline failed without network after cargo fetch"
echo "test-consumer: cargo build --offline passed without network after cargo fetch"

tree=$($unshare_net cargo tree --offline -e normal,build --target all --prefix none)
echo "$tree" | grep -q '^randp v' || fail "cargo tree does not list randp:
$tree"
echo "$tree" | grep -q '^aes v' || fail "cargo tree does not list aes:
$tree"
if echo "$tree" | grep -E '^(cbindgen|serde[a-z_-]*) v'; then
	fail "depending on randp pulls in the crates above"
fi
echo "test-consumer: cargo tree -e normal,build lists no cbindgen and no serde ($(echo "$tree" | sort -u | wc -l) crates)"

ls "$CARGO_TARGET_DIR"/debug/deps/librandp-*.rlib >/dev/null 2>&1 || fail "no randp rlib in the consumer's target directory"
clibs=$(find "$CARGO_TARGET_DIR" -name 'librandp*.a' -o -name 'librandp*.so*')
[ -z "$clibs" ] || fail "depending on randp built a C library: $clibs"
echo "test-consumer: randp was built as an rlib only"

"$CARGO_TARGET_DIR/debug/randp-consumer" || fail "the README's Rust example failed when run"
echo "test-consumer: the README's Rust example builds and runs in the consumer"

# Windows: built offline from what `cargo fetch` downloaded (it fetches for
# every platform), and run under wine.
win=x86_64-pc-windows-gnu
: "${WINE:?set WINE and WINEPREFIX (make test-consumer does)}"
$unshare_net cargo build --offline --target $win || fail "cargo build --offline --target $win failed"
[ -z "$(find "$CARGO_TARGET_DIR/$win" -name 'randp*.dll' -o -name 'librandp*.a')" ] ||
	fail "depending on randp built a C library for $win"
WINEDEBUG=-all "$WINE" "$CARGO_TARGET_DIR/$win/debug/randp-consumer.exe" ||
	fail "the README's Rust example built for $win failed under wine"
echo "test-consumer: the README's Rust example builds offline for $win and runs under wine"
