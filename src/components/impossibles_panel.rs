use leptos::prelude::*;
use score_engine::solve::impossible_rolls;

use crate::app::use_ctx;
use crate::game::roll_text;
use crate::hooks::use_clock::now_ms;

/// The rolls of the current dice and goal that have no solution, and the chance of one.
#[component]
pub fn ImpossiblesPanel() -> impl IntoView {
    let game = use_ctx().game;
    let outcome = RwSignal::new(None::<Result<(String, Vec<String>), String>>);
    let list = move |_| {
        // The list answers the table's roll too: before it is settled, that is asking.
        if game.with_untracked(|g| !g.solutions_shown) {
            let asked = game.try_update(|g| g.show_solutions(now_ms())).unwrap_or(Ok(()));
            if let Err(e) = asked {
                outcome.set(Some(Err(e)));
                return;
            }
        }
        let rules = game.with_untracked(|g| g.rules.clone());
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map_or(0.0, |p| p.now());
        let table = impossible_rolls(&rules);
        let ms = perf.as_ref().map_or(0.0, |p| p.now()) - t0;
        outcome.set(Some(table.map_err(|e| e.to_string()).map(|t| {
            let summary = format!(
                "{} impossible of {} rolls: a {:.2}% chance per roll (listed in {:.1} ms).",
                t.impossible.len(),
                t.rolls,
                t.probability() * 100.0,
                ms
            );
            (summary, t.impossible.iter().map(|r| roll_text(r)).collect())
        })));
    };
    view! {
        <div class="panel" aria-label="Impossible rolls">
            <h2>"Impossible rolls"</h2>
            <p>
                {move || {
                    game.with(|g| {
                        let dice: Vec<String> = g.rules.dice.iter().map(|s| format!("d{s}")).collect();
                        format!("Dice {} → {}", dice.join(" "), g.rules.goal)
                    })
                }}
            </p>
            <p class="muted">"Five or six dice have tens of thousands of rolls: listing them can take a few seconds."</p>
            {move || {
                game.with(|g| !g.solutions_shown)
                    .then(|| {
                        view! {
                            <p class="muted">
                                "The list tells whether the roll on the table has a solution: listing before it is settled makes that roll practice."
                            </p>
                        }
                    })
            }}
            <button class="primary" on:click=list>"List impossible rolls"</button>
            {move || match outcome.get() {
                None => ().into_any(),
                Some(Err(e)) => view! { <p class="field-error" role="alert">{e}</p> }.into_any(),
                Some(Ok((summary, rolls))) => {
                    view! {
                        <p data-testid="impossible-summary">{summary}</p>
                        <ul class="impossible-rolls">
                            {rolls.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                        </ul>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
