# Go module (go/), on both of its paths. The cgo path links the prebuilt
# object committed in the module (go/lib/linux_*/randp_linux_*.syso), as a
# user of the module does; check-go-lib and verify-go-lib (mk/c.mk) fail if it
# is stale or not what the sources build. The pure-Go path is forced with the
# build tag randp_purego, and is what CGO_ENABLED=0 and every platform without
# a prebuilt object get. The tests in go/internal/buildtest build consumer
# modules outside the repository with cargo off PATH: plain, vendored,
# statically linked, c-shared, c-archive (into a C program, and into a C host
# that forks 1,000 times), with musl-gcc, without cgo, with Go's internal
# linker (which fails on the cgo path and links the pure-Go one), for every
# listed GOOS/GOARCH, under go vet, and every Go block of README.md.
#
#   make test-go         cgo path: vet + staticcheck + go test -race ./... (linux/amd64), the
#                        package's tests with GOEXPERIMENT=cgocheck2 (cgo's full pointer checks);
#                        about 2.5 min
#   make test-go-purego  pure-Go path: vet + staticcheck, go test -race with the tag (and cgocheck2),
#                        go test with CGO_ENABLED=0
#                        (also as linux/386, run natively: 32-bit int and pointers), twice each in a
#                        shuffled order (a test that leaves state another relies on fails), vet per platform
#   make test-go-musl    the package's tests on the cgo path built with musl-gcc (Alpine's C library)
#   make test-go-windows the pure-Go path's tests for windows/amd64, run under wine (mk/windows.mk's prefix)
#   make test-go-arm64   vet + go test for linux/arm64 under qemu-aarch64, on both paths
#                        (cgo: cross-compiled with aarch64-linux-gnu-gcc; pure-Go: CGO_ENABLED=0)
#   make test-go-s390x   vet + the pure-Go path's tests for big-endian linux/s390x, under qemu-s390x
#   make test-go-newest  vet + the package's tests on both paths, built by the newest Go release
#                        (GO_NEWEST, fetched from the module proxy as a toolchain)
#   make test-go-local   the tests against build/librandp.a (make staticlib)
#   make go-opcount      instructions per call of the Go hot paths and of an
#                        empty cgo call, counted by callgrind (repeatable)
#   make go-prologue     rewrite the copies of the pinned-section prologue (go/prologue_test.go's
#                        pinnedPrologue, which TestPinnedPrologue checks them against)

GO_DIR := go
# staticcheck 2026.1: runs on Go 1.25+ and checks code for Go 1.24 to 1.26.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.7.0
GO_ARM64_CC := aarch64-linux-gnu-gcc
GO_ARM64_SYSROOT := /usr/aarch64-linux-gnu
GO_ARM64_ENV := CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=$(GO_ARM64_CC) QEMU_LD_PREFIX=$(GO_ARM64_SYSROOT)
# Tests run under qemu-user say so, naming the emulator as the Rust tests'
# runners do (qemu-user hands the environment on to the program it runs):
# qemu-user accepts any madvise advice and ignores it, so there the tests
# expect the package to refuse every page and skip those that need one
# (go/qemu_test.go). Without it they take the kernel to be real and require
# pages, whatever the architecture.
go_emulator = RANDP_TEST_EMULATOR=$(1)
GO_PUREGO := -tags randp_purego
# The platforms the pure-Go path is vetted for besides this one (the
# consumer builds of internal/buildtest cover the same list).
GO_PUREGO_TARGETS := darwin/arm64 darwin/amd64 windows/amd64 freebsd/amd64 linux/386 linux/riscv64 \
	wasip1/wasm js/wasm linux/arm64 android/arm64 plan9/amd64
# Every package but internal/buildtest, whose tests build consumers on both
# paths themselves whatever the tags of their own test binary (and without
# the race detector: that binary runs go and gcc, and has no randp in it).
GO_PKGS_NO_BUILDTEST = $$($(GO) list ./... | grep -v /internal/buildtest)

# apt-get installs each tool's Debian package when the tool is missing.
define go_need
command -v $(1) >/dev/null || (apt-get update && apt-get install -y $(2))
endef

.PHONY: test-go test-go-purego test-go-musl test-go-windows test-go-arm64 test-go-s390x test-go-newest test-go-local \
	go-opcount go-prologue
TEST_TARGETS += test-go test-go-purego test-go-musl test-go-windows test-go-arm64 test-go-s390x test-go-newest
test-go:
	@$(call go_need,musl-gcc,musl-tools)
	cd $(GO_DIR) && $(GO) vet ./...
	cd $(GO_DIR) && $(GO) vet -tags randp_local ./...
	cd $(GO_DIR) && $(GO) run $(STATICCHECK) ./...
	cd $(GO_DIR) && $(GO) run $(STATICCHECK) -tags randp_local ./...
	cd $(GO_DIR) && GOEXPERIMENT=cgocheck2 CGO_ENABLED=1 $(GO) test -race -count=1 -shuffle=on $(GO_PKGS_NO_BUILDTEST)
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) test -count=1 -shuffle=on ./internal/buildtest

