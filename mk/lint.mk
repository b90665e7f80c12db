# Formatting and lints over the whole workspace, as CI runs them.
#
#   make test-fmt        cargo fmt --check (rustfmt.toml)
#   make test-clippy     cargo clippy on every target and feature, warnings denied
#
# clippy runs once per package: with --workspace --all-features, cargo would
# unify randp's `internals` feature (which allocates) into the C library,
# which is no_std without an allocator and never builds with it.

.PHONY: test-fmt test-clippy
TEST_TARGETS += test-fmt test-clippy

test-fmt:
	$(CARGO) fmt --all --check

test-clippy:
	$(CARGO) clippy --locked -p randp --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked -p randp-capi --all-targets --all-features -- -D warnings
