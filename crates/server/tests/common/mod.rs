//! What the socket tests share: a real server on 127.0.0.1:0 (or a given port), clients,
//! and reading messages.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use score_engine::Rules;
use score_server::files::Game;
use score_server::hub::{serve, Hub, Limits};
use score_server::store::Store;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("score-server-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dist")).unwrap();
    std::fs::write(dir.join("dist/index.html"), "<!doctype html><title>Score</title>").unwrap();
    dir
}

pub struct Server {
    pub addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    pub async fn start(dir: &Path, rules: Rules) -> Server {
        Server::start_with(dir, rules, Limits::default()).await
    }

    pub async fn start_with(dir: &Path, rules: Rules, limits: Limits) -> Server {
        Server::start_at(dir, rules, limits, "127.0.0.1:0").await
    }

    /// A server on `addr` (a restart takes its port back).
    pub async fn start_at(dir: &Path, rules: Rules, limits: Limits, addr: &str) -> Server {
        Server::serving(dir, rules, limits, addr, Game::Folder(dir.join("dist"))).await
    }

    /// A server of `game`, its rooms kept in `dir`.
    pub async fn serving(dir: &Path, rules: Rules, limits: Limits, addr: &str, game: Game) -> Server {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let hub = Hub::with_limits(Some(Store::open(&dir.join("data")).unwrap()), rules, limits);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(serve(listener, hub, game, async {
            let _ = stopped.await;
        }));
        Server { addr, stop: Some(stop), done }
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), self.done).await;
    }

    pub async fn connect(&self) -> Ws {
        self.connect_to("").await
    }

    /// A socket at `/ws{query}`, e.g. `?room=ABC234`.
    pub async fn connect_to(&self, query: &str) -> Ws {
        let mut req = format!("ws://{}/ws{query}", self.addr).into_client_request().unwrap();
        req.headers_mut().insert("origin", format!("http://{}", self.addr).parse().unwrap());
        connect_async(req).await.unwrap().0
    }
}

/// What a page says of an `Error` message: its refusal, sent as data, read back from the
/// JSON and worded as the page words it.
pub fn said(error: &Value) -> String {
    // Back from how these tests read it ([`read`]) to the server's shape.
    let mut why = error["why"].as_object().cloned().unwrap_or_else(|| panic!("no refusal in {error}"));
    let kind = why.remove("type").unwrap_or_default();
    let why = if why.is_empty() { kind } else { serde_json::json!({ kind.as_str().unwrap_or_default(): why }) };
    let why: score_room::protocol::Refusal =
        serde_json::from_value(why).unwrap_or_else(|e| panic!("no refusal in {error}: {e}"));
    score_room::say::refusal(&why, &score_i18n::Catalog::english())
}

/// A room code no other test of this run proposes.
pub fn fresh_code() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + (u64::from(std::process::id()) << 32);
    // SplitMix64: consecutive counts give unrelated codes.
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    let b = (z ^ (z >> 31)).to_le_bytes();
    score_room::protocol::random_code([b[0], b[1], b[2], b[3], b[4], b[5]])
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next message matching `pred` (others are skipped), within 5 s.
pub async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v = read(&t);
                    if pred(&v) {
                        return v;
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("socket ended: {other:?}"),
            }
        }
    })
    .await
    .expect("no such message within 5 s")
}

/// A message of the server as these tests read it: `{"type": kind, ..its fields}`, and its
/// event (a homework's event within it too) and its refusal alike. The server tags each by
/// an object's one key (`{"Event":{"seq":2,..,"event":{"Chat":{..}}}}`; a variant without
/// fields is its name), which the room crate's golden tests pin; these tests are about what
/// the server does. A refusal a page can meet before its version is read (OldPage, too many
/// connections) keeps the early shape (`{"type":"Error",..,"message":..}`): read as it is;
/// any other message in that shape fails the test.
pub fn read(text: &str) -> Value {
    typed(serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}")))
}

fn typed(v: Value) -> Value {
    match v {
        Value::String(kind) => serde_json::json!({ "type": kind }),
        Value::Object(m)
            if m.get("type").is_some_and(|t| t == "Error")
                && m.contains_key("message")
                && m.get("code").is_some_and(|c| c == "OldPage" || c == "SlowDown") =>
        {
            Value::Object(m)
        }
        Value::Object(m) if m.len() == 1 => {
            let (kind, fields) = m.into_iter().next().unwrap();
            let Value::Object(mut fields) = fields else { panic!("{kind} without fields: {fields}") };
            for inner in ["event", "why"] {
                if let Some(x) = fields.remove(inner) {
                    fields.insert(inner.into(), if x.is_null() { x } else { typed(x) });
                }
            }
            fields.insert("type".into(), kind.into());
            Value::Object(fields)
        }
        other => panic!("not a message of the server: {other}"),
    }
}

pub fn is(kind: &'static str) -> impl Fn(&Value) -> bool {
    move |v| v["type"] == kind
}

/// Waits until something listens on `port` of 127.0.0.1.
pub async fn wait_for(port: u16) {
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("nothing listens on {port}");
}

/// A socket for room `code` on `127.0.0.1:port`, as a page of that origin opens it.
pub async fn room_socket(port: u16, code: &str) -> Ws {
    let mut req = format!("ws://127.0.0.1:{port}/ws?room={code}").into_client_request().unwrap();
    req.headers_mut().insert("origin", format!("http://127.0.0.1:{port}").parse().unwrap());
    connect_async(req).await.unwrap().0
}

/// A plain HTTP GET of `path` (the whole response, headers and body).
pub async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
    http_ask(addr, "GET", path, "").await
}

/// A request of `method` for `path` with more headers (`extra`: lines ending in `\r\n`),
/// and the whole answer.
pub async fn http_ask(addr: std::net::SocketAddr, method: &str, path: &str, extra: &str) -> String {
    http(addr, &format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n")).await
}

/// A form posted to `path` (`body` already form-encoded), and the whole answer.
#[allow(dead_code)]
pub async fn http_post(addr: std::net::SocketAddr, path: &str, body: &str) -> String {
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    http(addr, &format!("{head}{body}")).await
}

async fn http(addr: std::net::SocketAddr, req: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    tcp.read_to_string(&mut out).await.unwrap();
    out
}

/// An HTTP answer's status code.
#[allow(dead_code)]
pub fn status(answer: &str) -> u16 {
    answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status in {answer:?}"))
}

/// The value of header `name` in an HTTP answer (names in any case), if there is one.
#[allow(dead_code)]
pub fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// An HTTP answer's body.
#[allow(dead_code)]
pub fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default()
}
