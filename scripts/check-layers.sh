#!/bin/sh
# The import graph of the crate's modules, from the code's own references,
# and a check that it has no circle: the layers read lib -> draw ->
# thread_state -> generator -> keystream -> entropy -> os, and a module
# never names one above it.
#
# A module is a top-level file or directory of SRC (src/os/linux/tls.rs is
# in `os`; lib.rs is `lib`). Every `crate::NAME` in a module's files, its
# tests and doc links included, is an edge to module NAME, or, when NAME is
# an item of the crate root, to the module lib.rs re-exports it from
# (`pub use draw::{u64, ..}`), else to `lib`. In lib.rs, `NAME::` is an edge
# too. src/bin/ is another crate and is left out.
#
# Usage:
#   scripts/check-layers.sh [SRC]           print the edges, then the order
#                                           (bottom first); exit 1 on a circle
#   scripts/check-layers.sh --edges [SRC]   print `from to` edges only
set -eu

edges_only=0
if [ "${1:-}" = "--edges" ]; then edges_only=1; shift; fi
src=${1:-src}
[ -f "$src/lib.rs" ] || { echo "check-layers: no $src/lib.rs" >&2; exit 2; }

modules=$(for f in "$src"/*; do
	b=$(basename "$f" .rs)
	case $b in lib | bin) ;; *) echo "$b" ;; esac
done | sort -u)

is_module() { printf '%s\n' "$modules" | grep -qx "$1"; }

# `pub use MODULE::{a, b}` and `pub use MODULE::a` in lib.rs, as `a MODULE` lines.
reexports=$(sed -n 's/^pub use \([a-z_0-9]*\)::{\(.*\)};$/\1 \2/p; s/^pub use \([a-z_0-9]*\)::\([A-Za-z_0-9]*\);$/\1 \2/p' "$src/lib.rs" |
	while read -r m names; do
		for n in $(printf '%s' "$names" | tr ',' ' '); do echo "$n $m"; done
	done)

target_of() {
	if is_module "$1"; then echo "$1"; return; fi
	m=$(printf '%s\n' "$reexports" | awk -v n="$1" '$1 == n { print $2; exit }')
	echo "${m:-lib}"
}

edges() {
	for f in $(find "$src" -name '*.rs' ! -path "$src/bin/*" | LC_ALL=C sort); do
		rel=${f#"$src"/}
		from=${rel%%/*}
		from=${from%.rs}
		grep -o 'crate::[A-Za-z_][A-Za-z_0-9]*' "$f" | sed 's/^crate:://' | while read -r name; do
			to=$(target_of "$name")
			[ "$to" = "$from" ] || echo "$from $to"
		done
		if [ "$from" = lib ]; then
			grep -v '^ *mod [a-z_]*;' "$f" | grep -o '\(^\|[^A-Za-z_0-9:]\)[a-z_][a-z_0-9]*::' |
				sed 's/^[^a-z_]*//; s/::$//' | while read -r name; do
					if is_module "$name"; then echo "lib $name"; fi
				done
		fi
	done | LC_ALL=C sort -u
}

e=$(edges)
if [ $edges_only = 1 ]; then printf '%s\n' "$e"; exit 0; fi
printf '%s\n' "$e" | sed 's/ / -> /'
echo "order, bottom first:"
# tsort reports a circle on stderr; it lists a module before those it
# points at, so reversed its order is the bottom first.
circle=$(printf '%s\n' "$e" | tsort 2>&1 >/dev/null) || true
if [ -n "$circle" ]; then
	printf '%s\n' "$circle" >&2
	echo "check-layers: the module graph of $src has a circle (above)" >&2
	exit 1
fi
printf '%s\n' "$e" | tsort | tac | tr '\n' ' '
echo
