#!/usr/bin/env bash
# The packaged score-server (scripts/package.sh), each binary copied alone into an empty
# folder (no dist/, no repository) and started there: it plays the class-room spec and a
# round offline after one visit. A binary for another architecture (aarch64) runs under
# qemu's user emulation. Prints node's spec report per binary (the caller adds up its
# "ℹ pass" and "ℹ fail" lines) and exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
  python3 -c "import socket, sys, time
for _ in range(300):
    try: socket.create_connection(('127.0.0.1', $1), 0.2).close(); sys.exit(0)
    except OSError: time.sleep(0.1)
sys.exit(1)"
}

bins=(target/package/score-server-*-linux)
[ -e "${bins[0]}" ] || { echo "packaged: nothing in target/package (scripts/package.sh)"; exit 1; }

failed=0
# The spec's "served as plain files" case needs a plain static host of the same build.
static=$(free_port)
python3 tests/e2e/serve.py --port "$static" --dir dist >/dev/null 2>&1 &
static_pid=$!
wait_port "$static"

for bin in "${bins[@]}"; do
  arch=${bin##*/score-server-}; arch=${arch%-linux}
  run=()
  [ "$arch" = "$(uname -m)" ] || run=("qemu-$arch-static")
  where=$(mktemp -d)
  cp "$bin" "$where/score-server"
  port=$(free_port)
  # Nothing but the binary: run from its own folder, its rooms in ./data beside it.
  (cd "$where" && exec "${run[@]}" ./score-server --port "$port" --data data --rooms-per-address 1000) \
    >"$where/server.log" 2>&1 &
  pid=$!
  echo "== $arch: $(cd "$where" && "${run[@]}" ./score-server --version) ${run[*]:+(under ${run[*]})}"
  if ! wait_port "$port"; then
    echo "packaged: the $arch binary did not start:"; cat "$where/server.log"; failed=1
    kill "$pid" 2>/dev/null; rm -rf "$where"; continue
  fi
  ROOM_URL="http://127.0.0.1:$port" BASE_URL="http://127.0.0.1:$static" \
    node --test --test-concurrency=2 --test-reporter=spec tests/e2e/play_room.spec.mjs || failed=1
  BASE_URL="http://127.0.0.1:$port" \
    node --test --test-reporter=spec --test-name-pattern='play a full round offline after one visit' \
    tests/e2e/work_offline.spec.mjs || failed=1
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  # (Read once it has stopped: the port opens before this line is written.)
  grep -q "inside this binary" "$where/server.log" || { echo "packaged: the $arch binary does not serve the game inside it"; failed=1; }
  # It wrote its rooms and nothing else.
  left=$(cd "$where" && ls -A | grep -vx -e score-server -e data -e server.log | tr '\n' ' ')
  [ -z "$left" ] || { echo "packaged: the $arch binary left $left beside it"; failed=1; }
  rm -rf "$where"
done
kill "$static_pid" 2>/dev/null; wait "$static_pid" 2>/dev/null
exit "$failed"
