//! The wire format, pinned: every message a page or the server sends, as JSON text. A change
//! here is a change of protocol (bump `VERSION`); old pages are then told to reload.

use score_engine::{BoardError, MoveError, Op, Rules, RulesError, TileId};
use score_room::protocol::{
    next, ChatLine, Claim, ClientMsg, Clock, EarlyError, ErrorCode, Flood, HardRoll, HomeworkCommand, HomeworkInfo,
    HomeworkRow, HostCommand, Move, Next, Outcome, Player, ProgressRow, Refusal, ReportRow, RoomEvent, SeatScore,
    ServerMsg, Tally, View, Why, Working, VERSION,
};
use score_room::room::RoomError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// `value` is written as `json`, and `json` reads back as `value`.
fn golden<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: T, json: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), json);
    assert_eq!(serde_json::from_str::<T>(json).unwrap(), value);
}

#[test]
fn the_protocol_is_version_twelve() {
    assert_eq!(VERSION, 12);
}

#[test]
fn what_a_page_sends() {
    golden(
        ClientMsg::Create {
            version: 4,
            code: "ABC234".into(),
            name: Some("Ms Ada".into()),
            judging: true,
            lang: Some("es".into()),
        },
        r#"{"type":"Create","version":4,"code":"ABC234","name":"Ms Ada","judging":true,"lang":"es"}"#,
    );
    golden(
        ClientMsg::Create { version: 4, code: "ABC234".into(), name: None, judging: true, lang: None },
        r#"{"type":"Create","version":4,"code":"ABC234","judging":true}"#,
    );
    golden(
        ClientMsg::Present { version: 4, code: "ABC234".into(), host: "h".into() },
        r#"{"type":"Present","version":4,"code":"ABC234","host":"h"}"#,
    );
    golden(ClientMsg::Sit { name: "Ms Ada".into() }, r#"{"type":"Sit","name":"Ms Ada"}"#);
    golden(
        ClientMsg::Join {
            version: 4,
            code: "ABC234".into(),
            name: "Ana".into(),
            token: Some("t".into()),
            device: None,
        },
        r#"{"type":"Join","version":4,"code":"ABC234","name":"Ana","token":"t"}"#,
    );
    golden(
        ClientMsg::Join {
            version: 4,
            code: "ABC234".into(),
            name: "Ana".into(),
            token: None,
            device: Some("d1".into()),
        },
        r#"{"type":"Join","version":4,"code":"ABC234","name":"Ana","token":null,"device":"d1"}"#,
    );
    golden(ClientMsg::Leave, r#"{"type":"Leave"}"#);
    golden(ClientMsg::Claim { claim: Claim::Score }, r#"{"type":"Claim","claim":"Score"}"#);
    golden(ClientMsg::Claim { claim: Claim::Impossible }, r#"{"type":"Claim","claim":"Impossible"}"#);
    golden(ClientMsg::Reveal, r#"{"type":"Reveal"}"#);
    golden(ClientMsg::GiveUp, r#"{"type":"GiveUp"}"#);
    golden(
        ClientMsg::Act { action: Move::Combine { left: TileId(2), op: Op::Sub, right: TileId(3) } },
        r#"{"type":"Act","action":{"type":"Combine","left":2,"op":"Sub","right":3}}"#,
    );
    golden(ClientMsg::Act { action: Move::Undo }, r#"{"type":"Act","action":{"type":"Undo"}}"#);
    golden(ClientMsg::Act { action: Move::Clear }, r#"{"type":"Act","action":{"type":"Clear"}}"#);
    golden(ClientMsg::Chat { text: "hi".into() }, r#"{"type":"Chat","text":"hi"}"#);
    let host = |command| ClientMsg::Host { host: "h".into(), command };
    golden(
        host(HostCommand::NewRoll { roll: Some(vec![2, 5, 12, 12]) }),
        r#"{"type":"Host","host":"h","command":{"type":"NewRoll","roll":[2,5,12,12]}}"#,
    );
    golden(
        host(HostCommand::NewRoll { roll: None }),
        r#"{"type":"Host","host":"h","command":{"type":"NewRoll","roll":null}}"#,
    );
    golden(host(HostCommand::NextRoll), r#"{"type":"Host","host":"h","command":{"type":"NextRoll"}}"#);
    golden(
        host(HostCommand::Lock { locked: true }),
        r#"{"type":"Host","host":"h","command":{"type":"Lock","locked":true}}"#,
    );
    golden(
        host(HostCommand::Remove { seat: 3, name: None }),
        r#"{"type":"Host","host":"h","command":{"type":"Remove","seat":3}}"#,
    );
    golden(
        host(HostCommand::Remove { seat: 3, name: Some("Ana".into()) }),
        r#"{"type":"Host","host":"h","command":{"type":"Remove","seat":3,"name":"Ana"}}"#,
    );
    golden(
        host(HostCommand::Readmit { name: "Rex".into() }),
        r#"{"type":"Host","host":"h","command":{"type":"Readmit","name":"Rex"}}"#,
    );
    golden(host(HostCommand::ClearChat), r#"{"type":"Host","host":"h","command":{"type":"ClearChat"}}"#);
    golden(
        host(HostCommand::Rules { dice: vec![6, 6, 6], goal: 10, score_secs: 45, impossible_secs: 90, judging: false }),
        concat!(
            r#"{"type":"Host","host":"h","command":{"type":"Rules","dice":[6,6,6],"goal":10,"#,
            r#""score_secs":45,"impossible_secs":90,"judging":false}}"#
        ),
    );
    golden(host(HostCommand::End), r#"{"type":"Host","host":"h","command":{"type":"End"}}"#);
    golden(host(HostCommand::Report), r#"{"type":"Host","host":"h","command":{"type":"Report"}}"#);
    golden(
        host(HostCommand::AutoDeal { secs: 10 }),
        r#"{"type":"Host","host":"h","command":{"type":"AutoDeal","secs":10}}"#,
    );
    golden(
        host(HostCommand::Language { lang: "de".into() }),
        r#"{"type":"Host","host":"h","command":{"type":"Language","lang":"de"}}"#,
    );
    golden(
        host(HostCommand::Keep { kept: true }),
        r#"{"type":"Host","host":"h","command":{"type":"Keep","kept":true}}"#,
    );
    golden(host(HostCommand::EndLesson), r#"{"type":"Host","host":"h","command":{"type":"EndLesson"}}"#);
    golden(
        host(HostCommand::SetHomework {
            rolls: vec![],
            count: 10,
            level: Some(2),
            adaptive: false,
            score_secs: 30,
            impossible_secs: 60,
            untimed: true,
            due: 9,
        }),
        concat!(
            r#"{"type":"Host","host":"h","command":{"type":"SetHomework","rolls":[],"count":10,"level":2,"#,
            r#""score_secs":30,"impossible_secs":60,"untimed":true,"due":9}}"#
        ),
    );
    golden(
        host(HostCommand::SetHomework {
            rolls: vec![],
            count: 8,
            level: None,
            adaptive: true,
            score_secs: 30,
            impossible_secs: 60,
            untimed: false,
            due: 9,
        }),
        concat!(
            r#"{"type":"Host","host":"h","command":{"type":"SetHomework","rolls":[],"count":8,"level":null,"#,
            r#""adaptive":true,"score_secs":30,"impossible_secs":60,"untimed":false,"due":9}}"#
        ),
    );
    golden(host(HostCommand::EndHomework), r#"{"type":"Host","host":"h","command":{"type":"EndHomework"}}"#);
    golden(
        host(HostCommand::Forget { name: "Ana".into() }),
        r#"{"type":"Host","host":"h","command":{"type":"Forget","name":"Ana"}}"#,
    );
    golden(
        ClientMsg::Homework { command: HomeworkCommand::Start },
        r#"{"type":"Homework","command":{"type":"Start"}}"#,
    );
    golden(
        ClientMsg::Homework { command: HomeworkCommand::Claim { claim: Claim::Score } },
        r#"{"type":"Homework","command":{"type":"Claim","claim":"Score"}}"#,
    );
    golden(ClientMsg::Homework { command: HomeworkCommand::Next }, r#"{"type":"Homework","command":{"type":"Next"}}"#);
    golden(
        host(HostCommand::Free { seat: 2, name: Some("Ana".into()) }),
        r#"{"type":"Host","host":"h","command":{"type":"Free","seat":2,"name":"Ana"}}"#,
    );
    // A random roll may leave the roll out.
    assert_eq!(
        serde_json::from_str::<ClientMsg>(r#"{"type":"Host","host":"h","command":{"type":"NewRoll"}}"#).unwrap(),
        host(HostCommand::NewRoll { roll: None })
    );
}

#[test]
fn what_the_server_sends() {
    let view = View {
        rules: Rules::default(),
        judging: true,
        roll: vec![2, 5, 12, 12],
        members: vec![Player { seat: 0, name: "Ms Ada".into(), score: 1, away: false }],
        clock: Some(Clock { seat: 0, claim: Claim::Impossible, deadline: 61_000 }),
        settled: false,
        now: 1_000,
        results: vec![Outcome { seat: 0, name: "Ms Ada".into(), points: 1, why: Why::Made { moves: 2 } }],
        chat: vec![
            ChatLine { name: "Ms Ada".into(), text: "hi".into(), teacher: false },
            ChatLine { name: String::new(), text: "Go".into(), teacher: true },
        ],
        actions: vec![Move::Combine { left: TileId(2), op: Op::Sub, right: TileId(3) }],
        working: Some(Working { seat: 0, actions: vec![Move::Undo] }),
        auto_deal_secs: 10,
        settled_at: None,
        locked: false,
        lang: Some("es".into()),
        removed: vec!["Rex".into()],
        kept: true,
        lesson: 3,
        homework: Some(HomeworkInfo {
            number: 2,
            rolls: 10,
            score_secs: 30,
            impossible_secs: 60,
            untimed: false,
            solvable: false,
            adaptive: false,
            due: 604_800_000,
            closed: false,
        }),
        run: None,
        homework_rows: vec![],
    };
    golden(
        ServerMsg::Welcome {
            code: "ABC234".into(),
            seat: Some(0),
            token: Some("t".into()),
            host: Some("h".into()),
            seq: 7,
            view: Box::new(view),
        },
        concat!(
            r#"{"Welcome":{"code":"ABC234","seat":0,"token":"t","host":"h","seq":7,"view":{"#,
            r#""rules":{"dice":[6,6,12,20],"goal":20,"ops":31,"use_all":false,"score_secs":30,"#,
            r#""impossible_secs":60,"strict":false},"#,
            r#""judging":true,"roll":[2,5,12,12],"members":[{"seat":0,"name":"Ms Ada","score":1,"away":false}],"#,
            r#""clock":{"seat":0,"claim":"Impossible","deadline":61000},"settled":false,"now":1000,"#,
            r#""results":[{"seat":0,"name":"Ms Ada","points":1,"why":{"type":"Made","moves":2}}],"#,
            r#""chat":[{"name":"Ms Ada","text":"hi"},{"name":"","text":"Go","teacher":true}],"#,
            r#""actions":[{"type":"Combine","left":2,"op":"Sub","right":3}],"#,
            r#""working":{"seat":0,"actions":[{"type":"Undo"}]},"auto_deal_secs":10,"settled_at":null,"locked":false,"#,
            r#""removed":["Rex"],"lang":"es","kept":true,"lesson":3,"homework":{"number":2,"rolls":10,"score_secs":30,"#,
            r#""impossible_secs":60,"untimed":false,"solvable":false,"due":604800000}}}}"#
        ),
    );
    let event = |seq, event| ServerMsg::Event { seq, now: 5, event };
    golden(
        event(8, RoomEvent::Joined { seat: 1, name: "Ana".into(), score: -3 }),
        r#"{"Event":{"seq":8,"now":5,"event":{"Joined":{"seat":1,"name":"Ana","score":-3}}}}"#,
    );
    golden(
        event(9, RoomEvent::Removed { names: vec!["Rex".into()] }),
        r#"{"Event":{"seq":9,"now":5,"event":{"Removed":{"names":["Rex"]}}}}"#,
    );
    golden(event(9, RoomEvent::Left { seat: 1 }), r#"{"Event":{"seq":9,"now":5,"event":{"Left":{"seat":1}}}}"#);
    golden(
        event(9, RoomEvent::Presence { seat: 1, away: true }),
        r#"{"Event":{"seq":9,"now":5,"event":{"Presence":{"seat":1,"away":true}}}}"#,
    );
    golden(
        event(9, RoomEvent::AutoDeal { secs: 10 }),
        r#"{"Event":{"seq":9,"now":5,"event":{"AutoDeal":{"secs":10}}}}"#,
    );
    golden(
        event(10, RoomEvent::Language { lang: "ar".into() }),
        r#"{"Event":{"seq":10,"now":5,"event":{"Language":{"lang":"ar"}}}}"#,
    );
    golden(event(11, RoomEvent::Kept { kept: true }), r#"{"Event":{"seq":11,"now":5,"event":{"Kept":{"kept":true}}}}"#);
    golden(
        event(13, RoomEvent::Forgotten { name: "Ana".into() }),
        r#"{"Event":{"seq":13,"now":5,"event":{"Forgotten":{"name":"Ana"}}}}"#,
    );
    golden(
        event(12, RoomEvent::Lesson { lesson: 2 }),
        r#"{"Event":{"seq":12,"now":5,"event":{"Lesson":{"lesson":2}}}}"#,
    );
    golden(
        ServerMsg::Own {
            now: 5,
            event: RoomEvent::HomeworkPlay { event: Box::new(RoomEvent::Board { seat: 0, actions: vec![Move::Undo] }) },
        },
        r#"{"Own":{"now":5,"event":{"HomeworkPlay":{"event":{"Board":{"seat":0,"actions":[{"type":"Undo"}]}}}}}}"#,
    );
    golden(
        ServerMsg::JoinAt { addresses: vec!["192.168.1.20:8080".into()] },
        r#"{"JoinAt":{"addresses":["192.168.1.20:8080"]}}"#,
    );
    golden(ServerMsg::JoinAt { addresses: vec![] }, r#"{"JoinAt":{"addresses":[]}}"#);
    golden(
        event(10, RoomEvent::Clock { seat: 1, claim: Claim::Score, deadline: 30_005 }),
        r#"{"Event":{"seq":10,"now":5,"event":{"Clock":{"seat":1,"claim":"Score","deadline":30005}}}}"#,
    );
    golden(
        event(11, RoomEvent::Board { seat: 1, actions: vec![Move::Clear] }),
        r#"{"Event":{"seq":11,"now":5,"event":{"Board":{"seat":1,"actions":[{"type":"Clear"}]}}}}"#,
    );
    golden(
        event(
            12,
            RoomEvent::Results {
                outcomes: vec![Outcome { seat: 1, name: "Ana".into(), points: -1, why: Why::GaveUp }],
                scores: vec![SeatScore { seat: 1, score: -1 }],
                clock: Some(Clock { seat: 0, claim: Claim::Impossible, deadline: 60_000 }),
            },
        ),
        concat!(
            r#"{"Event":{"seq":12,"now":5,"event":{"Results":{"#,
            r#""outcomes":[{"seat":1,"name":"Ana","points":-1,"why":{"type":"GaveUp"}}],"#,
            r#""scores":[{"seat":1,"score":-1}],"clock":{"seat":0,"claim":"Impossible","deadline":60000}}}}}"#
        ),
    );
    for (why, json) in [
        (Why::HadSolution { solution: "2‖(12 − 12)".into() }, r#"{"type":"HadSolution","solution":"2‖(12 − 12)"}"#),
        (Why::ClaimBeaten { by: 2, name: "Cy".into() }, r#"{"type":"ClaimBeaten","by":2,"name":"Cy"}"#),
        (Why::TrulyImpossible, r#"{"type":"TrulyImpossible"}"#),
        (Why::Left, r#"{"type":"Left"}"#),
    ] {
        golden(why, json);
    }
    golden(
        event(13, RoomEvent::Rolled { roll: vec![1, 1, 1, 4] }),
        r#"{"Event":{"seq":13,"now":5,"event":{"Rolled":{"roll":[1,1,1,4]}}}}"#,
    );
    golden(
        event(14, RoomEvent::Chat { seat: 1, name: "Ana".into(), text: "<b>".into() }),
        r#"{"Event":{"seq":14,"now":5,"event":{"Chat":{"seat":1,"name":"Ana","text":"<b>"}}}}"#,
    );
    golden(
        event(14, RoomEvent::TeacherChat { text: "Go".into() }),
        r#"{"Event":{"seq":14,"now":5,"event":{"TeacherChat":{"text":"Go"}}}}"#,
    );
    golden(event(15, RoomEvent::ChatCleared), r#"{"Event":{"seq":15,"now":5,"event":"ChatCleared"}}"#);
    golden(
        event(16, RoomEvent::Locked { locked: true }),
        r#"{"Event":{"seq":16,"now":5,"event":{"Locked":{"locked":true}}}}"#,
    );
    golden(
        event(17, RoomEvent::Rules { rules: Rules { goal: 24, ..Rules::default() }, judging: false }),
        concat!(
            r#"{"Event":{"seq":17,"now":5,"event":{"Rules":{"rules":{"dice":[6,6,12,20],"goal":24,"#,
            r#""ops":31,"use_all":false,"score_secs":30,"impossible_secs":60,"strict":false},"judging":false}}}}"#
        ),
    );
    golden(
        ServerMsg::Own { now: 5, event: RoomEvent::Board { seat: 1, actions: vec![] } },
        r#"{"Own":{"now":5,"event":{"Board":{"seat":1,"actions":[]}}}}"#,
    );
    golden(
        ServerMsg::Report {
            rows: vec![ReportRow {
                seat: 1,
                left: false,
                name: "Ana".into(),
                tally: Tally {
                    points: 3,
                    rolls: 6,
                    scores_made: 3,
                    scores_failed: 0,
                    impossible_right: 1,
                    impossible_wrong: 1,
                    median_score_ms: Some(8000),
                    rating: None,
                },
            }],
            progress: vec![ProgressRow {
                name: "Ana".into(),
                lesson: 2,
                homework: None,
                tally: Tally {
                    points: -1,
                    rolls: 4,
                    scores_made: 0,
                    scores_failed: 1,
                    impossible_right: 0,
                    impossible_wrong: 0,
                    median_score_ms: None,
                    rating: Some(-412),
                },
            }],
            hardest: vec![HardRoll {
                roll: vec![2, 5, 12, 12],
                goal: 20,
                made: 1,
                missed: 3,
                median_made_ms: Some(21_000),
            }],
        },
        concat!(
            r#"{"Report":{"rows":[{"seat":1,"name":"Ana","tally":{"points":3,"rolls":6,"scores_made":3,"#,
            r#""scores_failed":0,"impossible_right":1,"impossible_wrong":1,"median_score_ms":8000}}],"#,
            r#""progress":[{"name":"Ana","lesson":2,"tally":{"points":-1,"rolls":4,"scores_made":0,"scores_failed":1,"#,
            r#""impossible_right":0,"impossible_wrong":0,"median_score_ms":null,"rating":-412}}],"#,
            r#""hardest":[{"roll":[2,5,12,12],"goal":20,"made":1,"missed":3,"median_made_ms":21000}]}}"#
        ),
    );
    // A refusal without fields is its name.
    golden(
        ServerMsg::Error { code: ErrorCode::NotHost, why: Some(Refusal::NotHost) },
        r#"{"Error":{"code":"NotHost","why":"NotHost"}}"#,
    );
    // A homework's run and the teacher's rows carry their tally as a field.
    let tally = Tally { points: 1, rolls: 2, scores_made: 1, ..Tally::default() };
    golden(
        ServerMsg::Own {
            now: 5,
            event: RoomEvent::HomeworkRows {
                rows: vec![HomeworkRow { name: "Ana".into(), played: 2, done: false, tally: tally.clone() }],
            },
        },
        concat!(
            r#"{"Own":{"now":5,"event":{"HomeworkRows":{"rows":[{"name":"Ana","played":2,"done":false,"tally":{"#,
            r#""points":1,"rolls":2,"scores_made":1,"scores_failed":0,"impossible_right":0,"impossible_wrong":0,"#,
            r#""median_score_ms":null}}]}}}}"#
        ),
    );
    // Why, as data for each page to word: never a sentence.
    golden(
        ServerMsg::Error { code: ErrorCode::SeatGone, why: Some(Refusal::SeatGone { code: "ABC234".into() }) },
        r#"{"Error":{"code":"SeatGone","why":{"SeatGone":{"code":"ABC234"}}}}"#,
    );
    golden(
        ServerMsg::Error { code: ErrorCode::SlowDown, why: Some(Refusal::SlowDown { what: Flood::Chat }) },
        r#"{"Error":{"code":"SlowDown","why":{"SlowDown":{"what":"Chat"}}}}"#,
    );
    let divide = RoomError::Board(BoardError::Move(MoveError::DivideByZero));
    golden(
        ServerMsg::Error { code: ErrorCode::Refused, why: Some(Refusal::Room { error: divide }) },
        r#"{"Error":{"code":"Refused","why":{"Room":{"error":{"Board":{"Move":"DivideByZero"}}}}}}"#,
    );
    golden(
        ServerMsg::Error {
            code: ErrorCode::Refused,
            why: Some(Refusal::Room { error: RoomError::NameTaken("Ana".into()) }),
        },
        r#"{"Error":{"code":"Refused","why":{"Room":{"error":{"NameTaken":"Ana"}}}}}"#,
    );
    golden(
        ServerMsg::Error {
            code: ErrorCode::Refused,
            why: Some(Refusal::Rules {
                errors: vec![RulesError::DiceCount(2), RulesError::Sides { index: 1, sides: 1 }],
            }),
        },
        r#"{"Error":{"code":"Refused","why":{"Rules":{"errors":[{"DiceCount":2},{"Sides":{"index":1,"sides":1}}]}}}}"#,
    );
    golden(
        ServerMsg::Error {
            code: ErrorCode::Refused,
            why: Some(Refusal::CantRoll { roll: vec![7, 7, 7, 1], dice: vec![6, 6, 12, 20] }),
        },
        r#"{"Error":{"code":"Refused","why":{"CantRoll":{"roll":[7,7,7,1],"dice":[6,6,12,20]}}}}"#,
    );
}

/// The refusals a page can meet before the server has read its version are written as
/// protocols 6 to 11 wrote every refusal, with protocol 5's sentence: a page of any of them
/// (a tab left open, a cached page) reads that it must reload, or that its network has too
/// many connections. A page reads them, and any refusal of an older server, by its code.
#[test]
fn a_page_older_or_newer_than_the_server_still_reads_that_it_must_reload() {
    let early = |why: Refusal| EarlyError::of(&why, |_| "Reload.".into());
    golden(
        early(Refusal::OldPage).unwrap(),
        r#"{"type":"Error","code":"OldPage","why":{"type":"OldPage"},"message":"Reload."}"#,
    );
    golden(
        early(Refusal::SlowDown { what: Flood::Connections }).unwrap(),
        r#"{"type":"Error","code":"SlowDown","why":{"type":"SlowDown","what":"Connections"},"message":"Reload."}"#,
    );
    assert_eq!(early(Refusal::SlowDown { what: Flood::Chat }), None, "met only after the version is read");
    assert_eq!(early(Refusal::Removed), None);
    // What this page reads in them, and in the refusals of older servers.
    let read = |text: &str| {
        assert!(serde_json::from_str::<ServerMsg>(text).is_err(), "{text}");
        serde_json::from_str::<EarlyError>(text).map(EarlyError::read).unwrap()
    };
    for why in [Refusal::OldPage, Refusal::SlowDown { what: Flood::Connections }] {
        let text = serde_json::to_string(&early(why.clone()).unwrap()).unwrap();
        assert_eq!(read(&text), ServerMsg::Error { code: why.code(), why: Some(why) });
    }
    // Protocol 5's: a sentence, no why.
    assert_eq!(
        read(r#"{"type":"Error","code":"OldPage","message":"This page is older than the server: reload it."}"#),
        ServerMsg::Error { code: ErrorCode::OldPage, why: None }
    );
    // Protocol 11's refusal of something else: its code.
    assert_eq!(
        read(r#"{"type":"Error","code":"Refused","why":{"type":"Room","error":{"NameTaken":"Ana"}}}"#),
        ServerMsg::Error { code: ErrorCode::Refused, why: None }
    );
    // Nothing else reads as one.
    for text in [r#"{"type":"Event","code":"OldPage"}"#, r#"{"Error":{"code":"OldPage"}}"#, "null"] {
        assert!(serde_json::from_str::<EarlyError>(text).is_err(), "{text}");
    }
}

#[test]
fn room_codes_are_six_of_the_unmistakable_letters_and_digits() {
    use score_room::protocol::{random_code, room_code};
    assert_eq!(random_code([0, 1, 2, 30, 31, 255]), "ABC9AH");
    assert_eq!(room_code(" abc234 "), Some("ABC234".into()));
    assert_eq!(room_code("ABC23"), None);
    assert_eq!(room_code("ABC2O4"), None, "O is not a code letter");
    assert_eq!(room_code("ABC2é4"), None);
    // A code is ASCII as typed: no other letter stands for one of its letters, even one
    // that Unicode upper-cases to it (the long s, a ligature).
    assert_eq!(room_code("abc23\u{17F}"), None);
    assert_eq!(room_code("\u{FB00}abc2"), None);
}

#[test]
fn a_page_applies_the_next_event_drops_one_seen_and_notices_a_gap() {
    assert_eq!(next(7, 8), Next::Apply);
    assert_eq!(next(7, 7), Next::Seen);
    assert_eq!(next(7, 3), Next::Seen);
    assert_eq!(next(7, 9), Next::Missed);
}

#[test]
fn messages_of_the_first_protocol_or_none_are_refused_not_guessed() {
    for text in [
        r#"{"type":"Score"}"#,
        r#"{"type":"Claim","claim":"SCORE"}"#,
        r#"{"type":"NewRoll","host":"h"}"#,
        r#"{"type":"Act","action":{"Combine":{"left":0,"op":"Add","right":1}}}"#,
        r#"{"Chat":{"text":"hi"}}"#,
        "",
        "null",
    ] {
        assert!(serde_json::from_str::<ClientMsg>(text).is_err(), "{text}");
    }
}
