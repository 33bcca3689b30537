//! The room under random play: sequences of joins, leaves, real and forged moves, claims,
//! host commands, chat, time passing and restarts. It never panics, and:
//! - scores change only with a Results event, by the amounts its lines say (a name joining
//!   again takes its record back, with the score its Joined event says);
//! - a room stored and restored shows every member the same view;
//! - nobody's board changes by another member's input.
//!
//! Also: the socket's message parser takes any bytes without panicking.
//!
//! 1,000 sequences by default; `PROPTEST_CASES=1000000 cargo test -p score-room --release
//! --test room fuzz` for a long run.

use std::collections::HashMap;

use crate::common::{actor, as_class, cases, roll_for, rules, step, Step};
use proptest::prelude::*;
use score_room::protocol::{ClientMsg, RoomEvent};
use score_room::room::{Deal, Out, Refused, Room, Seat};

/// Score changes by name, as a batch of events' results say them.
fn said(outs: &[Out]) -> (bool, HashMap<String, i32>) {
    let mut by_name = HashMap::new();
    let mut any = false;
    for o in outs {
        if let RoomEvent::Results { outcomes, .. } = &o.event {
            any = true;
            for r in outcomes {
                *by_name.entry(r.name.clone()).or_insert(0) += r.points;
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

/// A view with every page away, as a restart leaves them until they come back.
fn all_away(mut view: score_room::protocol::View) -> score_room::protocol::View {
    view.members.iter_mut().for_each(|m| m.away = true);
    view
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_rooms_promises(
        rules in rules(),
        seed in any::<u64>(),
        class in any::<bool>(),
        steps in prop::collection::vec(step(), 1..60),
    ) {
        let mut room = Room::new(rules.clone(), true, Deal::new(roll_for(&rules, seed), &rules));
        if class {
            as_class(&mut room, seed);
        }
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
                        prop_assert_eq!(back.view(Some(seat), now), all_away(here.view(Some(seat), now)));
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
            // A name joining again brings its record back: its score is the Joined event's.
            let joined: HashMap<Seat, i32> = outs
                .iter()
                .filter_map(|o| match o.event {
                    RoomEvent::Joined { seat, score, .. } => Some((seat, score)),
                    _ => None,
                })
                .collect();
            // A kept class's lesson ended: every score starts again from 0 (a clock settled on
            // the way counted in the lesson that ended).
            let lesson_ended = outs.iter().any(|o| matches!(o.event, RoomEvent::Lesson { .. }));
            if lesson_ended {
                for (name, score) in after.values() {
                    prop_assert_eq!(*score, 0, "{} keeps points past the end of a lesson", name);
                }
            }
            for (seat, (name, score)) in after.iter().filter(|_| !lesson_ended) {
                let old = before.get(seat).filter(|(n, _)| n == name).map(|b| b.1);
                let old = old.or(joined.get(seat).copied()).unwrap_or(0);
                if !results {
                    prop_assert_eq!(*score, old, "{} changed without a Results event", name);
                } else if before.get(seat).is_some_and(|(n, _)| n == name) {
                    prop_assert_eq!(*score - old, amounts.get(name).copied().unwrap_or(0), "{}", name);
                }
            }
            // Every Results event's scoreboard is the room's.
            // (Before a lesson's end in the same step: the end set them to 0 after.)
            if let Some(RoomEvent::Results { scores: told, .. }) = outs
                .iter()
                .rev()
                .map(|o| &o.event)
                .find(|e| matches!(e, RoomEvent::Results { .. }))
                .filter(|_| !lesson_ended)
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
            // A restart at any moment shows everyone the same room, every page away until it
            // comes back.
            let (back, here) = (restored(&room, now), ticked(&room, now));
            for seat in 0..7 {
                prop_assert_eq!(back.view(Some(seat), now), all_away(here.view(Some(seat), now)));
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
