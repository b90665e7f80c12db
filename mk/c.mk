# C side: the symbol-localized static library, the C tests, `make install`
# and the prebuilt library committed in the Go module.
#
#   make staticlib       build/librandp.a (randp_* exports only), build/librandp.so.0 and the librandp.so link
#   make test-c          every C test below
#   make test-c-exports  exports and undefined symbols of librandp.a and librandp.so against the header and allow-list
#   make test-c-api      the C API test, linked statically and dynamically
#   make test-c-compat   planet36/randp's declarations and a program written for it, as C17 and C++17
#   make test-c-two-staticlibs  librandp.a beside another Rust static library in one program
#   make test-c-install  install into a temporary prefix, build with pkg-config, uninstall
#   make test-c-dlopen   librandp.so stays loaded after dlclose while a thread that drew from it runs
#   make test-c-panic    a panic inside the library aborts with its message, never returning into C
#   make install         copy what make staticlib built under PREFIX=/usr/local (DESTDIR, LIBDIR, INCLUDEDIR honoured)
#   make uninstall       remove what make install put there (same variables)
#   make go-lib          rebuild the Go module's prebuilt objects go/lib/linux_{amd64,arm64}/*.syso (pinned Rust)
#   make go-lib-objects  the objects, INPUTS.sha256 and SHA256SUMS from staticlib builds (run by go-lib)
#   make check-go-lib    fail if the objects are stale against their inputs, or export or need the wrong symbols
#   make verify-go-lib   rebuild the objects from `git archive HEAD` in a temporary tree; compare byte for byte (about 1.5 min)
#
# The objects are built with the Rust toolchain pinned in
# go/lib/rust-toolchain.toml (scripts/go-lib-toolchain.sh uses the active
# toolchain when it is that version, and has rustup install it otherwise).
# scripts/go-lib-from-head.sh runs `make go-lib` on an export of the committed
# HEAD, for when the working tree holds uncommitted edits to src/.

STATICLIB    := build/librandp.a
C_BUILD      := build/c
C_TEST_SRC   := tests/c
C_STD_FLAGS  := -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror
CXX          ?= c++
# What a program linked with build/librandp.a needs beyond libc (see
# scripts/write-randp-pc.sh, and randp.pc for installed use).
RANDP_LIBS_PRIVATE := -lpthread

LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
CRATE_VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

GO_LIB_DIR := go/lib/linux_amd64
GO_LIB_DIR_ARM64 := go/lib/linux_arm64
GO_LIB_AMD64 := $(GO_LIB_DIR)/randp_linux_amd64.syso
GO_LIB_ARM64 := $(GO_LIB_DIR_ARM64)/randp_linux_arm64.syso

.PHONY: staticlib test-c test-c-exports test-c-api test-c-compat test-c-two-staticlibs \
	test-c-install test-c-panic test-c-dlopen install uninstall go-lib go-lib-objects check-go-lib \
	verify-go-lib

# build/ also gets the shared library under its SONAME, with the librandp.so
# link that -lrandp looks for, as an installation lays them out.
# make test runs suites side by side, and test-c-install and test-examples
# run this again through `make install`: each file is replaced by a rename
# (the archive's temporary is made in build/, on the same file system), so a
# program that links or maps it meanwhile sees the old file or the new one,
# never a half-written one, and the link is made only once.
staticlib: build
	@mkdir -p build
	TMPDIR=$(abspath build) scripts/localize-staticlib.sh $(RELEASE_DIR)/librandp.a $(STATICLIB)
	cmp -s $(RELEASE_DIR)/librandp.so build/librandp.so.0 || { cp -f $(RELEASE_DIR)/librandp.so build/librandp.so.0.tmp && \
		mv -f build/librandp.so.0.tmp build/librandp.so.0; }
	@[ "$$(readlink build/librandp.so)" = librandp.so.0 ] || ln -sf librandp.so.0 build/librandp.so

TEST_TARGETS += test-c check-go-lib verify-go-lib
test-c: test-c-exports test-c-api test-c-compat test-c-two-staticlibs test-c-install test-c-panic test-c-dlopen
	@echo "test-c: all C tests passed"

