#!/bin/sh
# The hardware references for randp's keystream, measured in the run: REPS
# runs of `openssl speed -evp aes-256-ctr` on 1 MiB buffers (machine-readable
# lines, bytes per second), then the plain AES-CTR loops of aes-ceiling
# (AES-NI and VAES, built from the shared tools folder), interleaved by the
# tool itself. Writes everything to OUT; an absent aes-ceiling is noted.
#
#   benches/ceiling.sh OUT REPS SECONDS AES_CEILING_BINARY GIB
set -u
out=$1 reps=$2 seconds=$3 ceiling=$4 gib=$5
{
	echo "# openssl: $(openssl version)"
	i=1
	while [ "$i" -le "$reps" ]; do
		openssl speed -mr -seconds "$seconds" -bytes 1048576 -evp aes-256-ctr 2>/dev/null | grep '^+F:'
		i=$((i + 1))
	done
	if [ -x "$ceiling" ]; then
		echo "# aes-ceiling"
		"$ceiling" "$gib" "$reps"
	else
		echo "# aes-ceiling: not measured: tool source unavailable"
	fi
} >"$out"
cat "$out"
