//! Creating or joining a class room. To join: the room's code and a name. To create: only
//! whether the computer judges, and a name if the teacher plays too. A link to a room
//! (`?room=CODE`, the invite and its QR code) is a student's: it shows only Join, the code
//! filled in and the name focused, with creating a room one small link away. A room that
//! refused (none with that code, full, locked) or a seat given up while its member was away
//! brings the form back with the code kept.

use leptos::prelude::*;
use score_i18n::Key;
use score_room::protocol::{room_code, ClientMsg, CODE_LEN, MAX_NAME, VERSION};

use crate::components::room_client::{new_code, Room};

/// The forms; `room` is the page's room client.
#[component]
pub(crate) fn RoomJoin(
    /// The room client.
    room: Room,
    /// Opened by an invite: Join only, until the reader asks to create a room.
    invited: bool,
) -> impl IntoView {
    let Room { error, code, name, .. } = room;
    let creating = RwSignal::new(!invited);
    let name_field = NodeRef::<leptos::html::Input>::new();
    if invited {
        // The room's socket opens while the student types their name (a link's code that
        // is none is said to be none when Join is pressed, with no socket).
        if let Some(c) = room_code(&code.get_untracked()) {
            room.warm_up(&c);
        }
        // The code is filled in: the name is what a student types first.
        Effect::new(move |_| {
            if let Some(input) = name_field.get() {
                let _ = input.focus();
            }
        });
    }
    let judging = RwSignal::new(true);
    // The teacher presents the room and takes no seat, unless they give a name to play under.
    let host_name = RwSignal::new(String::new());
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let playing = Some(host_name.get_untracked()).filter(|n| !n.trim().is_empty());
        room.start(ClientMsg::Create {
            version: VERSION,
            code: new_code(),
            name: playing,
            judging: judging.get_untracked(),
            // The room starts in the language of the page that creates it.
            // (read from the page: this module's own words may still be on their way).
            lang: Some(crate::lang::marked().code().to_string()),
        });
    };
    let join = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match room_code(&code.get_untracked()) {
            Some(c) => {
                let device = crate::storage::device_id();
                room.start(ClientMsg::Join {
                    version: VERSION,
                    code: c,
                    name: name.get_untracked(),
                    token: None,
                    device,
                })
            }
            None => error.set(Some(room.count(Key::RoomCodeForm, CODE_LEN as u64, &[]))),
        }
    };
    let create_form = move || {
        view! {
            <form on:submit=create class="create-room">
                <h3>{room.tr(Key::CreateRoomTitle)}</h3>
                <p class="muted">{room.tr(Key::CreateRoomAbout)}</p>
                <label>{room.tr(Key::PlayTooAs)} " " <input type="text" maxlength=MAX_NAME prop:value=move || host_name.get() on:input=move |ev| host_name.set(event_target_value(&ev))/></label>
                <label class="check">
                    <input type="checkbox" prop:checked=move || judging.get() on:change=move |ev| judging.set(event_target_checked(&ev))/>
                    " " {room.tr(Key::RoomJudging)}
                </label>
                <button type="submit" class=if invited { "" } else { "primary" }>{room.tr(Key::CreateRoom)}</button>
            </form>
        }
    };
    view! {
        <div class="room-forms" class:invited=invited>
            // A teacher's door: creating first. A student's (an invite): joining only.
            {(!invited).then(create_form)}
            <form on:submit=join class="join-room">
                <h3>{room.tr(Key::JoinRoomTitle)}</h3>
                <label>{room.tr(Key::RoomCodeField)} " " <input type="text" maxlength=CODE_LEN autocapitalize="characters" prop:value=move || code.get() on:input=move |ev| code.set(event_target_value(&ev))/></label>
                <label>{room.tr(Key::YourName)} " " <input node_ref=name_field type="text" maxlength=MAX_NAME autocomplete="nickname" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
                <button type="submit" class="primary">{room.tr(Key::Join)}</button>
            </form>
            {invited.then(|| view! {
                <Show
                    when=move || creating.get()
                    fallback=move || view! {
                        <p class="create-instead">
                            <button type="button" class="link" on:click=move |_| creating.set(true)>{room.tr(Key::CreateInstead)}</button>
                        </p>
                    }
                >
                    {create_form()}
                </Show>
            })}
        </div>
    }
}
