# musl: the crate, randp-cat and the C library for x86_64-unknown-linux-musl
# (tested natively) and aarch64-unknown-linux-musl (tested under qemu-aarch64).
#
#   make musl-tools          install musl-tools, musl-dev:arm64, the aarch64 cross gcc and qemu-user (apt-get) and the Rust targets, when missing
#   make staticlib-musl      build/<triple>/librandp.a and librandp.so.0 (+ link) for both musl targets, with their symbol checks
#   make test-musl           every musl test below
#   make test-musl-rust      cargo test over every tests/*.rs (release): x86_64 musl natively, aarch64 musl under qemu
#   make test-musl-c         the C API test static (-static) and shared, planet36's program, dlopen and dlclose; both targets
#   make test-musl-security  the tests/c/security/ programs built with musl-gcc (x86_64); those that apply under qemu (aarch64)
#
# The C compilers: Debian's musl-gcc (musl-tools) for x86_64, and for
# aarch64 the aarch64-linux-musl-gcc wrapper that Debian's musl-dev:arm64
# ships (the cross gcc with musl's specs file, headers and libc; it needs
# dpkg's arm64 architecture, which musl-tools adds). Static programs link
# build/<triple>/librandp.a with -static; shared ones link librandp.so.0
# (DT_NEEDED) and run on musl's dynamic loader (/lib/ld-musl-<arch>.so.1).
#
# The Rust tests build static musl binaries (Rust's default for these
# targets), in which dlopen does not exist; tests/support/capi.rs links
# build/<triple>/librandp.a there instead (--cfg randp_capi_linked). musl's
# loader refuses to dlopen a library with initial-exec TLS ("Error
# relocating ...: initial-exec TLS resolves to dynamic definition", musl's
# ldso/dynlink.c, do_relocs), so on musl randp reaches its thread-local word
# through a TLS descriptor (src/os/linux/tls.rs); test-musl-c loads
# librandp.so.0 with dlopen on both targets, and test-musl-security makes a
# thread's first draw in a handler through the dlopen'ed library.
#
# What does not apply:
#   - the panic probe loaded with dlopen: a glibc-only test build.
#   - under qemu-aarch64, as for aarch64 glibc (mk/aarch64.mk): qemu-user
#     ignores MADV_WIPEONFORK, so randp keeps no userspace state there but
#     in the tests that do not fork and ask for one (keep_state_under_emulator), and
#     it runs seccomp filters against its own host system calls and cannot
#     start another aarch64 program; the tests that need either say so in
#     their output (RANDP_TEST_EMULATOR), and the C seccomp, closefrom,
#     destructor and fork-in-handler programs run on x86_64 musl only.

MUSL_X86 := x86_64-unknown-linux-musl
MUSL_ARM := aarch64-unknown-linux-musl
MUSL_TARGETS := $(MUSL_X86) $(MUSL_ARM)
MUSL_TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# Shared libraries need -crt-static, so they get a target directory of
# their own (the static builds are not rebuilt each time).
MUSL_SHARED_DIR := $(MUSL_TARGET_DIR)/musl-shared

# Per target: the C compiler, what runs its programs, its binutils.
$(MUSL_X86)_CC  := musl-gcc
$(MUSL_X86)_RUN :=
$(MUSL_X86)_BINUTILS :=
$(MUSL_ARM)_CC  := aarch64-linux-musl-gcc
$(MUSL_ARM)_RUN := qemu-aarch64
$(MUSL_ARM)_BINUTILS := LD=aarch64-linux-gnu-ld OBJCOPY=aarch64-linux-gnu-objcopy AR=aarch64-linux-gnu-ar

# Static builds (the Rust tests, randp-cat, librandp.a): tests link
# build/<triple>/librandp.a; aarch64 links with the cross gcc and runs
# under qemu-aarch64, which says so to the tests.
MUSL_ENV := \
	CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="--cfg randp_capi_linked -L native=$(abspath build/$(MUSL_X86))" \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="--cfg randp_capi_linked -L native=$(abspath build/$(MUSL_ARM))" \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=aarch64-linux-gnu-gcc \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_RUNNER="env RANDP_TEST_EMULATOR=qemu-aarch64 qemu-aarch64"
# Shared builds: dynamically linked against musl's libc.so by its own gcc.
MUSL_SHARED_ENV := \
	CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static" \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static" \
	CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_LINKER=musl-gcc \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=aarch64-linux-musl-gcc

MUSL_C_FLAGS := $(C_STD_FLAGS) -Iinclude

.PHONY: musl-tools staticlib-musl test-musl test-musl-rust test-musl-c test-musl-security
TEST_TARGETS += test-musl

