# The quick tier (`make check`, listed first by `make help`) and the tools
# of the full one. make check runs what a one-line change most often breaks,
# in about 3 minutes after `make build` on 2 cores; `make test` runs them
# all again among its suites.
#
#   make check-clippy    cargo clippy of the three packages (randp, randp-capi, randp-benches) for this machine's target, every feature, warnings denied
#   make check-rust      the library's unit tests and tests/bad_input.rs, release profile (as shipped)
#   make check-go        go vet and go test of the Go module on this machine: cgo path, examples included, no race detector, no consumer builds
#   make check-docs      the README's quick starts are the example files, and every document cites only what exists

.PHONY: check-clippy check-rust check-go check-docs
CHECK_TARGETS += test-fmt check-clippy check-rust check-docs test-c-api check-go

check-clippy:
	$(CARGO) clippy --locked -p randp --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked -p randp-capi --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked -p randp-benches --all-targets --all-features -- -D warnings

# bad_input.rs loads target/release/librandp.so, hence `build` first.
check-rust: build
	$(CARGO) test --locked --profile tests -p randp --all-features --lib --test bad_input

check-go:
	cd $(GO_DIR) && $(GO) vet ./... && $(GO) test -count=1 $(GO_PKGS_NO_BUILDTEST)

check-docs: test-readme-refs test-readme-examples

# Every tool a suite installs when it is missing, installed here first and
# one at a time: apt-get and rustup each take a lock that a second
# concurrent run would fail on.
test-tools: aarch64-tools musl-tools windows-tools security-tools
	@missing=; for p in dieharder:dieharder valgrind:valgrind pkg-config:pkg-config qemu-s390x:qemu-user; do \
		command -v $${p%%:*} >/dev/null || missing="$$missing $${p#*:}"; done; \
	[ -z "$$missing" ] || (apt-get update && apt-get install -y $$missing)
	@for t in $(CLIPPY_OTHER_TARGETS) $(UNSUPPORTED_PROBES); do \
		rustup target list --installed | grep -qx $$t || rustup target add $$t || exit 1; done
	@rustup toolchain list | grep -q '^$(MSRV)-' || rustup toolchain install $(MSRV) --profile minimal
	@scripts/go-lib-toolchain.sh >/dev/null
	@echo "test-tools: every tool make test needs is installed"
