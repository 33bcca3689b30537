//! The one module that touches the database: rooms survive a restart. Each room is one
//! row, its state as JSON, written as it changes (SQLite in WAL mode).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection};
use serde::{Deserialize, Serialize};

use score_room::room::{Saved, Seat};

/// A room as stored: its state, the host token and the members' seat tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredRoom {
    pub room: Saved,
    pub host: String,
    pub tokens: HashMap<String, Seat>,
    /// When anything last happened, ms.
    pub active_ms: u64,
}

/// Rooms read back: each code with its room, and the codes whose rows no longer read.
pub type Loaded = (Vec<(String, StoredRoom)>, Vec<String>);

/// The database.
pub struct Store {
    db: Mutex<Connection>,
}

impl Store {
    /// Opens (or creates) `dir/score.sqlite3`.
    pub fn open(dir: &Path) -> rusqlite::Result<Store> {
        std::fs::create_dir_all(dir).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        let db = Connection::open(dir.join("score.sqlite3"))?;
        db.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, state TEXT NOT NULL, active_ms INTEGER NOT NULL);",
        )?;
        Ok(Store { db: Mutex::new(db) })
    }

    /// Writes one room.
    pub fn save(&self, code: &str, room: &StoredRoom) -> Result<(), String> {
        let json = serde_json::to_string(room).map_err(|e| e.to_string())?;
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        db.execute(
            "INSERT INTO rooms (code, state, active_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT(code) DO UPDATE SET state = excluded.state, active_ms = excluded.active_ms",
            params![code, json, room.active_ms as i64],
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    }

    /// Removes one room.
    pub fn remove(&self, code: &str) -> Result<(), String> {
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        db.execute("DELETE FROM rooms WHERE code = ?1", params![code]).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Every room stored; rows that no longer read are skipped and named.
    pub fn load(&self) -> Result<Loaded, String> {
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        let mut stmt = db.prepare("SELECT code, state FROM rooms").map_err(|e| e.to_string())?;
        let rows =
            stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))).map_err(|e| e.to_string())?;
        let (mut rooms, mut bad) = (Vec::new(), Vec::new());
        for row in rows.flatten() {
            match serde_json::from_str(&row.1) {
                Ok(room) => rooms.push((row.0, room)),
                Err(_) => bad.push(row.0),
            }
        }
        Ok((rooms, bad))
    }
}
