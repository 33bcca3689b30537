#!/usr/bin/env bash
# Installs everything Score needs to build and test, skipping what is already right.
# Safe to run again and again; every step checks `--version` first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

TRUNK_VERSION=0.21.14
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
fail() { printf 'setup: FAILED: %s\n' "$*" >&2; exit 1; }
# Fast, small-cache release settings for installing tools (trunk's own fat LTO doubles the time).
quick_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
    cargo install "$@"
}

command -v cargo >/dev/null || fail "cargo is not installed (install Rust with rustup first)"
command -v npm >/dev/null || fail "npm is not installed (Node.js 20+ is needed)"

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32 target: present"
else
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || fail "rustup target add wasm32-unknown-unknown"
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt || true

if [ "$(trunk --version 2>/dev/null || true)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: present"
else
  say "installing trunk $TRUNK_VERSION (several minutes, once)"
  quick_install --locked "trunk@$TRUNK_VERSION" || fail "cargo install trunk@$TRUNK_VERSION"
fi

# wasm-bindgen-cli must equal the wasm-bindgen in Cargo.lock, or the build breaks.
wbg=$(awk '$0=="name = \"wasm-bindgen\"" {getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock)
[ -n "$wbg" ] || fail "could not read the wasm-bindgen version from Cargo.lock"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" = "wasm-bindgen $wbg" ] \
  && command -v wasm-bindgen-test-runner >/dev/null; then
  say "wasm-bindgen-cli $wbg: present"
else
  say "installing wasm-bindgen-cli $wbg (a few minutes, once)"
  # Not --locked: its lockfile pins a crate version the registry lacks.
  quick_install --force wasm-bindgen-cli --version "$wbg" || fail "cargo install wasm-bindgen-cli $wbg"
fi

if [ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/playwright-core ] \
  && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  say "npm packages: present"
else
  say "installing npm packages (binaryen wasm-opt, playwright-core)"
  npm ci --no-audit --no-fund || fail "npm ci"
fi
wasm-opt --version | grep -q 'version 132' || fail "wasm-opt on PATH is not binaryen 132: $(command -v wasm-opt)"

if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  say "chromium + chromedriver: present ($(chromium --version 2>/dev/null | head -1))"
else
  say "installing Debian chromium and chromium-driver"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q || fail "apt-get update"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium chromium-driver || fail "apt-get install chromium chromium-driver"
fi

# A Debian package whose command is missing: installed (after an apt-get update if the
# package lists are stale).
debian_package() {
  local cmd=$1 pkg=$2 why=$3
  if command -v "$cmd" >/dev/null; then
    say "$pkg: present"
    return
  fi
  say "installing Debian $pkg ($why)"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$pkg" \
    || { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$pkg"; } \
    || fail "apt-get install $pkg"
}
debian_package brotli brotli "dist/ is precompressed for hosts that serve .br"
# Debian puts nginx in /usr/sbin, which not every PATH holds.
case ":$PATH:" in *:/usr/sbin:*) ;; *) export PATH="$PATH:/usr/sbin" ;; esac
debian_package nginx nginx "the test of several score-server instances behind a proxy"
# Debian starts nginx as a service on port 80 when it installs it; the tests run their own.
if command -v systemctl >/dev/null && systemctl is-active --quiet nginx 2>/dev/null; then
  systemctl stop nginx 2>/dev/null || true
fi

# One file to host (scripts/package.sh, tests/e2e/packaged.sh): static musl builds of
# score-server for x86_64 (Debian's musl-gcc compiles SQLite) and aarch64 (zig compiles
# and links it, through cargo-zigbuild: Debian has no aarch64 musl C compiler), run under
# qemu's user emulation for its test; systemd-analyze checks the service unit.
for target in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
  if rustup target list --installed | grep -qx "$target"; then
    say "$target target: present"
  else
    say "adding the $target target"
    rustup target add "$target" || fail "rustup target add $target"
  fi
done
debian_package musl-gcc musl-tools "the static x86_64 score-server"
debian_package qemu-aarch64-static qemu-user-static "running the aarch64 score-server in its test"
debian_package systemd-analyze systemd "checking deploy/score-server.service"
ZIG_VERSION=0.17.1
ZIGBUILD_VERSION=0.24.1
if [ "$(python3 -m ziglang version 2>/dev/null || true)" = "$ZIG_VERSION" ]; then
  say "zig $ZIG_VERSION: present"
else
  say "installing zig $ZIG_VERSION (PyPI's ziglang) for the aarch64 score-server"
  python3 -m pip --version >/dev/null 2>&1 || debian_package pip3 python3-pip "installing zig"
  python3 -m pip install -q "ziglang==$ZIG_VERSION" \
    || python3 -m pip install -q --break-system-packages "ziglang==$ZIG_VERSION" \
    || fail "pip install ziglang==$ZIG_VERSION"
fi
if [ "$(cargo-zigbuild --version 2>/dev/null || true)" = "cargo-zigbuild $ZIGBUILD_VERSION" ]; then
  say "cargo-zigbuild $ZIGBUILD_VERSION: present"
else
  say "installing cargo-zigbuild $ZIGBUILD_VERSION (a minute or two, once)"
  quick_install --locked "cargo-zigbuild@$ZIGBUILD_VERSION" || fail "cargo install cargo-zigbuild@$ZIGBUILD_VERSION"
fi

say "fetching crates"
cargo fetch --quiet || fail "cargo fetch"
say "ready"
