# Security: each claim of SECURITY.md tried where it breaks, as an attacker or
# a careful adopter would deploy randp. C programs in tests/c/security/ (each
# says in its header what it proves) and tests/entropy_fd.rs.
#
#   make test-security                  all of the below (with -k, every one reports)
#   make test-security-closefrom        closefrom + attacker's file: -static C, shared C
#   make test-security-entropy-rust     the same scenario and seccomp EPERM/ENOSYS in Rust,
#                                       dynamically linked and with +crt-static
#   make test-security-seccomp          getrandom denied (EPERM, ENOSYS) -> abort, no output;
#                                       -static and shared C
#   make test-security-handler          a thread's first draw in a handler that interrupted
#                                       malloc: dlopen, 40 pthread keys, process's first draw
#   make test-security-destructors      draws in every pthread destructor round leak nothing
#   make test-security-fork-handler     fork in a handler mid-draw, debug and release cdylib
#   make test-security-signal-frames-static  the signal-storm scan (tests/signal_frames.rs, about 2.5 min)
#                                       as a static-pie binary, with rseq and rseq=0
#   make security-tools                 install what the tests need (openssl) when missing
#   make security-debug-cdylib          the debug librandp.so under its SONAME in build/debug/
#
# build/security/keystream-41.bin is the attacker's keystream (AES-256-CTR,
# key 0x41 x 32). Each target runs all its cases, then fails if any did. test-security also
# runs test-c-dlopen (mk/c.mk): dlclose while a thread that drew still runs.

SEC_SRC    := tests/c/security
SEC_BUILD  := build/security
SEC_CFLAGS := -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror -Iinclude -I$(SEC_SRC) -pthread
SEC_DEBUG_DIR := target/debug
# Linking build/librandp.a into a program, fully static (-static) or not.
SEC_ARCHIVE := $(STATICLIB) $(RANDP_LIBS_PRIVATE)
SEC_STATIC  := -static $(SEC_ARCHIVE)
SEC_SHARED  := -Lbuild -lrandp -Wl,-rpath,$(abspath build)
SEC_SHARED_DEBUG := -Lbuild/debug -lrandp -Wl,-rpath,$(abspath build/debug)
# glibc warns that a -static program calling getaddrinfo & co. needs its
# shared libraries at run time; randp calls none of them.
SEC_LINK_QUIET := 2>&1 | { grep -v 'statically linked applications requires at runtime' || true; }
# The attacker's keystream: AES-256-CTR under the key 0x41 x 32 from counter 0.
SEC_KEYSTREAM := $(SEC_BUILD)/keystream-41.bin
HOST_TRIPLE = $(shell rustc -vV | sed -n 's/^host: //p')

# Each section below adds its target to test-security's prerequisites.
.PHONY: test-security security-tools
TEST_TARGETS += test-security
test-security:
	@echo "test-security: all security tests passed"

security-tools:
	@command -v openssl >/dev/null || (apt-get update && apt-get install -y openssl)
	@mkdir -p $(SEC_BUILD)

$(SEC_KEYSTREAM): | security-tools
	head -c 65536 /dev/zero | openssl enc -aes-256-ctr -nosalt \
		-K $$(printf '41%.0s' $$(seq 32)) -iv 00000000000000000000000000000000 -out $@

.PHONY: test-security-closefrom
test-security: test-security-closefrom
test-security-closefrom: staticlib security-tools $(SEC_KEYSTREAM)
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/closefrom_file.c $(SEC_STATIC) -o $(SEC_BUILD)/closefrom_file_static $(SEC_LINK_QUIET)
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/closefrom_file.c $(SEC_SHARED) -o $(SEC_BUILD)/closefrom_file_shared
	@st=0; \
	$(SEC_BUILD)/closefrom_file_static $(SEC_KEYSTREAM) || st=1; \
	$(SEC_BUILD)/closefrom_file_shared $(SEC_KEYSTREAM) || st=1; \
	exit $$st

.PHONY: test-security-entropy-rust
test-security: test-security-entropy-rust
# Dynamically linked (release, as test-rust builds it) and as a static-pie
# binary (+crt-static needs --target, so that build scripts stay dynamic).
test-security-entropy-rust: security-tools
	@st=0; \
	$(CARGO) test --locked --profile tests --test entropy_fd || st=1; \
	RUSTFLAGS="-C target-feature=+crt-static" $(CARGO) test --locked --test entropy_fd \
		--target $(HOST_TRIPLE) --target-dir target/crt-static || st=1; \
	exit $$st

.PHONY: test-security-seccomp
test-security: test-security-seccomp
# EIO is the control: randp already aborts on it (dynamically linked), so the
# checks are shown to pass on a correct abort.
test-security-seccomp: staticlib security-tools
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/seccomp_getrandom.c $(SEC_STATIC) -o $(SEC_BUILD)/seccomp_getrandom_static $(SEC_LINK_QUIET)
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/seccomp_getrandom.c $(SEC_SHARED) -o $(SEC_BUILD)/seccomp_getrandom_shared
	@st=0; \
	$(SEC_BUILD)/seccomp_getrandom_shared EIO || { echo "test-security-seccomp: the EIO control failed" >&2; st=1; }; \
	for link in static shared; do for err in EPERM ENOSYS; do \
		$(SEC_BUILD)/seccomp_getrandom_$$link $$err || st=1; \
	done; done; \
	exit $$st

test-security: test-c-dlopen

