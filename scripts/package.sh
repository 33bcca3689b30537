#!/usr/bin/env bash
# Builds score-server as one file that carries the game, for a school's PC or a Raspberry Pi:
# the release game (trunk), then a statically linked score-server (musl), stripped, with the
# game appended to it (scripts/pack_game.py), into target/package/ with SHA256SUMS beside it:
#   target/package/score-server-x86_64-linux    any 64-bit Intel or AMD Linux
#   target/package/score-server-aarch64-linux   64-bit ARM Linux (a Raspberry Pi 3, 4 or 5
#                                               on a 64-bit OS), built with zig as its C
#                                               compiler and linker (cargo-zigbuild)
# Options: --game-built  the game in dist/ is already this checkout's release build
#          --arch NAME   only this one (x86_64 or aarch64); by default both
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

build_game=1
arches=(x86_64 aarch64)
while [ $# -gt 0 ]; do
  case $1 in
    --game-built) build_game=0 ;;
    --arch) shift; arches=("$1") ;;
    *) echo "usage: scripts/package.sh [--game-built] [--arch x86_64|aarch64]" >&2; exit 2 ;;
  esac
  shift
done

if [ "$build_game" = 1 ]; then
  scripts/build.sh
fi
[ -f dist/index.html ] || { echo "package: no game in dist/ (trunk build --release)" >&2; exit 1; }

out=target/package
# Only what this script makes is removed (someone may have run a binary here, its rooms
# in ./data).
rm -rf "$out"/score-server-*-linux "$out/SHA256SUMS" "$out/docker" "$out/score-server.service"
mkdir -p "$out"
# The binaries people download have no symbols (a third of their size); a panic's message
# and place are still printed.
export CARGO_PROFILE_SERVER_STRIP=symbols
# The two builds run side by side, each in its own target folder (Cargo lets one build at a
# time use a folder): each ends in a long single-threaded link (link-time optimisation, one
# codegen unit), which now overlaps the other's.
folder() { case $1 in x86_64) echo target ;; *) echo target/zig ;; esac; }
build() {
  local arch=$1 target="$1-unknown-linux-musl"
  case $arch in
    # SQLite's C source compiles with Debian's musl-gcc.
    x86_64) CC_x86_64_unknown_linux_musl=musl-gcc cargo build --profile server -p score-server --target "$target" ;;
    # Debian has no aarch64 musl C compiler: zig is one (and links), through cargo-zigbuild.
    aarch64) CARGO_TARGET_DIR=$(folder "$arch") cargo zigbuild --profile server -p score-server --target "$target" ;;
    *) echo "package: no build for $arch" >&2; return 2 ;;
  esac
}
for arch in "${arches[@]}"; do
  side_by_side "$arch" build "$arch"
done
side_by_side_wait || { echo "package: a build failed (its output is above)" >&2; exit 1; }
# The server is compiled without the game and without its commit, both appended to each copy:
# a new game or a new commit needs no new link of the server (a minute or more for each
# architecture).
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
for arch in "${arches[@]}"; do
  cp "$(folder "$arch")/$arch-unknown-linux-musl/server/score-server" "$out/score-server-$arch-linux"
  python3 scripts/pack_game.py dist "$out/score-server-$arch-linux" "$commit"
done

(cd "$out" && sha256sum score-server-*-linux >SHA256SUMS)
cp deploy/score-server.service "$out/"
# deploy/Dockerfile's build context: each binary by Docker's name for its architecture
# (hard links, no copies), and an empty data/ that becomes the image's /data, owned by
# the user it runs as.
mkdir -p "$out/docker/data"
for arch in "${arches[@]}"; do
  case $arch in x86_64) docker_arch=amd64 ;; aarch64) docker_arch=arm64 ;; esac
  mkdir -p "$out/docker/$docker_arch"
  ln -f "$out/score-server-$arch-linux" "$out/docker/$docker_arch/score-server"
done
echo "package: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown) in $out/"
for f in "$out"/score-server-*-linux; do
  printf '  %-40s %10d B\n' "$f" "$(stat -c %s "$f")"
done
cat "$out/SHA256SUMS"
