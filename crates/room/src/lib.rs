//! Score class rooms (docs/RULES.md §5): one roll, one scoreboard, the clocks and a chat
//! shared by up to 60 members, each on their own device.
//!
//! [`room::Room`] is a pure state machine, shaped like the engine's `Round`: inputs and
//! the time go in, events addressed to everyone or to one seat come out. It owns the roll,
//! every member's board and the round, replays every move with the engine's `Board` (the
//! one evaluator) and is the only judge; a client never sends a score. [`protocol`] is the
//! JSON the page and the server speak. This crate has no sockets, clocks or database, so
//! the browser app and `score-server` share it and every rule is a fast native test.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod mirror;
pub mod protocol;
pub mod ratings;
pub mod reach;
pub mod rights;
pub mod room;
pub mod say;
pub mod ticket;
