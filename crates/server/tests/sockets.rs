//! The real server on 127.0.0.1 with WebSocket clients: rooms, bad clients, restarts.

mod common;

use score_room::protocol::VERSION;
use std::time::Duration;

use common::{body, fresh_code, http_get, http_post, is, read, said, send, status, temp, until, Server, Ws};
use futures_util::{SinkExt, StreamExt};
use score_engine::Rules;
use score_server::hub::Limits;
use serde_json::{json, Value};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A host's command with the host token.
fn host_cmd(token: &str, command: Value) -> Value {
    json!({"type": "Host", "host": token, "command": command})
}

fn event(name: &'static str) -> impl Fn(&Value) -> bool {
    move |v| v["type"] == "Event" && v["event"]["type"] == name
}

async fn create(server: &Server, name: &str) -> (Ws, String, String, String) {
    let mut ws = server.connect().await;
    send(&mut ws, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "name": name, "judging": true}))
        .await;
    let w = until(&mut ws, is("Welcome")).await;
    let s = |k: &str| w[k].as_str().unwrap().to_string();
    (ws, s("code"), s("token"), s("host"))
}

/// A socket that says `hello`, and the Welcome or Error it is answered with.
async fn hello(server: &Server, hello: Value) -> (Ws, Value) {
    let mut ws = server.connect().await;
    send(&mut ws, hello).await;
    let w = until(&mut ws, |v| v["type"] == "Welcome" || v["type"] == "Error").await;
    (ws, w)
}

async fn join(server: &Server, code: &str, name: &str, token: Option<&str>) -> (Ws, Value) {
    hello(server, json!({"type": "Join", "version": VERSION, "code": code, "name": name, "token": token})).await
}

/// A join by name from a device (its own id), as a page sends it.
async fn join_on(server: &Server, code: &str, name: &str, device: &str) -> (Ws, Value) {
    hello(server, json!({"type": "Join", "version": VERSION, "code": code, "name": name, "device": device})).await
}

