//! The network side: serves the game's files and hosts rooms over WebSockets on the same
//! origin. It only moves messages: every decision is the [`Room`]'s.
//!
//! Limits: frames over 4 KB close the socket; unreadable messages are answered, and the
//! fifth closes it; 20 messages (5 chat messages) per 10 s per connection; 10 joins by a
//! wrong code per minute per address; upgrades from another Origin are refused; at most
//! [`MAX_ROOMS`] rooms. A seat whose member drops keeps its score for 10 minutes and comes
//! back with its token; rooms idle for 24 hours are removed.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use score_engine::Rules;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tower_http::services::{ServeDir, ServeFile};

use crate::protocol::{ClientMsg, ServerMsg, VERSION};
use crate::room::{Input, Out, Room, Seat, To};
use crate::store::{Store, StoredRoom};

/// Most rooms one server holds.
pub const MAX_ROOMS: usize = 500;
/// Largest message, bytes.
pub const MAX_FRAME: usize = 4096;
/// A dropped member's seat is kept this long, ms.
pub const SEAT_KEPT_MS: u64 = 10 * 60 * 1000;
/// A room with nothing happening for this long is removed, ms.
pub const IDLE_MS: u64 = 24 * 60 * 60 * 1000;
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

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

fn room_code() -> String {
    random_bytes::<6>().iter().map(|b| CODE_ALPHABET[*b as usize % CODE_ALPHABET.len()] as char).collect()
}

fn new_roll(rules: &Rules) -> Vec<i64> {
    let bytes = random_bytes::<8>();
    rules.dice.iter().zip(bytes).map(|(&s, b)| 1 + (b as i64 % s.max(1) as i64)).collect()
}

/// One room and who is connected to it.
struct Entry {
    room: Room,
    host: String,
    tokens: HashMap<String, Seat>,
    conns: HashMap<Seat, UnboundedSender<String>>,
    dropped: HashMap<Seat, u64>,
    active_ms: u64,
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

    fn send(&self, outs: &[Out], now: u64) {
        for out in outs {
            let Ok(text) = serde_json::to_string(&ServerMsg::Event { event: out.event.clone(), now }) else { continue };
            match out.to {
                To::All => self.conns.values().for_each(|c| {
                    let _ = c.send(text.clone());
                }),
                To::Seat(s) => {
                    if let Some(c) = self.conns.get(&s) {
                        let _ = c.send(text);
                    }
                }
            }
        }
    }
}

