//! A student's class room module: what a room's invite needs (the forms and the student's
//! table), without the host's screen, the Host panel and the teacher's report, which the
//! whole module (`score-room`) carries. On an invite it is the page's first module
//! (`<html data-start="room">`, from the boot script): it draws the page itself and mounts
//! into `#room-root`. A tab that hosts the room hands the page over to the whole module
//! (`score_app::room_module`).
#![deny(clippy::unwrap_used, clippy::expect_used)]

use leptos::prelude::*;
use score_app::components::JoinPanel;

fn main() {
    score_app::room_module::start(|invite, host| view! { <JoinPanel invite host/> }.into_any(), false);
}
