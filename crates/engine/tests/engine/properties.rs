//! Property tests: the solver's lists obey the rules, and nothing panics.
//!
//! 10,000 cases per property by default; `PROPTEST_CASES=1000000` for a long run.

use proptest::prelude::*;
use score_engine::solve::{is_solvable, solutions, Puzzle};
use score_engine::{Action, Board, Expr, Num, Op, OpSet, Rules, TileId};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

fn ops() -> impl Strategy<Value = OpSet> {
    prop_oneof![Just(OpSet::SCORE), Just(OpSet::ARITHMETIC), Just(OpSet::SCORE.with(Op::Pow))]
}

/// A listing as what it says: each solution by its class and its spelling, in order.
fn listed(list: Vec<Expr>) -> Vec<(score_engine::expr::Canon, String)> {
    let mut k: Vec<_> = list.iter().map(|e| (e.canonical(), e.to_string())).collect();
    k.sort();
    k
}

fn check_solution(e: &Expr, p: &Puzzle) {
    assert_eq!(e.eval(), Ok(p.goal), "{e} does not evaluate to the goal");
    assert_eq!(e.value(), p.goal);
    let mut slots = e.slots();
    let n = slots.len();
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), n, "{e} uses a number twice");
    for &s in &slots {
        assert!(s < p.numbers.len());
    }
    assert!(e.moves() >= 2, "{e}: the goal from two dice alone does not count");
    if p.use_all {
        assert_eq!(n, p.numbers.len(), "{e} leaves a number unused");
    }
    let mut ok = true;
    for step in e.steps() {
        ok &= p.ops.contains(step.op);
        assert_eq!(step.op.apply(step.left, step.right), Ok(step.result));
    }
    assert!(ok, "{e} uses a disabled operator");
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_listed_solution_makes_the_goal_by_the_rules(
        roll in prop::collection::vec(1i64..=20, 3..=4),
        goal in -20i64..=60,
        ops in ops(),
        use_all in any::<bool>(),
    ) {
        let p = Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(goal), ops, use_all);
        let list = solutions(&p);
        for e in &list {
            check_solution(e, &p);
        }
        prop_assert_eq!(is_solvable(&p), !list.is_empty());
        let mut keys: Vec<_> = list.iter().map(Expr::canonical).collect();
        keys.sort();
        keys.dedup();
        prop_assert_eq!(keys.len(), list.len());
    }

    #[test]
    fn solver_never_panics_on_any_numbers(
        roll in prop::collection::vec(-9999i64..=99_999, 2..=4),
        goal in prop_oneof![any::<i64>(), -100i64..=100],
        ops in ops(),
    ) {
        let p = Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(goal), ops, false);
        let solvable = is_solvable(&p);
        prop_assert_eq!(solvable, !solutions(&p).is_empty());
        prop_assert_eq!(solvable, score_engine::solve::search_solvable(&p));
    }

    #[test]
    fn board_never_panics_and_refusals_change_nothing(
        roll in prop::collection::vec(any::<i64>(), 3..=6),
        actions in prop::collection::vec((0u8..3, 0u32..12, 0usize..6, 0u32..12), 0..20),
    ) {
        let mut b = Board::with_numbers(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(20), OpSet::SCORE.with(Op::Pow), false);
        for (kind, l, op, r) in actions {
            let action = match kind {
                0 => Action::Combine { left: TileId(l), op: Op::ALL[op], right: TileId(r) },
                1 => Action::Undo,
                _ => Action::Clear,
            };
            let before = b.clone();
            if b.apply(action).is_err() {
                prop_assert_eq!(&b, &before);
            }
            for t in b.tiles() {
                prop_assert_eq!(t.expr.eval(), Ok(t.value));
            }
        }
    }
}

/// The subset answer equals the move-by-move search's for `roll` and `goal`.
fn fast_answer_agrees(
    roll: &[i64],
    goal: i64,
    ops: OpSet,
    use_all: bool,
    whole_only: bool,
) -> Result<(), TestCaseError> {
    let mut p = Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(goal), ops, use_all);
    p.whole_only = whole_only;
    prop_assert_eq!(is_solvable(&p), score_engine::solve::search_solvable(&p), "{:?} → {}", roll, goal);
    Ok(())
}

