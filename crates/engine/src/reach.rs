//! A fast yes/no answer for three to six fresh numbers: reachable values by subset.
//!
//! Every way of playing four dice is a tree over a subset of them, and the
//! goal counts exactly when it is the value of a tree over three or more dice
//! (its root then has a red input; docs/RULES.md §3). So a roll is solvable when
//! the goal is the value of a tree over some three or more of its dice. The
//! values of every pair and triple are computed once and cached (the
//! impossible table meets the same triples again and again); a larger set is
//! split in two, the smaller side's values enumerated, and the other side asked
//! backwards for the one value that would complete the goal (which `b` would
//! make `x op b` the goal?), down to a lookup among pairs and triples. Every hit is confirmed by [`Op::apply`], so the evaluator
//! stays the judge; property tests hold this module to the move-by-move
//! search in `solve`.

use std::rc::Rc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::number::Num;
use crate::op::{Op, OpSet};

/// The values a set of up to three numbers can make: a sorted list for two numbers (a
/// handful of values), a hash set for three (a hundred or more: hashing them once costs
/// less than sorting them).
#[derive(Clone)]
enum Values {
    One(Num),
    List(Rc<[Num]>),
    Set(Rc<HashSet<Num>>),
}

impl Values {
    fn contains(&self, x: Num) -> bool {
        match self {
            Values::One(v) => *v == x,
            Values::List(v) => contains(v, x),
            Values::Set(v) => v.contains(&x),
        }
    }

    fn iter(&self) -> ValuesIter<'_> {
        match self {
            Values::One(v) => ValuesIter::List(std::slice::from_ref(v).iter()),
            Values::List(v) => ValuesIter::List(v.iter()),
            Values::Set(v) => ValuesIter::Set(v.iter()),
        }
    }
}

enum ValuesIter<'a> {
    List(std::slice::Iter<'a, Num>),
    Set(std::collections::hash_set::Iter<'a, Num>),
}

impl Iterator for ValuesIter<'_> {
    type Item = Num;

    fn next(&mut self) -> Option<Num> {
        match self {
            ValuesIter::List(i) => i.next().copied(),
            ValuesIter::Set(i) => i.next().copied(),
        }
    }
}

/// Cached reachable values under one operator set.
pub(crate) struct Reach {
    ops: Vec<Op>,
    whole_only: bool,
    pairs: HashMap<[Num; 2], Rc<[Num]>>,
    triples: HashMap<[Num; 3], Values>,
    /// For triples answered backwards: the goal each was asked about, and whether it makes
    /// it (the question a table asks most: every roll asks it of its triples until one says yes).
    triple_goals: HashMap<[Num; 3], (Num, bool)>,
    /// For the numbers being solved (sorted): where each one's run of equal numbers starts.
    run_start: [usize; 6],
    /// Answers for sets of four or more numbers, for the numbers being solved.
    memo: HashMap<(u8, Num), bool>,
    /// Whether triples are asked about by their listed values (five or six numbers ask each
    /// triple many questions) or answered backwards from their pairs (four ask a question
    /// or two: listing values that were never asked about was most of a table's time).
    list_triples: bool,
    /// The goal being solved for.
    goal: Num,
}

/// The order value sets are kept in: by numerator, then denominator. Any total order
/// that agrees with equality serves a lookup, and this one compares two `i64`s instead of
/// cross-multiplying (sorting was a third of a table's time).
fn key(v: &Num) -> (i64, i64) {
    (v.numer(), v.denom())
}

fn sorted_unique(mut v: Vec<Num>) -> Vec<Num> {
    v.sort_unstable_by_key(key);
    v.dedup();
    v
}

fn contains(v: &[Num], x: Num) -> bool {
    v.binary_search_by_key(&key(&x), key).is_ok()
}

