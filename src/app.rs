//! The app shell: loads saved state, provides the game in context, runs the
//! clock, saves after every change, and lays out the views.

use leptos::prelude::*;
use score_engine::{Rules, Stats};

use crate::components::{
    ClaimBar, DailyPanel, ExperimentPanel, HelpCard, ImpossiblesPanel, PlayersPanel, RoomHost, RulesPanel, ScorePanel,
    SettingsPanel, SolutionsPanel, TableView, WorksheetPanel,
};
use crate::game::{Game, Saved, Slot};
use crate::hooks::use_clock::{now_ms, use_clock};
use crate::hooks::use_drag::{use_drag, DragState, Payload};
use crate::storage;

/// Everything the components share.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// The table.
    pub game: RwSignal<Game>,
    /// The wall clock, ms (refreshed for countdowns).
    pub now: RwSignal<u64>,
    /// Drag state for the table.
    pub drag: DragState,
    /// Notices about storage and loading, shown at the top.
    pub notices: RwSignal<Vec<String>>,
    /// What the live region says.
    pub announce: RwSignal<String>,
    /// The practice level chosen for new rolls (0: any roll).
    pub level: RwSignal<u8>,
    /// Whether "Share or play a roll" is open.
    pub share_open: RwSignal<bool>,
    /// Whether the "How to play" card is shown.
    pub help_open: RwSignal<bool>,
}

/// The next roll: of the chosen practice level, if one is chosen and such a roll exists.
pub fn next_roll(ctx: Ctx) {
    let level = ctx.level.get_untracked();
    ctx.game.update(|g| {
        let rules = g.rules.clone();
        let picked = match level {
            0 => None,
            l => score_engine::practice::roll_of_difficulty(&rules, l, random_u32),
        };
        let chosen = picked.is_some().then_some(level);
        let roll = picked.unwrap_or_else(|| roll_dice(&rules));
        g.new_roll(rules, roll, now_ms());
        g.level = chosen;
    });
}

/// Whether a key press belongs to a text field or a list (so it is not a game key).
fn typing(ev: &leptos::ev::KeyboardEvent) -> bool {
    let tag = ev
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .map(|e| e.tag_name())
        .unwrap_or_default();
    matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") || ev.ctrl_key() || ev.meta_key() || ev.alt_key()
}

/// Focuses the first element matching `selector`, once the page has drawn.
pub fn focus_soon(selector: &'static str) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(selector).ok().flatten() {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
        }
    });
}

/// Uses the context provided by [`App`].
pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// 32 random bits from the browser's cryptographic randomness.
pub fn random_u32() -> u32 {
    getrandom::u32().unwrap_or_else(|_| (js_sys::Math::random() * 4_294_967_296.0) as u32)
}

/// Rolls `rules.dice` with the browser's cryptographic randomness.
pub fn roll_dice(rules: &Rules) -> Vec<i64> {
    score_engine::roll::roll(&rules.dice, random_u32)
}

/// The saved game (or a new one), and whether it came from a shared link.
fn load_game(notices: &mut Vec<String>) -> (Game, bool) {
    let (rules, n1) = storage::load::<Rules>(storage::RULES_KEY, "settings");
    let (stats, n2) = storage::load_stats();
    let (saved, n3) = storage::load::<Saved>(storage::GAME_KEY, "game");
    let (daily_log, n4) = storage::load::<crate::game::DailyLog>(storage::DAILY_KEY, "daily results");
    for n in [n1, n2, n3, n4].into_iter().flatten() {
        if !notices.contains(&n) {
            notices.push(n);
        }
    }
    let rules = match rules {
        Some(r) if r.validate().is_err() => {
            notices.push("Your saved settings were out of range, so Score went back to the standard rules.".into());
            Rules::default()
        }
        r => r.unwrap_or_default(),
    };
    let stats = stats.unwrap_or_else(Stats::new);
    let mut game = restore_or_roll(rules, stats, saved);
    game.daily_log = daily_log.unwrap_or_default();
    // A shared link plays exactly its roll; a bad one says why and changes nothing.
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    match crate::forms::link(&query) {
        Ok(Some((rules, roll))) => {
            game.new_roll(rules, roll, now_ms());
            clear_query();
            (game, true)
        }
        Ok(None) => (game, false),
        Err(e) => {
            notices.push(format!("This link's roll can't be played: {e} Here is a normal game instead."));
            clear_query();
            (game, true)
        }
    }
}

/// Removes the shared roll from the address bar, so a reload keeps the game as played.
fn clear_query() {
    if let Some(w) = web_sys::window() {
        let path = w.location().pathname().unwrap_or_default();
        if let Ok(history) = w.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
        }
    }
}

fn restore_or_roll(rules: Rules, stats: Stats, saved: Option<Saved>) -> Game {
    // A saved roll is stored in die order: each face must fit its own die.
    let fits = |s: &Saved| {
        s.roll.len() == rules.dice.len() && s.roll.iter().zip(&rules.dice).all(|(f, &d)| (1..=d as i64).contains(f))
    };
    match saved {
        Some(s) if fits(&s) => Game::restore(rules, s, stats, now_ms()),
        _ => {
            let roll = roll_dice(&rules);
            Game::new(rules, roll, stats)
        }
    }
}

/// Which view is shown beside the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Solutions,
    Players,
    Room,
    Daily,
    Experiment,
    Impossibles,
    Worksheet,
    Settings,
    Rules,
}

