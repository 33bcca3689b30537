//! Where a class room goes: the whole page, while the player is in it. The room is its own
//! wasm module (`score-room`), fetched the first time a player opens a room, so the table's
//! first load doesn't carry it. The two modules share only the page: this host renders
//! `#room-root` (with the link's code in `data-invite` and a host link's token in
//! `data-host`) and tells the room module through window events when to mount into it
//! (`score-room:open`) and when to let go (`score-room:close`); the room says when the
//! player leaves it (`score-room:left`).

use std::cell::Cell;

use leptos::prelude::*;
use score_i18n::Key;
use wasm_bindgen::prelude::*;

use crate::forms::RoomLink;

/// The room module's entry script (copied into dist/ from static/).
pub const ROOM_SCRIPT: &str = "room-boot.js";

/// How far the room module has come.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Module {
    /// Its script is not on the page (never asked for, or it couldn't be fetched).
    Absent,
    /// Its script is on the page: loading, or running.
    Asked,
    /// Its script ran but its wasm couldn't be fetched; it starts again on `score-room:retry`.
    Stalled,
}

thread_local! {
    static MODULE: Cell<Module> = const { Cell::new(Module::Absent) };
}

/// Notes, for the page's whole life, when the module's wasm couldn't be fetched (even while
/// the view is closed, so that opening it again starts the module again).
fn watch_module() {
    let Some(w) = web_sys::window() else { return };
    let on_failed = Closure::<dyn Fn()>::new(|| MODULE.set(Module::Stalled));
    let _ = w.add_event_listener_with_callback("score-room:failed", on_failed.as_ref().unchecked_ref());
    on_failed.forget();
}

fn dispatch(name: &str) {
    if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new(name)) {
        let _ = w.dispatch_event(&ev);
    }
}

/// Adds the room module's script to the page; `failed` is set if it can't be fetched.
fn request_module(failed: RwSignal<bool>) -> Option<()> {
    let doc = web_sys::window()?.document()?;
    let script = doc.create_element("script").ok()?;
    script.set_attribute("type", "module").ok()?;
    script.set_attribute("src", ROOM_SCRIPT).ok()?;
    let on_error = Closure::once_into_js(move || {
        MODULE.set(Module::Absent);
        failed.set(true);
    });
    script.add_event_listener_with_callback("error", on_error.unchecked_ref()).ok()?;
    doc.head()?.append_child(&script).ok()?;
    MODULE.set(Module::Asked);
    Some(())
}

/// Loads the module, starts it again, or (when it runs) asks it to mount.
fn open(failed: RwSignal<bool>) {
    failed.set(false);
    match MODULE.get() {
        Module::Absent => {
            thread_local!(static WATCHING: Cell<bool> = const { Cell::new(false) });
            if !WATCHING.replace(true) {
                watch_module();
            }
            if request_module(failed).is_none() {
                failed.set(true);
            }
        }
        Module::Stalled => {
            MODULE.set(Module::Asked);
            dispatch("score-room:retry");
        }
        Module::Asked => dispatch("score-room:open"),
    }
}

/// The class room's place: the page.
#[component]
pub fn RoomHost(
    /// The room the page was opened on (an empty code: the forms, or the seat kept).
    #[prop(optional)]
    link: RoomLink,
) -> impl IntoView {
    // The page's words (English where the page has none to give, as in a test).
    let words =
        use_context::<crate::ctx::Ctx>().map_or_else(|| RwSignal::new(score_i18n::Catalog::english()), |c| c.words);
    let tr = move |key: Key| move || words.with(|w| w.text(key, &[]));
    let RoomLink { code, host } = link;
    let invite = Some(code).filter(|c| !c.is_empty());
    let failed = RwSignal::new(false);
    // Once `#room-root` is in the page (the module mounts itself into it when it starts).
    Effect::new(move |_| open(failed));
    let stalled = window_event_listener_untyped("score-room:failed", move |_| failed.set(true));
    on_cleanup(move || {
        stalled.remove();
        dispatch("score-room:close");
    });
    view! {
        <div class="room-host">
            <div id="room-root" data-invite=invite data-host=host></div>
            <section class="panel room-loading" aria-label=tr(Key::TabRoom)>
                <h2>{tr(Key::TabRoom)}</h2>
                <p role="status">
                    {move || tr(if failed.get() { Key::RoomLoadFailed } else { Key::RoomLoading })()}
                </p>
                <Show when=move || failed.get()>
                    <button type="button" class="primary" on:click=move |_| open(failed)>
                        {tr(Key::TryAgain)}
                    </button>
                    <button type="button" on:click=move |_| dispatch("score-room:left")>
                        {tr(Key::BackToSolitaire)}
                    </button>
                </Show>
            </section>
        </div>
    }
}
