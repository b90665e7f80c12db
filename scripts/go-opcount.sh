#!/bin/sh
# Instructions per call of the Go module's hot paths, beside an empty cgo
# call, counted by callgrind: unlike timings on a shared machine, the counts
# repeat to within an instruction, so they show what a change to a fast path
# saves. go/internal/opcount loops over one operation n times; the count per
# call is (Ir(n=300000) - Ir(n=100000)) / 200000, which cancels start-up and
# exit.
#
# Usage: scripts/go-opcount.sh [MODULE_DIR]   (default: go/ of this checkout)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
mod=${1:-$here/../go}
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$mod" && "$GO" build -o "$tmp/opcount" ./internal/opcount)

# Asynchronous preemption sends signals that callgrind does not survive.
ir() {
	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$tmp/opcount" -op "$1" -n "$2" 2>&1 | sed -n 's/.*Collected : //p'
}

printf '%-18s %s\n' operation 'instructions/call'
for op in ${OPS:-empty-cgo unbuffered-int63 unbuffered-v2 buffered-int63 buffered-v2 uint64 read4 read8 read16 read32 chacha8-v2 pcg-v2 mathrandv2-uint64}; do
	a=$(ir "$op" 100000)
	b=$(ir "$op" 300000)
	printf '%-18s %d\n' "$op" $(((b - a) / 200000))
done
