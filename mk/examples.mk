# The examples: examples/*.rs (cargo examples), examples/*.c and the Go
# package's Example functions (go/example_test.go, run by every go test),
# which the README's quick starts are, character for character.
#
#   make test-examples         run each cargo example; build each C example against build/ and, with the README's own cc line, against an installation found with pkg-config; run them
#   make test-readme-examples  the README's quick starts are the example files (scripts/check-readme-examples.sh), with a control

EXAMPLES_BUILD := build/examples
EXAMPLES_RS := $(basename $(notdir $(wildcard examples/*.rs)))
EXAMPLES_C := $(wildcard examples/*.c)

.PHONY: test-examples test-readme-examples
TEST_TARGETS += test-examples test-readme-examples

test-examples: staticlib
	@for e in $(EXAMPLES_RS); do echo "== cargo run --profile tests --example $$e"; \
		$(CARGO) run --locked --profile tests --quiet --example $$e || exit 1; done
	@mkdir -p $(EXAMPLES_BUILD)
	@for f in $(EXAMPLES_C); do n=$$(basename $$f .c); echo "== $$f against build/librandp.a"; \
		$(CC) $(C_STD_FLAGS) -Iinclude $$f $(STATICLIB) $(RANDP_LIBS_PRIVATE) -o $(EXAMPLES_BUILD)/$$n && \
		$(EXAMPLES_BUILD)/$$n || exit 1; done
	@command -v pkg-config >/dev/null || (apt-get update && apt-get install -y pkg-config)
	@rm -rf $(EXAMPLES_BUILD)/prefix $(EXAMPLES_BUILD)/user
	$(MAKE) --no-print-directory install PREFIX=$(abspath $(EXAMPLES_BUILD)/prefix)
	@line=$$(grep '^cc quickstart\.c ' README.md); [ -n "$$line" ] || { \
		echo "test-examples: README.md has no 'cc quickstart.c ...' line" >&2; exit 1; }; \
	mkdir -p $(EXAMPLES_BUILD)/user && cp examples/quickstart.c $(EXAMPLES_BUILD)/user/ && \
	echo "== in a directory of its own, against the installation: $$line" && \
	cd $(EXAMPLES_BUILD)/user && PKG_CONFIG_PATH=$(abspath $(EXAMPLES_BUILD)/prefix)/lib/pkgconfig \
		LD_LIBRARY_PATH=$(abspath $(EXAMPLES_BUILD)/prefix)/lib sh -ec "$$line"
	@echo "test-examples: every example builds and runs as the README shows it"

# The control: a README whose C quick start differs from examples/quickstart.c.
test-readme-examples:
	scripts/check-readme-examples.sh README.md
	@mkdir -p build && sed 's/randp_lt_u32(6) + 1/randp_lt_u32(7) + 1/' README.md >build/readme-examples-control.md
	@if scripts/check-readme-examples.sh build/readme-examples-control.md 2>/dev/null; then \
		echo "test-readme-examples: the control, whose C block differs from its file, passed" >&2; exit 1; fi
	@echo "test-readme-examples: the control, whose C block differs from its file, fails, as it must"
