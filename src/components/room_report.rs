//! The teacher's report of a class room: a line per member (rolls played, SCOREs made and
//! failed, IMPOSSIBLEs right and wrong, points, median time to a made SCORE) and a bar
//! chart of the points, printable; for a kept class, its Progress: a line per student per
//! lesson and each student's points lesson by lesson as a small trend line; and the rolls
//! the room missed most. The server counts; this only shows what it sent.

use leptos::prelude::*;
use score_engine::round::signed;
use score_engine::Rules;
use score_i18n::{Catalog, Key};
use score_room::protocol::{HardRoll, ProgressRow, ReportRow, Tally};

/// Width of the chart's drawing, in its own units; bars grow left (below 0) or right.
const CHART_W: i32 = 300;
/// Height of one bar's row.
const ROW_H: i32 = 22;
/// Room for the names, left of the chart.
const NAMES_W: i32 = 110;

/// A student's rating as the level of rolls they make three times in four at `game`; a dash
/// before any SCORE of theirs was rated.
fn level(t: &Tally, game: &Rules) -> String {
    t.rating.map_or_else(|| "—".to_string(), |x| score_room::ratings::level_of(x, game).to_string())
}

/// A median time in `words`' seconds ("3.4 s", "3,4 s"); a dash for none.
fn seconds(ms: Option<u64>, words: &Catalog) -> String {
    ms.map_or("—".into(), |ms| {
        let secs = words.lang().tenths((ms + 50) / 100);
        words.text(Key::ReportSeconds, &[("secs", &secs)])
    })
}

/// A tally's cells, in the tables' order: rolls, SCOREs made and failed, IMPOSSIBLEs right
/// and wrong, points, median time.
fn tally_cells(t: &Tally, words: Signal<Catalog>) -> impl IntoView {
    let median = t.median_score_ms;
    view! {
        <td>{t.rolls}</td>
        <td>{t.scores_made}</td>
        <td>{t.scores_failed}</td>
        <td>{t.impossible_right}</td>
        <td>{t.impossible_wrong}</td>
        // Isolated: a sign reads before its number in a right-to-left page too ("+1", not "1+").
        <td><bdi>{signed(t.points)}</bdi></td>
        <td>{move || words.with(|w| seconds(median, w))}</td>
    }
}

/// The headings of [`tally_cells`].
fn tally_heads(words: Signal<Catalog>) -> impl IntoView {
    let t = move |key: Key| move || words.with(|w| w.text(key, &[]));
    [
        Key::ReportRolls,
        Key::ReportScoresMade,
        Key::ReportScoresFailed,
        Key::ReportImpossibleRight,
        Key::ReportImpossibleWrong,
        Key::ReportPoints,
        Key::ReportMedian,
    ]
    .map(|key| view! { <th scope="col">{t(key)}</th> })
    .collect_view()
}

