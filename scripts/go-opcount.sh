#!/bin/sh
# Instructions per call of the Go module's hot paths, beside an empty cgo
# call, counted by callgrind: unlike timings on a shared machine, the counts
# repeat to within an instruction, so they show what a change to a fast path
# saves. go/internal/opcount loops over one operation n times; the count per
# call is (Ir(n=300000) - Ir(n=100000)) / 200000, which cancels start-up and
# exit.
#
# Then the stack frame of each math/rand/v2 Source's Uint64 method, randp's
# Buffered beside the standard library's PCG and ChaCha8, as the compiler
# reports it (`go build -gcflags=-S`): "nosplit ... locals=0x0" is a leaf
# with no frame and no stack-bound check; any other line is a method that
# pays both at every call, because it can call out (its refill).
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

pkg=$(cd "$mod" && "$GO" list .)
printf '\n%-45s %s\n' function frame
# -a: the standard library's packages are compiled again, so that the
# compiler prints their assembly too.
(cd "$mod" && "$GO" build -a -gcflags='math/rand/v2=-S' -gcflags="$pkg=-S" -o /dev/null ./internal/opcount) >"$tmp/asm" 2>&1 ||
	{ cat "$tmp/asm" >&2; exit 1; }
sed -n 's/^\([^ ]*\.(\*\(Buffered\|PCG\|ChaCha8\))\.Uint64\) STEXT \(.*\) funcid=.*$/\1 \3/p' "$tmp/asm" >"$tmp/frames"
# All three methods, or the compiler's listing changed its form.
if [ "$(wc -l <"$tmp/frames")" -ne 3 ]; then
	echo "go-opcount: expected the frames of 3 Uint64 methods in the compiler's listing, found:" >&2
	cat "$tmp/frames" >&2
	exit 1
fi
while read -r fn frame; do printf '%-45s %s\n' "$fn" "$frame"; done <"$tmp/frames"