/// Every room of this server.
pub struct Hub {
    rooms: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
    store: Option<Store>,
    wrong_codes: Mutex<HashMap<IpAddr, (u64, u32)>>,
    rules: Rules,
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
        let now = now_ms();
        let mut rooms = HashMap::new();
        if let Some(s) = &store {
            match s.load() {
                Ok((stored, bad)) => {
                    for (code, r) in stored {
                        let (room, _) = Room::restore(r.room, now);
                        let entry = Entry {
                            room,
                            host: r.host,
                            tokens: r.tokens,
                            conns: HashMap::new(),
                            dropped: HashMap::new(),
                            active_ms: r.active_ms,
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
        Arc::new(Hub { rooms: Mutex::new(rooms), store, wrong_codes: Mutex::new(HashMap::new()), rules })
    }

    fn save(&self, code: &str, entry: &Entry) {
        if let Some(s) = &self.store {
            if let Err(e) = s.save(code, &entry.stored()) {
                eprintln!("score-server: room {code} not saved: {e}");
            }
        }
    }

    fn entry(&self, code: &str) -> Option<Arc<Mutex<Entry>>> {
        lock(&self.rooms).get(code).cloned()
    }

    /// Settles clocks that ran out, frees seats dropped too long, removes idle rooms.
    pub fn tick(&self) {
        let now = now_ms();
        let entries: Vec<(String, Arc<Mutex<Entry>>)> =
            lock(&self.rooms).iter().map(|(c, e)| (c.clone(), e.clone())).collect();
        for (code, e) in entries {
            let mut e = lock(&e);
            let mut outs = e.room.tick(now);
            let expired: Vec<Seat> =
                e.dropped.iter().filter(|(_, &t)| now.saturating_sub(t) > SEAT_KEPT_MS).map(|(&s, _)| s).collect();
            for seat in expired {
                e.dropped.remove(&seat);
                e.tokens.retain(|_, s| *s != seat);
                outs.extend(e.room.apply(Input::Leave { seat }, now).unwrap_or_default());
            }
            if !outs.is_empty() {
                e.send(&outs, now);
                self.save(&code, &e);
            }
            if e.conns.is_empty() && now.saturating_sub(e.active_ms) > IDLE_MS {
                drop(e);
                lock(&self.rooms).remove(&code);
                if let Some(s) = &self.store {
                    let _ = s.remove(&code);
                }
                eprintln!("score-server: room {code} removed after a day without play");
            }
        }
    }

    fn create(
        &self,
        name: &str,
        judging: bool,
        conn: UnboundedSender<String>,
    ) -> Result<(String, String, String), String> {
        let mut rooms = lock(&self.rooms);
        if rooms.len() >= MAX_ROOMS {
            return Err("This server holds as many rooms as it can: try again later.".into());
        }
        let code =
            (0..20).map(|_| room_code()).find(|c| !rooms.contains_key(c)).ok_or("No free room code: try again.")?;
        let now = now_ms();
        let mut room = Room::new(self.rules.clone(), judging, new_roll(&self.rules));
        room.apply(Input::Join { name: name.into() }, now).map_err(|e| e.to_string())?;
        let (host, seat_token) = (token(), token());
        let mut entry = Entry {
            room,
            host: host.clone(),
            tokens: HashMap::from([(seat_token.clone(), 0)]),
            conns: HashMap::new(),
            dropped: HashMap::new(),
            active_ms: now,
        };
        entry.conns.insert(0, conn);
        self.save(&code, &entry);
        rooms.insert(code.clone(), Arc::new(Mutex::new(entry)));
        eprintln!("score-server: room {code} created");
        Ok((code, seat_token, host))
    }

    fn welcome(&self, code: &str, seat: Seat, token: String, host: Option<String>) -> String {
        let view = self.entry(code).map(|e| lock(&e).room.view(seat, now_ms()));
        let msg = match view {
            Some(view) => ServerMsg::Welcome { code: code.into(), seat, token, host, view },
            None => ServerMsg::Error { message: "That room is gone.".into() },
        };
        serde_json::to_string(&msg).unwrap_or_default()
    }

    fn join(
        &self,
        code: &str,
        name: &str,
        token_back: Option<String>,
        conn: UnboundedSender<String>,
        from: IpAddr,
    ) -> Result<(Seat, String), String> {
        let code = code.trim().to_uppercase();
        let now = now_ms();
        let Some(entry) = self.entry(&code) else {
            let mut wrong = lock(&self.wrong_codes);
            let (since, n) = wrong.entry(from).or_insert((now, 0));
            if now.saturating_sub(*since) > 60_000 {
                (*since, *n) = (now, 0);
            }
            *n += 1;
            return Err(if *n > 10 {
                "Too many wrong codes: wait a minute.".into()
            } else {
                format!("There is no room {code}: check the code with your teacher.")
            });
        };
        let mut e = lock(&entry);
        if let Some(seat) = token_back.as_ref().and_then(|t| e.tokens.get(t)).copied() {
            // Back on the same seat, with the same score; the old connection (if any) is closed.
            e.conns.insert(seat, conn);
            e.dropped.remove(&seat);
            e.active_ms = now;
            return Ok((seat, token_back.unwrap_or_default()));
        }
        let outs = e.room.apply(Input::Join { name: name.into() }, now).map_err(|x| x.to_string())?;
        let seat = match outs.last().map(|o| &o.event) {
            Some(crate::room::RoomEvent::Joined { seat, .. }) => *seat,
            _ => return Err("The room did not seat you: try again.".into()),
        };
        let t = token();
        e.tokens.insert(t.clone(), seat);
        e.conns.insert(seat, conn);
        e.active_ms = now;
        e.send(&outs, now);
        self.save(&code, &e);
        Ok((seat, t))
    }

    fn input(&self, code: &str, seat: Seat, msg: ClientMsg) -> Result<(), String> {
        let entry = self.entry(code).ok_or("That room is gone.")?;
        let mut e = lock(&entry);
        if !e.conns.contains_key(&seat) {
            return Err("You are no longer in this room.".into());
        }
        let host_ok = |h: &str| h == e.host;
        let input = match msg {
            ClientMsg::Score => Input::Score { seat },
            ClientMsg::Impossible => Input::Impossible { seat },
            ClientMsg::Reveal => Input::RevealNow { seat },
            ClientMsg::GiveUp => Input::GiveUp { seat },
            ClientMsg::Act { action } => Input::Act { seat, action },
            ClientMsg::Chat { text } => Input::Chat { seat, text },
            ClientMsg::NewRoll { host, roll } if host_ok(&host) => {
                let dice = &e.room.saved().rules.dice;
                let roll = match roll {
                    None => new_roll(&e.room.saved().rules),
                    Some(faces) => score_engine::roll::arrange(&faces, dice).ok_or_else(|| {
                        let sides: Vec<String> = dice.iter().map(|s| format!("d{s}")).collect();
                        format!("{} can't be rolled with {}.", score_engine::roll::roll_text(&faces), sides.join(" "))
                    })?,
                };
                Input::NewRoll { roll }
            }
            ClientMsg::Lock { host, locked } if host_ok(&host) => Input::Lock { locked },
            ClientMsg::Remove { host, seat: who } if host_ok(&host) => Input::Leave { seat: who },
            ClientMsg::ClearChat { host } if host_ok(&host) => Input::ClearChat,
            ClientMsg::Rules { host, dice, goal, score_secs, impossible_secs, judging } if host_ok(&host) => {
                let rules = Rules { dice, goal, score_secs, impossible_secs, ..e.room.saved().rules.clone() };
                rules.validate().map_err(|errs| errs.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))?;
                let roll = new_roll(&rules);
                Input::SetRules { rules, judging, roll }
            }
            ClientMsg::End { host } if host_ok(&host) => {
                drop(e);
                self.end(code);
                return Ok(());
            }
            ClientMsg::NewRoll { .. }
            | ClientMsg::Lock { .. }
            | ClientMsg::Remove { .. }
            | ClientMsg::ClearChat { .. }
            | ClientMsg::Rules { .. }
            | ClientMsg::End { .. } => return Err("Only the host can do that.".into()),
            ClientMsg::Create { .. } | ClientMsg::Join { .. } => return Err("You are already in a room.".into()),
        };
        let removed = match &input {
            Input::Leave { seat } => Some(*seat),
            _ => None,
        };
        let now = now_ms();
        let outs = e.room.apply(input, now).map_err(|x| x.to_string())?;
        e.active_ms = now;
        e.send(&outs, now);
        if let Some(gone) = removed {
            // The removed member is told, then their connection closes and their token stops working.
            if let Some(c) = e.conns.remove(&gone) {
                let msg = ServerMsg::Error { message: "The host removed you from this room.".into() };
                let _ = c.send(serde_json::to_string(&msg).unwrap_or_default());
            }
            e.tokens.retain(|_, s| *s != gone);
        }
        self.save(code, &e);
        Ok(())
    }

    /// Ends a room: everyone is told, their connections close, and it is forgotten.
    fn end(&self, code: &str) {
        let Some(entry) = lock(&self.rooms).remove(code) else { return };
        let e = lock(&entry);
        let msg = error("The host ended this room.");
        for c in e.conns.values() {
            let _ = c.send(msg.clone());
        }
        if let Some(s) = &self.store {
            let _ = s.remove(code);
        }
        eprintln!("score-server: room {code} ended by its host");
    }

    /// Tells every member the server is stopping (their seats are kept).
    pub fn stopping(&self) {
        let msg = error("The server is restarting: you will be reconnected to your seat.");
        for entry in lock(&self.rooms).values() {
            for c in lock(entry).conns.values() {
                let _ = c.send(msg.clone());
            }
        }
    }

    /// The room's scoreboard and results as CSV, for its host.
    pub fn csv(&self, code: &str, host: &str) -> Option<String> {
        let entry = self.entry(code)?;
        let e = lock(&entry);
        (e.host == host).then(|| e.room.csv())
    }

    fn dropped(&self, code: &str, seat: Seat, conn: &UnboundedSender<String>) {
        if let Some(entry) = self.entry(code) {
            let mut e = lock(&entry);
            // Only if this connection is still the seat's (a reload may have replaced it).
            if e.conns.get(&seat).is_some_and(|c| c.same_channel(conn)) {
                e.conns.remove(&seat);
                e.dropped.insert(seat, now_ms());
            }
        }
    }
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

fn error(message: &str) -> String {
    serde_json::to_string(&ServerMsg::Error { message: message.into() }).unwrap_or_default()
}

async fn session(mut socket: WebSocket, hub: Arc<Hub>, from: IpAddr) {
    let (tx, mut rx) = unbounded_channel::<String>();
    // Until this member is seated the session holds the sender; then only the room does, so
    // a removal (or a reload taking the seat) ends this session.
    let mut tx = Some(tx);
    let mut weak = None;
    let mut joined: Option<(String, Seat)> = None;
    let (mut strikes, mut over) = (0u32, 0u32);
    let (mut all, mut chat) = (Limit::new(20, 10_000), Limit::new(5, 10_000));
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let now = now_ms();
                let reply = match serde_json::from_str::<ClientMsg>(&text) {
                    Err(_) => {
                        strikes += 1;
                        Some(error("That message could not be read."))
                    }
                    Ok(_) if !all.allow(now) => {
                        over += 1;
                        Some(error("Slow down: too many messages."))
                    }
                    Ok(ClientMsg::Chat { .. }) if !chat.allow(now) => {
                        over += 1;
                        Some(error("Slow down: too many chat messages."))
                    }
                    Ok(msg) => match (&joined, &tx) {
                        (Some((code, seat)), _) => hub.input(code, *seat, msg).err().map(|e| error(&e)),
                        (None, None) => Some(error("Create or join a room first.")),
                        (None, Some(conn)) => {
                            let seated = match msg {
                                ClientMsg::Create { version, .. } | ClientMsg::Join { version, .. } if version != VERSION => {
                                    Err("This page is older than the server: reload it.".to_string())
                                }
                                ClientMsg::Create { name, judging, .. } => {
                                    hub.create(&name, judging, conn.clone()).map(|(code, t, host)| (code, 0usize, t, Some(host)))
                                }
                                ClientMsg::Join { code, name, token, .. } => hub
                                    .join(&code, &name, token, conn.clone(), from)
                                    .map(|(seat, t)| (code.trim().to_uppercase(), seat, t, None)),
                                _ => Err("Create or join a room first.".to_string()),
                            };
                            match seated {
                                Ok((code, seat, t, host)) => {
                                    let w = hub.welcome(&code, seat, t, host);
                                    joined = Some((code, seat));
                                    weak = tx.take().map(|t| t.downgrade());
                                    Some(w)
                                }
                                Err(e) => Some(error(&e)),
                            }
                        }
                    },
                };
                if let Some(r) = reply {
                    if socket.send(Message::Text(r.into())).await.is_err() {
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
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                // The room let go of this connection (removed by the host, or a reload took the seat).
                None => break,
            },
        }
    }
    if let (Some((code, seat)), Some(conn)) = (&joined, weak.and_then(|w| w.upgrade())) {
        hub.dropped(code, *seat, &conn);
    }
}

/// Whether the upgrade comes from a page of this server (or from no page at all).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin").and_then(|o| o.to_str().ok()) else { return true };
    let host = headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or_default();
    origin.split("://").nth(1).is_some_and(|o| o == host)
}

async fn ws(
    upgrade: WebSocketUpgrade,
    headers: HeaderMap,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "Rooms take connections from this server's own pages only.").into_response();
    }
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| session(socket, hub, addr.ip()))
}

#[derive(serde::Deserialize)]
struct CsvQuery {
    code: String,
    host: String,
}

async fn csv(State(hub): State<Arc<Hub>>, Query(q): Query<CsvQuery>) -> Response {
    match hub.csv(&q.code, &q.host) {
        Some(text) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"score-room-{}.csv\"", q.code)),
            ],
            text,
        )
            .into_response(),
        None => (StatusCode::FORBIDDEN, "Only the room's host can download its scores.").into_response(),
    }
}

/// The server's routes: `/ws` for rooms, `/scores.csv` for a host, and the game's files
/// (precompressed when present).
pub fn router(hub: Arc<Hub>, dist: PathBuf) -> Router {
    let files =
        ServeDir::new(&dist).precompressed_br().precompressed_gzip().fallback(ServeFile::new(dist.join("index.html")));
    Router::new().route("/ws", get(ws)).route("/scores.csv", get(csv)).fallback_service(files).with_state(hub)
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
            ticker.tick();
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
