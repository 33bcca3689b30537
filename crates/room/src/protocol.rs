//! What a page and the server say to each other over the room socket: JSON text frames,
//! one message each; `tests/room/golden.rs` pins the format.
//! - What a page sends is an object tagged by `"type"` with the variant's name
//!   (`{"type":"Chat","text":"hi"}`), as are a result's [`Why`] and a [`Move`], which the
//!   server also keeps in its database.
//! - What the server sends, its events and its refusals are tagged by an object's one key
//!   (`{"Event":{"seq":3,"now":5,"event":{"Chat":{"seat":1,"name":"Ana","text":"hi"}}}}`;
//!   a variant without fields is its name, `"ChatCleared"`). A page reads that in one pass:
//!   a `"type"` can come anywhere in an object, so reading it meant keeping the whole message
//!   aside first, and the code for that was a fifth of a student's class room module.
//! - The refusals a page can meet before the server has read its version keep the shape
//!   every page since protocol 6 reads ([`EarlyError`]): an old page still learns to reload.
//!
//! A client never sends a score or a result: it sends what a player does, and the room
//! judges.
//!
//! Events to the whole room carry a sequence number (`seq`), counted per room from the
//! `seq` of the Welcome: a page drops an event it has already seen and, when one is
//! missing, asks for the room afresh (it reconnects and gets a new Welcome).

use score_engine::{Action, Op, Phase, Rules, RulesError, TileId};
use serde::{Deserialize, Serialize};

/// The protocol's version, checked in the first message.
/// 9: kept classes (`Keep`, `EndLesson`; the `Kept` and `Lesson` events; `View::kept`, `View::lesson`; the Progress in `Report`).
/// 10: homework (`SetHomework`, `EndHomework`, `Forget` and the `Forgotten` event, [`ClientMsg::Homework`]; the `Homework`, `HomeworkRun`, `HomeworkPlay`
/// and `HomeworkRows` events; `View::homework`, `View::run`, `View::homework_rows`; `ProgressRow::homework`).
/// 11: homework at each student's level (`SetHomework::adaptive`, `HomeworkInfo::adaptive`, the `NotRated` refusal).
/// 12: what the server sends is tagged by an object's one key, not by `"type"`, and a
/// [`Tally`] is a field of the rows that carry it (`"tally":{…}`), not spread among theirs.
pub const VERSION: u32 = 12;

/// A member's place in the room: their index on the scoreboard and in the round.
pub type Seat = usize;

/// Most members in a room.
pub const MAX_MEMBERS: usize = 60;
pub use score_engine::rules::MAX_NAME;
/// Longest chat message, in characters.
pub const MAX_CHAT: usize = 300;
/// Chat messages kept (and sent to a member who joins).
pub const CHAT_KEPT: usize = 200;
/// Length of a room code.
pub const CODE_LEN: usize = 6;
/// The letters of a room code: no 0/O, 1/I/L to mix up on a projector.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A room code from random bytes (the caller's randomness: the OS's on the server, the
/// browser's on a page).
pub fn random_code(bytes: [u8; CODE_LEN]) -> String {
    bytes.iter().map(|b| CODE_ALPHABET[*b as usize % CODE_ALPHABET.len()] as char).collect()
}

/// A code as typed (any case, spaces around), if it can be a room code. Its letters are
/// ASCII, so only ASCII is upper-cased: Unicode's case tables would add 4 KB (brotli) to a
/// student's first module for no code they could type.
pub fn room_code(text: &str) -> Option<String> {
    let code = text.trim().to_ascii_uppercase();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

/// The two claims a player can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Claim {
    /// "I can make the goal": the SCORE clock.
    Score,
    /// "Nobody can make the goal": the IMPOSSIBLE clock.
    Impossible,
}

/// A move, an undo or a clear, as the socket carries it (and the server keeps it): the
/// engine's [`Action`] tagged by `"type"` (`{"type":"Combine","left":0,"op":"Sub","right":1}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Move {
    /// Combine two tiles with an operator.
    Combine { left: TileId, op: Op, right: TileId },
    /// Take back the last move.
    Undo,
    /// Take back every move.
    Clear,
}

impl From<Action> for Move {
    fn from(a: Action) -> Move {
        match a {
            Action::Combine { left, op, right } => Move::Combine { left, op, right },
            Action::Undo => Move::Undo,
            Action::Clear => Move::Clear,
        }
    }
}

impl From<Move> for Action {
    fn from(m: Move) -> Action {
        match m {
            Move::Combine { left, op, right } => Action::Combine { left, op, right },
            Move::Undo => Action::Undo,
            Move::Clear => Action::Clear,
        }
    }
}

