//! The network side: serves the game's files and hosts rooms over WebSockets on the same
//! origin. It only moves messages: every decision is the [`Room`]'s.
//!
//! Limits: frames over 4 KB close the socket; unreadable messages are answered, and the
//! fifth closes it; 20 messages (5 chat messages) per 10 s per connection; 10 joins by a
//! wrong code per minute per address; upgrades from another Origin are refused. Rooms: at
//! most [`Limits::rooms_per_address`] created per address in ten minutes, and
//! [`Limits::max_rooms`] in all; when the server is full, the room nobody has been in for
//! longest makes way, and a room with nobody in it is removed after
//! [`Limits::idle_ms`]. A seat whose member drops keeps its score for 10 minutes and
//! comes back with its token.
//!
//! Memory: each socket's read buffer is sized for this protocol's 4 KB frames (the
//! WebSocket library's default is 128 KiB), an event is written to JSON once and shared by
//! every member's queue, and each queue holds at most [`QUEUE`] messages: a member who
//! stops reading is disconnected with close code [`CLOSE_TOO_SLOW`] (their seat waits for
//! them; the page reconnects and is sent the room afresh).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use score_engine::Rules;
use tokio::sync::mpsc::{channel, error::TrySendError, Sender};
use tower_http::services::{ServeDir, ServeFile};

use crate::store::{Store, StoredRoom};
use score_engine::roll::arrange_or_explain;
use score_room::protocol::{room_code, ClientMsg, ErrorCode, HostCommand, RoomEvent, ServerMsg, VERSION};
use score_room::room::{check_name, Deal, Input, Out, Room, RoomError, Seat, To};

/// Largest message, bytes.
pub const MAX_FRAME: usize = 4096;
/// A dropped member's seat is kept this long, ms.
pub const SEAT_KEPT_MS: u64 = 10 * 60 * 1000;
/// Messages waiting for one member at most; past that the member is too slow and is cut.
pub const QUEUE: usize = 256;
/// The close code for a member cut for not reading (an application code, 4000–4999).
pub const CLOSE_TOO_SLOW: u16 = 4001;
/// Moves (with undos and clears) one member may send in 10 s.
pub const MOVES_PER_10_S: u32 = 120;
/// The window of the wrong-code limit, ms.
const WRONG_CODE_WINDOW_MS: u64 = 60_000;
/// The close code for a socket that said nothing in time, or stopped answering pings.
pub const CLOSE_SILENT: u16 = 4002;
/// The window of [`Limits::rooms_per_address`], ms.
const CREATE_WINDOW_MS: u64 = 10 * 60 * 1000;

/// What one server allows (`score-server`'s flags set them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Most rooms held at once.
    pub max_rooms: usize,
    /// Most rooms one address may create in ten minutes.
    pub rooms_per_address: u32,
    /// A room with nobody connected is removed after this long, ms.
    pub idle_ms: u64,
    /// Behind a proxy: take each client's address from its `X-Real-IP` header.
    pub trust_proxy: bool,
    /// A socket that says nothing this long after it opens is closed, ms.
    pub first_message_ms: u64,
    /// Every socket is pinged this often, ms, and closed when two pings go unanswered (a
    /// phone that left the Wi-Fi no longer holds its room open).
    pub ping_ms: u64,
    /// Most sockets open at once from one address (loopback is not counted: a load test, or a
    /// proxy on this machine without `--trust-proxy`).
    pub sockets_per_address: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rooms: 500,
            rooms_per_address: 5,
            idle_ms: 24 * 60 * 60 * 1000,
            trust_proxy: false,
            first_message_ms: 10_000,
            ping_ms: 30_000,
            sockets_per_address: 1_000,
        }
    }
}

/// One member's connection, as the room holds it: a bounded queue of frames, and the flag
/// that tells the socket's task why the room let go of it.
struct Conn {
    tx: Sender<Utf8Bytes>,
    too_slow: Arc<AtomicBool>,
}

impl Conn {
    /// Queues a frame; `false` when the queue is full (the member is not reading).
    fn offer(&self, frame: &Utf8Bytes) -> bool {
        !matches!(self.tx.try_send(frame.clone()), Err(TrySendError::Full(_)))
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The OS's randomness; on the rare failure, the clock still makes tokens unique enough to retry.
    if getrandom::fill(&mut b).is_err() {
        for (i, x) in b.iter_mut().enumerate() {
            *x = (now_ms() >> (i % 8)) as u8 ^ i as u8;
        }
    }
    b
}

fn token() -> String {
    random_bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// A roll of the room's dice: the engine's one roller (rejection sampling, so every face is
/// equally likely) on the OS's randomness.
fn new_roll(rules: &Rules) -> Vec<i64> {
    score_engine::roll::roll(&rules.dice, || u32::from_le_bytes(random_bytes::<4>()))
}

/// A refusal: what the page acts on, and the sentence it shows.
type Fail = (ErrorCode, String);

fn fail(code: ErrorCode, message: impl Into<String>) -> Fail {
    (code, message.into())
}

fn refusal(error: &RoomError) -> Fail {
    (error.code(), error.to_string())
}

/// What a host's command comes to once its token is checked.
enum HostAction {
    /// An input for the room, with the rules in force when it was made (a roll is dealt for them).
    Play { input: Input, dealt_for: Rules },
    /// The report, for this connection.
    Report,
    /// The end of the room.
    End,
}

/// Who a connection is in a room: a member on their seat, or a host screen without one
/// (a projector, or the host's second device).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Who {
    Seat(Seat),
    Screen(u64),
}

/// One room and who is connected to it.
struct Entry {
    room: Room,
    host: String,
    tokens: HashMap<String, Seat>,
    conns: HashMap<Who, Conn>,
    /// The number of the next host screen to connect.
    screens: u64,
    dropped: HashMap<Seat, u64>,
    active_ms: u64,
    /// The last room event's sequence number (counted afresh after a restart: every page
    /// then reconnects and takes it from its Welcome).
    seq: u64,
    /// Changed since it was last stored (by moves or chat, which wait for the next tick).
    dirty: bool,
    /// Someone other than its host has joined (a room nobody joins counts against its creator).
    joined: bool,
}

/// Whether events must be on disk before the members are told: everything but moves and
/// chat, which are stored at the next tick (at most 200 ms later).
fn durable(outs: &[Out]) -> bool {
    outs.iter().any(|o| !matches!(o.event, RoomEvent::Board { .. } | RoomEvent::Chat { .. }))
}

impl Entry {
    fn stored(&self) -> StoredRoom {
        StoredRoom {
            room: self.room.saved().clone(),
            host: self.host.clone(),
            tokens: self.tokens.clone(),
            active_ms: self.active_ms,
        }
    }

