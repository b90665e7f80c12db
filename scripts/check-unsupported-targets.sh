#!/bin/sh
# Every target randp does not support stops at its compile_error!, with a
# message naming every supported target.
#
# For each UNSUPPORTED target, `cargo check -p randp --target T` must fail,
# and its output must hold the compile_error! message: "randp supports only"
# followed by every target of SUPPORTED. The control: `cargo check` for the
# first SUPPORTED target passes (the check can tell the two apart). The Rust
# standard library of each target is added with rustup when missing (cargo
# check needs core for the target, and no linker).
#
# Usage: scripts/check-unsupported-targets.sh "SUPPORTED..." "UNSUPPORTED..."
# (mk/targets.mk holds both lists.)
set -eu

supported=$1
unsupported=$2
CARGO=${CARGO:-cargo}
target_dir=${CARGO_TARGET_DIR:-target}/unsupported-targets

installed=$(rustup target list --installed)
for t in $supported $unsupported; do
	echo "$installed" | grep -qx "$t" || rustup target add "$t"
done

status=0
control=${supported%% *}
if $CARGO check --locked --quiet -p randp --target "$control" --target-dir "$target_dir"; then
	echo "check-unsupported-targets: the control, $control, passes cargo check"
else
	echo "check-unsupported-targets: the control, $control, fails cargo check" >&2
	status=1
fi

for t in $unsupported; do
	if out=$($CARGO check --locked -p randp --target "$t" --target-dir "$target_dir" 2>&1); then
		echo "check-unsupported-targets: cargo check --target $t passed; randp must refuse to compile there" >&2
		status=1
		continue
	fi
	line=$(echo "$out" | grep -o 'error: randp supports only.*' | head -n 1)
	if [ -z "$line" ]; then
		echo "check-unsupported-targets: cargo check --target $t failed without randp's compile_error!:" >&2
		echo "$out" | tail -n 20 >&2
		status=1
		continue
	fi
	for s in $supported; do
		case $line in
		*"$s"*) ;;
		*) echo "check-unsupported-targets: $t: the message does not name $s: $line" >&2; status=1 ;;
		esac
	done
	echo "check-unsupported-targets: $t: $line"
done
exit $status
