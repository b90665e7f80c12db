# randp as a dependency of somebody else's crate (scripts/test-consumer.sh):
# fetched, then built offline with no network, rlib only, no cbindgen or
# serde among its dependencies, and the README's Rust example compiles and
# runs there, natively and, built for x86_64-pc-windows-gnu, under wine
# (mk/windows.mk's prefix).
#
#   make test-consumer   the consumer crate, in a temporary directory outside the tree
#   make test-two-copies a program with two copies of randp (path and git) links and draws from both

.PHONY: test-consumer test-two-copies
TEST_TARGETS += test-consumer test-two-copies

test-consumer: windows-prefix
	WINE=$(WINE) WINEPREFIX=$(WIN_PREFIX) scripts/test-consumer.sh

test-two-copies:
	scripts/test-two-copies.sh
