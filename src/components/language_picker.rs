//! The language picker, in Settings and on the first-visit card: each language named in
//! itself. The page switches in place (the game and its clock go on) and keeps the choice.

use leptos::prelude::*;
use score_i18n::{Key, Lang, Ops};

use crate::ctx::use_ctx;
use crate::lang;
use crate::say::Notice;

/// A `<select>` of every language Score speaks.
#[component]
pub fn LanguagePicker() -> impl IntoView {
    let ctx = use_ctx();
    let current = move || ctx.words.with(|w| w.lang());
    let choose = move |ev: leptos::ev::Event| {
        let Some(lang) = Lang::from_code(&event_target_value(&ev)) else { return };
        leptos::task::spawn_local(async move {
            match lang::switch(ctx.words, lang).await {
                // Kept once it is here: a language that can't be fetched isn't kept.
                Ok(true) => lang::keep(lang),
                // Overtaken by a later pick, which is the one kept.
                Ok(false) => {}
                // Offline before it was first loaded: the page stays in its language.
                Err(()) => ctx.notice(Notice::LanguageUnavailable(lang)),
            }
        });
    };
    view! {
        <label class="language">
            <span>{ctx.tr(Key::Language)}</span>
            " "
            <select on:change=choose>{language_options(current)}</select>
        </label>
    }
}

/// How multiplication and division are written everywhere on the page (the operator buttons,
/// working, solutions, worksheets, the rules): × ÷ or · :, the language's way until chosen.
/// The keys `*` `/` (and `·` `:`) work either way.
#[component]
pub fn OpsPicker() -> impl IntoView {
    let ctx = use_ctx();
    let choose = move |ev: leptos::ev::Event| {
        if let Some(ops) = Ops::from_code(&event_target_value(&ev)) {
            lang::choose_ops(ctx.words, ops);
        }
    };
    view! {
        <label class="language">
            <span>{ctx.tr(Key::OpsSigns)}</span>
            " "
            <select on:change=choose data-testid="ops-signs">
                {Ops::ALL
                    .into_iter()
                    .map(|o| {
                        view! {
                            <option value=o.code() selected=move || ctx.words.with(|w| w.ops()) == o>{o.signs()}</option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// The `<option>`s of every language Score speaks, each named in itself (in its own `lang`),
/// `current` selected: the page's picker, a student's in a room, the room's own on a host
/// screen.
pub fn language_options(current: impl Fn() -> Lang + Copy + Send + Sync + 'static) -> impl IntoView {
    Lang::ALL
        .into_iter()
        .map(|l| view! { <option value=l.code() lang=l.code() selected=move || current() == l>{l.own_name()}</option> })
        .collect_view()
}