proptest! {
    // The move-by-move search of six numbers can take a while when there is no solution.
    #![proptest_config(ProptestConfig { cases: config().cases.min(400), ..config() })]

    #[test]
    fn five_and_six_numbers_fast_answer_agrees_with_the_search(
        roll in prop::collection::vec(-3i64..=30, 5..=6),
        goal in prop_oneof![-50i64..=300, 900i64..=9999],
        ops in prop_oneof![Just(OpSet::SCORE), Just(OpSet::ARITHMETIC)],
        use_all in any::<bool>(),
        whole_only in any::<bool>(),
    ) {
        fast_answer_agrees(&roll, goal, ops, use_all, whole_only)?;
    }
}

proptest! {
    #![proptest_config(config())]

    // The subset answer (pairs' values inline, triples backwards or listed, the split search)
    // against the move-by-move search, on three to six numbers and any goal.
    #[test]
    fn three_to_six_numbers_fast_answer_agrees_with_the_search(
        roll in prop::collection::vec(-2i64..=13, 3..=6),
        goal in prop_oneof![-30i64..=60, 61i64..=2000],
        ops in prop_oneof![Just(OpSet::SCORE), Just(OpSet::ARITHMETIC)],
        use_all in any::<bool>(),
        whole_only in any::<bool>(),
    ) {
        fast_answer_agrees(&roll, goal, ops, use_all, whole_only)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: (config().cases / 40).max(1), ..config() })]

    // A table skips every roll that goes on from dice that already make the goal, and keeps
    // what pairs, triples and sets of four make across rolls: it must list exactly the rolls
    // the move-by-move search finds impossible, count every roll, and be the same shared
    // among threads.
    #[test]
    fn a_table_lists_what_the_search_finds_impossible(
        dice in prop::collection::vec(1u32..=9, 3..=6),
        goal in -12i64..=80,
        ops in prop_oneof![Just(OpSet::SCORE), Just(OpSet::ARITHMETIC)],
        use_all in any::<bool>(),
    ) {
        use score_engine::solve::{impossible_rolls_on, impossible_rolls_reporting, search_solvable};
        let rules = Rules { dice, goal, ops, use_all, ..Rules::default() };
        let mut last = 0;
        let table = impossible_rolls_reporting(&rules, 7, |done, total| {
            assert!(done > last && done <= total);
            last = done;
        }).unwrap();
        let mut search = Vec::new();
        let mut outcomes = 0;
        for (roll, ways) in score_engine::roll::sorted_rolls(&rules.dice) {
            if !search_solvable(&Puzzle::from_roll(&roll, &rules)) {
                search.push(roll);
                outcomes += ways;
            }
        }
        prop_assert_eq!(&table.impossible, &search, "{:?} → {}", rules.dice, goal);
        prop_assert_eq!(table.impossible_outcomes, outcomes);
        prop_assert!(table.rolls < 7 || last >= table.rolls - table.rolls % 7);
        prop_assert_eq!(impossible_rolls_on(&rules, 3).unwrap(), table);
    }
}

/// A random expression tree over small numbers with + − × ÷ (moves that fail are skipped).
fn tree() -> impl Strategy<Value = Expr> {
    let leaf = (1i64..=12, 0usize..6).prop_map(|(v, s)| Expr::leaf(Num::int(v), s));
    leaf.prop_recursive(4, 12, 2, |inner| {
        (inner.clone(), prop_oneof![Just(Op::Add), Just(Op::Sub), Just(Op::Mul), Just(Op::Div)], inner)
            .prop_filter_map("a move that fails", |(l, op, r)| Expr::combine(op, l, r).ok())
    })
}

/// The same expression negated by moving a minus sign into it: `a − b` becomes `b − a`,
/// and a product or quotient passes the sign to one of its operands. `None` when no
/// minus sign can move in.
fn negated(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Node { op: Op::Sub, left, right, .. } => Expr::combine(Op::Sub, (**right).clone(), (**left).clone()).ok(),
        Expr::Node { op: op @ (Op::Mul | Op::Div), left, right, .. } => match negated(left) {
            Some(l) => Expr::combine(*op, l, (**right).clone()).ok(),
            None => Expr::combine(*op, (**left).clone(), negated(right)?).ok(),
        },
        _ => None,
    }
}

