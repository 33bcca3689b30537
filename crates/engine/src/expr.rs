//! Expressions: how a number was made.
//!
//! A derived tile and a listed solution are both an [`Expr`] tree whose inner
//! nodes were built by [`Expr::combine`], i.e. by [`Op::apply`], so every value
//! in a tree is one the player could have made. The tree is data; the UI
//! decides how to show it, with [`Display`](fmt::Display) (fewest parentheses)
//! and [`Expr::steps`] (the working, one move per line) as the usual choices.
//! [`Expr::canonical`] is the key under which the solver merges solutions that
//! differ only by commutativity, associativity or regrouping.

use std::fmt;

use crate::number::Num;
use crate::op::{MoveError, Op};

/// An expression tree over numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A number from the pool; `slot` is its position in the pool the tree was built from.
    Leaf {
        /// Its value.
        value: Num,
        /// Its index in the pool the expression was built from.
        slot: usize,
    },
    /// One move: `left op right = value`.
    Node {
        /// The operator.
        op: Op,
        /// The left operand.
        left: Box<Expr>,
        /// The right operand.
        right: Box<Expr>,
        /// The result.
        value: Num,
    },
}

/// One line of working: `left op right = result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The left operand.
    pub left: Num,
    /// The operator.
    pub op: Op,
    /// The right operand.
    pub right: Num,
    /// The result.
    pub result: Num,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} = {}", Operand(self.left), self.op, Operand(self.right), self.result)
    }
}

/// A number as an operand: fractions and negatives in parentheses, so `4 ÷ (2/3)` reads right.
struct Operand(Num);

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_integer() && !self.0.is_negative() {
            write!(f, "{}", self.0)
        } else {
            write!(f, "({})", self.0)
        }
    }
}

impl Expr {
    /// A number taken from slot `slot` of a pool.
    pub fn leaf(value: Num, slot: usize) -> Expr {
        Expr::Leaf { value, slot }
    }

    /// `left op right`, evaluated by [`Op::apply`].
    pub fn combine(op: Op, left: Expr, right: Expr) -> Result<Expr, MoveError> {
        let value = op.apply(left.value(), right.value())?;
        Ok(Expr::Node { op, left: Box::new(left), right: Box::new(right), value })
    }

    /// The value of the whole expression.
    pub fn value(&self) -> Num {
        match self {
            Expr::Leaf { value, .. } | Expr::Node { value, .. } => *value,
        }
    }

    /// Re-evaluates every move from the leaves (a check that the stored values are right).
    pub fn eval(&self) -> Result<Num, MoveError> {
        match self {
            Expr::Leaf { value, .. } => Ok(*value),
            Expr::Node { op, left, right, .. } => op.apply(left.eval()?, right.eval()?),
        }
    }

    /// How many moves the expression takes.
    pub fn moves(&self) -> usize {
        match self {
            Expr::Leaf { .. } => 0,
            Expr::Node { left, right, .. } => 1 + left.moves() + right.moves(),
        }
    }

