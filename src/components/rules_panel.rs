use leptos::prelude::*;

/// The rules in plain words (RULES.md).
#[component]
pub fn RulesPanel() -> impl IntoView {
    view! {
        <div class="panel rules" aria-label="Rules">
            <h2>"How to play"</h2>
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
            <h3>"The 24 game"</h3>
            <p>"Four numbers from 1 to 13 make 24 with + − × ÷, and every number must be used."</p>
        </div>
    }
}
