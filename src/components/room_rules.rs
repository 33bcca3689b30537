//! How to play in a class room, on a student's phone: the room's own rules (its dice, goal,
//! operators and clocks, whether the computer judges), one tap from the table, in the room.

use leptos::prelude::*;
use score_engine::op::Op;
use score_i18n::{Catalog, Key, Lang};

use crate::components::language_picker::language_options;
use crate::components::room_client::Room;
use crate::lang::Ask;

/// The rules card, for the room `room` is in; `open` shows it.
#[component]
pub(crate) fn RoomRules(
    /// The room client.
    room: Room,
    /// Whether the card is shown (the card's Close sets it false).
    open: RwSignal<bool>,
) -> impl IntoView {
    let seen = room.seen;
    let rules = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| (s.rules.clone(), s.judging))));
    let card = move || {
        let (rules, judging) = rules.get()?;
        let dice = rules.dice.iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(", ");
        let ops = room.signs(&rules.ops.iter().map(Op::symbol).collect::<Vec<_>>().join(" "));
        let goal = crate::game::number(rules.goal);
        let fill = [("dice", dice.as_str()), ("goal", goal.as_str()), ("ops", ops.as_str())];
        let moves = if rules.use_all {
            room.t(Key::RulesMovesAll, &fill)
        } else {
            room.count(Key::RulesMovesSome, rules.dice.len() as u64, &fill)
        };
        let concat = rules.ops.contains(Op::Concat).then(|| room.t(Key::RulesConcat, &[]));
        let secs = u64::from(rules.impossible_secs);
        let judged = room.count(if judging { Key::RulesJudged } else { Key::RulesUnjudged }, secs, &fill);
        Some(view! {
            <section class="room-rules-card" aria-labelledby="room-rules-title" data-testid="room-rules">
                <h2 id="room-rules-title">{room.t(Key::HelpTitle, &[])}</h2>
                <p>{moves}</p>
                <p>{room.t(Key::RoomRulesMove, &fill)}</p>
                {concat.map(|c| view! { <p>{c}</p> })}
                <ul>
                    <li>{room.count(Key::RoomRulesScore, u64::from(rules.score_secs), &fill)}</li>
                    <li>{judged}</li>
                    <li>{room.t(Key::RulesFirstScore, &[])}</li>
                    <li>{room.t(Key::RulesPractise, &[])}</li>
                </ul>
                <RoomLanguage room/>
                <button type="button" on:click=move |_| open.set(false)>{room.t(Key::Close, &[])}</button>
            </section>
        })
    };
    move || open.get().then(card)
}

/// The page's language, picked on a student's phone in the room (the page's own picker is
/// in Settings, behind the room): kept as their choice, as there.
#[component]
pub(crate) fn RoomLanguage(
    /// The room client.
    room: Room,
) -> impl IntoView {
    let current = move || room.words.with(Catalog::lang);
    view! {
        <label class="language">
            <span>{room.tr(Key::LanguageOfPage)}</span>
            " "
            <select on:change=move |ev| {
                if let Some(lang) = Lang::from_code(&event_target_value(&ev)) {
                    crate::lang::ask(Ask::Pick(lang));
                }
            }>
                {language_options(current)}
            </select>
        </label>
    }
}
