# Benchmarks: randp side by side with the libraries its users run today, on
# this machine, in one run, and the report generator (tools/benchreport)
# that writes BENCHMARKS.md from the raw outputs.
#
#   make bench             everything, then BENCHMARKS.md (about 25 min on 2 cores)
#   make bench-quick       the same with short measurement times (about 10 min)
#   make bench-smoke       every benchmark once, and the report from those outputs (CI; never judges speed)
#   make num-blocks        sweep the buffer size (Generator<BLOCKS, DEFAULT_RESEED>), print a table
#   make reseed-countdown  sweep the reseed interval (Generator<DEFAULT_BLOCKS, RESEED>), print a table
#
# The steps of a run, which also run alone:
#   make bench-run         what make bench runs: refuse a dirty tree, build, measure, collect, report
#   make bench-check-clean fail if the tree has uncommitted changes (unless BENCH_ALLOW_DIRTY=1)
#   make bench-deps        apt-get the C benchmarks' packages when missing (benches/deps.sh)
#   make bench-peers       make the peers' sources available in build/peers (benches/peers.sh)
#   make bench-c-build     build the C benchmark program, build/bench-bin/bench_c
#   make bench-go-build    build the Go benchmark test binaries into build/bench-bin
#   make bench-ceiling-build  build aes-ceiling from TOOLS_DIR, when there
#   make bench-measure     every measurement below, in this order
#   make bench-ceiling     openssl speed and aes-ceiling at the start of the run
#   make bench-rust        the criterion benches (fill, words, bounded, threads)
#   make bench-sweeps      the criterion sweeps (buffer size, reseed interval)
#   make bench-c           the C benchmark program (BENCH_C_OUT, BENCH_C_FLAGS)
#   make bench-go          interleaved passes of the Go benchmark binaries (GO_OUT)
#   make bench-ceiling-end openssl speed and aes-ceiling at the end of the run
#   make bench-collect     copy the raw outputs into benches/results/
#   make bench-report      render BENCHMARKS.md from benches/results/
#
# What runs (benches/README.md says more):
#   benches/*.rs       criterion: randp's Rust API beside rand (ThreadRng, StdRng), getrandom, the aes keystream
#   benches/c/         Google Benchmark, C to C: randp's C ABI beside planet36/randp, arc4random (glibc,
#                      libbsd), OpenSSL RAND_bytes, getentropy, getrandom (system call and vDSO)
#   go/bench_*_test.go randp's Go API beside crypto/rand, math/rand(/v2), cgo libc sources
#   benches/go/        the "old" getrandom-per-Read crypto/rand, unpredictable, and decred dcrd's own benchmarks
#   benches/ceiling.sh openssl speed -evp aes-256-ctr and the shared aes-ceiling tool
#
# The peers (planet36/randp, dcrd's crypto/rand, unpredictable) are built from
# PEERS_DIR (default ../shared/peers when it exists), else cloned at their
# pinned commits into build/peers, else their rows read "not measured".
#
# A run writes its raw outputs to build/bench/, copies them to
# benches/results/ (committed beside the report) and renders BENCHMARKS.md
# from there. It refuses to start from a dirty tree unless BENCH_ALLOW_DIRTY=1.
#
# Knobs: BENCH_WARMUP_MS, BENCH_MEASURE_MS, BENCH_SAMPLES (each criterion
# benchmark); SWEEP_WARMUP_MS, SWEEP_MEASURE_MS (each sweep point); BENCHTIME
# and BENCH_COUNT (Go: -benchtime of each pass, number of interleaved passes;
# benchstat wants >= 6); C_MIN_TIME and C_REPS (Google Benchmark seconds per
# repetition, repetitions, interleaved at random); CEILING_REPS.

PEERS_DIR        ?= $(firstword $(wildcard ../shared/peers))
TOOLS_DIR        ?= $(firstword $(wildcard ../shared/tools))
PEERS_BUILD      := build/peers
BENCH_BIN        := build/bench-bin
BENCH_DIR        := build/bench
BENCH_RESULTS    := benches/results
SMOKE_DIR        := build/bench-smoke
RUST_BENCHES     := fill words bounded threads
BENCH_WARMUP_MS  ?= 500
BENCH_MEASURE_MS ?= 1500
BENCH_SAMPLES    ?= 30
SWEEP_WARMUP_MS  ?= 300
SWEEP_MEASURE_MS ?= 1000
BENCHTIME        ?= 300ms
BENCH_COUNT      ?= 6
C_MIN_TIME       ?= 0.15
C_REPS           ?= 10
CEILING_REPS     ?= 5
BENCH_ALLOW_DIRTY ?=

