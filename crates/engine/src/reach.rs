//! A fast yes/no answer for three to six fresh numbers: reachable values by subset.
//!
//! Every way of playing four dice is a tree over a subset of them, and the
//! goal counts exactly when it is the value of a tree over three or more dice
//! (its root then has a red input; docs/RULES.md §3). So a roll is solvable when
//! the goal is the value of a tree over some three or more of its dice. A set of
//! numbers is split in two, the smaller side's values enumerated, and the other
//! side asked backwards for the one value that would complete the goal (which `b`
//! would make `x op b` the goal?), down to a lookup among a pair's few values.
//! Every hit is confirmed by [`Op::apply`], so the evaluator stays the judge;
//! property tests hold this module to the move-by-move search in `solve`.
//!
//! A table asks the same questions of roll after roll, so what depends only on a few
//! numbers is kept across rolls: the values of each pair, whether each triple (and,
//! with five or six dice, each set of four) makes the goal, and with five or six dice
//! every value of each triple. For the goal it also keeps, worked out backwards once, the
//! values a pair would need to complete it beside one number (`x op pair`), beside two
//! (`x op (s op pair)`) and beside another pair: a set of four, or a triple, is then
//! answered by looking a pair's few values up. An impossible roll asks every split, and
//! those rolls are most of a table's time.

use rustc_hash::FxHashMap as HashMap;

use crate::number::Num;
use crate::op::{Op, OpSet};

/// Most values two numbers can make without powers: their sum and product, both
/// differences, both quotients and both concatenations.
const PAIR_MAX: usize = 8;

/// The values of two numbers, inline (no allocation, one cache line or two to scan).
#[derive(Clone, Copy)]
struct PairValues {
    len: u8,
    v: [Num; PAIR_MAX],
}

impl PairValues {
    const EMPTY: PairValues = PairValues { len: 0, v: [Num::ZERO; PAIR_MAX] };

    fn as_slice(&self) -> &[Num] {
        &self.v[..self.len as usize]
    }

    fn contains(&self, x: Num) -> bool {
        self.as_slice().contains(&x)
    }

    fn push(&mut self, x: Num) {
        if !self.contains(x) && (self.len as usize) < PAIR_MAX {
            self.v[self.len as usize] = x;
            self.len += 1;
        }
    }
}

/// Every value of a triple: a table of five d20 lists 1,540 of them, and in a fresh process
/// the memory they fill costs as much time as listing them, so they are kept compact: each
/// value that fits packed into one `i64` ([`packed`]), sorted, the rare rest beside them.
struct TripleValues {
    packed: Box<[i64]>,
    rest: Box<[Num]>,
}

/// `v` as one `i64` that orders and compares as `(numerator, denominator)`: when the
/// numerator fits in 39 bits and the denominator in 24.
fn packed(v: Num) -> Option<i64> {
    let (n, d) = (v.numer(), v.denom());
    ((-(1 << 38)..1 << 38).contains(&n) && d < PACKED_DENOMS).then(|| n * PACKED_DENOMS + d)
}

/// The number [`packed`] packed.
fn unpacked(p: i64) -> Num {
    // `d` in 1..2²⁴, so the remainder is positive.
    match (p.div_euclid(PACKED_DENOMS), p.rem_euclid(PACKED_DENOMS)) {
        (n, 1) => Num::int(n),
        (n, d) => Num::ratio(n, d).unwrap_or(Num::ZERO),
    }
}

/// One more than the largest denominator [`packed`] holds.
const PACKED_DENOMS: i64 = 1 << 24;

impl TripleValues {
    fn new(mut values: Vec<Num>) -> TripleValues {
        // Sorted as numbers (the packed order is the same), so no second sort is linked in.
        values.sort_unstable_by_key(key);
        values.dedup();
        let packed_values: Vec<i64> = values.iter().filter_map(|&v| packed(v)).collect();
        values.retain(|&v| packed(v).is_none());
        TripleValues { packed: packed_values.into(), rest: values.into() }
    }

    fn contains(&self, x: Num) -> bool {
        match packed(x) {
            Some(p) => self.packed.binary_search(&p).is_ok(),
            None => self.rest.binary_search_by_key(&key(&x), key).is_ok(),
        }
    }

