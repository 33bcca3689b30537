//! The network side: serves the game's files and hosts rooms over WebSockets on the same
//! origin: `/ws` (upgraded to a socket session after the Origin and per-address socket
//! checks), a host's `POST /scores.csv`, and the game's files; [`serve`] also ticks the
//! rooms and learns the addresses other devices reach it at.
//!
//! No endpoint tells a live room from a missing one: the socket's wrong-code limit is the
//! only way to ask, and a room's QR codes are drawn by the page, from the address it shows.
//!
//! Upgrades from another Origin are refused; each socket's buffers are sized for this
//! protocol's [`MAX_FRAME`] frames.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::Form;
use axum::Router;
use score_room::protocol::{room_code, Flood, Refusal};

use crate::files::{files, Game};
use crate::hub::{HandOver, Hub};
use crate::limits::{SocketCount, MAX_FRAME};
use crate::session::{error, session};

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

/// The address a connection is counted as: the peer's, or, behind a proxy this server trusts
/// (`--trust-proxy`), the one the proxy says in `X-Real-IP`; an IPv6 address as its /64
/// ([`crate::limits::counted`]).
fn client_address(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    let forwarded = || headers.get("x-real-ip")?.to_str().ok()?.trim().parse().ok();
    crate::limits::counted(if trust_proxy { forwarded().unwrap_or(peer) } else { peer })
}

async fn ws(
    upgrade: WebSocketUpgrade,
    headers: HeaderMap,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Query(q): Query<WsQuery>,
    RawQuery(raw): RawQuery,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "Rooms take connections from this server's own pages only.").into_response();
    }
    let from = client_address(addr.ip(), &headers, hub.limits.trust_proxy);
    // Behind a proxy with other instances, the address must be exactly what the proxy routed
    // by (`room=CODE` alone, the code as the server writes it): a socket routed by another
    // spelling would reach an instance that is not the room's, and take the room from it.
    if hub.limits.peers.is_some() {
        let exact = q.room.as_deref().and_then(room_code).filter(|c| raw.as_deref() == Some(&format!("room={c}")));
        if exact.is_none() {
            return (StatusCode::BAD_REQUEST, "Rooms take connections at /ws?room=CODE.").into_response();
        }
    }
    let address_room = q.room.and_then(|r| room_code(&r));
    let Some(held) = SocketCount::take(&hub, from) else {
        // Told over the socket, where the page reads it (a refused upgrade looks, to a page,
        // like no room server at all), then closed.
        return upgrade.max_message_size(MAX_FRAME).read_buffer_size(MAX_FRAME).on_upgrade(|mut socket| async move {
            let told = error(Refusal::SlowDown { what: Flood::Connections });
            let _ = socket.send(Message::Text(told)).await;
            let _ = socket.send(Message::Close(None)).await;
        });
    };
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // Sized for this protocol's frames, not the library's 128 KiB defaults: a socket's
        // buffers are most of what it costs.
        .read_buffer_size(MAX_FRAME)
        .write_buffer_size(0)
        // A Welcome carries the room's chat (200 lines of up to 300 characters, escaped as
        // JSON): one message may be several hundred KB, and the writer never splits one.
        .max_write_buffer_size(1024 * 1024)
        .on_upgrade(move |socket| async move {
            session(socket, hub, from, address_room).await;
            drop(held);
        })
}

/// The room of `POST /scores.csv?room=CODE` (in the address, for a proxy to route by: a
/// room's code is no secret, it is on the projector).
#[derive(serde::Deserialize)]
struct CsvRoom {
    room: String,
}

/// What the Host panel's "Download scores" form posts: the host token, in the body (never in
/// a URL: servers and proxies log URLs).
#[derive(serde::Deserialize)]
struct CsvForm {
    host: String,
    /// The page's language (its code): the download's headings and lines are in it.
    #[serde(default)]
    lang: Option<String>,
    /// How that page writes × and ÷ (`cross`, `dot`; none: the language's way).
    #[serde(default)]
    ops: Option<String>,
}