#[tokio::test]
async fn a_class_plays_one_room_and_its_chat_is_text() {
    let dir = temp("play");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Ms Ada").await;
    assert_eq!(code.len(), 6);
    let (mut ana, w) = join(&server, &code.to_lowercase(), "Ana", None).await;
    assert_eq!(w["seat"], 1);
    assert_eq!(w["view"]["roll"].as_array().unwrap().len(), 4);
    until(&mut host, event("Joined")).await;
    // The same name in other letters is refused; the room is unchanged.
    let (_, refused) = join(&server, &code, "ANA", None).await;
    assert_eq!(said(&refused), "Someone in this room is already called “ANA”: choose another name.");
    // Ana claims IMPOSSIBLE; everyone sees the clock; only Ana may end it early (the host,
    // who plays too, is refused); everyone gets the verdict.
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    let clock = until(&mut host, event("Clock")).await;
    assert_eq!(clock["event"]["claim"], "Impossible");
    send(&mut host, json!({"type": "Reveal"})).await;
    let refused = until(&mut host, is("Error")).await;
    assert_eq!(refused["why"], json!({"type": "Room", "error": "NotYourClaim"}), "{refused}");
    send(&mut ana, json!({"type": "Reveal"})).await;
    let results = until(&mut ana, event("Results")).await;
    // A result is data (who, points, why), worded by each page.
    let result = &results["event"]["outcomes"][0];
    assert_eq!(result["name"], "Ana");
    let why = result["why"]["type"].as_str().unwrap();
    assert!(
        matches!((result["points"].as_i64(), why), (Some(1), "TrulyImpossible") | (Some(-2), "HadSolution")),
        "{result}"
    );
    // Chat arrives as the text sent.
    send(&mut ana, json!({"type": "Chat", "text": "<img src=x onerror=alert(1)>"})).await;
    let chat = until(&mut host, event("Chat")).await;
    assert_eq!(chat["event"]["text"], "<img src=x onerror=alert(1)>");
    // The host may deal a typed roll, if the dice can show it.
    send(&mut host, host_cmd(&host_token, json!({"type": "NewRoll", "roll": [12, 2, 12, 5]}))).await;
    let rolled = until(&mut ana, event("Rolled")).await;
    assert_eq!(rolled["event"]["roll"], json!([2, 5, 12, 12]));
    send(&mut host, host_cmd(&host_token, json!({"type": "NewRoll", "roll": [7, 7, 7, 1]}))).await;
    assert_eq!(said(&until(&mut host, is("Error")).await), "7 7 7 1 can't be rolled with d6 d6 d12 d20.");
    // A student cannot act as host.
    send(&mut ana, host_cmd("guess", json!({"type": "NewRoll"}))).await;
    let not_host = until(&mut ana, is("Error")).await;
    assert_eq!(
        (not_host["code"].as_str(), Some(said(&not_host).as_str())),
        (Some("NotHost"), Some("Only the host can do that."))
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_clients_get_a_message_and_are_closed() {
    let dir = temp("bad");
    let server = Server::start(&dir, Rules::default()).await;
    let mut ws = server.connect().await;
    for _ in 0..4 {
        ws.send(Message::Text("{not json".into())).await.unwrap();
        assert_eq!(said(&until(&mut ws, is("Error")).await), "That message could not be read.");
    }
    send(&mut ws, json!({"type": "Claim", "claim": "Score"})).await;
    assert_eq!(said(&until(&mut ws, is("Error")).await), "Create or join a room first.");
    // The fifth unreadable message closes the socket.
    ws.send(Message::Text("{".into())).await.unwrap();
    until(&mut ws, is("Error")).await;
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(end.is_ok(), "still open");
    // An oversized frame closes the socket.
    let mut big = server.connect().await;
    let _ = big.send(Message::Text("x".repeat(5000).into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), big.next()).await.unwrap();
    assert!(!matches!(closed, Some(Ok(Message::Text(_)))), "{closed:?}");
    // A page of another origin may not connect.
    let mut req = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
    req.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    assert!(connect_async(req).await.is_err());
    // A wrong room code says so.
    let (_, w) = join(&server, "ZZZZZZ", "Ben", None).await;
    assert_eq!(w["why"], json!({"type": "NoSuchRoom", "code": "ZZZZZZ"}), "data, not a sentence");
    assert_eq!(said(&w), "There is no room ZZZZZZ: check the code with your teacher.");
    server.stop().await;
}

#[tokio::test]
async fn a_page_of_an_older_protocol_reads_the_sentence_it_always_did_and_reloads() {
    let dir = temp("old-page");
    let server = Server::start(&dir, Rules::default()).await;
    let mut ws = server.connect().await;
    let hello = json!({"type": "Join", "version": VERSION - 1, "code": "ABC234", "name": "Ana", "token": null});
    send(&mut ws, hello).await;
    let told = until(&mut ws, is("Error")).await;
    // What a page of protocol 5 required, `code` and `message`, and the data a newer one reads.
    assert_eq!(told["code"], "OldPage");
    assert_eq!(told["message"], "This page is older than the server: reload it.");
    assert_eq!(told["why"], json!({"type": "OldPage"}));
    // Every other refusal is data only.
    send(&mut ws, json!({"type": "Claim", "claim": "Score"})).await;
    let other = until(&mut ws, is("Error")).await;
    assert!(other.get("message").is_none(), "{other}");
    server.stop().await;
}

#[tokio::test]
async fn a_reload_takes_the_same_seat_back_with_its_score() {
    let dir = temp("reload");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, _) = create(&server, "Host").await;
    let (mut ana, w) = join(&server, &code, "Ana", None).await;
    let token = w["token"].as_str().unwrap().to_string();
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    until(&mut host, event("Clock")).await;
    send(&mut ana, json!({"type": "Reveal"})).await;
    let scores = until(&mut host, event("Results")).await["event"]["scores"].clone();
    drop(ana);
    // The host's member list says Ana is away while her seat waits, and back when she is.
    let away = until(&mut host, event("Presence")).await;
    assert_eq!((away["event"]["seat"].as_u64(), away["event"]["away"].as_bool()), (Some(1), Some(true)), "{away}");
    let (_, back) = join(&server, &code, "anything", Some(&token)).await;
    assert_eq!(back["seat"], 1);
    let members = back["view"]["members"].as_array().unwrap().clone();
    assert_eq!(members[1]["score"], scores[1]["score"]);
    assert_eq!(members[1]["away"], false);
    let here = until(&mut host, event("Presence")).await;
    assert_eq!((here["event"]["seat"].as_u64(), here["event"]["away"].as_bool()), (Some(1), Some(false)), "{here}");
    server.stop().await;
}

#[tokio::test]
async fn a_restart_on_the_same_database_keeps_the_room_and_settles_an_expired_clock() {
    let dir = temp("restart");
    let rules = Rules { score_secs: 1, ..Rules::default() };
    let server = Server::start(&dir, rules.clone()).await;
    let (mut host, code, host_seat, _) = create(&server, "Host").await;
    let (_ana, w) = join(&server, &code, "Ana", None).await;
    let ana_token = w["token"].as_str().unwrap().to_string();
    send(&mut host, json!({"type": "Claim", "claim": "Score"})).await;
    until(&mut host, event("Clock")).await;
    drop(host);
    server.stop().await;
    // Down for longer than the SCORE clock.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = Server::start(&dir, rules).await;
    let (_, back) = join(&server, &code, "Host", Some(&host_seat)).await;
    assert_eq!(back["seat"], 0);
    assert_eq!(back["view"]["results"][0], json!({"seat": 0, "name": "Host", "points": -1, "why": {"type": "TimeUp"}}));
    assert_eq!(back["view"]["members"][0]["score"], -1);
    let (_, ana) = join(&server, &code, "Ana", Some(&ana_token)).await;
    assert_eq!(ana["seat"], 1);
    server.stop().await;
}

#[tokio::test]
async fn the_host_sets_rules_downloads_scores_and_ends_the_room_and_chat_is_rate_limited() {
    let dir = temp("host");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let (mut ana, _) = join(&server, &code, "Ana", None).await;
    // Rules out of range are refused with the Settings wording; good ones deal a new roll.
    let bad = host_cmd(
        &host_token,
        json!({"type": "Rules", "dice": [6, 6], "goal": 20, "score_secs": 30, "impossible_secs": 60, "judging": true}),
    );
    send(&mut host, bad).await;
    assert_eq!(said(&until(&mut host, is("Error")).await), "Use 3 to 6 dice (not 2).");
    let good = host_cmd(
        &host_token,
        json!({"type": "Rules", "dice": [6, 6, 6], "goal": 10, "score_secs": 45, "impossible_secs": 90, "judging": false}),
    );
    send(&mut host, good).await;
    let rules = until(&mut ana, event("Rules")).await;
    assert_eq!(rules["event"]["rules"]["goal"], 10);
    assert_eq!(rules["event"]["rules"]["dice"], json!([6, 6, 6]));
    let rolled = until(&mut ana, event("Rolled")).await;
    assert_eq!(rolled["event"]["roll"].as_array().unwrap().len(), 3);
    // Five chat messages in ten seconds, then "slow down".
    for i in 0..5 {
        send(&mut ana, json!({"type": "Chat", "text": format!("hi {i}")})).await;
    }
    send(&mut ana, json!({"type": "Chat", "text": "one too many"})).await;
    assert_eq!(said(&until(&mut ana, is("Error")).await), "Slow down: too many chat messages.");
    // The scores as CSV, for the host only, the token in a form's body: never in a URL
    // (servers and proxies log URLs), so a GET with it in the query is not answered with them.
    let csv = http_post(server.addr, &format!("/scores.csv?room={code}"), &format!("host={host_token}")).await;
    assert!(csv.starts_with("HTTP/1.1 200"), "{csv}");
    assert!(csv.contains("\"Median time to SCORE\"\n0,\"Host\",0,2,0,0,0,0,\n1,\"Ana\",0,2,0,0,0,0,\n"), "{csv}");
    // In the language of the page that asks for it (the form sends it); one the server
    // doesn't speak is answered in English.
    let german =
        http_post(server.addr, &format!("/scores.csv?room={code}"), &format!("host={host_token}&lang=de")).await;
    let words = score_i18n::Catalog::builtin(score_i18n::Lang::De);
    let heading = format!(
        "\"{}\",\"{}\"",
        words.text(score_i18n::Key::CsvSeat, &[]),
        words.text(score_i18n::Key::ReportName, &[])
    );
    assert!(body(&german).starts_with(&format!("\u{feff}{heading}")), "{german}");
    let unknown =
        http_post(server.addr, &format!("/scores.csv?room={code}"), &format!("host={host_token}&lang=tlh")).await;
    assert!(body(&unknown).starts_with("\u{feff}\"Seat\",\"Name\""), "{unknown}");
    let in_url = http_get(server.addr, &format!("/scores.csv?room={code}&host={host_token}")).await;
    assert!(in_url.starts_with("HTTP/1.1 405"), "{in_url}");
    // No endpoint tells a live room from a missing one: a wrong token and a missing room are
    // answered alike, and there is no QR code to ask for (the page draws it).
    let wrong = http_post(server.addr, &format!("/scores.csv?room={code}"), "host=guess").await;
    let missing = http_post(server.addr, "/scores.csv?room=ZZZZZZ", &format!("host={host_token}")).await;
    assert!(wrong.starts_with("HTTP/1.1 403"), "{wrong}");
    assert_eq!(body(&wrong), body(&missing));
    assert_eq!(status(&wrong), status(&missing));
    // The refusal is worded in the asking page's language too.
    let refused = http_post(server.addr, &format!("/scores.csv?room={code}"), "host=guess&lang=fr").await;
    let french = score_i18n::Catalog::builtin(score_i18n::Lang::Fr).text(score_i18n::Key::CsvRefused, &[]);
    assert!(refused.starts_with("HTTP/1.1 403") && refused.contains("text/html"), "{refused}");
    assert!(body(&refused).contains("<html lang=\"fr\" dir=\"ltr\">") && body(&refused).contains(&french), "{refused}");
    assert!(!body(&wrong).contains(&french), "{wrong}");
    let arabic = http_post(server.addr, &format!("/scores.csv?room={code}"), "host=guess&lang=ar").await;
    assert!(body(&arabic).contains("<html lang=\"ar\" dir=\"rtl\">"), "{arabic}");
    for path in [format!("/qr.svg?room={code}"), "/qr.svg?room=ZZZZZZ".to_string()] {
        let qr = http_get(server.addr, &path).await;
        assert!(!qr.contains("image/svg+xml"), "{qr}");
    }
    // The report, to the host alone; a student may not ask for it.
    send(&mut host, host_cmd(&host_token, json!({"type": "Report"}))).await;
    let report = until(&mut host, is("Report")).await;
    assert_eq!(report["rows"][1]["name"], "Ana");
    assert_eq!(report["rows"][1]["tally"]["rolls"], 2);
    send(&mut ana, host_cmd("guess", json!({"type": "Report"}))).await;
    assert_eq!(until(&mut ana, is("Error")).await["code"], "NotHost");
    // The host ends the room: Ana is told and her socket closes; the code no longer works.
    send(&mut host, host_cmd(&host_token, json!({"type": "End"}))).await;
    let ended = until(&mut ana, is("Error")).await;
    assert_eq!(
        (ended["code"].as_str(), Some(said(&ended).as_str())),
        (Some("Ended"), Some("The host ended this room."))
    );
    let (_, gone) = join(&server, &code, "Ben", None).await;
    assert_eq!(said(&gone), format!("There is no room {code}: check the code with your teacher."));
    server.stop().await;
}

/// The next message, whatever it is, within 5 s.
async fn next(ws: &mut Ws) -> Value {
    until(ws, |_| true).await
}

async fn closes(ws: &mut Ws) -> bool {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .is_ok()
}

// Pins a bug: "Leave the room" only closed the socket, so the seat and the name stayed
// taken for ten minutes; and a seat token that had expired came back as a join with an
// empty name ("A name needs at least one letter.").
#[tokio::test]
async fn leaving_frees_the_seat_at_once_and_a_stale_token_says_the_seat_is_gone() {
    let dir = temp("leave");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, _) = create(&server, "Host").await;
    let (mut ana, w) = join(&server, &code, "Ana", None).await;
    let token = w["token"].as_str().unwrap().to_string();
    send(&mut ana, json!({"type": "Leave"})).await;
    let left = until(&mut host, event("Left")).await;
    assert_eq!(left["event"]["seat"], 1);
    assert!(closes(&mut ana).await, "the leaver's socket stays open");
    // The name is free again at once; the old token no longer seats anyone.
    let (_, again) = join(&server, &code, "Ana", None).await;
    assert_eq!(again["type"], "Welcome", "{again}");
    let (_, stale) = join(&server, &code, "", Some(&token)).await;
    assert_eq!(stale["code"], "SeatGone");
    assert_eq!(
        said(&stale),
        format!("Your seat in room {code} was given up while you were away: join again with your name.")
    );
    server.stop().await;
}

