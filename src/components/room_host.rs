//! Where a class room goes: the whole page, while the player is in it. The room is its own
//! wasm module (`score-room`), fetched the first time a player opens a room, so the table's
//! first load doesn't carry it. The two modules share only the page: this host renders
//! `#room-root` (with the link's code in `data-invite` and a host link's token in
//! `data-host`) and tells the room module through window events when to mount into it
//! (`score-room:open`) and when to let go (`score-room:close`); the room says when the
//! player leaves it (`score-room:left`). On a room's link a room's module starts alone (the
//! student's on an invite, the whole one on a host's link) and draws the page itself
//! ([`RoomAlone`]), with no app on it.

use leptos::prelude::*;
use score_i18n::Key;

use crate::forms::RoomLink;
use crate::modules::{Loading, ROOM};

/// The class room's place: the page.
#[component]
pub fn RoomHost(
    /// The room the page was opened on (an empty code: the forms, or the seat kept).
    #[prop(optional)]
    link: RoomLink,
) -> impl IntoView {
    let RoomLink { code, host } = link;
    let invite = Some(code).filter(|c| !c.is_empty());
    view! {
        <div class="room-host">
            <div id="room-root" data-invite=invite data-host=host></div>
            <Loading module=ROOM title=Key::TabRoom class="room-loading" opening=Key::RoomLoading
                unloaded=Key::RoomLoadFailed back=|| ROOM.dispatch("left")/>
        </div>
    }
}

/// Where the page says how it started: `room` when a class room's link started the room
/// module alone (the boot script, `scripts/boot.template.js`), before any app.
pub const START: &str = "data-start";

/// The page when a room's link started the room module alone: no solitaire on it, so a
/// student's first load is the room's. It does what the app does on a room's page: the
/// address keeps the room, never a host link's token; the page's language is chosen and
/// fetched here, and the room's asks for one are answered here (a language that can't be
/// fetched is said); leaving the room opens solitaire, which then loads.
#[component]
pub fn RoomAlone(link: RoomLink) -> impl IntoView {
    use score_i18n::{Catalog, Lang};
    // Read before the address is rewritten: a link's `&lang=` is the player's choice.
    let lang = crate::lang::starting();
    crate::app::set_query(&link.query());
    let words = RwSignal::new(Catalog::english().with_ops(crate::lang::kept_ops()));
    let unavailable = RwSignal::new(None::<Lang>);
    // As the app says on any page: a browser that keeps nothing forgets the seat on a reload.
    let keeps_nothing = crate::storage::keeps_nothing();
    crate::lang::serve_page(words, lang, move |lang| unavailable.set(Some(lang)), || {});
    Effect::new(move |_| {
        if let Some(d) = web_sys::window().and_then(|w| w.document()) {
            d.set_title(&words.with(|w| w.text(Key::PageTitle, &[])));
        }
    });
    let left = window_event_listener_untyped(&crate::modules::ROOM.event("left"), |_| {
        if let Some(l) = web_sys::window().map(|w| w.location()) {
            let _ = l.replace(&l.pathname().unwrap_or_default());
        }
    });
    // The address moved on within this page (Back to solitaire's entry, or a host link pasted
    // into this tab, which changes only the fragment): the page starts again on it, as the app
    // opens it. Another room's address is a page of its own; the room writes its code into
    // the address in place, which is no move.
    let follow = move || {
        let Some(location) = web_sys::window().map(|w| w.location()) else { return };
        match crate::forms::room_link(&location.search().unwrap_or_default(), &location.hash().unwrap_or_default()) {
            Some(RoomLink { host: None, .. }) => {}
            _ => {
                let _ = location.reload();
            }
        }
    };
    crate::app::follow_address(follow);
    on_cleanup(move || left.remove());
    let say = move |n: crate::say::Notice| view! { <p class="notice">{move || words.with(|w| crate::say::notice(&n, w))}</p> };
    let notice = move || {
        let lang = unavailable.get().map(|lang| say(crate::say::Notice::LanguageUnavailable(lang)));
        (keeps_nothing.then(|| say(crate::say::Notice::NoStorage)), lang)
    };
    let RoomLink { code, host } = link;
    let invite = Some(code).filter(|c| !c.is_empty());
    view! {
        <div class="notices" role="status">{notice}</div>
        <div class="room-host">
            <div id="room-root" data-invite=invite data-host=host></div>
        </div>
    }
}
