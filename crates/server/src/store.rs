//! The one module that touches the database: rooms survive a restart. Each room is one
//! row, its state as JSON, written as it changes (SQLite in WAL mode), with beside it whether
//! it is a kept class: at start-up only the other rooms are read whole, and a kept class is
//! read when it is first asked for ([`Store::load_start`], [`Store::load_one`]).
//!
//! The schema's version is SQLite's `user_version`: [`SCHEMA`] for this server. A database
//! from before versions (0) is brought up to date when opened; one written by a newer server
//! is refused, untouched, rather than misread.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};
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

/// A hand-over still to confirm: room `code` was taken from `peer`, in its version `at`
/// (its `active_ms` then).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    pub code: String,
    pub peer: String,
    pub at: u64,
}

/// What a server starts with ([`Store::load_start`]).
#[derive(Debug, Default)]
pub struct Start {
    /// Every room that is not a kept class, read whole.
    pub rooms: Vec<(String, StoredRoom)>,
    /// Every kept class, by code with when anything last happened in it (ms): read when
    /// first asked for.
    pub asleep: Vec<(String, u64)>,
    /// The codes of rooms whose rows no longer read.
    pub bad: Vec<String>,
}

/// The version of the database's layout this server reads and writes.
/// 2: a room's state keeps its history as data (a result and its roll), which a server of
/// layout 1 can't read, so that one refuses the database rather than drop those rooms.
/// 3: a room may be a kept class, with lessons and each member's past lessons, which a
/// server of layout 2 would drop on its next write (and then remove the class as idle).
/// 4: a kept class may have homework and each student's run of it, which a server of layout
/// 3 would drop on its next write.
/// 5: a column says which rooms are kept classes, which a server of layout 4 would leave
/// stale on its writes (a class it stopped keeping would then be taken for one); and a
/// table of hand-overs to confirm to other instances.
pub const SCHEMA: i64 = 5;

/// The database.
pub struct Store {
    db: Mutex<Connection>,
    /// Its file, which a backup reads on a connection of its own.
    path: PathBuf,
}

