# Targets: the ones randp supports, and the proof that every other one stops
# at the compile_error! in src/lib.rs, whose message names the supported ones
# (scripts/check-unsupported-targets.sh). A port adds its target to
# SUPPORTED_TARGETS, removes it from UNSUPPORTED_PROBES, and widens the
# cfg and the message in src/lib.rs.
#
#   make test-unsupported-targets  cargo check fails on macOS, FreeBSD and riscv64 Linux with randp's compile_error!

# src/lib.rs's compile_error! must name each of these.
SUPPORTED_TARGETS := x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl \
	x86_64-pc-windows-gnu
# One target of each kind randp refuses: another OS with the same CPUs
# (macOS, FreeBSD) and Linux on another CPU.
UNSUPPORTED_PROBES := x86_64-apple-darwin x86_64-unknown-freebsd riscv64gc-unknown-linux-gnu

.PHONY: test-unsupported-targets
TEST_TARGETS += test-unsupported-targets

test-unsupported-targets:
	CARGO="$(CARGO)" scripts/check-unsupported-targets.sh "$(SUPPORTED_TARGETS)" "$(UNSUPPORTED_PROBES)"
