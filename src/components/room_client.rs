//! A class room's client: the socket to `score-server`'s room, what this member (or host
//! screen) has seen of the room ([`Seen`], whose [`Mirror`] is tested natively in
//! `score-room`), and the ticket that takes the seat back after a reload. The server is the
//! only judge: the page sends what the player does and shows what the room says. It speaks
//! through the browser's own WebSocket (web-sys): no extra crate, and reconnection with
//! backoff is a few lines we control.
//!
//! The screens ([`RoomPanel`](crate::components::RoomPanel) and the forms, the student's
//! table and the presenter under it) depend on this; it depends on none of them.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use score_engine::{Action, Board};
use score_i18n::{Catalog, Fill, Key};
use score_room::mirror::{Effect, Mirror};
use score_room::protocol::{
    random_code, warm_usable, ClientMsg, EarlyError, ErrorCode, HardRoll, HomeworkCommand, HostCommand, ProgressRow,
    Refusal, ReportRow, RoomEvent, Seat, ServerMsg, View, CODE_LEN,
};
use score_room::ticket::{Ticket, Tickets};
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use crate::codec;
use crate::hooks::use_clock::now_ms;
use crate::storage;
use crate::table::Slots;

/// Where this browser keeps its way back into each room (seat and host tokens), so a
/// reload takes the same place back.
pub const ROOMS_KEY: &str = "score.rooms.v2";
/// Where one room's ticket was kept before (read when the new key holds nothing).
const ROOM_KEY_V1: &str = "score.room.v1";
/// This tab's note of the room it presents as a host screen (session storage: per tab).
/// The boot script reads it too (`scripts/boot.template.js`): a tab that presents a room
/// reloads into the whole class room module, not the student's.
const SCREEN_KEY: &str = "score.room.screen";

/// Every room this browser can come back to.
pub(crate) fn tickets() -> Tickets {
    storage::load::<Tickets>(ROOMS_KEY, crate::say::Stored::Rooms).0.unwrap_or_else(|| {
        let mut all = Tickets::default();
        if let Some(t) = storage::load::<Option<Ticket>>(ROOM_KEY_V1, crate::say::Stored::Rooms).0.flatten() {
            all.keep(t);
        }
        all
    })
}

fn keep_tickets(all: &Tickets) {
    let _ = storage::save(ROOMS_KEY, all);
}

/// Room `code`'s ticket.
pub(crate) fn ticket_for(code: &str) -> Option<Ticket> {
    tickets().get(code).cloned()
}

/// Whether this tab presents room `code` as a host screen (rather than sitting in its seat).
pub(crate) fn presents(code: &str) -> bool {
    storage::tab_note(SCREEN_KEY).as_deref() == Some(code)
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Status {
    Out,
    Connecting,
    Live,
    Reconnecting,
    /// No room server answers: the page is served as plain files.
    NoServer,
    /// Nothing answers where the page came from (this device offline, or the server stopped):
    /// the room is tried again, at once when the browser says it is back online.
    Unreachable,
    /// The server speaks a newer protocol: this page must be reloaded (its place is kept).
    Outdated,
    /// Another tab of this browser took the seat: this one waits to be asked to take it back.
    Elsewhere,
}

impl Status {
    /// Whether the page is trying the room again by itself (after a wait, or at once when the
    /// device is back online or the page back in view): its place, or the Join just pressed,
    /// is what comes back.
    pub(crate) const fn retrying(self) -> bool {
        matches!(self, Status::Unreachable | Status::Reconnecting)
    }
}

/// The room as this member (or host screen) sees it: the room's code, this page's seat and
/// host token, and the [`Mirror`] of the room (tested natively in `score-room`), whose view
/// it reads as its own fields.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Seen {
    pub(crate) code: String,
    /// This page's seat: none for a host screen that doesn't play.
    pub(crate) seat: Option<Seat>,
    pub(crate) host: Option<String>,
    pub(crate) mirror: Mirror,
}

impl std::ops::Deref for Seen {
    type Target = View;
    fn deref(&self) -> &View {
        self.mirror.view()
    }
}

impl Seen {
    pub(crate) fn name(&self, seat: Seat) -> String {
        self.mirror.name(seat)
    }

