//! How hard a roll is for a person: a rating in expected seconds, and five levels cut from it.
//!
//! The model reads the solutions a person could find, not only how many there are. Each
//! distinct solution gets an **effort**: the moves it takes and what each move asks of a
//! mind doing it without paper ([`move_effort`]): adding is easiest, then subtracting,
//! multiplying, joining and dividing; operands or results past 20, 50 and 100 cost more (a
//! product beyond the times tables most), and a fraction or a negative number on the way
//! costs most, as few people try them first. A three-move solution made of two pairs,
//! `(a ∘ b) ∘ (c ∘ d)`, holds two results in mind at once and costs a little more.
//!
//! A player then searches: they try ways, the easier ones more often. Each solution is
//! found at a rate falling exponentially with its effort, and the first one found ends the
//! search, so the expected time is the time to read the roll plus the inverse of the
//! summed rates ([`Rating::seconds`]). One easy solution makes a roll easy; ten hard ones
//! make it moderate; one hard one makes it hard. The count of solutions still matters, but
//! weighted by how natural each is.
//!
//! The levels are the dice's own: level 1 is the easiest fifth of a set of dice's solvable
//! rolls by this rating, level 5 the hardest fifth ([`Levels`]). The 24 game's deals take
//! about three times as long as Score's rolls (three moves every time, no joins, a goal
//! that mostly needs ×), so one set of cuts in seconds would make nearly every Score roll
//! level 1 or 2 and most 24 deals level 4 or 5; a teacher choosing "level 2" means "easy
//! for this game". The seconds stay comparable across games.
//!
//! The constants are set from the structure above, not fitted to people's times: no
//! published data of people's times was at hand for Score's dice. Play corrects them: the
//! class room's ratings ([`crate::elo`]) start every roll at this model's rating and move it
//! with every SCORE made or failed on it.

use std::cell::RefCell;

use crate::expr::Expr;
use crate::number::Num;
use crate::op::Op;
use crate::practice::SplitMix64;
use crate::roll;
use crate::rules::{Game, Preset, Rules};
use crate::solve::{solutions_up_to, Puzzle};

/// A roll's difficulty for a typical player, with its simplest solution.
#[derive(Debug, Clone, PartialEq)]
pub struct Rated {
    /// Expected seconds to a solution ([`seconds_of`]).
    pub seconds: f64,
    /// 1 (easy) to 5 (hard) among the dice's solvable rolls ([`Levels`]).
    pub level: u8,
    /// A simplest solution.
    pub simplest: Expr,
}

/// Seconds to read the roll before any solution can be found.
pub const READ_SECS: f64 = 3.0;

/// The rate (per second) at which a solution of effort 0 would be found.
const RATE: f64 = 1.5;

/// How fast the rate falls with effort: each unit of effort divides it by e^0.8 (about 2.2).
const FALL: f64 = 0.8;

/// The longest rating, in seconds: past ten minutes nobody is still counting.
pub const MAX_SECS: f64 = 600.0;

/// Distinct solutions read with five or six numbers (all of them take seconds to list, and
/// a goal few sets reach takes a long search for each one more).
const MANY_LIMIT: usize = 20;

/// `p` rated with its simplest solution and its level among `rules`' rolls; `None` when it
/// has no solution.
pub fn rate(p: &Puzzle, levels: &Levels) -> Option<Rated> {
    let mut all = listed(p);
    let seconds = seconds_of(&all)?;
    Some(Rated { seconds, level: levels.level(seconds), simplest: all.swap_remove(0) })
}

/// A roll of `rules` rated ([`rate`] with the dice's [`Levels`]).
pub fn rate_roll(roll: &[i64], rules: &Rules) -> Option<Rated> {
    rate(&Puzzle::from_roll(roll, rules), &Levels::of(rules))
}