// Pins a bug: the Welcome was built under a second lock after the join, so an event in
// between reached the new member twice. Events now carry the room's sequence number,
// counted on from the Welcome's.
#[tokio::test]
async fn room_events_are_numbered_on_from_the_welcome_and_private_ones_are_not() {
    let dir = temp("seq");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let (mut ana, w) = join(&server, &code, "Ana", None).await;
    let joined = until(&mut host, event("Joined")).await;
    assert_eq!(joined["seq"], 1);
    assert_eq!(w["seq"], 1, "the Welcome includes the join: {w}");
    // Then, unnumbered, where other devices reach this server: nowhere, on 127.0.0.1.
    let join_at = next(&mut ana).await;
    assert_eq!(
        join_at,
        json!({"type": "JoinAt", "addresses": []}),
        "a server on loopback is reached from this computer only"
    );
    send(&mut ana, json!({"type": "Chat", "text": "hi"})).await;
    for ws in [&mut host, &mut ana] {
        let chat = next(ws).await;
        assert_eq!((chat["type"].as_str(), chat["seq"].as_u64()), (Some("Event"), Some(2)), "{chat}");
    }
    // A move outside a claim is Ana's alone, and unnumbered.
    let move_ = json!({"type": "Act", "action": {"type": "Combine", "left": 0, "op": "Add", "right": 1}});
    send(&mut ana, move_).await;
    let own = next(&mut ana).await;
    assert_eq!(own["type"], "Own", "{own}");
    assert!(own.get("seq").is_none());
    send(&mut host, host_cmd(&host_token, json!({"type": "Lock", "locked": true}))).await;
    assert_eq!(until(&mut ana, event("Locked")).await["seq"], 3);
    server.stop().await;
}

// Pins a bug: the page checked a host's typed roll against the default dice. The server
// tells the room's whole rules; a roll for them is dealt.
#[tokio::test]
async fn a_room_on_other_dice_tells_its_rules_and_deals_a_typed_roll_for_them() {
    let dir = temp("rules");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let rules = json!({"type": "Rules", "dice": [20, 20, 20, 20, 20], "goal": 24, "score_secs": 30, "impossible_secs": 60, "judging": true});
    send(&mut host, host_cmd(&host_token, rules)).await;
    until(&mut host, event("Rolled")).await;
    let (_, w) = join(&server, &code, "Ana", None).await;
    assert_eq!(w["view"]["rules"]["dice"], json!([20, 20, 20, 20, 20]));
    assert_eq!(w["view"]["rules"]["goal"], 24);
    send(&mut host, host_cmd(&host_token, json!({"type": "NewRoll", "roll": [20, 1, 2, 3, 4]}))).await;
    assert_eq!(until(&mut host, event("Rolled")).await["event"]["roll"], json!([1, 2, 3, 4, 20]));
    send(&mut host, host_cmd(&host_token, json!({"type": "NewRoll", "roll": [1, 2, 3, 4]}))).await;
    let no = until(&mut host, is("Error")).await;
    assert_eq!(
        (no["code"].as_str(), Some(said(&no).as_str())),
        (Some("Refused"), Some("1 2 3 4 can't be rolled with d20 d20 d20 d20 d20."))
    );
    server.stop().await;
}

/// Creates a room, or returns the server's refusal.
async fn try_create(server: &Server, name: &str) -> (Ws, Value) {
    let mut ws = server.connect().await;
    send(&mut ws, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "name": name, "judging": true}))
        .await;
    let w = until(&mut ws, |v| v["type"] == "Welcome" || v["type"] == "Error").await;
    (ws, w)
}

