//! The only module that touches localStorage.
//!
//! Keys are namespaced and versioned (`score.stats.v1`). A read never fails:
//! a missing value gives `None`; a value that cannot be read is moved aside
//! to `<key>.bad` (not destroyed) and reported as a notice for the page;
//! storage that is off or full is reported once and the game plays on.

use score_engine::Stats;
use serde::de::DeserializeOwned;
use serde::Serialize;
use web_sys::Storage;

use crate::codec;
use crate::say::{Notice, Stored};

/// Score, streaks and history.
pub const STATS_KEY: &str = "score.stats.v2";
/// Where version 1 kept them (read once, migrated, then removed).
pub const STATS_KEY_V1: &str = "score.stats.v1";
/// The settings.
pub const RULES_KEY: &str = "score.rules.v1";
/// The current roll and any running claim (and the match, if one is on).
pub const GAME_KEY: &str = "score.game.v1";
/// The page's time while a clock ran, in ms (`hooks::use_clock::not_before`).
pub const TIME_KEY: &str = "score.time.v1";
/// How many saves the game has had, in every tab: a tab writes only over the count it
/// last saw (`app`'s save).
pub const REV_KEY: &str = "score.rev.v1";
/// Daily puzzle results.
pub const DAILY_KEY: &str = "score.daily.v1";
/// `true` once the first-visit "How to play" card has been dismissed.
pub const HELP_KEY: &str = "score.help.v1";
/// The language the player chose (its code, as `<html lang>` writes it).
pub const LANG_KEY: &str = "score.lang.v1";
/// How the player chose to write multiplication and division (`cross`: × ÷, `dot`: · :);
/// nothing kept: their language's way.
pub const OPS_KEY: &str = "score.ops.v1";

/// This browser's own random id for class rooms (32 hex digits), made once: a record a room
/// keeps for a name that left is given back only to the device it was made on.
pub const DEVICE_KEY: &str = "score.device.v1";

/// This browser's device id for class rooms, made and kept the first time it is asked for
/// (none when storage or randomness is not to be had: then no kept record comes back).
pub fn device_id() -> Option<String> {
    if let Some(id) = text(DEVICE_KEY).filter(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())) {
        return Some(id);
    }
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    save_text(DEVICE_KEY, &id).ok()?;
    Some(id)
}

fn storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether this browser keeps nothing for the page (storage off or refused): what the app
/// says with [`Notice::NoStorage`] when it reads its game.
pub fn keeps_nothing() -> bool {
    storage().is_none()
}