/// The expected seconds to a solution, given a roll's distinct solutions (simplest first);
/// `None` for none.
pub fn seconds_of(all: &[Expr]) -> Option<f64> {
    if all.is_empty() {
        return None;
    }
    let rate: f64 = all.iter().map(|e| RATE * (-FALL * effort(e)).exp()).sum();
    Some((READ_SECS + 1.0 / rate).min(MAX_SECS))
}

/// Where a set of dice's levels are cut: the ratings at the 20th, 40th, 60th and 80th
/// percentile of its solvable rolls, and the median (where a typical player's chance is
/// even, [`crate::elo`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levels {
    /// Level `i + 1` is a rating below `cuts[i]`; level 5 at or above the last.
    pub cuts: [f64; 4],
    /// The median rating.
    pub median: f64,
}

/// The levels of Score's dice, as [`Levels::measure`] finds them over every distinct roll
/// (a test holds the two equal): measuring takes a third of a second natively, seconds in a page.
const SCORE_LEVELS: Levels = Levels { cuts: [4.50, 5.28, 6.41, 10.29], median: 5.83 };

/// The 24 game's, likewise over its 1,820 deals.
const TWENTY_FOUR_LEVELS: Levels = Levels { cuts: [10.56, 15.22, 22.19, 36.60], median: 18.39 };

/// Rolls drawn to measure the levels of dice that aren't a preset's.
const SAMPLE: usize = 160;

/// The same with five or six dice, whose rolls take far longer to rate.
const SAMPLE_MANY: usize = 12;

thread_local! {
    /// Levels measured for dice that aren't a preset's, by rules (a page asks roll after roll).
    static MEASURED: RefCell<Vec<(Game, Levels)>> = const { RefCell::new(Vec::new()) };
}

impl Levels {
    /// The levels of `rules`' dice: the presets' measured over every roll, other dice's over
    /// a fixed sample of their rolls (the same on every device, so a seed gives the same
    /// sheet everywhere), measured once per thread.
    pub fn of(rules: &Rules) -> Levels {
        match rules.matches_preset() {
            Some(Preset::Score) => return SCORE_LEVELS,
            Some(Preset::TwentyFour) => return TWENTY_FOUR_LEVELS,
            None => {}
        }
        let key = rules.game();
        if let Some(l) = MEASURED.with_borrow(|m| m.iter().find(|(k, _)| *k == key).map(|(_, l)| *l)) {
            return l;
        }
        let l = Levels::sampled(rules);
        MEASURED.with_borrow_mut(|m| {
            if m.len() >= 8 {
                m.remove(0);
            }
            m.push((key, l));
        });
        l
    }

    /// The levels over every distinct roll of `rules`' dice.
    pub fn measure(rules: &Rules) -> Levels {
        let mut seconds = Vec::new();
        roll::for_each_sorted_roll(&rules.dice, |r| seconds.extend(roll_seconds(r, rules)));
        Levels::from_seconds(seconds)
    }

    /// The levels over a fixed sample of `rules`' rolls, drawn as the dice fall.
    fn sampled(rules: &Rules) -> Levels {
        let n = if rules.dice.len() <= 4 { SAMPLE } else { SAMPLE_MANY };
        let mut rng = SplitMix64(0x1E7E_15CA_1E00_0000 ^ rules.goal as u64);
        let seconds = (0..n).filter_map(|_| roll_seconds(&roll::roll(&rules.dice, || rng.next_u32()), rules)).collect();
        Levels::from_seconds(seconds)
    }

    fn from_seconds(mut seconds: Vec<f64>) -> Levels {
        if seconds.is_empty() {
            // No solvable roll seen: any rating is as hard as these dice get.
            return Levels { cuts: [READ_SECS; 4], median: READ_SECS };
        }
        seconds.sort_by(f64::total_cmp);
        let at = |q: f64| seconds[((seconds.len() - 1) as f64 * q).round() as usize];
        Levels { cuts: [at(0.2), at(0.4), at(0.6), at(0.8)], median: at(0.5) }
    }

    /// The level of a rating.
    pub fn level(&self, seconds: f64) -> u8 {
        1 + self.cuts.iter().filter(|&&c| seconds >= c).count() as u8
    }

