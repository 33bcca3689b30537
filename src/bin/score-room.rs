//! The class room as its own wasm module, loaded by the app's `RoomHost` the first time a
//! player opens a room, and by a student's module that hands the page over to it (a tab that
//! hosts the room). It mounts into `#room-root` at once if it is on the page, again on
//! `score-room:open`, and unmounts (closing the room's socket) on `score-room:close`.
//! On a host's link it is the page's first module (`<html data-start="room">`, from the boot
//! script): it draws the page itself and mounts into it, and no app runs
//! (`score_app::room_module`).
#![deny(clippy::unwrap_used, clippy::expect_used)]

use leptos::prelude::*;
use score_app::components::RoomPanel;

fn main() {
    score_app::room_module::start(|invite, host| view! { <RoomPanel invite host/> }.into_any(), true);
}
