use leptos::prelude::*;
use score_i18n::{Catalog, Key};

/// A choice of difficulty: "any" (0) or 1 to 5, as the engine rates rolls (and, for
/// practice, "at my level").
#[component]
pub fn DifficultySelect(
    /// The label before the list.
    label: Key,
    /// The words for "no particular difficulty".
    any: Key,
    /// The chosen level, 0 for any.
    level: RwSignal<u8>,
    /// The words of the page's language.
    words: Signal<Catalog>,
    /// Offers a level of the player's own ([`crate::game::AT_MY_LEVEL`]) after the five,
    /// in these words ("At my level", "At each student's level").
    #[prop(default = None)]
    mine: Option<Key>,
) -> impl IntoView {
    view! {
        <label class="difficulty-select">
            {move || words.with(|w| w.text(label, &[]))}
            " "
            <select on:change=move |ev| level.set(event_target_value(&ev).parse().unwrap_or(0))>
                // Each option says whether it is the choice: a list built again (a form opened
                // again) shows the choice still in force, not the first option.
                <option value="0" prop:selected=move || level.get() == 0>{move || words.with(|w| w.text(any, &[]))}</option>
                {(1..=5u8).map(|l| view! { <option value=l.to_string() prop:selected=move || level.get() == l>{move || words.with(|w| w.text(Key::Difficulty, &[("level", &l.to_string())]))}</option> }).collect_view()}
                {mine.map(|mine| view! {
                    <option value=crate::game::AT_MY_LEVEL.to_string() prop:selected=move || level.get() == crate::game::AT_MY_LEVEL>{move || words.with(|w| w.text(mine, &[]))}</option>
                })}
            </select>
        </label>
    }
}
