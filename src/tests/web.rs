//! DOM tests in headless Chromium: `cargo test -p score-app --target wasm32-unknown-unknown`.

use crate::app::App;
use crate::codec;
use crate::components::SolutionList;
use crate::game::{DailyLog, Game, Match};
use crate::work::{Job, Listed, Outcome, Reply, Request, Table};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use score_engine::solve::{solutions, Puzzle};
use score_engine::stats::HistoryEntry;
use score_engine::{Preset, Rules, Stats};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn fresh_root() -> HtmlElement {
    // Each test is a page of its own: no module known stale or stalled by an earlier one.
    crate::modules::forget_stages();
    let doc = document();
    if let Ok(Some(s)) = window().local_storage() {
        let _ = s.clear();
    }
    let root: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&root).unwrap();
    root
}

async fn settle() {
    TimeoutFuture::new(0).await;
    TimeoutFuture::new(0).await;
}

fn all(root: &HtmlElement, selector: &str) -> Vec<HtmlElement> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into()).collect()
}

fn one(root: &HtmlElement, selector: &str) -> HtmlElement {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).unchecked_into()
}

/// The text of `selector` in `root` once it starts with `start` (looked at every 20 ms, for
/// two seconds at most), or as last seen.
async fn status_when(root: &HtmlElement, selector: &str, start: &str) -> String {
    let mut text = String::new();
    for _ in 0..100 {
        settle().await;
        text = one(root, selector).text_content().unwrap_or_default();
        if text.starts_with(start) {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    text
}

fn button(root: &HtmlElement, text: &str) -> HtmlElement {
    all(root, "button")
        .into_iter()
        .find(|b| b.text_content().as_deref() == Some(text))
        .unwrap_or_else(|| panic!("no button {text}"))
}

#[wasm_bindgen_test]
async fn app_shows_four_dice_and_the_goal() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    assert_eq!(all(&root, "[aria-label='Numbers'] button").len(), 4);
    assert_eq!(one(&root, "[data-testid='goal']").text_content().as_deref(), Some("20"));
    assert_eq!(one(&root, "[data-testid='score']").text_content().as_deref(), Some("0"));
}

#[wasm_bindgen_test]
async fn the_page_starts_in_three_tasks_the_table_in_the_second() {
    let root = fresh_root();
    // The page says when it is all drawn (a first visit's service worker waits for it).
    let said = std::rc::Rc::new(std::cell::Cell::new(0));
    let heard = said.clone();
    let listener = window_event_listener_untyped(crate::offline::DRAWN, move |_| heard.set(heard.get() + 1));
    let _app = leptos::mount::mount_to(root.clone(), App);
    // The mount's own task: what is stored is read and kept, nothing drawn yet.
    assert!(root.query_selector("[aria-label='Numbers']").unwrap().is_none());
    assert!(crate::storage::text(crate::storage::GAME_KEY).is_none());
    TimeoutFuture::new(0).await;
    // The roll was saved before it was shown (a reload deals no other).
    assert!(crate::storage::text(crate::storage::GAME_KEY).is_some());
    // The next: the table, playable, and nothing below or beside it yet.
    assert_eq!(all(&root, "[aria-label='Numbers'] button").len(), 4);
    assert!(button(&root, "SCORE").is_connected());
    assert!(root.query_selector(".side, .views, details.share-roll").unwrap().is_none());
    assert_eq!(said.get(), 0);
    TimeoutFuture::new(0).await;
    for part in [".side [data-testid='score']", ".views .tabs", "details.share-roll .play-roll"] {
        one(&root, part);
    }
    assert_eq!(said.get(), 1);
    listener.remove();
}

#[wasm_bindgen_test]
async fn tapping_a_die_fills_the_left_slot_and_tapping_again_empties_it() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    let tile = all(&root, "[aria-label='Numbers'] button").remove(0);
    let value = tile.query_selector(".value").unwrap().unwrap().text_content().unwrap();
    tile.click();
    settle().await;
    let left = one(&root, "[data-slot='left']");
    assert_eq!(left.get_attribute("aria-label").unwrap(), format!("Left number: {value}"));
    assert_eq!(tile.get_attribute("aria-pressed").as_deref(), Some("true"));
    tile.click();
    settle().await;
    assert_eq!(left.get_attribute("aria-label").as_deref(), Some("Left number: empty"));
}

