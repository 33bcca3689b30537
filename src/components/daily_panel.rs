use leptos::prelude::*;
use score_engine::practice::day_number;

use score_i18n::Key;

use crate::ctx::use_ctx;
use crate::game::signed;
use crate::hooks::use_clock::now_ms;

/// Today's day number, from the player's local calendar.
fn today() -> i64 {
    let d = js_sys::Date::new_0();
    day_number(d.get_full_year() as i64, d.get_month() + 1, d.get_date())
}

/// The daily puzzle: one roll for everyone each day, one scored attempt, a streak.
#[component]
pub fn DailyPanel() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    // Re-read the date as the clock moves, so midnight brings a new puzzle.
    let day = Memo::new(move |_| {
        ctx.now.track();
        today()
    });
    let played = move || game.with(|g| g.daily_log.points(day.get()));
    let line = move || game.with(|g| ctx.words.with(|w| crate::say::daily_share(&g.daily_log, day.get(), w)));
    let streak = move || game.with(|g| g.daily_log.streak(day.get()));
    view! {
        <div class="panel" aria-label=ctx.tr(Key::TabDaily)>
            <h2>{ctx.tr(Key::TabDaily)}</h2>
            <p>
                {ctx.tr(Key::DailyIntro)}
            </p>
            <p data-testid="daily-status">
                {move || match played() {
                    Some(p) => ctx.t(Key::DailyResult, &[("points", &signed(p))]),
                    None => ctx.t(Key::DailyNotPlayed, &[]),
                }}
            </p>
            <p>{ctx.tr(Key::DailyStreak)} " " <strong data-testid="daily-streak">{streak}</strong></p>
            // Under a clock, only the table's New roll (which asks first) ends a claim.
            <button class="primary" disabled=move || game.with(|g| g.round.is_running()) title=move || game.with(|g| g.round.is_running()).then(|| ctx.t(Key::SettleFirst, &[])) on:click=move |_| {
                game.update(|g| g.play_daily(day.get_untracked(), now_ms()));
                crate::ctx::show_table();
            }>
                {ctx.tr(Key::DailyPlay)}
            </button>
            <Show when=move || line().is_some()>
                <label>
                    {ctx.tr(Key::DailyShare)}
                    " "
                    <input type="text" readonly data-testid="daily-line" prop:value=move || line().unwrap_or_default()/>
                </label>
            </Show>
        </div>
    }
}
