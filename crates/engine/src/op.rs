//! The operators and the one evaluator of a single move.
//!
//! [`Op::apply`] is the only place where two numbers become a third: the
//! board, the solver, hints and worksheets all call it, so a move the solver
//! lists is exactly a move the player can make. Refusals are [`MoveError`]s
//! whose messages are shown to the player as they are.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::number::{Num, Overflow};

/// An operator of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Op {
    /// `+`
    Add,
    /// `−`
    Sub,
    /// `×`
    Mul,
    /// `÷`
    Div,
    /// `‖`: the digits of the left number, then those of the right.
    Concat,
    /// `^`: a whole exponent from 0 to [`MAX_EXPONENT`] (off in both presets).
    Pow,
}

/// The largest exponent [`Op::Pow`] accepts.
pub const MAX_EXPONENT: i64 = 10;

/// Why a move was refused (data a page words in its reader's language; the `Display` is
/// English).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum MoveError {
    /// Division by zero.
    #[error("You can't divide by zero.")]
    DivideByZero,
    /// Concatenation of a number that is not whole.
    #[error("Only whole numbers can be joined with ‖.")]
    ConcatNotWhole,
    /// Concatenation with zero on the left.
    #[error("‖ needs a left number that is not zero.")]
    ConcatZeroLeft,
    /// Concatenation with a negative right number.
    #[error("‖ needs a right number that is zero or more.")]
    ConcatNegativeRight,
    /// A power with an exponent that is not a small whole number.
    #[error("Powers need a whole exponent from 0 to 10.")]
    BadExponent,
    /// The result does not fit the number type.
    #[error("That result is too large to keep.")]
    Overflow,
    /// The operator is switched off by the rules.
    #[error("{0} is not allowed in this game.")]
    NotAllowed(Op),
}

impl From<Overflow> for MoveError {
    fn from(_: Overflow) -> MoveError {
        MoveError::Overflow
    }
}

