//! What one page believes about a room: a [`Mirror`] starts from the Welcome's [`View`] and
//! applies each room event as it arrives ([`Mirror::receive`]), so that it always equals what
//! a fresh Welcome would show that page at that moment. The page renders from it and asks it
//! what may be pressed; it holds no rule of its own.
//!
//! A member's moves are made on the page before the room answers (so dragging feels
//! instant): [`Mirror::act`] checks a move with the engine's `Board`, as the room will, and
//! keeps it as pending. The room answers every move, made or refused, with that member's
//! board as it holds it (a `Board` event), and the socket keeps order, so the page's board
//! is always the room's answer so far plus the moves still on their way: a refused move
//! (a rate limit, strict mode, a roll dealt meanwhile) can never leave the two apart.
//!
//! `tests/room/mirror.rs` holds this to the room: random play, each page's events delivered late
//! or at once, and after every delivery each page's mirror equals the room's view of it.

use std::collections::VecDeque;

use score_engine::{Action, Board, RoundError};

use crate::protocol::{next, ChatLine, Claim, Clock, Move, Next, Player, RoomEvent, Seat, View, Working, CHAT_KEPT};
use crate::rights::{may, Act, Stage};
use crate::room::RoomError;

/// What the page does after an event, beyond rendering the mirror.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    Nothing,
    /// This member's board changed under them: rebuild it from [`Mirror::board`] and empty the slots.
    Board,
    /// A new roll: the board starts again (dice redrawn, slots emptied).
    NewRoll,
    /// An event was missed: ask for the room afresh (reconnect for a new Welcome).
    Reopen,
    /// This member's homework changed (a new roll, a result, its board): rebuild its table
    /// from [`Mirror::homework`] and empty its slots.
    Homework,
}

/// One page's view of a room.
#[derive(Debug, Clone, PartialEq)]
pub struct Mirror {
    seat: Option<Seat>,
    seq: u64,
    /// The room as last told; `view.actions` is this member's board as the room last answered.
    view: View,
    /// Moves made here and sent, not yet answered.
    pending: VecDeque<Move>,
    /// The server's clock minus this page's, ms.
    offset: i64,
    /// The names of those who left since this page's Welcome, by the seat they left: a claim
    /// of theirs may still run on its clock (RULES §5), and its line names them.
    left: Vec<(Seat, String)>,
    /// This member's homework table: a mirror of their room of one (seat 0), from the run's
    /// view, with the homework moves on their way.
    homework: Option<Box<Mirror>>,
}

impl Mirror {
    /// The room as a Welcome shows it to `seat` (none: a host screen), with the `seq` of the
    /// last event it includes; `local_now` is this page's clock when it arrived.
    pub fn welcome(seat: Option<Seat>, seq: u64, view: View, local_now: u64) -> Mirror {
        let offset = view.now as i64 - local_now as i64;
        let homework = Mirror::of_run(&view, offset);
        Mirror { seat, seq, view, pending: VecDeque::new(), offset, left: Vec::new(), homework }
    }

    /// The mirror of a view's homework table.
    fn of_run(view: &View, offset: i64) -> Option<Box<Mirror>> {
        let run = view.run.as_ref()?;
        let view = (*run.view).clone();
        Some(Box::new(Mirror {
            seat: Some(0),
            seq: 0,
            view,
            pending: VecDeque::new(),
            offset,
            left: Vec::new(),
            homework: None,
        }))
    }

    /// This member's homework table, once started.
    pub fn homework(&self) -> Option<&Mirror> {
        self.homework.as_deref()
    }

    /// A move on this member's homework table: checked, kept as pending, and the move to send.
    pub fn homework_act(&mut self, action: Action) -> Result<Move, RoomError> {
        self.homework.as_mut().ok_or(RoomError::HomeworkNotStarted)?.act(action)
    }

    /// This page's seat (none for a host screen that doesn't play).
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// The room as this page believes it (its board: the room's last answer).
    pub fn view(&self) -> &View {
        &self.view
    }

    /// The number of the class's homework, if it has one: a new number is new homework.
    pub fn homework_number(&self) -> Option<u32> {
        self.view.homework.as_ref().map(|h| h.number)
    }

    /// The room as this page shows it at `now` (server ms): its board with the moves on their
    /// way. When nothing is on its way, this equals a fresh Welcome's view.
    pub fn shown(&self, now: u64) -> View {
        let mut v = self.view.clone();
        v.actions.extend(self.pending.iter().copied());
        v.now = now;
        if let (Some(run), Some(hw)) = (v.run.as_mut(), &self.homework) {
            *run.view = hw.shown(now);
        }
        v
    }