musl-tools:
	@dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	@command -v musl-gcc >/dev/null && command -v aarch64-linux-musl-gcc >/dev/null && \
		command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null || \
		(apt-get update && apt-get install -y musl-tools musl-dev:arm64 gcc-aarch64-linux-gnu qemu-user)
	@for t in $(MUSL_TARGETS); do \
		rustup target list --installed | grep -qx $$t || rustup target add $$t || exit 1; done

# Static: the workspace (randp-cat, librandp.a), then the archive localized
# as for glibc. Shared: the cdylib, dynamically linked, under its SONAME.
staticlib-musl: musl-tools
	@for t in $(MUSL_TARGETS); do \
		echo "== $$t"; \
		$(MUSL_ENV) $(CARGO) build --release --locked --workspace --target $$t || exit 1; \
		$(MUSL_SHARED_ENV) $(CARGO) build --release --locked -p randp-capi --target $$t \
			--target-dir $(MUSL_SHARED_DIR) || exit 1; \
	done
	$(x86_64-unknown-linux-musl_BINUTILS) scripts/localize-staticlib.sh \
		$(MUSL_TARGET_DIR)/$(MUSL_X86)/release/librandp.a build/$(MUSL_X86)/librandp.a
	$(aarch64-unknown-linux-musl_BINUTILS) scripts/localize-staticlib.sh \
		$(MUSL_TARGET_DIR)/$(MUSL_ARM)/release/librandp.a build/$(MUSL_ARM)/librandp.a
	@for t in $(MUSL_TARGETS); do \
		cp -f $(MUSL_SHARED_DIR)/$$t/release/librandp.so build/$$t/librandp.so.0 && \
		ln -sf librandp.so.0 build/$$t/librandp.so && \
		scripts/check-exports.sh build/$$t/librandp.a include/randp.h && \
		scripts/check-exports.sh build/$$t/librandp.so.0 include/randp.h && \
		RANDP_LIBC_SONAME=libc.so scripts/check-undefined.sh build/$$t/librandp.a build/$$t/librandp.so.0 || exit 1; \
	done

test-musl: test-musl-rust test-musl-c test-musl-security
	@echo "test-musl: every musl test passed"

# Every test target of the workspace, with no list to keep up to date, in
# the release profile: on x86_64 musl natively, on aarch64 musl under
# qemu-aarch64. (What the debug profile adds, overflow checks and a stack
# slot for every temporary, does not depend on the C library; test-rust-debug
# runs it on glibc. On musl it would cost about 3 minutes more.)
# On aarch64 the x86_64-only test files are left out, by name, and said so
# (X86_ONLY_TEST_FILES, AARCH64_TESTS: mk/rust.mk).

test-musl-rust: staticlib-musl
	$(MUSL_ENV) $(CARGO) test --locked --profile tests --all-features --workspace --target $(MUSL_X86)
	@echo "test-musl-rust: on $(MUSL_ARM), the x86_64-only tests are left out:" \
		$(X86_ONLY_TEST_FILES)
	$(MUSL_ENV) $(CARGO) test --locked --profile tests --all-features --workspace --target $(MUSL_ARM) \
		--lib --bins $(AARCH64_TESTS)
	@echo "test-musl-rust: the Rust tests passed on $(MUSL_X86) and $(MUSL_ARM) (qemu-aarch64)"

# Per target: the API test linked statically (-static, build/<triple>/
# librandp.a) and dynamically (DT_NEEDED librandp.so.0, on musl's loader),
# planet36/randp's program, and librandp.so.0 loaded with dlopen and closed
# with dlclose while a thread that drew from it runs (musl's dlclose never
# unloads; the test checks the library stays usable and the thread's exit).
define musl_c_tests
	@echo "== $(1) ($(or $($(1)_RUN),native))"
	@mkdir -p build/$(1)/c
	$($(1)_CC) $(MUSL_C_FLAGS) -static $(C_TEST_SRC)/test_randp.c build/$(1)/librandp.a -o build/$(1)/c/test_randp_static
	$($(1)_RUN) build/$(1)/c/test_randp_static
	$($(1)_CC) $(MUSL_C_FLAGS) $(C_TEST_SRC)/test_randp.c -Lbuild/$(1) -lrandp -Wl,-rpath,$(abspath build/$(1)) \
		-o build/$(1)/c/test_randp_shared
	readelf -d build/$(1)/c/test_randp_shared | grep -q 'NEEDED.*\[librandp\.so\.0\]'
	$($(1)_RUN) build/$(1)/c/test_randp_shared
	$($(1)_CC) $(MUSL_C_FLAGS) -static $(C_TEST_SRC)/planet36_program.c build/$(1)/librandp.a -o build/$(1)/c/planet36_program
	$($(1)_RUN) build/$(1)/c/planet36_program
	readelf -rW build/$(1)/librandp.so.0 | grep -q 'TLSDESC'
	$($(1)_CC) $(MUSL_C_FLAGS) $(C_TEST_SRC)/dlopen_dlclose.c -o build/$(1)/c/dlopen_dlclose
	$($(1)_RUN) build/$(1)/c/dlopen_dlclose $(abspath build/$(1))/librandp.so.0

