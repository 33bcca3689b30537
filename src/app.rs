//! The app shell: loads saved state, provides the game in context, runs the
//! clock, saves after every change, and lays out the views.

use leptos::prelude::*;
use score_engine::{Rules, Stats};
use score_i18n::{Catalog, Key};

use crate::codec;
use crate::components::{
    DailyPanel, HelpCard, PlayersPanel, RoomHost, ScorePanel, SettingsPanel, SoloTable, SolutionsPanel, ToolsHost,
};
use crate::ctx::{focus_soon, next_roll, roll_dice, Ctx};
use crate::forms::RoomLink;
use crate::game::{Game, Saved};
use crate::hooks::use_clock::{now_ms, use_clock};
use crate::say::{Notice, Stored};
use crate::storage;

/// Whether a key press belongs to a text field or a list (so it is not a game key).
pub fn typing(ev: &leptos::ev::KeyboardEvent) -> bool {
    let tag = ev
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .map(|e| e.tag_name())
        .unwrap_or_default();
    matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") || ev.ctrl_key() || ev.meta_key() || ev.alt_key()
}

/// The game as stored (or a new one), its notices added to `notices`.
fn load_stored(notices: &mut Vec<Notice>) -> Game {
    let (rules, n1) = storage::load::<Rules>(storage::RULES_KEY, Stored::Settings);
    let (stats, n2) = storage::load_stats();
    let (saved, n3) = storage::load::<Saved>(storage::GAME_KEY, Stored::Game);
    // The page's time starts where a clock last left it, at least, before the game is
    // restored. A bad mark is no mark. With no clock stored as running, neither is one more
    // than a day ahead of the device (its clock set right after running ahead), so the
    // page's time doesn't stay ahead for good; with one, the mark always holds, so no
    // setting of the device's clock fills that clock again.
    // A mark past the stored clock's deadline counts as the deadline: the clock ran out.
    let deadline = saved.as_ref().and_then(|s| s.round.deadline());
    let mark = storage::text(storage::TIME_KEY).and_then(|t| t.parse::<u64>().ok());
    let mark = match deadline {
        Some(d) => mark.map(|m| m.min(d)),
        None => mark.filter(|&m| (m as f64) <= js_sys::Date::now() + 86_400_000.0),
    };
    if let Some(mark) = mark {
        crate::hooks::use_clock::not_before(mark);
    }
    let (daily_log, n4) = storage::load::<crate::game::DailyLog>(storage::DAILY_KEY, Stored::Daily);
    for n in [n1, n2, n3, n4].into_iter().flatten() {
        if !notices.contains(&n) {
            notices.push(n);
        }
    }
    let rules = match rules {
        Some(r) if r.validate().is_err() => {
            notices.push(Notice::RulesOutOfRange);
            Rules::default()
        }
        r => r.unwrap_or_default(),
    };
    let stats = stats.unwrap_or_else(Stats::new);
    // The day's log comes first: a daily claim that settles as the game is restored is
    // recorded for its day.
    restore_or_roll(rules, stats, saved, daily_log.unwrap_or_default())
}

