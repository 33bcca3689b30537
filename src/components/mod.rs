//! The components, one per file.

use std::hash::{Hash, Hasher};

/// A keyed list's key for an item (`<For key=…>`): what identifies the item, hashed to 64
/// bits. Every list has this one key type, so the lists share one instance of the keyed
/// list's code (each key type linked its own set and diff: about 1.3 KB of wasm each). Two
/// items of a list collide with a chance of about 2⁻⁶⁴ (a collision would keep a row's old
/// text): each key holds the row's index or the tile's roll and id.
pub(crate) fn list_key(item: impl Hash) -> u64 {
    let mut hasher = Fnv64(0xcbf2_9ce4_8422_2325);
    item.hash(&mut hasher);
    hasher.finish()
}

/// FNV-1a with 64 bits on every target (the Fx hasher keeps 32 on wasm32), in a few
/// instructions.
struct Fnv64(u64);

impl Hasher for Fnv64 {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) mod claim_bar;
mod claim_buttons;
mod daily_panel;
mod difficulty_select;
mod experiment_panel;
mod help_card;
pub mod impossibles_panel;
pub mod language_picker;
mod move_list;
mod move_slots;
mod number_tile;
pub(crate) mod op_palette;
mod play_roll_form;
mod players_panel;
mod room_chat;
pub mod room_client;
mod room_homework;
mod room_host;
mod room_host_panel;
mod room_join;
pub mod room_panel;
mod room_presenter;
mod room_report;
mod room_rules;
mod room_scoreboard;
mod room_student;
mod room_table;
mod rules_panel;
mod score_panel;
mod settings_panel;
mod solo_table;
mod solution_list;
pub(crate) mod solutions_panel;
mod table_view;
mod tools_host;
mod worksheet_panel;

pub use claim_bar::ClaimBar;
pub use claim_buttons::ClaimButtons;
pub use daily_panel::DailyPanel;
pub use difficulty_select::DifficultySelect;
pub use experiment_panel::ExperimentPanel;
pub use help_card::HelpCard;
pub use impossibles_panel::ImpossiblesPanel;
pub use language_picker::{LanguagePicker, OpsPicker};
pub use move_list::MoveList;
pub use move_slots::MoveSlots;
pub use number_tile::NumberTile;
pub use op_palette::OpPalette;
pub use play_roll_form::PlayRollForm;
pub use players_panel::PlayersPanel;
pub(crate) use room_chat::RoomChat;
pub use room_host::{RoomAlone, RoomHost, START as ROOM_START};
pub(crate) use room_host_panel::RoomHostPanel;
pub(crate) use room_join::RoomJoin;
pub use room_panel::{JoinPanel, RoomPanel};
pub(crate) use room_presenter::RoomPresenter;
pub use room_report::RoomReport;
pub(crate) use room_student::RoomStudent;
pub use rules_panel::RulesPanel;
pub use score_panel::ScorePanel;
pub use settings_panel::SettingsPanel;
pub use solo_table::SoloTable;
pub use solution_list::SolutionList;
pub use solutions_panel::SolutionsPanel;
pub use table_view::TableView;
pub use tools_host::ToolsHost;
pub use worksheet_panel::WorksheetPanel;

#[cfg(test)]
mod tests {
    use super::list_key;

    #[test]
    fn list_keys_tell_apart_what_the_lists_tell_apart() {
        // FNV-1a's published value for "a", as a str hashes it (its bytes, then 0xff).
        let mut h = super::Fnv64(0xcbf2_9ce4_8422_2325);
        std::hash::Hasher::write(&mut h, b"a");
        assert_eq!(std::hash::Hasher::finish(&h), 0xaf63_dc4c_8601_ec8c);
        // A table's tiles over many rolls, and rows that differ only by index or text.
        let mut seen = std::collections::HashSet::new();
        for roll in 0..2_000u64 {
            for id in 0..40u32 {
                assert!(seen.insert(list_key((roll, id))), "tile {roll} {id}");
            }
        }
        assert_ne!(list_key((0usize, "+1")), list_key((1usize, "+1")));
        assert_ne!(list_key((0usize, "+1")), list_key((0usize, "−1")));
        assert_ne!(list_key((0usize, "ab", "c")), list_key((0usize, "a", "bc")));
    }
}
