//! The facts every implementation must reproduce (RULES.md §7).

use score_engine::solve::{impossible_rolls, is_solvable, needs_fraction, solutions, Puzzle};
use score_engine::{Num, OpSet, Preset, Rules};

fn score_rules() -> Rules {
    Rules::preset(Preset::Score)
}

fn solvable(roll: &[i64], rules: &Rules) -> bool {
    is_solvable(&Puzzle::from_roll(roll, rules))
}

/// RULES.md §6–7 and the seed's IMPOSSIBLES appendix: 104 impossible of 2,359 sorted rolls.
#[test]
fn default_dice_have_104_impossible_rolls_of_2359() {
    let table = impossible_rolls(&score_rules()).unwrap();
    assert_eq!(table.rolls, 2359);
    assert_eq!(table.impossible.len(), 104);
    for roll in [[1, 1, 1, 4], [3, 3, 3, 3], [6, 6, 6, 6]] {
        assert!(table.impossible.contains(&roll.to_vec()), "{roll:?}");
    }
    assert!(!table.impossible.contains(&vec![2, 5, 12, 12]));
    assert!(table.impossible.iter().all(|r| r.windows(2).all(|w| w[0] <= w[1])));
    assert!(table.probability() > 0.0 && table.probability() < 0.05);
}

/// Five d20 → 20 by the subset answer: 39 impossible of 42,504 rolls, each confirmed by the
/// move-by-move search (the browser's listing must show the same).
#[test]
fn five_d20_have_39_impossible_rolls_each_confirmed_by_the_search() {
    let rules = Rules { dice: vec![20; 5], ..score_rules() };
    let table = impossible_rolls(&rules).unwrap();
    assert_eq!((table.rolls, table.impossible.len()), (42_504, 39));
    assert_eq!(table.impossible[..2], [vec![1, 11, 11, 11, 15], vec![4, 11, 11, 11, 11]]);
    for roll in &table.impossible {
        assert!(!score_engine::solve::search_solvable(&Puzzle::from_roll(roll, &rules)), "{roll:?}");
    }
}

/// RULES.md §7: 2 5 12 12 is solvable; 9 9 9 9 → 9‖9 ÷ 9 + 9.
#[test]
fn named_rolls() {
    let r = score_rules();
    assert!(solvable(&[2, 5, 12, 12], &r));
    assert!(solvable(&[9, 9, 9, 9], &r));
    assert!(!solvable(&[1, 1, 1, 4], &r));
    assert!(!solvable(&[6, 6, 6, 6], &r));
}

/// RULES.md §2: 4 ÷ 5 → 1 − 4/5 → 4 ÷ (1/5) is exactly 20 (floats miss it).
#[test]
fn fraction_route_to_twenty_is_exact() {
    let p =
        Puzzle::new(vec![Num::int(4), Num::int(5), Num::int(1), Num::int(4)], Num::int(20), score_rules().ops, true);
    let texts: Vec<String> = solutions(&p).iter().map(ToString::to_string).collect();
    assert!(texts.iter().any(|t| t == "4 ÷ (1 − 4 ÷ 5)"), "{texts:?}");
}

fn twenty_four_count(max: u32) -> (u64, usize) {
    let rules = Rules { dice: vec![max; 4], ..Rules::preset(Preset::TwentyFour) };
    let table = impossible_rolls(&rules).unwrap();
    (table.rolls, table.rolls as usize - table.impossible.len())
}

/// RULES.md §7, from the 4nums.com statistics of the 24 game.
#[test]
fn twenty_four_solvable_deal_counts() {
    assert_eq!(twenty_four_count(13), (1820, 1362));
    assert_eq!(twenty_four_count(10), (715, 566));
    assert_eq!(twenty_four_count(9), (495, 404));
}

/// RULES.md §7: sixteen 1..13 deals need a fraction on the way (3 3 8 8: 8 ÷ (3 − 8 ÷ 3)).
#[test]
fn sixteen_twenty_four_deals_need_a_fraction() {
    let rules = Rules::preset(Preset::TwentyFour);
    let mut need = Vec::new();
    for (deal, _) in score_engine::roll::sorted_rolls(&rules.dice) {
        if needs_fraction(&Puzzle::from_roll(&deal, &rules)) {
            need.push(deal);
        }
    }
    assert_eq!(need.len(), 16, "{need:?}");
    for deal in [[3, 3, 8, 8], [1, 5, 5, 5], [3, 3, 7, 7], [4, 4, 7, 7]] {
        assert!(need.contains(&deal.to_vec()), "{deal:?}");
    }
    let p = Puzzle::from_roll(&[3, 3, 8, 8], &rules);
    assert_eq!(solutions(&p)[0].to_string(), "8 ÷ (3 − 8 ÷ 3)");
}

