# Rust crate: release build (rlib, staticlib, cdylib), the cbindgen header, and cargo test.

build:
	$(CARGO) build --release --locked

# build.rs writes the header cbindgen generates into OUT_DIR; the header test
# copies it into include/ when RANDP_BLESS is set (and otherwise fails if stale).
header:
	RANDP_BLESS=1 $(CARGO) test --locked --release --test header

TEST_TARGETS += test-rust
test-rust:
	$(CARGO) test --locked --release
