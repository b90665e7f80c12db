# Benchmarks: criterion benches (benches/), Go benchmarks (go/bench_*_test.go)
# and the report generator (tools/benchreport) that writes BENCHMARKS.md.
#
#   make bench             every seed table, both sweeps and the report (~15 min on 2 cores)
#   make bench-quick       the same with short measurement times (~7 min)
#   make num-blocks        sweep the buffer size (Generator<BLOCKS, DEFAULT_RESEED>), print a table
#   make reseed-countdown  sweep the reseed interval (Generator<DEFAULT_BLOCKS, RESEED>), print a table
#   make bench-smoke       run every benchmark once, proving each still runs (CI; never judges speed)
#
# Knobs: BENCH_WARMUP_MS, BENCH_MEASURE_MS, BENCH_SAMPLES (each criterion
# benchmark), SWEEP_WARMUP_MS, SWEEP_MEASURE_MS (each sweep point), BENCHTIME
# and BENCH_COUNT (go test -benchtime / -count; benchstat wants count >= 6).

BENCH_DIR        := build/bench
RUST_BENCHES     := fill words bounded threads
BENCH_WARMUP_MS  ?= 500
BENCH_MEASURE_MS ?= 1500
BENCH_SAMPLES    ?= 30
SWEEP_WARMUP_MS  ?= 300
SWEEP_MEASURE_MS ?= 1000
BENCHTIME        ?= 400ms
BENCH_COUNT      ?= 6

# cargo bench with criterion's output kept in $(BENCH_DIR)/criterion; the
# internals feature is on for every bench so that one build serves them all.
CARGO_BENCH = CRITERION_HOME=$(abspath $(BENCH_DIR))/criterion \
	$(CARGO) bench --locked --features internals
BENCH_REPORT = cd tools/benchreport && $(GO) run .
BENCH_DESCRIBE = criterion $(BENCH_WARMUP_MS) ms warm-up + $(BENCH_MEASURE_MS) ms measurement, $(BENCH_SAMPLES) samples (sweeps: $(SWEEP_WARMUP_MS) + $(SWEEP_MEASURE_MS) ms, 10 samples); go test -benchtime $(BENCHTIME) -count $(BENCH_COUNT)
SWEEP_ENV = RANDP_BENCH_WARMUP_MS=$(SWEEP_WARMUP_MS) RANDP_BENCH_MEASURE_MS=$(SWEEP_MEASURE_MS) RANDP_BENCH_SAMPLES=10

.PHONY: bench bench-quick bench-run bench-rust bench-sweeps bench-go num-blocks reseed-countdown bench-smoke

bench: bench-run

bench-quick:
	$(MAKE) bench-run BENCH_WARMUP_MS=200 BENCH_MEASURE_MS=500 BENCH_SAMPLES=10 \
		SWEEP_WARMUP_MS=100 SWEEP_MEASURE_MS=300 BENCHTIME=100ms BENCH_COUNT=6

# One run, one machine: clear old results, measure everything, write the report.
bench-run: staticlib
	rm -rf $(BENCH_DIR)
	mkdir -p $(BENCH_DIR)
	cat /proc/loadavg > $(BENCH_DIR)/loadavg-start.txt
	$(MAKE) bench-rust bench-sweeps bench-go
	$(BENCH_REPORT) -root ../.. -describe "$(BENCH_DESCRIBE)"

bench-rust:
	mkdir -p $(BENCH_DIR)
	bash -o pipefail -c 'RANDP_BENCH_WARMUP_MS=$(BENCH_WARMUP_MS) RANDP_BENCH_MEASURE_MS=$(BENCH_MEASURE_MS) \
		RANDP_BENCH_SAMPLES=$(BENCH_SAMPLES) $(CARGO_BENCH) $(RUST_BENCHES:%=--bench %) 2>&1 \
		| tee $(BENCH_DIR)/rust.txt'

bench-sweeps:
	mkdir -p $(BENCH_DIR)
	bash -o pipefail -c '$(SWEEP_ENV) $(CARGO_BENCH) --bench sweep 2>&1 | tee $(BENCH_DIR)/sweep.txt'
	$(BENCH_REPORT) -root ../.. -sweep num_blocks
	$(BENCH_REPORT) -root ../.. -sweep reseed_countdown

# Against build/librandp.a (randp_local), so the numbers are this tree's.
bench-go:
	mkdir -p $(BENCH_DIR)
	bash -o pipefail -c 'cd go && CGO_ENABLED=1 $(GO) test -tags randp_local -run "^$$" -bench . \
		-benchtime $(BENCHTIME) -count $(BENCH_COUNT) . 2>&1 | tee ../$(BENCH_DIR)/go.txt'

num-blocks reseed-countdown:
	mkdir -p $(BENCH_DIR)
	$(SWEEP_ENV) $(CARGO_BENCH) --bench sweep -- $(subst -,_,$@)
	@$(BENCH_REPORT) -root ../.. -sweep $(subst -,_,$@)

# CI smoke: each criterion bench once in test mode (under `cargo test`
# criterion runs every benchmark once and reports Success), each Go benchmark
# with -benchtime=1x, and the report tool's tests. The dev profile skips the
# LTO links of the bench profile: this proves the benches run, not how fast.
TEST_TARGETS += bench-smoke
bench-smoke: staticlib
	$(CARGO) test --locked --features internals $(RUST_BENCHES:%=--bench %) --bench sweep
	cd go && CGO_ENABLED=1 $(GO) test -tags randp_local -run '^$$' -bench . -benchtime 1x .
	cd tools/benchreport && $(GO) vet . && $(GO) test .