endef

test-musl-c: staticlib-musl
	$(foreach t,$(MUSL_TARGETS),$(call musl_c_tests,$(t)))
	@echo "test-musl-c: the C tests passed on $(MUSL_X86) and $(MUSL_ARM) (qemu-aarch64)"

# musl-gcc searches musl's headers only; seccomp_getrandom.c also needs the
# kernel's (linux/, asm/, asm-generic/), which Debian's linux-libc-dev has
# under /usr/include, beside glibc's. Alpine ships them as linux-headers.
MUSL_KERNEL_HEADERS := build/$(MUSL_X86)/kernel-headers
MUSL_SEC_CFLAGS := $(SEC_CFLAGS) -isystem $(MUSL_KERNEL_HEADERS)
MUSL_SEC_X86 := build/$(MUSL_X86)
MUSL_SEC_BUILD := build/security/$(MUSL_X86)
MUSL_SEC_STATIC := -static $(MUSL_SEC_X86)/librandp.a
MUSL_SEC_ARCHIVE := $(MUSL_SEC_X86)/librandp.a
MUSL_SEC_SHARED := -L$(MUSL_SEC_X86) -lrandp -Wl,-rpath,$(abspath $(MUSL_SEC_X86))
MUSL_SEC_SHARED_DEBUG := -L$(MUSL_SEC_X86)/debug -lrandp -Wl,-rpath,$(abspath $(MUSL_SEC_X86)/debug)

# The handler test's control, whose handler mallocs instead of drawing, must
# hang (exit 1, "deadlock"): musl's malloc is not glibc's, so this shows on
# musl itself that the signals land inside malloc and that re-entering it
# deadlocks, i.e. that an allocating draw would be caught. 10 s each.
musl_malloc_control = out=$$($(1) --malloc-control 2>&1); rc=$$?; \
	if [ $$rc -eq 1 ] && echo "$$out" | grep -q deadlock; then \
		echo "test-musl-security: the control whose handler mallocs hangs, as it must ($(notdir $(1)))"; \
	else echo "test-musl-security: the malloc control exited $$rc without a deadlock: the test cannot catch an allocating draw here: $$out" >&2; st=1; fi

# x86_64 musl: every program of tests/c/security/, in the links the glibc
# targets use (-static, shared, archive into a dynamic program, the handler
# test's library loaded with dlopen), plus --keys 120: musl keeps all PTHREAD_KEYS_MAX (128) key values
# in each thread's own block, so a draw allocates nothing however many keys
# exist (glibc: the first 32). aarch64 musl under qemu: the handler test
# (the draws read the OS there, and must not allocate either).
# Every program of tests/c/security/ must be run below: a new one fails
# test-musl-security until it is added here (and to the recipe).
MUSL_SEC_PROGRAMS := closefrom_file seccomp_getrandom handler_first_draw destructor_rounds fork_in_handler

