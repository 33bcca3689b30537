//! One class room as a pure state machine: [`Room::apply`] takes an [`Input`] and the
//! time, checks it, and returns the [`Out`] events to send; [`Room::tick`] settles clocks
//! that ran out. Nothing here touches a socket, a clock or a database, so every rule is
//! tested natively, and [`Room::saved`] / [`Room::restore`] carry a room across a restart
//! (boards are rebuilt by replaying each seat's actions through the engine's `Board`).
//!
//! The group rules are the pass-and-play ones (docs/RULES.md §5), with the same wording:
//! any member may press SCORE or IMPOSSIBLE; the first SCORE wins the clock; while a
//! SCORE clock runs, only its player's moves count, and everyone sees them as they are
//! made. Outside a claim each member practises on a private copy of the roll, which
//! scores nothing and settles nothing.
//!
//! The solver never runs in here: a new roll comes as a [`Deal`], whose verdict the
//! caller worked out first, outside any lock a server holds.

use std::collections::VecDeque;

use score_engine::elo::Ability;
use score_engine::solve::simplest;
use score_engine::{
    Action, Award, Board, BoardError, Event, Input as RoundInput, Phase, Puzzle, Reason, Round, RoundError, Rules,
};
use serde::{Deserialize, Serialize};

pub use crate::protocol::{ChatLine, Claim, Seat, CHAT_KEPT, MAX_CHAT, MAX_MEMBERS, MAX_NAME};
use crate::protocol::{
    Clock, ErrorCode, HomeworkCommand, Move, Outcome, Player, ProgressRow, ReportRow, RoomEvent, SeatScore, Tally,
    View, Why, Working,
};
use crate::rights::{may, Act, Stage};

mod homework;
pub use homework::{
    pool, pool_per_level, solvable, Assignment, PoolError, Run, MAX_DUE_MS, MAX_HOMEWORK, MAX_POOL, MIN_POOL_PER_LEVEL,
    UNTIMED_SECS,
};
mod rolls;
pub use crate::ratings::{Answer, RollRating};
pub use rolls::{RollStat, HARDEST_SHOWN, ROLLS_KEPT};

/// Result lines kept for the host's download.
pub const HISTORY_KEPT: usize = 5000;

/// A roll with the solver's verdict on it: [`Deal::new`] runs the solver, so a server
/// makes the deal before it takes a lock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    /// The roll, in dice order.
    pub roll: Vec<i64>,
    /// The simplest solution, as shown when an IMPOSSIBLE claim is judged wrong; `None`
    /// when the roll has none.
    pub solution: Option<String>,
}

impl Deal {
    /// `roll` under `rules`, solved.
    pub fn new(roll: Vec<i64>, rules: &Rules) -> Deal {
        let solution = simplest(&Puzzle::from_roll(&roll, rules)).map(|e| e.to_string());
        Deal { roll, solution }
    }
}

/// Something a member (or, for the host's inputs, the host) does. The socket layer checks
/// host rights (a host token, never a name) before it passes a host input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Take a seat with this name.
    Join { name: String },
    /// Take a seat with this name from a device (its own random id): a record kept for the
    /// name is given back only to the device it was made on.
    Enter { name: String, device: Option<String> },
    /// Leave the room: the seat is given up, the name's record is kept for a join again.
    Leave { seat: Seat },
    /// Host: remove a member, who leaves and may not join again (under that name) until let
    /// back in.
    Remove { seat: Seat },
    /// Host: let a removed name join again.
    Readmit { name: String },
    /// Host: give up every seat whose page is away and that never played (seats taken and
    /// left empty), as if each had left.
    ClearEmpty,
    /// Press SCORE or IMPOSSIBLE.
    Claim { seat: Seat, claim: Claim },
    /// End the IMPOSSIBLE clock now and judge.
    RevealNow { seat: Seat },
    /// Give up one's own SCORE.
    GiveUp { seat: Seat },
    /// A move, an undo or a clear on the member's board.
    Act { seat: Seat, action: Action },
    /// Say something.
    Chat { seat: Seat, text: String },
    /// Host: say something as the teacher, from a host screen without a seat.
    TeacherChat { text: String },
    /// Host: a new roll (dealt by the caller), settling whatever runs.
    NewRoll { deal: Deal },
    /// Host: the next roll (dealt by the caller) if this one is settled; else nothing.
    NextRoll { deal: Deal },
    /// Host: lock the room to new members, or open it.
    Lock { locked: bool },
    /// Host: clear the chat.
    ClearChat,
    /// Host: new rules (already checked) and judging, with a roll dealt for them.
    SetRules { rules: Rules, judging: bool, deal: Deal },
    /// Host: deal the next roll by itself `secs` after a result (0: off); while the roll is
    /// settled, the wait starts again now.
    AutoDeal { secs: u32 },
    /// Host: the room's language (a code, as [`score_i18n::Lang::code`] writes it).
    Language { lang: String },
    /// The server: a member's page went away (its socket dropped: the seat waits for it) or
    /// came back. A roll counts in the report only for the members here when it is dealt.
    Presence { seat: Seat, away: bool },
    /// Host: give a member's seat up for another device: their record is kept for the next to
    /// join under their name, from any device (a student back on a new phone), and the seat's
    /// old device has no seat any more.
    Free { seat: Seat },
    /// Host: keep the room as a class, or stop keeping it.
    Keep { kept: bool },
    /// Host (or the server, after an hour with nobody in): end the lesson of a kept class.
    /// Each member's points and record of it are kept as a past lesson
    /// ([`Member::lessons`]), and the next lesson starts from 0 points.
    EndLesson,
    /// Host: set homework (its rolls dealt, with verdicts, by the caller); the homework set
    /// before is closed, each student's run of it kept in their Progress.
    SetHomework { assignment: Assignment },
    /// Host: close the homework now.
    EndHomework,
    /// A member's command on their own homework.
    Homework { seat: Seat, command: HomeworkCommand },
    /// Host: delete everything the room keeps about a student (one who left the school): their
    /// seat, if taken, their records of every lesson and homework under the name, from any
    /// device, their results in the download's history and their chat lines. The name may
    /// join again afterwards, as someone new.
    Forget { name: String },
}

/// Who an event is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum To {
    /// Every member.
    All,
    /// One member.
    Seat(Seat),
    /// The host screens (the teacher's live view).
    Hosts,
}

/// An event and who it is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Out {
    /// Who it is for.
    pub to: To,
    /// What happened.
    pub event: RoomEvent,
}

/// Why an input was refused: data on the wire (in [`crate::protocol::Refusal::Room`]),
/// worded by each page ([`crate::say::refusal`]); the `Display` is the English wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RoomError {
    #[error("A name needs at least one letter.")]
    NameEmpty,
    #[error("A name can be at most {MAX_NAME} characters.")]
    NameTooLong,
    #[error("A name can't contain control characters.")]
    NameControl,
    #[error("Someone in this room is already called “{0}”: choose another name.")]
    NameTaken(String),
    #[error("This room is full ({MAX_MEMBERS} members).")]
    Full,
    #[error("Only a kept class has lessons.")]
    NotKept,
    #[error("A clock is running: end the lesson once it is settled.")]
    ClockRunning,
    #[error("Homework has 1 to {MAX_HOMEWORK} rolls.")]
    HomeworkCount,
    #[error("Homework is due today at the earliest, and within a year.")]
    HomeworkDue,
    #[error("This class has no homework.")]
    NoHomework,
    #[error("Start the homework first.")]
    HomeworkNotStarted,
    #[error("This homework is closed: it was due, or the teacher ended it.")]
    HomeworkOver,
    #[error("You have played every roll of this homework.")]
    HomeworkDone,
    #[error("Nobody in this class is called “{0}”.")]
    NoSuchName(String),
    #[error("The host has locked this room.")]
    Locked,
    #[error("That seat is empty.")]
    NoSuchSeat,
    #[error("A message needs some text.")]
    ChatEmpty,
    #[error("A message can be at most {MAX_CHAT} characters.")]
    ChatTooLong,
    #[error("Score doesn't speak that language.")]
    UnknownLanguage,
    #[error("Only the player whose SCORE clock runs can give it up.")]
    NotYourScore,
    #[error("Only the player who called IMPOSSIBLE can end its clock early.")]
    NotYourClaim,
    #[error("With judging off, an IMPOSSIBLE claim runs its whole clock: someone may still find a solution.")]
    RevealNeedsJudging,
    #[error("The host removed “{0}” from this room: ask the host to let you back in.")]
    Removed(String),
    #[error("{0}")]
    Round(#[from] RoundError),
    #[error("{0}")]
    Board(#[from] BoardError),
}

impl RoomError {
    /// The code a page acts on.
    pub fn code(&self) -> ErrorCode {
        match self {
            RoomError::Full => ErrorCode::RoomFull,
            RoomError::Locked => ErrorCode::RoomLocked,
            _ => ErrorCode::Refused,
        }
    }
}

/// A refused input: why, and the events of clocks that ran out and were settled on the
/// way (before the input was looked at). Those happened whatever became of the input:
/// they must reach the members and the store like any others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// Why the input was refused; the input itself changed nothing.
    pub error: RoomError,
    /// What was settled before it.
    pub settled: Vec<Out>,
    /// For a refused move: the member's board as the room holds it, to that member alone, so
    /// their page (which made the move before asking) takes it back.
    pub board: Option<Box<Out>>,
}

/// A member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Their name, as given.
    pub name: String,
    /// Their score in this room.
    pub score: i32,
    /// What they did, for the teacher's report.
    #[serde(default)]
    pub record: Record,
    /// Their records of the class's past lessons, oldest first (a kept class: see
    /// [`Input::EndLesson`]); the record above is the lesson under way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lessons: Vec<LessonRecord>,
    /// Whether their page is away (not connected). Not kept: after a restart every member
    /// is away until their page comes back.
    #[serde(skip, default = "away_after_restart")]
    pub away: bool,
    /// Whether they have played in the room (a move or a claim; chat is not play): a seat
    /// taken and never played is given up sooner when its page goes away, and the host may
    /// clear all such seats at once. (A member stored before this was kept has played.)
    #[serde(default = "played_before_it_was_kept")]
    pub played: bool,
    /// The device the record was made on (its own random id), which alone takes it back after
    /// leaving; none for a seat taken without one. Kept by the server, never sent to a page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The room's roll (its count, [`Saved::rolls_dealt`]) last counted in their record: a
    /// roll counts once, however often they leave and come back on it.
    #[serde(default)]
    pub counted_roll: u64,
    /// Their run of the class's homework, once started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homework: Option<Run>,
    /// Their rating at the class's game, moved by each of their SCOREs rated (in the class
    /// and in its homework: [`crate::ratings`]). Kept by the server; the teacher's Progress
    /// shows it lesson by lesson.
    #[serde(default, skip_serializing_if = "is_unrated")]
    pub rating: Ability,
}

fn is_unrated(a: &Ability) -> bool {
    a.answers == 0
}

impl Member {
    /// Whether their seat is empty: their page is away and they never played.
    pub fn empty_seat(&self) -> bool {
        self.away && !self.played
    }

    /// Whether their record is kept when they leave: it holds a claim or a result, or a past
    /// lesson of a kept class (practice moves alone are not kept, so joining and leaving under
    /// name after name pushes out nobody's record).
    pub fn worth_keeping(&self) -> bool {
        self.class_record() || self.homework.as_ref().is_some_and(Run::worth_keeping)
    }

    /// Whether they have a record of the class's own play: a claim or a result, or a past
    /// lesson (homework done at home is not a lesson of theirs).
    fn class_record(&self) -> bool {
        let r = &self.record;
        self.score != 0
            || r.scores_made + r.scores_failed + r.impossible_right + r.impossible_wrong > 0
            || self.lessons.iter().any(|l| l.homework.is_none())
    }

    /// What they did in the room (or the lesson under way), counted.
    pub fn tally(&self) -> Tally {
        Tally { rating: crate::ratings::stored(self.rating), ..self.record.tally(self.score) }
    }

    /// Whether the lesson under way is one of theirs: something was counted in it and they
    /// play (rolls dealt to a name taken and left idle are no lesson of theirs: it would be
    /// held for ever, with a row in every Progress).
    pub fn in_lesson(&self) -> bool {
        self.tally().played() && (self.played || self.class_record())
    }
}

fn away_after_restart() -> bool {
    true
}

fn played_before_it_was_kept() -> bool {
    true
}

/// A member's record of one past lesson of a kept class: its counts and median time, not
/// every time (a year of lessons stays a few hundred bytes each).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonRecord {
    /// The lesson, counted from 1 (for homework: the lesson it was set in).
    pub lesson: u32,
    /// Homework, its number: this record is of that assignment, done at home.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homework: Option<u32>,
    /// What they did in it.
    #[serde(flatten)]
    pub tally: Tally,
}

/// Past lessons kept per member (the latest): two a week for ten school years.
pub const LESSONS_KEPT: usize = 800;

/// Times to a made SCORE kept per member (the latest).
const MADE_KEPT: usize = 1000;

/// What a member did in this room, for the teacher's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Rolls dealt while they were in the room (the one they joined on included).
    pub rolls: u32,
    /// SCOREs that made the goal in time.
    pub scores_made: u32,
    /// SCOREs that failed.
    pub scores_failed: u32,
    /// IMPOSSIBLE claims judged right.
    pub impossible_right: u32,
    /// IMPOSSIBLE claims judged wrong.
    pub impossible_wrong: u32,
    /// Milliseconds from SCORE to the goal, for each SCORE made.
    pub made_ms: Vec<u64>,
}

impl Record {
    fn count(&mut self, reason: Reason, score_ms: Option<u64>) {
        match reason {
            Reason::Made { .. } => {
                self.scores_made += 1;
                if let Some(ms) = score_ms {
                    push_latest(&mut self.made_ms, ms, MADE_KEPT);
                }
            }
            Reason::TimeUp | Reason::GaveUp | Reason::NumbersUsedUp | Reason::Abandoned | Reason::Left => {
                self.scores_failed += 1
            }
            Reason::TrulyImpossible | Reason::NobodyScored => self.impossible_right += 1,
            Reason::HadSolution | Reason::ClaimBeaten { .. } => self.impossible_wrong += 1,
            Reason::FreePractice | Reason::HintUsed | Reason::SolutionsShown => {}
        }
    }

    /// This record counted, with `points`.
    pub fn tally(&self, points: i32) -> Tally {
        Tally {
            points,
            rolls: self.rolls,
            scores_made: self.scores_made,
            scores_failed: self.scores_failed,
            impossible_right: self.impossible_right,
            impossible_wrong: self.impossible_wrong,
            median_score_ms: self.median_ms(),
            rating: None,
        }
    }

    /// The median time to a made SCORE.
    fn median_ms(&self) -> Option<u64> {
        median(&self.made_ms)
    }
}

/// The median of `ms` (the lower middle of an even count); none of none.
fn median(ms: &[u64]) -> Option<u64> {
    let mut ms = ms.to_vec();
    ms.sort_unstable();
    ms.get(ms.len().checked_sub(1)? / 2).copied()
}