impl Store {
    /// Opens (or creates) `dir/score.sqlite3`, bringing an older layout up to [`SCHEMA`].
    pub fn open(dir: &Path) -> rusqlite::Result<Store> {
        std::fs::create_dir_all(dir).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        let path = dir.join("score.sqlite3");
        let db = Connection::open(&path)?;
        let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA {
            return Err(rusqlite::Error::ToSqlConversionFailure(
                format!(
                    "the database in {} was written by a newer score-server (layout {version}; this one reads {SCHEMA}): \
                     run the newer server, or start this one with another --data folder",
                    dir.display()
                )
                .into(),
            ));
        }
        db.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")?;
        // Each step brings layout n to n + 1, in one transaction with the version it sets.
        if version < 1 {
            // Layout 1: one row per room (a database from before versions has it already).
            db.execute_batch(
                "BEGIN;
                 CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, state TEXT NOT NULL, active_ms INTEGER NOT NULL);
                 PRAGMA user_version = 1;
                 COMMIT;",
            )?;
        }
        if version < 2 {
            // Layout 2: the same table; states written from now on may hold results as data
            // (states of layout 1 read as they are).
            db.execute_batch("PRAGMA user_version = 2;")?;
        }
        if version < 3 {
            // Layout 3: the same table; states may hold a kept class's lessons.
            db.execute_batch("PRAGMA user_version = 3;")?;
        }
        if version < 4 {
            // Layout 4: the same table; states may hold homework.
            db.execute_batch("PRAGMA user_version = 4;")?;
        }
        if version < 5 {
            // Layout 5: whether a room is a kept class, beside its state, so a server starts
            // without reading every class's year of lessons; and the rooms taken over from
            // another instance that hasn't been told so yet (see `crate::peers`).
            db.execute_batch(
                "BEGIN;
                 ALTER TABLE rooms ADD COLUMN kept INTEGER NOT NULL DEFAULT 0;
                 UPDATE rooms SET kept = 1 WHERE json_extract(state, '$.room.kept') = 1;
                 PRAGMA user_version = 5;
                 COMMIT;",
            )?;
        }
        // Layout 5's hand-overs still to confirm (made at every open: a table of its own that
        // a layout-5 database made before it lacks).
        db.execute_batch(
            "CREATE TABLE IF NOT EXISTS hand_overs (code TEXT NOT NULL, peer TEXT NOT NULL, at INTEGER NOT NULL,
             PRIMARY KEY (code, peer));",
        )?;
        Ok(Store { db: Mutex::new(db), path })
    }

    /// Writes one room, on disk before it returns (`synchronous = FULL`: the write-ahead log
    /// is flushed): what its members are told next survives a power cut.
    pub fn save(&self, code: &str, room: &StoredRoom) -> Result<(), String> {
        self.write(code, room, true)
    }

    /// Writes one room's moves and chat (`synchronous = NORMAL`): safe from a crash of the
    /// server, and flushed at the next durable write or checkpoint, so a power cut may lose
    /// the last moments of moves and chat, never a result (`save`). Measured here: a FULL
    /// write of a 6 KB room takes 0.4 ms (median; 3.5 ms at p90) against 0.06 ms (0.09 ms).
    pub fn save_lightly(&self, code: &str, room: &StoredRoom) -> Result<(), String> {
        self.write(code, room, false)
    }

    fn write(&self, code: &str, room: &StoredRoom, full: bool) -> Result<(), String> {
        let json = serde_json::to_string(room).map_err(|e| e.to_string())?;
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        let sync = if full { "PRAGMA synchronous = FULL" } else { "PRAGMA synchronous = NORMAL" };
        db.execute_batch(sync).map_err(|e| e.to_string())?;
        put(&db, code, &json, room)
    }

    /// Writes a room taken over from the instance `peer`, with a note to tell it so, in one
    /// transaction: an instance that stops before it has told the holder tells it after. The
    /// note names the version taken (its `active_ms`), so the holder deletes only that one.
    pub fn save_taken(&self, code: &str, room: &StoredRoom, peer: &str) -> Result<(), String> {
        let json = serde_json::to_string(room).map_err(|e| e.to_string())?;
        let mut db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        db.execute_batch("PRAGMA synchronous = FULL").map_err(|e| e.to_string())?;
        let t = db.transaction().map_err(|e| e.to_string())?;
        put(&t, code, &json, room)?;
        t.execute(
            "INSERT OR REPLACE INTO hand_overs (code, peer, at) VALUES (?1, ?2, ?3)",
            params![code, peer, room.active_ms as i64],
        )
        .map_err(|e| e.to_string())?;
        t.commit().map_err(|e| e.to_string())
    }

    /// The hand-overs still to confirm: each room's code, the instance it came from, and the
    /// version taken.
    pub fn to_confirm(&self) -> Result<Vec<Confirm>, String> {
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        let mut stmt = db.prepare("SELECT code, peer, at FROM hand_overs").map_err(|e| e.to_string())?;
        let rows = stmt
            .query_map([], |r| Ok(Confirm { code: r.get(0)?, peer: r.get(1)?, at: r.get::<_, i64>(2)?.max(0) as u64 }))
            .map_err(|e| e.to_string())?;
        Ok(rows.flatten().collect())
    }

    /// `peer` has been told it no longer holds `code`.
    pub fn confirmed(&self, code: &str, peer: &str) -> Result<(), String> {
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        db.execute("DELETE FROM hand_overs WHERE code = ?1 AND peer = ?2", params![code, peer])
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
        read_rooms(&db, "SELECT code, state FROM rooms")
    }

    /// What a server starts with: every room that is not a kept class, whole, and the kept
    /// classes by code and last activity only. Measured with `cargo run --release -p
    /// score-server --example class_year`: 500 classes of a school year each (252 MB) are
    /// read whole in about 4 s, and listed in milliseconds.
    pub fn load_start(&self) -> Result<Start, String> {
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        let (rooms, bad) = read_rooms(&db, "SELECT code, state FROM rooms WHERE kept = 0")?;
        let mut start = Start { rooms, bad, ..Start::default() };
        let mut stmt = db.prepare("SELECT code, active_ms FROM rooms WHERE kept = 1").map_err(|e| e.to_string())?;
        let rows =
            stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))).map_err(|e| e.to_string())?;
        start.asleep = rows.flatten().map(|(code, at)| (code, at.max(0) as u64)).collect();
        Ok(start)
    }

    /// One room, read whole: none when there is no such row; an error when it can't be read.
    pub fn load_one(&self, code: &str) -> Result<Option<StoredRoom>, String> {
        let db = self.db.lock().map_err(|_| "database lock poisoned".to_string())?;
        let state: Option<String> = db
            .query_row("SELECT state FROM rooms WHERE code = ?1", params![code], |r| r.get(0))
            .optional()
            .map_err(|e| e.to_string())?;
        drop(db);
        state.map(|s| serde_json::from_str(&s).map_err(|e| format!("it no longer reads: {e}"))).transpose()
    }

    /// Writes a consistent snapshot of the database into `dir` with SQLite's online backup
    /// (rooms go on being written meanwhile), as `score-<UTC time>.sqlite3`, first under a
    /// temporary name so a half-written copy is never taken for one; then keeps the newest
    /// `keep` snapshots there and deletes older ones. The snapshot's path, or why not.
    pub fn backup(&self, dir: &Path, keep: usize, now_ms: u64) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = format!("score-{}.sqlite3", stamp(now_ms));
        let (part, path) = (dir.join(format!("{name}.part")), dir.join(&name));
        // A connection of its own, read-only: in WAL mode the rooms' writes go on while it
        // copies (the store's own connection, and so every room, is never held by a backup).
        let _ = std::fs::remove_file(&part);
        let reader = Connection::open_with_flags(&self.path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        reader.backup(rusqlite::MAIN_DB, &part, None).map_err(|e| format!("{}: {e}", part.display()))?;
        std::fs::rename(&part, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        let files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .flatten()
            .map(|e| e.path())
            .collect();
        let named = |p: &PathBuf, f: fn(&str) -> bool| p.file_name().and_then(|n| n.to_str()).is_some_and(f);
        // A copy cut short (the server killed while it was written) is never a snapshot.
        for stale in files.iter().filter(|p| named(p, |n| n.strip_suffix(".part").is_some_and(is_snapshot))) {
            let _ = std::fs::remove_file(stale);
        }
        let mut kept: Vec<PathBuf> = files.into_iter().filter(|p| named(p, is_snapshot)).collect();
        // The names sort as their times do; the one just written is never deleted (a clock set
        // back would sort it first), nor anything but this server's snapshots.
        kept.sort();
        kept.retain(|p| *p != path);
        for old in kept.iter().rev().skip(keep.max(1) - 1) {
            let _ = std::fs::remove_file(old);
        }
        Ok(path)
    }
}

