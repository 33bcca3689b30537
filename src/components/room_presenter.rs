//! A host's screen, made for the projector: the join code, an address the class can reach
//! (see [`score_room::reach`]) and its QR code, the roll as dice, the clock and whose claim it is, the claimant's working live,
//! the last result and the ranked scoreboard, readable from the back of a class and fitting
//! one screen. "Present" hides the Host panel, so the projector shows only the game; "Next
//! roll" (N) stays, for the class's rhythm. A host who chose "Play too" plays on the same
//! table as everyone.

use leptos::prelude::*;
use score_i18n::Key;
use score_room::protocol::{Claim, HostCommand};
use score_room::reach::{join_at, JoinAt};

use crate::app::typing;
use crate::components::claim_bar::result_class;
use crate::components::room_client::Room;
use crate::components::room_scoreboard::{LiveWorking, RoomScoreboard};
use crate::components::{ClaimBar, RoomChat, RoomHostPanel, TableView};
use crate::table::{Act, Table};

/// The host's room page.
#[component]
pub(crate) fn RoomPresenter(
    /// The room client, holding the host token.
    room: Room,
) -> impl IntoView {
    let table = Table::provide(room, room.now.into(), room.words.into());
    let Room { seen, presenting, now, .. } = room;
    let code = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_default());
    let seated = Memo::new(move |_| seen.with(|s| s.as_ref().is_some_and(|s| s.seat.is_some())));
    let roll = Memo::new(move |_| {
        seen.with(|s| s.as_ref().map(|s| (s.roll.clone(), s.rules.dice.clone(), s.rules.goal))).unwrap_or_default()
    });
    let clock = move || {
        let t = now.get();
        seen.with(|s| {
            let s = s.as_ref()?;
            let c = s.clock?;
            let left = s.local(c.deadline).saturating_sub(t).div_ceil(1000);
            let name = s.name(c.seat);
            let key = match c.claim {
                Claim::Score => Key::RoomClockScore,
                Claim::Impossible => Key::RoomClockImpossible,
            };
            let whose = room.t(key, &[("name", &name)]);
            Some((whose, left))
        })
    };
    // The last result, as the table's claim bar has it (with its points, for its colour).
    let results = Memo::new(move |_| table.claims.with(|c| c.results.clone()));
    // Auto-deal's countdown: the server deals when it comes to 0.
    let auto_left = move || {
        let t = now.get();
        seen.with(|s| s.as_ref()?.mirror.deal_due()).map(|at| at.saturating_sub(t).div_ceil(1000))
    };
    let auto_secs = move || seen.with_untracked(|s| s.as_ref().map_or(0, |s| s.auto_deal_secs));
    let next_roll = move || table.act(Act::Next);
    // N deals the next roll, unless a clock runs (the button deals at any time).
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let running = seen.with_untracked(|s| s.as_ref().is_none_or(|s| s.clock.is_some()));
        if (ev.key() == "n" || ev.key() == "N") && !typing(&ev) && !running {
            ev.prevent_default();
            next_roll();
        }
    });
    on_cleanup(move || keys.remove());
    // The address to join at: this page's own, unless it is this computer's (localhost), when
    // it is one the server says other devices reach it at (the teacher picks among several).
    let here = Memo::new(move |_| {
        let loc = web_sys::window().map(|w| w.location());
        let part = |f: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
            loc.as_ref().and_then(|l| f(l).ok()).unwrap_or_default()
        };
        (part(web_sys::Location::protocol), part(web_sys::Location::host), part(web_sys::Location::pathname))
    });
    let reach = Memo::new(move |_| here.with(|(_, host, _)| join_at(host, room.server_at.get().as_deref())));
    let picked = RwSignal::new(0usize);
    // The address to type, without its scheme (a browser adds it): one memo, read alone by
    // what shows it (`Err(true)`: the server listens on loopback only; `Err(false)`: not known).
    let join_addr = Memo::new(move |_| {
        let (_, _, path) = here.get();
        match reach.get() {
            JoinAt::Page(host) => Ok(format!("{host}{path}")),
            JoinAt::Server(list) => list.get(picked.get()).or(list.first()).map(|a| format!("{a}{path}")).ok_or(false),
            JoinAt::LoopbackOnly => Err(true),
            JoinAt::Unknown => Err(false),
        }
    });
    let invite =
        move || join_addr.get().ok().map(|a| format!("{}//{a}?room={}", here.with(|h| h.0.clone()), code.get()));
    let choices = move || match reach.get() {
        JoinAt::Server(list) if list.len() > 1 => list,
        _ => Vec::new(),
    };
    view! {
        <div class="presenter">
            <header class="room-bar">
                <p class="room-name">
                    {move || {
                        let locked = seen.with(|s| s.as_ref().is_some_and(|s| s.locked));
                        let key = if locked { Key::RoomNameLocked } else { Key::RoomName };
                        let (before, after) = room.words.with(|w| w.around(key, "code", &[]));
                        view! { {before} <strong>{code}</strong> {after} }
                    }}
                </p>
                <button type="button" class="primary next-roll" aria-keyshortcuts="N" on:click=move |_| next_roll()>{room.tr(Key::NextRollButton)}</button>
                {move || auto_left().map(|secs| view! {
                    <p class="auto-deal" role="timer">{room.t(Key::NextRollIn, &[("secs", &secs.to_string())])}</p>
                    // The wait starts again, for everyone's screen.
                    <button type="button" on:click=move |_| room.command(HostCommand::AutoDeal { secs: auto_secs() })>{room.tr(Key::Wait)}</button>
                })}
                <button type="button" aria-pressed=move || presenting.get().to_string() on:click=move |_| presenting.update(|p| *p = !*p)>
                    {room.tr(Key::Present)}
                </button>
                <button type="button" class="leave" on:click=move |_| room.quit()>{room.tr(Key::CloseScreen)}</button>
            </header>
            <section class="join-card" aria-label=room.tr(Key::HowToJoin)>
                <p class="join-code">
                    <span class="label">{room.tr(Key::JoinCode)}</span>
                    <strong data-testid="room-code">{code}</strong>
                </p>
                {move || match join_addr.get() {
                    Ok(addr) => {
                        let (before, after) = room.words.with(|w| w.around(Key::JoinAt, "address", &[]));
                        view! { <p class="join-at">{before} <strong data-testid="join-at">{addr}</strong> {after}</p> }.into_any()
                    }
                    Err(true) => view! {
                        <p class="join-at notice" role="status" data-testid="loopback-only">{room.tr(Key::LoopbackOnly)}</p>
                    }.into_any(),
                    Err(false) => ().into_any(),
                }}
                {move || {
                    let list = choices();
                    (!list.is_empty() && !presenting.get()).then(|| view! {
                        <label class="join-choice">
                            {room.tr(Key::NetworkAddress)} " "
                            <select on:change=move |ev| picked.set(event_target_value(&ev).parse().unwrap_or(0))>
                                {list.into_iter().enumerate().map(|(i, a)| view! {
                                    <option value=i.to_string() selected=move || picked.get() == i>{a}</option>
                                }).collect_view()}
                            </select>
                        </label>
                    })
                }}
                // Drawn on this page, from the address shown above.
                {move || invite().and_then(|link| crate::qr::svg(&link)).map(|svg| view! {
                    <div
                        class="room-qr"
                        role="img"
                        aria-label=move || room.t(Key::JoinQr, &[("code", &code.get())])
                        data-testid="room-qr"
                        inner_html=svg
                    ></div>
                })}
            </section>
            <section class="stage" aria-label=room.tr(Key::TheRoll)>
                <Show
                    when=move || seated.get()
                    fallback=move || view! {
                        <p class="goal">
                            {move || {
                                let (before, after) = room.words.with(|w| w.around(Key::Tagline, "goal", &[]));
                                view! { {before} <span class="goal-value" data-testid="goal">{crate::game::number(roll.get().2)}</span> {after} }
                            }}
                        </p>
                        <ul class="pool dice" aria-label=room.tr(Key::TheRoll) data-testid="room-roll">
                            {move || {
                                let (faces, dice, _) = roll.get();
                                faces.into_iter().zip(dice).map(|(f, d)| view! {
                                    <li class=format!("tile d{d}")>
                                        <span class="value">{f}</span>
                                        <span class="sr-only">{format!(" (d{d})")}</span>
                                        <span class="die-type" aria-hidden="true">{format!("d{d}")}</span>
                                    </li>
                                }).collect_view()
                            }}
                        </ul>
                    }
                >
                    <ClaimBar/>
                    <TableView/>
                </Show>
                {move || clock().map(|(whose, secs)| view! {
                    <p class="countdown big" role="timer">
                        <span class="countdown-label">{whose}</span>
                        <span class="countdown-value" data-testid="room-countdown">{secs}</span>
                    </p>
                })}
                <LiveWorking room/>
                <div class="results">
                    {move || results.get().into_iter().map(|r| view! { <p class=result_class(r.points)>{r.text}</p> }).collect_view()}
                </div>
            </section>
            <RoomScoreboard room/>
        </div>
        <Show when=move || !presenting.get()>
            <RoomHostPanel room/>
            <RoomChat room/>
        </Show>
    }
}
