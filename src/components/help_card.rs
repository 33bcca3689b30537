use leptos::prelude::*;

use score_i18n::Key;

use crate::ctx::use_ctx;
use crate::storage;

/// "How to play" in three steps: shown on a first visit until dismissed, reopened from the Rules view.
#[component]
pub fn HelpCard() -> impl IntoView {
    let ctx = use_ctx();
    let open = ctx.help_open;
    let goal = move || ctx.game.with(|g| g.rules.goal.to_string());
    let score_step = move || {
        let secs = ctx.game.with(|g| g.rules.score_secs);
        ctx.count(Key::HelpClaims, u64::from(secs), &[])
    };
    let dismiss = move |_| {
        open.set(false);
        if let Err(msg) = storage::save(storage::HELP_KEY, &true) {
            ctx.notices.update(|n| {
                if !n.contains(&msg) {
                    n.push(msg);
                }
            });
        }
    };
    view! {
        <Show when=move || open.get()>
            <section class="help-card" aria-labelledby="help-title">
                <h2 id="help-title" tabindex="-1">{move || ctx.t(Key::HelpTitle, &[])}</h2>
                <ol>
                    <li>{move || ctx.t(Key::HelpMove, &[])}</li>
                    <li>{move || ctx.t(Key::HelpRed, &[("goal", &goal())])}</li>
                    <li>{move || ctx.t(Key::HelpMoves, &[])}</li>
                    <li>{score_step}</li>
                </ol>
                <button class="primary" on:click=dismiss>{move || ctx.t(Key::GotIt, &[])}</button>
            </section>
        </Show>
    }
}
