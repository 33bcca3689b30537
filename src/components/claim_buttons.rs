use leptos::prelude::*;

use crate::table::{use_table, Act, ClaimRow};

/// SCORE and IMPOSSIBLE for one player; a name (in a match) goes into their accessible names.
#[component]
pub fn ClaimButtons(
    /// The player's row of the claim bar.
    row: ClaimRow,
) -> impl IntoView {
    let table = use_table();
    let player = row.player;
    let claims = table.claims;
    let label = move |claim: &str| row.name.as_ref().map(|n| format!("{claim} for {n}"));
    view! {
        <button
            class="claim score"
            aria-label=label("SCORE")
            disabled=move || !claims.with(|c| c.score_ok)
            on:click=move |_| table.act(Act::Score(player))
        >
            "SCORE"
        </button>
        <button
            class="claim impossible"
            aria-label=label("IMPOSSIBLE")
            disabled=move || !claims.with(|c| c.impossible_ok)
            on:click=move |_| table.act(Act::Impossible(player))
        >
            "IMPOSSIBLE"
        </button>
    }
}
