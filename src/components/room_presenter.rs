//! A host's screen, made for the projector: the join code, the join address and its QR
//! code, the roll as dice, the clock and whose claim it is, the claimant's working live,
//! the last result and the ranked scoreboard, readable from the back of a class and fitting
//! one screen. "Present" hides the Host panel, so the projector shows only the game; "Next
//! roll" (N) stays, for the class's rhythm. A host who chose "Play too" plays on the same
//! table as everyone.

use leptos::prelude::*;
use score_room::protocol::Claim;

use crate::app::typing;
use crate::components::claim_bar::result_class;
use crate::components::room_panel::{page_link, Room};
use crate::components::room_scoreboard::{LiveWorking, RoomScoreboard};
use crate::components::{ClaimBar, RoomChat, RoomHostPanel, TableView};
use crate::table::{Act, Table};

/// The host's room page.
#[component]
pub(crate) fn RoomPresenter(
    /// The room client, holding the host token.
    room: Room,
) -> impl IntoView {
    let table = Table::provide(room, room.now.into());
    let Room { seen, presenting, now, auto_at, .. } = room;
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
            let whose = match c.claim {
                Claim::Score => format!("{} pressed SCORE", s.name(c.seat)),
                Claim::Impossible => format!("{} says IMPOSSIBLE", s.name(c.seat)),
            };
            Some((whose, left))
        })
    };
    // The last result, as the table's claim bar has it (with its points, for its colour).
    let results = Memo::new(move |_| table.claims.with(|c| c.results.clone()));
    let auto_left = move || auto_at.get().map(|at| at.saturating_sub(now.get()).div_ceil(1000));
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
    // The address to type, without its scheme (a browser adds it).
    let join_at = move || {
        let link = page_link("");
        link.split_once("://").map_or(link.clone(), |(_, rest)| rest.to_string())
    };
    view! {
        <div class="presenter">
            <header class="room-bar">
                <p class="room-name">"Room " <strong>{code}</strong> {move || seen.with(|s| s.as_ref().is_some_and(|s| s.locked).then_some(" (locked)"))}</p>
                <button type="button" class="primary next-roll" aria-keyshortcuts="N" on:click=move |_| next_roll()>"Next roll"</button>
                {move || auto_left().map(|secs| view! {
                    <p class="auto-deal" role="timer">{format!("Next roll in {secs} s")}</p>
                    <button type="button" on:click=move |_| auto_at.set(None)>"Wait"</button>
                })}
                <button type="button" aria-pressed=move || presenting.get().to_string() on:click=move |_| presenting.update(|p| *p = !*p)>
                    "Present"
                </button>
                <button type="button" class="leave" on:click=move |_| room.quit()>"Close this screen"</button>
            </header>
            <section class="join-card" aria-label="How to join">
                <p class="join-code">
                    <span class="label">"Code"</span>
                    <strong data-testid="room-code">{code}</strong>
                </p>
                <p class="join-at">"Join at " <strong>{join_at}</strong></p>
                // score-server draws the invite link's QR code, knowing its own address.
                <img
                    class="room-qr"
                    src=move || format!("qr.svg?room={}", code.get())
                    alt=move || format!("QR code of the link to join room {}", code.get())
                    width="240"
                    height="240"
                />
            </section>
            <section class="stage" aria-label="The roll">
                <Show
                    when=move || seated.get()
                    fallback=move || view! {
                        <p class="goal">"Make " <span class="goal-value" data-testid="goal">{move || roll.get().2}</span></p>
                        <ul class="pool dice" aria-label="The roll" data-testid="room-roll">
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
                <div class="results" role="status">
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
