#!/bin/sh
# Sums the per-line times scripts/timed-shell.sh recorded into one wall time
# per target, slowest first, with the run's own wall time and the CPU.
#
# Usage: scripts/test-times.sh RAW WALL_SECONDS JOBS >build/test-times.txt
set -eu
raw=$1
wall=$2
jobs=$3
cpu=$(awk -F': ' '/^vendor_id/ && !v { v = $2 } /^cpu family/ && !f { f = $2 } /^model\t/ && !m { m = $2 }
	/^model name/ && !n { n = $2 } END { printf "%s (%s family %s model %s)", n, v, f, m }' /proc/cpuinfo)
echo "make test: $(printf '%.0f' "$wall") s wall ($(awk -v s="$wall" 'BEGIN { printf "%d min %02d s", s / 60, s % 60 }')), $jobs jobs, $(nproc) cores, $cpu"
echo "load average at the end: $(cut -d ' ' -f 1-3 /proc/loadavg); each target's own recipe time (prerequisites not included), slowest first:"
awk -F '\t' '{ t[$1] += $2 } END { for (k in t) printf "%8.1f s  %s\n", t[k], k }' "$raw" | sort -rn
