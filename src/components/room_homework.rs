//! Homework in a kept class (docs/RULES.md §5): the teacher's form and live lines on the Host
//! panel, the student's card ("Start homework", "Go on with homework") and the student's own
//! homework table. The room judges every claim and move, as in class; the page shows what its
//! [`Mirror`](score_room::mirror::Mirror) of the student's room of one says, and knows nothing
//! of a roll's verdict.

use leptos::context::Provider;
use leptos::prelude::*;
use score_engine::roll::roll_text;
use score_engine::round::signed;
use score_i18n::Key;
use score_room::protocol::{Claim, ClientMsg, HomeworkCommand, HomeworkInfo, HostCommand};
use score_room::ratings::MAX_RATED_DICE;
use score_room::say;
use wasm_bindgen::JsValue;

use crate::components::room_client::Room;
use crate::components::room_table::board_act;
use crate::components::{ClaimBar, DifficultySelect, TableView};
use crate::game::ResultLine;
use crate::table::{Act, ClaimRow, Claims, ClockView, Desk, Table, TableSource};

/// Rolls in new homework unless the teacher says otherwise.
const ROLLS: u32 = 10;

/// A day, ms.
const DAY_MS: f64 = 86_400_000.0;

/// A student's homework table, on the same table as solitaire and the class's.
#[derive(Clone, Copy)]
pub(crate) struct Homework(pub(crate) Room);

impl Homework {
    fn send(self, command: HomeworkCommand) {
        self.0.send(ClientMsg::Homework { command });
    }
}

/// Whether the class's homework takes claims at this page's `now` (not closed, not due).
fn open_at(info: &HomeworkInfo, due_here: u64, now: u64) -> bool {
    !info.closed && now < due_here
}

impl TableSource for Homework {
    fn desk(&self) -> Desk {
        let room = self.0;
        let (slots, message, rolls) = (room.hw_slots.get(), room.hw_message.get(), room.hw_rolls.get());
        room.seen.with(|s| {
            let rules = s.as_ref().and_then(|s| s.mirror.homework().map(|t| t.view().rules.clone()));
            room.hw_board.with(|b| match (b, rules) {
                (Some(b), Some(rules)) => Desk::of(b, &rules, slots, message, rolls),
                _ => Desk::default(),
            })
        })
    }

    fn claims(&self) -> Claims {
        let room = self.0;
        let now = room.now.get();
        room.seen.with(|s| {
            let Some(s) = s else { return Claims::default() };
            let (Some(t), Some(info)) = (s.mirror.homework(), s.homework.as_ref()) else { return Claims::default() };
            let v = t.view();
            let done = s.run.as_ref().is_some_and(|r| r.done);
            // A closed or due homework takes no claim (the room refuses it and says why).
            let can = open_at(info, s.local(info.due), now) && !done;
            let roll = roll_text(&v.roll);
            Claims {
                rows: vec![ClaimRow { player: 0, name: None, score: None }],
                score_ok: can && t.may_score(),
                impossible_ok: can && t.may_claim_impossible(),
                scoreboard: false,
                reveal: !done && t.may_reveal(),
                give_up: !done && t.may_give_up(),
                // Untimed: the SCORE clock is no race, so no countdown shows.
                clock: v.clock.filter(|c| !(info.untimed && c.claim == Claim::Score)).map(|c| ClockView {
                    holder: None,
                    label: room
                        .t(if c.claim == Claim::Score { Key::ClockScoreYou } else { Key::ClockImpossibleYou }, &[]),
                    deadline: t.local(c.deadline),
                }),
                results: v
                    .results
                    .iter()
                    .map(|o| ResultLine {
                        points: o.points,
                        text: room.words.with(|w| say::outcome(o, Some(0), v.rules.goal, &roll, w)),
                        working: Vec::new(),
                    })
                    .collect(),
                settled: v.settled,
                // The student deals their own next roll, when they are ready.
                next: v.settled && !done,
            }
        })
    }

