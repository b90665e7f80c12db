# Rust crate: release build (rlib, staticlib, cdylib), the cbindgen header, and cargo test.

build:
	$(CARGO) build --release --locked

# build.rs writes the header cbindgen generates into OUT_DIR; copy it into include/.
header:
	$(CARGO) build --release --locked
	cp "$$(ls -t target/release/build/randp-*/out/randp.h | head -n 1)" include/randp.h

TEST_TARGETS += test-rust
test-rust:
	$(CARGO) test --locked --release
	$(CARGO) test --locked --doc
