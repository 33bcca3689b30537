//! The room under random play: sequences of joins, leaves, real and forged moves, claims,
//! host commands, chat, time passing and restarts. It never panics, and:
//! - scores change only with a Results event, by the amounts its lines say;
//! - a room stored and restored shows every member the same view;
//! - nobody's board changes by another member's input.
//!
//! Also: the socket's message parser takes any bytes without panicking.
//!
//! 1,000 sequences by default; `PROPTEST_CASES=1000000 cargo test -p score-room --release
//! --test fuzz` for a long run.

use std::collections::HashMap;

use proptest::prelude::*;
use score_engine::{Action, Op, Rules, TileId};
use score_room::protocol::{Claim, ClientMsg, RoomEvent};
use score_room::room::{Deal, Input, Out, Refused, Room, Seat};

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000)
}

const NAMES: [&str; 5] = ["Ana", "Ben", "Cy Lee", "Dee", "Éva"];

/// One step of play: an input, time passing (with a tick of the server's clock, or
/// silently, so the next input meets a clock that ran out), or a restart.
#[derive(Debug, Clone)]
enum Step {
    Input(Input),
    Wait(u64, bool),
    Restart,
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::default()),
        Just(Rules { strict: true, score_secs: 5, ..Rules::default() }),
        Just(Rules { dice: vec![6, 6, 6], goal: 10, ..Rules::default() }),
    ]
}

fn roll_for(rules: &Rules, seed: u64) -> Vec<i64> {
    rules.dice.iter().enumerate().map(|(i, &s)| 1 + ((seed >> (i * 8)) % u64::from(s)) as i64).collect()
}

fn action() -> impl Strategy<Value = Action> {
    let op = prop_oneof![Just(Op::Add), Just(Op::Sub), Just(Op::Mul), Just(Op::Div), Just(Op::Concat)];
    prop_oneof![
        6 => (0u32..9, op, 0u32..9).prop_map(|(l, op, r)| Action::Combine { left: TileId(l), op, right: TileId(r) }),
        1 => Just(Action::Undo),
        1 => Just(Action::Clear),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let seat = 0usize..7;
    prop_oneof![
        3 => (0usize..NAMES.len()).prop_map(|i| Step::Input(Input::Join { name: NAMES[i].into() })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::Leave { seat })),
        3 => (seat.clone(), any::<bool>()).prop_map(|(seat, s)| Step::Input(Input::Claim {
            seat,
            claim: if s { Claim::Score } else { Claim::Impossible },
        })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::RevealNow { seat })),
        1 => seat.clone().prop_map(|seat| Step::Input(Input::GiveUp { seat })),
        12 => (seat.clone(), action()).prop_map(|(seat, action)| Step::Input(Input::Act { seat, action })),
        1 => (seat, "[a-z <>&]{0,8}").prop_map(|(seat, text)| Step::Input(Input::Chat { seat, text })),
        1 => any::<u64>().prop_map(|seed| Step::Input(Input::NewRoll {
            deal: Deal::new(roll_for(&Rules::default(), seed), &Rules::default()),
        })),
        1 => any::<u64>().prop_map(|seed| Step::Input(Input::NextRoll {
            deal: Deal::new(roll_for(&Rules::default(), seed), &Rules::default()),
        })),
        1 => any::<bool>().prop_map(|locked| Step::Input(Input::Lock { locked })),
        1 => Just(Step::Input(Input::ClearChat)),
        1 => (rules(), any::<bool>(), any::<u64>()).prop_map(|(rules, judging, seed)| {
            let deal = Deal::new(roll_for(&rules, seed), &rules);
            Step::Input(Input::SetRules { rules, judging, deal })
        }),
        3 => (0u64..70_000, any::<bool>()).prop_map(|(ms, tick)| Step::Wait(ms, tick)),
        1 => Just(Step::Restart),
    ]
}

/// Score changes by name, as a batch of events' result lines say them ("Ana +1: …").
fn said(outs: &[Out]) -> (bool, HashMap<String, i32>) {
    let mut by_name = HashMap::new();
    let mut any = false;
    for o in outs {
        if let RoomEvent::Results { lines, .. } = &o.event {
            any = true;
            for line in lines {
                let head = line.split_once(": ").map_or(line.as_str(), |h| h.0);
                let (name, amount) = head.rsplit_once(' ').unwrap_or(("", head));
                let points = match amount.strip_prefix('+').or(amount.strip_prefix('−')) {
                    Some(n) => n.parse::<i32>().unwrap() * if amount.starts_with('−') { -1 } else { 1 },
                    None => {
                        assert_eq!(amount, "0", "{line}");
                        0
                    }
                };
                *by_name.entry(name.to_string()).or_insert(0) += points;
            }
        }
    }
    (any, by_name)
}