    fn act(&self, act: Act) {
        let hw = *self;
        let room = hw.0;
        let Some(act) = board_act(room.hw_slots, act, |a| room.homework_act(a)) else { return };
        match act {
            Act::Score(_) => hw.send(HomeworkCommand::Claim { claim: Claim::Score }),
            Act::Impossible(_) => hw.send(HomeworkCommand::Claim { claim: Claim::Impossible }),
            Act::Reveal => hw.send(HomeworkCommand::Reveal),
            Act::GiveUp => hw.send(HomeworkCommand::GiveUp),
            Act::Next => hw.send(HomeworkCommand::Next),
            _ => {}
        }
    }
}

/// A due date (this page's ms) as the reader's language writes a day ("Fri, 4 Dec").
fn due_words(local_ms: u64, lang: &str) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(local_ms as f64));
    let options = js_sys::Object::new();
    for (k, v) in [("weekday", "short"), ("day", "numeric"), ("month", "short")] {
        let _ = js_sys::Reflect::set(&options, &k.into(), &v.into());
    }
    String::from(date.to_locale_date_string(lang, &options))
}

/// The class's homework in a sentence: "Homework 2: 10 rolls, due Fri, 4 Dec.", or closed.
fn homework_line(room: Room, info: &HomeworkInfo, due_here: u64) -> String {
    let number = info.number.to_string();
    if !open_at(info, due_here, room.now.get()) {
        return room.t(Key::HomeworkClosedInfo, &[("number", &number)]);
    }
    let due = room.words.with(|w| due_words(due_here, w.lang().code()));
    room.count(Key::HomeworkInfo, u64::from(info.rolls), &[("number", &number), ("due", &due)])
}

/// "Homework done: +2 points. SCOREs made: 1, IMPOSSIBLEs right: 1." for a run's tally.
fn done_line(room: Room, made: u32, right: u32, points: i32) -> String {
    let done = room.count(Key::HomeworkDone, u64::from(points.unsigned_abs()), &[("points", &signed(points))]);
    let (made, right) = (made.to_string(), right.to_string());
    let counts = room.t(Key::HomeworkCounts, &[("made", &made), ("right", &right)]);
    format!("{done} {counts}")
}

/// The student's homework card on the class page: what is set, and Start / Go on.
#[component]
pub(crate) fn HomeworkCard(room: Room) -> impl IntoView {
    let seen = room.seen;
    let card = Memo::new(move |_| {
        seen.with(|s| {
            let s = s.as_ref()?;
            let info = s.homework.clone()?;
            let run = s.run.as_ref().map(|r| (r.done, r.tally.scores_made, r.tally.impossible_right, r.tally.points));
            Some((info.clone(), s.local(info.due), run))
        })
    });
    let open = move || {
        room.send(ClientMsg::Homework { command: HomeworkCommand::Start });
        room.hw_open.set(true);
    };
    move || {
        card.get().map(|(info, due, run)| {
            let line = homework_line(room, &info, due);
            let going = open_at(&info, due, room.now.get());
            let action = match run {
                Some((true, made, right, points)) => view! { <p data-testid="homework-done">{done_line(room, made, right, points)}</p> }.into_any(),
                Some(_) => view! { <button type="button" class="primary" on:click=move |_| open()>{room.tr(Key::GoOnHomework)}</button> }.into_any(),
                None if going => view! { <button type="button" class="primary" on:click=move |_| open()>{room.tr(Key::StartHomework)}</button> }.into_any(),
                None => ().into_any(),
            };
            view! {
                <section class="homework-card" aria-labelledby="homework-card-title">
                    <h2 id="homework-card-title">{room.tr(Key::HomeworkTitle)}</h2>
                    <p data-testid="homework-info">{line}</p>
                    {info.adaptive.then(|| view! { <p class="muted" data-testid="homework-adaptive">{room.tr(Key::HomeworkAdaptive)}</p> })}
                    {action}
                </section>
            }
        })
    }
}

