//! The room's tests outside the crate, as one test binary: each file below was a binary of
//! its own, and each built the room and proptest again at full optimisation (about 70 s of
//! a clean test build on two cores, against about 30 s as one).
//!
//! `cargo test -p score-room --test room fairness` runs one of them.

mod common;
mod fairness;
mod fuzz;
mod golden;
mod homework;
mod mirror;
