use leptos::prelude::*;
use score_engine::{Preset, Rules};
use score_i18n::Key;

use crate::components::DifficultySelect;
use crate::ctx::random_u32;
use crate::forms;
use crate::solver::{self, Task};
use crate::tools::use_tools;
use crate::work::{Job, Outcome, SheetRoll};

/// Printable worksheets: rolls with room to work, and an answer key on its own page.
#[component]
pub fn WorksheetPanel() -> impl IntoView {
    let tools = use_tools();
    let say = tools.say;
    let table = tools.table;
    let count = RwSignal::new(String::from("12"));
    let preset = RwSignal::new(String::from("score"));
    let level = RwSignal::new(0u8);
    let error = RwSignal::new(None::<String>);
    let sheet = RwSignal::new(None::<(Rules, Vec<SheetRoll>)>);
    let making = RwSignal::new(false);
    let task = StoredValue::new_local(None::<Task>);
    on_cleanup(move || task.set_value(None));
    // The solver's worker loads while the player fills the form.
    solver::warm_up();
    let make = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let n = match forms::whole(&count.get_untracked(), forms::Entry::Rolls, 1, 50) {
            Ok(n) => n as usize,
            Err(e) => {
                error.set(Some(say.form_error(&e.into())));
                return;
            }
        };
        let base = table.with_untracked(|t| t.rules.clone());
        let rules = match Preset::from_key(&preset.get_untracked()) {
            Some(p) => Rules { score_secs: base.score_secs, impossible_secs: base.impossible_secs, ..Rules::preset(p) },
            None => base,
        };
        // A sheet of the table's game never lists its unsettled roll, answer and all.
        let avoid = table.with_untracked(|t| t.sheet_avoids(&rules));
        let lvl = Some(level.get_untracked()).filter(|l| *l > 0);
        let seed = (u64::from(random_u32()) << 32) | u64::from(random_u32());
        error.set(None);
        making.set(true);
        let job = Job::Worksheet { rules: rules.clone(), count: n, level: lvl, seed, avoid };
        task.set_value(Some(solver::start(
            job,
            |_, _| {},
            move |outcome| {
                match outcome {
                    Outcome::Worksheet(Ok(items)) => {
                        sheet.try_set(Some((rules, items)));
                    }
                    Outcome::Worksheet(Err(e)) => {
                        error.try_set(Some(say.0.with_untracked(|w| crate::say::worksheet_error(&e, w))));
                    }
                    _ => {}
                }
                making.try_set(false);
            },
        )));
    };
    let cancel = move |_| {
        task.set_value(None);
        making.set(false);
    };
    let print = move |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    };
    view! {
        <div class="panel worksheet-panel" aria-label=say.tr(Key::TabWorksheet)>
            <h2>{say.tr(Key::TabWorksheet)}</h2>
            <form class="worksheet-form" on:submit=make>
                <label>
                    {say.tr(Key::WorksheetRolls)}
                    " "
                    <input type="text" inputmode="numeric" prop:value=move || count.get() on:input=move |ev| count.set(event_target_value(&ev))/>
                </label>
                <label>
                    {say.tr(Key::WorksheetGame)}
                    " "
                    <select on:change=move |ev| preset.set(event_target_value(&ev))>
                        <option value="score">{say.tr(Key::WorksheetScore)}</option>
                        <option value="24">"24"</option>
                        <option value="custom">{say.tr(Key::WorksheetCurrent)}</option>
                    </select>
                </label>
                <DifficultySelect label=Key::DifficultyLabel any=Key::AnyDifficulty level=level words=say.0.into()/>
                <p class="field-error" role="alert">{move || error.get()}</p>
                <div class="controls">
                    <button type="submit" class="primary">{say.tr(Key::MakeWorksheet)}</button>
                    <button type="button" on:click=print disabled=move || sheet.with(Option::is_none)>{say.tr(Key::Print)}</button>
                    <Show when=move || making.get()>
                        <button type="button" on:click=cancel>{say.tr(Key::Cancel)}</button>
                    </Show>
                </div>
                <Show when=move || making.get()>
                    <p role="status">{say.tr(Key::MakingWorksheet)}</p>
                </Show>
            </form>
            {move || {
                sheet.get().map(|(rules, items)| {
                    let answers = items.clone();
                    view! {
                        <section class="worksheet" aria-label=say.tr(Key::WorksheetToPrint)>
                            <h3>{move || say.t(Key::WorksheetTitle, &[("goal", &crate::game::number(rules.goal))])}</h3>
                            <ol class="worksheet-rolls">
                                // Numbered by the page, not by list markers: a printer's margin cut "10." to "0.".
                                {items.into_iter().enumerate().map(|(n, i)| view! {
                                    <li class="worksheet-roll"><span class="problem-number">{format!("{}.", n + 1)}</span>" "{i.roll}</li>
                                }).collect_view()}
                            </ol>
                            <section class="answer-key" aria-label=say.tr(Key::AnswerKey)>
                                <h3>{say.tr(Key::AnswerKey)}</h3>
                                <ol>
                                    {answers
                                        .into_iter()
                                        .map(|i| {
                                            view! {
                                                <li>
                                                    {say.signs(&format!("{} → {}", i.roll, i.answer.expr))}
                                                    <span class="working">{say.signs(&format!(" ({})", i.answer.steps.join("; ")))}</span>
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ol>
                            </section>
                        </section>
                    }
                })
            }}
        </div>
    }
}
