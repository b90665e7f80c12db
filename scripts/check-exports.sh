#!/bin/sh
# Checks that a library exports exactly the functions declared in the header:
# every defined global symbol starts with randp_, every function the header
# declares is defined, and nothing is exported that the header does not declare.
#
# Usage: scripts/check-exports.sh LIBRARY HEADER
#
# LIBRARY is a static archive (build/librandp.a) or a shared library
# (target/release/librandp.so). The header's functions are read from the
# preprocessed header, so comments and macros cannot add or hide a name.
set -eu

lib=$1
header=$2
CC=${CC:-cc}

here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$here/staticlib-symbols.sh" "$lib" >"$tmp/exported"
"$CC" -E -P -x c "$header" |
	grep -oE '\brandp_[A-Za-z0-9_]+[[:space:]]*\(' |
	sed 's/[[:space:]]*($//' | LC_ALL=C sort -u >"$tmp/declared"

status=0
if [ ! -s "$tmp/declared" ]; then
	echo "check-exports: $header declares no randp_* function" >&2
	status=1
fi
if grep -v '^randp_' "$tmp/exported" >"$tmp/foreign"; then
	echo "check-exports: $lib exports $(wc -l <"$tmp/foreign") symbols outside randp_*, e.g.:" >&2
	head -n 10 "$tmp/foreign" | sed 's/^/  /' >&2
	status=1
fi
missing=$(LC_ALL=C comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$missing" ]; then
	echo "check-exports: declared in $header but not exported by $lib:" $missing >&2
	status=1
fi
undeclared=$(grep '^randp_' "$tmp/exported" | LC_ALL=C comm -13 "$tmp/declared" -)
if [ -n "$undeclared" ]; then
	echo "check-exports: exported by $lib but not declared in $header:" $undeclared >&2
	status=1
fi
if [ "$status" -eq 0 ]; then
	echo "check-exports: $lib exports exactly the $(wc -l <"$tmp/declared") functions of $header"
fi
exit "$status"
