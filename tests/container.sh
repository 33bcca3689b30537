#!/usr/bin/env bash
# deploy/Dockerfile and deploy/compose.yaml as a technician uses them: the image built from
# target/package/docker (scripts/package.sh), started by compose on the host's network with
# a new volume; it runs as user 65534, serves the game inside it, prints where students
# join, opens its rooms' database in the volume (or it would exit 2), and `stop` stops it
# gently (SIGTERM: exit code 0). Needs a Docker daemon, and `docker compose` or
# `docker-compose`.
set -euo pipefail
cd "$(dirname "$0")/.."
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
project="score-test-$$"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
where=$(mktemp -d)
# The compose file as shipped, on a free port (the test machine may use 8080).
cat >"$where/compose.override.yaml" <<YAML
services:
  score:
    image: $project
    command: ["--port", "$port"]
YAML
up=("${compose[@]}" -p "$project" -f deploy/compose.yaml -f "$where/compose.override.yaml")
cleanup() {
  "${up[@]}" down -v --rmi all >/dev/null 2>&1 || true
  rm -rf "$where"
}
trap cleanup EXIT
"${up[@]}" up -d --build >"$where/up.log" 2>&1 || { cat "$where/up.log"; exit 1; }
for _ in $(seq 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done
code=$(curl -s -o "$where/page" -w '%{http_code}' "http://127.0.0.1:$port/?room=ABC234")
[ "$code" = 200 ] && grep -q '<html' "$where/page" || { echo "container: / answered $code"; exit 1; }
container=$("${up[@]}" ps -q score)
logs=$(docker logs "$container" 2>&1)
grep -q "inside this binary" <<<"$logs" || { echo "container: not the game inside: $logs"; exit 1; }
grep -q "students join at http://" <<<"$logs" || { echo "container: no join address: $logs"; exit 1; }
version=$(docker run --rm --entrypoint /score-server "$project" --version)
user=$(docker image inspect "$project" --format '{{.Config.User}}')
[ "$user" = 65534:65534 ] || { echo "container: runs as “$user”, not 65534"; exit 1; }
grep -q "rooms brought back" <<<"$logs" || { echo "container: no database opened: $logs"; exit 1; }
echo "container: $version, $(grep 'join at' <<<"$logs" | head -1)"
"${up[@]}" stop >/dev/null 2>&1
exit_code=$(docker inspect "$container" --format '{{.State.ExitCode}}')
[ "$exit_code" = 0 ] || { echo "container: stopped with exit code $exit_code"; docker logs "$container"; exit 1; }
docker logs "$container" 2>&1 | grep -q "stopping (rooms are saved" || { echo "container: not stopped gently"; exit 1; }
echo "container: built, served, stopped gently"