    /// Sends events in order: each written to JSON once, the same frame queued for every
    /// member it is for. A member whose queue is full is cut: their seat waits for them.
    fn send(&mut self, outs: &[Out], now: u64) {
        let mut slow = Vec::new();
        for out in outs {
            let event = out.event.clone();
            match out.to {
                To::All => {
                    self.seq += 1;
                    let Ok(text) = serde_json::to_string(&ServerMsg::Event { seq: self.seq, now, event }) else {
                        continue;
                    };
                    let frame = Utf8Bytes::from(text);
                    slow.extend(self.conns.iter().filter(|(_, c)| !c.offer(&frame)).map(|(&w, _)| w));
                }
                To::Seat(s) => {
                    if let (Some(c), Ok(text)) =
                        (self.conns.get(&Who::Seat(s)), serde_json::to_string(&ServerMsg::Own { now, event }))
                    {
                        if !c.offer(&Utf8Bytes::from(text)) {
                            slow.push(Who::Seat(s));
                        }
                    }
                }
            }
        }
        for who in slow {
            if let Some(c) = self.conns.remove(&who) {
                c.too_slow.store(true, Ordering::Relaxed);
                if let Who::Seat(seat) = who {
                    self.dropped.insert(seat, now);
                }
            }
        }
    }

    /// Tells every connected member one thing (and cuts nobody: this is the last they hear).
    fn tell_all(&self, frame: &Utf8Bytes) {
        for c in self.conns.values() {
            c.offer(frame);
        }
    }

    /// The Welcome for `seat`, built under the same lock that seated it: every event after
    /// it has a higher `seq`, and none before it is sent again.
    fn welcome(&self, code: &str, seat: Option<Seat>, token: Option<String>, host: Option<String>, now: u64) -> String {
        let view = Box::new(self.room.view(seat, now));
        let msg = ServerMsg::Welcome { code: code.into(), seat, token, host, seq: self.seq, view };
        serde_json::to_string(&msg).unwrap_or_default()
    }

    /// Lets go of a seat's connection and tokens (its socket task then ends).
    fn forget(&mut self, seat: Seat) -> Option<Conn> {
        self.tokens.retain(|_, s| *s != seat);
        self.dropped.remove(&seat);
        self.conns.remove(&Who::Seat(seat))
    }

    /// A host screen's connection, under a number of its own.
    fn screen(&mut self, conn: Conn) -> Who {
        self.screens += 1;
        let who = Who::Screen(self.screens);
        self.conns.insert(who, conn);
        who
    }
}

/// Every room of this server.
pub struct Hub {
    rooms: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
    store: Option<Store>,
    wrong_codes: Mutex<HashMap<IpAddr, (u64, u32)>>,
    /// Rooms created per address in the last ten minutes that nobody has joined yet: when,
    /// and their codes. (Taken before `rooms`, never while an entry is held.)
    created: Mutex<HashMap<IpAddr, Vec<(u64, String)>>>,
    /// Sockets open per address.
    sockets: Mutex<HashMap<IpAddr, u32>>,
    rules: Rules,
    limits: Limits,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere must not take every room down with it: the data is still sound.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    /// A hub with the rooms stored in `store` brought back (clocks that ran out settled).
    pub fn new(store: Option<Store>) -> Arc<Hub> {
        Hub::with_rules(store, Rules::default())
    }

    /// [`Hub::new`], new rooms playing `rules`.
    pub fn with_rules(store: Option<Store>, rules: Rules) -> Arc<Hub> {
        Hub::with_limits(store, rules, Limits::default())
    }

    /// [`Hub::with_rules`], within `limits`.
    pub fn with_limits(store: Option<Store>, rules: Rules, limits: Limits) -> Arc<Hub> {
        let now = now_ms();
        let mut rooms = HashMap::new();
        if let Some(s) = &store {
            match s.load() {
                Ok((stored, bad)) => {
                    for (code, r) in stored {
                        let (room, _) = Room::restore(r.room, now);
                        // Nobody is connected after a restart: every seat waits for its member
                        // as a dropped seat does, from now, and is freed if they don't come back.
                        let dropped = r.tokens.values().map(|&seat| (seat, now)).collect();
                        let joined = !r.tokens.is_empty();
                        let entry = Entry {
                            room,
                            host: r.host,
                            tokens: r.tokens,
                            conns: HashMap::new(),
                            screens: 0,
                            dropped,
                            active_ms: r.active_ms,
                            seq: 0,
                            dirty: false,
                            joined,
                        };
                        rooms.insert(code, Arc::new(Mutex::new(entry)));
                    }
                    for code in bad {
                        eprintln!("score-server: room {code} could not be read and was left out");
                    }
                }
                Err(e) => eprintln!("score-server: could not read the rooms: {e}"),
            }
            eprintln!("score-server: {} rooms brought back", rooms.len());
        }
        Arc::new(Hub {
            rooms: Mutex::new(rooms),
            store,
            wrong_codes: Mutex::new(HashMap::new()),
            created: Mutex::new(HashMap::new()),
            sockets: Mutex::new(HashMap::new()),
            rules,
            limits,
        })
    }

    /// Stores a room now. Called only off the async runtime (the socket tasks and the ticker
    /// run the hub on tokio's blocking threads), so a slow disk never stalls other sockets.
    fn save(&self, code: &str, entry: &mut Entry) {
        entry.dirty = false;
        if let Some(s) = &self.store {
            if let Err(e) = s.save(code, &entry.stored()) {
                eprintln!("score-server: room {code} not saved: {e}");
            }
        }
    }

    /// Stores a room before `outs` are sent when they must be durable, else marks it for the
    /// next tick.
    fn keep(&self, code: &str, entry: &mut Entry, outs: &[Out]) {
        if durable(outs) {
            self.save(code, entry);
        } else {
            entry.dirty = true;
        }
    }

    fn entry(&self, code: &str) -> Option<Arc<Mutex<Entry>>> {
        lock(&self.rooms).get(code).cloned()
    }

    /// Settles clocks that ran out, frees seats dropped too long, removes idle rooms.
    pub fn tick(&self) {
        self.tick_at(now_ms());
    }