    /// Moves sent and not yet answered.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// The last room event applied.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// A member's name, or the name of the one who last left that seat while this page
    /// watched (empty when nobody sits there and nobody left it).
    pub fn name(&self, seat: Seat) -> String {
        let member = self.view.members.iter().find(|m| m.seat == seat).map(|m| &m.name);
        let left = || self.left.iter().rev().find(|(s, _)| *s == seat).map(|(_, n)| n);
        member.or_else(left).cloned().unwrap_or_default()
    }

    /// A server time in this page's clock.
    pub fn local(&self, server_ms: u64) -> u64 {
        (server_ms as i64 - self.offset).max(0) as u64
    }

    /// A time in this page's clock in the server's (a due date the teacher chose here).
    pub fn server(&self, local_ms: u64) -> u64 {
        (local_ms as i64 + self.offset).max(0) as u64
    }

    /// This page's board: the roll, the room's last answer, then the moves on their way.
    pub fn board(&self) -> Board {
        replay(&self.view, self.view.actions.iter().chain(&self.pending))
    }

    /// When auto-deal deals the next roll, in this page's clock: with it on and the roll settled.
    pub fn deal_due(&self) -> Option<u64> {
        let secs = u64::from(self.view.auto_deal_secs);
        let at = self.view.settled_at.filter(|_| secs > 0 && self.view.settled)?;
        Some(self.local(at.saturating_add(secs * 1000)))
    }

    /// The SCORE claimant's working as steps ("12 − 12 = 0"), replayed on the roll.
    pub fn working(&self) -> Option<(Seat, Vec<String>)> {
        let w = self.view.working.as_ref()?;
        let board = replay(&self.view, w.actions.iter());
        Some((w.seat, board.moves().iter().map(|m| m.step().to_string()).collect()))
    }

    fn clock_is_mine(&self, claim: Claim) -> bool {
        self.view.clock.is_some_and(|c| Some(c.seat) == self.seat && c.claim == claim)
    }

    /// Whether this page's member may do `act` now, by the room's own table
    /// ([`crate::rights::may`]): a host screen without a seat may do none of these.
    pub fn may(&self, act: Act) -> bool {
        self.seat.is_some_and(|seat| may(seat, act, Stage::of_view(&self.view)).is_ok())
    }

    /// Whether this page may press SCORE.
    pub fn may_score(&self) -> bool {
        self.may(Act::Score)
    }

    /// Whether this page may press IMPOSSIBLE.
    pub fn may_claim_impossible(&self) -> bool {
        self.may(Act::Impossible)
    }

    /// Whether this page may end the IMPOSSIBLE clock now (its own claim's, with judging on).
    pub fn may_reveal(&self) -> bool {
        self.may(Act::Reveal)
    }

    /// Whether this page may give up a SCORE (its own clock runs).
    pub fn may_give_up(&self) -> bool {
        self.may(Act::GiveUp)
    }

    /// A move made on this page: checked as the room will check it, kept as pending, and the
    /// message to send; or why it can't be made (nothing is sent).
    pub fn act(&mut self, action: Action) -> Result<Move, RoomError> {
        if self.seat.is_none() {
            return Err(RoomError::NoSuchSeat);
        }
        if self.view.rules.strict && self.clock_is_mine(Claim::Score) && matches!(action, Action::Undo | Action::Clear)
        {
            return Err(RoomError::Round(RoundError::StrictUndo));
        }
        self.board().apply(action)?;
        let m = Move::from(action);
        self.pending.push_back(m);
        Ok(m)
    }

    /// A message from the room: an event numbered `seq` (none for one sent to this member
    /// alone) at the server's time `server_now`, arriving at this page's `local_now`.
    pub fn receive(&mut self, seq: Option<u64>, server_now: u64, local_now: u64, event: RoomEvent) -> Effect {
        if let Some(seq) = seq {
            match next(self.seq, seq) {
                Next::Apply => self.seq = seq,
                Next::Seen => return Effect::Nothing,
                Next::Missed => return Effect::Reopen,
            }
        }
        self.offset = server_now as i64 - local_now as i64;
        if let Some(hw) = &mut self.homework {
            hw.offset = self.offset;
        }
        self.apply(event, server_now)
    }