    /// A server time in this browser's clock.
    pub(crate) fn local(&self, server_ms: u64) -> u64 {
        self.mirror.local(server_ms)
    }
}

/// The teacher's report as the server sent it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Report {
    pub(crate) rows: Vec<ReportRow>,
    /// A kept class's Progress.
    pub(crate) progress: Vec<ProgressRow>,
    /// The room's Hardest rolls.
    pub(crate) hardest: Vec<HardRoll>,
}

/// The room socket's address, naming the room (`ws?room=CODE`, the code in capitals) so that
/// a proxy in front of several servers can send every socket of a room to the one that holds it.
fn socket_url(code: &str) -> Option<String> {
    // As the server writes it: a proxy routes by the address exactly as spelt.
    let code = score_room::protocol::room_code(code).unwrap_or_else(|| code.to_string());
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
        ClientMsg::Create { code, .. } | ClientMsg::Join { code, .. } | ClientMsg::Present { code, .. } => code,
        _ => "",
    }
}

/// Whether a hello comes back to a place this browser holds: a seat by its token, or a
/// host screen by the host token.
fn rejoining(hello: &Option<ClientMsg>) -> bool {
    matches!(hello, Some(ClientMsg::Join { token: Some(_), .. } | ClientMsg::Present { .. }))
}

/// This page's address with `query`: `?room=CODE` opens the room, `#host=` too as its host.
pub(crate) fn page_link(query: &str) -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}{query}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// Tells the page the room was left: solitaire comes back.
pub(crate) fn left_room() {
    if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new("score-room:left")) {
        let _ = w.dispatch_event(&ev);
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
    /// What to send on (re)opening: create, join or present, then (once in) the way back in.
    hello: Option<ClientMsg>,
    /// A socket opened ahead of its hello ([`Room::warm_up`]): its address, and when (ms).
    warm: Option<(String, WebSocket, f64)>,
    /// Each socket's try, counted: a verdict on why one never opened is for its own try only.
    round: u32,
    /// The last try whose verdict is in ([`Room::settle`]).
    settled: u32,
    /// The time limit on the verdict of the try that never opened.
    probe: Option<Timeout>,
}

/// The room client, all of it `Copy` handles.
#[derive(Clone, Copy)]
pub(crate) struct Room {
    pub(crate) status: RwSignal<Status>,
    pub(crate) seen: RwSignal<Option<Seen>>,
    /// What the room (or the page) refused last, in a sentence.
    pub(crate) error: RwSignal<Option<String>>,
    /// This member's board: a copy of the one the room keeps, checked by the same engine.
    pub(crate) board: RwSignal<Option<Board>>,
    pub(crate) slots: RwSignal<Slots>,
    /// Why the last move on this board was refused.
    pub(crate) message: RwSignal<Option<String>>,
    /// Rolls seen on this page, so the table redraws its dice for each.
    pub(crate) rolls: RwSignal<u64>,
    /// The wall clock, ms.
    pub(crate) now: RwSignal<u64>,
    /// This member's homework table, as the room's own above: its board, slots, why its last
    /// move was refused, its rolls seen; and whether the page shows it (not the class's).
    pub(crate) hw_board: RwSignal<Option<Board>>,
    pub(crate) hw_slots: RwSignal<Slots>,
    pub(crate) hw_message: RwSignal<Option<String>>,
    pub(crate) hw_rolls: RwSignal<u64>,
    pub(crate) hw_open: RwSignal<bool>,
    /// The teacher's report, when the host asked for it, with a kept class's Progress and
    /// the room's Hardest rolls.
    pub(crate) report: RwSignal<Option<Report>>,
    /// The join form's code and name, filled in again when a seat is gone or refused.
    pub(crate) code: RwSignal<String>,
    pub(crate) name: RwSignal<String>,
    /// A host screen shows only the game (the Host panel hidden): for the projector.
    pub(crate) presenting: RwSignal<bool>,
    /// What the room's live region says (a screen reader hears the room, not solitaire).
    pub(crate) heard: RwSignal<String>,
    /// When it last changed (this browser's clock).
    heard_at: RwSignal<u64>,
    /// Where the server says other devices reach it (for a host screen; none until told).
    pub(crate) server_at: RwSignal<Option<Vec<String>>>,
    /// The words of this page's language, for what the room says (results, refusals, what a
    /// screen reader hears).
    pub(crate) words: RwSignal<Catalog>,
    link: StoredValue<Link, LocalStorage>,
}