    /// [`Hub::tick`] at the time `now` (ms).
    pub fn tick_at(&self, now: u64) {
        // Maps keyed by address keep only what still counts.
        lock(&self.wrong_codes).retain(|_, (since, _)| now.saturating_sub(*since) <= WRONG_CODE_WINDOW_MS);
        lock(&self.created).retain(|_, list| {
            list.retain(|(at, _)| now.saturating_sub(*at) < CREATE_WINDOW_MS);
            !list.is_empty()
        });
        let entries: Vec<(String, Arc<Mutex<Entry>>)> =
            lock(&self.rooms).iter().map(|(c, e)| (c.clone(), e.clone())).collect();
        for (code, e) in entries {
            let mut e = lock(&e);
            let mut outs = e.room.tick(now);
            let expired: Vec<Seat> =
                e.dropped.iter().filter(|(_, &t)| now.saturating_sub(t) > SEAT_KEPT_MS).map(|(&s, _)| s).collect();
            for seat in expired {
                e.forget(seat);
                outs.extend(e.room.apply(Input::Leave { seat }, now).unwrap_or_else(|r| r.settled));
            }
            if !outs.is_empty() || e.dirty {
                self.save(&code, &mut e);
                e.send(&outs, now);
            }
            if e.conns.is_empty() && now.saturating_sub(e.active_ms) > self.limits.idle_ms {
                drop(e);
                self.remove(&code);
                eprintln!("score-server: room {code} removed: nobody in it for {} h", self.limits.idle_ms / 3_600_000);
            }
        }
    }

    fn remove(&self, code: &str) {
        lock(&self.rooms).remove(code);
        self.unstore(code);
    }

    /// Deletes a room from the database (it is already out of `rooms`).
    fn unstore(&self, code: &str) {
        if let Some(s) = &self.store {
            if let Err(e) = s.remove(code) {
                eprintln!("score-server: room {code} not removed from the database: {e}");
            }
        }
    }

    /// Counts room `code` created from `from`, or says it is one too many. What is counted is
    /// what abuse looks like: rooms nobody has joined. A school's teachers behind one public
    /// address each create a room their class joins, and none of those counts.
    fn may_create(&self, from: IpAddr, code: &str, now: u64) -> Result<(), Fail> {
        let mut created = lock(&self.created);
        let list = created.entry(from).or_default();
        list.retain(|(at, _)| now.saturating_sub(*at) < CREATE_WINDOW_MS);
        // A room gone unjoined (made way, ended) still counts: it was never a class's.
        let empty = list.iter().filter(|(_, c)| self.entry(c).is_none_or(|e| !lock(&e).joined)).count();
        let per = self.limits.rooms_per_address as usize;
        if empty >= per {
            return Err(fail(
                ErrorCode::TooManyRooms,
                format!(
                    "This device has created {per} rooms in the last ten minutes that nobody has joined: use one of them, or wait."
                ),
            ));
        }
        // And a ceiling on all of them (a joiner from the same address makes a room joined).
        if list.len() >= per * 6 {
            return Err(fail(
                ErrorCode::TooManyRooms,
                format!("This device has created {} rooms in the last ten minutes: wait a few minutes.", list.len()),
            ));
        }
        list.push((now, code.to_string()));
        Ok(())
    }

    /// With the server full, the room nobody has been in for longest makes way for a new
    /// one; `false` when every room has someone in it.
    fn make_way(&self, rooms: &mut HashMap<String, Arc<Mutex<Entry>>>) -> bool {
        let oldest = rooms
            .iter()
            .filter_map(|(code, e)| {
                let e = lock(e);
                e.conns.is_empty().then(|| (e.active_ms, code.clone()))
            })
            .min();
        let Some((_, code)) = oldest else { return false };
        rooms.remove(&code);
        self.unstore(&code);
        eprintln!("score-server: room {code} made way for a new one (nobody in it for longest)");
        true
    }

    /// A new room, under the code the page proposed, opened by its host (seated when they
    /// gave a name to play under, else as a host screen): its code, the host's place and Welcome.
    fn create(
        &self,
        code: &str,
        name: Option<&str>,
        judging: bool,
        conn: Conn,
        from: IpAddr,
    ) -> Result<(String, Who, String), Fail> {
        let taken = || fail(ErrorCode::CodeTaken, "That room code is taken: try again.");
        let code = room_code(code).ok_or_else(taken)?;
        let name = name.map(check_name).transpose().map_err(|e| refusal(&e))?;
        if lock(&self.rooms).contains_key(&code) {
            return Err(taken());
        }
        self.may_create(from, &code, now_ms())?;
        // The solver runs before any lock is taken.
        let deal = Deal::new(new_roll(&self.rules), &self.rules);
        let now = now_ms();
        let mut room = Room::new(self.rules.clone(), judging, deal);
        let seated = name.is_some();
        if let Some(name) = name {
            room.apply(Input::Join { name }, now).map_err(|r| refusal(&r.error))?;
        }
        let host = token();
        let mut entry = Entry {
            room,
            host: host.clone(),
            tokens: HashMap::new(),
            conns: HashMap::new(),
            screens: 0,
            dropped: HashMap::new(),
            active_ms: now,
            seq: 0,
            dirty: false,
            joined: false,
        };
        let (who, seat_token) = if seated {
            let t = token();
            entry.tokens.insert(t.clone(), 0);
            entry.conns.insert(Who::Seat(0), conn);
            (Who::Seat(0), Some(t))
        } else {
            (entry.screen(conn), None)
        };
        let mut rooms = lock(&self.rooms);
        if rooms.len() >= self.limits.max_rooms && !self.make_way(&mut rooms) {
            return Err(fail(ErrorCode::ServerFull, "Every room on this server is in use: try again later."));
        }
        if rooms.contains_key(&code) {
            return Err(taken());
        }
        self.save(&code, &mut entry);
        let welcome = entry.welcome(&code, seated.then_some(0), seat_token, Some(host), now);
        rooms.insert(code.clone(), Arc::new(Mutex::new(entry)));
        eprintln!("score-server: room {code} created");
        Ok((code, who, welcome))
    }

    /// Counts a wrong room code (or host token) from `from`: the refusal to send.
    fn wrong_code(&self, from: IpAddr, now: u64, refusal: Fail) -> Fail {
        let mut wrong = lock(&self.wrong_codes);
        let (since, n) = wrong.entry(from).or_insert((now, 0));
        if now.saturating_sub(*since) > WRONG_CODE_WINDOW_MS {
            (*since, *n) = (now, 0);
        }
        *n += 1;
        if *n > 10 {
            fail(ErrorCode::WrongCodes, "Too many wrong codes: wait a minute.")
        } else {
            refusal
        }
    }