# build/librandp.a and librandp.so export exactly the header's functions; the
# unlocalized Rust archive must fail the same check (so the check can fail).
# Neither they nor randp-cat use RDRAND or RDSEED; the control, an object
# that does, must fail that check. They need nothing from the system off
# scripts/check-undefined.sh's allow-list; an object that calls fopen, a
# file nm cannot read and a missing one must fail that check.
test-c-exports: staticlib
	scripts/check-no-hw-rng.sh $(STATICLIB) $(RELEASE_DIR)/librandp.so $(RELEASE_DIR)/randp-cat
	@mkdir -p $(C_BUILD) && printf '%s\n' '#include <immintrin.h>' \
		'unsigned long long f(void) { unsigned long long v = 0; _rdrand64_step(&v); return v; }' \
		> $(C_BUILD)/hw_rng_control.c && $(CC) -mrdrnd -c $(C_BUILD)/hw_rng_control.c -o $(C_BUILD)/hw_rng_control.o
	@if scripts/check-no-hw-rng.sh $(C_BUILD)/hw_rng_control.o >/dev/null 2>&1; then \
		echo "test-c-exports: the check accepted an object that uses RDRAND" >&2; exit 1; \
	else echo "test-c-exports: the check rejects an object that uses RDRAND, as it must"; fi
	scripts/check-undefined.sh $(STATICLIB) $(RELEASE_DIR)/librandp.so
	@printf '%s\n' '#include <stdio.h>' 'void *f(void) { return fopen("/", "r"); }' \
		> $(C_BUILD)/undefined_control.c && $(CC) -c $(C_BUILD)/undefined_control.c -o $(C_BUILD)/undefined_control.o
	@scripts/check-undefined.sh $(C_BUILD)/undefined_control.o 2>&1 | grep -q 'needs fopen, which is not on the allow-list' || { \
		echo "test-c-exports: the undefined-symbol check did not name fopen" >&2; exit 1; }
	@for lib in $(C_BUILD)/undefined_control.o $(C_BUILD)/undefined_control.c $(C_BUILD)/no-such-library.a; do \
		if scripts/check-undefined.sh $$lib >/dev/null 2>&1; then \
			echo "test-c-exports: the undefined-symbol check accepted $$lib" >&2; exit 1; fi; \
	done; echo "test-c-exports: the undefined-symbol check rejects an object that calls fopen, a C source and a missing file, as it must"
	scripts/check-exports.sh $(STATICLIB) include/randp.h
	scripts/check-exports.sh $(RELEASE_DIR)/librandp.so include/randp.h
	@if scripts/check-exports.sh $(RELEASE_DIR)/librandp.a include/randp.h >/dev/null 2>&1; then \
		echo "test-c-exports: the check accepted the unlocalized $(RELEASE_DIR)/librandp.a" >&2; exit 1; \
	else echo "test-c-exports: the check rejects the unlocalized $(RELEASE_DIR)/librandp.a, as it must"; fi

# The API test, linked statically against build/librandp.a and dynamically
# against the cdylib; readelf shows which library each binary really uses.
test-c-api: staticlib
	@mkdir -p $(C_BUILD)
	$(CC) $(C_STD_FLAGS) -Iinclude $(C_TEST_SRC)/test_randp.c $(STATICLIB) \
		$(RANDP_LIBS_PRIVATE) -o $(C_BUILD)/test_randp_static
	@if readelf -d $(C_BUILD)/test_randp_static | grep -q 'librandp'; then \
		echo "test-c-api: test_randp_static depends on a shared librandp" >&2; exit 1; fi
	$(C_BUILD)/test_randp_static
	$(CC) $(C_STD_FLAGS) -Iinclude $(C_TEST_SRC)/test_randp.c \
		-Lbuild -lrandp -Wl,-rpath,$(abspath build) -o $(C_BUILD)/test_randp_shared
	@readelf -d $(C_BUILD)/test_randp_shared | grep -q 'NEEDED.*\[librandp\.so\.0\]' || { \
		echo "test-c-api: test_randp_shared does not load librandp.so.0" >&2; exit 1; }
	$(C_BUILD)/test_randp_shared