impl View {
    const ALL: [View; 9] = [
        View::Solutions,
        View::Players,
        View::Room,
        View::Daily,
        View::Experiment,
        View::Impossibles,
        View::Worksheet,
        View::Settings,
        View::Rules,
    ];

    fn label(self) -> &'static str {
        match self {
            View::Solutions => "Solutions",
            View::Players => "Players",
            View::Room => "Class room",
            View::Daily => "Daily puzzle",
            View::Experiment => "Experiment",
            View::Impossibles => "Impossible rolls",
            View::Worksheet => "Worksheet",
            View::Settings => "Settings",
            View::Rules => "Rules",
        }
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let mut first_notices = Vec::new();
    let (loaded, from_link) = load_game(&mut first_notices);
    let game = RwSignal::new(loaded);
    let (help_seen, _) = storage::load::<bool>(storage::HELP_KEY, "help setting");
    let notices = RwSignal::new(first_notices);
    let now = RwSignal::new(now_ms());
    let drag = use_drag(move |payload, slot| {
        let t = now_ms();
        game.update(|g| match (payload, slot) {
            (Payload::Tile(id), Slot::Left | Slot::Right) => g.place_tile(slot, id, t),
            (Payload::Op(op), Slot::Op) => g.place_op(op, t),
            _ => {}
        });
    });
    let announce = RwSignal::new(String::new());
    let ctx = Ctx {
        game,
        now,
        drag,
        notices,
        announce,
        level: RwSignal::new(0),
        share_open: RwSignal::new(from_link),
        help_open: RwSignal::new(help_seen != Some(true)),
    };
    provide_context(ctx);
    provide_context(crate::components::impossibles_panel::Listing::new());
    // N: the next roll, whenever no clock runs.
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if (ev.key() == "n" || ev.key() == "N") && !typing(&ev) && !game.with_untracked(|g| g.round.is_running()) {
            ev.prevent_default();
            next_roll(ctx);
            focus_soon(".claim.score:not(:disabled)");
        }
    });
    Effect::new(move |_| announce.set(game.with(|g| g.announcement.clone())));
    // The clock is announced at 10 and 5 seconds left.
    let seconds_left = Memo::new(move |_| game.with(|g| g.round.remaining_ms(now.get()).map(|ms| ms.div_ceil(1000))));
    Effect::new(move |_| {
        if let Some(s @ (10 | 5)) = seconds_left.get() {
            announce.set(format!("{s} seconds left."));
        }
    });

    use_clock(now, move |t| {
        let due = game.with_untracked(|g| g.round.deadline().is_some_and(|d| t >= d));
        if due {
            game.update(|g| g.tick(t));
        }
    });

    // Sync with the outside world: save after every change.
    Effect::new(move |_| {
        let result = game.with(|g| {
            storage::save(storage::STATS_KEY, &g.stats)
                .and_then(|_| storage::save(storage::RULES_KEY, &g.rules))
                .and_then(|_| storage::save(storage::GAME_KEY, &g.saved()))
                .and_then(|_| storage::save(storage::DAILY_KEY, &g.daily_log))
        });
        if let Err(msg) = result {
            notices.update(|n| {
                if !n.contains(&msg) {
                    n.push(msg);
                }
            });
        }
    });

    // A class-room link opens the Class room view with its code filled in.
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let invited = crate::forms::room_code(&query);
    if invited.is_some() {
        clear_query();
    }
    provide_context(crate::components::RoomInvite(invited.clone()));
    let view = RwSignal::new(if invited.is_some() { View::Room } else { View::Solutions });
    view! {
        <div class="sr-only" aria-live="polite" data-testid="announcer">{move || announce.get()}</div>
        <header class="top">
            <h1>"Score"</h1>
            <p class="tagline">
                "Make " <strong>{move || game.with(|g| g.rules.goal)}</strong> " from the dice."
            </p>
        </header>
        <div class="notices" role="status">
            <For each=move || notices.get() key=|n| n.clone() let:n>
                <p class="notice">{n}</p>
            </For>
        </div>
        <main class="layout" class:match=move || game.with(|g| g.group.is_some())>
            <section class="play" aria-label="Table">
                <ClaimBar/>
                <TableView/>
            </section>
            <aside class="side">
                <HelpCard/>
                <ScorePanel/>
            </aside>
            <section class="views" aria-label="More">
                <nav class="tabs" aria-label="Views">
                    {View::ALL
                        .into_iter()
                        .map(|v| {
                            view! {
                                <button
                                    class="tab"
                                    aria-pressed=move || (view.get() == v).to_string()
                                    on:click=move |_| view.set(v)
                                >
                                    {v.label()}
                                </button>
                            }
                        })
                        .collect_view()}
                </nav>
                {move || match view.get() {
                    View::Solutions => view! { <SolutionsPanel/> }.into_any(),
                    View::Players => view! { <PlayersPanel/> }.into_any(),
                    View::Room => view! { <RoomHost/> }.into_any(),
                    View::Daily => view! { <DailyPanel/> }.into_any(),
                    View::Worksheet => view! { <WorksheetPanel/> }.into_any(),
                    View::Experiment => view! { <ExperimentPanel/> }.into_any(),
                    View::Impossibles => view! { <ImpossiblesPanel/> }.into_any(),
                    View::Settings => view! { <SettingsPanel/> }.into_any(),
                    View::Rules => view! { <RulesPanel/> }.into_any(),
                }}
            </section>
        </main>
    }
}
