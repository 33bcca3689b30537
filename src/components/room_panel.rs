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
use score_engine::{Action, Board, Op, Rules, TileId};
use score_room::protocol::{
    next, random_code, ChatLine, Claim, ClientMsg, Clock, ErrorCode, HostCommand, Next, Player, ReportRow, RoomEvent,
    Seat, ServerMsg, View, CHAT_KEPT, CODE_LEN, VERSION,
};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use crate::codec;
use crate::components::{RoomChat, RoomHostPanel, RoomJoin};
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
    /// The name the seat was taken with: the join form offers it again if the seat is gone.
    #[serde(default)]
    name: String,
}

fn ticket() -> Option<Ticket> {
    storage::load::<Option<Ticket>>(ROOM_KEY, "room").0.flatten()
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
pub(crate) struct Seen {
    pub(crate) code: String,
    pub(crate) seat: Seat,
    pub(crate) host: Option<String>,
    pub(crate) rules: Rules,
    pub(crate) judging: bool,
    pub(crate) roll: Vec<i64>,
    pub(crate) members: Vec<Player>,
    /// The running clock.
    pub(crate) clock: Option<Clock>,
    /// Server clock minus this browser's, ms.
    pub(crate) offset: i64,
    /// The last room event applied.
    pub(crate) seq: u64,
    pub(crate) results: Vec<String>,
    pub(crate) chat: Vec<ChatLine>,
    /// The claimant's working, shown to all while their SCORE clock runs.
    pub(crate) live: Option<(Seat, Vec<String>)>,
    pub(crate) locked: bool,
}

impl Seen {
    pub(crate) fn name(&self, seat: Seat) -> String {
        self.members.iter().find(|m| m.seat == seat).map(|m| m.name.clone()).unwrap_or_default()
    }

    /// Applies one room event; whether this member's board starts again from the roll.
    fn apply(&mut self, event: RoomEvent) -> bool {
        match event {
            RoomEvent::Joined { seat, name } => {
                self.members.retain(|m| m.seat != seat);
                self.members.push(Player { seat, name, score: 0 });
                self.members.sort_unstable_by_key(|m| m.seat);
            }
            RoomEvent::Left { seat } => self.members.retain(|m| m.seat != seat),
            RoomEvent::Clock { seat, claim, deadline } => {
                self.clock = Some(Clock { seat, claim, deadline });
                if claim == Claim::Score {
                    self.live = Some((seat, Vec::new()));
                    return seat == self.seat;
                }
            }
            RoomEvent::Board { seat, moves } => {
                if self.clock.is_some_and(|c| c.seat == seat && c.claim == Claim::Score) {
                    self.live = Some((seat, moves));
                }
            }
            RoomEvent::Results { lines, scores } => {
                self.results = lines;
                self.clock = None;
                for s in scores {
                    if let Some(m) = self.members.iter_mut().find(|m| m.seat == s.seat) {
                        m.score = s.score;
                    }
                }
            }
            RoomEvent::Rolled { roll } => {
                self.roll = roll;
                self.clock = None;
                self.live = None;
                self.results.clear();
                return true;
            }
            RoomEvent::Chat { name, text, .. } => {
                self.chat.push(ChatLine { name, text });
                if self.chat.len() > CHAT_KEPT {
                    self.chat.remove(0);
                }
            }
            RoomEvent::ChatCleared => self.chat.clear(),
            RoomEvent::Locked { locked } => self.locked = locked,
            RoomEvent::Rules { rules, judging } => {
                self.rules = rules;
                self.judging = judging;
            }
        }
        false
    }
}

/// The room socket's address, naming the room (`ws?room=CODE`) so that a proxy in front
/// of several servers can send every socket of a room to the one that holds it.
fn socket_url(code: &str) -> Option<String> {
    let loc = web_sys::window()?.location();
    let scheme = if loc.protocol().ok()? == "https:" { "wss" } else { "ws" };
    let path = loc.pathname().ok()?;
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    Some(format!("{scheme}://{}{}ws?room={code}", loc.host().ok()?, dir))
}

/// A code for a new room, from the browser's randomness.
pub(crate) fn new_code() -> String {
    let mut bytes = [0u8; CODE_LEN];
    let _ = getrandom::fill(&mut bytes);
    random_code(bytes)
}

/// The room a hello is for.
fn hello_code(hello: &ClientMsg) -> &str {
    match hello {
        ClientMsg::Create { code, .. } | ClientMsg::Join { code, .. } => code,
        _ => "",
    }
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

/// The connection and what keeps it alive.
#[derive(Default)]
struct Link {
    ws: Option<WebSocket>,
    handlers: Vec<Closure<dyn FnMut(JsValue)>>,
    retry: Option<Timeout>,
    attempts: u32,
    opened_once: bool,
    /// What to send on (re)opening: create or join, then (once seated) join by the seat's token.
    hello: Option<ClientMsg>,
}

/// The view's state, all of it `Copy` handles.
#[derive(Clone, Copy)]
pub(crate) struct Room {
    status: RwSignal<Status>,
    pub(crate) seen: RwSignal<Option<Seen>>,
    pub(crate) error: RwSignal<Option<String>>,
    board: RwSignal<Option<Board>>,
    picked: RwSignal<Option<TileId>>,
    second: RwSignal<Option<TileId>>,
    /// The teacher's report, when the host asked for it.
    pub(crate) report: RwSignal<Option<Vec<ReportRow>>>,
    /// The join form's code and name, filled in again when a seat is gone.
    pub(crate) code: RwSignal<String>,
    pub(crate) name: RwSignal<String>,
    link: StoredValue<Link, LocalStorage>,
}

impl Room {
    fn reset_board(self, s: &Seen) {
        self.board.set(Some(Board::new(&s.roll, &s.rules)));
        self.picked.set(None);
        self.second.set(None);
    }

    fn on_server(self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { code, seat, token, host, seq, view } => {
                let View { rules, judging, roll, members, clock, settled: _, now, results, chat, moves, locked } =
                    *view;
                // Back after a drop with moves on the room's copy: both boards start again from the roll.
                if !moves.is_empty() {
                    self.send(ClientMsg::Act { action: Action::Clear.into() });
                }
                let kept = ticket().filter(|t| t.code == code);
                let host = host.or_else(|| kept.as_ref().and_then(|t| t.host.clone()));
                let live = clock.filter(|c| c.claim == Claim::Score).map(|c| (c.seat, Vec::new()));
                let s = Seen {
                    code,
                    seat,
                    host,
                    rules,
                    judging,
                    roll,
                    members,
                    clock,
                    offset: now as i64 - js_sys::Date::now() as i64,
                    seq,
                    results,
                    chat,
                    live,
                    locked,
                };
                let (code, name) = (s.code.clone(), s.name(seat));
                let t = Ticket { code: code.clone(), token: token.clone(), host: s.host.clone(), name: name.clone() };
                let _ = storage::save(ROOM_KEY, &Some(t));
                // A reconnection takes this seat back (never creates a second room).
                self.link.update_value(|l| {
                    l.hello = Some(ClientMsg::Join { version: VERSION, code, name, token: Some(token) });
                });
                self.reset_board(&s);
                self.seen.set(Some(s));
                self.status.set(Status::Live);
                self.error.set(None);
            }
            ServerMsg::Error { code, message } => {
                let retry = self.link.with_value(|l| match &l.hello {
                    Some(ClientMsg::Create { version, name, judging, .. }) => Some(ClientMsg::Create {
                        version: *version,
                        code: new_code(),
                        name: name.clone(),
                        judging: *judging,
                    }),
                    _ => None,
                });
                if let (ErrorCode::CodeTaken, Some(hello)) = (code, retry) {
                    // The code this page proposed for its new room is taken: another one.
                    self.start(hello);
                    return;
                }
                if code == ErrorCode::SeatGone {
                    // Back to the join form, with the code and the name the seat had.
                    let kept = ticket();
                    self.leave();
                    if let Some(t) = kept {
                        self.code.set(t.code);
                        self.name.set(t.name);
                    }
                } else if code.sends_away() || self.status.get_untracked() != Status::Live {
                    // Not seated (a code or name refused) or sent away: back to the forms.
                    self.leave();
                }
                self.error.set(Some(message));
            }
            ServerMsg::Event { seq, now, event } => {
                let last = self.seen.with_untracked(|s| s.as_ref().map(|s| s.seq));
                match last.map(|last| next(last, seq)) {
                    Some(Next::Apply) => self.on_event(event, now, Some(seq)),
                    // One was missed: the room afresh, from a new Welcome.
                    Some(Next::Missed) => self.open(),
                    Some(Next::Seen) | None => {}
                }
            }
            ServerMsg::Own { now, event } => self.on_event(event, now, None),
            ServerMsg::Report { rows } => self.report.set(Some(rows)),
        }
    }

    fn on_event(self, event: RoomEvent, now: u64, seq: Option<u64>) {
        let mut reset = None;
        self.seen.update(|s| {
            let Some(s) = s else { return };
            s.offset = now as i64 - js_sys::Date::now() as i64;
            if let Some(seq) = seq {
                s.seq = seq;
            }
            if s.apply(event) {
                reset = Some(s.clone());
            }
        });
        if let Some(s) = reset {
            self.reset_board(&s);
        }
    }

    /// Opens the socket and says hello; after a drop (once it had opened) it tries again
    /// with backoff; if it never opens, no room server answers here.
    fn open(self) {
        let code = self.link.with_value(|l| l.hello.as_ref().map(|h| hello_code(h).to_string())).unwrap_or_default();
        let Some(url) = socket_url(&code) else { return };
        let Ok(ws) = WebSocket::new(&url) else {
            self.status.set(Status::NoServer);
            return;
        };
        let sock = ws.clone();
        let on_open = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            let hello = self.link.with_value(|l| l.hello.clone());
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
                old.set_onmessage(None);
                let _ = old.close();
            }
            l.handlers = vec![on_open, on_message, on_close];
        });
    }

    pub(crate) fn start(self, hello: ClientMsg) {
        self.link.update_value(|l| {
            l.hello = Some(hello);
            l.opened_once = false;
        });
        self.status.set(Status::Connecting);
        self.error.set(None);
        self.open();
    }

    pub(crate) fn send(self, msg: ClientMsg) {
        let sent = self.link.with_value(|l| match (&l.ws, codec::to_text(&msg)) {
            (Some(ws), Ok(text)) if ws.ready_state() == WebSocket::OPEN => ws.send_with_str(&text).is_ok(),
            _ => false,
        });
        if !sent {
            self.error.set(Some("Not connected to the room: reconnecting…".into()));
        }
    }

    /// A host's command, with the host token this page holds.
    pub(crate) fn command(self, command: HostCommand) {
        if let Some(host) = self.seen.with_untracked(|s| s.as_ref().and_then(|s| s.host.clone())) {
            self.send(ClientMsg::Host { host, command });
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

    /// Out of the room on this page: the socket closed, the seat token forgotten.
    fn leave(self) {
        self.close();
        let _ = storage::save(ROOM_KEY, &None::<Ticket>);
        self.seen.set(None);
        self.status.set(Status::Out);
    }

    /// "Leave the room": the seat and its name are given up at once, then the page leaves.
    fn quit(self) {
        self.send(ClientMsg::Leave);
        self.leave();
    }

    /// A move on this member's board: checked here by the same `Board` the room replays.
    fn act(self, action: Action) {
        let strict_clock = self.seen.with_untracked(|s| {
            s.as_ref()
                .is_some_and(|s| s.rules.strict && s.clock.is_some_and(|c| c.seat == s.seat && c.claim == Claim::Score))
        });
        if strict_clock && matches!(action, Action::Undo | Action::Clear) {
            self.error.set(Some(score_engine::RoundError::StrictUndo.to_string()));
            return;
        }
        let done = self.board.try_update(|b| b.as_mut().map(|b| b.apply(action))).flatten();
        match done {
            Some(Ok(_)) => {
                self.error.set(None);
                self.send(ClientMsg::Act { action: action.into() });
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
        report: RwSignal::new(None),
        code: RwSignal::new(invite.unwrap_or_default()),
        name: RwSignal::new(String::new()),
        link: StoredValue::new_local(Link::default()),
    };
    let Room { status, seen, error, board, picked, second, .. } = room;
    on_cleanup(move || room.close());
    // A seat from an earlier visit is taken back at once.
    if let Some(t) = ticket() {
        room.start(ClientMsg::Join { version: VERSION, code: t.code, name: t.name, token: Some(t.token) });
    }

    let drag_from = RwSignal::new(None::<TileId>);

    let me = move || seen.with(|s| s.as_ref().map(|s| s.seat));
    // Whether this page holds the host token: a memo, so that the Host panel is built once, not
    // again at every room event (which would drop what the host is typing).
    let hosting = Memo::new(move |_| seen.with(|s| s.as_ref().is_some_and(|s| s.host.is_some())));
    let host = move || hosting.get().then_some(());
    let seconds = move || {
        let now = now.get() as i64;
        seen.with(|s| {
            s.as_ref().and_then(|s| {
                s.clock.map(|c| {
                    let left = (c.deadline as i64 - (now + s.offset)).max(0);
                    (s.name(c.seat), c.claim.label(), (left + 999) / 1000)
                })
            })
        })
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
                <RoomJoin room/>
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
                    // The host's screen (on the projector) shows the link as a QR code to scan;
                    // score-server draws it, knowing its own address.
                    {s.host.is_some().then(|| view! {
                        <img
                            class="room-qr"
                            src=format!("qr.svg?room={}", s.code)
                            alt=format!("QR code of the link to join room {}", s.code)
                            width="160"
                            height="160"
                        />
                    })}
                    <p class="room-roll">"Make " <strong>{s.rules.goal}</strong> " from " <strong data-testid="room-roll">{roll_text(&s.roll)}</strong></p>
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
                    <button class="claim score" aria-label="SCORE in the room" on:click=move |_| room.send(ClientMsg::Claim { claim: Claim::Score })>"SCORE"</button>
                    <button class="claim impossible" aria-label="IMPOSSIBLE in the room" on:click=move |_| room.send(ClientMsg::Claim { claim: Claim::Impossible })>"IMPOSSIBLE"</button>
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
                        {move || seen.with(|s| s.as_ref().map(|s| s.members.clone())).unwrap_or_default().into_iter().map(|Player { seat, name: who, score }| {
                            view! {
                                <tr>
                                    <th scope="row" class="player-name">{who.clone()}{(Some(seat) == me()).then_some(" (you)")}</th>
                                    <td class="player-score" data-testid=format!("room-score-{seat}")>{score}</td>
                                    <td>{host().filter(|_| Some(seat) != me()).map(|_| view! {
                                        <button on:click=move |_| room.command(HostCommand::Remove { seat })>{format!("Remove {who}")}</button>
                                    })}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                {move || host().map(|_| view! { <RoomHostPanel room/> })}
                <RoomChat room/>
                <button on:click=move |_| room.quit()>"Leave the room"</button>
            </Show>
        </div>
    }
}
