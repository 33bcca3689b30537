//! The teacher's report of a class room: a line per member (rolls played, SCOREs made and
//! failed, IMPOSSIBLEs right and wrong, points, median time to a made SCORE) and a bar
//! chart of the points, printable. The server counts; this only shows what it sent.

use leptos::prelude::*;
use score_engine::round::signed;
use score_i18n::{Catalog, Key};
use score_room::protocol::ReportRow;

/// Width of the chart's drawing, in its own units; bars grow left (below 0) or right.
const CHART_W: i32 = 300;
/// Height of one bar's row.
const ROW_H: i32 = 22;
/// Room for the names, left of the chart.
const NAMES_W: i32 = 110;

/// A median time in `words`' seconds ("3.4 s", "3,4 s"); a dash for none.
fn seconds(ms: Option<u64>, words: &Catalog) -> String {
    ms.map_or("—".into(), |ms| {
        let secs = words.lang().tenths((ms + 50) / 100);
        words.text(Key::ReportSeconds, &[("secs", &secs)])
    })
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
) -> impl IntoView {
    let most = rows.iter().map(|r| r.points.unsigned_abs()).max().unwrap_or(0).max(1) as i32;
    let half = CHART_W / 2;
    let height = ROW_H * rows.len().max(1) as i32;
    let described = rows.iter().map(|r| format!("{} {}", r.name, signed(r.points))).collect::<Vec<_>>().join(", ");
    let t = move |key: Key| move || words.with(|w| w.text(key, &[]));
    let bars = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = i as i32 * ROW_H;
            let len = (r.points.unsigned_abs() as i32 * half) / most;
            let x = if r.points < 0 { NAMES_W + half - len } else { NAMES_W + half };
            let class = if r.points < 0 { "bar loss" } else { "bar gain" };
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
                        <th scope="col">{t(Key::ReportRolls)}</th>
                        <th scope="col">{t(Key::ReportScoresMade)}</th>
                        <th scope="col">{t(Key::ReportScoresFailed)}</th>
                        <th scope="col">{t(Key::ReportImpossibleRight)}</th>
                        <th scope="col">{t(Key::ReportImpossibleWrong)}</th>
                        <th scope="col">{t(Key::ReportPoints)}</th>
                        <th scope="col">{t(Key::ReportMedian)}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.iter().map(|r| view! {
                        <tr data-testid=format!("report-{}", r.seat)>
                            <th scope="row">{r.name.clone()}{r.left.then(|| view! { " " <span class="muted">{t(Key::ReportLeftMark)}</span> })}</th>
                            <td>{r.rolls}</td>
                            <td>{r.scores_made}</td>
                            <td>{r.scores_failed}</td>
                            <td>{r.impossible_right}</td>
                            <td>{r.impossible_wrong}</td>
                            <td>{signed(r.points)}</td>
                            <td>{let median = r.median_score_ms; move || words.with(|w| seconds(median, w))}</td>
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
            <button on:click=print>{t(Key::PrintReport)}</button>
        </section>
    }
}
