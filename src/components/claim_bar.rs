use leptos::prelude::*;
use score_engine::round::Phase;

use crate::app::{focus_soon, next_roll, use_ctx};
use crate::components::ClaimButtons;
use crate::hooks::use_clock::now_ms;

/// SCORE and IMPOSSIBLE, the running clock, and the last result.
#[component]
pub fn ClaimBar() -> impl IntoView {
    let ctx = use_ctx();
    let (game, now) = (ctx.game, ctx.now);
    let phase = Memo::new(move |_| game.with(|g| g.round.phase()));
    let seconds = move || {
        game.with(|g| g.round.deadline()).map(|d| {
            let left = d.saturating_sub(now.get().max(now_ms().min(d)));
            left.div_ceil(1000)
        })
    };
    let clock_name = move || match phase.get() {
        Phase::Score { .. } => "SCORE clock",
        _ => "IMPOSSIBLE clock",
    };
    // A settled roll leads to the next: "Next roll" takes focus, unless the player is busy in a view.
    let settled = Memo::new(move |_| game.with(|g| g.round.is_over()));
    Effect::new(move |prev: Option<bool>| {
        let now_settled = settled.get();
        if prev == Some(false) && now_settled {
            let busy = document().active_element().is_some_and(|e| e.closest(".views").ok().flatten().is_some());
            if !busy {
                focus_soon(".next-roll");
            }
        }
        now_settled
    });
    let next = move |_| {
        next_roll(ctx);
        focus_soon(".claim.score:not(:disabled)");
    };
    let group = Memo::new(move |_| game.with(|g| g.group.as_ref().map(|m| (m.names.clone(), m.scores.clone()))));
    view! {
        <div class="claims">
            <Show when=move || group.with(Option::is_some)>
                <table class="scoreboard">
                    <caption>"Players"</caption>
                    <tbody>
                        {move || {
                            let (names, scores) = group.get().unwrap_or_default();
                            names
                                .into_iter()
                                .zip(scores)
                                .enumerate()
                                .map(|(i, (name, score))| {
                                    view! {
                                        <tr>
                                            <th scope="row" class="player-name">{name.clone()}</th>
                                            <td class="player-score" data-testid=format!("player-score-{i}")>{score}</td>
                                            <td class="player-claims">
                                                <ClaimButtons player=i name=Some(name)/>
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </Show>
            <div class="claim-buttons">
                <Show when=move || group.with(Option::is_none)>
                    <ClaimButtons player=0 name=None/>
                </Show>
                <Show when=move || matches!(phase.get(), Phase::Impossible(_))>
                    <button on:click=move |_| game.update(|g| g.reveal(now_ms()))>"Reveal now"</button>
                </Show>
                <Show when=move || matches!(phase.get(), Phase::Score { .. })>
                    <button on:click=move |_| game.update(|g| g.give_up(now_ms()))>"Give up"</button>
                </Show>
            </div>
            <Show when=move || seconds().is_some()>
                <p class="countdown" role="timer" aria-label=clock_name>
                    <span class="countdown-label">{clock_name}</span>
                    <span class="countdown-value" data-testid="countdown">{move || seconds().unwrap_or(0)}</span>
                </p>
            </Show>
            <div class="outcome">
                <div class="results" role="status" aria-live="polite">
                    <For
                        each=move || game.with(|g| g.results.clone()).into_iter().enumerate()
                        key=|(i, r)| (*i, r.text.clone())
                        let:item
                    >
                        <p class=result_class(item.1.points)>{item.1.text}</p>
                    </For>
                </div>
                <Show when=move || settled.get()>
                    <button class="primary next-roll" aria-keyshortcuts="N" on:click=next>
                        "Next roll"
                    </button>
                </Show>
            </div>
        </div>
    }
}

fn result_class(points: i32) -> &'static str {
    match points {
        p if p > 0 => "result gain",
        p if p < 0 => "result loss",
        _ => "result",
    }
}