impl Op {
    /// Every operator, in palette order.
    pub const ALL: [Op; 6] = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Concat, Op::Pow];

    /// The symbol shown to players.
    pub const fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "−",
            Op::Mul => "×",
            Op::Div => "÷",
            Op::Concat => "‖",
            Op::Pow => "^",
        }
    }

    /// A spoken name, for screen readers and accessible labels.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Add => "plus",
            Op::Sub => "minus",
            Op::Mul => "times",
            Op::Div => "divided by",
            Op::Concat => "joined with",
            Op::Pow => "to the power of",
        }
    }

    /// Parses a symbol, accepting the ASCII spellings (`-`, `*`, `x`, `/`, `|`) and the
    /// classroom's `·` and `:` too.
    pub fn from_symbol(s: &str) -> Option<Op> {
        Some(match s.trim() {
            "+" => Op::Add,
            "−" | "-" => Op::Sub,
            "×" | "*" | "x" | "·" => Op::Mul,
            "÷" | "/" | ":" => Op::Div,
            "‖" | "|" | "||" => Op::Concat,
            "^" => Op::Pow,
            _ => return None,
        })
    }

    /// Whether `a op b == b op a` for all numbers.
    pub const fn is_commutative(self) -> bool {
        matches!(self, Op::Add | Op::Mul)
    }

    /// Binding strength for display: higher binds tighter.
    pub(crate) const fn precedence(self) -> u8 {
        match self {
            Op::Add | Op::Sub => 1,
            Op::Mul | Op::Div => 2,
            Op::Concat => 3,
            Op::Pow => 4,
        }
    }

    /// `a op b`, exactly, or the reason it is refused.
    #[inline]
    pub fn apply(self, a: Num, b: Num) -> Result<Num, MoveError> {
        Ok(match self {
            Op::Add => a.checked_add(b)?,
            Op::Sub => a.checked_sub(b)?,
            Op::Mul => a.checked_mul(b)?,
            Op::Div => a.checked_div(b).ok_or(MoveError::DivideByZero)??,
            Op::Concat => concat(a, b)?,
            Op::Pow => {
                let e = b.as_integer().filter(|e| (0..=MAX_EXPONENT).contains(e));
                let e = e.ok_or(MoveError::BadExponent)?;
                a.checked_pow(e as u32)?
            }
        })
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// `a‖b`: docs/RULES.md §2. Whole `a ≠ 0`, whole `b ≥ 0`; the digits of `a`, then of `b`.
fn concat(a: Num, b: Num) -> Result<Num, MoveError> {
    let (Some(a), Some(b)) = (a.as_integer(), b.as_integer()) else {
        return Err(MoveError::ConcatNotWhole);
    };
    if a == 0 {
        return Err(MoveError::ConcatZeroLeft);
    }
    if b < 0 {
        return Err(MoveError::ConcatNegativeRight);
    }
    let mut scale: i64 = 10;
    while scale <= b {
        scale = scale.checked_mul(10).ok_or(MoveError::Overflow)?;
    }
    let shifted = a.checked_mul(scale).ok_or(MoveError::Overflow)?;
    let tail = if a < 0 { -b } else { b };
    Ok(Num::int(shifted.checked_add(tail).ok_or(MoveError::Overflow)?))
}

/// A set of enabled operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpSet(u8);

impl OpSet {
    /// No operators.
    pub const EMPTY: OpSet = OpSet(0);
    /// + − × ÷
    pub const ARITHMETIC: OpSet = OpSet(0b1111);
    /// + − × ÷ ‖
    pub const SCORE: OpSet = OpSet(0b11111);

    const fn bit(op: Op) -> u8 {
        1 << op as u8
    }

    /// This set with `op` added.
    pub const fn with(self, op: Op) -> OpSet {
        OpSet(self.0 | Self::bit(op))
    }

    /// This set without `op`.
    pub const fn without(self, op: Op) -> OpSet {
        OpSet(self.0 & !Self::bit(op))
    }

    /// Whether `op` is enabled.
    pub const fn contains(self, op: Op) -> bool {
        self.0 & Self::bit(op) != 0
    }

    /// The enabled operators in palette order.
    pub fn iter(self) -> impl Iterator<Item = Op> {
        Op::ALL.into_iter().filter(move |&op| self.contains(op))
    }

    /// Whether no operator is enabled.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: i64) -> Num {
        Num::int(x)
    }

    #[test]
    fn concatenation_follows_rules_md() {
        // docs/RULES.md §2: 1‖5 = 15, 2‖0 = 20, −3‖5 = −35, (6÷3)‖0 = 20.
        assert_eq!(Op::Concat.apply(n(1), n(5)), Ok(n(15)));
        assert_eq!(Op::Concat.apply(n(2), n(0)), Ok(n(20)));
        assert_eq!(Op::Concat.apply(n(-3), n(5)), Ok(n(-35)));
        let two = Op::Div.apply(n(6), n(3)).unwrap();
        assert_eq!(Op::Concat.apply(two, n(0)), Ok(n(20)));
        assert_eq!(Op::Concat.apply(n(12), n(20)), Ok(n(1220)));
        assert_eq!(Op::Concat.apply(n(1), n(10)), Ok(n(110)));
        assert_eq!(Op::Concat.apply(n(9), n(99)), Ok(n(999)));
    }

    #[test]
    fn concatenation_refusals_are_typed() {
        let half = Num::ratio(1, 2).unwrap();
        assert_eq!(Op::Concat.apply(half, n(1)), Err(MoveError::ConcatNotWhole));
        assert_eq!(Op::Concat.apply(n(1), half), Err(MoveError::ConcatNotWhole));
        assert_eq!(Op::Concat.apply(n(0), n(5)), Err(MoveError::ConcatZeroLeft));
        assert_eq!(Op::Concat.apply(n(5), n(-1)), Err(MoveError::ConcatNegativeRight));
        assert_eq!(Op::Concat.apply(n(i64::MAX / 5), n(1)), Err(MoveError::Overflow));
    }

    #[test]
    fn dividing_by_zero_is_refused() {
        assert_eq!(Op::Div.apply(n(4), n(0)), Err(MoveError::DivideByZero));
        assert_eq!(MoveError::DivideByZero.to_string(), "You can't divide by zero.");
    }

    #[test]
    fn four_divided_by_two_thirds_is_six() {
        let two_thirds = Op::Div.apply(n(2), n(3)).unwrap();
        assert_eq!(Op::Div.apply(n(4), two_thirds), Ok(n(6)));
    }

    #[test]
    fn power_takes_small_whole_exponents_only() {
        assert_eq!(Op::Pow.apply(n(2), n(10)), Ok(n(1024)));
        assert_eq!(Op::Pow.apply(n(2), n(11)), Err(MoveError::BadExponent));
        assert_eq!(Op::Pow.apply(n(2), n(-1)), Err(MoveError::BadExponent));
        assert_eq!(Op::Pow.apply(n(9999), n(10)), Err(MoveError::Overflow));
    }

    #[test]
    fn op_sets() {
        assert!(OpSet::SCORE.contains(Op::Concat));
        assert!(!OpSet::ARITHMETIC.contains(Op::Concat));
        assert_eq!(OpSet::SCORE.iter().count(), 5);
        assert!(OpSet::SCORE.with(Op::Pow).contains(Op::Pow));
        assert_eq!(OpSet::SCORE.without(Op::Concat), OpSet::ARITHMETIC);
        assert_eq!(Op::from_symbol("*"), Some(Op::Mul));
        // The classroom's signs, as typed or pasted.
        assert_eq!(Op::from_symbol("·"), Some(Op::Mul));
        assert_eq!(Op::from_symbol(":"), Some(Op::Div));
        assert_eq!(Op::from_symbol(";"), None);
    }
}
