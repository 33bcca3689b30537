//! The state of one player's table: rules, roll, board, round, score and the
//! move slots, with every player action as a method taking `now_ms`.
//!
//! This is plain Rust (no DOM), so the app's behaviour beyond the engine —
//! slot filling, which messages appear, how awards become score and history —
//! is tested natively. Components only call these methods and render.

use score_engine::board::Move;
use score_engine::round::Reason;
use score_engine::stats::HistoryEntry;
use score_engine::{
    solve, Action, Award, Board, Event, Input, Op, Puzzle, Round, Rules, Stats, TileId,
};
use serde::{Deserialize, Serialize};

/// Where a number or operator is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The left number.
    Left,
    /// The operator.
    Op,
    /// The right number.
    Right,
}

impl Slot {
    /// The `data-slot` name in the page.
    pub fn key(self) -> &'static str {
        match self {
            Slot::Left => "left",
            Slot::Op => "op",
            Slot::Right => "right",
        }
    }

    /// The slot with this `data-slot` name.
    pub fn from_key(s: &str) -> Option<Slot> {
        match s {
            "left" => Some(Slot::Left),
            "op" => Some(Slot::Op),
            "right" => Some(Slot::Right),
            _ => None,
        }
    }
}

/// The move being assembled: `[number] [operator] [number]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Slots {
    /// The left number.
    pub left: Option<TileId>,
    /// The operator.
    pub op: Option<Op>,
    /// The right number.
    pub right: Option<TileId>,
}

/// A settled result, as shown to the player: "+1: 20 made in 2 moves".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultLine {
    /// Points.
    pub points: i32,
    /// The line, points first.
    pub text: String,
}

/// What is stored so a reload resumes the roll and cannot escape a running claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// The roll.
    pub roll: Vec<i64>,
    /// The round, with its deadlines.
    pub round: Round,
}

/// One player's table.
#[derive(Debug, Clone)]
pub struct Game {
    /// The rules in force.
    pub rules: Rules,
    /// The roll.
    pub roll: Vec<i64>,
    /// The board.
    pub board: Board,
    /// Claims and clocks.
    pub round: Round,
    /// Score, streaks, history.
    pub stats: Stats,
    /// The move being assembled.
    pub slots: Slots,
    /// The last refusal, shown beside the slots.
    pub message: Option<String>,
    /// The last settled results.
    pub results: Vec<ResultLine>,
    /// Counts rolls, so the page can replay the roll animation.
    pub roll_count: u64,
    /// The latest thing to tell a screen reader (moves, refusals, claims, results).
    pub announcement: String,
}

/// Formats points with a real minus sign: +1, 0, −2.
pub fn signed(points: i32) -> String {
    match points {
        p if p > 0 => format!("+{p}"),
        p if p < 0 => format!("−{}", -p),
        _ => "0".into(),
    }
}

