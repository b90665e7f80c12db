#!/bin/sh
# Writes OUT (a go.mod for `go test -modfile`) and its .sum: this module's
# go.mod plus, for each peer that PEERS (a benches/peers.sh folder) has,
# a require and a replace pointing at it. Prints the build tags that enable
# the peer benchmarks ("peer_unpredictable") and, on a second line, the
# peer packages to test ("github.com/decred/dcrd/crypto/rand").
#
#   benches/go/modfile.sh PEERS OUT.mod
set -eu
here=$(cd "$(dirname "$0")" && pwd)
peers=$(cd "$1" && pwd)
out=$2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
cp "$here/go.mod" "$out"
cp "$here/go.sum" "${out%.mod}.sum"
tags= pkgs=
have() { grep -q "^$1 available" "$peers/status.txt"; }
if have unpredictable; then
	(cd "$here" && go mod edit -modfile="$out" \
		-require=github.com/art4711/unpredictable@v0.0.0-00010101000000-000000000000 \
		-replace=github.com/art4711/unpredictable="$peers/unpredictable")
	tags=peer_unpredictable
fi
if have dcrd-crypto-rand; then
	(cd "$here" && go mod edit -modfile="$out" \
		-require=github.com/decred/dcrd/crypto/rand@v1.0.1 \
		-replace=github.com/decred/dcrd/crypto/rand="$peers/dcrd-crypto-rand")
	pkgs=github.com/decred/dcrd/crypto/rand
fi
echo "$tags"
echo "$pkgs"