# planet36/randp compatibility: its declarations agree with ours, and a
# program written for it builds unchanged as C17 and C++17 and runs.
test-c-compat: staticlib
	@mkdir -p $(C_BUILD)
	$(CC) -std=c17 -Wall -Wextra -Werror -Iinclude -fsyntax-only $(C_TEST_SRC)/planet36_decls.c
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -fsyntax-only -x c++ $(C_TEST_SRC)/planet36_decls.c
	$(CC) -std=c17 -Wall -Wextra -Werror -Iinclude $(C_TEST_SRC)/planet36_program.c $(STATICLIB) \
		$(RANDP_LIBS_PRIVATE) -o $(C_BUILD)/planet36_program_c
	$(C_BUILD)/planet36_program_c
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -x c++ $(C_TEST_SRC)/planet36_program.c -x none \
		$(STATICLIB) $(RANDP_LIBS_PRIVATE) -o $(C_BUILD)/planet36_program_cxx
	$(C_BUILD)/planet36_program_cxx

# build/librandp.a links into one program beside another LTO-built Rust
# staticlib (with its own std, compiler_builtins and personality routine)
# and both work. (The archive is no_std and exports only randp_*, so nothing
# of it can clash; test-c-exports checks the export list.)
test-c-two-staticlibs: staticlib
	@mkdir -p $(C_BUILD)
	$(CARGO) build --release --locked --quiet --manifest-path $(C_TEST_SRC)/other-staticlib/Cargo.toml \
		--target-dir $(C_BUILD)/other-staticlib
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -Iinclude $(C_TEST_SRC)/two_staticlibs.c $(STATICLIB) \
		$(C_BUILD)/other-staticlib/release/librandp_test_other_staticlib.a $(RANDP_LIBS_PRIVATE) -ldl -lm \
		-o $(C_BUILD)/two_staticlibs
	$(C_BUILD)/two_staticlibs

# A panic inside the library aborts with a message and never unwinds into C:
# a build with the test-only randp_test_panic() (feature panic-probe, in a
# target directory of its own so it can never be shipped) is called from C.
test-c-panic:
	@mkdir -p $(C_BUILD)
	$(CARGO) build --release --locked -p randp-capi --features panic-probe --target-dir build/panic-probe
	$(CC) $(C_STD_FLAGS) $(C_TEST_SRC)/panic_abort.c -ldl -o $(C_BUILD)/panic_abort
	$(C_BUILD)/panic_abort $(abspath build/panic-probe/release/librandp.so)

# dlopen, draw on a thread, dlclose, draw again and let the thread exit: the
# library is NODELETE, so it stays loaded and its key destructor still runs.
test-c-dlopen: staticlib
	@mkdir -p $(C_BUILD)
	$(CC) $(C_STD_FLAGS) $(C_TEST_SRC)/dlopen_dlclose.c -lpthread -ldl -o $(C_BUILD)/dlopen_dlclose
	$(C_BUILD)/dlopen_dlclose $(abspath build/librandp.so.0)

# Install into a temporary prefix and build with pkg-config, statically
# (`pkg-config --static`, -static) and dynamically. The install runs with
# root's PATH under sudo, which has no cargo; the control, an install whose
# library is missing, must fail and install nothing (run with the plain
# shell, so that make test's log records no failed recipe for it).
test-c-install: staticlib
	@command -v pkg-config >/dev/null || (apt-get update && apt-get install -y pkg-config)
	@rm -rf $(C_BUILD)/prefix
	@if $(MAKE) --no-print-directory install PREFIX=$(abspath $(C_BUILD)/prefix) SHELL=/bin/sh .SHELLFLAGS=-c \
		INSTALL_FROM="$(STATICLIB) $(abspath $(C_BUILD))/no-such-librandp.so" 2>/dev/null; then \
		echo "test-c-install: make install went on without a library to install" >&2; exit 1; fi
	@[ ! -e $(C_BUILD)/prefix ] || { echo "test-c-install: a failed make install left files" >&2; exit 1; }
	@echo "test-c-install: make install with a library missing fails and installs nothing"
	env PATH=/usr/sbin:/usr/bin:/sbin:/bin $(MAKE) --no-print-directory install PREFIX=$(abspath $(C_BUILD)/prefix)
	CC="$(CC)" scripts/test-c-install.sh $(abspath $(C_BUILD)/prefix) $(C_TEST_SRC)/test_randp.c $(CRATE_VERSION)
	$(MAKE) --no-print-directory uninstall PREFIX=$(abspath $(C_BUILD)/prefix)
	@left=$$(find $(C_BUILD)/prefix -type f -o -type l); if [ -n "$$left" ]; then \
		echo "test-c-install: make uninstall left $$left" >&2; exit 1; fi
	@echo "test-c-install: make uninstall removed every installed file"