/// A running clock: whose, which claim, until when (server ms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Who claimed.
    pub seat: Seat,
    /// Which claim.
    pub claim: Claim,
    /// When it runs out, in the server's clock (ms).
    pub deadline: u64,
}

impl Clock {
    /// The clock that runs in a round's phase, if any (a SCORE clock during an IMPOSSIBLE
    /// claim is the one that runs).
    pub fn of(phase: Phase) -> Option<Clock> {
        match phase {
            Phase::Score { player, deadline, .. } => Some(Clock { seat: player, claim: Claim::Score, deadline }),
            Phase::Impossible(c) => Some(Clock { seat: c.player, claim: Claim::Impossible, deadline: c.deadline }),
            Phase::Open | Phase::Over => None,
        }
    }
}

/// What the host may do (with the host token).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum HostCommand {
    /// A new roll: at random, or the one typed (it must fit the room's dice).
    NewRoll {
        #[serde(default)]
        roll: Option<Vec<i64>>,
    },
    /// The next roll, at random, only if this one is settled: a host screen's auto-deal. When
    /// another host screen has dealt first, it does nothing (so two screens deal once).
    NextRoll,
    /// Lock the room to new members, or open it.
    Lock { locked: bool },
    /// Remove a member: they may not join again under that name until let back in. With the
    /// name the host saw, refused if someone else sits there by now (a seat given up and
    /// taken again just as the host pressed).
    Remove {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Let a removed name join again.
    Readmit { name: String },
    /// Give a member's seat up for another device (a student back on a new phone): the next
    /// to join under that name takes its record. With the name the host saw, as for Remove.
    Free {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Give up every seat that is away and never played (taken and left empty).
    ClearEmpty,
    /// Clear the chat.
    ClearChat,
    /// The room's dice, goal and clocks (checked as Settings are) and judging; a new roll.
    Rules { dice: Vec<u32>, goal: i64, score_secs: u32, impossible_secs: u32, judging: bool },
    /// End the room for everyone.
    End,
    /// The teacher's report: answered to this connection alone ([`ServerMsg::Report`]).
    Report,
    /// Deal the next roll by itself `secs` after a result (0: never; at most
    /// [`MAX_AUTO_DEAL_SECS`]). The server deals it, whether any host screen is open or not;
    /// sent again while a roll is settled, it restarts the wait ("Wait").
    AutoDeal { secs: u32 },
    /// The room's language (a code [`score_i18n::Lang::from_code`] reads), for the
    /// presenter screen and for the students who never chose one.
    Language { lang: String },
    /// Keep the room as a class (it stays, with its code, until ended; seats are held
    /// between lessons and each lesson's records kept), or stop keeping it.
    Keep { kept: bool },
    /// End the lesson of a kept class: its points and records become the members' past
    /// lessons (the Progress), and the next lesson starts from 0 points.
    EndLesson,
    /// Set homework for a kept class (the one set before is closed: its rows stay in the
    /// Progress): `count` rolls at random (of difficulty `level`, if any; or, `adaptive`, each
    /// chosen for its student as they play, by their rating), or the rolls typed (each must fit
    /// the room's dice), with these clocks (or `untimed`), due at `due` (server ms: the end of
    /// the day the teacher chose).
    SetHomework {
        #[serde(default)]
        rolls: Vec<Vec<i64>>,
        #[serde(default)]
        count: u32,
        #[serde(default)]
        level: Option<u8>,
        /// At each student's level: every student's next roll is the one they make about three
        /// times in four, by their rating in the class (rolls typed are played as typed).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        adaptive: bool,
        score_secs: u32,
        impossible_secs: u32,
        #[serde(default)]
        untimed: bool,
        due: u64,
    },
    /// Close the homework now: nobody starts or goes on with it; its rows stay in the Progress.
    EndHomework,
    /// Delete everything the room keeps about the student called `name`: their seat, records,
    /// results and chat lines.
    Forget { name: String },
}

/// What a student does with the class's homework, alone on their own rolls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum HomeworkCommand {
    /// Start the homework, or go on with it where it was left.
    Start,
    /// Press SCORE or IMPOSSIBLE on the homework's roll.
    Claim { claim: Claim },
    /// End one's IMPOSSIBLE clock now.
    Reveal,
    /// Give up one's SCORE.
    GiveUp,
    /// A move, an undo or a clear on the homework's board.
    Act { action: Move },
    /// The next roll of the homework (this one settled, or passed over unclaimed).
    Next,
}

