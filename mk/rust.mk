# Rust: the workspace's release build (the randp rlib, randp-cat, and the C
# library from capi/: target/release/librandp.a and librandp.so.0), the
# cbindgen header, and cargo test in the release and debug profiles.
#
#   make build           release build of the workspace (rlib, randp-cat, target/release/librandp.{a,so})
#   make header          regenerate include/randp.h with cbindgen
#   make test-rust       cargo test --profile tests over the workspace, every feature; the library's own tests
#                        again without features (the build users get: no `internals`); the single-step
#                        test again with glibc's rseq off
#   make test-rust-debug the library, fork, signal, abort, thread, key-erasure and single-step tests in the debug profile (about 5 min on 2 cores, most of it the single-step test, whose tracer is the release build)

.PHONY: test-rust-debug

build:
	$(CARGO) build --release --locked --workspace

# With the feature `header`, capi/build.rs writes the header cbindgen
# generates into OUT_DIR; the header test copies it into include/ when
# RANDP_BLESS is set (and otherwise fails if stale). test-rust turns every
# feature on, so it runs there; no other build compiles cbindgen.
header:
	RANDP_BLESS=1 $(CARGO) test --locked --profile tests -p randp-capi --features header committed_header_is_current

# The test files run on aarch64 (glibc and musl, under qemu-aarch64): every
# file of tests/ with no list to keep up to date, but those whose first cfg
# line declares them x86_64 Linux only (X86_ONLY_TEST), which the recipes
# name: a test without libtest's harness would not even build there (no main).
X86_ONLY_TEST := '^\#!\[cfg(all(target_os = "linux", target_arch = "x86_64"))\]'
X86_ONLY_TEST_FILES = $(shell grep -l $(X86_ONLY_TEST) tests/*.rs tests/*/main.rs)
AARCH64_TESTS = $(foreach f,$(filter-out $(X86_ONLY_TEST_FILES),$(wildcard tests/*.rs tests/*/main.rs)),--test $(patsubst tests/%.rs,%,$(patsubst tests/%/main.rs,%,$(f))))

# bad_input.rs loads target/release/librandp.so, hence `build` first. The
# single-step test runs again with glibc.pthread.rseq=0, as programs that
# register their own rseq area set it (and as glibc before 2.35 runs):
# without rseq, randp blocks signals around each keystream kernel, and the
# test checks that its recordings found them blocked there. musl takes the
# same branch through its own C library (make test-musl-rust).
TEST_TARGETS += test-rust test-rust-debug
test-rust: build
	$(CARGO) test --locked --profile tests --workspace --all-features
	$(CARGO) test --locked --profile tests -p randp --lib
	GLIBC_TUNABLES=glibc.pthread.rseq=0 $(CARGO) test --locked --profile tests -p randp --all-features --test single_step

# The debug profile keeps overflow checks and debug assertions: the library's
# own tests, the fork and signal tests (a fork in a signal handler zeroes the
# state under a running call), the key-erasure scan, the fills into memory
# whose writes fault (a debug build's frames are larger) and the VM snapshot
# restores run there too. The single-step test covers every instruction of
# the debug build's refill, first-draw, attach, handout and tail paths (some
# 8,000 steps against 600 in release), each (instruction, stack depth) pair
# at its first and last time rather than at every step, with a VM snapshot
# restored at each of those steps of the refill; the reseed path, a 1 MiB
# fill whose every word is checked in each of its cases, only in release
# (test-rust). The tracer is the release build of the test, which traces the
# debug build (RANDP_SINGLE_STEP_TRACEE_EXE): the tracee is what is tested,
# and a debug tracer's own checks add a fifth to the run.
SINGLE_STEP_DEBUG_EXE = $(CARGO) test --locked -p randp --all-features --test single_step --no-run \
	--message-format=json | sed -n 's/.*"executable":"\([^"]*single_step[^"]*\)".*/\1/p'
test-rust-debug:
	$(CARGO) test --locked -p randp --all-features --lib --test fork --test signals --test abort_paths --test threads --test key_erasure --test output_registers --test signal_frames --test faulting_destination --test vm_restore
	exe=$$($(SINGLE_STEP_DEBUG_EXE)) && test -x "$$exe" && \
	RANDP_SINGLE_STEP_TRACEE_EXE=$$exe RANDP_SINGLE_STEP_PATHS=refill,first-draw,attach,handout,tail \
	$(CARGO) test --locked --profile tests -p randp --all-features --test single_step
