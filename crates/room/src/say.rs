//! A room's results in words, as one reader's page shows them: the room sends data (who,
//! how many points, why), and each page words it, saying "you" only on the reader's own
//! line. The teacher's download reads as nobody in particular (`me: None`).
//!
//! [`refusal`] words why the server refused a message, sent as data too.
//!
//! [`heard`] is what a page's live region says of a room event, for a reader using a screen
//! reader: the room's own roll, clocks and results, never the solitaire table behind it.

use score_engine::round::signed;

use score_engine::roll::cant_roll;

use crate::protocol::{Claim, Flood, Outcome, Refusal, RoomEvent, Seat, View, Why};

/// What a screen reader hears of `event` on the page of `me` (none: a host screen), with
/// `view` the room as it stands after it; none for events read on the page only (moves,
/// chat, presence).
pub fn heard(event: &RoomEvent, view: &View, me: Option<Seat>) -> Option<String> {
    let name = |seat: Seat| {
        if me == Some(seat) {
            "You".to_string()
        } else {
            view.members.iter().find(|m| m.seat == seat).map(|m| m.name.clone()).unwrap_or_default()
        }
    };
    let roll = score_engine::roll::roll_text(&view.roll);
    let goal = view.rules.goal;
    Some(match event {
        RoomEvent::Rolled { .. } => format!("New roll: {roll}. Make {goal}."),
        RoomEvent::Clock { seat, claim: Claim::Score, .. } => {
            format!("{} pressed SCORE: {} seconds to make {goal}.", name(*seat), view.rules.score_secs)
        }
        RoomEvent::Clock { seat, claim: Claim::Impossible, .. } => {
            format!("{} said IMPOSSIBLE: {} seconds to prove it wrong.", name(*seat), view.rules.impossible_secs)
        }
        RoomEvent::Results { outcomes, .. } => {
            let lines: Vec<String> = outcomes.iter().map(|o| outcome(o, me, goal, &roll)).collect();
            format!("{}.", lines.join(". "))
        }
        RoomEvent::Locked { locked: true } => "The room is locked: nobody new can join.".into(),
        RoomEvent::Locked { locked: false } => "The room is open again.".into(),
        RoomEvent::Rules { .. } => format!("New rules: make {goal} with {} dice.", view.rules.dice.len()),
        _ => return None,
    })
}

/// One result as `me` reads it ("Ana +1: 20 made in 2 moves", "You −1: you gave up the SCORE").
pub fn outcome(o: &Outcome, me: Option<Seat>, goal: i64, roll: &str) -> String {
    let mine = me == Some(o.seat);
    let why = match &o.why {
        Why::Made { moves: 1 } => format!("{goal} made in 1 move"),
        Why::Made { moves } => format!("{goal} made in {moves} moves"),
        Why::TimeUp => "the SCORE clock ran out".into(),
        Why::GaveUp if mine => "you gave up the SCORE".into(),
        Why::GaveUp => "gave up the SCORE".into(),
        Why::NumbersUsedUp => "the numbers ran out (strict mode)".into(),
        Why::Abandoned => "a new roll while the SCORE clock ran".into(),
        Why::TrulyImpossible => format!("right: {roll} has no solution"),
        Why::HadSolution { solution } => format!("{roll} had a solution: {solution}"),
        Why::NobodyScored => "nobody found a solution".into(),
        Why::ClaimBeaten { by, .. } if *by == o.seat => "the IMPOSSIBLE claim was wrong".into(),
        Why::ClaimBeaten { by, .. } if me == Some(*by) => format!("you made {goal} during the IMPOSSIBLE clock"),
        Why::ClaimBeaten { name, .. } => format!("{name} made {goal} during the IMPOSSIBLE clock"),
    };
    let who = if mine { "You" } else { o.name.as_str() };
    format!("{who} {}: {why}", signed(o.points))
}