/// Everything a room is, for storage: boards are kept as the actions that made them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    pub rules: Rules,
    pub judging: bool,
    pub locked: bool,
    pub seats: Vec<Option<Member>>,
    pub roll: Vec<i64>,
    /// The roll's simplest solution (see [`Deal`]); read only when `solved` is set.
    #[serde(default)]
    pub solution: Option<String>,
    /// Whether `solution` is the solver's verdict (rooms stored before it was kept have none).
    #[serde(default)]
    pub solved: bool,
    /// When the running SCORE clock started, ms (for the time to a made SCORE).
    #[serde(default)]
    pub score_started: Option<u64>,
    pub round: Round,
    pub actions: Vec<Vec<Action>>,
    pub chat: VecDeque<ChatLine>,
    /// The last results (a room stored before they were data has none).
    #[serde(default)]
    pub outcomes: Vec<Outcome>,
    /// The SCORE claimant's working, from their SCORE until the next roll.
    #[serde(default)]
    pub working: Option<Working>,
    /// Every result so far, with its roll, for the host's download (the last 5,000).
    #[serde(default)]
    pub history: Vec<Historic>,
    /// Auto-deal: the next roll comes this many seconds after a result (0: off).
    #[serde(default)]
    pub auto_deal_secs: u32,
    /// When the roll was settled, or its auto-deal wait restarted, ms; none while in play.
    #[serde(default)]
    pub settled_at: Option<u64>,
    /// The room's language, as its code (none: a room stored before rooms had one).
    #[serde(default)]
    pub lang: Option<String>,
    /// The records of members who left, taken back by a join under the same name (the
    /// latest [`GONE_KEPT`]).
    #[serde(default)]
    pub gone: Vec<Gone>,
    /// The names the host removed, refused (as [`same_name`] compares them) until let back in.
    #[serde(default)]
    pub removed: Vec<String>,
    /// The devices of the members the host removed, with the name each was removed under:
    /// refused under any name until that name is let back in. Never sent to a page.
    #[serde(default)]
    pub removed_devices: Vec<(String, String)>,
    /// How many rolls this room has dealt (counted from when it was kept).
    #[serde(default)]
    pub rolls_dealt: u64,
    /// The host keeps this room as a class: it stays (same code) until the host ends it, its
    /// members' seats are held for them between lessons, and their records of each lesson
    /// are kept ([`Member::lessons`]).
    #[serde(default)]
    pub kept: bool,
    /// The lesson under way, counted from 1.
    #[serde(default = "first_lesson")]
    pub lesson: u32,
    /// The class's homework (the last set), with its rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homework: Option<Assignment>,
    /// How many assignments the class has been set.
    #[serde(default)]
    pub homework_set: u32,
    /// How the room fared on each roll (its table's results, and its closed homework's): the
    /// report's Hardest rolls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roll_stats: Vec<RollStat>,
    /// Each roll's rating from the SCOREs on it ([`crate::ratings`]): kept by the server,
    /// never sent to a page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roll_ratings: Vec<RollRating>,
    /// When the roll in play was dealt, ms: a SCORE is timed from it, as solitaire times
    /// its answers (none for a room's first roll made without it: not rated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealt_at: Option<u64>,
    /// SCOREs judged on the roll in play, rated once it is settled (a rating moved sooner
    /// would say, in the teacher's Progress, whether the roll can be made while a claim on
    /// it still runs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unrated: Vec<Answer>,
}

fn first_lesson() -> u32 {
    1
}

/// Records of members who left, kept for a join again under the same name.
pub const GONE_KEPT: usize = 500;

/// A member who left, and their record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gone {
    /// Their record, as when they left.
    pub member: Member,
    /// The seat they left while a clock of theirs still ran (an IMPOSSIBLE claim's runs on
    /// when its claimer leaves): its result is theirs, and nobody else takes the seat until
    /// it is settled or they come back.
    #[serde(default)]
    pub stake: Option<Seat>,
}

/// One result of a room's history, for the host's download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Historic {
    /// A room stored before results were kept as data: its roll and its English line.
    Worded(String, String),
    /// A result as data, with the roll and goal it was made on: worded in the language the
    /// download is asked in.
    Result { roll: Vec<i64>, goal: i64, outcome: Outcome },
}

/// The name `name` taken out of results that name it as the one who beat a claim (the row is
/// the claimer's, and stays): for [`Input::Forget`], in the room and on every page.
pub fn forget_in(outcomes: &mut [Outcome], name: &str) {
    for o in outcomes {
        if let Why::ClaimBeaten { name: n, .. } = &mut o.why {
            if n == name {
                n.clear();
            }
        }
    }
}

/// One class room.
#[derive(Debug, Clone)]
pub struct Room {
    saved: Saved,
    boards: Vec<Board>,
}

/// Characters that change the direction of the text after them: never kept in a name, where
/// they would turn the scoreboard's line around.
fn direction_control(c: char) -> bool {
    matches!(c as u32, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// Whether a character counts in a name: one Unicode allows in identifiers (UTS #39's
/// Identifier_Status: the letters, digits and marks of the scripts in use today). Spaces,
/// punctuation, symbols and everything that shows nothing (format characters, fillers,
/// U+2800 BRAILLE PATTERN BLANK…) are not: they may stand in a name, but never make it.
fn counts(c: char) -> bool {
    use unicode_security::GeneralSecurityProfile;
    c.identifier_allowed() && !c.is_ascii_punctuation()
}

/// What two names are compared by: the characters that count, in any case, as their UTS #39
/// confusable skeleton, so "Ana" is one name with "ANA", with "Ana" and an invisible or blank
/// character, and with "Аna" written with a Cyrillic А.
pub fn name_key(name: &str) -> String {
    let counted: String = name.chars().filter(|&c| counts(c)).collect::<String>().to_lowercase();
    unicode_security::skeleton(&counted).collect()
}

/// [`name_key`] with the letters' case kept: a capital I and an l look alike only while the I
/// is a capital ("AIex" and "Alex"), which lower case hides.
fn cased_key(name: &str) -> String {
    let counted: String = name.chars().filter(|&c| counts(c)).collect();
    unicode_security::skeleton(&counted).collect()
}

/// Whether two names are one: alike in any case ("Liam", "LIAM"), or alike as written ("AIex"
/// with a capital i, "Alex"). "Ian" and "Lan" stay two names.
pub fn same_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b) || cased_key(a) == cased_key(b)
}

/// Checks a name: normalised (NFC, trimmed, no direction controls), 1–20 characters, no
/// control characters, and at least one character that counts (a letter or a digit).
pub fn check_name(name: &str) -> Result<String, RoomError> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.nfc().filter(|&c| !direction_control(c)).collect();
    let name = name.trim();
    // A letter or a digit (not only marks or the punctuation identifiers allow, such as ’ or ·).
    if !name.chars().any(|c| counts(c) && c.is_alphanumeric()) {
        return Err(RoomError::NameEmpty);
    }
    if name.chars().count() > MAX_NAME {
        return Err(RoomError::NameTooLong);
    }
    if name.chars().any(char::is_control) {
        return Err(RoomError::NameControl);
    }
    Ok(name.to_string())
}

/// Checks a room's language: one the game speaks, as the game writes its code ("pt-br" is
/// "pt-BR").
pub fn check_lang(code: &str) -> Result<String, RoomError> {
    score_i18n::Lang::from_code(code).map(|l| l.code().to_string()).ok_or(RoomError::UnknownLanguage)
}

/// A board on `roll` after `actions` (one that no longer fits is skipped).
pub(crate) fn replay(roll: &[i64], rules: &Rules, actions: impl IntoIterator<Item = Action>) -> Board {
    let mut b = Board::new(roll, rules);
    for a in actions {
        let _ = b.apply(a);
    }
    b
}

/// Adds `item` to a list the room keeps the latest [`GONE_KEPT`] of.
fn push_kept<T>(list: &mut Vec<T>, item: T) {
    push_latest(list, item, GONE_KEPT);
}

/// Adds `item` to a list that keeps its latest `most`.
pub(crate) fn push_latest<T>(list: &mut Vec<T>, item: T, most: usize) {
    if list.len() >= most {
        list.remove(0);
    }
    list.push(item);
}

fn everyone(event: RoomEvent) -> Out {
    Out { to: To::All, event }
}

fn clock_event(phase: Phase) -> Option<RoomEvent> {
    Clock::of(phase).map(|Clock { seat, claim, deadline }| RoomEvent::Clock { seat, claim, deadline })
}

impl Room {
    /// A room playing `deal` under `rules`; `judging`: the solver judges IMPOSSIBLE.
    /// This room, its first roll dealt at `now_ms` (a SCORE on it is timed from then).
    pub fn dealt(mut self, now_ms: u64) -> Room {
        self.saved.dealt_at = Some(now_ms);
        self
    }

    pub fn new(rules: Rules, judging: bool, deal: Deal) -> Room {
        let round = Round::new(MAX_MEMBERS, &rules, deal.solution.is_some(), judging);
        let saved = Saved {
            rules,
            judging,
            locked: false,
            seats: Vec::new(),
            roll: deal.roll,
            solution: deal.solution,
            solved: true,
            score_started: None,
            round,
            actions: Vec::new(),
            chat: VecDeque::new(),
            outcomes: Vec::new(),
            working: None,
            history: Vec::new(),
            auto_deal_secs: 0,
            settled_at: None,
            lang: None,
            gone: Vec::new(),
            removed: Vec::new(),
            removed_devices: Vec::new(),
            rolls_dealt: 0,
            kept: false,
            lesson: 1,
            homework: None,
            homework_set: 0,
            roll_stats: Vec::new(),
            roll_ratings: Vec::new(),
            unrated: Vec::new(),
            dealt_at: None,
        };
        Room { saved, boards: Vec::new() }
    }

    /// A room as stored, its boards replayed, and clocks that ran out meanwhile settled.
    /// (A room stored before verdicts were kept is solved here, once.)
    pub fn restore(saved: Saved, now_ms: u64) -> (Room, Vec<Out>) {
        let mut room = Room::rebuild(saved, now_ms);
        let out = room.tick(now_ms);
        (room, out)
    }

    /// A room as stored, its boards replayed; nothing settled yet.
    fn rebuild(mut saved: Saved, now_ms: u64) -> Room {
        if !saved.solved {
            saved.solution = Deal::new(saved.roll.clone(), &saved.rules).solution;
            saved.solved = true;
        }
        // The round's verdict is never stored: it is the room's own solver verdict.
        let solvable = saved.solution.is_some();
        saved.round.set_verdict(solvable);
        let boards: Vec<Board> =
            saved.actions.iter().map(|log| replay(&saved.roll, &saved.rules, log.iter().copied())).collect();
        // A log stored with its undos and clears is kept as the board's moves alone.
        saved.actions = boards.iter().map(Board::actions).collect();
        if let Some(w) = &mut saved.working {
            let b = replay(&saved.roll, &saved.rules, w.actions.iter().map(|&m| m.into()));
            w.actions = b.actions().into_iter().map(Move::from).collect();
        }
        // A clock never runs longer than it is, whatever the clock said when it was stored; and
        // nothing stored happened later than now (a calendar set back: auto-deal would wait,
        // and a SCORE's time would be wrong).
        saved.round.clamp_deadline(now_ms);
        saved.settled_at = saved.settled_at.map(|t| t.min(now_ms));
        saved.score_started = saved.score_started.map(|t| t.min(now_ms));
        Room { saved, boards }
    }

    /// What to store.
    pub fn saved(&self) -> &Saved {
        &self.saved
    }

    /// The room's rules.
    pub fn rules(&self) -> &Rules {
        &self.saved.rules
    }

    /// The members, by seat.
    pub fn members(&self) -> impl Iterator<Item = (Seat, &Member)> {
        self.saved.seats.iter().enumerate().filter_map(|(s, m)| m.as_ref().map(|m| (s, m)))
    }

    /// Every member with a record here: those seated, by seat, then those who left.
    fn members_and_gone(&self) -> impl Iterator<Item = &Member> {
        self.members().map(|(_, m)| m).chain(self.saved.gone.iter().map(|g| &g.member))
    }

    /// The roll.
    pub fn roll(&self) -> &[i64] {
        &self.saved.roll
    }

    /// Where the round stands.
    pub fn phase(&self) -> Phase {
        self.saved.round.phase()
    }

    /// Whether the host keeps this room as a class.
    pub fn kept(&self) -> bool {
        self.saved.kept
    }

    /// The lesson under way, counted from 1.
    pub fn lesson(&self) -> u32 {
        self.saved.lesson
    }

    /// Whether the lesson under way is anyone's ([`Member::in_lesson`]): a lesson nobody
    /// played in isn't ended, so an empty class counts no lessons.
    pub fn lesson_played(&self) -> bool {
        self.members().any(|(_, m)| m.in_lesson()) || self.saved.gone.iter().any(|g| g.member.in_lesson())
    }

    /// Whether the room has lessons to show (a kept class, or one that was): its report and
    /// CSV carry the Progress.
    pub fn has_lessons(&self) -> bool {
        self.saved.kept || self.saved.lesson > 1
    }

    /// Ends the lesson under way: each member's (and each who left's) points and record of it
    /// become a past lesson, where anything was played; the next lesson starts from 0 points.
    fn end_lesson(&mut self) -> Vec<Out> {
        let lesson = self.saved.lesson;
        let close = |m: &mut Member| {
            if m.in_lesson() {
                let tally = m.tally();
                push_latest(&mut m.lessons, LessonRecord { lesson, homework: None, tally }, LESSONS_KEPT);
            }
            m.record = Record::default();
            m.score = 0;
        };
        self.saved.seats.iter_mut().flatten().for_each(close);
        self.saved.gone.iter_mut().for_each(|g| close(&mut g.member));
        self.saved.lesson += 1;
        // Each lesson's chat starts empty.
        self.saved.chat.clear();
        vec![everyone(RoomEvent::Lesson { lesson: self.saved.lesson }), everyone(RoomEvent::ChatCleared)]
    }

    /// The teacher's Progress: a line per member per lesson (past lessons, then the one under
    /// way where anything was played in it), members by seat, then those who left.
    pub fn progress(&self) -> Vec<ProgressRow> {
        let rows = |m: &Member| {
            let now = LessonRecord { lesson: self.saved.lesson, homework: None, tally: m.tally() };
            // The homework under way, where anything was played in it.
            let hw = self.saved.homework.as_ref().zip(m.homework.as_ref()).map(|(hw, run)| LessonRecord {
                lesson: hw.lesson,
                homework: Some(hw.number),
                tally: Tally { rating: crate::ratings::stored(m.rating), ..run.tally() },
            });
            let mut rows: Vec<&LessonRecord> = m
                .lessons
                .iter()
                .chain(m.in_lesson().then_some(&now))
                .chain(hw.iter().filter(|_| m.homework.as_ref().is_some_and(Run::claimed)))
                .collect();
            // In time: each lesson, then the homework set in it.
            rows.sort_by_key(|l| (l.lesson, l.homework.is_some(), l.homework));
            rows.into_iter()
                .map(|l| ProgressRow {
                    name: m.name.clone(),
                    lesson: l.lesson,
                    homework: l.homework,
                    tally: l.tally.clone(),
                })
                .collect::<Vec<_>>()
        };
        let here = self.members().flat_map(|(_, m)| rows(m));
        here.chain(self.saved.gone.iter().flat_map(|g| rows(&g.member))).collect()
    }

    /// The teacher's report: a line per member, by seat.
    /// Members first, by seat; then those who left and had played, their records kept.
    pub fn report(&self) -> Vec<ReportRow> {
        let row = |seat: Seat, m: &Member, left: bool| ReportRow { seat, left, name: m.name.clone(), tally: m.tally() };
        let here = self.members().map(|(seat, m)| row(seat, m, false));
        let gone = self.saved.gone.iter().enumerate();
        here.chain(gone.map(|(i, g)| row(MAX_MEMBERS + i, &g.member, true))).collect()
    }