/// Five and six dice: the memo of failed pools must not change answers.
#[test]
fn larger_pools_agree_with_the_solution_list() {
    let rules = Rules::default();
    for roll in [[1, 1, 1, 1, 1].as_slice(), &[1, 1, 1, 1, 2], &[6, 6, 6, 6, 6], &[1, 1, 1, 1, 1, 1]] {
        let p = Puzzle::from_roll(roll, &rules);
        assert_eq!(is_solvable(&p), !solutions(&p).is_empty(), "{roll:?}");
    }
}

/// Five and six numbers: the subset shortcut agrees with the move-by-move search on whole
/// tables (every roll of five d6, and of six d4, for several goals and both operator sets).
#[test]
fn fast_and_full_search_agree_on_five_and_six_dice() {
    for (dice, goals) in [(vec![6u32; 5], [20i64, 97, 0, -7]), (vec![4u32; 6], [20, 251, 1, -30])] {
        for goal in goals {
            for ops in [OpSet::SCORE, OpSet::ARITHMETIC] {
                let rules = Rules { dice: dice.clone(), goal, ops, ..Rules::default() };
                for (roll, _) in score_engine::roll::sorted_rolls(&rules.dice) {
                    let p = Puzzle::from_roll(&roll, &rules);
                    assert_eq!(is_solvable(&p), score_engine::solve::search_solvable(&p), "{roll:?} → {goal}");
                    let all = Puzzle { use_all: true, ..p };
                    assert_eq!(is_solvable(&all), score_engine::solve::search_solvable(&all), "{roll:?} → {goal}, all");
                }
            }
        }
    }
}

/// A table shares what it learns of pairs and triples across its rolls (the goal each triple
/// makes, their values): the table must equal the search asked of each roll on its own.
#[test]
fn whole_tables_agree_with_the_search_roll_by_roll() {
    for (goal, ops, use_all) in [
        (24, OpSet::SCORE, false),
        (0, OpSet::SCORE, false),
        (37, OpSet::ARITHMETIC, false),
        (-5, OpSet::SCORE, true),
        (120, OpSet::SCORE, false),
    ] {
        let rules = Rules { goal, ops, use_all, ..score_rules() };
        let table = impossible_rolls(&rules).unwrap();
        let (search, ways): (Vec<Vec<i64>>, Vec<u64>) = score_engine::roll::sorted_rolls(&rules.dice)
            .into_iter()
            .filter(|(roll, _)| !score_engine::solve::search_solvable(&Puzzle::from_roll(roll, &rules)))
            .unzip();
        assert_eq!(table.impossible, search, "goal {goal}");
        assert_eq!(table.impossible_outcomes, ways.iter().sum::<u64>(), "goal {goal}");
        assert!(!search.is_empty() && search.len() < 2359, "goal {goal}: a test that can tell");
    }
}

/// Shared among threads, a table is the same as listed on one thread, in the same order.
#[test]
fn tables_on_several_threads_equal_the_table_on_one() {
    use score_engine::solve::{impossible_rolls_on, impossible_rolls_reporting};
    for rules in
        [score_rules(), Rules::preset(Preset::TwentyFour), Rules { dice: vec![20; 4], goal: 37, ..score_rules() }]
    {
        let one = impossible_rolls_reporting(&rules, u64::MAX, |_, _| {}).unwrap();
        assert!(one.rolls >= 1000 && !one.impossible.is_empty(), "{:?}: a table big enough to share", rules.dice);
        for threads in [2, 3, 7] {
            assert_eq!(impossible_rolls_on(&rules, threads).unwrap(), one, "{:?} on {threads} threads", rules.dice);
        }
    }
}

/// The subset shortcut and the move-by-move search agree on every roll of both presets.
#[test]
fn fast_and_full_search_agree_on_every_preset_roll() {
    for rules in [score_rules(), Rules::preset(Preset::TwentyFour)] {
        for (roll, _) in score_engine::roll::sorted_rolls(&rules.dice) {
            let p = Puzzle::from_roll(&roll, &rules);
            assert_eq!(is_solvable(&p), score_engine::solve::search_solvable(&p), "{roll:?}");
            let whole = Puzzle { whole_only: true, ..p };
            assert_eq!(is_solvable(&whole), score_engine::solve::search_solvable(&whole), "{roll:?} whole");
        }
    }
}

