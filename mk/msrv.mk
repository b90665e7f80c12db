# The minimum supported Rust version: the rust-version of Cargo.toml (the
# same in capi/Cargo.toml), with which the crate (every feature) and the C
# library build from Cargo.lock. The toolchain is installed with rustup when
# missing; the build has a target directory of its own. 1.89 is the minimum:
# the x86_64 kernels enable the vaes, avx512f and avx512bw target features,
# stable from 1.89 (1.88 rejects them, whatever the aes version), and the aes
# 0.9.4 in Cargo.lock declares 1.89 as well.
#
#   make test-msrv       build randp (every feature) and randp-capi --locked with the rust-version toolchain

MSRV := $(shell sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
MSRV_TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)/msrv

.PHONY: test-msrv
TEST_TARGETS += test-msrv

test-msrv:
	@capi=$$(sed -n 's/^rust-version = "\(.*\)"/\1/p' capi/Cargo.toml); [ -n "$(MSRV)" ] && [ "$$capi" = "$(MSRV)" ] || { \
		echo "test-msrv: rust-version is '$(MSRV)' in Cargo.toml and '$$capi' in capi/Cargo.toml" >&2; exit 1; }
	@rustup toolchain list | grep -q '^$(MSRV)-' || rustup toolchain install $(MSRV) --profile minimal
	rustup run $(MSRV) cargo build --locked --target-dir $(MSRV_TARGET_DIR) -p randp --all-features
	rustup run $(MSRV) cargo build --locked --target-dir $(MSRV_TARGET_DIR) -p randp-capi
	@echo "test-msrv: randp and randp-capi build with Rust $(MSRV)"
