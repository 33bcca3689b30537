//! A class room's chat: the lines kept, as text (never HTML), and a message box.

use leptos::prelude::*;
use score_i18n::Key;
use score_room::protocol::{ClientMsg, MAX_CHAT};

use crate::components::room_client::Room;

/// The chat; `room` is the page's room client.
#[component]
pub(crate) fn RoomChat(
    /// The room client.
    room: Room,
) -> impl IntoView {
    let seen = room.seen;
    let message = RwSignal::new(String::new());
    let send_chat = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = message.get_untracked();
        if !text.trim().is_empty() {
            room.send(ClientMsg::Chat { text });
            message.set(String::new());
        }
    };
    view! {
        <section class="room-chat" aria-labelledby="chat-title">
            <h2 id="chat-title">{room.tr(Key::ChatTitle)}</h2>
            <ul class="chat-lines">
                {move || seen.with(|s| s.as_ref().map(|s| s.chat.clone())).unwrap_or_default().into_iter().map(|c| {
                    // The name in bold where the language puts it; both keep their own direction.
                    let (before, after) = room.words.with(|w| w.around(Key::ChatLine, "name", &[("text", &c.text)]));
                    // The teacher's lines say so in the reader's language (never a student's name).
                    let name = if c.teacher { room.t(Key::ChatTeacher, &[]) } else { c.name };
                    view! { <li class:teacher=c.teacher>{before}<strong><bdi>{name}</bdi></strong>{after}</li> }
                }).collect_view()}
            </ul>
            <form on:submit=send_chat>
                <label>{room.tr(Key::ChatMessage)} " " <input type="text" maxlength=MAX_CHAT prop:value=move || message.get() on:input=move |ev| message.set(event_target_value(&ev))/></label>
                <button type="submit">{room.tr(Key::Send)}</button>
            </form>
        </section>
    }
}
