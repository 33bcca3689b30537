#!/usr/bin/env bash
# deploy/score-server.service as systemd reads it: `systemd-analyze verify` on the unit,
# its ExecStart pointed at the packaged binary (verify checks that it can be run). Any
# line it prints (an unknown key, a value it ignores) is a failure: it exits 0 on those.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/target/package/score-server-x86_64-linux
[ -x "$bin" ] || { echo "service unit: no $bin (scripts/package.sh)"; exit 1; }
where=$(mktemp -d)
trap 'rm -rf "$where"' EXIT
sed "s#/usr/local/bin/score-server#$bin#" deploy/score-server.service >"$where/score-server.service"
said=$(systemd-analyze verify "$where/score-server.service" 2>&1)
[ -z "$said" ] || { echo "$said"; exit 1; }
echo "service unit: verified"