    /// The pool slots of the leaves, left to right.
    pub fn slots(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Leaf { slot, .. } = e {
                out.push(*slot);
            }
        });
        out
    }

    /// The working: one [`Step`] per move, in an order the moves can be made.
    pub fn steps(&self) -> Vec<Step> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Node { op, left, right, value } = e {
                out.push(Step { left: left.value(), op: *op, right: right.value(), result: *value });
            }
        });
        out
    }

    /// Post-order walk.
    fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        if let Expr::Node { left, right, .. } = self {
            left.visit(f);
            right.visit(f);
        }
        f(self);
    }

    fn any_result(&self, pred: impl Fn(Num) -> bool) -> bool {
        let mut hit = false;
        self.visit(&mut |e| {
            if matches!(e, Expr::Node { .. }) && pred(e.value()) {
                hit = true;
            }
        });
        hit
    }

    /// Whether some move's result is a fraction.
    pub fn uses_fraction(&self) -> bool {
        self.any_result(|v| !v.is_integer())
    }

    /// Whether some move's result is negative.
    pub fn uses_negative(&self) -> bool {
        self.any_result(|v| v.is_negative())
    }

    /// Whether some move uses `op`.
    pub fn uses_op(&self, op: Op) -> bool {
        let mut hit = false;
        self.visit(&mut |e| {
            if let Expr::Node { op: o, .. } = e {
                hit |= *o == op;
            }
        });
        hit
    }

    /// The first move of the working whose operands are both pool numbers: `(left slot, op, right slot)`.
    pub fn first_move(&self) -> Option<(usize, Op, usize)> {
        let mut first = None;
        self.visit(&mut |e| {
            if let (None, Expr::Node { op, left, right, .. }) = (&first, e) {
                if let (Expr::Leaf { slot: l, .. }, Expr::Leaf { slot: r, .. }) = (&**left, &**right) {
                    first = Some((*l, *op, *r));
                }
            }
        });
        first
    }

    /// A key equal for expressions that differ only by commutativity and
    /// associativity of + and ×, `a − (b − c) = a − b + c` regrouping and its
    /// `a ÷ (b ÷ c) = a ÷ b × c` twin, or by moving a minus sign through × and ÷
    /// (`x − (a − b) × c = x + (b − a) × c`) or out of a join (`−a‖b = −(a‖b)`): sums
    /// become sorted lists of signed terms, products sorted lists of factors with exponent
    /// ±1 and one sign for the whole.
    pub fn canonical(&self) -> Canon {
        match self.signed() {
            (false, c) => c,
            (true, c) => Canon::Sum(vec![(true, c)]),
        }
    }

    /// The canonical form up to sign: `(negated, form)`, the expression's value being
    /// the form's, negated when `negated`. A sum and its negation (`a − b`, `b − a`) have
    /// one form: of the two ways to sign its terms, the smaller; a product's sign is the
    /// product of its factors' signs.
    fn signed(&self) -> (bool, Canon) {
        match self {
            Expr::Leaf { value, .. } => (false, Canon::Num(*value)),
            Expr::Node { op: Op::Add | Op::Sub, .. } => {
                let mut terms = Vec::new();
                self.flatten(Op::Add, Op::Sub, false, &mut terms);
                let mut flipped: Vec<(bool, Canon)> = terms.iter().map(|(neg, c)| (!neg, c.clone())).collect();
                crate::small_sort::sort(&mut terms);
                crate::small_sort::sort(&mut flipped);
                if flipped < terms {
                    (true, Canon::Sum(flipped))
                } else {
                    (false, Canon::Sum(terms))
                }
            }
            Expr::Node { op: Op::Mul | Op::Div, .. } => {
                let mut factors = Vec::new();
                let negated = self.flatten(Op::Mul, Op::Div, false, &mut factors);
                crate::small_sort::sort(&mut factors);
                (negated, Canon::Product(factors))
            }
            Expr::Node { op: Op::Concat, left, right, .. } => {
                // −a‖b = −(a‖b) (docs/RULES.md §2): the left operand's sign moves out of a join.
                let (negated, l) = left.signed();
                (negated, Canon::Other(Op::Concat, Box::new(l), Box::new(right.canonical())))
            }
            Expr::Node { op, left, right, .. } => {
                (false, Canon::Other(*op, Box::new(left.canonical()), Box::new(right.canonical())))
            }
        }
    }

    /// Pushes the terms of a sum (or the factors of a product) with their flags: a
    /// subtracted term, or a divisor. A sum's terms take their own signs into the flag;
    /// a product's factors give theirs to the product: the result says whether it is negated.
    fn flatten(&self, plus: Op, minus: Op, inverted: bool, out: &mut Vec<(bool, Canon)>) -> bool {
        match self {
            Expr::Node { op, left, right, .. } if *op == plus || *op == minus => {
                left.flatten(plus, minus, inverted, out) ^ right.flatten(plus, minus, inverted ^ (*op == minus), out)
            }
            _ => {
                let (negated, c) = self.signed();
                if plus == Op::Add {
                    out.push((inverted ^ negated, c));
                    false
                } else {
                    out.push((inverted, c));
                    negated
                }
            }
        }
    }

    fn fmt_child(&self, f: &mut fmt::Formatter<'_>, parent: Op, right: bool) -> fmt::Result {
        let parens = match self {
            Expr::Leaf { value, .. } => !value.is_integer() || value.is_negative(),
            Expr::Node { op, .. } => {
                matches!(parent, Op::Concat | Op::Pow)
                    || op.precedence() < parent.precedence()
                    || (right && op.precedence() == parent.precedence() && !parent.is_commutative())
            }
        };
        if parens {
            write!(f, "({self})")
        } else {
            write!(f, "{self}")
        }
    }
}

