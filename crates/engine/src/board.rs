//! One round of play on the table: the pool of tiles and the moves made.
//!
//! The board is a reducer: [`Board::apply`] takes an [`Action`] and returns
//! an [`Event`] or a [`BoardError`], with no side effects, so the UI only
//! dispatches and renders. A refused action leaves the board exactly as it
//! was. Whether the goal is made follows docs/RULES.md §3: the result of a move
//! with at least one red input, and with every number used when the rules
//! say so.

use serde::{Deserialize, Serialize};

use crate::expr::{Expr, Step};
use crate::number::Num;
use crate::op::{MoveError, Op, OpSet};
use crate::rules::Rules;
use crate::solve::Puzzle;

/// A tile's identity, stable while it is on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TileId(pub u32);

/// A number on the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tile {
    /// Its identity.
    pub id: TileId,
    /// Its value.
    pub value: Num,
    /// Whether it was made by a move (shown red).
    pub red: bool,
    /// How it was made (a leaf for a die).
    pub expr: Expr,
}

/// Something the player does to the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Combine two tiles with an operator.
    Combine {
        /// The left tile.
        left: TileId,
        /// The operator.
        op: Op,
        /// The right tile.
        right: TileId,
    },
    /// Take back the last move.
    Undo,
    /// Take back every move.
    Clear,
}

/// What an action did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A move was made.
    Combined {
        /// The new red tile.
        tile: TileId,
        /// Its value.
        value: Num,
        /// Whether this move made the goal.
        made_goal: bool,
    },
    /// The last move was taken back.
    Undone,
    /// The board is back to the roll.
    Cleared,
}

/// Why an action was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum BoardError {
    /// The move itself was refused (÷ 0, a bad ‖, an overflow, an operator switched off).
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A tile that is not on the board.
    #[error("That number is no longer on the table.")]
    NoSuchTile,
    /// The same tile on both sides.
    #[error("Pick two different numbers.")]
    SameTile,
    /// Undo with no move to undo.
    #[error("There is no move to undo.")]
    NothingToUndo,
    /// A move after the goal was made.
    #[error("The goal is made: roll again to play on.")]
    GoalAlreadyMade,
}

/// A move as made, for the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The left tile as it was.
    pub left: Tile,
    /// The operator.
    pub op: Op,
    /// The right tile as it was.
    pub right: Tile,
    /// The red tile made.
    pub result: Tile,
    /// Where the two inputs stood in the pool (to put them back on undo).
    positions: (usize, usize),
}

impl Move {
    /// The move as one line of working: `12 − 12 = 0`.
    pub fn step(&self) -> Step {
        Step { left: self.left.value, op: self.op, right: self.right.value, result: self.result.value }
    }
}

/// The table for one roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    roll: Vec<Num>,
    goal: Num,
    ops: OpSet,
    use_all: bool,
    tiles: Vec<Tile>,
    moves: Vec<Move>,
    next_id: u32,
    made: bool,
}

impl Board {
    /// A board for `roll` under `rules`.
    pub fn new(roll: &[i64], rules: &Rules) -> Board {
        Board::with_numbers(roll.iter().map(|&v| Num::int(v)).collect(), Num::int(rules.goal), rules.ops, rules.use_all)
    }

    /// A board for any numbers and goal.
    pub fn with_numbers(roll: Vec<Num>, goal: Num, ops: OpSet, use_all: bool) -> Board {
        let mut b = Board { roll, goal, ops, use_all, tiles: Vec::new(), moves: Vec::new(), next_id: 0, made: false };
        b.reset();
        b
    }

    fn reset(&mut self) {
        self.tiles = self
            .roll
            .iter()
            .enumerate()
            .map(|(slot, &value)| Tile { id: TileId(slot as u32), value, red: false, expr: Expr::leaf(value, slot) })
            .collect();
        self.next_id = self.roll.len() as u32;
        self.moves.clear();
        self.made = false;
    }

    /// The tiles on the table, dice first, then red tiles in the order made.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The moves made, oldest first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The actions that rebuild this board from the roll: its moves, oldest first, with no
    /// undo or clear (so never more than one fewer than the numbers rolled).
    pub fn actions(&self) -> Vec<Action> {
        self.moves.iter().map(|m| Action::Combine { left: m.left.id, op: m.op, right: m.right.id }).collect()
    }

    /// The numbers rolled.
    pub fn roll(&self) -> &[Num] {
        &self.roll
    }

    /// The goal.
    pub fn goal(&self) -> Num {
        self.goal
    }