/// The text stored under `key`, as it is (nothing set aside, nothing reported).
pub fn text(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Whether `key` holds nothing or a value this page can read: a check with no side effect,
/// before taking what another tab (perhaps of a newer build) wrote.
pub fn readable<T: DeserializeOwned>(key: &str) -> bool {
    text(key).is_none_or(|t| codec::from_text::<T>(&t).is_some())
}

/// Reads `key`; a bad value is set aside and described in the returned notice.
pub fn load<T: DeserializeOwned>(key: &str, what: Stored) -> (Option<T>, Option<Notice>) {
    load_with(key, what, codec::from_text)
}

fn load_with<T>(key: &str, what: Stored, decode: impl Fn(&str) -> Option<T>) -> (Option<T>, Option<Notice>) {
    let Some(s) = storage() else {
        return (None, Some(Notice::NoStorage));
    };
    let Ok(Some(text)) = s.get_item(key) else {
        return (None, None);
    };
    match decode(&text) {
        Some(v) => (Some(v), None),
        None => {
            let _ = s.set_item(&format!("{key}.bad"), &text);
            let _ = s.remove_item(key);
            (None, Some(Notice::Unreadable(what)))
        }
    }
}

/// Stats from their stored text, migrated to the current version; `None` when unreadable
/// or from a newer Score.
pub fn decode_stats(text: &str) -> Option<Stats> {
    codec::from_text::<Stats>(text)?.migrate()
}

/// Whether `text` is stats of a newer Score than this page (a version above its own).
pub fn newer_stats(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Version {
        version: u32,
    }
    codec::from_text::<Version>(text).is_some_and(|v| v.version > Stats::VERSION)
}

/// Reads the stats, migrating version 1's key on the way. Stats of a newer Score are left
/// where they are, untouched (`Notice::NewerData`: the page then writes nothing).
pub fn load_stats() -> (Option<Stats>, Option<Notice>) {
    if text(STATS_KEY).is_some_and(|t| newer_stats(&t)) {
        return (None, Some(Notice::NewerData));
    }
    let (stats, notice) = load_with(STATS_KEY, Stored::Score, decode_stats);
    if stats.is_some() || notice.is_some() {
        return (stats, notice);
    }
    let (old, notice) = load_with(STATS_KEY_V1, Stored::Score, decode_stats);
    if let Some(stats) = &old {
        if save(STATS_KEY, stats).is_ok() {
            if let Some(s) = storage() {
                let _ = s.remove_item(STATS_KEY_V1);
            }
        }
    }
    (old, notice)
}

/// This tab's own note under `key` (session storage: each tab has its own, kept across
/// its reloads); none if there is none or the browser keeps none.
pub fn tab_note(key: &str) -> Option<String> {
    web_sys::window()?.session_storage().ok().flatten()?.get_item(key).ok().flatten()
}

/// Sets (or, with none, removes) this tab's note under `key`.
pub fn set_tab_note(key: &str, value: Option<&str>) {
    let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) else { return };
    let _ = match value {
        Some(v) => s.set_item(key, v),
        None => s.remove_item(key),
    };
}

/// The count of saves in storage (0: none yet, or unreadable).
pub fn rev() -> u64 {
    text(REV_KEY).and_then(|t| t.parse().ok()).unwrap_or(0)
}

/// Counts one more save; the new count (as it was, if storage refuses).
pub fn bump_rev() -> u64 {
    let next = rev().wrapping_add(1);
    match save_text(REV_KEY, &next.to_string()) {
        Ok(()) => next,
        Err(_) => next - 1,
    }
}

/// Writes `text` to `key` as it is; `Err` with a notice when storage refuses.
pub fn save_text(key: &str, text: &str) -> Result<(), Notice> {
    let s = storage().ok_or(Notice::NoStorage)?;
    s.set_item(key, text).map_err(|_| Notice::NoStorage)
}

/// Writes `value` to `key`; `Err` with a notice when storage refuses.
pub fn save<T: Serialize>(key: &str, value: &T) -> Result<(), Notice> {
    let s = storage().ok_or(Notice::NoStorage)?;
    let text = codec::to_text(value).map_err(Notice::Text)?;
    s.set_item(key, &text).map_err(|_| Notice::NoStorage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_version_1_stats_are_migrated() {
        let v1 = r#"{"version":1,"score":-2,"streak":0,"best_streak":4,"history":[]}"#;
        let s = decode_stats(v1).unwrap();
        assert_eq!((s.version, s.score, s.best_streak), (Stats::VERSION, -2, 4));
    }

    // Pins a bug: stats of a newer build were set aside as unreadable, and the next save
    // wrote over them (a rollback lost the score; going forward again left it in `.bad`).
    #[test]
    fn stats_of_a_newer_score_are_known_as_such() {
        assert!(newer_stats(r#"{"version":99,"score":1,"streak":0,"best_streak":0,"history":[]}"#));
        assert!(!newer_stats(r#"{"version":2,"score":1,"streak":0,"best_streak":0,"history":[]}"#));
        assert!(!newer_stats("{not json"));
    }

    #[test]
    fn unreadable_or_future_stats_are_refused() {
        assert_eq!(decode_stats("{not json"), None);
        assert_eq!(decode_stats(r#"{"hello":"world"}"#), None);
        assert_eq!(decode_stats(r#"{"version":99,"score":1,"streak":0,"best_streak":0,"history":[]}"#), None);
    }
}
