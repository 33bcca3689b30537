use leptos::prelude::*;

use score_i18n::Key;

use crate::components::solutions_panel::LIST_LIMIT;
use crate::components::SolutionList;
use crate::ctx::{random_u32, roll_dice};
use crate::forms;
use crate::game::roll_text;
use crate::solver::{self, Task};
use crate::tools::use_tools;
use crate::work::{Job, Listed, Outcome};

/// Any numbers, any goal: every solution, found by the solver's worker while the page
/// plays on. The numbers start as the roll on the table (solving it before it is settled
/// makes it practice, as the panel says); "Solve a random roll" rolls the current dice.
#[component]
pub fn ExperimentPanel() -> impl IntoView {
    let tools = use_tools();
    let say = tools.say;
    let table = tools.table;
    let numbers = RwSignal::new(table.with_untracked(|t| roll_text(&t.roll)));
    let goal = RwSignal::new(table.with_untracked(|t| t.rules.goal.to_string()));
    let errors = RwSignal::new((None::<String>, None::<String>));
    let result = RwSignal::new(None::<Vec<Listed>>);
    let solving = RwSignal::new(false);
    let task = StoredValue::new_local(None::<Task>);
    on_cleanup(move || task.set_value(None));
    // The solver's worker loads while the player fills the form.
    solver::warm_up();
    let solve = move || {
        let (n, g) = forms::experiment(&numbers.get_untracked(), &goal.get_untracked());
        let said = |e: &forms::EntryError| say.form_error(&e.clone().into());
        errors.set((n.as_ref().err().map(said), g.as_ref().err().map(said)));
        let (Ok(n), Ok(g)) = (n, g) else {
            task.set_value(None);
            solving.set(false);
            result.set(None);
            return;
        };
        // The table's own roll, unsettled: solving it here is asking for its solutions.
        if table.with_untracked(|t| !t.solutions_shown && t.is_this_roll(&n, g)) {
            if let Err(why) = tools.ask_solutions() {
                errors.set((Some(tools.refusal(why)), None));
                result.set(None);
                return;
            }
        }
        let rules = table.with_untracked(|t| t.rules.clone());
        result.set(None);
        solving.set(true);
        let job = Job::Solutions { numbers: n, goal: g, rules, limit: LIST_LIMIT };
        task.set_value(Some(solver::start(
            job,
            |_, _| {},
            move |outcome| {
                if let Outcome::Solutions(list) = outcome {
                    result.try_set(Some(list));
                }
                solving.try_set(false);
            },
        )));
    };
    // A random roll never asks about the table's (RULES §6): one that would answer the
    // table's unsettled roll is rolled again.
    let calculate = move |_| {
        let (rules, roll, settled) = table.with_untracked(|t| (t.rules.clone(), t.roll.clone(), t.solutions_shown));
        let picked =
            if settled { Some(roll_dice(&rules)) } else { crate::game::other_roll(&rules, &roll, 64, random_u32) };
        goal.set(rules.goal.to_string());
        match picked {
            Some(r) => {
                numbers.set(roll_text(&r));
                solve();
            }
            None => errors.set((Some(say.t(Key::NoOtherRoll, &[])), None)),
        }
    };
    let cancel = move |_| {
        task.set_value(None);
        solving.set(false);
    };
    view! {
        <div class="panel" aria-label=say.tr(Key::TabExperiment)>
            <h2>{say.tr(Key::TabExperiment)}</h2>
            <form
                class="experiment"
                on:submit=move |ev| {
                    ev.prevent_default();
                    solve();
                }
            >
                <label>
                    {say.tr(Key::ExperimentNumbers)}
                    " "
                    <input
                        type="text"
                        prop:value=move || numbers.get()
                        on:input=move |ev| numbers.set(event_target_value(&ev))
                    />
                </label>
                <p class="field-error" role="alert">{move || errors.get().0}</p>
                <label>
                    {say.tr(Key::GoalField)}
                    " "
                    <input
                        type="text"
                        inputmode="numeric"
                        prop:value=move || goal.get()
                        on:input=move |ev| goal.set(event_target_value(&ev))
                    />
                </label>
                <p class="field-error" role="alert">{move || errors.get().1}</p>
                <p class="muted">
                    {say.tr(Key::ExperimentPractice)}
                </p>
                <div class="controls">
                    <button type="submit" class="primary">{say.tr(Key::Solve)}</button>
                    <button type="button" on:click=calculate>{say.tr(Key::SolveRandom)}</button>
                    <Show when=move || solving.get()>
                        <button type="button" on:click=cancel>{say.tr(Key::Cancel)}</button>
                    </Show>
                </div>
            </form>
            <Show when=move || solving.get()>
                <p role="status" data-testid="solving">{say.tr(Key::Solving)}</p>
            </Show>
            {move || result.get().map(|list| view! { <SolutionList solutions=list/> })}
        </div>
    }
}
