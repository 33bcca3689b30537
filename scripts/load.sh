#!/usr/bin/env bash
# Load benchmark for class rooms: a fresh score-server on 127.0.0.1 and ROOMS × MEMBERS
# WebSocket members playing and chatting for SECONDS (defaults 100 × 30, 30 s).
# Prints connections held, fan-out latency p50/p99, lost messages, errors, and the server's
# memory (the kernel's peak, VmHWM; the largest sampled RSS; bytes per socket) and CPU.
# Against a server elsewhere: target/server/examples/load HOST:PORT ROOMS MEMBERS SECONDS
# (its memory is then read on its own machine; it needs --rooms-per-address ≥ ROOMS).
# SCORE_SERVER=target/package/score-server-x86_64-linux measures that binary instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
rooms=${1:-100}; members=${2:-30}; seconds=${3:-30}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
bin=${SCORE_SERVER:-target/server/score-server}
if [ -z "${SCORE_SERVER:-}" ]; then
  cargo build -q --profile server -p score-server --bin score-server --example load
else
  cargo build -q --profile server -p score-server --example load
fi
data=$(mktemp -d); dist=dist
if [ ! -f dist/index.html ]; then dist=$data/dist; mkdir -p "$dist"; echo '<!doctype html><title>Score</title>' >"$dist/index.html"; fi
port=$(free_port)
# One address creates every room here: the per-address limit is lifted for the benchmark.
"$bin" --port "$port" --dist "$dist" --data "$data" \
  --max-rooms "$((rooms + 10))" --rooms-per-address "$((rooms + 10))" 2>"$data/server.log" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
wait_port "$port"
target/server/examples/load "127.0.0.1:$port" "$rooms" "$members" "$seconds" "$server"
