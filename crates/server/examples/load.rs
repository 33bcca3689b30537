//! Load generator for score-server: N rooms × M members, each room playing rounds
//! (IMPOSSIBLE, revealed, a new roll) and chatting. Prints connections held, fan-out latency
//! (server send time in each event to client receipt) p50/p99, messages lost (chat lines
//! each member should have seen), errors and, given the server's PID on this machine, its
//! memory: the kernel's peak (VmHWM), the largest RSS sampled every 250 ms, RSS with every
//! member connected, and bytes per socket ((connected − before) / sockets).
//!
//! load ADDR [ROOMS] [MEMBERS] [SECONDS] [SERVER_PID]   (ADDR may be another machine's;
//! without a PID no memory is read). scripts/load.sh runs it against a fresh server.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use score_room::protocol::{random_code, Claim, ClientMsg, EarlyError, HostCommand, RoomEvent, ServerMsg, VERSION};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

#[derive(Default)]
struct Totals {
    latencies: Mutex<Vec<u32>>,
    chats_seen: AtomicU64,
    chats_sent: AtomicU64,
    errors: AtomicU64,
    connected: AtomicU64,
}

async fn connect(addr: &str, code: &str) -> Result<Ws, String> {
    let mut req = format!("ws://{addr}/ws?room={code}").into_client_request().map_err(|e| e.to_string())?;
    req.headers_mut().insert("origin", format!("http://{addr}").parse().map_err(|_| "origin")?);
    let ws = connect_async(req).await.map_err(|e| e.to_string())?.0;
    if let MaybeTlsStream::Plain(tcp) = ws.get_ref() {
        let _ = tcp.set_nodelay(true);
    }
    Ok(ws)
}

/// A byte from a small generator seeded by the clock (room codes need only differ).
fn rand_byte() -> u8 {
    use std::cell::Cell;
    thread_local!(static STATE: Cell<u64> = Cell::new(now_ms() ^ (std::process::id() as u64) << 32 | 1));
    STATE.with(|s| {
        let mut x = s.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s.set(x);
        (x >> 24) as u8
    })
}

/// A message as a text frame.
fn text(msg: &ClientMsg) -> Message {
    Message::Text(serde_json::to_string(msg).unwrap_or_default().into())
}

/// The Welcome's host token (none for a member), or why the server refused.
async fn welcome(ws: &mut Ws) -> Result<Option<String>, String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(20), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => match serde_json::from_str::<ServerMsg>(&t) {
                Ok(ServerMsg::Welcome { host, .. }) => return Ok(host),
                Ok(ServerMsg::Error { why: Some(why), .. }) => {
                    return Err(score_room::say::refusal(&why, &score_i18n::Catalog::english()))
                }
                Ok(ServerMsg::Error { .. }) => return Err(t.to_string()),
                Ok(_) => {}
                // Refused before the version was read (too many connections): the early shape.
                Err(e) => match serde_json::from_str::<EarlyError>(&t).map(EarlyError::read) {
                    Ok(ServerMsg::Error { why: Some(why), .. }) => {
                        return Err(score_room::say::refusal(&why, &score_i18n::Catalog::english()))
                    }
                    _ => return Err(format!("{e}: {t}")),
                },
            },
            Ok(Some(Ok(_))) => {}
            other => return Err(format!("{other:?}")),
        }
    }
}

