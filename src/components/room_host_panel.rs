//! The Host panel of a class room: auto-deal (the room's setting: the server deals, with
//! or without a host screen open), a typed roll for the room's dice, the room's
//! rules, lock, remove a member (and let them back in), clear the chat, play too, the host link for a second
//! device, the scores as CSV, the teacher's report, end the room.
//! Shown only on a page that holds the host token; every command carries it, and the
//! server checks it. The token is never on screen unless the teacher asks for the host link
//! (then as a link and a QR code for their own phone, hidden again with one press), and
//! never in a URL: the CSV is asked for with a form whose body carries it.

use leptos::prelude::*;
use score_i18n::{Key, Lang};
use score_room::protocol::{ClientMsg, HostCommand, MAX_NAME};

use crate::components::language_picker::language_options;
use crate::components::room_client::{page_link, Room};
use crate::components::room_homework::HomeworkSetup;
use crate::components::RoomReport;

/// Choices for dealing the next roll by itself, seconds after a result (0: off).
const AUTO_DEAL: [u32; 5] = [0, 5, 10, 20, 30];

/// The Host panel; `room` is the page's room client.
#[component]
pub(crate) fn RoomHostPanel(
    /// The room client, holding the host token.
    room: Room,
) -> impl IntoView {
    let Room { seen, error, report, .. } = room;
    // Auto-deal is the room's setting, run by the server: any host screen shows and changes it.
    let auto_secs = Memo::new(move |_| seen.with(|s| s.as_ref().map_or(0, |s| s.auto_deal_secs)));
    let seated = Memo::new(move |_| seen.with(|s| s.as_ref().is_some_and(|s| s.seat.is_some())));
    let members = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.members.clone())).unwrap_or_default());
    let removed =
        Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.mirror.view().removed.clone())).unwrap_or_default());
    let play_name = RwSignal::new(String::new());
    let code = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.code.clone())).unwrap_or_default());
    let host = Memo::new(move |_| seen.with(|s| s.as_ref().and_then(|s| s.host.clone())).unwrap_or_default());
    let host_link = move || page_link(&crate::forms::RoomLink::host_link(&code.get(), &host.get()));
    let show_host_link = RwSignal::new(false);
    let key_ref = NodeRef::<leptos::html::Section>::new();
    let ending = RwSignal::new(false);
    let locked = Memo::new(move |_| seen.with(|s| s.as_ref().is_some_and(|s| s.locked)));
    let kept = Memo::new(move |_| seen.with(|s| s.as_ref().is_some_and(|s| s.kept)));
    let lesson = Memo::new(move |_| seen.with(|s| s.as_ref().map_or(1, |s| s.lesson)));
    // The room's language; a room from before rooms had one shows the page's.
    let room_lang = Memo::new(move |_| {
        let room_lang = seen.with(|s| s.as_ref().and_then(|s| s.mirror.view().lang.clone()));
        room_lang.unwrap_or_else(|| room.words.with(|w| w.lang().code().to_string()))
    });
    let typed_roll = RwSignal::new(String::new());
    let r_dice = RwSignal::new(String::new());
    let r_goal = RwSignal::new(String::new());
    let r_score = RwSignal::new(String::new());
    let r_impossible = RwSignal::new(String::new());
    let r_judging = RwSignal::new(true);
    // The rules form shows the room's rules as they are now.
    let rules = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| (s.rules.clone(), s.judging))));
    Effect::new(move |_| {
        if let Some((rules, judging)) = rules.get() {
            r_dice.set(rules.dice.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "));
            r_goal.set(rules.goal.to_string());
            r_score.set(rules.score_secs.to_string());
            r_impossible.set(rules.impossible_secs.to_string());
            r_judging.set(judging);
        }
    });
    view! {
        <section class="host-controls panel" aria-labelledby="host-title">
            <h2 id="host-title">{room.tr(Key::HostTitle)}</h2>
            <p class="muted">{room.tr(Key::HostAbout)}</p>
            <label class="auto-deal-choice">
                {room.tr(Key::AutoDeal)} " "
                <select on:change=move |ev| {
                    let secs = event_target_value(&ev).parse().unwrap_or(0);
                    room.command(HostCommand::AutoDeal { secs });
                }>
                    {AUTO_DEAL.map(|secs| view! {
                        <option value=secs.to_string() selected=move || auto_secs.get() == secs>
                            {move || if secs == 0 { room.t(Key::AutoDealOff, &[]) } else { room.t(Key::AutoDealAfter, &[("secs", &secs.to_string())]) }}
                        </option>
                    }).into_iter().collect_view()}
                </select>
            </label>
            <div class="controls">
                <button on:click=move |_| room.command(HostCommand::Lock { locked: !locked.get_untracked() })>
                    {move || room.t(if locked.get() { Key::OpenRoom } else { Key::LockRoom }, &[])}
                </button>
                <button on:click=move |_| room.command(HostCommand::ClearChat)>{room.tr(Key::ClearChat)}</button>
            </div>
            <section class="kept-class" aria-labelledby="kept-title">
                <h3 id="kept-title">
                    {move || if kept.get() { room.t(Key::LessonN, &[("lesson", &lesson.get().to_string())]) } else { room.t(Key::KeepClass, &[]) }}
                </h3>
                <Show
                    when=move || kept.get()
                    fallback=move || view! {
                        <p class="muted">{room.tr(Key::KeepClassAbout)}</p>
                        <button type="button" on:click=move |_| room.command(HostCommand::Keep { kept: true })>{room.tr(Key::KeepClass)}</button>
                    }
                >
                    <p class="muted">{room.tr(Key::KeptNote)}</p>
                    <div class="controls">
                        <button type="button" on:click=move |_| {
                            room.command(HostCommand::EndLesson);
                            // The Progress on the page shows the lesson just ended.
                            if report.with_untracked(Option::is_some) {
                                room.command(HostCommand::Report);
                            }
                        }>{room.tr(Key::EndLesson)}</button>
                        <button type="button" on:click=move |_| room.command(HostCommand::Keep { kept: false })>{room.tr(Key::UnkeepClass)}</button>
                    </div>
                    <HomeworkSetup room/>
                    <ForgetStudent room/>
                </Show>
            </section>
            <form class="play-roll" on:submit=move |ev| {
                ev.prevent_default();
                // Checked against the room's own dice, as the server checks it.
                let dice = seen.with_untracked(|s| s.as_ref().map(|s| s.rules.dice.clone())).unwrap_or_default();
                match crate::forms::roll_for(&typed_roll.get_untracked(), &dice) {
                    Ok(roll) => room.command(HostCommand::NewRoll { roll: Some(roll) }),
                    Err(e) => error.set(Some(room.words.with_untracked(|w| crate::say::form_error(&e, w)))),
                }
            }>
                <label>{room.tr(Key::RollForClass)} " " <input type="text" prop:value=move || typed_roll.get() on:input=move |ev| typed_roll.set(event_target_value(&ev))/></label>
                <button type="submit">{room.tr(Key::DealThisRoll)}</button>
            </form>
            <form class="room-rules" on:submit=move |ev| {
                ev.prevent_default();
                let parsed = (
                    crate::forms::dice(&r_dice.get_untracked()),
                    crate::forms::goal(&r_goal.get_untracked()),
                    crate::forms::clock_secs(&r_score.get_untracked(), crate::forms::Entry::ScoreClock),
                    crate::forms::clock_secs(&r_impossible.get_untracked(), crate::forms::Entry::ImpossibleClock),
                );
                match parsed {
                    (Ok(dice), Ok(goal), Ok(score_secs), Ok(impossible_secs)) => room.command(HostCommand::Rules {
                        dice,
                        goal,
                        score_secs,
                        impossible_secs,
                        judging: r_judging.get_untracked(),
                    }),
                    (d, g, s, i) => error.set(
                        d.err().or(g.err()).or(s.err()).or(i.err()).map(|e| room.words.with_untracked(|w| crate::say::form_error(&e, w))),
                    ),
                }
            }>
                <h3>{room.tr(Key::RoomRulesTitle)}</h3>
                <label>{room.tr(Key::DiceSides)} " " <input type="text" prop:value=move || r_dice.get() on:input=move |ev| r_dice.set(event_target_value(&ev))/></label>
                <label>{room.tr(Key::GoalField)} " " <input type="text" inputmode="numeric" prop:value=move || r_goal.get() on:input=move |ev| r_goal.set(event_target_value(&ev))/></label>
                <label>{room.tr(Key::ScoreClockSecs)} " " <input type="text" inputmode="numeric" prop:value=move || r_score.get() on:input=move |ev| r_score.set(event_target_value(&ev))/></label>
                <label>{room.tr(Key::ImpossibleClockSecs)} " " <input type="text" inputmode="numeric" prop:value=move || r_impossible.get() on:input=move |ev| r_impossible.set(event_target_value(&ev))/></label>
                <label class="check">
                    <input type="checkbox" prop:checked=move || r_judging.get() on:change=move |ev| r_judging.set(event_target_checked(&ev))/>
                    " " {room.tr(Key::RoomJudging)}
                </label>
                <button type="submit">{room.tr(Key::ApplyAndRoll)}</button>
            </form>
            <label class="language room-language">
                {room.tr(Key::RoomLanguage)} " "
                // The room's language as a property: another host screen's change (or a command
                // that didn't reach the room) shows here as the room has it.
                <select prop:value=move || room_lang.get() on:change=move |ev| {
                    if let Some(lang) = Lang::from_code(&event_target_value(&ev)) {
                        room.command(HostCommand::Language { lang: lang.code().to_string() });
                    }
                }>
                    {language_options(move || room_lang.with(|l| Lang::from_code(l)).unwrap_or(Lang::En))}
                </select>
            </label>
            <Show when=move || !seated.get()>
                <form class="play-too" on:submit=move |ev| {
                    ev.prevent_default();
                    room.send(ClientMsg::Sit { name: play_name.get_untracked() });
                }>
                    <h3>{room.tr(Key::PlayTooTitle)}</h3>
                    <p class="muted">{room.tr(Key::PlayTooAbout)}</p>
                    <label>{room.tr(Key::YourName)} " " <input type="text" maxlength=MAX_NAME prop:value=move || play_name.get() on:input=move |ev| play_name.set(event_target_value(&ev))/></label>
                    <button type="submit">{room.tr(Key::PlayToo)}</button>
                </form>
            </Show>
            <section class="members" aria-labelledby="members-title">
                <h3 id="members-title">{room.tr(Key::MembersTitle)}</h3>
                <ul>
                    {move || members.get().into_iter().map(|p| {
                        let seat = p.seat;
                        let name = p.name.clone();
                        view! {
                            <li class:away=p.away>
                                <span>{p.name.clone()}</span>
                                // Only who is away is marked: a full class reads as a plain list.
                                {p.away.then(|| view! { <span class="presence">" " {room.tr(Key::Away)}</span> })}
                                <button aria-label=move || room.t(Key::RemoveName, &[("name", &name)]) on:click={
                                    let name = p.name.clone();
                                    move |_| room.command(HostCommand::Remove { seat, name: Some(name.clone()) })
                                }>{room.tr(Key::Remove)}</button>
                                // A kept class's student back on another device.
                                {move || kept.get().then(|| {
                                    let (label, name) = (p.name.clone(), p.name.clone());
                                    view! {
                                        <button aria-label=move || room.t(Key::FreeSeatName, &[("name", &label)]) on:click=move |_| room.command(HostCommand::Free { seat, name: Some(name.clone()) })>{room.tr(Key::FreeSeat)}</button>
                                    }
                                })}
                            </li>
                        }
                    }).collect_view()}
                </ul>
                <Show when=move || kept.get()>
                    <p class="muted">{room.tr(Key::FreeSeatAbout)}</p>
                </Show>
                <p class="muted">{room.tr(Key::ClearEmptyAbout)}</p>
                <button type="button" on:click=move |_| room.command(HostCommand::ClearEmpty)>{room.tr(Key::ClearEmpty)}</button>
                // Removed names stay out until let back in (docs/RULES.md §5).
                <Show when=move || !removed.with(Vec::is_empty)>
                    <h4 id="removed-title">{room.tr(Key::RemovedTitle)}</h4>
                    <p class="muted">{room.tr(Key::RemovedAbout)}</p>
                    <ul aria-labelledby="removed-title">
                        {move || removed.get().into_iter().map(|name| {
                            let label = name.clone();
                            view! {
                                <li class="removed">
                                    <span>{name.clone()}</span>
                                    <button aria-label=move || room.t(Key::LetBackInName, &[("name", &label)]) on:click=move |_| room.command(HostCommand::Readmit { name: name.clone() })>{room.tr(Key::LetBackIn)}</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </Show>
            </section>
            // The teacher's key: the host link and its QR code, shown on request and printable
            // alone, to run the class from another device or after this browser forgets it.
            <section class="host-link teacher-key" node_ref=key_ref aria-labelledby="host-link-title">
                <h3 id="host-link-title">{room.tr(Key::AnotherDevice)}</h3>
                <Show
                    when=move || show_host_link.get()
                    fallback=move || view! {
                        <p class="muted">{room.tr(Key::HostLinkAbout)}</p>
                        <button type="button" on:click=move |_| show_host_link.set(true)>{room.tr(Key::ShowHostLink)}</button>
                    }
                >
                    <p class="share">
                        <label>
                            {room.tr(Key::HostLink)} " "
                            <input type="text" readonly prop:value=host_link/>
                        </label>
                    </p>
                    <p class="key-note">{move || room.t(Key::TeacherKeyNote, &[("code", &code.get())])}</p>
                    <div class="room-qr host-qr" role="img" aria-label=room.tr(Key::HostQr) inner_html=move || crate::qr::svg(&host_link()).unwrap_or_default()></div>
                    <div class="controls">
                        <button type="button" on:click=move |_| {
                            // Printed alone: the page's print styles show only a key marked so,
                            // marked on the element itself, before the print dialog opens.
                            if let (Some(w), Some(key)) = (web_sys::window(), key_ref.get_untracked()) {
                                let _ = key.set_attribute("data-printing", "");
                                let _ = w.print();
                                let _ = key.remove_attribute("data-printing");
                            }
                        }>{room.tr(Key::PrintTeacherKey)}</button>
                        <button type="button" on:click=move |_| show_host_link.set(false)>{room.tr(Key::HideHostLink)}</button>
                    </div>
                </Show>
            </section>
            <CsvButton room code host/>
            <p>
                <button on:click=move |_| room.command(HostCommand::Report)>
                    {move || room.t(if report.with(Option::is_some) { Key::UpdateReport } else { Key::ShowReport }, &[])}
                </button>
            </p>
            {move || report.get().map(|crate::components::room_client::Report { rows, progress, mut hardest }| {
                // The roll on the table stays out while it is in play (the report may be older).
                seen.with(|s| if let Some(s) = s { hardest.retain(|h| !h.in_play(s.mirror.view())) });
                // A student's level is worded at the room's game (its dice, goal and operators).
                let game = seen.with(|s| s.as_ref().map(|s| s.rules.clone())).unwrap_or_default();
                view! { <RoomReport words=room.words code=code.get() rows progress hardest game/> }
            })}
            <Show
                when=move || ending.get()
                fallback=move || view! {
                    <button class="danger" on:click=move |_| {
                        ending.set(true);
                        // The report is on the page to print or keep before the room ends.
                        room.command(HostCommand::Report);
                    }>{room.tr(Key::EndRoom)}</button>
                }
            >
                <div class="end-confirm" role="alertdialog" aria-labelledby="end-title" aria-describedby="end-words">
                    <h3 id="end-title">{room.tr(Key::EndRoomTitle)}</h3>
                    <p id="end-words">{room.tr(Key::EndRoomWords)}</p>
                    <div class="controls">
                        <CsvButton room code host/>
                        <button type="button" on:click=move |_| ending.set(false)>{room.tr(Key::KeepRoom)}</button>
                        <button type="button" class="danger" on:click=move |_| room.command(HostCommand::End)>{room.tr(Key::EndRoomNow)}</button>
                    </div>
                </div>
            </Show>
        </section>
    }
}

/// "Download scores (CSV)": a form posted to `scores.csv?room=CODE` (the code routes it
/// behind a proxy), the host token in its body (a URL would put it in the server's and
/// proxies' logs); the answer is a download, so the page stays.
#[component]
fn CsvButton(
    /// The room client (its words: the download is in the page's language).
    room: Room,
    /// The room's code.
    code: Memo<String>,
    /// The host token.
    host: Memo<String>,
) -> impl IntoView {
    view! {
        <form class="csv-download" method="post" action=move || format!("scores.csv?room={}", code.get())>
            <input type="hidden" name="host" prop:value=move || host.get()/>
            <input type="hidden" name="lang" prop:value=move || room.words.with(|w| w.lang().code())/>
            <input type="hidden" name="ops" prop:value=move || room.words.with(|w| w.ops().code())/>
            <button type="submit">{room.tr(Key::DownloadCsv)}</button>
        </form>
    }
}

/// Deleting one student's record for good (a student who left the school): the name, then
/// a confirmation that says what goes.
#[component]
fn ForgetStudent(room: Room) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let asking = RwSignal::new(false);
    view! {
        <form class="forget-student" on:submit=move |ev| {
            ev.prevent_default();
            if !name.get_untracked().trim().is_empty() {
                asking.set(true);
            }
        }>
            <h3>{room.tr(Key::ForgetTitle)}</h3>
            <p class="muted">{room.tr(Key::ForgetAbout)}</p>
            <label>{room.tr(Key::ForgetName)} " " <input type="text" maxlength=MAX_NAME prop:value=move || name.get() on:input=move |ev| {
                name.set(event_target_value(&ev));
                asking.set(false);
            }/></label>
            <Show
                when=move || asking.get()
                fallback=move || view! { <button type="submit">{room.tr(Key::ForgetButton)}</button> }
            >
                <div class="end-confirm" role="alertdialog" aria-labelledby="forget-words">
                    <p id="forget-words">{move || room.t(Key::ForgetConfirm, &[("name", name.get().trim())])}</p>
                    <div class="controls">
                        <button type="button" on:click=move |_| asking.set(false)>{room.tr(Key::Cancel)}</button>
                        <button type="button" class="danger" on:click=move |_| {
                            room.command(HostCommand::Forget { name: name.get_untracked().trim().to_string() });
                            asking.set(false);
                            name.set(String::new());
                        }>{room.tr(Key::ForgetNow)}</button>
                    </div>
                </div>
            </Show>
        </form>
    }
}