/// The class's homework, as everyone in the room may know it (never its rolls).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HomeworkInfo {
    /// The assignment, counted from 1.
    pub number: u32,
    /// How many rolls it has.
    pub rolls: u32,
    /// The clocks, seconds (an untimed one's SCORE clock runs a day).
    pub score_secs: u32,
    pub impossible_secs: u32,
    /// No race against a clock: no countdown is shown and IMPOSSIBLE is judged at once.
    pub untimed: bool,
    /// Every roll was chosen with a solution (at a difficulty): the students are told so.
    pub solvable: bool,
    /// At each student's level: each roll is chosen for its student as they play (the
    /// students are told so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adaptive: bool,
    /// When it is due (server ms): nobody starts a roll after it.
    pub due: u64,
    /// Closed by the teacher (ended early, or replaced).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
}

/// One student's homework: where they are, what they made of it so far, and their roll's
/// table (a room of one, seat 0, judged by the room like any other).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HomeworkRun {
    /// The roll on the table, counted from 0.
    pub at: u32,
    /// Every roll played: the homework is done.
    pub done: bool,
    /// What they did in it so far.
    pub tally: Tally,
    /// The roll's table, as their page sees it.
    pub view: Box<View>,
}

/// One student's line of the teacher's homework view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HomeworkRow {
    /// Their name.
    pub name: String,
    /// Rolls behind them (settled or passed over).
    pub played: u32,
    /// All of it done.
    pub done: bool,
    /// What they did in it so far.
    pub tally: Tally,
}

/// The longest auto-deal wait, seconds.
pub const MAX_AUTO_DEAL_SECS: u32 = 600;

/// What one member did, counted: in a room, or in one lesson of a kept class.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Points.
    pub points: i32,
    /// Rolls dealt while they were in the room (the one they joined on included).
    pub rolls: u32,
    /// SCOREs that made the goal in time.
    pub scores_made: u32,
    /// SCOREs that ran out, were given up or were cut short by a new roll.
    pub scores_failed: u32,
    /// IMPOSSIBLE claims judged right.
    pub impossible_right: u32,
    /// IMPOSSIBLE claims judged wrong.
    pub impossible_wrong: u32,
    /// The median time from SCORE to the goal, ms (none without a made SCORE).
    pub median_score_ms: Option<u64>,
    /// Their rating at the class's game then, in thousandths (`score_engine::elo`): none
    /// before any SCORE of theirs was rated. The page words it as the level of rolls they
    /// make three times in four ([`crate::ratings::level_of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
}

impl Tally {
    /// Whether anything was played: a roll dealt to them, a claim, a point.
    pub fn played(&self) -> bool {
        self.rolls > 0
            || self.points != 0
            || self.scores_made + self.scores_failed + self.impossible_right + self.impossible_wrong > 0
    }
}

/// One of the report's Hardest rolls: how the class fared on it, in its lessons and its
/// closed homework.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HardRoll {
    /// The roll, smallest first, and the goal it was played for.
    pub roll: Vec<i64>,
    pub goal: i64,
    /// SCOREs that made the goal on it.
    pub made: u32,
    /// SCOREs that failed on it, and IMPOSSIBLE claims on it when it had a solution.
    pub missed: u32,
    /// The median time to a made SCORE on it, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_made_ms: Option<u64>,
}

impl HardRoll {
    /// Whether this is the roll on `view`'s table while it is in play: a report asked for
    /// before it was dealt shows it again only once it is settled (how it went before would
    /// say whether it can be made).
    pub fn in_play(&self, view: &View) -> bool {
        !view.settled && self.roll == sorted(&view.roll) && self.goal == view.rules.goal
    }
}

/// A roll smallest first: how the Hardest rolls name one, whatever the order it was dealt in.
pub fn sorted(roll: &[i64]) -> Vec<i64> {
    let mut roll = roll.to_vec();
    roll.sort_unstable();
    roll
}

/// One member's line of the teacher's Progress: one lesson of a kept class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressRow {
    /// Their name.
    pub name: String,
    /// The lesson, counted from 1 (for homework: the lesson it was set in).
    pub lesson: u32,
    /// Homework, its number: this row is that assignment's, done at home.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homework: Option<u32>,
    /// What they did in it.
    pub tally: Tally,
}

/// One member's line of the teacher's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    /// Their seat (for one who left: a number past the room's seats, unique in the report).
    pub seat: Seat,
    /// They left the room (their record is kept for their name).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
    /// Their name.
    pub name: String,
    /// What they did.
    pub tally: Tally,
}

