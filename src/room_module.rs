//! How a class room module starts: the whole one (`score-room`: the forms, the student's
//! table and the host's screen) and the student's (`score-join`: what an invite needs,
//! without the host's screen). Each mounts its page into `#room-root`. On a room's link the
//! first of them on the page (`<html data-start="room">`, from the boot script) draws the
//! page itself ([`RoomAlone`]) and mounts into it, and no app runs. The whole module also
//! serves the app's Class room view (`score-room:open` and `:close`), and says when it mounts
//! (`score-room:mounting`), so that a student's module that handed it the page lets go.

use std::any::Any;
use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::{RoomAlone, ROOM_START};
use crate::modules::ROOM;

/// A module's page in `#room-root`: the invite's code and a host link's token, as the root
/// names them.
pub type Page = fn(Option<String>, Option<String>) -> AnyView;

thread_local! {
    /// The mounted view; dropping it unmounts the view.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// The module's page.
    static PAGE: Cell<Option<Page>> = const { Cell::new(None) };
    /// Whether it is the whole module (it serves the app, and says when it mounts).
    static WHOLE: Cell<bool> = const { Cell::new(false) };
}

/// The event the whole module says as it mounts into `#room-root`.
const MOUNTING: &str = "mounting";

fn unmount() {
    // Taken out first: unmounting runs the view's cleanups, which must not find it borrowed.
    let old = MOUNTED.with_borrow_mut(Option::take);
    drop(old);
}

fn mount() {
    unmount();
    let Some(page) = PAGE.get() else { return };
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("room-root")) else {
        return;
    };
    let Ok(root) = root.dyn_into::<web_sys::HtmlElement>() else { return };
    let invite = root.get_attribute("data-invite").filter(|c| !c.is_empty());
    let host = root.get_attribute("data-host").filter(|h| !h.is_empty());
    if WHOLE.get() {
        // A student's module in the root lets go first.
        ROOM.dispatch(MOUNTING);
    }
    let handle = leptos::mount::mount_to(root, move || page(invite.clone(), host.clone()));
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
    let link = crate::forms::room_link(&query, &fragment).unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <RoomAlone link=link.clone()/> });
    true
}

/// Starts a room module whose page is `page`; `whole` for the whole module.
pub fn start(page: Page, whole: bool) {
    crate::crash::install_panic_hook();
    PAGE.set(Some(page));
    WHOLE.set(whole);
    if whole {
        ROOM.serve(mount, unmount);
    } else {
        // The student's module lets the whole one have the root it handed over.
        let _ = window_event_listener_untyped(&ROOM.event(MOUNTING), |_| unmount());
    }
    let alone = take_page();
    mount();
    if alone {
        crate::offline::drawn();
    }
}
