use leptos::prelude::*;

use crate::ctx::use_ctx;
use crate::game::{roll_text, signed};

/// Score, streaks and the latest rounds.
#[component]
pub fn ScorePanel() -> impl IntoView {
    let game = use_ctx().game;
    let history = Memo::new(move |_| {
        game.with(|g| {
            g.stats
                .history
                .iter()
                .rev()
                .take(12)
                .map(|h| (h.at_ms, roll_text(&h.roll), h.claim.clone(), h.reason.clone(), signed(h.points)))
                .collect::<Vec<_>>()
        })
    });
    let in_match = Memo::new(move |_| game.with(|g| g.group.is_some()));
    view! {
        <Show when=move || in_match.get()>
            <p class="muted">"A match is on: the players' scores are beside the table. Your own score carries on when the match ends."</p>
        </Show>
        <div class="score-panel" class:paused=move || in_match.get()>
            <dl class="totals">
                <div>
                    <dt>"Score"</dt>
                    <dd data-testid="score">{move || game.with(|g| crate::game::number(g.stats.score))}</dd>
                </div>
                <div>
                    <dt>"Streak"</dt>
                    <dd data-testid="streak">{move || game.with(|g| g.stats.streak)}</dd>
                </div>
                <div>
                    <dt>"Best streak"</dt>
                    <dd data-testid="best-streak">{move || game.with(|g| g.stats.best_streak)}</dd>
                </div>
            </dl>
            <h2>"History"</h2>
            <Show
                when=move || !history.get().is_empty()
                fallback=|| view! { <p class="muted">"No rounds yet."</p> }
            >
                <table class="history">
                    <thead>
                        <tr>
                            <th scope="col">"Roll"</th>
                            <th scope="col">"Claim"</th>
                            <th scope="col">"Result"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || history.get().into_iter().enumerate()
                            key=|(i, h)| (*i, h.0, h.3.clone())
                            let:item
                        >
                            <tr>
                                <td>{item.1.1}</td>
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
