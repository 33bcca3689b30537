//! A room's results in words, as one reader's page shows them: the room sends data (who,
//! how many points, why), and each page words it, saying "you" only on the reader's own
//! line. The teacher's download reads as nobody in particular (`me: None`).
//!
//! [`heard`] is what a page's live region says of a room event, for a reader using a screen
//! reader: the room's own roll, clocks and results, never the solitaire table behind it.

use score_engine::round::signed;

use crate::protocol::{Claim, Outcome, RoomEvent, Seat, View, Why};

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
}
