# Sourced by every script: the project's tools come first on PATH, then Python's script
# folders (setup's cargo-zigbuild comes from PyPI as a wheel; pip puts it in either).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY_SCRIPTS="$(python3 -c 'import os, sysconfig; print(sysconfig.get_path("scripts") + ":" + sysconfig.get_path("scripts", os.name + "_user"))' 2>/dev/null || true)"
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH${PY_SCRIPTS:+:$PY_SCRIPTS}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
