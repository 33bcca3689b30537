//! Fair play as noninterference (docs/RULES.md §6): until a roll is settled, or the player
//! asks, nothing the page shows or stores may depend on whether the roll can be made.
//!
//! Each case deals one roll twice, on two tables that differ only in the solver's verdict
//! (one is told the roll can be made, the other that it can't), and plays the same random
//! sequence of actions on both: moves, undo, clear, claims, Reveal now, Give up, time
//! passing, reloads (the game stored and read back, as a page does), a hint, Show
//! solutions. After every action, everything observable of the two tables but the verdict
//! itself must be equal: the claim bar (buttons, clock, results), what a screen reader
//! hears, the refusal, the hint, what a new roll would cost, and every byte written to
//! storage (the player's rating among it). Both settle at the same moment; from then on they may differ (that is the
//! verdict, earned). A player who asked is on practice: 0 points.
//!
//! `FAIR_PLAY_CASES` sets the number of cases (default 10,000).

use crate::game::{DailyLog, Game, Saved, Source};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use score_engine::{Op, Rules, Stats};
use score_i18n::Catalog;

#[derive(Debug, Clone)]
enum Step {
    Tap(usize),
    Op(usize),
    Score,
    Impossible,
    Reveal,
    GiveUp,
    Undo,
    Clear,
    Hint,
    ShowSolutions,
    Wait(u64),
    Reload,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..8usize).prop_map(Step::Tap),
        4 => (0..5usize).prop_map(Step::Op),
        2 => Just(Step::Score),
        2 => Just(Step::Impossible),
        1 => Just(Step::Reveal),
        1 => Just(Step::GiveUp),
        1 => Just(Step::Undo),
        1 => Just(Step::Clear),
        1 => Just(Step::Hint),
        1 => Just(Step::ShowSolutions),
        2 => (0..40_000u64).prop_map(Step::Wait),
        2 => Just(Step::Reload),
    ]
}

#[derive(Debug, Clone, Copy)]
enum Dealt {
    Dice,
    Level(u8),
    Typed,
    Link,
    Daily(i64),
}

fn dealt() -> impl Strategy<Value = Dealt> {
    prop_oneof![
        3 => Just(Dealt::Dice),
        1 => (1..=6u8).prop_map(Dealt::Level),
        1 => Just(Dealt::Typed),
        1 => Just(Dealt::Link),
        1 => (20_000..20_100i64).prop_map(Dealt::Daily),
    ]
}

/// Everything a player can see or a page stores of `g`, but the verdict itself.
fn observed(g: &Game, words: &Catalog) -> String {
    let tiles: Vec<String> = g.board.tiles().iter().map(|t| format!("{}:{}", t.id.0, t.value)).collect();
    [
        format!("{:?}", g.claims(words)),
        g.announcement_in(words),
        format!("{:?}", g.message_in(words)),
        format!("{:?}", g.hint_in(words)),
        format!("{:?}", g.new_roll_costs()),
        format!("{:?} {:?} {:?}", g.practice, g.level, g.solutions_shown),
        tiles.join(" "),
        serde_json::to_string(&g.saved()).expect("a game is stored"),
        serde_json::to_string(&g.stats).expect("stats are stored"),
        serde_json::to_string(&g.daily_log).expect("the log is stored"),
    ]
    .join("\n")
}

/// A table dealt `roll` from `dealt`, told that its roll can be made or not.
fn table(rules: &Rules, roll: &[i64], dealt: Dealt, verdict: bool) -> Game {
    let mut g = Game::new(rules.clone(), vec![1; rules.dice.len()], Stats::new());
    let source = match dealt {
        Dealt::Dice => Source::Dice,
        Dealt::Level(l) => Source::Level(l),
        Dealt::Typed => Source::Typed,
        Dealt::Link => Source::Link,
        Dealt::Daily(day) => Source::Daily(day),
    };
    // Dealt at 1 ms: a roll dealt at a known time moves the player's rating once settled.
    g.deal(rules.clone(), roll.to_vec(), source, 1);
    g.round.set_verdict(verdict);
    g
}

