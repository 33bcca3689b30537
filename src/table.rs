//! The table's one interface. [`TableView`](crate::components::TableView) and its parts
//! (dice, slots, operators, working, Undo/Clear, the claim bar) read a [`Desk`] and a
//! [`Claims`] and send [`Act`]s, and never know who answers: the local game (solitaire and
//! pass-and-play, [`crate::ctx::LocalTable`]) or a class room's socket
//! (`components::room_client::Room`). Both implement [`TableSource`]; [`Table::new`] wraps
//! either one for the components, with the drag-and-drop that feeds it.
//!
//! The slot filling both share is plain Rust ([`Slots`], in [`crate::slots`]), tested natively.

use leptos::prelude::*;
use score_engine::{Board, Expr, Op, Rules, TileId};
use score_i18n::{Catalog, Fill, Key};

use crate::game::ResultLine;
use crate::hooks::use_drag::{use_drag, DragState, Payload};

pub use crate::slots::{Slot, Slots};

/// A number as the table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileView {
    /// Unique across rolls, so a new roll redraws (and animates) its dice.
    pub key: (u64, u32),
    /// The tile.
    pub id: TileId,
    /// Its value as text.
    pub text: String,
    /// Made by a move.
    pub red: bool,
    /// The die it came from (sides), for dice.
    pub die: Option<u32>,
    /// How it was made.
    pub working: String,
}

/// The table as it stands: what the numbers, slots, operators and working show.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Desk {
    /// The goal.
    pub goal: i64,
    /// The numbers on the table.
    pub tiles: Vec<TileView>,
    /// The move being assembled.
    pub slots: Slots,
    /// The operators of the rules.
    pub ops: Vec<Op>,
    /// The working so far, one move per line.
    pub moves: Vec<String>,
    /// Why the last action was refused.
    pub message: Option<String>,
    /// Counts rolls, so a new roll replays the roll animation.
    pub roll_count: u64,
}

impl Desk {
    /// The desk of `board` under `rules`.
    pub fn of(board: &Board, rules: &Rules, slots: Slots, message: Option<String>, roll_count: u64) -> Desk {
        let tiles = board
            .tiles()
            .iter()
            .map(|t| TileView {
                key: (roll_count, t.id.0),
                id: t.id,
                text: t.value.to_string(),
                red: t.red,
                die: match t.expr {
                    Expr::Leaf { slot, .. } if !t.red => rules.dice.get(slot).copied(),
                    _ => None,
                },
                working: t.expr.to_string(),
            })
            .collect();
        Desk {
            goal: rules.goal,
            tiles,
            slots,
            ops: rules.ops.iter().collect(),
            moves: board.moves().iter().map(|m| m.step().to_string()).collect(),
            message,
            roll_count,
        }
    }

    /// The text of a tile on the table.
    pub fn text(&self, id: TileId) -> Option<String> {
        self.tiles.iter().find(|t| t.id == id).map(|t| t.text.clone())
    }
}

/// Who may press SCORE and IMPOSSIBLE here: one player (the only one in solitaire and in
/// a room), or each player of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRow {
    /// Who presses (the player's index in a match, a room seat, else 0).
    pub player: usize,
    /// Their name, in a match.
    pub name: Option<String>,
    /// Their score, in a match.
    pub score: Option<i64>,
}

/// A running clock: its label and its deadline in this browser's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockView {
    /// "SCORE clock", "IMPOSSIBLE clock: Ana".
    pub label: String,
    /// When it runs out, ms (this browser's clock).
    pub deadline: u64,
    /// Whose it is, as a claim row's `player`, where the rows show several players.
    pub holder: Option<usize>,
}

/// The claim bar: who may claim, the clock, the last result, what comes next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Claims {
    /// SCORE/IMPOSSIBLE buttons, one row per player who may press them here.
    pub rows: Vec<ClaimRow>,
    /// Whether SCORE may be pressed now (the round's phase: the same for every row).
    pub score_ok: bool,
    /// Whether IMPOSSIBLE may be pressed now.
    pub impossible_ok: bool,
    /// Whether a match's scoreboard shows beside them (rows with names and scores).
    pub scoreboard: bool,
    /// "Reveal now" is offered (an IMPOSSIBLE clock runs).
    pub reveal: bool,
    /// "Give up" is offered (this table's SCORE clock runs).
    pub give_up: bool,
    /// The clock that runs.
    pub clock: Option<ClockView>,
    /// The last results.
    pub results: Vec<ResultLine>,
    /// Whether the roll is settled.
    pub settled: bool,
    /// Whether "Next roll" is offered here once it is (not to a student in a room).
    pub next: bool,
}

