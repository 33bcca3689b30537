//! Ratings from play: a player's ability and a roll's difficulty on one scale, both moved by
//! every judged SCORE, the time it took counted (Elo as Math Garden plays it: Maris and van
//! der Maas, "Speed-accuracy response models: scoring rules based on response time and
//! accuracy", Psychometrika 77, 2012; Klinkenberg, Straatemeier and van der Maas, Computers
//! & Education 57, 2011).
//!
//! **The score of an answer** ([`score`]): a goal made `t` seconds after the deal scores
//! `1 − t/d`, a failure `−(1 − t/d)` where `t` is when the wrong answer was given (a SCORE
//! or IMPOSSIBLE claim that fails is a wrong answer given when it was claimed; a roll left
//! or a hint asked for, then), with a deadline
//! `d` of the game's: alone, twice its median rating ([`Levels::deadline`]: 11.7 s for Score's
//! dice, 36.8 s for the 24 game's, so a typical player isn't driven up by every roll of a
//! quick game); in a class room, where the time runs from SCORE, its SCORE clock. A quick
//! success is worth most, a quick failure costs most (a guess), and anything at the
//! deadline says nothing either way.
//!
//! **What to expect.** For a player of rating θ on a roll of rating β, with Δ = θ − β, the
//! model holds the score's density proportional to e^(Δ·s) on [−1, 1]: the chance of success
//! is the logistic of Δ ([`chance`]), and the expected score is coth Δ − 1/Δ ([`expected`]).
//! After an answer of score `s`, the player moves by `K·(s − E)` and the roll by the same
//! amount the other way; `K` starts large and settles as answers come in ([`k_of`]).
//!
//! **Where a roll starts.** At the difficulty model's rating ([`crate::difficulty`]):
//! [`SCALE`]·ln(seconds / median of its dice), so a typical player (θ = 0) has an even chance
//! at a roll of median difficulty. "At my level" deals rolls whose chance for the player is
//! [`TARGET`] ([`target_seconds`]).

use serde::{Deserialize, Serialize};

use crate::difficulty::Levels;

/// Rating units per unit of ln(seconds): a roll taking e times as long as the median is this
/// much harder.
pub const SCALE: f64 = 1.5;

/// The chance of success "At my level" aims at.
pub const TARGET: f64 = 0.75;

/// Ratings are held within ± this (bad stored data never runs away).
pub const LIMIT: f64 = 8.0;

/// A rating and how many answers made it.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Ability {
    /// The rating: 0 is a typical player, or a roll of median difficulty. Stored in
    /// thousandths, a whole number: text of a float would bring a float printer and reader
    /// into the page's first load for this one number.
    #[serde(with = "thousandths")]
    pub rating: f64,
    /// Judged SCOREs counted.
    pub answers: u32,
}

// A rating is always a finite number (every constructor and update clamps it), so equality
// is reflexive and the rooms' stored state, which is compared whole, may hold one.
impl Eq for Ability {}

impl Ability {
    /// A rating to start from, with no answers yet.
    pub fn start(rating: f64) -> Ability {
        Ability { rating: clamp(rating), answers: 0 }
    }

    /// A copy fit for use: a rating that isn't a number, or out of range, is brought back.
    pub fn sane(self) -> Ability {
        Ability { rating: clamp(self.rating), answers: self.answers }
    }
}

/// A rating stored as a whole number of thousandths.
mod thousandths {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64((super::clamp(*x) * 1000.0).round() as i64)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(super::clamp(i64::deserialize(d)? as f64 / 1000.0))
    }
}

/// Within ± [`LIMIT`], to the thousandth it is stored to (a rating read back is the one
/// stored), 0 for what isn't a number.
fn clamp(x: f64) -> f64 {
    if x.is_finite() {
        (x.clamp(-LIMIT, LIMIT) * 1000.0).round() / 1000.0
    } else {
        0.0
    }
}

/// The score of an answer: made or not, `secs` into `deadline` seconds (see the module's
/// words).
pub fn score(made: bool, secs: f64, deadline: f64) -> f64 {
    let left = if secs.is_finite() && deadline > 0.0 { (1.0 - secs.max(0.0) / deadline).max(0.0) } else { 0.0 };
    if made {
        left
    } else {
        -left
    }
}

/// The chance a player succeeds when their rating exceeds the roll's by `delta`.
pub fn chance(delta: f64) -> f64 {
    1.0 / (1.0 + (-delta).exp())
}

/// The expected [`score`] when the player's rating exceeds the roll's by `delta`:
/// coth Δ − 1/Δ (Δ/3 near 0, where the formula loses its digits).
pub fn expected(delta: f64) -> f64 {
    if delta.abs() < 1e-3 {
        delta / 3.0
    } else {
        1.0 / delta.tanh() - 1.0 / delta
    }
}

/// How far one answer moves a rating that `answers` answers made: 0.6 at first, settling to
/// 0.2 (a new player finds their level within a few rolls, a known one isn't thrown by one).
pub fn k_of(answers: u32) -> f64 {
    (0.6 / (1.0 + f64::from(answers) / 6.0).sqrt()).max(0.2)
}

