//! The difficulty model and ratings from play, as the issue that asked for them measures them:
//! levels spread over the presets' rolls, a rater that answers as the model does, and ratings
//! that rank synthetic players and rolls of known ability and difficulty.

use proptest::prelude::*;
use score_engine::difficulty::{effort, rate, seconds_of, Levels, MAX_SECS, READ_SECS};
use score_engine::elo::{self, Ability};
use score_engine::practice::{roll_near, roll_of_difficulty, SplitMix64};
use score_engine::solve::{solutions, Puzzle, Rater};
use score_engine::{Preset, Rules};

/// Each preset's levels, as stored, are the ones measured over every distinct roll.
#[test]
fn the_presets_levels_are_measured_over_every_roll() {
    for preset in [Preset::Score, Preset::TwentyFour] {
        let rules = Rules::preset(preset);
        let (stored, measured) = (Levels::of(&rules), Levels::measure(&rules));
        for (a, b) in stored.cuts.iter().zip(&measured.cuts).chain([(&stored.median, &measured.median)]) {
            assert!((a - b).abs() < 0.006, "{preset:?}: stored {stored:?}, measured {measured:?}");
        }
    }
}

/// Each level holds 10 % to 35 % of a preset's solvable rolls (distinct rolls, the two d6 of
/// Score's dice unordered), and the levels rise with the rating.
#[test]
fn levels_are_spread_over_both_presets_and_rise_with_the_rating() {
    for preset in [Preset::Score, Preset::TwentyFour] {
        let rules = Rules::preset(preset);
        let levels = Levels::of(&rules);
        let mut counts = [0usize; 5];
        let mut rated = Vec::new();
        for (roll, _) in score_engine::roll::sorted_rolls(&rules.dice) {
            if let Some(r) = rate(&Puzzle::from_roll(&roll, &rules), &levels) {
                counts[usize::from(r.level) - 1] += 1;
                rated.push((r.seconds, r.level));
            }
        }
        let n = rated.len();
        let shares = counts.map(|c| c as f64 / n as f64);
        println!("{preset:?}: {n} solvable rolls; levels 1..5 hold {:?}", shares.map(|s| (s * 1000.0).round() / 10.0));
        assert!(shares.iter().all(|s| (0.10..=0.35).contains(s)), "{preset:?}: {shares:?}");
        rated.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(rated.windows(2).all(|w| w[0].1 <= w[1].1), "{preset:?}: a level falls as the rating rises");
    }
}

/// Famous rolls sit where people put them: 1 2 3 4 → 24 (1 × 2 × 3 × 4) is easy, 3 3 8 8 → 24
/// (8 ÷ (3 − 8 ÷ 3)) is among the hardest deals; 1 1 1 19 → 20 (one sum) is easy at Score.
#[test]
fn famous_rolls_sit_where_people_put_them() {
    let level =
        |rules: &Rules, roll: &[i64]| rate(&Puzzle::from_roll(roll, rules), &Levels::of(rules)).map(|r| r.level);
    let t = Rules::preset(Preset::TwentyFour);
    assert_eq!(level(&t, &[1, 2, 3, 4]), Some(1));
    assert_eq!(level(&t, &[3, 3, 8, 8]), Some(5));
    assert_eq!(level(&t, &[1, 5, 5, 5]), Some(5));
    assert_eq!(level(&t, &[1, 1, 1, 1]), None);
    assert!(level(&Rules::default(), &[1, 1, 2, 19]).is_some_and(|l| l <= 2));
}

/// A worksheet's rater answers as the model does alone: it only asks first whether the roll
/// has a solution at all, by subsets.
#[test]
fn a_rater_answers_as_the_model_does() {
    for rules in [
        Rules::default(),
        Rules::preset(Preset::TwentyFour),
        Rules { dice: vec![6; 4], goal: 0, ..Rules::default() },
        Rules { dice: vec![5; 5], goal: 4, ..Rules::default() },
        Rules { use_all: true, ..Rules::default() },
    ] {
        let levels = Levels::of(&rules);
        let mut rater = Rater::new(&rules);
        let mut rng = SplitMix64(11);
        for _ in 0..300 {
            let r = score_engine::roll::roll(&rules.dice, || rng.next_u32());
            let alone = rate(&Puzzle::from_roll(&r, &rules), &levels).map(|x| (x.level, x.simplest));
            assert_eq!(rater.rate(&r, None), alone, "{r:?}");
            for l in 1..=5 {
                assert_eq!(rater.rate(&r, Some(l)), alone.clone().filter(|x| x.0 == l), "{r:?} level {l}");
            }
        }
    }
}

