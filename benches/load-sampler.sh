#!/bin/sh
# Runs a command while sampling /proc/loadavg every INTERVAL seconds into
# OUT (one "<unix time> <1 min> <5 min> <15 min>" line per sample), so the
# report can say how loaded the shared machine was during the measurements,
# not only at their ends. Exits with the command's status.
#
#   benches/load-sampler.sh OUT INTERVAL command [args...]
set -u
out=$1 interval=$2
shift 2
: >"$out"
(
	while :; do
		set -- $(cat /proc/loadavg)
		echo "$(date +%s) $1 $2 $3" >>"$out"
		sleep "$interval"
	done
) &
sampler=$!
"$@"
status=$?
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
set -- $(cat /proc/loadavg)
echo "$(date +%s) $1 $2 $3" >>"$out"
exit $status
