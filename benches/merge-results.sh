#!/bin/bash
# Merges a run's raw per-pass outputs of one kind into the one file kept
# beside the report (benches/results/<cpu>/), written on stdout:
#
#   benches/merge-results.sh c DIR
#       DIR/pass-NN.json, the C program's Google Benchmark JSON of each pass,
#       as {"passes": [{"pass": N, "run": <the file>}, ...]} in pass order
#   benches/merge-results.sh criterion DIR
#       every new/benchmark.json under DIR (criterion's CRITERION_HOME, a
#       pass-NN folder per pass; one outside those is pass 0) with its
#       new/estimates.json, as [{"pass": N, "benchmark": ..., "estimates":
#       ...}, ...] in pass order
set -euo pipefail
kind=${1:-} dir=${2:-}
# finite, in a jq program, refuses a non-finite number: Google Benchmark
# writes NaN and Infinity, which jq reads, for a counter it could not
# compute.
finite='if [.. | numbers | select(isinfinite or isnan)] | length > 0 then error("a non-finite number") else . end'
case $kind in
c)
	files=("$dir"/pass-*.json)
	[ -e "${files[0]}" ] || { echo "merge-results.sh: no pass-*.json in $dir" >&2; exit 1; }
	# One value per file: an empty file (a pass cut short) is an error.
	jq -n --indent 1 --argjson files ${#files[@]} '
		[inputs | {pass: (input_filename | (capture("/pass-(?<n>[0-9]+)[.]json$").n // error("not a pass file: \(.)")) | tonumber),
			run: .}]
		| if length != $files then error("\($files) files but \(length) JSON values") else . end
		| '"$finite"' | {passes: .}' "${files[@]}"
	;;
criterion)
	[ -d "$dir" ] || { echo "merge-results.sh: no folder $dir" >&2; exit 1; }
	list=$(find "$dir" -path '*/new/benchmark.json' -o -path '*/new/estimates.json' | sort)
	[ -n "$list" ] || { echo "[]"; exit 0; }
	mapfile -t files <<<"$list"
	# One jq for every file: each new/ folder's two files become one entry;
	# a folder without both, or a file with no JSON value, is an error.
	jq -n --indent 1 --arg dir "${dir%/}/" '
		[inputs | {at: (input_filename | ltrimstr($dir)), json: .}]
		| group_by(.at | sub("/[^/]*$"; ""))
		| if any(length != 2) then error("a new/ folder without one benchmark.json and one estimates.json") else . end
		| map({pass: ((first(.[0].at | capture("^pass-(?<n>[0-9]+)/").n) // "0") | tonumber),
			benchmark: (map(select(.at | endswith("/benchmark.json")).json) | first),
			estimates: (map(select(.at | endswith("/estimates.json")).json) | first)})
		| if any(.benchmark == null or .estimates == null) then error("a new/ folder without one benchmark.json and one estimates.json") else . end
		| '"$finite"' | sort_by(.pass)' "${files[@]}"
	;;
*)
	echo "usage: benches/merge-results.sh c|criterion DIR" >&2
	exit 2
	;;
esac
