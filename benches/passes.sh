#!/bin/sh
# Runs every contestant of every language in PASSES interleaved passes, one
# new process per contestant group and pass, so that each sample of a row
# comes from its own process (its own memory layout, its own start-up) and
# every contestant's samples spread over the whole run. One pass runs, in
# this order:
#   the hardware references  one `openssl speed -elapsed -evp aes-256-ctr` on
#                            1 MiB buffers and one aes-ceiling process (one
#                            repetition of each kernel, wall clock)
#   Rust                     each criterion bench binary once (--bench), into
#                            OUTDIR/criterion/pass-NN
#   C                        the Google Benchmark program once, one repetition
#                            of every benchmark in random order, into
#                            OUTDIR/c/pass-NN.json, its fills' destinations
#                            0, 16, 32 or 48 bytes past a 64-byte boundary
#                            in turn from one pass to the next
#   Go                       each go test binary once (-test.count 1),
#                            appended to OUTDIR/go-<name>.txt
#
#   benches/passes.sh PASSES OUTDIR
#
# What to run comes from the environment (unset or empty: that part is
# skipped and says so): RUST_BINS (criterion executables), BENCH_C and
# RANDP_SO (the C program and the librandp.so it dlopens), C_MIN_TIME,
# GO_BINS (go test binaries), BENCHTIME, GO_FILTER_<name> (a -test.bench
# pattern for the binary <name>.test; default "."), AES_CEILING and
# CEILING_GIB. ZMM=1 in the environment turns on aes-ceiling's 512-bit loops.
set -eu
passes=$1 out=$2
mkdir -p "$out/criterion" "$out/c"
: >"$out/ceiling.txt"
: >"$out/rust.txt"
: >"$out/c.txt"
for bin in ${GO_BINS:-}; do : >"$out/go-$(basename "$bin" .test).txt"; done
echo "# openssl: $(openssl version)" >>"$out/ceiling.txt"

i=1
while [ "$i" -le "$passes" ]; do
	pass=$(printf '%02d' "$i")
	echo "bench pass $i/$passes"
	# The hardware references, wall clock like every other row.
	echo "# pass $pass" >>"$out/ceiling.txt"
	openssl speed -elapsed -mr -seconds 1 -bytes 1048576 -evp aes-256-ctr 2>/dev/null | grep '^+F:' >>"$out/ceiling.txt"
	if [ -n "${AES_CEILING:-}" ] && [ -x "$AES_CEILING" ]; then
		echo "# aes-ceiling" >>"$out/ceiling.txt"
		"$AES_CEILING" "${CEILING_GIB:-0.5}" 1 >>"$out/ceiling.txt"
	else
		echo "# aes-ceiling: not measured: $(cat "${AES_CEILING:-}.missing" 2>/dev/null || echo tool not built)" >>"$out/ceiling.txt"
	fi
	# Rust: every criterion binary, its results kept per pass.
	for bin in ${RUST_BINS:-}; do
		echo "== pass $pass: $(basename "$bin")" >>"$out/rust.txt"
		CRITERION_HOME="$out/criterion/pass-$pass" "$bin" --bench >>"$out/rust.txt" 2>&1
	done
	# C: one repetition of every benchmark, in random order.
	if [ -n "${BENCH_C:-}" ]; then
		echo "== pass $pass" >>"$out/c.txt"
		RANDP_BENCH_SO="${RANDP_SO:-}" RANDP_BENCH_DST_OFFSET=$(((i - 1) % 4 * 16)) "$BENCH_C" --benchmark_min_time="${C_MIN_TIME:-0.1}" \
			--benchmark_repetitions=1 --benchmark_enable_random_interleaving=true \
			--benchmark_out="$out/c/pass-$pass.json" --benchmark_out_format=json >>"$out/c.txt" 2>&1
	fi
	# Go: every test binary once.
	for bin in ${GO_BINS:-}; do
		name=$(basename "$bin" .test)
		filter=$(eval "echo \"\${GO_FILTER_$(echo "$name" | tr -c 'A-Za-z0-9\n' '_'):-.}\"")
		"$bin" -test.run '^$' -test.bench "$filter" -test.benchtime "${BENCHTIME:-200ms}" -test.count 1 \
			-test.benchmem >>"$out/go-$name.txt"
	done
	i=$((i + 1))
done
