use leptos::prelude::*;

use score_i18n::Key;

use crate::components::SolutionList;
use crate::ctx::use_ctx;
use crate::hooks::use_clock::now_ms;
use crate::solver::{self, Task};
use crate::work::{Job, Listed, Outcome};

/// Most solutions listed: five or six dice can have thousands, which take seconds to find.
pub const LIST_LIMIT: usize = 300;

/// Every distinct solution of the current roll, with its difficulty: shown once the roll
/// is settled or the player asks (which makes an unsettled roll practice), never before.
/// They are found by the solver's worker, so a roll of six dice never stalls the page.
#[component]
pub fn SolutionsPanel() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    let shown = Memo::new(move |_| game.with(|g| g.solutions_shown.then(|| (g.roll.clone(), g.rules.clone()))));
    let running = Memo::new(move |_| game.with(|g| g.round.is_running()));
    let settled = Memo::new(move |_| game.with(|g| g.round.is_over()));
    // Solved only when shown, so nothing about the roll is even computed for the page before.
    let listed = RwSignal::new(None::<(Vec<Listed>, Option<u8>, Option<f64>)>);
    let task = StoredValue::new_local(None::<Task>);
    on_cleanup(move || task.set_value(None));
    Effect::new(move |_| {
        listed.set(None);
        let job = shown.get().map(|(roll, rules)| Job::Roll { roll, rules, limit: LIST_LIMIT });
        task.set_value(job.map(|job| {
            solver::start(
                job,
                |_, _| {},
                move |outcome| {
                    if let Outcome::Roll { solutions, difficulty, seconds } = outcome {
                        listed.try_set(Some((solutions, difficulty, seconds)));
                    }
                },
            )
        }));
    });
    let error = RwSignal::new(None::<String>);
    let ask = move |_| {
        let refused = game.try_update(|g| g.show_solutions(now_ms()).err()).flatten();
        error.set(refused.map(|e| ctx.words.with_untracked(|w| score_room::say::round_error(e, w))));
    };
    view! {
        <div class="panel" aria-label=ctx.tr(Key::TabSolutions)>
            <h2>{ctx.tr(Key::TabSolutions)}</h2>
            {move || match (listed.get(), shown.with(Option::is_some)) {
                (Some((list, level, seconds)), _) => {
                    let full = list.len() >= LIST_LIMIT;
                    // The rating as data: the seconds to a tenth, in the page's language; to a
                    // thousandth in the attribute (as whole numbers: `{:.3}` would link the
                    // standard library's float printing into the first load, for this alone).
                    let typical = seconds.map(|s| {
                        let secs = ctx.words.with(|w| w.lang().fixed(s, 1));
                        let ms = (s * 1000.0).round() as i64;
                        view! {
                            <span class="typical" data-testid="typical-seconds" data-seconds=format!("{}.{:03}", ms / 1000, ms % 1000)>
                                {ctx.t(Key::TypicalSeconds, &[("secs", &secs)])}
                            </span>
                        }
                    });
                    view! {
                        <p class="difficulty">
                            {match level {
                                Some(d) => ctx.t(Key::DifficultyOf, &[("level", &d.to_string())]),
                                None => ctx.t(Key::SolutionsNoSolution, &[]),
                            }}
                            {typical.map(|t| view! { " · " {t} })}
                        </p>
                        <SolutionList solutions=list/>
                        {full.then(|| view! {
                            <p class="muted">{ctx.count(Key::SolutionsLimit, LIST_LIMIT as u64, &[])}</p>
                        })}
                    }
                        .into_any()
                }
                (None, true) => view! { <p role="status">{ctx.tr(Key::SolutionsFinding)}</p> }.into_any(),
                (None, false) if running.get() => {
                    view! { <p class="muted">{ctx.tr(Key::SolutionsHiddenClock)}</p> }.into_any()
                }
                (None, false) => {
                    view! {
                        <p class="muted">
                            {ctx.tr(Key::SolutionsAppear)}
                        </p>
                        <button on:click=ask>{ctx.tr(Key::ShowSolutions)}</button>
                        {move || (!settled.get()).then(|| view! {
                            <p class="muted">{ctx.tr(Key::ShowSolutionsCost)}</p>
                        })}
                        <p class="field-error" role="alert">{move || error.get()}</p>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
