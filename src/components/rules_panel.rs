use leptos::prelude::*;
use score_i18n::Key;

use crate::modules::TOOLS;
use crate::tools::{use_tools, HELP};

/// The rules in plain words: what docs/RULES.md says, told to a player.
#[component]
pub fn RulesPanel() -> impl IntoView {
    let tools = use_tools();
    let ctx = tools.say;
    let table = tools.table;
    // The "How to play" card is the page's.
    let show_help = move |_| TOOLS.dispatch(HELP);
    view! {
        <div class="panel rules" aria-label=ctx.tr(Key::TabRules)>
            <h2>{ctx.tr(Key::HelpTitle)}</h2>
            {move || table.with(|t| ctx.0.with(|w| crate::say::rules_in_force(&t.rules, w))).map(|text| view! {
                <p class="notice" data-testid="rules-view-in-force">
                    {text} " " {ctx.tr(Key::RulesYours)}
                </p>
            })}
            <p>{ctx.tr(Key::RulesDice)}</p>
            <p>{ctx.tr(Key::RulesMove)}</p>
            <p>{ctx.tr(Key::RulesRed)}</p>
            <h3>{ctx.tr(Key::Scoring)}</h3>
            <ul>
                <li>{ctx.tr(Key::RulesScore)}</li>
                <li>{ctx.tr(Key::RulesImpossible)}</li>
                <li>{ctx.tr(Key::RulesChangedMind)}</li>
                <li>{ctx.tr(Key::RulesFreePractice)}</li>
                <li>{ctx.tr(Key::RulesNewRoll)}</li>
            </ul>
            <h3>{ctx.tr(Key::TabSolutions)}</h3>
            <p>{ctx.tr(Key::RulesDistinct)}</p>
            <h3>{ctx.tr(Key::FairPlay)}</h3>
            <p>{ctx.tr(Key::RulesFair)}</p>
            <p>{ctx.tr(Key::RulesAsk)}</p>
            <p>{ctx.tr(Key::RulesPracticeRolls)}</p>
            <h3>{ctx.tr(Key::Keys)}</h3>
            <ul class="keys">
                <li><kbd>"N"</kbd> " " {ctx.tr(Key::KeyNext)}</li>
                <li>
                    <kbd>"+"</kbd> " " <kbd>"-"</kbd> " " <kbd>"*"</kbd> " " <kbd>"/"</kbd> " " <kbd>":"</kbd> " " <kbd>"|"</kbd>
                    " " {ctx.tr(Key::KeyOps)}
                </li>
                <li><kbd>"Esc"</kbd> " " {ctx.tr(Key::KeyEsc)}</li>
                <li><kbd>"Tab"</kbd> " " {ctx.tr(Key::KeyAnd)} " " <kbd>"Enter"</kbd> " " {ctx.tr(Key::KeyTab)}</li>
            </ul>
            <button on:click=show_help>{ctx.tr(Key::ShowHowToPlay)}</button>
            <h3>{ctx.tr(Key::Game24)}</h3>
            <p>{ctx.tr(Key::Rules24Game)}</p>
        </div>
    }
}
