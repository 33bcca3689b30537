//! A class room, which takes the whole page while the player is in it: one roll, one
//! scoreboard, the clocks and a chat shared with a class over `score-server`'s room socket.
//! This is the page that picks a screen: the forms ([`RoomJoin`]), a student's table
//! ([`RoomStudent`]) or a host's screen ([`RoomPresenter`], with the Host panel); the room's
//! client ([`Room`]: the socket, what the member has seen, the seat kept across reloads) is
//! `room_client.rs`. The table is the one solitaire plays on: the room answers it through
//! [`TableSource`](crate::table::TableSource) (`room_table.rs`).
//!
//! The room is its own wasm module (`src/bin/score-room.rs`), loaded when a player opens a
//! room: a solitary player's first load carries none of it. It shares nothing with the
//! solitaire game but the page, so it keeps its own clock. A room's invite starts a smaller
//! module, the student's (`src/bin/score-join.rs`, [`JoinPanel`]): the forms and the
//! student's table, without the presenter, the Host panel and the teacher's report. A tab of
//! that page that hosts the room (a host's ticket kept for it, or a room created from the
//! invite) hands the page over to the whole module ([`hand_over`]).

use leptos::prelude::*;
use score_i18n::Key;
use score_room::protocol::{room_code, ClientMsg, CODE_LEN, VERSION};

use crate::components::room_client::{left_room, presents, ticket_for, tickets, Room, Status};
use crate::components::{RoomJoin, RoomPresenter, RoomStudent};
use crate::hooks::use_clock::use_clock;

/// A class room's page; `invite` is the code a link named, `host` a host link's token.
#[component]
pub fn RoomPanel(invite: Option<String>, host: Option<String>) -> impl IntoView {
    panel(invite, host, Some(|room| view! { <RoomPresenter room/> }.into_any()))
}

/// A student's page, by a room's invite: the forms and the student's table, without the
/// host's screen, which the whole class room module ([`RoomPanel`]) draws when this tab hosts.
#[component]
pub fn JoinPanel(invite: Option<String>, host: Option<String>) -> impl IntoView {
    panel(invite, host, None)
}

