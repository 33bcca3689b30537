use leptos::ev;
use leptos::prelude::*;
use score_engine::{Expr, Op};

use crate::app::{next_roll, use_ctx};
use crate::components::{DifficultySelect, MoveList, MoveSlots, NumberTile, OpPalette, PlayRollForm};
use crate::game::Slot;
use crate::hooks::use_clock::now_ms;

/// A tile as rendered: everything the view needs, nothing more.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TileView {
    key: (u64, u32),
    id: score_engine::TileId,
    text: String,
    red: bool,
    die: Option<u32>,
    working: String,
}

/// The table: goal, numbers, move slots, operators, working and the controls.
#[component]
pub fn TableView() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    let tiles = Memo::new(move |_| {
        game.with(|g| {
            g.board
                .tiles()
                .iter()
                .map(|t| TileView {
                    key: (g.roll_count, t.id.0),
                    id: t.id,
                    text: t.value.to_string(),
                    red: t.red,
                    die: match t.expr {
                        Expr::Leaf { slot, .. } if !t.red => g.rules.dice.get(slot).copied(),
                        _ => None,
                    },
                    working: t.expr.to_string(),
                })
                .collect::<Vec<_>>()
        })
    });
    let rolling = RwSignal::new(false);
    let roll_count = Memo::new(move |_| game.with(|g| g.roll_count));
    Effect::new(move |prev: Option<u64>| {
        let c = roll_count.get();
        if prev.is_some_and(|p| p != c) {
            rolling.set(true);
            gloo_timers::callback::Timeout::new(450, move || rolling.set(false)).forget();
        }
        c
    });

    // A move removes the focused tile: hand focus to the new red number so keyboard play goes on.
    let move_count = Memo::new(move |_| game.with(|g| g.moves().len()));
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
            game.update(|g| {
                for s in [Slot::Left, Slot::Op, Slot::Right] {
                    g.clear_slot(s);
                }
            });
            return;
        }
        if let Some(op) = Op::from_symbol(&key) {
            if game.with_untracked(|g| g.rules.ops.contains(op)) {
                ev.prevent_default();
                game.update(|g| g.place_op(op, now_ms()));
            }
        }
    };

    // Practice: "New roll" can pick rolls of one difficulty; the tag shows the level chosen
    // (the player asked for it), never anything the solver says about this roll.
    let level = ctx.level;
    let new_roll = move |_| next_roll(ctx);
    let difficulty_text = move || game.with(|g| g.level.map(|l| format!("Difficulty {l} of 5")));
    let difficulty = Memo::new(move |_| game.with(|g| (g.roll.clone(), g.rules.clone())));
    let share_open = ctx.share_open;
    let share = Memo::new(move |_| {
        let (roll, rules) = difficulty.get();
        let here = web_sys::window()
            .and_then(|w| {
                let l = w.location();
                Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
            })
            .unwrap_or_default();
        format!("{here}{}", crate::forms::link_query(&rules, &roll))
    });

    view! {
        <div class="table" on:keydown=on_key>
            <p class="goal">
                "Goal " <span class="goal-value" data-testid="goal">{move || game.with(|g| g.rules.goal)}</span>
                <span class="difficulty-tag" data-testid="difficulty">{difficulty_text}</span>
                <span class="daily-tag">{move || game.with(|g| g.daily.map(|_| "Daily puzzle"))}</span>
            </p>
            <div
                class=move || if rolling.get() { "pool rolling" } else { "pool" }
                role="group"
                aria-label="Numbers"
            >
                <For each=move || tiles.get() key=|t| t.key let:t>
                    <NumberTile id=t.id text=t.text red=t.red die=t.die working=t.working/>
                </For>
            </div>
            <MoveSlots/>
            <OpPalette/>
            <p class="move-error" role="alert">{move || game.with(|g| g.message.clone())}</p>
            <MoveList/>
            <div class="controls">
                <button
                    on:click=move |_| game.update(|g| g.undo())
                    disabled=move || game.with(|g| g.moves().is_empty())
                >
                    "Undo"
                </button>
                <button
                    on:click=move |_| game.update(|g| g.clear())
                    disabled=move || game.with(|g| g.moves().is_empty())
                >
                    "Clear"
                </button>
                <button
                    on:click=move |_| game.update(|g| g.show_hint(now_ms()))
                    disabled=move || game.with(|g| g.round.is_running())
                >
                    "Hint"
                </button>
                <button class="primary" on:click=new_roll>
                    "New roll"
                </button>
                <DifficultySelect label="Practice " any="any roll" level=level/>
            </div>
            <p class="hint" role="status">{move || game.with(|g| g.hint.clone())}</p>
            <details
                class="share-roll"
                prop:open=move || share_open.get()
                on:toggle=move |ev| {
                    if let Some(d) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                        share_open.set(d.has_attribute("open"));
                    }
                }
            >
                <summary>"Share or play a roll"</summary>
                <p class="share">
                    <label>
                        "Link to this roll "
                        <input type="text" readonly prop:value=move || share.get() on:focus=move |ev| {
                            if let Some(input) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
                                input.select();
                            }
                        }/>
                    </label>
                </p>
                <PlayRollForm/>
            </details>
        </div>
    }
}