/// Pins the distinct-solution counts of five and six numbers as the plain move-by-move search
/// found them before pools that lead nowhere were remembered: the memo must change speed only.
#[test]
fn remembering_dead_pools_keeps_every_solution() {
    let n = |v: &[i64]| v.iter().map(|&x| Num::int(x)).collect::<Vec<_>>();
    let ops = score_rules().ops;
    // 232 and 11 before a minus sign moved through × and ÷ or out of a join made one
    // solution: 21 and 2 such pairs merged, each checked by hand (5 − (1 − 4) × (2 + 3) is
    // (2 + 3) × (4 − 1) + 5; 1 + 4 − (2 − 3)‖5 is (3 − 2)‖5 + 1 + 4; 7 − (13 − 511)‖3 × 2
    // is (511 − 13)‖3 × 2 + 7).
    assert_eq!(solutions(&Puzzle::new(n(&[1, 2, 3, 4, 5]), Num::int(20), ops, false)).len(), 211);
    assert_eq!(solutions(&Puzzle::new(n(&[2, 3, 5, 7, 11, 13]), Num::int(9973), ops, false)).len(), 9);
    assert!(solutions(&Puzzle::new(n(&[1, 1, 1, 1, 1, 1]), Num::int(9973), ops, false)).is_empty());
}

/// docs/RULES.md §6: a minus sign moved through × or ÷ makes no new solution. 1 2 3 17 → 20
/// listed 17, four of them twins with the sign moved (17 − (1 − 2) × 3 is (2 − 1) × 3 + 17);
/// each is shown in its form with no negative step.
#[test]
fn a_minus_sign_moved_through_times_or_divide_is_not_a_new_solution() {
    let list = solutions(&Puzzle::from_roll(&[1, 2, 3, 17], &score_rules()));
    let text: Vec<String> = list.iter().map(ToString::to_string).collect();
    assert_eq!(list.len(), 13, "{text:?}");
    for twin in ["(2 − 1) × 3 + 17", "3 ÷ (2 − 1) + 17", "(2 − 1) × 17 + 3", "17 ÷ (2 − 1) + 3"] {
        assert!(text.iter().any(|t| t == twin), "{twin} not in {text:?}");
    }
    assert!(list.iter().all(|e| !e.uses_negative()), "{text:?}");
}

/// Practice and worksheets ask `has_first_level`, which stops listing as soon as it can tell:
/// over every default roll and every level it answers as `first_level` does.
#[test]
fn asking_for_one_level_answers_as_the_full_difficulty_does() {
    let rules = score_rules();
    for (roll, _) in score_engine::roll::sorted_rolls(&rules.dice) {
        let p = Puzzle::from_roll(&roll, &rules);
        let d = score_engine::solve::first_level(&p);
        for level in 1..=5 {
            assert_eq!(score_engine::solve::has_first_level(&p, level), d == Some(level), "{roll:?} level {level}");
        }
    }
}

/// A worksheet's rater by the first model answers roll after roll as `rated` answers each alone: it keeps what
/// earlier rolls taught it, and rules a roll out of a level without listing when enough sets
/// of its dice make the goal. Every roll of both presets, every level, unsorted too; and dice
/// whose goal a set can pass through on the way to a bigger set (−3 from 4 10 10 9 is made by
/// 10 − 4 − 9 and, through it, by 9 ÷ (10 − 4 − 9), which is no solution of its own), five
/// dice, and all dice used.
#[test]
fn a_rater_rates_every_roll_as_rated_does() {
    use score_engine::solve::{rated, Rater};
    for rules in [
        score_rules(),
        Rules::preset(Preset::TwentyFour),
        Rules { dice: vec![10; 4], goal: -3, ..score_rules() },
        Rules { dice: vec![6; 4], goal: 0, ..score_rules() },
        Rules { dice: vec![5; 5], goal: 4, ..score_rules() },
        Rules { use_all: true, ..score_rules() },
    ] {
        let mut rater = Rater::first_model(&rules);
        for (roll, _) in score_engine::roll::sorted_rolls(&rules.dice) {
            let mut shuffled = roll.clone();
            shuffled.rotate_left(1);
            for r in [roll, shuffled] {
                let p = Puzzle::from_roll(&r, &rules);
                for level in [None, Some(1), Some(2), Some(3), Some(4), Some(5)] {
                    assert_eq!(rater.rate(&r, level), rated(&p, level), "{r:?} level {level:?}");
                }
            }
        }
    }
}
