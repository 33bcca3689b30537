//! The solver: every way to make the goal, by the same moves a player makes.
//!
//! The search walks the pool exactly as the board does: take two numbers and
//! an operator, put the red result back (docs/RULES.md §2), and count the goal only
//! when a move with a red input makes it (§3), with every number used when the
//! rules say so. Because it calls [`Op::apply`], the solver can never list a
//! move the board would refuse, nor miss one it would allow.
//!
//! Two refinements keep it fast without changing what it finds: pairs of
//! equal pool entries are tried once, and (for [`is_solvable`]) pools already
//! seen to fail are remembered. Solutions are merged under
//! [`Expr::canonical`], keeping the simplest spelling of each.

use std::ops::ControlFlow;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::difficulty::Levels;
use crate::expr::{Canon, Expr};
use crate::number::Num;
use crate::op::{Op, OpSet};
use crate::reach::{partners, Reach};
use crate::roll;
use crate::rules::Rules;

/// Most numbers a puzzle may hold.
pub const MAX_NUMBERS: usize = 6;

/// A position to solve: numbers (some perhaps already red), a goal and the rules that matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The pool.
    pub numbers: Vec<Num>,
    /// Which pool entries are derived (red).
    pub red: Vec<bool>,
    /// The goal.
    pub goal: Num,
    /// Enabled operators.
    pub ops: OpSet,
    /// Whether every number must be used.
    pub use_all: bool,
    /// Refuse fractional intermediate results (used to find deals that need a fraction).
    pub whole_only: bool,
}

impl Puzzle {
    /// A fresh roll under `rules`.
    pub fn from_roll(roll: &[i64], rules: &Rules) -> Puzzle {
        Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(rules.goal), rules.ops, rules.use_all)
    }

    /// Any numbers, none red yet.
    pub fn new(numbers: Vec<Num>, goal: Num, ops: OpSet, use_all: bool) -> Puzzle {
        let red = vec![false; numbers.len()];
        Puzzle { numbers, red, goal, ops, use_all, whole_only: false }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Item {
    v: Num,
    red: bool,
    node: u16,
}

/// The values that could make the goal with one number, by some enabled operator on either
/// side (worked out backwards: [`crate::reach::partners`]); `any` when too many could. Every
/// operator but powers gives two at most (− and ÷ either way round, ‖ either side): eight.
#[derive(Clone, Copy)]
struct Partners {
    any: bool,
    len: u8,
    values: [Num; 8],
}

impl Partners {
    const NONE: Partners = Partners { any: false, len: 0, values: [Num::ZERO; 8] };

    /// Becomes the partners of `x` (in place: the search keeps three side by side).
    fn fill(&mut self, ops: &[Op], x: Num, goal: Num) {
        self.any = false;
        self.len = 0;
        for &op in ops {
            let Some(ys) = partners(op, x, goal) else {
                self.any = true;
                return;
            };
            for y in ys.into_iter().flatten() {
                match self.values.get_mut(self.len as usize) {
                    Some(slot) => {
                        *slot = y;
                        self.len += 1;
                    }
                    None => {
                        self.any = true;
                        return;
                    }
                }
            }
        }
    }

    fn admits(&self, r: Num) -> bool {
        self.any || self.values[..self.len as usize].contains(&r)
    }
}

/// A pool as the failed-pool memo keys it: its values and red flags, sorted, in a fixed
/// array (no allocation per pool; hashed with Fx, not SipHash: this is the search's hot path).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct PoolKey {
    len: u8,
    items: [(Num, bool); MAX_NUMBERS],
}

impl PoolKey {
    fn of(pool: &[Item]) -> PoolKey {
        let mut items = [(Num::ZERO, false); MAX_NUMBERS];
        for (slot, it) in items.iter_mut().zip(pool) {
            *slot = (it.v, it.red);
        }
        let len = pool.len().min(MAX_NUMBERS);
        items[..len].sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        PoolKey { len: len as u8, items }
    }
}

/// The smallest pool a listing asks [`Reach`] whether it could make the goal (pools of four
/// and five; six is asked once, before the search).
const REACH_AT: usize = 4;

#[derive(Clone, Copy)]
enum Node {
    Leaf(usize, Num),
    Bin(Op, u16, u16, Num),
}

struct Search<F> {
    goal: Num,
    ops: Vec<Op>,
    use_all: bool,
    whole_only: bool,
    arena: Vec<Node>,
    record: bool,
    /// Pools known to lead to no hit, when remembered.
    failed: Option<FxHashSet<PoolKey>>,
    /// Hits so far, to tell whether a pool led to any.
    hits: usize,
    /// Moves still allowed on this path (iterative deepening in `is_solvable`).
    moves_left: usize,
    /// Whether a pool of three skips moves whose result the last number can't complete.
    prune: bool,
    /// The partners of a pool of three's numbers ([`Search::completes`]).
    partners: [Partners; 3],
    /// Answers, for a pool of four, whether any part of it could make the goal at all
    /// (listing five or six numbers: most such pools can't, and the answer costs less than
    /// their search).
    reach: Option<Reach>,
    visit: F,
}