/// From a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ClientMsg {
    /// Create a room with the code the page proposes (see [`random_code`]) and open it as its
    /// host; a code already taken is refused with [`ErrorCode::CodeTaken`] and the page
    /// proposes another. The page opens the socket at `ws?room=CODE`, so a proxy can route
    /// every socket of a room to the instance that holds it. With a `name` the host also
    /// takes a seat and plays; without one this is a host screen (a projector), which sees
    /// the room and commands it but is not on the scoreboard.
    Create {
        version: u32,
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        judging: bool,
        /// The room's language (a code [`score_i18n::Lang::from_code`] reads): the creating
        /// page's. The presenter shows it; a student who never chose a language starts in it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lang: Option<String>,
    },
    /// Open a room as its host on this screen (the host link on a second device, or a host
    /// screen coming back), with the host token: no seat.
    Present { version: u32, code: String, host: String },
    /// A host screen takes a seat with this name ("Play too").
    Sit { name: String },
    /// Join a room by its code; with the seat token from an earlier visit, take that seat back.
    /// `device` is this browser's own random id (kept in its storage): a name's record, kept
    /// when it left, is given back only to the device it was made on.
    Join {
        version: u32,
        code: String,
        name: String,
        #[serde(default)]
        token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        device: Option<String>,
    },
    /// Leave the room: the seat and its score are given up at once.
    Leave,
    /// Press SCORE or IMPOSSIBLE.
    Claim { claim: Claim },
    /// End the IMPOSSIBLE clock now.
    Reveal,
    /// Give up one's SCORE.
    GiveUp,
    /// A move, an undo or a clear.
    Act { action: Move },
    /// Say something.
    Chat { text: String },
    /// A host's command, with the host token.
    Host { host: String, command: HostCommand },
    /// The class's homework: the member plays it alone.
    Homework { command: HomeworkCommand },
}

/// A member on the scoreboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Their seat.
    pub seat: Seat,
    /// Their name, as given.
    pub name: String,
    /// Their score in this room.
    pub score: i32,
    /// Their page is away (closed, asleep, off the network): the seat waits for it.
    #[serde(default)]
    pub away: bool,
}

/// A seat's score after a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatScore {
    /// The seat.
    pub seat: Seat,
    /// Its score now.
    pub score: i32,
}

/// Why a member's points changed: what happened, as data; each page words it in its reader's
/// language, saying "you" only on the line about that reader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Why {
    /// The goal was made under the SCORE clock, in this many moves.
    Made { moves: usize },
    /// The SCORE clock ran out.
    TimeUp,
    /// The SCORE was given up.
    GaveUp,
    /// Strict mode: the numbers ran out without the goal.
    NumbersUsedUp,
    /// A new roll while the SCORE clock ran.
    Abandoned,
    /// The player left the room (or was removed) while their SCORE clock ran.
    Left,
    /// The IMPOSSIBLE claim was right: the roll has no solution.
    TrulyImpossible,
    /// The IMPOSSIBLE claim was wrong: the roll has this solution.
    HadSolution { solution: String },
    /// Judging off: nobody made the goal during the IMPOSSIBLE clock.
    NobodyScored,
    /// The IMPOSSIBLE claim was beaten: the member in seat `by`, called `name`, made the goal.
    ClaimBeaten { by: Seat, name: String },
}

/// One member's result: who, how many points, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Their seat.
    pub seat: Seat,
    /// Their name (kept here: they may have left by the time it is shown).
    pub name: String,
    /// Points, e.g. +1 or −2.
    pub points: i32,
    /// Why.
    pub why: Why,
}

/// The SCORE claimant's working, shown to everyone from their SCORE until the next roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Working {
    /// Whose.
    pub seat: Seat,
    /// Their moves from the roll, replayed by each page on the roll.
    pub actions: Vec<Move>,
}

/// A chat message kept for members who join later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Who said it (empty for the teacher).
    pub name: String,
    /// What they said (text only: shown as text, never as HTML).
    pub text: String,
    /// The teacher said it, from a host screen: each page words who ("Teacher").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub teacher: bool,
}

/// What happened in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoomEvent {
    /// A member took a seat, with their score (a name that was here before takes its
    /// record back).
    Joined {
        seat: Seat,
        name: String,
        #[serde(default)]
        score: i32,
    },
    /// A member left (or was removed).
    Left { seat: Seat },
    /// A member's page went away (the seat waits for it) or came back.
    Presence { seat: Seat, away: bool },
    /// A clock started, for a player, until a deadline (server ms).
    Clock { seat: Seat, claim: Claim, deadline: u64 },
    /// A member's board, as the moves from the roll that make it: to everyone while its
    /// SCORE clock runs, else to that member alone. It answers each of that member's moves,
    /// made or refused, so their page takes the board the room holds.
    Board { seat: Seat, actions: Vec<Move> },
    /// Points were settled: each result, every member's score, and the clock that runs on
    /// (an IMPOSSIBLE claim's, after a SCORE during it failed); without one the roll is settled.
    Results { outcomes: Vec<Outcome>, scores: Vec<SeatScore>, clock: Option<Clock> },
    /// A new roll.
    Rolled { roll: Vec<i64> },
    /// A chat message.
    Chat { seat: Seat, name: String, text: String },
    /// A chat message from the teacher (a host screen).
    TeacherChat { text: String },
    /// The host cleared the chat.
    ChatCleared,
    /// The room was locked or opened.
    Locked { locked: bool },
    /// New rules (a new roll follows).
    Rules { rules: Rules, judging: bool },
    /// Auto-deal was set (0: off); while the roll is settled, its wait starts again now.
    AutoDeal { secs: u32 },
    /// The room's language changed (its code).
    Language { lang: String },
    /// The names the host removed (refused until let back in), after a change.
    Removed { names: Vec<String> },
    /// The host keeps the room as a class, or stopped keeping it.
    Kept { kept: bool },
    /// A lesson of a kept class ended: lesson `lesson` starts, every score from 0.
    Lesson { lesson: u32 },
    /// The class's homework was set, or closed (none: a class with no homework).
    Homework { info: Option<HomeworkInfo> },
    /// To one member: their homework as it is now (on starting, a new roll, a result).
    HomeworkRun { run: Option<Box<HomeworkRun>> },
    /// To one member: something on their homework's table (a room event of their room of one).
    HomeworkPlay { event: Box<RoomEvent> },
    /// To the host screens: every student's homework line, after a change.
    HomeworkRows { rows: Vec<HomeworkRow> },
    /// The host deleted what the room kept about the student called `name`: their chat lines
    /// and the results that name them go.
    Forgotten { name: String },
}

