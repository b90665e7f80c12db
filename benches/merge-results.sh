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
case $kind in
c)
	files=("$dir"/pass-*.json)
	[ -e "${files[0]}" ] || { echo "merge-results.sh: no pass-*.json in $dir" >&2; exit 1; }
	jq -n --indent 1 '{passes: [inputs | {pass: (input_filename | capture("pass-(?<n>[0-9]+)[.]json$").n | tonumber), run: .}]}' \
		"${files[@]}"
	;;
criterion)
	[ -d "$dir" ] || { echo "merge-results.sh: no folder $dir" >&2; exit 1; }
	mapfile -t files < <(find "$dir" -path '*/new/benchmark.json' -o -path '*/new/estimates.json' | sort)
	[ ${#files[@]} -gt 0 ] || { echo "[]"; exit 0; }
	# One jq for every file: each new/ folder's two files become one entry.
	jq -n --indent 1 --arg dir "${dir%/}/" '
		[inputs | {at: (input_filename | ltrimstr($dir)), json: .}]
		| group_by(.at | sub("/[^/]*$"; ""))
		| map({pass: ((first(.[0].at | capture("^pass-(?<n>[0-9]+)/").n) // "0") | tonumber),
			benchmark: (map(select(.at | endswith("/benchmark.json")).json) | first),
			estimates: (map(select(.at | endswith("/estimates.json")).json) | first)})
		| if any(.benchmark == null or .estimates == null) then error("a new/ folder without both benchmark.json and estimates.json") else . end
		| sort_by(.pass)' "${files[@]}"
	;;
*)
	echo "usage: benches/merge-results.sh c|criterion DIR" >&2
	exit 2
	;;
esac
