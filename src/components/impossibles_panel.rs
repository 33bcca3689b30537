use leptos::prelude::*;
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

/// A listing's figures, worded when shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    impossible: usize,
    rolls: u64,
    chance: String,
    ms: String,
}

fn summary(t: &Table, ms: f64) -> Summary {
    Summary {
        impossible: t.impossible.len(),
        rolls: t.rolls,
        chance: fixed(t.probability * 100.0, 2),
        ms: fixed(ms, 1),
    }
}

fn summary_words(s: &Summary, words: &Catalog) -> String {
    words.text(
        Key::ImpossiblesSummary,
        &[
            ("impossible", &s.impossible.to_string()),
            ("total", &grouped(s.rolls)),
            ("chance", &s.chance),
            ("ms", &s.ms),
        ],
    )
}

/// `x` to `places` decimals (up to 6), rounded half away from zero. Whole-number formatting
/// instead of the float formatter, which is the only caller of its ~10 KB of code here.
pub fn fixed(x: f64, places: u32) -> String {
    let scale = 10u64.pow(places.min(6));
    // `as` saturates (and takes NaN to 0): a silly input gives a silly number, never a panic.
    let n = (x * scale as f64).round() as i64;
    let sign = if n < 0 { "-" } else { "" };
    let n = n.unsigned_abs();
    if scale == 1 {
        format!("{sign}{n}")
    } else {
        format!("{sign}{}.{:0width$}", n / scale, n % scale, width = places.min(6) as usize)
    }
}

/// A count with thousands separated: 42,504.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
                    Outcome::Impossibles(Err(e)) => State::Failed(e),
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
                        Some((done, total)) => {
                            say.t(Key::ListingProgress, &[("done", &grouped(done)), ("total", &grouped(total))])
                        }
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

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(2359), "2,359");
        assert_eq!(super::grouped(42504), "42,504");
        assert_eq!(super::grouped(1234567), "1,234,567");
    }

    #[test]
    fn fixed_decimals_match_the_float_formatter() {
        use super::fixed;
        for (x, places) in
            [(0.0, 2), (4.4155, 2), (0.09259, 2), (13.04, 1), (1234.56, 1), (-2.5, 1), (7.0, 0), (99.999, 2)]
        {
            assert_eq!(fixed(x, places), format!("{x:.*}", places as usize), "{x} to {places}");
        }
        assert_eq!(fixed(-0.004, 2), "0.00");
        assert_eq!(fixed(f64::NAN, 1), "0.0");
    }
}
