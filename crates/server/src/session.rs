//! One socket's session: it says hello in time (a Create, Join or Present), is seated, and
//! then passes its messages to the [`Hub`] within the rate limits, pinged so that a socket
//! that went away does not hold its room open. Every piece of hub work (room locks, the
//! solver, SQLite) runs through [`blocking`], on tokio's blocking threads.
//!
//! Memory: each socket's read buffer is sized for this protocol's 4 KB frames (the
//! WebSocket library's default is 128 KiB), an event is written to JSON once and shared by
//! every member's queue, and each queue holds at most [`QUEUE`] messages: a member who
//! stops reading is disconnected with close code [`CLOSE_TOO_SLOW`] (their seat waits for
//! them; the page reconnects and is sent the room afresh).

use std::net::IpAddr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use score_room::protocol::{room_code, ClientMsg, EarlyError, Flood, Refusal, ServerMsg, VERSION};
use tokio::sync::mpsc::{channel, Sender};

use crate::hub::{now_ms, Conn, Hub, Who, LET_GO_ELSEWHERE, LET_GO_SLOW};
use crate::limits::{Limit, MOVES_PER_10_S, QUEUE};

/// The close code for a member cut for not reading (an application code, 4000–4999).
pub const CLOSE_TOO_SLOW: u16 = 4001;
/// The close code for a socket that said nothing in time, or stopped answering pings.
pub const CLOSE_SILENT: u16 = 4002;

/// A refusal as the page reads it: its code, and why as data.
pub(crate) fn error(why: Refusal) -> Utf8Bytes {
    // The refusals a page can meet before its version is read keep the shape every page
    // since protocol 6 reads, and a sentence for a page of protocol 5 (which read no `why`):
    // a tab left open or a cached page still offers to reload, or says the network is full.
    // The only sentences a server sends.
    let english = |why: &Refusal| score_room::say::refusal(why, &score_i18n::Catalog::english());
    let told = match EarlyError::of(&why, english) {
        Some(early) => serde_json::to_string(&early),
        None => serde_json::to_string(&ServerMsg::Error { code: why.code(), why: Some(why) }),
    };
    Utf8Bytes::from(told.unwrap_or_default())
}

/// Runs hub work (room locks, the solver, SQLite) on tokio's blocking threads; a panic there
/// fails this one message, not the server.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T, Refusal> + Send + 'static) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| Err(Refusal::ServerFault))
}

