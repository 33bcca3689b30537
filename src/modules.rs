//! The page's wasm modules fetched on demand: the class room (`score-room`) and the tools
//! (`score-tools`), each fetched the first time a player opens it, so the table's first load
//! doesn't carry them. A module and the page share only the page: the page's host renders
//! the module's root element and tells the module through window events when to mount into
//! it (`NAME:open`) and when to let go (`NAME:close`). A module whose script can't be
//! fetched is told to the host showing it then (`NAME:unreachable`), not only to the one that
//! asked (gone, if the player moved on meanwhile); one whose script ran but whose wasm
//! couldn't be fetched says so (`NAME:failed`) and starts again on `NAME:retry`. A module
//! of another build than the page (an old tab after an update) says so (`NAME:stale`, from its
//! boot script, which the page asks for as `SCRIPT?v=<build>`), and the host offers a reload.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// A module fetched on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnDemand {
    /// Its name, the prefix of its events.
    pub name: &'static str,
    /// Its entry script (written into dist/ by scripts/postbuild.py).
    pub script: &'static str,
}

/// The class room.
pub const ROOM: OnDemand = OnDemand { name: "score-room", script: "room-boot.js" };
/// Experiment, Impossible rolls, Worksheets and Rules.
pub const TOOLS: OnDemand = OnDemand { name: "score-tools", script: "tools-boot.js" };

/// A module's event when it is of another build than the page: trying again can't mend
/// that; a reload can.
pub const STALE: &str = "stale";

/// How far a module has come.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Its script is not on the page (never asked for, or it couldn't be fetched).
    Absent,
    /// Its script is on the page: loading, or running.
    Asked,
    /// Its script ran but its wasm couldn't be fetched; it starts again on `NAME:retry`.
    Stalled,
    /// Its script is of another build than the page: it started nothing, and only a reload
    /// mends that.
    Stale,
}

