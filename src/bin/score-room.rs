//! The class room as its own wasm module, loaded by the app's `RoomHost` the first time a
//! player opens a room. It mounts into `#room-root` at once if it is on the page,
//! again on `score-room:open`, and unmounts (closing the room's socket) on `score-room:close`.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;
use score_app::components::RoomPanel;
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

fn main() {
    score_app::crash::install_panic_hook();
    score_app::modules::ROOM.serve(mount, unmount);
    mount();
}
