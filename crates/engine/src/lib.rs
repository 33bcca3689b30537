//! # score-engine: the rules of Score
//!
//! Four dice are rolled; the player makes the goal (20) in two or three
//! moves, each taking two numbers and an operator (+ − × ÷ ‖) and putting the
//! result back as a red, derived number. The goal counts only when a move
//! with a red input makes it. Arithmetic is exact ([`Num`]), and one
//! evaluator ([`Op::apply`]) serves the [`Board`], the solver, hints and
//! worksheets. Rounds and scoring ([`Round`]) take the time as an argument
//! and the roll takes its randomness as an argument, so every rule is a fast
//! native test. No browser dependency lives here.
#![warn(missing_docs)]

pub mod board;
pub mod difficulty;
pub mod elo;
pub mod entry;
pub mod expr;
pub mod number;
pub mod op;
pub mod practice;
mod reach;
pub mod roll;
pub mod round;
pub mod rules;
pub mod small_sort;
pub mod solve;
pub mod stats;

pub use board::{Action, Board, BoardError, Event, Tile, TileId};
pub use expr::{Expr, Step};
pub use number::Num;
pub use op::{MoveError, Op, OpSet};
pub use round::{Award, Input, Phase, Reason, Round, RoundError};
pub use rules::{Field, Preset, Rules, RulesError};
pub use solve::{hint, impossible_rolls, is_solvable, solutions, ImpossibleTable, Puzzle};
pub use stats::Stats;
