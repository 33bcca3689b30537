use leptos::prelude::*;
use score_engine::solve::{difficulty, solutions_up_to, Puzzle};

use crate::app::use_ctx;
use crate::components::SolutionList;
use crate::hooks::use_clock::now_ms;

/// Most solutions listed: five or six dice can have thousands, which take seconds to find.
pub const LIST_LIMIT: usize = 300;

/// Every distinct solution of the current roll, with its difficulty: shown once the roll
/// is settled or the player asks (which makes an unsettled roll practice), never before.
#[component]
pub fn SolutionsPanel() -> impl IntoView {
    let game = use_ctx().game;
    let shown = Memo::new(move |_| game.with(|g| g.solutions_shown.then(|| (g.roll.clone(), g.rules.clone()))));
    let running = Memo::new(move |_| game.with(|g| g.round.is_running()));
    let settled = Memo::new(move |_| game.with(|g| g.round.is_over()));
    // Solved only when shown, so nothing about the roll is even computed for the page before.
    let listed = Memo::new(move |_| {
        shown.with(|s| {
            s.as_ref().map(|(roll, rules)| {
                let p = Puzzle::from_roll(roll, rules);
                (solutions_up_to(&p, LIST_LIMIT), difficulty(&p))
            })
        })
    });
    let error = RwSignal::new(None::<String>);
    let ask = move |_| game.update(|g| error.set(g.show_solutions(now_ms()).err()));
    view! {
        <div class="panel" aria-label="Solutions">
            <h2>"Solutions"</h2>
            {move || match listed.get() {
                Some((list, level)) => {
                    let full = list.len() >= LIST_LIMIT;
                    view! {
                        <p class="difficulty">
                            {match level {
                                Some(d) => format!("Difficulty {d} of 5"),
                                None => "This roll has no solution.".into(),
                            }}
                        </p>
                        <SolutionList solutions=list/>
                        {full.then(|| view! {
                            <p class="muted">{format!("Listing stops at the first {LIST_LIMIT} distinct solutions found.")}</p>
                        })}
                    }
                        .into_any()
                }
                None if running.get() => {
                    view! { <p class="muted">"Solutions stay hidden while a clock runs."</p> }.into_any()
                }
                None => {
                    view! {
                        <p class="muted">
                            "The solutions appear once this roll is settled: a claim judged, a SCORE made or failed, or the goal made."
                        </p>
                        <button on:click=ask>"Show solutions"</button>
                        {move || (!settled.get()).then(|| view! {
                            <p class="muted">"Showing them now makes this roll practice: it scores nothing."</p>
                        })}
                        <p class="field-error" role="alert">{move || error.get()}</p>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
