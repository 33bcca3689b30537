use leptos::prelude::*;
use score_engine::solve::MAX_TABLE_ROLLS;
use score_engine::Rules;
use score_i18n::{Catalog, Key};

use crate::solver::{self, Task};
use crate::tools::{use_tools, TableState};
use crate::work::{Job, Outcome, Table};

/// Where a listing is.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    Idle,
    Listing(Option<(u64, u64)>),
    Cancelled,
    Failed(String),
    Listed { table: Summary, rolls: Vec<String> },
}

/// A listing's figures, worded when shown (in the reader's language, with its marks).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    impossible: usize,
    rolls: u64,
    /// The chance of an impossible roll, in percent.
    chance: f64,
    ms: f64,
}

fn summary(t: &Table, ms: f64) -> Summary {
    Summary { impossible: t.impossible.len(), rolls: t.rolls, chance: t.probability * 100.0, ms }
}

/// Why dice with `count` rolls aren't listed, in `words`.
fn too_many(count: u64, words: &Catalog) -> String {
    let lang = words.lang();
    words.text(Key::ImpossiblesTooMany, &[("rolls", &lang.grouped(count)), ("max", &lang.grouped(MAX_TABLE_ROLLS))])
}

/// A listing's summary in `words`, its numbers written the language's way (2.359 in German).
fn summary_words(s: &Summary, words: &Catalog) -> String {
    let lang = words.lang();
    words.text(
        Key::ImpossiblesSummary,
        &[
            ("impossible", &lang.grouped(s.impossible as u64)),
            ("total", &lang.grouped(s.rolls)),
            ("chance", &lang.fixed(s.chance, 2)),
            ("ms", &lang.fixed(s.ms, 1)),
        ],
    )
}

fn performance_now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A listing of impossible rolls: kept by the app, so it runs on while another view is open.
#[derive(Clone, Copy)]
pub struct Listing {
    state: RwSignal<State>,
    task: StoredValue<Option<Task>, LocalStorage>,
    /// The rules and the roll the listing was asked on ([`TableState::asked_on`]).
    rules: StoredValue<Option<(Rules, u64)>>,
}

impl Listing {
    /// Nothing listed yet.
    pub fn new() -> Listing {
        Listing { state: RwSignal::new(State::Idle), task: StoredValue::new_local(None), rules: StoredValue::new(None) }
    }
}

impl Default for Listing {
    fn default() -> Self {
        Listing::new()
    }
}

