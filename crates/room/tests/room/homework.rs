//! Homework is fair, under random play: three students of a kept class play the homework at
//! their own pace (claims, moves, Next, Start again), leave and come back, time passes, the
//! server restarts and the teacher closes it, and after every step:
//!
//! - nothing anyone is sent or shown depends on a roll's verdict before it is settled: the
//!   same play on a twin class whose solver says the opposite of every homework roll sends
//!   the same events and shows every student and the teacher the same view until a result;
//! - each run's points are what docs/RULES.md §5 gives for its results (+1 made, −1 a failed
//!   SCORE, +1 a right IMPOSSIBLE, −2 a wrong one), and homework never moves a class score;
//! - a run only goes forward: its roll, whether it is done and its counts never go back, so no
//!   roll is played twice for points (a restart and leaving included);
//! - nothing is claimed once the homework is due or closed;
//! - at each student's level: each student's rolls are the pool's, none twice, as many as the
//!   homework has. (Every roll of such a pool has a solution, and the students are told so:
//!   there is no other verdict for a twin to be told.)
//!
//! 2,000 sequences by default (`PROPTEST_CASES` sets another count).

use std::collections::BTreeMap;

use crate::common::{action, cases};
use proptest::prelude::*;
use score_engine::elo::Ability;
use score_engine::{Phase, Rules};
use score_room::protocol::{Claim, HomeworkCommand, Move, Tally};
use score_room::room::{Assignment, Deal, Input, Out, Refused, Room};

const NAMES: [&str; 3] = ["Ana", "Ben", "Cy"];

fn pool() -> Vec<Deal> {
    let rolls: [&[i64]; 6] =
        [&[2, 5, 12, 12], &[1, 1, 1, 4], &[3, 3, 3, 3], &[4, 5, 1, 1], &[6, 6, 6, 6], &[1, 2, 3, 17]];
    rolls.iter().map(|r| Deal::new(r.to_vec(), &Rules::default())).collect()
}

fn flipped(deal: &Deal) -> Deal {
    Deal { roll: deal.roll.clone(), solution: if deal.solution.is_some() { None } else { Some("x".into()) } }
}

#[derive(Debug, Clone)]
enum Step {
    Homework(usize, HomeworkCommand),
    Leave(usize),
    Join(usize),
    Close,
    Wait(u64, bool),
    Restart,
}

fn step() -> impl Strategy<Value = Step> {
    let command = prop_oneof![
        3 => Just(HomeworkCommand::Start),
        3 => prop_oneof![Just(Claim::Score), Just(Claim::Impossible)].prop_map(|claim| HomeworkCommand::Claim { claim }),
        1 => Just(HomeworkCommand::Reveal),
        1 => Just(HomeworkCommand::GiveUp),
        8 => action().prop_map(|a| HomeworkCommand::Act { action: Move::from(a) }),
        3 => Just(HomeworkCommand::Next),
    ];
    prop_oneof![
        16 => (0usize..3, command).prop_map(|(s, c)| Step::Homework(s, c)),
        1 => (0usize..3).prop_map(Step::Leave),
        2 => (0usize..3).prop_map(Step::Join),
        1 => Just(Step::Close),
        4 => (0u64..70_000, any::<bool>()).prop_map(|(ms, tick)| Step::Wait(ms, tick)),
        1 => Just(Step::Restart),
    ]
}

/// Each run, by name: (its roll, done, its roll settled, its tally).
fn runs(room: &Room) -> BTreeMap<String, (usize, bool, bool, Tally)> {
    let gone = room.saved().gone.iter().map(|g| &g.member);
    room.members()
        .map(|(_, m)| m)
        .chain(gone)
        .filter_map(|m| {
            let r = m.homework.as_ref()?;
            Some((m.name.clone(), (r.at, r.done, r.room.round.phase() == Phase::Over, r.tally())))
        })
        .collect()
}

/// The twin of `room`: the same class, told the opposite verdict on every homework roll.
fn twin_of(room: &Room, now: u64) -> Room {
    let mut saved = room.saved().clone();
    if let Some(hw) = &mut saved.homework {
        hw.deals = hw.deals.iter().map(flipped).collect();
    }
    Room::restore(saved, now).0
}

/// A pool for homework at each student's level, drawn once (it rates dozens of rolls).
fn level_pool() -> &'static [(Deal, Ability)] {
    static POOL: std::sync::OnceLock<Vec<(Deal, Ability)>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let mut x = 11u64;
        let next = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as u32
        };
        score_room::room::pool(&Rules::default(), 1, next).unwrap()
    })
}

fn class(deals: Vec<Deal>, untimed: bool, adaptive: bool, due: u64) -> Room {
    let rules = Rules::default();
    let mut room = Room::new(rules.clone(), true, pool()[0].clone());
    room.apply(Input::Keep { kept: true }, 0).unwrap();
    for name in NAMES {
        room.apply(Input::Join { name: name.into() }, 0).unwrap();
    }
    let assignment = match adaptive {
        true => Assignment::at_each_level(level_pool().to_vec(), deals.len() as u32, &rules, untimed, due),
        false => Assignment::new(deals, &rules, untimed, false, due),
    };
    room.apply(Input::SetHomework { assignment }, 0).unwrap();
    room
}

