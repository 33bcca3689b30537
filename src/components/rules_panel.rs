use leptos::prelude::*;

use crate::ctx::{focus_soon, use_ctx};

/// The rules in plain words: what docs/RULES.md says, told to a player.
#[component]
pub fn RulesPanel() -> impl IntoView {
    let help_open = use_ctx().help_open;
    let game = use_ctx().game;
    let show_help = move |_| {
        help_open.set(true);
        focus_soon(".help-card h2");
    };
    view! {
        <div class="panel rules" aria-label="Rules">
            <h2>"How to play"</h2>
            {move || game.with(|g| crate::game::rules_in_force(&g.rules)).map(|text| view! {
                <p class="notice" data-testid="rules-view-in-force">
                    {text} " The rules below are the standard game's; in yours, the dice and the goal are these."
                </p>
            })}
            <p>
                "Four dice are rolled: two six-sided, a twelve-sided and a twenty-sided. Make the goal, 20, in two or three moves."
            </p>
            <p>
                "A move takes two numbers and an operator. The two numbers leave the table and the result comes back in red, marked ◆. "
                "You can use + − × ÷ and ‖, which joins two whole numbers: 1‖5 is 15 and 2‖0 is 20. "
                "The left number of ‖ can't be 0 and the right one can't be negative. Dividing by zero is not allowed."
            </p>
            <p>
                "The goal only counts when a move that uses a red number makes it, so 4 × 5 straight from two dice doesn't count. "
                "Fractions are fine on the way: 4 ÷ 5, then 1 − 4/5, then 4 ÷ 1/5 is exactly 20."
            </p>
            <h3>"Scoring"</h3>
            <ul>
                <li>"Press SCORE when you see a way: make the goal within 30 seconds for +1, or lose 1."</li>
                <li>
                    "Press IMPOSSIBLE when you think there is no way. After 60 seconds (or Reveal now) the computer checks: +1 if you were right, −2 and a solution shown if not."
                </li>
                <li>"Changed your mind? Press SCORE during the IMPOSSIBLE clock: make it and you end on −1 (−2 for the claim, +1 back)."</li>
                <li>"Making the goal with no clock running is free practice: no points."</li>
                <li>"A new roll while a clock runs settles it at once: a SCORE fails, an IMPOSSIBLE is judged."</li>
            </ul>
            <h3>"Solutions"</h3>
            <p>
                "Each solution is listed once. The same numbers added or multiplied in another order or grouping, or with a minus sign moved "
                "(17 − (1 − 2) × 3 is (2 − 1) × 3 + 17), count as one solution, shown the simplest way: without negative numbers on the way whenever it can be."
            </p>
            <h3>"Fair play"</h3>
            <p>
                "Nothing on screen tells whether a roll has a solution, or what it is, until the roll is settled: a claim judged, a SCORE made or failed, or the goal made in practice. "
                "Then the solutions, their working and the difficulty appear by themselves."
            </p>
            <p>
                "You can ask sooner with Show solutions (or by solving the same roll in Experiment, or listing the impossible rolls): the roll then becomes practice, 0 points and no claims, as with a hint. "
                "The daily puzzle counts that as its one attempt, for 0. While a clock runs, the solutions stay hidden."
            </p>
            <h3>"Keys"</h3>
            <ul class="keys">
                <li><kbd>"N"</kbd> " next roll (when no clock runs)"</li>
                <li>
                    <kbd>"+"</kbd> " " <kbd>"-"</kbd> " " <kbd>"*"</kbd> " " <kbd>"/"</kbd> " " <kbd>"|"</kbd>
                    " put an operator in its slot (while focus is on the table)"
                </li>
                <li><kbd>"Esc"</kbd> " empties the slots"</li>
                <li><kbd>"Tab"</kbd> " and " <kbd>"Enter"</kbd> " reach and press every button: numbers, operators, SCORE, IMPOSSIBLE"</li>
            </ul>
            <button on:click=show_help>"Show how to play"</button>
            <h3>"The 24 game"</h3>
            <p>"Four numbers from 1 to 13 make 24 with + − × ÷, and every number must be used."</p>
        </div>
    }
}