test-musl-security: staticlib-musl security-tools $(SEC_KEYSTREAM)
	@for p in $(notdir $(basename $(wildcard $(SEC_SRC)/*.c))); do \
		case " $(MUSL_SEC_PROGRAMS) " in *" $$p "*) ;; \
		*) echo "test-musl-security: $(SEC_SRC)/$$p.c is not run on musl: add it to MUSL_SEC_PROGRAMS and the recipe (mk/musl.mk)" >&2; exit 1 ;; \
		esac; done
	$(MUSL_SHARED_ENV) $(CARGO) build --locked -p randp-capi --target $(MUSL_X86) --target-dir $(MUSL_SHARED_DIR)
	@mkdir -p $(MUSL_SEC_BUILD) $(MUSL_SEC_X86)/debug build/security/$(MUSL_ARM) $(MUSL_KERNEL_HEADERS)
	ln -sfn /usr/include/linux $(MUSL_KERNEL_HEADERS)/linux
	ln -sfn /usr/include/asm-generic $(MUSL_KERNEL_HEADERS)/asm-generic
	ln -sfn /usr/include/x86_64-linux-gnu/asm $(MUSL_KERNEL_HEADERS)/asm
	cp -f $(MUSL_SHARED_DIR)/$(MUSL_X86)/debug/librandp.so $(MUSL_SEC_X86)/debug/librandp.so.0
	ln -sf librandp.so.0 $(MUSL_SEC_X86)/debug/librandp.so
	@set -e; cc="musl-gcc $(MUSL_SEC_CFLAGS)"; o=$(MUSL_SEC_BUILD); \
	for p in closefrom_file seccomp_getrandom; do \
		$$cc $(SEC_SRC)/$$p.c $(MUSL_SEC_STATIC) -o $$o/$${p}_static; \
		$$cc $(SEC_SRC)/$$p.c $(MUSL_SEC_SHARED) -o $$o/$${p}_shared; done; \
	$$cc $(SEC_SRC)/handler_first_draw.c $(MUSL_SEC_ARCHIVE) -o $$o/handler_first_draw_archive; \
	$$cc $(SEC_SRC)/handler_first_draw.c $(MUSL_SEC_SHARED) -o $$o/handler_first_draw_shared; \
	$$cc $(SEC_SRC)/handler_first_draw.c $(MUSL_SEC_STATIC) -o $$o/handler_first_draw_static; \
	$$cc -DRANDP_DLOPEN $(SEC_SRC)/handler_first_draw.c -o $$o/handler_first_draw_dlopen; \
	$$cc $(SEC_SRC)/destructor_rounds.c $(MUSL_SEC_ARCHIVE) -o $$o/destructor_rounds; \
	$$cc $(SEC_SRC)/fork_in_handler.c $(MUSL_SEC_SHARED) -o $$o/fork_in_handler_release; \
	$$cc $(SEC_SRC)/fork_in_handler.c $(MUSL_SEC_SHARED_DEBUG) -o $$o/fork_in_handler_debug; \
	a=build/security/$(MUSL_ARM); \
	aarch64-linux-musl-gcc $(SEC_CFLAGS) $(SEC_SRC)/handler_first_draw.c build/$(MUSL_ARM)/librandp.a \
		-o $$a/handler_first_draw_archive; \
	aarch64-linux-musl-gcc $(SEC_CFLAGS) $(SEC_SRC)/handler_first_draw.c -static build/$(MUSL_ARM)/librandp.a \
		-o $$a/handler_first_draw_static
	@st=0; o=$(MUSL_SEC_BUILD); a=build/security/$(MUSL_ARM); \
	echo "== $(MUSL_X86): closefrom and an attacker's file"; \
	$$o/closefrom_file_static $(SEC_KEYSTREAM) || st=1; \
	$$o/closefrom_file_shared $(SEC_KEYSTREAM) || st=1; \
	echo "== $(MUSL_X86): getrandom denied by seccomp"; \
	$$o/seccomp_getrandom_shared EIO || { echo "test-musl-security: the EIO control failed" >&2; st=1; }; \
	for link in static shared; do for err in EPERM ENOSYS; do \
		$$o/seccomp_getrandom_$$link $$err || st=1; done; done; \
	echo "== $(MUSL_X86): a thread's first draw in a handler that interrupted malloc"; \
	$$o/handler_first_draw_archive || { echo "test-musl-security: the handler control failed" >&2; st=1; }; \
	$$o/handler_first_draw_archive --keys 40 || st=1; \
	$$o/handler_first_draw_archive --keys 120 || st=1; \
	$$o/handler_first_draw_shared --keys 40 || st=1; \
	$$o/handler_first_draw_static --cold || st=1; \
	$$o/handler_first_draw_dlopen $(abspath $(MUSL_SEC_X86))/librandp.so.0 || st=1; \
	$(call musl_malloc_control,$$o/handler_first_draw_archive); \
	echo "== $(MUSL_X86): draws in every destructor round leak nothing"; \
	for order in "" --test-key-first; do for first in "" --first-draw-in-destructor; do \
		$$o/destructor_rounds $$order $$first || st=1; done; done; \
	out=$$($$o/destructor_rounds --test-key-first --leak-control 2>&1); rc=$$?; \
	if [ $$rc -eq 1 ]; then echo "test-musl-security: the control, leaking 20 KiB per thread, fails the bound as it must"; \
	else echo "test-musl-security: the destructor control exited $$rc, not 1: $$out" >&2; st=1; fi; \
	echo "== $(MUSL_X86): fork in a signal handler mid-draw, debug and release"; \
	$$o/fork_in_handler_debug || st=1; \
	$$o/fork_in_handler_release || st=1; \
	echo "== $(MUSL_ARM) under qemu-aarch64: a thread's first draw in a handler that interrupted malloc"; \
	qemu-aarch64 $$a/handler_first_draw_archive --keys 120 || st=1; \
	qemu-aarch64 $$a/handler_first_draw_static --cold --rounds 10 || st=1; \
	$(call musl_malloc_control,qemu-aarch64 $$a/handler_first_draw_archive); \
	echo "test-musl-security: not run:" \
		"under qemu-aarch64 the seccomp, closefrom, destructor and fork-in-handler programs (qemu-user refuses" \
		"seccomp filters, has descriptors and memory of its own, and ignores MADV_WIPEONFORK, so no state exists to wipe or release)"; \
	exit $$st