thread_local! {
    /// Each module's stage, by name (absent when not listed).
    static STAGES: RefCell<Vec<(&'static str, Stage)>> = const { RefCell::new(Vec::new()) };
    /// How many times each module's script was asked for on this page, by name.
    static ASKED: RefCell<Vec<(&'static str, u32)>> = const { RefCell::new(Vec::new()) };
}

/// The address a module's script is asked for at its `asked`-th time (from 0), of the page's
/// `build` (empty: none). A browser keeps a module script it couldn't fetch as failed, under
/// its address, for the page's whole life (Chromium 148 does), so each later ask is of a new
/// address (`try=N`); the module's boot script asks for its own files the same way (scripts/
/// module-boot.template.js). The service worker answers any of them offline from its copy.
pub fn script_address(script: &str, build: &str, asked: u32) -> String {
    let mut query = Vec::new();
    if !build.is_empty() {
        query.push(format!("v={build}"));
    }
    if asked > 0 {
        query.push(format!("try={asked}"));
    }
    if query.is_empty() {
        script.to_string()
    } else {
        format!("{script}?{}", query.join("&"))
    }
}

/// Forgets how far every module has come, as a new page would: for a test page that mounts
/// the app again and again (a module's stage is otherwise the page's for its whole life).
/// (How many times each script was asked for is kept: the browser keeps what failed.)
pub fn forget_stages() {
    STAGES.with_borrow_mut(Vec::clear);
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
    /// while its view is closed, so that opening it again starts the module again), and when
    /// it is of another build (so that opening it again says so again).
    fn watch(self) {
        listen_always(&self.event("failed"), move || {
            self.set_stage(Stage::Stalled);
        });
        listen_always(&self.event(STALE), move || {
            self.set_stage(Stage::Stale);
        });
    }

    /// The module's side: `mount` on each `NAME:open`, `unmount` on each `NAME:close`, for
    /// the page's whole life.
    pub fn serve(self, mount: fn(), unmount: fn()) {
        listen_always(&self.event("open"), mount);
        listen_always(&self.event("close"), unmount);
    }

    /// Counts an ask for the module's script; how many were made before it.
    fn count_ask(self) -> u32 {
        ASKED.with_borrow_mut(|a| match a.iter_mut().find(|(n, _)| *n == self.name) {
            Some(entry) => {
                entry.1 += 1;
                entry.1 - 1
            }
            None => {
                a.push((self.name, 1));
                0
            }
        })
    }

    /// Adds the module's script to the page; `NAME:unreachable` if it can't be fetched.
    fn request(self) -> Option<()> {
        let doc = web_sys::window()?.document()?;
        let script = doc.create_element("script").ok()?;
        script.set_attribute("type", "module").ok()?;
        // Of this page's build: no cache hands this page another build's copy.
        let asked = self.count_ask();
        let src = script_address(self.script, &crate::solver::page_build(), asked);
        script.set_attribute("src", &src).ok()?;
        // Told to whichever host shows the module by then (the one that asked may be gone).
        let on_error = Closure::once_into_js(move || {
            self.set_stage(Stage::Absent);
            self.dispatch("unreachable");
        });
        script.add_event_listener_with_callback("error", on_error.unchecked_ref()).ok()?;
        doc.head()?.append_child(&script).ok()?;
        Some(())
    }

    /// How far the room module came when a room's link started it alone and it didn't start
    /// (the boot script then started the app, and says so on `<html data-start>`): its wasm
    /// unreachable (`room-failed`: it waits for `NAME:retry`, which opening it says at once),
    /// or of another build still after a reload (`room-stale`). Its script unreachable
    /// (`room-absent`) is asked for again as on any page, at a new address (counted once,
    /// however often this is read). The others are read once: the page's later opens go as on
    /// any page.
    fn tried_alone(self) -> Option<Stage> {
        let root = web_sys::window()?.document()?.document_element()?;
        let attr = crate::components::ROOM_START;
        let stage = match root.get_attribute(attr)?.as_str() {
            "room-failed" => Stage::Stalled,
            "room-stale" => Stage::Stale,
            // The boot script's ask for a room module's script failed (the whole module's, on
            // a host's link, at this page's first address): the page's own first ask is of
            // the next address. (The student's module failed instead? Then an address of the
            // whole one's not asked before, which the service worker's copy answers offline.)
            "room-absent" if self == ROOM => {
                if ASKED.with_borrow(|a| a.iter().all(|(n, _)| *n != self.name)) {
                    self.count_ask();
                }
                return None;
            }
            _ => return None,
        };
        (self == ROOM).then(|| {
            let _ = root.set_attribute(attr, "app");
            stage
        })
    }

    /// Loads the module, starts it again, or (when it runs) asks it to mount.
    pub fn open(self, failed: RwSignal<bool>) {
        failed.set(false);
        if let Some(stage) = (self.stage() == Stage::Absent).then(|| self.tried_alone()).flatten() {
            if self.set_stage(stage) {
                self.watch();
            }
        }
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
            // Said again, for the host now showing it.
            Stage::Stale => self.dispatch(STALE),
        }
    }

    /// For a host view: asks the module to mount once the view is on the page, sets `failed`
    /// when it can't load and `stale` when it is of another build, and asks it to let go when
    /// the view goes.
    pub fn host(self, failed: RwSignal<bool>, stale: RwSignal<bool>) {
        // Once the module's root is in the page (the module mounts itself into it when it starts).
        Effect::new(move |_| self.open(failed));
        self.heed(failed, stale);
        on_cleanup(move || self.dispatch("close"));
    }

    /// While the calling view lives: sets `failed` when the module can't load and `stale`
    /// when it is of another build.
    pub fn heed(self, failed: RwSignal<bool>, stale: RwSignal<bool>) {
        let stalled = window_event_listener_untyped(&self.event("failed"), move |_| failed.set(true));
        let unreachable = window_event_listener_untyped(&self.event("unreachable"), move |_| failed.set(true));
        let other_build = window_event_listener_untyped(&self.event(STALE), move |_| stale.set(true));
        on_cleanup(move || {
            stalled.remove();
            unreachable.remove();
            other_build.remove();
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

/// What a host shows until its module mounts over it: opening, couldn't load (Try again),
/// or of another build (Reload). `back`, where given, is a way out of the view.
#[component]
pub fn Loading(
    module: OnDemand,
    /// The view's name (its heading) and the panel's class.
    title: score_i18n::Key,
    class: &'static str,
    /// The line while it opens, and when it couldn't load.
    opening: score_i18n::Key,
    unloaded: score_i18n::Key,
    #[prop(optional)] back: Option<fn()>,
) -> impl IntoView {
    let failed = RwSignal::new(false);
    // The module is of another build than this page: a reload brings both to the newest.
    let stale = RwSignal::new(false);
    module.host(failed, stale);
    let lines = Lines { title, class, opening, unloaded, back };
    loading_panel(module, crate::ctx::use_words(), lines, failed, stale)
}

/// What a module's place says while it comes (see [`Loading`]).
#[derive(Clone, Copy)]
pub(crate) struct Lines {
    /// The view's name (its heading) and the panel's class.
    pub(crate) title: score_i18n::Key,
    pub(crate) class: &'static str,
    /// The line while it opens, and when it couldn't load.
    pub(crate) opening: score_i18n::Key,
    pub(crate) unloaded: score_i18n::Key,
    /// A way out of the view, where there is one.
    pub(crate) back: Option<fn()>,
}

/// The panel a module's place shows until the module mounts over it, in `say`'s words:
/// [`Loading`]'s, and a student's room module's while it hands the page over to the whole one.
pub(crate) fn loading_panel(
    module: OnDemand,
    say: crate::ctx::Words,
    lines: Lines,
    failed: RwSignal<bool>,
    stale: RwSignal<bool>,
) -> impl IntoView {
    use score_i18n::Key;
    let Lines { title, class, opening, unloaded, back } = lines;
    let tr = move |key: Key| say.tr(key);
    let way_back =
        move || back.map(|f| view! { <button type="button" on:click=move |_| f()>{tr(Key::BackToSolitaire)}</button> });
    view! {
        <section class=format!("panel {class}") aria-label=tr(title)>
            <h2>{tr(title)}</h2>
            <p role="status">
                {move || tr(match (stale.get(), failed.get()) {
                    (true, _) => Key::UpdateReady,
                    (false, true) => unloaded,
                    (false, false) => opening,
                })()}
            </p>
            <Show when=move || stale.get()>
                <button type="button" class="primary" on:click=|_| reload()>{tr(Key::Reload)}</button>
                {way_back()}
            </Show>
            <Show when=move || failed.get() && !stale.get()>
                <button type="button" class="primary" on:click=move |_| module.open(failed)>{tr(Key::TryAgain)}</button>
                {way_back()}
            </Show>
        </section>
    }
}

/// Loads the page again (a module of another build: the reload brings page and module to one).
pub fn reload() {
    let Some(w) = web_sys::window() else { return };
    // register-sw.js's where it runs: under a service worker of this page's build, the new
    // build's worker takes over first, else the same page would come back.
    let by_worker =
        js_sys::Reflect::get(&w, &"scoreReload".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match by_worker {
        Some(reload) => drop(reload.call0(&w)),
        None => drop(w.location().reload()),
    }
}

#[cfg(test)]
mod tests {
    use super::script_address;

    #[test]
    fn a_script_is_asked_for_under_a_new_address_each_time_after_the_first() {
        assert_eq!(script_address("tools-boot.js", "0123456789abcdef", 0), "tools-boot.js?v=0123456789abcdef");
        assert_eq!(script_address("tools-boot.js", "0123456789abcdef", 1), "tools-boot.js?v=0123456789abcdef&try=1");
        assert_eq!(script_address("room-boot.js", "", 0), "room-boot.js");
        assert_eq!(script_address("room-boot.js", "", 3), "room-boot.js?try=3");
        let all: std::collections::HashSet<_> = (0..50).map(|n| script_address("room-boot.js", "ab", n)).collect();
        assert_eq!(all.len(), 50);
    }
}
