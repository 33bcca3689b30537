//! Where a tool goes (Experiment, Impossible rolls, Worksheets, Rules): its view comes from the
//! tools module (`score-tools`, [`crate::tools`]), fetched the first time a player opens one.
//! This host renders `#tools-root` with the view's name in `data-view` and the table as the
//! tools see it in `data-table`, keeps that up to date, and answers the tools' asks.

use leptos::prelude::*;
use score_i18n::Key;

use crate::ctx::use_ctx;
use crate::modules::{Loading, TOOLS};
use crate::tools::{answer_asks, TableState, HELP, ROOT_ID, TABLE_CHANGED};

/// A tool's place, in the page's views.
#[component]
pub fn ToolsHost(
    /// Which tool: `experiment`, `impossibles`, `worksheet` or `rules`.
    view: &'static str,
    /// Its tab's name, for the line shown while it loads.
    title: Key,
) -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    let root = NodeRef::<leptos::html::Div>::new();
    // The table as the tools see it: in the root from the start, then on each change.
    let table = game.with_untracked(|g| crate::codec::to_text(&TableState::of(g)).ok());
    Effect::new(move |_| {
        let seen = game.with(TableState::of);
        let (Some(el), Ok(text)) = (root.get(), crate::codec::to_text(&seen)) else { return };
        if el.get_attribute("data-table").as_deref() != Some(text.as_str()) {
            let _ = el.set_attribute("data-table", &text);
            TOOLS.dispatch(TABLE_CHANGED);
        }
    });
    answer_asks(game);
    let help = window_event_listener_untyped(&TOOLS.event(HELP), move |_| {
        ctx.help_open.set(true);
        crate::ctx::focus_soon(".help-card h2");
    });
    on_cleanup(move || help.remove());
    view! {
        <div class="tools-host">
            <div id=ROOT_ID data-view=view data-table=table node_ref=root></div>
            <Loading module=TOOLS title class="tools-loading" opening=Key::ToolsLoading unloaded=Key::ToolsLoadFailed/>
        </div>
    }
}