    /// The report, a row per member, then every result so far, as CSV (for a spreadsheet),
    /// in `words`' language: its headings are the report's, its lines read as nobody in
    /// particular.
    pub fn csv(&self, words: &score_i18n::Catalog) -> String {
        use score_i18n::Key;
        fn field(s: &str) -> String {
            // Quoted, and a leading = + - @ defused so a spreadsheet shows it as text.
            let s = if s.starts_with(['=', '+', '-', '@']) { format!("'{s}") } else { s.to_string() };
            format!("\"{}\"", s.replace('"', "\"\""))
        }
        // The counts' headings, in the order `tally` below writes them.
        let counts = [
            Key::ReportPoints,
            Key::ReportRolls,
            Key::ReportScoresMade,
            Key::ReportScoresFailed,
            Key::ReportImpossibleRight,
            Key::ReportImpossibleWrong,
            Key::ReportMedian,
        ]
        .map(|k| field(&words.text(k, &[])));
        // A tally's cells: the counts, then the median in seconds with the language's decimal
        // mark ("8.0", "8,0"), quoted as any text.
        let tally = |t: &Tally| {
            let median = t.median_score_ms.map_or(String::new(), |ms| field(&words.lang().tenths((ms + 50) / 100)));
            format!(
                "{},{},{},{},{},{},{median}",
                t.points, t.rolls, t.scores_made, t.scores_failed, t.impossible_right, t.impossible_wrong
            )
        };
        let heads = [Key::CsvSeat, Key::ReportName].map(|k| field(&words.text(k, &[])));
        let mut out = format!("{},{}\n", heads.join(","), counts.join(","));
        for r in self.report() {
            // One who left has no seat: the cell says so, in the download's language.
            let seat = if r.left { field(&words.text(Key::ReportLeft, &[])) } else { r.seat.to_string() };
            out.push_str(&format!("{seat},{},{}\n", field(&r.name), tally(&r.tally)));
        }
        if self.has_lessons() {
            // A kept class's Progress (kept until the class ends): a row per member per lesson.
            let title = field(&words.text(Key::ProgressTitle, &[]));
            let heads = [Key::ReportName, Key::ProgressLesson].map(|k| field(&words.text(k, &[])));
            let level = field(&words.text(Key::ProgressLevel, &[]));
            out.push_str(&format!("\n{title},{},{},{level}\n", heads.join(","), counts.join(",")));
            for r in self.progress() {
                // A homework's line says so ("Homework 2"); a lesson's is its number.
                let part = match r.homework {
                    Some(n) => field(&words.text(Key::ProgressHomework, &[("number", &n.to_string())])),
                    None => r.lesson.to_string(),
                };
                // Their rating then, as the level of rolls they make three times in four.
                let level = r
                    .tally
                    .rating
                    .map_or(String::new(), |x| crate::ratings::level_of(x, &self.saved.rules).to_string());
                out.push_str(&format!("{title},{},{part},{},{level}\n", field(&r.name), tally(&r.tally)));
            }
        }
        out.push_str(&format!(
            "\n{},{}\n",
            field(&words.text(Key::CsvRoll, &[])),
            field(&words.text(Key::CsvResult, &[]))
        ));
        for h in &self.saved.history {
            let (roll, line) = match h {
                Historic::Worded(roll, line) => (roll.clone(), line.clone()),
                Historic::Result { roll, goal, outcome } => {
                    let roll = score_engine::roll::roll_text(roll);
                    let line = crate::say::outcome(outcome, None, *goal, &roll, words);
                    (roll, line)
                }
            };
            out.push_str(&format!("{},{}\n", field(&roll), field(&line)));
        }
        out
    }

    /// When auto-deal deals the next roll (server ms): with it on and the roll settled.
    pub fn deal_due(&self) -> Option<u64> {
        let secs = u64::from(self.saved.auto_deal_secs);
        (secs > 0 && self.phase() == Phase::Over).then_some(self.saved.settled_at?.saturating_add(secs * 1000))
    }

    /// The last results.
    pub fn results(&self) -> &[Outcome] {
        &self.saved.outcomes
    }

    /// The room as `seat` sees it (`None`: a host screen without a seat).
    pub fn view(&self, seat: Option<Seat>, now_ms: u64) -> View {
        View {
            rules: self.saved.rules.clone(),
            judging: self.saved.judging,
            roll: self.saved.roll.clone(),
            members: self
                .members()
                .map(|(seat, m)| Player { seat, name: m.name.clone(), score: m.score, away: m.away })
                .collect(),
            clock: Clock::of(self.phase()),
            settled: self.phase() == Phase::Over,
            now: now_ms,
            results: self.saved.outcomes.clone(),
            chat: self.saved.chat.iter().cloned().collect(),
            actions: seat.map(|s| self.actions(s)).unwrap_or_default(),
            working: self.saved.working.clone(),
            auto_deal_secs: self.saved.auto_deal_secs,
            settled_at: self.saved.settled_at.filter(|_| self.phase() == Phase::Over),
            lang: self.saved.lang.clone(),
            kept: self.saved.kept,
            lesson: self.saved.lesson,
            locked: self.saved.locked,
            removed: self.saved.removed.clone(),
            homework: self.saved.homework.as_ref().map(Assignment::info),
            run: seat.and_then(|s| self.run_view(s, now_ms)),
            homework_rows: if seat.is_none() { self.homework_rows() } else { Vec::new() },
        }
    }

    /// A seat's moves as working.
    pub fn moves(&self, seat: Seat) -> Vec<String> {
        self.boards.get(seat).map_or_else(Vec::new, |b| b.moves().iter().map(|m| m.step().to_string()).collect())
    }

    /// A seat's board as the actions from the roll that made it.
    pub fn actions(&self, seat: Seat) -> Vec<Move> {
        self.saved.actions.get(seat).map_or_else(Vec::new, |log| log.iter().map(|&a| a.into()).collect())
    }

    /// A seat's board as the room holds it, for that member alone.
    pub fn board_event(&self, seat: Seat) -> Out {
        Out { to: To::Seat(seat), event: RoomEvent::Board { seat, actions: self.actions(seat) } }
    }

    fn member(&self, seat: Seat) -> Result<&Member, RoomError> {
        self.saved.seats.get(seat).and_then(Option::as_ref).ok_or(RoomError::NoSuchSeat)
    }

    /// The name of the member in `seat`, or of the one who left it while a clock of theirs ran.
    fn name(&self, seat: Seat) -> Option<String> {
        let gone = || self.saved.gone.iter().find(|g| g.stake == Some(seat)).map(|g| &g.member);
        self.member(seat).ok().or_else(gone).map(|m| m.name.clone())
    }

    /// Whose points a result in `seat` are: its member's, or the one's who left it while a
    /// clock of theirs ran.
    fn holder(&mut self, seat: Seat) -> Option<&mut Member> {
        match self.saved.seats.get_mut(seat) {
            Some(Some(m)) => Some(m),
            _ => self.saved.gone.iter_mut().find(|g| g.stake == Some(seat)).map(|g| &mut g.member),
        }
    }

    fn scores(&self) -> Vec<SeatScore> {
        self.members().map(|(seat, m)| SeatScore { seat, score: m.score }).collect()
    }

    /// Applies `input` at `now_ms`: the events to send, or why it was refused. Clocks that
    /// ran out by `now_ms` are settled first, whatever becomes of the input: when it is
    /// refused, their events come back in [`Refused::settled`] and the input changed nothing.
    pub fn apply(&mut self, input: Input, now_ms: u64) -> Result<Vec<Out>, Refused> {
        let mut out = self.tick(now_ms);
        let mover = match input {
            Input::Act { seat, .. } => Some(seat),
            Input::Homework { seat, command } => {
                return match self.homework_input(seat, command, now_ms) {
                    Ok(more) => {
                        out.extend(more);
                        Ok(out)
                    }
                    Err((error, more)) => {
                        out.extend(more);
                        Err(Refused { error, settled: out, board: None })
                    }
                };
            }
            _ => None,
        };
        match self.input(input, now_ms) {
            Ok(more) => {
                out.extend(more);
                // The teacher's homework lines follow their students in and out.
                let moved = out.iter().any(|o| matches!(o.event, RoomEvent::Joined { .. } | RoomEvent::Left { .. }));
                if moved && self.saved.homework.is_some() {
                    out.push(self.rows_event());
                }
                Ok(out)
            }
            Err(error) => {
                let board = mover.filter(|&s| self.member(s).is_ok()).map(|s| Box::new(self.board_event(s)));
                Err(Refused { error, settled: out, board })
            }
        }
    }

    fn input(&mut self, input: Input, now_ms: u64) -> Result<Vec<Out>, RoomError> {
        Ok(match input {
            Input::Join { name } => self.join(&name, None)?,
            Input::Enter { name, device } => self.join(&name, device)?,
            Input::Leave { seat } => self.leave(seat, now_ms)?,
            Input::Remove { seat } => {
                let name = self.member(seat)?.name.clone();
                // The device stays out too, under any name, until the name is let back in.
                if let Some(device) = self.member(seat)?.owner.clone() {
                    push_kept(&mut self.saved.removed_devices, (name.clone(), device));
                }
                let mut out = self.leave(seat, now_ms)?;
                if self.removed(&name).is_none() {
                    push_kept(&mut self.saved.removed, name);
                }
                out.push(everyone(RoomEvent::Removed { names: self.saved.removed.clone() }));
                out
            }
            Input::ClearEmpty => {
                let empty: Vec<Seat> = self.members().filter(|(_, m)| m.empty_seat()).map(|(s, _)| s).collect();
                let mut out = Vec::new();
                for seat in empty {
                    out.extend(self.leave(seat, now_ms)?);
                }
                out
            }
            Input::Forget { name } => self.forget(&name, now_ms)?,
            Input::Readmit { name } => {
                // The name's devices go free even when the name itself is no longer listed.
                self.saved.removed_devices.retain(|(n, _)| !same_name(n, &name));
                let Some(at) = self.removed(&name) else { return Ok(Vec::new()) };
                self.saved.removed.remove(at);
                vec![everyone(RoomEvent::Removed { names: self.saved.removed.clone() })]
            }
            Input::Claim { seat, claim } => self.claim(seat, claim, now_ms)?,
            Input::RevealNow { seat } => {
                self.may(seat, Act::Reveal)?;
                self.round(RoundInput::RevealNow, now_ms)?
            }
            Input::GiveUp { seat } => {
                self.may(seat, Act::GiveUp)?;
                self.round(RoundInput::GiveUp, now_ms)?
            }
            Input::Act { seat, action } => self.act(seat, action, now_ms)?,
            Input::Chat { seat, text } => self.chat(seat, &text)?,
            Input::TeacherChat { text } => {
                let text = self.keep_line(&text, String::new(), true)?;
                vec![everyone(RoomEvent::TeacherChat { text })]
            }
            Input::NewRoll { deal } => self.new_roll(deal, now_ms),
            Input::NextRoll { deal } if self.phase() == Phase::Over => self.new_roll(deal, now_ms),
            Input::NextRoll { .. } => Vec::new(),
            Input::Lock { locked } => {
                self.saved.locked = locked;
                vec![everyone(RoomEvent::Locked { locked })]
            }
            Input::Free { seat } => {
                let m = self.member(seat)?;
                let held = (m.name.clone(), m.owner.clone());
                let out = self.leave(seat, now_ms)?;
                // Only the record this seat held, if it was kept (never an older one of the
                // same name, which is another device's).
                if let Some(g) =
                    self.saved.gone.last_mut().filter(|g| (&g.member.name, &g.member.owner) == (&held.0, &held.1))
                {
                    g.member.owner = None;
                }
                out
            }
            Input::Keep { kept } => {
                self.saved.kept = kept;
                let mut out = vec![everyone(RoomEvent::Kept { kept })];
                // A room no longer kept takes no more homework (its lines stay, closed).
                if !kept && self.saved.homework.as_ref().is_some_and(|h| !h.closed) {
                    out.extend(self.end_homework()?);
                }
                out
            }
            Input::EndLesson if !self.saved.kept => return Err(RoomError::NotKept),
            // A result still to come belongs to the lesson it was claimed in.
            Input::EndLesson if Clock::of(self.phase()).is_some() => return Err(RoomError::ClockRunning),
            // A lesson nobody played in isn't counted (a second press, a class that never came).
            Input::EndLesson if !self.lesson_played() => Vec::new(),
            Input::EndLesson => self.end_lesson(),
            Input::ClearChat => {
                self.saved.chat.clear();
                vec![everyone(RoomEvent::ChatCleared)]
            }
            Input::AutoDeal { secs } => {
                let secs = secs.min(crate::protocol::MAX_AUTO_DEAL_SECS);
                self.saved.auto_deal_secs = secs;
                if self.phase() == Phase::Over {
                    self.saved.settled_at = Some(now_ms);
                }
                vec![everyone(RoomEvent::AutoDeal { secs })]
            }
            Input::Language { lang } => {
                let lang = check_lang(&lang)?;
                self.saved.lang = Some(lang.clone());
                vec![everyone(RoomEvent::Language { lang })]
            }
            Input::SetHomework { assignment } => self.set_homework(assignment, now_ms)?,
            Input::EndHomework => self.end_homework()?,
            // Played by `apply` (a refusal may carry events).
            Input::Homework { .. } => return Err(RoomError::NoHomework),
            Input::Presence { seat, away } => {
                let m = self.saved.seats.get_mut(seat).and_then(Option::as_mut).ok_or(RoomError::NoSuchSeat)?;
                if m.away == away {
                    return Ok(Vec::new());
                }
                m.away = away;
                vec![everyone(RoomEvent::Presence { seat, away })]
            }
            Input::SetRules { rules, judging, deal } => {
                let mut out = self.round(RoundInput::Abandon, now_ms).unwrap_or_default();
                self.saved.rules = rules.clone();
                self.saved.judging = judging;
                out.push(everyone(RoomEvent::Rules { rules, judging }));
                out.extend(self.new_roll(deal, now_ms));
                out
            }
        })
    }

    /// Settles clocks that ran out by `now_ms`.
    pub fn tick(&mut self, now_ms: u64) -> Vec<Out> {
        let awards = self.saved.round.tick(now_ms);
        let mut out = self.settle(&awards, now_ms);
        out.extend(self.tick_homework(now_ms));
        out
    }

    /// The index in [`Saved::removed`] of a name the host removed.
    fn removed(&self, name: &str) -> Option<usize> {
        self.saved.removed.iter().position(|n| same_name(n, name))
    }

    /// Whether the round in `phase` still has a clock that is `seat`'s.
    fn stake_in(phase: Phase, seat: Seat) -> bool {
        match phase {
            Phase::Score { player, claim, .. } => player == seat || claim.is_some_and(|c| c.player == seat),
            Phase::Impossible(c) => c.player == seat,
            Phase::Open | Phase::Over => false,
        }
    }

