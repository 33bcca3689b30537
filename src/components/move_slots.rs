use leptos::prelude::*;

use score_i18n::Key;

use crate::components::op_palette::op_name;
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
            Slot::Op => d.slots.op.map(|op| table.signs(op.symbol())),
        })
    };
    let one = move |slot: Slot, name: Key| {
        view! {
            <button
                class=move || if text(slot).is_some() { "slot filled" } else { "slot" }
                data-slot=slot.key()
                aria-label=move || {
                    let name = table.t(name, &[]);
                    // An operator by its name ("minus"): a screen reader may say nothing for · or :.
                    let heard = match slot {
                        Slot::Op => table.desk.with(|d| d.slots.op).map(|op| table.t(op_name(op), &[])),
                        _ => text(slot),
                    };
                    match heard {
                        Some(number) => table.t(Key::SlotFilled, &[("name", &name), ("number", &number)]),
                        None => table.t(Key::SlotEmpty, &[("name", &name)]),
                    }
                }
                on:click=move |_| table.act(Act::ClearSlot(slot))
            >
                // An empty slot shows nothing (its dashed box): a dot would read as · for ×.
                {move || text(slot).unwrap_or_else(|| "\u{a0}".into())}
            </button>
        }
    };
    view! {
        <div class="slots" role="group" aria-label=table.tr(Key::Move)>
            {one(Slot::Left, Key::SlotLeft)}
            {one(Slot::Op, Key::SlotOp)}
            {one(Slot::Right, Key::SlotRight)}
        </div>
    }
}
