//! Who may do what in a room, and when: docs/RULES.md §5's table, as one function.
//!
//! [`may`] answers "may this member do this now" from the [`Stage`] a roll is at (the clock
//! that runs, whether the roll is settled, whether the computer judges), which the room
//! knows from its round and a page knows from its mirror of the room. The room asks it
//! before it plays a member's input; a page asks it which buttons to show
//! ([`crate::mirror::Mirror::may`]). So what a page offers and what the room allows are one
//! rule, and `tests/room/fairness.rs` holds the room to it under random play.
//!
//! Joining and the host's commands are not here: a join is checked by the room (the name,
//! the lock, the removed), host rights by the server (a host token, never a name), and a
//! host may command in every phase.

use crate::protocol::{Claim, Clock, Seat, View};
use crate::room::RoomError;
use score_engine::{Phase, RoundError};

/// What a member may try to do, one row of the table each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// Press SCORE.
    Score,
    /// Press IMPOSSIBLE.
    Impossible,
    /// End one's own IMPOSSIBLE clock now (Reveal now).
    Reveal,
    /// Give up one's own SCORE.
    GiveUp,
    /// A move, an undo or a clear on one's own board.
    Move,
    /// Say something in the chat.
    Chat,
    /// Leave the room.
    Leave,
}

/// Where a roll stands, as far as who may act is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stage {
    /// The clock that runs (a SCORE clock during an IMPOSSIBLE claim is the one that runs).
    pub clock: Option<Clock>,
    /// The roll is settled.
    pub settled: bool,
    /// The computer judges IMPOSSIBLE claims.
    pub judging: bool,
}

impl Stage {
    /// The stage of a room's round.
    pub fn of(phase: Phase, judging: bool) -> Stage {
        Stage { clock: Clock::of(phase), settled: phase == Phase::Over, judging }
    }

    /// The stage a page's view of the room shows.
    pub fn of_view(view: &View) -> Stage {
        Stage { clock: view.clock, settled: view.settled, judging: view.judging }
    }
}

/// Whether the member in `seat` may do `act` at `stage`; if not, why (the same reason the
/// room gives, worded by each page). The rows, in the order of docs/RULES.md §5's table:
///
/// | act | no clock | SCORE clock | IMPOSSIBLE clock | settled |
/// | --- | --- | --- | --- | --- |
/// | SCORE | anyone | nobody | anyone (the claimer too) | nobody |
/// | IMPOSSIBLE | anyone | nobody | nobody | nobody |
/// | Reveal now | nobody | nobody | the claimer, with judging on | nobody |
/// | Give up | nobody | the scorer | nobody | nobody |
/// | move, chat, leave | anyone | anyone | anyone | anyone |
pub fn may(seat: Seat, act: Act, stage: Stage) -> Result<(), RoomError> {
    let round = |e: RoundError| Err(RoomError::Round(e));
    let clock = stage.clock.map(|c| (c.claim, c.seat == seat));
    match (act, clock) {
        (Act::Move | Act::Chat | Act::Leave, _) => Ok(()),
        (Act::Score | Act::Impossible, _) if stage.settled => round(RoundError::Over),
        (Act::Score | Act::Impossible, Some((Claim::Score, _))) => round(RoundError::ScoreRunning),
        (Act::Score, _) => Ok(()),
        (Act::Impossible, Some((Claim::Impossible, _))) => round(RoundError::ImpossibleRunning),
        (Act::Impossible, None) => Ok(()),
        (Act::Reveal, None) => round(RoundError::NoClaim),
        (Act::Reveal, Some((Claim::Score, _))) => round(RoundError::FinishScore),
        (Act::Reveal, Some((Claim::Impossible, false))) => Err(RoomError::NotYourClaim),
        (Act::Reveal, Some((Claim::Impossible, true))) if !stage.judging => Err(RoomError::RevealNeedsJudging),
        (Act::Reveal, Some((Claim::Impossible, true))) => Ok(()),
        (Act::GiveUp, Some((Claim::Score, true))) => Ok(()),
        (Act::GiveUp, _) => Err(RoomError::NotYourScore),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(clock: Option<(Seat, Claim)>, settled: bool, judging: bool) -> Stage {
        Stage { clock: clock.map(|(seat, claim)| Clock { seat, claim, deadline: 1 }), settled, judging }
    }

    // Pins a bug: any member could end someone else's IMPOSSIBLE clock, and with judging off
    // Reveal now after one's own IMPOSSIBLE was +1 on any roll.
    #[test]
    fn only_the_claimer_reveals_and_only_with_judging_on() {
        let claimed = stage(Some((0, Claim::Impossible)), false, true);
        assert_eq!(may(0, Act::Reveal, claimed), Ok(()));
        assert_eq!(may(1, Act::Reveal, claimed), Err(RoomError::NotYourClaim));
        let unjudged = stage(Some((0, Claim::Impossible)), false, false);
        assert_eq!(may(0, Act::Reveal, unjudged), Err(RoomError::RevealNeedsJudging));
        assert_eq!(may(0, Act::Reveal, stage(Some((0, Claim::Score)), false, true)), round(RoundError::FinishScore));
        assert_eq!(may(0, Act::Reveal, stage(None, true, true)), round(RoundError::NoClaim));
    }

    fn round(e: RoundError) -> Result<(), RoomError> {
        Err(RoomError::Round(e))
    }

    #[test]
    fn score_beats_an_impossible_claim_but_not_another_score() {
        let claimed = stage(Some((0, Claim::Impossible)), false, true);
        assert_eq!(may(0, Act::Score, claimed), Ok(()));
        assert_eq!(may(1, Act::Score, claimed), Ok(()));
        assert_eq!(may(1, Act::Impossible, claimed), round(RoundError::ImpossibleRunning));
        let scoring = stage(Some((1, Claim::Score)), false, true);
        assert_eq!(may(0, Act::Score, scoring), round(RoundError::ScoreRunning));
        assert_eq!(may(1, Act::GiveUp, scoring), Ok(()));
        assert_eq!(may(0, Act::GiveUp, scoring), Err(RoomError::NotYourScore));
        assert_eq!(may(0, Act::Score, stage(None, true, true)), round(RoundError::Over));
        for act in [Act::Move, Act::Chat, Act::Leave] {
            assert_eq!(may(0, act, scoring), Ok(()));
        }
    }
}
