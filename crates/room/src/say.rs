//! A room's results in words, as one reader's page shows them: the room sends data (who,
//! how many points, why), and each page words it, saying "you" only on the reader's own
//! line. The teacher's download reads as nobody in particular (`me: None`).
//!
//! [`refusal`] words why the server refused a message, sent as data too.
//!
//! [`heard`] is what a page's live region says of a room event, for a reader using a screen
//! reader: the room's own roll, clocks and results, never the solitaire table behind it.

use score_engine::roll::{dice_text, roll_text};
use score_engine::round::signed;
use score_engine::{BoardError, MoveError, RoundError, RulesError};
use score_i18n::{Catalog, Key};

use crate::protocol::{Claim, Flood, Outcome, Refusal, RoomEvent, Seat, View, Why};
use crate::room::RoomError;

/// What a screen reader hears of `event` on the page of `me` (none: a host screen), with
/// `view` the room as it stands after it, in `words`; none for events read on the page only
/// (moves, chat, presence).
pub fn heard(event: &RoomEvent, view: &View, me: Option<Seat>, words: &Catalog) -> Option<String> {
    let name = |seat: Seat| view.members.iter().find(|m| m.seat == seat).map(|m| m.name.clone()).unwrap_or_default();
    let roll = roll_text(&view.roll);
    let goal = view.rules.goal.to_string();
    let claim = |seat: Seat, you: Key, other: Key, secs: u32| {
        let who = name(seat);
        let (key, fill): (Key, Vec<(&str, &str)>) = if me == Some(seat) {
            (you, vec![("goal", &goal)])
        } else {
            (other, vec![("name", &who), ("goal", &goal)])
        };
        words.count(key, u64::from(secs), &fill)
    };
    Some(match event {
        RoomEvent::Rolled { .. } => words.text(Key::HeardRolled, &[("roll", &roll), ("goal", &goal)]),
        RoomEvent::Clock { seat, claim: Claim::Score, .. } => {
            claim(*seat, Key::HeardScoreYou, Key::HeardScore, view.rules.score_secs)
        }
        RoomEvent::Clock { seat, claim: Claim::Impossible, .. } => {
            claim(*seat, Key::HeardImpossibleYou, Key::HeardImpossible, view.rules.impossible_secs)
        }
        RoomEvent::Results { outcomes, .. } => {
            let lines = outcomes.iter().map(|o| {
                let line = outcome(o, me, view.rules.goal, &roll, words);
                words.text(Key::HeardResult, &[("line", &line)])
            });
            lines.collect::<Vec<_>>().join(" ")
        }
        RoomEvent::Locked { locked: true } => words.text(Key::HeardLocked, &[]),
        RoomEvent::Locked { locked: false } => words.text(Key::HeardOpened, &[]),
        RoomEvent::Kept { kept: true } => words.text(Key::HeardKept, &[]),
        RoomEvent::Kept { kept: false } => words.text(Key::HeardUnkept, &[]),
        RoomEvent::Lesson { lesson } => {
            words.text(Key::HeardLesson, &[("lesson", &words.lang().grouped(u64::from(*lesson)))])
        }
        RoomEvent::Rules { .. } => words.count(Key::HeardRules, view.rules.dice.len() as u64, &[("goal", &goal)]),
        _ => return None,
    })
}