    /// Opens a room as its host on another screen (the host link): no seat.
    fn present(&self, code: &str, host: &str, conn: Conn, from: IpAddr) -> Result<(Who, String), Fail> {
        let code = code.trim().to_uppercase();
        let now = now_ms();
        let no_room =
            || fail(ErrorCode::NoSuchRoom, format!("There is no room {code}: it may have ended. Check the code."));
        let entry = self.entry(&code).ok_or_else(|| self.wrong_code(from, now, no_room()))?;
        let mut e = lock(&entry);
        if e.host != host {
            let message = format!("This host link is not the one for room {code}: you can join it as a member.");
            return Err(self.wrong_code(from, now, fail(ErrorCode::NotHost, message)));
        }
        e.active_ms = now;
        let who = e.screen(conn);
        let host = e.host.clone();
        Ok((who, e.welcome(&code, None, None, Some(host), now)))
    }

    /// A host screen takes a seat ("Play too"): its seat and its new Welcome.
    fn sit(&self, code: &str, screen: Who, name: &str) -> Result<(Who, String), Fail> {
        let gone = || fail(ErrorCode::NotSeated, "You are no longer in this room.");
        let entry = self.entry(code).ok_or_else(gone)?;
        let mut e = lock(&entry);
        // Out of the room's sends while it is seated (as a member who joins is), back if refused.
        let conn = e.conns.remove(&screen).ok_or_else(gone)?;
        let now = now_ms();
        let (seat, t) = match self.seat(code, &mut e, name, now) {
            Ok(seated) => seated,
            Err(refused) => {
                e.conns.insert(screen, conn);
                return Err(refused);
            }
        };
        e.conns.insert(Who::Seat(seat), conn);
        let host = e.host.clone();
        Ok((Who::Seat(seat), e.welcome(code, Some(seat), Some(t), Some(host), now)))
    }

    /// Seats a member (or takes their seat back by its token): their seat and Welcome.
    fn join(
        &self,
        code: &str,
        name: &str,
        token_back: Option<String>,
        conn: Conn,
        from: IpAddr,
    ) -> Result<(Seat, String), Fail> {
        let code = code.trim().to_uppercase();
        let now = now_ms();
        let Some(entry) = self.entry(&code) else {
            let no_room =
                fail(ErrorCode::NoSuchRoom, format!("There is no room {code}: check the code with your teacher."));
            return Err(self.wrong_code(from, now, no_room));
        };
        let mut e = lock(&entry);
        if let Some(token) = token_back {
            let Some(&seat) = e.tokens.get(&token) else {
                return Err(fail(
                    ErrorCode::SeatGone,
                    format!("Your seat in room {code} was given up while you were away: join again with your name."),
                ));
            };
            // Back on the same seat, with the same score. A connection still on it (another tab
            // of the same browser) is told why, then closed; it does not take the seat back
            // by itself.
            if let Some(old) = e.conns.insert(Who::Seat(seat), conn) {
                old.offer(&error(
                    ErrorCode::OpenElsewhere,
                    "This room is open in another tab or window: your seat is there now.",
                ));
            }
            e.dropped.remove(&seat);
            e.active_ms = now;
            return Ok((seat, e.welcome(&code, Some(seat), Some(token), None, now)));
        }
        let (seat, t) = self.seat(&code, &mut e, name, now)?;
        e.joined = true;
        e.conns.insert(Who::Seat(seat), conn);
        Ok((seat, e.welcome(&code, Some(seat), Some(t), None, now)))
    }

    /// Seats `name` in the room: its seat and the seat's token, the join stored and told to
    /// everyone connected. A refused name changes nothing, but clocks settled on the way still
    /// reach everyone and the store.
    fn seat(&self, code: &str, e: &mut Entry, name: &str, now: u64) -> Result<(Seat, String), Fail> {
        let outs = match e.room.apply(Input::Join { name: name.into() }, now) {
            Ok(outs) => outs,
            Err(r) => {
                if !r.settled.is_empty() {
                    self.save(code, e);
                    e.send(&r.settled, now);
                }
                return Err(refusal(&r.error));
            }
        };
        let seat =
            joined_seat(&outs).ok_or_else(|| fail(ErrorCode::Refused, "The room did not seat you: try again."))?;
        let t = token();
        e.tokens.insert(t.clone(), seat);
        e.active_ms = now;
        self.save(code, e);
        e.send(&outs, now);
        Ok((seat, t))
    }

    /// A host's command, checked against the host token: a room input (a new roll is dealt,
    /// the solver running, with no lock held), the report, or the end of the room.
    fn host_input(&self, entry: &Mutex<Entry>, host: &str, command: HostCommand) -> Result<HostAction, Fail> {
        let rules = {
            let e = lock(entry);
            if host != e.host {
                return Err(fail(ErrorCode::NotHost, "Only the host can do that."));
            }
            e.room.rules().clone()
        };
        let input = match command {
            HostCommand::NewRoll { roll } => {
                let roll = match roll {
                    None => new_roll(&rules),
                    Some(faces) => arrange_or_explain(&faces, &rules.dice).map_err(|m| fail(ErrorCode::Refused, m))?,
                };
                Input::NewRoll { deal: Deal::new(roll, &rules) }
            }
            HostCommand::NextRoll => Input::NextRoll { deal: Deal::new(new_roll(&rules), &rules) },
            HostCommand::Lock { locked } => Input::Lock { locked },
            HostCommand::Remove { seat } => Input::Leave { seat },
            HostCommand::ClearChat => Input::ClearChat,
            HostCommand::Rules { dice, goal, score_secs, impossible_secs, judging } => {
                let new = Rules { dice, goal, score_secs, impossible_secs, ..rules.clone() };
                new.validate().map_err(|errs| {
                    fail(ErrorCode::Refused, errs.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))
                })?;
                let deal = Deal::new(new_roll(&new), &new);
                Input::SetRules { rules: new, judging, deal }
            }
            HostCommand::End => return Ok(HostAction::End),
            HostCommand::Report => return Ok(HostAction::Report),
        };
        Ok(HostAction::Play { input, dealt_for: rules })
    }

