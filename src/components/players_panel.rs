use leptos::prelude::*;

use score_i18n::Key;

use crate::ctx::{roll_dice, use_ctx};
use crate::forms;
use crate::game::Match;
use crate::hooks::use_clock::now_ms;

/// Pass-and-play: 2 to 8 named players or teams share the screen and the roll.
#[component]
pub fn PlayersPanel() -> impl IntoView {
    let ctx = use_ctx();
    let game = ctx.game;
    let names = RwSignal::new(String::new());
    let judging = RwSignal::new(true);
    let error = RwSignal::new(None::<String>);
    let playing = Memo::new(move |_| game.with(|g| g.group.is_some()));
    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match forms::player_names(&names.get_untracked()) {
            Ok(list) => {
                error.set(None);
                let m = Match::new(list, judging.get_untracked());
                game.update(|g| {
                    let roll = roll_dice(&g.rules);
                    g.set_group(Some(m), roll, now_ms());
                });
                crate::ctx::show_table();
            }
            Err(e) => error.set(Some(ctx.form_error(&e))),
        }
    };
    view! {
        <div class="panel" aria-label=ctx.tr(Key::TabPlayers)>
            <h2>{ctx.tr(Key::TabPlayers)}</h2>
            <Show
                when=move || playing.get()
                fallback=move || {
                    view! {
                        <p>
                            {ctx.tr(Key::PlayersIntro)}
                        </p>
                        <form class="players" on:submit=start>
                            <label>
                                {ctx.tr(Key::NamesOnePerLine)}
                                " "
                                <textarea
                                    rows="4"
                                    prop:value=move || names.get()
                                    on:input=move |ev| names.set(event_target_value(&ev))
                                ></textarea>
                            </label>
                            <p class="field-error" role="alert">{move || error.get()}</p>
                            <label class="check">
                                <input
                                    type="checkbox"
                                    prop:checked=move || judging.get()
                                    on:change=move |ev| judging.set(event_target_checked(&ev))
                                />
                                " "
                                {ctx.tr(Key::ComputerJudges)}
                            </label>
                            <button type="submit" class="primary" disabled=move || game.with(|g| g.round.is_running()) title=move || game.with(|g| g.round.is_running()).then(|| ctx.t(Key::SettleFirst, &[])) >{ctx.tr(Key::StartMatch)}</button>
                        </form>
                    }
                }
            >
                <p>{ctx.tr(Key::MatchIsOn)}</p>
                <button on:click=move |_| game.update(|g| {
                        let roll = roll_dice(&g.rules);
                        g.set_group(None, roll, now_ms());
                    })>{ctx.tr(Key::EndMatch)}</button>
            </Show>
        </div>
    }
}
