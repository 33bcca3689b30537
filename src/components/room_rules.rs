//! How to play in a class room, on a student's phone: the room's own rules (its dice, goal,
//! operators and clocks, whether the computer judges), one tap from the table, in the room.

use leptos::prelude::*;
use score_engine::op::Op;

use crate::components::room_client::Room;

/// The rules card, for the room `room` is in; `open` shows it.
#[component]
pub(crate) fn RoomRules(
    /// The room client.
    room: Room,
    /// Whether the card is shown (the card's Close sets it false).
    open: RwSignal<bool>,
) -> impl IntoView {
    let seen = room.seen;
    let rules = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| (s.rules.clone(), s.judging))));
    let card = move || {
        let (rules, judging) = rules.get()?;
        let dice = rules.dice.iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(", ");
        let ops = rules.ops.iter().map(Op::symbol).collect::<Vec<_>>().join(" ");
        let goal = rules.goal;
        let moves = if rules.use_all {
            "using every number".to_string()
        } else {
            format!("in two or three moves: you don't need every die (there are {})", rules.dice.len())
        };
        let concat = rules.ops.contains(Op::Concat).then_some(
            "‖ joins two whole numbers: 1‖5 is 15 and 2‖0 is 20 (its left number can't be 0, its right one can't be negative).",
        );
        let judged = if judging {
            format!("Press IMPOSSIBLE if you think there is no way. After {} seconds the computer checks: +1 if you were right, −2 if there was a way.", rules.impossible_secs)
        } else {
            format!("Press IMPOSSIBLE if you think there is no way; after {} seconds the claim stands unless someone made {goal} with SCORE.", rules.impossible_secs)
        };
        Some(view! {
            <section class="room-rules-card" aria-labelledby="room-rules-title" data-testid="room-rules">
                <h2 id="room-rules-title">"How to play"</h2>
                <p>{format!("The dice: {dice}. Make {goal} {moves}.")}</p>
                <p>
                    {format!("A move takes two numbers and an operator ({ops}); the result comes back in red, marked ◆. ")}
                    {format!("{goal} only counts when a move that uses a red number makes it.")}
                </p>
                {concat.map(|c| view! { <p>{c}</p> })}
                <ul>
                    <li>{format!("Press SCORE when you see a way: make {goal} within {} seconds for +1, or lose 1.", rules.score_secs)}</li>
                    <li>{judged}</li>
                    <li>"The first SCORE wins the clock: while it runs, everyone sees its player's moves. Someone says IMPOSSIBLE? Press SCORE to beat the claim."</li>
                    <li>"Between claims you can practise on your own copy of the roll: it scores nothing."</li>
                </ul>
                <button type="button" on:click=move |_| open.set(false)>"Close"</button>
            </section>
        })
    };
    move || open.get().then(card)
}
