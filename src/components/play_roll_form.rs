use leptos::prelude::*;
use score_i18n::Key;

use crate::ctx::use_ctx;
use crate::forms;
use crate::game::Source;
use crate::hooks::use_clock::now_ms;

/// "Play this roll": type the dice by hand (from a real table, a book, a friend).
#[component]
pub fn PlayRollForm() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let dice = game.with_untracked(|g| g.rules.dice.clone());
        match forms::roll_for(&text.get_untracked(), &dice) {
            Ok(roll) => {
                error.set(None);
                game.update(|g| {
                    let rules = g.rules.clone();
                    // A typed roll is practice: its typist may know the answer (RULES §6).
                    g.deal(rules, roll, Source::Typed, now_ms());
                });
                crate::ctx::show_table();
            }
            Err(e) => {
                error.set(Some(ctx.form_error(&e)));
                ctx.share_open.set(true);
            }
        }
    };
    view! {
        <form class="play-roll" on:submit=submit>
            <label>
                {ctx.tr(Key::RollToPlay)}
                " "
                <input
                    type="text"
                    placeholder=ctx.tr(Key::RollExample)
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
            </label>
            <button type="submit" disabled=move || game.with(|g| g.round.is_running()) title=move || game.with(|g| g.round.is_running()).then(|| ctx.t(Key::SettleFirst, &[])) >{ctx.tr(Key::PlayThisRoll)}</button>
            <p class="field-error" role="alert">{move || error.get()}</p>
        </form>
    }
}
