#!/usr/bin/env bash
# Command 2: set up, then run every test layer; ends with "N passed, N failed".
#   formatting, clippy with the native engine/CLI/app tests, wasm-bindgen tests in headless
#   Chromium, the release build (with its sizes and first-load budget), the packaged
#   score-server (one static file per architecture, the game inside), Playwright end-to-end
#   tests on dist/ and that server, then each packaged binary alone in an empty folder, and
#   its systemd unit.
# Three chains run side by side, on two cores: the game's (the release build, its sizes, the
# packaged binaries, then each binary alone), the wasm and then the native tests (niced: they take
# what the others leave idle), and the end-to-end specs, once the game is packed. Each has
# long stretches on one core (the app's optimisation and each module's single-threaded
# link, one property test's last minute, pages waiting on a clock or a socket), which the
# others fill. The results are printed as each chain's are read, and counted once.
set -uo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time, and when it started and ended in the run, printed at the end.
times=(); stage_name=""; stage_start=$SECONDS
timed() { times+=("$(printf '  %-14s %5d s   (%4d s to %4d s)' "$1" $(($3 - $2)) "$2" "$3")"); }
stage() {
  if [ -n "$stage_name" ]; then timed "$stage_name" "$stage_start" "$SECONDS"; fi
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

# A step, in the foreground or in a chain in the background: its log, and its exit status
# with when it started and ended, are left in $logs for `reported` to read and count.
step() {
  local name=$1 start=$SECONDS status; shift
  "$@" >"$logs/$name.log" 2>&1; status=$?
  # (Written whole, then named: the run may be waiting for this very file.)
  echo "$status $start $SECONDS" >"$logs/$name.status.part" && mv "$logs/$name.status.part" "$logs/$name.status"
  return "$status"
}
# Counts a test run's PASSED and FAILED as its LOG reports them: `tally LOG STATUS PASSED
# FAILED`. A run that failed (STATUS) without reporting a failed test, as one that did not
# compile, counts as one failure; so does one that passed nothing (every test skipped or
# filtered out, which node and Cargo both call a success).
tally() {
  local log=$1 status=$2 p=$3 f=$4
  if { [ "$status" -ne 0 ] || [ "$p" -eq 0 ]; } && [ "$f" -eq 0 ]; then f=1; fi
  ok "$p" "$f"
  echo "    $p passed, $f failed"
  [ "$f" -eq 0 ] || show_failure "$log"
}
# Adds up node's "ℹ pass N" and "ℹ fail N" lines in a log (one per node run).
node_tests() {
  tally "$1" "$2" "$(awk '/^ℹ pass / { n += $3 } END { print n + 0 }' "$1")" "$(awk '/^ℹ fail / { n += $3 } END { print n + 0 }' "$1")"
}
# A step's result, counted: `reported NAME check` (pass or fail, one test), `reported NAME
# cargo` (every test a cargo test run reports, as `tally` counts them), `reported NAME node`
# (node's spec reports, as node_tests adds them up) or `reported NAME size` (its log printed
# as it is; the first-load budget is one check). A step that should have run and left no status (its
# chain was killed) is one failure; `reported NAME KIND optional` says nothing of one that
# didn't run. Fails when the step failed or didn't run.
reported() {
  local name=$1 kind=$2 status start end p f
  if [ ! -f "$logs/$name.status" ]; then
    [ "${3:-}" = optional ] || { echo "==> $name"; echo "    FAILED: it did not run to its end (its chain stopped)"; ok 0 1; }
    return 1
  fi
  read -r status start end <"$logs/$name.status"
  timed "$name" "$start" "$end"
  echo "==> $name"
  case $kind in
    cargo)
      read -r p f < <(awk '/test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed;?$/) p += $(i-1); if ($i ~ /^failed;?$/) f += $(i-1) } } END { print p+0, f+0 }' "$logs/$name.log")
      tally "$logs/$name.log" "$status" "$p" "$f" ;;
    node) node_tests "$logs/$name.log" "$status" ;;
    size)
      cat "$logs/$name.log"
      if [ "$status" -eq 0 ]; then ok 1 0; else ok 0 1; fi ;;
    *)
      if [ "$status" -eq 0 ]; then ok 1 0; echo "    ok"; else ok 0 1; show_failure "$logs/$name.log"; fi ;;
  esac
  return "$status"
}

stage ""
step fmt cargo fmt --all -- --check
reported fmt check
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

