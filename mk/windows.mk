# Windows x86_64 (x86_64-pc-windows-gnu): the crate, randp-cat and the C
# library (randp.dll with its import library librandp.dll.a, and the static
# librandp.a) cross-built with mingw-w64, and tested under wine.
#
#   make windows-tools        install mingw-w64 and wine (apt-get) and the Rust target, when missing
#   make windows-prefix       the wine prefix target/wine-prefix, with the stand-in bcryptprimitives.dll (built from tests/windows/bcryptprimitives.c)
#   make build-windows        build/windows/: randp.dll, librandp.dll.a, librandp.a (and randp-cat.exe in target/)
#   make test-windows         every Windows suite below (about 3 min, and 15 s more to create the wine prefix once)
#   make test-windows-rust    the Rust tests that apply to Windows, release and debug, under wine
#   make test-windows-c       the C API and thread-exit tests against randp.dll and librandp.a, under wine
#
# Left out of test-windows-rust, Linux only by nature: fork, stress (fork
# storm, resident memory from /proc), signals and signal_frames (POSIX
# signals, rseq), wipe_on_fork_refused (MADV_WIPEONFORK), entropy_fd and
# abort_paths (seccomp; entropy_failure_windows is the Windows counterpart),
# cli (POSIX descriptors, /dev/full, SIGPIPE, pipe sizes).
#
# What wine cannot make meaningful: Debian 12's wine 8.0 has no
# bcryptprimitives.dll, so no Rust program for this target (Rust's std
# imports ProcessPrng too) starts under it; the prefix gets a stand-in built
# from tests/windows/bcryptprimitives.c, whose ProcessPrng is wine's
# BCryptGenRandom (the host kernel's RNG) and can be switched to fail for the
# abort tests. The entropy source is therefore tested for its contract, not
# for Windows' own implementation. VirtualLock under wine is mlock on the
# host, not Windows' working-set limit; exceptions reach wine as Linux
# signals, whose frames land on wine's own signal stack; and timings under
# wine are not Windows timings (no benchmark runs here). The consumer crate
# of mk/consumer.mk is also built for this target and run in this prefix.

WIN_TARGET  := x86_64-pc-windows-gnu
WIN_RELEASE := $(or $(CARGO_TARGET_DIR),target)/$(WIN_TARGET)/release
WIN_BUILD   := build/windows
# Under target/, which cargo never lists as package files: the prefix's
# dosdevices link to / would make cargo doc and cargo package walk the disk.
WIN_PREFIX  := $(abspath target/wine-prefix)
WIN_CC      := x86_64-w64-mingw32-gcc
WINE        := /usr/lib/wine/wine64
WIN_ENV     := WINEPREFIX=$(WIN_PREFIX) WINEDEBUG=-all
# RANDP_TEST_REQUIRE_STAND_IN: the prefix has the stand-in ProcessPrng, so
# entropy_failure_windows fails rather than skips if another one is loaded.
WIN_CARGO_ENV := $(WIN_ENV) CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=$(WINE) RANDP_TEST_REQUIRE_STAND_IN=1
WIN_CFLAGS  := -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror -D__USE_MINGW_ANSI_STDIO=1 -Iinclude
# Test programs carry winpthreads and libgcc inside them: the prefix has no
# mingw-w64 runtime DLLs.
WIN_STATIC_RT := -static-libgcc -Wl,-Bstatic -lpthread
WIN_STAND_IN := $(WIN_PREFIX)/drive_c/windows/system32/bcryptprimitives.dll
WIN_RUST_TESTS := --lib --test threads --test key_erasure --test output_registers --test bad_input --test entropy_failure_windows

.PHONY: windows-tools windows-prefix build-windows test-windows test-windows-rust test-windows-c
TEST_TARGETS += test-windows

windows-tools:
	@command -v $(WIN_CC) >/dev/null && test -x $(WINE) || \
		(apt-get update && apt-get install -y gcc-mingw-w64-x86-64 wine wine64)
	@rustup target list --installed | grep -qx $(WIN_TARGET) || rustup target add $(WIN_TARGET)

# wineboot creates the prefix once (about 15 s), in a folder whose parent
# must exist (target/ is not there before the first cargo build); the
# stand-in goes into its system32, where every program run in the prefix
# finds it.
$(WIN_BUILD)/bcryptprimitives.dll: tests/windows/bcryptprimitives.c | windows-tools
	@mkdir -p $(WIN_BUILD)
	$(WIN_CC) -O2 -Wall -Wextra -Werror -shared $< -o $@ -lbcrypt

$(WIN_STAND_IN): $(WIN_BUILD)/bcryptprimitives.dll
	@mkdir -p $(dir $(WIN_PREFIX))
	@test -d $(WIN_PREFIX)/drive_c/windows/system32 || $(WIN_ENV) $(WINE) wineboot --init >/dev/null 2>&1
	cp $< $@

windows-prefix: $(WIN_STAND_IN)

