#!/usr/bin/env bash
# Installs everything Score needs to build and test, skipping what is already right.
# Safe to run again and again; every step checks `--version` first.
# On a fresh machine the three slow installs run side by side: the Debian and Python
# packages (mostly downloads) while Cargo compiles trunk and wasm-bindgen-cli (each ends in
# a long single-threaded link, which the other's build fills).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

TRUNK_VERSION=0.21.14
ZIG_VERSION=0.17.1
ZIGBUILD_VERSION=0.24.1
ZOPFLI_VERSION=0.4.3
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
fail() { printf 'setup: FAILED: %s\n' "$*" >&2; exit 1; }
# Fast, small-cache release settings for installing tools (trunk's own fat LTO doubles the
# time), at the optimisation level given first. trunk only runs Cargo, wasm-bindgen and
# wasm-opt and copies files, so it is built unoptimised (184 s to compile here, where the
# game's release build takes as long with it as with an optimised one); wasm-bindgen
# rewrites every wasm file the build makes, so it keeps level 1.
quick_install() {
  local opt=$1; shift
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt \
    CARGO_PROFILE_RELEASE_DEBUG=false cargo install "$@"
}
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
# Debian puts nginx (and systemd's tools) in /usr/sbin, which not every PATH holds.
case ":$PATH:" in *:/usr/sbin:*) ;; *) export PATH="$PATH:/usr/sbin" ;; esac

command -v cargo >/dev/null || fail "cargo is not installed (install Rust with rustup first)"
command -v npm >/dev/null || fail "npm is not installed (Node.js 20+ is needed)"
command -v python3 >/dev/null || fail "python3 is not installed (the scripts' ports, servers and build steps use it)"

# The Rust that rust-toolchain.toml pins, with its components and targets (nothing when it
# is already there; rustup downloads it from its own release server otherwise).
rustup toolchain install >/dev/null || fail "rustup toolchain install (the version rust-toolchain.toml pins)"

# The targets: wasm32 for the game; static musl builds of score-server for x86_64 (Debian's
# musl-gcc compiles SQLite) and aarch64 (zig compiles and links it, through cargo-zigbuild:
# Debian has no aarch64 musl C compiler), run under qemu's user emulation for its test.
for target in wasm32-unknown-unknown x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
  if rustup target list --installed | grep -qx "$target"; then
    say "$target target: present"
  else
    say "adding the $target target"
    rustup target add "$target" || fail "rustup target add $target"
  fi
done
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt || true
# The release wasm builds the standard library with the game (scripts/build.sh): its source.
if rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  say "rust-src: present"
else
  say "adding the rust-src component"
  rustup component add rust-src || fail "rustup component add rust-src"
fi

# Each slow install below runs in the background (env.sh's side_by_side), its output printed
# when they have all ended. A step that fails while they run waits for them (an apt-get
# stopped halfway leaves dpkg needing repair) and prints what they said before setup exits.
trap 'side_by_side_wait || true' EXIT