/// The report; `rows` as the server sent them, by seat.
#[component]
pub fn RoomReport(
    /// The words of the page's language.
    #[prop(into)]
    words: Signal<Catalog>,
    /// The room's code, in the heading (a printed report says which class it is).
    code: String,
    /// A line per member.
    rows: Vec<ReportRow>,
    /// A kept class's Progress: a line per member per lesson (none for a room of one lesson).
    progress: Vec<ProgressRow>,
    /// The room's rules: a student's rating is worded as a level of its game.
    game: Rules,
    /// The rolls the room missed most.
    hardest: Vec<HardRoll>,
) -> impl IntoView {
    let most = rows.iter().map(|r| r.tally.points.unsigned_abs()).max().unwrap_or(0).max(1) as i32;
    let half = CHART_W / 2;
    let height = ROW_H * rows.len().max(1) as i32;
    let described =
        rows.iter().map(|r| format!("{} {}", r.name, signed(r.tally.points))).collect::<Vec<_>>().join(", ");
    let t = move |key: Key| move || words.with(|w| w.text(key, &[]));
    let bars = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = i as i32 * ROW_H;
            let len = (r.tally.points.unsigned_abs() as i32 * half) / most;
            let x = if r.tally.points < 0 { NAMES_W + half - len } else { NAMES_W + half };
            let class = if r.tally.points < 0 { "bar loss" } else { "bar gain" };
            view! {
                <text x=NAMES_W - 6 y=y + ROW_H - 7 text-anchor="end">{r.name.clone()}</text>
                // No bar for no points.
                {(len > 0).then(|| view! { <rect class=class x=x y=y + 4 width=len height=ROW_H - 8></rect> })}
            }
        })
        .collect_view();
    let print = move |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    };
    view! {
        <section class="room-report" aria-label=t(Key::ReportLabel)>
            <h4>{move || words.with(|w| w.text(Key::ReportTitle, &[("code", &code)]))}</h4>
            <table class="report-table">
                <thead>
                    <tr>
                        <th scope="col">{t(Key::ReportName)}</th>
                        {tally_heads(words)}
                        <th scope="col" title=t(Key::ProgressLevelAbout)>{t(Key::ProgressLevel)}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.iter().map(|r| view! {
                        <tr data-testid=format!("report-{}", r.seat)>
                            <th scope="row">{r.name.clone()}{r.left.then(|| view! { " " <span class="muted">{t(Key::ReportLeftMark)}</span> })}</th>
                            {tally_cells(&r.tally, words)}
                            // Their rating now, as the level of rolls they make three times in four.
                            <td class="level">{level(&r.tally, &game)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <svg
                class="report-chart"
                role="img"
                aria-label=move || words.with(|w| w.text(Key::ReportChart, &[("list", &described)]))
                viewBox=format!("0 0 {} {height}", NAMES_W + CHART_W)
            >
                <line class="axis" x1=NAMES_W + half y1=0 x2=NAMES_W + half y2=height></line>
                {bars}
            </svg>
            {(!progress.is_empty()).then(|| view! { <Progress words progress game/> })}
            {(!hardest.is_empty()).then(|| view! { <Hardest words hardest/> })}
            <button on:click=print>{t(Key::PrintReport)}</button>
        </section>
    }
}

/// Width and height of a student's trend line, in its own units.
const TREND_W: i32 = 120;
const TREND_H: i32 = 28;

/// A line of the Progress: its lesson, and the homework's number for homework set in it.
type Part = (u32, Option<u32>);

/// A line of the Progress by name: "Lesson 3", or "Homework 2".
fn part_name((lesson, homework): Part, w: &Catalog) -> String {
    match homework {
        Some(n) => w.text(Key::ProgressHomework, &[("number", &n.to_string())]),
        None => w.text(Key::LessonN, &[("lesson", &lesson.to_string())]),
    }
}

/// A kept class's Progress: a line per student per lesson, and each student's points lesson
/// by lesson as a trend line (its own scale: who is improving, not who scored most).
#[component]
fn Progress(words: Signal<Catalog>, progress: Vec<ProgressRow>, game: Rules) -> impl IntoView {
    let t = move |key: Key| move || words.with(|w| w.text(key, &[]));
    // Each student's lessons, in the order they first appear.
    // Each student's lessons and homework, in the order they first appear.
    let mut students: Vec<(String, Vec<(Part, i32)>)> = Vec::new();
    for r in &progress {
        let part = ((r.lesson, r.homework), r.tally.points);
        match students.iter_mut().find(|(name, _)| *name == r.name) {
            Some((_, points)) => points.push(part),
            None => students.push((r.name.clone(), vec![part])),
        }
    }
    let trends = students
        .into_iter()
        .map(|(name, points)| {
            let (low, high) = points.iter().fold((0, 0), |(lo, hi), &(_, p)| (lo.min(p), hi.max(p)));
            let span = (high - low).max(1);
            // Lesson by lesson across the width (one lesson: a dot), and a faint line at 0.
            let last = (points.len() as i32 - 1).max(1);
            let y = |p: i32| TREND_H - 2 - (p - low) * (TREND_H - 4) / span;
            let line = points
                .iter()
                .enumerate()
                .map(|(i, &(_, p))| format!("{},{}", i as i32 * TREND_W / last, y(p)))
                .collect::<Vec<_>>()
                .join(" ");
            let zero = y(0);
            let dot = (points.len() == 1).then(|| view! { <circle cx="0" cy=y(points[0].1) r="3"></circle> });
            let described = move || {
                words.with(|w| {
                    let list = points
                        .iter()
                        .map(|&(part, p)| format!("{} {}", part_name(part, w), signed(p)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    w.text(Key::ReportChart, &[("list", &list)])
                })
            };
            view! {
                <li>
                    <span class="trend-name">{name}</span>
                    <svg class="trend" role="img" aria-label=described viewBox=format!("-3 0 {} {TREND_H}", TREND_W + 6)>
                        <line class="zero" x1="0" y1=zero x2=TREND_W y2=zero></line>
                        <polyline points=line></polyline>
                        {dot}
                    </svg>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="progress" aria-labelledby="progress-title">
            <h4 id="progress-title">{t(Key::ProgressTitle)}</h4>
            <table class="report-table progress-table">
                <thead>
                    <tr>
                        <th scope="col">{t(Key::ReportName)}</th>
                        <th scope="col">{t(Key::ProgressLesson)}</th>
                        {tally_heads(words)}
                        <th scope="col" title=t(Key::ProgressLevelAbout)>{t(Key::ProgressLevel)}</th>
                    </tr>
                </thead>
                <tbody>
                    {progress.iter().map(|r| view! {
                        <tr>
                            <th scope="row">{r.name.clone()}</th>
                            <td>{
                                let part = (r.lesson, r.homework);
                                move || words.with(|w| if part.1.is_some() { part_name(part, w) } else { part.0.to_string() })
                            }</td>
                            {tally_cells(&r.tally, words)}
                            // Their rating then, as the level of rolls they make three times in four.
                            <td class="level">{level(&r.tally, &game)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <ul class="trends">{trends}</ul>
        </section>
    }
}

/// The rolls the room missed most for their tries, to go over together: each with its goal,
/// the SCOREs made on it, its misses and the median time to a made SCORE.
#[component]
fn Hardest(words: Signal<Catalog>, hardest: Vec<HardRoll>) -> impl IntoView {
    let t = move |key: Key| move || words.with(|w| w.text(key, &[]));
    let rows = hardest
        .into_iter()
        .map(|h| {
            let roll = h.roll.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
            let median = h.median_made_ms;
            view! {
                <tr>
                    // The dice as the table shows them, left to right in every language.
                    <th scope="row"><bdi dir="ltr">{roll}</bdi></th>
                    <td>{h.goal}</td>
                    <td>{h.made}</td>
                    <td>{h.missed}</td>
                    <td>{move || words.with(|w| seconds(median, w))}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="hardest" aria-labelledby="hardest-title">
            <h4 id="hardest-title">{t(Key::HardestTitle)}</h4>
            <p class="muted">{t(Key::HardestAbout)}</p>
            <table class="report-table hardest-table" data-testid="hardest">
                <thead>
                    <tr>
                        <th scope="col">{t(Key::HardestRoll)}</th>
                        <th scope="col">{t(Key::HardestGoal)}</th>
                        <th scope="col">{t(Key::HardestMade)}</th>
                        <th scope="col">{t(Key::HardestMissed)}</th>
                        // Short: the table fits a phone's width (the time is a SCORE's, as the
                        // words above say).
                        <th scope="col">{t(Key::HardestMedian)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}