    fn join(&mut self, name: &str, device: Option<String>) -> Result<Vec<Out>, RoomError> {
        let name = check_name(name)?;
        if self.saved.locked {
            return Err(RoomError::Locked);
        }
        if let Some(at) = self.removed(&name) {
            return Err(RoomError::Removed(self.saved.removed[at].clone()));
        }
        let barred = self.saved.removed_devices.iter().find(|(_, d)| device.as_ref() == Some(d));
        if let Some((removed, _)) = barred {
            return Err(RoomError::Removed(removed.clone()));
        }
        if self.members().any(|(_, m)| same_name(&m.name, &name)) {
            return Err(RoomError::NameTaken(name));
        }
        // A name that was here before takes its record back (and the seat a clock of theirs
        // still runs on); a seat another's running clock is owed to is never given away.
        // A record made on a device goes back to that device only: anyone else under the name
        // starts a record of their own (the other stays in the report), so nobody takes,
        // sinks or plants a classmate's score by typing their name.
        let mine = |g: &Gone| g.member.owner.is_none() || g.member.owner == device;
        let back = self.saved.gone.iter().position(|g| same_name(&g.member.name, &name) && mine(g));
        let owed = |s: Seat| self.saved.gone.iter().any(|g| g.stake == Some(s));
        let stake = back.and_then(|at| self.saved.gone[at].stake);
        let free = (0..self.saved.seats.len()).find(|&s| self.saved.seats[s].is_none() && !owed(s));
        let seat = match stake.or(free) {
            Some(seat) => seat,
            None if self.saved.seats.len() < MAX_MEMBERS => self.saved.seats.len(),
            None => return Err(RoomError::Full),
        };
        if seat == self.saved.seats.len() {
            self.saved.seats.push(None);
            self.saved.actions.push(Vec::new());
            self.boards.push(Board::new(&self.saved.roll, &self.saved.rules));
        }
        let member = match back {
            Some(at) => {
                let mut m = self.saved.gone.remove(at).member;
                m.name = name.clone();
                m.away = false;
                // An old record (made before devices were kept) becomes this device's.
                m.owner = m.owner.or(device);
                // The roll they come back on is played, as a new member's first is, once.
                if m.counted_roll != self.saved.rolls_dealt {
                    m.record.rolls += 1;
                    m.counted_roll = self.saved.rolls_dealt;
                }
                m
            }
            None => Member {
                name: name.clone(),
                score: 0,
                record: Record { rolls: 1, ..Record::default() },
                away: false,
                played: false,
                owner: device,
                counted_roll: self.saved.rolls_dealt,
                lessons: Vec::new(),
                homework: None,
                rating: Ability::default(),
            },
        };
        let score = member.score;
        self.saved.seats[seat] = Some(member);
        self.saved.actions[seat].clear();
        self.boards[seat] = Board::new(&self.saved.roll, &self.saved.rules);
        Ok(vec![everyone(RoomEvent::Joined { seat, name, score })])
    }

    /// A member leaves (or is removed): only what is theirs is settled (their SCORE fails,
    /// and a claim it interrupted gets its clock back); a claim of theirs runs on, its result
    /// theirs. Their record is kept for a join again under the name.
    fn leave(&mut self, seat: Seat, now_ms: u64) -> Result<Vec<Out>, RoomError> {
        self.member(seat)?;
        let mut out = self.round(RoundInput::Left(seat), now_ms)?;
        if self.saved.working.as_ref().is_some_and(|w| w.seat == seat) {
            self.saved.working = None;
        }
        let stake = Room::stake_in(self.phase(), seat).then_some(seat);
        // A record with nothing in it (no move, no claim, no result) is not kept: leaving and
        // joining under name after name pushes out no one's record.
        let member = self.saved.seats[seat].take().filter(|m| m.worth_keeping() || stake.is_some());
        if let Some(member) = member {
            if self.saved.gone.len() == GONE_KEPT {
                // The oldest record nobody's clock is owed to makes way: one of a single lesson
                // before one with a kept class's past lessons.
                let free = |g: &&Gone| g.stake.is_none();
                let at = (self.saved.gone.iter().position(|g| free(&g) && g.member.lessons.is_empty()))
                    .or_else(|| self.saved.gone.iter().position(|g| free(&g)));
                if let Some(at) = at {
                    self.saved.gone.remove(at);
                }
            }
            self.saved.gone.push(Gone { member, stake });
        }
        self.saved.actions[seat].clear();
        self.boards[seat] = Board::new(&self.saved.roll, &self.saved.rules);
        out.push(everyone(RoomEvent::Left { seat }));
        Ok(out)
    }

    /// Deletes everything kept about the student called `name` ([`Input::Forget`]): refused
    /// while a clock of theirs runs (its result is still to come).
    fn forget(&mut self, name: &str, now_ms: u64) -> Result<Vec<Out>, RoomError> {
        // The name exactly as the report shows it: never another record that only looks like
        // it ("ANA", or "Аna" with a Cyrillic А, is someone else's, kept apart at join).
        let name = name.trim();
        let seated: Vec<Seat> = self.members().filter(|(_, m)| m.name == name).map(|(s, _)| s).collect();
        let left: Vec<&Gone> = self.saved.gone.iter().filter(|g| g.member.name == name).collect();
        if seated.is_empty() && left.is_empty() {
            return Err(RoomError::NoSuchName(name.to_string()));
        }
        let phase = self.phase();
        if seated.iter().any(|&s| Room::stake_in(phase, s)) || left.iter().any(|g| g.stake.is_some()) {
            return Err(RoomError::ClockRunning);
        }
        let mut out = Vec::new();
        for seat in seated {
            out.extend(self.leave(seat, now_ms)?);
        }
        self.saved.gone.retain(|g| g.member.name != name);
        for h in &mut self.saved.history {
            if let Historic::Result { outcome, .. } = h {
                forget_in(std::slice::from_mut(outcome), name);
            }
        }
        // Their own results go; another's that names them (a claim they beat) stays, unnamed.
        self.saved.history.retain(|h| !matches!(h, Historic::Result { outcome, .. } if outcome.name == name));
        forget_in(&mut self.saved.outcomes, name);
        self.saved.outcomes.retain(|o| o.name != name);
        self.saved.chat.retain(|c| c.teacher || c.name != name);
        // Nor are they kept as removed (the name, their devices).
        let removed = self.saved.removed.len() + self.saved.removed_devices.len();
        self.saved.removed.retain(|n| n != name);
        self.saved.removed_devices.retain(|(n, _)| n != name);
        if self.saved.removed.len() + self.saved.removed_devices.len() != removed {
            out.push(everyone(RoomEvent::Removed { names: self.saved.removed.clone() }));
        }
        out.push(everyone(RoomEvent::Forgotten { name: name.to_string() }));
        // The teacher's homework lines lose theirs (one who had left has no Left event).
        if self.saved.homework.is_some() {
            out.push(self.rows_event());
        }
        Ok(out)
    }

    /// Whether the member in `seat` may do `act` now (docs/RULES.md §5's table).
    fn may(&self, seat: Seat, act: Act) -> Result<(), RoomError> {
        self.member(seat)?;
        may(seat, act, Stage::of(self.phase(), self.saved.judging))
    }

    /// Marks the member in `seat` as one who has played in the room.
    fn played(&mut self, seat: Seat) {
        if let Some(Some(m)) = self.saved.seats.get_mut(seat) {
            m.played = true;
        }
    }

    fn claim(&mut self, seat: Seat, claim: Claim, now_ms: u64) -> Result<Vec<Out>, RoomError> {
        self.may(seat, if claim == Claim::Score { Act::Score } else { Act::Impossible })?;
        self.played(seat);
        let input = match claim {
            Claim::Score => RoundInput::Score(seat),
            Claim::Impossible => RoundInput::Impossible(seat),
        };
        let mut out = self.round(input, now_ms)?;
        let Some(clock) = clock_event(self.phase()) else { return Ok(out) };
        if claim == Claim::Score {
            self.saved.score_started = Some(now_ms);
            // The working is shown from the start of the clock: the board begins at the roll
            // (the Clock event says so; no Board event, which answers a move).
            self.saved.actions[seat].clear();
            self.boards[seat] = Board::new(&self.saved.roll, &self.saved.rules);
            self.saved.working = Some(Working { seat, actions: Vec::new() });
        }
        out.insert(0, everyone(clock));
        Ok(out)
    }

    fn act(&mut self, seat: Seat, action: Action, now_ms: u64) -> Result<Vec<Out>, RoomError> {
        self.member(seat)?;
        let scoring = matches!(self.phase(), Phase::Score { player, .. } if player == seat);
        if scoring && matches!(action, Action::Undo | Action::Clear) {
            self.saved.round.check_undo()?;
        }
        let event = self.boards[seat].apply(action)?;
        self.played(seat);
        // The log is what the board is: its moves alone (an undo takes one back, a clear all).
        self.saved.actions[seat] = self.boards[seat].actions();
        if !scoring {
            // Private practice: it scores nothing and settles nothing.
            return Ok(vec![self.board_event(seat)]);
        }
        let actions = self.actions(seat);
        self.saved.working = Some(Working { seat, actions: actions.clone() });
        let mut out = vec![everyone(RoomEvent::Board { seat, actions })];
        match event {
            Event::Combined { made_goal: true, tile, .. } => {
                let moves = self.boards[seat].moves_to(tile);
                out.extend(self.round(RoundInput::GoalMade { moves }, now_ms)?);
            }
            Event::Combined { .. } if self.boards[seat].is_exhausted() => {
                out.extend(self.round(RoundInput::Exhausted, now_ms).unwrap_or_default());
            }
            _ => {}
        }
        Ok(out)
    }

    fn chat(&mut self, seat: Seat, text: &str) -> Result<Vec<Out>, RoomError> {
        let name = self.member(seat)?.name.clone();
        let text = self.keep_line(text, name.clone(), false)?;
        Ok(vec![everyone(RoomEvent::Chat { seat, name, text })])
    }

    /// A chat line checked (1–300 characters, control characters dropped) and kept: its text.
    fn keep_line(&mut self, text: &str, name: String, teacher: bool) -> Result<String, RoomError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(RoomError::ChatEmpty);
        }
        if text.chars().count() > MAX_CHAT {
            return Err(RoomError::ChatTooLong);
        }
        // Control characters (but not ordinary spaces) are dropped.
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        if self.saved.chat.len() == CHAT_KEPT {
            self.saved.chat.pop_front();
        }
        self.saved.chat.push_back(ChatLine { name, text: text.clone(), teacher });
        Ok(text)
    }

    fn new_roll(&mut self, deal: Deal, now_ms: u64) -> Vec<Out> {
        let mut out = self.round(RoundInput::Abandon, now_ms).unwrap_or_default();
        let rules = &self.saved.rules;
        self.saved.round = Round::new(MAX_MEMBERS, rules, deal.solution.is_some(), self.saved.judging);
        for (log, board) in self.saved.actions.iter_mut().zip(&mut self.boards) {
            log.clear();
            *board = Board::new(&deal.roll, rules);
        }
        self.saved.roll = deal.roll.clone();
        // The results shown belong to the roll before: a new roll starts with none.
        self.saved.working = None;
        self.saved.outcomes.clear();
        self.saved.settled_at = None;
        self.saved.solution = deal.solution;
        self.saved.solved = true;
        self.saved.dealt_at = Some(now_ms);
        // Played by those here: a member whose page is away doesn't play this roll.
        self.saved.rolls_dealt += 1;
        let dealt = self.saved.rolls_dealt;
        for m in self.saved.seats.iter_mut().flatten().filter(|m| !m.away) {
            m.record.rolls += 1;
            m.counted_roll = dealt;
        }
        out.push(everyone(RoomEvent::Rolled { roll: deal.roll }));
        out
    }

    fn round(&mut self, input: RoundInput, now_ms: u64) -> Result<Vec<Out>, RoomError> {
        let awards = self.saved.round.apply(input, now_ms)?;
        Ok(self.settle(&awards, now_ms))
    }

    fn settle(&mut self, awards: &[Award], now_ms: u64) -> Vec<Out> {
        if awards.is_empty() {
            return Vec::new();
        }
        let outcomes: Vec<Outcome> = awards.iter().filter_map(|a| self.outcome(a)).collect();
        let score_ms = self.saved.score_started.map(|t| now_ms.saturating_sub(t));
        for a in awards {
            if let Some(m) = self.holder(a.player) {
                m.score += a.points;
                m.record.count(a.reason, score_ms);
                let name = m.name.clone();
                let (dealt, pressed) = (self.saved.dealt_at, self.saved.score_started);
                crate::ratings::judged(&mut self.saved.unrated, name, a.reason, dealt, pressed, now_ms);
            }
            let (roll, goal) = (&self.saved.roll, self.saved.rules.goal);
            rolls::count(&mut self.saved.roll_stats, roll, goal, a.reason, score_ms);
        }
        if self.saved.round.is_over() {
            crate::ratings::settle(&mut self.saved);
        }
        // A seat is owed to its leaver only while a clock of theirs runs (a phase lets go of a
        // seat only with awards, so this is the one place a stake ends).
        let phase = self.phase();
        for g in &mut self.saved.gone {
            if g.stake.is_some_and(|s| !Room::stake_in(phase, s)) {
                g.stake = None;
            }
        }
        // The download keeps each result as data: it is worded in the language asked for.
        let goal = self.saved.rules.goal;
        let rolled = &self.saved.roll;
        self.saved.history.extend(outcomes.iter().map(|o| Historic::Result {
            roll: rolled.clone(),
            goal,
            outcome: o.clone(),
        }));
        let excess = self.saved.history.len().saturating_sub(HISTORY_KEPT);
        self.saved.history.drain(..excess);
        self.saved.outcomes = outcomes.clone();
        if self.phase() == Phase::Over {
            self.saved.settled_at.get_or_insert(now_ms);
        }
        // A SCORE that failed during an IMPOSSIBLE claim hands the clock back to the claim.
        vec![everyone(RoomEvent::Results { outcomes, scores: self.scores(), clock: Clock::of(self.phase()) })]
    }

    /// An award as data: who, how many points, why (none for the solo-only practice reasons).
    fn outcome(&self, a: &Award) -> Option<Outcome> {
        let why = match a.reason {
            Reason::Made { moves } => Why::Made { moves },
            Reason::TimeUp => Why::TimeUp,
            Reason::GaveUp => Why::GaveUp,
            Reason::NumbersUsedUp => Why::NumbersUsedUp,
            Reason::Abandoned => Why::Abandoned,
            Reason::Left => Why::Left,
            Reason::TrulyImpossible => Why::TrulyImpossible,
            Reason::HadSolution => Why::HadSolution { solution: self.saved.solution.clone().unwrap_or_default() },
            Reason::NobodyScored => Why::NobodyScored,
            Reason::ClaimBeaten { by } => Why::ClaimBeaten { by, name: self.name(by).unwrap_or_default() },
            Reason::FreePractice | Reason::HintUsed | Reason::SolutionsShown => return None,
        };
        Some(Outcome { seat: a.player, name: self.name(a.player).unwrap_or_default(), points: a.points, why })
    }
}

#[cfg(test)]
mod tests {
    use score_engine::{Op, TileId};
    use score_i18n::{Catalog, Key};

    use super::*;

    fn deal(roll: &[i64]) -> Deal {
        Deal::new(roll.to_vec(), &Rules::default())
    }

    fn score(seat: Seat) -> Input {
        Input::Claim { seat, claim: Claim::Score }
    }

    fn impossible(seat: Seat) -> Input {
        Input::Claim { seat, claim: Claim::Impossible }
    }

    /// Why `input` was refused.
    fn refused(r: &mut Room, input: Input, now: u64) -> RoomError {
        r.apply(input, now).expect_err("refused").error
    }

