//! Ratings from play in a class: every SCORE judged in the class or in its homework, made
//! or failed, moves two numbers the server keeps, the student's rating and the roll's
//! (`score_engine::elo`: Math Garden's speed-accuracy scoring, timed from the deal against
//! the game's deadline, as alone). A roll's rating starts at the difficulty model's
//! (`score_engine::difficulty`).
//!
//! A SCORE is rated once the roll is settled, not as it is judged: a failed SCORE during
//! someone's IMPOSSIBLE clock leaves the roll in play, and a rating moved then (only a roll
//! with a solution has a rating to move against) would tell the teacher's Progress whether
//! the roll can be made while the claim on it runs.
//!
//! Ratings are kept by the server: a page never gets a roll's rating, and gets a student's
//! only in the teacher's Progress, as the level of rolls they make three times in four.

use score_engine::difficulty::{rate_roll, Levels};
use score_engine::elo::{self, Ability};
use score_engine::round::Reason;
use score_engine::Rules;
use serde::{Deserialize, Serialize};

use crate::protocol::sorted;
use crate::room::{push_latest, Member, Saved, ROLLS_KEPT};

/// Most dice a room rates SCOREs with (as solitaire keeps a rating).
pub const MAX_RATED_DICE: usize = 4;

/// A roll's rating in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRating {
    /// The roll, smallest first.
    pub roll: Vec<i64>,
    pub goal: i64,
    pub ability: Ability,
}

impl RollRating {
    /// Whether this is the rating of `roll` (smallest first) to `goal`.
    pub(crate) fn is(&self, roll: &[i64], goal: i64) -> bool {
        self.roll == roll && self.goal == goal
    }
}

/// A SCORE judged on the roll in play, to be rated once it is settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// Whose SCORE (their name: a member who leaves meanwhile keeps their record by it).
    pub name: String,
    /// Made, or failed (time up, given up, numbers used up).
    pub made: bool,
    /// From the deal to the answer, ms: to the goal made, or to the SCORE that failed.
    pub ms: Option<u64>,
}

/// Notes a result to rate, if it is a SCORE judged: made, or failed by time, giving up, the
/// numbers running out or leaving under its clock. A SCORE cut short by a new roll says
/// nothing of skill; nor does an IMPOSSIBLE claim. Timed from the deal (`dealt`), as alone:
/// a goal made when it was, a SCORE that failed as a wrong answer given when it was pressed
/// (`pressed`; failing at the end of the clock is no better than failing at once).
pub fn judged(
    unrated: &mut Vec<Answer>,
    name: String,
    reason: Reason,
    dealt: Option<u64>,
    pressed: Option<u64>,
    now: u64,
) {
    let made = match reason {
        Reason::Made { .. } => true,
        Reason::TimeUp | Reason::GaveUp | Reason::NumbersUsedUp | Reason::Left => false,
        _ => return,
    };
    // A roll with no time of its deal (a room's first, made before deals were timed) isn't rated.
    let Some(dealt) = dealt else { return };
    let at = if made { now } else { pressed.unwrap_or(now) };
    unrated.push(Answer { name, made, ms: Some(at.saturating_sub(dealt)) });
}

/// A homework roll passed over unclaimed and unmade, `ms` after its deal: a failure, as New
/// roll on such a roll is alone (a student could otherwise pass every roll they can't do).
pub fn passed(unrated: &mut Vec<Answer>, name: String, ms: u64) {
    unrated.push(Answer { name, made: false, ms: Some(ms) });
}

/// Rates the SCOREs judged on the roll just settled: each moves its player's rating and the
/// roll's. A roll with no solution has no rating (a SCORE on it says nothing of how hard it
/// is), and a player no longer in the room is passed over.
pub fn settle(saved: &mut Saved) {
    let answers = std::mem::take(&mut saved.unrated);
    if answers.is_empty() {
        return;
    }
    // A roll known to have no solution rates nothing, and with five or six dice rating one
    // takes seconds, under the room's lock: not rated (as alone).
    if saved.solution.is_none() || saved.rules.dice.len() > MAX_RATED_DICE {
        return;
    }
    let Some(roll) = roll_rating(saved) else { return };
    // Timed from the deal, against the game's deadline, as alone.
    let deadline = Levels::of(&saved.rules).deadline();
    for a in answers {
        let secs = a.ms.map_or(deadline, |ms| ms as f64 / 1000.0);
        let member = saved
            .seats
            .iter_mut()
            .flatten()
            .chain(saved.gone.iter_mut().map(|g| &mut g.member))
            .find(|m: &&mut Member| m.name == a.name);
        if let Some(m) = member {
            elo::update(&mut m.rating, &mut saved.roll_ratings[roll].ability, a.made, secs, deadline);
        }
    }
}