#[wasm_bindgen_test]
async fn typed_roll_out_of_range_shows_a_message_and_keeps_the_roll() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    let before: Vec<_> = all(&root, "[aria-label='Numbers'] button").iter().map(|b| b.text_content()).collect();
    let input: HtmlInputElement = one(&root, ".play-roll input").unchecked_into();
    input.set_value("7 7 7 7");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    button(&root, "Play this roll").click();
    settle().await;
    assert_eq!(
        one(&root, ".play-roll .field-error").text_content().as_deref(),
        Some("7 7 7 7 can't be rolled with d6 d6 d12 d20.")
    );
    let after: Vec<_> = all(&root, "[aria-label='Numbers'] button").iter().map(|b| b.text_content()).collect();
    assert_eq!(before, after);
}

#[wasm_bindgen_test]
async fn score_button_starts_a_thirty_second_countdown() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    button(&root, "SCORE").click();
    settle().await;
    assert_eq!(one(&root, "[data-testid='countdown']").text_content().as_deref(), Some("30"));
    assert!(button(&root, "Give up").is_connected());
}

#[wasm_bindgen_test]
async fn solution_list_shows_the_count_and_the_working() {
    let root = fresh_root();
    let rules = Rules::preset(Preset::TwentyFour);
    let list = crate::work::listed(&solutions(&Puzzle::from_roll(&[3, 3, 8, 8], &rules)));
    let _view = leptos::mount::mount_to(root.clone(), move || view! { <SolutionList solutions=list.clone()/> });
    settle().await;
    assert_eq!(one(&root, "[data-testid='solution-count']").text_content().as_deref(), Some("1 distinct solution"));
    assert_eq!(one(&root, ".expr").text_content().as_deref(), Some("8 ÷ (3 − 8 ÷ 3)"));
    let steps: Vec<_> = all(&root, ".working li").iter().map(|l| l.text_content().unwrap()).collect();
    assert_eq!(steps, ["8 ÷ 3 = 8/3", "3 − (8/3) = 1/3", "8 ÷ (1/3) = 24"]);
}

#[wasm_bindgen_test]
async fn starting_a_match_shows_a_scoreboard_with_names_as_text() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    button(&root, "Players").click();
    settle().await;
    let names: web_sys::HtmlTextAreaElement = one(&root, ".players textarea").unchecked_into();
    names.set_value("<i>Ana</i>\nBen");
    names.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    button(&root, "Start match").click();
    settle().await;
    let rows: Vec<_> = all(&root, ".scoreboard .player-name").iter().map(|c| c.text_content().unwrap()).collect();
    assert_eq!(rows, ["<i>Ana</i>", "Ben"]);
    assert!(root.query_selector(".scoreboard i").unwrap().is_none());
    let score_for_ben = all(&root, ".scoreboard button")
        .into_iter()
        .find(|b| b.get_attribute("aria-label").as_deref() == Some("SCORE for Ben"));
    assert!(score_for_ben.is_some());
}

