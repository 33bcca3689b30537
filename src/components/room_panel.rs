//! "Class room": one roll, one scoreboard, the clocks and a chat shared with a class over
//! `score-server`'s room socket. The server is the only judge: this view sends what the
//! player does and shows what the room says. It speaks through the browser's own WebSocket
//! (web-sys): no extra crate, and reconnection with backoff is a few lines we control.
//!
//! The view is its own wasm module (`src/bin/score-room.rs`), loaded when a player opens
//! Class room: a solitary player's first load carries none of it. It shares nothing with
//! the table but the page, so it keeps its own clock and takes the invited code as a prop.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use score_engine::{Action, Board, Op, Phase, Rules, TileId};
use score_server::protocol::{ClientMsg, ServerMsg, View as RoomView, VERSION};
use score_server::room::{ChatLine, RoomEvent, Seat};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use crate::codec;
use crate::game::roll_text;
use crate::hooks::use_clock::{now_ms, use_clock};
use crate::storage;

/// Where the seat token is kept, so a reload takes the same seat back.
pub const ROOM_KEY: &str = "score.room.v1";

/// A seat to come back to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Ticket {
    code: String,
    token: String,
    host: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    Out,
    Connecting,
    Live,
    Reconnecting,
    /// No room server answers: the page is served as plain files.
    NoServer,
}

/// The room as this member sees it.
#[derive(Debug, Clone, Default, PartialEq)]
struct Seen {
    code: String,
    seat: Seat,
    host: Option<String>,
    roll: Vec<i64>,
    goal: i64,
    members: Vec<(Seat, String, i32)>,
    /// The running clock: whose, which, until when (server ms).
    clock: Option<(Seat, String, u64)>,
    /// Server clock minus this browser's, ms.
    offset: i64,
    results: Vec<String>,
    chat: Vec<ChatLine>,
    /// The claimant's working, shown to all while their SCORE clock runs.
    live: Option<(Seat, Vec<String>)>,
    locked: bool,
}

impl Seen {
    fn name(&self, seat: Seat) -> String {
        self.members.iter().find(|m| m.0 == seat).map(|m| m.1.clone()).unwrap_or_default()
    }
}

fn socket_url() -> Option<String> {
    let loc = web_sys::window()?.location();
    let scheme = if loc.protocol().ok()? == "https:" { "wss" } else { "ws" };
    let path = loc.pathname().ok()?;
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    Some(format!("{scheme}://{}{}ws", loc.host().ok()?, dir))
}

/// The page's address with `?room=CODE`: opening it fills in the code.
fn invite_link(code: &str) -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}?room={code}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

fn clock_of(phase: Phase) -> Option<(Seat, String, u64)> {
    match phase {
        Phase::Score { player, deadline, .. } => Some((player, "SCORE".into(), deadline)),
        Phase::Impossible(c) => Some((c.player, "IMPOSSIBLE".into(), c.deadline)),
        _ => None,
    }
}

/// The connection and what keeps it alive.
#[derive(Default)]
struct Link {
    ws: Option<WebSocket>,
    handlers: Vec<Closure<dyn FnMut(JsValue)>>,
    retry: Option<Timeout>,
    attempts: u32,
    opened_once: bool,
    /// What to send on (re)opening: create or join.
    hello: Option<ClientMsg>,
}

/// The view's state, all of it `Copy` handles.
#[derive(Clone, Copy)]
struct Room {
    status: RwSignal<Status>,
    seen: RwSignal<Option<Seen>>,
    error: RwSignal<Option<String>>,
    board: RwSignal<Option<Board>>,
    picked: RwSignal<Option<TileId>>,
    second: RwSignal<Option<TileId>>,
    link: StoredValue<Link, LocalStorage>,
}

impl Room {
    fn reset_board(self, s: &Seen) {
        self.board.set(Some(Board::new(&s.roll, &Rules { goal: s.goal, ..Rules::default() })));
        self.picked.set(None);
        self.second.set(None);
    }