/// One result as `me` reads it ("Ana +1: 20 made in 2 moves", "You −1: you gave up the
/// SCORE"), in `words`.
pub fn outcome(o: &Outcome, me: Option<Seat>, goal: i64, roll: &str, words: &Catalog) -> String {
    let mine = me == Some(o.seat);
    let goal = goal.to_string();
    let why = match &o.why {
        Why::Made { moves } => words.count(Key::WhyMade, *moves as u64, &[("goal", &goal)]),
        Why::TimeUp => words.text(Key::WhyTimeUp, &[]),
        Why::GaveUp if mine => words.text(Key::WhyGaveUpYou, &[]),
        Why::GaveUp => words.text(Key::WhyGaveUp, &[]),
        Why::NumbersUsedUp => words.text(Key::WhyNumbersUsedUp, &[]),
        Why::Abandoned => words.text(Key::WhyAbandoned, &[]),
        Why::Left => words.text(Key::WhyLeft, &[]),
        Why::TrulyImpossible => words.text(Key::WhyTrulyImpossible, &[("roll", roll)]),
        Why::HadSolution { solution } => {
            words.text(Key::WhyHadSolution, &[("roll", roll), ("solution", &words.signs(solution))])
        }
        Why::NobodyScored => words.text(Key::WhyNobodyScored, &[]),
        Why::ClaimBeaten { by, .. } if *by == o.seat => words.text(Key::WhyClaimWrong, &[]),
        Why::ClaimBeaten { by, .. } if me == Some(*by) => words.text(Key::WhyYouBeatClaim, &[("goal", &goal)]),
        Why::ClaimBeaten { name, .. } => words.text(Key::WhyBeatClaim, &[("name", name), ("goal", &goal)]),
    };
    let points = signed(o.points);
    if mine {
        words.text(Key::OutcomeYou, &[("points", &points), ("why", &why)])
    } else {
        words.text(Key::Outcome, &[("name", &o.name), ("points", &points), ("why", &why)])
    }
}

/// Why the server refused a message, in a sentence that says what to do, in `words`.
pub fn refusal(why: &Refusal, words: &Catalog) -> String {
    let t = |key: Key| words.text(key, &[]);
    let code = |key: Key, code: &str| words.text(key, &[("code", code)]);
    match why {
        Refusal::Unreadable => t(Key::RefusedUnreadable),
        Refusal::SlowDown { what: Flood::Moves } => t(Key::RefusedSlowMoves),
        Refusal::SlowDown { what: Flood::Messages } => t(Key::RefusedSlowMessages),
        Refusal::SlowDown { what: Flood::Chat } => t(Key::RefusedSlowChat),
        Refusal::SlowDown { what: Flood::Joins } => t(Key::RefusedSlowJoins),
        Refusal::SlowDown { what: Flood::Connections } => t(Key::RefusedSlowConnections),
        Refusal::OldPage => t(Key::RefusedOldPage),
        Refusal::NotInRoom => t(Key::RefusedNotInRoom),
        Refusal::NoLongerInRoom => t(Key::RefusedNoLongerInRoom),
        Refusal::Presenting => t(Key::RefusedPresenting),
        Refusal::AlreadySeated => t(Key::RefusedAlreadySeated),
        Refusal::NoSuchRoom { code: c } => code(Key::RefusedNoSuchRoom, c),
        Refusal::HostLinkGone { code: c } => code(Key::RefusedHostLinkGone, c),
        Refusal::WrongHostLink { code: c } => code(Key::RefusedWrongHostLink, c),
        Refusal::NotHost => t(Key::RefusedNotHost),
        Refusal::WrongCodes => t(Key::RefusedWrongCodes),
        Refusal::ServerFull => t(Key::RefusedServerFull),
        Refusal::CodeTaken => t(Key::RefusedCodeTaken),
        Refusal::WrongAddress => t(Key::RefusedWrongAddress),
        Refusal::TooManyUnjoined { rooms } => words.count(Key::RefusedTooManyUnjoined, u64::from(*rooms), &[]),
        Refusal::TooManyCreated { rooms } => words.count(Key::RefusedTooManyCreated, u64::from(*rooms), &[]),
        Refusal::SeatGone { code: c } => code(Key::RefusedSeatGone, c),
        Refusal::Room { error } => room_error(error, words),
        Refusal::NotSeated => t(Key::RefusedNotSeated),
        Refusal::CantRoll { roll, dice } => {
            words.text(Key::RefusedCantRoll, &[("roll", &roll_text(roll)), ("dice", &dice_text(dice))])
        }
        Refusal::Rules { errors } => errors.iter().map(|e| rules_error(e, words)).collect::<Vec<_>>().join(" "),
        Refusal::RulesChanged => t(Key::RefusedRulesChanged),
        Refusal::NoRollsAtLevel { level } => words.text(Key::RefusedNoRollsAtLevel, &[("level", &level.to_string())]),
        Refusal::NotRated { most } => {
            words.text(Key::RefusedNotRated, &[("most", &words.lang().grouped(u64::from(*most)))])
        }
        Refusal::AutoDealTooLong { max_secs } => words.count(Key::RefusedAutoDealTooLong, u64::from(*max_secs), &[]),
        Refusal::TooManyKept { most } => {
            words.text(Key::RefusedTooManyKept, &[("most", &words.lang().grouped(u64::from(*most)))])
        }
        Refusal::Removed => t(Key::RefusedRemoved),
        Refusal::Ended => t(Key::RefusedEnded),
        Refusal::Restarting => t(Key::RefusedRestarting),
        Refusal::OpenElsewhere => t(Key::RefusedOpenElsewhere),
        Refusal::ServerFault => t(Key::RefusedServerFault),
    }
}

