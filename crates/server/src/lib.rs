//! `score-server`: the game's files and class rooms over WebSockets on one origin, rooms
//! kept in SQLite. Every decision is `score-room`'s [`score_room::room::Room`]: this crate
//! only moves messages, keeps rooms on disk and enforces limits.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod files;
mod http;
pub mod hub;
mod limits;
pub mod peers;
mod session;
pub mod store;

/// A line on standard error for whoever runs the server. A closed standard error (the
/// terminal gone, a pipe's reader ended) is no reason to drop a class: a failed write is
/// let go, where `eprintln!` would panic.
#[macro_export]
macro_rules! note {
    ($($words:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($words)*);
    }};
}
