use leptos::prelude::*;

use crate::ctx::{roll_dice, use_ctx};
use crate::forms;
use crate::game::Match;
use crate::hooks::use_clock::now_ms;

/// Pass-and-play: 2 to 8 named players or teams share the screen and the roll.
#[component]
pub fn PlayersPanel() -> impl IntoView {
    let game = use_ctx().game;
    let names = RwSignal::new(String::new());
    let judging = RwSignal::new(true);
    let error = RwSignal::new(None::<String>);
    let playing = Memo::new(move |_| game.with(|g| g.group.is_some()));
    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match forms::player_names(&names.get_untracked()) {
            Ok(list) => {
                error.set(None);
                let m = Match::new(list, judging.get_untracked());
                game.update(|g| {
                    let roll = roll_dice(&g.rules);
                    g.set_group(Some(m), roll, now_ms());
                });
                crate::ctx::show_table();
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <div class="panel" aria-label="Players">
            <h2>"Players"</h2>
            <Show
                when=move || playing.get()
                fallback=move || {
                    view! {
                        <p>
                            "Two to eight players or teams share one screen and one roll. Anyone may press SCORE (30 seconds: +1, or −1) or IMPOSSIBLE (60 seconds) by their name."
                        </p>
                        <form class="players" on:submit=start>
                            <label>
                                "Names, one per line "
                                <textarea
                                    rows="4"
                                    prop:value=move || names.get()
                                    on:input=move |ev| names.set(event_target_value(&ev))
                                ></textarea>
                            </label>
                            <p class="field-error" role="alert">{move || error.get()}</p>
                            <label class="check">
                                <input
                                    type="checkbox"
                                    prop:checked=move || judging.get()
                                    on:change=move |ev| judging.set(event_target_checked(&ev))
                                />
                                " The computer judges IMPOSSIBLE (off: the claim wins when nobody scores in time)"
                            </label>
                            <button type="submit" class="primary" disabled=move || game.with(|g| g.round.is_running()) title=move || game.with(|g| g.round.is_running().then_some("Settle the claim first: a new roll now would cost points.")) >"Start match"</button>
                        </form>
                    }
                }
            >
                <p>"The match is on: the scoreboard is beside the table. Press SCORE or IMPOSSIBLE by your name."</p>
                <button on:click=move |_| game.update(|g| {
                        let roll = roll_dice(&g.rules);
                        g.set_group(None, roll, now_ms());
                    })>"End match"</button>
            </Show>
        </div>
    }
}