    fn len(&self) -> usize {
        self.packed.len() + self.rest.len()
    }

    /// The `k`th value (the packed ones first).
    fn get(&self, k: usize) -> Num {
        match self.packed.get(k) {
            Some(&p) => unpacked(p),
            None => self.rest[k - self.packed.len()],
        }
    }
}

/// Reachable values under one operator set, with caches shared by every roll asked.
/// `TABLE`: asked roll after roll for one goal (an impossible table), so the values the goal
/// needs are worked out once and kept; one roll's answer (and the page, which asks only those)
/// has none of that code.
pub(crate) struct Reach<const TABLE: bool = false> {
    ops: Vec<Op>,
    whole_only: bool,
    /// The values of each pair of numbers met so far.
    pairs: HashMap<[Num; 2], PairValues>,
    /// Every value of each triple listed so far (five or six numbers), by index.
    triple_index: HashMap<[Num; 3], u32>,
    triples: Vec<TripleValues>,
    /// Whether each triple met so far makes the goal (four numbers answer it backwards).
    triple_goal: HashMap<[Num; 3], bool>,
    /// Whether each set of four met so far makes the goal with all four (five or six numbers).
    quad_goal: HashMap<[Num; 4], bool>,
    /// For the goal: what each [`Need`] asked so far needs, as a run of `wanted` (`None` where
    /// some step can't be worked backwards).
    needs: HashMap<Need, Option<(u32, u32)>>,
    /// The sorted runs of packed values `needs` point into.
    wanted: Vec<i64>,
    /// The goal the `*_goal` caches and `needs` are about.
    goal: Num,
    /// The numbers being solved, sorted, and how many.
    nums: [Num; 6],
    n: usize,
    /// For the numbers being solved: where each one's run of equal numbers starts.
    run_start: [usize; 6],
    /// The values of the pairs of the numbers being solved, by the pair's bits, once known.
    pair_of: [PairValues; 64],
    pair_known: u64,
    /// Answers for sets of four or more numbers, for the numbers being solved.
    memo: HashMap<(u8, Num), bool>,
    /// Whether triples are asked about by their listed values (five or six numbers ask each
    /// triple many questions) or answered backwards from their pairs (four ask a question
    /// or two: listing values that were never asked about was most of a table's time).
    list_triples: bool,
    /// From how many numbers on triples are listed.
    list_from: usize,
}

/// The values a pair would need to complete the goal (a table keeps them, worked out
/// backwards: a superset, each hit confirmed forwards).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Need {
    /// Beside the number `x`: `x op pair`.
    One(Num),
    /// Beside the numbers `x` and `s`: `x op (s op pair)`.
    Two(Num, Num),
    /// Beside the pair of these two numbers (its values `v`): `v op pair`.
    Pair(Num, Num),
}

/// The order value sets are kept in: by numerator, then denominator. Any total order
/// that agrees with equality serves, and this one compares two `i64`s instead of
/// cross-multiplying.
fn key(v: &Num) -> (i64, i64) {
    (v.numer(), v.denom())
}

impl<const TABLE: bool> Reach<TABLE> {
    /// `None` when the operators include a power (answered by the full search instead).
    pub(crate) fn new(ops: OpSet, whole_only: bool) -> Option<Reach<TABLE>> {
        if ops.contains(Op::Pow) {
            return None;
        }
        Some(Reach {
            ops: ops.iter().collect(),
            whole_only,
            pairs: HashMap::default(),
            triple_index: HashMap::default(),
            triples: Vec::new(),
            triple_goal: HashMap::default(),
            quad_goal: HashMap::default(),
            needs: HashMap::default(),
            wanted: Vec::new(),
            goal: Num::ZERO,
            nums: [Num::ZERO; 6],
            n: 0,
            run_start: [0; 6],
            pair_of: [PairValues::EMPTY; 64],
            pair_known: 0,
            memo: HashMap::default(),
            list_triples: false,
            list_from: 5,
        })
    }

    fn push_results(&self, a: Num, b: Num, mut push: impl FnMut(Num)) {
        for &op in &self.ops {
            for (x, y) in [(a, b), (b, a)] {
                if let Ok(r) = op.apply(x, y) {
                    if !self.whole_only || r.is_integer() {
                        push(r);
                    }
                }
                if op.is_commutative() {
                    break;
                }
            }
        }
    }

