#!/usr/bin/env bash
# The packaged score-server (scripts/package.sh), each binary copied alone into an empty
# folder (no dist/, no repository) and started there: it plays the class-room specs and a
# round offline after one visit. A binary for another architecture (aarch64) runs under
# qemu's user emulation, and plays three of the class-room specs, chosen for what differs
# between the binaries (their build, their SQLite, their sockets, the game each carries),
# not for the rooms' rules, which are the same source in both: a class's round from the
# presenter to the report, a kept class's lesson and Progress, a student by an invite with
# the offline copy. (Every spec, 30 of them, took 66 s of this stage under emulation.) With
# PLAYED_ROOMS=ARCH, that architecture's binary skips the class-room specs, which
# scripts/test.sh's e2e stage played against it; it plays the rest.
# Prints node's spec report per binary (the caller adds up its "ℹ pass" and "ℹ fail" lines)
# and exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh

bins=(target/package/score-server-*-linux)
[ -e "${bins[0]}" ] || { echo "packaged: nothing in target/package (scripts/package.sh)"; exit 1; }

failed=0
# The spec's "served as plain files" case needs a plain static host of the same build.
static=$(free_port)
python3 tests/e2e/serve.py --port "$static" --dir dist >/dev/null 2>&1 &
static_pid=$!
wait_port "$static"

# A run of `play` chosen by name played COUNT specs and passed them, as its report says: a
# renamed spec would be skipped, and node passes a run that skipped everything. `each_played
# COUNT WHAT`, within `play` (its report, arch and failed).
each_played() {
  grep -qx "ℹ pass $1" "$report" || { echo "packaged: the $arch binary did not play $2 (a spec renamed?)"; failed=1; }
}

# One binary, alone in an empty folder: started, played, stopped, and what it left checked.
play() {
  local bin=$1 arch run=() where report port pid failed=0 version commit
  arch=${bin##*/score-server-}; arch=${arch%-linux}
  [ "$arch" = "$(uname -m)" ] || run=("qemu-$arch-static")
  where=$(mktemp -d)
  # (The specs' report, kept apart: the folder holds only what the binary leaves.)
  report=$(mktemp)
  cp "$bin" "$where/score-server"
  port=$(free_port)
  # Nothing but the binary: run from its own folder, its rooms in ./data beside it.
  (cd "$where" && exec "${run[@]}" ./score-server --port "$port" --data data --rooms-per-address 1000) \
    >"$where/server.log" 2>&1 &
  pid=$!
  version=$(cd "$where" && "${run[@]}" ./score-server --version)
  echo "== $arch: $version ${run[*]:+(under ${run[*]})}"
  # The commit it was packed from (package.sh appends it with the game).
  commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
  [ -n "$commit" ] || echo "packaged: the commit check skipped (not a git checkout)"
  if [ -n "$commit" ] && [[ "$version" != "score-server "*" (commit $commit)" ]]; then
    echo "packaged: the $arch binary names another commit than $commit: $version"; failed=1
  fi
  if ! wait_port "$port"; then
    echo "packaged: the $arch binary did not start:"; cat "$where/server.log"
    kill "$pid" 2>/dev/null; rm -rf "$where" "$report"; return 1
  fi
  local chosen=()
  [ ${#run[@]} -eq 0 ] || chosen=(--test-name-pattern='^a class plays: ' --test-name-pattern='^a kept class: '
    --test-name-pattern='^a student by an invite: ')
  if [ "$arch" = "${PLAYED_ROOMS:-}" ]; then
    # scripts/test.sh's e2e stage played them against this very file.
    echo "(the class-room specs played against this binary in the e2e stage)"
  else
    ROOM_URL="http://127.0.0.1:$port" BASE_URL="http://127.0.0.1:$static" \
      node --test --test-concurrency=2 --test-reporter=spec "${chosen[@]}" tests/e2e/play_room.spec.mjs tests/e2e/join_room.spec.mjs \
      | tee "$report" || failed=1
    [ ${#chosen[@]} -eq 0 ] || each_played ${#chosen[@]} "each of its ${#chosen[@]} chosen class-room specs"
  fi
  BASE_URL="http://127.0.0.1:$port" \
    node --test --test-reporter=spec --test-name-pattern='play a full round offline after one visit' \
    tests/e2e/work_offline.spec.mjs | tee "$report" || failed=1
  # (For x86_64 the only spec it plays here.)
  each_played 1 "its offline round"
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  # (Read once it has stopped: the port opens before this line is written.)
  grep -q "inside this binary" "$where/server.log" || { echo "packaged: the $arch binary does not serve the game inside it"; failed=1; }
  # It wrote its rooms and nothing else.
  left=$(cd "$where" && ls -A | grep -vx -e score-server -e data -e server.log | tr '\n' ' ')
  [ -z "$left" ] || { echo "packaged: the $arch binary left $left beside it"; failed=1; }
  rm -rf "$where" "$report"
  return "$failed"
}

# The binaries play side by side (the one under qemu spends much of its time waiting on
# the emulated server), each report printed whole when it ends.
for bin in "${bins[@]}"; do
  side_by_side "${bin##*/}" play "$bin"
done
side_by_side_wait || failed=1
kill "$static_pid" 2>/dev/null; wait "$static_pid" 2>/dev/null
exit "$failed"
