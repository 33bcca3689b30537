//! A fast yes/no answer for up to four fresh numbers: reachable values by subset.
//!
//! Every way of playing four dice is a tree over a subset of them, and the
//! goal counts exactly when it is the value of a tree over three or more dice
//! (its root then has a red input; RULES.md §3). So a roll is solvable when
//! the goal is among the values reachable from some three of its dice, or is
//! `x op y` for a split of all four into two parts. The values of every pair
//! and triple are computed once and cached (the impossible table meets the
//! same triples again and again); the final split is answered by working
//! backwards from the goal (which `b` would make `x op b` the goal?) and
//! looking `b` up. Every hit is confirmed by [`Op::apply`], so the evaluator
//! stays the judge; property tests hold this module to the move-by-move
//! search in `solve`.

use std::rc::Rc;

use rustc_hash::FxHashMap as HashMap;

use crate::number::Num;
use crate::op::{Op, OpSet};

type Values = Rc<[Num]>;

/// Cached reachable values under one operator set.
pub(crate) struct Reach {
    ops: Vec<Op>,
    whole_only: bool,
    pairs: HashMap<[Num; 2], Values>,
    triples: HashMap<[Num; 3], Values>,
}

fn sorted_unique(mut v: Vec<Num>) -> Values {
    v.sort_unstable();
    v.dedup();
    v.into()
}

fn contains(v: &[Num], x: Num) -> bool {
    v.binary_search(&x).is_ok()
}

impl Reach {
    /// `None` when the operators include a power (answered by the full search instead).
    pub(crate) fn new(ops: OpSet, whole_only: bool) -> Option<Reach> {
        if ops.contains(Op::Pow) {
            return None;
        }
        Some(Reach { ops: ops.iter().collect(), whole_only, pairs: HashMap::default(), triples: HashMap::default() })
    }

    fn push_results(&self, a: Num, b: Num, out: &mut Vec<Num>) {
        for &op in &self.ops {
            for (x, y) in [(a, b), (b, a)] {
                if let Ok(r) = op.apply(x, y) {
                    if !self.whole_only || r.is_integer() {
                        out.push(r);
                    }
                }
                if op.is_commutative() {
                    break;
                }
            }
        }
    }

    fn pair(&mut self, a: Num, b: Num) -> Values {
        let key = if a <= b { [a, b] } else { [b, a] };
        if let Some(v) = self.pairs.get(&key) {
            return v.clone();
        }
        let mut out = Vec::with_capacity(8);
        self.push_results(a, b, &mut out);
        let v = sorted_unique(out);
        self.pairs.insert(key, v.clone());
        v
    }

    fn triple(&mut self, mut t: [Num; 3]) -> Values {
        t.sort_unstable();
        if let Some(v) = self.triples.get(&t) {
            return v.clone();
        }
        let mut out = Vec::with_capacity(192);
        for i in 0..3 {
            let (s, p, q) = (t[i], t[(i + 1) % 3], t[(i + 2) % 3]);
            if i > 0 && t[i] == t[i - 1] {
                continue;
            }
            for &v in self.pair(p, q).iter() {
                self.push_results(s, v, &mut out);
            }
        }
        let v = sorted_unique(out);
        self.triples.insert(t, v.clone());
        v
    }

    /// Whether some `b` in `set` makes `x op b` or `b op x` equal `goal`.
    fn joins(&self, x: Num, set: &[Num], goal: Num) -> bool {
        let hit = |b: Num| {
            contains(set, b) && self.ops.iter().any(|op| op.apply(x, b) == Ok(goal) || op.apply(b, x) == Ok(goal))
        };
        let any_nonzero = || set.iter().any(|b| !b.is_zero());
        for &op in &self.ops {
            let found = match op {
                Op::Add => goal.checked_sub(x).is_ok_and(hit),
                Op::Sub => x.checked_sub(goal).is_ok_and(hit) || goal.checked_add(x).is_ok_and(hit),
                Op::Mul => match goal.checked_div(x) {
                    Some(b) => b.is_ok_and(hit),
                    None => goal.is_zero() && !set.is_empty(),
                },
                Op::Div => {
                    let left = match x.checked_div(goal) {
                        Some(b) => b.is_ok_and(hit),
                        None => x.is_zero() && any_nonzero(),
                    };
                    left || (!x.is_zero() && goal.checked_mul(x).is_ok_and(hit))
                }
                Op::Concat => concat_partners(x, goal).into_iter().flatten().any(hit),
                Op::Pow => set.iter().any(|&b| op.apply(x, b) == Ok(goal) || op.apply(b, x) == Ok(goal)),
            };
            if found {
                return true;
            }
        }
        false
    }

    /// Whether the goal can be made from these numbers (none red yet, at most four).
    pub(crate) fn solvable(&mut self, nums: &[Num], goal: Num, use_all: bool) -> bool {
        match *nums {
            [a, b, c] => contains(&self.triple([a, b, c]), goal),
            [a, b, c, d] => {
                let all = [a, b, c, d];
                let triple_of = |skip: usize| {
                    let mut t = [Num::ZERO; 3];
                    let mut k = 0;
                    for (i, &n) in all.iter().enumerate() {
                        if i != skip {
                            t[k] = n;
                            k += 1;
                        }
                    }
                    t
                };
                for (skip, &single) in all.iter().enumerate() {
                    let t = self.triple(triple_of(skip));
                    if (!use_all && contains(&t, goal)) || self.joins(single, &t, goal) {
                        return true;
                    }
                }
                for (p, q) in [([a, b], [c, d]), ([a, c], [b, d]), ([a, d], [b, c])] {
                    let (vp, vq) = (self.pair(p[0], p[1]), self.pair(q[0], q[1]));
                    if vp.iter().any(|&x| self.joins(x, &vq, goal)) {
                        return true;
                    }
                }
                false
            }
            _ => false,
        }
    }
}

/// The `b` with `x‖b = goal` and with `b‖x = goal`, read off the goal's digits.
fn concat_partners(x: Num, goal: Num) -> [Option<Num>; 2] {
    let (Some(x), Some(g)) = (x.as_integer(), goal.as_integer()) else {
        return [None, None];
    };
    let (xs, gs) = (x.to_string(), g.to_string());
    let right = gs.strip_prefix(&xs).and_then(|rest| rest.parse::<i64>().ok().filter(|b| b.to_string() == rest));
    let left = gs.strip_suffix(&xs).and_then(|rest| rest.parse::<i64>().ok().filter(|b| b.to_string() == rest));
    [right.map(Num::int), left.map(Num::int)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concat_partners_read_the_digits() {
        assert_eq!(concat_partners(Num::int(2), Num::int(20)), [Some(Num::int(0)), None]);
        assert_eq!(concat_partners(Num::int(0), Num::int(20)), [None, Some(Num::int(2))]);
        assert_eq!(concat_partners(Num::int(-3), Num::int(-35)), [Some(Num::int(5)), None]);
        assert_eq!(concat_partners(Num::int(1), Num::int(11)), [Some(Num::int(1)), Some(Num::int(1))]);
        assert_eq!(concat_partners(Num::int(5), Num::int(105)), [None, Some(Num::int(10))]);
    }

    #[test]
    fn zero_goal_and_zero_operand() {
        let mut r = Reach::new(OpSet::ARITHMETIC, false).unwrap();
        // 0 × (anything) = 0, 0 ÷ (non-zero) = 0.
        let n = |v: i64| Num::int(v);
        assert!(r.solvable(&[n(0), n(1), n(2), n(3)], n(0), true));
    }
}
