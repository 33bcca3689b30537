//! The local table (solitaire and pass-and-play): the shared claim bar and table, answered
//! by the local game, with what only a local game has: hints, new rolls at a practice level,
//! and links to a roll.

use leptos::prelude::*;
use score_i18n::Key;

use crate::components::{ClaimBar, DifficultySelect, PlayRollForm, TableView};
use crate::ctx::{next_roll, use_ctx, LocalTable};
use crate::game::{Game, Practice};
use crate::hooks::use_clock::now_ms;
use crate::table::Table;

/// The play area of the solitaire page.
#[component]
pub fn SoloTable(
    /// Whether the whole table is drawn, its folded parts too (sharing a roll, playing a
    /// typed one): not in the task that draws the table, what a player sees first, but in
    /// the next (src/app.rs: the page's start).
    #[prop(into)]
    whole: Signal<bool>,
) -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    Table::provide(LocalTable(ctx), ctx.now.into(), ctx.words.into());
    // Practice: "New roll" can pick rolls of one difficulty; the tag shows the level chosen
    // (the player asked for it), never anything the solver says about this roll.
    let level = ctx.level;
    // Under a clock a new roll costs points: it asks first, saying what it costs.
    let confirming = RwSignal::new(false);
    // A second tap asks again (a double tap never deals): only "New roll anyway" does.
    // The question takes focus (on its safe answer), and gives it back to New roll when the
    // player keeps playing.
    let new_roll = move |_| match game.with_untracked(Game::new_roll_costs) {
        Some(_) => {
            confirming.set(true);
            crate::ctx::focus_soon(".confirm-new-roll .primary");
        }
        None => next_roll(ctx),
    };
    let anyway = move |_| {
        confirming.set(false);
        next_roll(ctx);
        crate::ctx::focus_soon(".pool button");
    };
    let keep = move |_| {
        confirming.set(false);
        crate::ctx::focus_soon(".new-roll");
    };
    // What it costs, as it stands now (a SCORE pressed meanwhile costs more).
    let cost = move || {
        let cost = confirming.get().then(|| game.with(Game::new_roll_costs)).flatten()?;
        Some(ctx.words.with(|w| crate::say::cost(&cost, w)))
    };
    // The question goes when the clock does (settled, or another roll).
    Effect::new(move |_| {
        if game.with(|g| !g.round.is_running()) {
            confirming.set(false);
        }
    });
    let running = move || game.with(|g| g.round.is_running());
    let practice_already = move || game.with(|g| g.solutions_shown);
    let difficulty_text = move || {
        game.with(|g| g.level).map(|l| match l {
            crate::game::AT_MY_LEVEL => ctx.t(Key::AtMyLevelTag, &[]),
            l => ctx.t(Key::DifficultyOf, &[("level", &l.to_string())]),
        })
    };
    let difficulty = Memo::new(move |_| game.with(|g| (g.roll.clone(), g.rules.clone())));
    let share_open = ctx.share_open;
    let share = Memo::new(move |_| {
        let (roll, rules) = difficulty.get();
        let here = web_sys::window()
            .and_then(|w| {
                let l = w.location();
                Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
            })
            .unwrap_or_default();
        format!("{here}{}", crate::forms::link_query(&rules, &roll))
    });
    let tags = move || {
        view! {
            <span class="difficulty-tag" data-testid="difficulty">{difficulty_text}</span>
            <span class="daily-tag">{move || game.with(|g| g.daily.is_some()).then(|| ctx.t(Key::DailyTag, &[]))}</span>
            // Why this roll is practice from its deal (RULES §6): said before a claim is tried.
            {move || game.with(|g| g.practice).map(|why| view! {
                <span class="practice-note" data-testid="practice-note">
                    {ctx.t(match why {
                        Practice::Level if game.with(|g| g.level) == Some(crate::game::AT_MY_LEVEL) => Key::PracticeMine,
                        Practice::Level => Key::PracticeLevel,
                        Practice::Typed => Key::PracticeTyped,
                        Practice::Again => Key::PracticeAgain,
                    }, &[])}
                </span>
            })}
        }
    };
    // Rules other than the standard ones (a link's, or Settings') are said on the table,
    // with one press back to the standard game.
    let other_rules = Memo::new(move |_| game.with(|g| ctx.words.with(|w| crate::say::rules_in_force(&g.rules, w))));
    let standard = move |_| {
        // The standard dice, goal and operators; the player's own clocks and strict mode stay.
        let mine = game.with_untracked(|g| g.rules.clone());
        let rules = score_engine::Rules {
            score_secs: mine.score_secs,
            impossible_secs: mine.impossible_secs,
            strict: mine.strict,
            ..score_engine::Rules::default()
        };
        let roll = crate::ctx::roll_dice(&rules);
        game.update(|g| g.new_roll(rules, roll, now_ms()));
    };
    view! {
        {move || other_rules.get().map(|text| view! {
            <p class="rules-in-force notice" data-testid="rules-in-force">
                {text} " "
                <button type="button" disabled=move || game.with(|g| g.round.is_running()) title=move || game.with(|g| g.round.is_running()).then(|| ctx.t(Key::SettleFirst, &[])) on:click=standard>{ctx.tr(Key::BackToStandard)}</button>
            </p>
        })}
        <ClaimBar/>
        <TableView tags=tags>
            <button
                on:click=move |_| game.update(|g| g.show_hint(now_ms()))
                disabled=running
                aria-describedby="hint-cost"
            >
                {ctx.tr(Key::Hint)}
            </button>
            // Said before it is pressed: a hint on an unsettled roll makes it practice.
            <span id="hint-cost" class="muted hint-cost" hidden=move || running() || practice_already() || game.with(|g| g.practice.is_some())>
                {ctx.tr(Key::HintCost)}
            </span>
            // Once the roll is settled, "Next roll" beside the result does this: one button, not two.
            <button class="new-roll" class:primary=move || !running() on:click=new_roll hidden=move || game.with(|g| g.round.is_over())>
                {ctx.tr(Key::NewRoll)}
            </button>
            <DifficultySelect label=Key::Practice any=Key::AnyRoll level=level words=ctx.words.into() mine=Some(Key::AtMyLevel)/>
            // The player's own level, as "At my level" deals it: of the player, never the roll.
            <Show when=move || level.get() == crate::game::AT_MY_LEVEL>
                <span class="my-level muted" data-testid="my-level">
                    {move || ctx.t(Key::MyLevel, &[("level", &game.with(Game::my_level).to_string())])}
                </span>
            </Show>
        </TableView>
        {move || cost().map(|cost| view! {
            <div class="confirm-new-roll" role="alertdialog" aria-labelledby="new-roll-cost">
                <p id="new-roll-cost">{cost}</p>
                <button type="button" class="danger" on:click=anyway>{ctx.tr(Key::NewRollAnyway)}</button>
                <button type="button" class="primary" on:click=keep>{ctx.tr(Key::KeepPlaying)}</button>
            </div>
        })}
        // Heard from the announcer (which says the hint), not from here as well.
        <p class="hint">{move || game.with(|g| ctx.words.with(|w| g.hint_in(w)))}</p>
        <Show when=move || whole.get()>
            <details
                class="share-roll"
                prop:open=move || share_open.get()
                on:toggle=move |ev| {
                    if let Some(d) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                        share_open.set(d.has_attribute("open"));
                    }
                }
            >
                <summary>{ctx.tr(Key::ShareOrPlay)}</summary>
                <p class="share">
                    <label>
                        {ctx.tr(Key::LinkToRoll)}
                        " "
                        <input type="text" readonly prop:value=move || share.get() on:focus=move |ev| {
                            if let Some(input) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
                                input.select();
                            }
                        }/>
                    </label>
                </p>
                <PlayRollForm/>
            </details>
        </Show>
    }
}