    fn input(&self, code: &str, who: Who, msg: ClientMsg) -> Result<(), Fail> {
        let gone = || fail(ErrorCode::NotSeated, "You are no longer in this room.");
        let entry = self.entry(code).ok_or_else(gone)?;
        // A host screen commands the room; to play it takes a seat first.
        let seat = || match who {
            Who::Seat(seat) => Ok(seat),
            Who::Screen(_) => {
                Err(fail(ErrorCode::NotSeated, "This screen presents the room: press “Play too” to play."))
            }
        };
        let (input, removed) = match msg {
            ClientMsg::Leave if matches!(who, Who::Screen(_)) => return Ok(()),
            ClientMsg::Claim { claim } => (Input::Claim { seat: seat()?, claim }, None),
            ClientMsg::Reveal => (Input::RevealNow { seat: seat()? }, None),
            ClientMsg::GiveUp => (Input::GiveUp { seat: seat()? }, None),
            ClientMsg::Act { action } => (Input::Act { seat: seat()?, action: action.into() }, None),
            ClientMsg::Chat { text } => (Input::Chat { seat: seat()?, text }, None),
            ClientMsg::Leave => (Input::Leave { seat: seat()? }, Some((seat()?, false))),
            ClientMsg::Host { host, command } => match self.host_input(&entry, &host, command)? {
                HostAction::End => {
                    self.end(code);
                    return Ok(());
                }
                HostAction::Report => {
                    // Answered to this connection alone.
                    let e = lock(&entry);
                    let report = ServerMsg::Report { rows: e.room.report() };
                    if let (Some(c), Ok(text)) = (e.conns.get(&who), serde_json::to_string(&report)) {
                        c.offer(&Utf8Bytes::from(text));
                    }
                    return Ok(());
                }
                HostAction::Play { input: input @ Input::Leave { seat: who }, .. } => (input, Some((who, true))),
                // A roll dealt for rules that changed meanwhile (another host screen) is not played.
                HostAction::Play { input: Input::NewRoll { .. } | Input::NextRoll { .. }, dealt_for }
                    if lock(&entry).room.rules() != &dealt_for =>
                {
                    return Err(fail(ErrorCode::Refused, "The room's rules changed meanwhile: deal again."));
                }
                HostAction::Play { input, .. } => (input, None),
            },
            ClientMsg::Create { .. } | ClientMsg::Join { .. } | ClientMsg::Present { .. } | ClientMsg::Sit { .. } => {
                return Err(fail(ErrorCode::AlreadySeated, "You are already in a room."));
            }
        };
        let mut e = lock(&entry);
        if !e.conns.contains_key(&who) {
            return Err(gone());
        }
        let now = now_ms();
        let (outs, refused, board) = match e.room.apply(input, now) {
            Ok(outs) => (outs, None, None),
            // Clocks settled on the way reach everyone and the store even when the input is
            // refused; a refused move is answered with the member's board as the room holds it.
            Err(r) => (r.settled, Some(r.error), r.board),
        };
        if outs.is_empty() {
            e.send(&Vec::from_iter(board.map(|b| *b)), now);
            return refused.map_or(Ok(()), |r| Err(refusal(&r)));
        }
        e.active_ms = now;
        if let Some((who, by_host)) = removed.filter(|_| refused.is_none()) {
            // Their token stops working; a removed member is told, then their socket closes.
            if let Some(c) = e.forget(who) {
                if by_host {
                    c.offer(&error(ErrorCode::Removed, "The host removed you from this room."));
                }
            }
        }
        self.keep(code, &mut e, &outs);
        e.send(&outs, now);
        e.send(&Vec::from_iter(board.map(|b| *b)), now);
        refused.map_or(Ok(()), |r| Err(refusal(&r)))
    }

    /// Ends a room: everyone is told, their connections close, and it is forgotten.
    fn end(&self, code: &str) {
        let Some(entry) = lock(&self.rooms).remove(code) else { return };
        let e = lock(&entry);
        e.tell_all(&error(ErrorCode::Ended, "The host ended this room."));
        self.unstore(code);
        eprintln!("score-server: room {code} ended by its host");
    }

    /// Tells every member the server is stopping (their seats are kept).
    pub fn stopping(&self) {
        let msg = error(ErrorCode::Restarting, "The server is restarting: you will be reconnected to your seat.");
        for entry in lock(&self.rooms).values() {
            lock(entry).tell_all(&msg);
        }
    }

    /// The room's scoreboard and results as CSV, for its host.
    pub fn csv(&self, code: &str, host: &str) -> Option<String> {
        let entry = self.entry(code)?;
        let e = lock(&entry);
        (e.host == host).then(|| e.room.csv())
    }

    /// A member's board as the room holds it, to them alone: the answer to a move that never
    /// reached the room (the rate limit), so their page takes the room's board back.
    fn answer_move(&self, code: &str, who: Who) {
        let (Some(entry), Who::Seat(seat)) = (self.entry(code), who) else { return };
        let mut e = lock(&entry);
        if e.room.members().any(|(s, _)| s == seat) {
            let board = e.room.board_event(seat);
            e.send(&[board], now_ms());
        }
    }

    fn dropped(&self, code: &str, who: Who, conn: &Sender<Utf8Bytes>) {
        if let Some(entry) = self.entry(code) {
            let mut e = lock(&entry);
            // Only if this connection is still the seat's (a reload may have replaced it).
            if e.conns.get(&who).is_some_and(|c| c.tx.same_channel(conn)) {
                e.conns.remove(&who);
                if let Who::Seat(seat) = who {
                    e.dropped.insert(seat, now_ms());
                }
            }
        }
    }
}

/// The seat a join took, from its events.
fn joined_seat(outs: &[Out]) -> Option<Seat> {
    outs.iter().find_map(|o| match o.event {
        RoomEvent::Joined { seat, .. } => Some(seat),
        _ => None,
    })
}

/// A simple window limit: `max` events per `window_ms`.
struct Limit {
    max: u32,
    window_ms: u64,
    start: u64,
    count: u32,
}

impl Limit {
    fn new(max: u32, window_ms: u64) -> Limit {
        Limit { max, window_ms, start: 0, count: 0 }
    }

    fn allow(&mut self, now: u64) -> bool {
        if now.saturating_sub(self.start) >= self.window_ms {
            (self.start, self.count) = (now, 0);
        }
        self.count += 1;
        self.count <= self.max
    }
}

fn error(code: ErrorCode, message: &str) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(&ServerMsg::Error { code, message: message.into() }).unwrap_or_default())
}

/// Runs hub work (room locks, the solver, SQLite) on tokio's blocking threads; a panic there
/// fails this one message, not the server.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T, Fail> + Send + 'static) -> Result<T, Fail> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Err(fail(ErrorCode::Refused, "Something went wrong on the server: try again.")))
}

