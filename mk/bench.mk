# Benchmarks: randp beside the libraries its users run today, on this
# machine, in one run; tools/benchreport renders BENCHMARKS.md from the raw
# outputs. benches/README.md says what each program measures and how.
#
#   make bench             everything, then BENCHMARKS.md (about 35 min on 2 cores; a quiet machine)
#   make bench-quick       the same with short measurement times (about 15 min)
#   make bench-smoke       every benchmark once, and a report from those outputs (CI; never judges speed)
#   make bench-report      render BENCHMARKS.md again from benches/results/ (every CPU's run)
#   make num-blocks        sweep the buffer size (Generator<BLOCKS, DEFAULT_RESEED>), print a table
#   make reseed-countdown  sweep the reseed interval (Generator<DEFAULT_BLOCKS, RESEED>), print a table
#
# make bench runs bench-run, whose steps also run alone:
#   make bench-run           refuse a dirty tree, build, measure, collect, report (what make bench runs)
#   make bench-check-clean   fail if the tree has uncommitted changes (unless BENCH_ALLOW_DIRTY=1)
#   make bench-deps          apt-get the benchmarks' packages when missing (benches/deps.sh)
#   make bench-peers         make the peers' sources available in build/peers (benches/peers.sh)
#   make bench-c-build       build the C benchmark program, build/bench-bin/bench_c
#   make bench-go-build      build the Go benchmark test binaries into build/bench-bin (cgo, pure-Go, peers)
#   make bench-rust-build    build the criterion bench binaries, listed in build/bench-bin/rust-benches.txt
#   make bench-ceiling-build build aes-ceiling from TOOLS_DIR, when there
#   make bench-measure       measure into build/bench/: bench-syscall-check, -passes, -sweeps, -opcount
#   make bench-syscall-check the Go "before 1.24" reader's seccomp test (its column is a system call per Read)
#   make bench-passes        BENCH_PASSES interleaved passes of every contestant (benches/passes.sh)
#   make bench-sweeps        the criterion sweeps (buffer size, reseed interval)
#   make bench-opcount       callgrind instructions per call of the Go hot paths, and the v2 Sources' stack frames
#   make bench-collect       copy the raw outputs, each kind merged into one file, into
#                            benches/results/<vendor>-<family>-<model>/, replacing
#                            that CPU's older run only
#
# Knobs: BENCH_PASSES (samples per contestant, every language; >= 10 for
# the report's intervals to mean what they say); BENCH_WARMUP_MS,
# BENCH_MEASURE_MS, BENCH_SAMPLES (criterion, per benchmark and pass; the
# pass's sample is criterion's median); SWEEP_WARMUP_MS, SWEEP_MEASURE_MS
# (each sweep point); BENCHTIME (Go -benchtime per benchmark and pass);
# C_MIN_TIME (Google Benchmark seconds per benchmark and pass); CEILING_GIB
# (aes-ceiling GiB per kernel and pass); PEERS_DIR (the peers' sources,
# else cloned at their pinned commits into build/peers, else "not
# measured"); TOOLS_DIR (aes-ceiling's source, else its rows read "not
# measured").

PEERS_DIR        ?= $(firstword $(wildcard ../shared/peers))
TOOLS_DIR        ?= $(firstword $(wildcard ../shared/tools))
PEERS_BUILD      := build/peers
BENCH_BIN        := build/bench-bin
BENCH_DIR        := build/bench
BENCH_RESULTS    := benches/results
SMOKE_DIR        := build/bench-smoke
RUST_BENCHES     := fill words bounded threads backends kernel_mix
BENCH_PASSES     ?= 10
BENCH_WARMUP_MS  ?= 200
BENCH_MEASURE_MS ?= 400
BENCH_SAMPLES    ?= 10
SWEEP_WARMUP_MS  ?= 300
SWEEP_MEASURE_MS ?= 1000
BENCHTIME        ?= 200ms
C_MIN_TIME       ?= 0.1
CEILING_GIB      ?= 0.5
BENCH_ALLOW_DIRTY ?=