test-go-purego:
	cd $(GO_DIR) && CGO_ENABLED=0 $(GO) vet $(GO_PUREGO) ./...
	cd $(GO_DIR) && CGO_ENABLED=0 $(GO) run $(STATICCHECK) $(GO_PUREGO) ./...
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) vet $(GO_PUREGO) ./...
	cd $(GO_DIR) && GOEXPERIMENT=cgocheck2 CGO_ENABLED=1 $(GO) test -race -count=1 $(GO_PUREGO) $(GO_PKGS_NO_BUILDTEST)
	cd $(GO_DIR) && CGO_ENABLED=0 $(GO) test -count=2 -shuffle=on $(GO_PUREGO) $(GO_PKGS_NO_BUILDTEST)
	cd $(GO_DIR) && CGO_ENABLED=0 GOARCH=386 $(GO) test -count=2 -shuffle=on . ./cmd/...
	@cd $(GO_DIR) && for t in $(GO_PUREGO_TARGETS); do \
		echo "go vet ./... for $$t (CGO_ENABLED=0)"; \
		CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./... || exit 1; \
	done

# musl's C library with the prebuilt object: the race detector needs glibc,
# so these run without -race (test-go runs them with it).
test-go-musl:
	@$(call go_need,musl-gcc,musl-tools)
	cd $(GO_DIR) && CGO_ENABLED=1 CC=musl-gcc $(GO) vet . ./cmd/...
	cd $(GO_DIR) && CGO_ENABLED=1 CC=musl-gcc $(GO) test -count=1 . ./cmd/...
	cd $(GO_DIR) && CGO_ENABLED=1 CC=musl-gcc $(GO) test -count=1 -ldflags=-extldflags=-static . ./cmd/...

# The package's tests cross-compiled for windows/amd64 (the pure-Go path:
# no cgo when cross-compiling) and run by wine in the prefix of
# mk/windows.mk. Debian 12's wine 8.0 has no bcryptprimitives.dll, whose
# ProcessPrng Go's runtime loads at start-up since Go 1.22: the prefix has
# the stand-in from tests/windows/bcryptprimitives.c (wine's
# BCryptGenRandom), so the OS's entropy here is wine's, not Windows'. Fork
# safety does not apply (Windows has no fork); the Go-side memory there is
# the package's own heap pages (memory_other.go).
test-go-windows: windows-prefix
	cd $(GO_DIR) && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) vet .
	cd $(GO_DIR) && CGO_ENABLED=0 GOOS=windows GOARCH=amd64 \
		$(GO) test -count=1 -exec "env $(WIN_ENV) $(WINE)" .

test-go-arm64:
	@$(call go_need,$(GO_ARM64_CC),gcc-aarch64-linux-gnu)
	@$(call go_need,qemu-aarch64,qemu-user)
	@test -f $(GO_DIR)/lib/linux_arm64/randp_linux_arm64.syso || { \
		echo "test-go-arm64: $(GO_DIR)/lib/linux_arm64/randp_linux_arm64.syso is missing (make go-lib builds it)" >&2; exit 1; }
	cd $(GO_DIR) && $(GO_ARM64_ENV) $(GO) vet . ./cmd/...
	cd $(GO_DIR) && $(GO_ARM64_ENV) $(call go_emulator,qemu-aarch64) $(GO) test -count=1 -exec qemu-aarch64 . ./cmd/...
	cd $(GO_DIR) && CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(call go_emulator,qemu-aarch64) $(GO) test -count=1 -exec qemu-aarch64 . ./cmd/...

# The pure-Go path on a big-endian host: the bytes a Read hands out are the
# words' bytes in memory order whatever its length (TestTakeCopiesAndZeroes).
test-go-s390x:
	@$(call go_need,qemu-s390x,qemu-user)
	cd $(GO_DIR) && CGO_ENABLED=0 GOOS=linux GOARCH=s390x $(GO) vet . ./cmd/...
	cd $(GO_DIR) && CGO_ENABLED=0 GOOS=linux GOARCH=s390x $(call go_emulator,qemu-s390x) $(GO) test -count=1 -exec qemu-s390x . ./cmd/...

# The other suites build with the machine's Go; this one with the newest
# release, which the go command fetches from the module proxy like a module
# (GOTOOLCHAIN). Both paths lean on what a release may change: the pure-Go
# generator mirrors math/rand/v2.ChaCha8's unexported layout (checked as the
# package starts), the cgo path links a prebuilt object through the
# release's linker. The first line fails unless that release is the one
# that runs.
GO_NEWEST := go1.27.3
GO_NEWEST_ENV := GOTOOLCHAIN=$(GO_NEWEST)
test-go-newest:
	cd $(GO_DIR) && $(GO_NEWEST_ENV) $(GO) version | grep -F ' $(GO_NEWEST) '
	cd $(GO_DIR) && $(GO_NEWEST_ENV) $(GO) vet . ./cmd/...
	cd $(GO_DIR) && $(GO_NEWEST_ENV) CGO_ENABLED=1 $(GO) test -count=1 -shuffle=on . ./cmd/...
	cd $(GO_DIR) && $(GO_NEWEST_ENV) CGO_ENABLED=0 $(GO) test -count=1 -shuffle=on $(GO_PUREGO) . ./cmd/...

test-go-local: staticlib
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) test -race -count=1 -tags randp_local ./...

go-opcount:
	@$(call go_need,valgrind,valgrind)
	GO="$(GO)" scripts/go-opcount.sh

# The prologue is generated rather than a helper: no function holding it
# stays within the inliner's budget (prologue_test.go).
go-prologue:
	cd $(GO_DIR) && RANDP_BLESS=1 $(GO) test -count=1 -run '^TestPinnedPrologue$$' .