impl Room {
    pub(crate) fn new(code: String) -> Room {
        Room {
            status: RwSignal::new(Status::Out),
            seen: RwSignal::new(None),
            error: RwSignal::new(None),
            board: RwSignal::new(None),
            slots: RwSignal::new(Slots::default()),
            message: RwSignal::new(None),
            rolls: RwSignal::new(0),
            now: RwSignal::new(now_ms()),
            hw_board: RwSignal::new(None),
            hw_slots: RwSignal::new(Slots::default()),
            hw_message: RwSignal::new(None),
            hw_rolls: RwSignal::new(0),
            hw_open: RwSignal::new(false),
            report: RwSignal::new(None),
            code: RwSignal::new(code),
            name: RwSignal::new(String::new()),
            presenting: RwSignal::new(false),
            server_at: RwSignal::new(None),
            heard: RwSignal::new(String::new()),
            heard_at: RwSignal::new(0),
            words: RwSignal::new(Catalog::english()),
            link: StoredValue::new_local(Link::default()),
        }
    }

    /// The words of `key` in the page's language, `fill` filled in (tracked: a view that
    /// reads them follows a language switch).
    pub(crate) fn t(self, key: Key, fill: &[Fill]) -> String {
        self.words.with(|w| w.text(key, fill))
    }

    /// The words of `key`, following the page's language (a view's text or attribute).
    pub(crate) fn tr(self, key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || self.t(key, &[])
    }

    /// The words of `key` for the count `n`, in the page's language.
    pub(crate) fn count(self, key: Key, n: u64, fill: &[Fill]) -> String {
        self.words.with(|w| w.count(key, n, fill))
    }

    /// `text` (an operator, an expression, working) with × and ÷ written the page's way.
    pub(crate) fn signs(self, text: &str) -> String {
        self.words.with(|w| w.signs(text))
    }

    /// The board as the mirror has it, the slots emptied; `new_roll` redraws the dice.
    fn reset_board(self, s: &Seen, new_roll: bool) {
        self.board.set(s.seat.map(|_| s.mirror.board()));
        self.slots.set(Slots::default());
        if new_roll {
            self.message.set(None);
            self.rolls.update(|n| *n += 1);
        }
        self.reset_homework(s);
    }

    /// The homework table as the mirror has it, the slots emptied if it changed; a new roll
    /// redraws the dice.
    fn reset_homework(self, s: &Seen) {
        let board = s.mirror.homework().map(Mirror::board);
        let roll = |b: &Option<Board>| b.as_ref().map(|b| b.roll().to_vec());
        let moves = |b: &Option<Board>| b.as_ref().map(Board::actions);
        let (new_roll, same) = self.hw_board.with_untracked(|old| {
            let new_roll = roll(old) != roll(&board);
            (new_roll, !new_roll && moves(old) == moves(&board))
        });
        self.hw_board.set(board);
        // The slots a student is filling stay when the board is the same (the answer to their
        // SCORE, on a slow link, arriving while they drag): emptied only when it changed.
        if !same {
            self.hw_slots.set(Slots::default());
        }
        if new_roll {
            self.hw_message.set(None);
            self.hw_rolls.update(|n| *n += 1);
        }
    }

