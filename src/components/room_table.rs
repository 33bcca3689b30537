//! The room's side of the table: [`TableSource`] for the room client, so a member plays on
//! the same table as solitaire. Moves are checked on this page's copy of the board, by the
//! engine the room uses, and sent as they are made; claims are sent, and the room judges.

use leptos::prelude::*;
use score_engine::roll::roll_text;
use score_engine::Action;
use score_i18n::Key;
use score_room::protocol::{Claim, ClientMsg, HostCommand};
use score_room::say;

use crate::components::room_client::Room;
use crate::game::ResultLine;
use crate::table::{Act, ClaimRow, Claims, ClockView, Desk, Slots, TableSource};

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
            let m = &s.mirror;
            let rows = s.seat.map(|player| ClaimRow { player, name: None, score: None }).into_iter().collect();
            let roll = roll_text(&s.roll);
            Claims {
                rows,
                // What may be pressed is the mirror's to say (held to the room by its tests).
                score_ok: m.may_score(),
                impossible_ok: m.may_claim_impossible(),
                scoreboard: false,
                reveal: m.may_reveal(),
                give_up: m.may_give_up(),
                clock: s.clock.map(|c| ClockView {
                    holder: None,
                    label: self.words.with(|w| {
                        let name = s.name(c.seat);
                        match (c.claim, Some(c.seat) == s.seat) {
                            (Claim::Score, true) => w.text(Key::ClockScoreYou, &[]),
                            (Claim::Score, false) => w.text(Key::ClockScore, &[("name", &name)]),
                            (Claim::Impossible, true) => w.text(Key::ClockImpossibleYou, &[]),
                            (Claim::Impossible, false) => w.text(Key::ClockImpossible, &[("name", &name)]),
                        }
                    }),
                    deadline: s.local(c.deadline),
                }),
                // Each result in this reader's words: "you" only on their own line.
                results: s
                    .results
                    .iter()
                    .map(|o| ResultLine {
                        points: o.points,
                        text: self.words.with(|w| say::outcome(o, s.seat, s.rules.goal, &roll, w)),
                        working: Vec::new(),
                    })
                    .collect(),
                settled: s.settled,
                // The host deals from the room's own bar ("Next roll", N), not from the table.
                next: false,
            }
        })
    }

    fn act(&self, act: Act) {
        let room = *self;
        let Some(act) = board_act(room.slots, act, |a| room.act(a)) else { return };
        match act {
            Act::Score(_) => room.send(ClientMsg::Claim { claim: Claim::Score }),
            Act::Impossible(_) => room.send(ClientMsg::Claim { claim: Claim::Impossible }),
            Act::Reveal => room.send(ClientMsg::Reveal),
            Act::GiveUp => room.send(ClientMsg::GiveUp),
            // On a settled roll, "the next roll if this one is still settled": pressed just as
            // auto-deal (or another host screen) dealt, it deals nothing more.
            Act::Next if room.seen.with_untracked(|s| s.as_ref().is_some_and(|s| s.settled)) => {
                room.command(HostCommand::NextRoll)
            }
            Act::Next => room.command(HostCommand::NewRoll { roll: None }),
            _ => {}
        }
    }
}

/// What a member's hands do on a room's table (the class's, or their homework's): numbers and
/// an operator into `slots`, the move made (by `make`) once they are full, an undo or a clear
/// as a move. The claims and Next come back, for the caller.
pub(crate) fn board_act(slots: RwSignal<Slots>, act: Act, make: impl Fn(Action)) -> Option<Act> {
    let complete = || {
        if let Some((left, op, right)) = slots.get_untracked().full() {
            make(Action::Combine { left, op, right });
        }
    };
    match act {
        Act::Place(slot, id) => {
            slots.update(|s| s.place_tile(slot, id));
            complete();
        }
        Act::PlaceOp(op) => {
            slots.update(|s| s.op = Some(op));
            complete();
        }
        Act::Tap(id) => {
            if slots.try_update(|s| s.tap(id)).unwrap_or(false) {
                complete();
            }
        }
        Act::ClearSlot(slot) => slots.update(|s| s.clear(slot)),
        Act::ClearSlots => slots.set(Default::default()),
        Act::Undo => make(Action::Undo),
        Act::Clear => make(Action::Clear),
        claim_or_next => return Some(claim_or_next),
    }
    None
}
