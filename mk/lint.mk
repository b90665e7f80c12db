# Formatting and lints over the whole workspace, as CI runs them.
#
#   make test-fmt        cargo fmt --check (rustfmt.toml)
#   make test-clippy     cargo clippy on every target and feature, warnings denied; the
#                        library also for each other supported target (code under cfg)
#   make test-doc        rustdoc of both packages, private items included, warnings
#                        (broken links) denied
#   make test-readme-refs every path, link, make target, test function and Go test the user-facing documents cite exists, and none cites an issue number or a path outside the repository
#   make test-layers     the crate's modules form layers with no circle (scripts/check-layers.sh)
#
# clippy runs once per package: with --workspace --all-features, cargo would
# unify randp's `internals` feature (which allocates) into the C library,
# which is no_std without an allocator and never builds with it.

# The supported targets other than this machine's (src/lib.rs lists them all).
CLIPPY_OTHER_TARGETS := aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl \
	x86_64-pc-windows-gnu

.PHONY: test-fmt test-clippy test-doc test-readme-refs test-layers
TEST_TARGETS += test-fmt test-clippy test-doc test-readme-refs test-layers

test-fmt:
	$(CARGO) fmt --all --check

test-clippy:
	$(CARGO) clippy --locked -p randp --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked -p randp-capi --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked -p randp-benches --all-targets --all-features -- -D warnings
	@for t in $(CLIPPY_OTHER_TARGETS); do \
		rustup target list --installed | grep -qx $$t || rustup target add $$t || exit 1; \
		echo "cargo clippy -p randp --lib --target $$t (default features and all)"; \
		$(CARGO) clippy -q --locked -p randp --lib --target $$t -- -D warnings || exit 1; \
		$(CARGO) clippy -q --locked -p randp --lib --all-features --target $$t -- -D warnings || exit 1; \
	done

# Warnings (broken links among them) are errors; links to private items are
# allowed, since the private items are documented too.
DOC_FLAGS := -D warnings -A rustdoc::private_intra_doc_links

test-doc:
	RUSTDOCFLAGS="$(DOC_FLAGS)" $(CARGO) doc --locked --no-deps --document-private-items -p randp --features internals
	RUSTDOCFLAGS="$(DOC_FLAGS)" $(CARGO) doc --locked --no-deps --document-private-items -p randp-capi

# The user-facing documents (BENCHMARKS.md, which make bench writes, is
# checked by its generator's tests). The control: a document that cites a
# missing file, test, link and target, an issue and a path outside the
# repository must fail, each on its own.
USER_DOCS = README.md SECURITY.md CHANGELOG.md CONTRIBUTING.md $(wildcard docs/*.md)
READMEREFS_CONTROLS := '`tests/no_such_file.rs`' '`no_such_test_of_ours`' '`TestNoSuchThing`' \
	'[a link](no-such-document.md)' '`make no-such-target`' 'as issue 12 asked' 'see ../shared/seeds'

test-readme-refs:
	scripts/check-readme-refs.sh $(USER_DOCS)
	@if grep -rnE '^[[:space:]]*//.*([Ii]ssue [0-9]+|\.\./shared)' src capi/src go --include='*.rs' --include='*.go' >&2; then \
		echo "test-readme-refs: a doc comment (rustdoc, godoc) above cites an issue or a path outside the repository" >&2; exit 1; fi
	@mkdir -p build && for c in $(READMEREFS_CONTROLS); do \
		printf '%s\n' "$$c" >build/readme-refs-control.md; \
		if scripts/check-readme-refs.sh build/readme-refs-control.md 2>/dev/null; then \
			echo "test-readme-refs: the control citing $$c passed" >&2; exit 1; fi; done
	@echo "test-readme-refs: each control (a missing file, test, link and target, an issue, a path outside) fails, as it must"

# The check, and a control: a copy of src/ in which the OS layer names the
# per-thread bookkeeping above it must fail it.
test-layers:
	scripts/check-layers.sh src
	@rm -rf build/layers-control && mkdir -p build/layers-control
	@cp -R src build/layers-control/src
	@echo '// Calls [`crate::thread_state::thread_exit`].' >>build/layers-control/src/os/mod.rs
	@if scripts/check-layers.sh build/layers-control/src >/dev/null 2>&1; then \
		echo "test-layers: the check accepted os/ naming thread_state" >&2; exit 1; \
	else echo "test-layers: the check rejects os/ naming thread_state, as it must"; fi