impl<F: FnMut(&[Node], u16) -> ControlFlow<()>> Search<F> {
    fn new(p: &Puzzle, record: bool, visit: F) -> (Search<F>, Vec<Item>) {
        let mut arena = Vec::new();
        let items = p
            .numbers
            .iter()
            .zip(&p.red)
            .enumerate()
            .map(|(slot, (&v, &red))| {
                arena.push(Node::Leaf(slot, v));
                Item { v, red, node: (arena.len() - 1) as u16 }
            })
            .collect();
        let search = Search {
            goal: p.goal,
            ops: p.ops.iter().collect(),
            use_all: p.use_all,
            whole_only: p.whole_only,
            arena,
            record,
            failed: None,
            hits: 0,
            moves_left: usize::MAX,
            prune: true,
            partners: [Partners::NONE; 3],
            reach: None,
            visit,
        };
        (search, items)
    }

    /// Depth-first over moves; `Break` as soon as `visit` says so.
    fn run(&mut self, pool: &[Item]) -> ControlFlow<()> {
        let n = pool.len();
        if n < 2 || self.moves_left == 0 {
            return ControlFlow::Continue(());
        }
        if n == 2 && !self.record {
            return self.last_move(pool[0], pool[1]);
        }
        let hits_before = self.hits;
        // Pools of two are cheaper to try than to look up.
        let key = self.failed.as_ref().filter(|_| n > 2).map(|_| PoolKey::of(pool));
        if let (Some(failed), Some(k)) = (&self.failed, &key) {
            if failed.contains(k) {
                return ControlFlow::Continue(());
            }
        }
        if (REACH_AT..MAX_NUMBERS).contains(&n) && !self.could_hit(pool) {
            return ControlFlow::Continue(());
        }
        let same = |a: &Item, b: &Item| a.v == b.v && a.red == b.red;
        // Three in the pool: after the next move, the last one combines its result with the
        // number left over, so only results that number can complete lead anywhere.
        // Each worked out when first needed (a pool of three moves on to pools of two only, so
        // one set of three serves the whole search).
        let prune = n == 3 && self.prune;
        let mut known = 0u8;
        let mut next = [Item { v: Num::ZERO, red: false, node: 0 }; MAX_NUMBERS + 1];
        for i in 0..n {
            if pool[..i].iter().any(|p| same(p, &pool[i])) {
                continue;
            }
            for j in i + 1..n {
                if pool[i + 1..j].iter().any(|p| same(p, &pool[j])) {
                    continue;
                }
                let mut len = 0;
                for (k, it) in pool.iter().enumerate() {
                    if k != i && k != j {
                        next[len] = *it;
                        len += 1;
                    }
                }
                let red_in = pool[i].red || pool[j].red;
                if len == 0 && !red_in {
                    // The last move without a red input can neither make the goal nor lead anywhere.
                    continue;
                }
                for oi in 0..self.ops.len() {
                    let op = self.ops[oi];
                    let swaps: &[bool] =
                        if op.is_commutative() || same(&pool[i], &pool[j]) { &[false] } else { &[false, true] };
                    for &swap in swaps {
                        let (a, b) = if swap { (pool[j], pool[i]) } else { (pool[i], pool[j]) };
                        // The last move counts only if it makes the goal: a cheap test first.
                        if len == 0 && !could_make(op, a.v, b.v, self.goal) {
                            continue;
                        }
                        let Ok(r) = op.apply(a.v, b.v) else { continue };
                        if self.whole_only && !r.is_integer() {
                            continue;
                        }
                        let node = if self.record {
                            self.arena.push(Node::Bin(op, a.node, b.node, r));
                            (self.arena.len() - 1) as u16
                        } else {
                            0
                        };
                        let flow = if r == self.goal && red_in && (!self.use_all || len == 0) {
                            self.hits += 1;
                            (self.visit)(&self.arena, node)
                        } else if len == 0 || (prune && !self.completes(&mut known, pool, 3 - i - j, r)) {
                            ControlFlow::Continue(())
                        } else {
                            next[len] = Item { v: r, red: true, node };
                            self.moves_left -= 1;
                            let flow = self.run(&next[..len + 1]);
                            self.moves_left += 1;
                            flow
                        };
                        if self.record {
                            self.arena.pop();
                        }
                        flow?;
                    }
                }
            }
        }
        // Hits depend only on the values and red flags in the pool, so a pool that led to
        // none leads to none by any other path either.
        if let (Some(failed), Some(k)) = (&mut self.failed, key) {
            if self.hits == hits_before {
                failed.insert(k);
            }
        }
        ControlFlow::Continue(())
    }
}

