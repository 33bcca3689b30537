//! The settings of a game and their limits (docs/RULES.md §1, §4).
//!
//! A [`Rules`] value is everything that changes what counts: dice, goal,
//! operators, whether every number must be used, clock lengths and strict
//! mode. [`Rules::validate`] reports every bad field at once, each
//! [`RulesError`] naming its [`Field`] so a form can put the message beside it.

use serde::{Deserialize, Serialize};

use crate::op::{Op, OpSet};

/// Fewest dice.
pub const MIN_DICE: usize = 3;
/// Most dice.
pub const MAX_DICE: usize = 6;
/// Fewest sides on a die.
pub const MIN_SIDES: u32 = 2;
/// Most sides on a die.
pub const MAX_SIDES: u32 = 100;
/// Lowest goal.
pub const MIN_GOAL: i64 = -999;
/// Highest goal.
pub const MAX_GOAL: i64 = 9999;
/// Shortest clock, in seconds.
pub const MIN_CLOCK_SECS: u32 = 5;
/// Longest clock, in seconds.
pub const MAX_CLOCK_SECS: u32 = 600;
/// Longest name of a player or team, in characters (pass-and-play and class rooms alike).
pub const MAX_NAME: usize = 20;

/// A named starting point for the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Preset {
    /// 6, 6, 12, 20 → 20 with + − × ÷ ‖.
    Score,
    /// Four numbers 1 to 13 → 24 with + − × ÷, every number used.
    TwentyFour,
}

impl Preset {
    /// The preset's short name, as used in links and the CLI.
    pub const fn key(self) -> &'static str {
        match self {
            Preset::Score => "score",
            Preset::TwentyFour => "24",
        }
    }

    /// Looks a preset up by [`Preset::key`].
    pub fn from_key(s: &str) -> Option<Preset> {
        match s.trim().to_ascii_lowercase().as_str() {
            "score" => Some(Preset::Score),
            "24" | "twentyfour" | "twenty-four" => Some(Preset::TwentyFour),
            _ => None,
        }
    }
}

/// What makes two rules one game: the dice, the goal and the operators, and whether every
/// number must be used (clocks and strict mode aside). A player's rating and a game's
/// difficulty levels are of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Sides of each die.
    pub dice: Vec<u32>,
    /// The goal.
    pub goal: i64,
    /// Enabled operators.
    pub ops: OpSet,
    /// Whether every number must be used.
    pub use_all: bool,
}

/// The settings of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Sides of each die.
    pub dice: Vec<u32>,
    /// The number to make.
    pub goal: i64,
    /// Enabled operators.
    pub ops: OpSet,
    /// Whether every number must be used (the 24 game).
    pub use_all: bool,
    /// Length of the SCORE clock, seconds.
    pub score_secs: u32,
    /// Length of the IMPOSSIBLE clock, seconds.
    pub impossible_secs: u32,
    /// Strict mode: no undo under the SCORE clock, and using up the numbers fails the SCORE.
    pub strict: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Score)
    }
}

/// A settings field, for placing a message beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Field {
    /// The number of dice.
    DiceCount,
    /// The sides of die `n` (0-based).
    Sides(usize),
    /// The goal.
    Goal,
    /// The operators.
    Ops,
    /// The SCORE clock.
    ScoreClock,
    /// The IMPOSSIBLE clock.
    ImpossibleClock,
}

/// A setting out of range.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
pub enum RulesError {
    /// Too few or too many dice.
    #[error("Use 3 to 6 dice (not {0}).")]
    DiceCount(usize),
    /// A die with too few or too many sides.
    #[error("Die {} needs 2 to 100 sides (not {sides}).", .index + 1)]
    Sides {
        /// Which die (0-based).
        index: usize,
        /// Its sides.
        sides: u32,
    },
    /// A goal out of range.
    #[error("The goal must be a whole number from -999 to 9999 (not {0}).")]
    Goal(i64),
    /// No operator enabled.
    #[error("Turn on at least one operator.")]
    NoOps,
    /// A clock out of range.
    #[error("Clocks run from 5 to 600 seconds (not {secs}).")]
    Clock {
        /// Which clock.
        field: Field,
        /// Its length.
        secs: u32,
    },
}