# cargo bench with criterion's output kept in $(BENCH_DIR)/criterion; the
# internals feature is on for every bench so that one build serves them all.
CARGO_BENCH = CRITERION_HOME=$(abspath $(BENCH_DIR))/criterion \
	$(CARGO) bench --locked --features internals
BENCH_REPORT = cd tools/benchreport && $(GO) run .
BENCH_DESCRIBE = criterion $(BENCH_WARMUP_MS) ms warm-up + $(BENCH_MEASURE_MS) ms measurement, $(BENCH_SAMPLES) samples \
	(sweeps: $(SWEEP_WARMUP_MS) + $(SWEEP_MEASURE_MS) ms, 10 samples); Go: $(BENCH_COUNT) interleaved passes of -benchtime $(BENCHTIME); \
	C: $(C_REPS) repetitions of $(C_MIN_TIME) s, randomly interleaved; openssl speed: $(CEILING_REPS) runs
SWEEP_ENV = RANDP_BENCH_WARMUP_MS=$(SWEEP_WARMUP_MS) RANDP_BENCH_MEASURE_MS=$(SWEEP_MEASURE_MS) RANDP_BENCH_SAMPLES=10

# The C benchmark program and its parts.
BENCH_C_SRC   := benches/c
BENCH_C       := $(BENCH_BIN)/bench_c
PLANET36_OBJ  := $(BENCH_BIN)/planet36.o
PLANET36_SYMS := bytes u8 u16 u32 u64 lt_u32 lt_u64
# planet36/randp is C23; Debian 12's gcc 12 builds it with these (its README's).
PLANET36_CFLAGS := -std=gnu2x -O3 -march=native -D_DEFAULT_SOURCE -Dnullptr='((void*)0)' -Dconstexpr=const \
	-include threads.h -include assert.h -include stdbool.h -include stdalign.h
BENCH_C_LIBS  := -lbenchmark -lcrypto $(RANDP_LIBS_PRIVATE)
AES_CEILING   := $(BENCH_BIN)/aes-ceiling

# The Go test binaries, run in interleaved passes by benches/go-passes.sh.
GO_PEERS_MOD  := $(BENCH_BIN)/peers.mod

.PHONY: bench bench-quick bench-run bench-measure bench-rust bench-sweeps bench-c bench-go bench-ceiling \
	bench-deps bench-peers bench-c-build bench-go-build bench-ceiling-build bench-ceiling-end bench-collect bench-report \
	bench-check-clean num-blocks reseed-countdown bench-smoke

bench: bench-run

bench-quick:
	$(MAKE) bench-run BENCH_WARMUP_MS=200 BENCH_MEASURE_MS=500 BENCH_SAMPLES=10 \
		SWEEP_WARMUP_MS=100 SWEEP_MEASURE_MS=300 BENCHTIME=100ms BENCH_COUNT=6 C_MIN_TIME=0.05 C_REPS=6 CEILING_REPS=3

# One run, one machine: refuse a dirty tree, build everything first, then
# measure with the load average sampled every 10 s, then keep the raw
# outputs beside the report and write it.
bench-run: bench-check-clean staticlib bench-c-build bench-go-build bench-ceiling-build
	rm -rf $(BENCH_DIR)
	mkdir -p $(BENCH_DIR)
	cp $(PEERS_BUILD)/status.txt $(BENCH_DIR)/peers.txt
	$(BENCH_REPORT) -record-run $(BENCH_DIR)/run.txt -root ../.. -goversion "$$($(GO) env GOVERSION)" \
		-describe "$(BENCH_DESCRIBE)"
	benches/load-sampler.sh $(BENCH_DIR)/loadavg.txt 10 $(MAKE) --no-print-directory bench-measure
	$(MAKE) --no-print-directory bench-collect bench-report

bench-check-clean:
	@if [ -n "$$(git status --porcelain --untracked-files=no)" ] && [ "$(BENCH_ALLOW_DIRTY)" != 1 ]; then \
		echo "make bench: the working tree has uncommitted changes; commit them (the report names the commit)" >&2; \
		echo "or run with BENCH_ALLOW_DIRTY=1 (the report then says the tree was dirty)" >&2; exit 1; fi

