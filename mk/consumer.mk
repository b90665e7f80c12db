# randp as a dependency of somebody else's crate (scripts/test-consumer.sh):
# fetched, then built offline with no network, rlib only, no cbindgen or
# serde among its dependencies, and the README's Rust example compiles and
# runs there, natively and as a static x86_64-unknown-linux-musl binary.
#
#   make test-consumer   the consumer crate, in a temporary directory outside the tree

.PHONY: test-consumer
TEST_TARGETS += test-consumer

test-consumer:
	@rustup target list --installed | grep -qx x86_64-unknown-linux-musl || rustup target add x86_64-unknown-linux-musl
	scripts/test-consumer.sh
