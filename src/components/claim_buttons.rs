use leptos::prelude::*;

use score_i18n::Key;

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
    let name = row.name.clone();
    let label = move |claim: Key| {
        let name = name.clone();
        move || name.as_ref().map(|n| table.t(Key::ClaimFor, &[("claim", &table.t(claim, &[])), ("name", n)]))
    };
    view! {
        <button
            class="claim score"
            aria-label=label(Key::ClaimScore)
            disabled=move || !claims.with(|c| c.score_ok)
            on:click=move |_| table.act(Act::Score(player))
        >
            {table.tr(Key::ClaimScore)}
        </button>
        <button
            class="claim impossible"
            aria-label=label(Key::ClaimImpossible)
            disabled=move || !claims.with(|c| c.impossible_ok)
            on:click=move |_| table.act(Act::Impossible(player))
        >
            {table.tr(Key::ClaimImpossible)}
        </button>
    }
}
