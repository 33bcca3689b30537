//! How a class fared on each roll, across its lessons and its closed homework, for the
//! teacher's **Hardest rolls** in the report: the rolls it missed most, to go over together.
//! Counted as results are settled (the class's table as each result is, each student's
//! homework run in its own room of one, shown with the class's once the homework is closed or
//! due, and added to them when another is set: an open homework's rolls are never in the
//! report, which a projector may show).

use score_engine::round::Reason;
use serde::{Deserialize, Serialize};

use super::{median, push_latest, Room};
use crate::protocol::{sorted, HardRoll};

/// Rolls counted per room (the latest played; a class's school year plays fewer).
pub const ROLLS_KEPT: usize = 1000;
/// Times to a made SCORE kept per roll (the latest).
const TIMES_KEPT: usize = 15;
/// Rolls in the report's Hardest rolls.
pub const HARDEST_SHOWN: usize = 5;

/// How a room fared on one roll.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollStat {
    /// The roll, smallest first.
    pub roll: Vec<i64>,
    pub goal: i64,
    /// SCOREs that made the goal on it.
    pub made: u32,
    /// Times it beat someone: a SCORE that failed (time up, given up, numbers used up), or
    /// an IMPOSSIBLE claim on it when it had a solution (judged, or beaten by a SCORE).
    pub missed: u32,
    /// Times to its made SCOREs, ms (the latest).
    pub made_ms: Vec<u64>,
}

impl RollStat {
    fn median_ms(&self) -> Option<u64> {
        median(&self.made_ms)
    }

    /// Its share of misses, compared with `other`'s: more first, then more misses, then the
    /// longer median time to a made SCORE.
    fn harder(&self, other: &RollStat) -> std::cmp::Ordering {
        let share = |s: &RollStat| (u64::from(s.missed), u64::from(s.missed) + u64::from(s.made));
        let ((a, n), (b, m)) = (share(self), share(other));
        (a * m.max(1))
            .cmp(&(b * n.max(1)))
            .then(self.missed.cmp(&other.missed))
            .then(self.median_ms().cmp(&other.median_ms()))
            .reverse()
    }
}

/// Counts one result on `roll` in `stats`: a made SCORE (in `score_ms`) or a miss; other
/// results (a roll abandoned by the host, a player who left, a claim judged right) say
/// nothing of the roll's difficulty.
pub fn count(stats: &mut Vec<RollStat>, roll: &[i64], goal: i64, reason: Reason, score_ms: Option<u64>) {
    let made = matches!(reason, Reason::Made { .. });
    let missed = matches!(
        reason,
        Reason::TimeUp | Reason::GaveUp | Reason::NumbersUsedUp | Reason::HadSolution | Reason::ClaimBeaten { .. }
    );
    if !made && !missed {
        return;
    }
    let stat = at(stats, roll, goal);
    if made {
        stat.made += 1;
        if let Some(ms) = score_ms {
            push_latest(&mut stat.made_ms, ms, TIMES_KEPT);
        }
    } else {
        stat.missed += 1;
    }
}

/// Adds `from` (a student's homework run) into `into` (the class's), with its times to a
/// made SCORE or not (an untimed homework's clock runs a day: its times are no measure).
pub fn add(into: &mut Vec<RollStat>, from: &[RollStat], times: bool) {
    for s in from {
        let stat = at(into, &s.roll, s.goal);
        stat.made += s.made;
        stat.missed += s.missed;
        for &ms in s.made_ms.iter().filter(|_| times) {
            push_latest(&mut stat.made_ms, ms, TIMES_KEPT);
        }
    }
}

/// The roll's count, moved to the end (the latest played), made if new (the oldest goes when
/// there are [`ROLLS_KEPT`]).
fn at<'a>(stats: &'a mut Vec<RollStat>, roll: &[i64], goal: i64) -> &'a mut RollStat {
    let key = sorted(roll);
    let stat = match stats.iter().position(|s| s.roll == key && s.goal == goal) {
        Some(i) => stats.remove(i),
        None => RollStat { roll: key, goal, ..RollStat::default() },
    };
    push_latest(stats, stat, ROLLS_KEPT);
    let last = stats.len() - 1;
    &mut stats[last]
}

