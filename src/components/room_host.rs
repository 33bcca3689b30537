//! Where a class room goes: the whole page, while the player is in it. The room is its own
//! wasm module (`score-room`), fetched the first time a player opens a room, so the table's
//! first load doesn't carry it. The two modules share only the page: this host renders
//! `#room-root` (with the link's code in `data-invite` and a host link's token in
//! `data-host`) and tells the room module through window events when to mount into it
//! (`score-room:open`) and when to let go (`score-room:close`); the room says when the
//! player leaves it (`score-room:left`).

use leptos::prelude::*;
use score_i18n::Key;

use crate::forms::RoomLink;
use crate::modules::ROOM;

/// The class room's place: the page.
#[component]
pub fn RoomHost(
    /// The room the page was opened on (an empty code: the forms, or the seat kept).
    #[prop(optional)]
    link: RoomLink,
) -> impl IntoView {
    let say = crate::ctx::use_words();
    let tr = move |key: Key| say.tr(key);
    let RoomLink { code, host } = link;
    let invite = Some(code).filter(|c| !c.is_empty());
    let failed = RwSignal::new(false);
    ROOM.host(failed);
    view! {
        <div class="room-host">
            <div id="room-root" data-invite=invite data-host=host></div>
            <section class="panel room-loading" aria-label=tr(Key::TabRoom)>
                <h2>{tr(Key::TabRoom)}</h2>
                <p role="status">
                    {move || tr(if failed.get() { Key::RoomLoadFailed } else { Key::RoomLoading })()}
                </p>
                <Show when=move || failed.get()>
                    <button type="button" class="primary" on:click=move |_| ROOM.open(failed)>
                        {tr(Key::TryAgain)}
                    </button>
                    <button type="button" on:click=move |_| ROOM.dispatch("left")>
                        {tr(Key::BackToSolitaire)}
                    </button>
                </Show>
            </section>
        </div>
    }
}
