//! A student's screen in a class room, phone first: the room's table (roll, clock,
//! SCORE/IMPOSSIBLE, the board) comes first, then the claimant's working, the scoreboard
//! with the student's own rank, and the chat.

use leptos::prelude::*;

use crate::components::room_panel::Room;
use crate::components::room_scoreboard::{ordinal, ranked, LiveWorking, RoomScoreboard};
use crate::components::{ClaimBar, RoomChat, TableView};
use crate::table::Table;

/// A member's room page.
#[component]
pub(crate) fn RoomStudent(
    /// The room client.
    room: Room,
) -> impl IntoView {
    Table::provide(room, room.now.into());
    let seen = room.seen;
    let code = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_default());
    // "2nd of 27 · 3 points": where this student stands.
    let standing = Memo::new(move |_| {
        seen.with(|s| {
            let s = s.as_ref()?;
            let me = s.seat?;
            let (rank, p) = ranked(&s.members).into_iter().find(|(_, p)| p.seat == me)?;
            let points = if p.score.abs() == 1 { "point" } else { "points" };
            Some(format!("{} of {} · {} {points}", ordinal(rank), s.members.len(), p.score))
        })
    });
    view! {
        <div class="student">
            <header class="room-bar">
                <p class="room-name">"Room " <strong data-testid="room-code">{code}</strong></p>
                <p class="standing" data-testid="standing">{standing}</p>
                <button type="button" class="leave" on:click=move |_| room.quit()>"Leave the room"</button>
            </header>
            <section class="play" aria-label="Table">
                <ClaimBar/>
                <TableView/>
            </section>
            <LiveWorking room/>
            <RoomScoreboard room/>
            <RoomChat room/>
        </div>
    }
}