pub(crate) async fn session(mut socket: WebSocket, hub: Arc<Hub>, from: IpAddr, address_room: Option<String>) {
    let (tx, mut rx) = channel::<Utf8Bytes>(QUEUE);
    let let_go = Arc::new(AtomicU8::new(0));
    let conn = |tx: &Sender<Utf8Bytes>| Conn { tx: tx.clone(), let_go: let_go.clone() };
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
                        Some(error(Refusal::Unreadable))
                    }
                    Ok(ref m) if is_move(m) && !moves.allow(now) => {
                        over += 1;
                        // The page made the move before asking: the room's board puts it right.
                        let homework = !matches!(m, ClientMsg::Act { .. });
                        if let Some((code, who)) = joined.clone() {
                            let h = hub.clone();
                            let _ = blocking(move || {
                                h.answer_move(&code, who, homework);
                                Ok(())
                            })
                            .await;
                        }
                        Some(error(Refusal::SlowDown { what: Flood::Moves }))
                    }
                    Ok(ref m) if !is_move(m) && !all.allow(now) => {
                        over += 1;
                        Some(error(Refusal::SlowDown { what: Flood::Messages }))
                    }
                    Ok(ClientMsg::Chat { .. }) if !chat.allow(now) => {
                        over += 1;
                        Some(error(Refusal::SlowDown { what: Flood::Chat }))
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
                                Err(why) => Some(error(why)),
                            }
                        }
                        (Some((code, who)), _) => {
                            let (hub, code, who) = (hub.clone(), code.clone(), *who);
                            // This connection, so the room can tell it from a newer one on the same seat.
                            let me = weak.as_ref().and_then(tokio::sync::mpsc::WeakSender::upgrade);
                            match blocking(move || hub.input(&code, who, msg, me.as_ref())).await {
                                Ok(()) => None,
                                Err(why) => Some(error(why)),
                            }
                        }
                        (None, None) => Some(error(Refusal::NotInRoom)),
                        (None, Some(sender)) => {
                            let seated = match msg {
                                ClientMsg::Create { version, .. } | ClientMsg::Join { version, .. } | ClientMsg::Present { version, .. }
                                    if version != VERSION =>
                                {
                                    Err(Refusal::OldPage)
                                }
                                // A proxy routed this socket by the room in its address: the
                                // message must name that room, or it reached the wrong instance.
                                ClientMsg::Create { ref code, .. } | ClientMsg::Join { ref code, .. } | ClientMsg::Present { ref code, .. }
                                    if address_room.as_ref().is_some_and(|r| room_code(code).as_ref() != Some(r)) =>
                                {
                                    Err(Refusal::WrongAddress)
                                }
                                ClientMsg::Create { code, name, judging, lang, .. } => {
                                    let (hub, conn) = (hub.clone(), conn(sender));
                                    blocking(move || hub.create(&code, name.as_deref(), judging, lang.as_deref(), conn, from))
                                        .await
                                }
                                ClientMsg::Join { code, name, token, device, .. } => {
                                    let (hub, conn, asked) = (hub.clone(), conn(sender), code.clone());
                                    blocking(move || hub.join(&asked, &name, token, device, conn, from))
                                        .await
                                        .map(|(seat, welcome)| (code.trim().to_uppercase(), Who::Seat(seat), welcome))
                                }
                                ClientMsg::Present { code, host, .. } => {
                                    let (hub, conn, asked) = (hub.clone(), conn(sender), code.clone());
                                    blocking(move || hub.present(&asked, &host, conn, from))
                                        .await
                                        .map(|(who, welcome)| (code.trim().to_uppercase(), who, welcome))
                                }
                                _ => Err(Refusal::NotInRoom),
                            };
                            match seated {
                                Ok((code, who, welcome)) => {
                                    joined = Some((code, who));
                                    weak = tx.take().map(|t| t.downgrade());
                                    Some(Utf8Bytes::from(welcome))
                                }
                                Err(why) => Some(error(why)),
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
                // The room let go of this connection (everything queued before is sent):
                // removed by the host, another tab took the seat, or the member stopped
                // reading and their queue filled.
                None => {
                    match let_go.load(Ordering::Relaxed) {
                        LET_GO_SLOW => {
                            let reason = Utf8Bytes::from_static("Too slow: reconnect to catch up.");
                            let _ = socket.send(Message::Close(Some(CloseFrame { code: CLOSE_TOO_SLOW, reason }))).await;
                        }
                        LET_GO_ELSEWHERE => {
                            let told = error(Refusal::OpenElsewhere);
                            let _ = socket.send(Message::Text(told)).await;
                            let _ = socket.send(Message::Close(None)).await;
                        }
                        _ => {}
                    }
                    break;
                }
            },
        }
    }
    if let (Some((code, who)), Some(conn)) = (joined, weak.and_then(|w| w.upgrade())) {
        // Like all hub work: it takes the room's lock, which may be held across SQLite.
        let _ = blocking(move || {
            hub.dropped(&code, who, &conn);
            Ok(())
        })
        .await;
    }
}

/// Whether a message is a move (in class or on homework): counted against the moves' limit.
fn is_move(m: &ClientMsg) -> bool {
    matches!(
        m,
        ClientMsg::Act { .. } | ClientMsg::Homework { command: score_room::protocol::HomeworkCommand::Act { .. } }
    )
}