# Debian's packages, in one apt-get run: each named by the command it gives.
#   chromium, chromedriver   the browser (Debian's builds: nothing is downloaded)
#   chromium-headless-shell  its headless shell, which runs the browser tests
#   brotli                   dist/ is precompressed for hosts that serve .br
#   nginx                    the test of several score-server instances behind a proxy
#   musl-gcc                 the static x86_64 score-server
#   qemu-aarch64-static      running the aarch64 score-server in its test
#   systemd-analyze          checking deploy/score-server.service
#   pip3                     installing zig and cargo-zigbuild, when Python has no pip
debian_packages() {
  local missing=() cmd pkg
  while read -r cmd pkg; do
    if command -v "$cmd" >/dev/null; then say "$pkg: present"; else missing+=("$pkg"); fi
  done <<'EOF'
ps procps
chromium chromium
chromedriver chromium-driver
chromium-headless-shell chromium-headless-shell
brotli brotli
nginx nginx
musl-gcc musl-tools
qemu-aarch64-static qemu-user-static
systemd-analyze systemd
EOF
  python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing Debian ${missing[*]}"
    # The package lists are read afresh only when the first try fails (stale lists).
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" \
      || { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"; } \
      || fail "apt-get install ${missing[*]}"
  fi
  # Debian starts nginx as a service on port 80 when it installs it; the tests run their own.
  if command -v systemctl >/dev/null && systemctl is-active --quiet nginx 2>/dev/null; then
    systemctl stop nginx 2>/dev/null || true
  fi
  say "chromium: $(chromium --version 2>/dev/null | head -1)"
  # zig and cargo-zigbuild, both prebuilt on PyPI (cargo-zigbuild as a wheel: compiling it
  # with `cargo install` took a minute or two).
  local pip=(python3 -m pip install -q)
  if [ "$(python3 -m ziglang version 2>/dev/null || true)" = "$ZIG_VERSION" ]; then
    say "zig $ZIG_VERSION: present"
  else
    say "installing zig $ZIG_VERSION (PyPI's ziglang) for the aarch64 score-server"
    "${pip[@]}" "ziglang==$ZIG_VERSION" || "${pip[@]}" --break-system-packages "ziglang==$ZIG_VERSION" \
      || fail "pip install ziglang==$ZIG_VERSION"
  fi
  if [ "$(cargo-zigbuild --version 2>/dev/null || true)" = "cargo-zigbuild $ZIGBUILD_VERSION" ]; then
    say "cargo-zigbuild $ZIGBUILD_VERSION: present"
  else
    say "installing cargo-zigbuild $ZIGBUILD_VERSION (PyPI's wheel)"
    "${pip[@]}" "cargo-zigbuild==$ZIGBUILD_VERSION" \
      || "${pip[@]}" --break-system-packages "cargo-zigbuild==$ZIGBUILD_VERSION" \
      || fail "pip install cargo-zigbuild==$ZIGBUILD_VERSION"
    [ "$(cargo-zigbuild --version 2>/dev/null || true)" = "cargo-zigbuild $ZIGBUILD_VERSION" ] \
      || fail "cargo-zigbuild on PATH is not $ZIGBUILD_VERSION after pip installed it: $(command -v cargo-zigbuild || echo none)"
  fi
  # zopfli (PyPI's prebuilt wheel): dist/'s .gz files, a twentieth smaller than gzip -9's
  # (scripts/postbuild.py). Browsers take gzip, not brotli, from a plain-http server: a
  # classroom's score-server at its LAN address.
  if [ "$(python3 -c 'import importlib.metadata as m; print(m.version("zopfli"))' 2>/dev/null || true)" = "$ZOPFLI_VERSION" ]; then
    say "zopfli $ZOPFLI_VERSION: present"
  else
    say "installing zopfli $ZOPFLI_VERSION (PyPI's wheel) for dist/'s .gz files"
    "${pip[@]}" "zopfli==$ZOPFLI_VERSION" || "${pip[@]}" --break-system-packages "zopfli==$ZOPFLI_VERSION" \
      || fail "pip install zopfli==$ZOPFLI_VERSION"
  fi
}
side_by_side debian debian_packages

if [ "$(trunk --version 2>/dev/null || true)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: present"
else
  say "installing trunk $TRUNK_VERSION (several minutes, once)"
  side_by_side trunk quick_install 0 --locked "trunk@$TRUNK_VERSION"
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
  side_by_side wasm-bindgen quick_install 1 --force wasm-bindgen-cli --version "$wbg"
fi

if [ -x node_modules/.bin/wasm-opt ] && [ -x node_modules/.bin/esbuild ] && [ -d node_modules/playwright-core ] \
  && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  say "npm packages: present"
else
  say "installing npm packages (binaryen wasm-opt, esbuild, playwright-core)"
  npm ci --no-audit --no-fund || fail "npm ci"
fi
wasm-opt --version | grep -q 'version 132' || fail "wasm-opt on PATH is not binaryen 132: $(command -v wasm-opt)"

say "fetching crates"
cargo fetch --quiet || fail "cargo fetch"
# The standard library's own crates, for that build (which runs offline).
RUSTC_BOOTSTRAP=1 cargo fetch --quiet --manifest-path "$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml" \
  || fail "cargo fetch (the standard library's crates)"
side_by_side_wait || fail "see above"
say "ready"
