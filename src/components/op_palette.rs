use leptos::prelude::*;

use crate::app::use_ctx;
use crate::hooks::use_clock::now_ms;
use crate::hooks::use_drag::Payload;

/// The operators of the current rules; press one (or type + - * / |) or drag it to the slot.
#[component]
pub fn OpPalette() -> impl IntoView {
    let ctx = use_ctx();
    let (game, drag) = (ctx.game, ctx.drag);
    let ops = Memo::new(move |_| game.with(|g| g.rules.ops.iter().collect::<Vec<_>>()));
    view! {
        <div class="ops" role="group" aria-label="Operators">
            <For each=move || ops.get() key=|op| *op let:op>
                <button
                    class=move || {
                        let chosen = game.with(|g| g.slots.op == Some(op));
                        let dragging = drag.offset(Payload::Op(op)).is_some();
                        format!("op{}{}", if chosen { " placed" } else { "" }, if dragging { " dragging" } else { "" })
                    }
                    aria-label=format!("Operator {}", op.name())
                    style:transform=move || drag.offset(Payload::Op(op))
                    on:pointerdown=move |ev| drag.start(Payload::Op(op), &ev)
                    on:click=move |_| {
                        if !drag.take_click() {
                            game.update(|g| g.place_op(op, now_ms()));
                        }
                    }
                >
                    {op.symbol()}
                </button>
            </For>
        </div>
    }
}
