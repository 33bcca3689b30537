//! Score, streaks and the history of rounds, as stored in the browser.
//!
//! Plain data with serde and a version number, so the storage layer can
//! recognise and migrate old shapes. Recording an award is the only way the
//! numbers change, so score and history can never disagree.

use serde::{Deserialize, Serialize};

use crate::elo::{self, Ability};
use crate::rules::{Game, Rules};

/// Most rounds kept in the history (oldest dropped first).
pub const MAX_HISTORY: usize = 500;

/// One line of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// The roll, as rolled.
    pub roll: Vec<i64>,
    /// The goal.
    pub goal: i64,
    /// The claim: "SCORE", "IMPOSSIBLE", "practice", "hint" or "solutions" (a name, never
    /// shown as it is: the page words it).
    pub claim: String,
    /// Points given.
    pub points: i32,
    /// Why, in English words: what a page shows of an entry stored before [`HistoryEntry::why`]
    /// (and what an older page shows of a newer entry).
    pub reason: String,
    /// When, ms since the epoch.
    pub at_ms: u64,
    /// Why, as data, for the page to word in its reader's language (none in entries stored
    /// before the page spoke several: their `reason` is shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<crate::round::Reason>,
    /// The solution a wrong IMPOSSIBLE had, as an expression ("2‖(12 − 12)").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
}

/// The player's own rating at one game (one set of dice, goal and operators), kept on the
/// device ([`crate::elo`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRating {
    /// The game (stored as an object of its own: a flattened one would bring serde's
    /// buffering reader into the page's first load, 4 KB gzip).
    pub game: Game,
    /// The rating.
    pub ability: Ability,
}

/// Most games a player's rating is kept for (the least recently played dropped first).
pub const MAX_RATINGS: usize = 8;

/// A player's running totals.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Schema version, [`Stats::VERSION`].
    pub version: u32,
    /// Total points.
    pub score: i64,
    /// Positive results in a row.
    pub streak: u32,
    /// Longest streak so far.
    pub best_streak: u32,
    /// Recent rounds, oldest first.
    pub history: Vec<HistoryEntry>,
    /// Every result ever recorded (the history keeps only the latest). New in version 2.
    #[serde(default)]
    pub results: u64,
    /// The player's rating at each game they played, most recently rated last (none before
    /// ratings were kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<GameRating>,
}

impl Stats {
    /// The current schema version: 3 keeps the player's ratings, which a page of version 2
    /// would drop on its next save (it reads them as stats of a newer Score and leaves them).
    pub const VERSION: u32 = 3;

    /// Empty totals.
    pub fn new() -> Stats {
        Stats { version: Stats::VERSION, ..Stats::default() }
    }

    /// Brings stats read from an older version up to this one; `None` for a version
    /// this code does not know (from a newer Score), which must be kept, not overwritten.
    ///
    /// Version 1 had no `results` count: it starts from the history's length. Version 2 had
    /// no ratings.
    pub fn migrate(mut self) -> Option<Stats> {
        match self.version {
            1 => {
                self.results = self.history.len() as u64;
                self.version = Stats::VERSION;
                Some(self)
            }
            // Version 2 had no ratings: none kept yet.
            2 => {
                self.version = Stats::VERSION;
                Some(self)
            }
            Stats::VERSION => Some(self),
            _ => None,
        }
    }

    /// The player's rating at `rules`' game (a new player's, 0, when none is kept); a stored
    /// rating that isn't a number comes back sane.
    pub fn rating(&self, rules: &Rules) -> Ability {
        let game = rules.game();
        self.ratings.iter().find(|r| r.game == game).map_or_else(Ability::default, |r| r.ability.sane())
    }

    /// One judged answer at `rules`' game on a roll rated `roll`, `secs` after the deal, of
    /// `deadline` ([`elo::update_player`]).
    pub fn rate(&mut self, rules: &Rules, roll: f64, made: bool, secs: f64, deadline: f64) {
        let mut ability = self.rating(rules);
        elo::update_player(&mut ability, roll, made, secs, deadline);
        let game = rules.game();
        self.ratings.retain(|r| r.game != game);
        self.ratings.push(GameRating { game, ability });
        if self.ratings.len() > MAX_RATINGS {
            self.ratings.remove(0);
        }
    }

    /// Records one award: points, streak (a gain extends it, a loss ends it, 0 leaves it) and history.
    pub fn record(&mut self, entry: HistoryEntry) {
        self.score += entry.points as i64;
        self.results += 1;
        match entry.points {
            p if p > 0 => {
                self.streak += 1;
                self.best_streak = self.best_streak.max(self.streak);
            }
            p if p < 0 => self.streak = 0,
            _ => {}
        }
        self.history.push(entry);
        if self.history.len() > MAX_HISTORY {
            let extra = self.history.len() - MAX_HISTORY;
            self.history.drain(..extra);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(points: i32) -> HistoryEntry {
        HistoryEntry {
            roll: vec![1, 2, 3, 4],
            goal: 20,
            claim: "SCORE".into(),
            points,
            reason: String::new(),
            at_ms: 0,
            why: None,
            solution: None,
        }
    }

    #[test]
    fn streaks_count_gains_and_reset_on_losses() {
        let mut s = Stats::new();
        for p in [1, 1, 0, 1, -2, 1] {
            s.record(entry(p));
        }
        assert_eq!((s.score, s.streak, s.best_streak), (2, 1, 3));
        assert_eq!(s.history.len(), 6);
    }

    #[test]
    fn versions_1_and_2_migrate_to_the_current_one() {
        let v1 = r#"{"version":1,"score":3,"streak":1,"best_streak":2,"history":[
            {"roll":[2,5,12,12],"goal":20,"claim":"SCORE","points":1,"reason":"+1","at_ms":5}]}"#;
        let old: Stats = serde_json::from_str(v1).unwrap();
        let new = old.migrate().unwrap();
        assert_eq!((new.version, new.score, new.best_streak, new.results), (3, 3, 2, 1));
        assert_eq!(new.history[0].roll, [2, 5, 12, 12]);
        let v2 = r#"{"version":2,"score":3,"streak":1,"best_streak":2,"history":[],"results":7}"#;
        let new = serde_json::from_str::<Stats>(v2).unwrap().migrate().unwrap();
        assert_eq!((new.version, new.results, new.ratings.len()), (3, 7, 0));
        // A rating kept, stored and read back.
        let mut rated = Stats::new();
        rated.rate(&Rules::default(), 0.5, true, 3.0, 11.0);
        let text = serde_json::to_string(&rated).unwrap();
        assert!(
            text.contains(r#""ratings":[{"game":{"dice":[6,6,12,20],"goal":20,"ops":31,"use_all":false},"ability":{"#),
            "{text}"
        );
        let back: Stats = serde_json::from_str(&text).unwrap();
        assert_eq!(back.migrate().unwrap().rating(&Rules::default()), rated.rating(&Rules::default()));
        let future = Stats { version: 9, ..Stats::new() };
        assert_eq!(future.migrate(), None);
    }

    #[test]
    fn history_is_capped() {
        let mut s = Stats::new();
        for _ in 0..MAX_HISTORY + 5 {
            s.record(entry(1));
        }
        assert_eq!(s.history.len(), MAX_HISTORY);
        assert_eq!(s.score, MAX_HISTORY as i64 + 5);
        assert_eq!(s.results, MAX_HISTORY as u64 + 5);
    }
}
