//! A room's results in words, as one reader's page shows them: the room sends data (who,
//! how many points, why), and each page words it, saying "you" only on the reader's own
//! line. The teacher's download reads as nobody in particular (`me: None`).

use score_engine::round::signed;

use crate::protocol::{Outcome, Seat, Why};

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
