use leptos::prelude::*;

use score_i18n::Key;

use crate::ctx::use_ctx;
use crate::game::roll_text;

/// Score, streaks and the latest rounds.
#[component]
pub fn ScorePanel() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    // Worded in the page's language (an entry stored before the history kept data: as stored).
    let history = Memo::new(move |_| {
        game.with(|g| {
            ctx.words.with(|w| {
                g.stats
                    .history
                    .iter()
                    .rev()
                    .take(12)
                    .map(|h| {
                        let (claim, result) = crate::say::history_line(h, w);
                        (h.at_ms, roll_text(&h.roll), claim, result)
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let in_match = Memo::new(move |_| game.with(|g| g.group.is_some()));
    view! {
        <Show when=move || in_match.get()>
            <p class="muted">{ctx.tr(Key::MatchOn)}</p>
        </Show>
        <div class="score-panel" class:paused=move || in_match.get()>
            <dl class="totals">
                <div>
                    <dt>{ctx.tr(Key::Score)}</dt>
                    <dd data-testid="score">{move || game.with(|g| crate::game::number(g.stats.score))}</dd>
                </div>
                <div>
                    <dt>{ctx.tr(Key::Streak)}</dt>
                    <dd data-testid="streak">{move || game.with(|g| g.stats.streak)}</dd>
                </div>
                <div>
                    <dt>{ctx.tr(Key::BestStreak)}</dt>
                    <dd data-testid="best-streak">{move || game.with(|g| g.stats.best_streak)}</dd>
                </div>
            </dl>
            <h2>{ctx.tr(Key::History)}</h2>
            <Show
                when=move || !history.get().is_empty()
                fallback=move || view! { <p class="muted">{ctx.tr(Key::NoRounds)}</p> }
            >
                <table class="history">
                    <thead>
                        <tr>
                            <th scope="col">{ctx.tr(Key::ColRoll)}</th>
                            <th scope="col">{ctx.tr(Key::ColClaim)}</th>
                            <th scope="col">{ctx.tr(Key::ColResult)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || history.get().into_iter().enumerate()
                            key=|(i, h)| super::list_key((i, h.0, &h.2, &h.3))
                            let:item
                        >
                            <tr>
                                <td class="roll-cell">{item.1.1}</td>
                                <td>{item.1.2}</td>
                                <td>{item.1.3}</td>
                            </tr>
                        </For>
                    </tbody>
                </table>
            </Show>
        </div>
    }
}
