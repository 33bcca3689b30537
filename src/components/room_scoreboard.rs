//! A class room's scoreboard, sorted by score with ranks (equal scores share a rank), and
//! the claimant's working shown to everyone while their SCORE clock runs.

use leptos::prelude::*;
use score_i18n::Key;
use score_room::protocol::Player;

use crate::components::room_client::Room;

/// The members by score, best first (then by seat), each with their rank: one more than
/// the number of members with more points.
pub(crate) fn ranked(members: &[Player]) -> Vec<(usize, Player)> {
    let mut by_score = members.to_vec();
    by_score.sort_by_key(|m| (std::cmp::Reverse(m.score), m.seat));
    by_score.iter().map(|m| (1 + members.iter().filter(|o| o.score > m.score).count(), m.clone())).collect()
}

/// The ranked scoreboard; this page's own seat is marked.
#[component]
pub(crate) fn RoomScoreboard(
    /// The room client.
    room: Room,
) -> impl IntoView {
    let seen = room.seen;
    let rows = Memo::new(move |_| seen.with(|s| s.as_ref().map(|s| (ranked(&s.members), s.seat))).unwrap_or_default());
    view! {
        <section class="standings" aria-labelledby="standings-title">
            <h2 id="standings-title">{room.tr(Key::ScoreboardTitle)}</h2>
            <Show when=move || rows.with(|(r, _)| r.is_empty())>
                <p class="muted">{room.tr(Key::NobodyYet)}</p>
            </Show>
            <ol class="ranking" class:many=move || rows.with(|(r, _)| r.len() > 12)>
                {move || {
                    let (rows, me) = rows.get();
                    rows.into_iter()
                        .map(|(rank, p)| {
                            let you = Some(p.seat) == me;
                            view! {
                                <li class:you=you>
                                    <span class="rank" aria-label=room.t(Key::Rank, &[("rank", &rank.to_string())])>{rank}</span>
                                    <span class="who">{p.name}{you.then(|| format!(" {}", room.t(Key::YouMark, &[])))}</span>
                                    <span class="points" data-testid=format!("room-score-{}", p.seat)>{crate::game::number(p.score)}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}

/// The claimant's working, live, while their SCORE clock runs (not shown on their own
/// screen, whose table shows it already).
#[component]
pub(crate) fn LiveWorking(
    /// The room client.
    room: Room,
) -> impl IntoView {
    let live = Memo::new(move |_| {
        room.seen.with(|s| {
            s.as_ref().and_then(|s| {
                s.mirror.working().filter(|(seat, _)| Some(*seat) != s.seat).map(|(seat, moves)| (s.name(seat), moves))
            })
        })
    });
    move || {
        live.get().map(|(who, moves)| {
            view! {
                <section class="live-working" aria-label=room.t(Key::LiveWorkingLabel, &[])>
                    <h3>{room.t(Key::LiveWorkingTitle, &[("name", &who)])}</h3>
                    <ol class="moves" data-testid="live-working">
                        {if moves.is_empty() {
                            view! { <li class="muted">{room.t(Key::NoMovesYet, &[])}</li> }.into_any()
                        } else {
                            moves.into_iter().map(|m| view! { <li>{room.signs(&m)}</li> }).collect_view().into_any()
                        }}
                    </ol>
                </section>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(seat: usize, name: &str, score: i32) -> Player {
        Player { seat, name: name.into(), score, away: false }
    }

    #[test]
    fn equal_scores_share_a_rank_and_the_next_rank_skips() {
        let members = [p(0, "Ana", 1), p(1, "Ben", 3), p(2, "Cy", 1), p(3, "Di", -2)];
        let r: Vec<(usize, String)> = ranked(&members).into_iter().map(|(r, m)| (r, m.name)).collect();
        let want: Vec<(usize, String)> =
            [(1, "Ben"), (2, "Ana"), (2, "Cy"), (4, "Di")].map(|(r, n)| (r, n.to_string())).into();
        assert_eq!(r, want);
    }
}
