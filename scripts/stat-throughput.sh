#!/usr/bin/env bash
# Throughput of randp-cat against /dev/urandom and `openssl rand`, measured
# side by side in one hyperfine run: each writes SIZE bytes (default 1 GiB)
# to /dev/null, and through a pipe into dd. Prints a markdown table in GB/s
# (10^9 bytes per second; mean of the runs) with the machine's CPU model.
#
#   scripts/stat-throughput.sh [RANDP_CAT [SIZE_MIB]]
set -euo pipefail
cat_bin=$(realpath "${1:-target/release/randp-cat}")
mib=${2:-1024}
bytes=$((mib << 20))
command -v hyperfine >/dev/null || (apt-get update && apt-get install -y hyperfine)
command -v openssl >/dev/null || (apt-get update && apt-get install -y openssl)
json=$(mktemp)
trap 'rm -f "$json"' EXIT

hyperfine --style basic --warmup 1 --runs "${RUNS:-5}" --export-json "$json" \
	-n "randp-cat > /dev/null" "$cat_bin -n $bytes > /dev/null" \
	-n "head -c /dev/urandom > /dev/null" "head -c $bytes /dev/urandom > /dev/null" \
	-n "openssl rand > /dev/null" "openssl rand $bytes > /dev/null" \
	-n "randp-cat | dd" "$cat_bin -n $bytes | dd of=/dev/null bs=1M status=none" \
	-n "head -c /dev/urandom | dd" "head -c $bytes /dev/urandom | dd of=/dev/null bs=1M status=none" \
	-n "openssl rand | dd" "openssl rand $bytes | dd of=/dev/null bs=1M status=none" >&2

echo
echo "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores, $(uname -r), $(openssl version | cut -d' ' -f1-2); $mib MiB per run, mean of ${RUNS:-5} runs"
echo
python3 - "$json" "$bytes" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
n = int(sys.argv[2])
print("| command | time (s) | GB/s |")
print("|---|---:|---:|")
for r in res:
    print(f"| `{r['command']}` | {r['mean']:.3f} ± {r['stddev']:.3f} | {n / r['mean'] / 1e9:.2f} |")
PY