/// Practice at a level deals rolls of that level; "At my level" deals rolls near the rating
/// asked, harder for a higher one.
#[test]
fn practice_deals_the_level_and_the_rating_asked() {
    for rules in [Rules::default(), Rules::preset(Preset::TwentyFour)] {
        let levels = Levels::of(&rules);
        let mut rng = SplitMix64(5);
        for l in 1..=5 {
            let r = roll_of_difficulty(&rules, l, || rng.next_u32()).unwrap();
            assert_eq!(rate(&Puzzle::from_roll(&r, &rules), &levels).map(|x| x.level), Some(l));
        }
        let mean = |seconds: f64, rng: &mut SplitMix64| {
            (0..20)
                .map(|_| {
                    let r = roll_near(&rules, seconds, |_| true, || rng.next_u32()).unwrap();
                    rate(&Puzzle::from_roll(&r, &rules), &levels).unwrap().seconds.ln()
                })
                .sum::<f64>()
                / 20.0
        };
        let (easy, hard) = (mean(levels.cuts[0], &mut rng), mean(levels.cuts[3], &mut rng));
        assert!(easy + 0.2 < hard, "{rules:?}: {easy} vs {hard}");
        assert!((easy - levels.cuts[0].ln()).abs() < 0.25, "{easy} for {}", levels.cuts[0]);
    }
}

proptest! {
    /// More ways to make the goal never make a roll harder; a rating stays within its bounds;
    /// every move costs at least one unit of effort.
    #[test]
    fn another_solution_never_makes_a_roll_harder(
        roll in prop::collection::vec(1i64..=20, 4),
        goal in 0i64..=30,
    ) {
        let rules = Rules { goal, ..Rules::default() };
        let all = solutions(&Puzzle::from_roll(&roll, &rules));
        if let Some(whole) = seconds_of(&all) {
            prop_assert!((READ_SECS..=MAX_SECS).contains(&whole));
            for i in 0..all.len() {
                let mut fewer = all.clone();
                fewer.remove(i);
                if let Some(less) = seconds_of(&fewer) {
                    prop_assert!(less >= whole);
                }
            }
            for e in &all {
                prop_assert!(effort(e) >= e.moves() as f64);
            }
        } else {
            prop_assert!(all.is_empty());
        }
    }
}

/// Spearman's rank correlation of two lists.
fn rank_correlation(a: &[f64], b: &[f64]) -> f64 {
    let ranks = |v: &[f64]| {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
        let mut r = vec![0.0; v.len()];
        for (rank, i) in idx.into_iter().enumerate() {
            r[i] = rank as f64;
        }
        r
    };
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let mean = (n - 1.0) / 2.0;
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - mean) * (y - mean)).sum();
    let var: f64 = ra.iter().map(|x| (x - mean).powi(2)).sum();
    cov / var
}

/// Synthetic players of known ability meet rolls of known difficulty, each answer drawn from
/// the model the ratings assume (a score whose density is e^(Δ·s) on [−1, 1], turned into made
/// or failed and seconds). Everyone starts at 0; after `N` answers each, the ratings rank
/// the players and the rolls as their true values do.
#[test]
fn ratings_from_play_rank_players_and_rolls() {
    const PLAYERS: usize = 60;
    const ROLLS: usize = 120;
    let mut rng = SplitMix64(2026);
    let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let truth_p: Vec<f64> = (0..PLAYERS).map(|_| unit() * 4.0 - 2.0).collect();
    let truth_r: Vec<f64> = (0..ROLLS).map(|_| unit() * 4.0 - 2.0).collect();
    let mut players = vec![Ability::default(); PLAYERS];
    let mut rolls = vec![Ability::default(); ROLLS];
    for n in [30usize, 60, 100] {
        let answers_so_far = players[0].answers as usize;
        for _ in answers_so_far..n {
            for p in 0..PLAYERS {
                let r = (unit() * ROLLS as f64) as usize % ROLLS;
                let d = truth_p[p] - truth_r[r];
                // Inverse of the distribution function of density ∝ e^(d·s) on [−1, 1].
                let u = unit();
                let s = if d.abs() < 1e-9 { 2.0 * u - 1.0 } else { ((-d).exp() + u * (d.exp() - (-d).exp())).ln() / d };
                let secs = (1.0 - s.abs()) * 20.0;
                elo::update(&mut players[p], &mut rolls[r], s > 0.0, secs, 20.0);
            }
        }
        let rp = rank_correlation(&truth_p, &players.iter().map(|a| a.rating).collect::<Vec<_>>());
        let rr = rank_correlation(&truth_r, &rolls.iter().map(|a| a.rating).collect::<Vec<_>>());
        println!("after {n} answers a player ({} a roll): players {rp:.3}, rolls {rr:.3}", n * PLAYERS / ROLLS);
        if n == 100 {
            assert!(rp >= 0.9 && rr >= 0.9, "players {rp}, rolls {rr}");
        }
    }
}