/// What a save writes of `g`, key by key: stats, rules, the game, the daily log.
fn stored_texts(g: &Game) -> [(&'static str, Result<String, String>); 4] {
    [
        (storage::STATS_KEY, codec::to_text(&g.stats)),
        (storage::RULES_KEY, codec::to_text(&g.rules)),
        (storage::GAME_KEY, codec::to_text(&g.saved())),
        (storage::DAILY_KEY, codec::to_text(&g.daily_log)),
    ]
}

/// The saved game (or a new one), and whether it came from a shared link.
fn load_game(notices: &mut Vec<Notice>) -> (Game, bool) {
    let mut game = load_stored(notices);
    // A shared link plays exactly its roll; a bad one says why and changes nothing. The roll
    // the page shows is noted as seen on this device (a roll a link replaces never was).
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let link = crate::forms::link(&query, &game.rules);
    let running = game.new_roll_costs().is_some();
    if !matches!(link, Ok(Some(_))) || running {
        game.mark_seen();
    }
    match link {
        // A claim runs in the game (perhaps in another tab): a link never ends it unasked.
        Ok(Some(_)) if running => {
            notices.push(Notice::LinkWhileClaim);
            clear_query();
            (game, false)
        }
        Ok(Some((rules, roll))) => {
            game.deal(rules, roll, crate::game::Source::Link, now_ms());
            clear_query();
            (game, true)
        }
        Ok(None) => (game, false),
        Err(e) => {
            notices.push(Notice::BadLink(e));
            clear_query();
            (game, true)
        }
    }
}

/// Removes the shared roll from the address bar, so a reload keeps the game as played.
fn clear_query() {
    set_query("");
}

/// Calls `follow` whenever the address moves (Back, Forward, a new fragment), while the view
/// that asks lives.
pub fn follow_address(follow: impl Fn() + Copy + 'static) {
    let moved = window_event_listener(leptos::ev::popstate, move |_| follow());
    let hashed = window_event_listener(leptos::ev::hashchange, move |_| follow());
    on_cleanup(move || {
        moved.remove();
        hashed.remove();
    });
}

/// Puts `query` (e.g. `?room=ABC234`, or nothing) in the address bar, in place of the old one.
pub fn set_query(query: &str) {
    address(query, false);
}

/// Puts `query` in the address bar as a new entry of the history, so Back returns from it.
fn push_query(query: &str) {
    address(query, true);
}

fn address(query: &str, new_entry: bool) {
    let Some(w) = web_sys::window() else { return };
    let url = format!("{}{query}", w.location().pathname().unwrap_or_default());
    if let Ok(history) = w.history() {
        let _ = if new_entry {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}

/// The page the address asks for.
fn page_of(query: &str, fragment: &str) -> Page {
    crate::forms::room_link(query, fragment).map_or(Page::Solo, Page::Room)
}

/// The page: the solitaire table with its views, or a class room, which takes it all.
#[derive(Debug, Clone, PartialEq)]
enum Page {
    Solo,
    Room(RoomLink),
}

fn restore_or_roll(rules: Rules, stats: Stats, saved: Option<Saved>, daily_log: crate::game::DailyLog) -> Game {
    // A saved roll is stored in die order: each face must fit its own die.
    let fits = |s: &Saved| {
        s.roll.len() == rules.dice.len() && s.roll.iter().zip(&rules.dice).all(|(f, &d)| (1..=d as i64).contains(f))
    };
    match saved {
        Some(s) if fits(&s) => Game::restore(rules, s, stats, daily_log, now_ms()),
        _ => {
            let roll = roll_dice(&rules);
            let mut g = Game::new(rules, roll, stats);
            g.daily_log = daily_log;
            g.dealt_ms = now_ms();
            g
        }
    }
}

/// Which view is shown beside the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Solutions,
    Players,
    Daily,
    Experiment,
    Impossibles,
    Worksheet,
    Settings,
    Rules,
}

impl View {
    const ALL: [View; 8] = [
        View::Solutions,
        View::Players,
        View::Daily,
        View::Experiment,
        View::Impossibles,
        View::Worksheet,
        View::Settings,
        View::Rules,
    ];

    fn label(self) -> Key {
        match self {
            View::Solutions => Key::TabSolutions,
            View::Players => Key::TabPlayers,
            View::Daily => Key::TabDaily,
            View::Experiment => Key::TabExperiment,
            View::Impossibles => Key::TabImpossibles,
            View::Worksheet => Key::TabWorksheet,
            View::Settings => Key::TabSettings,
            View::Rules => Key::TabRules,
        }
    }

    /// The view's name in the tools module (`tools::ROOT_ID`'s `data-view`), if it is one of
    /// its views.
    fn tool(self) -> Option<&'static str> {
        match self {
            View::Experiment => Some("experiment"),
            View::Impossibles => Some("impossibles"),
            View::Worksheet => Some("worksheet"),
            View::Rules => Some("rules"),
            View::Solutions | View::Players | View::Daily | View::Settings => None,
        }
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    // Read before a shared roll's link is cleared from the address, `?lang=` with it.
    let lang = crate::lang::starting();
    let mut first_notices = Vec::new();
    let (loaded, from_link) = load_game(&mut first_notices);
    // Stats a newer build wrote are kept as they are: this page writes nothing until reloaded.
    let storage_frozen = first_notices.contains(&Notice::NewerData);
    let game = RwSignal::new(loaded);
    let (help_seen, _) = storage::load::<bool>(storage::HELP_KEY, Stored::Help);
    let notices = RwSignal::new(first_notices);
    let now = RwSignal::new(now_ms());
    let announce = RwSignal::new(String::new());
    let ctx = Ctx {
        game,
        now,
        notices,
        announce,
        level: RwSignal::new(0),
        share_open: RwSignal::new(from_link),
        help_open: RwSignal::new(help_seen != Some(true)),
        words: RwSignal::new(Catalog::english().with_ops(crate::lang::kept_ops())),
    };
    provide_context(ctx);
    provide_context(ctx.say());
    // The page's title follows its language.
    Effect::new(move |_| document().set_title(&ctx.t(Key::PageTitle, &[])));
    // The page's language: English at once (compiled in), another as soon as it is fetched.
    // Until then the announcer holds what it would say (a screen reader hears nothing in a
    // language other than the page's), and says it once the words are in.
    // The room module asks for the room's language, or a student's pick, through the page.
    let speaking = RwSignal::new(lang == score_i18n::Lang::En);
    crate::lang::serve_page(
        ctx.words,
        lang,
        move |lang| ctx.notice(Notice::LanguageUnavailable(lang)),
        move || speaking.set(true),
    );
    // A class-room link (`?room=CODE`, a host's `#host=TOKEN`) opens the room, which takes
    // the page; the address keeps the room (never the host token), so a reload comes back.
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let fragment = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let page = RwSignal::new(page_of(&query, &fragment));
    if let Page::Room(link) = page.get_untracked() {
        set_query(&link.query());
    }
    // The room says when it is left: back to solitaire, its game as it was.
    let left = window_event_listener_untyped("score-room:left", move |_| {
        set_query("");
        page.set(Page::Solo);
        crate::offline::ready();
    });
    // Back (and Forward) between solitaire and the room: the room's seat is kept, not given up.
    // A host link pasted into a tab already on its room changes only the fragment: the page
    // starts again on it, so the room opens as its host (and the token leaves the address).
    let follow = move || {
        let Some(location) = web_sys::window().map(|w| w.location()) else { return };
        let query = location.search().unwrap_or_default();
        let fragment = location.hash().unwrap_or_default();
        match page_of(&query, &fragment) {
            Page::Room(RoomLink { host: Some(_), .. }) => {
                let _ = location.reload();
            }
            to if page.with_untracked(|p| *p != to) => page.set(to),
            _ => {}
        }
    };
    follow_address(follow);
    on_cleanup(move || left.remove());
    let open_room = move |_| {
        let link = RoomLink::default();
        push_query(&link.query());
        page.set(Page::Room(link));
    };
    // N: the next roll, whenever no clock runs (in solitaire: a room has its own keys).
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let solo = page.with_untracked(|p| *p == Page::Solo);
        if solo
            && (ev.key() == "n" || ev.key() == "N")
            && !typing(&ev)
            && !game.with_untracked(|g| g.round.is_running())
        {
            ev.prevent_default();
            next_roll(ctx);
            focus_soon(".pool button");
        }
    });
    on_cleanup(move || keys.remove());
    // What the game says, worded in the page's language (not again when only the language changes).
    Effect::new(move |_| {
        if speaking.get() {
            announce.set(game.with(|g| ctx.words.with_untracked(|w| g.announcement_in(w))));
        }
    });
    // The clock is announced at 10 and 5 seconds left.
    let seconds_left = Memo::new(move |_| game.with(|g| g.round.remaining_ms(now.get()).map(|ms| ms.div_ceil(1000))));
    Effect::new(move |_| {
        if let Some(s @ (10 | 5)) = seconds_left.get() {
            announce.set(ctx.count(Key::HeardSecondsLeft, s, &[]));
        }
    });

    // While a clock runs, the page's time is kept each second: a page opened later starts
    // from it at least, whatever the device's clock says (RULES §4).
    let marked = StoredValue::new(0u64);
    let mark = move |t: u64| {
        marked.set_value(t);
        let _ = storage::save_text(storage::TIME_KEY, &t.to_string());
    };
    use_clock(now, move |t| {
        let (due, running) =
            game.with_untracked(|g| (g.round.deadline().is_some_and(|d| t >= d), g.round.is_running()));
        if due {
            game.update(|g| g.tick(t));
        }
        if running && t >= marked.get_value() + 1_000 {
            mark(t);
        }
    });
    let hidden = window_event_listener(leptos::ev::pagehide, move |_| {
        if game.with_untracked(|g| g.round.is_running()) {
            mark(now_ms());
        }
    });
    on_cleanup(move || hidden.remove());

    // Another tab of this game wrote: this one takes what it wrote (the whole game, as a
    // reload would), so it never writes back from a stale copy and loses what the other
    // tab earned, and it says so once. A save writes four keys: their events are taken as
    // one, a moment later. What this page can't read (another tab on a newer build) is
    // never taken, nor written over: this tab stops saving and asks to be reloaded.
    // Every save bumps a count in storage (`storage::REV_KEY`); a tab writes only over the
    // count it last read or wrote (compare and swap), so a tab that woke with a stale copy
    // (a frozen background tab settling an old clock) takes the other tab's game instead of
    // writing over what that tab earned.
    let adopting = StoredValue::new(false);
    let frozen = StoredValue::new(storage_frozen);
    let known_rev = StoredValue::new(storage::rev());
    let pending = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    let follow = move || {
        pending.set_value(None);
        if frozen.get_value() {
            return;
        }
        let readable = storage::readable::<Saved>(storage::GAME_KEY)
            && storage::readable::<Rules>(storage::RULES_KEY)
            && storage::readable::<crate::game::DailyLog>(storage::DAILY_KEY)
            && storage::text(storage::STATS_KEY).is_none_or(|t| storage::decode_stats(&t).is_some());
        if !readable {
            frozen.set_value(true);
            ctx.notice(Notice::NewerTab);
            return;
        }
        known_rev.set_value(storage::rev());
        // In step already (this tab's own write, or nothing new): nothing to take.
        let [stats, _, ours, _] = game.with_untracked(stored_texts);
        let same = |(key, text): (&str, Result<String, String>)| text.ok() == storage::text(key);
        if same(ours) && same(stats) {
            return;
        }
        let mut ignored = Vec::new();
        let fresh = load_stored(&mut ignored);
        adopting.set_value(true);
        game.update(|g| g.adopt(fresh));
        ctx.notice(Notice::OtherTab);
    };
    let soon = move || {
        pending.set_value(Some(gloo_timers::callback::Timeout::new(50, follow)));
    };
    let other_tab = window_event_listener_untyped("storage", move |ev| {
        let Ok(ev) = wasm_bindgen::JsCast::dyn_into::<web_sys::StorageEvent>(ev) else { return };
        let key = ev.key().unwrap_or_default();
        if [storage::STATS_KEY, storage::GAME_KEY, storage::DAILY_KEY, storage::RULES_KEY].contains(&key.as_str()) {
            soon();
        }
    });
    // A page back from the back/forward cache, or a tab shown again, may have missed events:
    // it takes what was written meanwhile at once, before its clock ticks.
    let shown = window_event_listener_untyped("pageshow", move |_| follow());
    let visible = window_event_listener_untyped("visibilitychange", move |_| {
        if document().visibility_state() == web_sys::VisibilityState::Visible {
            follow();
        }
    });
    on_cleanup(move || {
        other_tab.remove();
        shown.remove();
        visible.remove();
    });

    // Sync with the outside world: save after every change (but not a change taken from
    // another tab, which is stored already).
    Effect::new(move |_| {
        game.track();
        if adopting.get_value() {
            adopting.set_value(false);
            return;
        }
        if frozen.get_value() {
            return;
        }
        // Another tab wrote since this one last read: take its game, write nothing. (A count
        // below this tab's is storage cleared meanwhile: this tab writes its game back.)
        if storage::rev() > known_rev.get_value() {
            follow();
            return;
        }
        let texts = game.with(stored_texts);
        // Nothing new (a page just opened on what is stored): no write, no count, so another
        // tab's next move isn't taken for a stale one.
        if texts.iter().all(|(key, text)| text.as_ref().ok() == storage::text(key).as_ref()) {
            return;
        }
        known_rev.set_value(storage::bump_rev());
        let result = texts.into_iter().try_for_each(|(key, text)| {
            let text = text.map_err(Notice::Text)?;
            storage::save_text(key, &text)
        });
        if let Err(notice) = result {
            ctx.notice(notice);
        }
    });

    let view = RwSignal::new(View::Solutions);
    // Storage and loading notices, on either page.
    let notice_list = move || {
        view! {
            <div class="notices" role="status">
                // Notices are only ever added: keyed by place, one already read is not read again.
                <For each=move || notices.get().into_iter().enumerate() key=|(i, _)| crate::components::list_key(i) let:((_, n))>
                    <p class="notice">{move || ctx.words.with(|w| crate::say::notice(&n, w))}</p>
                </For>
            </div>
        }
    };
    // The page starts in three tasks, not one long one that would hold its first answer to a
    // tap back: this one reads what is stored and keeps what changed (a roll dealt now is
    // saved before it is shown); the next draws the table; the one after, the table's folded
    // parts, the side (the help card, the score) and the views below. (Then they stay drawn.)
    // Once all is drawn, the page says so: a first visit's service worker waits for it.
    // The table waits for the page's first language: English is here at once; another is
    // drawn when its words come (a page in Arabic is not drawn left to right in English
    // first, then turned), or in English after a second without them, turned when they come.
    let stage = RwSignal::new(0u8);
    let draw = move || {
        if stage.try_get_untracked() != Some(0) {
            return;
        }
        stage.set(1);
        gloo_timers::callback::Timeout::new(0, move || {
            stage.try_set(2);
            crate::offline::drawn();
        })
        .forget();
    };
    if speaking.get_untracked() {
        gloo_timers::callback::Timeout::new(0, draw).forget();
    } else {
        Effect::new(move |_| {
            if speaking.get() {
                gloo_timers::callback::Timeout::new(0, draw).forget();
            }
        });
        gloo_timers::callback::Timeout::new(1000, draw).forget();
    }
    let drawn = Memo::new(move |_| stage.get() > 0);
    let drawn_all = Memo::new(move |_| stage.get() > 1);
    let solo = move || {
        view! {
        <header class="top">
            <h1>"Score"</h1>
            <p class="tagline">
                {move || {
                    let goal = game.with(|g| crate::game::number(g.rules.goal));
                    let (before, after) = ctx.words.with(|w| w.around(Key::Tagline, "goal", &[]));
                    view! { {before} <strong>{goal}</strong> {after} }
                }}
            </p>
        </header>
        {notice_list()}
        <main class="layout" class:match=move || game.with(|g| g.group.is_some())>
            <section class="play" aria-label=ctx.tr(Key::RegionTable)>
                <SoloTable whole=drawn_all/>
            </section>
            // (Whole, not their contents: an empty box drawn first would be pushed down.)
            <Show when=move || drawn_all.get()>
                <aside class="side">
                    <HelpCard/>
                    <ScorePanel/>
                </aside>
                <section class="views" aria-label=ctx.tr(Key::RegionMore)>
                    <nav class="tabs" aria-label=ctx.tr(Key::RegionViews)>
                        {View::ALL
                            .into_iter()
                            .map(|v| {
                                view! {
                                    <button
                                        class="tab"
                                        aria-pressed=move || (view.get() == v).to_string()
                                        on:click=move |_| view.set(v)
                                    >
                                        {move || ctx.t(v.label(), &[])}
                                    </button>
                                }
                            })
                            .collect_view()}
                        <button class="tab" on:click=open_room>{ctx.tr(Key::TabRoom)}</button>
                    </nav>
                    {move || match view.get() {
                        View::Solutions => view! { <SolutionsPanel/> }.into_any(),
                        View::Players => view! { <PlayersPanel/> }.into_any(),
                        View::Daily => view! { <DailyPanel/> }.into_any(),
                        View::Settings => view! { <SettingsPanel/> }.into_any(),
                        tool => view! { <ToolsHost view=tool.tool().unwrap_or_default() title=tool.label()/> }.into_any(),
                    }}
                </section>
            </Show>
        </main>
        }
    };
    view! {
        // Solitaire's live region: silent while a room has the page (the room has its own).
        <div class="sr-only" aria-live="polite" data-testid="announcer">
            {move || matches!(page.get(), Page::Solo).then(|| announce.get())}
        </div>
        {move || match drawn.get().then(|| page.get()) {
            None => ().into_any(),
            Some(Page::Solo) => solo().into_any(),
            Some(Page::Room(link)) => view! {
                {notice_list()}
                <RoomHost link/>
            }.into_any(),
        }}
    }
}
