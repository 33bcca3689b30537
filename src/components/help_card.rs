use leptos::prelude::*;

use crate::ctx::use_ctx;
use crate::storage;

/// "How to play" in three steps: shown on a first visit until dismissed, reopened from the Rules view.
#[component]
pub fn HelpCard() -> impl IntoView {
    let ctx = use_ctx();
    let open = ctx.help_open;
    let goal = move || ctx.game.with(|g| g.rules.goal);
    let score_step = move || {
        ctx.game.with(|g| {
            format!(
                "Press SCORE when you see a way ({} seconds to make it), IMPOSSIBLE when you think there is none.",
                g.rules.score_secs
            )
        })
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
                <h2 id="help-title" tabindex="-1">"How to play"</h2>
                <ol>
                    <li>"Drag or tap two numbers and an operator into the slots: that is one move."</li>
                    <li>
                        "Each move's result comes back red, marked ◆. The goal, " {goal}
                        ", only counts when a move with a red number makes it."
                    </li>
                    <li>
                        "Two or three moves make it: you don't need every die. ‖ joins two numbers: 2‖0 is 20."
                    </li>
                    <li>{score_step}</li>
                </ol>
                <button class="primary" on:click=dismiss>"Got it"</button>
            </section>
        </Show>
    }
}