# The benchmarks are the package benches/Cargo.toml (randp-benches), whose
# feature `benches` turns on their dependencies and randp's internals for
# every bench, so that one build serves them all; the bench profile is the
# workspace's [profile.bench], in Cargo.toml.
CARGO_BENCH = $(CARGO) bench --locked -p randp-benches --features benches
BENCH_REPORT = cd tools/benchreport && $(GO) run .
BENCH_DESCRIBE = $(BENCH_PASSES) passes, one process per benchmark program and pass; per pass: criterion \
	$(BENCH_WARMUP_MS) ms warm-up + $(BENCH_MEASURE_MS) ms measurement in $(BENCH_SAMPLES) samples (the pass's sample: their median), \
	Go -benchtime $(BENCHTIME), C $(C_MIN_TIME) s per benchmark, openssl speed 1 s, aes-ceiling $(CEILING_GIB) GiB per kernel; \
	sweeps: one process, $(SWEEP_WARMUP_MS) + $(SWEEP_MEASURE_MS) ms per point
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
# aes-ceiling's 512-bit loops, on CPUs with AVX-512F and VAES (ZMM=1).
CEILING_ZMM   := $(if $(and $(shell grep -qw avx512f /proc/cpuinfo && echo y),$(shell grep -qw vaes /proc/cpuinfo && echo y)),1)

# The Go test binaries: randp.test (cgo, build/librandp.a), randp-purego.test
# (-tags randp_purego) when the package has that path, peers.test, dcrd.test.
GO_PEERS_MOD  := $(BENCH_BIN)/peers.mod
# randp's own Go benchmarks: a package of the module, so that users of go/
# read only the package's API, examples and tests.
GO_BENCH_PKG  := ./internal/benchmarks
# randp.Implementation exists: the binaries print which implementation ran.
GO_IMPL_TAG   := $(if $(shell grep -l '^func Implementation()' go/*.go 2>/dev/null),randp_bench_impl)
# What the pure-Go binary runs each pass: the rows the report shows for it.
GO_PUREGO_FILTER := ^Benchmark(V2Uint64|RandpRead|StdlibRead|AESCTRRead|ChaCha8Read|Uint64|ParallelUint64|ParallelRead32|ReadSweep|RandpBufRand|MathRand|ReadRandp)$$

.PHONY: bench bench-quick bench-run bench-measure bench-passes bench-sweeps bench-syscall-check \
	bench-deps bench-peers bench-c-build bench-go-build bench-rust-build bench-ceiling-build bench-collect bench-report \
	bench-check-clean num-blocks reseed-countdown bench-smoke bench-opcount

bench: bench-run

bench-quick:
	$(MAKE) bench-run BENCH_WARMUP_MS=100 BENCH_MEASURE_MS=200 BENCH_SAMPLES=10 \
		SWEEP_WARMUP_MS=100 SWEEP_MEASURE_MS=300 BENCHTIME=80ms C_MIN_TIME=0.04 CEILING_GIB=0.25

# One run, one machine: refuse a dirty tree, build everything first, then
# measure with the load average sampled every 10 s, then keep the raw
# outputs beside the report and write it.
bench-run: bench-check-clean staticlib bench-c-build bench-go-build bench-rust-build bench-ceiling-build
	rm -rf $(BENCH_DIR)
	mkdir -p $(BENCH_DIR)
	cp $(PEERS_BUILD)/status.txt $(BENCH_DIR)/peers.txt
	cp $(BENCH_BIN)/go-purego.txt $(BENCH_DIR)/go-purego-status.txt
	benches/record-run.sh "$$($(GO) env GOVERSION)" $(BENCH_PASSES) "$(BENCH_DESCRIBE)" >$(BENCH_DIR)/run.txt
	benches/load-sampler.sh $(BENCH_DIR)/loadavg.txt 10 $(MAKE) --no-print-directory bench-measure
	$(MAKE) --no-print-directory bench-collect bench-report

bench-check-clean:
	@status=$$(git status --porcelain --untracked-files=no) || \
		{ echo "make bench: git cannot read the working tree's state (see its message above)" >&2; exit 1; }; \
	if [ -n "$$status" ] && [ "$(BENCH_ALLOW_DIRTY)" != 1 ]; then \
		echo "make bench: the working tree has uncommitted changes; commit them (the report names the commit)" >&2; \
		echo "or run with BENCH_ALLOW_DIRTY=1 (the report then says the tree was dirty)" >&2; exit 1; fi

bench-measure: bench-syscall-check bench-passes bench-sweeps bench-opcount

# PASS_ENV: what benches/passes.sh runs, and with which budget.
PASS_ENV = RUST_BINS="$$(cut -d' ' -f2 $(BENCH_BIN)/rust-benches.txt 2>/dev/null | tr '\n' ' ')" \
	RANDP_BENCH_WARMUP_MS=$(BENCH_WARMUP_MS) RANDP_BENCH_MEASURE_MS=$(BENCH_MEASURE_MS) RANDP_BENCH_SAMPLES=$(BENCH_SAMPLES) \
	BENCH_C=$(BENCH_C) RANDP_SO=$(abspath $(RELEASE_DIR)/librandp.so) C_MIN_TIME=$(C_MIN_TIME) \
	GO_BINS="$$(ls $(BENCH_BIN)/*.test | tr '\n' ' ')" BENCHTIME=$(BENCHTIME) GO_FILTER_randp_purego='$(GO_PUREGO_FILTER)' \
	AES_CEILING=$(AES_CEILING) CEILING_GIB=$(CEILING_GIB) $(if $(CEILING_ZMM),ZMM=1)

bench-passes:
	$(PASS_ENV) benches/passes.sh $(BENCH_PASSES) $(BENCH_DIR)

# The Go "before Go 1.24" column must be one getrandom system call per Read:
# the seccomp test of benches/go checks it on this machine before measuring.
bench-syscall-check:
	@mkdir -p $(BENCH_DIR)
	$(BENCH_BIN)/peers.test -test.run '^TestGetrandomReadMakesASystemCall$$' -test.v >$(BENCH_DIR)/syscall-check.txt; \
		status=$$?; cat $(BENCH_DIR)/syscall-check.txt; exit $$status

# Instructions per call of the Go hot paths (callgrind) and the stack frames
# of the v2 Sources' Uint64: the profile the report gives for a Go target
# this run misses. Counts, not times: the load does not change them.
bench-opcount:
	@mkdir -p $(BENCH_DIR)
	GO="$(GO)" scripts/go-opcount.sh >$(BENCH_DIR)/go-opcount.txt
	cat $(BENCH_DIR)/go-opcount.txt

# The run goes into its CPU's folder, benches/results/<vendor>-<family>-<model>
# (benchreport -cpu-dir reads the CPU from run.txt), replacing that CPU's
# older run; the other CPUs' runs stay. The merges come first, so that a
# failed one leaves that older run in place.
bench-collect:
	benches/merge-results.sh criterion $(BENCH_DIR)/criterion >$(BENCH_DIR)/criterion.json
	benches/merge-results.sh c $(BENCH_DIR)/c >$(BENCH_DIR)/c.json
	dir=$(BENCH_RESULTS)/$$($(BENCH_REPORT) -cpu-dir $(BENCH_DIR)/run.txt) && test "$$dir" != $(BENCH_RESULTS)/ && \
	rm -rf "$$dir" && mkdir -p "$$dir" && \
	cp $(BENCH_DIR)/*.txt $(BENCH_DIR)/criterion.json $(BENCH_DIR)/c.json "$$dir"/

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
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -c $(BENCH_C_SRC)/word_floor.c -o $(BENCH_BIN)/word_floor.o
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -fPIC -shared $(BENCH_C_SRC)/word_floor.c -o $(BENCH_BIN)/libwordfloor.so
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -Iinclude \
		-DRANDP_BENCH_PLANET36=$$(test -f $(PLANET36_OBJ) && echo 1 || echo 0) \
		-c $(BENCH_C_SRC)/contestants.c -o $(BENCH_BIN)/contestants.o
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -Iinclude $(BENCH_C_SRC)/bench_c.cc \
		$(BENCH_BIN)/contestants.o $(BENCH_BIN)/vdso_getrandom.o $(BENCH_BIN)/word_floor.o $$(test -f $(PLANET36_OBJ) && echo $(PLANET36_OBJ)) \
		$(STATICLIB) $(BENCH_C_LIBS) -o $(BENCH_C)

# ---- hardware references ----

bench-ceiling-build: bench-deps
	@mkdir -p $(BENCH_BIN)
	rm -f $(AES_CEILING) $(AES_CEILING).missing
	if [ -z "$(TOOLS_DIR)" ] || [ ! -f "$(TOOLS_DIR)/aes-ceiling.c" ]; then \
		echo "tool source unavailable" >$(AES_CEILING).missing; \
	elif ! grep -qw vaes /proc/cpuinfo; then \
		echo "the tool runs VAES kernels, and this CPU has no VAES" >$(AES_CEILING).missing; \
	else $(CC) -O2 -march=native -o $(AES_CEILING) $(TOOLS_DIR)/aes-ceiling.c; fi
	@if [ -f $(AES_CEILING).missing ]; then echo "aes-ceiling: not measured: $$(cat $(AES_CEILING).missing)"; fi

# ---- Rust ----

# The criterion bench executables, "name path" per line, for benches/passes.sh.
bench-rust-build:
	@mkdir -p $(BENCH_BIN)
	$(CARGO_BENCH) --no-run --message-format=json $(RUST_BENCHES:%=--bench %) \
		| sed -n 's/.*"target":{[^}]*"name":"\([a-z_]*\)".*"executable":"\([^"]*\)".*/\1 \2/p' >$(BENCH_BIN)/rust-benches.txt
	@test "$$(wc -l <$(BENCH_BIN)/rust-benches.txt)" -eq $(words $(RUST_BENCHES)) || \
		{ echo "bench-rust-build: expected $(words $(RUST_BENCHES)) bench executables" >&2; cat $(BENCH_BIN)/rust-benches.txt >&2; exit 1; }

bench-sweeps:
	mkdir -p $(BENCH_DIR)
	bash -o pipefail -c 'CRITERION_HOME=$(abspath $(BENCH_DIR))/criterion/sweeps $(SWEEP_ENV) $(CARGO_BENCH) --quiet --bench sweep 2>&1 \
		| tee $(BENCH_DIR)/sweep.txt'

num-blocks reseed-countdown: bench-deps
	mkdir -p $(BENCH_DIR)
	CRITERION_HOME=$(abspath $(BENCH_DIR))/criterion/sweeps $(SWEEP_ENV) $(CARGO_BENCH) --bench sweep -- $(subst -,_,$@)
	benches/merge-results.sh criterion $(BENCH_DIR)/criterion/sweeps >$(BENCH_DIR)/sweeps.json
	@$(BENCH_REPORT) -root ../.. -criterion $(BENCH_DIR)/sweeps.json -sweep $(subst -,_,$@)

# ---- Go ----

# randp.test links build/librandp.a (randp_local), so the numbers are this
# tree's; randp-purego.test is the same package built with -tags
# randp_purego, only when the package has randp.Implementation (the tag's
# path), and go-purego.txt says which; peers.test and dcrd.test build
# against the peers named in $(GO_PEERS_MOD) (benches/go/modfile.sh).
bench-go-build: bench-peers staticlib
	@mkdir -p $(BENCH_BIN)
	rm -f $(BENCH_BIN)/*.test
	cd go && CGO_ENABLED=1 $(GO) test -c -tags "randp_local $(GO_IMPL_TAG)" -o ../$(BENCH_BIN)/randp.test $(GO_BENCH_PKG)
	if [ -n "$(GO_IMPL_TAG)" ]; then \
		(cd go && CGO_ENABLED=1 $(GO) test -c -tags "randp_purego $(GO_IMPL_TAG)" -o ../$(BENCH_BIN)/randp-purego.test $(GO_BENCH_PKG)) && \
		echo "built with -tags randp_purego" >$(BENCH_BIN)/go-purego.txt; \
	else echo "not measured: this tree's Go module has no pure-Go path (no randp.Implementation, so no randp_purego build tag)" \
		>$(BENCH_BIN)/go-purego.txt; fi
	cat $(BENCH_BIN)/go-purego.txt
	benches/go/modfile.sh $(PEERS_BUILD) $(GO_PEERS_MOD) >$(BENCH_BIN)/peers-go.txt
	cd benches/go && $(GO) test -c -modfile=$(abspath $(GO_PEERS_MOD)) -tags "$$(sed -n 1p ../../$(BENCH_BIN)/peers-go.txt)" \
		-o ../../$(BENCH_BIN)/peers.test .
	if [ -n "$$(sed -n 2p $(BENCH_BIN)/peers-go.txt)" ]; then cd benches/go && \
		$(GO) test -c -modfile=$(abspath $(GO_PEERS_MOD)) -o ../../$(BENCH_BIN)/dcrd.test $$(sed -n 2p ../../$(BENCH_BIN)/peers-go.txt); fi

# ---- CI smoke ----

# Each criterion bench once in test mode (the dev profile: this proves the
# benches run, not how fast); the Go "before 1.24" reader's seccomp test;
# then one pass of benches/passes.sh with tiny budgets: the C program, every
# Go benchmark of every binary (the pure-Go one too, when built), openssl
# speed and aes-ceiling; then the report generator's tests and the report
# itself from those outputs into $(SMOKE_DIR) (BENCHMARKS.md is not
# touched). Peers that cannot be had are noted, not failed.
TEST_TARGETS += bench-smoke
bench-smoke: staticlib bench-c-build bench-go-build bench-ceiling-build
	rm -rf $(SMOKE_DIR)
	mkdir -p $(SMOKE_DIR)
	cp $(PEERS_BUILD)/status.txt $(SMOKE_DIR)/peers.txt
	cp $(BENCH_BIN)/go-purego.txt $(SMOKE_DIR)/go-purego-status.txt
	CRITERION_HOME=$(abspath $(SMOKE_DIR))/criterion $(CARGO) test --locked -p randp-benches --features benches \
		$(RUST_BENCHES:%=--bench %) --bench sweep
	$(MAKE) --no-print-directory bench-syscall-check BENCH_DIR=$(SMOKE_DIR)
	OPS="buffered-v2 pcg-v2" $(MAKE) --no-print-directory bench-opcount BENCH_DIR=$(SMOKE_DIR)
	$(PASS_ENV) RUST_BINS= C_MIN_TIME=0.0005 BENCHTIME=1x CEILING_GIB=0.01 GO_FILTER_randp_purego=. \
		benches/passes.sh 1 $(SMOKE_DIR) >/dev/null
	cd tools/benchreport && $(GO) vet . && $(GO) test .
	benches/record-run.sh "$$($(GO) env GOVERSION)" 1 smoke >$(SMOKE_DIR)/run.txt
	benches/merge-results.sh c $(SMOKE_DIR)/c >$(SMOKE_DIR)/c.json
	$(BENCH_REPORT) -root ../.. -results $(SMOKE_DIR) -smoke -allow-dirty \
		-out $(SMOKE_DIR)/BENCHMARKS.md -chart-dir $(SMOKE_DIR)/charts