    fn room(roll: &[i64]) -> Room {
        let mut r = Room::new(Rules::default(), true, deal(roll)).dealt(0);
        for name in ["Ana", "Ben", "Cy"] {
            r.apply(Input::Join { name: name.into() }, 0).unwrap();
        }
        r
    }

    fn combine(seat: Seat, left: u32, op: Op, right: u32) -> Input {
        Input::Act { seat, action: Action::Combine { left: TileId(left), op, right: TileId(right) } }
    }

    /// 12 − 12 = 0 (tile 4), then 2‖0 = 20, on 2 5 12 12.
    fn solve(r: &mut Room, seat: Seat, t: u64) -> Vec<Out> {
        r.apply(combine(seat, 2, Op::Sub, 3), t).unwrap();
        r.apply(combine(seat, 0, Op::Concat, 4), t).unwrap()
    }

    /// The result lines of `out` as the teacher's download words them, on the roll 2 5 12 12.
    fn lines(out: &[Out]) -> Vec<String> {
        lines_on("2 5 12 12", out)
    }

    fn lines_on(roll: &str, out: &[Out]) -> Vec<String> {
        out.iter()
            .filter_map(|o| match &o.event {
                RoomEvent::Results { outcomes, .. } => Some(
                    outcomes
                        .iter()
                        .map(|o| crate::say::outcome(o, None, 20, roll, &score_i18n::Catalog::english()))
                        .collect::<Vec<_>>(),
                ),
                _ => None,
            })
            .flatten()
            .collect()
    }

    fn scores(r: &Room) -> Vec<i32> {
        r.members().map(|(_, m)| m.score).collect()
    }

    #[test]
    fn any_member_scores_and_everyone_sees_the_working() {
        let mut r = room(&[2, 5, 12, 12]);
        let out = r.apply(score(2), 0).unwrap();
        assert_eq!(out[0], everyone(RoomEvent::Clock { seat: 2, claim: Claim::Score, deadline: 30_000 }));
        let out = r.apply(combine(2, 2, Op::Sub, 3), 1).unwrap();
        let sub = Move::Combine { left: TileId(2), op: Op::Sub, right: TileId(3) };
        assert_eq!(out, [everyone(RoomEvent::Board { seat: 2, actions: vec![sub] })]);
        assert_eq!(r.moves(2), ["12 − 12 = 0"]);
        let out = r.apply(combine(2, 0, Op::Concat, 4), 2).unwrap();
        assert_eq!(lines(&out), ["Cy +1: 20 made in 2 moves"]);
        assert_eq!(scores(&r), [0, 0, 1]);
    }

    #[test]
    fn next_roll_deals_only_a_settled_roll_so_two_host_screens_deal_once() {
        let mut r = room(&[2, 5, 12, 12]);
        // Not settled: nothing happens (and the roll in play stays).
        assert_eq!(r.apply(Input::NextRoll { deal: deal(&[1, 1, 1, 4]) }, 0).unwrap(), []);
        assert_eq!(r.roll(), [2, 5, 12, 12]);
        r.apply(score(0), 1).unwrap();
        solve(&mut r, 0, 2);
        // Settled: the first deals; the second, a moment later, finds the roll open and does nothing.
        let out = r.apply(Input::NextRoll { deal: deal(&[1, 1, 1, 4]) }, 3).unwrap();
        assert_eq!(out, [everyone(RoomEvent::Rolled { roll: vec![1, 1, 1, 4] })]);
        assert_eq!(r.apply(Input::NextRoll { deal: deal(&[6, 6, 12, 20]) }, 4).unwrap(), []);
        assert_eq!(r.roll(), [1, 1, 1, 4]);
    }