    /// Applies one room event, sent at the server's time `now`.
    pub fn apply(&mut self, event: RoomEvent, now: u64) -> Effect {
        let v = &mut self.view;
        match event {
            RoomEvent::Joined { seat, name, score } => {
                v.members.retain(|m| m.seat != seat);
                v.members.push(Player { seat, name, score, away: false });
                v.members.sort_unstable_by_key(|m| m.seat);
            }
            RoomEvent::Left { seat } => {
                if let Some(m) = v.members.iter().find(|m| m.seat == seat) {
                    self.left.retain(|(s, _)| *s != seat);
                    self.left.push((seat, m.name.clone()));
                }
                v.members.retain(|m| m.seat != seat);
                if v.working.as_ref().is_some_and(|w| w.seat == seat) {
                    v.working = None;
                }
            }
            RoomEvent::Presence { seat, away } => {
                if let Some(m) = v.members.iter_mut().find(|m| m.seat == seat) {
                    m.away = away;
                }
            }
            RoomEvent::Clock { seat, claim, deadline } => {
                v.clock = Some(Clock { seat, claim, deadline });
                v.settled = false;
                v.settled_at = None;
                if claim == Claim::Score {
                    v.working = Some(Working { seat, actions: Vec::new() });
                    if Some(seat) == self.seat && !v.actions.is_empty() {
                        // The working starts from the roll; moves on their way land on it. A
                        // board already at the roll stays as it is, with the numbers its
                        // player has picked since pressing SCORE.
                        v.actions.clear();
                        return Effect::Board;
                    }
                }
            }
            RoomEvent::Board { seat, actions } => {
                if v.clock.is_some_and(|c| c.seat == seat && c.claim == Claim::Score) {
                    v.working = Some(Working { seat, actions: actions.clone() });
                }
                if Some(seat) == self.seat {
                    // The room's answer to the oldest move on its way (the room keeps a board's
                    // moves alone, so an undo comes back as one move fewer: the same board).
                    let before = self.board();
                    self.pending.pop_front();
                    self.view.actions = actions;
                    return if self.board() == before { Effect::Nothing } else { Effect::Board };
                }
            }
            RoomEvent::Results { outcomes, scores, clock } => {
                v.results = outcomes;
                v.clock = clock;
                v.settled = clock.is_none();
                // Settled now: auto-deal counts from here.
                v.settled_at = if v.settled { v.settled_at.or(Some(now)) } else { None };
                for s in scores {
                    if let Some(m) = v.members.iter_mut().find(|m| m.seat == s.seat) {
                        m.score = s.score;
                    }
                }
            }
            RoomEvent::Rolled { roll } => {
                v.roll = roll;
                v.clock = None;
                v.settled = false;
                v.settled_at = None;
                v.results.clear();
                v.working = None;
                v.actions.clear();
                return Effect::NewRoll;
            }
            RoomEvent::Chat { name, text, .. } => {
                v.chat.push(ChatLine { name, text, teacher: false });
                if v.chat.len() > CHAT_KEPT {
                    v.chat.remove(0);
                }
            }
            RoomEvent::TeacherChat { text } => {
                v.chat.push(ChatLine { name: String::new(), text, teacher: true });
                if v.chat.len() > CHAT_KEPT {
                    v.chat.remove(0);
                }
            }
            RoomEvent::ChatCleared => v.chat.clear(),
            RoomEvent::Locked { locked } => v.locked = locked,
            RoomEvent::Kept { kept } => v.kept = kept,
            RoomEvent::Forgotten { name } => {
                v.chat.retain(|c| c.teacher || c.name != name);
                crate::room::forget_in(&mut v.results, &name);
                v.results.retain(|o| o.name != name);
                self.left.retain(|(_, n)| *n != name);
            }
            RoomEvent::Homework { info } => v.homework = info,
            RoomEvent::HomeworkRows { rows } => v.homework_rows = rows,
            RoomEvent::HomeworkRun { run } => {
                v.run = run;
                self.homework = Mirror::of_run(&self.view, self.offset);
                return Effect::Homework;
            }
            RoomEvent::HomeworkPlay { event } => {
                let Some(hw) = &mut self.homework else { return Effect::Nothing };
                let effect = hw.apply(*event, now);
                if let Some(run) = &mut v.run {
                    *run.view = hw.view.clone();
                }
                return if effect == Effect::Nothing { Effect::Nothing } else { Effect::Homework };
            }
            RoomEvent::Lesson { lesson } => {
                v.lesson = lesson;
                v.members.iter_mut().for_each(|m| m.score = 0);
            }
            RoomEvent::Rules { rules, judging } => {
                v.rules = rules;
                v.judging = judging;
            }
            RoomEvent::Language { lang } => v.lang = Some(lang),
            RoomEvent::Removed { names } => v.removed = names,
            RoomEvent::AutoDeal { secs } => {
                v.auto_deal_secs = secs;
                if v.settled {
                    v.settled_at = Some(now);
                }
            }
        }
        Effect::Nothing
    }
}

/// A board on the view's roll and rules after `actions` (a move that no longer fits is skipped).
fn replay<'a>(view: &View, actions: impl Iterator<Item = &'a Move>) -> Board {
    crate::room::replay(&view.roll, &view.rules, actions.map(|&m| m.into()))
}