/// The room as one member sees it on joining (or coming back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The room's rules: dice, goal, operators, clocks.
    pub rules: Rules,
    /// Whether the computer judges IMPOSSIBLE.
    pub judging: bool,
    /// The roll.
    pub roll: Vec<i64>,
    /// Every member, by seat.
    pub members: Vec<Player>,
    /// The clock that runs, if any.
    pub clock: Option<Clock>,
    /// Whether this roll's points are settled (a claim judged, a SCORE made or failed).
    pub settled: bool,
    /// The server's clock when this was sent, ms (deadlines minus this: time left).
    pub now: u64,
    /// The last results.
    pub results: Vec<Outcome>,
    /// The chat kept.
    pub chat: Vec<ChatLine>,
    /// This member's own board, as the moves from the roll that make it.
    pub actions: Vec<Move>,
    /// The SCORE claimant's working, from their SCORE until the next roll.
    pub working: Option<Working>,
    /// The next roll is dealt by itself this many seconds after a result (0: never).
    #[serde(default)]
    pub auto_deal_secs: u32,
    /// When the roll was settled (server ms), or its auto-deal wait last restarted; none
    /// while it is not settled. With `auto_deal_secs`, when the next roll comes.
    #[serde(default)]
    pub settled_at: Option<u64>,
    /// Whether the room is locked.
    pub locked: bool,
    /// The names the host removed, refused until let back in.
    #[serde(default)]
    pub removed: Vec<String>,
    /// The room's language, as its code ("es"): see [`HostCommand::Language`]. None for a
    /// room stored before rooms had one: it asks no page for a language.
    #[serde(default)]
    pub lang: Option<String>,
    /// Whether the host keeps the room as a class.
    #[serde(default)]
    pub kept: bool,
    /// The lesson under way, counted from 1.
    #[serde(default = "first_lesson")]
    pub lesson: u32,
    /// The class's homework, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homework: Option<HomeworkInfo>,
    /// This member's own homework, once started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<Box<HomeworkRun>>,
    /// For a host screen: every student's homework line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub homework_rows: Vec<HomeworkRow>,
}

fn first_lesson() -> u32 {
    1
}

/// What a page does about a refusal (leave, retry, reload); the [`Refusal`] with it says why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The message was not JSON of this protocol.
    Unreadable,
    /// Too many messages: wait.
    SlowDown,
    /// The page is older (or newer) than the server.
    OldPage,
    /// Not in a room yet (create or join first), or a host screen without a seat.
    NotSeated,
    /// Already in a room.
    AlreadySeated,
    /// No room has this code.
    NoSuchRoom,
    /// Too many wrong codes from this address.
    WrongCodes,
    /// The room has no free seat.
    RoomFull,
    /// The host locked the room.
    RoomLocked,
    /// The server holds as many rooms as it can.
    ServerFull,
    /// The code a page proposed for a new room is taken (or not a code): propose another.
    CodeTaken,
    /// The room in the socket's address is not the one the message names.
    WrongAddress,
    /// This address created as many rooms as it may for now.
    TooManyRooms,
    /// The seat token no longer works (away too long): join again by name.
    SeatGone,
    /// A host's command, or a host link, without the room's host token.
    NotHost,
    /// The room refused the input (a rule of the game, a name taken, a bad roll…).
    Refused,
    /// The host removed this member.
    Removed,
    /// The host ended the room.
    Ended,
    /// The server is restarting: the page reconnects to its seat.
    Restarting,
    /// This seat was taken by another tab or window of the same member: this page stops,
    /// and offers to take it back.
    OpenElsewhere,
}

