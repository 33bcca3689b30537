use crate::work::Listed;
use leptos::prelude::*;

/// Distinct solutions with their working, simplest first.
#[component]
pub fn SolutionList(
    /// The solutions, as text.
    solutions: Vec<Listed>,
) -> impl IntoView {
    let count = solutions.len();
    let items: Vec<(String, Vec<String>)> = solutions.into_iter().map(|l| (l.expr, l.steps)).collect();
    view! {
        <p class="count" data-testid="solution-count">
            {match count {
                0 => "No solutions.".to_string(),
                1 => "1 distinct solution".to_string(),
                n => format!("{n} distinct solutions"),
            }}
        </p>
        <ol class="solutions">
            {items
                .into_iter()
                .map(|(expr, steps)| {
                    view! {
                        <li>
                            <details>
                                <summary class="expr">{expr}</summary>
                                <ol class="working">
                                    {steps.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
                                </ol>
                            </details>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
