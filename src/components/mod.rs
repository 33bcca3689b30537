//! The components, one per file.

mod claim_bar;
mod claim_buttons;
mod daily_panel;
mod experiment_panel;
mod impossibles_panel;
mod move_list;
mod move_slots;
mod number_tile;
mod op_palette;
mod play_roll_form;
mod players_panel;
mod rules_panel;
mod score_panel;
mod settings_panel;
mod solution_list;
mod solutions_panel;
mod table_view;
mod worksheet_panel;

pub use claim_bar::ClaimBar;
pub use claim_buttons::ClaimButtons;
pub use daily_panel::DailyPanel;
pub use experiment_panel::ExperimentPanel;
pub use impossibles_panel::ImpossiblesPanel;
pub use move_list::MoveList;
pub use move_slots::MoveSlots;
pub use number_tile::NumberTile;
pub use op_palette::OpPalette;
pub use play_roll_form::PlayRollForm;
pub use players_panel::PlayersPanel;
pub use rules_panel::RulesPanel;
pub use score_panel::ScorePanel;
pub use settings_panel::SettingsPanel;
pub use solution_list::SolutionList;
pub use solutions_panel::SolutionsPanel;
pub use table_view::TableView;
pub use worksheet_panel::WorksheetPanel;
