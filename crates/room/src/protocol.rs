//! What a page and the server say to each other over the room socket: JSON text frames,
//! one message each, tagged by `"type"`. A client never sends a score or a result: it
//! sends what a player does, and the room judges.

use score_engine::{Action, Phase};
use serde::{Deserialize, Serialize};

use crate::room::{ChatLine, RoomEvent, Seat};

/// The protocol's version, checked in the first message.
pub const VERSION: u32 = 1;

/// From a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ClientMsg {
    /// Create a room and join it as its host.
    Create { version: u32, name: String, judging: bool },
    /// Join a room by its code; with the seat token from an earlier visit, take that seat back.
    Join {
        version: u32,
        code: String,
        name: String,
        #[serde(default)]
        token: Option<String>,
    },
    /// Press SCORE.
    Score,
    /// Press IMPOSSIBLE.
    Impossible,
    /// End the IMPOSSIBLE clock now.
    Reveal,
    /// Give up one's SCORE.
    GiveUp,
    /// A move, an undo or a clear.
    Act { action: Action },
    /// Say something.
    Chat { text: String },
    /// Host: a new roll: at random, or the one typed (it must fit the room's dice).
    NewRoll {
        host: String,
        #[serde(default)]
        roll: Option<Vec<i64>>,
    },
    /// Host: lock or open the room.
    Lock { host: String, locked: bool },
    /// Host: remove a member.
    Remove { host: String, seat: Seat },
    /// Host: clear the chat.
    ClearChat { host: String },
    /// Host: the room's dice, goal, clocks and judging (checked as Settings are); a new roll.
    Rules { host: String, dice: Vec<u32>, goal: i64, score_secs: u32, impossible_secs: u32, judging: bool },
    /// Host: end the room for everyone.
    End { host: String },
}

/// The room as one member sees it on joining (or coming back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The roll.
    pub roll: Vec<i64>,
    /// The goal.
    pub goal: i64,
    /// Every member: seat, name, score.
    pub members: Vec<(Seat, String, i32)>,
    /// The round, with its deadlines in the server's clock.
    pub phase: Phase,
    /// The server's clock when this was sent, ms (deadlines minus this: time left).
    pub now: u64,
    /// The last result lines.
    pub results: Vec<String>,
    /// The chat kept.
    pub chat: Vec<ChatLine>,
    /// This member's own moves.
    pub moves: Vec<String>,
    /// Whether the room is locked.
    pub locked: bool,
}

/// From the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ServerMsg {
    /// You are in: your seat, the token that gives it back, the host token (for the host).
    Welcome { code: String, seat: Seat, token: String, host: Option<String>, view: View },
    /// Something happened in the room, at the server's time `now`.
    Event { event: RoomEvent, now: u64 },
    /// Your last message was refused, and why.
    Error { message: String },
}