    /// The enabled operators.
    pub fn ops(&self) -> OpSet {
        self.ops
    }

    /// Whether the goal has been made.
    pub fn is_made(&self) -> bool {
        self.made
    }

    /// Whether no move is left and the goal is not made (strict mode fails a SCORE then).
    pub fn is_exhausted(&self) -> bool {
        !self.made && self.tiles.len() < 2
    }

    /// How many moves made a tile: the moves of its working, not moves spent elsewhere on
    /// the board. "20 made in N moves" counts these, in solitaire and in rooms alike.
    pub fn moves_to(&self, id: TileId) -> usize {
        self.tile(id).map_or(0, |t| t.expr.moves())
    }

    /// A tile by id.
    pub fn tile(&self, id: TileId) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.id == id)
    }

    /// The position as a puzzle, for hints: the tiles in order, red ones marked.
    pub fn puzzle(&self) -> Puzzle {
        Puzzle {
            numbers: self.tiles.iter().map(|t| t.value).collect(),
            red: self.tiles.iter().map(|t| t.red).collect(),
            goal: self.goal,
            ops: self.ops,
            use_all: self.use_all,
            whole_only: false,
        }
    }

    /// Applies an action; a refused action changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<Event, BoardError> {
        match action {
            Action::Combine { left, op, right } => self.combine(left, op, right),
            Action::Undo => {
                let m = self.moves.pop().ok_or(BoardError::NothingToUndo)?;
                self.tiles.retain(|t| t.id != m.result.id);
                // The undone move's id is the next one again: a board is the same whichever
                // way it was reached, so its moves alone replay it (a room keeps only those).
                self.next_id = m.result.id.0;
                let (lp, rp) = m.positions;
                // Reinsert at the lower position first so both land where they were.
                let back = if lp <= rp { [(lp, m.left), (rp, m.right)] } else { [(rp, m.right), (lp, m.left)] };
                for (p, t) in back {
                    self.tiles.insert(p.min(self.tiles.len()), t);
                }
                self.made = false;
                Ok(Event::Undone)
            }
            Action::Clear => {
                self.reset();
                Ok(Event::Cleared)
            }
        }
    }

    fn combine(&mut self, left: TileId, op: Op, right: TileId) -> Result<Event, BoardError> {
        if self.made {
            return Err(BoardError::GoalAlreadyMade);
        }
        if left == right {
            return Err(BoardError::SameTile);
        }
        let lp = self.tiles.iter().position(|t| t.id == left).ok_or(BoardError::NoSuchTile)?;
        let rp = self.tiles.iter().position(|t| t.id == right).ok_or(BoardError::NoSuchTile)?;
        if !self.ops.contains(op) {
            return Err(MoveError::NotAllowed(op).into());
        }
        let (l, r) = (&self.tiles[lp], &self.tiles[rp]);
        let expr = Expr::combine(op, l.expr.clone(), r.expr.clone())?;
        let value = expr.value();
        let red_in = l.red || r.red;
        let id = TileId(self.next_id);
        self.next_id += 1;
        let result = Tile { id, value, red: true, expr };
        let (left_tile, right_tile) = (l.clone(), r.clone());
        for p in [lp.max(rp), lp.min(rp)] {
            self.tiles.remove(p);
        }
        self.tiles.push(result.clone());
        self.made = value == self.goal && red_in && (!self.use_all || self.tiles.len() == 1);
        self.moves.push(Move { left: left_tile, op, right: right_tile, result, positions: (lp, rp) });
        Ok(Event::Combined { tile: id, value, made_goal: self.made })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn ids(b: &Board) -> Vec<u32> {
        b.tiles().iter().map(|t| t.id.0).collect()
    }

    fn combine(b: &mut Board, l: u32, op: Op, r: u32) -> Result<Event, BoardError> {
        b.apply(Action::Combine { left: TileId(l), op, right: TileId(r) })
    }

    #[test]
    fn two_move_solution_makes_the_goal_through_a_red_number() {
        let mut b = Board::new(&[2, 5, 12, 12], &Rules::default());
        let e = combine(&mut b, 2, Op::Sub, 3).unwrap(); // 12 − 12 = 0
        assert_eq!(e, Event::Combined { tile: TileId(4), value: Num::ZERO, made_goal: false });
        assert_eq!(combine(&mut b, 2, Op::Add, 0), Err(BoardError::NoSuchTile));
        let e = combine(&mut b, 0, Op::Concat, 4).unwrap(); // 2‖0 = 20
        assert_eq!(e, Event::Combined { tile: TileId(5), value: Num::int(20), made_goal: true });
        let working: Vec<String> = b
            .moves()
            .iter()
            .map(|m| format!("{} {} {} = {}", m.left.value, m.op, m.right.value, m.result.value))
            .collect();
        assert_eq!(working, ["12 − 12 = 0", "2 ‖ 0 = 20"]);
        assert_eq!(b.tiles().last().unwrap().expr.to_string(), "2‖(12 − 12)");
    }

    #[test]
    fn goal_from_two_dice_does_not_count() {
        let mut b = Board::new(&[4, 5, 1, 1], &Rules::default());
        let e = combine(&mut b, 0, Op::Mul, 1).unwrap();
        assert!(matches!(e, Event::Combined { made_goal: false, .. }));
        // 20 (red) × (1 × 1) counts.
        combine(&mut b, 2, Op::Mul, 3).unwrap();
        let e = combine(&mut b, 4, Op::Mul, 5).unwrap();
        assert!(matches!(e, Event::Combined { made_goal: true, .. }));
        assert!(b.is_made());
        assert_eq!(combine(&mut b, 6, Op::Add, 6), Err(BoardError::GoalAlreadyMade));
    }

    #[test]
    fn refused_moves_change_nothing() {
        let mut b = Board::new(&[0, 5, 1, 1], &Rules::default());
        let before = b.clone();
        assert_eq!(combine(&mut b, 1, Op::Div, 0), Err(BoardError::Move(MoveError::DivideByZero)));
        assert_eq!(combine(&mut b, 0, Op::Concat, 1), Err(BoardError::Move(MoveError::ConcatZeroLeft)));
        assert_eq!(combine(&mut b, 1, Op::Add, 1), Err(BoardError::SameTile));
        assert_eq!(b.apply(Action::Undo), Err(BoardError::NothingToUndo));
        let mut t = Board::new(&[1, 2, 3, 4], &Rules::preset(Preset::TwentyFour));
        assert_eq!(combine(&mut t, 0, Op::Concat, 1), Err(BoardError::Move(MoveError::NotAllowed(Op::Concat))));
        assert_eq!(b, before);
    }

    #[test]
    fn undo_restores_tiles_in_place_and_clear_restores_the_roll() {
        let mut b = Board::new(&[1, 2, 3, 4], &Rules::default());
        combine(&mut b, 3, Op::Sub, 1).unwrap();
        assert_eq!(ids(&b), [0, 2, 4]);
        b.apply(Action::Undo).unwrap();
        assert_eq!(ids(&b), [0, 1, 2, 3]);
        combine(&mut b, 0, Op::Add, 2).unwrap();
        combine(&mut b, 4, Op::Mul, 1).unwrap();
        b.apply(Action::Clear).unwrap();
        assert_eq!(ids(&b), [0, 1, 2, 3]);
        assert!(b.moves().is_empty());
    }

    // Pins a bug: a room kept every undo and clear to replay a board, a log without bound.
    // Undo gives its move's id back, so a board's moves alone rebuild it, ids and all.
    #[test]
    fn a_board_is_rebuilt_by_its_moves_alone_whatever_undo_and_clear_came_between() {
        let mut b = Board::new(&[1, 2, 3, 4], &Rules::default());
        combine(&mut b, 3, Op::Sub, 1).unwrap();
        b.apply(Action::Undo).unwrap();
        combine(&mut b, 0, Op::Add, 2).unwrap();
        assert_eq!(ids(&b), [1, 3, 4], "the undone move's id is used again");
        combine(&mut b, 4, Op::Mul, 1).unwrap();
        b.apply(Action::Undo).unwrap();
        combine(&mut b, 1, Op::Concat, 3).unwrap();
        let mut again = Board::new(&[1, 2, 3, 4], &Rules::default());
        for a in b.actions() {
            again.apply(a).unwrap();
        }
        assert_eq!(again, b);
        assert_eq!(b.actions().len(), 2);
    }

    #[test]
    fn twenty_four_needs_every_number() {
        let mut b = Board::new(&[3, 3, 8, 8], &Rules::preset(Preset::TwentyFour));
        combine(&mut b, 2, Op::Div, 0).unwrap(); // 8 ÷ 3
        combine(&mut b, 1, Op::Sub, 4).unwrap(); // 3 − 8/3 = 1/3
        let e = combine(&mut b, 3, Op::Div, 5).unwrap(); // 8 ÷ 1/3 = 24
        assert_eq!(e, Event::Combined { tile: TileId(6), value: Num::int(24), made_goal: true });
        assert!(!b.is_exhausted());
    }
}