/// Reads a member's socket until `until_ms`, recording latencies and chat lines seen.
async fn listen(mut ws: Ws, totals: Arc<Totals>, from_ms: u64, until_ms: u64) -> Ws {
    while now_ms() < until_ms + 2000 {
        match tokio::time::timeout(Duration::from_millis(500), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let received = now_ms();
                match serde_json::from_str::<ServerMsg>(&t) {
                    Ok(ServerMsg::Event { now: sent, event, .. }) => {
                        // Joins queue events before this member starts reading: play only.
                        if sent >= from_ms {
                            if let Ok(mut l) = totals.latencies.lock() {
                                l.push(received.saturating_sub(sent) as u32);
                            }
                        }
                        if matches!(event, RoomEvent::Chat { .. }) {
                            totals.chats_seen.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Ok(ServerMsg::Error { .. }) | Err(_) => {
                        totals.errors.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(_) => {}
                }
            }
            Ok(Some(Ok(_))) | Err(_) => {}
            Ok(_) => {
                totals.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
    }
    ws
}

async fn run_room(addr: String, members: usize, seconds: u64, totals: Arc<Totals>) -> Result<(), String> {
    let mut code = String::new();
    let mut host = None;
    // The generator proposes each room's code as a page does (another if one is taken).
    for _ in 0..5 {
        code = random_code(std::array::from_fn(|_| rand_byte()));
        let mut ws = connect(&addr, &code).await?;
        let hello = ClientMsg::Create {
            version: VERSION,
            code: code.clone(),
            name: Some("Host".into()),
            judging: true,
            lang: None,
        };
        ws.send(text(&hello)).await.map_err(|e| e.to_string())?;
        match welcome(&mut ws).await {
            Ok(token) => {
                host = Some((ws, token));
                break;
            }
            Err(e) if e.contains("taken") => continue,
            Err(e) => return Err(e),
        }
    }
    let (mut host, token) = host.ok_or("no free room code")?;
    let token = token.unwrap_or_default();
    totals.connected.fetch_add(1, Ordering::Relaxed);
    let mut seats = Vec::new();
    for i in 1..members {
        let mut ws = connect(&addr, &code).await?;
        let hello =
            ClientMsg::Join { version: VERSION, code: code.clone(), name: format!("S{i}"), token: None, device: None };
        ws.send(text(&hello)).await.map_err(|e| e.to_string())?;
        welcome(&mut ws).await?;
        totals.connected.fetch_add(1, Ordering::Relaxed);
        seats.push(ws);
    }
    let from = now_ms();
    let until = from + seconds * 1000;
    // Members listen; the host and one member play and chat.
    let mut player = seats.pop().ok_or("a room needs two members")?;
    let listeners: Vec<_> = seats.into_iter().map(|ws| tokio::spawn(listen(ws, totals.clone(), from, until))).collect();
    let host_listen = totals.clone();
    let mut round = 0u64;
    while now_ms() < until {
        round += 1;
        let say = |t: String| text(&ClientMsg::Chat { text: t });
        player.send(text(&ClientMsg::Claim { claim: Claim::Impossible })).await.map_err(|e| e.to_string())?;
        player.send(say(format!("round {round}"))).await.map_err(|e| e.to_string())?;
        totals.chats_sent.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(1000)).await;
        host.send(text(&ClientMsg::Reveal)).await.map_err(|e| e.to_string())?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let deal = ClientMsg::Host { host: token.clone(), command: HostCommand::NewRoll { roll: None } };
        host.send(text(&deal)).await.map_err(|e| e.to_string())?;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        // Drain what the two active sockets received meanwhile (not counted for latency).
        for ws in [&mut host, &mut player] {
            while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_millis(1), ws.next()).await {}
        }
    }
    let _ = host_listen;
    for l in listeners {
        let _ = l.await;
    }
    Ok(())
}

/// The server's memory and CPU from /proc: (RSS KB, peak RSS KB as the kernel kept it, CPU s).
fn proc_stat(pid: u32) -> Option<(u64, u64, f64)> {
    if pid == 0 {
        return None;
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = |key: &str| -> Option<u64> {
        status.lines().find(|l| l.starts_with(key))?.split_whitespace().nth(1)?.parse().ok()
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((kb("VmRSS:")?, kb("VmHWM:")?, ticks as f64 / 100.0))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let addr = args.first().cloned().unwrap_or_else(|| "127.0.0.1:8080".into());
    let (rooms, members, seconds, pid) = (arg(1, 100) as usize, arg(2, 30) as usize, arg(3, 30), arg(4, 0) as u32);
    let sockets = (rooms * members) as u64;
    let totals = Arc::new(Totals::default());
    let before = proc_stat(pid);
    // RSS sampled every 250 ms until told to stop: its largest value, and its value once
    // every member is connected.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (watch_stop, watch_totals) = (stop.clone(), totals.clone());
    let watch = tokio::spawn(async move {
        let (mut peak, mut connected) = (0u64, None);
        while !watch_stop.load(Ordering::Relaxed) {
            if let Some((rss, _, _)) = proc_stat(pid) {
                peak = peak.max(rss);
                if connected.is_none() && watch_totals.connected.load(Ordering::Relaxed) >= sockets {
                    connected = Some(rss);
                }
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        (peak, connected)
    });
    let t0 = std::time::Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..rooms {
        tasks.push(tokio::spawn(run_room(addr.clone(), members, seconds, totals.clone())));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut failed = 0;
    for t in tasks {
        match t.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                failed += 1;
                eprintln!("room failed: {e}");
            }
            Err(e) => {
                failed += 1;
                eprintln!("room task: {e}");
            }
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let (sampled_peak, connected_rss) = watch.await.unwrap_or((0, None));
    let after = proc_stat(pid);
    let mut lat = totals.latencies.lock().map(|l| l.clone()).unwrap_or_default();
    lat.sort_unstable();
    let pct =
        |p: f64| lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1))).copied().unwrap_or(0);
    let listeners_per_room = members.saturating_sub(2) as u64;
    let expected = totals.chats_sent.load(Ordering::Relaxed) * listeners_per_room;
    let seen = totals.chats_seen.load(Ordering::Relaxed);
    println!("rooms {rooms} × members {members}, {seconds} s of play, wall {wall:.1} s");
    println!("connections held: {} (rooms failed: {failed})", totals.connected.load(Ordering::Relaxed));
    println!(
        "fan-out latency over {} events: p50 {} ms, p99 {} ms, max {} ms",
        lat.len(),
        pct(0.5),
        pct(0.99),
        lat.last().copied().unwrap_or(0)
    );
    println!("chat lines: {seen} seen of {expected} expected ({} lost)", expected.saturating_sub(seen));
    println!("error messages or dropped sockets: {}", totals.errors.load(Ordering::Relaxed));
    match (before, after) {
        (Some(b), Some(a)) => {
            let mb = |kb: u64| kb as f64 / 1024.0;
            println!(
                "server memory: peak {:.1} MB (kernel VmHWM), largest sampled RSS {:.1} MB, before {:.1} MB, after {:.1} MB",
                mb(a.1),
                mb(sampled_peak),
                mb(b.0),
                mb(a.0)
            );
            if let Some(c) = connected_rss {
                let per = (c.saturating_sub(b.0) * 1024) / sockets.max(1);
                println!("with all {sockets} sockets connected: RSS {:.1} MB, {per} bytes per socket", mb(c));
            }
            println!(
                "server CPU: {:.1} s over {wall:.1} s ({:.0} % of one core)",
                a.2 - b.2,
                (a.2 - b.2) / wall * 100.0
            );
        }
        _ => println!("server memory: not read (give the server's PID on this machine)"),
    }
}
