#!/usr/bin/env bash
# Run programs under valgrind memcheck; fail on any invalid read or write, use
# of uninitialised memory, or definitely/indirectly lost heap block.
#
#   scripts/valgrind-memcheck.sh PROGRAM [ARG...] [-- PROGRAM [ARG...]]...
#
# First compiles scripts/valgrind-control.c (an overrun and a leak) and
# requires memcheck, with the same options, to fail it.
#
# AES: the generator picks VAES-512, VAES-256 or AES-NI at run time from
# CPUID. Valgrind (3.19 here) executes no AVX-512 and reports a CPUID without
# AVX-512F and VAES to the program, so under valgrind the aes crate takes its
# AES-NI backend. Should a valgrind ever report VAES and then fail to decode
# it ("unhandled instruction"), this script says so; the aes crate's
# `--cfg aes_backend="soft"` RUSTFLAG builds a library without hardware AES
# for such a run.
set -u
command -v valgrind >/dev/null || (apt-get update && apt-get install -y valgrind) >&2
command -v valgrind >/dev/null || { echo "valgrind-memcheck: valgrind missing" >&2; exit 2; }

here=$(dirname "$0")
# The suppressions name one function, randp's wipe of the dead stack below
# its stack pointer after a keystream call (scripts/valgrind-wipe.supp).
opts=(--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
	--show-leak-kinds=definite,indirect --track-origins=yes --child-silent-after-fork=no
	--suppressions="$here/valgrind-wipe.supp")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# memcheck LOG PROGRAM [ARG...]: run under valgrind; returns its exit status.
memcheck() {
	local log=$1
	shift
	valgrind "${opts[@]}" --log-file="$log.%p" "$@"
	local rc=$?
	cat "$log".* >"$log" && rm -f "$log".*
	return "$rc"
}

${CC:-cc} -O0 -g "$here/valgrind-control.c" -o "$work/control"
memcheck "$work/control.log" "$work/control" && {
	echo "valgrind-memcheck: the control program with an overrun and a leak passed memcheck" >&2
	cat "$work/control.log" >&2
	exit 1
}
grep -q 'Invalid write of size 1' "$work/control.log" && grep -q 'definitely lost: 64 bytes' "$work/control.log" || {
	echo "valgrind-memcheck: memcheck did not report the control program's faults" >&2
	cat "$work/control.log" >&2
	exit 1
}
echo "valgrind-memcheck: control program rejected (invalid write, 64 bytes definitely lost), as it must be"

status=0
while [ $# -gt 0 ]; do
	cmd=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	log="$work/run.log"
	start=$SECONDS
	memcheck "$log" "${cmd[@]}" >/dev/null
	rc=$?
	procs=$(grep -c 'ERROR SUMMARY' "$log")
	errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
	echo "valgrind-memcheck: ${cmd[*]}: exit $rc, $procs processes, $errors errors, $((SECONDS - start)) s"
	if grep -q 'unhandled instruction' "$log"; then
		echo "valgrind-memcheck: valgrind cannot decode an instruction of ${cmd[0]} (VAES/AVX-512?); build with RUSTFLAGS='--cfg aes_backend=\"soft\"' for memcheck" >&2
		status=1
	fi
	if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$procs" -eq 0 ]; then
		grep -v '^==[0-9]*== *$' "$log" >&2
		status=1
	else
		grep -h 'definitely lost\|indirectly lost\|All heap blocks were freed' "$log" | sed 's/^==[0-9]*== *//' | sort | uniq -c
	fi
done
exit "$status"
