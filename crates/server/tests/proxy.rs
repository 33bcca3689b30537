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

/// nginx with the shipped config, in front of `a` and `b`, listening on `port`.
fn nginx(dir: &Path, port: u16, a: &str, b: &str) -> Nginx {
    let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/nginx.conf")).unwrap();
    assert!(
        shipped.contains("127.0.0.1:8081") && shipped.contains("127.0.0.1:8082") && shipped.contains("listen 8080;")
    );
    let temp_paths = format!(
        "http {{\n    client_body_temp_path {d}/body; proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fcgi;\n    uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi; access_log off;\n",
        d = dir.display()
    );
    let conf = shipped
        .replace("127.0.0.1:8081", a)
        .replace("127.0.0.1:8082", b)
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
    let proxy = nginx(&dir_proxy, port, &a_addr, &b.addr.to_string());
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
