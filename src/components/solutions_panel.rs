use leptos::prelude::*;
use score_engine::solve::{difficulty, solutions_up_to, Puzzle};

use crate::app::use_ctx;
use crate::components::SolutionList;

/// Most solutions listed: five or six dice can have thousands, which take seconds to find.
pub const LIST_LIMIT: usize = 300;

/// Every distinct solution of the current roll; hidden while a SCORE clock runs.
#[component]
pub fn SolutionsPanel() -> impl IntoView {
    let game = use_ctx().game;
    let puzzle = Memo::new(move |_| game.with(|g| Puzzle::from_roll(&g.roll, &g.rules)));
    let hidden = Memo::new(move |_| game.with(|g| g.round.score_running()));
    let listed = Memo::new(move |_| puzzle.with(|p| (solutions_up_to(p, LIST_LIMIT), difficulty(p))));
    view! {
        <div class="panel" aria-label="Solutions">
            <h2>"Solutions"</h2>
            <Show
                when=move || !hidden.get()
                fallback=|| view! { <p class="muted">"Solutions are hidden while the SCORE clock runs."</p> }
            >
                <p class="difficulty">
                    {move || match listed.with(|l| l.1) {
                        Some(d) => format!("Difficulty {d} of 5"),
                        None => "This roll has no solution.".into(),
                    }}
                </p>
                {move || view! { <SolutionList solutions=listed.with(|l| l.0.clone())/> }}
                <Show when=move || listed.with(|l| l.0.len() >= LIST_LIMIT)>
                    <p class="muted">{format!("Listing stops at the first {LIST_LIMIT} distinct solutions found.")}</p>
                </Show>
            </Show>
        </div>
    }
}
