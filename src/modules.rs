//! The page's wasm modules fetched on demand: the class room (`score-room`) and the tools
//! (`score-tools`), each fetched the first time a player opens it, so the table's first load
//! doesn't carry them. A module and the page share only the page: the page's host renders
//! the module's root element and tells the module through window events when to mount into
//! it (`NAME:open`) and when to let go (`NAME:close`). A module whose script can't be
//! fetched is told to the host showing it then (`NAME:unreachable`), not only to the one that
//! asked (gone, if the player moved on meanwhile); one whose script ran but whose wasm
//! couldn't be fetched says so (`NAME:failed`) and starts again on `NAME:retry`.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// A module fetched on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnDemand {
    /// Its name, the prefix of its events.
    pub name: &'static str,
    /// Its entry script (copied into dist/ from static/).
    pub script: &'static str,
}

/// The class room.
pub const ROOM: OnDemand = OnDemand { name: "score-room", script: "room-boot.js" };
/// Experiment, Impossible rolls, Worksheets and Rules.
pub const TOOLS: OnDemand = OnDemand { name: "score-tools", script: "tools-boot.js" };

/// How far a module has come.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Its script is not on the page (never asked for, or it couldn't be fetched).
    Absent,
    /// Its script is on the page: loading, or running.
    Asked,
    /// Its script ran but its wasm couldn't be fetched; it starts again on `NAME:retry`.
    Stalled,
}

thread_local! {
    /// Each module's stage, by name (absent when not listed).
    static STAGES: RefCell<Vec<(&'static str, Stage)>> = const { RefCell::new(Vec::new()) };
}

impl OnDemand {
    fn stage(self) -> Stage {
        STAGES.with_borrow(|s| s.iter().find(|(n, _)| *n == self.name).map_or(Stage::Absent, |(_, st)| *st))
    }

    /// Sets its stage; `true` the first time (a module is listed once its script is asked for).
    fn set_stage(self, stage: Stage) -> bool {
        STAGES.with_borrow_mut(|s| match s.iter_mut().find(|(n, _)| *n == self.name) {
            Some(entry) => {
                entry.1 = stage;
                false
            }
            None => {
                s.push((self.name, stage));
                true
            }
        })
    }

    /// The name of its event `what` (`open`, `close`, `failed`, `retry`, …).
    pub fn event(self, what: &str) -> String {
        format!("{}:{what}", self.name)
    }

    /// Tells the module (or the page) `what`.
    pub fn dispatch(self, what: &str) {
        if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new(&self.event(what))) {
            let _ = w.dispatch_event(&ev);
        }
    }

    /// Notes, for the page's whole life, when the module's wasm couldn't be fetched (even
    /// while its view is closed, so that opening it again starts the module again).
    fn watch(self) {
        listen_always(&self.event("failed"), move || {
            self.set_stage(Stage::Stalled);
        });
    }

    /// The module's side: `mount` on each `NAME:open`, `unmount` on each `NAME:close`, for
    /// the page's whole life.
    pub fn serve(self, mount: fn(), unmount: fn()) {
        listen_always(&self.event("open"), mount);
        listen_always(&self.event("close"), unmount);
    }

    /// Adds the module's script to the page; `NAME:unreachable` if it can't be fetched.
    fn request(self) -> Option<()> {
        let doc = web_sys::window()?.document()?;
        let script = doc.create_element("script").ok()?;
        script.set_attribute("type", "module").ok()?;
        script.set_attribute("src", self.script).ok()?;
        // Told to whichever host shows the module by then (the one that asked may be gone).
        let on_error = Closure::once_into_js(move || {
            self.set_stage(Stage::Absent);
            self.dispatch("unreachable");
        });
        script.add_event_listener_with_callback("error", on_error.unchecked_ref()).ok()?;
        doc.head()?.append_child(&script).ok()?;
        Some(())
    }

    /// Loads the module, starts it again, or (when it runs) asks it to mount.
    pub fn open(self, failed: RwSignal<bool>) {
        failed.set(false);
        match self.stage() {
            Stage::Absent => {
                if self.set_stage(Stage::Asked) {
                    self.watch();
                }
                if self.request().is_none() {
                    self.set_stage(Stage::Absent);
                    failed.set(true);
                }
            }
            Stage::Stalled => {
                self.set_stage(Stage::Asked);
                self.dispatch("retry");
            }
            Stage::Asked => self.dispatch("open"),
        }
    }

    /// For a host view: asks the module to mount once the view is on the page, sets `failed`
    /// when it can't load, and asks it to let go when the view goes.
    pub fn host(self, failed: RwSignal<bool>) {
        // Once the module's root is in the page (the module mounts itself into it when it starts).
        Effect::new(move |_| self.open(failed));
        let stalled = window_event_listener_untyped(&self.event("failed"), move |_| failed.set(true));
        let unreachable = window_event_listener_untyped(&self.event("unreachable"), move |_| failed.set(true));
        on_cleanup(move || {
            stalled.remove();
            unreachable.remove();
            self.dispatch("close");
        });
    }
}

/// Calls `f` on each window event `name`, for the page's whole life.
fn listen_always(name: &str, f: impl Fn() + 'static) {
    let Some(w) = web_sys::window() else { return };
    let f = Closure::<dyn Fn()>::new(f);
    let _ = w.add_event_listener_with_callback(name, f.as_ref().unchecked_ref());
    f.forget();
}