/// The room's page; `present` draws a host's screen (none in the student's module: it hands
/// the page over instead).
fn panel(invite: Option<String>, host: Option<String>, present: Option<fn(Room) -> AnyView>) -> AnyView {
    let room = Room::new(invite.clone().unwrap_or_default());
    // The room's words follow the page's language (this module is a wasm of its own).
    crate::lang::follow(room.words);
    // The room's own language: a host screen presents in it; a student's page starts in it
    // when its player never chose one (the page decides, `lang::Ask`). Asked when the room is
    // first seen and whenever the teacher changes it.
    let spoken = Memo::new(move |_| {
        room.seen.with(|s| {
            let s = s.as_ref()?;
            Some((score_i18n::Lang::from_code(s.mirror.view().lang.as_deref()?)?, s.host.is_some()))
        })
    });
    Effect::new(move |_| {
        if let Some((lang, host)) = spoken.get() {
            crate::lang::ask(if host { crate::lang::Ask::Present(lang) } else { crate::lang::Ask::Room(lang) });
        }
    });
    // An invite (not a host link) is a student's way in.
    let invited = invite.is_some() && host.is_none();
    use_clock(room.now, |_| {});
    // The room's clock is announced at 10 and 5 seconds left, as solitaire's is.
    let seconds_left = Memo::new(move |_| {
        let t = room.now.get();
        room.seen.with(|s| {
            let s = s.as_ref()?;
            Some(s.local(s.clock?.deadline).saturating_sub(t).div_ceil(1000))
        })
    });
    leptos::prelude::Effect::new(move |_| {
        if let Some(secs @ (10 | 5)) = seconds_left.get() {
            room.heard.set(room.words.with_untracked(|w| w.count(Key::HeardSecondsLeft, secs, &[])));
        }
    });
    on_cleanup(move || room.close());
    let all = tickets();
    // The place kept for the room the link names, or else the room this browser was in last.
    let kept = match &invite {
        Some(code) => all.get(code),
        None => all.latest(),
    };
    // The student's module knows this tab hosts before it connects (a host link, or a host's
    // ticket kept for the room: a teacher's new tab): the whole module takes it from here.
    if present.is_none() && (host.is_some() || kept.is_some_and(|t| t.host.is_some())) {
        return view! { <div class="room-page">{hand_over(room)}</div> }.into_any();
    }
    match host {
        // A host link: this screen hosts the room (a wrong token is told, and the code kept).
        Some(host) => {
            room.start(ClientMsg::Present { version: VERSION, code: invite.clone().unwrap_or_default(), host })
        }
        None => {
            // The kept place, as this tab held it (a host screen, or the seat).
            if let Some(hello) = kept.and_then(|t| t.hello_for(presents(&t.code))) {
                room.start(hello);
            } else if let Some(code) = invite.filter(|c| room_code(c).is_none()) {
                room.error.set(Some(room.count(Key::RoomBadCode, CODE_LEN as u64, &[("code", &code)])));
            }
        }
    }
    let Room { status, seen, error, .. } = room;
    // An unreachable or dropped room is tried again as soon as the browser says the device is
    // back online, or the page comes back into view.
    let back_online = window_event_listener(leptos::ev::online, move |_| room.try_again());
    let in_view = window_event_listener_untyped("visibilitychange", move |_| room.try_again());
    on_cleanup(move || {
        back_online.remove();
        in_view.remove();
    });
    let hosting = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.host.is_some())));
    // What the door shows changes only with these two: the forms are drawn once, whatever
    // else the status goes through (connecting, refused), so a form keeps what its reader
    // chose and typed ("Create a new room instead", a name to play under) and the focus stays
    // where it is.
    let elsewhere = Memo::new(move |_| status.get() == Status::Elsewhere);
    let trying = Memo::new(move |_| status.get().retrying());
    view! {
        <div class="room-page" class:presenting=move || room.presenting.get() && hosting.get() == Some(true)>
            <div class="sr-only" aria-live="polite" data-testid="room-announcer">{move || room.heard.get()}</div>
            {move || match status.get() {
                Status::NoServer => view! {
                    <p class="notice" role="status">{room.tr(Key::RoomNoServer)}</p>
                }.into_any(),
                Status::Unreachable => view! {
                    <p class="notice" role="status">{room.tr(Key::RoomUnreachable)}</p>
                }.into_any(),
                Status::Reconnecting => view! { <p class="notice" role="status">{room.tr(Key::RoomReconnecting)}</p> }.into_any(),
                Status::Connecting => view! { <p role="status">{room.tr(Key::RoomConnecting)}</p> }.into_any(),
                Status::Elsewhere => view! {
                    <p class="notice" role="status">
                        {room.tr(Key::RoomElsewhere)} " "
                        <button type="button" on:click=move |_| {
                            match ticket_for(&room.code.get_untracked()).and_then(|t| t.hello_for(false)) {
                                Some(hello) => room.start(hello),
                                // The other tab left the room since: nothing to take back, the
                                // forms (with the code kept) rather than a button that does nothing.
                                None => room.to_forms(),
                            }
                        }>{room.tr(Key::UseThisTab)}</button>
                    </p>
                }.into_any(),
                Status::Outdated => view! {
                    <p class="notice" role="status">
                        {room.tr(Key::RoomOutdated)} " "
                        <button type="button" on:click=|_| crate::modules::reload()>{room.tr(Key::Reload)}</button>
                    </p>
                }.into_any(),
                _ => ().into_any(),
            }}
            <p class="field-error" role="alert">{move || error.get()}</p>
            {move || match hosting.get() {
                // Another tab has the seat: only the notice above, no forms.
                None if elsewhere.get() => ().into_any(),
                None => view! {
                    <section class="panel room-door" aria-label=room.tr(Key::TabRoom)>
                        <h2>{room.tr(Key::TabRoom)}</h2>
                        // Not while the room is tried again (unreachable, a kept place its
                        // server asked to wait, or a Join whose socket dropped before the
                        // answer): that place, or the Join just pressed, is what comes back,
                        // and a second Join would start over. Another room is one button away
                        // (this one's place stays kept, and the sentence that promised it back
                        // goes): one instance of several behind a proxy may be down while
                        // others answer.
                        {move || if trying.get() {
                            view! {
                                <p><button type="button" class="link" on:click=move |_| room.to_forms()>{room.tr(Key::RoomAnother)}</button></p>
                            }.into_any()
                        } else {
                            view! { <RoomJoin room invited/> }.into_any()
                        }}
                        <button type="button" on:click=move |_| left_room()>{room.tr(Key::BackToSolitaire)}</button>
                    </section>
                }.into_any(),
                Some(true) => present.map_or_else(|| hand_over(room), |present| present(room)),
                Some(false) => view! { <RoomStudent room/> }.into_any(),
            }}
        </div>
    }
    .into_any()
}

/// The student's module hands the page over to the whole class room module, which has the
/// host's screen: this page's socket closes, the whole module is fetched (said while it
/// comes, with Try again if it can't be, and Reload if it is of another build) and, once
/// started, mounts into the same `#room-root` (the student's module lets go of it on
/// `score-room:mounting`) and takes the room back by the ticket this browser keeps.
fn hand_over(room: Room) -> AnyView {
    use crate::modules::{loading_panel, Lines, ROOM};
    let failed = RwSignal::new(false);
    let stale = RwSignal::new(false);
    // The room this tab hosts: the one it just created, or the one the link named.
    let code =
        room.seen.with_untracked(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_else(|| room.code.get_untracked());
    // A browser that keeps nothing has no ticket to hand over: the host token goes with the
    // page instead, as a host's link would bring it (the room is never left without its host).
    let host = room.seen.with_untracked(|s| s.as_ref().and_then(|s| s.host.clone()));
    let host = host.filter(|_| ticket_for(&code).is_none_or(|t| t.host.is_none()));
    Effect::new(move |_| {
        room.close();
        let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("room-root"));
        if let Some(root) = root {
            let _ = root.set_attribute("data-invite", &code);
            if let Some(host) = &host {
                let _ = root.set_attribute("data-host", host);
            }
        }
        ROOM.open(failed);
    });
    ROOM.heed(failed, stale);
    // As the app's Class room view says it while the module comes.
    let lines = Lines {
        title: Key::TabRoom,
        class: "room-loading",
        opening: Key::RoomLoading,
        unloaded: Key::RoomLoadFailed,
        back: Some(left_room),
    };
    loading_panel(ROOM, crate::ctx::Words(room.words), lines, failed, stale).into_any()
}
