use leptos::prelude::*;

use score_engine::Op;
use score_i18n::Key;

use crate::hooks::use_drag::Payload;
use crate::table::{use_table, Act};

/// The operators of the current rules; press one (or type + - * / |) or drag it to the slot.
#[component]
pub fn OpPalette() -> impl IntoView {
    let table = use_table();
    let drag = table.drag;
    let ops = Memo::new(move |_| table.desk.with(|d| d.ops.clone()));
    view! {
        <div class="ops" role="group" aria-label=table.tr(Key::Operators)>
            <For each=move || ops.get() key=|op| super::list_key(op) let:op>
                <button
                    class=move || {
                        let chosen = table.desk.with(|d| d.slots.op == Some(op));
                        let dragging = drag.offset(Payload::Op(op)).is_some();
                        format!("op{}{}", if chosen { " placed" } else { "" }, if dragging { " dragging" } else { "" })
                    }
                    aria-label=move || table.t(Key::Operator, &[("op", &table.t(op_name(op), &[]))])
                    style:transform=move || drag.offset(Payload::Op(op))
                    on:pointerdown=move |ev| drag.start(Payload::Op(op), &ev)
                    on:click=move |_| {
                        if !drag.take_click() {
                            table.act(Act::PlaceOp(op));
                        }
                    }
                >
                    {move || table.signs(op.symbol())}
                </button>
            </For>
        </div>
    }
}

/// The name of `op`, as a screen reader says it ("plus").
pub fn op_name(op: Op) -> Key {
    match op {
        Op::Add => Key::OpAdd,
        Op::Sub => Key::OpSub,
        Op::Mul => Key::OpMul,
        Op::Div => Key::OpDiv,
        Op::Concat => Key::OpConcat,
        Op::Pow => Key::OpPow,
    }
}
