//! Random play for the room's property tests: rules, rolls, moves and steps of play.
#![allow(dead_code)]

use proptest::prelude::*;
use score_engine::{Action, Op, Rules, TileId};
use score_room::protocol::{Claim, HomeworkCommand, Move};
use score_room::room::{Assignment, Deal, Input, Out, Room, Seat};

pub fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000)
}
pub const NAMES: [&str; 5] = ["Ana", "Ben", "Cy Lee", "Dee", "Éva"];

/// One step of play: an input, time passing (with a tick of the server's clock, or
/// silently, so the next input meets a clock that ran out), or a restart.
#[derive(Debug, Clone)]
pub enum Step {
    Input(Input),
    Wait(u64, bool),
    Restart,
}

pub fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::default()),
        Just(Rules { strict: true, score_secs: 5, ..Rules::default() }),
        Just(Rules { dice: vec![6, 6, 6], goal: 10, ..Rules::default() }),
    ]
}

pub fn roll_for(rules: &Rules, seed: u64) -> Vec<i64> {
    rules.dice.iter().enumerate().map(|(i, &s)| 1 + ((seed >> (i * 8)) % u64::from(s)) as i64).collect()
}

pub fn action() -> impl Strategy<Value = Action> {
    let op = prop_oneof![Just(Op::Add), Just(Op::Sub), Just(Op::Mul), Just(Op::Div), Just(Op::Concat)];
    prop_oneof![
        6 => (0u32..9, op, 0u32..9).prop_map(|(l, op, r)| Action::Combine { left: TileId(l), op, right: TileId(r) }),
        1 => Just(Action::Undo),
        1 => Just(Action::Clear),
    ]
}

/// A student's command on their homework.
pub fn homework() -> impl Strategy<Value = HomeworkCommand> {
    prop_oneof![
        4 => Just(HomeworkCommand::Start),
        2 => any::<bool>().prop_map(|s| HomeworkCommand::Claim { claim: if s { Claim::Score } else { Claim::Impossible } }),
        1 => Just(HomeworkCommand::Reveal),
        1 => Just(HomeworkCommand::GiveUp),
        6 => action().prop_map(|a| HomeworkCommand::Act { action: Move::from(a) }),
        2 => Just(HomeworkCommand::Next),
    ]
}

pub fn step() -> impl Strategy<Value = Step> {
    let seat = 0usize..7;
    prop_oneof![
        3 => (0usize..NAMES.len()).prop_map(|i| Step::Input(Input::Join { name: NAMES[i].into() })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::Leave { seat })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::Remove { seat })),
        1 => (0usize..NAMES.len()).prop_map(|i| Step::Input(Input::Readmit { name: NAMES[i].into() })),
        3 => (seat.clone(), any::<bool>()).prop_map(|(seat, s)| Step::Input(Input::Claim {
            seat,
            claim: if s { Claim::Score } else { Claim::Impossible },
        })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::RevealNow { seat })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::GiveUp { seat })),
        12 => (seat.clone(), action()).prop_map(|(seat, action)| Step::Input(Input::Act { seat, action })),
        1 => (seat.clone(), "[a-z <>&]{0,8}").prop_map(|(seat, text)| Step::Input(Input::Chat { seat, text })),
        1 => any::<u64>().prop_map(|seed| Step::Input(Input::NewRoll {
            deal: Deal::new(roll_for(&Rules::default(), seed), &Rules::default()),
        })),
        1 => any::<u64>().prop_map(|seed| Step::Input(Input::NextRoll {
            deal: Deal::new(roll_for(&Rules::default(), seed), &Rules::default()),
        })),
        1 => any::<bool>().prop_map(|locked| Step::Input(Input::Lock { locked })),
        1 => any::<bool>().prop_map(|kept| Step::Input(Input::Keep { kept })),
        1 => Just(Step::Input(Input::EndLesson)),
        1 => (rules(), 1usize..4, any::<u64>(), any::<bool>(), 1u64..400_000).prop_map(|(rules, n, seed, untimed, due)| {
            let deals = (0..n).map(|i| Deal::new(roll_for(&rules, seed.rotate_left(i as u32 * 9)), &rules)).collect();
            Step::Input(Input::SetHomework { assignment: Assignment::new(deals, &rules, untimed, false, due) })
        }),
        1 => Just(Step::Input(Input::EndHomework)),
        1 => (0usize..NAMES.len()).prop_map(|i| Step::Input(Input::Forget { name: NAMES[i].into() })),
        8 => (0usize..3, homework()).prop_map(|(seat, command)| Step::Input(Input::Homework { seat, command })),
        1 => Just(Step::Input(Input::ClearChat)),
        1 => Just(Step::Input(Input::ClearEmpty)),
        1 => "[a-z ]{0,8}".prop_map(|text| Step::Input(Input::TeacherChat { text })),
        1 => prop_oneof![Just(0u32), Just(5), Just(30), Just(100_000)].prop_map(|secs| Step::Input(Input::AutoDeal { secs })),
        1 => prop_oneof![Just("es"), Just("pt-br"), Just("ar"), Just("xx")].prop_map(|l| Step::Input(Input::Language { lang: l.into() })),
        2 => (seat, any::<bool>()).prop_map(|(seat, away)| Step::Input(Input::Presence { seat, away })),
        1 => (rules(), any::<bool>(), any::<u64>()).prop_map(|(rules, judging, seed)| {
            let deal = Deal::new(roll_for(&rules, seed), &rules);
            Step::Input(Input::SetRules { rules, judging, deal })
        }),
        3 => (0u64..70_000, any::<bool>()).prop_map(|(ms, tick)| Step::Wait(ms, tick)),
        1 => Just(Step::Restart),
    ]
}

/// Makes `room` a kept class with homework of three rolls due far ahead, and Ana and Ben in
/// seats 0 and 1 (in half the cases of a test), so random play reaches the homework often:
/// the events to send.
pub fn as_class(room: &mut Room, seed: u64) -> Vec<Out> {
    let rules = room.rules().clone();
    let deals = (0..3).map(|i| Deal::new(roll_for(&rules, seed.rotate_left(i * 11)), &rules)).collect();
    let mut out = room.apply(Input::Keep { kept: true }, 0).unwrap_or_default();
    let assignment = Assignment::new(deals, &rules, seed.is_multiple_of(3), false, 30 * 86_400_000);
    out.extend(room.apply(Input::SetHomework { assignment }, 0).unwrap_or_default());
    for name in &NAMES[..2] {
        out.extend(room.apply(Input::Join { name: (*name).into() }, 0).unwrap_or_default());
    }
    out
}

/// Who an input is from, for the rule that one member's input touches only their own clocks
/// (a removal is the removed member's, who loses only what is theirs); none for the host's
/// deals and for time.
pub fn actor(input: &Input) -> Option<Seat> {
    match input {
        Input::Claim { seat, .. }
        | Input::RevealNow { seat }
        | Input::GiveUp { seat }
        | Input::Act { seat, .. }
        | Input::Chat { seat, .. }
        | Input::Leave { seat }
        | Input::Remove { seat }
        | Input::Homework { seat, .. }
        | Input::Presence { seat, .. } => Some(*seat),
        _ => None,
    }
}