// One address could create rooms until the server was full, locking every teacher out for
// a day. Now it may create five in ten minutes, and a full server makes way.
#[tokio::test]
async fn one_address_creates_five_rooms_in_ten_minutes_and_a_full_server_makes_way() {
    let dir = temp("limits");
    let limits = Limits { max_rooms: 3, ..Limits::default() };
    let server = Server::start_with(&dir, Rules::default(), limits).await;
    let mut codes = Vec::new();
    for i in 0..5 {
        let (ws, w) = try_create(&server, &format!("T{i}")).await;
        assert_eq!(w["type"], "Welcome", "room {i}: {w}");
        codes.push(w["code"].as_str().unwrap().to_string());
        // The teacher closes the tab: the room has nobody in it from now on.
        drop(ws);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, sixth) = try_create(&server, "T5").await;
    assert_eq!(sixth["code"], "TooManyRooms");
    assert_eq!(
        said(&sixth),
        "This device has created 5 rooms in the last ten minutes that nobody has joined: use one of them, or wait."
    );
    // The server holds three: creating the fourth and fifth made way for the first two,
    // which had nobody in them for longest; the last three are whole.
    for code in &codes[..2] {
        let (_, gone) = join(&server, code, "Ana", None).await;
        assert_eq!(gone["code"], "NoSuchRoom", "{code}: {gone}");
    }
    for code in &codes[2..] {
        let (_, w) = join(&server, code, "Ana", None).await;
        assert_eq!(w["type"], "Welcome", "{code}: {w}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_full_server_whose_rooms_all_have_someone_in_them_says_so() {
    let dir = temp("full");
    let limits = Limits { max_rooms: 2, ..Limits::default() };
    let server = Server::start_with(&dir, Rules::default(), limits).await;
    let (_a, _) = try_create(&server, "A").await;
    let (_b, _) = try_create(&server, "B").await;
    let (_, refused) = try_create(&server, "C").await;
    assert_eq!(refused["code"], "ServerFull");
    server.stop().await;
}

// A proxy routes a room's sockets by the code in their address, so the page proposes the
// code of a new room: a taken one is refused and the page proposes another, and a socket
// whose address names another room than its message is refused.
#[tokio::test]
async fn a_page_proposes_its_new_rooms_code_and_the_socket_address_names_the_room() {
    let dir = temp("codes");
    let server = Server::start(&dir, Rules::default()).await;
    let code = fresh_code();
    let mut host = server.connect_to(&format!("?room={code}")).await;
    send(
        &mut host,
        json!({"type": "Create", "version": VERSION, "code": code.to_lowercase(), "name": "Host", "judging": true}),
    )
    .await;
    assert_eq!(until(&mut host, is("Welcome")).await["code"], code.as_str());
    let mut again = server.connect().await;
    send(&mut again, json!({"type": "Create", "version": VERSION, "code": code, "name": "Other", "judging": true}))
        .await;
    assert_eq!(until(&mut again, is("Error")).await["code"], "CodeTaken");
    let mut odd = server.connect().await;
    send(&mut odd, json!({"type": "Create", "version": VERSION, "code": "O0O0O0", "name": "Other", "judging": true}))
        .await;
    assert_eq!(until(&mut odd, is("Error")).await["code"], "CodeTaken");
    // Joining through the room's address works; through another room's, it is refused.
    let mut ana = server.connect_to(&format!("?room={code}")).await;
    send(&mut ana, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ana"})).await;
    assert_eq!(until(&mut ana, is("Welcome")).await["seat"], 1);
    let mut lost = server.connect_to("?room=ZZZZZZ").await;
    send(&mut lost, json!({"type": "Join", "version": VERSION, "code": code, "name": "Ben"})).await;
    assert_eq!(until(&mut lost, is("Error")).await["code"], "WrongAddress");
    server.stop().await;
}

/// A teacher presents from one screen (no seat), commands from a second through the host
/// link, and sits down to play only when they choose to.
#[tokio::test]
async fn a_host_presents_without_a_seat_from_two_screens_and_plays_only_when_asked() {
    let dir = temp("present");
    let server = Server::start(&dir, Rules::default()).await;
    let mut projector = server.connect().await;
    send(&mut projector, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true})).await;
    let w = until(&mut projector, is("Welcome")).await;
    assert_eq!((&w["seat"], &w["token"]), (&Value::Null, &Value::Null), "a host screen has no seat: {w}");
    assert_eq!(w["view"]["members"], json!([]), "nobody on the scoreboard: {w}");
    let code = w["code"].as_str().unwrap().to_string();
    let host = w["host"].as_str().unwrap().to_string();
    // A student joins on seat 0; the projector sees it.
    let (mut ana, aw) = join(&server, &code, "Ana", None).await;
    assert_eq!(aw["seat"], 0);
    until(&mut projector, event("Joined")).await;
    // The projector can't claim: it has no seat.
    send(&mut projector, json!({"type": "Claim", "claim": "Score"})).await;
    let refused = until(&mut projector, is("Error")).await;
    assert_eq!(refused["code"], "NotSeated", "{refused}");
    // The host link on a laptop: the same room, as host, no seat.
    let mut laptop = server.connect().await;
    send(&mut laptop, json!({"type": "Present", "version": VERSION, "code": code, "host": host})).await;
    let lw = until(&mut laptop, is("Welcome")).await;
    assert_eq!((&lw["seat"], lw["host"].as_str()), (&Value::Null, Some(host.as_str())), "{lw}");
    assert_eq!(lw["view"]["members"][0]["name"], "Ana");
    // The laptop deals; both host screens and the student see the roll.
    send(&mut laptop, host_cmd(&host, json!({"type": "NewRoll", "roll": [2, 5, 12, 12]}))).await;
    for ws in [&mut projector, &mut laptop, &mut ana] {
        assert_eq!(until(ws, event("Rolled")).await["event"]["roll"], json!([2, 5, 12, 12]));
    }
    // Its report comes to it alone.
    send(&mut laptop, host_cmd(&host, json!({"type": "Report"}))).await;
    let report = until(&mut laptop, is("Report")).await;
    assert_eq!(report["rows"][0]["name"], "Ana");
    // A wrong host token: refused with a sentence, and no host rights.
    let mut guess = server.connect().await;
    send(&mut guess, json!({"type": "Present", "version": VERSION, "code": code, "host": "guess"})).await;
    let no = until(&mut guess, is("Error")).await;
    assert_eq!(no["code"], "NotHost", "{no}");
    assert_eq!(said(&no), format!("This host link is not the one for room {code}: you can join it as a member."));
    // "Play too": the projector takes a seat, with a token to come back to it.
    send(&mut projector, json!({"type": "Sit", "name": "ana"})).await;
    assert_eq!(until(&mut projector, is("Error")).await["code"], "Refused", "the name is taken");
    send(&mut projector, json!({"type": "Sit", "name": "Mr Obi"})).await;
    let sat = until(&mut projector, is("Welcome")).await;
    assert_eq!((sat["seat"].as_u64(), sat["host"].as_str()), (Some(1), Some(host.as_str())), "{sat}");
    let seat_token = sat["token"].as_str().unwrap().to_string();
    send(&mut projector, json!({"type": "Claim", "claim": "Impossible"})).await;
    assert_eq!(until(&mut ana, event("Clock")).await["event"]["seat"], 1);
    // Back after a drop by the seat's token.
    drop(projector);
    let (_, back) = join(&server, &code, "Mr Obi", Some(&seat_token)).await;
    assert_eq!(back["seat"], 1, "{back}");
    server.stop().await;
}

/// Every message on `ws` until it is quiet for a moment.
async fn drain(ws: &mut Ws) -> Vec<Value> {
    let mut got = Vec::new();
    while let Ok(Some(Ok(Message::Text(t)))) = tokio::time::timeout(Duration::from_millis(300), ws.next()).await {
        got.push(read(&t));
    }
    got
}

fn own_board(v: &Value) -> bool {
    v["type"] == "Own" && v["event"]["type"] == "Board"
}

// Pins a bug: the page makes a move before the room answers; a move the room refused (the rate
// limit, strict mode) left the page's tiles unlike the room's, and every later move missed.
#[tokio::test]
async fn every_move_is_answered_with_the_board_the_room_holds_and_a_quick_player_is_never_refused() {
    let dir = temp("moves");
    let server = Server::start(&dir, Rules::default()).await;
    let (_host, code, _, _) = create(&server, "Ms Ada").await;
    let (mut ana, _) = join(&server, &code, "Ana", None).await;
    // A move the room refuses (tile 9 is not on the board) is answered with Ana's board.
    let bad = json!({"type": "Act", "action": {"type": "Combine", "left": 0, "op": "Add", "right": 9}});
    send(&mut ana, bad).await;
    let got = drain(&mut ana).await;
    assert!(got.iter().any(|v| v["type"] == "Error" && v["code"] == "Refused"), "{got:?}");
    let board = got.iter().find(|v| own_board(v)).expect("the board comes back");
    assert_eq!(board["event"]["actions"], json!([]));
    // 40 moves, undos and clears in a few seconds: every one made, every one answered.
    let add = json!({"type": "Act", "action": {"type": "Combine", "left": 0, "op": "Add", "right": 1}});
    for i in 0..40 {
        let m = match i % 4 {
            0 | 2 => add.clone(),
            1 => json!({"type": "Act", "action": {"type": "Undo"}}),
            _ => json!({"type": "Act", "action": {"type": "Clear"}}),
        };
        send(&mut ana, m).await;
    }
    let got = drain(&mut ana).await;
    assert!(got.iter().all(|v| v["type"] != "Error"), "{got:?}");
    assert_eq!(got.iter().filter(|v| own_board(v)).count(), 40);
    // Past the limit (120 in 10 s) a move is refused, and still answered with the board as
    // the room holds it (90 more: 11 past it, short of the 20 that close a socket).
    for _ in 0..90 {
        send(&mut ana, json!({"type": "Act", "action": {"type": "Clear"}})).await;
    }
    let got = drain(&mut ana).await;
    let slow = got.iter().position(|v| v["code"] == "SlowDown").expect("the limit is reached");
    assert!(own_board(&got[slow + 1]) || own_board(&got[slow - 1]), "{:?}", &got[slow - 1..=slow + 1]);
    assert_eq!(got.iter().filter(|v| own_board(v)).count(), 90, "one answer per move");
    server.stop().await;
}

/// Reads `ws` until it closes: the close code, if a close frame came.
async fn close_code(ws: &mut Ws) -> Option<u16> {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("the socket stays open") {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
            Some(Ok(_)) => continue,
            // Closed under the client as it answered what was queued (a broken pipe).
            _ => return None,
        }
    }
}

