#!/usr/bin/env bash
# The release game in dist/: the app and its four modules (solver worker, class room, a
# student's class room, tools), then `trunk build --release`.
# Trunk asks Cargo for each of the five wasm binaries in its own run, and Cargo lets one
# run at a time build in target/: their link-time optimisations (one codegen unit each,
# single-threaded) ran one after the other. One Cargo run builds all five first, two
# links at a time on two cores; Trunk's own runs then find them built. The arguments are
# Trunk's own (its `--verbose` log prints them), so nothing is built twice.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
cargo build --target=wasm32-unknown-unknown --release --offline -p score-app --bins
trunk build --release --offline
