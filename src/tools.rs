//! The tools (Experiment, Impossible rolls, Worksheets) and the Rules view run in a wasm
//! module of their own, `score-tools`, fetched the first time a player opens one of them: the
//! table's first load doesn't carry their views, nor the solver's tables and worksheets that
//! they alone ask for.
//!
//! The table stays the page's. What a tool needs of it crosses the page as data: the page
//! writes a [`TableState`] into the module's root (`data-table`) and tells the module when
//! it changed (`score-tools:table`); a tool that would answer the roll on the table before
//! it is settled asks the page to show its solutions first (`score-tools:ask`, answered at
//! once, with why not when the round refuses). The page stays the only keeper of the
//! round: a tool never settles anything itself.

use leptos::prelude::*;
use score_engine::{RoundError, Rules};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::ctx::Words;
use crate::game::Game;
use crate::modules::TOOLS;

/// The tools module's root element, rendered by the page's host.
pub const ROOT_ID: &str = "tools-root";
/// The page → module, an event of [`TOOLS`]: the table changed (read `data-table` again).
pub const TABLE_CHANGED: &str = "table";
/// The module → page, an event of [`TOOLS`]: show the roll's solutions (a tool is about to
/// answer the roll).
pub const ASK: &str = "ask";
/// The module → page, an event of [`TOOLS`]: show the "How to play" card.
pub const HELP: &str = "help";

/// What the tools see of the table: its rules, its roll and whether the roll's solutions
/// may be shown. A mirror, never written back: the page keeps the round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// The rules in force.
    pub rules: Rules,
    /// The roll on the table.
    pub roll: Vec<i64>,
    /// The roll's number on the page ([`Game::asked_on`]).
    pub roll_count: u64,
    /// Whether the roll's solutions may be shown: settled, or asked for.
    pub solutions_shown: bool,
}

impl TableState {
    /// What the tools see of `game`.
    pub fn of(game: &Game) -> TableState {
        TableState {
            rules: game.rules.clone(),
            roll: game.roll.clone(),
            roll_count: game.roll_count,
            solutions_shown: game.solutions_shown,
        }
    }

    /// What a listing is asked on, as [`Game::asked_on`] says it.
    pub fn asked_on(&self) -> (Rules, u64) {
        (self.rules.clone(), self.roll_count)
    }

    /// The roll a worksheet under `sheet` must leave out: the table's, while it is unsettled
    /// and the sheet makes its goal with its operators (whatever its dice), so a sheet never
    /// lists it with its answer (RULES §6) and making one never costs the table's roll.
    pub fn sheet_avoids(&self, sheet: &Rules) -> Vec<i64> {
        // Dice and "use every number" aside: a sheet of other dice may still hold the roll.
        let game = |r: &Rules| (r.goal, r.ops);
        if !self.solutions_shown && game(sheet) == game(&self.rules) {
            self.roll.clone()
        } else {
            Vec::new()
        }
    }

    /// Whether solving `numbers` → `goal` answers the roll, as [`Game::is_this_roll`] says it.
    pub fn is_this_roll(&self, numbers: &[i64], goal: i64) -> bool {
        crate::game::answers_roll(&self.roll, self.rules.goal, numbers, goal)
    }
}

/// Why the page did not show the roll's solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The round refused (a clock runs).
    Round(RoundError),
    /// No page answered (the tool is no longer on a page with a table).
    Unanswered,
}

/// What the tool views share in the tools module.
#[derive(Debug, Clone, Copy)]
pub struct Tools {
    /// The page's table, as last told.
    pub table: RwSignal<TableState>,
    /// The page's words.
    pub say: Words,
}

impl Tools {
    /// Asks the page to show the roll's solutions (the roll becomes practice if it is not
    /// settled). The page answers before this returns.
    pub fn ask_solutions(self) -> Result<(), Refused> {
        let detail = js_sys::Object::new();
        let init = web_sys::CustomEventInit::new();
        init.set_detail(&detail);
        let asked = web_sys::window()
            .zip(web_sys::CustomEvent::new_with_event_init_dict(&TOOLS.event(ASK), &init).ok())
            .is_some_and(|(w, ev)| w.dispatch_event(&ev).is_ok());
        let answered = js_sys::Reflect::get(&detail, &"answered".into()).ok().and_then(|v| v.as_bool());
        if !asked || answered != Some(true) {
            return Err(Refused::Unanswered);
        }
        match js_sys::Reflect::get(&detail, &"refused".into()).ok().filter(|v| !v.is_undefined()) {
            Some(e) => Err(crate::codec::from_message::<RoundError>(e).map_or(Refused::Unanswered, Refused::Round)),
            None => {
                // The page's next `score-tools:table` says so too; the tool goes on now.
                self.table.update(|t| t.solutions_shown = true);
                Ok(())
            }
        }
    }

