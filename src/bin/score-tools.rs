//! The tools (Experiment, Impossible rolls, Worksheets) and the Rules view as their own wasm
//! module, loaded by the app's `ToolsHost` the first time a player opens one. It mounts the view named in
//! `#tools-root`'s `data-view` at once if the root is on the page, again on
//! `score-tools:open`, and unmounts on `score-tools:close`. A listing of impossible rolls
//! belongs to the module, not the view: it runs on while another view is open.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;
use score_app::components::impossibles_panel::Listing;
use score_app::components::{ExperimentPanel, ImpossiblesPanel, RulesPanel, WorksheetPanel};
use score_app::ctx::Words;
use score_app::tools::{follow_table, TableState, Tools, ROOT_ID};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The mounted view; dropping it unmounts the view.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// What outlives a view: the words, the table as last told, a listing.
    static KEPT: RefCell<Option<(Tools, Listing)>> = const { RefCell::new(None) };
}

fn unmount() {
    // Taken out first: unmounting runs the view's cleanups, which must not find it borrowed.
    let old = MOUNTED.with_borrow_mut(Option::take);
    drop(old);
}

fn mount() {
    unmount();
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(ROOT_ID)) else {
        return;
    };
    let Ok(root) = root.dyn_into::<web_sys::HtmlElement>() else { return };
    let Some((tools, listing)) = KEPT.with_borrow(|k| *k) else { return };
    // A table this module can't read (a page of another build than this module's): no view,
    // which could answer the roll without asking. The host says a newer version is ready and
    // offers a reload (trying again would meet the same module).
    let readable = root.get_attribute("data-table").and_then(|t| score_app::codec::from_text::<TableState>(&t));
    if readable.is_none() {
        score_app::modules::TOOLS.dispatch(score_app::modules::STALE);
        return;
    }
    let view = root.get_attribute("data-view").unwrap_or_default();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        provide_context(tools);
        provide_context(tools.say);
        provide_context(listing);
        follow_table(root.clone().into(), tools.table);
        match view.as_str() {
            "experiment" => view! { <ExperimentPanel/> }.into_any(),
            "impossibles" => view! { <ImpossiblesPanel/> }.into_any(),
            "worksheet" => view! { <WorksheetPanel/> }.into_any(),
            "rules" => view! { <RulesPanel/> }.into_any(),
            _ => ().into_any(),
        }
    });
    MOUNTED.with_borrow_mut(|m| *m = Some(Box::new(handle)));
}

fn main() {
    score_app::crash::install_panic_hook();
    // Started here, not by a first mount: the words below follow the page's language from now.
    let _ = any_spawner::Executor::init_wasm_bindgen();
    // Owned for the page's whole life, so a listing outlives the view it was asked in.
    let owner = Owner::new();
    let kept = owner.with(|| {
        let words = RwSignal::new(score_i18n::Catalog::english());
        score_app::lang::follow(words);
        let tools = Tools { table: RwSignal::new(TableState::default()), say: Words(words) };
        (tools, Listing::new())
    });
    std::mem::forget(owner);
    KEPT.with_borrow_mut(|k| *k = Some(kept));
    score_app::solver::set_fallback(score_app::work::run_all);
    score_app::modules::TOOLS.serve(mount, unmount);
    mount();
}
