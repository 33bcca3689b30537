//! Every row of docs/RULES.md §4 (solitaire) and §5 (pass-and-play) as a named test.

use score_engine::round::{Award, Input, Phase, Reason, Round};
use score_engine::Rules;

const S: u64 = 1000;

fn solo(solvable: bool) -> Round {
    Round::solitaire(&Rules::default(), solvable)
}

fn points(awards: &[Award]) -> Vec<(usize, i32)> {
    awards.iter().map(|a| (a.player, a.points)).collect()
}

fn total(awards: &[Award], player: usize) -> i32 {
    awards.iter().filter(|a| a.player == player).map(|a| a.points).sum()
}

#[test]
fn score_then_goal_in_time_gains_one() {
    let mut r = solo(true);
    r.apply(Input::Score(0), 0).unwrap();
    let a = r.apply(Input::GoalMade { moves: 2 }, 29 * S).unwrap();
    assert_eq!(a, [Award { player: 0, points: 1, reason: Reason::Made { moves: 2 } }]);
    assert_eq!(r.phase(), Phase::Over);
}

#[test]
fn score_clock_running_out_costs_one() {
    let mut r = solo(true);
    r.apply(Input::Score(0), 0).unwrap();
    assert!(r.apply(Input::Tick, 29_999).unwrap().is_empty());
    let a = r.apply(Input::Tick, 30 * S).unwrap();
    assert_eq!(a, [Award { player: 0, points: -1, reason: Reason::TimeUp }]);
}

#[test]
fn giving_up_a_score_costs_one() {
    let mut r = solo(true);
    r.apply(Input::Score(0), 0).unwrap();
    assert_eq!(points(&r.apply(Input::GiveUp, 5 * S).unwrap()), [(0, -1)]);
}

#[test]
fn impossible_claim_on_impossible_roll_gains_one_when_clock_runs_out() {
    let mut r = solo(false);
    r.apply(Input::Impossible(0), 0).unwrap();
    assert!(r.tick(59 * S).is_empty());
    let a = r.tick(60 * S);
    assert_eq!(a, [Award { player: 0, points: 1, reason: Reason::TrulyImpossible }]);
}

#[test]
fn impossible_claim_revealed_now_is_judged_at_once() {
    let mut r = solo(false);
    r.apply(Input::Impossible(0), 0).unwrap();
    assert_eq!(points(&r.apply(Input::RevealNow, S).unwrap()), [(0, 1)]);
}

#[test]
fn impossible_claim_on_solvable_roll_costs_two() {
    let mut r = solo(true);
    r.apply(Input::Impossible(0), 0).unwrap();
    let a = r.apply(Input::RevealNow, 10 * S).unwrap();
    assert_eq!(a, [Award { player: 0, points: -2, reason: Reason::HadSolution }]);
}

#[test]
fn impossible_then_score_made_in_time_nets_minus_one() {
    let mut r = solo(true);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(0), 20 * S).unwrap();
    // The SCORE clock has its own 30 s, even past the IMPOSSIBLE deadline.
    let a = r.apply(Input::GoalMade { moves: 3 }, 49 * S).unwrap();
    assert_eq!(total(&a, 0), -1);
    assert_eq!(points(&a), [(0, 1), (0, -2)]);
}

#[test]
fn impossible_then_failed_score_costs_one_and_judges_the_claim() {
    let mut r = solo(false);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(0), 10 * S).unwrap();
    let a = r.tick(40 * S);
    assert_eq!(
        a,
        [
            Award { player: 0, points: -1, reason: Reason::TimeUp },
            Award { player: 0, points: 1, reason: Reason::TrulyImpossible },
        ]
    );
    let mut r = solo(true);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(0), 10 * S).unwrap();
    assert_eq!(points(&r.apply(Input::GiveUp, 11 * S).unwrap()), [(0, -1), (0, -2)]);
}

#[test]
fn goal_made_with_no_clock_is_free_practice() {
    let mut r = solo(true);
    let a = r.apply(Input::GoalMade { moves: 2 }, 0).unwrap();
    assert_eq!(a, [Award { player: 0, points: 0, reason: Reason::FreePractice }]);
}

#[test]
fn new_roll_during_score_counts_as_failed() {
    let mut r = solo(true);
    r.apply(Input::Score(0), 0).unwrap();
    let a = r.apply(Input::Abandon, S).unwrap();
    assert_eq!(a, [Award { player: 0, points: -1, reason: Reason::Abandoned }]);
}

#[test]
fn new_roll_during_impossible_judges_the_claim() {
    let mut r = solo(true);
    r.apply(Input::Impossible(0), 0).unwrap();
    assert_eq!(points(&r.apply(Input::Abandon, S).unwrap()), [(0, -2)]);
    let mut r = solo(false);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(0), S).unwrap();
    assert_eq!(points(&r.apply(Input::Abandon, 2 * S).unwrap()), [(0, -1), (0, 1)]);
}

#[test]
fn expired_claim_is_settled_by_the_first_call_after_reload() {
    let mut r = solo(true);
    r.apply(Input::Score(0), 0).unwrap();
    let stored = serde_json::to_string(&r).unwrap();
    let mut reloaded: Round = serde_json::from_str(&stored).unwrap();
    // The page comes back two minutes later: the claim cannot be escaped.
    let a = reloaded.apply(Input::Tick, 120 * S).unwrap();
    assert_eq!(points(&a), [(0, -1)]);
}

