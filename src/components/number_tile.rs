use leptos::prelude::*;
use score_engine::TileId;
use score_i18n::Key;

use crate::hooks::use_drag::Payload;
use crate::table::{use_table, Act};

/// One number on the table: a die or a red (derived) result.
/// Tap, Enter or Space places it in the first free slot; dragging drops it on a slot.
#[component]
pub fn NumberTile(
    /// The tile.
    id: TileId,
    /// Its value as text.
    text: String,
    /// Whether it was made by a move.
    red: bool,
    /// The die it came from, for dice.
    die: Option<u32>,
    /// How it was made, for the tooltip.
    working: String,
) -> impl IntoView {
    let table = use_table();
    let drag = table.drag;
    let payload = Payload::Tile(id);
    let placed = move || table.desk.with(|d| d.slots.left == Some(id) || d.slots.right == Some(id));
    let class = move || {
        let mut c = String::from("tile");
        if red {
            c.push_str(" red");
        }
        if let Some(s) = die {
            c.push_str(&format!(" d{s}"));
        }
        if placed() {
            c.push_str(" placed");
        }
        if drag.offset(payload).is_some() {
            c.push_str(" dragging");
        }
        c
    };
    // The accessible name comes from the content ("12 (d20)", "0 (derived)"), so it
    // always matches what is seen; the decorations are hidden from it.
    // What a screen reader hears: the number, and a derived number or the die it came from.
    let number = text.clone();
    let spoken = move || match (red, die) {
        (true, _) => table.t(Key::TileDerived, &[("number", &number)]),
        (false, Some(s)) => table.t(Key::TileDie, &[("number", &number), ("sides", &s.to_string())]),
        (false, None) => number.clone(),
    };
    let title = move || if red { table.signs(&working) } else { String::new() };
    view! {
        <button
            class=class
            title=title
            aria-pressed=move || placed().to_string()
            style:transform=move || drag.offset(payload)
            on:pointerdown=move |ev| drag.start(payload, &ev)
            on:click=move |_| {
                if !drag.take_click() {
                    table.act(Act::Tap(id));
                }
            }
        >
            <span class="value" aria-hidden="true">{text}</span>
            <span class="sr-only">{spoken}</span>
            {red.then(|| view! { <span class="marker" aria-hidden="true">"◆"</span> })}
            {die.map(|s| view! { <span class="die-type" aria-hidden="true">{format!("d{s}")}</span> })}
        </button>
    }
}