    fn on_server(self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { code, seat, token, host, view } => {
                let RoomView { roll, goal, members, phase, now, results, chat, locked, moves } = view;
                // Back after a drop with moves on the room's copy: both boards start again from the roll.
                if !moves.is_empty() {
                    self.send(ClientMsg::Act { action: Action::Clear });
                }
                let host = host.or_else(|| {
                    storage::load::<Option<Ticket>>(ROOM_KEY, "room")
                        .0
                        .flatten()
                        .filter(|t| t.code == code)
                        .and_then(|t| t.host)
                });
                let _ = storage::save(ROOM_KEY, &Some(Ticket { code: code.clone(), token, host: host.clone() }));
                let s = Seen {
                    code,
                    seat,
                    host,
                    roll,
                    goal,
                    members,
                    clock: clock_of(phase),
                    offset: now as i64 - js_sys::Date::now() as i64,
                    results,
                    chat,
                    live: None,
                    locked,
                };
                self.reset_board(&s);
                self.seen.set(Some(s));
                self.status.set(Status::Live);
                self.error.set(None);
            }
            ServerMsg::Error { message } => {
                // Not seated (a code or name refused, the seat gone) or sent away: back to the forms.
                let sent_away = message.starts_with("The host ended") || message.starts_with("The host removed");
                if sent_away || self.status.get_untracked() != Status::Live {
                    self.leave();
                }
                self.error.set(Some(message));
            }
            ServerMsg::Event { event, now } => {
                let mut reset = None;
                self.seen.update(|s| {
                    let Some(s) = s else { return };
                    s.offset = now as i64 - js_sys::Date::now() as i64;
                    match event {
                        RoomEvent::Joined { seat, name } => {
                            s.members.retain(|m| m.0 != seat);
                            s.members.push((seat, name, 0));
                            s.members.sort_by_key(|m| m.0);
                        }
                        RoomEvent::Left { seat } => s.members.retain(|m| m.0 != seat),
                        RoomEvent::Clock { seat, claim, deadline } => {
                            if claim == "SCORE" {
                                s.live = Some((seat, Vec::new()));
                                if seat == s.seat {
                                    reset = Some(s.clone());
                                }
                            }
                            s.clock = Some((seat, claim, deadline));
                        }
                        RoomEvent::Board { seat, moves } => {
                            if s.clock.as_ref().is_some_and(|c| c.0 == seat && c.1 == "SCORE") {
                                s.live = Some((seat, moves));
                            }
                        }
                        RoomEvent::Results { lines, scores } => {
                            s.results = lines;
                            s.clock = None;
                            for (seat, score) in scores {
                                if let Some(m) = s.members.iter_mut().find(|m| m.0 == seat) {
                                    m.2 = score;
                                }
                            }
                        }
                        RoomEvent::Rolled { roll } => {
                            s.roll = roll;
                            s.clock = None;
                            s.live = None;
                            s.results.clear();
                            reset = Some(s.clone());
                        }
                        RoomEvent::Chat { name, text, .. } => {
                            s.chat.push(ChatLine { name, text });
                            if s.chat.len() > 200 {
                                s.chat.remove(0);
                            }
                        }
                        RoomEvent::ChatCleared => s.chat.clear(),
                        RoomEvent::Locked { locked } => s.locked = locked,
                        RoomEvent::Rules { goal, .. } => s.goal = goal,
                    }
                });
                if let Some(s) = reset {
                    self.reset_board(&s);
                }
            }
        }
    }

    /// Opens the socket and says hello; after a drop (once it had opened) it tries again
    /// with backoff; if it never opens, no room server answers here.
    fn open(self) {
        let Some(url) = socket_url() else { return };
        let Ok(ws) = WebSocket::new(&url) else {
            self.status.set(Status::NoServer);
            return;
        };
        let hello = self.link.with_value(|l| l.hello.clone());
        let sock = ws.clone();
        let on_open = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            self.link.update_value(|l| {
                l.opened_once = true;
                l.attempts = 0;
            });
            if let Some(text) = hello.as_ref().and_then(|h| codec::to_text(h).ok()) {
                let _ = sock.send_with_str(&text);
            }
        });
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
            let Ok(ev) = ev.dyn_into::<MessageEvent>() else { return };
            if let Some(msg) = ev.data().as_string().and_then(|t| codec::from_text::<ServerMsg>(&t)) {
                self.on_server(msg);
            }
        });
        let on_close = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
            let _ = ev.dyn_into::<CloseEvent>();
            let (wanted, opened) = self.link.with_value(|l| (l.hello.is_some(), l.opened_once));
            if !wanted {
                return; // left on purpose
            }
            if !opened {
                self.status.set(Status::NoServer);
                return;
            }
            self.status.set(Status::Reconnecting);
            self.link.update_value(|l| {
                l.attempts += 1;
                let wait = (500u32 << l.attempts.min(5)).min(10_000);
                l.retry = Some(Timeout::new(wait, move || self.open()));
            });
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        self.link.update_value(|l| {
            if let Some(old) = l.ws.replace(ws) {
                old.set_onclose(None);
                let _ = old.close();
            }
            l.handlers = vec![on_open, on_message, on_close];
        });
    }

    fn start(self, hello: ClientMsg) {
        self.link.update_value(|l| {
            l.hello = Some(hello);
            l.opened_once = false;
        });
        self.status.set(Status::Connecting);
        self.error.set(None);
        self.open();
    }

    fn send(self, msg: ClientMsg) {
        let sent = self.link.with_value(|l| match (&l.ws, codec::to_text(&msg)) {
            (Some(ws), Ok(text)) if ws.ready_state() == WebSocket::OPEN => ws.send_with_str(&text).is_ok(),
            _ => false,
        });
        if !sent {
            self.error.set(Some("Not connected to the room: reconnecting…".into()));
        }
    }

    fn close(self) {
        self.link.update_value(|l| {
            l.hello = None;
            l.retry = None;
            if let Some(ws) = l.ws.take() {
                ws.set_onclose(None);
                let _ = ws.close();
            }
        });
    }

    fn leave(self) {
        self.close();
        let _ = storage::save(ROOM_KEY, &None::<Ticket>);
        self.seen.set(None);
        self.status.set(Status::Out);
    }

    /// A move on this member's board: checked here by the same `Board` the room replays.
    fn act(self, action: Action) {
        let done = self.board.try_update(|b| b.as_mut().map(|b| b.apply(action))).flatten();
        match done {
            Some(Ok(_)) => {
                self.error.set(None);
                self.send(ClientMsg::Act { action });
            }
            Some(Err(e)) => self.error.set(Some(e.to_string())),
            None => {}
        }
        self.picked.set(None);
        self.second.set(None);
    }
}

