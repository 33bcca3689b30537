use leptos::prelude::*;

use score_i18n::Key;

use crate::components::LanguagePicker;
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
        if let Err(notice) = storage::save(storage::HELP_KEY, &true) {
            ctx.notice(notice);
        }
    };
    view! {
        <Show when=move || open.get()>
            <section class="help-card" aria-labelledby="help-title">
                <h2 id="help-title" tabindex="-1">{ctx.tr(Key::HelpTitle)}</h2>
                <LanguagePicker/>
                <ol>
                    <li>{ctx.tr(Key::HelpMove)}</li>
                    <li>{move || ctx.t(Key::HelpRed, &[("goal", &goal())])}</li>
                    <li>{ctx.tr(Key::HelpMoves)}</li>
                    <li>{score_step}</li>
                </ol>
                <button class="primary" on:click=dismiss>{ctx.tr(Key::GotIt)}</button>
            </section>
        </Show>
    }
}
