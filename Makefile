# randp — the front door. `make test` builds and runs every test; `make bench`
# builds, runs the benchmarks and writes BENCHMARKS.md. Each concern keeps its
# recipes in mk/<concern>.mk and adds its test target to TEST_TARGETS.

CARGO  ?= cargo
GO     ?= go
CC     ?= cc
PREFIX ?= /usr/local

# Where release artefacts land.
RELEASE_DIR := target/release

TEST_TARGETS :=

.PHONY: all build header test test-rust clean
all: build

include mk/rust.mk
-include mk/c.mk
-include mk/go.mk
-include mk/bench.mk
-include mk/validate.mk
-include mk/aarch64.mk
-include mk/security.mk

test: build $(TEST_TARGETS)
	@echo "make test: all suites passed"

clean:
	$(CARGO) clean
	rm -rf build