impl RulesError {
    /// The field the message belongs beside.
    pub fn field(&self) -> Field {
        match self {
            RulesError::DiceCount(_) => Field::DiceCount,
            RulesError::Sides { index, .. } => Field::Sides(*index),
            RulesError::Goal(_) => Field::Goal,
            RulesError::NoOps => Field::Ops,
            RulesError::Clock { field, .. } => *field,
        }
    }
}

impl Rules {
    /// The rules of a preset, with default clocks.
    pub fn preset(preset: Preset) -> Rules {
        let base = Rules {
            dice: vec![6, 6, 12, 20],
            goal: 20,
            ops: OpSet::SCORE,
            use_all: false,
            score_secs: 30,
            impossible_secs: 60,
            strict: false,
        };
        match preset {
            Preset::Score => base,
            Preset::TwentyFour => Rules { dice: vec![13; 4], goal: 24, ops: OpSet::ARITHMETIC, use_all: true, ..base },
        }
    }

    /// Which preset these rules are, if any (clocks and strict mode aside).
    pub fn matches_preset(&self) -> Option<Preset> {
        [Preset::Score, Preset::TwentyFour].into_iter().find(|&p| Rules::preset(p).game() == self.game())
    }

    /// The game these rules play: what two rules must share to be one game.
    pub fn game(&self) -> Game {
        Game { dice: self.dice.clone(), goal: self.goal, ops: self.ops, use_all: self.use_all }
    }

    /// Every field out of range; empty when the rules are usable.
    pub fn validate(&self) -> Result<(), Vec<RulesError>> {
        let mut errors = Vec::new();
        if !(MIN_DICE..=MAX_DICE).contains(&self.dice.len()) {
            errors.push(RulesError::DiceCount(self.dice.len()));
        }
        for (index, &sides) in self.dice.iter().enumerate() {
            if !(MIN_SIDES..=MAX_SIDES).contains(&sides) {
                errors.push(RulesError::Sides { index, sides });
            }
        }
        if !(MIN_GOAL..=MAX_GOAL).contains(&self.goal) {
            errors.push(RulesError::Goal(self.goal));
        }
        if self.ops.is_empty() {
            errors.push(RulesError::NoOps);
        }
        for (field, secs) in [(Field::ScoreClock, self.score_secs), (Field::ImpossibleClock, self.impossible_secs)] {
            if !(MIN_CLOCK_SECS..=MAX_CLOCK_SECS).contains(&secs) {
                errors.push(RulesError::Clock { field, secs });
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Whether `op` may be used.
    pub fn allows(&self, op: Op) -> bool {
        self.ops.contains(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_rules_md() {
        let s = Rules::preset(Preset::Score);
        assert_eq!((s.dice.as_slice(), s.goal, s.use_all), (&[6, 6, 12, 20][..], 20, false));
        assert!(s.allows(Op::Concat) && !s.allows(Op::Pow));
        let t = Rules::preset(Preset::TwentyFour);
        assert_eq!((t.dice.as_slice(), t.goal, t.use_all), (&[13, 13, 13, 13][..], 24, true));
        assert!(!t.allows(Op::Concat));
        assert_eq!(t.matches_preset(), Some(Preset::TwentyFour));
        assert_eq!(Preset::from_key("24"), Some(Preset::TwentyFour));
    }

    #[test]
    fn validation_reports_every_bad_field() {
        let r = Rules { dice: vec![1, 6], goal: 10_000, score_secs: 2, ..Rules::default() };
        let errors = r.validate().unwrap_err();
        let fields: Vec<Field> = errors.iter().map(RulesError::field).collect();
        assert_eq!(fields, [Field::DiceCount, Field::Sides(0), Field::Goal, Field::ScoreClock]);
        assert_eq!(errors[1].to_string(), "Die 1 needs 2 to 100 sides (not 1).");
        assert!(Rules::default().validate().is_ok());
    }
}
