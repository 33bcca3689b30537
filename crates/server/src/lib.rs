//! `score-server`: the game's files and class rooms over WebSockets on one origin, rooms
//! kept in SQLite. Every decision is `score-room`'s [`score_room::room::Room`]: this crate
//! only moves messages, keeps rooms on disk and enforces limits.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod http;
pub mod hub;
mod limits;
mod session;
pub mod store;
