//! The room registry: every room of this server, by code, and what moves each one (create,
//! join, present, sit, input, end, tick). It only moves messages: every decision is the
//! [`Room`]'s. The limits it keeps are in `limits.rs`, the socket loop that calls it in
//! `session.rs`, the HTTP side in `http.rs` (its public items re-exported here).
//!
//! # Lock order
//!
//! The locks (each a `std::sync::Mutex`, taken through `lock`, which shrugs off poisoning):
//!
//! 1. `Hub::created`: rooms created per address in the last ten minutes;
//! 2. `Hub::waking`: held while a kept class asleep on disk is read back, or deleted;
//! 3. `Hub::rooms`: the global map from code to room;
//! 4. `Hub::handed`, then `Hub::taking`, then `Hub::asleep`: rooms handed to another
//!    instance, codes being taken over from one, and the kept classes held on disk only;
//! 5. each room's `Mutex<Entry>`;
//! 6. `Hub::wrong_codes`: wrong codes per address;
//! 7. the store's `Mutex<Connection>` (inside [`Store`]);
//! 8. `Hub::sockets`: sockets open per address;
//! 9. `Hub::dealing`: held while homework's rolls are dealt, taken with nothing held and
//!    taking nothing (the solver runs under it, no room's lock).
//!
//! One is only ever taken while holding locks above it in this list, never below:
//!
//! - `created` is taken with nothing held (`Hub::may_create`, from `create`, and
//!   `Hub::forget_old_counts`, from `tick_at`). While it is held, `rooms` is taken briefly to
//!   find a room and released, and then that room's entry is taken briefly to read whether it
//!   was joined.
//! - `rooms` is taken with nothing held, or under `created` or `waking` (above), and mostly only for as
//!   long as it takes to clone an entry's `Arc` out of the map (`Hub::entry`), or to insert or
//!   remove one; the entry's lock is then taken after `rooms` is released. Only `make_way`
//!   (from `create`, to find the room idle for longest) looks into entries while holding
//!   `rooms`, and only with `try_lock`: a busy room is in use and passed over, so the global
//!   lock never waits on a room. No entry's lock is held while `rooms` is taken, with one
//!   exception that cannot deadlock: `create` holds its new room's lock from before the room
//!   is in the map until it is stored, so nobody else can hold or wait for that lock yet.
//! - `waking` is taken with nothing held (`Hub::here`, for a code not in `rooms` but
//!   `asleep`; `Hub::forget_asleep`, from `tick_at`, with `try_lock`; `Hub::handed`, which
//!   takes a stale copy's entry lock under it, and releases it before `rooms`). Under it the
//!   store is read (the class's row: not under `rooms`) or written (the woken class's
//!   settled clocks, under its entry; a deletion), and `rooms` and `asleep` are taken
//!   briefly, to move the class from one map to the other in one step. Nothing is asked of
//!   another instance under any lock: `take_over` marks the code in `taking` and asks with
//!   nothing held.
//! - `handed`, `taking` and `asleep` are taken alone or under `rooms` (a code is in one of
//!   the maps at any moment: `create` and `take_over` look in all under `rooms`; `Hub::sleep`,
//!   `Hub::here`, `Hub::hand_over` and `Hub::forget_handed` move a room across under
//!   `rooms`), one at a time except `handed` then `asleep` in `forget_handed`, and take
//!   nothing else.
//! - An entry's lock is taken with nothing held (every message, `tick_at`, `end`, `csv`,
//!   `answer_move`, `dropped`, `stopping`), under `created`, or under `rooms` (both above).
//!   At most one entry's lock is held at a time. Under an entry, `wrong_codes` may be taken
//!   (`present`, for a wrong host link) and the store written (`save`, `unstore`).
//! - `unanswered` and `told` are taken alone and take nothing.
//! - `wrong_codes` and the store take nothing while held. `sockets` (`SocketCount`) is only
//!   ever taken with nothing held, and takes nothing.
//!
//! The rule: no SQLite write happens under the `rooms` lock or on a tokio runtime thread.
//! Hub work that touches SQLite runs on tokio's blocking threads (the socket session's
//! `blocking`, the ticker's `spawn_blocking`, the startup load's `spawn_blocking` in
//! `main.rs`, the CSV and the shutdown notices). No QR code is drawn here at all: the page
//! draws its room's. A room taken out of `rooms` (ended, or making way) is marked `ended`
//! under its own lock: whoever still holds its `Arc` (a tick's snapshot, a message in
//! flight) finds it so and neither plays it nor writes it back.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use score_engine::Rules;
use tokio::sync::mpsc::{error::TrySendError, Sender};

use crate::note;
use crate::peers::{Peers, HANDED_HOLD_MS};
use crate::store::{Store, StoredRoom};
use score_engine::elo::Ability;
use score_engine::roll::arrange;
use score_room::protocol::{
    room_code, ClientMsg, HomeworkCommand, HostCommand, Refusal, RoomEvent, ServerMsg, MAX_AUTO_DEAL_SECS,
};
use score_room::ratings::MAX_RATED_DICE;
use score_room::room::{
    check_lang, check_name, Assignment, Deal, Input, Out, PoolError, Room, RoomError, Seat, To, MAX_HOMEWORK,
};

pub use crate::http::{router, serve};
pub use crate::limits::{
    Limits, LESSON_ENDS_AFTER_MS, MAX_FRAME, MOVES_PER_10_S, QUEUE, SEAT_KEPT_MS, UNPLAYED_KEPT_MS,
};
pub use crate::session::{CLOSE_SILENT, CLOSE_TOO_SLOW};

use crate::session::error;

/// One member's connection, as the room holds it: a bounded queue of frames, and the flag
/// that tells the socket's task why the room let go of it ([`LET_GO_SLOW`],
/// [`LET_GO_ELSEWHERE`]; 0 for any other reason).
pub(crate) struct Conn {
    pub(crate) tx: Sender<Utf8Bytes>,
    pub(crate) let_go: Arc<AtomicU8>,
}

/// The member stopped reading and their queue filled.
pub(crate) const LET_GO_SLOW: u8 = 1;
/// Another tab of the member took the seat: the socket's task tells this one so itself, once
/// its queue is drained (a full queue can't lose it).
pub(crate) const LET_GO_ELSEWHERE: u8 = 2;

impl Conn {
    /// Queues a frame; `false` when the queue is full (the member is not reading).
    fn offer(&self, frame: &Utf8Bytes) -> bool {
        !matches!(self.tx.try_send(frame.clone()), Err(TrySendError::Full(_)))
    }
}

/// Milliseconds since the Unix epoch, as the calendar clock said when this server started,
/// counted on since by the monotonic clock: within a run no clock is stretched or cut short
/// when the calendar clock is set (a Raspberry Pi that boots an hour behind, then NTP). A
/// restart reads the calendar clock again, and a restored room clamps its clocks to their
/// lengths (`Room::restore`).
pub fn now_ms() -> u64 {
    static START: std::sync::OnceLock<(u64, std::time::Instant)> = std::sync::OnceLock::new();
    let (wall, at) = START.get_or_init(|| {
        let wall = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
        (wall as u64, std::time::Instant::now())
    });
    wall.saturating_add(at.elapsed().as_millis() as u64)
}

/// Random bytes from the OS; none when it has none to give (then nothing is made that
/// would need them: a guessable token is worse than a refusal).
fn random_bytes<const N: usize>() -> Option<[u8; N]> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).ok().map(|()| b)
}

/// A seat's or a host's token: 128 random bits; without the OS's randomness, refused (a
/// token made from the time would be guessed from when the room was made).
fn token() -> Result<String, Refusal> {
    token_of(random_bytes::<16>())
}

fn token_of(bytes: Option<[u8; 16]>) -> Result<String, Refusal> {
    Ok(bytes.ok_or(Refusal::ServerFault)?.iter().map(|b| format!("{b:02x}")).collect())
}

/// A roll of the room's dice: the engine's one roller (rejection sampling, so every face is
/// equally likely) on the OS's randomness.
/// Homework's rolls, solved: the rolls typed (each must fit the dice), or `count` at random
/// (distinct rolls with a solution, of difficulty `level`, when one is asked for). The count
/// is checked before anything is dealt.
fn homework_deals(rules: &Rules, rolls: Vec<Vec<i64>>, count: u32, level: Option<u8>) -> Result<Vec<Deal>, Refusal> {
    let n = if rolls.is_empty() { count as usize } else { rolls.len() };
    if !(1..=MAX_HOMEWORK).contains(&n) {
        return Err(RoomError::HomeworkCount.into());
    }
    let rolls = match (rolls.is_empty(), level) {
        (false, _) => rolls
            .into_iter()
            .map(|faces| {
                arrange(&faces, &rules.dice).ok_or(Refusal::CantRoll { roll: faces, dice: rules.dice.clone() })
            })
            .collect::<Result<Vec<_>, _>>()?,
        (true, None) => (0..n).map(|_| new_roll(rules)).collect::<Result<Vec<_>, _>>()?,
        (true, Some(level)) => {
            let sheet = with_os_random(|next| {
                score_engine::practice::worksheet(rules, n, Some(level), next)
                    .map_err(|_| Refusal::NoRollsAtLevel { level })
            })?;
            sheet.into_iter().map(|item| item.roll).collect()
        }
    };
    Ok(rolls.into_iter().map(|roll| Deal::new(roll, rules)).collect())
}

/// Homework at each student's level: its pool of rolls, rated (`count` is checked first).
fn homework_pool(rules: &Rules, count: u32) -> Result<Vec<(Deal, Ability)>, Refusal> {
    if !(1..=MAX_HOMEWORK).contains(&(count as usize)) {
        return Err(RoomError::HomeworkCount.into());
    }
    with_os_random(|next| {
        score_room::room::pool(rules, count as usize, next).map_err(|e| match e {
            PoolError::NotRated => Refusal::NotRated { most: MAX_RATED_DICE as u32 },
            PoolError::Short(level) => Refusal::NoRollsAtLevel { level },
        })
    })
}

fn new_roll(rules: &Rules) -> Result<Vec<i64>, Refusal> {
    with_os_random(|next| Ok(score_engine::roll::roll(&rules.dice, next)))
}

/// What `draw` makes of the OS's randomness: its own refusal first, then a server fault if
/// the OS gave none (a draw on zeros is no fair draw).
fn with_os_random<T>(draw: impl FnOnce(&mut dyn FnMut() -> u32) -> Result<T, Refusal>) -> Result<T, Refusal> {
    let mut failed = false;
    let drawn = draw(&mut || {
        random_bytes::<4>().map(u32::from_le_bytes).unwrap_or_else(|| {
            failed = true;
            0
        })
    })?;
    if failed {
        Err(Refusal::ServerFault)
    } else {
        Ok(drawn)
    }
}

/// Seats taken from one address and left empty (away within half a minute of joining, never
/// played) that a room holds before it refuses that address another join: a class's devices
/// stay connected, so a whole class joining from one school address is never refused, while
/// one device taking seat after seat and closing each is stopped after five (each given up
/// three minutes later, or at once by the host's Clear empty seats).
pub const EMPTY_SEATS_PER_ADDRESS: usize = 5;

/// A seat whose page goes away this soon after joining, without playing, was left empty, ms.
const LEFT_EMPTY_WITHIN_MS: u64 = 30_000;

/// How long a room that was joined is kept from making way for a new one, ms.
const MAKE_WAY_AFTER_MS: u64 = 24 * 60 * 60 * 1000;

/// A kept class nobody has been in for this long (and with no lesson under way) is held on
/// disk only until it is next asked for, ms: a server's memory holds the classes in use, not
/// every class's year of lessons.
pub const SLEEP_AFTER_MS: u64 = 10 * 60 * 1000;

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
pub(crate) enum Who {
    Seat(Seat),
    Screen(u64),
}