#[wasm_bindgen_test]
async fn a_fresh_roll_shows_no_solutions_until_asked_and_asking_makes_it_practice() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    let text = root.text_content().unwrap_or_default();
    assert!(
        !text.contains("no solution") && !text.contains("Difficulty") && !text.contains("distinct solution"),
        "{text}"
    );
    assert!(all(&root, ".solutions li").is_empty());
    button(&root, "Show solutions").click();
    settle().await;
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("0: the solutions were shown, so this roll is practice"), "{text}");
    // The list comes from the solver (its worker, or the page when the worker cannot load).
    let mut text = String::new();
    for _ in 0..100 {
        text = root.text_content().unwrap_or_default();
        if text.contains("Difficulty") || text.contains("This roll has no solution.") {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    assert!(text.contains("Difficulty") || text.contains("This roll has no solution."), "{text}");
    assert!(all(&root, ".claim").iter().all(|b| b.has_attribute("disabled")));
    // "Next roll" leads on: claims are open again and the solutions hidden.
    button(&root, "Next roll").click();
    settle().await;
    assert!(all(&root, ".solutions li").is_empty());
    assert!(all(&root, ".claim").iter().all(|b| !b.has_attribute("disabled")));
}

#[wasm_bindgen_test]
async fn class_room_host_asks_for_its_module_and_says_when_it_cannot_load() {
    use crate::components::RoomHost;
    use crate::forms::RoomLink;
    // This test page serves no room module: its script fails to load, as it would offline.
    let head: HtmlElement = document().head().unwrap().unchecked_into();
    // Each ask is of its own address (`room-boot.js`, then `?try=N`: a browser keeps a module
    // script it couldn't fetch as failed under its address), and asks before this test's may
    // have been made on this page.
    let addresses =
        || all(&head, "script[src^='room-boot.js']").iter().filter_map(|s| s.get_attribute("src")).collect::<Vec<_>>();
    let scripts = || addresses().len();
    let last = || addresses().pop();
    let asked = |before: &Option<String>| {
        let all = addresses();
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len(), "an address asked for twice: {all:?}");
        let now = all.last().cloned();
        assert!(now.is_some());
        assert_ne!(now.as_ref(), before.as_ref(), "asked again under the same address");
        now
    };
    let before = scripts();
    let last_before = last();
    let root = fresh_root();
    let host = leptos::mount::mount_to(root.clone(), || {
        view! { <RoomHost link=RoomLink { code: "XGBE7K".into(), host: Some("00ff".into()) }/> }
    });
    settle().await;
    // The invited code is handed to the module, whose script was asked for once.
    assert_eq!(one(&root, "#room-root").get_attribute("data-invite").as_deref(), Some("XGBE7K"));
    assert_eq!(one(&root, "#room-root").get_attribute("data-host").as_deref(), Some("00ff"));
    assert_eq!(scripts(), before + 1);
    let first = asked(&last_before);
    const FAILED: &str = "The class room couldn't load.";
    let status = status_when(&root, ".room-loading [role='status']", FAILED).await;
    assert!(status.starts_with(FAILED), "{status}");
    // Try again asks again.
    button(&root, "Try again").click();
    settle().await;
    assert_eq!(scripts(), before + 2);
    let second = asked(&first);
    assert!(second.as_deref().is_some_and(|s| s.contains("try=")), "{second:?}");
    let status = status_when(&root, ".room-loading [role='status']", FAILED).await;
    assert!(status.starts_with(FAILED), "{status}");
    drop(host);
    // So does opening the view again.
    let root = fresh_root();
    let _host = leptos::mount::mount_to(root.clone(), || view! { <RoomHost/> });
    settle().await;
    assert_eq!(scripts(), before + 3);
    asked(&second);
    assert_eq!(one(&root, "#room-root").get_attribute("data-invite"), None);
}

#[wasm_bindgen_test]
async fn a_tool_sees_the_table_as_data_and_the_page_alone_settles_the_roll() {
    use crate::tools::{Refused, TableState, Tools};
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    let head: HtmlElement = document().head().unwrap().unchecked_into();
    let before = all(&head, "script[src^='tools-boot.js']").len();
    button(&root, "Experiment").click();
    settle().await;
    // The host asked for the module once, and wrote the table into its root.
    assert_eq!(all(&head, "script[src^='tools-boot.js']").len(), before + 1);
    let seen = || {
        let text = one(&root, "#tools-root").get_attribute("data-table").unwrap_or_default();
        codec::from_text::<TableState>(&text).unwrap_or_else(|| panic!("{text}"))
    };
    let table = seen();
    assert_eq!((table.roll.len(), table.rules.goal, table.solutions_shown), (4, 20, false));
    // This test page serves no tools module: the view says so, with Try again.
    let status = status_when(&root, ".tools-loading [role='status']", "This view couldn't load.").await;
    assert!(status.starts_with("This view couldn't load."), "{status}");
    assert!(button(&root, "Try again").is_connected());
    // A tool asks: the page makes the roll practice, and the root says so.
    let tools =
        Tools { table: RwSignal::new(table), say: crate::ctx::Words(RwSignal::new(score_i18n::Catalog::english())) };
    assert_eq!(tools.ask_solutions(), Ok(()));
    settle().await;
    assert!(root.text_content().unwrap_or_default().contains("0: the solutions were shown, so this roll is practice"));
    assert!(seen().solutions_shown);
    // Under a SCORE clock the page's round refuses, and the tool is told why.
    button(&root, "Next roll").click();
    settle().await;
    assert!(!seen().solutions_shown);
    button(&root, "SCORE").click();
    settle().await;
    tools.table.set(seen());
    assert_eq!(tools.ask_solutions(), Err(Refused::Round(score_engine::RoundError::NoSolutionsNow)));
    settle().await;
    assert!(!seen().solutions_shown);
    // With no tool's view on the page, nothing answers.
    button(&root, "Give up").click();
    button(&root, "Solutions").click();
    settle().await;
    assert_eq!(tools.ask_solutions(), Err(Refused::Unanswered));
}

