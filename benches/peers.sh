#!/usr/bin/env bash
# Makes the third-party peer sources of the benchmarks available under DEST,
# one folder per peer, and records in DEST/status.txt which are there:
#
#   benches/peers.sh PEERS_DIR DEST
#
# A peer comes from PEERS_DIR/<name> (linked, never copied into the
# repository) when PEERS_DIR is given and has it; otherwise from a shallow
# git clone of its pinned upstream commit into DEST/<name>; otherwise it is
# recorded as missing and the report says "not measured: peer source
# unavailable". Never fails because a peer is missing.
set -u
peers_dir=${1:-}
dest=${2:?usage: peers.sh PEERS_DIR DEST}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
status=$dest/status.txt
: >"$status"

# name | upstream | commit | folder of the upstream tree that is the peer
peers=(
	"planet36-randp|https://github.com/planet36/randp|1ce4b5e9470e3269dcefcf65943f676356753ac1|."
	"dcrd-crypto-rand|https://github.com/decred/dcrd|036b7090443145130ef74d5d83a0d1d575eb407a|crypto/rand"
	"unpredictable|https://github.com/art4711/unpredictable|a0f3f44d1e7b5e83c9d3dff91d2681829375b276|."
)

# clone_peer NAME URL COMMIT SUBDIR: a shallow fetch of one commit.
clone_peer() {
	local name=$1 url=$2 commit=$3 sub=$4 work=$dest/.clone-$1
	rm -rf "$work" "$dest/$name"
	git init -q "$work" &&
		GIT_TERMINAL_PROMPT=0 timeout 120 git -C "$work" fetch -q --depth 1 "$url" "$commit" &&
		git -C "$work" -c advice.detachedHead=false checkout -q FETCH_HEAD &&
		mv "$work/$sub" "$dest/$name" || { rm -rf "$work"; return 1; }
	rm -rf "$work"
	# unpredictable predates Go modules: give it the go.mod the peers folder has.
	if [ "$name" = unpredictable ] && [ ! -f "$dest/$name/go.mod" ]; then
		printf 'module github.com/art4711/unpredictable\n\ngo 1.18\n' >"$dest/$name/go.mod"
	fi
}

for p in "${peers[@]}"; do
	IFS='|' read -r name url commit sub <<<"$p"
	if [ -n "$peers_dir" ] && [ -d "$peers_dir/$name" ]; then
		rm -rf "${dest:?}/$name"
		ln -sfn "$(cd "$peers_dir/$name" && pwd)" "$dest/$name"
		echo "$name available a snapshot of $url@$commit" >>"$status"
	elif [ -d "$dest/$name" ] && [ ! -L "$dest/$name" ]; then
		echo "$name available $url@$commit (cloned earlier)" >>"$status"
	elif clone_peer "$name" "$url" "$commit" "$sub" 2>/dev/null; then
		echo "$name available $url@$commit" >>"$status"
	else
		rm -rf "${dest:?}/$name"
		echo "$name missing peer source unavailable" >>"$status"
	fi
done
cat "$status"
