//! kill -9 at any moment loses no point. The real `score-server` binary hosts rooms that
//! play as fast as the rate limits allow (an IMPOSSIBLE claim on a roll with a solution,
//! revealed at once: −2 a round); the server is killed with SIGKILL mid-play and restarted
//! on the same database. Every room comes back with the scores of the last Results its
//! members saw, or (a result stored but killed before it was sent) of exactly one round more.

mod common;

use score_room::protocol::VERSION;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{fresh_code, room_socket, send, temp, wait_for, Ws};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const ROOMS: usize = 12;

/// The server as a process of its own, stopped (SIGKILL) when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(dir: &Path, port: u16) -> Process {
    let child = Command::new(env!("CARGO_BIN_EXE_score-server"))
        .args(["--port", &port.to_string(), "--rooms-per-address", "100"])
        .arg("--dist")
        .arg(dir.join("dist"))
        .arg("--data")
        .arg(dir.join("data"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Process(child)
}

/// The next text message, or `None` once the socket is gone.
async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(&t).ok(),
            Ok(Some(Ok(_))) => {}
            _ => return None,
        }
    }
}

async fn welcome(ws: &mut Ws, hello: Value) -> Value {
    send(ws, hello).await;
    loop {
        let v = next(ws).await.expect("socket closed before the Welcome");
        if v["type"] == "Welcome" {
            return v;
        }
        assert_ne!(v["type"], "Error", "{v}");
    }
}

/// The last Results a room's members saw: its sequence number, outcomes and scores by seat.
#[derive(Default, Clone, Debug)]
struct Seen {
    seq: u64,
    lines: Vec<String>,
    scores: Vec<(u64, i64)>,
}

fn scores_of(v: &Value) -> Vec<(u64, i64)> {
    v.as_array().unwrap().iter().map(|s| (s["seat"].as_u64().unwrap(), s["score"].as_i64().unwrap())).collect()
}

/// Reads a member's socket until it dies, keeping the latest Results in `seen`.
async fn watch(mut ws: Ws, seen: Arc<Mutex<Seen>>) {
    while let Some(v) = next(&mut ws).await {
        if v["type"] == "Event" && v["event"]["type"] == "Results" {
            let seq = v["seq"].as_u64().unwrap();
            let mut s = seen.lock().unwrap();
            if seq > s.seq {
                let lines = v["event"]["outcomes"].as_array().unwrap().iter().map(|l| l.to_string()).collect();
                *s = Seen { seq, lines, scores: scores_of(&v["event"]["scores"]) };
            }
        }
    }
}

/// One room: a host who deals 2 5 12 12 (it has a solution) and reveals, and Ana, who
/// claims IMPOSSIBLE every round, until the server dies.
async fn play(mut host: Ws, host_token: String, mut ana: Ws, offset: Duration) {
    // Rooms out of step with each other, so the kill finds each at another point of a round.
    tokio::time::sleep(offset).await;
    let deal = json!({"type": "Host", "host": host_token, "command": {"type": "NewRoll", "roll": [2, 5, 12, 12]}});
    if host.send_json(deal.clone()).await.is_err() {
        return;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    loop {
        if ana.send_json(json!({"type": "Claim", "claim": "Impossible"})).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        if host.send_json(json!({"type": "Reveal"})).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(350)).await;
        if host.send_json(deal.clone()).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(450)).await;
    }
}

trait SendJson {
    async fn send_json(&mut self, v: Value) -> Result<(), ()>;
}

impl SendJson for Ws {
    async fn send_json(&mut self, v: Value) -> Result<(), ()> {
        use futures_util::SinkExt;
        self.send(Message::Text(v.to_string().into())).await.map_err(|_| ())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_9_during_play_loses_no_point() {
    let dir = temp("crash");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = spawn(&dir, port);
    wait_for(port).await;

    let mut rooms = Vec::new();
    let mut tasks = Vec::new();
    for i in 0..ROOMS {
        let code = fresh_code();
        let mut host = room_socket(port, &code).await;
        let w = welcome(
            &mut host,
            json!({"type": "Create", "version": VERSION, "code": code, "name": format!("T{i}"), "judging": true}),
        )
        .await;
        let (host_token, host_seat) =
            (w["host"].as_str().unwrap().to_string(), w["token"].as_str().unwrap().to_string());
        let mut ana = room_socket(port, &code).await;
        welcome(&mut ana, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ana"})).await;
        let mut ben = room_socket(port, &code).await;
        welcome(&mut ben, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ben"})).await;
        // Ben only watches; the host and Ana play (their sockets' events are read by Ben's).
        let seen = Arc::new(Mutex::new(Seen::default()));
        tasks.push(tokio::spawn(watch(ben, seen.clone())));
        let offset = Duration::from_millis(i as u64 * 900 / ROOMS as u64);
        rooms.push((code, host_seat, host_token.clone(), seen));
        tasks.push(tokio::spawn(play(host, host_token, ana, offset)));
    }
    // Mid-play, at a moment no round is aligned to.
    tokio::time::sleep(Duration::from_millis(3_170)).await;
    drop(server); // SIGKILL
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
    }

    let _server = spawn(&dir, port);
    wait_for(port).await;
    let mut rounds_seen = 0;
    for (code, host_seat, host_token, seen) in rooms {
        let seen = seen.lock().unwrap().clone();
        let mut host = room_socket(port, &code).await;
        let w = welcome(
            &mut host,
            json!({"type": "Join", "version": VERSION, "code": code, "name": "", "token": host_seat}),
        )
        .await;
        let back: Vec<(u64, i64)> = w["view"]["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["seat"].as_u64().unwrap(), m["score"].as_i64().unwrap()))
            .collect();
        let ana = |scores: &[(u64, i64)]| scores.iter().find(|s| s.0 == 1).map_or(0, |s| s.1);
        // Every round Ana's claim is judged wrong: −2. Back on the last score seen, or one
        // round on (stored, then killed before it was sent); never a round short.
        let (was, now) = (ana(&seen.scores), ana(&back));
        assert!(now == was || now == was - 2, "room {code}: Ana saw {was}, the room came back with {now} ({seen:?})");
        if now == was && seen.seq > 0 {
            // The results last seen, or none when a roll was dealt after them (a new roll
            // starts with none).
            let results = w["view"]["results"].as_array().unwrap().len();
            assert!(results == seen.lines.len() || results == 0, "room {code}: {results} results");
        }
        rounds_seen += (-was / 2) as usize;
        // A host screen (the projector, no seat) comes back by the host token alone.
        let mut screen = room_socket(port, &code).await;
        let p = welcome(&mut screen, json!({"type": "Present", "version": VERSION, "code": code, "host": host_token}))
            .await;
        assert_eq!((&p["seat"], p["host"].as_str()), (&Value::Null, Some(host_token.as_str())), "room {code}: {p}");
        let names =
            |w: &Value| w["view"]["members"].as_array().unwrap().iter().map(|m| m["name"].clone()).collect::<Vec<_>>();
        assert_eq!(names(&p), names(&w), "room {code}");
    }
    assert!(rounds_seen >= ROOMS * 2, "too little play before the kill to tell anything: {rounds_seen} rounds");
}
