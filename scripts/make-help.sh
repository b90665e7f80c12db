#!/bin/sh
# `make help`, and its check.
#
# Every Makefile fragment documents its targets in its header comment, one
# line each, as
#
#   #   make TARGET   what it does
#
# (a description may go on over the next lines, indented past the name),
# and `make help` prints each whole, on one line, file by file. File
# targets (a name with a slash, such as build/...) are internal: neither
# listed nor required. With --check, it instead
# asks make for its database (make -pRrq with each MAKEFILE as -f) and fails
# unless every target the makefiles define or declare .PHONY has such a line
# in one of the files make read, and every such line names a target that
# exists.
#
# Usage: scripts/make-help.sh FILE...              print the help from FILEs
#        scripts/make-help.sh --check MAKEFILE...  check it
set -eu

# Prints "TARGET<TAB>DESCRIPTION" for each documented target, or with -f,
# "FILE" lines between them.
entries() {
	with_files=$1
	shift
	awk -v with_files="$with_files" '
		function flush() { if (name != "") print name "\t" desc; name = "" }
		FNR == 1 { flush(); if (with_files) print "file\t" FILENAME }
		/^#   make [A-Za-z0-9_.-]+[ \t]+[^ \t]/ {
			flush()
			line = substr($0, 10)
			name = line; sub(/[ \t].*/, "", name)
			desc = substr(line, length(name) + 1); sub(/^[ \t]+/, "", desc)
			next
		}
		# A description continued on the next lines, indented past the name.
		name != "" && /^#[ \t][ \t][ \t][ \t][ \t][ \t][ \t][ \t][ \t][ \t]*[^ \t]/ { more = $0; sub(/^#[ \t]+/, "", more); desc = desc " " more; next }
		{ flush() }
		END { flush() }' "$@"
}

if [ "${1:-}" != --check ]; then
	echo "make targets: start with \`make check\` (about 3 min); \`make test\` runs everything CI runs. Each fragment's header (mk/*.mk) says more."
	entries 1 "$@" | awk -F '\t' '
		$1 == "file" { printf "\n%s\n", $2; next }
		{ printf "  %-26s %s\n", $1, $2 }'
	exit 0
fi
shift

# make's own view: the files it read, the rule targets (without the special
# .TARGETS) and the .PHONY list.
makeargs=
for f in "$@"; do makeargs="$makeargs -f $f"; done
# shellcheck disable=SC2086 # a word list
db=$(make --no-print-directory -pRrq $makeargs __make_help_no_such_target__ 2>/dev/null || true)
files=$(echo "$db" | sed -n 's/^MAKEFILE_LIST := *//p' | tail -n 1)
[ -n "$files" ] || { echo "make help: make printed no MAKEFILE_LIST" >&2; exit 1; }

fail=0
# shellcheck disable=SC2086 # a word list
documented=$(entries 0 $files | cut -f 1 | sort)
dups=$(echo "$documented" | uniq -d)
if [ -n "$dups" ]; then
	echo "make help: documented more than once: $(echo $dups)" >&2
	fail=1
fi
targets=$(echo "$db" | awk '
	/^# Not a target:/ { skip = 1; next }
	/^[A-Za-z0-9_][^:=#\t ]*:([^=]|$)/ && !skip { sub(/:.*/, ""); print }
	{ skip = 0 }' | grep -vx '__make_help_no_such_target__' | grep -v / | sort -u)
phony=$(echo "$db" | sed -n 's/^\.PHONY: *//p' | tr ' ' '\n' | sed '/^$/d' | grep -v / | sort -u)
[ -n "$targets" ] || { echo "make help: make printed no database" >&2; exit 1; }

for t in $(printf '%s\n%s\n' "$targets" "$phony" | sort -u); do
	if ! echo "$documented" | grep -qx -- "$t"; then
		echo "make help: target $t has no '#   make $t  ...' line in its fragment's header" >&2
		fail=1
	fi
done
for t in $documented; do
	if ! echo "$targets" | grep -qx -- "$t"; then
		echo "make help: '#   make $t' documents a target no makefile defines" >&2
		fail=1
	fi
done
[ "$fail" = 0 ] || exit 1
echo "make help: all $(echo "$targets" | wc -l) targets documented, one line each"