build-windows: windows-tools
	$(CARGO) build --release --locked --workspace --target $(WIN_TARGET)
	@mkdir -p $(WIN_BUILD)
	cp $(WIN_RELEASE)/randp.dll $(WIN_RELEASE)/librandp.dll.a $(WIN_RELEASE)/librandp.a $(WIN_BUILD)/
	@declared=$$($(CC) -E -P -x c include/randp.h | grep -oE '\brandp_[A-Za-z0-9_]+[[:space:]]*\(' | \
		sed 's/[[:space:]]*($$//' | LC_ALL=C sort -u); \
	exported=$$(x86_64-w64-mingw32-objdump -p $(WIN_BUILD)/randp.dll | \
		sed -n '/Ordinal\/Name Pointer/,/^$$/p' | sed -n 's/^[[:space:]]*\[ *[0-9]*\] //p' | LC_ALL=C sort -u); \
	if [ "$$declared" != "$$exported" ]; then \
		echo "build-windows: randp.dll exports"; echo "$$exported"; echo "the header declares"; echo "$$declared"; exit 1; \
	fi; echo "build-windows: randp.dll exports exactly the header's $$(echo "$$declared" | wc -l) functions"

test-windows: test-windows-rust test-windows-c
	@echo "test-windows: all Windows tests passed under wine"

# Release (every test above) and debug (the library's tests and the key
# erasure scan, where every temporary has a stack slot). bad_input loads
# randp.dll from the target directory, hence build-windows first.
test-windows-rust: build-windows windows-prefix
	$(WIN_CARGO_ENV) $(CARGO) test --locked --profile tests --target $(WIN_TARGET) -p randp --all-features $(WIN_RUST_TESTS)
	$(WIN_CARGO_ENV) $(CARGO) test --locked --profile tests --target $(WIN_TARGET) -p randp-capi
	$(WIN_CARGO_ENV) $(CARGO) test --locked --target $(WIN_TARGET) -p randp --all-features --lib --test key_erasure --test output_registers

# The C API test linked with the static library and with the DLL (through
# its import library; objdump shows which each program loads), the
# thread-exit count linked both ways and loaded with LoadLibrary, and the
# static library linked beside another Rust static library that has std:
# librandp.a is rustc's archive as built, not localised as the Linux one is,
# and the program must still link and run.
test-windows-c: build-windows windows-prefix
	$(WIN_CC) $(WIN_CFLAGS) tests/c/test_randp.c $(WIN_BUILD)/librandp.a $(WIN_STATIC_RT) -o $(WIN_BUILD)/test_randp_static.exe
	$(WIN_CC) $(WIN_CFLAGS) tests/c/test_randp.c $(WIN_BUILD)/librandp.dll.a $(WIN_STATIC_RT) -o $(WIN_BUILD)/test_randp_dll.exe
	$(WIN_CC) $(WIN_CFLAGS) tests/c/windows/thread_exit.c $(WIN_BUILD)/librandp.a -o $(WIN_BUILD)/thread_exit_static.exe
	$(WIN_CC) $(WIN_CFLAGS) tests/c/windows/thread_exit.c $(WIN_BUILD)/librandp.dll.a -o $(WIN_BUILD)/thread_exit_dll.exe
	$(WIN_CC) $(WIN_CFLAGS) -DRANDP_LOADLIBRARY tests/c/windows/thread_exit.c -o $(WIN_BUILD)/thread_exit_loadlibrary.exe
	$(CARGO) build --release --locked --quiet --manifest-path tests/c/other-staticlib/Cargo.toml \
		--target $(WIN_TARGET) --target-dir $(WIN_BUILD)/other-staticlib
	$(WIN_CC) $(WIN_CFLAGS) tests/c/two_staticlibs.c $(WIN_BUILD)/librandp.a \
		$(WIN_BUILD)/other-staticlib/$(WIN_TARGET)/release/librandp_test_other_staticlib.a $(WIN_STATIC_RT) -lntdll \
		-o $(WIN_BUILD)/two_staticlibs.exe
	@for p in test_randp_static thread_exit_static; do \
		if x86_64-w64-mingw32-objdump -p $(WIN_BUILD)/$$p.exe | grep -qi 'DLL Name: randp.dll'; then \
			echo "test-windows-c: $$p loads randp.dll" >&2; exit 1; fi; done
	@for p in test_randp_dll thread_exit_dll; do \
		x86_64-w64-mingw32-objdump -p $(WIN_BUILD)/$$p.exe | grep -qi 'DLL Name: randp.dll' || { \
			echo "test-windows-c: $$p does not load randp.dll" >&2; exit 1; }; done
	cd $(WIN_BUILD) && for p in test_randp_static test_randp_dll thread_exit_static thread_exit_dll \
		thread_exit_loadlibrary two_staticlibs; do echo "== $$p.exe (wine)"; $(WIN_ENV) $(WINE) $$p.exe || exit 1; done
