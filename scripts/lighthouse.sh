#!/usr/bin/env bash
# Lighthouse's mobile run (simulated slow 4G, CPU slowed 4×) against score-server serving
# this checkout's release game from dist/ (scripts/build.sh first), RUNS times (default 2),
# each from a cold cache: prints the performance score, total blocking time, largest
# contentful paint, time to interactive and the longest main-thread task, and leaves each
# report in target/lighthouse/run-N.json.
# Lighthouse is a measuring tool, not a part of the game: it is installed once into
# target/lighthouse (npm's registry), not into the project's package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
runs=${1:-2}
dir=target/lighthouse
if [ ! -x "$dir/node_modules/.bin/lighthouse" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --no-save lighthouse@12 >/dev/null
fi
[ -f dist/index.html ] || { echo "lighthouse: no game in dist/ (scripts/build.sh)" >&2; exit 1; }
cargo build -q -p score-server
data=$(mktemp -d)
port=$(free_port)
target/debug/score-server --port "$port" --dist dist --data "$data" >"$data/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
wait_port "$port"
for i in $(seq 1 "$runs"); do
  CHROME_PATH=/usr/bin/chromium "$dir/node_modules/.bin/lighthouse" "http://127.0.0.1:$port/" \
    --only-categories=performance --output=json --output-path="$dir/run-$i.json" --quiet \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
  python3 - "$dir/run-$i.json" "$i" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
a = r["audits"]
ms = lambda k: a[k]["numericValue"]
tasks = [t for t in a["main-thread-tasks"]["details"]["items"] if not t.get("parentTaskId")] if "main-thread-tasks" in a else []
longest = max((t["duration"] for t in tasks), default=0)
score = r["categories"]["performance"]["score"]
if score is None:
    sys.exit(f"lighthouse run {sys.argv[2]}: no score ({r.get('runtimeError', {}).get('message', 'see the report')})")
print(f"lighthouse run {sys.argv[2]}: performance {score * 100:.0f}, "
      f"total blocking time {ms('total-blocking-time'):.0f} ms, LCP {ms('largest-contentful-paint'):.0f} ms, "
      f"TTI {ms('interactive'):.0f} ms, longest main-thread task {longest:.0f} ms (as traced, unthrottled)")
EOF
done
