#!/usr/bin/env bash
# Command 1: set up, build the release game and score-server, and serve the game with its
# class rooms on http://127.0.0.1:8080 (rooms kept in ./data). PORT and BIND override the
# address: BIND=0.0.0.0 opens it to the classroom's network.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
scripts/build.sh
cargo build --profile server -p score-server
exec target/server/score-server --port "${PORT:-8080}" --bind "${BIND:-127.0.0.1}" --dist dist --data "${DATA:-data}"