    fn on_server(self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { code, seat, token, host, seq, view } => {
                let mirror = Mirror::welcome(seat, seq, *view, js_sys::Date::now() as u64);
                let name = seat.map(|seat| mirror.name(seat)).unwrap_or_default();
                let mut all = tickets();
                let t = Ticket::welcomed(all.get(&code), &code, token, host, name);
                all.keep(t.clone());
                keep_tickets(&all);
                // This tab is a host screen, or the seat: a reconnection or a reload takes this
                // tab's own place back (never creates a second room, never takes the seat of
                // another tab of this browser).
                let screen = seat.is_none();
                storage::set_tab_note(SCREEN_KEY, screen.then_some(code.as_str()));
                let s = Seen { code, seat, host: t.host.clone(), mirror };
                // A report is of the room it was asked in: never shown beside another; nor beside
                // homework set while this page was away (it may hold those rolls' past).
                let number = s.mirror.homework_number();
                let new_homework = number.is_some()
                    && self
                        .seen
                        .with_untracked(|old| old.as_ref().is_some_and(|o| o.mirror.homework_number() != number));
                if new_homework || self.seen.with_untracked(|old| old.as_ref().is_none_or(|o| o.code != s.code)) {
                    self.report.set(None);
                }
                self.link.update_value(|l| l.hello = t.hello_for(screen));
                // The address names the room, so a reload or a bookmark comes back to it.
                crate::app::set_query(&format!("?room={}", s.code));
                self.reset_board(&s, true);
                if s.host.is_some() && !self.seen.with_untracked(Option::is_some) {
                    // A host screen opens presenting; the Host panel is one press away.
                    self.presenting.set(s.seat.is_none());
                }
                self.seen.set(Some(s));
                self.status.set(Status::Live);
                // Seated, or a screen of the room: the offline copy may start.
                crate::offline::ready();
                self.error.set(None);
                self.link.update_value(|l| l.attempts = 0);
            }
            ServerMsg::Error { code, why } => self.on_error(code, why.as_ref()),
            ServerMsg::Event { seq, now, event } => self.on_event(event, now, Some(seq)),
            ServerMsg::Own { now, event } => self.on_event(event, now, None),
            ServerMsg::Report { rows, progress, hardest } => self.report.set(Some(Report { rows, progress, hardest })),
            ServerMsg::JoinAt { addresses } => self.server_at.set(Some(addresses)),
        }
    }

    fn on_error(self, code: ErrorCode, why: Option<&Refusal>) {
        let hello = self.link.with_value(|l| l.hello.clone());
        if let (ErrorCode::CodeTaken, Some(ClientMsg::Create { version, name, judging, lang, .. })) = (code, &hello) {
            // The code this page proposed for its new room is taken: another one.
            let (version, name, judging, lang) = (*version, name.clone(), *judging, lang.clone());
            self.start(ClientMsg::Create { version, code: new_code(), name, judging, lang });
            return;
        }
        let live = self.status.get_untracked() == Status::Live;
        if code == ErrorCode::OpenElsewhere {
            // The newest tab has the seat; this one stops (no reconnecting by itself), the
            // room's code kept for "Use this tab".
            if let Some(h) = &hello {
                self.code.set(hello_code(h).to_string());
            }
            // (And the seat's name: if that tab leaves, this one's Use this tab brings the forms.)
            if let Some(ClientMsg::Join { name, .. }) = &hello {
                self.name.set(name.clone());
            }
            self.close();
            self.seen.set(None);
            self.board.set(None);
            self.status.set(Status::Elsewhere);
            return;
        } else if code == ErrorCode::OldPage {
            // A newer server: the place is kept for the reload that takes it back.
            self.close();
            self.status.set(Status::Outdated);
            return;
        } else if matches!(code, ErrorCode::SeatGone | ErrorCode::Removed) && rejoining(&hello) {
            let kept = hello.as_ref().and_then(|h| ticket_for(hello_code(h)));
            match kept.as_ref().and_then(Ticket::seat_gone) {
                // A host whose seat is gone keeps the room: back as its host screen.
                Some(t) => {
                    let mut all = tickets();
                    all.keep(t.clone());
                    keep_tickets(&all);
                    if let Some(hello) = t.hello_for(true) {
                        self.start(hello);
                    }
                }
                // Back to the join form, with the code and the name the seat had.
                None => {
                    self.leave();
                    if let Some(t) = kept {
                        self.code.set(t.code);
                        self.name.set(t.name);
                    }
                }
            }
        } else if !live && rejoining(&hello) && code.retry_mends() {
            // Coming back (a seat's token, a host screen) and refused for a while (the server
            // busy, too many connections from this network): the place is kept, and asked
            // for again after a wait.
            self.status.set(Status::Reconnecting);
            self.retry_later(move || self.open());
        } else if code.sends_away() || !live {
            // Not let in (no such room, full, locked, a wrong host link…) or sent away: back
            // to the forms, the code kept so the sentence says what to do with it.
            let asked = hello.as_ref().map(|h| hello_code(h).to_string()).filter(|c| !c.is_empty());
            self.leave();
            if let Some(c) = asked.filter(|_| !matches!(hello, Some(ClientMsg::Create { .. }))) {
                self.code.set(c);
            }
        }
        self.error.set(why.map(|why| self.words.with_untracked(|w| score_room::say::refusal(why, w))));
    }

    fn on_event(self, event: RoomEvent, now: u64, seq: Option<u64>) {
        // New homework set (or this member's run gone): their homework table closes.
        if matches!(event, RoomEvent::HomeworkRun { run: None }) {
            self.hw_open.set(false);
        }
        let homework = || self.seen.with_untracked(|s| s.as_ref().and_then(|s| s.mirror.homework_number()));
        let homework_before = homework();
        let mut effect = Effect::Nothing;
        let mut said = None;
        self.seen.update(|s| {
            if let Some(s) = s {
                let told = event.clone();
                let before = s.mirror.seq();
                effect = s.mirror.receive(seq, now, js_sys::Date::now() as u64, event);
                // Only what was applied is heard (not an event seen before, nor one after a gap).
                if seq.is_none() || s.mirror.seq() != before {
                    said = self.words.with_untracked(|w| score_room::say::heard(&told, s.mirror.view(), s.seat, w));
                }
            }
        });
        // New homework set (not the same one closed; an event applied, not one seen before):
        // a report asked for before may hold its rolls' past (whether they can be made), so it
        // goes until asked for again.
        let homework_now = homework();
        if homework_now.is_some() && homework_now != homework_before {
            self.report.set(None);
        }
        if let Some(said) = said {
            // Events a moment apart (a result, then the roll that follows it) are heard
            // together: the second never replaces the first before it is read out.
            let t = js_sys::Date::now() as u64;
            let recent = t.saturating_sub(self.heard_at.get_untracked()) < 1_500;
            self.heard_at.set(t);
            if recent {
                self.heard.update(|h| {
                    h.push(' ');
                    h.push_str(&said);
                });
            } else {
                self.heard.set(said);
            }
        }
        match effect {
            Effect::Nothing => {}
            // One was missed: the room afresh, from a new Welcome.
            Effect::Reopen => self.open(),
            Effect::Board | Effect::NewRoll => {
                if let Some(s) = self.seen.get_untracked() {
                    self.reset_board(&s, effect == Effect::NewRoll);
                }
            }
            Effect::Homework => {
                if let Some(s) = self.seen.get_untracked() {
                    self.reset_homework(&s);
                }
            }
        }
    }

    /// Opens the socket and says hello; after a drop (once it had opened) it tries again
    /// with backoff; if it never opens, [`Room::unanswered`] finds why.
    fn open(self) {
        self.link.update_value(|l| l.round += 1);
        let code = self.link.with_value(|l| l.hello.as_ref().map(|h| hello_code(h).to_string())).unwrap_or_default();
        let Some(url) = socket_url(&code) else { return };
        // A socket opened ahead for this room, if the server still waits for its hello.
        let warm = self.link.try_update_value(|l| l.warm.take()).flatten().and_then(|(to, ws, at)| {
            let live = matches!(ws.ready_state(), WebSocket::CONNECTING | WebSocket::OPEN);
            if to == url && live && warm_usable(js_sys::Date::now() - at) {
                return Some(ws);
            }
            let _ = ws.close();
            None
        });
        let Some(ws) = warm.or_else(|| WebSocket::new(&url).ok()) else {
            self.status.set(Status::NoServer);
            return;
        };
        let sock = ws.clone();
        let hello = move || {
            let hello = self.link.with_value(|l| l.hello.clone());
            // The count of tries starts again only at a Welcome: a socket that opens and is
            // then refused has not got its place back.
            self.link.update_value(|l| l.opened_once = true);
            if let Some(text) = hello.as_ref().and_then(|h| codec::to_text(h).ok()) {
                let _ = sock.send_with_str(&text);
            }
        };
        let open_now = ws.ready_state() == WebSocket::OPEN;
        let on_open = Closure::<dyn FnMut(JsValue)>::new({
            let hello = hello.clone();
            move |_| hello()
        });
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
            let Ok(ev) = ev.dyn_into::<MessageEvent>() else { return };
            // A server older than this page refuses it in the early shape (to reload).
            let read = |t: String| {
                codec::from_text::<ServerMsg>(&t).or_else(|| codec::from_text::<EarlyError>(&t).map(EarlyError::read))
            };
            if let Some(msg) = ev.data().as_string().and_then(read) {
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
                self.unanswered();
                return;
            }
            self.status.set(Status::Reconnecting);
            self.retry_later(move || self.open());
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
        if open_now {
            hello();
        }
    }

    /// Opens the socket for room `code` ahead of its hello (an invite's page, while the
    /// student types their name): joining then takes one round trip, not two. The hello
    /// takes it while the server still waits for a first message ([`warm_usable`]); else a
    /// socket of its own.
    pub(crate) fn warm_up(self, code: &str) {
        let Some(url) = socket_url(code) else { return };
        self.link.update_value(|l| {
            if l.ws.is_none() && l.warm.is_none() {
                if let Ok(ws) = WebSocket::new(&url) {
                    l.warm = Some((url, ws, js_sys::Date::now()));
                }
            }
        });
    }

    /// A socket that never opened: why. The page asks its own server for the socket's address
    /// as a plain request, and `protocol::plain_files` reads the answer (none in 5 s is none):
    /// plain files stop the room there; anything else leaves it unreachable (this device
    /// offline or on another network, or the server stopped), tried again later.
    fn unanswered(self) {
        let Some(round) = self.link.try_with_value(|l| l.round) else { return };
        let Some(asked) = web_sys::window().map(|w| w.fetch_with_str("ws")) else {
            self.settle(round, true);
            return;
        };
        leptos::task::spawn_local(async move {
            let answer = wasm_bindgen_futures::JsFuture::from(asked).await.ok();
            let status = answer.and_then(|r| r.dyn_into::<web_sys::Response>().ok()).map(|r| r.status());
            self.settle(round, score_room::protocol::plain_files(status));
        });
        self.link.update_value(|l| l.probe = Some(Timeout::new(5_000, move || self.settle(round, false))));
    }

    /// The verdict on try `round`: the first of its answer and its time limit, and only while
    /// it is the last try of a page still in the room (it may have left, its handles gone).
    fn settle(self, round: u32, plain_files: bool) {
        let mine = self.link.try_update_value(|l| {
            let mine = l.round == round && l.settled != round && l.hello.is_some();
            if mine {
                l.settled = round;
            }
            mine
        });
        if mine != Some(true) {
            return;
        }
        if plain_files {
            self.status.try_set(Status::NoServer);
        } else {
            self.status.try_set(Status::Unreachable);
            self.retry_later(move || self.try_again());
        }
    }

    /// Tries the room again at once, if this page wants one, none of its sockets is open or
    /// opening, it was unreachable or reconnecting, and the page is in view: the browser says
    /// the device is back online, the page came back into view, or an unreachable room's wait
    /// is over. (A tab out of view waits: a tab left behind does not take the seat back from
    /// the one the student uses now.)
    pub(crate) fn try_again(self) {
        let Some(status) = self.status.try_get_untracked() else { return };
        let visible = web_sys::window()
            .and_then(|w| w.document())
            .is_none_or(|d| d.visibility_state() == web_sys::VisibilityState::Visible);
        let idle = self.link.try_with_value(|l| {
            l.hello.is_some()
                && l.ws.as_ref().is_none_or(|ws| !matches!(ws.ready_state(), WebSocket::CONNECTING | WebSocket::OPEN))
        });
        if status.retrying() && visible && idle == Some(true) {
            self.link.update_value(|l| drop(l.retry.take()));
            self.open();
        }
    }

    /// Does `then` (opens the socket again, or tries an unreachable room again) after a wait
    /// that grows with each try (0.5 s to 10 s, spread at random so a class does not come back
    /// in step).
    fn retry_later(self, then: impl FnOnce() + 'static) {
        self.link.update_value(|l| {
            l.attempts += 1;
            let wait = score_room::protocol::retry_delay(l.attempts, js_sys::Math::random());
            l.retry = Some(Timeout::new(wait, then));
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
            self.error.set(Some(self.words.with_untracked(|w| w.text(Key::RoomNotConnected, &[]))));
        }
    }

    /// A host's command, with the host token this page holds.
    pub(crate) fn command(self, command: HostCommand) {
        if let Some(host) = self.seen.with_untracked(|s| s.as_ref().and_then(|s| s.host.clone())) {
            self.send(ClientMsg::Host { host, command });
        }
    }

    pub(crate) fn close(self) {
        self.link.update_value(|l| {
            l.hello = None;
            l.retry = None;
            if let Some((_, ws, _)) = l.warm.take() {
                let _ = ws.close();
            }
            if let Some(ws) = l.ws.take() {
                ws.set_onclose(None);
                let _ = ws.close();
            }
        });
    }

    /// Back to the forms, any place this browser keeps still kept (another room, or a seat
    /// another tab has and has since left): no socket, no tries, and no sentence left over.
    pub(crate) fn to_forms(self) {
        self.close();
        self.error.set(None);
        self.status.set(Status::Out);
    }

    /// Out of the room on this page: the socket closed, the ticket forgotten.
    fn leave(self) {
        // The ticket is forgotten only if it is this page's room's (another tab may keep another).
        let mine = self
            .seen
            .with_untracked(|s| s.as_ref().map(|s| s.code.clone()))
            .or_else(|| self.link.with_value(|l| l.hello.as_ref().map(|h| hello_code(h).to_string())));
        self.close();
        // Only this room's ticket: the browser keeps its way back into its other rooms.
        if let Some(code) = mine {
            let mut all = tickets();
            all.forget(&code);
            keep_tickets(&all);
            if presents(&code) {
                storage::set_tab_note(SCREEN_KEY, None);
            }
        }
        self.seen.set(None);
        self.board.set(None);
        self.status.set(Status::Out);
        // The room's report and addresses go with it (a new room starts without them).
        self.report.set(None);
        self.server_at.set(None);
    }

    /// "Leave the room": a member's seat and name are given up at once; a host's screen
    /// closes and the room goes on (the host comes back to it from "Class room").
    pub(crate) fn quit(self) {
        if self.seen.with_untracked(|s| s.as_ref().is_some_and(|s| s.host.is_some())) {
            self.close();
        } else {
            self.send(ClientMsg::Leave);
            self.leave();
        }
        left_room();
    }

    /// A move on this member's board: made here at once, checked by the same `Board` the
    /// room replays, and sent; the room's answer puts the page's board right if it differs.
    pub(crate) fn act(self, action: Action) {
        let Some(Some(done)) = self.seen.try_update(|s| s.as_mut().map(|s| s.mirror.act(action))) else { return };
        match done {
            Ok(m) => {
                self.message.set(None);
                self.slots.set(Slots::default());
                self.board.set(self.seen.with_untracked(|s| s.as_ref().map(|s| s.mirror.board())));
                self.send(ClientMsg::Act { action: m });
            }
            Err(e) => self.message.set(Some(self.words.with_untracked(|w| score_room::say::room_error(&e, w)))),
        }
    }

    /// A move on this member's homework table, as [`Room::act`] on the class's.
    pub(crate) fn homework_act(self, action: Action) {
        let Some(Some(done)) = self.seen.try_update(|s| s.as_mut().map(|s| s.mirror.homework_act(action))) else {
            return;
        };
        match done {
            Ok(m) => {
                self.hw_message.set(None);
                self.hw_slots.set(Slots::default());
                self.hw_board
                    .set(self.seen.with_untracked(|s| s.as_ref().and_then(|s| s.mirror.homework().map(Mirror::board))));
                self.send(ClientMsg::Homework { command: HomeworkCommand::Act { action: m } });
            }
            Err(e) => self.hw_message.set(Some(self.words.with_untracked(|w| score_room::say::room_error(&e, w)))),
        }
    }
}