/// A roll's starting rating from the model's seconds, among dice of these `levels`.
pub fn roll_rating(seconds: f64, levels: &Levels) -> f64 {
    clamp(SCALE * (seconds / levels.median.max(1e-9)).ln())
}

/// The model's seconds of a roll rated `rating` (the inverse of [`roll_rating`]).
pub fn seconds_of_rating(rating: f64, levels: &Levels) -> f64 {
    levels.median * (rating / SCALE).exp()
}

/// The rating of a roll the player succeeds at with chance [`TARGET`].
pub fn target_rating(player: f64) -> f64 {
    player - (TARGET / (1.0 - TARGET)).ln()
}

/// The rating of a roll the player succeeds at with chance [`TARGET`], as model seconds.
pub fn target_seconds(player: f64, levels: &Levels) -> f64 {
    seconds_of_rating(target_rating(player), levels)
}

/// One judged SCORE, `secs` into `deadline`: the player and the roll each move by what it says.
pub fn update(player: &mut Ability, roll: &mut Ability, made: bool, secs: f64, deadline: f64) {
    let s = score(made, secs, deadline);
    let e = expected(player.rating - roll.rating);
    let (p, r) = (k_of(player.answers), k_of(roll.answers));
    *player = Ability { rating: clamp(player.rating + p * (s - e)), answers: player.answers.saturating_add(1) };
    *roll = Ability { rating: clamp(roll.rating - r * (s - e)), answers: roll.answers.saturating_add(1) };
}

/// One judged SCORE where only the player moves (solitaire: a roll's rating is the model's).
pub fn update_player(player: &mut Ability, roll: f64, made: bool, secs: f64, deadline: f64) {
    let mut r = Ability::start(roll);
    update(player, &mut r, made, secs, deadline);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_reward_speed_and_punish_quick_failure() {
        assert_eq!(score(true, 0.0, 60.0), 1.0);
        assert_eq!(score(true, 30.0, 60.0), 0.5);
        assert_eq!(score(false, 15.0, 60.0), -0.75);
        assert_eq!(score(true, 600.0, 60.0), 0.0);
        assert_eq!(score(false, f64::NAN, 60.0), 0.0);
        assert_eq!(score(true, -5.0, 60.0), 1.0);
        assert_eq!(score(true, 5.0, 0.0), 0.0);
    }

    #[test]
    fn expectation_is_smooth_odd_and_within_bounds() {
        for d in [-6.0, -1.0, -1e-4, 0.0, 1e-4, 0.5, 3.0, 7.9] {
            let e = expected(d);
            assert!((-1.0..=1.0).contains(&e), "{d}: {e}");
            assert!((e + expected(-d)).abs() < 1e-12);
        }
        // Continuous where the formula changes.
        assert!((expected(1e-3 - 1e-12) - expected(1e-3 + 1e-12)).abs() < 1e-6);
        assert!(chance(0.0) == 0.5 && chance(2.0) > 0.85);
    }

    #[test]
    fn a_quick_success_raises_the_player_and_lowers_the_roll() {
        let (mut p, mut r) = (Ability::default(), Ability::start(0.5));
        update(&mut p, &mut r, true, 4.0, 20.0);
        assert!(p.rating > 0.0 && r.rating < 0.5 && p.answers == 1 && r.answers == 1);
        let (mut q, mut s) = (Ability::default(), Ability::start(0.5));
        update(&mut q, &mut s, false, 4.0, 20.0);
        assert!(q.rating < 0.0 && s.rating > 0.5);
        // Bad stored numbers come back sane.
        assert_eq!(Ability { rating: f64::NAN, answers: 3 }.sane().rating, 0.0);
        assert_eq!(Ability { rating: 1e9, answers: 3 }.sane().rating, LIMIT);
    }

    #[test]
    fn a_rating_is_stored_in_thousandths_and_read_back_sane() {
        let a = Ability { rating: 1.23456, answers: 7 };
        let text = serde_json::to_string(&a).unwrap();
        let mut b = Ability::start(0.0);
        update(&mut b, &mut Ability::start(0.3), true, 7.0, 20.0);
        assert_eq!(serde_json::from_str::<Ability>(&serde_json::to_string(&b).unwrap()).unwrap(), b);
        assert_eq!(text, r#"{"rating":1235,"answers":7}"#);
        assert_eq!(serde_json::from_str::<Ability>(&text).unwrap(), Ability { rating: 1.235, answers: 7 });
        let far: Ability = serde_json::from_str(r#"{"rating":-99000000,"answers":1}"#).unwrap();
        assert_eq!(far.rating, -LIMIT);
        assert!(serde_json::from_str::<Ability>(r#"{"rating":"x","answers":1}"#).is_err());
    }

    #[test]
    fn at_my_level_aims_at_three_in_four() {
        let levels = Levels { cuts: [4.0, 5.0, 6.0, 10.0], median: 5.0 };
        for player in [-2.0, 0.0, 1.5] {
            let target = roll_rating(target_seconds(player, &levels), &levels);
            assert!((chance(player - target) - TARGET).abs() < 1e-3);
        }
        assert_eq!(roll_rating(5.0, &levels), 0.0);
        assert!(target_seconds(1.0, &levels) > target_seconds(0.0, &levels));
    }
}