proptest! {
    #![proptest_config(config())]

    // Distinct solutions up to sign (docs/RULES.md §6): x − y and x + (−y), with the
    // minus sign moved through × and ÷ into y, are one solution; y and −y are two. (A y of
    // 0 such as 1 − 1 is its own negation: it has no sign to move.)
    #[test]
    fn a_minus_sign_moved_through_times_and_divide_is_the_same_solution(x in tree(), y in tree()) {
        if let Some(minus_y) = negated(&y).filter(|_| !y.value().is_zero()) {
            prop_assert_eq!(Ok(minus_y.value()), Num::ZERO.checked_sub(y.value()));
            let a = Expr::combine(Op::Sub, x.clone(), y.clone()).unwrap();
            let b = Expr::combine(Op::Add, x.clone(), minus_y.clone()).unwrap();
            prop_assert_eq!(a.canonical(), b.canonical(), "{} and {}", a, b);
            let a = Expr::combine(Op::Add, x.clone(), y.clone()).unwrap();
            let b = Expr::combine(Op::Sub, x, minus_y.clone()).unwrap();
            prop_assert_eq!(a.canonical(), b.canonical(), "{} and {}", a, b);
            prop_assert_ne!(y.canonical(), minus_y.canonical(), "{} and {}", y, minus_y);
        }
    }

    // Equal keys mean equal values: merging never joins two different numbers.
    #[test]
    fn expressions_with_one_canonical_form_have_one_value(x in tree(), y in tree()) {
        if x.canonical() == y.canonical() {
            prop_assert_eq!(x.value(), y.value(), "{} and {}", x, y);
        }
    }

    // The representative of a class shown is one with no negative intermediate whenever
    // the class has one: a listed solution through a negative number has no twin without.
    #[test]
    fn a_listed_solution_goes_through_a_negative_only_when_it_must(
        roll in prop::collection::vec(1i64..=20, 4),
        goal in 1i64..=30,
    ) {
        let p = Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(goal), OpSet::SCORE, false);
        for e in solutions(&p).iter().filter(|e| e.uses_negative()) {
            if let Expr::Node { op: op @ (Op::Add | Op::Sub), left, right, .. } = e {
                // Move the sign out of the right operand: x − (a − b)·c → x + (b − a)·c.
                if let Some(r) = negated(right) {
                    let flip = if *op == Op::Add { Op::Sub } else { Op::Add };
                    if let Ok(twin) = Expr::combine(flip, (**left).clone(), r) {
                        prop_assert!(twin.uses_negative(), "{} is listed, but {} has no negative step", e, twin);
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: config().cases / 50, ..config() })]

    // The listing's shortcuts (pools remembered as dead, a pool of three skipping results the
    // last number can't complete) change its speed only: the same solutions as the plain search.
    #[test]
    fn the_fast_listing_finds_what_the_plain_search_finds(
        roll in prop::collection::vec(1i64..=20, 3..=5),
        goal in -10i64..=40,
        ops in ops(),
        use_all in any::<bool>(),
    ) {
        let p = Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(goal), ops, use_all);
        prop_assert_eq!(listed(solutions(&p)), listed(score_engine::solve::solutions_unpruned(&p)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: config().cases / 50, ..config() })]

    // Five numbers part way through a round: fractions, negatives and red numbers among them.
    // The listing asks of its pools of four and five whether any part could make the goal at
    // all, by value; it must still find every solution the plain search finds.
    #[test]
    fn the_fast_listing_finds_what_the_plain_search_finds_from_any_pool(
        parts in prop::collection::vec((-6i64..=15, 1i64..=4, any::<bool>()), 5),
        goal in -10i64..=40,
        ops in ops(),
        use_all in any::<bool>(),
        whole_only in any::<bool>(),
    ) {
        let numbers = parts.iter().map(|&(n, d, _)| Num::ratio(n, d).unwrap()).collect();
        let mut p = Puzzle::new(numbers, Num::int(goal), ops, use_all);
        p.red = parts.iter().map(|&(_, _, red)| red).collect();
        p.whole_only = whole_only;
        prop_assert_eq!(listed(solutions(&p)), listed(score_engine::solve::solutions_unpruned(&p)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: config().cases / 200, ..config() })]

    // A worksheet rates each roll by listing once: the same difficulty and simplest solution
    // as asking `first_level` (or `has_first_level`) and `simplest` apart.
    #[test]
    fn a_roll_rated_once_is_rated_as_asked_apart(
        roll in prop::collection::vec(1i64..=20, 3..=5),
        goal in 0i64..=30,
        level in prop::option::of(1u8..=5),
        ops in ops(),
    ) {
        use score_engine::solve::{first_level, has_first_level, rated, simplest};
        let p = Puzzle::new(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(goal), ops, false);
        let apart = match level {
            Some(l) => has_first_level(&p, l).then_some(l),
            None => first_level(&p),
        }
        .and_then(|d| simplest(&p).map(|e| (d, e.to_string())));
        prop_assert_eq!(rated(&p, level).map(|(d, e)| (d, e.to_string())), apart);
    }
}