/// Whether a file name is one of [`Store::backup`]'s snapshots.
/// Writes one room's row (a new one, or over the one there).
fn put(db: &Connection, code: &str, json: &str, room: &StoredRoom) -> Result<(), String> {
    db.execute(
        "INSERT INTO rooms (code, state, active_ms, kept) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(code) DO UPDATE SET state = excluded.state, active_ms = excluded.active_ms, kept = excluded.kept",
        params![code, json, room.active_ms as i64, room.room.kept],
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}

/// The rooms `sql` (selecting code and state) finds, read whole; rows that no longer read
/// are skipped and named.
fn read_rooms(db: &Connection, sql: &str) -> Result<Loaded, String> {
    let mut stmt = db.prepare(sql).map_err(|e| e.to_string())?;
    let rows =
        stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))).map_err(|e| e.to_string())?;
    let (mut rooms, mut bad) = (Vec::new(), Vec::new());
    for (code, state) in rows.flatten() {
        match serde_json::from_str(&state) {
            Ok(room) => rooms.push((code, room)),
            Err(_) => bad.push(code),
        }
    }
    Ok((rooms, bad))
}

fn is_snapshot(name: &str) -> bool {
    name.strip_prefix("score-").and_then(|n| n.strip_suffix(".sqlite3")).is_some_and(|t| {
        t.len() == 16
            && t.bytes().enumerate().all(|(i, b)| {
                if i == 8 {
                    b == b'T'
                } else if i == 15 {
                    b == b'Z'
                } else {
                    b.is_ascii_digit()
                }
            })
    })
}

