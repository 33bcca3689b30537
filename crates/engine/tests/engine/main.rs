//! The engine's tests outside the crate, as one test binary (each file was a binary of its
//! own, each linking the engine and proptest again).
//!
//! `cargo test -p score-engine --test engine properties` runs one of them.

mod difficulty;
mod facts;
mod properties;
mod scoring;
