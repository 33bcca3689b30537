//! Engine benchmarks: `cargo bench -p score-engine`.
//!
//! - the impossible table for the default dice (2,359 rolls), and for five d20 (42,504), as
//!   the CLI lists them (the default table on one thread, five d20 on every core) and on one
//!   thread (as the browser's worker does);
//! - a six-number roll with no solution (2 3 5 7 11 13 → 999983), fast answer and full search;
//! - every distinct solution of 97 89 83 79 73 71 → 9999, and a 50-roll level-5 worksheet;
//! - all 1,820 deals of the 24 game;
//! - the full distinct-solution list of the default dice's roll with the most solutions;
//! - exact arithmetic: the own `Num` against `num_rational::Ratio<i64>` on
//!   the same fold of checked operations the solver performs.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use num_rational::Ratio;
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub};
use score_engine::roll::sorted_rolls;
use score_engine::solve::{impossible_rolls, impossible_rolls_on, is_solvable, search_solvable, solutions, Puzzle};
use score_engine::{Num, OpSet, Preset, Rules};

/// The roll with the most distinct solutions (the first of them, in roll order): a long
/// list to find, and the same roll on every run and every commit, so runs compare.
fn longest_list_roll(rules: &Rules) -> Vec<i64> {
    let mut most = (0, Vec::new());
    for (roll, _) in sorted_rolls(&rules.dice) {
        let n = solutions(&Puzzle::from_roll(&roll, rules)).len();
        if n > most.0 {
            most = (n, roll);
        }
    }
    most.1
}

fn arithmetic_inputs() -> Vec<(i64, i64)> {
    (1..=20).flat_map(|a| (1..=20).map(move |b| (a, b))).collect()
}

fn benches(c: &mut Criterion) {
    let score = Rules::preset(Preset::Score);
    let twenty_four = Rules::preset(Preset::TwentyFour);
    c.bench_function("impossible_table_default_dice", |b| b.iter(|| impossible_rolls(black_box(&score))));
    c.bench_function("impossible_table_default_dice_one_thread", |b| {
        b.iter(|| impossible_rolls_on(black_box(&score), 1))
    });
    let mut slow = c.benchmark_group("large");
    slow.sample_size(10);
    let five_d20 = Rules { dice: vec![20; 5], ..Rules::default() };
    slow.bench_function("impossible_table_5d20", |b| b.iter(|| impossible_rolls(black_box(&five_d20))));
    slow.bench_function("impossible_table_5d20_one_thread", |b| {
        b.iter(|| impossible_rolls_on(black_box(&five_d20), 1))
    });
    let six = Puzzle::new([2, 3, 5, 7, 11, 13].map(Num::int).to_vec(), Num::int(999_983), OpSet::SCORE, false);
    slow.bench_function("six_numbers_no_solution_fast", |b| b.iter(|| is_solvable(black_box(&six))));
    slow.bench_function("six_numbers_no_solution_search", |b| b.iter(|| search_solvable(black_box(&six))));
    slow.bench_function("six_numbers_no_solution_hint", |b| b.iter(|| score_engine::solve::hint(black_box(&six))));
    // Experiment's hardest common case: every distinct solution of six two-digit primes.
    let primes = Puzzle::new([97, 89, 83, 79, 73, 71].map(Num::int).to_vec(), Num::int(9999), OpSet::SCORE, false);
    slow.bench_function("six_numbers_solutions_9999", |b| b.iter(|| solutions(black_box(&primes))));
    // A teacher's hardest sheet: 50 rolls of difficulty 5 (most rolls drawn are ruled out).
    slow.bench_function("worksheet_50_of_difficulty_5", |b| {
        b.iter(|| {
            let mut rng = score_engine::practice::SplitMix64(1);
            score_engine::practice::worksheet(black_box(&score), 50, Some(5), || rng.next_u32())
        })
    });
    slow.finish();
    let deals: Vec<Vec<i64>> = sorted_rolls(&twenty_four.dice).into_iter().map(|r| r.0).collect();
    c.bench_function("all_1820_deals_of_24", |b| {
        b.iter(|| deals.iter().filter(|d| is_solvable(&Puzzle::from_roll(d, &twenty_four))).count())
    });
    let slow = longest_list_roll(&score);
    println!("roll with the longest solution list: {slow:?}");
    let p = Puzzle::from_roll(&slow, &score);
    c.bench_function("solutions_of_longest_list", |b| b.iter(|| solutions(black_box(&p))));

    let inputs = arithmetic_inputs();
    c.bench_function("arith_own_num", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for &(x, y) in &inputs {
                let (a, b) = (Num::int(x), Num::int(y));
                for r in [
                    a.checked_add(b).ok(),
                    a.checked_sub(b).ok(),
                    a.checked_mul(b).ok(),
                    a.checked_div(b).and_then(Result::ok),
                ] {
                    let r = r
                        .and_then(|r| r.checked_div(Num::int(7)).and_then(Result::ok))
                        .and_then(|r| r.checked_add(Num::ONE).ok());
                    acc += r.map_or(0, |r| r.numer());
                }
            }
            black_box(acc)
        })
    });
    c.bench_function("arith_num_rational", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for &(x, y) in &inputs {
                let (a, b) = (Ratio::from_integer(x), Ratio::from_integer(y));
                let seven = Ratio::from_integer(7i64);
                let one = Ratio::from_integer(1i64);
                for r in [a.checked_add(&b), a.checked_sub(&b), a.checked_mul(&b), a.checked_div(&b)] {
                    let r = r.and_then(|r| r.checked_div(&seven)).and_then(|r| r.checked_add(&one));
                    acc += r.map_or(0, |r| *r.numer());
                }
            }
            black_box(acc)
        })
    });
}

criterion_group!(engine, benches);
criterion_main!(engine);
