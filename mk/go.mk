# Go module (go/): go vet, staticcheck and the race-enabled tests, which
# include building consumer modules outside the repository (plain, vendored,
# statically linked, c-shared, for unsupported platforms and musl, under go
# vet, and every Go block of README.md) with cargo off PATH; and the package's tests for linux/arm64 under qemu-user. Links the
# prebuilt go/lib/linux_*/librandp.a committed in the module, as a user of the
# module does; check-go-lib (mk/c.mk) fails if that library is stale.
#
#   make test-go         vet + staticcheck + go test -race ./... (linux/amd64)
#   make test-go-arm64   vet + go test for linux/arm64, cross-compiled with
#                        aarch64-linux-gnu-gcc and run under qemu-aarch64
#   make test-go-local   the tests against build/librandp.a (make staticlib)
#   make go-opcount      instructions per call of the Go hot paths and of an
#                        empty cgo call, counted by callgrind (repeatable)

GO_DIR := go
# staticcheck 2026.1: runs on Go 1.25+ and checks code for Go 1.24 to 1.26.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.7.0
GO_ARM64_CC := aarch64-linux-gnu-gcc
GO_ARM64_SYSROOT := /usr/aarch64-linux-gnu
GO_ARM64_ENV := CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=$(GO_ARM64_CC) QEMU_LD_PREFIX=$(GO_ARM64_SYSROOT)

# apt-get installs each tool's Debian package when the tool is missing.
define go_need
command -v $(1) >/dev/null || (apt-get update && apt-get install -y $(2))
endef

.PHONY: test-go test-go-arm64 test-go-local go-opcount
TEST_TARGETS += test-go test-go-arm64
test-go:
	@$(call go_need,musl-gcc,musl-tools)
	cd $(GO_DIR) && $(GO) vet ./...
	cd $(GO_DIR) && $(GO) vet -tags randp_local ./...
	cd $(GO_DIR) && $(GO) run $(STATICCHECK) ./...
	cd $(GO_DIR) && $(GO) run $(STATICCHECK) -tags randp_local ./...
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) test -race -count=1 ./...

test-go-arm64:
	@$(call go_need,$(GO_ARM64_CC),gcc-aarch64-linux-gnu)
	@$(call go_need,qemu-aarch64,qemu-user)
	@test -f $(GO_DIR)/lib/linux_arm64/librandp.a || { \
		echo "test-go-arm64: $(GO_DIR)/lib/linux_arm64/librandp.a is missing (make go-lib builds it)" >&2; exit 1; }
	cd $(GO_DIR) && $(GO_ARM64_ENV) $(GO) vet . ./cmd/...
	cd $(GO_DIR) && $(GO_ARM64_ENV) $(GO) test -count=1 -exec qemu-aarch64 . ./cmd/...

test-go-local: staticlib
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) test -race -count=1 -tags randp_local ./...

go-opcount:
	@$(call go_need,valgrind,valgrind)
	GO="$(GO)" scripts/go-opcount.sh