fn outs(r: Result<Vec<Out>, Refused>) -> (bool, Vec<Out>) {
    match r {
        Ok(o) => (true, o),
        Err(r) => (false, r.settled),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases().min(2_000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn homework_is_fair_under_random_play(
        picks in prop::collection::vec(0usize..6, 1..5),
        untimed in any::<bool>(),
        adaptive in any::<bool>(),
        due in 60_000u64..1_000_000,
        steps in prop::collection::vec(step(), 1..70),
    ) {
        let pool = pool();
        let mut room = class(picks.iter().map(|&i| pool[i].clone()).collect(), untimed, adaptive, due);
        let mut twin = twin_of(&room, 0);
        let mut now = 0u64;
        for step in steps {
            let before = runs(&room);
            let twin_before = runs(&twin);
            let (ok, said, twin_said, claim) = match &step {
                Step::Homework(seat, command) => {
                    now += 1;
                    let seat = room.members().find(|(_, m)| m.name == NAMES[*seat]).map_or(99, |(s, _)| s);
                    let input = Input::Homework { seat, command: command.clone() };
                    let (ok, a) = outs(room.apply(input.clone(), now));
                    let (_, b) = outs(twin.apply(input, now));
                    (ok, a, b, matches!(command, HomeworkCommand::Claim { .. }))
                }
                Step::Leave(i) | Step::Join(i) => {
                    now += 1;
                    let input = match step {
                        Step::Leave(_) => match room.members().find(|(_, m)| m.name == NAMES[*i]) {
                            Some((seat, _)) => Input::Leave { seat },
                            None => continue,
                        },
                        _ => Input::Join { name: NAMES[*i].into() },
                    };
                    let (ok, a) = outs(room.apply(input.clone(), now));
                    let (_, b) = outs(twin.apply(input, now));
                    (ok, a, b, false)
                }
                Step::Close => {
                    now += 1;
                    let (ok, a) = outs(room.apply(Input::EndHomework, now));
                    let (_, b) = outs(twin.apply(Input::EndHomework, now));
                    (ok, a, b, false)
                }
                Step::Wait(ms, tick) => {
                    now += ms;
                    if *tick { (true, room.tick(now), twin.tick(now), false) } else { (true, vec![], vec![], false) }
                }
                Step::Restart => {
                    let text = serde_json::to_string(room.saved()).unwrap();
                    let (back, a) = Room::restore(serde_json::from_str(&text).unwrap(), now);
                    room = back;
                    let text = serde_json::to_string(twin.saved()).unwrap();
                    let (back, b) = Room::restore(serde_json::from_str(&text).unwrap(), now);
                    twin = back;
                    (true, a, b, false)
                }
            };
            let after = runs(&room);
            // Nothing claimed once due or closed.
            let hw = room.homework().unwrap();
            if claim && ok {
                prop_assert!(now < hw.due && !hw.closed, "a claim at {} on homework due at {}", now, hw.due);
            }
            for (name, (at, done, _, t)) in &after {
                // Points as the rules give them.
                let points = t.scores_made as i32 - t.scores_failed as i32 + t.impossible_right as i32 - 2 * t.impossible_wrong as i32;
                prop_assert_eq!(t.points, points, "{}'s homework points", name);
                // Only forward.
                if let Some((was_at, was_done, _, was)) = before.get(name) {
                    prop_assert!((at, done) >= (was_at, was_done), "{}'s run went back", name);
                    let counts = |t: &Tally| [t.rolls, t.scores_made, t.scores_failed, t.impossible_right, t.impossible_wrong];
                    prop_assert!(counts(t).iter().zip(counts(was)).all(|(a, b)| *a >= b), "{}'s counts went back", name);
                }
            }
            for (_, m) in room.members() {
                prop_assert_eq!(m.score, 0, "homework moved a class score");
            }
            if adaptive {
                // Each student's rolls: the pool's, none twice, no more than the homework's.
                let gone = room.saved().gone.iter().map(|g| &g.member);
                for m in room.members().map(|(_, m)| m).chain(gone) {
                    let Some(run) = &m.homework else { continue };
                    let mut picked = run.picked.clone();
                    prop_assert_eq!(picked.len(), run.at + 1, "{}'s rolls", m.name);
                    prop_assert!(picked.len() <= picks.len());
                    let on_table = &level_pool()[*picked.last().unwrap() as usize].0.roll;
                    prop_assert_eq!(&run.room.roll, on_table, "{}'s table", m.name);
                    picked.sort_unstable();
                    picked.dedup();
                    prop_assert_eq!(picked.len(), run.at + 1, "{}'s rolls: one twice", m.name);
                }
                continue;
            }
            // The twin shows the same until a homework roll is settled (here or there).
            // (A result counts in the tally: a roll settled and passed in one step is seen too.)
            let settled = |b: &BTreeMap<String, (usize, bool, bool, Tally)>, a: &BTreeMap<String, (usize, bool, bool, Tally)>| {
                let claims = |t: &Tally| (t.scores_made, t.scores_failed, t.impossible_right, t.impossible_wrong);
                a.iter().any(|(n, (at, _, over, t))| {
                    b.get(n).is_none_or(|(was_at, _, was_over, was)| {
                        (*over && (was_at != at || !was_over)) || claims(t) != claims(was)
                    })
                })
            };
            if settled(&before, &after) || settled(&twin_before, &runs(&twin)) {
                twin = twin_of(&room, now);
                continue;
            }
            prop_assert_eq!(&said, &twin_said, "what was sent depends on the verdict");
            for seat in [Some(0), Some(1), Some(2), None] {
                prop_assert_eq!(room.view(seat, now), twin.view(seat, now), "{:?}'s view", seat);
            }
        }
    }
}
