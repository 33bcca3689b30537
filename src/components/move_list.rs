use leptos::prelude::*;

use score_i18n::Key;

use crate::table::use_table;

/// The working of this roll so far, one move per line.
#[component]
pub fn MoveList() -> impl IntoView {
    let table = use_table();
    let lines = Memo::new(move |_| table.desk.with(|d| d.moves.clone()));
    view! {
        <ol class="moves" aria-label=table.tr(Key::Moves)>
            <For each=move || lines.get().into_iter().enumerate() key=|(i, l)| super::list_key((i, l)) let:item>
                <li>{move || table.signs(&item.1)}</li>
            </For>
        </ol>
    }
}
