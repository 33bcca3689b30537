use leptos::prelude::*;
use score_engine::round::Phase;

use crate::app::use_ctx;
use crate::hooks::use_clock::now_ms;

/// SCORE and IMPOSSIBLE for one player; `name` (in a match) goes into their accessible names.
#[component]
pub fn ClaimButtons(
    /// The player (0 in solitaire).
    player: usize,
    /// The player's name in a match.
    name: Option<String>,
) -> impl IntoView {
    let game = use_ctx().game;
    let phase = Memo::new(move |_| game.with(|g| g.round.phase()));
    let label = move |claim: &str| name.as_ref().map(|n| format!("{claim} for {n}"));
    view! {
        <button
            class="claim score"
            aria-label=label("SCORE")
            disabled=move || !matches!(phase.get(), Phase::Open | Phase::Impossible(_))
            on:click=move |_| game.update(|g| g.press_score(player, now_ms()))
        >
            "SCORE"
        </button>
        <button
            class="claim impossible"
            aria-label=label("IMPOSSIBLE")
            disabled=move || !matches!(phase.get(), Phase::Open)
            on:click=move |_| game.update(|g| g.press_impossible(player, now_ms()))
        >
            "IMPOSSIBLE"
        </button>
    }
}
