#!/bin/sh
# Turns the Rust staticlib into a static library that exports only randp_*.
#
# Usage: scripts/localize-staticlib.sh IN.a OUT.a
#
# Every member of IN.a is linked into one relocatable object (ld -r), keeping
# only the sections reachable from the randp_* functions (--gc-sections with
# those as roots; .init_array, TLS and unwind tables stay as ld keeps them),
# then every global symbol except the randp_* functions is made local
# (objcopy --keep-global-symbols). References between Rust's own objects were
# resolved inside that object, so nothing outside needs them, and two Rust
# static libraries (each with its own std, compiler_builtins and
# rust_eh_personality) can then be linked into one program without duplicate
# or mismatched symbols (rust-lang/rust#44322).
#
# The keep list is read from IN.a itself (its defined randp_* symbols), so it
# cannot drift from the source; the C tests check it against include/randp.h.
# Section groups are dissolved (-R .group): rustc puts DW.ref.rust_eh_personality
# in a COMDAT group, and a linker that meets the same group in another Rust
# library keeps only the first copy, leaving the other library's reference to
# a symbol that is now local to this one. The embedded LLVM bitcode and debug
# info are dropped: no consumer uses them, and the bitcode confuses linkers
# that load an LTO plugin.
set -eu

in=$1
out=$2
LD=${LD:-ld}
OBJCOPY=${OBJCOPY:-objcopy}
AR=${AR:-ar}

here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$here/staticlib-symbols.sh" "$in" | grep '^randp_' >"$tmp/keep.txt" || true
if [ ! -s "$tmp/keep.txt" ]; then
	echo "localize-staticlib: $in defines no randp_* symbol" >&2
	exit 1
fi

# shellcheck disable=SC2046 # one -u per exported function
"$LD" -r --gc-sections $(sed 's/^/-u /' "$tmp/keep.txt") --whole-archive "$in" -o "$tmp/linked.o"
# The embedded LLVM bitcode goes first: binutils' LTO plugin chokes on it.
"$OBJCOPY" --remove-section=.llvmbc --remove-section=.llvmcmd "$tmp/linked.o" "$tmp/randp.o"
# The library is no_std and built with panic=abort, so nothing in it unwinds,
# but the precompiled `core` names Rust's personality routine in its unwind
# tables. Resolve that name inside the object (it is never called) rather than
# leave C programs an undefined symbol.
if nm -u "$tmp/randp.o" | grep -qw rust_eh_personality; then
	mv "$tmp/randp.o" "$tmp/unresolved.o"
	"$LD" -r --defsym=rust_eh_personality=0 "$tmp/unresolved.o" -o "$tmp/randp.o"
fi
"$OBJCOPY" \
	--keep-global-symbols="$tmp/keep.txt" \
	--remove-section=.group \
	--strip-debug \
	"$tmp/randp.o" "$tmp/librandp.o"

mkdir -p "$(dirname "$out")"
rm -f "$tmp/librandp.a"
"$AR" rcsD "$tmp/librandp.a" "$tmp/librandp.o"
mv -f "$tmp/librandp.a" "$out"
echo "localize-staticlib: $out exports $(wc -l <"$tmp/keep.txt") symbols: $(tr '\n' ' ' <"$tmp/keep.txt")"
