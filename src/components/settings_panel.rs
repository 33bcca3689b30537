use leptos::prelude::*;
use score_engine::rules::{Field, Preset, Rules};

use score_i18n::Key;

use crate::components::{LanguagePicker, OpsPicker};
use crate::ctx::{roll_dice, use_ctx};
use crate::forms;
use crate::hooks::use_clock::now_ms;

/// Messages per field of the settings form.
#[derive(Debug, Clone, Default, PartialEq)]
struct Errors {
    dice: Option<String>,
    goal: Option<String>,
    score: Option<String>,
    impossible: Option<String>,
}

fn clock(text: &str, what: forms::Entry) -> Result<u32, forms::FormError> {
    forms::clock_secs(text, what)
}

/// Preset, dice, goal, clocks and strict mode. Nothing changes until every field is good.
#[component]
pub fn SettingsPanel() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    let current = game.with_untracked(|g| g.rules.clone());
    let dice_text = |r: &Rules| r.dice.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    let dice = RwSignal::new(dice_text(&current));
    let goal = RwSignal::new(current.goal.to_string());
    let score_secs = RwSignal::new(current.score_secs.to_string());
    let impossible_secs = RwSignal::new(current.impossible_secs.to_string());
    let strict = RwSignal::new(current.strict);
    let base = RwSignal::new(current.clone());
    let errors = RwSignal::new(Errors::default());
    let saved = RwSignal::new(false);

    let choose_preset = move |key: String| {
        if let Some(p) = Preset::from_key(&key) {
            let r = Rules::preset(p);
            dice.set(dice_text(&r));
            goal.set(r.goal.to_string());
            base.set(r);
        }
    };
    let apply = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        saved.set(false);
        let (d, g) = (forms::dice(&dice.get_untracked()), forms::goal(&goal.get_untracked()));
        let (s, i) = (
            clock(&score_secs.get_untracked(), forms::Entry::ScoreClock),
            clock(&impossible_secs.get_untracked(), forms::Entry::ImpossibleClock),
        );
        let mut e = Errors {
            dice: d.as_ref().err().map(|e| ctx.form_error(e)),
            goal: g.as_ref().err().map(|e| ctx.form_error(e)),
            score: s.as_ref().err().map(|e| ctx.form_error(e)),
            impossible: i.as_ref().err().map(|e| ctx.form_error(e)),
        };
        if let (Ok(d), Ok(g), Ok(s), Ok(i)) = (d, g, s, i) {
            let rules = Rules {
                dice: d,
                goal: g,
                score_secs: s,
                impossible_secs: i,
                strict: strict.get_untracked(),
                ..base.get_untracked()
            };
            match rules.validate() {
                Ok(()) => {
                    let roll = roll_dice(&rules);
                    // The Preset field names the rules now in force ("Custom" for 6 6 6 → 10).
                    base.set(rules.clone());
                    game.update(|gm| gm.new_roll(rules, roll, now_ms()));
                    saved.set(true);
                    crate::ctx::show_table();
                }
                Err(list) => {
                    for err in list {
                        let msg = Some(ctx.words.with_untracked(|w| score_room::say::rules_error(&err, w)));
                        match err.field() {
                            Field::DiceCount | Field::Sides(_) | Field::Ops => e.dice = msg,
                            Field::Goal => e.goal = msg,
                            Field::ScoreClock => e.score = msg,
                            Field::ImpossibleClock => e.impossible = msg,
                        }
                    }
                }
            }
        }
        errors.set(e);
    };
    let field = move |label: Key, numeric: bool, value: RwSignal<String>, error: fn(&Errors) -> Option<String>| {
        view! {
            <label>
                {move || ctx.t(label, &[])}
                " "
                <input
                    type="text"
                    inputmode=numeric.then_some("numeric")
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                    aria-invalid=move || errors.with(|e| error(e).is_some()).to_string()
                />
            </label>
            <p class="field-error" role="alert">{move || errors.with(error)}</p>
        }
    };
    view! {
        <div class="panel" aria-label=ctx.tr(Key::TabSettings)>
            <h2>{ctx.tr(Key::TabSettings)}</h2>
            <LanguagePicker/>
            <OpsPicker/>
            <form class="settings" on:submit=apply>
                <label>
                    {ctx.tr(Key::Preset)}
                    " "
                    <select on:change=move |ev| choose_preset(event_target_value(&ev))>
                        <option value="" selected=move || base.with(|b| b.matches_preset().is_none())>
                            {ctx.tr(Key::PresetCustom)}
                        </option>
                        <option value="score" selected=move || base.with(|b| b.matches_preset() == Some(Preset::Score))>
                            {ctx.tr(Key::PresetScore)}
                        </option>
                        <option value="24" selected=move || base.with(|b| b.matches_preset() == Some(Preset::TwentyFour))>
                            {ctx.tr(Key::Preset24)}
                        </option>
                    </select>
                </label>
                {field(Key::DiceSides, false, dice, |e| e.dice.clone())}
                {field(Key::GoalField, true, goal, |e| e.goal.clone())}
                {field(Key::ScoreClockSecs, true, score_secs, |e| e.score.clone())}
                {field(Key::ImpossibleClockSecs, true, impossible_secs, |e| e.impossible.clone())}
                <label class="check">
                    <input
                        type="checkbox"
                        prop:checked=move || strict.get()
                        on:change=move |ev| strict.set(event_target_checked(&ev))
                    />
                    " "
                    {ctx.tr(Key::StrictMode)}
                </label>
                <button type="submit" class="primary" disabled=move || game.with(|g| g.round.is_running()) title=move || game.with(|g| g.round.is_running()).then(|| ctx.t(Key::SettleFirst, &[])) >{ctx.tr(Key::ApplyAndRoll)}</button>
                <p role="status">{move || saved.get().then(|| ctx.t(Key::SettingsSaved, &[]))}</p>
            </form>
        </div>
    }
}