impl fmt::Display for Expr {
    /// Infix with the fewest parentheses: `9‖9 ÷ 9 + 9`, `8 ÷ (3 − 8 ÷ 3)`. Every join is
    /// shown as ‖, two dice joined too: "12 + 8" for 6 2 1 8 hid that 12 is 1‖2.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Leaf { value, .. } => write!(f, "{value}"),
            Expr::Node { op, left, right, .. } => {
                left.fmt_child(f, *op, false)?;
                if *op == Op::Concat {
                    f.write_str("‖")?;
                } else {
                    write!(f, " {op} ")?;
                }
                right.fmt_child(f, *op, true)
            }
        }
    }
}

/// The canonical form of an [`Expr`] (see [`Expr::canonical`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Canon {
    /// A number.
    Num(Num),
    /// A sum of terms; `true` marks a subtracted term.
    Sum(Vec<(bool, Canon)>),
    /// A product of factors; `true` marks a divisor.
    Product(Vec<(bool, Canon)>),
    /// Any other operator, operands in order.
    Other(Op, Box<Canon>, Box<Canon>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(v: i64) -> Expr {
        Expr::leaf(Num::int(v), 0)
    }
    fn c(op: Op, a: Expr, b: Expr) -> Expr {
        Expr::combine(op, a, b).unwrap()
    }

    #[test]
    fn display_uses_fewest_parentheses() {
        let e = c(Op::Add, c(Op::Div, c(Op::Concat, l(9), l(9)), l(9)), l(9));
        assert_eq!(e.to_string(), "9‖9 ÷ 9 + 9");
        let e = c(Op::Div, l(8), c(Op::Sub, l(3), c(Op::Div, l(8), l(3))));
        assert_eq!(e.to_string(), "8 ÷ (3 − 8 ÷ 3)");
        assert_eq!(e.value(), Num::int(24));
        assert_eq!(c(Op::Concat, l(1), l(5)).steps()[0].to_string(), "1 ‖ 5 = 15");
        let e = c(Op::Concat, c(Op::Div, l(6), l(3)), l(0));
        assert_eq!(e.to_string(), "(6 ÷ 3)‖0");
        let e = c(Op::Mul, c(Op::Add, l(1), l(4)), l(4));
        assert_eq!(e.to_string(), "(1 + 4) × 4");
        let e = c(Op::Sub, l(1), c(Op::Sub, l(2), l(3)));
        assert_eq!(e.to_string(), "1 − (2 − 3)");
    }

    #[test]
    fn steps_show_each_move_with_fractions_in_parentheses() {
        let e = c(Op::Add, c(Op::Mul, l(3), c(Op::Div, l(4), c(Op::Div, l(2), l(3)))), l(2));
        let steps: Vec<String> = e.steps().iter().map(ToString::to_string).collect();
        assert_eq!(steps, ["2 ÷ 3 = 2/3", "4 ÷ (2/3) = 6", "3 × 6 = 18", "18 + 2 = 20"]);
        assert_eq!(e.moves(), 4);
        assert!(e.uses_fraction());
        assert!(!e.uses_negative());
    }

    #[test]
    fn canonical_form_merges_commuted_and_regrouped_forms() {
        let a = c(Op::Sub, l(1), c(Op::Sub, l(2), l(3)));
        let b = c(Op::Add, c(Op::Sub, l(1), l(2)), l(3));
        let d = c(Op::Sub, c(Op::Add, l(3), l(1)), l(2));
        assert_eq!(a.canonical(), b.canonical());
        assert_eq!(a.canonical(), d.canonical());
        let x = c(Op::Div, l(4), c(Op::Div, l(2), l(3)));
        let y = c(Op::Mul, c(Op::Div, l(4), l(2)), l(3));
        assert_eq!(x.canonical(), y.canonical());
        let p = c(Op::Concat, l(1), l(2));
        let q = c(Op::Concat, l(2), l(1));
        assert_ne!(p.canonical(), q.canonical());
        assert_ne!(c(Op::Sub, l(5), l(2)).canonical(), c(Op::Sub, l(2), l(5)).canonical());
    }

    #[test]
    fn canonical_form_merges_a_minus_sign_moved_through_times_and_divide() {
        // 17 − (1 − 2) × 3 = (2 − 1) × 3 + 17
        let a = c(Op::Sub, l(17), c(Op::Mul, c(Op::Sub, l(1), l(2)), l(3)));
        let b = c(Op::Add, c(Op::Mul, c(Op::Sub, l(2), l(1)), l(3)), l(17));
        assert_eq!(a.canonical(), b.canonical());
        // 17 − 3 ÷ (1 − 2) = 3 ÷ (2 − 1) + 17, and 3 − 17 ÷ (1 − 2) = 17 ÷ (2 − 1) + 3
        let a = c(Op::Sub, l(17), c(Op::Div, l(3), c(Op::Sub, l(1), l(2))));
        let b = c(Op::Add, c(Op::Div, l(3), c(Op::Sub, l(2), l(1))), l(17));
        assert_eq!(a.canonical(), b.canonical());
        // Two minus signs cancel: (1 − 2) × (3 − 5) = (2 − 1) × (5 − 3).
        let a = c(Op::Mul, c(Op::Sub, l(1), l(2)), c(Op::Sub, l(3), l(5)));
        let b = c(Op::Mul, c(Op::Sub, l(2), l(1)), c(Op::Sub, l(5), l(3)));
        assert_eq!(a.canonical(), b.canonical());
        // Out of a join's left operand: 7 − (13 − 511)‖3 = (511 − 13)‖3 + 7.
        let a = c(Op::Sub, l(7), c(Op::Concat, c(Op::Sub, l(13), l(511)), l(3)));
        let b = c(Op::Add, c(Op::Concat, c(Op::Sub, l(511), l(13)), l(3)), l(7));
        assert_eq!(a.canonical(), b.canonical());
        // But a value and its negation stay apart.
        let a = c(Op::Mul, c(Op::Sub, l(1), l(2)), l(3));
        let b = c(Op::Mul, c(Op::Sub, l(2), l(1)), l(3));
        assert_ne!(a.canonical(), b.canonical());
        assert_ne!(
            c(Op::Concat, c(Op::Sub, l(5), l(2)), l(1)).canonical(),
            c(Op::Concat, c(Op::Sub, l(2), l(5)), l(1)).canonical()
        );
    }

    #[test]
    fn first_move_is_the_first_step_on_pool_numbers() {
        let e =
            c(Op::Add, Expr::leaf(Num::int(4), 2), c(Op::Mul, Expr::leaf(Num::int(3), 0), Expr::leaf(Num::int(5), 1)));
        assert_eq!(e.first_move(), Some((0, Op::Mul, 1)));
        assert_eq!(e.slots(), vec![2, 0, 1]);
    }
}