/// A UTC time as `20261127T183005Z`.
fn stamp(now_ms: u64) -> String {
    let secs = now_ms / 1000;
    let (y, m, d) = score_engine::practice::civil_date((secs / 86_400) as i64);
    let t = secs % 86_400;
    format!("{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z", t / 3600, t / 60 % 60, t % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("score-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn room() -> StoredRoom {
        let rules = score_engine::Rules::default();
        let r =
            score_room::room::Room::new(rules.clone(), true, score_room::room::Deal::new(vec![2, 5, 12, 12], &rules));
        StoredRoom { room: r.saved().clone(), host: "h".into(), tokens: HashMap::new(), active_ms: 7 }
    }

    #[test]
    fn a_database_from_before_versions_is_read_and_brought_up_to_date() {
        let d = dir("old");
        {
            // Exactly what the server before versions made.
            let db = Connection::open(d.join("score.sqlite3")).unwrap();
            db.execute_batch(
                "PRAGMA journal_mode = WAL;
                 CREATE TABLE rooms (code TEXT PRIMARY KEY, state TEXT NOT NULL, active_ms INTEGER NOT NULL);",
            )
            .unwrap();
            let json = serde_json::to_string(&room()).unwrap();
            db.execute("INSERT INTO rooms VALUES ('ABC234', ?1, 7)", params![json]).unwrap();
        }
        let store = Store::open(&d).unwrap();
        let (rooms, bad) = store.load().unwrap();
        assert_eq!((rooms.len(), bad.len()), (1, 0));
        // As stored (the round's verdict isn't read back: it is given again on restore).
        let mut got = rooms[0].1.clone();
        got.room.round.set_verdict(true);
        assert_eq!(got, room());
        let version: i64 = store.db.lock().unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(version, SCHEMA);
        drop(store);
        // Opening again changes nothing.
        assert_eq!(Store::open(&d).unwrap().load().unwrap().0.len(), 1);
    }

    #[test]
    fn a_database_of_layout_4_learns_which_rooms_are_kept_classes() {
        let d = dir("layout4");
        let mut class = room();
        class.room.kept = true;
        {
            // Exactly what a server of layout 4 made.
            let db = Connection::open(d.join("score.sqlite3")).unwrap();
            db.execute_batch(
                "PRAGMA journal_mode = WAL;
                 CREATE TABLE rooms (code TEXT PRIMARY KEY, state TEXT NOT NULL, active_ms INTEGER NOT NULL);
                 PRAGMA user_version = 4;",
            )
            .unwrap();
            for (code, r) in [("ROOM22", room()), ("CLASS2", class.clone())] {
                let json = serde_json::to_string(&r).unwrap();
                db.execute("INSERT INTO rooms VALUES (?1, ?2, 7)", params![code, json]).unwrap();
            }
        }
        let store = Store::open(&d).unwrap();
        let start = store.load_start().unwrap();
        let codes: Vec<&str> = start.rooms.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!((codes, start.asleep, start.bad), (vec!["ROOM22"], vec![("CLASS2".to_string(), 7)], vec![]));
        let mut back = store.load_one("CLASS2").unwrap().unwrap();
        back.room.round.set_verdict(true);
        assert_eq!(back, class);
        assert_eq!(store.load_one("NONE22").unwrap(), None);
        // A room taken from another instance is written with a note to tell it so, kept
        // until it has been told.
        store.save_taken("TAKEN2", &room(), "10.0.0.2:8081").unwrap();
        store.save_taken("TAKEN2", &room(), "10.0.0.3:8081").unwrap();
        let note = |peer: &str| Confirm { code: "TAKEN2".into(), peer: peer.into(), at: 7 };
        assert_eq!(store.to_confirm().unwrap(), [note("10.0.0.2:8081"), note("10.0.0.3:8081")]);
        assert_eq!(store.load_start().unwrap().rooms.len(), 2);
        store.confirmed("TAKEN2", "10.0.0.2:8081").unwrap();
        assert_eq!(store.to_confirm().unwrap(), [note("10.0.0.3:8081")], "each holder's note its own");
        store.confirmed("TAKEN2", "10.0.0.3:8081").unwrap();
        assert!(store.to_confirm().unwrap().is_empty());
        store.remove("TAKEN2").unwrap();
        // A class no longer kept is written so, and read whole at the next start.
        back.room.kept = false;
        store.save("CLASS2", &back).unwrap();
        assert_eq!(store.load_start().unwrap().rooms.len(), 2);
    }

    #[test]
    fn a_database_from_a_newer_server_is_refused_untouched() {
        let d = dir("newer");
        {
            let db = Connection::open(d.join("score.sqlite3")).unwrap();
            db.execute_batch("CREATE TABLE rooms2 (x TEXT); PRAGMA user_version = 9;").unwrap();
        }
        let err = Store::open(&d).err().expect("refused").to_string();
        assert!(err.contains(&format!("newer score-server (layout 9; this one reads {SCHEMA})")), "{err}");
        let db = Connection::open(d.join("score.sqlite3")).unwrap();
        let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        let rooms: i64 =
            db.query_row("SELECT count(*) FROM sqlite_master WHERE name = 'rooms'", [], |r| r.get(0)).unwrap();
        assert_eq!((version, rooms), (9, 0));
    }

    #[test]
    fn a_backup_is_a_whole_database_a_fresh_server_reads_and_only_the_newest_are_kept() {
        let dir = std::env::temp_dir().join(format!("score-backup-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir.join("data")).unwrap();
        let room = StoredRoom {
            room: score_room::room::Room::new(
                score_engine::Rules::default(),
                true,
                score_room::room::Deal::new(vec![2, 5, 12, 12], &score_engine::Rules::default()),
            )
            .saved()
            .clone(),
            host: "h".into(),
            tokens: HashMap::new(),
            active_ms: 5,
        };
        store.save("ABC234", &room).unwrap();
        let backups = dir.join("backups");
        let day = 86_400_000;
        let first = store.backup(&backups, 2, 20 * 365 * day).unwrap();
        assert!(first.ends_with("score-19891227T000000Z.sqlite3"), "{}", first.display());
        for i in 1..4 {
            store.backup(&backups, 2, 20 * 365 * day + i * 3_600_000).unwrap();
        }
        std::fs::write(backups.join("notes.txt"), "kept").unwrap();
        let names = || {
            let mut names: Vec<String> =
                std::fs::read_dir(&backups).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
            names.sort();
            names
        };
        assert_eq!(names(), ["notes.txt", "score-19891227T020000Z.sqlite3", "score-19891227T030000Z.sqlite3"]);
        // A copy cut short is cleared away by the next snapshot, and a clock set back keeps
        // the snapshot just written (the oldest by name goes instead).
        std::fs::write(backups.join("score-19891225T000000Z.sqlite3.part"), "half").unwrap();
        store.backup(&backups, 2, 20 * 365 * day - day).unwrap();
        let names = names();
        assert_eq!(names, ["notes.txt", "score-19891226T000000Z.sqlite3", "score-19891227T030000Z.sqlite3"]);
        // Restored: the snapshot as a fresh server's database holds the room, whole.
        let fresh = dir.join("fresh");
        std::fs::create_dir_all(&fresh).unwrap();
        std::fs::copy(backups.join(&names[2]), fresh.join("score.sqlite3")).unwrap();
        let (rooms, bad) = Store::open(&fresh).unwrap().load().unwrap();
        assert!(bad.is_empty());
        // (As stored: a roll's verdict is never written, and is worked out again on restore.)
        let json = |r: &StoredRoom| serde_json::to_string(r).unwrap();
        assert_eq!((rooms.len(), rooms[0].0.as_str(), json(&rooms[0].1)), (1, "ABC234", json(&room)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
