#!/bin/sh
# Installs the Debian packages the C benchmarks build against, when missing:
# Google Benchmark, OpenSSL's libcrypto (RAND_bytes, and `openssl speed`) and
# libbsd (its arc4random family); valgrind, whose callgrind counts the Go
# hot paths' instructions (scripts/go-opcount.sh); and jq, with which
# merge-results.sh gathers each pass's outputs into one file.
set -eu
missing=
for pkg in libbenchmark-dev libssl-dev libbsd-dev openssl valgrind jq; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
	echo "bench deps: installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
