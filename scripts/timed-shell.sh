#!/bin/sh
# The shell of `make test`'s recipes: runs one recipe line with /bin/sh,
# bounded by RANDP_RECIPE_TIMEOUT seconds (a hung suite fails, named, instead
# of stalling the run), and appends "TARGET<TAB>SECONDS" to $RANDP_TEST_TIMES,
# so that scripts/test-times.sh can sum each target's own wall time. When
# file descriptor 3 is open (make test opens it on its own output), a line
# goes there as each recipe line starts and ends: make's --output-sync holds
# a target's output until the target ends, and these lines show what runs
# meanwhile. make passes the target as the first argument
# (.SHELLFLAGS = $@ -c); $(shell ...) calls, which have no target, pass only -c.
#
# Usage (by make): timed-shell.sh [TARGET] -c COMMAND
if [ "$1" = -c ]; then exec /bin/sh "$@"; fi
target=$1
shift
limit=${RANDP_RECIPE_TIMEOUT:-1500}
progress() {
	if { true >&3; } 2>/dev/null; then
		printf 'make test: %s %s %s\n' "$(date +%T)" "$target" "$1" >&3
	fi
}
start=$(date +%s.%N)
progress started
# Shortly before the limit, the process tree goes to stderr: what a hung
# line was waiting on, in the log of the run that killed it.
(
	trap 'kill "$nap" 2>/dev/null; exit 0' TERM
	sleep $((limit - 5)) &
	nap=$!
	wait "$nap"
	echo "make test: $target: still running after $((limit - 5)) s; the processes:" >&2
	ps --ppid 2 -p 2 --deselect -o pid,ppid,stat,etime,wchan:20,args --forest | cut -c 1-240 >&2
) &
watch=$!
timeout --kill-after=30 "$limit" /bin/sh "$@"
rc=$?
kill "$watch" 2>/dev/null
end=$(date +%s.%N)
secs=$(echo "$end - $start" | bc)
if [ "$(echo "$secs >= $limit" | bc)" -eq 1 ]; then
	echo "make test: $target: a recipe line ran past ${limit} s and was killed" >&2
fi
progress "ended after $(printf '%.0f' "$secs") s, status $rc"
if [ -n "${RANDP_TEST_TIMES:-}" ]; then
	printf '%s\t%s\n' "$target" "$secs" >>"$RANDP_TEST_TIMES"
fi
exit $rc
