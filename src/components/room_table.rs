//! The room's side of the table: [`TableSource`] for the room client, so a member plays on
//! the same table as solitaire. Moves are checked on this page's copy of the board, by the
//! engine the room uses, and sent as they are made; claims are sent, and the room judges.

use leptos::prelude::*;
use score_engine::Action;
use score_room::protocol::{Claim, ClientMsg, HostCommand};

use crate::components::room_panel::Room;
use crate::game::ResultLine;
use crate::table::{Act, ClaimRow, Claims, ClockView, Desk, TableSource};

/// The points a room's result line starts with ("Ana +1: …", "Ana −2: …"), for its colour.
fn line_points(line: &str) -> i32 {
    line.split_whitespace()
        .find_map(|w| {
            let w = w.trim_end_matches(':');
            let n = |d: &str| d.parse::<i32>().ok();
            w.strip_prefix('+').and_then(n).or_else(|| w.strip_prefix('−').and_then(n).map(|p| -p))
        })
        .unwrap_or(0)
}

impl TableSource for Room {
    fn desk(&self) -> Desk {
        let (slots, message, rolls) = (self.slots.get(), self.message.get(), self.rolls.get());
        self.seen.with(|s| {
            self.board.with(|b| match (s, b) {
                (Some(s), Some(b)) => Desk::of(b, &s.rules, slots, message, rolls),
                _ => Desk::default(),
            })
        })
    }

    fn claims(&self) -> Claims {
        self.seen.with(|s| {
            let Some(s) = s else { return Claims::default() };
            let clock = s.clock;
            let mine = |claim| clock.is_some_and(|c| Some(c.seat) == s.seat && c.claim == claim);
            let rows = s.seat.map(|player| ClaimRow { player, name: None, score: None }).into_iter().collect();
            Claims {
                rows,
                score_ok: !s.settled && clock.is_none_or(|c| c.claim == Claim::Impossible),
                impossible_ok: !s.settled && clock.is_none(),
                scoreboard: false,
                reveal: clock.is_some_and(|c| c.claim == Claim::Impossible) && s.seat.is_some(),
                give_up: mine(Claim::Score),
                clock: clock.map(|c| ClockView {
                    label: match Some(c.seat) == s.seat {
                        true => format!("{} clock: you", c.claim.label()),
                        false => format!("{} clock: {}", c.claim.label(), s.name(c.seat)),
                    },
                    deadline: s.local(c.deadline),
                }),
                results: s.results.iter().map(|l| ResultLine { points: line_points(l), text: l.to_string() }).collect(),
                settled: s.settled,
                // The host deals from the room's own bar ("Next roll", N), not from the table.
                next: false,
            }
        })
    }

    fn act(&self, act: Act) {
        let room = *self;
        let complete = |room: Room| {
            if let Some((left, op, right)) = room.slots.get_untracked().full() {
                room.act(Action::Combine { left, op, right });
            }
        };
        match act {
            Act::Place(slot, id) => {
                room.slots.update(|s| s.place_tile(slot, id));
                complete(room);
            }
            Act::PlaceOp(op) => {
                room.slots.update(|s| s.op = Some(op));
                complete(room);
            }
            Act::Tap(id) => {
                if room.slots.try_update(|s| s.tap(id)).unwrap_or(false) {
                    complete(room);
                }
            }
            Act::ClearSlot(slot) => room.slots.update(|s| s.clear(slot)),
            Act::ClearSlots => room.slots.set(Default::default()),
            Act::Undo => room.act(Action::Undo),
            Act::Clear => room.act(Action::Clear),
            Act::Score(_) => room.send(ClientMsg::Claim { claim: Claim::Score }),
            Act::Impossible(_) => room.send(ClientMsg::Claim { claim: Claim::Impossible }),
            Act::Reveal => room.send(ClientMsg::Reveal),
            Act::GiveUp => room.send(ClientMsg::GiveUp),
            Act::Next => room.command(HostCommand::NewRoll { roll: None }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_points;

    #[test]
    fn a_result_line_gives_its_points() {
        assert_eq!(line_points("Ana +1: 20 made in 2 moves"), 1);
        assert_eq!(line_points("Ben −2: 2 5 12 12 had a solution: 2 ‖ (12 − 12)"), -2);
        assert_eq!(line_points("0: a hint was used"), 0);
        assert_eq!(line_points("Cy −1: the SCORE clock ran out"), -1);
    }
}
