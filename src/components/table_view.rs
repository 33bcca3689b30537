use leptos::ev;
use leptos::prelude::*;
use score_engine::Op;
use score_i18n::Key;

use crate::components::{MoveList, MoveSlots, NumberTile, OpPalette};
use crate::table::{use_table, Act};

/// The table: goal, numbers, move slots, operators, working, Undo and Clear. It reads and
/// acts through the [`Table`](crate::table::Table) in context, whoever answers it: the local
/// game or a class room. `tags` go beside the goal, `children` beside Undo and Clear.
#[component]
pub fn TableView(
    /// Shown beside the goal (solitaire's practice and daily tags).
    #[prop(optional, into)]
    tags: ViewFn,
    /// More controls beside Undo and Clear.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let table = use_table();
    let desk = table.desk;
    let tiles = Memo::new(move |_| desk.with(|d| d.tiles.clone()));
    let rolling = RwSignal::new(false);
    let roll_count = Memo::new(move |_| desk.with(|d| d.roll_count));
    Effect::new(move |prev: Option<u64>| {
        let c = roll_count.get();
        if prev.is_some_and(|p| p != c) {
            rolling.set(true);
            gloo_timers::callback::Timeout::new(450, move || rolling.set(false)).forget();
        }
        c
    });

    // A move removes the focused tile: hand focus to the new red number so keyboard play goes on.
    let move_count = Memo::new(move |_| desk.with(|d| d.moves.len()));
    Effect::new(move |prev: Option<usize>| {
        let n = move_count.get();
        if prev.is_some_and(|p| n > p) {
            let doc = document();
            let lost = doc.active_element().is_none_or(|e| e.tag_name() == "BODY");
            if lost {
                if let Some(el) = doc.query_selector(".pool .tile:last-child").ok().flatten() {
                    let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
                }
            }
        }
        n
    });

    // Keyboard: operator keys fill the operator slot, Escape empties the slots.
    let on_key = move |ev: ev::KeyboardEvent| {
        let tag =
            ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()).map(|e| e.tag_name());
        if tag.as_deref() == Some("INPUT") {
            return;
        }
        let key = ev.key();
        if key == "Escape" {
            table.act(Act::ClearSlots);
            return;
        }
        if let Some(op) = Op::from_symbol(&key) {
            if desk.with_untracked(|d| d.ops.contains(&op)) {
                ev.prevent_default();
                table.act(Act::PlaceOp(op));
            }
        }
    };
    let no_moves = move || desk.with(|d| d.moves.is_empty());

    view! {
        <div class="table" on:keydown=on_key>
            <p class="goal">
                {move || {
                    let goal = desk.with(|d| crate::game::number(d.goal));
                    let (before, after) = table.words.with(|w| w.around(Key::Goal, "goal", &[]));
                    view! { {before} <span class="goal-value" data-testid="goal">{goal}</span> {after} }
                }}
                {tags.run()}
            </p>
            <div
                class=move || if rolling.get() { "pool rolling" } else { "pool" }
                role="group"
                aria-label=table.tr(Key::Numbers)
            >
                <For each=move || tiles.get() key=|t| super::list_key(t.key) let:t>
                    <NumberTile id=t.id text=t.text red=t.red die=t.die working=t.working/>
                </For>
            </div>
            <MoveSlots/>
            <OpPalette/>
            <p class="move-error" role="alert">{move || desk.with(|d| d.message.clone())}</p>
            <MoveList/>
            <div class="controls">
                <button on:click=move |_| table.act(Act::Undo) disabled=no_moves>
                    {table.tr(Key::Undo)}
                </button>
                <button on:click=move |_| table.act(Act::Clear) disabled=no_moves>
                    {table.tr(Key::Clear)}
                </button>
                {children.map(|c| c())}
            </div>
        </div>
    }
}