/// The student's homework, in place of the class's table: their roll, alone, at their pace.
#[component]
pub(crate) fn HomeworkTable(room: Room) -> impl IntoView {
    // Its own context, below a Provider: the class's table (provided above) is found again
    // once the student goes back to the class.
    let table = Table::new(Homework(room), room.now.into(), room.words.into());
    let seen = room.seen;
    let state = Memo::new(move |_| {
        seen.with(|s| {
            let s = s.as_ref()?;
            let info = s.homework.clone()?;
            let run = s.run.as_ref()?;
            let t = &run.tally;
            Some((
                info,
                run.at,
                run.done,
                (t.scores_made, t.impossible_right, t.points),
                run.view.clock.is_none() && !run.view.settled,
            ))
        })
    });
    let stage = Memo::new(move |_| state.with(|s| s.as_ref().map(|(_, _, done, ..)| *done)));
    let passable = Memo::new(move |_| state.with(|s| s.as_ref().is_some_and(|(.., passable)| *passable)));
    let back = move |_| room.hw_open.set(false);
    view! {
        <Provider value=table>
        <section class="homework play" aria-labelledby="homework-title">
            <header class="room-bar homework-bar">
                <h2 id="homework-title">{move || state.get().map(|(info, ..)| room.t(Key::ProgressHomework, &[("number", &info.number.to_string())]))}</h2>
                <p data-testid="homework-at">{move || state.get().map(|(info, at, done, (_, _, points), _)| {
                    let at = (at + u32::from(!done)).min(info.rolls).to_string();
                    let (rolls, points) = (info.rolls.to_string(), signed(points));
                    format!("{} · {}", room.t(Key::HomeworkRollOf, &[("at", &at), ("rolls", &rolls)]), room.t(Key::HomeworkPoints, &[("points", &points)]))
                })}</p>
                <button type="button" on:click=back>{room.tr(Key::BackToClass)}</button>
            </header>
            {move || state.get().map(|(info, _, done, ..)| {
                // Due or ended while under way: said here, and Next shows what they made of it.
                let closed = seen.with(|s| s.as_ref().map(|s| !open_at(&info, s.local(info.due), room.now.get()))).unwrap_or(false);
                view! {
                    {(closed && !done).then(|| view! { <p class="notice" role="status">{room.t(Key::HomeworkClosedInfo, &[("number", &info.number.to_string())])}</p> })}
                    {info.solvable.then(|| view! { <p class="muted">{room.tr(Key::HomeworkSolvable)}</p> })}
                    {info.adaptive.then(|| view! { <p class="muted">{room.tr(Key::HomeworkAdaptive)}</p> })}
                    {info.untimed.then(|| view! { <p class="muted">{room.tr(Key::HomeworkUntimedNote)}</p> })}
                }
            })}
            // The table is built once per stage (on its way, playing, done): a clock starting or
            // a result coming in changes what it shows, never the table itself under a finger.
            {move || match stage.get() {
                // Asked for and on its way (or refused: the room's sentence says why).
                None => view! { <p class="muted">{move || room.error.get().unwrap_or_else(|| room.t(Key::RoomConnecting, &[]))}</p> }.into_any(),
                Some(true) => view! {
                    <p class="homework-summary" data-testid="homework-done" role="status">{move || {
                        state.get().map(|(_, _, _, (made, right, points), _)| done_line(room, made, right, points))
                    }}</p>
                }.into_any(),
                Some(false) => view! {
                    <ClaimBar/>
                    <TableView/>
                    // A roll with no claim on it may be passed over (it counts as played, for no points).
                    <Show when=move || passable.get()>
                        <button type="button" class="pass" on:click=move |_| room.send(ClientMsg::Homework { command: HomeworkCommand::Next })>{room.tr(Key::HomeworkPass)}</button>
                    </Show>
                }.into_any(),
            }}
        </section>
        </Provider>
    }
}

/// A date field's value ("2026-12-04") as this page's ms at the end of that day.
fn end_of_day(value: &str) -> Option<u64> {
    let mut parts = value.split('-').map(str::parse::<u32>);
    let (y, m, d) = (parts.next()?.ok()?, parts.next()?.ok()?, parts.next()?.ok()?);
    let date = js_sys::Date::new_with_year_month_day_hr_min_sec(y, m.checked_sub(1)? as i32, d as i32, 23, 59, 59);
    let ms = date.get_time();
    // A day that doesn't exist (31 February) would roll over into another: not read.
    let same = date.get_full_year() == y && date.get_month() + 1 == m && date.get_date() == d;
    (ms.is_finite() && same).then_some(ms as u64)
}