# The game's chain: the release build, its sizes, then the packaged binaries (before the
# end-to-end specs: the class-room specs play against the one for this machine, the server
# as shipped), and then, beside those specs, each packaged binary alone in an empty folder
# (the class-room specs only on the other architecture: the e2e stage plays them on this
# one), the service unit and the container.
# This machine's packaged binary, when this run packs one.
packed=target/package/score-server-$(uname -m)-linux
game_chain() {
  step release-build scripts/build.sh
  # The sizes of a game that was built.
  if [ -d dist ] && ls dist/*.wasm >/dev/null 2>&1; then step size scripts/size.sh; fi
  # (Only this run's: a failed packaging may leave an older run's binaries in target/package.)
  step package scripts/package.sh --game-built || return 0
  # The e2e stage plays the class-room specs against this machine's binary when it is there
  # (the same test as below), and then this stage doesn't.
  local played=""
  [ -x "$packed" ] && played=$(uname -m)
  PLAYED_ROOMS=$played step packaged tests/e2e/packaged.sh
  step service-unit tests/service_unit.sh
  # The container needs a Docker daemon, which not every test machine runs: said when skipped.
  if docker info >/dev/null 2>&1; then step container tests/container.sh; else : >"$logs/container.skipped"; fi
  # (Each step's result is read from its status; the chain's own is whether it ran to here.)
  return 0
}
# The tests' chain, niced: the game's chain and then the end-to-end specs are the run's
# longest path, and these take the cores they leave idle. The wasm tests first: their
# browser waits on nothing of the others. Then the native tests, their binaries side by side,
# one per core (scripts/native_tests.py: Cargo runs them one by one).
# The wasm tests' runner stops chromedriver but leaves the browser it started running, idle,
# at every run: this run's own (in its process group, on a chromedriver profile) are stopped.
wasm_tests() {
  local status
  cargo test -p score-app --target wasm32-unknown-unknown; status=$?
  pkill -g "$(ps -o pgid= -p $$ | tr -d ' ')" -f 'user-data-dir=/tmp/org\.chromium\.Chromium\.scoped_dir' 2>/dev/null
  return "$status"
}
tests_chain() {
  renice -n 10 "$BASHPID" >/dev/null 2>&1
  step wasm wasm_tests
  step native linted scripts/native_tests.py
  return 0
}
game_chain &
game=$!
tests_chain &
tests=$!
# Interrupted or stopped, the run stops its chains and all they started.
stop_tree() { local child; for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do stop_tree "$child"; done; kill "$1" 2>/dev/null; }
trap 'stop_tree "$game"; stop_tree "$tests"; exit 130' INT TERM
stage waiting-game
# Until the game's chain has packed the game (or ended without).
while [ ! -f "$logs/package.status" ] && kill -0 "$game" 2>/dev/null; do sleep 1; done
reported release-build check
reported size size optional
packaged=""; reported package check && packaged=yes

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
  room_server=("$packed")
else
  # Else the binary the native stage built for the server's own tests (`cargo build -p
  # score-server` resolves its dependencies' features without the workspace's tests, and
  # built a dozen of them again): the tests' chain builds it too, and Cargo has one build
  # wait for the other.
  room_server=(target/debug/score-server --dist dist)
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
# Two spec files at a time: three kept both cores busy, but with more of their time lost to
# each other (the specs took 340 s of CPU time and 189 s, against 264 s and 171 s two at a
# time), and two leave the tests' chain a share.
# (SCORE_SERVER: the binary the update specs start on a folder of their own, for its cache
# headers; the tests' chain may not have built the debug one yet.)
ROOM_URL="http://127.0.0.1:$rport" BASE_URL="http://127.0.0.1:$port" SCORE_SERVER="${room_server[0]}" \
  node --test --test-concurrency=2 --test-reporter=spec tests/e2e/*.spec.mjs >"$logs/e2e.log" 2>&1
e2e_status=$?
kill "$server" "$rooms" 2>/dev/null; wait "$server" "$rooms" 2>/dev/null; rm -rf "$rdata"
node_tests "$logs/e2e.log" "$e2e_status"

stage waiting-packaged
wait "$game" || { echo "==> the game's chain stopped (exit status $?)"; ok 0 1; }
if [ -n "$packaged" ]; then
  reported packaged node
  reported service-unit check
  if [ -f "$logs/container.skipped" ]; then
    echo "==> container: skipped (no Docker daemon reachable)"
  else
    # (A chain that stopped before it leaves no status: counted as a failure.)
    reported container check
  fi
else
  echo "==> packaged, service-unit, container: skipped (this run's packaging failed, counted above)"
fi
stage waiting-tests
wait "$tests" || { echo "==> the tests' chain stopped (exit status $?)"; ok 0 1; }
reported wasm cargo
reported native cargo
stage ""
echo
echo "Stage times (wall clock; in the order they started):"
printf '%s\n' "${times[@]}" | sort -t '(' -k 2 -n
printf '  %-14s %5d s\n' total "$SECONDS"
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