impl Reach {
    /// `None` when the operators include a power (answered by the full search instead).
    pub(crate) fn new(ops: OpSet, whole_only: bool) -> Option<Reach> {
        if ops.contains(Op::Pow) {
            return None;
        }
        Some(Reach {
            ops: ops.iter().collect(),
            whole_only,
            pairs: HashMap::default(),
            triples: HashMap::default(),
            triple_goals: HashMap::default(),
            run_start: [0; 6],
            memo: HashMap::default(),
            list_triples: false,
            goal: Num::ZERO,
        })
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

    fn pair(&mut self, a: Num, b: Num) -> Rc<[Num]> {
        let key = if key(&a) <= key(&b) { [a, b] } else { [b, a] };
        if let Some(v) = self.pairs.get(&key) {
            return v.clone();
        }
        let mut out = Vec::with_capacity(8);
        self.push_results(a, b, &mut out);
        let v: Rc<[Num]> = sorted_unique(out).into();
        self.pairs.insert(key, v.clone());
        v
    }

    /// The values of the triple `t` (sorted), listed once and kept.
    fn triple(&mut self, t: [Num; 3]) -> Values {
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
        let v = Values::Set(Rc::new(out.into_iter().collect()));
        self.triples.insert(t, v.clone());
        v
    }

    /// Whether the triple `t` (sorted) makes `target`: looked up among its listed values, or
    /// worked out backwards (remembered when `target` is the goal).
    fn triple_contains(&mut self, t: [Num; 3], target: Num) -> bool {
        if self.list_triples {
            return self.triple(t).contains(target);
        }
        if target != self.goal {
            return self.triple_makes(t, target);
        }
        match self.triple_goals.get(&t) {
            Some(&(goal, makes)) if goal == target => makes,
            _ => {
                let makes = self.triple_makes(t, target);
                self.triple_goals.insert(t, (target, makes));
                makes
            }
        }
    }

    /// Whether the triple `t` (sorted) makes `target`, worked out backwards: one of its numbers
    /// and the value the other two would need, looked up among that pair's few values.
    fn triple_makes(&mut self, t: [Num; 3], target: Num) -> bool {
        for i in 0..3 {
            if i > 0 && t[i] == t[i - 1] {
                continue;
            }
            let (s, pair) = (t[i], [t[(i + 1) % 3], t[(i + 2) % 3]]);
            let values = Values::List(self.pair(pair[0], pair[1]));
            if self.completes(s, &pair, 0b11, Some(&values), target) {
                return true;
            }
        }
        false
    }

    /// The numbers in `set` (a bit per number), up to three, and how many there are.
    fn picked(nums: &[Num], set: u8) -> ([Num; 3], usize) {
        let mut picked = [Num::ZERO; 3];
        let mut k = 0;
        for (i, &v) in nums.iter().enumerate() {
            if set & (1 << i) != 0 && k < 3 {
                picked[k] = v;
                k += 1;
            }
        }
        (picked, k)
    }

    /// The values of the numbers in `set`, for one to three numbers.
    fn small_values(&mut self, nums: &[Num], set: u8) -> Values {
        match Self::picked(nums, set) {
            (p, 1) => Values::One(p[0]),
            (p, 2) => Values::List(self.pair(p[0], p[1])),
            (mut p, _) => {
                p.sort_unstable_by_key(key);
                self.triple(p)
            }
        }
    }

    /// Whether a tree over the numbers in `set` (one to three) has the value `t`.
    fn small_contains(&mut self, nums: &[Num], set: u8, t: Num) -> bool {
        match Self::picked(nums, set) {
            (mut p, 3) => {
                p.sort_unstable_by_key(key);
                self.triple_contains(p, t)
            }
            _ => self.small_values(nums, set).contains(t),
        }
    }

    /// Every value of the numbers in `set`, however many (only for rare cases: uncached).
    fn all_values(&mut self, nums: &[Num], set: u8) -> Vec<Num> {
        if set.count_ones() <= 3 {
            return self.small_values(nums, set).iter().collect();
        }
        let mut out = Vec::new();
        for a in smaller_sides(set) {
            let (va, vb) = (self.all_values(nums, a), self.all_values(nums, set ^ a));
            for &x in &va {
                for &y in &vb {
                    self.push_results(x, y, &mut out);
                }
            }
        }
        sorted_unique(out)
    }

    /// Whether a tree over exactly the numbers in `set` can have the value `t`. Trees of up to
    /// three numbers are looked up; larger ones are split in two, the smaller side's values
    /// enumerated, and the value the other side would need worked out backwards and asked of it.
    fn reaches(&mut self, nums: &[Num], set: u8, t: Num) -> bool {
        if self.whole_only && !t.is_integer() {
            return false;
        }
        let set = self.canonical(set);
        if set.count_ones() <= 3 {
            return self.small_contains(nums, set, t);
        }
        if let Some(&known) = self.memo.get(&(set, t)) {
            return known;
        }
        let mut found = false;
        'splits: for a in smaller_sides(set) {
            // Equal numbers make equal splits: each is tried once, by its canonical side.
            let b = set ^ a;
            let equal_halves = a.count_ones() == b.count_ones();
            if self.canonical(a) != a || (equal_halves && a & set & set.wrapping_neg() == 0 && self.canonical(b) == b) {
                continue;
            }
            let va = self.small_values(nums, a);
            // Unlisted triples are asked about one value at a time (see `list_triples`).
            let listed = b.count_ones() <= 2 || (b.count_ones() == 3 && self.list_triples);
            let vb = listed.then(|| self.small_values(nums, b));
            for x in va.iter() {
                if self.completes(x, nums, b, vb.as_ref(), t) {
                    found = true;
                    break 'splits;
                }
            }
        }
        self.memo.insert((set, t), found);
        found
    }