// Pins a bug: a socket that never said hello was kept for ever, and with no ping a phone that
// left the Wi-Fi (a half-open socket) kept its room from ever being idle.
#[tokio::test]
async fn a_silent_socket_is_closed_and_so_is_one_that_answers_no_ping() {
    let dir = temp("silent");
    let limits = Limits { first_message_ms: 300, ping_ms: 200, ..Limits::default() };
    let server = Server::start_with(&dir, Rules::default(), limits).await;
    let mut mute = server.connect().await;
    assert_eq!(close_code(&mut mute).await, Some(4002), "no hello in time");
    // A member whose device stops answering (this client answers pings only while it reads).
    let (_host, code, _, _) = create(&server, "Ms Ada").await;
    let (mut gone, _) = join(&server, &code, "Ana", None).await;
    let (mut here, _) = join(&server, &code, "Ben", None).await;
    let reading = tokio::spawn(async move {
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_millis(1200) {
            if let Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) =
                tokio::time::timeout(Duration::from_millis(100), here.next()).await
            {
                panic!("Ben reads and answers pings: his socket stays open");
            }
        }
        here
    });
    tokio::time::sleep(Duration::from_millis(1000)).await;
    // Closed (4002, or under the client as it answers the pings it left unread).
    assert!(matches!(close_code(&mut gone).await, Some(4002) | None), "two pings unanswered");
    let _here = reading.await.unwrap();
    server.stop().await;
}

// Pins a bug: two tabs of one browser on one seat took it from each other about once a second.
#[tokio::test]
async fn a_second_tab_takes_the_seat_and_the_first_is_told_and_stays_out() {
    let dir = temp("tabs");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Ms Ada").await;
    let (mut first, w) = join(&server, &code, "Ana", None).await;
    let token = w["token"].as_str().unwrap().to_string();
    let (mut second, w2) = join(&server, &code, "Ana", Some(&token)).await;
    assert_eq!(w2["seat"], 1);
    let told = until(&mut first, is("Error")).await;
    assert_eq!(told["code"], "OpenElsewhere");
    assert_eq!(close_code(&mut first).await, None, "the first tab's socket ends");
    // The seat is the second tab's: the room's events reach it.
    send(&mut host, host_cmd(&host_token, json!({"type": "NewRoll", "roll": [1, 1, 1, 4]}))).await;
    until(&mut second, event("Rolled")).await;
    server.stop().await;
}

// Pins a bug: six teachers of one school behind one public address could not all create a
// room ("This device has created 5 rooms…"). What counts is what abuse looks like: rooms
// nobody joins.
#[tokio::test]
async fn a_school_behind_one_address_creates_the_rooms_its_classes_join_but_a_burst_of_empty_rooms_is_refused() {
    let dir = temp("school");
    let server = Server::start(&dir, Rules::default()).await;
    // Twenty teachers, each joined by a student at once.
    let mut held = Vec::new();
    for i in 0..20 {
        let mut ws = server.connect().await;
        send(&mut ws, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true})).await;
        let w = until(&mut ws, |v| v["type"] == "Welcome" || v["type"] == "Error").await;
        assert_eq!(w["type"], "Welcome", "teacher {i}: {w}");
        let (student, joined) = join(&server, w["code"].as_str().unwrap(), "Ana", None).await;
        assert_eq!(joined["type"], "Welcome");
        held.push((ws, student));
    }
    // Forty empty rooms in a burst: five are made, the rest refused.
    let mut made = 0;
    for _ in 0..40 {
        let mut ws = server.connect().await;
        send(&mut ws, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true})).await;
        let w = until(&mut ws, |v| v["type"] == "Welcome" || v["type"] == "Error").await;
        if w["type"] == "Welcome" {
            made += 1;
        } else {
            assert_eq!(w["code"], "TooManyRooms", "{w}");
        }
    }
    assert_eq!(made, 5);
    server.stop().await;
}

// The room's language is the host's to set, reaches every page, and survives a restart; a
// member can't set it, and a language the game doesn't speak changes nothing.
#[tokio::test]
async fn the_rooms_language_is_the_hosts_and_outlives_a_restart() {
    let dir = temp("lang");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let (mut ana, w) = join(&server, &code, "Ana", None).await;
    assert_eq!(w["view"]["lang"], serde_json::Value::Null);
    send(&mut host, host_cmd(&host_token, json!({"type": "Language", "lang": "pt-br"}))).await;
    assert_eq!(until(&mut ana, event("Language")).await["event"]["lang"], "pt-BR");
    send(&mut host, host_cmd(&host_token, json!({"type": "Language", "lang": "tlh"}))).await;
    assert_eq!(said(&until(&mut host, is("Error")).await), "Score doesn't speak that language.");
    send(&mut ana, host_cmd("guess", json!({"type": "Language", "lang": "ar"}))).await;
    assert_eq!(until(&mut ana, is("Error")).await["code"], "NotHost");
    drop((host, ana));
    server.stop().await;
    let server = Server::start(&dir, Rules::default()).await;
    let (_, w) = join(&server, &code, "Ben", None).await;
    assert_eq!(w["view"]["lang"], "pt-BR");
    // A room created in a language the game doesn't speak is refused; one it does, canonical.
    let mut ws = server.connect().await;
    let hello =
        |lang: &str| json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true, "lang": lang});
    send(&mut ws, hello("tlh")).await;
    assert_eq!(said(&until(&mut ws, is("Error")).await), "Score doesn't speak that language.");
    send(&mut ws, hello("de-AT")).await;
    assert_eq!(until(&mut ws, is("Welcome")).await["view"]["lang"], "de");
    server.stop().await;
}

