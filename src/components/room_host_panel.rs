//! The Host panel of a class room: deal a roll (at random or typed for the room's dice), the
//! room's rules, lock, clear the chat, the scores as CSV, the teacher's report, end the room.
//! Shown only on a page that holds the host token; every command carries it, and the
//! server checks it.

use leptos::prelude::*;
use score_room::protocol::HostCommand;

use crate::components::room_panel::Room;
use crate::components::RoomReport;

/// The Host panel; `room` is the page's room client.
#[component]
pub(crate) fn RoomHostPanel(
    /// The room client, holding the host token.
    room: Room,
) -> impl IntoView {
    let Room { seen, error, report, .. } = room;
    let code = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_default());
    let host = Memo::new(move |_| seen.with(|s| s.as_ref().and_then(|s| s.host.clone())).unwrap_or_default());
    let csv_href = move || format!("scores.csv?room={}&host={}", code.get(), host.get());
    let locked = Memo::new(move |_| seen.with(|s| s.as_ref().is_some_and(|s| s.locked)));
    let typed_roll = RwSignal::new(String::new());
    let r_dice = RwSignal::new(String::new());
    let r_goal = RwSignal::new(String::new());
    let r_score = RwSignal::new(String::new());
    let r_impossible = RwSignal::new(String::new());
    let r_judging = RwSignal::new(true);
    // The rules form shows the room's rules as they are now.
    let rules = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| (s.rules.clone(), s.judging))));
    Effect::new(move |_| {
        if let Some((rules, judging)) = rules.get() {
            r_dice.set(rules.dice.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "));
            r_goal.set(rules.goal.to_string());
            r_score.set(rules.score_secs.to_string());
            r_impossible.set(rules.impossible_secs.to_string());
            r_judging.set(judging);
        }
    });
    view! {
        <section class="host-controls" aria-label="Host">
            <h3>"Host"</h3>
            <div class="controls">
                <button class="primary" on:click=move |_| room.command(HostCommand::NewRoll { roll: None })>"New roll for the class"</button>
                <button on:click=move |_| room.command(HostCommand::Lock { locked: !locked.get_untracked() })>
                    {move || if locked.get() { "Open the room" } else { "Lock the room" }}
                </button>
                <button on:click=move |_| room.command(HostCommand::ClearChat)>"Clear the chat"</button>
            </div>
            <form class="play-roll" on:submit=move |ev| {
                ev.prevent_default();
                // Checked against the room's own dice, as the server checks it.
                let dice = seen.with_untracked(|s| s.as_ref().map(|s| s.rules.dice.clone())).unwrap_or_default();
                match crate::forms::roll_for(&typed_roll.get_untracked(), &dice) {
                    Ok(roll) => room.command(HostCommand::NewRoll { roll: Some(roll) }),
                    Err(e) => error.set(Some(e)),
                }
            }>
                <label>"Roll for the class " <input type="text" prop:value=move || typed_roll.get() on:input=move |ev| typed_roll.set(event_target_value(&ev))/></label>
                <button type="submit">"Deal this roll"</button>
            </form>
            <form class="room-rules" on:submit=move |ev| {
                ev.prevent_default();
                let parsed = (
                    crate::forms::dice(&r_dice.get_untracked()),
                    crate::forms::goal(&r_goal.get_untracked()),
                    crate::forms::clock_secs(&r_score.get_untracked(), "The SCORE clock"),
                    crate::forms::clock_secs(&r_impossible.get_untracked(), "The IMPOSSIBLE clock"),
                );
                match parsed {
                    (Ok(dice), Ok(goal), Ok(score_secs), Ok(impossible_secs)) => room.command(HostCommand::Rules {
                        dice,
                        goal,
                        score_secs,
                        impossible_secs,
                        judging: r_judging.get_untracked(),
                    }),
                    (d, g, s, i) => error.set(d.err().or(g.err()).or(s.err()).or(i.err())),
                }
            }>
                <h4>"The room's rules"</h4>
                <label>"Dice (sides) " <input type="text" prop:value=move || r_dice.get() on:input=move |ev| r_dice.set(event_target_value(&ev))/></label>
                <label>"Goal " <input type="text" inputmode="numeric" prop:value=move || r_goal.get() on:input=move |ev| r_goal.set(event_target_value(&ev))/></label>
                <label>"SCORE clock (seconds) " <input type="text" inputmode="numeric" prop:value=move || r_score.get() on:input=move |ev| r_score.set(event_target_value(&ev))/></label>
                <label>"IMPOSSIBLE clock (seconds) " <input type="text" inputmode="numeric" prop:value=move || r_impossible.get() on:input=move |ev| r_impossible.set(event_target_value(&ev))/></label>
                <label class="check">
                    <input type="checkbox" prop:checked=move || r_judging.get() on:change=move |ev| r_judging.set(event_target_checked(&ev))/>
                    " The computer judges IMPOSSIBLE"
                </label>
                <button type="submit">"Apply and roll"</button>
            </form>
            <p>
                <a download href=csv_href>"Download scores (CSV)"</a>
            </p>
            <p>
                <button on:click=move |_| room.command(HostCommand::Report)>
                    {move || if report.with(Option::is_some) { "Update the report" } else { "Show the report" }}
                </button>
            </p>
            {move || report.get().map(|rows| view! { <RoomReport code=code.get() rows/> })}
            <button class="danger" on:click=move |_| room.command(HostCommand::End)>"End the room"</button>
        </section>
    }
}
