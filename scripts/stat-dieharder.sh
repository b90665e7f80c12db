#!/usr/bin/env bash
# Run dieharder tests on a byte stream read from a command's standard output.
#
#   scripts/stat-dieharder.sh [--min-bytes N] [--log FILE] TESTS -- COMMAND [ARG...]
#
# TESTS is a comma-separated list of dieharder test names or numbers (NAME:N
# adds -n N, the tuple size of the rgb_* tests), or "all"
# for the full battery (`dieharder -a`). Each test reads a fresh stream from a
# new COMMAND (dieharder -g 200: raw binary on stdin).
#
# Verdict: any FAILED fails the run. A WEAK result is re-run as dieharder's
# manual advises, with more p-samples in its "resolve ambiguity" mode
# (-Y 1 -k 2: p-samples are added in blocks of 100 until the result is
# clearly not weak or clearly fails); it fails the run only if that re-run is
# not PASSED. --min-bytes fails the run when the tests together read fewer
# bytes than N from the streams. Exit status 0 means every result passed.
# DIEHARDER_OPTS (unquoted, split on spaces) is added to every dieharder call,
# e.g. DIEHARDER_OPTS="-W 0.3" to exercise the WEAK path.
set -u

min_bytes=0
log=/dev/null
while [ $# -gt 0 ]; do
	case "$1" in
	--min-bytes) min_bytes=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
	echo "usage: $0 [--min-bytes N] [--log FILE] TESTS -- COMMAND [ARG...]" >&2
	exit 2
fi
tests=$1
shift 2
command -v dieharder >/dev/null || { echo "stat-dieharder: dieharder not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total_bytes=0
status=0

# run_dieharder OUTFILE DIEHARDER-ARGS...: one dieharder run on a fresh stream;
# adds the bytes it consumed to total_bytes. dd counts them; it ignores SIGPIPE
# so that it reports its count when dieharder closes the pipe.
run_dieharder() {
	local out=$1
	shift
	"${gen[@]}" | (trap '' PIPE; exec dd bs=1M 2>"$work/dd") | dieharder -g 200 ${DIEHARDER_OPTS:-} "$@" >"$out" 2>&1
	local rc=${PIPESTATUS[2]}
	cat "$out" >>"$log"
	local bytes
	bytes=$(sed -n 's/^\([0-9]*\) bytes.*/\1/p' "$work/dd")
	total_bytes=$((total_bytes + ${bytes:-0}))
	return "$rc"
}
gen=("$@")

# results FILE: "name ntup psamples pvalue assessment" per result line.
results() {
	awk -F'|' 'NF == 6 && $6 ~ /PASSED|WEAK|FAILED/ {
		gsub(/ /, ""); print $1, $2, $4, $5, $6 }' "$1"
}

# test_number NAME: dieharder's -d number for a name as printed in its results
# table (printed names are cut to 20 characters, so -d NAME does not always work).
test_number() {
	local i=0 n
	for n in diehard_birthdays diehard_operm5 diehard_rank_32x32 diehard_rank_6x8 \
		diehard_bitstream diehard_opso diehard_oqso diehard_dna diehard_count_1s_str \
		diehard_count_1s_byt diehard_parking_lot diehard_2dsphere diehard_3dsphere \
		diehard_squeeze diehard_sums diehard_runs diehard_craps marsaglia_tsang_gcd; do
		[ "$1" = "$n" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	i=100
	for n in sts_monobit sts_runs sts_serial; do
		[ "$1" = "$n" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	i=200
	for n in rgb_bitdist rgb_minimum_distance rgb_permutations rgb_lagged_sum rgb_kstest_test \
		dab_bytedistrib dab_dct dab_filltree dab_filltree2 dab_monobit2; do
		[ "$1" = "$n" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo "$1"
}

check() {
	local out=$1 label=$2
	if [ "$(results "$out" | wc -l)" -eq 0 ]; then
		echo "stat-dieharder: $label produced no results:" >&2
		cat "$out" >&2
		status=1
		return
	fi
	while read -r name ntup psamples p verdict; do
		case "$verdict" in
		PASSED) printf '  %-24s ntup %-3s p=%s PASSED\n' "$name" "$ntup" "$p" ;;
		FAILED) printf '  %-24s ntup %-3s p=%s FAILED\n' "$name" "$ntup" "$p"; status=1 ;;
		WEAK)
			printf '  %-24s ntup %-3s p=%s WEAK, re-running with -Y 1 -k 2\n' "$name" "$ntup" "$p"
			local extra=()
			case "$name" in rgb_*) extra=(-n "$ntup") ;; esac
			run_dieharder "$work/rerun" -d "$(test_number "$name")" "${extra[@]}" -Y 1 -k 2
			# Some tests (sts_serial) print several results per ntup: the
			# re-run's verdict is its last round of them, and all must pass.
			local k again
			k=$(results "$out" | awk -v t="$name" -v n="$ntup" '$1 == t && $2 == n' | wc -l)
			again=$(results "$work/rerun" | awk -v t="$name" -v n="$ntup" '$1 == t && $2 == n' | tail -n "$k")
			printf '  %-24s ntup %-3s re-run: %s\n' "$name" "$ntup" \
				"$(echo "$again" | awk 'NF { printf "%s%s (psamples %s, p=%s)", s, $5, $3, $4; s = "; " }')"
			if [ -z "$again" ] || echo "$again" | awk '$5 != "PASSED" { bad = 1 } END { exit !bad }'; then
				status=1
			fi
			;;
		esac
	done < <(results "$out")
}

IFS=, read -r -a list <<<"$tests"
for t in "${list[@]}"; do
	if [ "$t" = all ]; then
		args=(-a)
	elif [ "${t#*:}" != "$t" ]; then
		args=(-d "${t%%:*}" -n "${t#*:}")
	else
		args=(-d "$t")
	fi
	start=$SECONDS
	before=$total_bytes
	run_dieharder "$work/out" "${args[@]}" || { echo "stat-dieharder: dieharder ${args[*]} exited non-zero" >&2; cat "$work/out" >&2; status=1; }
	echo "dieharder ${args[*]}: $(((total_bytes - before) >> 20)) MiB in $((SECONDS - start)) s"
	check "$work/out" "dieharder ${args[*]}"
done

echo "stat-dieharder: $((total_bytes >> 20)) MiB read from '${gen[*]}' in total"
if [ "$total_bytes" -lt "$min_bytes" ]; then
	echo "stat-dieharder: FAIL: read $total_bytes bytes, fewer than the required $min_bytes" >&2
	status=1
fi
if [ "$status" -eq 0 ]; then echo "stat-dieharder: all results passed"; else echo "stat-dieharder: FAILED" >&2; fi
exit "$status"