    /// The values of the pair `set` (two bits) of the numbers being solved.
    fn pair(&mut self, set: u8) -> &PairValues {
        if self.pair_known & (1 << set) == 0 {
            let (i, j) = (set.trailing_zeros() as usize, (63 - u64::from(set).leading_zeros()) as usize);
            let k = [self.nums[i], self.nums[j]];
            let values = match self.pairs.get(&k) {
                Some(v) => *v,
                None => {
                    let mut v = PairValues::EMPTY;
                    // At most one value per operator and order: never more than PAIR_MAX.
                    self.push_results(k[0], k[1], |r| v.push(r));
                    self.pairs.insert(k, v);
                    v
                }
            };
            self.pair_of[set as usize] = values;
            self.pair_known |= 1 << set;
        }
        &self.pair_of[set as usize]
    }

    /// The numbers in `set` (a bit per number), ascending.
    fn members<const K: usize>(&self, set: u8) -> [Num; K] {
        let mut out = [Num::ZERO; K];
        let mut k = 0;
        for i in 0..self.n {
            if set & (1 << i) != 0 && k < K {
                out[k] = self.nums[i];
                k += 1;
            }
        }
        out
    }

    /// Every value of the triple `set`, listed once and kept; its index in `triples`.
    fn triple(&mut self, set: u8) -> usize {
        let t: [Num; 3] = self.members(set);
        if let Some(&i) = self.triple_index.get(&t) {
            return i as usize;
        }
        let mut values = Vec::with_capacity(3 * PAIR_MAX * PAIR_MAX);
        for i in bits(self.distinct(set)) {
            let pair = *self.pair(set & !(1 << i));
            for &v in pair.as_slice() {
                self.push_results(self.nums[i], v, |r| values.push(r));
            }
        }
        self.triples.push(TripleValues::new(values));
        self.triple_index.insert(t, (self.triples.len() - 1) as u32);
        self.triples.len() - 1
    }

    /// Whether the triple `set` makes `target`: looked up among its listed values, or worked
    /// out backwards (remembered when `target` is the goal).
    fn triple_has(&mut self, set: u8, target: Num) -> bool {
        if target != self.goal {
            if self.list_triples {
                let i = self.triple(set);
                return self.triples[i].contains(target);
            }
            return self.triple_makes(set, target);
        }
        let t: [Num; 3] = self.members(set);
        if let Some(&makes) = self.triple_goal.get(&t) {
            return makes;
        }
        let known = if TABLE { self.triple_makes_goal(set) } else { None };
        let makes = known.unwrap_or_else(|| self.triple_makes(set, target));
        self.triple_goal.insert(t, makes);
        makes
    }

