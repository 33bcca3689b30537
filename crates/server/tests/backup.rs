//! A kept class outlives its disk: `score-server --backup DIR` writes snapshots with SQLite's
//! online backup (one at start, on its schedule, a last one after a gentle stop), and the
//! documented restore (a snapshot as a fresh instance's `score.sqlite3`) brings the class back
//! whole: its lessons, its homework and every student's progress.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::{is, room_socket, send, until, wait_for};
use score_room::protocol::VERSION;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_score-server");

fn start(port: u16, dist: &Path, data: &Path, backup: &Path) -> Child {
    Command::new(BIN)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--backup-keep", "3"])
        .arg("--dist")
        .arg(dist)
        .arg("--data")
        .arg(data)
        .arg("--backup")
        .arg(backup)
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn host(token: &str, command: Value) -> Value {
    json!({"type": "Host", "host": token, "command": command})
}

fn snapshots(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut all: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    all.sort();
    all
}

#[tokio::test]
async fn a_class_restored_from_a_snapshot_on_a_fresh_instance_has_its_progress_whole() {
    let dir = common::temp("backup");
    let (dist, data, backups) = (dir.join("dist"), dir.join("data"), dir.join("backups"));
    let port = free_port();
    let mut server = start(port, &dist, &data, &backups);
    wait_for(port).await;
    let mut teacher = room_socket(port, "").await;
    let code = common::fresh_code();
    send(&mut teacher, json!({"type": "Create", "version": VERSION, "code": code, "judging": true})).await;
    let w = until(&mut teacher, is("Welcome")).await;
    let token = w["host"].as_str().unwrap().to_string();
    let now = w["view"]["now"].as_u64().unwrap();
    send(&mut teacher, host(&token, json!({"type": "Keep", "kept": true}))).await;
    send(&mut teacher, host(&token, json!({"type": "NewRoll", "roll": [1, 1, 1, 4]}))).await;
    let due = now + 7 * 86_400_000;
    let set =
        json!({"type": "SetHomework", "rolls": [[1, 1, 1, 4]], "score_secs": 30, "impossible_secs": 60, "due": due});
    send(&mut teacher, host(&token, set)).await;
    until(&mut teacher, |v| v["type"] == "Event" && v["event"]["type"] == "Homework").await;
    let mut ana = room_socket(port, &code).await;
    send(&mut ana, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ana", "device": "d-ana"})).await;
    until(&mut ana, is("Welcome")).await;
    // Lesson 1: Ana right that 1 1 1 4 is impossible (+1); then the homework's one roll, the same.
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    send(&mut ana, json!({"type": "Reveal"})).await;
    until(&mut ana, |v| v["type"] == "Event" && v["event"]["type"] == "Results").await;
    send(&mut ana, json!({"type": "Homework", "command": {"type": "Start"}})).await;
    send(&mut ana, json!({"type": "Homework", "command": {"type": "Claim", "claim": "Impossible"}})).await;
    send(&mut ana, json!({"type": "Homework", "command": {"type": "Reveal"}})).await;
    until(&mut ana, |v| {
        v["type"] == "Own" && v["event"]["type"] == "HomeworkRun" && v["event"]["run"]["tally"]["points"] == 1
    })
    .await;
    send(&mut teacher, host(&token, json!({"type": "EndLesson"}))).await;
    until(&mut teacher, |v| v["type"] == "Event" && v["event"]["type"] == "Lesson").await;
    drop((ana, teacher));
    // Stopped gently (a second after start: snapshots are named by the second), a last
    // snapshot joins the one made at start.
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    assert!(Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap().success());
    assert_eq!(server.wait().unwrap().code(), Some(0));
    let taken = snapshots(&backups);
    assert!(taken.len() >= 2, "{taken:?}");
    assert!(taken.iter().all(|p| p.extension().is_some_and(|e| e == "sqlite3")), "{taken:?}");

    // The restore, as the README says: the newest snapshot as a fresh instance's database.
    let fresh = dir.join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    std::fs::copy(taken.last().unwrap(), fresh.join("score.sqlite3")).unwrap();
    let port = free_port();
    let mut restored = start(port, &dist, &fresh, &dir.join("backups-2"));
    wait_for(port).await;
    let mut teacher = room_socket(port, &code).await;
    send(&mut teacher, json!({"type": "Present", "version": VERSION, "code": code, "host": token})).await;
    let w = until(&mut teacher, is("Welcome")).await;
    assert_eq!((w["view"]["kept"].clone(), w["view"]["lesson"].clone()), (json!(true), json!(2)), "{w}");
    assert_eq!(w["view"]["homework_rows"][0]["tally"]["points"], 1, "{w}");
    send(&mut teacher, host(&token, json!({"type": "Report"}))).await;
    let report = until(&mut teacher, is("Report")).await;
    let lines: Vec<(Value, Value, Value)> = report["progress"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].clone(), r["homework"].clone(), r["tally"]["points"].clone()))
        .collect();
    assert_eq!(lines, [(json!("Ana"), Value::Null, json!(1)), (json!("Ana"), json!(1), json!(1))], "{report}");
    let _ = restored.kill();
    let _ = restored.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