impl ErrorCode {
    /// Whether asking again later can get a different answer: the server busy or restarting,
    /// too many connections or empty seats from this network. A page coming back to its
    /// place retries only these, and stops, saying why, on any other.
    pub const fn retry_mends(self) -> bool {
        matches!(self, ErrorCode::SlowDown | ErrorCode::ServerFull | ErrorCode::Restarting | ErrorCode::TooManyRooms)
    }

    /// Whether this member is out of the room for good (back to the forms).
    pub const fn sends_away(self) -> bool {
        matches!(self, ErrorCode::Removed | ErrorCode::Ended)
    }

    /// Whether a page coming back to its place (a seat's token, a host screen) stops asking
    /// when refused with this: the room or the seat is gone, or the link is wrong. Anything
    /// else (the server busy, too many connections from this network) is asked again later.
    pub const fn for_good(self) -> bool {
        self.sends_away()
            || matches!(
                self,
                ErrorCode::NoSuchRoom
                    | ErrorCode::NotHost
                    | ErrorCode::WrongAddress
                    | ErrorCode::WrongCodes
                    | ErrorCode::SeatGone
            )
    }
}

/// What came too fast ([`Refusal::SlowDown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flood {
    /// Moves on the board.
    Moves,
    /// Messages of any kind.
    Messages,
    /// Chat messages.
    Chat,
    /// Seats taken from one network and left empty.
    Joins,
    /// Connections from one network (address) to this server.
    Connections,
}

/// Why the server refused a message, as data (what, and the values that go with it): each
/// page words it in its reader's language ([`crate::say::refusal`]). Its [`ErrorCode`], what
/// a page acts on, follows from it ([`Refusal::code`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// The message was not JSON of this protocol.
    Unreadable,
    /// Too many of these: wait.
    SlowDown { what: Flood },
    /// The page is older (or newer) than the server.
    OldPage,
    /// Not in a room yet: create or join one first.
    NotInRoom,
    /// This member (or screen) is no longer in the room.
    NoLongerInRoom,
    /// A host screen without a seat tried to play.
    Presenting,
    /// Already in a room.
    AlreadySeated,
    /// No room has this code (to join).
    NoSuchRoom { code: String },
    /// The room of a host link is gone.
    HostLinkGone { code: String },
    /// A host link with the wrong token for this room.
    WrongHostLink { code: String },
    /// A host's command without the host token.
    NotHost,
    /// Too many wrong codes from this address.
    WrongCodes,
    /// The server holds as many rooms as it can.
    ServerFull,
    /// The code a page proposed for a new room is taken.
    CodeTaken,
    /// The room in the socket's address is not the one the message names.
    WrongAddress,
    /// This address made `rooms` rooms in the last ten minutes that nobody joined.
    TooManyUnjoined { rooms: u32 },
    /// This address made `rooms` rooms in the last ten minutes.
    TooManyCreated { rooms: u32 },
    /// The seat's token no longer works (given up while away).
    SeatGone { code: String },
    /// The room refused the input: a rule of the game, a name taken, a bad move…
    Room { error: crate::room::RoomError },
    /// The room did not seat the member.
    NotSeated,
    /// A typed roll that these dice can't roll.
    CantRoll { roll: Vec<i64>, dice: Vec<u32> },
    /// Rules out of range, each field's reason.
    Rules { errors: Vec<RulesError> },
    /// The room's rules changed between a deal and its apply.
    RulesChanged,
    /// An auto-deal wait longer than the most.
    AutoDealTooLong { max_secs: u32 },
    /// No roll of homework's difficulty turned up for these dice.
    NoRollsAtLevel { level: u8 },
    /// Homework at each student's level with more than `most` dice: a class rates nobody's
    /// play on more (rating one such roll takes seconds).
    NotRated { most: u32 },
    /// The server keeps as many classes as it may (`most`): one more would leave no room
    /// for a lesson's room.
    TooManyKept { most: u32 },
    /// The host removed this member.
    Removed,
    /// The host ended the room.
    Ended,
    /// The server is restarting: the page reconnects to its seat.
    Restarting,
    /// Another tab or window of this member took the seat.
    OpenElsewhere,
    /// The server failed at something (a fault, not the page's doing).
    ServerFault,
}