impl<F: FnMut(&[Node], u16) -> ControlFlow<()>> Search<F> {
    /// Whether `r` and the pool's number `k` could make the goal in one move (a pool of three,
    /// after a move on the other two): `k`'s partners, worked out once per pool.
    fn completes(&mut self, known: &mut u8, pool: &[Item], k: usize, r: Num) -> bool {
        if *known & (1 << k) == 0 {
            self.partners[k].fill(&self.ops, pool[k].v, self.goal);
            *known |= 1 << k;
        }
        self.partners[k].admits(r)
    }

    /// Whether some move from `pool` on could make the goal: a hit is a tree over two or
    /// more of its numbers (all of them when all must be used) whose value is the goal, so
    /// where no such tree exists there is none. Asked of [`Reach`] by value, red or not
    /// (a necessary condition only: the search still finds and checks every hit).
    fn could_hit(&mut self, pool: &[Item]) -> bool {
        let Some(reach) = self.reach.as_mut() else { return true };
        let mut nums = [Num::ZERO; MAX_NUMBERS];
        for (slot, it) in nums.iter_mut().zip(pool) {
            *slot = it.v;
        }
        let nums = &nums[..pool.len()];
        if reach.solvable(nums, self.goal, self.use_all) {
            return true;
        }
        // Two of them in one move (a tree over three or more was asked above).
        !self.use_all
            && nums.iter().enumerate().any(|(i, &x)| {
                nums[i + 1..].iter().any(|&y| {
                    self.ops.iter().any(|&op| {
                        let (a, b) = (op.apply(x, y), op.apply(y, x));
                        let whole = |r: &Num| !self.whole_only || r.is_integer();
                        a.is_ok_and(|r| r == self.goal && whole(&r)) || b.is_ok_and(|r| r == self.goal && whole(&r))
                    })
                })
            })
    }