fn scores(room: &Room) -> HashMap<Seat, (String, i32)> {
    room.members().map(|(s, m)| (s, (m.name.clone(), m.score))).collect()
}

fn boards(room: &Room) -> Vec<Vec<String>> {
    (0..7).map(|s| room.moves(s)).collect()
}

fn actor(input: &Input) -> Option<Seat> {
    match input {
        Input::Claim { seat, .. }
        | Input::RevealNow { seat }
        | Input::GiveUp { seat }
        | Input::Act { seat, .. }
        | Input::Chat { seat, .. } => Some(*seat),
        _ => None,
    }
}

fn restored(room: &Room, now: u64) -> Room {
    let text = serde_json::to_string(room.saved()).unwrap();
    Room::restore(serde_json::from_str(&text).unwrap(), now).0
}

/// The room as it stands at `now`: a clock that ran out meanwhile settled (as a restore does).
fn ticked(room: &Room, now: u64) -> Room {
    let mut r = room.clone();
    r.tick(now);
    r
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_rooms_promises(rules in rules(), seed in any::<u64>(), steps in prop::collection::vec(step(), 1..60)) {
        let mut room = Room::new(rules.clone(), true, Deal::new(roll_for(&rules, seed), &rules));
        let mut now = 0u64;
        for step in steps {
            let before = scores(&room);
            let boards_before = boards(&room);
            let (outs, actor) = match step {
                Step::Wait(ms, tick) => {
                    now += ms;
                    (if tick { room.tick(now) } else { Vec::new() }, None)
                }
                Step::Restart => {
                    // Stored and brought back: the same room, with a clock that ran out
                    // meanwhile settled (and its Results to tell).
                    let text = serde_json::to_string(room.saved()).unwrap();
                    let (back, settled) = Room::restore(serde_json::from_str(&text).unwrap(), now);
                    let here = ticked(&room, now);
                    for seat in 0..7 {
                        prop_assert_eq!(back.view(Some(seat), now), here.view(Some(seat), now));
                    }
                    room = back;
                    (settled, None)
                }
                Step::Input(input) => {
                    now += 1;
                    let actor = actor(&input);
                    match room.apply(input, now) {
                        Ok(outs) => (outs, actor),
                        Err(Refused { settled, .. }) => (settled, None),
                    }
                }
            };
            // Scores move only with Results, by the amounts the lines say.
            let (results, amounts) = said(&outs);
            let after = scores(&room);
            for (seat, (name, score)) in &after {
                let old = before.get(seat).filter(|(n, _)| n == name).map_or(0, |b| b.1);
                if !results {
                    prop_assert_eq!(*score, old, "{} changed without a Results event", name);
                } else if before.get(seat).is_some_and(|(n, _)| n == name) {
                    prop_assert_eq!(*score - old, amounts.get(name).copied().unwrap_or(0), "{}", name);
                }
            }
            // Every Results event's scoreboard is the room's.
            if let Some(RoomEvent::Results { scores: told, .. }) =
                outs.iter().rev().map(|o| &o.event).find(|e| matches!(e, RoomEvent::Results { .. }))
            {
                for s in told {
                    if let Some((_, score)) = after.get(&s.seat) {
                        prop_assert_eq!(s.score, *score);
                    }
                }
            }
            // A member's input changes no other member's board.
            if let Some(me) = actor {
                let boards_after = boards(&room);
                for seat in (0..7).filter(|&s| s != me) {
                    prop_assert_eq!(&boards_after[seat], &boards_before[seat], "seat {}'s board changed by seat {}", seat, me);
                }
            }
            // A restart at any moment shows everyone the same room.
            let (back, here) = (restored(&room, now), ticked(&room, now));
            for seat in 0..7 {
                prop_assert_eq!(back.view(Some(seat), now), here.view(Some(seat), now));
            }
        }
    }

    #[test]
    fn any_bytes_on_the_socket_are_refused_or_read_never_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = serde_json::from_slice::<ClientMsg>(&bytes);
    }

    #[test]
    fn near_miss_messages_are_refused_or_read_never_a_panic(
        kind in prop_oneof![Just("Join"), Just("Claim"), Just("Act"), Just("Host"), Just("Chat"), Just("x")],
        field in "[a-z_]{0,8}",
        value in prop_oneof![
            Just("null".to_string()), Just("-1".to_string()), Just("1e400".to_string()),
            Just("\"Score\"".to_string()), Just("{\"type\":\"End\"}".to_string()), Just("[]".to_string()),
            "[0-9]{1,30}", "\"[^\"\\\\]{0,20}\"",
        ],
    ) {
        let text = format!("{{\"type\":\"{kind}\",\"{field}\":{value}}}");
        let _ = serde_json::from_str::<ClientMsg>(&text);
    }
}