/// `POST /scores.csv?room=CODE`: the room's scores as CSV, for its host. A room that doesn't exist and
/// a wrong token get the same answer, so this tells nobody which codes are live rooms.
async fn csv(State(hub): State<Arc<Hub>>, Query(r): Query<CsvRoom>, Form(q): Form<CsvForm>) -> Response {
    let room = room_code(&r.room).unwrap_or_default();
    let asked = room.clone();
    // Off the runtime threads: the room's lock may be held by a SQLite write.
    let lang = q.lang.as_deref().and_then(score_i18n::Lang::from_code).unwrap_or(score_i18n::Lang::En);
    let ops = q.ops.as_deref().and_then(score_i18n::Ops::from_code);
    let words = score_i18n::Catalog::builtin(lang).with_ops(ops);
    let refused = refusal_page(lang, &words.text(score_i18n::Key::CsvRefused, &[]));
    let text = tokio::task::spawn_blocking(move || hub.csv(&asked, &q.host, &words)).await.ok().flatten();
    match text {
        // With a byte-order mark: a spreadsheet opened by a double click reads it as UTF-8
        // (the headings and lines have accents, or are Arabic).
        Some(text) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"score-room-{room}.csv\"")),
                (header::CACHE_CONTROL, "no-store".to_string()),
            ],
            format!("\u{feff}{text}"),
        )
            .into_response(),
        None => (StatusCode::FORBIDDEN, axum::response::Html(refused)).into_response(),
    }
}

/// The room of a peer route, and for `handed` the version the other instance took.
#[derive(serde::Deserialize)]
struct PeerRoom {
    room: String,
    #[serde(default)]
    at: Option<u64>,
}

/// `POST /peer/hand-over?room=CODE` and `POST /peer/handed?room=CODE&at=MS`, from another instance
/// carrying the peers' key ([`crate::peers`]); without it (or on a server with no peers), 404
/// as for any path that isn't there.
async fn peer(
    State(hub): State<Arc<Hub>>,
    axum::extract::Path(what): axum::extract::Path<String>,
    Query(r): Query<PeerRoom>,
    headers: HeaderMap,
) -> Response {
    let given = headers.get(crate::peers::KEY_HEADER).and_then(|k| k.to_str().ok()).unwrap_or_default();
    let known = hub.limits.peers.as_ref().is_some_and(|p| crate::peers::same_key(given, &p.key));
    let code = room_code(&r.room).filter(|c| *c == r.room);
    let (true, Some(code)) = (known, code) else { return StatusCode::NOT_FOUND.into_response() };
    match what.as_str() {
        "hand-over" => match tokio::task::spawn_blocking(move || hub.hand_over(&code)).await {
            Ok(HandOver::Room(stored)) => ([(header::CONTENT_TYPE, "application/json")], stored).into_response(),
            Ok(HandOver::NotHere) => StatusCode::NOT_FOUND.into_response(),
            Ok(HandOver::NotNow) | Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
        },
        "handed" => {
            let _ = tokio::task::spawn_blocking(move || hub.handed(&code, r.at)).await;
            StatusCode::NO_CONTENT.into_response()
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A refusal a person reads in their browser, as a page in their language (plain text would
/// be shown left to right, an Arabic sentence's full stop on the wrong side).
fn refusal_page(lang: score_i18n::Lang, text: &str) -> String {
    let text = score_i18n::escape_html(text);
    let dir = if lang.rtl() { "rtl" } else { "ltr" };
    format!("<!doctype html><html lang=\"{}\" dir=\"{dir}\"><meta charset=\"utf-8\"><title>Score</title><p>{text}</p></html>\n", lang.code())
}

/// The server's routes: `/ws` for rooms, `POST /scores.csv` for a host, `POST /peer/…` for
/// the other instances behind the same proxy, and the game's files
/// (see [`crate::files`]). Room QR codes are drawn by the page that shows them.
pub fn router(hub: Arc<Hub>, game: Game) -> Router {
    Router::new()
        .route("/ws", get(ws))
        .route("/scores.csv", post(csv))
        .route("/peer/{what}", post(peer))
        .fallback_service(files(game))
        .with_state(hub)
}

/// Serves on `listener` until `shutdown` resolves; rooms are ticked every 200 ms.
pub async fn serve(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    game: Game,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    if let Ok(bound) = listener.local_addr() {
        hub.listening_on(bound);
    }
    let ticker = hub.clone();
    let last = hub.clone();
    let hub_for_stop = hub.clone();
    let ticks = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_millis(200));
        loop {
            every.tick().await;
            let hub = ticker.clone();
            let _ = tokio::task::spawn_blocking(move || hub.tick()).await;
        }
    });
    let app = router(hub, game).into_make_service_with_connect_info::<SocketAddr>();
    // Room events are small frames: without TCP_NODELAY each waits on a delayed ACK (40 ms).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let told = hub_for_stop.clone();
    let shutdown = async move {
        shutdown.await;
        let _ = tokio::task::spawn_blocking(move || told.stopping()).await;
        // A moment for the notices to leave before the sockets close.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let result = axum::serve(listener, app).with_graceful_shutdown(shutdown).await;
    ticks.abort();
    // The last moves and chat (stored at the tick, so up to 200 ms old) are stored now.
    let _ = tokio::task::spawn_blocking(move || last.tick()).await;
    result
}
