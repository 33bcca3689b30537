//! Dragging numbers and operators into the move slots with pointer events,
//! so mouse, pen and touch all work (HTML5 drag-and-drop does not on phones).
//!
//! A drag starts on `pointerdown` on a tile, follows the pointer through
//! window listeners, and on `pointerup` finds the slot under the pointer with
//! `elementFromPoint`; the drop only dispatches, and the game decides whether
//! the move is legal. A press that does not move is left to `click`, so
//! tapping and the keyboard share one path.

use leptos::ev;
use leptos::prelude::*;
use score_engine::{Op, TileId};

use crate::slots::Slot;

/// What is being dragged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payload {
    /// A number tile.
    Tile(TileId),
    /// An operator.
    Op(Op),
}

/// A drag in progress.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drag {
    /// What is dragged.
    pub payload: Payload,
    /// Where the pointer went down.
    pub start: (f64, f64),
    /// Where it is now.
    pub at: (f64, f64),
    /// Whether it has moved far enough to count as a drag.
    pub moved: bool,
}

/// Drag state shared by the draggable items.
#[derive(Debug, Clone, Copy)]
pub struct DragState {
    /// The drag in progress.
    pub drag: RwSignal<Option<Drag>>,
    /// Set when a drag ends, so the click that may follow does not count as a tap.
    pub swallow_click: StoredValue<bool>,
}

impl DragState {
    /// Begins a possible drag.
    pub fn start(&self, payload: Payload, ev: &ev::PointerEvent) {
        if !ev.is_primary() || ev.button() > 0 {
            return;
        }
        self.swallow_click.set_value(false);
        let p = (ev.client_x() as f64, ev.client_y() as f64);
        self.drag.set(Some(Drag { payload, start: p, at: p, moved: false }));
    }

    /// Whether a click should be ignored because it ends a drag.
    pub fn take_click(&self) -> bool {
        let swallow = self.swallow_click.get_value();
        self.swallow_click.set_value(false);
        swallow
    }

    /// The CSS transform for an item while it is dragged.
    pub fn offset(&self, payload: Payload) -> Option<String> {
        self.drag.with(|d| match d {
            Some(d) if d.payload == payload && d.moved => Some(format!(
                "translate({}px, {}px)",
                (d.at.0 - d.start.0).round() as i64,
                (d.at.1 - d.start.1).round() as i64
            )),
            _ => None,
        })
    }
}

fn slot_at(x: f64, y: f64) -> Option<Slot> {
    let el = document().element_from_point(x as f32, y as f32)?;
    let slot = el.closest("[data-slot]").ok().flatten()?;
    Slot::from_key(&slot.get_attribute("data-slot")?)
}

/// Creates the drag state and its window listeners; `on_drop` gets the slot under the pointer.
pub fn use_drag(on_drop: impl Fn(Payload, Slot) + 'static) -> DragState {
    let state = DragState { drag: RwSignal::new(None), swallow_click: StoredValue::new(false) };
    let on_drop = std::rc::Rc::new(on_drop);
    let drag = state.drag;
    let moving = window_event_listener(ev::pointermove, move |ev| {
        if drag.with_untracked(Option::is_none) {
            return;
        }
        drag.update(|d| {
            if let Some(d) = d {
                d.at = (ev.client_x() as f64, ev.client_y() as f64);
                let (dx, dy) = (d.at.0 - d.start.0, d.at.1 - d.start.1);
                d.moved |= dx * dx + dy * dy > 36.0;
            }
        });
    });
    let end = move |ev: ev::PointerEvent, drop: bool, on_drop: &dyn Fn(Payload, Slot)| {
        let Some(d) = drag.get_untracked() else {
            return;
        };
        drag.set(None);
        if d.moved {
            state.swallow_click.set_value(true);
            if drop {
                if let Some(slot) = slot_at(ev.client_x() as f64, ev.client_y() as f64) {
                    on_drop(d.payload, slot);
                }
            }
        }
    };
    let up = window_event_listener(ev::pointerup, move |ev| end(ev, true, &*on_drop));
    let cancel = window_event_listener(ev::pointercancel, move |ev| end(ev, false, &|_, _| {}));
    // The listeners go with the table that made them (a room's table comes and goes).
    on_cleanup(move || {
        moving.remove();
        up.remove();
        cancel.remove();
    });
    state
}