/// The rolls of the current dice and goal that have no solution, and the chance of one:
/// listed by the solver's worker, with progress and Cancel, while the page plays on.
#[component]
pub fn ImpossiblesPanel() -> impl IntoView {
    let tools = use_tools();
    let say = tools.say;
    let table = tools.table;
    let Listing { state, task, rules: listed_for } = use_context::<Listing>().unwrap_or_default();
    // A listing answers the rules and the roll it was asked on: after new settings or a new
    // roll it is gone until asked again (it would tell whether the new roll has a solution).
    if listed_for.get_value() != Some(table.with_untracked(TableState::asked_on)) {
        task.set_value(None);
        state.set(State::Idle);
    }
    // Read where the listing's state is read (a stored value, not a signal: no memo of it).
    let current = move || listed_for.get_value() == Some(table.with(TableState::asked_on));
    // The solver's worker loads while the player fills the form.
    solver::warm_up();
    let list = move |_| {
        // Whatever comes of it (a list, or why not) is of this roll.
        listed_for.set_value(Some(table.with_untracked(TableState::asked_on)));
        // Dice with too many rolls are refused before anything is asked (the count is known).
        let count = table.with_untracked(|t| score_engine::roll::count_sorted_rolls(&t.rules.dice));
        if count > MAX_TABLE_ROLLS {
            state.set(State::Failed(say.0.with_untracked(|w| too_many(count, w))));
            return;
        }
        // The list answers the table's roll too: before it is settled, that is asking.
        if table.with_untracked(|t| !t.solutions_shown) {
            if let Err(why) = tools.ask_solutions() {
                state.set(State::Failed(tools.refusal(why)));
                return;
            }
        }
        let rules = table.with_untracked(|t| t.rules.clone());
        let t0 = performance_now();
        state.set(State::Listing(None));
        // A new listing replaces the one running, if any.
        task.set_value(Some(solver::start(
            Job::Impossibles(rules),
            move |done, total| {
                state.try_set(State::Listing(Some((done, total))));
            },
            move |outcome| {
                let next = match outcome {
                    Outcome::Impossibles(Ok(t)) => {
                        State::Listed { table: summary(&t, performance_now() - t0), rolls: t.impossible }
                    }
                    Outcome::Impossibles(Err(count)) => State::Failed(say.0.with_untracked(|w| too_many(count, w))),
                    _ => State::Failed(say.t(Key::ListingWrongAnswer, &[])),
                };
                state.try_set(next);
            },
        )));
    };
    let cancel = move |_| {
        task.set_value(None);
        state.set(State::Cancelled);
    };
    let listing = move || matches!(state.get(), State::Listing(_));
    view! {
        <div class="panel" aria-label=say.tr(Key::TabImpossibles)>
            <h2>{say.tr(Key::TabImpossibles)}</h2>
            <p>
                {move || {
                    table.with(|t| {
                        let dice = score_engine::roll::dice_text(&t.rules.dice);
                        say.t(Key::ImpossiblesDice, &[("dice", &dice), ("goal", &crate::game::number(t.rules.goal))])
                    })
                }}
            </p>
            <p class="muted">{say.tr(Key::ImpossiblesMoment)}</p>
            {move || {
                table.with(|t| !t.solutions_shown)
                    .then(|| {
                        view! {
                            <p class="muted">
                                {say.tr(Key::ImpossiblesPractice)}
                            </p>
                        }
                    })
            }}
            <div class="controls">
                <button class="primary" on:click=list>{say.tr(Key::ListImpossibles)}</button>
                <Show when=listing>
                    <button on:click=cancel>{say.tr(Key::Cancel)}</button>
                </Show>
            </div>
            {move || match state.get() {
                // Asked on another roll: nothing of it is shown beside this one.
                _ if !current() => ().into_any(),
                State::Idle => ().into_any(),
                State::Listing(at) => {
                    let text = match at {
                        Some((done, total)) => say.0.with(|w| {
                            let lang = w.lang();
                            w.text(Key::ListingProgress, &[("done", &lang.grouped(done)), ("total", &lang.grouped(total))])
                        }),
                        None => say.t(Key::Listing, &[]),
                    };
                    let (done, total) = at.unwrap_or((0, 1));
                    view! {
                        <p role="status" data-testid="impossible-progress">{text}</p>
                        <progress max=total.to_string() value=done.to_string() aria-label=say.tr(Key::ListingLabel)></progress>
                    }
                        .into_any()
                }
                State::Cancelled => view! { <p role="status">{say.tr(Key::ListingCancelled)}</p> }.into_any(),
                State::Failed(e) => view! { <p class="field-error" role="alert">{e}</p> }.into_any(),
                State::Listed { table, rolls } => {
                    view! {
                        <p data-testid="impossible-summary">{move || say.0.with(|w| summary_words(&table, w))}</p>
                        <ul class="impossible-rolls">
                            {rolls.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                        </ul>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}

// The catalogs of other languages are built in natively only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use score_i18n::{Catalog, Lang};

    use super::{summary_words, Summary};

    #[test]
    fn the_summary_writes_numbers_the_readers_way() {
        let s = Summary { impossible: 2359, rolls: 42504, chance: 4.4155, ms: 1234.56 };
        let en = summary_words(&s, &Catalog::english());
        assert!(en.starts_with("2,359 impossible of 42,504 rolls: a 4.42% chance"), "{en}");
        assert!(en.contains("1,234.6 ms"), "{en}");
        let de = summary_words(&s, &Catalog::builtin(Lang::De));
        assert!(de.contains("2.359") && de.contains("42.504") && de.contains("4,42") && de.contains("1.234,6"), "{de}");
    }

    // Pins a bug: dice with too many rolls made the table's roll practice, then failed in
    // English. The refusal comes first, in the reader's language.
    #[test]
    fn too_many_rolls_are_said_in_the_readers_language() {
        let fr = super::too_many(75_582, &Catalog::builtin(Lang::Fr));
        assert!(fr.contains("75\u{202F}582") && fr.contains("60\u{202F}000"), "{fr}");
        assert_ne!(fr, super::too_many(75_582, &Catalog::english()));
    }
}
