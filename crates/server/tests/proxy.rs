//! More than one machine: two score-server instances behind nginx, run with the shipped
//! `deploy/nginx.conf` (its ports changed to free high ones, nginx unprivileged in a
//! folder of its own). Forty rooms are created through the proxy; every member lands on
//! the instance that holds their room, the rooms spread over both instances, and an
//! instance restarted on its database brings its rooms back.
//!
//! nginx is Debian's `nginx` package, which `scripts/setup.sh` installs.

mod common;

use score_room::protocol::VERSION;
use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{fresh_code, http_post, is, room_socket, send, temp, until, wait_for, Server, Ws};
use score_engine::Rules;
use score_server::hub::Limits;
use score_server::peers::Peers;
use score_server::store::Store;
use serde_json::{json, Value};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// nginx, stopped when dropped (a failing test leaves none behind).
struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers too (SIGKILL would leave them running).
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        for _ in 0..50 {
            if matches!(self.0.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// nginx with the shipped config, in front of `instances` (two, or more: the others are
/// added after the second in each list, as a school adds a machine), listening on `port`.
fn nginx(dir: &Path, port: u16, instances: &[&str]) -> Nginx {
    let (a, b) = (instances[0], instances[1]);
    let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/nginx.conf")).unwrap();
    assert!(
        shipped.contains("127.0.0.1:8081") && shipped.contains("127.0.0.1:8082") && shipped.contains("listen 8080;")
    );
    // Each list's second line, then one for each further instance.
    let more = |tail: &str| {
        let mut lines = format!("{b}{tail};");
        for c in &instances[2..] {
            lines += &format!("\n        server {c}{tail};");
        }
        lines
    };
    let temp_paths = format!(
        "http {{\n    client_body_temp_path {d}/body; proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fcgi;\n    uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi; access_log off;\n",
        d = dir.display()
    );
    let conf = shipped
        .replace("127.0.0.1:8081", a)
        .replace("127.0.0.1:8082 max_fails=0;", &more(" max_fails=0"))
        .replace("127.0.0.1:8082;", &more(""))
        .replace("listen 8080;", &format!("listen 127.0.0.1:{port};"))
        .replacen("http {\n", &temp_paths, 1);
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let pid = format!("daemon off; pid {}/nginx.pid;", dir.display());
    let error_log = dir.join("error.log");
    // Debian puts nginx in /usr/sbin, which not every PATH holds.
    let binary =
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].into_iter().find(|p| Path::new(p).exists()).unwrap_or("nginx");
    let child = Command::new(binary)
        .args(["-p", &dir.display().to_string(), "-e", &error_log.display().to_string(), "-c"])
        .arg(dir.join("nginx.conf"))
        .args(["-g", &pid])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx is not installed: scripts/setup.sh installs it");
    Nginx(child)
}

async fn hello(ws: &mut Ws, msg: Value) -> Value {
    send(ws, msg).await;
    until(ws, |v| v["type"] == "Welcome" || v["type"] == "Error").await
}

fn stored_codes(dir: &Path) -> HashSet<String> {
    Store::open(&dir.join("data")).unwrap().load().unwrap().0.into_iter().map(|(code, _)| code).collect()
}

#[tokio::test]
async fn two_instances_behind_nginx_hold_their_own_rooms_and_bring_them_back_after_a_restart() {
    let (dir_a, dir_b, dir_proxy) = (temp("proxy-a"), temp("proxy-b"), temp("proxy-nginx"));
    let limits = Limits { rooms_per_address: 100, trust_proxy: true, ..Limits::default() };
    let a = Server::start_with(&dir_a, Rules::default(), limits.clone()).await;
    let b = Server::start_with(&dir_b, Rules::default(), limits.clone()).await;
    let a_addr = a.addr.to_string();
    let port = free_port();
    let proxy = nginx(&dir_proxy, port, &[&a_addr, &b.addr.to_string()]);
    wait_for(port).await;

    // Forty teachers create rooms through the proxy, each proposing a code; one student
    // joins each room through the proxy too.
    let mut codes = Vec::new();
    let mut hosts = Vec::new();
    let mut sockets = Vec::new();
    for i in 0..40 {
        let code = fresh_code();
        let mut host = room_socket(port, &code).await;
        let w = hello(
            &mut host,
            json!({"type": "Create", "version": VERSION, "code": code, "name": format!("T{i}"), "judging": true}),
        )
        .await;
        assert_eq!(w["type"], "Welcome", "{w}");
        hosts.push(w["host"].as_str().unwrap().to_string());
        let mut ana = room_socket(port, &code).await;
        let w = hello(&mut ana, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ana"})).await;
        assert_eq!(w["type"], "Welcome", "room {code}: the member did not land where the room is: {w}");
        sockets.push((host, ana));
        codes.push(code);
    }
    // Each room is held by one instance, and both instances hold some.
    let (on_a, on_b) = (stored_codes(&dir_a), stored_codes(&dir_b));
    assert!(on_a.is_disjoint(&on_b));
    assert_eq!(on_a.len() + on_b.len(), 40);
    assert!(!on_a.is_empty() && !on_b.is_empty(), "all on one instance: {} and {}", on_a.len(), on_b.len());

    // Instance A stops and comes back on the same port and database: its rooms are back,
    // and their members take their seats again through the proxy.
    drop(sockets);
    a.stop().await;
    let a = Server::start_at(&dir_a, Rules::default(), limits, &a_addr).await;
    for code in &on_a {
        let mut ben = room_socket(port, code).await;
        let w = hello(&mut ben, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ben"})).await;
        assert_eq!(w["type"], "Welcome", "room {code} after the restart: {w}");
        assert_eq!(w["view"]["members"].as_array().unwrap().len(), 3, "{w}");
    }
    // A room's scores come from the instance that holds the room (routed by the code in
    // the address; the host token is in the body).
    let proxy_addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    for (code, host) in codes.iter().zip(&hosts).take(4) {
        let csv = http_post(proxy_addr, &format!("/scores.csv?room={code}"), &format!("host={host}")).await;
        assert!(csv.starts_with("HTTP/1.1 200") && csv.contains("\"Ana\""), "{code}: {csv}");
    }
    // A socket whose address names another room than its message is refused.
    let mut ws = room_socket(port, &codes[0]).await;
    send(&mut ws, json!({"type": "Join", "version": VERSION, "code": "ZZZZZZ", "name": "Cy"})).await;
    assert_eq!(until(&mut ws, is("Error")).await["code"], "WrongAddress");

    drop(proxy);
    a.stop().await;
    b.stop().await;
}

fn host(token: &str, command: Value) -> Value {
    json!({"type": "Host", "host": token, "command": command})
}

/// A kept class through the proxy: one lesson in which Ana was right that 1 1 1 4 is
/// impossible (+1), ended. Its code and host token.
async fn a_class_with_a_lesson(port: u16) -> (String, String) {
    let code = fresh_code();
    let mut teacher = room_socket(port, &code).await;
    let w = hello(&mut teacher, json!({"type": "Create", "version": VERSION, "code": code, "judging": true})).await;
    assert_eq!(w["type"], "Welcome", "{w}");
    let token = w["host"].as_str().unwrap().to_string();
    send(&mut teacher, host(&token, json!({"type": "Keep", "kept": true}))).await;
    send(&mut teacher, host(&token, json!({"type": "NewRoll", "roll": [1, 1, 1, 4]}))).await;
    until(&mut teacher, |v| v["type"] == "Event" && v["event"]["type"] == "Rolled").await;
    let mut ana = room_socket(port, &code).await;
    let w = hello(&mut ana, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ana"})).await;
    assert_eq!(w["type"], "Welcome", "{w}");
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    send(&mut ana, json!({"type": "Reveal"})).await;
    until(&mut ana, |v| v["type"] == "Event" && v["event"]["type"] == "Results").await;
    send(&mut teacher, host(&token, json!({"type": "EndLesson"}))).await;
    until(&mut teacher, |v| v["type"] == "Event" && v["event"]["type"] == "Lesson").await;
    (code, token)
}

/// A school adds a machine: two instances behind nginx hold kept classes; a third joins them
/// in nginx's list, and the classes whose codes nginx now sends to it are taken over from the
/// instance that held them, whole, the first time anyone opens them. Every class is still
/// there with its progress, each held by exactly one instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_third_instance_takes_over_the_classes_the_proxy_now_sends_it_with_their_progress() {
    let dirs = [temp("peers-a"), temp("peers-b"), temp("peers-c")];
    let dir_proxy = temp("peers-nginx");
    let addrs: Vec<String> = (0..3).map(|_| format!("127.0.0.1:{}", free_port())).collect();
    let key = "the-districts-key-for-its-instances".to_string();
    // Each instance knows the others (the first two don't know the third yet).
    let limits = |me: usize, of: usize| Limits {
        rooms_per_address: 100,
        trust_proxy: true,
        peers: Some(Peers {
            addrs: addrs[..of].iter().enumerate().filter(|&(i, _)| i != me).map(|(_, a)| a.clone()).collect(),
            key: key.clone(),
        }),
        ..Limits::default()
    };
    let a = Server::start_at(&dirs[0], Rules::default(), limits(0, 2), &addrs[0]).await;
    let b = Server::start_at(&dirs[1], Rules::default(), limits(1, 2), &addrs[1]).await;
    let port = free_port();
    let proxy = nginx(&dir_proxy, port, &[&addrs[0], &addrs[1]]);
    wait_for(port).await;
    let mut classes = Vec::new();
    for _ in 0..24 {
        classes.push(a_class_with_a_lesson(port).await);
    }
    let before = [stored_codes(&dirs[0]), stored_codes(&dirs[1])];
    assert_eq!(before[0].len() + before[1].len(), 24);

    // The peer routes answer nobody without the key, and aren't passed on by the proxy.
    let a_addr: std::net::SocketAddr = addrs[0].parse().unwrap();
    let code = &classes[0].0;
    let asked = http_post(a_addr, &format!("/peer/hand-over?room={code}"), "").await;
    assert!(asked.starts_with("HTTP/1.1 404"), "{asked}");
    let proxy_addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let asked = http_post(proxy_addr, &format!("/peer/hand-over?room={code}"), "").await;
    assert!(asked.starts_with("HTTP/1.1 404"), "{asked}");

    // A socket whose address spells the code another way than the proxy routes by would
    // reach an instance that isn't the room's, and take the room from the one that is: an
    // instance with peers takes sockets at exactly /ws?room=CODE.
    let a_port = a_addr.port();
    for query in [format!("room={}", code.to_lowercase()), format!("ROOM=ABC234&room={code}"), String::new()] {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{}/ws?{query}", addrs[0]).into_client_request().unwrap();
        req.headers_mut().insert("origin", format!("http://127.0.0.1:{a_port}").parse().unwrap());
        match tokio_tungstenite::connect_async(req).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => assert_eq!(answer.status(), 400, "{query}"),
            other => panic!("{query}: {:?}", other.map(|_| ())),
        }
    }

    // The third machine, and nginx's list with it.
    drop(proxy);
    let c = Server::start_at(&dirs[2], Rules::default(), limits(2, 3), &addrs[2]).await;
    let proxy = nginx(&dir_proxy, port, &[&addrs[0], &addrs[1], &addrs[2]]);
    wait_for(port).await;
    for (code, token) in &classes {
        let mut teacher = room_socket(port, code).await;
        let w = hello(&mut teacher, json!({"type": "Present", "version": VERSION, "code": code, "host": token})).await;
        assert_eq!(w["type"], "Welcome", "class {code} after the third instance came: {w}");
        assert_eq!((w["view"]["kept"].clone(), w["view"]["lesson"].clone()), (json!(true), json!(2)), "{w}");
        send(&mut teacher, host(token, json!({"type": "Report"}))).await;
        let report = until(&mut teacher, is("Report")).await;
        let progress = &report["progress"];
        assert_eq!(
            (progress[0]["name"].clone(), progress[0]["tally"]["points"].clone()),
            (json!("Ana"), json!(1)),
            "{report}"
        );
        // And a student joins it there.
        let mut ben = room_socket(port, code).await;
        let w = hello(&mut ben, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ben"})).await;
        assert_eq!(w["type"], "Welcome", "{w}");
    }
    let after = [stored_codes(&dirs[0]), stored_codes(&dirs[1]), stored_codes(&dirs[2])];
    assert!(!after[2].is_empty(), "nginx sent the third instance none of 24 classes");
    assert!(after[0].is_disjoint(&after[1]) && after[0].is_disjoint(&after[2]) && after[1].is_disjoint(&after[2]));
    assert_eq!(after.iter().map(HashSet::len).sum::<usize>(), 24, "each class on exactly one instance");
    assert!(after[0].is_subset(&before[0]) && after[1].is_subset(&before[1]), "only moved to the new one");
    // Every holder was told: no note to tell one is left on the new instance's disk.
    let notes = || Store::open(&dirs[2].join("data")).unwrap().to_confirm().unwrap();
    for _ in 0..50 {
        if notes().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(notes(), Vec::new());
    drop(proxy);
    a.stop().await;
    b.stop().await;
    c.stop().await;
}