.PHONY: test-security-handler
test-security: test-security-handler
# The control (build/librandp.a, no extra keys) must pass for the others to mean anything;
# the malloc control, whose handler mallocs instead of drawing, must hang (exit 1,
# "deadlock"): the signals land inside malloc, and re-entering glibc's malloc there
# deadlocks, so a draw that allocated would be caught (10 s).
test-security-handler: staticlib security-tools
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/handler_first_draw.c $(SEC_ARCHIVE) -o $(SEC_BUILD)/handler_first_draw_archive
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/handler_first_draw.c $(SEC_SHARED) -o $(SEC_BUILD)/handler_first_draw_shared
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/handler_first_draw.c $(SEC_STATIC) -o $(SEC_BUILD)/handler_first_draw_static $(SEC_LINK_QUIET)
	$(CC) $(SEC_CFLAGS) -DRANDP_DLOPEN $(SEC_SRC)/handler_first_draw.c -ldl -o $(SEC_BUILD)/handler_first_draw_dlopen
	@st=0; \
	$(SEC_BUILD)/handler_first_draw_archive || { echo "test-security-handler: the control failed" >&2; st=1; }; \
	$(SEC_BUILD)/handler_first_draw_dlopen $(abspath $(RELEASE_DIR))/librandp.so || st=1; \
	$(SEC_BUILD)/handler_first_draw_archive --keys 40 || st=1; \
	$(SEC_BUILD)/handler_first_draw_shared --keys 40 || st=1; \
	$(SEC_BUILD)/handler_first_draw_static --cold || st=1; \
	out=$$($(SEC_BUILD)/handler_first_draw_archive --malloc-control 2>&1); rc=$$?; \
	if [ $$rc -eq 1 ] && echo "$$out" | grep -q deadlock; then \
		echo "test-security-handler: the control whose handler mallocs hangs, as it must"; \
	else echo "test-security-handler: the malloc control exited $$rc without a deadlock: the test cannot catch an allocating draw: $$out" >&2; st=1; fi; \
	exit $$st

.PHONY: test-security-destructors
test-security: test-security-destructors
# Both key orders, with and without a draw before the destructors; then the
# control, which leaks 20 KiB per thread and must fail the same bound.
test-security-destructors: staticlib security-tools
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/destructor_rounds.c $(SEC_ARCHIVE) -o $(SEC_BUILD)/destructor_rounds
	@st=0; \
	for order in "" --test-key-first; do for first in "" --first-draw-in-destructor; do \
		$(SEC_BUILD)/destructor_rounds $$order $$first || st=1; \
	done; done; \
	out=$$($(SEC_BUILD)/destructor_rounds --test-key-first --leak-control 2>&1); rc=$$?; \
	if [ $$rc -eq 1 ]; then echo "test-security-destructors: the control, leaking 20 KiB per thread, fails the bound as it must:"; \
	else echo "test-security-destructors: the control leaking 20 KiB per thread exited $$rc, not 1: the bound misses a leak:" >&2; st=1; fi; \
	echo "$$out" | sed 's/^/  control: /'; \
	exit $$st

.PHONY: test-security-fork-handler security-debug-cdylib
test-security: test-security-fork-handler
# The C library's debug build, laid out under its SONAME in build/debug.
security-debug-cdylib:
	$(CARGO) build --locked -p randp-capi
	@mkdir -p build/debug
	cp -f $(SEC_DEBUG_DIR)/librandp.so build/debug/librandp.so.0
	ln -sf librandp.so.0 build/debug/librandp.so

test-security-fork-handler: build security-debug-cdylib security-tools
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/fork_in_handler.c $(SEC_SHARED_DEBUG) -o $(SEC_BUILD)/fork_in_handler_debug
	$(CC) $(SEC_CFLAGS) $(SEC_SRC)/fork_in_handler.c $(SEC_SHARED) -o $(SEC_BUILD)/fork_in_handler_release
	@st=0; \
	$(SEC_BUILD)/fork_in_handler_debug || st=1; \
	$(SEC_BUILD)/fork_in_handler_release || st=1; \
	exit $$st

.PHONY: test-security-signal-frames-static
test-security: test-security-signal-frames-static
# tests/signal_frames.rs linked fully statically (static-pie, +crt-static as
# for test-security-entropy-rust), where glibc's __rseq_offset, to which randp
# refers weakly, must be linked in for the kernels to run as restartable
# sequences. The test runs every backend with glibc's rseq registration
# (protection "rseq") and with GLIBC_TUNABLES=glibc.pthread.rseq=0 (blocked
# signals), and checks which one each child used. The binary is checked to
# have no program interpreter and to define __rseq_offset.
SEC_STATIC_STORM_DIR := target/crt-static/$(HOST_TRIPLE)/tests/deps
test-security-signal-frames-static: security-tools
	RUSTFLAGS="-C target-feature=+crt-static" $(CARGO) test --locked --profile tests --features internals \
		--test signal_frames --target $(HOST_TRIPLE) --target-dir target/crt-static --no-run
	@bin=$$(ls -t $(SEC_STATIC_STORM_DIR)/signal_frames-* | grep -v '\.d$$' | head -1); \
	if [ -z "$$bin" ]; then \
		echo "test-security-signal-frames-static: no signal_frames binary in $(SEC_STATIC_STORM_DIR)" >&2; exit 1; fi; \
	if readelf -l $$bin | grep -q 'Requesting program interpreter'; then \
		echo "test-security-signal-frames-static: $$bin is not static" >&2; exit 1; fi; \
	if ! nm $$bin | grep -q ' [DdBb] __rseq_offset$$'; then \
		echo "test-security-signal-frames-static: $$bin does not define __rseq_offset" >&2; exit 1; fi; \
	echo "test-security-signal-frames-static: $$bin is static and defines __rseq_offset"; \
	$$bin --test-threads=1