    /// Whether the triple `set` makes the goal: one of its numbers `s` and the other two's
    /// values looked up among the values `s` would need. `None` where those can't be worked
    /// out backwards.
    fn triple_makes_goal(&mut self, set: u8) -> Option<bool> {
        for i in bits(self.distinct(set)) {
            let s = self.nums[i];
            let wanted = self.needed(Need::One(s))?;
            if self.pair_hits(set & !(1 << i), wanted, |r, v| r.makes(s, v, r.goal)) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The run of `wanted` holding what `need` needs, worked out the first time it is asked.
    fn needed(&mut self, need: Need) -> Option<(u32, u32)> {
        if let Some(&w) = self.needs.get(&need) {
            return w;
        }
        let run =
            match need {
                Need::One(x) => self.seal_needs(|r| r.push_wanted(x, r.goal)),
                Need::Two(x, s) => self.needed(Need::One(x)).and_then(|(from, to)| {
                    self.seal_needs(|r| (from..to).all(|j| r.push_wanted(s, unpacked(r.wanted[j as usize]))))
                }),
                // The pair's values are kept by the time it asks ([`Reach::pair`]).
                Need::Pair(p, q) => self.pairs.get(&[p, q]).copied().and_then(|values| {
                    self.seal_needs(|r| values.as_slice().iter().all(|&v| r.push_wanted(v, r.goal)))
                }),
            };
        self.needs.insert(need, run);
        run
    }

    /// Whether the triple `set` makes `target`, worked out backwards: one of its numbers and
    /// the value the other two would need, looked up among that pair's few values.
    fn triple_makes(&mut self, set: u8, target: Num) -> bool {
        for i in bits(self.distinct(set)) {
            let pair = set & !(1 << i);
            self.pair(pair);
            if self.completes(self.nums[i], pair, target) {
                return true;
            }
        }
        false
    }

    /// The numbers in `set` of distinct values, the first of equal ones (as bits): a tree
    /// with one of them alone on a side is the same tree for any of its equals.
    fn distinct(&self, set: u8) -> u8 {
        let mut out = 0;
        let mut last = None;
        for i in 0..self.n {
            if set & (1 << i) != 0 && last != Some(self.nums[i]) {
                out |= 1 << i;
                last = Some(self.nums[i]);
            }
        }
        out
    }

    /// Whether a tree over exactly the numbers in `set` (canonical) has the value `t`.
    fn has(&mut self, set: u8, t: Num) -> bool {
        if self.whole_only && !t.is_integer() {
            return false;
        }
        match set.count_ones() {
            0 => false,
            1 => self.nums[set.trailing_zeros() as usize] == t,
            2 => self.pair(set).contains(t),
            3 => self.triple_has(set, t),
            k => {
                let quad = (k == 4 && t == self.goal && self.n >= 5).then(|| self.members::<4>(set));
                if let Some(known) = quad.and_then(|q| self.quad_goal.get(&q)) {
                    return *known;
                }
                if let Some(&known) = self.memo.get(&(set, t)) {
                    return known;
                }
                let found = self.splits_make(set, t);
                self.memo.insert((set, t), found);
                if let Some(q) = quad {
                    self.quad_goal.insert(q, found);
                }
                found
            }
        }
    }

    /// Whether some split of `set` (four or more numbers) makes `t`: the smaller side's
    /// values enumerated, the value the other side would need asked of it.
    fn splits_make(&mut self, set: u8, t: Num) -> bool {
        for a in smaller_sides(set) {
            // Equal numbers make equal splits: each is tried once, by its canonical side.
            let b = set ^ a;
            let equal_halves = a.count_ones() == b.count_ones();
            if self.canonical(a) != a || (equal_halves && a & set & set.wrapping_neg() == 0 && self.canonical(b) == b) {
                continue;
            }
            let b = self.canonical(b);
            if TABLE && t == self.goal && set.count_ones() == 4 {
                match self.four_split_makes_goal(a, b) {
                    Some(true) => return true,
                    Some(false) => continue,
                    None => {}
                }
            }
            match a.count_ones() {
                1 => {
                    if self.completes(self.nums[a.trailing_zeros() as usize], b, t) {
                        return true;
                    }
                }
                2 => {
                    let values = *self.pair(a);
                    for &x in values.as_slice() {
                        if self.completes(x, b, t) {
                            return true;
                        }
                    }
                }
                _ => {
                    let i = self.triple(a);
                    for k in 0..self.triples[i].len() {
                        if self.completes(self.triples[i].get(k), b, t) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the split `a | b` of four numbers makes the goal: a pair's few values are looked
    /// up among the values that pair would need (worked out once per table for each number or
    /// pair of numbers that asks, a superset), and a value found is confirmed forwards by
    /// [`Op::apply`]. `None` where the values needed can't be worked out backwards.
    fn four_split_makes_goal(&mut self, a: u8, b: u8) -> Option<bool> {
        if a.count_ones() == 2 {
            self.pair(a);
            let [p, q] = self.members(a);
            let wanted = self.needed(Need::Pair(p, q));
            return Some(self.pair_hits(b, wanted?, |r, v| {
                r.pair_of[a as usize].as_slice().iter().any(|&u| r.makes(u, v, r.goal))
            }));
        }
        // One number `x` against three: `x op (s op pair)` for each of the three's numbers `s`.
        let x = self.nums[a.trailing_zeros() as usize];
        for i in bits(self.distinct(b)) {
            let s = self.nums[i];
            let wanted = self.needed(Need::Two(x, s));
            let confirmed = |r: &Self, v| {
                let mut found = false;
                r.push_results(s, v, |w| found = found || r.makes(x, w, r.goal));
                found
            };
            if self.pair_hits(b & !(1 << i), wanted?, confirmed) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Pushes (packed) every `y` that may make `x op y` or `y op x` equal `t` (whole only where
    /// asked); false when too many may (0 × y = 0) or one doesn't pack.
    fn push_wanted(&mut self, x: Num, t: Num) -> bool {
        if self.wanted.capacity() == 0 {
            // A table's worth (about 100 KB), so it is not copied as it grows.
            self.wanted.reserve(1 << 14);
        }
        for i in 0..self.ops.len() {
            let Some(ys) = partners(self.ops[i], x, t) else { return false };
            for y in ys.into_iter().flatten() {
                if !self.whole_only || y.is_integer() {
                    let Some(p) = packed(y) else { return false };
                    self.wanted.push(p);
                }
            }
        }
        true
    }

    /// The run of values `push` adds to `wanted` (true if it could), sorted and kept; `None`,
    /// and nothing kept, where it couldn't.
    fn seal_needs(&mut self, push: impl FnOnce(&mut Self) -> bool) -> Option<(u32, u32)> {
        let start = self.wanted.len();
        if !push(self) {
            self.wanted.truncate(start);
            return None;
        }
        let run = &mut self.wanted[start..];
        run.sort_unstable();
        let mut len = 0;
        for j in 0..run.len() {
            if j == 0 || run[j] != run[len - 1] {
                run[len] = run[j];
                len += 1;
            }
        }
        self.wanted.truncate(start + len);
        Some((start as u32, (start + len) as u32))
    }

    /// Whether some value `v` of the pair `set` is among the wanted values at `range` and
    /// `confirmed(v)`.
    fn pair_hits(&mut self, set: u8, (start, end): (u32, u32), confirmed: impl Fn(&Self, Num) -> bool) -> bool {
        self.pair(set);
        let wanted = &self.wanted[start as usize..end as usize];
        self.pair_of[set as usize]
            .as_slice()
            .iter()
            .any(|&v| packed(v).is_some_and(|p| wanted.binary_search(&p).is_ok()) && confirmed(self, v))
    }

    /// Whether `x op y` or `y op x` is `t` (whole only where asked).
    fn makes(&self, x: Num, y: Num, t: Num) -> bool {
        let mut found = false;
        self.push_results(x, y, |r| found = found || r == t);
        found
    }

    /// Every value of the numbers in `set`, however many (only for rare cases: uncached).
    fn all_values(&mut self, set: u8) -> Vec<Num> {
        let mut out = match set.count_ones() {
            1 => vec![self.nums[set.trailing_zeros() as usize]],
            2 => self.pair(set).as_slice().to_vec(),
            3 => {
                let i = self.triple(set);
                (0..self.triples[i].len()).map(|k| self.triples[i].get(k)).collect()
            }
            _ => {
                let mut out = Vec::new();
                for a in smaller_sides(set) {
                    let (va, vb) = (self.all_values(a), self.all_values(set ^ a));
                    for &x in &va {
                        for &y in &vb {
                            self.push_results(x, y, |r| out.push(r));
                        }
                    }
                }
                out
            }
        };
        if self.whole_only {
            out.retain(|v| v.is_integer());
        }
        out.sort_unstable_by_key(key);
        out.dedup();
        out
    }

    /// The set holding as many of each run of equal numbers as `set` does, the lowest ones.
    fn canonical(&self, set: u8) -> u8 {
        let mut out = 0u8;
        let mut taken = [0usize; 6];
        for i in 0..self.n {
            if set & (1 << i) != 0 {
                let start = self.run_start[i];
                out |= 1 << (start + taken[start]);
                taken[start] += 1;
            }
        }
        out
    }

    /// Whether some value `y` of the numbers in `set` (canonical) makes `x op y` or `y op x`
    /// equal `t`.
    fn completes(&mut self, x: Num, set: u8, t: Num) -> bool {
        for i in 0..self.ops.len() {
            let op = self.ops[i];
            let Some(wanted) = partners(op, x, t) else {
                // 0 × y = 0 for any y the set can make; 0 ÷ y = 0 for any non-zero y.
                let found = match op {
                    Op::Mul => !self.all_values(set).is_empty(),
                    Op::Div => self.all_values(set).iter().any(|y| !y.is_zero()),
                    _ => false,
                };
                if found {
                    return true;
                }
                continue;
            };
            for y in wanted.into_iter().flatten() {
                if self.has(set, y) && (op.apply(x, y) == Ok(t) || op.apply(y, x) == Ok(t)) {
                    return true;
                }
            }
        }
        false
    }

    /// Lists triples' values from four numbers on: a table of five or six dice asks the
    /// same triples about its rolls' first four dice again and again.
    pub(crate) fn list_triples_from_four(&mut self) {
        self.list_from = 4;
    }

    /// Makes `nums` (three to six) the numbers being solved, for `goal`.
    fn prepare(&mut self, nums: &[Num], goal: Num) {
        let n = nums.len();
        self.n = n;
        self.nums = [Num::ZERO; 6];
        self.nums[..n].copy_from_slice(nums);
        self.nums[..n].sort_unstable_by_key(key);
        for i in 0..6 {
            self.run_start[i] =
                if i > 0 && i < n && self.nums[i] == self.nums[i - 1] { self.run_start[i - 1] } else { i };
        }
        self.memo.clear();
        self.pair_known = 0;
        self.list_triples = n >= self.list_from;
        if goal != self.goal {
            self.triple_goal.clear();
            self.quad_goal.clear();
            self.needs.clear();
            self.wanted.clear();
            self.goal = goal;
        }
    }

    /// Whether a tree over exactly `size` of the numbers, among them every number in `must`,
    /// makes the goal.
    fn some_set_makes(&mut self, size: u32, must: u8) -> bool {
        let full = (1u8 << self.n) - 1;
        (1..=full).any(|set| {
            set.count_ones() == size && set & must == must && self.canonical(set) == set && self.has(set, self.goal)
        })
    }

    /// Whether the goal can be made from these numbers (none red yet, three to six): it is the
    /// value of a tree over all of them, or (unless all must be used) over three or more.
    pub(crate) fn solvable(&mut self, nums: &[Num], goal: Num, use_all: bool) -> bool {
        let n = nums.len();
        if !(3..=6).contains(&n) {
            return false;
        }
        self.prepare(nums, goal);
        // Smaller sets first: they are cheap, and most rolls are made from three numbers.
        let sizes = if use_all { n as u32..=n as u32 } else { 3..=n as u32 };
        sizes.into_iter().any(|size| self.some_set_makes(size, 0))
    }

    /// Over how many sets of three or more of these numbers (three to six; a set of equal
    /// values counted once) some tree makes the goal, counting a set only where no smaller set
    /// within it does or no tree over it can pass through the goal; counted up to `most`. When not all must be used, each set counted is a
    /// solution of its own: its leaves differ from every other's, and none of its trees can
    /// pass through the goal on the way (a search stops at the first move that makes the goal
    /// from a derived number, so `9 ÷ (10 − 4 − 9)` to −3 is no solution of its own). When all
    /// must be used, only the whole set is asked.
    pub(crate) fn goal_sets(&mut self, nums: &[Num], goal: Num, use_all: bool, most: usize) -> usize {
        let n = nums.len();
        if !(3..=6).contains(&n) {
            return 0;
        }
        self.prepare(nums, goal);
        let full = (1u8 << n) - 1;
        if use_all {
            return usize::from(most > 0 && self.has(full, self.goal));
        }
        // Every proper subset of a set is a smaller number, so it was asked before the set; a
        // canonical set holds the canonical form of any of its subsets' (the lowest of equals).
        let mut makers: Vec<u8> = Vec::new();
        for set in 1..=full {
            if makers.len() >= most {
                break;
            }
            if set.count_ones() >= 3
                && self.canonical(set) == set
                && (!makers.iter().any(|&m| m & !set == 0) || self.none_passes_the_goal(set))
                && self.has(set, self.goal)
            {
                makers.push(set);
            }
        }
        makers.len()
    }

    /// Whether no tree over the four numbers in `set` can pass through the goal on the way:
    /// a tree over four joins two pairs (nothing over three inside) or one number `x` to a
    /// tree over three, and that tree's value is the goal only if `x op goal` or `goal op x`
    /// is the goal again (x = 0, 1, 2·goal, goal²…), which no number of the set makes.
    fn none_passes_the_goal(&self, set: u8) -> bool {
        set.count_ones() == 4
            && (0..self.n).all(|i| set & (1 << i) == 0 || !self.makes(self.nums[i], self.goal, self.goal))
    }

    /// Whether three or more of these numbers (three to six), the largest among them, make the
    /// goal: what a table asks of a roll none of whose smaller parts can. With equal largest
    /// numbers, every one of them is among the three or more (fewer were a smaller part).
    pub(crate) fn makes_with_largest(&mut self, nums: &[Num], goal: Num) -> bool {
        let n = nums.len();
        if !(3..=6).contains(&n) {
            return false;
        }
        self.prepare(nums, goal);
        // A canonical set holds the lowest of equal numbers first: it holds the last
        // number exactly when it holds all of the largest.
        let last = 1u8 << (n - 1);
        (3..=n as u32).any(|size| self.some_set_makes(size, last))
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

/// The numbers in `set`, by index, ascending.
fn bits(set: u8) -> impl Iterator<Item = usize> {
    (0..8).filter(move |i| set & (1 << i) != 0)
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
    fn values_too_large_to_pack_are_asked_about_unpacked() {
        // 100‖(100‖100) ÷ 9973 asks about 9973 × 100100100: beyond the packed range.
        let mut r = Reach::<false>::new(OpSet::SCORE, false).unwrap();
        assert!(!r.solvable(&[Num::int(100); 6], Num::int(9973), false));
        assert_eq!(packed(Num::int(1 << 40)), None);
        let v = TripleValues::new(vec![Num::int(1 << 40), Num::int(-3), Num::ratio(7, 2).unwrap()]);
        assert!(v.contains(Num::int(1 << 40)) && v.contains(Num::int(-3)) && v.contains(Num::ratio(7, 2).unwrap()));
        assert!(!v.contains(Num::int(3)));
        assert_eq!((0..v.len()).map(|k| v.get(k)).collect::<Vec<_>>().len(), 3);
    }

    #[test]
    fn zero_goal_and_zero_operand() {
        let mut r = Reach::<false>::new(OpSet::ARITHMETIC, false).unwrap();
        // 0 × (anything) = 0, 0 ÷ (non-zero) = 0.
        let n = |v: i64| Num::int(v);
        assert!(r.solvable(&[n(0), n(1), n(2), n(3)], n(0), true));
    }

    /// Every multiset of `k` numbers from `low..=high`, ascending.
    fn multisets(k: usize, low: i64, high: i64) -> Vec<Vec<Num>> {
        let mut out = vec![Vec::new()];
        for _ in 0..k {
            out = out
                .into_iter()
                .flat_map(|m: Vec<Num>| {
                    let from = m.last().map_or(low, |v| v.numer());
                    (from..=high).map(move |v| {
                        let mut m = m.clone();
                        m.push(Num::int(v));
                        m
                    })
                })
                .collect();
        }
        out
    }

    /// The caches a table keeps for its goal (needed values, two steps, pairs') answer exactly
    /// as one roll's answer does: one table `Reach` asked about every multiset of four and five
    /// numbers with zero and negatives among them, goal after goal, both operator sets, whole
    /// numbers only or not, by parts (largest among them) and whole.
    #[test]
    fn a_tables_kept_answers_equal_one_rolls_answers() {
        for ops in [OpSet::SCORE, OpSet::ARITHMETIC] {
            for whole_only in [false, true] {
                let mut table = Reach::<true>::new(ops, whole_only).unwrap();
                for goal in [20, 0, -7, 24, 1, 100] {
                    let goal = Num::int(goal);
                    for nums in multisets(4, -3, 9).into_iter().chain(multisets(5, -1, 4)) {
                        let mut one = Reach::<false>::new(ops, whole_only).unwrap();
                        for use_all in [false, true] {
                            assert_eq!(
                                table.solvable(&nums, goal, use_all),
                                one.solvable(&nums, goal, use_all),
                                "{nums:?} → {goal} use_all {use_all} whole {whole_only}"
                            );
                        }
                        assert_eq!(
                            table.makes_with_largest(&nums, goal),
                            one.makes_with_largest(&nums, goal),
                            "{nums:?}"
                        );
                    }
                }
            }
        }
    }
}