#[test]
fn strict_mode_forbids_undo_under_score_and_fails_when_numbers_run_out() {
    let rules = Rules { strict: true, ..Rules::default() };
    let mut r = Round::solitaire(&rules, true);
    assert!(r.undo_allowed());
    r.apply(Input::Score(0), 0).unwrap();
    assert!(!r.undo_allowed());
    assert_eq!(points(&r.apply(Input::Exhausted, S).unwrap()), [(0, -1)]);
    let mut lax = solo(true);
    lax.apply(Input::Score(0), 0).unwrap();
    assert!(lax.undo_allowed());
    assert!(lax.apply(Input::Exhausted, S).unwrap().is_empty());
}

#[test]
fn clock_lengths_follow_the_rules() {
    let rules = Rules { score_secs: 90, impossible_secs: 120, ..Rules::default() };
    let mut r = Round::solitaire(&rules, true);
    r.apply(Input::Score(0), 0).unwrap();
    assert_eq!(r.remaining_ms(0), Some(90 * S));
}

// docs/RULES.md §5: pass-and-play.

fn group(judging: bool, solvable: bool) -> Round {
    Round::new(3, &Rules::default(), solvable, judging)
}

#[test]
fn any_player_may_score() {
    let mut r = group(true, true);
    r.apply(Input::Score(2), 0).unwrap();
    assert_eq!(points(&r.apply(Input::GoalMade { moves: 2 }, S).unwrap()), [(2, 1)]);
    let mut r = group(true, true);
    r.apply(Input::Score(1), 0).unwrap();
    assert_eq!(points(&r.tick(30 * S)), [(1, -1)]);
}

#[test]
fn group_impossible_unanswered_is_judged_by_the_computer() {
    let mut r = group(true, false);
    r.apply(Input::Impossible(1), 0).unwrap();
    assert_eq!(points(&r.tick(60 * S)), [(1, 1)]);
    let mut r = group(true, true);
    r.apply(Input::Impossible(1), 0).unwrap();
    assert_eq!(points(&r.tick(60 * S)), [(1, -2)]);
}

#[test]
fn group_impossible_without_judging_pays_when_nobody_scores() {
    let mut r = group(false, true);
    r.apply(Input::Impossible(1), 0).unwrap();
    let a = r.tick(60 * S);
    assert_eq!(a, [Award { player: 1, points: 1, reason: Reason::NobodyScored }]);
}

#[test]
fn another_players_score_beats_the_claim() {
    let mut r = group(true, true);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(2), 10 * S).unwrap();
    let a = r.apply(Input::GoalMade { moves: 2 }, 20 * S).unwrap();
    assert_eq!(
        a,
        [
            Award { player: 2, points: 1, reason: Reason::Made { moves: 2 } },
            Award { player: 0, points: -2, reason: Reason::ClaimBeaten { by: 2 } },
        ]
    );
}

#[test]
fn claimer_who_scores_nets_minus_one() {
    let mut r = group(true, true);
    r.apply(Input::Impossible(1), 0).unwrap();
    r.apply(Input::Score(1), S).unwrap();
    let a = r.apply(Input::GoalMade { moves: 2 }, 2 * S).unwrap();
    assert_eq!(total(&a, 1), -1);
}

#[test]
fn another_players_failed_score_hands_the_clock_back_to_the_claimer() {
    let mut r = group(true, false);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(1), 10 * S).unwrap();
    assert_eq!(points(&r.apply(Input::GiveUp, 20 * S).unwrap()), [(1, -1)]);
    assert!(matches!(r.phase(), Phase::Impossible(_)));
    assert_eq!(points(&r.tick(60 * S)), [(0, 1)]);
    // If the claim's own clock ran out during the SCORE, it is judged with the failure.
    let mut r = group(true, false);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(1), 50 * S).unwrap();
    assert_eq!(points(&r.tick(80 * S)), [(1, -1), (0, 1)]);
}

// Pins a bug: with judging off, a claimer's IMPOSSIBLE, then their own SCORE given up, was
// −1 and +1 "nobody found one" at once: the roll ended for everyone, early, at no cost.
#[test]
fn at_a_table_of_several_the_claimers_own_failed_score_hands_their_clock_back() {
    let mut r = group(false, false);
    r.apply(Input::Impossible(0), 0).unwrap();
    r.apply(Input::Score(0), 10 * S).unwrap();
    assert_eq!(points(&r.apply(Input::GiveUp, 11 * S).unwrap()), [(0, -1)]);
    assert!(matches!(r.phase(), Phase::Impossible(_)), "the claim runs on to its deadline");
    assert_eq!(points(&r.tick(60 * S)), [(0, 1)]);
}

#[test]
fn a_hint_makes_the_roll_practice() {
    let mut r = solo(true);
    let a = r.apply(Input::Hint, 0).unwrap();
    assert_eq!(a, [Award { player: 0, points: 0, reason: Reason::HintUsed }]);
    assert_eq!(r.apply(Input::Score(0), 1), Err(score_engine::RoundError::Over));
    let mut r = solo(true);
    r.apply(Input::Score(0), 0).unwrap();
    assert_eq!(r.apply(Input::Hint, 1), Err(score_engine::RoundError::NoHintNow));
}
