# randp — the front door. Two tiers of tests:
#
#   make check           the quick tier, about 3 min after make build: format, host clippy, the library's unit and bad-input tests, the C API test, the README's examples and references, the host Go tests
#   make test            everything CI runs, about 25 min on 2 cores (twice that the first time, which installs the tools): every suite of TEST_TARGETS, TEST_JOBS (2) at a time; writes build/test-times.txt
#   make all             the default goal: make build
#   make test-serial     make test one suite at a time (TEST_JOBS=1)
#   make test-suites     the suites alone, without the tools or the times (what make test runs)
#   make test-tools      install every tool the suites need (apt-get, rustup), one at a time
#   make help            every target, one line each
#   make test-help       fail if a target of any makefile is missing from make help
#   make clean           cargo clean and rm -rf build
#
# `make bench` (mk/bench.mk) measures and writes BENCHMARKS.md. Each concern
# keeps its recipes in mk/<concern>.mk and adds its test target to
# TEST_TARGETS, and its quick checks, if any, to CHECK_TARGETS. Each file
# lists its targets in its header, one `#   make TARGET  text` line each,
# which is what `make help` prints (and test-help checks).

CARGO  ?= cargo
GO     ?= go
CC     ?= cc
PREFIX ?= /usr/local

# Where release artefacts land.
RELEASE_DIR := target/release

TEST_TARGETS :=
CHECK_TARGETS :=
# How many suites make test runs at once. The suites are independent (each
# writes files of its own; cargo serializes builds in one target directory);
# the tools are installed first, one at a time, since apt-get and rustup
# take locks of their own.
TEST_JOBS ?= 2

.PHONY: all build header check test test-serial test-suites test-tools test-rust clean help test-help
all: build

include mk/rust.mk
-include mk/lint.mk
-include mk/msrv.mk
-include mk/consumer.mk
-include mk/c.mk
-include mk/go.mk
-include mk/bench.mk
-include mk/validate.mk
-include mk/aarch64.mk
-include mk/security.mk
-include mk/musl.mk
-include mk/targets.mk
-include mk/windows.mk
-include mk/examples.mk
-include mk/check.mk

# Make expands a rule's prerequisites where it reads the rule: every
# TEST_TARGETS += comes before this line.
TEST_TARGETS += test-help
check: $(CHECK_TARGETS)
	@echo "make check: all passed"

test-suites: build $(TEST_TARGETS)
	@echo "make test: all suites passed"

# The tools first, one at a time; then the suites, TEST_JOBS at a time,
# every one of them even after one fails (-k), so a run names every failure;
# each recipe line run through scripts/timed-shell.sh, which bounds it by
# RANDP_RECIPE_TIMEOUT seconds (1500 unless set), prints a line on file
# descriptor 3 as it starts and ends, and records its wall time;
# scripts/test-times.sh sums the times per target, slowest first.
TEST_TIMES := build/test-times.txt
test:
	@mkdir -p build && rm -f build/test-times.raw
	$(MAKE) --no-print-directory -j1 test-tools
	@start=$$(date +%s.%N); st=0; \
	RANDP_TEST_TIMES=$(abspath build/test-times.raw) $(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target \
		test-suites SHELL=$(abspath scripts/timed-shell.sh) '.SHELLFLAGS=$$@ -c' 3>&1 || st=$$?; \
	end=$$(date +%s.%N); \
	scripts/test-times.sh build/test-times.raw "$$(echo "$$end - $$start" | bc)" $(TEST_JOBS) >$(TEST_TIMES); \
	cat $(TEST_TIMES); exit $$st

test-serial:
	$(MAKE) --no-print-directory test TEST_JOBS=1

clean:
	$(CARGO) clean
	rm -rf build

help:
	@scripts/make-help.sh $(MAKEFILE_LIST)

# The check, and a control: a fragment with an undocumented target must fail it.
test-help:
	scripts/make-help.sh --check Makefile
	@mkdir -p build
	@printf 'undocumented-target:\n\ttrue\n' >build/help-control.mk
	@if scripts/make-help.sh --check Makefile build/help-control.mk 2>/dev/null; then \
		echo "test-help: the check accepted an undocumented target" >&2; exit 1; \
	else echo "test-help: the check rejects an undocumented target, as it must"; fi