/// A roll as text: "2 5 12 12".
pub fn roll_text(roll: &[i64]) -> String {
    roll.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Game {
    /// A table for `roll` (already checked against `rules`).
    pub fn new(rules: Rules, roll: Vec<i64>, stats: Stats) -> Game {
        let board = Board::new(&roll, &rules);
        let round = Round::solitaire(
            &rules,
            solve::is_solvable(&Puzzle::from_roll(&roll, &rules)),
        );
        let announcement = format!("New roll: {}. Make {}.", roll_text(&roll), rules.goal);
        Game {
            rules,
            roll,
            board,
            round,
            stats,
            slots: Slots::default(),
            message: None,
            results: Vec::new(),
            roll_count: 0,
            announcement,
        }
    }

    /// Restores a saved roll and round, settling a claim whose clock ran out meanwhile.
    pub fn restore(rules: Rules, saved: Saved, stats: Stats, now_ms: u64) -> Game {
        let mut g = Game::new(rules, saved.roll, stats);
        g.round = saved.round;
        let awards = g.round.tick(now_ms);
        g.settle(&awards, now_ms);
        g
    }

    /// What to store.
    pub fn saved(&self) -> Saved {
        Saved {
            roll: self.roll.clone(),
            round: self.round.clone(),
        }
    }

    /// The simplest solution, as text.
    pub fn a_solution(&self) -> Option<String> {
        solve::simplest(&Puzzle::from_roll(&self.roll, &self.rules)).map(|e| e.to_string())
    }

    fn line(&self, a: &Award) -> String {
        let goal = self.rules.goal;
        let why = match a.reason {
            Reason::Made { moves } => format!("{goal} made in {moves} moves"),
            Reason::FreePractice => "the clock wasn't running".into(),
            Reason::TimeUp => "the SCORE clock ran out".into(),
            Reason::GaveUp => "you gave up the SCORE".into(),
            Reason::NumbersUsedUp => "the numbers ran out (strict mode)".into(),
            Reason::Abandoned => "a new roll while the SCORE clock ran".into(),
            Reason::TrulyImpossible => format!("right: {} has no solution", roll_text(&self.roll)),
            Reason::HadSolution => format!(
                "{} had a solution: {}",
                roll_text(&self.roll),
                self.a_solution().unwrap_or_default()
            ),
            Reason::NobodyScored => "nobody found a solution".into(),
            Reason::ClaimBeaten { .. } => "the IMPOSSIBLE claim was wrong".into(),
        };
        format!("{}: {why}", signed(a.points))
    }

    fn settle(&mut self, awards: &[Award], now_ms: u64) {
        if awards.is_empty() {
            return;
        }
        self.results.clear();
        for a in awards {
            let text = self.line(a);
            let claim = match a.reason {
                Reason::FreePractice => "practice",
                Reason::TrulyImpossible
                | Reason::HadSolution
                | Reason::NobodyScored
                | Reason::ClaimBeaten { .. } => "IMPOSSIBLE",
                _ => "SCORE",
            };
            self.stats.record(HistoryEntry {
                roll: self.roll.clone(),
                goal: self.rules.goal,
                claim: claim.into(),
                points: a.points,
                reason: text.clone(),
                at_ms: now_ms,
            });
            self.results.push(ResultLine {
                points: a.points,
                text,
            });
        }
        let lines: Vec<&str> = self.results.iter().map(|r| r.text.as_str()).collect();
        self.announcement = lines.join(". ");
    }

    fn input(&mut self, input: Input, now_ms: u64) {
        match self.round.apply(input, now_ms) {
            Ok(awards) => {
                self.message = None;
                if awards.is_empty() {
                    if let Some(secs) = self.round.remaining_ms(now_ms).map(|ms| ms.div_ceil(1000))
                    {
                        let claim = if self.round.score_running() {
                            "SCORE"
                        } else {
                            "IMPOSSIBLE"
                        };
                        self.announcement = format!("{claim}: the clock runs {secs} seconds.");
                    }
                }
                self.settle(&awards, now_ms);
            }
            Err(e) => {
                self.announcement = e.to_string();
                self.message = Some(e.to_string());
            }
        }
    }

    /// Time passes: settles a clock that ran out.
    pub fn tick(&mut self, now_ms: u64) {
        let awards = self.round.tick(now_ms);
        self.settle(&awards, now_ms);
    }

    /// SCORE.
    pub fn press_score(&mut self, now_ms: u64) {
        self.results.clear();
        self.input(Input::Score(0), now_ms);
    }

    /// IMPOSSIBLE.
    pub fn press_impossible(&mut self, now_ms: u64) {
        self.results.clear();
        self.input(Input::Impossible(0), now_ms);
    }

    /// Reveal now: judge the IMPOSSIBLE claim.
    pub fn reveal(&mut self, now_ms: u64) {
        self.input(Input::RevealNow, now_ms);
    }

    /// Give up the SCORE.
    pub fn give_up(&mut self, now_ms: u64) {
        self.input(Input::GiveUp, now_ms);
    }

    /// A new roll (or new rules): settles whatever runs first.
    pub fn new_roll(&mut self, rules: Rules, roll: Vec<i64>, now_ms: u64) {
        let awards = self.round.apply(Input::Abandon, now_ms).unwrap_or_default();
        self.settle(&awards, now_ms);
        let stats = std::mem::take(&mut self.stats);
        let (results, count) = (std::mem::take(&mut self.results), self.roll_count);
        *self = Game::new(rules, roll, stats);
        self.results = results;
        self.roll_count = count + 1;
    }

    /// Puts a tile into a number slot (tap, key or drop).
    pub fn place_tile(&mut self, slot: Slot, id: TileId, now_ms: u64) {
        if self.slots.left == Some(id) {
            self.slots.left = None;
        }
        if self.slots.right == Some(id) {
            self.slots.right = None;
        }
        match slot {
            Slot::Left => self.slots.left = Some(id),
            Slot::Right | Slot::Op => self.slots.right = Some(id),
        }
        self.try_move(now_ms);
    }

    /// Puts an operator into the operator slot.
    pub fn place_op(&mut self, op: Op, now_ms: u64) {
        self.slots.op = Some(op);
        self.try_move(now_ms);
    }

    /// Tap on a tile: out of its slot if placed, else into the first free number slot.
    pub fn tap_tile(&mut self, id: TileId, now_ms: u64) {
        if self.slots.left == Some(id) {
            self.slots.left = None;
        } else if self.slots.right == Some(id) {
            self.slots.right = None;
        } else if self.slots.left.is_none() {
            self.place_tile(Slot::Left, id, now_ms);
        } else {
            self.place_tile(Slot::Right, id, now_ms);
        }
    }

    /// Empties one slot.
    pub fn clear_slot(&mut self, slot: Slot) {
        match slot {
            Slot::Left => self.slots.left = None,
            Slot::Op => self.slots.op = None,
            Slot::Right => self.slots.right = None,
        }
    }

    fn try_move(&mut self, now_ms: u64) {
        let Slots {
            left: Some(left),
            op: Some(op),
            right: Some(right),
        } = self.slots
        else {
            return;
        };
        match self.board.apply(Action::Combine { left, op, right }) {
            Ok(Event::Combined {
                made_goal, tile, ..
            }) => {
                self.slots = Slots::default();
                self.message = None;
                if let Some(m) = self.board.moves().last() {
                    let step = score_engine::Step {
                        left: m.left.value,
                        op,
                        right: m.right.value,
                        result: m.result.value,
                    };
                    self.announcement = step.to_string();
                }
                if made_goal {
                    let moves = self.board.tile(tile).map_or(0, |t| t.expr.moves());
                    self.input(Input::GoalMade { moves }, now_ms);
                } else if self.board.is_exhausted() {
                    self.input(Input::Exhausted, now_ms);
                }
            }
            Ok(_) => {}
            Err(e) => {
                self.announcement = e.to_string();
                self.message = Some(e.to_string());
            }
        }
    }

    /// Undo the last move.
    pub fn undo(&mut self) {
        self.board_action(Action::Undo);
    }

    /// Back to the roll.
    pub fn clear(&mut self) {
        self.board_action(Action::Clear);
    }

    fn board_action(&mut self, action: Action) {
        if !self.round.undo_allowed() {
            self.message = Some("Strict mode: no undo while the SCORE clock runs.".into());
            return;
        }
        self.slots = Slots::default();
        self.message = self.board.apply(action).err().map(|e| e.to_string());
        self.announcement = match (&self.message, action) {
            (Some(m), _) => m.clone(),
            (None, Action::Undo) => "Move undone.".into(),
            (None, _) => format!("Back to the roll: {}.", roll_text(&self.roll)),
        };
    }

    /// The moves made this roll.
    pub fn moves(&self) -> &[Move] {
        self.board.moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(roll: &[i64]) -> Game {
        Game::new(Rules::default(), roll.to_vec(), Stats::new())
    }

    #[test]
    fn tapping_two_tiles_and_an_operator_makes_a_move() {
        let mut g = game(&[2, 5, 12, 12]);
        g.tap_tile(TileId(2), 0);
        g.tap_tile(TileId(3), 0);
        assert_eq!(g.slots.right, Some(TileId(3)));
        g.place_op(Op::Sub, 0);
        assert_eq!(g.board.tiles().len(), 3);
        assert_eq!(g.slots, Slots::default());
    }

    #[test]
    fn moves_and_results_are_announced() {
        let mut g = game(&[2, 5, 12, 12]);
        g.tap_tile(TileId(2), 0);
        g.tap_tile(TileId(3), 0);
        g.place_op(Op::Sub, 0);
        assert_eq!(g.announcement, "12 − 12 = 0");
        g.press_score(0);
        assert_eq!(g.announcement, "SCORE: the clock runs 30 seconds.");
        g.tap_tile(TileId(0), 0);
        g.tap_tile(TileId(4), 0);
        g.place_op(Op::Concat, 1);
        assert_eq!(g.announcement, "+1: 20 made in 2 moves");
    }

    #[test]
    fn refused_move_keeps_the_board_and_says_why() {
        let mut g = game(&[2, 5, 12, 12]);
        g.press_score(0);
        g.tap_tile(TileId(2), 0);
        g.tap_tile(TileId(3), 0);
        g.place_op(Op::Sub, 0); // 0
        g.tap_tile(TileId(0), 0);
        g.tap_tile(TileId(4), 0);
        g.place_op(Op::Div, 0); // 2 ÷ 0
        assert_eq!(g.message.as_deref(), Some("You can't divide by zero."));
        assert_eq!(g.board.tiles().len(), 3);
        g.place_op(Op::Concat, 1000); // 2‖0 = 20
        assert_eq!(g.stats.score, 1);
        assert_eq!(g.results[0].text, "+1: 20 made in 2 moves");
    }

    #[test]
    fn wrong_impossible_claim_costs_two_and_shows_a_solution() {
        let mut g = game(&[2, 5, 12, 12]);
        g.press_impossible(0);
        g.reveal(1000);
        assert_eq!(g.stats.score, -2);
        assert!(
            g.results[0]
                .text
                .starts_with("−2: 2 5 12 12 had a solution: "),
            "{}",
            g.results[0].text
        );
        assert_eq!(g.stats.history[0].claim, "IMPOSSIBLE");
    }

    #[test]
    fn reload_after_the_clock_ran_out_settles_the_claim() {
        let mut g = game(&[1, 1, 1, 4]);
        g.press_score(0);
        let saved = g.saved();
        let back = Game::restore(Rules::default(), saved, g.stats.clone(), 31_000);
        assert_eq!(back.stats.score, -1);
        assert_eq!(back.results[0].text, "−1: the SCORE clock ran out");
    }

    #[test]
    fn new_roll_during_score_fails_it_and_keeps_the_score() {
        let mut g = game(&[1, 1, 1, 4]);
        g.press_score(0);
        g.new_roll(Rules::default(), vec![2, 5, 12, 12], 5);
        assert_eq!(g.stats.score, -1);
        assert_eq!(g.roll, [2, 5, 12, 12]);
        assert_eq!(g.roll_count, 1);
    }

    #[test]
    fn strict_mode_blocks_undo_under_the_score_clock() {
        let rules = Rules {
            strict: true,
            ..Rules::default()
        };
        let mut g = Game::new(rules, vec![2, 5, 12, 12], Stats::new());
        g.tap_tile(TileId(2), 0);
        g.tap_tile(TileId(3), 0);
        g.place_op(Op::Add, 0);
        g.press_score(0);
        g.undo();
        assert!(g
            .message
            .as_deref()
            .unwrap_or("")
            .starts_with("Strict mode"));
        assert_eq!(g.board.moves().len(), 1);
    }
}
