#!/bin/sh
# Checks that what README.md cites exists: every repository path in
# backticks (src/…, tests/…, capi/…, go/…, benches/…, scripts/…, mk/…,
# tools/…, include/…) names a file or directory, every test or helper named
# in backticks in snake_case with three or more underscores is a Rust `fn`
# or a C function of the sources (or a Rust test file's name), and every Go
# `TestX`/`BenchmarkX`/`FuzzX` is a `func` of go/. Usage: check-readme-refs.sh [README]. Exit 1 lists what is missing.
set -eu
readme=${1:-README.md}
refs=$(grep -o '`[^`]*`' "$readme" | tr -d '`' | sort -u)
missing=0
say() { echo "check-readme-refs: $readme cites $1, which does not exist" >&2; missing=$((missing + 1)); }
for r in $refs; do
	case $r in
	*'*'* | *'<'* | *'{'* | *'$'*) ;;
	src/* | tests/* | capi/* | go/* | benches/* | scripts/* | mk/* | tools/* | include/*)
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
[ "$missing" -eq 0 ] || exit 1
echo "check-readme-refs: every path, Rust function and Go test $readme cites exists"