/// A date field's value for the day `days` from today, here.
fn date_value(days: f64) -> String {
    let d = js_sys::Date::new(&JsValue::from_f64(js_sys::Date::now() + days * DAY_MS));
    format!("{:04}-{:02}-{:02}", d.get_full_year(), d.get_month() + 1, d.get_date())
}

/// The teacher's homework: the form that sets it, and every student's line, live.
#[component]
pub(crate) fn HomeworkSetup(room: Room) -> impl IntoView {
    let seen = room.seen;
    let count = RwSignal::new(ROLLS.to_string());
    let level = RwSignal::new(0u8);
    let typed = RwSignal::new(String::new());
    let untimed = RwSignal::new(false);
    let due = RwSignal::new(date_value(7.0));
    let score_secs = RwSignal::new(String::new());
    let setting = RwSignal::new(false);
    let current =
        Memo::new(move |_| seen.with(|s| s.as_ref().and_then(|s| s.homework.clone().map(|h| (s.local(h.due), h)))));
    let rows = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| s.homework_rows.clone())).unwrap_or_default());
    let set = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some((rules, offset_due)) = seen.with_untracked(|s| {
            let s = s.as_ref()?;
            let due = end_of_day(&due.get_untracked()).map(|local| s.mirror.server(local));
            Some((s.rules.clone(), due))
        }) else {
            return;
        };
        let err = |e: crate::forms::FormError| {
            room.error.set(Some(room.words.with_untracked(|w| crate::say::form_error(&e, w))))
        };
        let adaptive = level.get_untracked() == crate::game::AT_MY_LEVEL;
        let typed = if adaptive { String::new() } else { typed.get_untracked() };
        let rolls: Result<Vec<Vec<i64>>, _> =
            typed.lines().filter(|l| !l.trim().is_empty()).map(|l| crate::forms::roll_for(l, &rules.dice)).collect();
        let secs = score_secs.get_untracked();
        let secs = if secs.trim().is_empty() {
            Ok(rules.score_secs)
        } else {
            crate::forms::clock_secs(&secs, crate::forms::Entry::ScoreClock)
        };
        match (rolls, secs) {
            (Err(e), _) | (_, Err(e)) => err(e),
            (Ok(rolls), Ok(score_secs)) => {
                room.command(HostCommand::SetHomework {
                    rolls,
                    count: count.get_untracked().trim().parse().unwrap_or(0),
                    level: Some(level.get_untracked()).filter(|&l| (1..=5).contains(&l)),
                    adaptive,
                    score_secs,
                    impossible_secs: rules.impossible_secs,
                    untimed: untimed.get_untracked(),
                    // A day that can't be read is refused by the room, in its words.
                    due: offset_due.unwrap_or(0),
                });
                setting.set(false);
            }
        }
    };
    view! {
        <section class="homework-setup" aria-labelledby="homework-setup-title">
            <h3 id="homework-setup-title">{room.tr(Key::HomeworkTitle)}</h3>
            {move || current.get().map(|(due_here, info)| {
                let open = open_at(&info, due_here, room.now.get());
                view! {
                    <p data-testid="homework-status">{homework_line(room, &info, due_here)}</p>
                    {info.adaptive.then(|| view! { <p class="muted" data-testid="homework-adaptive">{room.tr(Key::HomeworkAdaptiveHost)}</p> })}
                    {open.then(|| view! { <button type="button" on:click=move |_| room.command(HostCommand::EndHomework)>{room.tr(Key::EndHomework)}</button> })}
                    <HomeworkRows room rolls=info.rolls rows/>
                }
            })}
            <Show
                when=move || setting.get()
                fallback=move || view! {
                    <p class="muted">{room.tr(Key::HomeworkAbout)}</p>
                    <button type="button" on:click=move |_| setting.set(true)>{room.tr(Key::SetHomework)}</button>
                }
            >
                <form class="set-homework" on:submit=set>
                    <label>{room.tr(Key::HomeworkCount)} " " <input type="number" min="1" max="50" inputmode="numeric" prop:value=move || count.get() on:input=move |ev| count.set(event_target_value(&ev))/></label>
                    {
                        // At each student's level, where the class rates play on these dice
                        // (as the form opens: the list isn't rebuilt under the teacher's choice).
                        let rated = seen.with_untracked(|s| s.as_ref().is_some_and(|s| s.rules.dice.len() <= MAX_RATED_DICE));
                        if !rated && level.get_untracked() == crate::game::AT_MY_LEVEL {
                            level.set(0);
                        }
                        let mine = rated.then_some(Key::AtEachLevel);
                        view! { <DifficultySelect label=Key::DifficultyLabel any=Key::AnyDifficulty level words=room.words.into() mine/> }
                    }
                    // Rolls typed are played as typed, in order: not offered for rolls chosen as each student plays.
                    <Show when=move || level.get() != crate::game::AT_MY_LEVEL>
                        <label class="typed-rolls">{room.tr(Key::HomeworkTyped)} <textarea rows="3" prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev))></textarea></label>
                    </Show>
                    <label>{room.tr(Key::ScoreClockSecs)} " " <input type="text" inputmode="numeric" placeholder=move || seen.with(|s| s.as_ref().map(|s| s.rules.score_secs.to_string())) prop:value=move || score_secs.get() on:input=move |ev| score_secs.set(event_target_value(&ev))/></label>
                    <label class="check"><input type="checkbox" prop:checked=move || untimed.get() on:change=move |ev| untimed.set(event_target_checked(&ev))/> " " {room.tr(Key::HomeworkUntimed)}</label>
                    <label>{room.tr(Key::HomeworkDueField)} " " <input type="date" min=date_value(0.0) prop:value=move || due.get() on:input=move |ev| due.set(event_target_value(&ev))/></label>
                    <div class="controls">
                        <button type="submit" class="primary">{room.tr(Key::SetHomework)}</button>
                        <button type="button" on:click=move |_| setting.set(false)>{room.tr(Key::Cancel)}</button>
                    </div>
                </form>
            </Show>
        </section>
    }
}

