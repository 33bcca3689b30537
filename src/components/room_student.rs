//! A student's screen in a class room, phone first: the room's table (roll, clock,
//! SCORE/IMPOSSIBLE, the board) comes first, then the claimant's working, the scoreboard
//! with the student's own rank, and the chat. How to play (the room's own rules) is one tap
//! away in the bar.

use leptos::prelude::*;
use score_i18n::Key;

use crate::components::room_client::Room;
use crate::components::room_homework::{HomeworkCard, HomeworkTable};
use crate::components::room_rules::RoomRules;
use crate::components::room_scoreboard::{ranked, LiveWorking, RoomScoreboard};
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
    // "Rank 2 of 27, 3 points": where this student stands.
    let standing = Memo::new(move |_| {
        seen.with(|s| {
            let s = s.as_ref()?;
            let me = s.seat?;
            let (rank, p) = ranked(&s.members).into_iter().find(|(_, p)| p.seat == me)?;
            let (rank, total, points) = (rank.to_string(), s.members.len().to_string(), crate::game::number(p.score));
            let fill = [("rank", rank.as_str()), ("total", total.as_str()), ("points", points.as_str())];
            Some(room.count(Key::Standing, u64::from(p.score.unsigned_abs()), &fill))
        })
    });
    let rules_open = RwSignal::new(false);
    view! {
        <div class="student">
            <header class="room-bar">
                <p class="room-name">
                    {move || {
                        let (before, after) = room.words.with(|w| w.around(Key::RoomName, "code", &[]));
                        view! { {before} <strong data-testid="room-code">{code}</strong> {after} }
                    }}
                </p>
                <p class="standing" data-testid="standing">{standing}</p>
                // A kept class says which lesson this is: a score back at 0 is a new lesson.
                {move || seen.with(|s| s.as_ref().filter(|s| s.kept).map(|s| s.lesson)).map(|lesson| view! {
                    <p class="lesson" data-testid="lesson">{room.t(Key::LessonN, &[("lesson", &lesson.to_string())])}</p>
                })}
                <button
                    type="button"
                    aria-expanded=move || rules_open.get().to_string()
                    on:click=move |_| rules_open.update(|o| *o = !*o)
                >{room.tr(Key::HelpTitle)}</button>
                <button type="button" class="leave" on:click=move |_| room.quit()>{room.tr(Key::LeaveRoom)}</button>
            </header>
            <RoomRules room open=rules_open/>
            // Homework takes the class's place on the page while the student plays it.
            <Show
                when=move || !room.hw_open.get()
                fallback=move || view! { <HomeworkTable room/> }
            >
                <HomeworkCard room/>
                <section class="play" aria-label=room.tr(Key::RoomTable)>
                    <ClaimBar/>
                    <TableView/>
                </section>
                <LiveWorking room/>
                <RoomScoreboard room/>
            </Show>
            <RoomChat room/>
        </div>
    }
}