async fn session(mut socket: WebSocket, hub: Arc<Hub>, from: IpAddr, address_room: Option<String>) {
    let (tx, mut rx) = channel::<Utf8Bytes>(QUEUE);
    let too_slow = Arc::new(AtomicBool::new(false));
    let conn = |tx: &Sender<Utf8Bytes>| Conn { tx: tx.clone(), too_slow: too_slow.clone() };
    // Until this member is seated the session holds the sender; then only the room does, so
    // a removal (or a reload taking the seat) ends this session.
    let mut tx = Some(tx);
    let mut weak = None;
    let mut joined: Option<(String, Who)> = None;
    let (mut strikes, mut over) = (0u32, 0u32);
    // Moves have a limit of their own, well above the quickest player's (40 moves, undos and
    // clears in 10 s are never refused), so the others' limit stays tight.
    let (mut all, mut chat, mut moves) =
        (Limit::new(20, 10_000), Limit::new(5, 10_000), Limit::new(MOVES_PER_10_S, 10_000));
    // A socket must say hello in time, and answer pings: else it is closed (half-open
    // sockets would keep a room from ever being idle).
    let first_by = tokio::time::Instant::now() + Duration::from_millis(hub.limits.first_message_ms);
    let ping_every = Duration::from_millis(hub.limits.ping_ms.max(1));
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    let (mut heard, mut unanswered) = (false, 0u32);
    let silent = |why: &'static str| {
        Message::Close(Some(CloseFrame { code: CLOSE_SILENT, reason: Utf8Bytes::from_static(why) }))
    };
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(first_by), if !heard => {
                let _ = socket.send(silent("Nothing was said: reconnect.")).await;
                break;
            }
            _ = pings.tick() => {
                if unanswered >= 2 {
                    let _ = socket.send(silent("No answer to two pings.")).await;
                    break;
                }
                unanswered += 1;
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                if matches!(incoming, Some(Ok(_))) {
                    unanswered = 0;
                }
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                heard = true;
                let now = now_ms();
                let reply = match serde_json::from_str::<ClientMsg>(&text) {
                    Err(_) => {
                        strikes += 1;
                        Some(error(ErrorCode::Unreadable, "That message could not be read."))
                    }
                    Ok(ClientMsg::Act { .. }) if !moves.allow(now) => {
                        over += 1;
                        // The page made the move before asking: the room's board puts it right.
                        if let Some((code, who)) = joined.clone() {
                            let h = hub.clone();
                            let _ = blocking(move || {
                                h.answer_move(&code, who);
                                Ok(())
                            })
                            .await;
                        }
                        Some(error(ErrorCode::SlowDown, "Slow down: too many moves."))
                    }
                    Ok(ref m) if !matches!(m, ClientMsg::Act { .. }) && !all.allow(now) => {
                        over += 1;
                        Some(error(ErrorCode::SlowDown, "Slow down: too many messages."))
                    }
                    Ok(ClientMsg::Chat { .. }) if !chat.allow(now) => {
                        over += 1;
                        Some(error(ErrorCode::SlowDown, "Slow down: too many chat messages."))
                    }
                    Ok(msg) => match (&joined, &tx) {
                        (Some((code, screen @ Who::Screen(_))), _) if matches!(msg, ClientMsg::Sit { .. }) => {
                            let ClientMsg::Sit { name } = msg else { continue };
                            let (h, code, screen) = (hub.clone(), code.clone(), *screen);
                            match blocking(move || h.sit(&code, screen, &name)).await {
                                Ok((who, welcome)) => {
                                    if let Some((_, w)) = joined.as_mut() {
                                        *w = who;
                                    }
                                    Some(Utf8Bytes::from(welcome))
                                }
                                Err((c, m)) => Some(error(c, &m)),
                            }
                        }
                        (Some((code, who)), _) => {
                            let (hub, code, who) = (hub.clone(), code.clone(), *who);
                            match blocking(move || hub.input(&code, who, msg)).await {
                                Ok(()) => None,
                                Err((c, m)) => Some(error(c, &m)),
                            }
                        }
                        (None, None) => Some(error(ErrorCode::NotSeated, "Create or join a room first.")),
                        (None, Some(sender)) => {
                            let seated = match msg {
                                ClientMsg::Create { version, .. } | ClientMsg::Join { version, .. } | ClientMsg::Present { version, .. }
                                    if version != VERSION =>
                                {
                                    Err(fail(ErrorCode::OldPage, "This page is older than the server: reload it."))
                                }
                                // A proxy routed this socket by the room in its address: the
                                // message must name that room, or it reached the wrong instance.
                                ClientMsg::Create { ref code, .. } | ClientMsg::Join { ref code, .. } | ClientMsg::Present { ref code, .. }
                                    if address_room.as_ref().is_some_and(|r| room_code(code).as_ref() != Some(r)) =>
                                {
                                    Err(fail(ErrorCode::WrongAddress, "This page asked for another room than it named: reload it."))
                                }
                                ClientMsg::Create { code, name, judging, .. } => {
                                    let (hub, conn) = (hub.clone(), conn(sender));
                                    blocking(move || hub.create(&code, name.as_deref(), judging, conn, from)).await
                                }
                                ClientMsg::Join { code, name, token, .. } => {
                                    let (hub, conn, asked) = (hub.clone(), conn(sender), code.clone());
                                    blocking(move || hub.join(&asked, &name, token, conn, from))
                                        .await
                                        .map(|(seat, welcome)| (code.trim().to_uppercase(), Who::Seat(seat), welcome))
                                }
                                ClientMsg::Present { code, host, .. } => {
                                    let (hub, conn, asked) = (hub.clone(), conn(sender), code.clone());
                                    blocking(move || hub.present(&asked, &host, conn, from))
                                        .await
                                        .map(|(who, welcome)| (code.trim().to_uppercase(), who, welcome))
                                }
                                _ => Err(fail(ErrorCode::NotSeated, "Create or join a room first.")),
                            };
                            match seated {
                                Ok((code, who, welcome)) => {
                                    joined = Some((code, who));
                                    weak = tx.take().map(|t| t.downgrade());
                                    Some(Utf8Bytes::from(welcome))
                                }
                                Err((c, m)) => Some(error(c, &m)),
                            }
                        }
                    },
                };
                if let Some(r) = reply {
                    if socket.send(Message::Text(r)).await.is_err() {
                        break;
                    }
                }
                // Repeat offenders are disconnected.
                if strikes >= 5 || over >= 20 {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
            }
            out = rx.recv() => match out {
                Some(frame) => {
                    if socket.send(Message::Text(frame)).await.is_err() {
                        break;
                    }
                }
                // The room let go of this connection: removed by the host, a reload took the
                // seat, or the member stopped reading and their queue filled.
                None => {
                    if too_slow.load(Ordering::Relaxed) {
                        let reason = Utf8Bytes::from_static("Too slow: reconnect to catch up.");
                        let _ = socket.send(Message::Close(Some(CloseFrame { code: CLOSE_TOO_SLOW, reason }))).await;
                    }
                    break;
                }
            },
        }
    }
    if let (Some((code, who)), Some(conn)) = (&joined, weak.and_then(|w| w.upgrade())) {
        hub.dropped(code, *who, &conn);
    }
}

