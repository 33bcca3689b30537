//! The class room as its own wasm module, loaded by the app's `RoomHost` the first time a
//! player opens a room. It mounts into `#room-root` at once if it is on the page,
//! again on `score-room:open`, and unmounts (closing the room's socket) on `score-room:close`.
//! On a room's link it is the page's first module (`<html data-start="room">`, from the boot
//! script): it draws the page itself ([`RoomAlone`]) and mounts into it, and no app runs.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;
use score_app::components::{RoomAlone, RoomPanel, ROOM_START};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The mounted view; dropping it unmounts the view.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

fn unmount() {
    // Taken out first: unmounting runs the view's cleanups, which must not find it borrowed.
    let old = MOUNTED.with_borrow_mut(Option::take);
    drop(old);
}

fn mount() {
    unmount();
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("room-root")) else {
        return;
    };
    let Ok(root) = root.dyn_into::<web_sys::HtmlElement>() else { return };
    let invite = root.get_attribute("data-invite").filter(|c| !c.is_empty());
    let host = root.get_attribute("data-host").filter(|h| !h.is_empty());
    let handle = leptos::mount::mount_to(root, move || view! { <RoomPanel invite=invite.clone() host=host.clone()/> });
    MOUNTED.with_borrow_mut(|m| *m = Some(Box::new(handle)));
}

/// Draws the page for the room, when the room's link started this module alone; `true` then.
fn take_page() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return false };
    let alone = doc.document_element().and_then(|e| e.get_attribute(ROOM_START)).is_some_and(|s| s == "room");
    if !alone || doc.get_element_by_id("room-root").is_some() {
        return false;
    }
    let location = doc.location();
    let query = location.as_ref().and_then(|l| l.search().ok()).unwrap_or_default();
    let fragment = location.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    // The boot script reads a room's link as `room_link` does; the room's forms otherwise.
    let link = score_app::forms::room_link(&query, &fragment).unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <RoomAlone link=link.clone()/> });
    true
}

fn main() {
    score_app::crash::install_panic_hook();
    score_app::modules::ROOM.serve(mount, unmount);
    let alone = take_page();
    mount();
    if alone {
        score_app::offline::drawn();
    }
}