    /// Whether any rating is of `level`: dice whose rolls all rate alike (a goal they
    /// hardly reach) have levels no roll is in, which a deal would look for in vain.
    pub fn holds(&self, level: u8) -> bool {
        match level {
            1 => true,
            2..=4 => self.cuts[usize::from(level) - 2] < self.cuts[usize::from(level) - 1],
            5 => true,
            _ => false,
        }
    }

    /// How long a player has, from the deal, for an answer to say something of their skill:
    /// twice the median rating (a typical player making a median roll in its typical time
    /// scores about a half: `crate::elo`).
    pub fn deadline(&self) -> f64 {
        2.0 * self.median.max(READ_SECS)
    }
}

/// `p` with its numbers smallest first: a roll is rated as a set of numbers, whatever order
/// its dice fell in (the search keeps one form of each solution, the first it meets, and
/// forms differ in effort: a − b + c and c − b + a).
fn in_order(p: &Puzzle) -> Puzzle {
    let mut pairs: Vec<(Num, bool)> = p.numbers.iter().copied().zip(p.red.iter().copied()).collect();
    pairs.sort_by_key(|&(n, red)| (n, red));
    Puzzle { numbers: pairs.iter().map(|x| x.0).collect(), red: pairs.iter().map(|x| x.1).collect(), ..p.clone() }
}

/// The solutions a rating reads: every one up to four numbers, the first [`MANY_LIMIT`] with
/// five or six, of the numbers smallest first.
fn listed(p: &Puzzle) -> Vec<Expr> {
    let limit = if p.numbers.len() <= 4 { usize::MAX } else { MANY_LIMIT };
    solutions_up_to(&in_order(p), limit)
}

fn roll_seconds(r: &[i64], rules: &Rules) -> Option<f64> {
    seconds_of(&listed(&Puzzle::from_roll(r, rules)))
}

/// The effort of a solution: the sum of its moves' efforts, and the cost of holding two
/// results at once in a move joining two made numbers.
pub fn effort(e: &Expr) -> f64 {
    moves_effort(e) + if e.uses_fraction() { FRACTION } else { 0.0 } + if e.uses_negative() { NEGATIVE } else { 0.0 }
}

/// Thinking of a fraction on the way, once in a solution (a second one comes easier).
const FRACTION: f64 = 2.5;

/// Thinking of a number below zero on the way, once in a solution.
const NEGATIVE: f64 = 2.0;

fn moves_effort(e: &Expr) -> f64 {
    match e {
        Expr::Leaf { .. } => 0.0,
        Expr::Node { op, left, right, value } => {
            let both_made = matches!(**left, Expr::Node { .. }) && matches!(**right, Expr::Node { .. });
            moves_effort(left)
                + moves_effort(right)
                + move_effort(*op, left.value(), right.value(), *value)
                + if both_made { 0.7 } else { 0.0 }
        }
    }
}

/// What one move asks: 1 for the move, more for its operator, for large numbers, for a
/// product beyond the times tables.
pub fn move_effort(op: Op, a: Num, b: Num, result: Num) -> f64 {
    let mut e = 1.0
        + match op {
            Op::Add => 0.0,
            Op::Sub => 0.3,
            Op::Mul => 0.5,
            Op::Concat => 0.8,
            Op::Div => 1.0,
            Op::Pow => 1.5,
        };
    let big = [a, b, result].iter().map(|n| magnitude(*n)).fold(0.0, f64::max);
    e += match big {
        m if m > 100.0 => 1.5,
        m if m > 50.0 => 0.9,
        m if m > 20.0 => 0.4,
        _ => 0.0,
    };
    if op == Op::Mul && magnitude(a) > 10.0 && magnitude(b) > 10.0 {
        e += 1.0;
    }
    e
}

fn magnitude(n: Num) -> f64 {
    (n.numer() as f64 / n.denom() as f64).abs()
}