fn play(g: &mut Game, s: &Step, now: &mut u64, verdict: bool) {
    let t = *now;
    match *s {
        Step::Tap(i) => {
            if let Some(tile) = g.board.tiles().get(i % g.board.tiles().len().max(1)) {
                let id = tile.id;
                g.tap_tile(id, t);
            }
        }
        Step::Op(i) => g.place_op(Op::ALL[i % Op::ALL.len()], t),
        Step::Score => g.press_score(0, t),
        Step::Impossible => g.press_impossible(0, t),
        Step::Reveal => g.reveal(t),
        Step::GiveUp => g.give_up(t),
        Step::Undo => g.undo(),
        Step::Clear => g.clear(),
        Step::Hint => g.show_hint(t),
        Step::ShowSolutions => {
            let _ = g.show_solutions(t);
        }
        Step::Wait(ms) => {
            *now += ms;
            g.tick(*now);
        }
        Step::Reload => {
            let text = serde_json::to_string(&g.saved()).expect("a game is stored");
            let saved: Saved = serde_json::from_str(&text).expect("and read back");
            let log: DailyLog =
                serde_json::from_str(&serde_json::to_string(&g.daily_log).expect("stored")).expect("read back");
            let mut back = Game::restore(g.rules.clone(), saved, g.stats.clone(), log, t);
            // The page's solver would judge the roll again; this table keeps its pretence.
            back.round.set_verdict(verdict);
            back.tick(t);
            *g = back;
        }
    }
}

fn cases() -> u32 {
    std::env::var("FAIR_PLAY_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000)
}

#[test]
fn nothing_observable_depends_on_the_verdict_before_the_roll_is_settled() {
    let words = Catalog::english();
    let mut runner = TestRunner::new(Config { cases: cases(), ..Config::default() });
    let strategy =
        (proptest::collection::vec(any::<u32>(), 4), dealt(), any::<bool>(), proptest::collection::vec(step(), 1..40));
    runner
        .run(&strategy, |(faces, dealt, strict, steps)| {
            let rules = Rules { strict, ..Rules::default() };
            let roll = match dealt {
                Dealt::Daily(day) => score_engine::practice::daily_roll(&rules, day),
                _ => rules.dice.iter().zip(&faces).map(|(&sides, f)| i64::from(f % sides + 1)).collect(),
            };
            let mut yes = table(&rules, &roll, dealt, true);
            let mut no = table(&rules, &roll, dealt, false);
            let mut now = 1;
            prop_assert_eq!(observed(&yes, &words), observed(&no, &words), "dealt");
            // A roll chosen by difficulty (every one can be made) or typed is practice.
            if matches!(dealt, Dealt::Level(_) | Dealt::Typed) {
                prop_assert!(yes.practice.is_some() && yes.round.is_practice());
            }
            for (n, s) in steps.iter().enumerate() {
                let score = yes.stats.score;
                let (mut t1, mut t2) = (now, now);
                play(&mut yes, s, &mut t1, true);
                play(&mut no, s, &mut t2, false);
                now = t1;
                prop_assert_eq!(yes.round.is_over(), no.round.is_over(), "settled apart at {} {:?}", n, s);
                if yes.round.is_over() {
                    // Asking (a hint, the solutions) or practice from the deal: no points.
                    if matches!(s, Step::Hint | Step::ShowSolutions) || yes.practice.is_some() {
                        prop_assert_eq!(yes.stats.score, score);
                        prop_assert_eq!(no.stats.score, score);
                    }
                    break;
                }
                prop_assert_eq!(observed(&yes, &words), observed(&no, &words), "after step {} {:?}", n, s);
            }
            Ok(())
        })
        .unwrap();
}