#[wasm_bindgen_test]
async fn a_tool_opened_while_the_module_loads_hears_that_it_could_not_load() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    // Experiment asks for the module; Rules, at once, is another host, not the one that asked.
    button(&root, "Experiment").click();
    settle().await;
    button(&root, "Rules").click();
    let status = status_when(&root, ".tools-loading [role='status']", "This view couldn't load.").await;
    assert!(status.starts_with("This view couldn't load."), "{status}");
    assert_eq!(one(&root, ".tools-loading").get_attribute("aria-label").as_deref(), Some("Rules"));
}

#[wasm_bindgen_test]
fn the_update_offer_and_the_crash_notice_read_the_pages_language_from_html() {
    let texts = [
        ("update_ready", "Une nouvelle version est prête."),
        ("reload", "Recharger"),
        ("crashed", "Score s’est arrêté."),
    ];
    let fr = score_i18n::Catalog::from_texts(
        score_i18n::Lang::Fr,
        texts.map(|(k, v)| (k.to_string(), v.to_string())).into_iter().collect(),
    );
    crate::lang::mark(&fr);
    let root = web_sys::window().unwrap().document().unwrap().document_element().unwrap();
    assert_eq!(root.get_attribute("lang").as_deref(), Some("fr"));
    assert_eq!(root.get_attribute("data-update-ready").as_deref(), Some("Une nouvelle version est prête."));
    assert_eq!(root.get_attribute("data-reload").as_deref(), Some("Recharger"));
    crate::crash::show_notice();
    let notice = web_sys::window().unwrap().document().unwrap().get_element_by_id("crash-notice").unwrap();
    assert_eq!(notice.text_content().as_deref(), Some("Score s’est arrêté. Recharger"));
    notice.remove();
    crate::lang::mark(&score_i18n::Catalog::english());
    assert_eq!(root.get_attribute("data-reload").as_deref(), Some("Reload"));
}

#[wasm_bindgen_test]
fn player_names_compare_in_the_browsers_lower_case() {
    use crate::forms::player_names;
    assert!(player_names("Émile\nÉMILE").unwrap_err().to_string().contains("twice"));
    assert!(player_names("ΟΔΥΣΣΕΥΣ\nοδυσσευς").unwrap_err().to_string().contains("twice"));
    assert_eq!(player_names("Ana\nÅna").map(|n| n.len()), Ok(2));
}

/// Stored text must read the same whichever side wrote it: the page writes it through the
/// browser's JSON, and data kept from before (or written by native code) is serde_json's.
fn same_both_ways<T>(value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let native = serde_json::to_string(value).unwrap();
    assert_eq!(codec::from_text::<T>(&native).as_ref(), Some(value), "reading {native}");
    let browser = codec::to_text(value).unwrap();
    assert_eq!(&serde_json::from_str::<T>(&browser).unwrap(), value, "natively reading {browser}");
    assert_eq!(codec::from_text::<T>(&browser).as_ref(), Some(value));
}

