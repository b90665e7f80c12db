#!/bin/sh
# Checks that what the user-facing documents cite exists, and that they cite
# nothing a reader outside this project cannot follow. In each FILE:
#
#   - every repository path in backticks (src/…, tests/…, capi/…, go/…,
#     benches/…, scripts/…, mk/…, tools/…, include/…, examples/…, docs/…)
#     names a file or directory;
#   - every relative Markdown link, [text](path) or [text](path#anchor),
#     names a file or directory (from the document's own directory);
#   - every `make TARGET` names a target that `make help` lists;
#   - every test or helper named in backticks in snake_case with three or
#     more underscores is a Rust `fn` or a C function of the sources (or a
#     Rust test file's name), and every Go `TestX`/`BenchmarkX`/`FuzzX` is a
#     `func` of go/;
#   - no line cites an issue number ("issue 12") or a path outside the
#     repository ("../shared").
#
# Usage: check-readme-refs.sh FILE... (default README.md). Run from the
# repository's root. Exit 1 lists what is wrong.
set -eu
[ $# -gt 0 ] || set -- README.md
missing=0
targets=$(scripts/make-help.sh Makefile mk/*.mk | awk 'NF >= 2 && /^  [^ ]/ { print $1 }')
[ -n "$targets" ] || { echo "check-readme-refs: make help listed no targets" >&2; exit 1; }

for doc in "$@"; do
	say() { echo "check-readme-refs: $doc cites $1, which does not exist" >&2; missing=$((missing + 1)); }
	dir=$(dirname "$doc")

	refs=$(grep -o '`[^`]*`' "$doc" | tr -d '`' | sort -u)
	for r in $refs; do
		case $r in
		*'*'* | *'<'* | *'{'* | *'$'*) ;;
		src/* | tests/* | capi/* | go/* | benches/* | scripts/* | mk/* | tools/* | include/* | examples/* | docs/*)
			p=${r%%:*}
			[ -e "$p" ] || say "the path $p" ;;
		Test[A-Z]* | Benchmark[A-Z]* | Fuzz[A-Z]*)
			name=${r%%/*}
			grep -rqE "^func (\([^)]*\) )?$name\(" go --include='*.go' || say "the Go function $name" ;;
		*)
			if printf '%s\n' "$r" | grep -qE '^[a-z][a-z0-9]*(_[a-z0-9]+){3,}$'; then
				[ -e "tests/$r.rs" ] || grep -rqE "(fn|void|int) $r\(" src tests capi benches ||
					say "the function $r"
			fi ;;
		esac
	done

	# Markdown links to files: not URLs, not anchors within the document.
	links=$(grep -oE '\]\([^)#[:space:]]+' "$doc" | sed 's/^](//' | grep -vE '^[a-z]+:' | sort -u || true)
	for l in $links; do
		[ -e "$dir/$l" ] || say "the linked file $dir/$l"
	done

	# `make TARGET`, in code spans or blocks: a target make help lists.
	for t in $(grep -oE '(^|[`(;&] *)make [a-z][a-z0-9-]*' "$doc" | sed 's/.*make //' | sort -u); do
		echo "$targets" | grep -qx -- "$t" || say "the make target $t"
	done

	if grep -nE '[Ii]ssue [0-9]+|\.\./shared' "$doc" >&2; then
		echo "check-readme-refs: $doc cites an issue number or a path outside the repository (above)" >&2
		missing=$((missing + 1))
	fi
done
[ "$missing" -eq 0 ] || exit 1
echo "check-readme-refs: every path, link, make target, Rust function and Go test that $* cite exists, and none cites an issue or a path outside the repository"