/// Whether the upgrade comes from a page of this server (or from no page at all).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin").and_then(|o| o.to_str().ok()) else { return true };
    let host = headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or_default();
    origin.split("://").nth(1).is_some_and(|o| o == host)
}

#[derive(serde::Deserialize)]
struct WsQuery {
    /// The room this socket is for (`/ws?room=CODE`), for a proxy to route by.
    room: Option<String>,
}

/// The address a connection comes from: the peer's, or, behind a proxy this server trusts
/// (`--trust-proxy`), the one the proxy says in `X-Real-IP`.
fn client_address(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    let forwarded = || headers.get("x-real-ip")?.to_str().ok()?.trim().parse().ok();
    if trust_proxy {
        forwarded().unwrap_or(peer)
    } else {
        peer
    }
}

async fn ws(
    upgrade: WebSocketUpgrade,
    headers: HeaderMap,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Query(q): Query<WsQuery>,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "Rooms take connections from this server's own pages only.").into_response();
    }
    let from = client_address(addr.ip(), &headers, hub.limits.trust_proxy);
    let address_room = q.room.and_then(|r| room_code(&r));
    let Some(held) = SocketCount::take(&hub, from) else {
        return (StatusCode::TOO_MANY_REQUESTS, "Too many connections from this address.").into_response();
    };
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // Sized for this protocol's frames, not the library's 128 KiB defaults: a socket's
        // buffers are most of what it costs.
        .read_buffer_size(MAX_FRAME)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
        .on_upgrade(move |socket| async move {
            session(socket, hub, from, address_room).await;
            drop(held);
        })
}

/// One open socket counted against its address, given back when dropped.
struct SocketCount {
    hub: Arc<Hub>,
    from: IpAddr,
}

impl SocketCount {
    /// Counts a socket from `from`, or `None` when that address holds as many as it may.
    fn take(hub: &Arc<Hub>, from: IpAddr) -> Option<SocketCount> {
        if from.is_loopback() {
            return Some(SocketCount { hub: hub.clone(), from });
        }
        let mut open = lock(&hub.sockets);
        let n = open.entry(from).or_insert(0);
        if *n >= hub.limits.sockets_per_address {
            return None;
        }
        *n += 1;
        Some(SocketCount { hub: hub.clone(), from })
    }
}

impl Drop for SocketCount {
    fn drop(&mut self) {
        if self.from.is_loopback() {
            return;
        }
        let mut open = lock(&self.hub.sockets);
        if let Some(n) = open.get_mut(&self.from) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.from);
            }
        }
    }
}

#[derive(serde::Deserialize)]
struct CsvQuery {
    /// The room (`room`, as a proxy routes by it; `code` from pages before it).
    #[serde(alias = "code")]
    room: String,
    host: String,
}

async fn csv(State(hub): State<Arc<Hub>>, Query(q): Query<CsvQuery>) -> Response {
    let room = room_code(&q.room).unwrap_or_default();
    match hub.csv(&room, &q.host) {
        Some(text) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"score-room-{room}.csv\"")),
            ],
            text,
        )
            .into_response(),
        None => (StatusCode::FORBIDDEN, "Only the room's host can download its scores.").into_response(),
    }
}

#[derive(serde::Deserialize)]
struct QrQuery {
    room: String,
}

/// The invite link of room `code` as a QR code (SVG), for `scheme://host`.
pub fn invite_qr(scheme: &str, host: &str, code: &str) -> Option<String> {
    let link = format!("{scheme}://{host}/?room={code}");
    let qr = qrcode::QrCode::new(link.as_bytes()).ok()?;
    Some(
        qr.render::<qrcode::render::svg::Color>()
            .min_dimensions(240, 240)
            .dark_color(qrcode::render::svg::Color("#000"))
            .light_color(qrcode::render::svg::Color("#fff"))
            .build(),
    )
}

/// `/qr.svg?room=CODE`: the QR code of a room's invite link, on this server's address (as
/// the browser reached it; behind a proxy this server trusts, with its X-Forwarded-Proto).
async fn qr(State(hub): State<Arc<Hub>>, headers: HeaderMap, Query(q): Query<QrQuery>) -> Response {
    let Some(code) = room_code(&q.room).filter(|c| hub.entry(c).is_some()) else {
        return (StatusCode::NOT_FOUND, "There is no such room.").into_response();
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let Some(host) = header("host").filter(|h| !h.is_empty()) else {
        return (StatusCode::BAD_REQUEST, "No Host header.").into_response();
    };
    let forwarded = header("x-forwarded-proto").filter(|p| hub.limits.trust_proxy && matches!(*p, "http" | "https"));
    match invite_qr(forwarded.unwrap_or("http"), host, &code) {
        Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "private, max-age=3600")], svg)
            .into_response(),
        None => (StatusCode::BAD_REQUEST, "That address is too long for a QR code.").into_response(),
    }
}

/// The server's routes: `/ws` for rooms, `/scores.csv` for a host, `/qr.svg` for a room's
/// invite link, and the game's files (precompressed when present).
pub fn router(hub: Arc<Hub>, dist: PathBuf) -> Router {
    let files =
        ServeDir::new(&dist).precompressed_br().precompressed_gzip().fallback(ServeFile::new(dist.join("index.html")));
    Router::new()
        .route("/ws", get(ws))
        .route("/scores.csv", get(csv))
        .route("/qr.svg", get(qr))
        .fallback_service(files)
        .with_state(hub)
}

/// Serves on `listener` until `shutdown` resolves; rooms are ticked every 200 ms.
pub async fn serve(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    dist: PathBuf,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let ticker = hub.clone();
    let hub_for_stop = hub.clone();
    let ticks = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_millis(200));
        loop {
            every.tick().await;
            let hub = ticker.clone();
            let _ = tokio::task::spawn_blocking(move || hub.tick()).await;
        }
    });
    let app = router(hub, dist).into_make_service_with_connect_info::<SocketAddr>();
    // Room events are small frames: without TCP_NODELAY each waits on a delayed ACK (40 ms).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let told = hub_for_stop.clone();
    let shutdown = async move {
        shutdown.await;
        told.stopping();
        // A moment for the notices to leave before the sockets close.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let result = axum::serve(listener, app).with_graceful_shutdown(shutdown).await;
    ticks.abort();
    result
}

#[cfg(test)]
mod tests {
    use score_room::protocol::RoomEvent;

    use super::*;

