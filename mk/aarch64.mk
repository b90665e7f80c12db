# aarch64 Linux (glibc): the crate and the C library cross-built with Rust's
# aarch64-unknown-linux-gnu target and Debian's cross gcc, and tested under
# qemu-user.
#
#   make aarch64-tools       install the cross gcc and qemu-user (apt-get) and the Rust target, when missing
#   make staticlib-aarch64   build/aarch64/librandp.a (the Go module's linux/arm64 library)
#   make test-aarch64        Rust and C tests for aarch64 under qemu-aarch64
#
# What qemu-user cannot make meaningful: it accepts every madvise advice and
# ignores it, so randp's probe refuses MADV_WIPEONFORK there and keeps no
# userspace state (every draw reads getrandom(2)); the tests check exactly
# that, and those that do not fork tell randp to keep one anyway
# (support::keep_state_under_emulator), so that the userspace generator runs
# here too. qemu-user also runs seccomp filters against its own host system
# calls and cannot start another aarch64 program without binfmt_misc: the
# runner tells the tests it is qemu (RANDP_TEST_EMULATOR), so that they start
# their children through it, and each test that qemu makes meaningless says
# so in its output (SKIPPED under qemu, with the reason), as on aarch64 musl.

AARCH64_TARGET  := aarch64-unknown-linux-gnu
AARCH64_RELEASE := $(or $(CARGO_TARGET_DIR),target)/$(AARCH64_TARGET)/release
AARCH64_ENV := CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="env RANDP_TEST_EMULATOR=qemu-aarch64 qemu-aarch64" \
	QEMU_LD_PREFIX=/usr/aarch64-linux-gnu

.PHONY: aarch64-tools staticlib-aarch64 test-aarch64
TEST_TARGETS += test-aarch64

aarch64-tools:
	@command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null || \
		(apt-get update && apt-get install -y gcc-aarch64-linux-gnu qemu-user)
	@rustup target list --installed | grep -qx $(AARCH64_TARGET) || rustup target add $(AARCH64_TARGET)

staticlib-aarch64: aarch64-tools
	$(AARCH64_ENV) $(CARGO) build --release --locked --workspace --target $(AARCH64_TARGET)
	LD=aarch64-linux-gnu-ld OBJCOPY=aarch64-linux-gnu-objcopy AR=aarch64-linux-gnu-ar \
		scripts/localize-staticlib.sh $(AARCH64_RELEASE)/librandp.a build/aarch64/librandp.a
	scripts/check-undefined.sh build/aarch64/librandp.a $(AARCH64_RELEASE)/librandp.so
	scripts/check-no-hw-rng.sh build/aarch64/librandp.a $(AARCH64_RELEASE)/librandp.so

# Every test file of tests/ with no list, but those that declare themselves
# x86_64 only (X86_ONLY_TEST_FILES, AARCH64_TESTS: mk/rust.mk), which are named.
test-aarch64: staticlib-aarch64
	@echo "test-aarch64: the x86_64-only tests are left out:" $(X86_ONLY_TEST_FILES)
	$(AARCH64_ENV) $(CARGO) test --locked --profile tests --all-features --target $(AARCH64_TARGET) \
		-p randp --lib --bins $(AARCH64_TESTS)
	@echo "test-aarch64: the moves out of the buffer in a debug build (registers read after each)"
	$(AARCH64_ENV) $(CARGO) test --locked --all-features --target $(AARCH64_TARGET) -p randp --lib keystream::aarch64::
	@mkdir -p build/aarch64/c
	aarch64-linux-gnu-gcc $(C_STD_FLAGS) -Iinclude $(C_TEST_SRC)/test_randp.c build/aarch64/librandp.a \
		-lpthread -o build/aarch64/c/test_randp_static
	QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64 build/aarch64/c/test_randp_static
	aarch64-linux-gnu-gcc $(C_STD_FLAGS) -static -Iinclude $(C_TEST_SRC)/planet36_program.c \
		build/aarch64/librandp.a -lpthread -o build/aarch64/c/planet36_program
	qemu-aarch64 build/aarch64/c/planet36_program
	@echo "test-aarch64: Rust and C tests passed under qemu-aarch64"