    /// The last move of a path when only a yes/no is wanted: a cheap test per
    /// operator, every hit confirmed by [`Op::apply`], so the evaluator stays the judge.
    fn last_move(&mut self, a: Item, b: Item) -> ControlFlow<()> {
        if !(a.red || b.red) {
            return ControlFlow::Continue(());
        }
        for &op in &self.ops {
            for (x, y) in [(a.v, b.v), (b.v, a.v)] {
                if could_make(op, x, y, self.goal) && op.apply(x, y) == Ok(self.goal) {
                    self.hits += 1;
                    return (self.visit)(&self.arena, 0);
                }
                if op.is_commutative() {
                    break;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Whether `x op y` may equal `g`, by cross-multiplication, without normalising.
/// Never wrong in the "no" direction: when a product overflows it answers "maybe".
#[inline]
fn could_make(op: Op, x: Num, y: Num, g: Num) -> bool {
    let (a, b, c, d, p, q) = (
        x.numer() as i128,
        x.denom() as i128,
        y.numer() as i128,
        y.denom() as i128,
        g.numer() as i128,
        g.denom() as i128,
    );
    // x op y = (num / den); equal to p/q iff num·q == p·den.
    let cross = |num: Option<i128>, den: Option<i128>| match (num, den) {
        (Some(n), Some(m)) => match (n.checked_mul(q), p.checked_mul(m)) {
            (Some(l), Some(r)) => l == r,
            _ => true,
        },
        _ => true,
    };
    match op {
        Op::Add => cross((a * d).checked_add(c * b), Some(b * d)),
        Op::Sub => cross((a * d).checked_sub(c * b), Some(b * d)),
        Op::Mul => cross(Some(a * c), Some(b * d)),
        Op::Div => c != 0 && cross(Some(a * d), Some(b * c)),
        // x‖y ends in y's digits: whole numbers whose last digits agree, or no.
        Op::Concat => b == 1 && d == 1 && q == 1 && c >= 0 && p.unsigned_abs() % 10 == c.unsigned_abs() % 10,
        Op::Pow => true,
    }
}

fn build(arena: &[Node], node: u16) -> Expr {
    match arena[node as usize] {
        Node::Leaf(slot, v) => Expr::leaf(v, slot),
        // The value was computed by `Op::apply` during the search.
        Node::Bin(op, a, b, value) => {
            let (mut left, mut right) = (build(arena, a), build(arena, b));
            // The search tries a commutative move once; spell it bracketed part first (9‖9 ÷ 9 + 9).
            if op.is_commutative() && left.moves() < right.moves() {
                std::mem::swap(&mut left, &mut right);
            }
            Expr::Node { op, left: Box::new(left), right: Box::new(right), value }
        }
    }
}

/// Whether the goal can be made.
pub fn is_solvable(p: &Puzzle) -> bool {
    if p.numbers.len() > MAX_NUMBERS {
        return false;
    }
    // A fresh pool without powers is answered by subsets.
    if !p.red.contains(&true) {
        if let Some(mut r) = Reach::<false>::new(p.ops, p.whole_only) {
            return r.solvable(&p.numbers, p.goal, p.use_all);
        }
    }
    search_solvable(p)
}

/// The move-by-move yes/no search: any pool, red entries, powers. [`is_solvable`]
/// answers small fresh rolls faster by subsets and must always agree with this.
pub fn search_solvable(p: &Puzzle) -> bool {
    let (mut s, items) = Search::new(p, false, |_, _| ControlFlow::Break(()));
    // Most rolls have a two-move solution: look for one before searching deeper.
    if !p.use_all && items.len() > 3 {
        s.moves_left = 2;
        if s.run(&items).is_break() {
            return true;
        }
        s.moves_left = usize::MAX;
    }
    // Failed pools are remembered only in the unlimited search (a pool that fails
    // with few moves left may succeed with more); it pays off from five numbers on.
    if items.len() > 4 {
        s.failed = Some(FxHashSet::default());
    }
    s.run(&items).is_break()
}

/// How a solution ranks: fewest moves, then whole intermediates, no negatives,
/// no concatenation, no powers, then the shortest and alphabetical spelling.
type Simplicity = (usize, bool, bool, bool, bool, usize, String);

fn simplicity(e: &Expr) -> Simplicity {
    let text = e.to_string();
    (
        e.moves(),
        e.uses_fraction(),
        e.uses_negative(),
        e.uses_op(Op::Concat),
        e.uses_op(Op::Pow),
        text.chars().count(),
        text,
    )
}

/// Every distinct solution, simplest first (see [`Expr::canonical`] for "distinct").
pub fn solutions(p: &Puzzle) -> Vec<Expr> {
    solutions_up_to(p, usize::MAX)
}

/// Like [`solutions`], but stops searching after `limit` distinct solutions.
pub fn solutions_up_to(p: &Puzzle, limit: usize) -> Vec<Expr> {
    list(p, limit, true)
}

/// [`solutions`] by the plain move-by-move search: no pool remembered, none skipped. Slow;
/// tests hold the fast listing to it.
#[doc(hidden)]
pub fn solutions_unpruned(p: &Puzzle) -> Vec<Expr> {
    list(p, usize::MAX, false)
}

fn list(p: &Puzzle, limit: usize, prune: bool) -> Vec<Expr> {
    list_or_stop(p, limit, prune, true, false).unwrap_or_default()
}

/// Up to `limit` distinct solutions, simplest first; `None` when the search stopped at
/// `limit` and `stopped` (a list cut short) isn't wanted: then no solution is ranked.
/// `solvable`: the caller knows the puzzle has a solution.
fn list_or_stop(p: &Puzzle, limit: usize, prune: bool, stopped: bool, solvable: bool) -> Option<Vec<Expr>> {
    // A roll with no solution is known in milliseconds by subsets; listing would search
    // every tree first (seconds with six numbers), so hints, difficulty and lists ask first.
    if p.numbers.len() > MAX_NUMBERS || !(solvable || is_solvable(p)) {
        return Some(Vec::new());
    }
    // Each solution found, with its simplicity once another of its class turns up (ranking
    // spells the expression, and most classes are found once).
    let mut found: FxHashMap<Canon, (Option<Simplicity>, Expr)> = FxHashMap::default();
    let many = p.numbers.len() > 4;
    let (mut s, items) = Search::new(p, true, |arena, node| {
        let e = build(arena, node);
        let key = e.canonical();
        match found.get_mut(&key) {
            Some(old) => {
                let rank = simplicity(&e);
                if rank < *old.0.get_or_insert_with(|| simplicity(&old.1)) {
                    *old = (Some(rank), e);
                }
            }
            None => {
                found.insert(key, (None, e));
            }
        }
        if found.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    s.prune = prune;
    if many && prune {
        // Five or six numbers: skip pools already seen to lead nowhere, and pools of four
        // no part of which can make the goal.
        s.failed = Some(FxHashSet::default());
        s.reach = Reach::new(p.ops, p.whole_only);
    }
    let cut = s.run(&items).is_break();
    drop(s);
    if cut && !stopped {
        return None;
    }
    let mut list: Vec<(Simplicity, Expr)> =
        found.into_values().map(|(rank, e)| (rank.unwrap_or_else(|| simplicity(&e)), e)).collect();
    // The key ends with the text, so no two differ only in order: an unstable sort is exact.
    list.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Some(list.into_iter().map(|(_, e)| e).collect())
}

/// The simplest solution, if any: of all solutions up to four numbers, of the
/// first 50 distinct ones found with five or six (listing all takes seconds there).
pub fn simplest(p: &Puzzle) -> Option<Expr> {
    let limit = if p.numbers.len() <= 4 { usize::MAX } else { 50 };
    solutions_up_to(p, limit).into_iter().next()
}

/// A suggested next move: `(left slot, op, right slot)` of the simplest solution's first step.
pub fn hint(p: &Puzzle) -> Option<(usize, Op, usize)> {
    simplest(p).and_then(|e| e.first_move())
}

/// Whether every solution needs a fractional intermediate result (e.g. 24 from 3 3 8 8).
pub fn needs_fraction(p: &Puzzle) -> bool {
    is_solvable(p) && !is_solvable(&Puzzle { whole_only: true, ..p.clone() })
}

/// How hard a roll is by the first model, 1 (easy) to 5 (hard); `None` when it has no
/// solution. Worksheets of version 1 were rated by it; everything else now asks
/// [`crate::difficulty`].
///
/// From the number of distinct solutions `n`: 1 for n ≥ 20, 2 for n ≥ 8,
/// 3 for n ≥ 3, 4 otherwise; then +1 when every solution needs a fraction, a
/// negative number or concatenation (judged on the simplest solution, which
/// avoids them whenever any solution does), capped at 5. Up to four numbers
/// every solution is listed; with five or six (thousands of solutions, seconds
/// to list) the first 20 distinct ones found decide.
pub fn first_level(p: &Puzzle) -> Option<u8> {
    let all = if p.numbers.len() <= 4 { solutions(p) } else { solutions_up_to(p, 20) };
    level_of(&all)
}

/// Whether [`first_level`] is `level`, listing no more solutions than it takes to tell: a
/// roll with 3 solutions or more is below 5, with 8 or more below 4, with 20 or more below
/// 3 (the awkward +1 included). Worksheets of version 1 ask this of roll after roll.
pub fn has_first_level(p: &Puzzle, level: u8) -> bool {
    let cap = cap_of(Some(level));
    if cap == usize::MAX {
        return first_level(p) == Some(level);
    }
    let some = solutions_up_to(p, cap);
    some.len() < cap && level_of(&some) == Some(level)
}

/// A roll's difficulty and its simplest solution, if it has one (and its difficulty is
/// `level`, when given): what a worksheet asks of roll after roll. The same answers as
/// [`first_level`] or [`has_first_level`] with [`simplest`], listing once where the list that
/// rates the roll is whole.
pub fn rated(p: &Puzzle, level: Option<u8>) -> Option<(u8, Expr)> {
    rated_known(p, level, false)
}

/// Rates roll after roll under one set of rules (a worksheet): whether each roll has a
/// solution is answered first by subsets, with what the rolls before it kept (as a table
/// does), and only a roll that has one is listed.
pub struct Rater<'r> {
    rules: &'r Rules,
    reach: Option<Reach<true>>,
    /// The dice's levels under the model of [`crate::difficulty`]; `None` under the first
    /// model, [`first_level`] (the count of solutions), which worksheets made before version 2
    /// were rated by.
    levels: Option<Levels>,
}

impl<'r> Rater<'r> {
    /// A rater for `rules`, by the model of [`crate::difficulty`].
    pub fn new(rules: &'r Rules) -> Rater<'r> {
        Rater { rules, reach: Reach::new(rules.ops, false), levels: Some(Levels::of(rules)) }
    }

    /// A rater for `rules` by the first model ([`first_level`]), for worksheets of version 1.
    pub fn first_model(rules: &'r Rules) -> Rater<'r> {
        Rater { rules, reach: Reach::new(rules.ops, false), levels: None }
    }

    /// The level and simplest solution of `roll` under these rules, if it has a solution (of
    /// `level`, when given). Whether it has one is answered first by subsets, with what the
    /// rolls before it kept. By the first model ([`rated`]), a roll with as many solutions as
    /// rule its level out is known without listing them when as many sets of its dice make
    /// the goal.
    pub fn rate(&mut self, roll: &[i64], level: Option<u8>) -> Option<(u8, Expr)> {
        let p = Puzzle::from_roll(roll, self.rules);
        let Some(levels) = self.levels else { return self.rate_first(p, roll, level) };
        let solvable = match &mut self.reach {
            Some(r) if roll.len() <= MAX_NUMBERS => r.goal_sets(&nums_of(roll)[..roll.len()], p.goal, p.use_all, 1) > 0,
            _ => is_solvable(&p),
        };
        if !solvable {
            return None;
        }
        let rated = crate::difficulty::rate(&p, &levels)?;
        level.is_none_or(|l| l == rated.level).then_some((rated.level, rated.simplest))
    }

    fn rate_first(&mut self, p: Puzzle, roll: &[i64], level: Option<u8>) -> Option<(u8, Expr)> {
        let cap = cap_of(level);
        let sets = match &mut self.reach {
            Some(r) if roll.len() <= MAX_NUMBERS => r.goal_sets(&nums_of(roll)[..roll.len()], p.goal, p.use_all, cap),
            _ => usize::from(is_solvable(&p)),
        };
        if sets == 0 || sets >= cap {
            return None;
        }
        rated_known(&p, level, true)
    }
}

/// [`rated`], where `solvable` says the caller knows `p` has a solution.
fn rated_known(p: &Puzzle, level: Option<u8>, solvable: bool) -> Option<(u8, Expr)> {
    let cap = cap_of(level);
    let few = p.numbers.len() <= 4;
    let limit = if cap < usize::MAX {
        cap
    } else if few {
        usize::MAX
    } else {
        20
    };
    // A list stopped at its limit is not every solution: the difficulty as it says, the
    // simplest from a list of its own (a capped list's level is never the one asked for, so
    // it isn't even ranked).
    let mut some = list_or_stop(p, limit, true, cap == usize::MAX, solvable)?;
    let whole = some.len() < limit;
    let d = level_of(&some)?;
    if level.is_some_and(|l| l != d) {
        return None;
    }
    let best = if whole { some.swap_remove(0) } else { simplest(p)? };
    Some((d, best))
}

/// How many distinct solutions rule a roll out of `level`: a roll with 3 or more is below 5,
/// with 8 or more below 4, with 20 or more below 3 (the awkward +1 included).
fn cap_of(level: Option<u8>) -> usize {
    match level {
        Some(5) => 3,
        Some(4) => 8,
        Some(3) => 20,
        _ => usize::MAX,
    }
}

/// The difficulty of a roll from its solutions, simplest first (all of them up to four
/// numbers, the first 20 found with more).
fn level_of(all: &[Expr]) -> Option<u8> {
    let best = all.first()?;
    let base = match all.len() {
        20.. => 1,
        8..=19 => 2,
        3..=7 => 3,
        _ => 4,
    };
    let awkward = best.uses_fraction() || best.uses_negative() || best.uses_op(Op::Concat);
    Some((base + u8::from(awkward)).min(5))
}

/// The rolls of a dice set that have no solution.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpossibleTable {
    /// Distinct sorted rolls examined.
    pub rolls: u64,
    /// Ordered outcomes of the dice (product of sides).
    pub outcomes: u64,
    /// The impossible rolls, each ascending, in ascending order.
    pub impossible: Vec<Vec<i64>>,
    /// Ordered outcomes that give an impossible roll.
    pub impossible_outcomes: u64,
}

impl ImpossibleTable {
    /// The chance that a roll is impossible.
    pub fn probability(&self) -> f64 {
        if self.outcomes == 0 {
            0.0
        } else {
            self.impossible_outcomes as f64 / self.outcomes as f64
        }
    }
}

/// Most distinct rolls [`impossible_rolls`] will examine.
pub const MAX_TABLE_ROLLS: u64 = 60_000;

/// Too many rolls to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("These dice have {0} different rolls; the list is limited to 60000. Use fewer dice or fewer sides.")]
pub struct TooManyRolls(pub u64);

/// Every impossible roll of `rules.dice` for `rules.goal`, with its chance. Natively the
/// rolls are shared among the machine's cores (in the browser, one worker lists them with
/// [`impossible_rolls_reporting`]); the table is the same either way.
pub fn impossible_rolls(rules: &Rules) -> Result<ImpossibleTable, TooManyRolls> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        // The default table (2,359 rolls) takes under a millisecond on one thread: less than
        // starting a second one costs a fresh process.
        let threads = if roll::count_sorted_rolls(&rules.dice) < 5000 {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
        };
        impossible_rolls_on(rules, threads)
    }
    #[cfg(target_arch = "wasm32")]
    impossible_rolls_reporting(rules, u64::MAX, |_, _| {})
}

fn empty_table(rules: &Rules) -> Result<ImpossibleTable, TooManyRolls> {
    let count = roll::count_sorted_rolls(&rules.dice);
    if count > MAX_TABLE_ROLLS {
        return Err(TooManyRolls(count));
    }
    Ok(ImpossibleTable {
        rolls: count,
        outcomes: rules.dice.iter().map(|&s| s as u64).product(),
        impossible: Vec::new(),
        impossible_outcomes: 0,
    })
}

/// Whether a fresh roll has a solution, with `reach`'s caches (shared across a table) when
/// the rules suit them.
fn roll_solvable(faces: &[i64], rules: &Rules, reach: &mut Option<Reach<true>>) -> bool {
    match reach {
        // A fresh roll: answered by subsets, without building a puzzle.
        Some(r) if faces.len() <= MAX_NUMBERS => {
            r.solvable(&nums_of(faces)[..faces.len()], Num::int(rules.goal), rules.use_all)
        }
        _ => is_solvable(&Puzzle::from_roll(faces, rules)),
    }
}

/// The first [`MAX_NUMBERS`] faces as numbers (the rest of the array zero).
fn nums_of(faces: &[i64]) -> [Num; MAX_NUMBERS] {
    let mut nums = [Num::ZERO; MAX_NUMBERS];
    for (n, &f) in nums.iter_mut().zip(faces) {
        *n = Num::int(f);
    }
    nums
}

/// The sorted rolls of a table, walked depth first. A roll can make the goal when three or
/// more of its dice can, so once the first few dice of a roll can, every roll that goes on
/// from them can too: the walk skips them all (most of a table) without asking.
struct Walk<'r> {
    rules: &'r Rules,
    /// The dice's sides, ascending: a sorted roll's `i`th face is at most `sides[i]`.
    sides: Vec<u32>,
    reach: Option<Reach<true>>,
    /// Whether a roll can be judged by its parts: the goal may be made from some of the dice,
    /// and `reach` answers for them.
    by_parts: bool,
    /// `ways[i][v]`: the sorted ways to go on from face `i` on, with faces of `v` or more.
    ways: Vec<Vec<u64>>,
    faces: Vec<i64>,
    impossible: Vec<Vec<i64>>,
    outcomes: u64,
    /// Rolls judged or skipped so far.
    done: u64,
}

impl<'r> Walk<'r> {
    fn new(rules: &'r Rules) -> Walk<'r> {
        let mut sides = rules.dice.clone();
        sides.sort_unstable();
        let top = sides.last().map_or(0, |&s| s as usize);
        let mut ways = vec![vec![1u64; top + 2]; sides.len() + 1];
        for i in (0..sides.len()).rev() {
            ways[i][top + 1] = 0;
            for v in (1..=top).rev() {
                let here = if v <= sides[i] as usize { ways[i + 1][v] } else { 0 };
                ways[i][v] = here.saturating_add(ways[i][v + 1]);
            }
        }
        let mut reach = Reach::<true>::new(rules.ops, false);
        if let Some(r) = reach.as_mut().filter(|_| sides.len() >= 5) {
            r.list_triples_from_four();
        }
        let by_parts = reach.is_some() && !rules.use_all && sides.len() <= MAX_NUMBERS;
        Walk { rules, sides, reach, by_parts, ways, faces: Vec::new(), impossible: Vec::new(), outcomes: 0, done: 0 }
    }

    /// Walks every roll that goes on from `prefix` (at most two faces: none is judged yet),
    /// calling `tick(done)` as rolls are judged or skipped.
    fn walk_from(&mut self, prefix: &[i64], tick: &mut impl FnMut(u64)) {
        self.faces.clear();
        self.faces.extend_from_slice(prefix);
        self.walk(tick);
    }

    fn walk(&mut self, tick: &mut impl FnMut(u64)) {
        let i = self.faces.len();
        if i == self.sides.len() {
            if !self.judge() {
                self.impossible.push(self.faces.clone());
                self.outcomes += roll::ordered_outcomes(&self.rules.dice, &self.faces);
            }
            self.done += 1;
            tick(self.done);
            return;
        }
        let low = self.faces.last().copied().unwrap_or(1);
        for v in low..=self.sides[i] as i64 {
            self.faces.push(v);
            if self.by_parts && (3..self.sides.len()).contains(&(i + 1)) && self.judge() {
                // These first dice make the goal: so does every roll that goes on from them.
                self.done += self.ways[i + 1][v as usize];
                tick(self.done);
            } else {
                self.walk(tick);
            }
            self.faces.pop();
        }
    }

    /// Whether the faces so far can make the goal. Judged by parts, only three or more with
    /// the last face among them are asked: every smaller prefix was asked already.
    fn judge(&mut self) -> bool {
        if self.by_parts {
            // By parts, there are at most MAX_NUMBERS faces.
            if let Some(r) = &mut self.reach {
                return r.makes_with_largest(&nums_of(&self.faces)[..self.faces.len()], Num::int(self.rules.goal));
            }
        }
        roll_solvable(&self.faces, self.rules, &mut self.reach)
    }
}

/// The first two faces of every sorted roll, in order: where the walk is shared out.
#[cfg(not(target_arch = "wasm32"))]
fn starts(sides: &[u32]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for &s in sides.iter().take(2) {
        out = out
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                let low = p.last().copied().unwrap_or(1);
                (low..=s as i64).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

/// What one share of a table found: its place among the shares, its impossible rolls and
/// their ordered outcomes.
#[cfg(not(target_arch = "wasm32"))]
type Part = (usize, Vec<Vec<i64>>, u64);

/// [`impossible_rolls`] on up to `threads` threads, each with its own caches. The walk is
/// shared out by the rolls' first two faces, each thread taking the next start as it
/// finishes one: hard rolls cluster (low faces make fewer values), so equal halves would
/// leave one thread most of the work. The parts join back in roll order, into the one
/// ascending list.
#[cfg(not(target_arch = "wasm32"))]
pub fn impossible_rolls_on(rules: &Rules, threads: usize) -> Result<ImpossibleTable, TooManyRolls> {
    let mut table = empty_table(rules)?;
    // Small tables aren't worth a thread.
    if threads < 2 || rules.dice.len() < 3 || table.rolls < 1000 {
        return impossible_rolls_reporting(rules, u64::MAX, |_, _| {});
    }
    let mut sides = rules.dice.clone();
    sides.sort_unstable();
    let starts = starts(&sides);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let share = || {
        let mut walk = Walk::new(rules);
        let mut out = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(start) = starts.get(i) else { break };
            walk.walk_from(start, &mut |_| {});
            if !walk.impossible.is_empty() {
                out.push((i, std::mem::take(&mut walk.impossible), std::mem::take(&mut walk.outcomes)));
            }
        }
        out
    };
    let parts: Vec<Vec<Part>> = std::thread::scope(|scope| {
        let running: Vec<_> = (0..threads).map(|_| scope.spawn(share)).collect();
        running.into_iter().map(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut parts: Vec<_> = parts.into_iter().flatten().collect();
    parts.sort_unstable_by_key(|p| p.0);
    for (_, impossible, outcomes) in parts {
        table.impossible.extend(impossible);
        table.impossible_outcomes += outcomes;
    }
    Ok(table)
}

/// [`impossible_rolls`] on this thread, calling `progress(done, total)` each time another
/// `every` rolls are judged or skipped (for a progress bar while a long table is listed).
pub fn impossible_rolls_reporting(
    rules: &Rules,
    every: u64,
    mut progress: impl FnMut(u64, u64),
) -> Result<ImpossibleTable, TooManyRolls> {
    let mut table = empty_table(rules)?;
    let count = table.rolls;
    let every = every.max(1);
    let mut reported = 0;
    let mut walk = Walk::new(rules);
    walk.walk_from(&[], &mut |done| {
        if done / every > reported {
            reported = done / every;
            progress(done, count);
        }
    });
    table.impossible = walk.impossible;
    table.impossible_outcomes = walk.outcomes;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    use crate::rules::Preset;

    fn score(roll: &[i64]) -> Puzzle {
        Puzzle::from_roll(roll, &Rules::default())
    }

    #[test]
    fn goal_from_two_dice_alone_does_not_count() {
        // 4 × 5 = 20 uses no red number (docs/RULES.md §3); with 1 1 the roll is still solvable.
        let p = Puzzle::new(vec![Num::int(4), Num::int(5), Num::int(7)], Num::int(20), OpSet::ARITHMETIC, false);
        assert!(solutions(&p).iter().all(|e| e.moves() >= 2));
    }

    #[test]
    fn nine_nine_nine_nine_makes_twenty_by_concatenation() {
        let list = solutions(&score(&[9, 9, 9, 9]));
        assert!(list.iter().any(|e| e.to_string() == "9‖9 ÷ 9 + 9"), "{list:?}");
    }

    #[test]
    fn solutions_are_distinct_and_simplest_first() {
        let list = solutions(&score(&[2, 5, 12, 12]));
        assert!(!list.is_empty());
        let keys: HashSet<Canon> = list.iter().map(Expr::canonical).collect();
        assert_eq!(keys.len(), list.len());
        let moves: Vec<usize> = list.iter().map(Expr::moves).collect();
        assert!(moves.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn hint_is_a_move_on_the_pool() {
        let p = score(&[1, 2, 3, 4]);
        let (l, _, r) = hint(&p).unwrap();
        assert!(l < 4 && r < 4 && l != r);
    }

    #[test]
    fn red_pool_entries_count_as_derived() {
        // Board state: a red 4 and a die 5: one more move makes 20 through a red number.
        let mut p = Puzzle::new(vec![Num::int(4), Num::int(5)], Num::int(20), OpSet::SCORE, false);
        assert!(!is_solvable(&p));
        p.red[0] = true;
        assert!(is_solvable(&p));
        assert_eq!(hint(&p), Some((0, Op::Mul, 1)));
    }

    #[test]
    fn first_level_is_in_range() {
        let r = Rules::preset(Preset::Score);
        for roll in [[1, 2, 3, 4], [2, 5, 12, 12], [9, 9, 9, 9]] {
            let d = first_level(&Puzzle::from_roll(&roll, &r)).unwrap();
            assert!((1..=5).contains(&d));
        }
        assert_eq!(first_level(&score(&[1, 1, 1, 4])), None);
    }
}