/// Why the room refused an input, in `words`.
pub fn room_error(error: &RoomError, words: &Catalog) -> String {
    use crate::protocol::{MAX_CHAT, MAX_MEMBERS, MAX_NAME};
    match error {
        RoomError::NameEmpty => words.text(Key::RoomNameEmpty, &[]),
        RoomError::NameTooLong => words.count(Key::RoomNameTooLong, MAX_NAME as u64, &[]),
        RoomError::NameControl => words.text(Key::RoomNameControl, &[]),
        RoomError::NameTaken(name) => words.text(Key::RoomNameTaken, &[("name", name)]),
        RoomError::Full => words.count(Key::RoomFull, MAX_MEMBERS as u64, &[]),
        RoomError::Locked => words.text(Key::RoomLocked, &[]),
        RoomError::NoSuchSeat => words.text(Key::RoomNoSuchSeat, &[]),
        RoomError::ChatEmpty => words.text(Key::RoomChatEmpty, &[]),
        RoomError::ChatTooLong => words.count(Key::RoomChatTooLong, MAX_CHAT as u64, &[]),
        RoomError::NotYourScore => words.text(Key::RoomNotYourScore, &[]),
        RoomError::NotYourClaim => words.text(Key::RoomNotYourClaim, &[]),
        RoomError::RevealNeedsJudging => words.text(Key::RoomRevealNeedsJudging, &[]),
        RoomError::Removed(name) => words.text(Key::RoomRemovedName, &[("name", name)]),
        RoomError::NotKept => words.text(Key::RoomNotKept, &[]),
        RoomError::ClockRunning => words.text(Key::RoomClockRunning, &[]),
        RoomError::HomeworkCount => {
            words.text(Key::RoomHomeworkCount, &[("n", &crate::room::MAX_HOMEWORK.to_string())])
        }
        RoomError::HomeworkDue => words.text(Key::RoomHomeworkDue, &[]),
        RoomError::NoHomework => words.text(Key::RoomNoHomework, &[]),
        RoomError::HomeworkNotStarted => words.text(Key::RoomHomeworkNotStarted, &[]),
        RoomError::HomeworkOver => words.text(Key::RoomHomeworkOver, &[]),
        RoomError::HomeworkDone => words.text(Key::RoomHomeworkDone, &[]),
        RoomError::NoSuchName(name) => words.text(Key::RoomNoSuchName, &[("name", name)]),
        RoomError::UnknownLanguage => words.text(Key::RoomUnknownLanguage, &[]),
        RoomError::Round(e) => round_error(*e, words),
        RoomError::Board(e) => board_error(*e, words),
    }
}

/// Why the game's rules refused a claim or a move, in `words`.
pub fn round_error(error: RoundError, words: &Catalog) -> String {
    words.text(
        match error {
            RoundError::Over => Key::RoundOver,
            RoundError::ScoreRunning => Key::RoundScoreRunning,
            RoundError::ImpossibleRunning => Key::RoundImpossibleRunning,
            RoundError::NoClaim => Key::RoundNoClaim,
            RoundError::NoScore => Key::RoundNoScore,
            RoundError::StrictUndo => Key::RoundStrictUndo,
            RoundError::FinishScore => Key::RoundFinishScore,
            RoundError::NoSuchPlayer => Key::RoundNoSuchPlayer,
            RoundError::NoHintNow => Key::RoundNoHintNow,
            RoundError::NoSolutionsNow => Key::RoundNoSolutionsNow,
            RoundError::Practice => Key::RoundPractice,
        },
        &[],
    )
}