    fn entry(queue: usize) -> (Entry, tokio::sync::mpsc::Receiver<Utf8Bytes>, Arc<AtomicBool>) {
        let (tx, rx) = channel(queue);
        let too_slow = Arc::new(AtomicBool::new(false));
        let mut room = Room::new(Rules::default(), true, Deal::new(vec![2, 5, 12, 12], &Rules::default()));
        room.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        let e = Entry {
            room,
            host: "h".into(),
            tokens: HashMap::from([("t".to_string(), 0)]),
            conns: HashMap::from([(Who::Seat(0), Conn { tx, too_slow: too_slow.clone() })]),
            screens: 0,
            dropped: HashMap::new(),
            active_ms: 0,
            seq: 0,
            dirty: false,
            joined: false,
        };
        (e, rx, too_slow)
    }

    fn locked(locked: bool) -> Vec<Out> {
        vec![Out { to: To::All, event: RoomEvent::Locked { locked } }]
    }

    #[test]
    fn a_member_who_stops_reading_is_cut_when_their_queue_is_full_and_keeps_their_seat() {
        let (mut e, mut rx, too_slow) = entry(2);
        e.send(&locked(true), 1);
        e.send(&locked(false), 2);
        assert!(e.conns.contains_key(&Who::Seat(0)) && !too_slow.load(Ordering::Relaxed));
        // The third event finds the queue full: the member is cut, told why, and their seat waits.
        e.send(&locked(true), 3);
        assert!(!e.conns.contains_key(&Who::Seat(0)));
        assert!(too_slow.load(Ordering::Relaxed));
        assert_eq!(e.dropped.get(&0), Some(&3));
        assert_eq!(e.tokens.get("t"), Some(&0));
        // What was queued still arrives, in order, and then the queue ends.
        let first = rx.try_recv().unwrap();
        assert!(first.as_str().starts_with(r#"{"type":"Event","seq":1,"#), "{}", first.as_str());
        assert!(rx.try_recv().unwrap().as_str().contains(r#""seq":2"#));
        assert!(rx.try_recv().is_err());
    }

    /// χ² of `counts` against every face equally likely.
    fn chi_square(counts: &[u64]) -> f64 {
        let n: u64 = counts.iter().sum();
        let expected = n as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
    }

    fn faces(sides: u32, rolls: usize, roll: impl Fn(&Rules) -> Vec<i64>) -> Vec<u64> {
        let rules = Rules { dice: vec![sides; 4], ..Rules::default() };
        let mut counts = vec![0u64; sides as usize];
        for _ in 0..rolls {
            for f in roll(&rules) {
                counts[(f - 1) as usize] += 1;
            }
        }
        counts
    }

    // Pins a bug: the server took one random byte modulo the sides, so on four d100 faces
    // 1–56 came up 66 % of the time, and on a d20 faces 1–16 8 % more often than 17–20.
    #[test]
    fn the_servers_dice_are_fair_by_chi_square_over_100_000_rolls_of_each_size() {
        // χ² at p = 0.001 for sides − 1 degrees of freedom.
        for (sides, critical) in [(6, 20.515), (12, 31.264), (20, 43.820), (100, 148.230)] {
            let chi = chi_square(&faces(sides, 100_000, new_roll));
            assert!(chi < critical, "d{sides}: χ² = {chi:.1} over 400,000 faces, p < 0.001 at {critical}");
        }
        // The test tells a biased roller: one byte modulo the sides, as before.
        let byte_mod =
            |r: &Rules| r.dice.iter().map(|&s| 1 + i64::from(random_bytes::<1>()[0]) % i64::from(s)).collect();
        assert!(chi_square(&faces(100, 100_000, byte_mod)) > 148.230);
    }

    // Pins a bug: rooms came back from a restart with no seat marked as away, so a member who
    // never came back kept their seat, score and name for ever.
    #[test]
    fn after_a_restart_a_seat_nobody_comes_back_to_is_freed_ten_minutes_later() {
        let dir = std::env::temp_dir().join(format!("score-hub-ghosts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap();
        let mut room = Room::new(Rules::default(), true, Deal::new(vec![2, 5, 12, 12], &Rules::default()));
        room.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        let tokens = HashMap::from([("t".to_string(), 0)]);
        let stored = StoredRoom { room: room.saved().clone(), host: "h".into(), tokens, active_ms: now_ms() };
        store.save("ABC234", &stored).unwrap();
        let start = now_ms();
        let hub = Hub::with_limits(Some(store), Rules::default(), Limits::default());
        let members = |hub: &Hub| lock(&hub.entry("ABC234").unwrap()).room.members().count();
        hub.tick_at(start + SEAT_KEPT_MS - 60_000);
        assert_eq!(members(&hub), 1, "the seat waits for Ana");
        hub.tick_at(start + SEAT_KEPT_MS + 60_000);
        assert_eq!(members(&hub), 0, "Ana never came back: her seat and name are free");
        assert!(lock(&hub.entry("ABC234").unwrap()).tokens.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn one_frame_is_shared_by_every_member() {
        let (mut e, mut rx, _) = entry(4);
        let (tx2, mut rx2) = channel(4);
        e.conns.insert(Who::Seat(1), Conn { tx: tx2, too_slow: Arc::new(AtomicBool::new(false)) });
        e.send(&locked(true), 1);
        let (a, b) = (rx.try_recv().unwrap(), rx2.try_recv().unwrap());
        assert_eq!(a, b);
        assert_eq!(a.as_str().as_ptr(), b.as_str().as_ptr(), "the JSON was written twice");
    }
}

#[cfg(test)]
mod durability {
    use score_room::protocol::RoomEvent;

    use super::*;

    #[test]
    fn results_joins_rules_and_clocks_are_stored_before_they_are_told_moves_and_chat_at_the_tick() {
        let all = |event| vec![Out { to: To::All, event }];
        assert!(durable(&all(RoomEvent::Results { outcomes: vec![], scores: vec![], clock: None })));
        assert!(durable(&all(RoomEvent::Joined { seat: 1, name: "Ana".into() })));
        assert!(durable(&all(RoomEvent::Left { seat: 1 })));
        assert!(durable(&all(RoomEvent::Rules { rules: Rules::default(), judging: true })));
        assert!(durable(&all(RoomEvent::Clock { seat: 1, claim: score_room::protocol::Claim::Score, deadline: 5 })));
        assert!(!durable(&all(RoomEvent::Board { seat: 1, actions: vec![] })));
        assert!(!durable(&all(RoomEvent::Chat { seat: 1, name: "Ana".into(), text: "hi".into() })));
        let mut mixed = all(RoomEvent::Board { seat: 1, actions: vec![] });
        mixed.extend(all(RoomEvent::Results { outcomes: vec![], scores: vec![], clock: None }));
        assert!(durable(&mixed));
    }
}
