use leptos::prelude::*;

use crate::table::{use_table, Act, Slot};

/// The move being built: `[number] [operator] [number]`. Each slot is a drop
/// target; pressing a filled slot empties it.
#[component]
pub fn MoveSlots() -> impl IntoView {
    let table = use_table();
    let text = move |slot: Slot| {
        table.desk.with(|d| match slot {
            Slot::Left => d.slots.left.and_then(|id| d.text(id)),
            Slot::Right => d.slots.right.and_then(|id| d.text(id)),
            Slot::Op => d.slots.op.map(|op| op.symbol().to_string()),
        })
    };
    let one = move |slot: Slot, name: &'static str| {
        view! {
            <button
                class=move || if text(slot).is_some() { "slot filled" } else { "slot" }
                data-slot=slot.key()
                aria-label=move || format!("{name}: {}", text(slot).unwrap_or_else(|| "empty".into()))
                on:click=move |_| table.act(Act::ClearSlot(slot))
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