    /// The words of a refusal, in the page's language.
    pub fn refusal(self, why: Refused) -> String {
        match why {
            Refused::Round(e) => self.say.0.with_untracked(|w| score_room::say::round_error(e, w)),
            Refused::Unanswered => self.say.t(score_i18n::Key::ToolsLoadFailed, &[]),
        }
    }
}

/// The tools' context, provided by the tools module.
pub fn use_tools() -> Tools {
    expect_context::<Tools>()
}

/// The page's side: answers the tools' asks on `game` until the calling owner is cleaned up.
pub fn answer_asks(game: RwSignal<Game>) {
    let listener = window_event_listener_untyped(&TOOLS.event(ASK), move |ev| {
        let Some(detail) = ev.dyn_ref::<web_sys::CustomEvent>().map(web_sys::CustomEvent::detail) else { return };
        let now = crate::hooks::use_clock::now_ms();
        let asked = game.try_update(|g| if g.solutions_shown { Ok(()) } else { g.show_solutions(now) });
        if let Some(Err(e)) = asked {
            if let Some(e) = crate::codec::to_message(&e) {
                let _ = js_sys::Reflect::set(&detail, &"refused".into(), &e);
            }
        }
        let _ = js_sys::Reflect::set(&detail, &"answered".into(), &asked.is_some().into());
    });
    on_cleanup(move || listener.remove());
}

/// The module's side: `table` follows what the page writes into `root` (now, and on each
/// change) until the calling owner is cleaned up.
pub fn follow_table(root: web_sys::Element, table: RwSignal<TableState>) {
    let read = move || {
        let Some(state) = root.get_attribute("data-table").and_then(|t| crate::codec::from_text::<TableState>(&t))
        else {
            return;
        };
        table.maybe_update(|t| {
            let changed = *t != state;
            *t = state;
            changed
        });
    };
    read();
    let listener = window_event_listener_untyped(&TOOLS.event(TABLE_CHANGED), move |_| read());
    on_cleanup(move || listener.remove());
}

#[cfg(test)]
mod tests {
    use super::*;
    use score_engine::Stats;

    #[test]
    fn the_tools_see_what_the_table_says_of_itself() {
        let mut g = Game::new(Rules::default(), vec![2, 5, 12, 12], Stats::default());
        let seen = TableState::of(&g);
        assert_eq!(seen.asked_on(), g.asked_on());
        for (numbers, goal) in
            [(&[2, 5, 12][..], 20), (&[2, 12, 12, 7][..], 20), (&[2, 5][..], 20), (&[2, 5, 12][..], 24)]
        {
            assert_eq!(seen.is_this_roll(numbers, goal), g.is_this_roll(numbers, goal), "{numbers:?} → {goal}");
        }
        assert!(!seen.solutions_shown);
        g.show_solutions(0).unwrap();
        let seen = TableState::of(&g);
        assert!(seen.solutions_shown);
        // A new roll is another roll to a listing.
        g.new_roll(Rules::default(), vec![1, 1, 1, 1], 0);
        assert_ne!(TableState::of(&g).asked_on(), seen.asked_on());
    }

    // Pins a bug: with dice 6 6 6 and goal 10, a 50-roll worksheet listed almost every roll
    // with its answer, the table's unsettled roll among them, without asking.
    #[test]
    fn a_worksheet_of_the_tables_game_leaves_its_unsettled_roll_out() {
        let rules = Rules { dice: vec![6, 6, 12], goal: 10, ..Rules::default() };
        let mut g = Game::new(rules.clone(), vec![2, 3, 5], Stats::default());
        let seen = TableState::of(&g);
        assert_eq!(seen.sheet_avoids(&rules), [2, 3, 5]);
        // The clocks are no part of the game a sheet lists, nor the dice's order.
        assert_eq!(seen.sheet_avoids(&Rules { score_secs: 45, dice: vec![12, 6, 6], ..rules.clone() }), [2, 3, 5]);
        // Other dice, the same goal and operators: the sheet may hold the roll all the same.
        assert_eq!(seen.sheet_avoids(&Rules { dice: vec![6, 6, 12, 12, 20], ..rules.clone() }), [2, 3, 5]);
        assert!(seen.sheet_avoids(&Rules::preset(score_engine::Preset::TwentyFour)).is_empty());
        assert!(seen.sheet_avoids(&Rules { goal: 12, ..rules.clone() }).is_empty());
        g.show_solutions(0).unwrap();
        assert!(TableState::of(&g).sheet_avoids(&rules).is_empty(), "settled: nothing to hide");
    }

    #[test]
    fn the_table_crosses_the_page_as_text_and_back() {
        let g = Game::new(Rules::default(), vec![6, 6, 12, 20], Stats::default());
        let seen = TableState::of(&g);
        let text = crate::codec::to_text(&seen).unwrap();
        assert_eq!(crate::codec::from_text::<TableState>(&text), Some(seen));
        assert_eq!(crate::codec::from_text::<TableState>("{\"roll\":[1]}"), None);
    }
}
