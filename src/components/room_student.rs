//! A student's screen in a class room, phone first: the room's table (roll, clock,
//! SCORE/IMPOSSIBLE, the board) comes first, then the claimant's working, the scoreboard
//! with the student's own rank, and the chat. How to play (the room's own rules) is one tap
//! away in the bar.

use leptos::prelude::*;

use crate::components::room_client::Room;
use crate::components::room_rules::RoomRules;
use crate::components::room_scoreboard::{ordinal, ranked, LiveWorking, RoomScoreboard};
use crate::components::{ClaimBar, RoomChat, TableView};
use crate::table::Table;

/// A member's room page.
#[component]
pub(crate) fn RoomStudent(
    /// The room client.
    room: Room,
) -> impl IntoView {
    Table::provide(room, room.now.into(), room.words.into());
    let seen = room.seen;
    let code = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_default());
    // "2nd of 27 · 3 points": where this student stands.
    let standing = Memo::new(move |_| {
        seen.with(|s| {
            let s = s.as_ref()?;
            let me = s.seat?;
            let (rank, p) = ranked(&s.members).into_iter().find(|(_, p)| p.seat == me)?;
            let points = if p.score.abs() == 1 { "point" } else { "points" };
            Some(format!("{} of {} · {} {points}", ordinal(rank), s.members.len(), crate::game::number(p.score)))
        })
    });
    let rules_open = RwSignal::new(false);
    view! {
        <div class="student">
            <header class="room-bar">
                <p class="room-name">"Room " <strong data-testid="room-code">{code}</strong></p>
                <p class="standing" data-testid="standing">{standing}</p>
                <button
                    type="button"
                    aria-expanded=move || rules_open.get().to_string()
                    on:click=move |_| rules_open.update(|o| *o = !*o)
                >"How to play"</button>
                <button type="button" class="leave" on:click=move |_| room.quit()>"Leave the room"</button>
            </header>
            <RoomRules room open=rules_open/>
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