/// Why the table refused a move, in `words`.
pub fn board_error(error: BoardError, words: &Catalog) -> String {
    let key = match error {
        BoardError::Move(e) => return move_error(e, words),
        BoardError::NoSuchTile => Key::BoardNoSuchTile,
        BoardError::SameTile => Key::BoardSameTile,
        BoardError::NothingToUndo => Key::BoardNothingToUndo,
        BoardError::GoalAlreadyMade => Key::BoardGoalMade,
    };
    words.text(key, &[])
}

/// Why an operator refused its numbers, in `words`.
pub fn move_error(error: MoveError, words: &Catalog) -> String {
    let key = match error {
        MoveError::NotAllowed(op) => return words.text(Key::MoveNotAllowed, &[("op", &words.signs(op.symbol()))]),
        MoveError::DivideByZero => Key::MoveDivideByZero,
        MoveError::ConcatNotWhole => Key::MoveConcatNotWhole,
        MoveError::ConcatZeroLeft => Key::MoveConcatZeroLeft,
        MoveError::ConcatNegativeRight => Key::MoveConcatNegativeRight,
        MoveError::BadExponent => Key::MoveBadExponent,
        MoveError::Overflow => Key::MoveOverflow,
    };
    words.text(key, &[])
}

/// Why the rules are out of range, in `words`.
pub fn rules_error(error: &RulesError, words: &Catalog) -> String {
    match error {
        RulesError::DiceCount(n) => words.text(Key::RulesDiceCount, &[("n", &n.to_string())]),
        RulesError::Sides { index, sides } => {
            words.text(Key::RulesSides, &[("die", &(index + 1).to_string()), ("n", &sides.to_string())])
        }
        RulesError::Goal(goal) => words.text(Key::RulesGoal, &[("n", &goal.to_string())]),
        RulesError::NoOps => words.text(Key::RulesNoOps, &[]),
        RulesError::Clock { secs, .. } => words.text(Key::RulesClock, &[("n", &secs.to_string())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en() -> Catalog {
        Catalog::english()
    }

    fn ben(points: i32, why: Why) -> Outcome {
        Outcome { seat: 1, name: "Ben".into(), points, why }
    }

    // Pins a bug: every page read the engine's solo wording, so Cy read "Ben −1: you gave up
    // the SCORE".
    #[test]
    fn a_result_says_you_only_on_the_page_it_is_about() {
        let gave_up = ben(-1, Why::GaveUp);
        assert_eq!(outcome(&gave_up, Some(2), 20, "2 5 12 12", &en()), "Ben −1: gave up the SCORE");
        assert_eq!(outcome(&gave_up, None, 20, "2 5 12 12", &en()), "Ben −1: gave up the SCORE");
        assert_eq!(outcome(&gave_up, Some(1), 20, "2 5 12 12", &en()), "You −1: you gave up the SCORE");
        let beaten =
            Outcome { seat: 0, name: "Ana".into(), points: -2, why: Why::ClaimBeaten { by: 1, name: "Ben".into() } };
        assert_eq!(outcome(&beaten, Some(2), 20, "", &en()), "Ana −2: Ben made 20 during the IMPOSSIBLE clock");
        assert_eq!(outcome(&beaten, Some(1), 20, "", &en()), "Ana −2: you made 20 during the IMPOSSIBLE clock");
        assert_eq!(outcome(&beaten, Some(0), 20, "", &en()), "You −2: Ben made 20 during the IMPOSSIBLE clock");
    }

    fn two_members() -> View {
        use crate::protocol::Player;
        View {
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
            lang: None,
            kept: false,
            lesson: 1,
            removed: vec![],
            homework: None,
            run: None,
            homework_rows: vec![],
        }
    }

    // Pins a bug: in a room, the live region still spoke of the solitaire roll behind it.
    #[test]
    fn a_screen_reader_hears_the_rooms_roll_clocks_and_results_with_you_only_for_its_reader() {
        let view = two_members();
        let rolled = RoomEvent::Rolled { roll: vec![2, 5, 12, 12] };
        assert_eq!(heard(&rolled, &view, Some(0), &en()).unwrap(), "New roll: 2 5 12 12. Make 20.");
        let clock = RoomEvent::Clock { seat: 1, claim: Claim::Score, deadline: 30_000 };
        assert_eq!(heard(&clock, &view, Some(0), &en()).unwrap(), "Ben pressed SCORE: 30 seconds to make 20.");
        assert_eq!(heard(&clock, &view, Some(1), &en()).unwrap(), "You pressed SCORE: 30 seconds to make 20.");
        let results = RoomEvent::Results { outcomes: vec![ben(-1, Why::GaveUp)], scores: vec![], clock: None };
        assert_eq!(heard(&results, &view, Some(0), &en()).unwrap(), "Ben −1: gave up the SCORE.");
        assert_eq!(heard(&results, &view, Some(1), &en()).unwrap(), "You −1: you gave up the SCORE.");
        assert_eq!(heard(&RoomEvent::Presence { seat: 1, away: true }, &view, None, &en()), None);
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
            (Why::Left, "Ben +1: left while the SCORE clock ran"),
            (Why::TrulyImpossible, "Ben +1: right: 2 5 12 12 has no solution"),
            (Why::HadSolution { solution: "2‖(12 − 12)".into() }, "Ben +1: 2 5 12 12 had a solution: 2‖(12 − 12)"),
            (Why::NobodyScored, "Ben +1: nobody found a solution"),
            (Why::ClaimBeaten { by: 1, name: "Ben".into() }, "Ben +1: the IMPOSSIBLE claim was wrong"),
        ];
        for (why, line) in cases {
            assert_eq!(outcome(&ben(1, why), Some(0), 20, roll, &en()), line);
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
            assert_eq!((why.code(), refusal(&why, &en()).as_str()), (acts_on, words), "{why:?}");
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

    #[test]
    fn every_word_a_room_says_comes_from_the_catalog() {
        let pseudo = Catalog::pseudo();
        let from_catalog = |said: &str| said.starts_with('[') && said.ends_with(']') || said.ends_with("].");
        let view = two_members();
        let events = [
            RoomEvent::Rolled { roll: vec![2, 5, 12, 12] },
            RoomEvent::Clock { seat: 1, claim: Claim::Score, deadline: 1 },
            RoomEvent::Clock { seat: 0, claim: Claim::Impossible, deadline: 1 },
            RoomEvent::Results { outcomes: vec![ben(-1, Why::GaveUp)], scores: vec![], clock: None },
            RoomEvent::Locked { locked: true },
            RoomEvent::Locked { locked: false },
            RoomEvent::Rules { rules: score_engine::Rules::default(), judging: true },
        ];
        for event in &events {
            for me in [None, Some(0), Some(1)] {
                let said = heard(event, &view, me, &pseudo).unwrap();
                assert!(from_catalog(&said), "{event:?}: {said}");
            }
        }
        let whys = [
            Why::Made { moves: 2 },
            Why::TimeUp,
            Why::GaveUp,
            Why::NumbersUsedUp,
            Why::Abandoned,
            Why::Left,
            Why::TrulyImpossible,
            Why::HadSolution { solution: "2‖(12 − 12)".into() },
            Why::NobodyScored,
            Why::ClaimBeaten { by: 0, name: "Ana".into() },
        ];
        for why in whys {
            for me in [None, Some(0), Some(1)] {
                let line = outcome(&ben(1, why.clone()), me, 20, "2 5 12 12", &pseudo);
                // The line and the reason in it: both the catalog's.
                assert!(from_catalog(&line) && line.matches('[').count() == 2, "{why:?}: {line}");
            }
        }
    }

    /// Every error the engine and the room can refuse with (their `Display` is solitaire's
    /// English until it reads the catalog too).
    fn every_error() -> Vec<RoomError> {
        use score_engine::Op;
        let rounds = [
            RoundError::Over,
            RoundError::ScoreRunning,
            RoundError::ImpossibleRunning,
            RoundError::NoClaim,
            RoundError::NoScore,
            RoundError::StrictUndo,
            RoundError::FinishScore,
            RoundError::NoSuchPlayer,
            RoundError::NoHintNow,
            RoundError::NoSolutionsNow,
            RoundError::Practice,
        ];
        let moves = [
            MoveError::DivideByZero,
            MoveError::ConcatNotWhole,
            MoveError::ConcatZeroLeft,
            MoveError::ConcatNegativeRight,
            MoveError::BadExponent,
            MoveError::Overflow,
            MoveError::NotAllowed(Op::Div),
        ];
        let boards =
            [BoardError::NoSuchTile, BoardError::SameTile, BoardError::NothingToUndo, BoardError::GoalAlreadyMade];
        let mut all = vec![
            RoomError::NameEmpty,
            RoomError::NameTooLong,
            RoomError::NameControl,
            RoomError::NameTaken("Ana".into()),
            RoomError::Full,
            RoomError::Locked,
            RoomError::NoSuchSeat,
            RoomError::ChatEmpty,
            RoomError::ChatTooLong,
            RoomError::NotYourScore,
            RoomError::NotYourClaim,
            RoomError::RevealNeedsJudging,
            RoomError::Removed("Ana".into()),
            RoomError::UnknownLanguage,
        ];
        all.extend(rounds.map(RoomError::Round));
        all.extend(boards.map(RoomError::Board));
        all.extend(moves.map(|m| RoomError::Board(BoardError::Move(m))));
        all
    }

    fn every_rules_error() -> Vec<RulesError> {
        use score_engine::Field;
        vec![
            RulesError::DiceCount(2),
            RulesError::Sides { index: 1, sides: 101 },
            RulesError::Goal(10_000),
            RulesError::NoOps,
            RulesError::Clock { field: Field::ScoreClock, secs: 4 },
        ]
    }

    #[test]
    fn the_catalogs_english_for_each_error_is_the_engines_own() {
        for e in every_error() {
            assert_eq!(room_error(&e, &en()), e.to_string(), "{e:?}");
        }
        for e in every_rules_error() {
            assert_eq!(rules_error(&e, &en()), e.to_string(), "{e:?}");
        }
    }

    #[test]
    fn every_refusal_and_error_is_the_catalogs_in_another_language() {
        let pseudo = Catalog::pseudo();
        let whole = |said: &str| said.starts_with('[') && said.ends_with(']') && !said.contains("] [");
        for e in every_error() {
            let said = room_error(&e, &pseudo);
            assert!(whole(&said), "{e:?}: {said}");
            assert!(whole(&refusal(&Refusal::Room { error: e }, &pseudo)));
        }
        for e in every_rules_error() {
            assert!(whole(&rules_error(&e, &pseudo)), "{e:?}");
        }
        let code = || "ABC234".to_string();
        let refusals = [
            Refusal::Unreadable,
            Refusal::SlowDown { what: Flood::Moves },
            Refusal::SlowDown { what: Flood::Messages },
            Refusal::SlowDown { what: Flood::Chat },
            Refusal::SlowDown { what: Flood::Joins },
            Refusal::SlowDown { what: Flood::Connections },
            Refusal::OldPage,
            Refusal::NotInRoom,
            Refusal::NoLongerInRoom,
            Refusal::Presenting,
            Refusal::AlreadySeated,
            Refusal::NoSuchRoom { code: code() },
            Refusal::HostLinkGone { code: code() },
            Refusal::WrongHostLink { code: code() },
            Refusal::NotHost,
            Refusal::WrongCodes,
            Refusal::ServerFull,
            Refusal::CodeTaken,
            Refusal::WrongAddress,
            Refusal::TooManyUnjoined { rooms: 5 },
            Refusal::TooManyCreated { rooms: 30 },
            Refusal::SeatGone { code: code() },
            Refusal::NotSeated,
            Refusal::CantRoll { roll: vec![7, 7, 7, 1], dice: vec![6, 6, 12, 20] },
            Refusal::RulesChanged,
            Refusal::AutoDealTooLong { max_secs: 600 },
            Refusal::NoRollsAtLevel { level: 5 },
            Refusal::NotRated { most: 4 },
            Refusal::TooManyKept { most: 250 },
            Refusal::Removed,
            Refusal::Ended,
            Refusal::Restarting,
            Refusal::OpenElsewhere,
            Refusal::ServerFault,
        ];
        for why in refusals {
            let said = refusal(&why, &pseudo);
            assert!(whole(&said), "{why:?}: {said}");
        }
    }
}
