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
# The wasm is built with its own standard library, for size (bench.mjs measures no change
# of speed that a player would notice; the worker's default impossible table, about 1 ms):
# - a panic aborts at once, without formatting its message: no module carries the panic
#   machinery (src/crash.rs: the page still shows its crash notice);
# - `{:?}` formats nothing: no shipped text uses Debug, only tests (which build otherwise);
# - the standard library's smaller algorithms (`optimize_for_size`: its sorts, mostly).
# 31 KB gzip of the first load. They are unstable options of Cargo and rustc, which
# RUSTC_BOOTSTRAP lets the stable toolchain that rust-toolchain.toml pins take (1.95.0:
# they change between releases); setup.sh adds its rust-src and fetches its crates.
# RUSTC_BOOTSTRAP also reaches build scripts that probe for nightly features (thiserror's
# error_generic_member_access, which nothing here uses): on the pinned version they
# compile, and the tests run on what they build. A release build without these variables
# (`trunk serve --release`) is the larger one, with panic messages, and builds those
# crates again. The flags replace .cargo/config.toml's, so they say `erase_components`
# again.
export RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components -Zunstable-options -Cpanic=immediate-abort -Zfmt-debug=none"
cargo build --target=wasm32-unknown-unknown --release --offline -p score-app --bins
trunk build --release --offline