    /// The set holding as many of each run of equal numbers as `set` does, the lowest ones.
    fn canonical(&self, set: u8) -> u8 {
        let mut out = 0u8;
        let mut taken = [0usize; 6];
        for i in 0..6 {
            if set & (1 << i) != 0 {
                let start = self.run_start[i];
                out |= 1 << (start + taken[start]);
                taken[start] += 1;
            }
        }
        out
    }

    /// Whether some value `y` of the numbers in `set` makes `x op y` or `y op x` equal `t`.
    /// `small`: the set's values, when it is small enough to have them listed.
    fn completes(&mut self, x: Num, nums: &[Num], set: u8, small: Option<&Values>, t: Num) -> bool {
        for i in 0..self.ops.len() {
            let op = self.ops[i];
            let (wanted, found) = match partners(op, x, t) {
                Some(wanted) => (wanted, false),
                // 0 × y = 0 for any y the set can make; 0 ÷ y = 0 for any non-zero y.
                None => match op {
                    Op::Mul => ([None, None], !self.all_values(nums, set).is_empty()),
                    Op::Div => ([None, None], self.all_values(nums, set).iter().any(|y| !y.is_zero())),
                    _ => ([None, None], false),
                },
            };
            if found {
                return true;
            }
            for y in wanted.into_iter().flatten() {
                let made = match small {
                    Some(values) => values.contains(y),
                    None => self.reaches(nums, set, y),
                };
                if made && (op.apply(x, y) == Ok(t) || op.apply(y, x) == Ok(t)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the goal can be made from these numbers (none red yet, three to six): it is the
    /// value of a tree over all of them, or (unless all must be used) over three or more.
    pub(crate) fn solvable(&mut self, nums: &[Num], goal: Num, use_all: bool) -> bool {
        let n = nums.len();
        if !(3..=6).contains(&n) {
            return false;
        }
        let mut sorted = [Num::ZERO; 6];
        sorted[..n].copy_from_slice(nums);
        let nums = &mut sorted[..n];
        nums.sort_unstable_by_key(key);
        for i in 0..6 {
            self.run_start[i] = if i > 0 && i < n && nums[i] == nums[i - 1] { self.run_start[i - 1] } else { i };
        }
        self.memo.clear();
        self.list_triples = n >= 5;
        self.goal = goal;
        let full = (1u8 << n) - 1;
        // Smaller sets first: they are cheap, and most rolls are made from three numbers.
        let sizes = if use_all { n as u32..=n as u32 } else { 3..=n as u32 };
        for size in sizes {
            for set in 1..=full {
                if set.count_ones() == size && self.canonical(set) == set && self.reaches(nums, set, goal) {
                    return true;
                }
            }
        }
        false
    }
}

/// The ways to split `set` in two non-empty parts, each given once by its smaller part
/// (for equal halves, the one holding the lowest number).
fn smaller_sides(set: u8) -> impl Iterator<Item = u8> {
    let total = set.count_ones();
    let low = set & set.wrapping_neg();
    (1..set).filter(move |&a| {
        let k = a.count_ones();
        a & !set == 0 && (2 * k < total || (2 * k == total && a & low != 0))
    })
}

/// How many decimal digits `v` has (0 has one).
fn digits(v: u64) -> u32 {
    v.checked_ilog10().unwrap_or(0) + 1
}

/// The values `y` that may make `x op y` or `y op x` equal `t`, worked out backwards (at
/// most two; each still to be confirmed by [`Op::apply`]), or `None` when too many may:
/// 0 × y = 0 and 0 ÷ y = 0 for any `y`, and powers, which are not worked backwards.
pub(crate) fn partners(op: Op, x: Num, t: Num) -> Option<[Option<Num>; 2]> {
    match op {
        Op::Add => Some([t.checked_sub(x).ok(), None]),
        Op::Sub => Some([x.checked_sub(t).ok(), t.checked_add(x).ok()]),
        Op::Mul => match t.checked_div(x) {
            Some(y) => Some([y.ok(), None]),
            None if t.is_zero() => None,
            None => Some([None, None]),
        },
        Op::Div => {
            let y_over_x = t.checked_mul(x).ok().filter(|_| !x.is_zero());
            match x.checked_div(t) {
                Some(y) => Some([y.ok(), y_over_x]),
                None if x.is_zero() => None,
                None => Some([None, y_over_x]),
            }
        }
        Op::Concat => Some(concat_partners(x, t)),
        Op::Pow => None,
    }
}

/// The `b` with `x‖b = goal` and with `b‖x = goal`, read off the goal's digits.
fn concat_partners(x: Num, goal: Num) -> [Option<Num>; 2] {
    let (Some(x), Some(g)) = (x.as_integer(), goal.as_integer()) else {
        return [None, None];
    };
    let (xa, ga) = (x.unsigned_abs(), g.unsigned_abs());
    // x‖b: |goal| is |x|'s digits then b's (b ≥ 0, no leading zero), signed as x.
    let right = (x != 0 && (x < 0) == (g < 0))
        .then(|| digits(ga).checked_sub(digits(xa)).filter(|&k| k >= 1))
        .flatten()
        .and_then(|k| {
            let scale = 10u64.checked_pow(k)?;
            let b = ga.checked_sub(xa.checked_mul(scale)?)?;
            (b < scale && (k == 1 || b >= scale / 10)).then_some(b)
        });
    // b‖x: |goal| is b's digits then x's (x ≥ 0), signed as b.
    let left = (x >= 0)
        .then(|| 10u64.checked_pow(digits(xa)))
        .flatten()
        .filter(|&scale| ga % scale == xa && ga / scale > 0)
        .map(|scale| ga / scale);
    let signed = |b: u64, negative: bool| i64::try_from(b).ok().map(|b| Num::int(if negative { -b } else { b }));
    [right.and_then(|b| signed(b, false)), left.and_then(|b| signed(b, g < 0))]
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