impl Refusal {
    /// What a page acts on.
    pub fn code(&self) -> ErrorCode {
        match self {
            Refusal::Unreadable => ErrorCode::Unreadable,
            Refusal::SlowDown { .. } => ErrorCode::SlowDown,
            Refusal::OldPage => ErrorCode::OldPage,
            Refusal::NotInRoom | Refusal::NoLongerInRoom | Refusal::Presenting => ErrorCode::NotSeated,
            Refusal::AlreadySeated => ErrorCode::AlreadySeated,
            Refusal::NoSuchRoom { .. } | Refusal::HostLinkGone { .. } => ErrorCode::NoSuchRoom,
            Refusal::WrongHostLink { .. } | Refusal::NotHost => ErrorCode::NotHost,
            Refusal::WrongCodes => ErrorCode::WrongCodes,
            Refusal::ServerFull => ErrorCode::ServerFull,
            Refusal::CodeTaken => ErrorCode::CodeTaken,
            Refusal::WrongAddress => ErrorCode::WrongAddress,
            Refusal::TooManyUnjoined { .. } | Refusal::TooManyCreated { .. } => ErrorCode::TooManyRooms,
            Refusal::SeatGone { .. } => ErrorCode::SeatGone,
            Refusal::Room { error } => error.code(),
            Refusal::NotSeated
            | Refusal::CantRoll { .. }
            | Refusal::Rules { .. }
            | Refusal::RulesChanged
            | Refusal::AutoDealTooLong { .. }
            | Refusal::NoRollsAtLevel { .. }
            | Refusal::NotRated { .. }
            | Refusal::TooManyKept { .. }
            | Refusal::ServerFault => ErrorCode::Refused,
            Refusal::Removed => ErrorCode::Removed,
            Refusal::Ended => ErrorCode::Ended,
            Refusal::Restarting => ErrorCode::Restarting,
            Refusal::OpenElsewhere => ErrorCode::OpenElsewhere,
        }
    }
}

impl From<crate::room::RoomError> for Refusal {
    fn from(error: crate::room::RoomError) -> Refusal {
        Refusal::Room { error }
    }
}

/// A refusal as every page since protocol 6 reads it, tagged by `"type"`:
/// `{"type":"Error","code":"OldPage","why":{"type":"OldPage"}}`. The server sends the
/// refusals a page can meet before its version is read ([`EarlyError::of`]) in this shape, so
/// that a page older than the server (a tab left open, a cached page) still learns to reload;
/// and a page reads a message of an older server in it ([`EarlyError::read`]), so that it
/// learns the same from a server older than itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlyError {
    #[serde(rename = "type")]
    pub kind: ErrorTag,
    pub code: ErrorCode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<EarlyWhy>,
    /// The sentence a page of protocol 5 shows (English: it read no `why`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The one tag an [`EarlyError`] has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorTag {
    Error,
}

/// An [`EarlyError`]'s why: a refusal's name, and for a `SlowDown` what came too fast (the
/// fields of any other refusal are not read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlyWhy {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub what: Option<Flood>,
}

impl EarlyError {
    /// `why` in the early shape, if a page can meet it before the server has read its
    /// version: a page too old (or new) for this server, or too many connections from its
    /// network. `message` is the sentence for a page of protocol 5.
    pub fn of(why: &Refusal, message: impl FnOnce(&Refusal) -> String) -> Option<EarlyError> {
        let (kind, what) = match why {
            Refusal::OldPage => ("OldPage", None),
            Refusal::SlowDown { what: what @ Flood::Connections } => ("SlowDown", Some(*what)),
            _ => return None,
        };
        Some(EarlyError {
            kind: ErrorTag::Error,
            code: why.code(),
            why: Some(EarlyWhy { kind: kind.into(), what }),
            message: Some(message(why)),
        })
    }

    /// The refusal a page acts on: its code, and why when it is one a page can meet early
    /// (any other is read by its code alone).
    pub fn read(self) -> ServerMsg {
        let why = self.why.and_then(|w| match (w.kind.as_str(), w.what) {
            ("OldPage", _) => Some(Refusal::OldPage),
            ("SlowDown", Some(what)) => Some(Refusal::SlowDown { what }),
            _ => None,
        });
        ServerMsg::Error { code: self.code, why }
    }
}

/// What a page does with a room event, given the `seq` of the last one it applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The next one: apply it.
    Apply,
    /// Already seen (it was in the Welcome, or came twice): drop it.
    Seen,
    /// One or more were missed: ask for the room afresh.
    Missed,
}

/// Where event `seq` stands after event `last`.
pub const fn next(last: u64, seq: u64) -> Next {
    if seq <= last {
        Next::Seen
    } else if seq == last + 1 {
        Next::Apply
    } else {
        Next::Missed
    }
}