/// Every student's homework line, as the room last told the host screens.
#[component]
fn HomeworkRows(room: Room, rolls: u32, rows: Memo<Vec<score_room::protocol::HomeworkRow>>) -> impl IntoView {
    let t = move |key: Key| room.tr(key);
    view! {
        <Show when=move || !rows.with(Vec::is_empty) fallback=move || view! { <p class="muted">{room.tr(Key::HomeworkNobody)}</p> }>
            <div class="report-scroll">
                <table class="report-table homework-rows" data-testid="homework-rows">
                    <thead>
                        <tr>
                            <th scope="col">{t(Key::ReportName)}</th>
                            <th scope="col">{t(Key::HomeworkPlayed)}</th>
                            <th scope="col">{t(Key::ReportScoresMade)}</th>
                            <th scope="col">{t(Key::ReportScoresFailed)}</th>
                            <th scope="col">{t(Key::ReportImpossibleRight)}</th>
                            <th scope="col">{t(Key::ReportImpossibleWrong)}</th>
                            <th scope="col">{t(Key::ReportPoints)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || rows.get().into_iter().map(|r| view! {
                            <tr class:done=r.done>
                                <th scope="row">{r.name.clone()}</th>
                                <td>{format!("{} / {rolls}", r.played)} {r.done.then(|| view! { " " <span class="done-mark">{room.tr(Key::HomeworkDoneMark)}</span> })}</td>
                                <td>{r.tally.scores_made}</td>
                                <td>{r.tally.scores_failed}</td>
                                <td>{r.tally.impossible_right}</td>
                                <td>{r.tally.impossible_wrong}</td>
                                <td><bdi>{signed(r.tally.points)}</bdi></td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </Show>
    }
}