/// One room and who is connected to it.
pub(crate) struct Entry {
    room: Room,
    host: String,
    tokens: HashMap<String, Seat>,
    conns: HashMap<Who, Conn>,
    /// The number of the next host screen to connect.
    screens: u64,
    dropped: HashMap<Seat, u64>,
    /// The address each seat was taken from (as the limits count it): an address may leave
    /// only so many seats empty ([`EMPTY_SEATS_PER_ADDRESS`]).
    taken_from: HashMap<Seat, (IpAddr, u64)>,
    active_ms: u64,
    /// The last room event's sequence number (counted afresh after a restart: every page
    /// then reconnects and takes it from its Welcome).
    seq: u64,
    /// Changed since it was last stored (by moves or chat, which wait for the next tick).
    dirty: bool,
    /// Someone other than its host has joined (a room nobody joins counts against its creator).
    pub(crate) joined: bool,
    /// Taken out of the registry (ended, or made way): never played, sent to or stored again.
    ended: bool,
}

/// Whether events must be on disk before the members are told: everything but moves (in
/// class or on homework), chat and presence, which are stored at the next tick (at most
/// 200 ms later; presence isn't stored at all: after a restart every page is away until it
/// comes back).
fn durable(outs: &[Out]) -> bool {
    fn waits(event: &RoomEvent) -> bool {
        match event {
            RoomEvent::Board { .. }
            | RoomEvent::Chat { .. }
            | RoomEvent::TeacherChat { .. }
            | RoomEvent::Presence { .. } => true,
            RoomEvent::HomeworkPlay { event } => matches!(**event, RoomEvent::Board { .. }),
            _ => false,
        }
    }
    outs.iter().any(|o| !waits(&o.event))
}

impl Entry {
    /// Whether this is a kept class that can be held on disk only until it is next asked
    /// for: nobody in it for [`SLEEP_AFTER_MS`], everything stored, and no lesson under way
    /// (which ends after an hour with nobody in). A clock still running (a homework's untimed
    /// SCORE) is settled when it is read back, as after a restart.
    fn sleepy(&self, now: u64) -> bool {
        self.room.kept()
            && !self.ended
            && !self.dirty
            && self.conns.is_empty()
            && now.saturating_sub(self.active_ms) > SLEEP_AFTER_MS
            && !self.room.lesson_played()
    }

    /// Whether a kept class's lesson is left open: something played in it, and nobody in it
    /// for [`LESSON_ENDS_AFTER_MS`] (it ends then, as End lesson would).
    fn lesson_left_open(&self, now: u64) -> bool {
        self.room.kept()
            && self.conns.is_empty()
            && now.saturating_sub(self.active_ms) > LESSON_ENDS_AFTER_MS
            && self.room.lesson_played()
    }

    /// A room read back from the database: clocks that ran out by `now` settled (and the room
    /// marked to be stored again). Nobody is connected yet: every seat waits for its member as
    /// a dropped seat does, from now, and is freed if they don't come back.
    fn restored(r: StoredRoom, now: u64) -> Entry {
        let (room, settled) = Room::restore(r.room, now);
        let dropped = r.tokens.values().map(|&seat| (seat, now)).collect();
        let joined = !r.tokens.is_empty();
        Entry {
            room,
            host: r.host,
            tokens: r.tokens,
            conns: HashMap::new(),
            screens: 0,
            dropped,
            taken_from: HashMap::new(),
            active_ms: r.active_ms,
            seq: 0,
            dirty: !settled.is_empty(),
            joined,
            ended: false,
        }
    }

    fn stored(&self) -> StoredRoom {
        StoredRoom {
            room: self.room.saved().clone(),
            host: self.host.clone(),
            tokens: self.tokens.clone(),
            active_ms: self.active_ms,
        }
    }

    /// Sends events in order: each written to JSON once, the same frame queued for every
    /// member it is for. A member whose queue is full is cut: their seat waits for them, and
    /// everyone else sees them away.
    fn send(&mut self, outs: &[Out], now: u64) {
        let mut slow = self.send_once(outs, now);
        // Those cut are away now: everyone else is told (which may cut someone else).
        while !slow.is_empty() {
            let mut away = Vec::new();
            for who in slow {
                if let Some(c) = self.conns.remove(&who) {
                    c.let_go.store(LET_GO_SLOW, Ordering::Relaxed);
                    if let Who::Seat(seat) = who {
                        self.dropped.insert(seat, now);
                        away.extend(self.room.apply(Input::Presence { seat, away: true }, now).unwrap_or_default());
                    }
                }
            }
            slow = self.send_once(&away, now);
        }
    }

    /// One pass of [`Entry::send`]: who was too slow to take it.
    fn send_once(&mut self, outs: &[Out], now: u64) -> Vec<Who> {
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
                To::Hosts => {
                    let screens: Vec<Who> =
                        self.conns.keys().copied().filter(|w| matches!(w, Who::Screen(_))).collect();
                    if screens.is_empty() {
                        continue;
                    }
                    let Ok(text) = serde_json::to_string(&ServerMsg::Own { now, event }) else { continue };
                    let frame = Utf8Bytes::from(text);
                    slow.extend(screens.into_iter().filter(|w| self.conns.get(w).is_some_and(|c| !c.offer(&frame))));
                }
            }
        }
        slow.sort_unstable_by_key(|w| match w {
            Who::Seat(s) => (0, *s as u64),
            Who::Screen(n) => (1, *n),
        });
        slow.dedup();
        slow
    }

    /// Tells a connection where the class reaches the server, queued after its Welcome (a
    /// host screen shows it; it is no secret, so every page is told: a host who plays too
    /// comes back by their seat's token).
    fn tell_join_at(&self, who: Who, frame: Option<Utf8Bytes>) {
        if let (Some(c), Some(frame)) = (self.conns.get(&who), frame) {
            c.offer(&frame);
        }
    }

    /// A seat's page came back or went away: everyone is told (not stored).
    fn presence(&mut self, seat: Seat, away: bool, now: u64) {
        let outs = self.room.apply(Input::Presence { seat, away }, now).unwrap_or_default();
        self.send(&outs, now);
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
        self.taken_from.remove(&seat);
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
    pub(crate) wrong_codes: Mutex<HashMap<IpAddr, (u64, u32)>>,
    /// Rooms created per address in the last ten minutes that nobody has joined yet: when,
    /// and their codes. (Taken before `rooms`, never while an entry is held.)
    pub(crate) created: Mutex<HashMap<IpAddr, Vec<(u64, String)>>>,
    /// Sockets open per address.
    pub(crate) sockets: Mutex<HashMap<IpAddr, u32>>,
    /// The address this server listens on, learnt when it starts listening: with the
    /// interfaces' addresses as they are at that moment (a laptop that woke on another
    /// network has others), where other devices reach it ([`ServerMsg::JoinAt`]).
    bound: std::sync::OnceLock<std::net::SocketAddr>,
    rules: Rules,
    pub(crate) limits: Limits,
    /// Held while homework's rolls are dealt (taken with no other lock held).
    dealing: Mutex<()>,
    /// Kept classes held on disk only, by code, with when anything last happened in them
    /// (ms): every class at start-up, and a class nobody has been in for a while
    /// ([`SLEEP_AFTER_MS`]). Read back when first asked for ([`Hub::entry`]).
    asleep: Mutex<HashMap<String, u64>>,
    /// Held while a kept class is read back, or one asleep is deleted, or a room is taken
    /// over from another instance: one at a time.
    waking: Mutex<()>,
    /// Rooms handed to another instance ([`crate::peers`]), by code.
    handed: Mutex<HashMap<String, Handed>>,
    /// Codes being taken over from another instance now.
    taking: Mutex<std::collections::HashSet<String>>,
    /// Codes no other instance answered for, and when: not asked again for a moment.
    unanswered: Mutex<HashMap<String, u64>>,
    /// Rooms taken over whose holder has been told so (by `tell_holder`'s threads), with
    /// that holder: their notes are deleted from the disk at the next tick.
    told: Arc<Mutex<Vec<(String, String)>>>,
}

/// A code no other instance answered for is asked for again after this long, ms.
const ASK_AGAIN_AFTER_MS: u64 = 10_000;

/// How many times a holder is told of a room taken from it (about a day, a minute apart).
const TELL_TRIES: u32 = 1_500;

/// What [`Hub::find`] found.
pub(crate) enum Found {
    Here(Arc<Mutex<Entry>>),
    /// Not here now, but trying again will find it: handed to another instance a moment ago,
    /// being taken over, or its row unreadable for a moment.
    Moving,
    /// Maybe held by another instance that didn't answer a moment ago (not asked again yet).
    Unsure,
    /// Maybe held by another instance that didn't answer now.
    Unanswered,
    Nowhere,
}

/// A room handed to another instance, until the hold is over.
struct Handed {
    /// When.
    at: u64,
    /// When anything last happened in it (its age, if it is taken back).
    active_ms: u64,
    /// The room as handed over, answered again if asked again, until the other confirms.
    body: Option<String>,
}