// Pins two bugs: a student at −2 pressed Leave and joined again as the same name at 0; and a
// student the host removed joined straight back. A kept record goes back to its own device
// only (another typing the name starts at 0).
#[tokio::test]
async fn a_name_keeps_its_record_across_leave_and_remove_holds_until_let_back_in() {
    let dir = temp("record");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let (mut ana, _) = join_on(&server, &code, "Ana", "ana-phone").await;
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    until(&mut ana, event("Clock")).await;
    send(&mut ana, json!({"type": "Reveal"})).await;
    let points = until(&mut ana, event("Results")).await["event"]["outcomes"][0]["points"].as_i64().unwrap();
    send(&mut ana, json!({"type": "Leave"})).await;
    until(&mut host, event("Left")).await;
    let score_of = |w: &Value| {
        let members = w["view"]["members"].as_array().unwrap().clone();
        members.iter().find(|m| m["name"].as_str().unwrap().eq_ignore_ascii_case("ana")).map(|m| m["score"].as_i64())
    };
    let (mut other, someone) = join_on(&server, &code, "ANA", "ben-laptop").await;
    assert_eq!(score_of(&someone), Some(Some(0)), "another device starts afresh: {someone}");
    send(&mut other, json!({"type": "Leave"})).await;
    until(&mut host, event("Left")).await;
    // A join with no device at all (a message made by hand) starts afresh too.
    let (mut bare, someone) = join(&server, &code, "Ana", None).await;
    assert_eq!(score_of(&someone), Some(Some(0)), "a join without a device: {someone}");
    send(&mut bare, json!({"type": "Leave"})).await;
    until(&mut host, event("Left")).await;
    let (mut ana, back) = join_on(&server, &code, "ana", "ana-phone").await;
    assert_eq!(score_of(&back), Some(Some(points)), "{back}");
    let seat = back["seat"].as_u64().unwrap();
    // Removed: told so, and refused by name until the host lets her back in.
    send(&mut host, host_cmd(&host_token, json!({"type": "Remove", "seat": seat}))).await;
    assert_eq!(until(&mut ana, is("Error")).await["code"], "Removed");
    assert_eq!(until(&mut host, event("Removed")).await["event"]["names"], json!(["ana"]));
    let (_, refused) = join(&server, &code, "ANA", None).await;
    assert_eq!(said(&refused), "The host removed “ana” from this room: ask the host to let you back in.");
    send(&mut host, host_cmd(&host_token, json!({"type": "Readmit", "name": "Ana"}))).await;
    assert_eq!(until(&mut host, event("Removed")).await["event"]["names"], json!([]));
    let (_, back) = join_on(&server, &code, "Ana", "ana-phone").await;
    assert_eq!(score_of(&back), Some(Some(points)), "{back}");
    // A removal pressed for someone no longer in that seat removes nobody.
    let seat = back["seat"].as_u64().unwrap();
    send(&mut host, host_cmd(&host_token, json!({"type": "Remove", "seat": seat, "name": "Ben"}))).await;
    assert_eq!(until(&mut host, is("Error")).await["why"], json!({"type": "Room", "error": "NoSuchSeat"}));
    server.stop().await;
}

// Auto-deal was a host screen's timer: it stopped when the screen that turned it on closed.
// It is the room's setting now, and the server deals.
#[tokio::test]
async fn auto_deal_is_the_rooms_and_goes_on_with_no_host_screen_open() {
    let dir = temp("auto");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let (mut ana, _) = join(&server, &code, "Ana", None).await;
    send(&mut host, host_cmd(&host_token, json!({"type": "AutoDeal", "secs": 601}))).await;
    assert_eq!(said(&until(&mut host, is("Error")).await), "Auto-deal waits at most 600 seconds after a result.");
    send(&mut host, host_cmd(&host_token, json!({"type": "AutoDeal", "secs": 1}))).await;
    assert_eq!(until(&mut ana, event("AutoDeal")).await["event"]["secs"], 1);
    // The host's screen closes; Ana settles the roll; the next comes a second later.
    send(&mut host, json!({"type": "Leave"})).await;
    drop(host);
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    until(&mut ana, event("Clock")).await;
    send(&mut ana, json!({"type": "Reveal"})).await;
    let results = until(&mut ana, event("Results")).await;
    let rolled = until(&mut ana, event("Rolled")).await;
    let waited = rolled["now"].as_u64().unwrap() - results["now"].as_u64().unwrap();
    assert!((1_000..1_500).contains(&waited), "dealt {waited} ms after the result");
    // A page that comes in meanwhile is told the setting and when the roll settled.
    let (_, w) = join(&server, &code, "Ben", None).await;
    assert_eq!(w["view"]["auto_deal_secs"], 1);
    server.stop().await;
}

async fn open_from(addr: std::net::SocketAddr, ip: &str) -> Ws {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    req.headers_mut().insert("x-real-ip", ip.parse().unwrap());
    connect_async(req).await.unwrap().0
}

// A refused upgrade (429) reached the page as no room server at all ("Rooms need
// score-server"): an address past its socket cap is now told why, on the socket.
#[tokio::test]
async fn an_address_past_its_socket_cap_is_told_why_and_others_are_not_affected() {
    let dir = temp("cap");
    let limits = Limits { trust_proxy: true, sockets_per_address: 2, ..Limits::default() };
    let server = Server::start_with(&dir, Rules::default(), limits).await;
    let first = open_from(server.addr, "203.0.113.9").await;
    let _second = open_from(server.addr, "203.0.113.9").await;
    let mut third = open_from(server.addr, "203.0.113.9").await;
    let told = next(&mut third).await;
    assert_eq!(told["code"], "SlowDown", "{told}");
    assert!(said(&told).starts_with("Too many connections from this network"), "{told}");
    // Told before any version is read: a page of protocol 5 reads its sentence too.
    assert_eq!(told["message"].as_str(), Some(said(&told).as_str()), "{told}");
    assert!(closes(&mut third).await);
    // Another address is not counted with it; a socket closed frees its place.
    let mut other = open_from(server.addr, "203.0.113.10").await;
    send(&mut other, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true})).await;
    assert_eq!(until(&mut other, |v| v["type"] == "Welcome" || v["type"] == "Error").await["type"], "Welcome");
    drop(first);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = open_from(server.addr, "203.0.113.9").await;
    send(&mut again, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true})).await;
    assert_eq!(until(&mut again, |v| v["type"] == "Welcome" || v["type"] == "Error").await["type"], "Welcome");
    server.stop().await;
}

// Pins a bug: each IPv6 address was an address of its own, so one device cycling through
// its /64 opened sockets (and created rooms, and guessed codes) without limit.
#[tokio::test]
async fn an_ipv6_slash_64_is_one_address_for_the_socket_cap() {
    let dir = temp("cap6");
    let limits = Limits { trust_proxy: true, sockets_per_address: 2, ..Limits::default() };
    let server = Server::start_with(&dir, Rules::default(), limits).await;
    let _first = open_from(server.addr, "2001:db8:5:7::1").await;
    let _second = open_from(server.addr, "2001:db8:5:7:abcd::2").await;
    let mut third = open_from(server.addr, "2001:db8:5:7:ffff:ffff:ffff:fffe").await;
    assert_eq!(next(&mut third).await["code"], "SlowDown");
    // The next /64 is another network.
    let mut other = open_from(server.addr, "2001:db8:5:8::1").await;
    send(&mut other, json!({"type": "Create", "version": VERSION, "code": fresh_code(), "judging": true})).await;
    assert_eq!(until(&mut other, |v| v["type"] == "Welcome" || v["type"] == "Error").await["type"], "Welcome");
    server.stop().await;
}

