use leptos::prelude::*;

use crate::app::use_ctx;

/// The working of this roll so far, one move per line.
#[component]
pub fn MoveList() -> impl IntoView {
    let game = use_ctx().game;
    let lines = Memo::new(move |_| game.with(|g| g.moves().iter().map(|m| m.step().to_string()).collect::<Vec<_>>()));
    view! {
        <ol class="moves" aria-label="Moves">
            <For each=move || lines.get().into_iter().enumerate() key=|(i, l)| (*i, l.clone()) let:item>
                <li>{item.1}</li>
            </For>
        </ol>
    }
}