bench-measure: bench-ceiling bench-rust bench-sweeps bench-c bench-go bench-ceiling-end

bench-collect:
	rm -rf $(BENCH_RESULTS)
	mkdir -p $(BENCH_RESULTS)
	$(BENCH_REPORT) -merge-criterion $(BENCH_DIR)/criterion -o $(BENCH_RESULTS)/criterion.json
	cp $(BENCH_DIR)/*.txt $(BENCH_DIR)/*.json $(BENCH_RESULTS)/

bench-report:
	$(BENCH_REPORT) -root ../.. -results $(BENCH_RESULTS) $(if $(filter 1,$(BENCH_ALLOW_DIRTY)),-allow-dirty)

# ---- dependencies and peers ----

bench-deps:
	@benches/deps.sh

bench-peers:
	benches/peers.sh "$(PEERS_DIR)" $(PEERS_BUILD)

# ---- C ----

bench-c-build: bench-deps bench-peers staticlib
	@mkdir -p $(BENCH_BIN)
	rm -f $(PLANET36_OBJ)
	if grep -q '^planet36-randp available' $(PEERS_BUILD)/status.txt; then \
		$(CC) $(PLANET36_CFLAGS) -c $(PEERS_BUILD)/planet36-randp/src/randp.c -o $(PLANET36_OBJ) && \
		objcopy $(foreach s,$(PLANET36_SYMS),--redefine-sym randp_$(s)=p36_randp_$(s)) $(PLANET36_OBJ); fi
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -c $(BENCH_C_SRC)/vdso_getrandom.c -o $(BENCH_BIN)/vdso_getrandom.o
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -Iinclude \
		-DRANDP_BENCH_PLANET36=$$(test -f $(PLANET36_OBJ) && echo 1 || echo 0) \
		-c $(BENCH_C_SRC)/contestants.c -o $(BENCH_BIN)/contestants.o
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -Iinclude $(BENCH_C_SRC)/bench_c.cc \
		$(BENCH_BIN)/contestants.o $(BENCH_BIN)/vdso_getrandom.o $$(test -f $(PLANET36_OBJ) && echo $(PLANET36_OBJ)) \
		$(STATICLIB) $(BENCH_C_LIBS) -o $(BENCH_C)

# BENCH_C_OUT: where the JSON goes; extra Google Benchmark flags in BENCH_C_FLAGS.
BENCH_C_OUT ?= $(BENCH_DIR)/c.json
bench-c:
	@mkdir -p $(dir $(BENCH_C_OUT))
	bash -o pipefail -c 'RANDP_BENCH_SO=$(abspath $(RELEASE_DIR)/librandp.so) $(BENCH_C) \
		--benchmark_min_time=$(C_MIN_TIME) --benchmark_repetitions=$(C_REPS) \
		--benchmark_enable_random_interleaving=true \
		--benchmark_out=$(BENCH_C_OUT) --benchmark_out_format=json $(BENCH_C_FLAGS) \
		| tee $(basename $(BENCH_C_OUT)).txt'

# ---- hardware references ----

bench-ceiling-build: bench-deps
	@mkdir -p $(BENCH_BIN)
	rm -f $(AES_CEILING)
	if [ -n "$(TOOLS_DIR)" ] && [ -f "$(TOOLS_DIR)/aes-ceiling.c" ]; then \
		$(CC) -O2 -march=native -o $(AES_CEILING) $(TOOLS_DIR)/aes-ceiling.c; \
	else echo "aes-ceiling: no TOOLS_DIR with aes-ceiling.c; its rows will read not measured"; fi

bench-ceiling:
	benches/ceiling.sh $(BENCH_DIR)/ceiling-start.txt $(CEILING_REPS) 1 $(AES_CEILING) 0.5

bench-ceiling-end:
	benches/ceiling.sh $(BENCH_DIR)/ceiling-end.txt $(CEILING_REPS) 1 $(AES_CEILING) 0.5

# ---- Rust ----

bench-rust:
	mkdir -p $(BENCH_DIR)
	bash -o pipefail -c 'RANDP_BENCH_WARMUP_MS=$(BENCH_WARMUP_MS) RANDP_BENCH_MEASURE_MS=$(BENCH_MEASURE_MS) \
		RANDP_BENCH_SAMPLES=$(BENCH_SAMPLES) $(CARGO_BENCH) $(RUST_BENCHES:%=--bench %) 2>&1 \
		| tee $(BENCH_DIR)/rust.txt'

bench-sweeps:
	mkdir -p $(BENCH_DIR)
	bash -o pipefail -c '$(SWEEP_ENV) $(CARGO_BENCH) --bench sweep 2>&1 | tee $(BENCH_DIR)/sweep.txt'

num-blocks reseed-countdown:
	mkdir -p $(BENCH_DIR)
	$(SWEEP_ENV) $(CARGO_BENCH) --bench sweep -- $(subst -,_,$@)
	@$(BENCH_REPORT) -root ../.. -criterion $(BENCH_DIR)/criterion -sweep $(subst -,_,$@)

# ---- Go ----

# randp.test links build/librandp.a (randp_local), so the numbers are this
# tree's; peers.test and dcrd.test build against the peers named in
# $(GO_PEERS_MOD) (benches/go/modfile.sh).
bench-go-build: bench-peers staticlib
	@mkdir -p $(BENCH_BIN)
	rm -f $(BENCH_BIN)/*.test
	cd go && CGO_ENABLED=1 $(GO) test -c -tags randp_local -o ../$(BENCH_BIN)/randp.test .
	benches/go/modfile.sh $(PEERS_BUILD) $(GO_PEERS_MOD) >$(BENCH_BIN)/peers-go.txt
	cd benches/go && $(GO) test -c -modfile=$(abspath $(GO_PEERS_MOD)) -tags "$$(sed -n 1p ../../$(BENCH_BIN)/peers-go.txt)" \
		-o ../../$(BENCH_BIN)/peers.test .
	if [ -n "$$(sed -n 2p $(BENCH_BIN)/peers-go.txt)" ]; then cd benches/go && \
		$(GO) test -c -modfile=$(abspath $(GO_PEERS_MOD)) -o ../../$(BENCH_BIN)/dcrd.test $$(sed -n 2p ../../$(BENCH_BIN)/peers-go.txt); fi

# GO_OUT: where the go-*.txt files go.
GO_OUT ?= $(BENCH_DIR)
bench-go:
	benches/go-passes.sh $(BENCH_COUNT) $(BENCHTIME) $(GO_OUT) $(BENCH_BIN)/*.test

# ---- CI smoke ----

# Each criterion bench once in test mode (the dev profile: this proves the
# benches run, not how fast), the C program and every Go benchmark once,
# openssl speed and aes-ceiling briefly, then the report generator's tests
# and the report itself from those outputs into $(SMOKE_DIR) (BENCHMARKS.md
# is not touched). Peers that cannot be had are noted, not failed.
TEST_TARGETS += bench-smoke
bench-smoke: staticlib bench-c-build bench-go-build bench-ceiling-build
	rm -rf $(SMOKE_DIR)
	mkdir -p $(SMOKE_DIR)
	cp $(PEERS_BUILD)/status.txt $(SMOKE_DIR)/peers.txt
	CRITERION_HOME=$(abspath $(SMOKE_DIR))/criterion $(CARGO) test --locked --features internals \
		$(RUST_BENCHES:%=--bench %) --bench sweep
	$(MAKE) --no-print-directory bench-c BENCH_C_OUT=$(SMOKE_DIR)/c.json C_MIN_TIME=0.0005 C_REPS=2 >/dev/null
	$(MAKE) --no-print-directory bench-go GO_OUT=$(SMOKE_DIR) BENCH_COUNT=1 BENCHTIME=1x
	benches/ceiling.sh $(SMOKE_DIR)/ceiling-start.txt 1 1 $(AES_CEILING) 0.01 >/dev/null
	cd tools/benchreport && $(GO) vet . && $(GO) test .
	$(BENCH_REPORT) -record-run $(SMOKE_DIR)/run.txt -root ../.. -goversion "$$($(GO) env GOVERSION)" -describe smoke
	$(BENCH_REPORT) -root ../.. -results $(SMOKE_DIR) -smoke -allow-dirty \
		-out $(SMOKE_DIR)/BENCHMARKS.md -svg $(SMOKE_DIR)/read-size.svg
