#!/bin/sh
# The shell of `make test`'s recipes: runs one recipe line with /bin/sh and
# appends "TARGET<TAB>SECONDS" to $RANDP_TEST_TIMES, so that
# scripts/test-times.sh can sum each target's own wall time. make passes the
# target as the first argument (.SHELLFLAGS = $@ -c); $(shell ...) calls,
# which have no target, pass only -c.
#
# Usage (by make): timed-shell.sh [TARGET] -c COMMAND
if [ "$1" = -c ]; then exec /bin/sh "$@"; fi
target=$1
shift
start=$(date +%s.%N)
/bin/sh "$@"
rc=$?
end=$(date +%s.%N)
if [ -n "${RANDP_TEST_TIMES:-}" ]; then
	printf '%s\t%s\n' "$target" "$(echo "$end - $start" | bc)" >>"$RANDP_TEST_TIMES"
fi
exit $rc
