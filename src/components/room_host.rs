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
use crate::modules::{Loading, ROOM};

/// The class room's place: the page.
#[component]
pub fn RoomHost(
    /// The room the page was opened on (an empty code: the forms, or the seat kept).
    #[prop(optional)]
    link: RoomLink,
) -> impl IntoView {
    let RoomLink { code, host } = link;
    let invite = Some(code).filter(|c| !c.is_empty());
    view! {
        <div class="room-host">
            <div id="room-root" data-invite=invite data-host=host></div>
            <Loading module=ROOM title=Key::TabRoom class="room-loading" opening=Key::RoomLoading
                unloaded=Key::RoomLoadFailed back=|| ROOM.dispatch("left")/>
        </div>
    }
}