/// Why the server refused a message, in a sentence that says what to do.
pub fn refusal(why: &Refusal) -> String {
    match why {
        Refusal::Unreadable => "That message could not be read.".into(),
        Refusal::SlowDown { what: Flood::Moves } => "Slow down: too many moves.".into(),
        Refusal::SlowDown { what: Flood::Messages } => "Slow down: too many messages.".into(),
        Refusal::SlowDown { what: Flood::Chat } => "Slow down: too many chat messages.".into(),
        Refusal::SlowDown { what: Flood::Connections } => {
            "Too many connections from this network to this server: close other tabs of the room, or try again in a minute.".into()
        }
        Refusal::OldPage => "This page is older than the server: reload it.".into(),
        Refusal::NotInRoom => "Create or join a room first.".into(),
        Refusal::NoLongerInRoom => "You are no longer in this room.".into(),
        Refusal::Presenting => "This screen presents the room: press “Play too” to play.".into(),
        Refusal::AlreadySeated => "You are already in a room.".into(),
        Refusal::NoSuchRoom { code } => format!("There is no room {code}: check the code with your teacher."),
        Refusal::HostLinkGone { code } => format!("There is no room {code}: it may have ended. Check the code."),
        Refusal::WrongHostLink { code } => {
            format!("This host link is not the one for room {code}: you can join it as a member.")
        }
        Refusal::NotHost => "Only the host can do that.".into(),
        Refusal::WrongCodes => "Too many wrong codes: wait a minute.".into(),
        Refusal::ServerFull => "Every room on this server is in use: try again later.".into(),
        Refusal::CodeTaken => "That room code is taken: try again.".into(),
        Refusal::WrongAddress => "This page asked for another room than it named: reload it.".into(),
        Refusal::TooManyUnjoined { rooms } => format!(
            "This device has created {rooms} rooms in the last ten minutes that nobody has joined: use one of them, or wait."
        ),
        Refusal::TooManyCreated { rooms } => {
            format!("This device has created {rooms} rooms in the last ten minutes: wait a few minutes.")
        }
        Refusal::SeatGone { code } => {
            format!("Your seat in room {code} was given up while you were away: join again with your name.")
        }
        Refusal::Room { error } => error.to_string(),
        Refusal::NotSeated => "The room did not seat you: try again.".into(),
        Refusal::CantRoll { roll, dice } => cant_roll(roll, dice),
        Refusal::Rules { errors } => errors.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
        Refusal::RulesChanged => "The room's rules changed meanwhile: deal again.".into(),
        Refusal::AutoDealTooLong { max_secs } => format!("Auto-deal waits at most {max_secs} seconds after a result."),
        Refusal::Removed => "The host removed you from this room.".into(),
        Refusal::Ended => "The host ended this room.".into(),
        Refusal::Restarting => "The server is restarting: you will be reconnected to your seat.".into(),
        Refusal::OpenElsewhere => "This room is open in another tab or window: your seat is there now.".into(),
        Refusal::ServerFault => "Something went wrong on the server: try again.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ben(points: i32, why: Why) -> Outcome {
        Outcome { seat: 1, name: "Ben".into(), points, why }
    }

    // Pins a bug: every page read the engine's solo wording, so Cy read "Ben −1: you gave up
    // the SCORE".
    #[test]
    fn a_result_says_you_only_on_the_page_it_is_about() {
        let gave_up = ben(-1, Why::GaveUp);
        assert_eq!(outcome(&gave_up, Some(2), 20, "2 5 12 12"), "Ben −1: gave up the SCORE");
        assert_eq!(outcome(&gave_up, None, 20, "2 5 12 12"), "Ben −1: gave up the SCORE");
        assert_eq!(outcome(&gave_up, Some(1), 20, "2 5 12 12"), "You −1: you gave up the SCORE");
        let beaten =
            Outcome { seat: 0, name: "Ana".into(), points: -2, why: Why::ClaimBeaten { by: 1, name: "Ben".into() } };
        assert_eq!(outcome(&beaten, Some(2), 20, ""), "Ana −2: Ben made 20 during the IMPOSSIBLE clock");
        assert_eq!(outcome(&beaten, Some(1), 20, ""), "Ana −2: you made 20 during the IMPOSSIBLE clock");
        assert_eq!(outcome(&beaten, Some(0), 20, ""), "You −2: Ben made 20 during the IMPOSSIBLE clock");
    }

    // Pins a bug: in a room, the live region still spoke of the solitaire roll behind it.
    #[test]
    fn a_screen_reader_hears_the_rooms_roll_clocks_and_results_with_you_only_for_its_reader() {
        use crate::protocol::Player;
        let view = View {
            rules: score_engine::Rules::default(),
            judging: true,
            roll: vec![2, 5, 12, 12],
            members: vec![
                Player { seat: 0, name: "Ana".into(), score: 0, away: false },
                Player { seat: 1, name: "Ben".into(), score: 0, away: false },
            ],
            clock: None,
            settled: false,
            now: 0,
            results: vec![],
            chat: vec![],
            actions: vec![],
            working: None,
            auto_deal_secs: 0,
            settled_at: None,
            locked: false,
        };
        let rolled = RoomEvent::Rolled { roll: vec![2, 5, 12, 12] };
        assert_eq!(heard(&rolled, &view, Some(0)).unwrap(), "New roll: 2 5 12 12. Make 20.");
        let clock = RoomEvent::Clock { seat: 1, claim: Claim::Score, deadline: 30_000 };
        assert_eq!(heard(&clock, &view, Some(0)).unwrap(), "Ben pressed SCORE: 30 seconds to make 20.");
        assert_eq!(heard(&clock, &view, Some(1)).unwrap(), "You pressed SCORE: 30 seconds to make 20.");
        let results = RoomEvent::Results { outcomes: vec![ben(-1, Why::GaveUp)], scores: vec![], clock: None };
        assert_eq!(heard(&results, &view, Some(0)).unwrap(), "Ben −1: gave up the SCORE.");
        assert_eq!(heard(&results, &view, Some(1)).unwrap(), "You −1: you gave up the SCORE.");
        assert_eq!(heard(&RoomEvent::Presence { seat: 1, away: true }, &view, None), None);
    }

    #[test]
    fn every_reason_has_its_words() {
        let roll = "2 5 12 12";
        let cases = [
            (Why::Made { moves: 2 }, "Ben +1: 20 made in 2 moves"),
            (Why::Made { moves: 1 }, "Ben +1: 20 made in 1 move"),
            (Why::TimeUp, "Ben +1: the SCORE clock ran out"),
            (Why::NumbersUsedUp, "Ben +1: the numbers ran out (strict mode)"),
            (Why::Abandoned, "Ben +1: a new roll while the SCORE clock ran"),
            (Why::TrulyImpossible, "Ben +1: right: 2 5 12 12 has no solution"),
            (Why::HadSolution { solution: "2‖(12 − 12)".into() }, "Ben +1: 2 5 12 12 had a solution: 2‖(12 − 12)"),
            (Why::NobodyScored, "Ben +1: nobody found a solution"),
            (Why::ClaimBeaten { by: 1, name: "Ben".into() }, "Ben +1: the IMPOSSIBLE claim was wrong"),
        ];
        for (why, line) in cases {
            assert_eq!(outcome(&ben(1, why), Some(0), 20, roll), line);
        }
    }

    #[test]
    fn a_refusal_comes_as_data_and_is_worded_with_its_values_and_the_code_a_page_acts_on() {
        use score_engine::{BoardError, MoveError, Op, RoundError, RulesError};

        use crate::protocol::{ErrorCode, Flood, Refusal};
        use crate::room::RoomError;

        let code = || "ABC234".to_string();
        let cases = [
            (Refusal::NoSuchRoom { code: code() }, ErrorCode::NoSuchRoom, "There is no room ABC234: check the code with your teacher."),
            (Refusal::HostLinkGone { code: code() }, ErrorCode::NoSuchRoom, "There is no room ABC234: it may have ended. Check the code."),
            (Refusal::SeatGone { code: code() }, ErrorCode::SeatGone, "Your seat in room ABC234 was given up while you were away: join again with your name."),
            (Refusal::SlowDown { what: Flood::Moves }, ErrorCode::SlowDown, "Slow down: too many moves."),
            (Refusal::TooManyUnjoined { rooms: 5 }, ErrorCode::TooManyRooms, "This device has created 5 rooms in the last ten minutes that nobody has joined: use one of them, or wait."),
            (Refusal::CantRoll { roll: vec![7, 7, 7, 1], dice: vec![6, 6, 12, 20] }, ErrorCode::Refused, "7 7 7 1 can't be rolled with d6 d6 d12 d20."),
            (Refusal::Rules { errors: vec![RulesError::DiceCount(2), RulesError::NoOps] }, ErrorCode::Refused, "Use 3 to 6 dice (not 2). Turn on at least one operator."),
            (Refusal::Room { error: RoomError::Full }, ErrorCode::RoomFull, "This room is full (60 members)."),
            (Refusal::Room { error: RoomError::Round(RoundError::ScoreRunning) }, ErrorCode::Refused, "A SCORE clock is already running."),
            (Refusal::Room { error: RoomError::Board(BoardError::Move(MoveError::NotAllowed(Op::Div))) }, ErrorCode::Refused, "÷ is not allowed in this game."),
            (Refusal::Presenting, ErrorCode::NotSeated, "This screen presents the room: press “Play too” to play."),
            (Refusal::Ended, ErrorCode::Ended, "The host ended this room."),
        ];
        for (why, acts_on, words) in cases {
            assert_eq!((why.code(), refusal(&why).as_str()), (acts_on, words), "{why:?}");
        }
    }

    #[test]
    fn a_page_coming_back_stops_asking_only_when_the_room_the_seat_or_the_link_is_gone() {
        use crate::protocol::ErrorCode::*;
        for gone in [NoSuchRoom, NotHost, WrongAddress, WrongCodes, SeatGone, Removed, Ended] {
            assert!(gone.for_good(), "{gone:?}");
        }
        for a_while in [SlowDown, ServerFull, TooManyRooms, Restarting, Refused, RoomFull, RoomLocked] {
            assert!(!a_while.for_good(), "{a_while:?}");
        }
    }
}