impl Room {
    /// The report's Hardest rolls at `now`: the [`HARDEST_SHOWN`] rolls with the most misses
    /// for their tries (then the most misses, then the longest median time to a made SCORE),
    /// of the class's lessons and its homework once over (closed, or due); never a roll
    /// someone may still play for points.
    pub fn hardest(&self, now: u64) -> Vec<HardRoll> {
        let mut all = self.saved.roll_stats.clone();
        // Rolls someone may still play for points: how they went before would say whether
        // they can be made. The roll on the table while in play; an open homework's rolls;
        // once it is over, the roll of a run whose clock still runs.
        let mut unsettled: Vec<(Vec<i64>, i64)> = Vec::new();
        if self.phase() != super::Phase::Over {
            unsettled.push((sorted(&self.saved.roll), self.saved.rules.goal));
        }
        if let Some(hw) = &self.saved.homework {
            if hw.open(now) {
                unsettled.extend(hw.deals.iter().map(|d| (sorted(&d.roll), hw.rules.goal)));
            } else {
                // Over: its runs count with the class's (a homework set before is in the
                // class's counts already).
                for run in self.members_and_gone().filter_map(|m| m.homework.as_ref()) {
                    if run.room.round.is_running() {
                        unsettled.push((sorted(&run.room.roll), hw.rules.goal));
                    } else {
                        add(&mut all, &run.room.roll_stats, !hw.untimed);
                    }
                }
            }
        }
        let mut stats: Vec<&RollStat> =
            all.iter().filter(|s| !unsettled.iter().any(|(r, g)| *r == s.roll && *g == s.goal)).collect();
        stats.sort_by(|a, b| a.harder(b));
        stats
            .into_iter()
            .take(HARDEST_SHOWN)
            .map(|s| HardRoll {
                roll: s.roll.clone(),
                goal: s.goal,
                made: s.made,
                missed: s.missed,
                median_made_ms: s.median_ms(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(roll: &[i64], made: u32, missed: u32, ms: &[u64]) -> RollStat {
        RollStat { roll: roll.to_vec(), goal: 20, made, missed, made_ms: ms.to_vec() }
    }

    #[test]
    fn results_count_made_and_missed_on_the_roll_in_order_and_the_rest_say_nothing() {
        let mut stats = Vec::new();
        count(&mut stats, &[12, 2, 5, 12], 20, Reason::Made { moves: 2 }, Some(8_000));
        count(&mut stats, &[2, 5, 12, 12], 20, Reason::TimeUp, None);
        count(&mut stats, &[2, 5, 12, 12], 20, Reason::HadSolution, None);
        for reason in [Reason::Abandoned, Reason::Left, Reason::TrulyImpossible, Reason::NobodyScored] {
            count(&mut stats, &[1, 1, 1, 4], 20, reason, None);
        }
        assert_eq!(stats, [stat(&[2, 5, 12, 12], 1, 2, &[8_000])]);
        // The same roll for another goal is another roll.
        count(&mut stats, &[2, 5, 12, 12], 24, Reason::GaveUp, None);
        assert_eq!(stats.len(), 2);
    }

    #[test]
    fn a_page_keeps_the_roll_on_the_table_out_of_an_older_report_while_it_is_in_play() {
        let rules = score_engine::Rules::default();
        let mut r = Room::new(rules.clone(), true, crate::room::Deal::new(vec![12, 2, 5, 12], &rules));
        let hard = HardRoll { roll: vec![2, 5, 12, 12], goal: 20, made: 1, missed: 1, median_made_ms: None };
        assert!(hard.in_play(&r.view(None, 0)));
        assert!(!HardRoll { goal: 24, ..hard.clone() }.in_play(&r.view(None, 0)), "another goal");
        r.apply(crate::room::Input::Join { name: "Ana".into() }, 0).unwrap();
        r.apply(crate::room::Input::Claim { seat: 0, claim: crate::protocol::Claim::Score }, 0).unwrap();
        r.apply(crate::room::Input::GiveUp { seat: 0 }, 1).unwrap();
        assert!(!hard.in_play(&r.view(None, 2)), "settled");
    }

    #[test]
    fn the_hardest_are_the_most_missed_for_their_tries_then_the_slowest() {
        let stats = [
            stat(&[1, 2, 3, 4], 4, 0, &[3_000]),
            stat(&[1, 2, 3, 5], 1, 3, &[20_000]),
            stat(&[1, 2, 3, 6], 2, 2, &[5_000]),
            stat(&[1, 2, 3, 7], 2, 2, &[25_000]),
            stat(&[1, 2, 3, 8], 0, 1, &[]),
            stat(&[1, 2, 3, 9], 4, 4, &[1_000]),
            stat(&[1, 2, 4, 9], 9, 0, &[1_000]),
        ];
        let mut sorted: Vec<&RollStat> = stats.iter().collect();
        sorted.sort_by(|a, b| a.harder(b));
        let order: Vec<i64> = sorted.iter().map(|s| s.roll[3] + 10 * (s.roll[2] - 3)).collect();
        // All missed; 3 of 4; half, with more misses; half, slower; half, faster; none, slower.
        assert_eq!(order, [8, 5, 9, 7, 6, 4, 19]);
    }

    #[test]
    fn only_the_latest_rolls_and_times_are_kept_and_a_run_adds_into_the_class() {
        let mut stats = Vec::new();
        for i in 0..ROLLS_KEPT as i64 + 1 {
            count(&mut stats, &[1, 1, 1, i], 20, Reason::TimeUp, None);
        }
        assert_eq!(stats.len(), ROLLS_KEPT);
        assert_eq!(stats[0].roll, [1, 1, 1, 1], "the first one went");
        let mut run = Vec::new();
        for ms in 0..20 {
            count(&mut run, &[2, 5, 12, 12], 20, Reason::Made { moves: 2 }, Some(ms));
        }
        assert_eq!(run[0].made_ms.len(), TIMES_KEPT);
        add(&mut stats, &run, true);
        let last = stats.last().unwrap();
        assert_eq!((last.roll.clone(), last.made, last.made_ms.len()), (vec![2, 5, 12, 12], 20, TIMES_KEPT));
        assert_eq!(stats.len(), ROLLS_KEPT);
    }
}
