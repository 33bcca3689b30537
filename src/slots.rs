//! The move slots, `[number] [operator] [number]`: where a tile or an operator is dropped
//! ([`Slot`]) and the move being assembled ([`Slots`]). Plain Rust, tested natively; the
//! game (`game::Game`), the drag hook and the table all build on it, and it
//! depends on none of them.

use score_engine::{Op, TileId};

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

impl Slots {
    /// Puts a tile into a number slot (a drop on the operator slot counts as the right one);
    /// a tile already in the other slot moves.
    pub fn place_tile(&mut self, slot: Slot, id: TileId) {
        if self.left == Some(id) {
            self.left = None;
        }
        if self.right == Some(id) {
            self.right = None;
        }
        match slot {
            Slot::Left => self.left = Some(id),
            Slot::Right | Slot::Op => self.right = Some(id),
        }
    }

    /// A tap on a tile: out of its slot if placed (`false`), else into the first free
    /// number slot (`true`: a move may now be complete).
    pub fn tap(&mut self, id: TileId) -> bool {
        if self.left == Some(id) {
            self.left = None;
        } else if self.right == Some(id) {
            self.right = None;
        } else if self.left.is_none() {
            self.place_tile(Slot::Left, id);
            return true;
        } else {
            self.place_tile(Slot::Right, id);
            return true;
        }
        false
    }

    /// Empties one slot.
    pub fn clear(&mut self, slot: Slot) {
        match slot {
            Slot::Left => self.left = None,
            Slot::Op => self.op = None,
            Slot::Right => self.right = None,
        }
    }

    /// The move, once all three slots are filled.
    pub fn full(&self) -> Option<(TileId, Op, TileId)> {
        Some((self.left?, self.op?, self.right?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tapping_fills_the_first_free_slot_and_a_second_tap_takes_it_out() {
        let mut s = Slots::default();
        assert!(s.tap(TileId(2)));
        assert!(s.tap(TileId(3)));
        assert_eq!((s.left, s.right), (Some(TileId(2)), Some(TileId(3))));
        assert!(!s.tap(TileId(2)));
        assert_eq!(s.left, None);
        assert_eq!(s.full(), None);
        s.place_tile(Slot::Left, TileId(3));
        assert_eq!((s.left, s.right), (Some(TileId(3)), None), "a tile moves, it is never in two slots");
        s.place_tile(Slot::Op, TileId(0));
        s.op = Some(Op::Sub);
        assert_eq!(s.full(), Some((TileId(3), Op::Sub, TileId(0))));
        s.clear(Slot::Op);
        assert_eq!(s.full(), None);
    }
}
