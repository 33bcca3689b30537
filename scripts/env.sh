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