/// What [`Hub::hand_over`] answers.
pub(crate) enum HandOver {
    Room(String),
    NotHere,
    /// Being moved or written: ask again.
    NotNow,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
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
        let mut asleep = HashMap::new();
        if let Some(s) = &store {
            match s.load_start() {
                Ok(start) => {
                    for (code, r) in start.rooms {
                        rooms.insert(code, Arc::new(Mutex::new(Entry::restored(r, now))));
                    }
                    // Kept classes stay on disk until they are first asked for: a server of
                    // many classes, each with a year of lessons, starts at once.
                    asleep.extend(start.asleep);
                    for code in start.bad {
                        note!("score-server: room {code} could not be read and was left out");
                    }
                }
                Err(e) => note!("score-server: could not read the rooms: {e}"),
            }
            note!("score-server: {} rooms brought back, and {} kept classes", rooms.len(), asleep.len());
        }
        let settled: Vec<(String, Arc<Mutex<Entry>>)> =
            rooms.iter().filter(|(_, e)| lock(e).dirty).map(|(c, e)| (c.clone(), e.clone())).collect();
        let hub = Arc::new(Hub {
            rooms: Mutex::new(rooms),
            store,
            wrong_codes: Mutex::new(HashMap::new()),
            created: Mutex::new(HashMap::new()),
            sockets: Mutex::new(HashMap::new()),
            bound: std::sync::OnceLock::new(),
            rules,
            limits,
            dealing: Mutex::new(()),
            asleep: Mutex::new(asleep),
            waking: Mutex::new(()),
            handed: Mutex::new(HashMap::new()),
            taking: Mutex::new(std::collections::HashSet::new()),
            unanswered: Mutex::new(HashMap::new()),
            told: Arc::new(Mutex::new(Vec::new())),
        });
        for (code, entry) in settled {
            hub.save(&code, &mut lock(&entry));
        }
        // Holders not yet told of a room taken from them are told now.
        if let (Some(store), Some(_)) = (&hub.store, &hub.limits.peers) {
            match store.to_confirm() {
                Ok(notes) => {
                    for n in notes {
                        hub.tell_holder(&n.code, &n.peer, n.at);
                    }
                }
                Err(e) => note!("score-server: the hand-overs to confirm could not be read: {e}"),
            }
        }
        hub
    }

    /// Stores a room now. Called only off the async runtime (the socket tasks and the ticker
    /// run the hub on tokio's blocking threads), so a slow disk never stalls other sockets.
    /// A room that could not be stored stays marked, and the next tick tries again.
    fn save(&self, code: &str, entry: &mut Entry) {
        self.write(code, entry, true);
    }

    /// [`Hub::save`], flushed to disk (`full`: results, joins, rules) or not (moves and chat,
    /// at a tick: see `Store::save_lightly`).
    fn write(&self, code: &str, entry: &mut Entry, full: bool) {
        if entry.ended {
            return;
        }
        entry.dirty = false;
        if let Some(s) = &self.store {
            let stored = entry.stored();
            let saved = if full { s.save(code, &stored) } else { s.save_lightly(code, &stored) };
            if let Err(e) = saved {
                entry.dirty = true;
                note!("score-server: room {code} not saved (tried again at the next tick): {e}");
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

    /// The room under `code` if it is awake here (no disk read, no other instance asked): for
    /// a page already in it, or a count.
    pub(crate) fn awake(&self, code: &str) -> Option<Arc<Mutex<Entry>>> {
        lock(&self.rooms).get(code).cloned()
    }

    /// The room under `code` if this instance holds it (a kept class asleep on disk read back
    /// first).
    pub(crate) fn entry(&self, code: &str) -> Option<Arc<Mutex<Entry>>> {
        match self.here(code) {
            Found::Here(entry) => Some(entry),
            _ => None,
        }
    }

    /// The room under `code` for a page that asks for it by code (joining, presenting,
    /// creating): held here, or else handed over by the instance that holds it
    /// ([`crate::peers`]); if neither, whether trying again may find it.
    /// `may_ask`: whether the other instances may be asked (not for an address over the
    /// wrong-code limit).
    pub(crate) fn find(&self, code: &str, may_ask: bool) -> Found {
        match self.here(code) {
            Found::Nowhere => {}
            found => return found,
        }
        // Moving between instances: a page still routed the old way, or one waiting for
        // the room to arrive, tries again.
        let handed = lock(&self.handed).contains_key(code);
        if handed || lock(&self.taking).contains(code) {
            return Found::Moving;
        }
        let Some(peers) = &self.limits.peers else { return Found::Nowhere };
        let now = now_ms();
        // An instance that didn't answer for this code a moment ago isn't asked again yet:
        // the pages of a class on a machine that's down retry without a storm of asks.
        {
            let mut unanswered = lock(&self.unanswered);
            unanswered.retain(|_, at| now.saturating_sub(*at) < ASK_AGAIN_AFTER_MS);
            if unanswered.contains_key(code) {
                return Found::Unsure;
            }
        }
        if !may_ask {
            return Found::Nowhere;
        }
        let found = self.take_over(code, peers);
        if matches!(found, Found::Unsure) {
            lock(&self.unanswered).insert(code.to_string(), now);
            return Found::Unanswered;
        }
        found
    }

    /// [`Hub::find`] for a page at `from`: the room; or the refusal to send (try again: the
    /// room is moving, or may be on an instance that didn't answer); or none, when there is no
    /// such room (the caller counts the wrong code). An address over the wrong-code limit
    /// still finds the rooms held here, but no other instance is asked for it.
    fn find_for(&self, code: &str, from: IpAddr, now: u64) -> Result<Arc<Mutex<Entry>>, Option<Refusal>> {
        match self.find(code, !self.too_many_wrong_codes(from, now)) {
            Found::Here(entry) => Ok(entry),
            Found::Moving | Found::Unsure => Err(Some(Refusal::Restarting)),
            // The other instances were asked, and one didn't answer: counted as a wrong code,
            // so a guesser can't make this instance ask without end (a class retrying while
            // its machine is down asks once each 10 s, and is counted that often).
            Found::Unanswered => Err(Some(self.wrong_code(from, now, Refusal::Restarting))),
            Found::Nowhere => Err(None),
        }
    }

    /// The room under `code` if this instance holds it: a kept class asleep on disk is read
    /// back first (its clocks that ran out meanwhile settled, as at start-up, and stored).
    /// Moving when its row can't be read now (a database that failed once may read next time).
    fn here(&self, code: &str) -> Found {
        // Both maps under `rooms`: a class is in one or the other at every moment.
        let asleep = || {
            let rooms = lock(&self.rooms);
            match rooms.get(code) {
                Some(entry) => Err(Found::Here(entry.clone())),
                None => Ok(lock(&self.asleep).contains_key(code)),
            }
        };
        match asleep() {
            Err(found) => return found,
            Ok(false) => return Found::Nowhere,
            Ok(true) => {}
        }
        let _turn = lock(&self.waking);
        // Woken (or deleted) while this one waited its turn.
        match asleep() {
            Err(found) => return found,
            Ok(false) => return Found::Nowhere,
            Ok(true) => {}
        }
        let Some(store) = &self.store else { return Found::Nowhere };
        let now = now_ms();
        let stored = match store.load_one(code) {
            Ok(Some(stored)) => stored,
            Ok(None) => {
                lock(&self.asleep).remove(code);
                return Found::Nowhere;
            }
            Err(e) => {
                note!("score-server: class {code} could not be read (asked again next time): {e}");
                return Found::Moving;
            }
        };
        let mut entry = Entry::restored(stored, now);
        // A lesson left open ends as the tick would have ended it, had the class been awake.
        if entry.lesson_left_open(now) {
            let _ = entry.room.apply(Input::EndLesson, now);
            entry.dirty = true;
        }
        let entry = Arc::new(Mutex::new(entry));
        {
            // In one step under `rooms`: a code is always in one of the two maps, so a room
            // made meanwhile can't take it.
            let mut rooms = lock(&self.rooms);
            lock(&self.asleep).remove(code);
            rooms.insert(code.to_string(), entry.clone());
        }
        {
            // What its clocks or its lesson's end settled is on disk before anyone is told.
            let mut e = lock(&entry);
            if e.dirty {
                self.save(code, &mut e);
            }
        }
        note!("score-server: class {code} read back");
        Found::Here(entry)
    }

    /// Whether a room or a kept class asleep has this code, or had until it was handed to
    /// another instance a moment ago, or is being taken over (`rooms` held by the caller).
    fn taken(&self, rooms: &HashMap<String, Arc<Mutex<Entry>>>, code: &str) -> bool {
        if rooms.contains_key(code) {
            return true;
        }
        // One lock at a time.
        let handed = lock(&self.handed).contains_key(code);
        let taking = lock(&self.taking).contains(code);
        handed || taking || lock(&self.asleep).contains_key(code)
    }

    /// Asks the other instances for room `code`, and takes it from the one that holds it: on
    /// this instance's disk before that one deletes it ([`crate::peers`]). No lock is held
    /// while asking: the code is marked as being taken over (`taking`), and a page asking
    /// for it meanwhile is told to try again.
    fn take_over(&self, code: &str, peers: &Peers) -> Found {
        if room_code(code).as_deref() != Some(code) {
            return Found::Nowhere;
        }
        {
            let rooms = lock(&self.rooms);
            if let Some(entry) = rooms.get(code) {
                return Found::Here(entry.clone());
            }
            if self.taken(&rooms, code) {
                return Found::Moving;
            }
            lock(&self.taking).insert(code.to_string());
        }
        let asked = self.ask_peers(code, peers);
        let mut rooms = lock(&self.rooms);
        lock(&self.taking).remove(code);
        match asked {
            Ok(stored) => {
                let entry = Arc::new(Mutex::new(Entry::restored(stored, now_ms())));
                rooms.insert(code.to_string(), entry.clone());
                Found::Here(entry)
            }
            Err(found) => found,
        }
    }

    /// [`Hub::take_over`]'s asking, with no lock held: the room, stored here, and its holder
    /// told so (by a thread of its own, tried again until it answers); or what was found.
    fn ask_peers(&self, code: &str, peers: &Peers) -> Result<StoredRoom, Found> {
        let path = |what: &str| format!("/peer/{what}?room={code}");
        let mut unanswered = false;
        for peer in &peers.addrs {
            let body = match crate::peers::post(peer, &peers.key, &path("hand-over")) {
                Ok(Some(body)) => body,
                Ok(None) => continue,
                Err(e) => {
                    note!("score-server: {peer} not asked for room {code}: {e}");
                    unanswered = true;
                    continue;
                }
            };
            // Unconfirmed, the holder keeps its copy and takes the room back: nothing is lost.
            let stored: StoredRoom = serde_json::from_str(&body).map_err(|e| {
                note!("score-server: room {code} from {peer} unreadable (instances of different versions?): {e}");
                Found::Moving
            })?;
            if let Some(store) = &self.store {
                store.save_taken(code, &stored, peer).map_err(|e| {
                    note!("score-server: room {code} from {peer} not stored, left there: {e}");
                    Found::Moving
                })?;
            }
            self.tell_holder(code, peer, stored.active_ms);
            note!("score-server: room {code} taken over");
            return Ok(stored);
        }
        Err(if unanswered { Found::Unsure } else { Found::Nowhere })
    }

    /// Tells `peer` that room `code` (in its version `at`) is on this instance's disk, so it
    /// deletes its copy: from a thread of its own, again and again until it answers (2 s, then
    /// longer, up to a minute apart, for a day), the note to do so kept on disk until then
    /// ([`Store::save_taken`]), so an instance restarted meanwhile tells it after
    /// ([`Hub::with_limits`]).
    fn tell_holder(&self, code: &str, peer: &str, at: u64) {
        let Some(peers) = &self.limits.peers else { return };
        let (peer, key, path) = (peer.to_string(), peers.key.clone(), format!("/peer/handed?room={code}&at={at}"));
        let (code, told) = (code.to_string(), self.told.clone());
        std::thread::spawn(move || {
            let mut wait = 2;
            for tries in 1..=TELL_TRIES {
                if crate::peers::post(&peer, &key, &path).is_ok() {
                    lock(&told).push((code, peer));
                    return;
                }
                if tries == 30 {
                    note!("score-server: {peer} not yet told that room {code} is here now (still trying)");
                }
                std::thread::sleep(std::time::Duration::from_secs(wait));
                wait = (wait * 2).min(60);
            }
            note!("score-server: {peer} could not be told that room {code} is here now; tried again at the next start");
        });
    }

    /// Lets another instance have room `code` ([`crate::peers`]): the room as stored, its
    /// pages told to reconnect (through the proxy, to that instance). Its row stays until the
    /// other confirms ([`Hub::handed`]), and until then it is answered again if asked again
    /// (the answer may have been lost on the way).
    pub(crate) fn hand_over(&self, code: &str) -> HandOver {
        if let Some(h) = lock(&self.handed).get(code) {
            return h.body.clone().map_or(HandOver::NotHere, HandOver::Room);
        }
        let entry = match self.here(code) {
            Found::Here(entry) => entry,
            Found::Nowhere => return HandOver::NotHere,
            _ => return HandOver::NotNow,
        };
        let mut e = lock(&entry);
        if e.ended {
            // Handed over (or ended) a moment ago, by another request.
            return HandOver::NotNow;
        }
        // On disk as it is now, in case it is taken back.
        self.save(code, &mut e);
        let Ok(stored) = serde_json::to_string(&e.stored()) else { return HandOver::NotNow };
        if e.dirty {
            return HandOver::NotNow;
        }
        // Marked under its own lock: a message in flight finds it gone, never writes it back.
        e.ended = true;
        e.tell_all(&error(Refusal::Restarting));
        let active_ms = e.active_ms;
        drop(e);
        {
            let mut rooms = lock(&self.rooms);
            rooms.remove(code);
            let handed = Handed { at: now_ms(), active_ms, body: Some(stored.clone()) };
            lock(&self.handed).insert(code.to_string(), handed);
        }
        note!("score-server: room {code} handed over to another instance");
        HandOver::Room(stored)
    }

    /// Another instance has room `code` on its disk, in its version `at` (its `active_ms`
    /// when handed over): this one's copy is deleted. A copy read back here after a restart
    /// (the other's word outlived the hand-over's hold) is deleted only if it is still that
    /// version and nobody is in it: a copy used here since is kept, and said so.
    pub(crate) fn handed(&self, code: &str, at: Option<u64>) {
        let known = {
            let mut handed = lock(&self.handed);
            handed.get_mut(code).map(|h| h.body.take().is_some())
        };
        match known {
            Some(true) => self.unstore(code),
            Some(false) => {}
            None => {
                let _turn = lock(&self.waking);
                let asleep_at = lock(&self.asleep).get(code).copied();
                if let Some(asleep_at) = asleep_at {
                    if Some(asleep_at) == at {
                        // The row first: until it is gone the code stays taken.
                        self.unstore(code);
                        lock(&self.asleep).remove(code);
                    } else {
                        note!("score-server: room {code} is held here and on another instance, changed here since: both kept");
                    }
                } else if let Some(entry) = self.awake(code) {
                    let mut e = lock(&entry);
                    if e.ended {
                        return;
                    }
                    if e.conns.is_empty() && Some(e.active_ms) == at {
                        e.ended = true;
                        drop(e);
                        lock(&self.rooms).remove(code);
                        self.unstore(code);
                    } else {
                        note!("score-server: room {code} is held here and on another instance, in use here: both kept");
                    }
                }
            }
        }
    }

    /// Hand-overs older than [`HANDED_HOLD_MS`]: a confirmed one's code may be asked back
    /// again; one never confirmed is taken back (its row is still here), asleep.
    fn forget_handed(&self, now: u64) {
        if lock(&self.handed).is_empty() {
            return;
        }
        let rooms = lock(&self.rooms);
        let mut handed = lock(&self.handed);
        let old: Vec<String> =
            handed.iter().filter(|(_, h)| now.saturating_sub(h.at) > HANDED_HOLD_MS).map(|(c, _)| c.clone()).collect();
        for code in old {
            let Some(h) = handed.remove(&code) else { continue };
            if h.body.is_some() && !rooms.contains_key(&code) {
                note!("score-server: room {code} was never confirmed handed over, and is held here again");
                lock(&self.asleep).insert(code, h.active_ms);
            }
        }
    }

    /// Settles clocks that ran out, frees seats dropped too long, removes idle rooms.
    pub fn tick(&self) {
        self.tick_at(now_ms());
    }

    /// [`Hub::tick`] at the time `now` (ms).
    pub fn tick_at(&self, now: u64) {
        self.forget_old_counts(now);
        let entries: Vec<(String, Arc<Mutex<Entry>>)> =
            lock(&self.rooms).iter().map(|(c, e)| (c.clone(), e.clone())).collect();
        let mut sleepy = Vec::new();
        for (code, entry) in entries {
            // Auto-deal, while anyone is connected (a host screen or not): the roll is dealt
            // (the solver run) with the room's lock released.
            let due = {
                let e = lock(&entry);
                e.room.deal_due().filter(|&at| at <= now && !e.conns.is_empty()).map(|_| e.room.rules().clone())
            };
            // Without the OS's randomness nothing is dealt: the next tick tries again.
            let dealt = due.and_then(|rules| Some((Deal::new(new_roll(&rules).ok()?, &rules), rules)));
            let mut e = lock(&entry);
            if e.ended {
                continue;
            }
            let mut outs = e.room.tick(now);
            if let Some((deal, rules)) = dealt {
                // Still due, on the same rules (a host may have dealt or changed them meanwhile).
                if e.room.deal_due().is_some_and(|at| at <= now) && e.room.rules() == &rules {
                    outs.extend(e.room.apply(Input::NextRoll { deal }, now).unwrap_or_else(|r| r.settled));
                }
            }
            // A seat that never played is given up sooner: three minutes, against ten.
            let played = |s: Seat| e.room.members().any(|(seat, m)| seat == s && m.played);
            let kept = |s: Seat| if played(s) { SEAT_KEPT_MS } else { UNPLAYED_KEPT_MS };
            // A kept class holds the seats of members with a record (a result, or past lessons)
            // between lessons, their time away counted from when it stops being kept; a seat
            // taken and never played in goes as in any room.
            let class = e.room.kept();
            let held = |s: Seat| class && e.room.members().any(|(seat, m)| seat == s && m.worth_keeping());
            let expired: Vec<Seat> = e
                .dropped
                .iter()
                .filter(|(&s, &t)| !held(s) && now.saturating_sub(t) > kept(s))
                .map(|(&s, _)| s)
                .collect();
            let holding: Vec<Seat> = e.dropped.keys().copied().filter(|&s| held(s)).collect();
            for s in holding {
                e.dropped.insert(s, now);
            }
            for seat in expired {
                e.forget(seat);
                outs.extend(e.room.apply(Input::Leave { seat }, now).unwrap_or_else(|r| r.settled));
            }
            // A kept class's lesson ends an hour after the last one left (if anything was played).
            let idle = now.saturating_sub(e.active_ms);
            if e.lesson_left_open(now) {
                outs.extend(e.room.apply(Input::EndLesson, now).unwrap_or_else(|r| r.settled));
            }
            if !outs.is_empty() || e.dirty {
                self.write(&code, &mut e, durable(&outs));
                e.send(&outs, now);
            }
            if e.sleepy(now) {
                sleepy.push(code.clone());
            }
            if !e.conns.is_empty() {
                // Someone is in it (a presenter left open over a weekend too): idle time
                // counts from the last connection, not from the last input.
                e.active_ms = now;
            } else if idle > if class { self.limits.forget_ms } else { self.limits.idle_ms } {
                // Marked under its own lock: a join in flight finds it gone, never writes it back.
                e.ended = true;
                drop(e);
                self.remove(&code);
                if class {
                    note!("score-server: class {code} deleted: unused for {} days", self.limits.forget_ms / 86_400_000);
                } else {
                    note!("score-server: room {code} removed: nobody in it for {} h", self.limits.idle_ms / 3_600_000);
                }
            }
        }
        self.sleep(&sleepy, now);
        self.forget_asleep(now);
        self.forget_handed(now);
        let told: Vec<(String, String)> = std::mem::take(&mut *lock(&self.told));
        if let Some(store) = &self.store {
            for (code, peer) in told {
                if let Err(e) = store.confirmed(&code, &peer) {
                    note!("score-server: room {code}: {e}");
                }
            }
        }
    }

    /// Lets go of kept classes found [`Entry::sleepy`] (their lock released since): each is
    /// then held on disk only, until it is next asked for. Only a class no one else holds is
    /// let go of (the map's is its only `Arc`, and `rooms` is held, so nobody can take it).
    fn sleep(&self, sleepy: &[String], now: u64) {
        if self.store.is_none() || sleepy.is_empty() {
            return;
        }
        let mut rooms = lock(&self.rooms);
        for code in sleepy {
            let Some(entry) = rooms.get(code) else { continue };
            if Arc::strong_count(entry) != 1 {
                continue;
            }
            let at = match entry.try_lock() {
                Ok(e) if e.sleepy(now) => e.active_ms,
                _ => continue,
            };
            rooms.remove(code);
            lock(&self.asleep).insert(code.clone(), at);
        }
    }

    /// Deletes kept classes asleep that nobody has used for `--forget-after` days.
    fn forget_asleep(&self, now: u64) {
        // Not while a room is read back (the next tick does it).
        let _turn = match self.waking.try_lock() {
            Ok(turn) => turn,
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return,
        };
        let gone: Vec<String> = lock(&self.asleep)
            .iter()
            .filter(|(_, &at)| now.saturating_sub(at) > self.limits.forget_ms)
            .map(|(code, _)| code.clone())
            .collect();
        for code in gone {
            // The row first: until it is gone the code stays taken.
            self.unstore(&code);
            lock(&self.asleep).remove(&code);
            note!("score-server: class {code} deleted: unused for {} days", self.limits.forget_ms / 86_400_000);
        }
    }

    /// Takes an ended room out of the registry and the database.
    fn remove(&self, code: &str) {
        lock(&self.rooms).remove(code);
        self.unstore(code);
    }

    /// Deletes a room from the database (it is already out of `rooms`).
    fn unstore(&self, code: &str) {
        if let Some(s) = &self.store {
            if let Err(e) = s.remove(code) {
                note!("score-server: room {code} not removed from the database: {e}");
            }
        }
    }

    /// With the server full, the room nobody has been in for longest makes way for a new
    /// one: taken out of `rooms` (held by the caller), its code returned for the caller to
    /// delete from the database once `rooms` is released; none when every room has someone
    /// in it. A room whose lock is busy is in use, and passed over without waiting.
    fn make_way(rooms: &mut HashMap<String, Arc<Mutex<Entry>>>, now: u64) -> Option<String> {
        let oldest = rooms
            .iter()
            .filter_map(|(code, e)| {
                let e = e.try_lock().ok()?;
                // A class's room (joined, and in use in the last day) never makes way for a
                // stranger's: a flood of new rooms pushes out only empty or long-idle ones.
                // A kept class never makes way.
                let kept = e.room.kept() || (e.joined && now.saturating_sub(e.active_ms) < MAKE_WAY_AFTER_MS);
                (e.conns.is_empty() && !kept).then(|| (e.active_ms, code.clone()))
            })
            .min();
        let (_, code) = oldest?;
        let entry = rooms.get(&code)?.clone();
        // Marked under its own lock (free a moment ago): a tick holding it writes nothing back.
        let Ok(mut e) = entry.try_lock() else { return None };
        e.ended = true;
        drop(e);
        rooms.remove(&code);
        Some(code)
    }

    /// A new room, under the code the page proposed, opened by its host (seated when they
    /// gave a name to play under, else as a host screen): its code, the host's place and Welcome.
    pub(crate) fn create(
        &self,
        code: &str,
        name: Option<&str>,
        judging: bool,
        lang: Option<&str>,
        conn: Conn,
        from: IpAddr,
    ) -> Result<(String, Who, String), Refusal> {
        let taken = || Refusal::CodeTaken;
        let code = room_code(code).ok_or_else(taken)?;
        let name = name.map(check_name).transpose().map_err(Refusal::from)?;
        // Checked before the creation counts against this address, as the name is.
        let lang = lang.map(check_lang).transpose().map_err(Refusal::from)?;
        if self.taken(&lock(&self.rooms), &code) {
            return Err(taken());
        }
        self.may_create(from, &code, now_ms())?;
        // Another instance's room under this code (the proxy's set changed) is taken over,
        // and the page proposes another code; asked only within the address's room budget.
        // (One an instance that didn't answer may hold is not waited for: codes are random,
        // and a page can't wait for a machine that's down.)
        if self.limits.peers.is_some() && matches!(self.find(&code, true), Found::Here(_) | Found::Moving) {
            return Err(taken());
        }
        // The solver runs before any lock is taken.
        let deal = Deal::new(new_roll(&self.rules)?, &self.rules);
        let host = token()?;
        let seat_token = token()?;
        let now = now_ms();
        let mut room = Room::new(self.rules.clone(), judging, deal).dealt(now);
        if let Some(lang) = lang {
            room.apply(Input::Language { lang }, now).map_err(|r| Refusal::from(r.error))?;
        }
        let seated = name.is_some();
        if let Some(name) = name {
            room.apply(Input::Join { name }, now).map_err(|r| Refusal::from(r.error))?;
        }
        let mut entry = Entry {
            room,
            host: host.clone(),
            tokens: HashMap::new(),
            conns: HashMap::new(),
            screens: 0,
            dropped: HashMap::new(),
            taken_from: HashMap::new(),
            active_ms: now,
            seq: 0,
            dirty: false,
            joined: false,
            ended: false,
        };
        let (who, seat_token) = if seated {
            let t = seat_token;
            entry.tokens.insert(t.clone(), 0);
            entry.conns.insert(Who::Seat(0), conn);
            (Who::Seat(0), Some(t))
        } else {
            (entry.screen(conn), None)
        };
        // The interfaces are read before any lock is taken.
        let join_at = self.join_at();
        let entry = Arc::new(Mutex::new(entry));
        // Held from before it is in `rooms` until it is stored: whoever finds it waits.
        let mut e = lock(&entry);
        let made_way = {
            let mut rooms = lock(&self.rooms);
            if self.taken(&rooms, &code) {
                return Err(taken());
            }
            // Kept classes asleep count too (and never make way).
            let made_way = if rooms.len() + lock(&self.asleep).len() >= self.limits.max_rooms {
                let Some(gone) = Hub::make_way(&mut rooms, now) else {
                    return Err(Refusal::ServerFull);
                };
                Some(gone)
            } else {
                None
            };
            rooms.insert(code.clone(), entry.clone());
            made_way
        };
        // The database is written with `rooms` released (only this new room's lock held).
        if let Some(gone) = made_way {
            self.unstore(&gone);
            note!("score-server: room {gone} made way for a new one (nobody in it for longest)");
        }
        self.save(&code, &mut e);
        let welcome = e.welcome(&code, seated.then_some(0), seat_token, Some(host), now);
        e.tell_join_at(who, join_at);
        note!("score-server: room {code} created");
        Ok((code, who, welcome))
    }

    /// Learns the address this server listens on.
    pub fn listening_on(&self, bound: std::net::SocketAddr) {
        let _ = self.bound.set(bound);
    }

    /// The addresses (`host:port`) other devices reach this server at now (none when it
    /// listens on this computer only, or before it listens).
    pub fn reachable(&self) -> Vec<String> {
        let Some(&bound) = self.bound.get() else { return Vec::new() };
        // Virtual machines' and containers' bridges are no network a class is on.
        let virtual_bridge = |name: &str| {
            ["docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "vEthernet", "lxc", "cni", "flannel", "tun", "tap"]
                .iter()
                .any(|p| name.starts_with(p))
        };
        let interfaces: Vec<IpAddr> = local_ip_address::list_afinet_netifas()
            .map(|l| l.into_iter().filter(|(name, _)| !virtual_bridge(name)).map(|(_, ip)| ip).collect())
            .unwrap_or_default();
        score_room::reach::reachable(bound, &interfaces)
    }

    /// What a page is told of where the class reaches the server; none before the server
    /// listens (a hub under test).
    fn join_at(&self) -> Option<Utf8Bytes> {
        self.bound.get()?;
        let addresses = self.reachable();
        serde_json::to_string(&ServerMsg::JoinAt { addresses }).ok().map(Utf8Bytes::from)
    }

    /// Opens a room as its host on another screen (the host link): no seat.
    pub(crate) fn present(&self, code: &str, host: &str, conn: Conn, from: IpAddr) -> Result<(Who, String), Refusal> {
        let code = code.trim().to_uppercase();
        let now = now_ms();
        let no_room = || Refusal::HostLinkGone { code: code.clone() };
        let entry = match self.find_for(&code, from, now) {
            Ok(entry) => entry,
            Err(None) => return Err(self.wrong_code(from, now, no_room())),
            Err(Some(refusal)) => return Err(refusal),
        };
        // The interfaces are read before the room's lock is taken.
        let join_at = self.join_at();
        let mut e = lock(&entry);
        if e.ended {
            return Err(no_room());
        }
        if e.host != host {
            return Err(self.wrong_code(from, now, Refusal::WrongHostLink { code: code.clone() }));
        }
        e.active_ms = now;
        let who = e.screen(conn);
        let host = e.host.clone();
        let welcome = e.welcome(&code, None, None, Some(host), now);
        e.tell_join_at(who, join_at);
        Ok((who, welcome))
    }

    /// A host screen takes a seat ("Play too"): its seat and its new Welcome.
    pub(crate) fn sit(&self, code: &str, screen: Who, name: &str) -> Result<(Who, String), Refusal> {
        let gone = || Refusal::NoLongerInRoom;
        let entry = self.awake(code).ok_or_else(gone)?;
        let join_at = self.join_at();
        let mut e = lock(&entry);
        if e.ended {
            return Err(gone());
        }
        // Out of the room's sends while it is seated (as a member who joins is), back if refused.
        let conn = e.conns.remove(&screen).ok_or_else(gone)?;
        let now = now_ms();
        let (seat, t) = match self.seat(code, &mut e, name, None, now) {
            Ok(seated) => seated,
            Err(refused) => {
                e.conns.insert(screen, conn);
                return Err(refused);
            }
        };
        e.conns.insert(Who::Seat(seat), conn);
        let host = e.host.clone();
        let welcome = e.welcome(code, Some(seat), Some(t), Some(host), now);
        e.tell_join_at(Who::Seat(seat), join_at);
        Ok((Who::Seat(seat), welcome))
    }

    /// Seats a member (or takes their seat back by its token): their seat and Welcome.
    pub(crate) fn join(
        &self,
        code: &str,
        name: &str,
        token_back: Option<String>,
        device: Option<String>,
        conn: Conn,
        from: IpAddr,
    ) -> Result<(Seat, String), Refusal> {
        let code = code.trim().to_uppercase();
        let now = now_ms();
        let entry = match self.find_for(&code, from, now) {
            Ok(entry) => entry,
            Err(None) => return Err(self.wrong_code(from, now, Refusal::NoSuchRoom { code })),
            Err(Some(refusal)) => return Err(refusal),
        };
        let join_at = self.join_at();
        let mut e = lock(&entry);
        if e.ended {
            return Err(Refusal::NoSuchRoom { code });
        }
        if let Some(token) = token_back {
            let Some(&seat) = e.tokens.get(&token) else {
                return Err(Refusal::SeatGone { code });
            };
            // Back on the same seat, with the same score. A connection still on it (another tab
            // of the same browser) is told why, then closed; it does not take the seat back
            // by itself.
            if let Some(old) = e.conns.insert(Who::Seat(seat), conn) {
                old.let_go.store(LET_GO_ELSEWHERE, Ordering::Relaxed);
            }
            e.dropped.remove(&seat);
            e.active_ms = now;
            // Everyone sees them back; the Welcome (built after) shows it too.
            e.presence(seat, false, now);
            let welcome = e.welcome(&code, Some(seat), Some(token), None, now);
            e.tell_join_at(Who::Seat(seat), join_at);
            return Ok((seat, welcome));
        }
        // An address that has left too many seats empty waits until they are given up. Empty:
        // away within half a minute of joining, without a move or a claim (a tablet that locks
        // during the teacher's introduction went away later, and is not counted).
        let empty = |s: &Seat, joined: u64| {
            let quickly = e.dropped.get(s).is_some_and(|&away| away.saturating_sub(joined) < LEFT_EMPTY_WITHIN_MS);
            quickly && e.room.members().any(|(seat, m)| seat == *s && m.empty_seat())
        };
        let left_empty = e.taken_from.iter().filter(|(s, (ip, at))| *ip == from && empty(s, *at)).count();
        if left_empty >= EMPTY_SEATS_PER_ADDRESS {
            return Err(Refusal::SlowDown { what: score_room::protocol::Flood::Joins });
        }
        let (seat, t) = self.seat(&code, &mut e, name, device, now)?;
        e.taken_from.insert(seat, (from, now));
        e.joined = true;
        e.conns.insert(Who::Seat(seat), conn);
        let welcome = e.welcome(&code, Some(seat), Some(t), None, now);
        e.tell_join_at(Who::Seat(seat), join_at);
        Ok((seat, welcome))
    }

    /// Seats `name` in the room: its seat and the seat's token, the join stored and told to
    /// everyone connected. A refused name changes nothing, but clocks settled on the way still
    /// reach everyone and the store.
    fn seat(
        &self,
        code: &str,
        e: &mut Entry,
        name: &str,
        device: Option<String>,
        now: u64,
    ) -> Result<(Seat, String), Refusal> {
        // The token first: a seat is never taken without one.
        let t = token()?;
        // A device's id as it may be kept: letters, digits and dashes, at most 64. A join
        // without one (or with another) gets an id of the server's making, which no other
        // join will bring: its record goes back to nobody else.
        let device = device
            .filter(|d| d.len() <= 64 && d.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
            .map_or_else(|| token().map(|t| format!("server-{t}")), Ok)?;
        let device = Some(device);
        let outs = match e.room.apply(Input::Enter { name: name.into(), device }, now) {
            Ok(outs) => outs,
            Err(r) => {
                if !r.settled.is_empty() {
                    self.save(code, e);
                    e.send(&r.settled, now);
                }
                return Err(r.error.into());
            }
        };
        let seat = joined_seat(&outs).ok_or(Refusal::NotSeated)?;
        e.tokens.insert(t.clone(), seat);
        e.active_ms = now;
        self.save(code, e);
        e.send(&outs, now);
        Ok((seat, t))
    }

    /// A host's command, checked against the host token: a room input (a new roll is dealt,
    /// the solver running, with no lock held), the report, or the end of the room.
    fn host_input(&self, entry: &Mutex<Entry>, host: &str, command: HostCommand) -> Result<HostAction, Refusal> {
        let rules = {
            let e = lock(entry);
            if host != e.host {
                return Err(Refusal::NotHost);
            }
            e.room.rules().clone()
        };
        let input = match command {
            HostCommand::NewRoll { roll } => {
                let roll = match roll {
                    None => new_roll(&rules)?,
                    Some(faces) => arrange(&faces, &rules.dice)
                        .ok_or_else(|| Refusal::CantRoll { roll: faces.clone(), dice: rules.dice.clone() })?,
                };
                Input::NewRoll { deal: Deal::new(roll, &rules) }
            }
            HostCommand::NextRoll => Input::NextRoll { deal: Deal::new(new_roll(&rules)?, &rules) },
            HostCommand::Lock { locked } => Input::Lock { locked },
            HostCommand::Remove { seat, .. } => Input::Remove { seat },
            HostCommand::Free { seat, .. } => Input::Free { seat },
            HostCommand::Readmit { name } => Input::Readmit { name },
            HostCommand::ClearEmpty => Input::ClearEmpty,
            HostCommand::ClearChat => Input::ClearChat,
            HostCommand::Rules { dice, goal, score_secs, impossible_secs, judging } => {
                let new = Rules { dice, goal, score_secs, impossible_secs, ..rules.clone() };
                new.validate().map_err(|errors| Refusal::Rules { errors })?;
                let deal = Deal::new(new_roll(&new)?, &new);
                Input::SetRules { rules: new, judging, deal }
            }
            HostCommand::AutoDeal { secs } if secs > MAX_AUTO_DEAL_SECS => {
                return Err(Refusal::AutoDealTooLong { max_secs: MAX_AUTO_DEAL_SECS });
            }
            HostCommand::AutoDeal { secs } => Input::AutoDeal { secs },
            HostCommand::Language { lang } => Input::Language { lang },
            HostCommand::Keep { kept: true } => {
                // At most half the server's rooms are kept classes: a lesson's room always
                // finds one to make way. A room busy now counts as kept (one being kept at
                // this moment is busy), so a burst of presses errs on the side of refusing.
                let most = self.limits.max_rooms / 2;
                let rooms: Vec<Arc<Mutex<Entry>>> = lock(&self.rooms).values().cloned().collect();
                let kept = rooms
                    .iter()
                    .filter(|e| !std::ptr::eq(e.as_ref(), entry) && !matches!(e.try_lock(), Ok(e) if !e.room.kept()))
                    .count()
                    + lock(&self.asleep).len();
                if kept >= most {
                    return Err(Refusal::TooManyKept { most: most as u32 });
                }
                Input::Keep { kept: true }
            }
            HostCommand::Keep { kept: false } => Input::Keep { kept: false },
            HostCommand::EndLesson => Input::EndLesson,
            HostCommand::SetHomework { rolls, count, level, adaptive, score_secs, impossible_secs, untimed, due } => {
                let rules = Rules { score_secs, impossible_secs, ..rules.clone() };
                rules.validate().map_err(|errors| Refusal::Rules { errors })?;
                // What the room would refuse is refused before any roll is dealt (a room of
                // one lesson, a due date past or too far), and a level is 1 to 5.
                if level.is_some_and(|l| !(1..=5).contains(&l)) {
                    return Err(Refusal::Unreadable);
                }
                {
                    let e = lock(entry);
                    if !e.room.kept() {
                        return Err(RoomError::NotKept.into());
                    }
                    Assignment::check_due(due, now_ms())?;
                }
                // One server-wide: rolls at a difficulty are rated by the solver, which takes
                // a while for many; a burst of homework waits its turn rather than take every core.
                let _turn = lock(&self.dealing);
                let assignment = if adaptive && rolls.is_empty() {
                    Assignment::at_each_level(homework_pool(&rules, count)?, count, &rules, untimed, due)
                } else {
                    let deals = homework_deals(&rules, rolls.clone(), count, level)?;
                    // Chosen at a difficulty (not typed): every roll has a solution, and students are told.
                    let solvable = level.is_some() && rolls.is_empty();
                    Assignment::new(deals, &rules, untimed, solvable, due)
                };
                Input::SetHomework { assignment }
            }
            HostCommand::EndHomework => Input::EndHomework,
            HostCommand::Forget { name } => Input::Forget { name },
            HostCommand::End => return Ok(HostAction::End),
            HostCommand::Report => return Ok(HostAction::Report),
        };
        Ok(HostAction::Play { input, dealt_for: rules })
    }

    /// A message from the connection `me` of `who` (a seat or a host screen): refused when
    /// `me` is no longer the one the room holds for `who` (another tab took the seat).
    pub(crate) fn input(
        &self,
        code: &str,
        who: Who,
        msg: ClientMsg,
        me: Option<&Sender<Utf8Bytes>>,
    ) -> Result<(), Refusal> {
        let gone = || Refusal::NoLongerInRoom;
        let entry = self.awake(code).ok_or_else(gone)?;
        // A host screen commands the room; to play it takes a seat first.
        let seat = || match who {
            Who::Seat(seat) => Ok(seat),
            Who::Screen(_) => Err(Refusal::Presenting),
        };
        // The rules a host's roll was dealt for, checked under the same lock that plays it.
        let mut dealt = None;
        // The name a host's removal was pressed for, checked under the same lock.
        let removing = match &msg {
            ClientMsg::Host {
                command: HostCommand::Remove { seat, name: Some(name) } | HostCommand::Free { seat, name: Some(name) },
                ..
            } => Some((*seat, name.clone())),
            _ => None,
        };
        let (input, removed) = match msg {
            ClientMsg::Leave if matches!(who, Who::Screen(_)) => return Ok(()),
            ClientMsg::Claim { claim } => (Input::Claim { seat: seat()?, claim }, None),
            ClientMsg::Reveal => (Input::RevealNow { seat: seat()? }, None),
            ClientMsg::GiveUp => (Input::GiveUp { seat: seat()? }, None),
            ClientMsg::Act { action } => (Input::Act { seat: seat()?, action: action.into() }, None),
            ClientMsg::Homework { command } => (Input::Homework { seat: seat()?, command }, None),
            // A host screen without a seat writes as the teacher.
            ClientMsg::Chat { text } => match who {
                Who::Seat(seat) => (Input::Chat { seat, text }, None),
                Who::Screen(_) => (Input::TeacherChat { text }, None),
            },
            ClientMsg::Leave => (Input::Leave { seat: seat()? }, Some((seat()?, false))),
            ClientMsg::Host { host, command } => match self.host_input(&entry, &host, command)? {
                HostAction::End => {
                    self.end(code);
                    return Ok(());
                }
                HostAction::Report => {
                    // Answered to this connection alone.
                    let e = lock(&entry);
                    // A kept class's Progress comes with it.
                    let progress = if e.room.has_lessons() { e.room.progress() } else { Vec::new() };
                    let report =
                        ServerMsg::Report { rows: e.room.report(), progress, hardest: e.room.hardest(now_ms()) };
                    if let (Some(c), Ok(text)) = (e.conns.get(&who), serde_json::to_string(&report)) {
                        c.offer(&Utf8Bytes::from(text));
                    }
                    return Ok(());
                }
                HostAction::Play { input: input @ Input::Remove { seat: who }, .. } => (input, Some((who, true))),
                // A freed seat's old device loses it without being told it was removed.
                HostAction::Play { input: input @ Input::Free { seat: who }, .. } => (input, Some((who, false))),
                HostAction::Play { input: input @ (Input::NewRoll { .. } | Input::NextRoll { .. }), dealt_for } => {
                    dealt = Some(dealt_for);
                    (input, None)
                }
                HostAction::Play { input, .. } => (input, None),
            },
            ClientMsg::Create { .. } | ClientMsg::Join { .. } | ClientMsg::Present { .. } | ClientMsg::Sit { .. } => {
                return Err(Refusal::AlreadySeated);
            }
        };
        let mut e = lock(&entry);
        if e.ended || !e.conns.get(&who).is_some_and(|c| me.is_some_and(|me| c.tx.same_channel(me))) {
            return Err(gone());
        }
        // A roll dealt for rules that changed meanwhile (another host screen) is not played.
        if dealt.is_some_and(|rules| e.room.rules() != &rules) {
            return Err(Refusal::RulesChanged);
        }
        // A removal of a name no longer in that seat (exactly as the host saw it) removes nobody.
        if let Some((seat, name)) = &removing {
            if !e.room.members().any(|(s, m)| s == *seat && m.name == *name) {
                return Err(Refusal::Room { error: score_room::room::RoomError::NoSuchSeat });
            }
        }
        let now = now_ms();
        let resume = matches!(input, Input::Homework { command: HomeworkCommand::Start, .. });
        let (outs, refused, board) = match e.room.apply(input, now) {
            // "Go on with homework" on a run under way is its run sent again, to that page
            // alone: nothing changed, so nothing is stored (pressed twice a second, it writes nothing).
            Ok(outs) if resume && outs.len() == 1 => {
                e.send(&outs, now);
                return Ok(());
            }
            Ok(outs) => (outs, None, None),
            // Clocks settled on the way reach everyone and the store even when the input is
            // refused; a refused move is answered with the member's board as the room holds it.
            Err(r) => (r.settled, Some(r.error), r.board),
        };
        if !outs.is_empty() {
            e.active_ms = now;
            // Every seat given up (the host clearing empty seats too) loses its token.
            for o in &outs {
                if let RoomEvent::Left { seat } = o.event {
                    if removed.is_none_or(|(who, _)| who != seat) {
                        if let Some(c) = e.forget(seat) {
                            c.offer(&error(Refusal::Removed));
                        }
                    }
                }
            }
            if let Some((who, by_host)) = removed.filter(|_| refused.is_none()) {
                // Their token stops working; a removed member is told, then their socket closes.
                if let Some(c) = e.forget(who) {
                    if by_host {
                        c.offer(&error(Refusal::Removed));
                    }
                }
            }
            self.keep(code, &mut e, &outs);
            e.send(&outs, now);
        }
        // A refused move's answer: the member's board as the room holds it, after the rest.
        if let Some(b) = board {
            e.send(&[*b], now);
        }
        refused.map_or(Ok(()), |r| Err(r.into()))
    }

    /// Ends a room: everyone is told, their connections close, and it is forgotten.
    fn end(&self, code: &str) {
        let Some(entry) = lock(&self.rooms).remove(code) else { return };
        let mut e = lock(&entry);
        e.ended = true;
        e.tell_all(&error(Refusal::Ended));
        self.unstore(code);
        note!("score-server: room {code} ended by its host");
    }

    /// A snapshot of the database in `dir`, the newest `keep` kept ([`Store::backup`]); none
    /// for a hub without a store.
    pub fn backup(&self, dir: &std::path::Path, keep: usize) -> Option<Result<std::path::PathBuf, String>> {
        Some(self.store.as_ref()?.backup(dir, keep, now_ms()))
    }

    /// Tells every member the server is stopping (their seats are kept).
    pub fn stopping(&self) {
        let msg = error(Refusal::Restarting);
        let entries: Vec<Arc<Mutex<Entry>>> = lock(&self.rooms).values().cloned().collect();
        for entry in entries {
            lock(&entry).tell_all(&msg);
        }
    }

    /// The room's scoreboard and results as CSV, for its host.
    pub fn csv(&self, code: &str, host: &str, words: &score_i18n::Catalog) -> Option<String> {
        let entry = self.entry(code)?;
        let e = lock(&entry);
        (e.host == host && !e.ended).then(|| e.room.csv(words))
    }

    /// A member's board as the room holds it, to them alone: the answer to a move that never
    /// reached the room (the rate limit), so their page takes the room's board back.
    /// Answers a move refused before the room saw it (too many) with the member's board as the
    /// room holds it: the class table's, or their homework's.
    pub(crate) fn answer_move(&self, code: &str, who: Who, homework: bool) {
        let (Some(entry), Who::Seat(seat)) = (self.awake(code), who) else { return };
        let mut e = lock(&entry);
        let board = if homework { e.room.homework_board_event(seat) } else { Some(e.room.board_event(seat)) };
        if let Some(board) = board.filter(|_| e.room.members().any(|(s, _)| s == seat)) {
            e.send(&[board], now_ms());
        }
    }

    pub(crate) fn dropped(&self, code: &str, who: Who, conn: &Sender<Utf8Bytes>) {
        if let Some(entry) = self.awake(code) {
            let mut e = lock(&entry);
            // Only if this connection is still the seat's (a reload may have replaced it).
            if e.conns.get(&who).is_some_and(|c| c.tx.same_channel(conn)) {
                e.conns.remove(&who);
                if let Who::Seat(seat) = who {
                    let now = now_ms();
                    e.dropped.insert(seat, now);
                    e.presence(seat, true, now);
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

#[cfg(test)]
mod tests {
    use score_room::protocol::RoomEvent;
    use tokio::sync::mpsc::channel;

    use super::*;

    pub(super) fn entry(queue: usize) -> (Entry, tokio::sync::mpsc::Receiver<Utf8Bytes>, Arc<AtomicU8>) {
        let (tx, rx) = channel(queue);
        let too_slow = Arc::new(AtomicU8::new(0));
        let mut room = Room::new(Rules::default(), true, Deal::new(vec![2, 5, 12, 12], &Rules::default()));
        room.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        let e = Entry {
            room,
            host: "h".into(),
            tokens: HashMap::from([("t".to_string(), 0)]),
            conns: HashMap::from([(Who::Seat(0), Conn { tx, let_go: too_slow.clone() })]),
            screens: 0,
            dropped: HashMap::new(),
            taken_from: HashMap::new(),
            active_ms: 0,
            seq: 0,
            dirty: false,
            joined: false,
            ended: false,
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
        assert!(e.conns.contains_key(&Who::Seat(0)) && too_slow.load(Ordering::Relaxed) == 0);
        // The third event finds the queue full: the member is cut, told why, and their seat waits.
        e.send(&locked(true), 3);
        assert!(!e.conns.contains_key(&Who::Seat(0)));
        assert_eq!(too_slow.load(Ordering::Relaxed), LET_GO_SLOW);
        assert_eq!(e.dropped.get(&0), Some(&3));
        assert_eq!(e.tokens.get("t"), Some(&0));
        // What was queued still arrives, in order, and then the queue ends.
        let first = rx.try_recv().unwrap();
        assert!(first.as_str().starts_with(r#"{"Event":{"seq":1,"#), "{}", first.as_str());
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

    // Pins a bug: when the OS gave no random bytes, tokens were made from the time, so a
    // host token could be guessed from when its room was made. Now nothing is made.
    #[test]
    fn without_the_oss_randomness_no_token_is_made() {
        assert_eq!(token_of(None), Err(Refusal::ServerFault));
        assert_eq!(token_of(Some([0xab; 16])).unwrap(), "ab".repeat(16));
        assert_eq!(token().unwrap().len(), 32);
    }

    // Pins a bug: the server took one random byte modulo the sides, so on four d100 faces
    // 1–56 came up 66 % of the time, and on a d20 faces 1–16 8 % more often than 17–20.
    #[test]
    fn the_servers_dice_are_fair_by_chi_square_over_100_000_rolls_of_each_size() {
        // χ² at p = 0.001 for sides − 1 degrees of freedom. A fair die goes over it once in a
        // thousand samples (the OS's randomness: a test run saw it), so a size fails when a
        // second, fresh sample goes over it too: once in a million for a fair die, every
        // time for a biased one, whose χ² is far over (below).
        for (sides, critical) in [(6, 20.515), (12, 31.264), (20, 43.820), (100, 148.230)] {
            let sample = || chi_square(&faces(sides, 100_000, |r: &Rules| new_roll(r).unwrap()));
            let first = sample();
            if first >= critical {
                let second = sample();
                assert!(
                    second < critical,
                    "d{sides}: χ² = {first:.1}, then {second:.1}, over 400,000 faces each, p < 0.001 at {critical}"
                );
            }
        }
        // The test tells a biased roller: one byte modulo the sides, as before.
        let byte_mod =
            |r: &Rules| r.dice.iter().map(|&s| 1 + i64::from(random_bytes::<1>().unwrap()[0]) % i64::from(s)).collect();
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
        // Ana has played (a seat that never played is given up after a minute instead).
        let sub = score_engine::Action::Combine {
            left: score_engine::TileId(2),
            op: score_engine::Op::Sub,
            right: score_engine::TileId(3),
        };
        room.apply(Input::Act { seat: 0, action: sub }, 0).unwrap();
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
        e.conns.insert(Who::Seat(1), Conn { tx: tx2, let_go: Arc::new(AtomicU8::new(0)) });
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
        assert!(durable(&all(RoomEvent::Joined { seat: 1, name: "Ana".into(), score: 0 })));
        assert!(durable(&all(RoomEvent::Left { seat: 1 })));
        assert!(durable(&all(RoomEvent::Rules { rules: Rules::default(), judging: true })));
        assert!(durable(&all(RoomEvent::Clock { seat: 1, claim: score_room::protocol::Claim::Score, deadline: 5 })));
        assert!(!durable(&all(RoomEvent::Board { seat: 1, actions: vec![] })));
        assert!(!durable(&all(RoomEvent::Chat { seat: 1, name: "Ana".into(), text: "hi".into() })));
        assert!(!durable(&all(RoomEvent::Presence { seat: 1, away: true })));
        let mut mixed = all(RoomEvent::Board { seat: 1, actions: vec![] });
        mixed.extend(all(RoomEvent::Results { outcomes: vec![], scores: vec![], clock: None }));
        assert!(durable(&mixed));
    }

    // Pins a bug: a failed save cleared `dirty` first, so a room that could not be written
    // (a full disk, a locked file) was never written until something else changed.
    #[test]
    fn a_room_that_could_not_be_stored_is_stored_at_the_next_tick() {
        let dir = std::env::temp_dir().join(format!("score-hub-retry-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let hub = Hub::new(Some(Store::open(&dir).unwrap()));
        let (tx, _rx) = tokio::sync::mpsc::channel(16);
        let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
        let (code, _, _) = hub.create("ABC234", Some("Ana"), true, None, conn, "10.0.0.1".parse().unwrap()).unwrap();
        // The table goes away under the server: the next save fails.
        let other = rusqlite::Connection::open(dir.join("score.sqlite3")).unwrap();
        other.execute_batch("ALTER TABLE rooms RENAME TO away").unwrap();
        let entry = hub.entry(&code).unwrap();
        {
            let mut e = lock(&entry);
            e.room.apply(Input::Lock { locked: true }, now_ms()).unwrap();
            hub.save(&code, &mut e);
            assert!(e.dirty, "a failed save is tried again");
        }
        other.execute_batch("ALTER TABLE away RENAME TO rooms").unwrap();
        hub.tick();
        assert!(!lock(&entry).dirty);
        let (stored, _) = Store::open(&dir).unwrap().load().unwrap();
        assert!(stored[0].1.room.locked, "the change reached the disk at the tick");
    }

    // Pins a bug: clocks that ran out while the server was down were settled at start-up but
    // written only when something else changed: a second crash lost those results.
    #[test]
    fn clocks_settled_at_start_up_are_saved_at_once() {
        let dir = std::env::temp_dir().join(format!("score-hub-settled-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut room = Room::new(Rules::default(), true, Deal::new(vec![1, 1, 1, 4], &Rules::default()));
        room.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        room.apply(Input::Claim { seat: 0, claim: score_room::protocol::Claim::Impossible }, 0).unwrap();
        let tokens = HashMap::from([("t".to_string(), 0)]);
        let stored = StoredRoom { room: room.saved().clone(), host: "h".into(), tokens, active_ms: 0 };
        Store::open(&dir).unwrap().save("ABC234", &stored).unwrap();
        let _hub = Hub::new(Some(Store::open(&dir).unwrap()));
        let (back, _) = Store::open(&dir).unwrap().load().unwrap();
        let score = back[0].1.room.seats[0].as_ref().map(|m| m.score);
        assert_eq!(score, Some(1), "the claim judged at start-up is on disk");
    }

    // Pins a bug: a presenter left connected over a weekend never refreshed the room's last
    // activity, so when its tab closed the room and its scores were deleted at the next tick.
    #[test]
    fn idle_time_counts_from_the_last_connection_and_a_removed_room_is_ended() {
        let limits = Limits { idle_ms: 1_000, ..Limits::default() };
        let hub = Hub::with_limits(None, Rules::default(), limits);
        let (tx, _rx) = tokio::sync::mpsc::channel(16);
        let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
        let (code, who, _) = hub.create("ABC234", None, true, None, conn, "10.0.0.1".parse().unwrap()).unwrap();
        let entry = hub.entry(&code).unwrap();
        let start = now_ms();
        // A weekend with the presenter open and nobody pressing anything.
        hub.tick_at(start + 3 * 24 * 3_600_000);
        assert!(hub.entry(&code).is_some());
        lock(&entry).conns.remove(&who);
        hub.tick_at(start + 3 * 24 * 3_600_000 + 500);
        assert!(hub.entry(&code).is_some(), "removed at once after the presenter closed");
        hub.tick_at(start + 3 * 24 * 3_600_000 + 1_600);
        assert!(hub.entry(&code).is_none());
        assert!(lock(&entry).ended, "a join in flight would write it back");
    }

    /// A new room on `hub` with Ana seated (her page's receiver dropped): its code and her place.
    fn ana_in_a_new_room(hub: &Hub) -> (String, Who) {
        let (tx, _rx) = tokio::sync::mpsc::channel(16);
        let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
        let (code, who, _) = hub.create("ABC234", Some("Ana"), true, None, conn, "10.0.0.1".parse().unwrap()).unwrap();
        (code, who)
    }

    // A kept class stays past the idle time, holds its members' seats, ends its lesson after
    // an hour with nobody in, never makes way, and is deleted only after --forget-after.
    #[test]
    fn a_kept_class_outlasts_idle_rooms_ends_its_lesson_and_is_forgotten_only_when_unused() {
        let limits = Limits { idle_ms: 1_000, forget_ms: 30 * 86_400_000, ..Limits::default() };
        let hub = Hub::with_limits(None, Rules::default(), limits);
        let (code, who) = ana_in_a_new_room(&hub);
        let entry = hub.entry(&code).unwrap();
        let start = now_ms();
        {
            let mut e = lock(&entry);
            e.room.apply(Input::Keep { kept: true }, start).unwrap();
            e.room.apply(Input::Claim { seat: 0, claim: score_room::protocol::Claim::Impossible }, start).unwrap();
            // Ana's page goes away: in a room of one lesson her seat would be given up.
            e.conns.remove(&who);
            e.dropped.insert(0, start);
        }
        hub.tick_at(start + 2 * 60_000);
        assert_eq!(lock(&entry).room.lesson(), 1, "the lesson goes on within the hour");
        hub.tick_at(start + LESSON_ENDS_AFTER_MS + 120_000);
        {
            let e = lock(&entry);
            assert_eq!(e.room.lesson(), 2, "the lesson ended after an hour with nobody in");
            assert!(e.room.members().any(|(_, m)| m.name == "Ana" && m.lessons.len() == 1), "Ana's seat is held");
        }
        // Another hour, nothing played: no empty lesson is counted.
        hub.tick_at(start + 3 * LESSON_ENDS_AFTER_MS);
        assert_eq!(lock(&entry).room.lesson(), 2);
        // A month less a day later it is still there, and a full server doesn't push it out.
        let later = start + 29 * 86_400_000;
        hub.tick_at(later);
        assert!(hub.entry(&code).is_some());
        assert_eq!(Hub::make_way(&mut lock(&hub.rooms), later + 1), None);
        // Unused for longer than --forget-after: deleted.
        hub.tick_at(start + 3 * LESSON_ENDS_AFTER_MS + 30 * 86_400_000 + 1);
        assert!(hub.entry(&code).is_none());
    }

    // Pins two bugs: a kept class held every seat for ever (a script's junk names, a seat
    // taken and never played), and stopping keeping it gave up every absent member at once.
    #[test]
    fn a_kept_class_holds_the_seats_of_a_record_and_lets_them_go_gently_when_no_longer_kept() {
        let hub = Hub::with_limits(None, Rules::default(), Limits::default());
        let (code, who) = ana_in_a_new_room(&hub);
        let entry = hub.entry(&code).unwrap();
        let start = now_ms();
        {
            let mut e = lock(&entry);
            e.room.apply(Input::Keep { kept: true }, start).unwrap();
            e.room.apply(Input::Join { name: "Junk".into() }, start).unwrap();
            e.room.apply(Input::Claim { seat: 0, claim: score_room::protocol::Claim::Impossible }, start).unwrap();
            e.room.apply(Input::RevealNow { seat: 0 }, start).unwrap();
            e.conns.remove(&who);
            e.dropped.insert(0, start);
            e.dropped.insert(1, start);
        }
        let seated = |name: &str| lock(&entry).room.members().any(|(_, m)| m.name == name);
        hub.tick_at(start + UNPLAYED_KEPT_MS + 1_000);
        assert!(!seated("Junk"), "a seat never played in goes as in any room");
        hub.tick_at(start + 10 * 86_400_000);
        assert!(seated("Ana"), "a seat with a record is held");
        // No longer kept: Ana's time away counts from now, not from ten days ago.
        let later = start + 10 * 86_400_000 + 1;
        {
            // The host's press (their page in the room meanwhile).
            let mut e = lock(&entry);
            e.room.apply(Input::Keep { kept: false }, later).unwrap();
            e.active_ms = later;
        }
        hub.tick_at(later + SEAT_KEPT_MS - 60_000);
        assert!(seated("Ana"));
        hub.tick_at(later + SEAT_KEPT_MS + 60_000);
        assert!(!seated("Ana"));
        assert!(lock(&entry).room.saved().gone.iter().any(|g| g.member.name == "Ana"), "her record is kept");
    }

    // Pins a bug: anyone could keep room after room until the server was full for 400 days.
    #[test]
    fn at_most_half_the_servers_rooms_are_kept_classes() {
        let limits = Limits { max_rooms: 4, rooms_per_address: 100, ..Limits::default() };
        let hub = Hub::with_limits(None, Rules::default(), limits);
        let mut made = Vec::new();
        for code in ["ABC234", "ABC235", "ABC236"] {
            let (tx, _rx) = tokio::sync::mpsc::channel(16);
            let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
            let (code, _, _) = hub.create(code, None, true, None, conn, "10.0.0.1".parse().unwrap()).unwrap();
            let entry = hub.entry(&code).unwrap();
            let host = lock(&entry).host.clone();
            made.push((entry, host));
        }
        for (entry, host) in &made[..2] {
            let Ok(HostAction::Play { input, .. }) = hub.host_input(entry, host, HostCommand::Keep { kept: true })
            else {
                panic!("keep refused")
            };
            lock(entry).room.apply(input, now_ms()).unwrap();
        }
        let (entry, host) = &made[2];
        assert!(matches!(
            hub.host_input(entry, host, HostCommand::Keep { kept: true }),
            Err(Refusal::TooManyKept { most: 2 })
        ));
    }

    // A flood of new rooms on a full server pushes out only rooms nobody joined or used in
    // the last day, never a class's.
    #[test]
    fn a_class_room_in_use_never_makes_way_for_a_strangers() {
        let (mut class, _, _) = super::tests::entry(4);
        class.conns.clear();
        class.joined = true;
        class.active_ms = 10_000;
        let (mut empty, _, _) = super::tests::entry(4);
        empty.conns.clear();
        empty.active_ms = 20_000;
        let mut rooms = HashMap::from([("CLASS2".to_string(), Arc::new(Mutex::new(class)))]);
        assert_eq!(Hub::make_way(&mut rooms, 30_000), None, "the class's room stays");
        rooms.insert("EMPTY2".to_string(), Arc::new(Mutex::new(empty)));
        assert_eq!(Hub::make_way(&mut rooms, 30_000).as_deref(), Some("EMPTY2"));
        // A day without anyone in it: then it may go.
        assert_eq!(Hub::make_way(&mut rooms, 10_000 + MAKE_WAY_AFTER_MS + 1).as_deref(), Some("CLASS2"));
    }

    // Pins a bug: a room ended (or made way) while a tick or a message still held it was
    // written back to the database, and came back after the next restart.
    #[test]
    fn an_ended_room_is_never_written_back() {
        let dir = std::env::temp_dir().join(format!("score-hub-ended-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let hub = Hub::new(Some(Store::open(&dir).unwrap()));
        let (tx, _rx) = tokio::sync::mpsc::channel(16);
        let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
        let (code, _, _) = hub.create("ABC234", Some("Ana"), true, None, conn, "10.0.0.1".parse().unwrap()).unwrap();
        // A tick (or a move) still holds the room when the host ends it.
        let held = hub.entry(&code).unwrap();
        hub.end(&code);
        {
            let mut e = lock(&held);
            e.room.apply(Input::Lock { locked: true }, now_ms()).unwrap();
            e.dirty = true;
            hub.save(&code, &mut e);
        }
        hub.tick();
        assert!(Store::open(&dir).unwrap().load().unwrap().0.is_empty(), "the ended room came back");
    }

    // A kept class nobody is in is held on disk only (at start-up, and after SLEEP_AFTER_MS
    // with no lesson under way), read back whole when asked for, its code never given to
    // another room meanwhile, and deleted when unused for --forget-after.
    #[test]
    fn a_kept_class_sleeps_on_disk_and_wakes_whole() {
        let dir = std::env::temp_dir().join(format!("score-hub-asleep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = Limits { forget_ms: 30 * 86_400_000, ..Limits::default() };
        let hub = Hub::with_limits(Some(Store::open(&dir).unwrap()), Rules::default(), limits.clone());
        let (code, who) = ana_in_a_new_room(&hub);
        let start = now_ms();
        {
            let entry = hub.entry(&code).unwrap();
            let mut e = lock(&entry);
            e.room.apply(Input::Keep { kept: true }, start).unwrap();
            e.room.apply(Input::Claim { seat: 0, claim: score_room::protocol::Claim::Impossible }, start).unwrap();
            e.room.apply(Input::RevealNow { seat: 0 }, start).unwrap();
            e.conns.remove(&who);
            e.dropped.insert(0, start);
            e.dirty = true;
        }
        let asleep = |hub: &Hub| (lock(&hub.rooms).contains_key(&code), lock(&hub.asleep).contains_key(&code));
        hub.tick_at(start + SLEEP_AFTER_MS + 60_000);
        assert_eq!(asleep(&hub), (true, false), "a lesson under way keeps it awake");
        hub.tick_at(start + LESSON_ENDS_AFTER_MS + 60_000);
        assert_eq!(asleep(&hub), (false, true), "lesson over, nobody in: on disk only");
        // Its code is nobody else's meanwhile.
        let (tx, _rx) = tokio::sync::mpsc::channel(16);
        let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
        let again = hub.create(&code, None, true, None, conn, "10.0.0.2".parse().unwrap());
        assert!(matches!(again, Err(Refusal::CodeTaken)));
        let record = |hub: &Hub| {
            let entry = hub.entry(&code).expect("read back");
            let e = lock(&entry);
            let ana = e.room.members().find(|(_, m)| m.name == "Ana").map(|(_, m)| (m.lessons.len(), m.score));
            (e.room.kept(), e.room.lesson(), ana, e.host.clone())
        };
        let host = lock(&hub.entry(&code).unwrap()).host.clone();
        let awake = record(&hub);
        assert_eq!(awake, (true, 2, Some((1, 0)), host));
        drop(hub);
        // After a restart it starts asleep, and reads back the same.
        let hub = Hub::with_limits(Some(Store::open(&dir).unwrap()), Rules::default(), limits);
        assert_eq!(asleep(&hub), (false, true));
        assert_eq!(record(&hub), awake);
        // Asleep again, and unused for longer than --forget-after: deleted, on disk too.
        let later = start + LESSON_ENDS_AFTER_MS + 2 * SLEEP_AFTER_MS;
        hub.tick_at(later);
        assert_eq!(asleep(&hub), (false, true));
        hub.tick_at(start + 31 * 86_400_000);
        assert_eq!(asleep(&hub), (false, false));
        assert!(hub.entry(&code).is_none());
        assert!(Store::open(&dir).unwrap().load().unwrap().0.is_empty(), "the class's row is deleted");
        let _ = std::fs::remove_dir_all(&dir);
    }

    // A clock that was running when a kept class went to disk (an untimed homework SCORE, a
    // claim at a crash) is settled when the class is read back, and the result stored then.
    #[test]
    fn a_kept_class_read_back_settles_its_clocks_and_stores_them() {
        let dir = std::env::temp_dir().join(format!("score-hub-wake-settles-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Stored two hours ago, mid-claim.
        let t0 = now_ms() - 2 * LESSON_ENDS_AFTER_MS;
        let mut room = Room::new(Rules::default(), true, Deal::new(vec![1, 1, 1, 4], &Rules::default()));
        room.apply(Input::Keep { kept: true }, t0).unwrap();
        room.apply(Input::Join { name: "Ana".into() }, t0).unwrap();
        room.apply(Input::Claim { seat: 0, claim: score_room::protocol::Claim::Impossible }, t0).unwrap();
        let tokens = HashMap::from([("t".to_string(), 0)]);
        let stored = StoredRoom { room: room.saved().clone(), host: "h".into(), tokens, active_ms: t0 };
        Store::open(&dir).unwrap().save("ABC234", &stored).unwrap();
        let hub = Hub::new(Some(Store::open(&dir).unwrap()));
        assert!(lock(&hub.asleep).contains_key("ABC234"));
        let entry = hub.entry("ABC234").unwrap();
        {
            // Judged, and the lesson left open a long time ago ended, as the tick would have.
            let e = lock(&entry);
            let ana =
                e.room.members().next().map(|(_, m)| m.lessons.iter().map(|l| l.tally.points).collect::<Vec<_>>());
            assert_eq!((ana, e.room.lesson()), (Some(vec![1]), 2), "judged when read back");
        }
        // On disk at once, before anyone is told (no tick needed).
        assert!(!lock(&entry).dirty);
        let (back, _) = Store::open(&dir).unwrap().load().unwrap();
        let points = back[0].1.room.seats[0].as_ref().map(|m| m.lessons.iter().map(|l| l.tally.points).sum::<i32>());
        assert_eq!(points, Some(1), "and stored");
        let _ = std::fs::remove_dir_all(&dir);
    }

    // A room handed to another instance is gone from here at once (its code taken, and a page
    // asking for it told to try again), deleted when the other confirms, and taken back
    // whole if it never does.
    #[test]
    fn a_room_handed_over_is_deleted_when_confirmed_and_taken_back_when_not() {
        let dir = std::env::temp_dir().join(format!("score-hub-handed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let hub = Hub::new(Some(Store::open(&dir).unwrap()));
        let (code, _) = ana_in_a_new_room(&hub);
        let HandOver::Room(body) = hub.hand_over(&code) else { panic!("not handed over") };
        let stored: StoredRoom = serde_json::from_str(&body).unwrap();
        assert_eq!(stored.room.seats.iter().flatten().count(), 1);
        assert!(matches!(hub.find(&code, true), Found::Moving));
        // Asked again (the answer lost on the way): the same room, until confirmed.
        assert!(matches!(hub.hand_over(&code), HandOver::Room(again) if again == body));
        let (tx, _rx) = tokio::sync::mpsc::channel(16);
        let conn = Conn { tx, let_go: Arc::new(AtomicU8::new(0)) };
        assert!(matches!(
            hub.create(&code, None, true, None, conn, "10.0.0.2".parse().unwrap()),
            Err(Refusal::CodeTaken)
        ));
        let on_disk = || Store::open(&dir).unwrap().load().unwrap().0.len();
        assert_eq!(on_disk(), 1, "kept until the other has it on its disk");
        // Never confirmed: held here again, whole; a late word for another version of it
        // (one changed here since) leaves it be.
        hub.tick_at(now_ms() + HANDED_HOLD_MS + 1_000);
        hub.handed(&code, Some(stored.active_ms + 1));
        let entry = hub.entry(&code).expect("taken back");
        assert_eq!(lock(&entry).room.members().count(), 1);
        drop(entry);
        // Handed over again, and confirmed: deleted here.
        assert!(matches!(hub.hand_over(&code), HandOver::Room(_)));
        hub.handed(&code, Some(stored.active_ms));
        assert_eq!(on_disk(), 0);
        assert!(matches!(hub.hand_over(&code), HandOver::NotHere), "confirmed: never answered again");
        hub.tick_at(now_ms() + HANDED_HOLD_MS + 1_000);
        assert!(matches!(hub.find(&code, true), Found::Nowhere));
        let _ = std::fs::remove_dir_all(&dir);
    }

    // After a restart the holder no longer knows what it handed over: a late word deletes its
    // copy only if it is the version handed over and nobody is in it.
    #[test]
    fn a_late_word_deletes_only_the_version_handed_over() {
        let dir = std::env::temp_dir().join(format!("score-hub-late-word-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let hub = Hub::new(Some(Store::open(&dir).unwrap()));
        let (code, _) = ana_in_a_new_room(&hub);
        let HandOver::Room(body) = hub.hand_over(&code) else { panic!("not handed over") };
        let at = serde_json::from_str::<StoredRoom>(&body).unwrap().active_ms;
        drop(hub);
        // Restarted: the row reads back (a lesson's room, awake).
        let hub = Hub::new(Some(Store::open(&dir).unwrap()));
        assert!(hub.awake(&code).is_some());
        hub.handed(&code, None);
        hub.handed(&code, Some(at + 1));
        assert!(hub.awake(&code).is_some(), "another version, or none said: kept");
        hub.handed(&code, Some(at));
        assert!(hub.awake(&code).is_none());
        assert!(Store::open(&dir).unwrap().load().unwrap().0.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
