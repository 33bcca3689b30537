//! The only module that touches localStorage.
//!
//! Keys are namespaced and versioned (`score.stats.v1`). A read never fails:
//! a missing value gives `None`; a value that cannot be read is moved aside
//! to `<key>.bad` (not destroyed) and reported as a notice for the page;
//! storage that is off or full is reported once and the game plays on.

use serde::de::DeserializeOwned;
use serde::Serialize;
use web_sys::Storage;

/// Score, streaks and history.
pub const STATS_KEY: &str = "score.stats.v1";
/// The settings.
pub const RULES_KEY: &str = "score.rules.v1";
/// The current roll and any running claim.
pub const GAME_KEY: &str = "score.game.v1";

/// Said when the browser keeps nothing.
pub const NO_STORAGE: &str =
    "This browser is not keeping data for Score, so your score won't be kept after you leave.";

fn storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Reads `key`; a bad value is set aside and described in the returned notice.
pub fn load<T: DeserializeOwned>(key: &str, what: &str) -> (Option<T>, Option<String>) {
    let Some(s) = storage() else {
        return (None, Some(NO_STORAGE.into()));
    };
    let Ok(Some(text)) = s.get_item(key) else {
        return (None, None);
    };
    match serde_json::from_str(&text) {
        Ok(v) => (Some(v), None),
        Err(_) => {
            let _ = s.set_item(&format!("{key}.bad"), &text);
            let _ = s.remove_item(key);
            (None, Some(format!("Your saved {what} could not be read, so Score started fresh (the old data is kept aside).")))
        }
    }
}

/// Writes `value` to `key`; `Err` with a notice when storage refuses.
pub fn save<T: Serialize>(key: &str, value: &T) -> Result<(), String> {
    let s = storage().ok_or(NO_STORAGE)?;
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    s.set_item(key, &text).map_err(|_| NO_STORAGE.to_string())
}