/// What a player does at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// A tile dropped on a slot.
    Place(Slot, TileId),
    /// An operator into the operator slot.
    PlaceOp(Op),
    /// A tap (click, Enter, Space) on a tile.
    Tap(TileId),
    /// Empty one slot.
    ClearSlot(Slot),
    /// Empty every slot.
    ClearSlots,
    /// Undo the last move.
    Undo,
    /// Back to the roll.
    Clear,
    /// SCORE, by a player.
    Score(usize),
    /// IMPOSSIBLE, by a player.
    Impossible(usize),
    /// Judge the IMPOSSIBLE claim now.
    Reveal,
    /// Give up the SCORE.
    GiveUp,
    /// The next roll.
    Next,
}

/// What a table talks to. `desk` and `claims` are read inside reactive scopes (they track
/// what they read); `act` does what the player did.
pub trait TableSource: Copy + Send + Sync + 'static {
    /// The numbers, slots and working.
    fn desk(&self) -> Desk;
    /// The claim bar.
    fn claims(&self) -> Claims;
    /// A player's action.
    fn act(&self, act: Act);
}

/// A table for the components: a [`TableSource`] behind memos, and the drag state feeding
/// it. Provided as context by whoever shows a table ([`Table::provide`]).
#[derive(Clone, Copy)]
pub struct Table {
    /// The numbers, slots and working.
    pub desk: Memo<Desk>,
    /// The claim bar.
    pub claims: Memo<Claims>,
    /// Dragging into the slots.
    pub drag: DragState,
    /// The wall clock, ms, for the countdown.
    pub now: Signal<u64>,
    /// The words of the page's language.
    pub words: Signal<Catalog>,
    act: Callback<Act>,
}

impl Table {
    /// Wraps `source`, and provides it to the components below.
    pub fn provide(source: impl TableSource, now: Signal<u64>, words: Signal<Catalog>) -> Table {
        let table = Table::new(source, now, words);
        provide_context(table);
        table
    }

    /// Wraps `source`, for a `Provider` of its own: a second table on a page (a student's
    /// homework beside the class's) whose context must not outlive it in the owner above.
    pub fn new(source: impl TableSource, now: Signal<u64>, words: Signal<Catalog>) -> Table {
        let drag = use_drag(move |payload, slot| match (payload, slot) {
            (Payload::Tile(id), Slot::Left | Slot::Right) => source.act(Act::Place(slot, id)),
            (Payload::Op(op), Slot::Op) => source.act(Act::PlaceOp(op)),
            _ => {}
        });
        Table {
            desk: Memo::new(move |_| source.desk()),
            claims: Memo::new(move |_| source.claims()),
            drag,
            now,
            words,
            act: Callback::new(move |a| source.act(a)),
        }
    }

    /// Does what the player did.
    pub fn act(&self, act: Act) {
        self.act.run(act);
    }

    /// The words of `key` in the page's language.
    pub fn t(&self, key: Key, fill: &[Fill]) -> String {
        self.words.with(|w| w.text(key, fill))
    }

    /// The words of `key`, following the page's language (a view's text or attribute).
    pub fn tr(self, key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || self.t(key, &[])
    }

    /// `text` (an operator, an expression, working) with × and ÷ written the page's way.
    pub fn signs(&self, text: &str) -> String {
        self.words.with(|w| w.signs(text))
    }
}

/// The table provided by the component that shows it.
pub fn use_table() -> Table {
    expect_context::<Table>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_desk_shows_dice_with_their_sides_and_red_numbers_without() {
        let rules = Rules::default();
        let mut board = Board::new(&[2, 5, 12, 12], &rules);
        board.apply(score_engine::Action::Combine { left: TileId(2), op: Op::Sub, right: TileId(3) }).expect("12 − 12");
        let desk = Desk::of(&board, &rules, Slots::default(), None, 7);
        let shown: Vec<(&str, bool, Option<u32>)> =
            desk.tiles.iter().map(|t| (t.text.as_str(), t.red, t.die)).collect();
        assert_eq!(shown, [("2", false, Some(6)), ("5", false, Some(6)), ("0", true, None)]);
        assert_eq!(desk.moves, ["12 − 12 = 0"]);
        assert_eq!((desk.goal, desk.roll_count, desk.tiles[0].key), (20, 7, (7, 0)));
    }
}
