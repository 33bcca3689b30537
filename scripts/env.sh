# Sourced by every script: the project's tools come first on PATH, then Python's script
# folders (setup's cargo-zigbuild comes from PyPI as a wheel; pip puts it in either).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY_SCRIPTS="$(python3 -c 'import os, sysconfig; print(sysconfig.get_path("scripts") + ":" + sysconfig.get_path("scripts", os.name + "_user"))' 2>/dev/null || true)"
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH${PY_SCRIPTS:+:$PY_SCRIPTS}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# A free port on 127.0.0.1, for a test server.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Waits until something listens on 127.0.0.1:$1 (up to 30 s); fails if nothing does.
wait_port() {
  python3 -c "import socket, sys, time
for _ in range(300):
    try: socket.create_connection(('127.0.0.1', $1), 0.2).close(); sys.exit(0)
    except OSError: time.sleep(0.1)
sys.exit(1)"
}
# Commands side by side: `side_by_side NAME COMMAND...` starts one in the background, its
# output in a log of its own; `side_by_side_wait` waits for each in the order they started,
# prints its log whole (on stderr for one that failed), and fails if any did.
side_jobs=()
side_logs=""
side_by_side() {
  local name=$1; shift
  [ -n "$side_logs" ] || side_logs=$(mktemp -d)
  ("$@") >"$side_logs/$name.log" 2>&1 &
  side_jobs+=("$name:$!")
}
side_by_side_wait() {
  local failed=0 job log
  for job in "${side_jobs[@]}"; do
    log="$side_logs/${job%%:*}.log"
    if wait "${job#*:}"; then cat "$log"; else cat "$log" >&2; failed=1; fi
  done
  side_jobs=()
  [ -z "$side_logs" ] || rm -rf "$side_logs"
  side_logs=""
  return "$failed"
}