# The shared library is installed as librandp.so.$(CRATE_VERSION) with the
# links librandp.so.0 (its SONAME) and librandp.so (for -lrandp). install
# builds nothing: it copies what `make staticlib` left in build/, so that
# `sudo make install` needs no cargo on root's PATH.
INSTALL_FROM = $(STATICLIB) $(RELEASE_DIR)/librandp.so
install:
	@for f in $(INSTALL_FROM); do [ -f "$$f" ] || { \
		echo "make install: $$f is missing: run make staticlib first (as yourself, not as root)" >&2; exit 1; }; done
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 0644 include/randp.h $(DESTDIR)$(INCLUDEDIR)/randp.h
	install -m 0644 $(STATICLIB) $(DESTDIR)$(LIBDIR)/librandp.a
	install -m 0755 $(RELEASE_DIR)/librandp.so $(DESTDIR)$(LIBDIR)/librandp.so.$(CRATE_VERSION)
	ln -sf librandp.so.$(CRATE_VERSION) $(DESTDIR)$(LIBDIR)/librandp.so.0
	ln -sf librandp.so.0 $(DESTDIR)$(LIBDIR)/librandp.so
	scripts/write-randp-pc.sh $(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(CRATE_VERSION) \
		>$(DESTDIR)$(LIBDIR)/pkgconfig/randp.pc

# Removes exactly what install put there.
uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/randp.h $(DESTDIR)$(LIBDIR)/librandp.a \
		$(DESTDIR)$(LIBDIR)/librandp.so.$(CRATE_VERSION) $(DESTDIR)$(LIBDIR)/librandp.so.0 \
		$(DESTDIR)$(LIBDIR)/librandp.so $(DESTDIR)$(LIBDIR)/pkgconfig/randp.pc

# The Go module links go/lib/linux_amd64/randp_linux_amd64.syso (and the
# arm64 one): the one object of the localized static library, which the go
# command links into every binary that imports the package (no cargo for Go
# users). INPUTS.sha256 records what they were built from, SHA256SUMS their
# hashes.
go-lib:
	RUSTUP_TOOLCHAIN=$$(scripts/go-lib-toolchain.sh) $(MAKE) --no-print-directory go-lib-objects

go-lib-objects: staticlib staticlib-aarch64
	@mkdir -p $(GO_LIB_DIR) $(GO_LIB_DIR_ARM64)
	ar p $(STATICLIB) librandp.o >$(GO_LIB_AMD64)
	ar p build/aarch64/librandp.a librandp.o >$(GO_LIB_ARM64)
	scripts/go-lib-inputs.sh >$(GO_LIB_DIR)/INPUTS.sha256
	cp $(GO_LIB_DIR)/INPUTS.sha256 $(GO_LIB_DIR_ARM64)/INPUTS.sha256
	cd go/lib && sha256sum linux_amd64/randp_linux_amd64.syso linux_arm64/randp_linux_arm64.syso >SHA256SUMS
	@cat $(GO_LIB_DIR)/INPUTS.sha256 go/lib/SHA256SUMS

# aarch64-tools: the arm64 object is disassembled with aarch64's objdump.
check-go-lib: aarch64-tools
	scripts/go-lib-inputs.sh --check $(GO_LIB_DIR)/INPUTS.sha256
	scripts/go-lib-inputs.sh --check $(GO_LIB_DIR_ARM64)/INPUTS.sha256
	cd go/lib && sha256sum -c SHA256SUMS
	scripts/check-exports.sh $(GO_LIB_AMD64) include/randp.h
	scripts/check-exports.sh $(GO_LIB_ARM64) include/randp.h
	scripts/check-undefined.sh $(GO_LIB_AMD64) $(GO_LIB_ARM64)
	scripts/check-no-hw-rng.sh $(GO_LIB_AMD64) $(GO_LIB_ARM64)

# A clean export of HEAD, built from scratch in a temporary directory with
# the pinned toolchain; the objects must equal HEAD's byte for byte.
verify-go-lib:
	scripts/verify-go-lib.sh
