#!/bin/sh
# Checks that README.md's quick-start examples are the files `make test`
# builds and runs, character for character:
#
#   the first ```rust block  = examples/quickstart.rs (a cargo example)
#   the first ```c block     = examples/quickstart.c
#   the first ```go block    = a whole program whose main's body is the body
#                              of `func Example()` in go/example_test.go, up
#                              to its `// Output:` line (go test checks it)
#
# Usage: scripts/check-readme-examples.sh [README]. Exit 1 says what differs.
set -eu
readme=${1:-README.md}
fail=0
say() { echo "check-readme-examples: $readme: $*" >&2; fail=1; }

# block LANG FILE: the first fenced block of LANG in FILE, without its fences.
block() {
	awk -v lang="$1" '
		!done && $0 == "```" lang { inside = 1; next }
		inside && /^```/ { inside = 0; done = 1; next }
		inside { print }' "$2"
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

same() { # WHAT EXPECTED-FILE ACTUAL-TEXT
	if [ -z "$3" ]; then
		say "has no $1 block"
	elif [ "$(cat "$2")" != "$3" ]; then
		say "its first $1 block is not $2:"
		printf '%s\n' "$3" | diff -u "$2" - >&2 || true
	fi
}

same rust examples/quickstart.rs "$(block rust "$readme")"
same c examples/quickstart.c "$(block c "$readme")"

body_of_main=$(block go "$readme" | awk '/^func main\(\) \{$/ { inside = 1; next } inside && /^\}$/ { inside = 0 } inside')
body_of_example=$(awk '/^func Example\(\) \{$/ { inside = 1; next }
	inside && /\/\/ Output:/ { inside = 0 } inside' go/example_test.go)
if [ -z "$body_of_main" ]; then
	say "has no go block with a func main"
elif [ -z "$body_of_example" ]; then
	say "go/example_test.go has no func Example with an // Output: line"
elif [ "$body_of_main" != "$body_of_example" ]; then
	say "its first go block's main is not the body of go/example_test.go's Example:"
	printf '%s\n' "$body_of_example" >"$tmp"
	printf '%s\n' "$body_of_main" | diff -u "$tmp" - >&2 || true
fi
[ "$fail" = 0 ] || exit 1
echo "check-readme-examples: $readme's Rust, C and Go quick starts are examples/quickstart.rs, examples/quickstart.c and go/example_test.go's Example"
