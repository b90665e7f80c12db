#!/bin/sh
# Runs Go test binaries' benchmarks in interleaved passes: COUNT times, each
# binary once with -test.count 1, so that every contestant's samples spread
# over the whole run and load drift does not turn into a ratio. A binary's
# output is appended to OUTDIR/go-<name>.txt, where <name> is its file name
# without ".test".
#
#   benches/go-passes.sh COUNT BENCHTIME OUTDIR binary.test...
set -eu
count=$1 benchtime=$2 outdir=$3
shift 3
mkdir -p "$outdir"
for bin in "$@"; do : >"$outdir/go-$(basename "$bin" .test).txt"; done
i=1
while [ "$i" -le "$count" ]; do
	for bin in "$@"; do
		echo "go pass $i/$count: $(basename "$bin")"
		"$bin" -test.run '^$' -test.bench . -test.benchtime "$benchtime" -test.count 1 -test.benchmem \
			>>"$outdir/go-$(basename "$bin" .test).txt"
	done
	i=$((i + 1))
done
