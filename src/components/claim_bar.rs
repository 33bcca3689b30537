use leptos::prelude::*;

use score_i18n::Key;

use crate::components::ClaimButtons;
use crate::ctx::focus_soon;
use crate::hooks::use_clock::now_ms;
use crate::table::{use_table, Act};

/// SCORE and IMPOSSIBLE, the running clock, and the last result.
#[component]
pub fn ClaimBar() -> impl IntoView {
    let table = use_table();
    let (claims, now) = (table.claims, table.now);
    let clock = Memo::new(move |_| claims.with(|c| c.clock.clone()));
    let seconds = move || {
        clock.with(|c| c.as_ref().map(|c| c.deadline)).map(|d| {
            let left = d.saturating_sub(now.get().max(now_ms().min(d)));
            left.div_ceil(1000)
        })
    };
    let clock_name = move || clock.with(|c| c.as_ref().map(|c| c.label.clone())).unwrap_or_default();
    // A settled roll leads to the next: "Next roll" takes focus, unless the player is busy elsewhere.
    let settled = Memo::new(move |_| claims.with(|c| c.settled));
    Effect::new(move |prev: Option<bool>| {
        let now_settled = settled.get();
        if prev == Some(false) && now_settled {
            let busy = document()
                .active_element()
                .is_some_and(|e| e.closest(".views, .host-controls, .room-chat").ok().flatten().is_some());
            if !busy {
                focus_soon(".next-roll");
            }
        }
        now_settled
    });
    // Focus goes to the new roll's first number: a second Enter (a doubled key press) then
    // picks a number, never starting a clock on a roll not yet read.
    let next = move |_| {
        table.act(Act::Next);
        focus_soon(".pool button");
    };
    let scoreboard = Memo::new(move |_| claims.with(|c| c.scoreboard));
    // The rows are redrawn when a player or a score changes, not when a button's state does.
    let rows = Memo::new(move |_| claims.with(|c| c.rows.clone()));
    view! {
        <div class="claims">
            <Show when=move || scoreboard.get()>
                <table class="scoreboard">
                    <caption>{table.tr(Key::Players)}</caption>
                    <tbody>
                        {move || {
                            rows.get()
                                .into_iter()
                                .map(|row| {
                                    let (i, name, score) = (row.player, row.name.clone().unwrap_or_default(), row.score.unwrap_or(0));
                                    view! {
                                        <tr class:claimant=move || clock.with(|c| c.as_ref().and_then(|c| c.holder) == Some(i))>
                                            <th scope="row" class="player-name">{name}</th>
                                            <td class="player-score" data-testid=format!("player-score-{i}")>{crate::game::number(score)}</td>
                                            <td class="player-claims">
                                                <ClaimButtons row/>
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
                <Show when=move || !scoreboard.get()>
                    {move || rows.get().into_iter().map(|row| view! { <ClaimButtons row/> }).collect_view()}
                </Show>
                <Show when=move || claims.with(|c| c.reveal)>
                    <button on:click=move |_| table.act(Act::Reveal)>{table.tr(Key::RevealNow)}</button>
                </Show>
                <Show when=move || claims.with(|c| c.give_up)>
                    <button on:click=move |_| table.act(Act::GiveUp)>{table.tr(Key::GiveUp)}</button>
                </Show>
            </div>
            <Show when=move || seconds().is_some()>
                <p class="countdown" role="timer" aria-label=clock_name>
                    <span class="countdown-label">{clock_name}</span>
                    <span class="countdown-value" data-testid="countdown">{move || seconds().unwrap_or(0)}</span>
                </p>
            </Show>
            <div class="outcome">
                // Results are heard from the page's announcer (solitaire's or the room's), once.
                <div class="results">
                    <For
                        each=move || claims.with(|c| c.results.clone()).into_iter().enumerate()
                        key=|(i, r)| super::list_key((i, &r.text))
                        let:item
                    >
                        <p class=result_class(item.1.points)>{item.1.text.clone()}</p>
                        {(!item.1.working.is_empty()).then(|| view! {
                            <ol class="result-working" aria-label=table.tr(Key::TheWorking)>
                                {item.1.working.iter().map(|s| {
                                    let s = s.clone();
                                    view! { <li>{move || table.signs(&s)}</li> }
                                }).collect_view()}
                            </ol>
                        })}
                    </For>
                </div>
                <Show when=move || settled.get() && claims.with(|c| c.next)>
                    <button class="primary next-roll" aria-keyshortcuts="N" on:click=next>
                        {table.tr(Key::NextRoll)}
                    </button>
                </Show>
            </div>
        </div>
    }
}

/// The class of a result line: a gain, a loss, or neither.
pub(crate) fn result_class(points: i32) -> &'static str {
    match points {
        p if p > 0 => "result gain",
        p if p < 0 => "result loss",
        _ => "result",
    }
}