/// From the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMsg {
    /// You are in: your seat and the token that gives it back (none for a host screen that
    /// doesn't play), the host token (for the host), and `seq`, the sequence number of the
    /// last room event this view includes.
    Welcome { code: String, seat: Option<Seat>, token: Option<String>, host: Option<String>, seq: u64, view: Box<View> },
    /// Something happened in the room, at the server's time `now`; `seq` counts the room's events.
    Event { seq: u64, now: u64, event: RoomEvent },
    /// Something only this member sees (their private practice board).
    Own { now: u64, event: RoomEvent },
    /// Your last message was refused: what the page acts on, and why (worded by the page).
    /// A server of protocol 11 or older wrote it tagged by `"type"` (of 5 or older, with a
    /// sentence and no why): a page reads that as an [`EarlyError`] and acts on its code.
    Error {
        code: ErrorCode,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<Refusal>,
    },
    /// The teacher's report, for the host who asked, and the class's Progress: a line per
    /// member per lesson (a kept class's; none for a room of one lesson), and its Hardest rolls.
    Report {
        rows: Vec<ReportRow>,
        #[serde(default)]
        progress: Vec<ProgressRow>,
        /// The rolls the class missed most ([`crate::room::Room::hardest`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hardest: Vec<HardRoll>,
    },
    /// To a host screen after its Welcome: the addresses (`host:port`) other devices can
    /// reach this server at; none when it listens on this computer only (see [`crate::reach`]).
    JoinAt { addresses: Vec<String> },
}

/// How long the server waits for a socket's first message before it closes it, ms.
pub const FIRST_MESSAGE_MS: u64 = 10_000;

/// Whether a socket a page opened `age_ms` ago, ahead of its hello (an invite's page opens
/// the room's while the student types their name), may still carry it: until two seconds
/// before the server would close it for saying nothing, so that the hello is not on its way
/// as the server gives up.
pub fn warm_usable(age_ms: f64) -> bool {
    (0.0..(FIRST_MESSAGE_MS - 2_000) as f64).contains(&age_ms)
}

/// How long a page waits before its `attempt`-th try (from 1) to reconnect, ms: 0.5 s, 1 s,
/// 2 s, … up to 10 s, spread by `unit` (a random number in 0..1) over half to one and a half
/// times that, so a class whose server restarted does not come back all in the same instant.
pub fn retry_delay(attempt: u32, unit: f64) -> u32 {
    let base = (500u32 << attempt.saturating_sub(1).min(5)).min(10_000);
    base / 2 + (f64::from(base) * unit.clamp(0.0, 1.0)) as u32
}

/// Whether a page whose room socket never opened is served with no room server there, from
/// what its plain request for the socket's address got: `Some(status)`, an HTTP answer, or
/// `None`, none in time. A host of plain files answers (a 404, or a page); a room server's own
/// refusal of a plain request (400, 426) says it is there and the socket failed on the way; a
/// proxy's 5xx, or no answer, says nothing answers for now (offline, another network, the
/// server stopped): the room is tried again.
pub fn plain_files(answer: Option<u16>) -> bool {
    matches!(answer, Some(status) if !matches!(status, 400 | 426 | 500..))
}

#[cfg(test)]
mod retry_tests {
    use super::*;

    #[test]
    fn a_socket_opened_ahead_carries_the_hello_only_well_before_the_server_gives_up() {
        assert!(warm_usable(0.0) && warm_usable(7_999.0));
        assert!(!warm_usable(8_000.0) && !warm_usable(60_000.0));
        assert!(!warm_usable(-1.0), "a clock set back: a socket of its own");
        assert!(!warm_usable(f64::NAN));
    }

    // Pins a bug: the first wait was 1 s (the count went up before it was read), and every
    // page waited exactly as long, so a class reconnected in lockstep after a restart.
    #[test]
    fn reconnecting_backs_off_from_half_a_second_to_ten_with_jitter() {
        assert_eq!((retry_delay(1, 0.5), retry_delay(2, 0.5), retry_delay(3, 0.5)), (500, 1_000, 2_000));
        assert_eq!(retry_delay(40, 0.5), 10_000);
        assert_eq!((retry_delay(1, 0.0), retry_delay(1, 1.0)), (250, 750));
        assert!(
            (0..=10).map(|i| retry_delay(4, f64::from(i) / 10.0)).collect::<std::collections::BTreeSet<_>>().len() > 5
        );
        assert!(ErrorCode::Restarting.retry_mends() && ErrorCode::SlowDown.retry_mends());
        assert!(!ErrorCode::Refused.retry_mends() && !ErrorCode::SeatGone.retry_mends());
    }

    #[test]
    fn only_a_host_with_no_room_server_stops_the_tries() {
        assert!(plain_files(Some(404)) && plain_files(Some(200)) && plain_files(Some(403)));
        assert!(!plain_files(Some(400)) && !plain_files(Some(426)), "score-server there, the socket failed on the way");
        assert!(
            !plain_files(Some(502)) && !plain_files(Some(503)) && !plain_files(Some(504)),
            "a proxy, its server down"
        );
        assert!(!plain_files(None), "no answer: offline, or nothing listening");
    }
}