/// The Class room view; `invite` is the code a link invited to, if any.
#[component]
pub fn RoomPanel(invite: Option<String>) -> impl IntoView {
    let now = RwSignal::new(now_ms());
    use_clock(now, |_| {});
    let room = Room {
        status: RwSignal::new(Status::Out),
        seen: RwSignal::new(None),
        error: RwSignal::new(None),
        board: RwSignal::new(None),
        picked: RwSignal::new(None),
        second: RwSignal::new(None),
        link: StoredValue::new_local(Link::default()),
    };
    let Room { status, seen, error, board, picked, second, .. } = room;
    on_cleanup(move || room.close());
    // A seat from an earlier visit is taken back at once.
    if let (Some(Some(t)), _) = storage::load::<Option<Ticket>>(ROOM_KEY, "room") {
        room.start(ClientMsg::Join { version: VERSION, code: t.code, name: String::new(), token: Some(t.token) });
    }

    let name = RwSignal::new(String::new());
    let code = RwSignal::new(invite.unwrap_or_default());
    let judging = RwSignal::new(true);
    let message = RwSignal::new(String::new());
    let drag_from = RwSignal::new(None::<TileId>);
    let r_dice = RwSignal::new(String::from("6 6 12 20"));
    let r_goal = RwSignal::new(String::from("20"));
    let r_score = RwSignal::new(String::from("30"));
    let r_impossible = RwSignal::new(String::from("60"));
    let r_judging = RwSignal::new(true);
    let typed_roll = RwSignal::new(String::new());

    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        room.start(ClientMsg::Create {
            version: VERSION,
            name: name.get_untracked(),
            judging: judging.get_untracked(),
        });
    };
    let join = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        room.start(ClientMsg::Join {
            version: VERSION,
            code: code.get_untracked(),
            name: name.get_untracked(),
            token: None,
        });
    };
    let me = move || seen.with(|s| s.as_ref().map(|s| s.seat));
    let host = move || seen.with(|s| s.as_ref().and_then(|s| s.host.clone()));
    let seconds = move || {
        let now = now.get() as i64;
        seen.with(|s| {
            s.as_ref().and_then(|s| {
                s.clock.as_ref().map(|(seat, claim, deadline)| {
                    let left = (*deadline as i64 - (now + s.offset)).max(0);
                    (s.name(*seat), claim.clone(), (left + 999) / 1000)
                })
            })
        })
    };
    let send_chat = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = message.get_untracked();
        if !text.trim().is_empty() {
            room.send(ClientMsg::Chat { text });
            message.set(String::new());
        }
    };
    view! {
        <div class="panel room" aria-label="Class room">
            <h2>"Class room"</h2>
            {move || match status.get() {
                Status::NoServer => view! {
                    <p class="notice" role="status">
                        "Rooms need score-server: this page is served as plain files. Start it with "
                        <code>"cargo run -p score-server --release -- --dist dist"</code>
                        " and open its address. Solitaire and pass-and-play work without it."
                    </p>
                }.into_any(),
                Status::Reconnecting => view! { <p class="notice" role="status">"Reconnecting…"</p> }.into_any(),
                Status::Connecting => view! { <p role="status">"Connecting…"</p> }.into_any(),
                _ => ().into_any(),
            }}
            <p class="field-error" role="alert">{move || error.get()}</p>
            <Show when=move || seen.with(Option::is_none)>
                <div class="room-forms">
                    <form on:submit=create>
                        <h3>"Create a room"</h3>
                        <label>"Your name " <input type="text" maxlength="20" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
                        <label class="check">
                            <input type="checkbox" prop:checked=move || judging.get() on:change=move |ev| judging.set(event_target_checked(&ev))/>
                            " The computer judges IMPOSSIBLE"
                        </label>
                        <button type="submit" class="primary">"Create room"</button>
                    </form>
                    <form on:submit=join>
                        <h3>"Join a room"</h3>
                        <label>"Room code " <input type="text" maxlength="6" autocapitalize="characters" prop:value=move || code.get() on:input=move |ev| code.set(event_target_value(&ev))/></label>
                        <label>"Your name " <input type="text" maxlength="20" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
                        <button type="submit" class="primary">"Join"</button>
                    </form>
                </div>
            </Show>
            {move || seen.get().map(|s| {
                view! {
                    <p class="room-code">"Room " <strong data-testid="room-code">{s.code.clone()}</strong> {s.locked.then_some(" (locked)")}</p>
                    <p class="share">
                        <label>
                            "Link to join "
                            <input type="text" readonly prop:value=invite_link(&s.code)/>
                        </label>
                    </p>
                    <p class="room-roll">"Make " <strong>{s.goal}</strong> " from " <strong data-testid="room-roll">{roll_text(&s.roll)}</strong></p>
                }
            })}
            {move || seconds().map(|(who, claim, secs)| view! {
                <p class="countdown" role="timer">
                    <span class="countdown-label">{format!("{claim} clock: {who}")}</span>
                    <span class="countdown-value" data-testid="room-countdown">{secs}</span>
                </p>
            })}
            {move || seen.with(|s| s.as_ref().map(|s| s.results.clone())).map(|lines| view! {
                <div class="results" role="status">{lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}</div>
            })}
            {move || seen.with(|s| s.as_ref().and_then(|s| s.live.clone().map(|(seat, moves)| (s.name(seat), moves)))).map(|(who, moves)| view! {
                <section aria-label="Working under the SCORE clock">
                    <h3>{format!("{who}'s working")}</h3>
                    <ol class="moves" data-testid="live-working">{moves.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ol>
                </section>
            })}
            <Show when=move || seen.with(Option::is_some)>
                <div class="claim-buttons">
                    <button class="claim score" aria-label="SCORE in the room" on:click=move |_| room.send(ClientMsg::Score)>"SCORE"</button>
                    <button class="claim impossible" aria-label="IMPOSSIBLE in the room" on:click=move |_| room.send(ClientMsg::Impossible)>"IMPOSSIBLE"</button>
                    <button aria-label="Reveal now in the room" on:click=move |_| room.send(ClientMsg::Reveal)>"Reveal now"</button>
                    <button aria-label="Give up in the room" on:click=move |_| room.send(ClientMsg::GiveUp)>"Give up"</button>
                </div>
                <div class="pool" role="group" aria-label="Room numbers">
                    {move || board.with(|b| b.as_ref().map(|b| b.tiles().to_vec())).unwrap_or_default().into_iter().map(|t| {
                        let id = t.id;
                        let label = format!("{}{}", t.value, if t.red { " (derived)" } else { "" });
                        view! {
                            <button
                                class=if t.red { "tile red" } else { "tile" }
                                aria-pressed=move || (picked.get() == Some(id) || second.get() == Some(id)).to_string()
                                aria-label=label
                                // Drag one number onto another to pick both (a tap picks one at a time).
                                on:pointerdown=move |_| drag_from.set(Some(id))
                                on:pointerup=move |_| {
                                    if let Some(from) = drag_from.get_untracked().filter(|f| *f != id) {
                                        picked.set(Some(from));
                                        second.set(Some(id));
                                    }
                                    drag_from.set(None);
                                }
                                on:click=move |_| {
                                    match (picked.get_untracked(), second.get_untracked()) {
                                        (None, _) => picked.set(Some(id)),
                                        (Some(p), _) if p == id => { picked.set(None); second.set(None); }
                                        (Some(_), _) => second.set(Some(id)),
                                    }
                                }
                            >
                                <span class="value">{t.value.to_string()}</span>
                            </button>
                        }
                    }).collect_view()}
                </div>
                <div class="ops">
                    {[(Op::Add, "plus"), (Op::Sub, "minus"), (Op::Mul, "times"), (Op::Div, "divided by"), (Op::Concat, "joined with")].into_iter().map(|(o, name)| {
                        view! {
                            <button class="op" aria-label=format!("Room operator {name}") on:click=move |_| {
                                if let (Some(left), Some(right)) = (picked.get_untracked(), second.get_untracked()) {
                                    room.act(Action::Combine { left, op: o, right });
                                }
                            }>{o.symbol()}</button>
                        }
                    }).collect_view()}
                </div>
                <div class="controls">
                    <button on:click=move |_| room.act(Action::Undo)>"Undo"</button>
                    <button on:click=move |_| room.act(Action::Clear)>"Clear"</button>
                </div>
                <ol class="moves" aria-label="Your moves">
                    {move || board.with(|b| b.as_ref().map(|b| b.moves().iter().map(|m| m.step().to_string()).collect::<Vec<_>>())).unwrap_or_default().into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}
                </ol>
                <table class="scoreboard">
                    <caption>"Scoreboard"</caption>
                    <tbody>
                        {move || seen.with(|s| s.as_ref().map(|s| s.members.clone())).unwrap_or_default().into_iter().map(|(seat, who, score)| {
                            view! {
                                <tr>
                                    <th scope="row" class="player-name">{who.clone()}{(Some(seat) == me()).then_some(" (you)")}</th>
                                    <td class="player-score" data-testid=format!("room-score-{seat}")>{score}</td>
                                    <td>{host().filter(|_| Some(seat) != me()).map(|h| view! {
                                        <button on:click=move |_| room.send(ClientMsg::Remove { host: h.clone(), seat })>{format!("Remove {who}")}</button>
                                    })}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                {move || host().map(|h| {
                    let code = seen.with(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_default();
                    let csv_href = format!("scores.csv?code={code}&host={h}");
                    let (h1, h2, h3, h4, h5, h6) = (h.clone(), h.clone(), h.clone(), h.clone(), h.clone(), h);
                    let locked = seen.with(|s| s.as_ref().is_some_and(|s| s.locked));
                    view! {
                        <section class="host-controls" aria-label="Host">
                            <h3>"Host"</h3>
                            <div class="controls">
                                <button class="primary" on:click=move |_| room.send(ClientMsg::NewRoll { host: h1.clone(), roll: None })>"New roll for the class"</button>
                                <button on:click=move |_| room.send(ClientMsg::Lock { host: h2.clone(), locked: !locked })>{if locked { "Open the room" } else { "Lock the room" }}</button>
                                <button on:click=move |_| room.send(ClientMsg::ClearChat { host: h3.clone() })>"Clear the chat"</button>
                            </div>
                            <form class="play-roll" on:submit=move |ev| {
                                ev.prevent_default();
                                match crate::forms::roll_for(&typed_roll.get_untracked(), &Rules::default().dice) {
                                    Ok(roll) => room.send(ClientMsg::NewRoll { host: h4.clone(), roll: Some(roll) }),
                                    Err(e) => error.set(Some(e)),
                                }
                            }>
                                <label>"Roll for the class " <input type="text" prop:value=move || typed_roll.get() on:input=move |ev| typed_roll.set(event_target_value(&ev))/></label>
                                <button type="submit">"Deal this roll"</button>
                            </form>
                            <form class="room-rules" on:submit=move |ev| {
                                ev.prevent_default();
                                let parsed = (
                                    crate::forms::dice(&r_dice.get_untracked()),
                                    crate::forms::goal(&r_goal.get_untracked()),
                                    crate::forms::whole(&r_score.get_untracked(), "The SCORE clock", 5, 600),
                                    crate::forms::whole(&r_impossible.get_untracked(), "The IMPOSSIBLE clock", 5, 600),
                                );
                                match parsed {
                                    (Ok(dice), Ok(goal), Ok(s), Ok(i)) => room.send(ClientMsg::Rules {
                                        host: h5.clone(),
                                        dice,
                                        goal,
                                        score_secs: s as u32,
                                        impossible_secs: i as u32,
                                        judging: r_judging.get_untracked(),
                                    }),
                                    (d, g, s, i) => error.set(d.err().or(g.err()).or(s.err()).or(i.err())),
                                }
                            }>
                                <h4>"The room's rules"</h4>
                                <label>"Dice (sides) " <input type="text" prop:value=move || r_dice.get() on:input=move |ev| r_dice.set(event_target_value(&ev))/></label>
                                <label>"Goal " <input type="text" inputmode="numeric" prop:value=move || r_goal.get() on:input=move |ev| r_goal.set(event_target_value(&ev))/></label>
                                <label>"SCORE clock (seconds) " <input type="text" inputmode="numeric" prop:value=move || r_score.get() on:input=move |ev| r_score.set(event_target_value(&ev))/></label>
                                <label>"IMPOSSIBLE clock (seconds) " <input type="text" inputmode="numeric" prop:value=move || r_impossible.get() on:input=move |ev| r_impossible.set(event_target_value(&ev))/></label>
                                <label class="check">
                                    <input type="checkbox" prop:checked=move || r_judging.get() on:change=move |ev| r_judging.set(event_target_checked(&ev))/>
                                    " The computer judges IMPOSSIBLE"
                                </label>
                                <button type="submit">"Apply and roll"</button>
                            </form>
                            <p>
                                <a download href=csv_href>"Download scores (CSV)"</a>
                            </p>
                            <button class="danger" on:click=move |_| room.send(ClientMsg::End { host: h6.clone() })>"End the room"</button>
                        </section>
                    }
                })}
                <section class="chat" aria-label="Chat">
                    <h3>"Chat"</h3>
                    <ul class="chat-lines">
                        {move || seen.with(|s| s.as_ref().map(|s| s.chat.clone())).unwrap_or_default().into_iter().map(|c| view! {
                            <li><strong>{c.name}</strong>": "{c.text}</li>
                        }).collect_view()}
                    </ul>
                    <form on:submit=send_chat>
                        <label>"Message " <input type="text" maxlength="300" prop:value=move || message.get() on:input=move |ev| message.set(event_target_value(&ev))/></label>
                        <button type="submit">"Send"</button>
                    </form>
                </section>
                <button on:click=move |_| room.leave()>"Leave the room"</button>
            </Show>
        </div>
    }
}