/// The index of the roll in play's rating, made from the model's on its first SCORE (the
/// latest [`ROLLS_KEPT`] rolls are kept, the one in play last); none for a roll with no
/// solution.
fn roll_rating(saved: &mut Saved) -> Option<usize> {
    let (key, goal) = (sorted(&saved.roll), saved.rules.goal);
    let known = saved.roll_ratings.iter().position(|r| r.is(&key, goal));
    let rating = match known {
        Some(i) => saved.roll_ratings.remove(i),
        None => {
            let seconds = rate_roll(&saved.roll, &saved.rules)?.seconds;
            let start = elo::roll_rating(seconds, &Levels::of(&saved.rules));
            RollRating { roll: key, goal, ability: Ability::start(start) }
        }
    };
    push_latest(&mut saved.roll_ratings, rating, ROLLS_KEPT);
    Some(saved.roll_ratings.len() - 1)
}

/// A rating as the wire carries it: thousandths; none before any SCORE was rated.
pub fn stored(a: Ability) -> Option<i32> {
    (a.answers > 0).then(|| (a.sane().rating * 1000.0).round() as i32)
}

/// The level (1 to 5) of the rolls a student of rating `thousandths` makes three times in
/// four at `rules`' game: how the teacher's Progress words a rating.
pub fn level_of(thousandths: i32, rules: &Rules) -> u8 {
    let levels = Levels::of(rules);
    levels.level(elo::target_seconds(f64::from(thousandths) / 1000.0, &levels))
}

/// The rating of a homework run's student, as its room of one holds it.
fn run_student(run: &Saved) -> Option<Ability> {
    run.seats.iter().flatten().next().map(|m| m.rating)
}

/// A homework run is stored for `member` (its room of one after a result, or new): what its
/// results moved there (the student's rating, and its rolls') moves the class's the same
/// way, and the run is given the class's ratings to play on next. Moves, not copies: the
/// class may have rated the student, or a roll, since the run last played.
pub fn run_stored(member: &mut Member, class_rolls: &mut Vec<RollRating>, before: Option<&Saved>, run: &mut Saved) {
    if let Some(before) = before {
        member.rating = run_rating(member.rating, before, run);
    }
    for after in &run.roll_ratings {
        let was = before.and_then(|b| b.roll_ratings.iter().find(|r| r.is(&after.roll, after.goal)));
        let class = class_rolls.iter_mut().find(|r| r.is(&after.roll, after.goal));
        match (was, class) {
            (Some(w), Some(c)) => c.ability = moved(c.ability, w.ability, after.ability),
            (_, Some(c)) if c.ability.answers == 0 => c.ability = after.ability,
            (_, Some(_)) => {}
            (_, None) => push_latest(class_rolls, after.clone(), ROLLS_KEPT),
        }
    }
    if let Some(m) = run.seats.iter_mut().flatten().next() {
        m.rating = member.rating;
    }
    for r in &mut run.roll_ratings {
        if let Some(c) = class_rolls.iter().find(|c| c.is(&r.roll, r.goal)) {
            r.ability = c.ability;
        }
    }
    // The roll it plays next starts from the class's rating of it, where the class has one.
    let (key, goal) = (sorted(&run.roll), run.rules.goal);
    if !run.roll_ratings.iter().any(|r| r.is(&key, goal)) {
        if let Some(c) = class_rolls.iter().find(|c| c.is(&key, goal)) {
            push_latest(&mut run.roll_ratings, c.clone(), ROLLS_KEPT);
        }
    }
}

/// A class rating of a student, `class`, moved as their homework run's room moved their
/// rating from `before` to `after`.
pub fn run_rating(class: Ability, before: &Saved, after: &Saved) -> Ability {
    match (run_student(before), run_student(after)) {
        (Some(b), Some(a)) => moved(class, b, a),
        _ => class,
    }
}

/// `now` moved as `before` moved to `after`.
fn moved(now: Ability, before: Ability, after: Ability) -> Ability {
    let rating = now.rating + (after.rating - before.rating);
    Ability {
        rating: Ability::start(rating).rating,
        answers: now.answers + after.answers.saturating_sub(before.answers),
    }
}