// Pins a bug: Ana claimed IMPOSSIBLE, Ben pressed SCORE, Ana left, and Ben got −1 "a new
// roll while the SCORE clock ran". A member leaving settles only what is theirs.
#[tokio::test]
async fn a_claimer_leaving_leaves_someone_elses_score_running() {
    let dir = temp("claimer-leaves");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let (mut ana, _) = join(&server, &code, "Ana", None).await;
    let (mut ben, _) = join(&server, &code, "Ben", None).await;
    send(&mut host, host_cmd(&host_token, json!({"type": "NewRoll", "roll": [2, 5, 12, 12]}))).await;
    until(&mut ben, event("Rolled")).await;
    send(&mut ana, json!({"type": "Claim", "claim": "Impossible"})).await;
    until(&mut ben, event("Clock")).await;
    send(&mut ben, json!({"type": "Claim", "claim": "Score"})).await;
    assert_eq!(until(&mut ben, event("Clock")).await["event"]["claim"], "Score");
    send(&mut ana, json!({"type": "Leave"})).await;
    until(&mut ben, event("Left")).await;
    // Ben's clock runs on: he makes 20, and Ana's claim (hers, though she left) is beaten.
    let combine = |l: u32, op: &str, r: u32| json!({"type": "Act", "action": {"type": "Combine", "left": l, "op": op, "right": r}});
    send(&mut ben, combine(2, "Sub", 3)).await;
    send(&mut ben, combine(0, "Concat", 4)).await;
    let results = until(&mut ben, event("Results")).await;
    let whys: Vec<(String, i64, String)> = results["event"]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().into(),
                o["points"].as_i64().unwrap(),
                o["why"]["type"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(whys, [("Ben".into(), 1, "Made".into()), ("Ana".into(), -2, "ClaimBeaten".into())]);
    server.stop().await;
}

// Pins a bug: 59 joins from one device, then closed, held 59 seats (and every name a class
// would use) for ten minutes. A class joining from one school address is never refused.
#[tokio::test]
async fn one_device_taking_seat_after_seat_is_stopped_and_a_class_from_one_address_is_not() {
    let dir = temp("fill");
    let limits = Limits { trust_proxy: true, ..Limits::default() };
    let server = Server::start_with(&dir, Rules::default(), limits).await;
    let (mut host, code, _, host_token) = create(&server, "Host").await;
    let join_from = |ip: &'static str, name: String| {
        let (addr, code) = (server.addr, code.clone());
        async move {
            let mut ws = open_from(addr, ip).await;
            send(&mut ws, json!({"type": "Join", "version": VERSION, "code": code, "name": name})).await;
            let w = until(&mut ws, |v| v["type"] == "Welcome" || v["type"] == "Error").await;
            (ws, w)
        }
    };
    let mut class = Vec::new();
    for i in 0..30 {
        let (ws, w) = join_from("198.51.100.7", format!("Student {i}")).await;
        assert_eq!(w["type"], "Welcome", "{w}");
        class.push(ws);
    }
    for i in 0..5 {
        let (ws, w) = join_from("203.0.113.5", format!("Fake {i}")).await;
        assert_eq!(w["type"], "Welcome", "{w}");
        drop(ws);
    }
    for _ in 0..5 {
        until(&mut host, |v| v["event"]["type"] == "Presence" && v["event"]["away"] == true).await;
    }
    let (_, refused) = join_from("203.0.113.5", "Fake 5".into()).await;
    assert_eq!(refused["why"], json!({"type": "SlowDown", "what": "Joins"}), "{refused}");
    // The host gives up every empty seat at once; the class keeps theirs.
    send(&mut host, host_cmd(&host_token, json!({"type": "ClearEmpty"}))).await;
    for _ in 0..5 {
        until(&mut host, event("Left")).await;
    }
    let (_, w) = join_from("203.0.113.5", "Fake 5".into()).await;
    assert_eq!(w["type"], "Welcome", "{w}");
    assert_eq!(w["view"]["members"].as_array().unwrap().len(), 32, "the host, 30 students and one");
    server.stop().await;
}

// Pins a bug: the socket's write buffer was capped at 64 KiB and a message is never split,
// so a room whose chat held 200 long lines could send no Welcome: nobody could join or
// come back, even after a restart.
#[tokio::test]
async fn a_room_whose_chat_is_full_of_long_lines_still_lets_everyone_in() {
    let dir = temp("bigchat");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, _) = create(&server, "Host").await;
    // 40 members, 5 lines each (the chat limit), 300 emoji a line: 200 lines, about 240 KB.
    let line: String = "😀".repeat(300);
    let mut members = Vec::new();
    for i in 0..40 {
        let (mut ws, w) = join(&server, &code, &format!("M{i}"), None).await;
        assert_eq!(w["type"], "Welcome", "{w}");
        for _ in 0..5 {
            send(&mut ws, json!({"type": "Chat", "text": line})).await;
        }
        members.push(ws);
    }
    // The host has read every line: the room holds them all.
    let mut lines = 0;
    while lines < 200 {
        until(&mut host, event("Chat")).await;
        lines += 1;
    }
    let (_, late) = join(&server, &code, "Late", None).await;
    assert_eq!(late["type"], "Welcome", "{}", &late.to_string()[..200.min(late.to_string().len())]);
    assert_eq!(late["view"]["chat"].as_array().unwrap().len(), 200);
    server.stop().await;
}

/// An own (one member's, or the host screens') event of this type.
fn own(name: &'static str) -> impl Fn(&Value) -> bool {
    move |v| v["type"] == "Own" && v["event"]["type"] == name
}

fn hw(command: Value) -> Value {
    json!({"type": "Homework", "command": command})
}

fn hw_move(left: u32, op: &str, right: u32) -> Value {
    hw(json!({"type": "Act", "action": {"type": "Combine", "left": left, "op": op, "right": right}}))
}

/// Homework at each student's level over real sockets: the pool stays on the server, each
/// student's rolls are chosen as they play, and dice a class doesn't rate are refused in words.
#[tokio::test]
async fn homework_at_each_students_level_deals_each_their_own_rolls_and_never_the_pool() {
    let dir = temp("homework-level");
    let server = Server::start(&dir, Rules::default()).await;
    let (mut host, code, _, token) = create(&server, "Ms Ada").await;
    let now = {
        let (_, w) = hello(&server, json!({"type": "Present", "version": VERSION, "code": code, "host": token})).await;
        w["view"]["now"].as_u64().unwrap()
    };
    send(&mut host, host_cmd(&token, json!({"type": "Keep", "kept": true}))).await;
    until(&mut host, event("Kept")).await;
    let set = json!({"type": "SetHomework", "count": 3, "adaptive": true, "score_secs": 30, "impossible_secs": 60, "due": now + 86_400_000u64});
    send(&mut host, host_cmd(&token, set.clone())).await;
    let info = until(&mut host, event("Homework")).await;
    assert_eq!(
        (info["event"]["info"]["rolls"].clone(), info["event"]["info"]["adaptive"].clone()),
        (json!(3), json!(true))
    );
    assert_eq!(info["event"]["info"]["solvable"], true, "every roll of the pool has a solution");
    assert!(!info.to_string().contains("solution\""), "{info}");
    // Ana passes over every roll: three different rolls, then done.
    let (mut ana, w) = join_on(&server, &code, "Ana", "dev-ana").await;
    assert!(!w.to_string().contains("rated") && !w.to_string().contains("deals"), "the pool stays on the server");
    send(&mut ana, hw(json!({"type": "Start"}))).await;
    let mut rolls = Vec::new();
    let run = until(&mut ana, own("HomeworkRun")).await;
    rolls.push(run["event"]["run"]["view"]["roll"].clone());
    for at in 1..3 {
        send(&mut ana, hw(json!({"type": "Next"}))).await;
        let run = until(&mut ana, |v| own("HomeworkRun")(v) && v["event"]["run"]["at"] == at).await;
        assert!(!run.to_string().contains("solution\":\""), "{run}");
        rolls.push(run["event"]["run"]["view"]["roll"].clone());
    }
    send(&mut ana, hw(json!({"type": "Next"}))).await;
    until(&mut ana, |v| own("HomeworkRun")(v) && v["event"]["run"]["done"] == true).await;
    rolls.sort_by_key(Value::to_string);
    rolls.dedup();
    assert_eq!(rolls.len(), 3, "no roll twice: {rolls:?}");
    // Five dice: refused, in words.
    let rules = json!({"type": "Rules", "dice": [6, 6, 6, 12, 20], "goal": 20, "score_secs": 30, "impossible_secs": 60, "judging": true});
    send(&mut host, host_cmd(&token, rules)).await;
    until(&mut host, event("Rules")).await;
    send(&mut host, host_cmd(&token, set)).await;
    let refused = until(&mut host, is("Error")).await;
    assert_eq!(said(&refused), "Homework at each student's level has 4 dice at most: a class rates play on no more.");
    server.stop().await;
}

