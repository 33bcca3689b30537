#!/usr/bin/env bash
# Command 1: set up, then build the release game and serve it on http://127.0.0.1:8080
# (trunk rebuilds on every change to the sources; reload the page to see it: trunk's
# auto-reload is an inline script, which the page's Content-Security-Policy refuses).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
exec trunk serve --release --offline --no-autoreload --address 127.0.0.1 --port "${PORT:-8080}"
