use crate::work::Listed;
use leptos::prelude::*;
use score_i18n::{Catalog, Key};

use crate::ctx::Words;

/// Distinct solutions with their working, simplest first.
#[component]
pub fn SolutionList(
    /// The solutions, as text.
    solutions: Vec<Listed>,
) -> impl IntoView {
    // The page's words, as the app shell or the tools module provides them (English where
    // neither does, as in a component test).
    let ctx = use_context::<Words>();
    let count = solutions.len();
    let items: Vec<(String, Vec<String>)> = solutions.into_iter().map(|l| (l.expr, l.steps)).collect();
    // An expression or a step, its × and ÷ written the classroom's way.
    let signs = move |text: &str| ctx.map_or_else(|| text.to_string(), |c| c.signs(text));
    view! {
        <p class="count" data-testid="solution-count">
            {move || {
                let said = |w: &Catalog| match count {
                    0 => w.text(Key::NoSolutions, &[]),
                    n => w.count(Key::SolutionsCount, n as u64, &[]),
                };
                match ctx {
                    Some(words) => words.0.with(said),
                    None => said(&Catalog::english()),
                }
            }}
        </p>
        <ol class="solutions">
            {items
                .into_iter()
                .map(|(expr, steps)| {
                    view! {
                        <li>
                            <details>
                                <summary class="expr">{move || signs(&expr)}</summary>
                                <ol class="working">
                                    {steps.into_iter().map(|s| view! { <li>{move || signs(&s)}</li> }).collect_view()}
                                </ol>
                            </details>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
