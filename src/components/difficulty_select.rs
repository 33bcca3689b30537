use leptos::prelude::*;

/// A choice of difficulty: "any" (0) or 1 to 5, as the engine rates rolls.
#[component]
pub fn DifficultySelect(
    /// The label before the list.
    label: &'static str,
    /// The words for "no particular difficulty".
    any: &'static str,
    /// The chosen level, 0 for any.
    level: RwSignal<u8>,
) -> impl IntoView {
    view! {
        <label class="difficulty-select">
            {label}
            <select on:change=move |ev| level.set(event_target_value(&ev).parse().unwrap_or(0))>
                <option value="0">{any}</option>
                {(1..=5u8).map(|l| view! { <option value=l.to_string()>{format!("difficulty {l}")}</option> }).collect_view()}
            </select>
        </label>
    }
}