    #[test]
    fn the_first_score_wins_the_clock_and_the_second_is_refused() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(1), 0).unwrap();
        let before = r.saved().clone();
        assert_eq!(refused(&mut r, score(0), 0), RoomError::Round(RoundError::ScoreRunning));
        assert_eq!(r.saved(), &before);
    }

    #[test]
    fn a_score_that_runs_out_costs_its_player_one() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(1), 0).unwrap();
        let out = r.tick(30_001);
        assert_eq!(lines(&out), ["Ben −1: the SCORE clock ran out"]);
        assert_eq!(scores(&r), [0, -1, 0]);
    }

    #[test]
    fn impossible_is_judged_by_the_solver() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(impossible(0), 0).unwrap();
        assert_eq!(lines_on("1 1 1 4", &r.tick(60_001)), ["Ana +1: right: 1 1 1 4 has no solution"]);
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 60_002).unwrap();
        r.apply(impossible(1), 60_003).unwrap();
        let out = r.apply(Input::RevealNow { seat: 1 }, 60_004).unwrap();
        assert_eq!(lines(&out), ["Ben −2: 2 5 12 12 had a solution: 2‖(12 − 12)"]);
        assert_eq!(scores(&r), [1, -2, 0]);
    }

    #[test]
    fn beating_an_impossible_claim_costs_the_claimer_two() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        r.apply(score(2), 1).unwrap();
        let out = solve(&mut r, 2, 2);
        assert_eq!(lines(&out), ["Cy +1: 20 made in 2 moves", "Ana −2: Cy made 20 during the IMPOSSIBLE clock"]);
        assert_eq!(scores(&r), [-2, 0, 1]);
    }

    #[test]
    fn a_failed_score_hands_the_clock_back_to_the_impossible_claim() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        r.apply(score(1), 1_000).unwrap();
        let out = r.apply(Input::GiveUp { seat: 1 }, 2_000).unwrap();
        assert_eq!(lines(&out), ["Ben −1: gave up the SCORE"]);
        // The Results carry the clock that runs on: the roll is not settled, SCORE may be pressed.
        let handed_back = Some(Clock { seat: 0, claim: Claim::Impossible, deadline: 60_000 });
        assert!(matches!(&out.last().unwrap().event, RoomEvent::Results { clock, .. } if *clock == handed_back));
        assert!(!r.view(Some(2), 2_000).settled);
        assert!(r.apply(score(2), 3_000).is_ok(), "Cy may still beat the claim");
    }

    #[test]
    fn the_claimer_scoring_their_own_claim_ends_on_minus_one() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(1), 0).unwrap();
        r.apply(score(1), 1).unwrap();
        solve(&mut r, 1, 2);
        assert_eq!(scores(&r), [0, -1, 0]);
    }

    #[test]
    fn with_judging_off_the_claim_wins_when_nobody_scores() {
        let mut r = Room::new(Rules::default(), false, deal(&[2, 5, 12, 12]));
        r.apply(Input::Join { name: "Red team".into() }, 0).unwrap();
        r.apply(impossible(0), 0).unwrap();
        assert_eq!(lines(&r.tick(60_001)), ["Red team +1: nobody found a solution"]);
    }

    #[test]
    fn practice_outside_a_claim_is_private_and_settles_nothing() {
        let mut r = room(&[2, 5, 12, 12]);
        let out = r.apply(combine(0, 2, Op::Sub, 3), 0).unwrap();
        assert_eq!(out[0].to, To::Seat(0));
        let out = r.apply(combine(0, 0, Op::Concat, 4), 1).unwrap();
        assert!(lines(&out).is_empty());
        assert_eq!(r.phase(), Phase::Open);
        // Pressing SCORE starts the working afresh, in front of everyone.
        r.apply(score(0), 2).unwrap();
        assert!(r.moves(0).is_empty());
        // Another member's moves under Ana's clock stay private and count for nothing.
        let out = r.apply(combine(1, 2, Op::Sub, 3), 3).unwrap();
        assert_eq!(out[0].to, To::Seat(1));
    }

    #[test]
    fn forged_and_impossible_moves_are_refused_and_change_nothing() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(0), 0).unwrap();
        let before = r.saved().clone();
        // A tile that is not on the board, a tile used twice, ÷ 0 after 12 − 12.
        assert!(matches!(refused(&mut r, combine(0, 9, Op::Add, 1), 1), RoomError::Board(_)));
        assert!(matches!(refused(&mut r, combine(0, 1, Op::Add, 1), 1), RoomError::Board(_)));
        assert_eq!(r.saved(), &before);
        r.apply(combine(0, 2, Op::Sub, 3), 1).unwrap();
        assert!(matches!(refused(&mut r, combine(0, 1, Op::Div, 4), 2), RoomError::Board(_)));
        // Someone else cannot give up Ana's SCORE; an empty seat cannot act.
        assert_eq!(refused(&mut r, Input::GiveUp { seat: 1 }, 2), RoomError::NotYourScore);
        assert_eq!(refused(&mut r, score(40), 2), RoomError::NoSuchSeat);
    }

    #[test]
    fn names_are_checked_and_unique_in_any_case() {
        let mut r = room(&[2, 5, 12, 12]);
        assert_eq!(refused(&mut r, Input::Join { name: "ana".into() }, 0), RoomError::NameTaken("ana".into()));
        assert_eq!(refused(&mut r, Input::Join { name: "  ".into() }, 0), RoomError::NameEmpty);
        assert_eq!(refused(&mut r, Input::Join { name: "x".repeat(21) }, 0), RoomError::NameTooLong);
        assert_eq!(refused(&mut r, Input::Join { name: "A\u{7}".into() }, 0), RoomError::NameControl);
        assert!(r.apply(Input::Join { name: "Éva Müller-Łukasz".into() }, 0).is_ok());
    }

    // Pins a bug: "Ana" with a zero-width space joined beside Ana, and a name of invisible
    // characters alone was taken.
    #[test]
    fn names_are_normalised_and_invisible_characters_make_no_new_name() {
        let mut r = room(&[2, 5, 12, 12]);
        assert_eq!(
            refused(&mut r, Input::Join { name: "Ana\u{200B}".into() }, 0),
            RoomError::NameTaken("Ana\u{200B}".into())
        );
        assert_eq!(
            refused(&mut r, Input::Join { name: "A\u{2060}NA".into() }, 0),
            RoomError::NameTaken("A\u{2060}NA".into())
        );
        assert_eq!(refused(&mut r, Input::Join { name: "\u{200B}\u{2060}".into() }, 0), RoomError::NameEmpty);
        assert_eq!(refused(&mut r, Input::Join { name: " \u{FEFF} ".into() }, 0), RoomError::NameEmpty);
        // Pins a bug: U+2800 BRAILLE PATTERN BLANK passed as visible, alone or beside a name;
        // and a Cyrillic А made a second Ana.
        assert_eq!(refused(&mut r, Input::Join { name: "\u{2800}".into() }, 0), RoomError::NameEmpty);
        assert!(matches!(refused(&mut r, Input::Join { name: "Ana\u{2800}".into() }, 0), RoomError::NameTaken(_)));
        assert!(matches!(refused(&mut r, Input::Join { name: "\u{410}na".into() }, 0), RoomError::NameTaken(_)));
        assert_eq!(refused(&mut r, Input::Join { name: "...".into() }, 0), RoomError::NameEmpty);
        assert_eq!(refused(&mut r, Input::Join { name: "\u{2019}\u{300}\u{b7}".into() }, 0), RoomError::NameEmpty);
        // Look-alikes in capitals: a capital i for an l, a zero for an O.
        r.apply(Input::Join { name: "Alex".into() }, 0).unwrap();
        assert!(matches!(refused(&mut r, Input::Join { name: "AIex".into() }, 0), RoomError::NameTaken(_)));
        r.apply(Input::Join { name: "BOB".into() }, 0).unwrap();
        assert!(matches!(refused(&mut r, Input::Join { name: "B0B".into() }, 0), RoomError::NameTaken(_)));
        // Pins a bug of the look-alike check: "LIAM" was not "Liam" (a capital I is an l as
        // written), and Ian and Lan were one name.
        let joined = r.apply(Input::Join { name: "Liam".into() }, 0).unwrap();
        assert!(matches!(refused(&mut r, Input::Join { name: "LIAM".into() }, 0), RoomError::NameTaken(_)));
        let RoomEvent::Joined { seat, .. } = joined[0].event else { panic!("{joined:?}") };
        r.apply(Input::Remove { seat }, 0).unwrap();
        assert!(matches!(refused(&mut r, Input::Join { name: "LIAM".into() }, 0), RoomError::Removed(_)));
        r.apply(Input::Join { name: "Ian".into() }, 0).unwrap();
        r.apply(Input::Join { name: "Lan".into() }, 0).unwrap();
        // One name, however its accents were typed (é as one character, or e and a combining accent).
        r.apply(Input::Join { name: "Zoé".into() }, 0).unwrap();
        assert!(matches!(refused(&mut r, Input::Join { name: "Zoe\u{301}".into() }, 0), RoomError::NameTaken(_)));
        assert!(matches!(
            refused(&mut r, Input::Join { name: "Zoe\u{200B}\u{301}".into() }, 0),
            RoomError::NameTaken(_)
        ));
        // A name can't turn the scoreboard's text around.
        let out = r.apply(Input::Join { name: "\u{202E}Dee".into() }, 0).unwrap();
        assert_eq!(out[0].event, RoomEvent::Joined { seat: 8, name: "Dee".into(), score: 0 });
    }

    #[test]
    fn a_room_holds_sixty_and_a_locked_room_takes_nobody() {
        let mut r = Room::new(Rules::default(), true, deal(&[2, 5, 12, 12]));
        for i in 0..MAX_MEMBERS {
            r.apply(Input::Join { name: format!("P{i}") }, 0).unwrap();
        }
        assert_eq!(refused(&mut r, Input::Join { name: "One more".into() }, 0), RoomError::Full);
        // A seat freed by leaving is taken again (the leaver's record is kept for their name).
        r.apply(Input::Leave { seat: 7 }, 0).unwrap();
        r.apply(Input::Lock { locked: true }, 0).unwrap();
        assert_eq!(refused(&mut r, Input::Join { name: "Late".into() }, 0), RoomError::Locked);
        r.apply(Input::Lock { locked: false }, 0).unwrap();
        let out = r.apply(Input::Join { name: "Late".into() }, 0).unwrap();
        assert_eq!(out, [everyone(RoomEvent::Joined { seat: 7, name: "Late".into(), score: 0 })]);
    }

    #[test]
    fn a_member_leaving_during_their_score_fails_it_in_words_of_its_own() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(1), 0).unwrap();
        let out = r.apply(Input::Leave { seat: 1 }, 1).unwrap();
        assert_eq!(lines(&out), ["Ben −1: left while the SCORE clock ran"]);
        assert_eq!(r.phase(), Phase::Over);
        let back = r.apply(Input::Join { name: "Ben".into() }, 2).unwrap();
        assert_eq!(back, [everyone(RoomEvent::Joined { seat: 1, name: "Ben".into(), score: -1 })]);
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 3).unwrap();
        r.apply(score(1), 4).unwrap();
        // Removed by the host: the same words (the CSV's too).
        assert_eq!(lines(&r.apply(Input::Remove { seat: 1 }, 5).unwrap()), ["Ben −1: left while the SCORE clock ran"]);
        assert!(r.csv(&Catalog::english()).ends_with("\"2 5 12 12\",\"Ben −1: left while the SCORE clock ran\"\n"));
    }

    // Pins a bug: any member could end another's IMPOSSIBLE clock (Reveal now), and with
    // judging off the claimer's own Reveal now was +1 on any roll.
    #[test]
    fn only_the_claimer_reveals_and_only_with_judging_on() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        let before = r.saved().clone();
        assert_eq!(refused(&mut r, Input::RevealNow { seat: 1 }, 1), RoomError::NotYourClaim);
        assert_eq!(r.saved(), &before);
        let out = r.apply(Input::RevealNow { seat: 0 }, 2).unwrap();
        assert_eq!(lines(&out), ["Ana −2: 2 5 12 12 had a solution: 2‖(12 − 12)"]);
        let mut off = Room::new(Rules::default(), false, deal(&[2, 5, 12, 12]));
        off.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        off.apply(impossible(0), 0).unwrap();
        assert_eq!(refused(&mut off, Input::RevealNow { seat: 0 }, 1), RoomError::RevealNeedsJudging);
        assert!(off.members().all(|(_, m)| m.score == 0));
    }

    // Pins a bug: Ana claims IMPOSSIBLE, Ben presses SCORE, Ana leaves: Ben got −1 "a new roll
    // while the SCORE clock ran" and Ana's claim was judged in front of him.
    #[test]
    fn the_claimer_leaving_leaves_the_score_running_and_the_claim_theirs() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        r.apply(score(1), 1).unwrap();
        let out = r.apply(Input::Leave { seat: 0 }, 2).unwrap();
        assert!(lines(&out).is_empty(), "nothing settled: {:?}", lines(&out));
        assert!(matches!(r.phase(), Phase::Score { player: 1, .. }));
        // Someone joining meanwhile doesn't take the seat the claim is owed to.
        let out = r.apply(Input::Join { name: "Dee".into() }, 3).unwrap();
        assert_eq!(out, [everyone(RoomEvent::Joined { seat: 3, name: "Dee".into(), score: 0 })]);
        let out = solve(&mut r, 1, 4);
        assert_eq!(lines(&out), ["Ben +1: 20 made in 2 moves", "Ana −2: Ben made 20 during the IMPOSSIBLE clock"]);
        // Ana's −2 is hers: she finds it when she comes back.
        let out = r.apply(Input::Join { name: "ana".into() }, 5).unwrap();
        assert_eq!(out, [everyone(RoomEvent::Joined { seat: 0, name: "ana".into(), score: -2 })]);
    }

    // Pins a bug: the scorer leaving judged the claim at once instead of handing its clock back.
    #[test]
    fn the_scorer_leaving_hands_the_clock_back_to_the_claim() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        r.apply(score(1), 1).unwrap();
        let out = r.apply(Input::Leave { seat: 1 }, 2).unwrap();
        assert_eq!(lines(&out), ["Ben −1: left while the SCORE clock ran"]);
        assert_eq!(Clock::of(r.phase()), Some(Clock { seat: 0, claim: Claim::Impossible, deadline: 60_000 }));
        assert!(r.apply(score(2), 3).is_ok(), "Cy may still beat the claim");
    }

    // A claimer who leaves during their own IMPOSSIBLE clock doesn't end it: it runs on, and
    // anyone may still beat it (with judging off, leaving would otherwise be +1 at once).
    #[test]
    fn the_claimer_leaving_their_own_clock_lets_it_run() {
        let mut r = Room::new(Rules::default(), false, deal(&[2, 5, 12, 12]));
        for name in ["Ana", "Ben"] {
            r.apply(Input::Join { name: name.into() }, 0).unwrap();
        }
        r.apply(impossible(0), 0).unwrap();
        assert!(lines(&r.apply(Input::Leave { seat: 0 }, 1).unwrap()).is_empty());
        assert!(matches!(r.phase(), Phase::Impossible(_)));
        assert_eq!(lines(&r.tick(60_000)), ["Ana +1: nobody found a solution"]);
        r.apply(Input::Join { name: "Ana".into() }, 60_001).unwrap();
        assert_eq!(scores(&r), [1, 0]);
    }

    // Pins a bug: a student at −6 pressed Leave and joined again as the same name at 0, and
    // the report lost their rolls.
    #[test]
    fn leaving_and_joining_again_takes_the_names_record_back() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(1), 0).unwrap();
        r.tick(30_000);
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 30_001).unwrap();
        let before = r.report().into_iter().find(|x| x.seat == 1).unwrap();
        r.apply(Input::Leave { seat: 1 }, 30_002).unwrap();
        r.apply(Input::Join { name: "Zed".into() }, 30_003).unwrap();
        r.apply(Input::Join { name: "BEN".into() }, 30_004).unwrap();
        let back = r.report().into_iter().find(|x| x.name == "BEN").unwrap();
        // Their rolls: the one they came back on was counted when it was dealt, and counts once.
        assert_eq!(
            (back.tally.points, back.tally.rolls, back.tally.scores_failed),
            (before.tally.points, before.tally.rolls, before.tally.scores_failed)
        );
        let seat = r.members().find(|(_, m)| m.name == "BEN").unwrap().0;
        for t in 0..5 {
            r.apply(Input::Leave { seat }, 30_005 + t).unwrap();
            r.apply(Input::Join { name: "Ben".into() }, 30_005 + t).unwrap();
        }
        assert_eq!(r.report().into_iter().find(|x| x.name == "Ben").unwrap().tally.rolls, before.tally.rolls);
        // A new roll while away, and back: that one was not played, the next is.
        let seat = r.members().find(|(_, m)| m.name == "Ben").unwrap().0;
        r.apply(Input::Leave { seat }, 30_100).unwrap();
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 30_101).unwrap();
        r.apply(Input::Join { name: "Ben".into() }, 30_102).unwrap();
        assert_eq!(r.report().into_iter().find(|x| x.name == "Ben").unwrap().tally.rolls, before.tally.rolls + 1);
        assert_eq!(back.tally.points, -1);
    }

    // Pins a bug: a student who left (and never came back) was gone from the teacher's report.
    #[test]
    fn the_report_keeps_those_who_left_after_playing() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(1), 0).unwrap();
        r.apply(Input::Leave { seat: 1 }, 1).unwrap();
        r.apply(Input::Leave { seat: 2 }, 2).unwrap();
        let rows = r.report();
        let ben = rows.iter().find(|x| x.name == "Ben").expect("Ben's row");
        assert!(ben.left && ben.seat >= MAX_MEMBERS);
        assert_eq!((ben.tally.points, ben.tally.scores_failed), (-1, 1));
        assert!(rows.iter().all(|x| x.name != "Cy"), "Cy never played: no row");
        let csv = r.csv(&Catalog::english());
        assert!(csv.contains("\"Left\",\"Ben\",-1,1,0,1,0,0,\n"), "{csv}");
    }

    // Practice moves alone keep no record: joining and leaving under new names, one move each,
    // pushes out nobody's.
    #[test]
    fn a_record_of_practice_moves_alone_is_not_kept() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(combine(2, 2, Op::Sub, 3), 0).unwrap();
        r.apply(Input::Leave { seat: 2 }, 1).unwrap();
        assert!(r.saved().gone.is_empty());
        assert!(r.report().iter().all(|x| x.name != "Cy"));
    }

    // Pins a bug: a record went to whoever typed the name: a classmate could take Ana's
    // score (and sink it), or plant −6 on a name before its owner arrived.
    #[test]
    fn a_kept_record_goes_back_only_to_the_device_it_was_made_on() {
        let mut r = room(&[1, 1, 1, 4]);
        let enter = |name: &str, device: &str| Input::Enter { name: name.into(), device: Some(device.into()) };
        r.apply(enter("Dee", "dee-phone"), 0).unwrap();
        r.apply(impossible(3), 0).unwrap();
        r.apply(Input::RevealNow { seat: 3 }, 1).unwrap();
        r.apply(Input::Leave { seat: 3 }, 2).unwrap();
        // Someone else as "dee": a record of their own, at 0; Dee's stays in the report.
        let out = r.apply(enter("dee", "ben-laptop"), 3).unwrap();
        assert!(matches!(&out[0].event, RoomEvent::Joined { score: 0, .. }), "{out:?}");
        assert!(r.report().iter().any(|x| x.name == "Dee" && x.left && x.tally.points == 1));
        let seat = r.members().find(|(_, m)| m.name == "dee").unwrap().0;
        r.apply(Input::Leave { seat }, 4).unwrap();
        // Dee, back on her phone, has hers.
        let out = r.apply(enter("Dee", "dee-phone"), 5).unwrap();
        assert!(matches!(&out[0].event, RoomEvent::Joined { score: 1, .. }), "{out:?}");
    }

    // Remove holds: a removed name is refused until the host lets it back in.
    #[test]
    fn a_removed_name_stays_out_until_let_back_in() {
        let mut r = room(&[2, 5, 12, 12]);
        let out = r.apply(Input::Remove { seat: 1 }, 0).unwrap();
        assert!(out.contains(&everyone(RoomEvent::Removed { names: vec!["Ben".into()] })));
        assert_eq!(refused(&mut r, Input::Join { name: "ben\u{200B}".into() }, 1), RoomError::Removed("Ben".into()));
        assert_eq!(r.view(Some(0), 1).removed, ["Ben"]);
        r.apply(Input::Readmit { name: "BEN".into() }, 2).unwrap();
        assert!(r.view(None, 2).removed.is_empty());
        r.apply(Input::Join { name: "Ben".into() }, 3).unwrap();
    }

    // Pins a bug: a removed student came back at once under another name ("Ben2").
    #[test]
    fn a_removed_device_stays_out_under_any_name_until_let_back_in() {
        let mut r = room(&[2, 5, 12, 12]);
        let enter = |name: &str, device: &str| Input::Enter { name: name.into(), device: Some(device.into()) };
        r.apply(enter("Eve", "eve-tablet"), 0).unwrap();
        let eve = r.view(None, 0).members.iter().find(|m| m.name == "Eve").map(|m| m.seat).unwrap();
        r.apply(Input::Remove { seat: eve }, 1).unwrap();
        assert_eq!(refused(&mut r, enter("Eve2", "eve-tablet"), 2), RoomError::Removed("Eve".into()));
        // Another device under another name is someone else.
        r.apply(enter("Dee", "dee-phone"), 3).unwrap();
        // The device list never reaches a page.
        assert!(!serde_json::to_string(&r.view(None, 3)).unwrap().contains("eve-tablet"));
        r.apply(Input::Readmit { name: "eve".into() }, 4).unwrap();
        r.apply(enter("Eve2", "eve-tablet"), 5).unwrap();
    }

    // Pins a bug: every undo and clear was kept in a seat's log, sent with each move and
    // stored at each tick, so Clear sent over and over grew a room without bound.
    #[test]
    fn a_seats_log_is_its_board_however_many_undos_and_clears_it_is_sent() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(0), 0).unwrap();
        for t in 1..500 {
            let action = if t % 3 == 0 { Action::Clear } else { Action::Undo };
            let _ = r.apply(combine(0, 2, Op::Sub, 3), t);
            let _ = r.apply(Input::Act { seat: 0, action }, t);
        }
        let out = r.apply(combine(0, 2, Op::Sub, 3), 600).unwrap();
        let sub = Move::Combine { left: TileId(2), op: Op::Sub, right: TileId(3) };
        assert_eq!(out, [everyone(RoomEvent::Board { seat: 0, actions: vec![sub] })]);
        assert_eq!(r.saved().actions[0].len(), 1);
        assert_eq!(r.saved().working.as_ref().map(|w| w.actions.len()), Some(1));
    }

    // Pins a bug: a room stored with a deadline far ahead (a clock set back) ran that long.
    #[test]
    fn a_restored_clock_never_runs_longer_than_it_is() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(0), 3_600_000).unwrap();
        // Brought back an hour "earlier": the SCORE clock has at most its 30 s.
        let (back, _) = Room::restore(r.saved().clone(), 1_000);
        assert_eq!(Clock::of(back.phase()).map(|c| c.deadline), Some(31_000));
    }

    #[test]
    fn new_rules_settle_the_round_and_deal_for_them() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(score(0), 0).unwrap();
        let rules = Rules { dice: vec![6, 6, 6], goal: 10, score_secs: 45, ..Rules::default() };
        let deal = Deal::new(vec![1, 2, 3], &rules);
        let out = r.apply(Input::SetRules { rules, judging: false, deal }, 1).unwrap();
        assert_eq!(lines(&out), ["Ana −1: a new roll while the SCORE clock ran"]);
        assert!(out.iter().any(|o| o.event == RoomEvent::Rolled { roll: vec![1, 2, 3] }));
        assert_eq!(r.roll(), [1, 2, 3]);
        assert_eq!(r.phase(), Phase::Open);
        let out = r.apply(score(1), 2).unwrap();
        assert_eq!(out[0], everyone(RoomEvent::Clock { seat: 1, claim: Claim::Score, deadline: 45_002 }));
    }

    #[test]
    fn the_csv_has_the_scoreboard_and_every_result_and_defuses_formulas() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(Input::Join { name: "=SUM(A1)".into() }, 0).unwrap();
        r.apply(impossible(1), 0).unwrap();
        r.apply(Input::RevealNow { seat: 1 }, 1).unwrap();
        let csv = r.csv(&Catalog::english());
        let head = "\"Seat\",\"Name\",\"Points\",\"Rolls\",\"SCOREs made\",\"SCOREs failed\",\"IMPOSSIBLE right\",\"IMPOSSIBLE wrong\",\"Median time to SCORE\"";
        assert!(csv.starts_with(&format!("{head}\n0,\"Ana\",0,1,0,0,0,0,\n1,\"Ben\",1,1,0,0,1,0,\n")), "{csv}");
        assert!(csv.contains("3,\"'=SUM(A1)\",0,1,0,0,0,0,\n"), "{csv}");
        assert!(
            csv.ends_with("\"Roll\",\"Result\"\n\"1 1 1 4\",\"Ben +1: right: 1 1 1 4 has no solution\"\n"),
            "{csv}"
        );
    }

    #[test]
    fn a_kept_class_keeps_each_lesson_and_starts_the_next_from_zero() {
        let mut r = room(&[1, 1, 1, 4]);
        // Lessons are a kept class's: a room of one lesson has none to end.
        assert_eq!(refused(&mut r, Input::EndLesson, 0), RoomError::NotKept);
        assert_eq!(r.apply(Input::Keep { kept: true }, 0).unwrap(), vec![everyone(RoomEvent::Kept { kept: true })]);
        assert!(r.kept() && r.view(None, 0).kept);
        r.apply(impossible(1), 0).unwrap();
        r.apply(Input::RevealNow { seat: 1 }, 1).unwrap();
        assert!(r.lesson_played());
        let out = r.apply(Input::EndLesson, 2).unwrap();
        assert_eq!(out, vec![everyone(RoomEvent::Lesson { lesson: 2 }), everyone(RoomEvent::ChatCleared)]);
        assert_eq!((r.lesson(), r.view(None, 2).lesson), (2, 2));
        // Every score starts again; the lesson is each member's past record.
        assert!(r.members().all(|(_, m)| m.score == 0 && m.record == Record::default()));
        let ben = r.members().find(|(_, m)| m.name == "Ben").unwrap().1;
        assert_eq!(ben.lessons.len(), 1);
        assert_eq!(
            (ben.lessons[0].lesson, ben.lessons[0].tally.points, ben.lessons[0].tally.impossible_right),
            (1, 1, 1)
        );
        // Nothing played in lesson 2 yet: it isn't in the Progress, and isn't ended by the server.
        assert!(!r.lesson_played());
        let rows = r.progress();
        assert_eq!(
            rows.iter().map(|p| (p.name.as_str(), p.lesson, p.tally.points)).collect::<Vec<_>>(),
            // Ana and Cy were dealt the roll and never played in it: no lesson of theirs.
            [("Ben", 1, 1)]
        );
        // Lesson 2: Ben is wrong this time; the Progress has both lessons, the report this one.
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 3).unwrap();
        r.apply(impossible(1), 3).unwrap();
        r.apply(Input::RevealNow { seat: 1 }, 4).unwrap();
        let ben: Vec<_> =
            r.progress().into_iter().filter(|p| p.name == "Ben").map(|p| (p.lesson, p.tally.points)).collect();
        assert_eq!(ben, [(1, 1), (2, -2)]);
        assert_eq!(r.report().iter().find(|p| p.name == "Ben").map(|p| p.tally.points), Some(-2));
        // The CSV has a Progress row per member per lesson.
        let csv = r.csv(&Catalog::english());
        assert!(csv.contains("\"Progress\",\"Ben\",1,1,1,0,0,1,0,,\n\"Progress\",\"Ben\",2,-2,1,0,0,0,1,,\n"), "{csv}");
        // Stored and restored, the lessons are whole.
        let back: Saved = serde_json::from_str(&serde_json::to_string(r.saved()).unwrap()).unwrap();
        let (back, _) = Room::restore(back, 5);
        assert_eq!((back.lesson(), back.kept(), back.progress()), (2, true, r.progress()));
        // Not kept any more: no lesson ends, the records stay.
        r.apply(Input::Keep { kept: false }, 6).unwrap();
        assert_eq!(refused(&mut r, Input::EndLesson, 6), RoomError::NotKept);
    }

    #[test]
    fn a_member_who_left_keeps_their_lessons_and_takes_them_back_on_return() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        r.apply(impossible(1), 0).unwrap();
        r.apply(Input::RevealNow { seat: 1 }, 1).unwrap();
        r.apply(Input::Leave { seat: 1 }, 2).unwrap();
        r.apply(Input::EndLesson, 3).unwrap();
        assert_eq!(r.progress().iter().filter(|p| p.name == "Ben").count(), 1);
        r.apply(Input::Join { name: "Ben".into() }, 4).unwrap();
        let ben = r.members().find(|(_, m)| m.name == "Ben").unwrap().1;
        assert_eq!((ben.score, ben.lessons.len()), (0, 1));
    }

    // Pins a bug: a member who left a kept class at the start of a lesson (nothing in the
    // lesson yet) was not kept, and every past lesson of theirs went with them.
    #[test]
    fn leaving_at_the_start_of_a_lesson_keeps_every_past_lesson() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        r.apply(impossible(1), 0).unwrap();
        r.apply(Input::RevealNow { seat: 1 }, 1).unwrap();
        // Cy played (a move) without a result: the lesson is his too.
        r.apply(combine(2, 0, Op::Add, 1), 1).unwrap();
        r.apply(Input::EndLesson, 2).unwrap();
        r.apply(Input::Leave { seat: 1 }, 3).unwrap();
        assert_eq!(
            r.progress().iter().filter(|p| p.name == "Ben").map(|p| (p.lesson, p.tally.points)).collect::<Vec<_>>(),
            [(1, 1)]
        );
        r.apply(Input::Remove { seat: 2 }, 4).unwrap();
        assert!(r.progress().iter().any(|p| p.name == "Cy"), "a removed member's lessons stay in the Progress");
    }

    // A result still to come belongs to the lesson it was claimed in; a lesson nobody played
    // in isn't counted (a second press); each lesson's chat starts empty.
    #[test]
    fn a_lesson_ends_only_when_settled_and_only_if_played() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        r.apply(Input::Chat { seat: 0, text: "hi".into() }, 0).unwrap();
        r.apply(impossible(1), 0).unwrap();
        assert_eq!(refused(&mut r, Input::EndLesson, 1), RoomError::ClockRunning);
        r.apply(Input::RevealNow { seat: 1 }, 1).unwrap();
        let out = r.apply(Input::EndLesson, 2).unwrap();
        assert!(out.contains(&everyone(RoomEvent::ChatCleared)) && r.saved().chat.is_empty());
        assert_eq!(r.apply(Input::EndLesson, 3).unwrap(), Vec::new(), "nothing played in lesson 2");
        assert_eq!(r.lesson(), 2);
    }

    // A student back on a new device: the host frees their seat, and they take their record
    // (score and lessons) back under their name from the new device.
    #[test]
    fn a_freed_seat_goes_back_to_its_name_from_another_device() {
        let mut r = Room::new(Rules::default(), true, deal(&[1, 1, 1, 4]));
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        r.apply(Input::Enter { name: "Ana".into(), device: Some("old-phone".into()) }, 0).unwrap();
        r.apply(impossible(0), 0).unwrap();
        r.apply(Input::RevealNow { seat: 0 }, 1).unwrap();
        r.apply(Input::EndLesson, 2).unwrap();
        // From a new phone her name is taken while the old one holds the seat.
        let new_phone = || Input::Enter { name: "Ana".into(), device: Some("new-phone".into()) };
        assert_eq!(refused(&mut r, new_phone(), 3), RoomError::NameTaken("Ana".into()));
        r.apply(Input::Free { seat: 0 }, 4).unwrap();
        r.apply(new_phone(), 5).unwrap();
        let ana = r.members().find(|(_, m)| m.name == "Ana").unwrap().1;
        assert_eq!((ana.lessons.len(), ana.owner.as_deref()), (1, Some("new-phone")));
        // Not barred: unlike Remove, nothing keeps her out.
        assert!(r.saved().removed.is_empty());
    }

    // Pins two bugs: a name taken and never played in got a past lesson at each lesson's end
    // (rolls were dealt to it), so its seat was held for ever; and Free released an older
    // record of the same name, another device's, to whoever joined next under it.
    #[test]
    fn an_idle_name_gets_no_lesson_and_free_releases_only_the_seats_own_record() {
        let mut r = Room::new(Rules::default(), true, deal(&[1, 1, 1, 4]));
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        r.apply(Input::Enter { name: "Dee".into(), device: Some("dee".into()) }, 0).unwrap();
        r.apply(Input::Join { name: "Idle".into() }, 0).unwrap();
        r.apply(impossible(0), 0).unwrap();
        r.apply(Input::RevealNow { seat: 0 }, 1).unwrap();
        r.apply(Input::EndLesson, 2).unwrap();
        let idle = r.members().find(|(_, m)| m.name == "Idle").unwrap().1;
        assert!(idle.lessons.is_empty() && !idle.worth_keeping());
        // Dee leaves; someone else types her name on another device, and the host frees that seat.
        r.apply(Input::Leave { seat: 0 }, 3).unwrap();
        r.apply(Input::Enter { name: "Dee".into(), device: Some("mallory".into()) }, 4).unwrap();
        let (seat, _) = r.members().find(|(_, m)| m.name == "Dee").unwrap();
        r.apply(Input::Free { seat }, 5).unwrap();
        r.apply(Input::Enter { name: "Dee".into(), device: Some("mallory".into()) }, 6).unwrap();
        let dee = r.members().find(|(_, m)| m.name == "Dee").unwrap().1;
        assert!(dee.lessons.is_empty(), "Dee's lessons stay hers");
        assert!(r.saved().gone.iter().any(|g| g.member.owner.as_deref() == Some("dee") && g.member.lessons.len() == 1));
    }

    #[test]
    fn forget_deletes_a_students_seat_records_results_and_chat_and_nobody_elses() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        r.apply(Input::Chat { seat: 0, text: "hi".into() }, 0).unwrap();
        r.apply(Input::Chat { seat: 1, text: "hello".into() }, 0).unwrap();
        r.apply(impossible(0), 1).unwrap();
        r.apply(Input::RevealNow { seat: 0 }, 2).unwrap();
        r.apply(Input::EndLesson, 3).unwrap();
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 4).unwrap();
        r.apply(impossible(1), 5).unwrap();
        // A clock of theirs still to be settled: not yet.
        assert_eq!(refused(&mut r, Input::Forget { name: "Ben".into() }, 6), RoomError::ClockRunning);
        r.apply(Input::RevealNow { seat: 1 }, 7).unwrap();
        r.apply(Input::Leave { seat: 0 }, 8).unwrap();
        assert_eq!(refused(&mut r, Input::Forget { name: "Zed".into() }, 9), RoomError::NoSuchName("Zed".into()));
        // Ana left (her record kept), Ben is seated: both go, by their names exactly as shown
        // (another record that only looks like one, "ANA", is someone else's).
        assert_eq!(refused(&mut r, Input::Forget { name: "ANA".into() }, 10), RoomError::NoSuchName("ANA".into()));
        let out = r.apply(Input::Forget { name: " Ana ".into() }, 10).unwrap();
        assert!(out.contains(&everyone(RoomEvent::Forgotten { name: "Ana".into() })));
        r.apply(Input::Forget { name: "Ben".into() }, 11).unwrap();
        assert!(r.saved.gone.is_empty(), "{:?}", r.saved.gone);
        assert_eq!(r.members().map(|(_, m)| m.name.as_str()).collect::<Vec<_>>(), ["Cy"]);
        assert!(r.saved.chat.is_empty());
        assert!(r.saved.history.is_empty() && r.results().is_empty());
        assert!(r.progress().is_empty() && r.report().iter().all(|row| row.name == "Cy"));
        // The name may join again, as someone new.
        r.apply(Input::Join { name: "Ana".into() }, 12).unwrap();
        assert!(r.members().any(|(_, m)| m.name == "Ana" && m.lessons.is_empty() && m.score == 0));
    }

    #[test]
    fn a_room_stored_before_lessons_reads_as_lesson_one_not_kept() {
        let r = room(&[2, 5, 12, 12]);
        let mut json: serde_json::Value = serde_json::to_value(r.saved()).unwrap();
        let map = json.as_object_mut().unwrap();
        map.remove("kept");
        map.remove("lesson");
        let saved: Saved = serde_json::from_value(json).unwrap();
        assert_eq!((saved.kept, saved.lesson), (false, 1));
    }

    /// A room on `roll` where Ben's IMPOSSIBLE was judged at once, and the German catalog.
    fn judged_with_german(roll: &[i64]) -> (Room, Catalog) {
        let mut r = room(roll);
        r.apply(impossible(1), 0).unwrap();
        r.apply(Input::RevealNow { seat: 1 }, 1).unwrap();
        (r, Catalog::builtin(score_i18n::Lang::De))
    }

    #[test]
    fn the_csv_is_in_the_language_it_is_asked_in_and_keeps_older_lines_as_worded() {
        let (r, de) = judged_with_german(&[1, 1, 1, 4]);
        let csv = r.csv(&de);
        assert!(
            csv.starts_with(&format!("{},{}", field_of(&de, Key::CsvSeat), field_of(&de, Key::ReportName))),
            "{csv}"
        );
        let line = crate::say::outcome(&r.results()[0], None, 20, "1 1 1 4", &de);
        assert!(line.starts_with("Ben +1") && !line.contains("right"), "{line}");
        assert!(csv.ends_with(&format!("\"1 1 1 4\",\"{line}\"\n")), "{csv}");
        // A room stored with English lines (before results were data) still downloads them.
        let mut saved = r.saved().clone();
        let json = serde_json::to_string(&saved).unwrap().replace(
            &serde_json::to_string(&saved.history).unwrap(),
            r#"[["2 5 12 12","Ana +1: 20 made in 2 moves"]]"#,
        );
        saved = serde_json::from_str(&json).unwrap();
        assert_eq!(saved.history, vec![Historic::Worded("2 5 12 12".into(), "Ana +1: 20 made in 2 moves".into())]);
        let (old, _) = Room::restore(saved, 2);
        assert!(old.csv(&de).ends_with("\"2 5 12 12\",\"Ana +1: 20 made in 2 moves\"\n"));
    }

    #[test]
    fn the_csv_writes_multiplication_and_division_the_askers_way() {
        let (r, de) = judged_with_german(&[1, 1, 4, 5]);
        let dotted = r.csv(&de);
        let last = |csv: &str| csv.lines().last().unwrap_or_default().to_string();
        assert!(last(&dotted).contains(" · ") && !last(&dotted).contains('×'), "{dotted}");
        let crossed = r.csv(&de.with_ops(Some(score_i18n::Ops::Cross)));
        assert!(last(&crossed).contains(" × ") && !last(&crossed).contains('·'), "{crossed}");
    }

    #[test]
    fn a_room_has_a_language_its_host_sets_and_a_restart_keeps() {
        let mut r = room(&[2, 5, 12, 12]);
        assert_eq!(r.view(None, 0).lang, None);
        // Written as a browser might, kept as the game names it.
        let out = r.apply(Input::Language { lang: "pt-br".into() }, 1).unwrap();
        assert_eq!(out, vec![everyone(RoomEvent::Language { lang: "pt-BR".into() })]);
        assert_eq!(r.view(Some(0), 1).lang.as_deref(), Some("pt-BR"));
        // A language the game doesn't speak changes nothing.
        assert_eq!(r.apply(Input::Language { lang: "tlh".into() }, 2).unwrap_err().error, RoomError::UnknownLanguage);
        assert_eq!(r.view(None, 2).lang.as_deref(), Some("pt-BR"));
        let (back, _) = Room::restore(serde_json::from_str(&serde_json::to_string(r.saved()).unwrap()).unwrap(), 3);
        assert_eq!(back.view(None, 3).lang.as_deref(), Some("pt-BR"));
        // A room stored before rooms had a language has none: it asks no page for one.
        let mut old = serde_json::to_value(r.saved()).unwrap();
        old.as_object_mut().unwrap().remove("lang");
        let (old, _) = Room::restore(serde_json::from_value(old).unwrap(), 4);
        assert_eq!(old.view(None, 4).lang, None);
    }

    fn field_of(words: &Catalog, key: Key) -> String {
        format!("\"{}\"", words.text(key, &[]))
    }

    #[test]
    fn chat_is_text_kept_to_the_last_two_hundred() {
        let mut r = room(&[2, 5, 12, 12]);
        let out = r.apply(Input::Chat { seat: 0, text: "<img src=x onerror=alert(1)>".into() }, 0).unwrap();
        assert_eq!(
            out[0].event,
            RoomEvent::Chat { seat: 0, name: "Ana".into(), text: "<img src=x onerror=alert(1)>".into() }
        );
        assert_eq!(refused(&mut r, Input::Chat { seat: 0, text: " ".into() }, 0), RoomError::ChatEmpty);
        assert_eq!(refused(&mut r, Input::Chat { seat: 0, text: "é".repeat(301) }, 0), RoomError::ChatTooLong);
        for i in 0..250 {
            r.apply(Input::Chat { seat: 1, text: format!("{i}") }, 0).unwrap();
        }
        assert_eq!(r.saved().chat.len(), CHAT_KEPT);
        assert_eq!(r.saved().chat[0].text, "50");
        r.apply(Input::ClearChat, 0).unwrap();
        assert!(r.saved().chat.is_empty());
    }

    // Pins a bug: 59 joins from one device, then closed, held 59 seats and every name a class
    // would use for ten minutes. The host gives up every seat that is away and never played.
    #[test]
    fn the_host_clears_the_seats_taken_and_left_empty_at_once() {
        let mut r = room(&[2, 5, 12, 12]);
        for i in 0..5 {
            r.apply(Input::Join { name: format!("Fake {i}") }, 0).unwrap();
        }
        // Ana and Ben play, Cy is here without playing; the fakes (one chats) and Ana go away.
        r.apply(combine(0, 2, Op::Sub, 3), 1).unwrap();
        r.apply(impossible(1), 1).unwrap();
        r.apply(Input::Chat { seat: 3, text: "hi".into() }, 1).unwrap();
        for seat in [0, 3, 4, 5, 6, 7] {
            r.apply(Input::Presence { seat, away: true }, 2).unwrap();
        }
        let out = r.apply(Input::ClearEmpty, 3).unwrap();
        let left: Vec<Seat> = out
            .iter()
            .filter_map(|o| match o.event {
                RoomEvent::Left { seat } => Some(seat),
                _ => None,
            })
            .collect();
        assert_eq!(left, [3, 4, 5, 6, 7]);
        let names: Vec<String> = r.members().map(|(_, m)| m.name.clone()).collect();
        assert_eq!(names, ["Ana", "Ben", "Cy"]);
        // A member stored before "played" was kept has played: no restart empties a class.
        let mut old = serde_json::to_value(r.saved()).unwrap();
        old["seats"][2].as_object_mut().unwrap().remove("played");
        let (back, _) = Room::restore(serde_json::from_value(old).unwrap(), 4);
        assert!(back.members().all(|(s, m)| m.played || s != 2));
    }

    // The teacher couldn't write in the chat without taking a seat: a host screen's line is
    // the teacher's, marked as such (never under a student's name).
    #[test]
    fn the_teacher_writes_in_the_chat_as_the_teacher() {
        let mut r = room(&[2, 5, 12, 12]);
        let out = r.apply(Input::TeacherChat { text: " Ten more seconds ".into() }, 0).unwrap();
        assert_eq!(out, [everyone(RoomEvent::TeacherChat { text: "Ten more seconds".into() })]);
        assert_eq!(
            r.view(Some(0), 0).chat,
            [ChatLine { name: String::new(), text: "Ten more seconds".into(), teacher: true }]
        );
        assert_eq!(refused(&mut r, Input::TeacherChat { text: " ".into() }, 0), RoomError::ChatEmpty);
    }

    #[test]
    fn a_restored_room_keeps_scores_and_boards_and_settles_a_clock_that_ran_out() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        r.apply(score(2), 1).unwrap();
        r.apply(combine(2, 2, Op::Sub, 3), 2).unwrap();
        let text = serde_json::to_string(r.saved()).unwrap();
        // The server was down for a minute: Cy's SCORE clock ran out meanwhile.
        let (back, out) = Room::restore(serde_json::from_str(&text).unwrap(), 70_000);
        assert_eq!(back.moves(2), ["12 − 12 = 0"]);
        assert_eq!(lines(&out), ["Cy −1: the SCORE clock ran out", "Ana −2: 2 5 12 12 had a solution: 2‖(12 − 12)"]);
        assert_eq!(scores(&back), [-2, 0, -1]);
    }

    // Pins a bug: a SCORE pressed just as an IMPOSSIBLE clock ran out was refused, and the
    // claim settled on the way was kept in the room but never sent nor saved.
    #[test]
    fn results_settled_on_the_way_come_back_with_a_refusal() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(impossible(0), 0).unwrap();
        let no = r.apply(score(1), 60_001).unwrap_err();
        assert_eq!(no.error, RoomError::Round(RoundError::Over));
        assert_eq!(lines(&no.settled), ["Ana −2: 2 5 12 12 had a solution: 2‖(12 − 12)"]);
        assert!(no
            .settled
            .iter()
            .any(|o| matches!(&o.event, RoomEvent::Results { scores, .. } if scores[0].score == -2)));
        assert_eq!(scores(&r), [-2, 0, 0]);
        // Refused with nothing to settle: nothing comes back.
        assert!(r.apply(score(1), 60_002).unwrap_err().settled.is_empty());
    }

    // Pins a bug: the page built its board with the default rules and checked a host's
    // typed roll against the default dice; the room's rules never reached it.
    #[test]
    fn the_view_and_the_rules_event_carry_the_rooms_whole_rules() {
        let mut r = room(&[2, 5, 12, 12]);
        assert_eq!(r.view(Some(0), 0).rules, Rules::default());
        let rules = Rules { dice: vec![20; 5], goal: 24, impossible_secs: 90, ..Rules::default() };
        let deal = Deal::new(vec![1, 2, 3, 4, 20], &rules);
        let out = r.apply(Input::SetRules { rules: rules.clone(), judging: false, deal }, 1).unwrap();
        assert_eq!(out[0].event, RoomEvent::Rules { rules: rules.clone(), judging: false });
        let view = r.view(Some(1), 2);
        assert_eq!((view.rules, view.judging, view.roll), (rules, false, vec![1, 2, 3, 4, 20]));
    }

    #[test]
    fn a_member_who_leaves_frees_their_seat_and_name_at_once() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(combine(1, 2, Op::Sub, 3), 0).unwrap();
        r.apply(Input::Leave { seat: 1 }, 1).unwrap();
        assert_eq!(refused(&mut r, Input::Chat { seat: 1, text: "hi".into() }, 2), RoomError::NoSuchSeat);
        let out = r.apply(Input::Join { name: "Ben".into() }, 3).unwrap();
        assert_eq!(out, [everyone(RoomEvent::Joined { seat: 1, name: "Ben".into(), score: 0 })]);
        // Ben is back with his record (no points yet), his board from the roll.
        assert!(r.moves(1).is_empty());
        assert_eq!(r.view(Some(1), 4).members[1], Player { seat: 1, name: "Ben".into(), score: 0, away: false });
    }

    // One rule for solo and rooms: the moves of the working that made the goal, not every
    // move on the board (rooms used to count a spare move too).
    #[test]
    fn made_in_counts_the_moves_of_the_working_that_made_the_goal() {
        let rules = Rules { dice: vec![20; 5], ..Rules::default() };
        let mut r = Room::new(rules.clone(), true, Deal::new(vec![1, 1, 2, 12, 12], &rules));
        r.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        r.apply(score(0), 0).unwrap();
        r.apply(combine(0, 0, Op::Add, 1), 1).unwrap(); // 1 + 1 = 2, a spare move (tile 5)
        r.apply(combine(0, 3, Op::Sub, 4), 2).unwrap(); // 12 − 12 = 0 (tile 6)
        let out = r.apply(combine(0, 2, Op::Concat, 6), 3).unwrap(); // 2‖0 = 20
        assert_eq!(r.moves(0).len(), 3);
        assert_eq!(lines(&out), ["Ana +1: 20 made in 2 moves"]);
    }

    #[test]
    fn strict_mode_refuses_undo_under_the_score_clock_in_the_words_solo_uses() {
        let mut r = Room::new(Rules { strict: true, ..Rules::default() }, true, deal(&[2, 5, 12, 12]));
        r.apply(Input::Join { name: "Ana".into() }, 0).unwrap();
        r.apply(score(0), 0).unwrap();
        r.apply(combine(0, 2, Op::Sub, 3), 1).unwrap();
        let no = refused(&mut r, Input::Act { seat: 0, action: Action::Undo }, 2);
        assert_eq!(no.to_string(), "Strict mode: no undo while the SCORE clock runs.");
    }

    #[test]
    fn a_full_or_locked_room_says_so_with_its_own_code() {
        let mut r = room(&[2, 5, 12, 12]);
        r.apply(Input::Lock { locked: true }, 0).unwrap();
        assert_eq!(refused(&mut r, Input::Join { name: "Dee".into() }, 0).code(), ErrorCode::RoomLocked);
        assert_eq!(RoomError::Full.code(), ErrorCode::RoomFull);
        assert_eq!(RoomError::ChatEmpty.code(), ErrorCode::Refused);
    }

    #[test]
    fn a_room_stored_without_its_verdict_is_solved_on_restore() {
        let mut r = room(&[1, 1, 1, 4]);
        r.apply(impossible(0), 0).unwrap();
        let mut text: serde_json::Value = serde_json::to_value(r.saved()).unwrap();
        let saved = text.as_object_mut().unwrap();
        saved.remove("solution");
        saved.remove("solved");
        let (back, out) = Room::restore(serde_json::from_value(text).unwrap(), 60_001);
        assert_eq!(lines_on("1 1 1 4", &out), ["Ana +1: right: 1 1 1 4 has no solution"]);
        assert!(back.saved().solved);
    }

    /// Ratings from play: a SCORE judged moves its player's rating and the roll's, once the
    /// roll is settled (a failed SCORE under someone's IMPOSSIBLE clock waits for the claim:
    /// rated sooner, only a roll with a solution would move, and the Progress would say so).
    /// A roll with no solution rates nothing; the ratings survive storage.
    #[test]
    fn scores_rate_their_player_and_the_roll_once_the_roll_is_settled() {
        let mut r = room(&[2, 5, 12, 12]);
        let rating = |r: &Room, seat: Seat| r.report().into_iter().find(|x| x.seat == seat).unwrap().tally.rating;
        let start = {
            let levels = score_engine::difficulty::Levels::of(&Rules::default());
            let seconds = score_engine::difficulty::rate_roll(&[2, 5, 12, 12], &Rules::default()).unwrap().seconds;
            score_engine::elo::roll_rating(seconds, &levels)
        };
        r.apply(score(0), 1_000).unwrap();
        solve(&mut r, 0, 4_000);
        assert!(rating(&r, 0).is_some_and(|x| x > 0), "{:?}", rating(&r, 0));
        assert_eq!(r.saved().roll_ratings.len(), 1);
        let roll = r.saved().roll_ratings[0].clone();
        assert_eq!((roll.roll.clone(), roll.ability.answers), (vec![2, 5, 12, 12], 1));
        assert!(roll.ability.rating < start, "made in 3 s: easier than the model said");
        // Cy claims IMPOSSIBLE (wrongly); Ben's SCORE under the claim is given up.
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 10_000).unwrap();
        r.apply(impossible(2), 11_000).unwrap();
        r.apply(score(1), 12_000).unwrap();
        r.apply(Input::GiveUp { seat: 1 }, 13_000).unwrap();
        assert_eq!(rating(&r, 1), None, "rated while the claim runs");
        assert_eq!(r.saved().unrated.len(), 1);
        r.apply(Input::RevealNow { seat: 2 }, 14_000).unwrap();
        assert!(rating(&r, 1).is_some_and(|x| x < 0), "{:?}", rating(&r, 1));
        assert!(r.saved().unrated.is_empty() && r.saved().roll_ratings[0].ability.answers == 2);
        // No solution: a SCORE that runs out on it says nothing.
        r.apply(Input::NewRoll { deal: deal(&[1, 1, 1, 4]) }, 20_000).unwrap();
        r.apply(score(2), 21_000).unwrap();
        r.tick(52_000);
        assert_eq!(rating(&r, 2), None);
        assert_eq!(r.saved().roll_ratings.len(), 1);
        // Stored and read back whole.
        let text = serde_json::to_string(r.saved()).unwrap();
        let (back, _) = Room::restore(serde_json::from_str(&text).unwrap(), 60_000);
        assert_eq!(back.saved().roll_ratings, r.saved().roll_ratings);
        assert_eq!(rating(&back, 0), rating(&r, 0));
        assert_eq!(rating(&back, 1), rating(&r, 1));
    }

    // The teacher's report counts what each member did; its numbers follow the rounds played.
    #[test]
    fn the_report_counts_rolls_claims_and_the_time_to_each_score() {
        let mut r = room(&[2, 5, 12, 12]);
        // Ana makes a SCORE in 12 s; Ben's runs out; Cy claims IMPOSSIBLE, wrongly.
        r.apply(score(0), 1_000).unwrap();
        solve(&mut r, 0, 13_000);
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 14_000).unwrap();
        r.apply(score(1), 15_000).unwrap();
        r.tick(45_001);
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 46_000).unwrap();
        r.apply(impossible(2), 47_000).unwrap();
        r.apply(Input::RevealNow { seat: 2 }, 48_000).unwrap();
        // Dee joins for the last roll; Ana makes another SCORE, in 4 s, and one in 8 s.
        r.apply(Input::NewRoll { deal: deal(&[1, 1, 1, 4]) }, 49_000).unwrap();
        r.apply(Input::Join { name: "Dee".into() }, 49_500).unwrap();
        r.apply(impossible(3), 50_000).unwrap();
        r.tick(110_001);
        for (t, roll) in [(111_000, [2, 5, 12, 12]), (121_000, [2, 5, 12, 12])] {
            r.apply(Input::NewRoll { deal: deal(&roll) }, t).unwrap();
            r.apply(score(0), t + 1).unwrap();
            solve(&mut r, 0, t + 1 + if t == 111_000 { 4_000 } else { 8_000 });
        }
        let row = |seat: Seat| r.report().into_iter().find(|x| x.seat == seat).unwrap();
        let ana = row(0);
        assert_eq!((ana.tally.points, ana.tally.rolls, ana.tally.scores_made, ana.tally.scores_failed), (3, 6, 3, 0));
        assert_eq!(ana.tally.median_score_ms, Some(8_000), "12 s, 4 s and 8 s");
        let ben = row(1);
        assert_eq!((ben.tally.points, ben.tally.scores_made, ben.tally.scores_failed), (-1, 0, 1));
        assert_eq!(ben.tally.median_score_ms, None);
        let cy = row(2);
        assert_eq!((cy.tally.points, cy.tally.impossible_right, cy.tally.impossible_wrong), (-2, 0, 1));
        let dee = row(3);
        assert_eq!((dee.tally.points, dee.tally.rolls, dee.tally.impossible_right), (1, 3, 1));
        // The report survives a restart, and the CSV has it, a row per member.
        let (back, _) =
            Room::restore(serde_json::from_str(&serde_json::to_string(r.saved()).unwrap()).unwrap(), 140_000);
        assert_eq!(back.report(), r.report());
        let csv = r.csv(&Catalog::english());
        assert!(csv.contains("\n0,\"Ana\",3,6,3,0,0,0,\"8.0\"\n"), "{csv}");
    }

    // A member whose page closed at once doesn't play every roll after (issue: "8 rolls, 0 points").
    #[test]
    fn a_roll_counts_only_for_members_whose_page_is_here_and_the_list_says_who_is_away() {
        let mut r = room(&[2, 5, 12, 12]);
        let out = r.apply(Input::Presence { seat: 1, away: true }, 1).unwrap();
        assert_eq!(out, [everyone(RoomEvent::Presence { seat: 1, away: true })]);
        // Told once: the same presence again says nothing.
        assert!(r.apply(Input::Presence { seat: 1, away: true }, 2).unwrap().is_empty());
        assert_eq!(r.apply(Input::Presence { seat: 9, away: true }, 2).unwrap_err().error, RoomError::NoSuchSeat);
        assert!(r.view(Some(0), 3).members.iter().any(|m| m.seat == 1 && m.away));
        for t in 0..8 {
            r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 10 + t).unwrap();
        }
        r.apply(Input::Presence { seat: 1, away: false }, 30).unwrap();
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 31).unwrap();
        let rolls = |seat: Seat| r.report().into_iter().find(|x| x.seat == seat).unwrap().tally.rolls;
        assert_eq!((rolls(0), rolls(1)), (10, 2), "the roll they joined on, and the one after they came back");
        // After a restart nobody's page is connected yet: all away until they come back.
        let (back, _) = Room::restore(serde_json::from_str(&serde_json::to_string(r.saved()).unwrap()).unwrap(), 40);
        assert!(back.view(None, 40).members.iter().all(|m| m.away));
    }
}
