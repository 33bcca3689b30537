//! The components, one per file.

use std::hash::{Hash, Hasher};

/// A keyed list's key for an item (`<For key=…>`): what identifies the item, hashed. Every
/// list has this one key type, so the lists share one instance of the keyed list's code
/// (each key type linked its own set and diff: about 1.3 KB of wasm each).
pub(crate) fn list_key(item: impl Hash) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    item.hash(&mut hasher);
    hasher.finish()
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
