#!/usr/bin/env bash
# Command 2: set up, then run every test layer, fastest first; ends with "N passed, N failed".
#   formatting, clippy with the native engine/CLI/app tests, wasm-bindgen tests in headless
#   Chromium, the release build (with its sizes and first-load budget), the packaged
#   score-server (one static file per architecture, the game inside), Playwright end-to-end
#   tests on dist/ and that server, then each packaged binary alone in an empty folder, and
#   its systemd unit.
set -uo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time, printed at the end: a stage runs until the next one starts.
times=(); stage_name=""; stage_start=$SECONDS
stage() {
  if [ -n "$stage_name" ]; then times+=("$(printf '  %-14s %5d s' "$stage_name" $((SECONDS - stage_start)))"); fi
  stage_name=$1; stage_start=$SECONDS
}
stage setup
if ! scripts/setup.sh; then echo "0 passed, 1 failed"; exit 1; fi
source scripts/env.sh
# Incremental caches took gigabytes and gain a run from a clean checkout nothing: off, but
# for the app's own crate (Cargo.toml: `[profile.dev.package.score-app]`), which a warm run
# compiles again in seconds. (CARGO_INCREMENTAL=0 would turn off that one too.)
export CARGO_PROFILE_DEV_INCREMENTAL=false
unset CARGO_INCREMENTAL

passed=0; failed=0
logs=$(mktemp -d)
ok() { passed=$((passed + $1)); failed=$((failed + $2)); }
show_failure() { echo "    FAILED: see below"; tail -n 60 "$1" | sed 's/^/    | /'; }

# A check that is one test: pass or fail.
check() {
  local name=$1; shift
  stage "$name"
  echo "==> $name"
  if "$@" >"$logs/$name.log" 2>&1; then ok 1 0; echo "    ok"; else ok 0 1; show_failure "$logs/$name.log"; fi
}

# A cargo test run: counts every test it reports; a run that fails without
# reporting a failed test (it did not compile) counts as one failure.
cargo_tests() {
  local name=$1; shift
  stage "$name"
  echo "==> $name"
  "$@" >"$logs/$name.log" 2>&1; local status=$?
  read -r p f < <(awk '/test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed;?$/) p += $(i-1); if ($i ~ /^failed;?$/) f += $(i-1) } } END { print p+0, f+0 }' "$logs/$name.log")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  ok "$p" "$f"
  echo "    $p passed, $f failed"
  [ "$f" -eq 0 ] || show_failure "$logs/$name.log"
}

check fmt cargo fmt --all -- --check
# Clippy in the native tests' own build: clippy-driver compiles the workspace's crates (what
# `cargo clippy` does, and then it compiles them too), with clippy's lints as errors, as
# `cargo clippy --workspace --all-targets -- -D warnings` has them. `cargo clippy` alone
# checked every dependency once more, in a mode no other build shares: 170 s of a run from a
# clean checkout. A lint fails the native stage, before any test runs.
linted() {
  local driver
  # (Without it the build would lint nothing and pass: it fails instead.)
  driver=$(command -v clippy-driver) || { echo "clippy-driver is not installed (scripts/setup.sh adds clippy)"; return 1; }
  RUSTC_WORKSPACE_WRAPPER="$driver" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"
}
# The test binaries side by side, one per core (scripts/native_tests.py): Cargo runs them one by one.
cargo_tests native linted scripts/native_tests.py
cargo_tests wasm cargo test -p score-app --target wasm32-unknown-unknown
check release-build scripts/build.sh
if [ -d dist ] && ls dist/*.wasm >/dev/null 2>&1; then
  # The sizes are printed as they are; the first-load budget is one check.
  stage size
  echo "==> size"
  if scripts/size.sh; then ok 1 0; else ok 0 1; fi
fi

# The packaged binaries before the end-to-end specs: the class-room specs play against the one
# for this machine, the server as shipped, and the packaged stage doesn't play them again.
failed_before=$failed
check package scripts/package.sh --game-built
# (Only this run's: a failed packaging may leave an older run's binaries in target/package.)
packaged=""; [ "$failed" -eq "$failed_before" ] && packaged=yes
packed=target/package/score-server-$(uname -m)-linux

stage e2e
echo "==> e2e"
port=$(free_port)
python3 tests/e2e/serve.py --port "$port" --dir dist >"$logs/server.log" 2>&1 &
server=$!
wait_port "$port"
# The same build served by score-server, for the class-room specs (its database in a fresh
# folder): the packaged binary for this machine, the game inside it, when this run packed it.
# (It is a release build: the server's own tests, native, run its code with debug assertions.)
if [ -n "$packaged" ] && [ -x "$packed" ]; then
  room_server=("$packed"); played=$(uname -m)
else
  # Else the binary the native stage built for the server's own tests (`cargo build -p
  # score-server` resolves its dependencies' features without the workspace's tests, and
  # built a dozen of them again). After the native stage this is a check, no build.
  room_server=(target/debug/score-server --dist dist); played=""
  if ! linted cargo build -q --workspace --all-targets >/dev/null 2>&1 && ! cargo build -q -p score-server; then
    echo "    score-server did not build: the class-room specs below meet no server, or an old one"
    ok 0 1
  fi
fi
echo "    class rooms served by ${room_server[0]}"
rport=$(free_port)
rdata=$(mktemp -d)
# Every test page comes from 127.0.0.1: the per-address room limit (tested in sockets.rs) is raised.
"${room_server[@]}" --port "$rport" --data "$rdata" --rooms-per-address 1000 >"$logs/score-server.log" 2>&1 &
rooms=$!
wait_port "$rport"
# Three spec files at a time: with two, the machine's two cores were idle an eighth of the
# time (pages waiting on a socket or a clock); three keep them busy.
ROOM_URL="http://127.0.0.1:$rport" BASE_URL="http://127.0.0.1:$port" node --test --test-concurrency=3 --test-reporter=spec tests/e2e/*.spec.mjs >"$logs/e2e.log" 2>&1
e2e_status=$?
kill "$server" "$rooms" 2>/dev/null; wait "$server" "$rooms" 2>/dev/null; rm -rf "$rdata"
# Adds up node's "ℹ pass N" and "ℹ fail N" lines in a log (one per node run).
node_tests() {
  local log=$1 status=$2 p f
  p=$(awk '/^ℹ pass / { n += $3 } END { print n + 0 }' "$log"); f=$(awk '/^ℹ fail / { n += $3 } END { print n + 0 }' "$log")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  ok "$p" "$f"
  echo "    $p passed, $f failed"
  [ "$f" -eq 0 ] || show_failure "$log"
}
node_tests "$logs/e2e.log" "$e2e_status"

if [ -n "$packaged" ]; then
  stage packaged
  echo "==> packaged"
  PLAYED_ROOMS=$played tests/e2e/packaged.sh >"$logs/packaged.log" 2>&1
  node_tests "$logs/packaged.log" $?
  check service-unit tests/service_unit.sh
  # The container needs a Docker daemon, which not every test machine runs: said when skipped.
  if docker info >/dev/null 2>&1; then
    check container tests/container.sh
  else
    echo "==> container: skipped (no Docker daemon reachable)"
  fi
else
  echo "==> packaged, service-unit, container: skipped (this run's packaging failed, counted above)"
fi
stage ""
echo
echo "Stage times (wall clock):"
printf '%s\n' "${times[@]}"
printf '  %-14s %5d s\n' total "$SECONDS"
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
