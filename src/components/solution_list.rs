use crate::work::Listed;
use leptos::prelude::*;
use score_i18n::Key;

use crate::ctx::use_words;

/// Distinct solutions with their working, simplest first.
#[component]
pub fn SolutionList(
    /// The solutions, as text.
    solutions: Vec<Listed>,
) -> impl IntoView {
    let say = use_words();
    let count = solutions.len();
    let items: Vec<(String, Vec<String>)> = solutions.into_iter().map(|l| (l.expr, l.steps)).collect();
    view! {
        <p class="count" data-testid="solution-count">
            {move || match count {
                0 => say.t(Key::NoSolutions, &[]),
                n => say.count(Key::SolutionsCount, n as u64, &[]),
            }}
        </p>
        <ol class="solutions">
            {items
                .into_iter()
                .map(|(expr, steps)| {
                    view! {
                        <li>
                            <details>
                                <summary class="expr">{move || say.signs(&expr)}</summary>
                                <ol class="working">
                                    {steps.into_iter().map(|s| view! { <li>{move || say.signs(&s)}</li> }).collect_view()}
                                </ol>
                            </details>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
