//! DOM tests in headless Chromium: `cargo test -p score-app --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use score_app::app::App;
use score_app::components::SolutionList;
use score_engine::solve::{solutions, Puzzle};
use score_engine::{Preset, Rules};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn fresh_root() -> HtmlElement {
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
    let list = score_app::work::listed(&solutions(&Puzzle::from_roll(&[3, 3, 8, 8], &rules)));
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
    use score_app::components::{RoomHost, RoomInvite};
    // This test page serves no room module: its script fails to load, as it would offline.
    let head: HtmlElement = document().head().unwrap().unchecked_into();
    let scripts = || all(&head, "script[src='room-boot.js']").len();
    let loading = |root: &HtmlElement| one(root, ".room-loading [role='status']").text_content().unwrap_or_default();
    let before = scripts();
    let root = fresh_root();
    let host = leptos::mount::mount_to(root.clone(), || {
        provide_context(RoomInvite(Some("XGBE7K".into())));
        view! { <RoomHost/> }
    });
    settle().await;
    // The invited code is handed to the module, whose script was asked for once.
    assert_eq!(one(&root, "#room-root").get_attribute("data-invite").as_deref(), Some("XGBE7K"));
    assert_eq!(scripts(), before + 1);
    let failed = |root: HtmlElement| async move {
        for _ in 0..100 {
            if loading(&root).starts_with("The class room couldn't load.") {
                return true;
            }
            TimeoutFuture::new(20).await;
        }
        false
    };
    assert!(failed(root.clone()).await, "{}", loading(&root));
    // Try again asks again.
    button(&root, "Try again").click();
    settle().await;
    assert_eq!(scripts(), before + 2);
    assert!(failed(root.clone()).await, "{}", loading(&root));
    drop(host);
    // So does opening the view again.
    let root = fresh_root();
    let _host = leptos::mount::mount_to(root.clone(), RoomHost);
    settle().await;
    assert_eq!(scripts(), before + 3);
    assert_eq!(one(&root, "#room-root").get_attribute("data-invite"), None);
}

#[wasm_bindgen_test]
fn player_names_compare_in_the_browsers_lower_case() {
    use score_app::forms::player_names;
    assert!(player_names("Émile\nÉMILE").unwrap_err().contains("twice"));
    assert!(player_names("ΟΔΥΣΣΕΥΣ\nοδυσσευς").unwrap_err().contains("twice"));
    assert_eq!(player_names("Ana\nÅna").map(|n| n.len()), Ok(2));
}
