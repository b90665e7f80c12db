# randp — the front door. `make test` builds and runs every test; `make bench`
# builds, runs the benchmarks and writes BENCHMARKS.md. Each concern keeps its
# recipes in mk/<concern>.mk and adds its test target to TEST_TARGETS. Each
# file lists its targets in its header, one `#   make TARGET  text` line
# each, which is what `make help` prints (and test-help checks).
#
#   make all             the default goal: make build
#   make test            build, then every test suite of TEST_TARGETS
#   make help            every target with one line each
#   make test-help       fail if a target of any makefile is missing from make help
#   make clean           cargo clean and rm -rf build

CARGO  ?= cargo
GO     ?= go
CC     ?= cc
PREFIX ?= /usr/local

# Where release artefacts land.
RELEASE_DIR := target/release

TEST_TARGETS :=

.PHONY: all build header test test-rust clean help test-help
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

# Make expands a rule's prerequisites where it reads the rule: every
# TEST_TARGETS += comes before this line.
TEST_TARGETS += test-help
test: build $(TEST_TARGETS)
	@echo "make test: all suites passed"

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
