//! The Score web app: a thin Leptos layer over `score-engine`.
//!
//! [`game::Game`] holds one table's state and every action on it (plain Rust,
//! tested natively); [`app::App`] provides it to the components in a signal
//! ([`ctx::Ctx`], which they read with [`ctx::use_ctx`]);
//! [`storage`] is the only module that touches localStorage.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod app;
pub mod codec;
pub mod components;
pub mod crash;
pub mod ctx;
pub mod forms;
pub mod game;
pub mod hooks;
pub mod lang;
pub mod modules;
pub mod offline;
pub mod qr;
pub mod room_module;
pub mod say;
pub mod slots;
pub mod solver;
pub mod storage;
pub mod table;
#[cfg(test)]
mod tests;
pub mod tools;
pub mod work;
