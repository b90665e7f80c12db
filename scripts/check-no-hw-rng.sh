#!/bin/sh
# randp never uses the CPU's random-number instructions (README: "No RDRAND
# or RDSEED is used anywhere"): its only entropy is the OS's. Disassembles
# each object given (static archives, shared objects, executables, the Go
# module's prebuilt objects) and fails if any holds RDRAND or RDSEED
# (x86_64) or a read of RNDR or RNDRRS (aarch64).
#
# Usage: scripts/check-no-hw-rng.sh OBJECT...
set -eu

status=0
for obj in "$@"; do
	# The host's objdump first; an object it cannot disassemble (an aarch64
	# one) with aarch64's. One that neither can read is a failure, never a pass.
	asm=
	for dump in objdump aarch64-linux-gnu-objdump; do
		if out=$($dump -d --no-show-raw-insn "$obj" 2>/dev/null) &&
			printf '%s\n' "$out" | grep -qE '^[[:space:]]+[0-9a-f]+:[[:space:]]'; then
			asm=$out
			break
		fi
	done
	if [ -z "$asm" ]; then
		echo "check-no-hw-rng: could not disassemble $obj" >&2
		status=1
		continue
	fi
	found=$(printf '%s\n' "$asm" |
		grep -E '[[:space:]](rdrand|rdseed)[[:space:]]|mrs[[:space:]].*(rndr|rndrrs|s3_3_c2_c4_[01])' || true)
	if [ -n "$found" ]; then
		echo "check-no-hw-rng: $obj uses the CPU's random-number instructions:" >&2
		echo "$found" | head -5 >&2
		status=1
	else
		echo "check-no-hw-rng: $obj ($dump): no RDRAND, RDSEED, RNDR or RNDRRS"
	fi
done
exit $status