#[wasm_bindgen_test]
fn stored_data_reads_the_same_from_the_browsers_json_and_serde_json() {
    let rules = Rules::preset(Preset::Score);
    let mut stats = Stats::new();
    stats.record(HistoryEntry {
        roll: vec![2, 5, 12, 12],
        goal: 20,
        claim: "SCORE".into(),
        points: 1,
        reason: "made in time".into(),
        at_ms: 1_790_000_000_123,
        why: Some(score_engine::Reason::Made { moves: 2 }),
        solution: Some("2‖(12 ÷ 12 − 1)".into()),
    });
    let mut game = Game::new(rules.clone(), vec![2, 5, 12, 12], stats.clone());
    game.set_group(Some(Match::new(vec!["Ana".into(), "Émile \"É\"".into()], true)), vec![2, 5, 12, 12], 1_000);
    game.press_impossible(1, 2_000);
    let mut custom = Rules::preset(Preset::TwentyFour);
    custom.goal = -999;
    same_both_ways(&rules);
    same_both_ways(&custom);
    same_both_ways(&stats);
    // A stored game's solver verdict is never read back (it is computed again on load): it
    // is given back before comparing, as a restore does.
    for saved in [game.saved(), Game::new(rules, vec![1, 1, 1, 1], Stats::new()).saved()] {
        let verdict = saved.round.solvable();
        let judged = |mut s: crate::game::Saved| {
            s.round.set_verdict(verdict);
            serde_json::to_string(&s).unwrap()
        };
        let native = serde_json::to_string(&saved).unwrap();
        let read = codec::from_text::<crate::game::Saved>(&native).expect("read");
        assert_eq!(judged(read), native);
        let browser = codec::to_text(&saved).unwrap();
        assert_eq!(judged(serde_json::from_str::<crate::game::Saved>(&browser).unwrap()), native);
    }
    same_both_ways(&DailyLog {
        days: vec![(20_400, 1), (20_401, -2)],
        seen: vec![1, 4_000_000_000],
        dealt_days: vec![20_401],
    });
    same_both_ways(&true);
    same_both_ways(&None::<String>);
    // What a room server sends reads the same too (an empty list included).
    same_both_ways(&score_room::protocol::ServerMsg::JoinAt { addresses: vec![] });
    same_both_ways(&score_room::protocol::ServerMsg::JoinAt { addresses: vec!["192.168.1.20:8080".into()] });
    // Protocol 12's shapes: a refusal with no fields is its name, an event within an event,
    // and a result's why still tagged by "type" (the server keeps it so).
    use score_room::protocol::{ErrorCode, Outcome, Refusal, RoomEvent, SeatScore, ServerMsg, Why};
    same_both_ways(&ServerMsg::Error { code: ErrorCode::NotHost, why: Some(Refusal::NotHost) });
    same_both_ways(&ServerMsg::Error {
        code: ErrorCode::SlowDown,
        why: Some(Refusal::SlowDown { what: score_room::protocol::Flood::Chat }),
    });
    same_both_ways(&ServerMsg::Event { seq: 3, now: 5, event: RoomEvent::ChatCleared });
    same_both_ways(&ServerMsg::Own {
        now: 5,
        event: RoomEvent::HomeworkPlay {
            event: Box::new(RoomEvent::Results {
                outcomes: vec![Outcome {
                    seat: 0,
                    name: "Ana".into(),
                    points: -2,
                    why: Why::HadSolution { solution: "2‖(12 − 12)".into() },
                }],
                scores: vec![SeatScore { seat: 0, score: -2 }],
                clock: None,
            }),
        },
    });
    // The early shape, as a server older than the page refuses it.
    let early = r#"{"type":"Error","code":"SlowDown","why":{"type":"SlowDown","what":"Connections"},"message":"…"}"#;
    assert_eq!(codec::from_text::<ServerMsg>(early), None);
    assert_eq!(
        codec::from_text::<score_room::protocol::EarlyError>(early).map(score_room::protocol::EarlyError::read),
        Some(ServerMsg::Error {
            code: ErrorCode::SlowDown,
            why: Some(Refusal::SlowDown { what: score_room::protocol::Flood::Connections })
        })
    );

    let v1 = r#"{"version":1,"score":-2,"streak":0,"best_streak":4,"history":[]}"#;
    assert_eq!(crate::storage::decode_stats(v1).map(|s| (s.version, s.score)), Some((Stats::VERSION, -2)));
    for bad in ["{not json", r#"{"hello":"world"}"#, r#"{"version":"2"}"#, "", "null"] {
        assert_eq!(codec::from_text::<Stats>(bad), None, "{bad}");
    }
    assert_eq!(codec::from_text::<Rules>(r#"{"dice":[6,6.5],"goal":20}"#), None);
}

#[wasm_bindgen_test]
fn worker_messages_cross_whole() {
    let requests = [
        Request {
            id: 7,
            job: Job::Worksheet {
                rules: Rules::preset(Preset::Score),
                count: 50,
                level: Some(5),
                seed: u64::MAX - 1,
                avoid: vec![2, 5, 12, 12],
            },
        },
        Request {
            id: 8,
            job: Job::Solutions {
                numbers: vec![97, 89, 83, 79, 73, 71],
                goal: 9999,
                rules: Rules::preset(Preset::Score),
                limit: 300,
            },
        },
    ];
    for request in requests {
        let message = codec::to_message(&request).unwrap();
        assert_eq!(codec::from_message::<Request>(message), Ok(request));
    }
    let replies = [
        Reply::Ready("0903e0e57fc98621".into()),
        Reply::Progress { id: 1, done: 12_000, total: 42_504 },
        Reply::Done {
            id: 2,
            outcome: Outcome::Impossibles(Ok(Table {
                rolls: 1_820,
                impossible: vec!["1 1 1 4".into()],
                probability: 1.0 / 3.0,
            })),
        },
        Reply::Done { id: 3, outcome: Outcome::Impossibles(Err(75_582)) },
        Reply::Done { id: 3, outcome: Outcome::Worksheet(Err(score_engine::practice::WorksheetError::NoneFound(5))) },
        Reply::Done {
            id: 4,
            outcome: Outcome::Roll {
                solutions: vec![Listed {
                    expr: "2‖(12 − 12)".into(),
                    steps: vec!["12 − 12 = 0".into(), "2 ‖ 0 = 20".into()],
                }],
                difficulty: Some(4),
                seconds: Some(8.25),
            },
        },
        Reply::Unreadable("?".into()),
    ];
    for reply in replies {
        let message = codec::to_message(&reply).unwrap();
        assert_eq!(codec::from_message::<Reply>(message), Ok(reply));
    }
    assert!(codec::from_message::<Request>(wasm_bindgen::JsValue::from_str("{}")).is_err());
}

// Pins a bug: an old tab after an update met a tools module of the new build, which couldn't
// read its table; "Try again" met the same module again, forever. The module now says so
// (`score-tools:stale`), and the view offers a reload instead.
#[wasm_bindgen_test]
async fn a_tools_module_of_another_build_offers_a_reload_not_try_again() {
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    button(&root, "Experiment").click();
    settle().await;
    let event = web_sys::Event::new(&crate::modules::TOOLS.event(crate::modules::STALE)).unwrap();
    web_sys::window().unwrap().dispatch_event(&event).unwrap();
    settle().await;
    let status = one(&root, ".tools-loading [role='status']").text_content().unwrap_or_default();
    assert_eq!(status.trim(), "A new version of Score is ready.");
    assert!(button(&root, "Reload").is_connected());
    assert!(all(&root, ".tools-loading button").iter().all(|b| b.text_content().as_deref() != Some("Try again")));
}

// Pins a bug: a tab frozen in the background missed the other tab's write (its storage events
// came late), then wrote its own, older game over it: the other tab's points were lost. A
// tab writes only over the save count it last read; here it takes the other tab's game.
#[wasm_bindgen_test]
async fn a_tab_that_missed_another_tabs_write_takes_it_instead_of_writing_over_it() {
    use crate::storage;
    let root = fresh_root();
    let _app = leptos::mount::mount_to(root.clone(), App);
    settle().await;
    // The other tab earned 7 points and saved; no storage event reached this tab.
    let earned = Stats { score: 7, ..Stats::new() };
    storage::save_text(storage::STATS_KEY, &codec::to_text(&earned).unwrap()).unwrap();
    storage::bump_rev();
    // This tab, waking, makes a move of its own (which saves).
    all(&root, ".pool button")[0].click();
    settle().await;
    TimeoutFuture::new(100).await;
    let kept = storage::text(storage::STATS_KEY).and_then(|t| storage::decode_stats(&t)).map(|s| s.score);
    assert_eq!(kept, Some(7), "the other tab's points are still stored");
    assert_eq!(one(&root, "[data-testid='score']").text_content().as_deref(), Some("7"));
}
