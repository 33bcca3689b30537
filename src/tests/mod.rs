//! The app's tests across its modules, run in the crate's own test binary (a test binary
//! outside the crate would make Cargo build the five wasm apps for it too): the native
//! fair-play property, and the DOM tests in headless Chromium
//! (`cargo test -p score-app --target wasm32-unknown-unknown`).

#[cfg(not(target_arch = "wasm32"))]
mod fair_play;
#[cfg(target_arch = "wasm32")]
mod web;
