use leptos::prelude::*;

use crate::app::use_ctx;
use crate::game::Slot;

/// The move being built: `[number] [operator] [number]`. Each slot is a drop
/// target; pressing a filled slot empties it.
#[component]
pub fn MoveSlots() -> impl IntoView {
    let game = use_ctx().game;
    let text = move |slot: Slot| {
        game.with(|g| match slot {
            Slot::Left => g.slots.left.and_then(|id| g.board.tile(id)).map(|t| t.value.to_string()),
            Slot::Right => g.slots.right.and_then(|id| g.board.tile(id)).map(|t| t.value.to_string()),
            Slot::Op => g.slots.op.map(|op| op.symbol().to_string()),
        })
    };
    let one = move |slot: Slot, name: &'static str| {
        view! {
            <button
                class=move || if text(slot).is_some() { "slot filled" } else { "slot" }
                data-slot=slot.key()
                aria-label=move || format!("{name}: {}", text(slot).unwrap_or_else(|| "empty".into()))
                on:click=move |_| game.update(|g| g.clear_slot(slot))
            >
                {move || text(slot).unwrap_or_else(|| "·".into())}
            </button>
        }
    };
    view! {
        <div class="slots" role="group" aria-label="Move">
            {one(Slot::Left, "Left number")}
            {one(Slot::Op, "Operator slot")}
            {one(Slot::Right, "Right number")}
        </div>
    }
}