#[tokio::test]
async fn three_students_do_the_homework_at_their_own_times_one_resuming_after_a_drop_and_a_restart() {
    let dir = temp("homework");
    let rules = Rules { score_secs: 2, ..Rules::default() };
    let server = Server::start(&dir, rules.clone()).await;
    let (mut host, code, _, token) = create(&server, "Ms Ada").await;
    let (mut screen, w) =
        hello(&server, json!({"type": "Present", "version": VERSION, "code": code, "host": token})).await;
    let now = w["view"]["now"].as_u64().unwrap();
    send(&mut host, host_cmd(&token, json!({"type": "Keep", "kept": true}))).await;
    until(&mut host, event("Kept")).await;
    // Homework of three typed rolls, due in a week; a roll that doesn't fit the dice is refused.
    let set = |rolls: Value| {
        host_cmd(
            &token,
            json!({"type": "SetHomework", "rolls": rolls, "score_secs": 5, "impossible_secs": 60, "due": now + 7 * 86_400_000u64}),
        )
    };
    send(&mut host, set(json!([[2, 5, 12, 12], [7, 7, 7, 7]]))).await;
    assert_eq!(said(&until(&mut host, is("Error")).await), "7 7 7 7 can't be rolled with d6 d6 d12 d20.");
    send(&mut host, set(json!([[2, 5, 12, 12], [5, 2, 12, 12], [12, 12, 2, 5]]))).await;
    let set = until(&mut host, event("Homework")).await;
    assert_eq!(set["event"]["info"]["rolls"], 3);
    assert!(!set.to_string().contains("solution"), "{set}");
    let (mut ana, _) = join_on(&server, &code, "Ana", "dev-ana").await;
    let (mut ben, w) = join_on(&server, &code, "Ben", "dev-ben").await;
    let ben_token = w["token"].as_str().unwrap().to_string();
    // Ana: the first roll made in time; her line reaches the teacher's screen, not Ben.
    send(&mut ana, hw(json!({"type": "Start"}))).await;
    let run = until(&mut ana, own("HomeworkRun")).await;
    assert_eq!(run["event"]["run"]["view"]["roll"], json!([2, 5, 12, 12]));
    send(&mut ana, hw(json!({"type": "Claim", "claim": "Score"}))).await;
    send(&mut ana, hw_move(2, "Sub", 3)).await;
    send(&mut ana, hw_move(0, "Concat", 4)).await;
    let run = until(&mut ana, |v| own("HomeworkRun")(v) && v["event"]["run"]["tally"]["points"] == 1).await;
    assert_eq!(run["event"]["run"]["tally"]["scores_made"], 1);
    let rows = until(&mut screen, |v| own("HomeworkRows")(v) && v["event"]["rows"][0]["tally"]["points"] == 1).await;
    assert_eq!(rows["event"]["rows"][0]["name"], "Ana");
    // Ben presses SCORE and his page drops; he comes back by his token and goes on in time.
    send(&mut ben, hw(json!({"type": "Start"}))).await;
    until(&mut ben, own("HomeworkRun")).await;
    send(&mut ben, hw(json!({"type": "Claim", "claim": "Score"}))).await;
    until(&mut ben, |v| own("HomeworkPlay")(v) && v["event"]["event"]["type"] == "Clock").await;
    drop(ben);
    let (mut ben, back) = join(&server, &code, "Ben", Some(&ben_token)).await;
    assert_eq!(back["view"]["run"]["view"]["clock"]["claim"], "Score", "{back}");
    send(&mut ben, hw_move(2, "Sub", 3)).await;
    send(&mut ben, hw_move(0, "Concat", 4)).await;
    until(&mut ben, |v| own("HomeworkRun")(v) && v["event"]["run"]["tally"]["points"] == 1).await;
    send(&mut ben, hw(json!({"type": "Next"}))).await;
    until(&mut ben, |v| own("HomeworkRun")(v) && v["event"]["run"]["at"] == 1).await;
    // Ben presses SCORE on his second roll and the server goes down past its clock.
    send(&mut ben, hw(json!({"type": "Claim", "claim": "Score"}))).await;
    until(&mut ben, |v| own("HomeworkPlay")(v) && v["event"]["event"]["type"] == "Clock").await;
    drop((ana, ben, host, screen));
    server.stop().await;
    tokio::time::sleep(Duration::from_millis(5_200)).await;
    let server = Server::start(&dir, rules).await;
    // Cy joins later; the teacher's screen sees everyone's lines, Ben's second roll failed by
    // its clock (no finished roll lost).
    let (mut cy, _) = join_on(&server, &code, "Cy", "dev-cy").await;
    send(&mut cy, hw(json!({"type": "Start"}))).await;
    let run = until(&mut cy, own("HomeworkRun")).await;
    assert_eq!(run["event"]["run"]["at"], 0);
    let (_, w) = hello(&server, json!({"type": "Present", "version": VERSION, "code": code, "host": token})).await;
    let rows = &w["view"]["homework_rows"];
    let line = |name: &str| rows.as_array().unwrap().iter().find(|r| r["name"] == name).cloned().unwrap();
    assert_eq!((line("Ana")["tally"]["points"].clone(), line("Ana")["played"].clone()), (json!(1), json!(1)), "{rows}");
    assert_eq!(line("Ben")["tally"]["points"], 0, "{rows}");
    assert_eq!(
        (line("Ben")["tally"]["scores_made"].clone(), line("Ben")["tally"]["scores_failed"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(line("Cy")["played"], 0);
    // Ben again: the roll that ran out is settled; it can't be claimed again, only passed.
    let (mut ben, back) = join(&server, &code, "Ben", Some(&ben_token)).await;
    assert_eq!(back["view"]["run"]["at"], 1);
    send(&mut ben, hw(json!({"type": "Claim", "claim": "Score"}))).await;
    assert_eq!(until(&mut ben, is("Error")).await["why"]["error"]["Round"], "Over");
    // The teacher's report has the homework in the Progress.
    let (mut host, _) =
        hello(&server, json!({"type": "Present", "version": VERSION, "code": code, "host": token})).await;
    send(&mut host, host_cmd(&token, json!({"type": "Report"}))).await;
    let report = until(&mut host, is("Report")).await;
    let progress = report["progress"].as_array().unwrap();
    assert!(progress.iter().any(|r| r["name"] == "Ana" && r["homework"] == 1 && r["tally"]["points"] == 1), "{report}");
    server.stop().await;
}
