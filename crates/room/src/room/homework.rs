//! Homework for a kept class (docs/RULES.md §5): rolls the teacher sets, each student playing
//! them alone at their own pace, before a due date.
//!
//! A student's homework is a [`Run`]: a room of one (seat 0) dealt the assignment's rolls in
//! order, kept with their [`Member`] record (so it leaves and comes back with them, and
//! survives a restart). Every claim and move is judged by that room exactly as in class, with
//! the assignment's clocks; a roll left mid-clock is settled by its clock (the class room's
//! tick ticks every run). A roll is dealt once: the run only goes forward, so no roll is
//! played again for points. The rolls and their verdicts stay on the server; a student's
//! page gets the roll on their table and nothing else.
//!
//! Homework at each student's level deals from a pool of rolls with a solution, spread over
//! the five levels (so many each that a student may spend every roll at one level): each
//! student's next roll is the one of the pool they haven't had whose rating is nearest the
//! roll they make three times in four, by their rating in the class as it stands after the
//! roll before (`score_engine::elo::target_rating`).

use score_engine::elo::{self, Ability};
use score_engine::{Phase, Puzzle, Rules};
use serde::{Deserialize, Serialize};

use super::{everyone, push_latest, Deal, Input, LessonRecord, Member, Out, Room, RoomError, Saved, To, LESSONS_KEPT};
use crate::protocol::{Claim, HomeworkCommand, HomeworkInfo, HomeworkRow, HomeworkRun, RoomEvent, Tally};
use crate::ratings::RollRating;

/// Most rolls in one assignment (a worksheet's most).
pub const MAX_HOMEWORK: usize = score_engine::practice::MAX_WORKSHEET;

/// An untimed assignment's SCORE clock: a day, so it is no race.
pub const UNTIMED_SECS: u32 = 86_400;

/// The latest due date: this long after the homework is set, ms.
pub const MAX_DUE_MS: u64 = 366 * 86_400_000;

/// The seat a student sits in their own room of one.
const ALONE: usize = 0;

/// Homework at each student's level: rolls in its pool at each level, at the least.
pub const MIN_POOL_PER_LEVEL: usize = 6;

/// Homework at each student's level of `count` rolls: rolls in its pool at each level, as
/// many as a student plays (so they may play every roll at one level), and at least
/// [`MIN_POOL_PER_LEVEL`].
pub fn pool_per_level(count: usize) -> usize {
    count.clamp(MIN_POOL_PER_LEVEL, MAX_HOMEWORK)
}

/// Homework at each student's level: the most rolls in its pool.
pub const MAX_POOL: usize = 5 * MAX_HOMEWORK;

/// Homework at each student's level: a student's next roll is one of this many nearest their
/// target, by their name and how far they are (classmates of one rating, as a new class all
/// is, are spread over this many rolls rather than all dealt one).
const NEAREST: usize = 5;

/// The class's homework: its rolls (with their verdicts: never sent to a page), clocks and
/// due date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignment {
    /// Counted from 1 in the class.
    pub number: u32,
    /// The lesson under way when it was set (the Progress shows it after that lesson).
    pub lesson: u32,
    /// The rolls, in the order each student plays them.
    pub deals: Vec<Deal>,
    /// The rules they were dealt for, with the homework's clocks (the class may change its
    /// own rules meanwhile).
    pub rules: Rules,
    /// No race: the SCORE clock runs a day, IMPOSSIBLE is judged at once.
    pub untimed: bool,
    /// Every roll was chosen with a solution (at a difficulty).
    pub solvable: bool,
    /// Due (server ms): no roll is dealt, and no claim made, after it.
    pub due: u64,
    /// Closed by the teacher.
    #[serde(default)]
    pub closed: bool,
    /// At each student's level: `deals` is the pool each student's rolls are chosen from, as
    /// they play, and `count` rolls are each one's homework.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adaptive: bool,
    /// At each student's level: the rolls each student plays.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub count: u32,
    /// At each student's level: the model's rating of each roll of the pool (the class's
    /// rating of a roll, once it has one, is used instead).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rated: Vec<Ability>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Assignment {
    /// Homework of `deals`, dealt for `rules` (with the homework's clocks); the class numbers
    /// it when it is set.
    pub fn new(deals: Vec<Deal>, rules: &Rules, untimed: bool, solvable: bool, due: u64) -> Assignment {
        Assignment {
            number: 0,
            lesson: 0,
            deals,
            rules: rules.clone(),
            untimed,
            solvable,
            due,
            closed: false,
            adaptive: false,
            count: 0,
            rated: Vec::new(),
        }
    }

    /// Homework at each student's level: `count` rolls each, chosen as they play from `pool`
    /// (rolls with a solution, each with the model's rating).
    pub fn at_each_level(pool: Vec<(Deal, Ability)>, count: u32, rules: &Rules, untimed: bool, due: u64) -> Assignment {
        let (deals, rated) = pool.into_iter().unzip();
        Assignment { adaptive: true, count, rated, ..Assignment::new(deals, rules, untimed, true, due) }
    }

    /// How many rolls each student plays.
    pub fn rolls(&self) -> usize {
        if self.adaptive {
            self.count as usize
        } else {
            self.deals.len()
        }
    }

    /// Why it can't be set at `now`: no rolls or too many, or a due date past or over a year
    /// away (at each student's level: a pool too small, too big, not rated or with a roll that
    /// has no solution).
    pub fn check(&self, now: u64) -> Result<(), RoomError> {
        let n = self.rolls();
        if n == 0 || n > MAX_HOMEWORK {
            return Err(RoomError::HomeworkCount);
        }
        let pool_fits = self.deals.len() >= n
            && self.deals.len() <= MAX_POOL
            && self.rated.len() == self.deals.len()
            && self.deals.iter().all(|d| d.solution.is_some());
        if self.adaptive && !pool_fits {
            return Err(RoomError::HomeworkCount);
        }
        Assignment::check_due(self.due, now)
    }

    /// Why homework due at `due` can't be set at `now`: a due date past, or over a year away
    /// (checked before any roll is dealt for it, too).
    pub fn check_due(due: u64, now: u64) -> Result<(), RoomError> {
        if due <= now || due > now.saturating_add(MAX_DUE_MS) {
            return Err(RoomError::HomeworkDue);
        }
        Ok(())
    }

    /// What everyone may know of it.
    pub fn info(&self) -> HomeworkInfo {
        HomeworkInfo {
            number: self.number,
            rolls: self.rolls() as u32,
            score_secs: self.rules.score_secs,
            impossible_secs: self.rules.impossible_secs,
            untimed: self.untimed,
            solvable: self.solvable,
            adaptive: self.adaptive,
            due: self.due,
            closed: self.closed,
        }
    }

    /// The roll on `run`'s table.
    fn deal_of(&self, run: &Run) -> Option<&Deal> {
        if self.adaptive {
            self.deals.get(*run.picked.get(run.at)? as usize)
        } else {
            self.deals.get(run.at)
        }
    }

    /// At each student's level: the roll of the pool to deal next to the student called
    /// `name`, of rating `player`, who has had the rolls `picked`: of those they haven't had,
    /// one of the [`NEAREST`] rated nearest the roll they make three times in four (by the
    /// class's rating of a roll where it has one, else the model's).
    pub fn pick(&self, name: &str, player: Ability, picked: &[u32], class: &[RollRating]) -> Option<u32> {
        let target = elo::target_rating(player.rating);
        let goal = self.rules.goal;
        let mut near: Vec<(f64, u32)> = (0..self.deals.len() as u32)
            .filter(|i| !picked.contains(i))
            .map(|i| {
                let deal = &self.deals[i as usize];
                let key = crate::protocol::sorted(&deal.roll);
                let rating = class
                    .iter()
                    .find(|r| r.is(&key, goal))
                    .map_or(self.rated.get(i as usize).map_or(0.0, |a| a.rating), |r| r.ability.rating);
                ((rating - target).abs(), i)
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        near.truncate(NEAREST);
        // FNV-1a of the name and the roll's place: the same student is dealt the same roll
        // again after a restart, and classmates of one rating mostly differ.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes().chain((picked.len() as u32).to_le_bytes()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        near.get((hash % near.len().max(1) as u64) as usize).map(|&(_, i)| i)
    }

    /// Whether a roll may still be dealt or claimed at `now`.
    pub(super) fn open(&self, now: u64) -> bool {
        !self.closed && now < self.due
    }

    /// The rules its rolls are played under (an untimed one's SCORE clock runs a day).
    fn play_rules(&self) -> Rules {
        let score_secs = if self.untimed { UNTIMED_SECS } else { self.rules.score_secs };
        Rules { score_secs, ..self.rules.clone() }
    }
}

/// A homework command played: its events, or why it was refused with the events that must
/// still reach the page.
type Played = Result<Vec<Out>, (RoomError, Vec<Out>)>;

/// One student's homework: where they are in it and their room of one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The assignment it is of.
    pub number: u32,
    /// The roll on the table, counted from 0.
    pub at: usize,
    /// The last roll is behind them.
    pub done: bool,
    /// Their room of one (seat 0), as stored.
    pub room: Box<Saved>,
    /// At each student's level: the rolls of the pool dealt to them, in order (the one on the
    /// table last).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picked: Vec<u32>,
}

impl Run {
    /// The run as its room, boards replayed (a clock that ran out by `now` settled).
    fn open(&self, deal: &Deal, now: u64) -> (Room, Vec<Out>) {
        let mut room = self.rebuilt(deal, now);
        let out = room.tick(now);
        (room, out)
    }

    /// The run as its room, as stored: what its page is shown until the room ticks.
    fn rebuilt(&self, deal: &Deal, now: u64) -> Room {
        let mut saved = (*self.room).clone();
        // The verdict is the assignment's, never what was stored with the run.
        saved.solution = deal.solution.clone();
        saved.solved = true;
        // Its one member is the student playing it: never away (a stored member reads back as
        // away, and a roll dealt to one away isn't counted).
        for m in saved.seats.iter_mut().flatten() {
            m.away = false;
        }
        Room::rebuild(saved, now)
    }

    /// What they did in it so far (their rating is the class's: [`Member::rating`], not
    /// the teacher's live homework lines', which change only as the run is played).
    pub fn tally(&self) -> Tally {
        let tally = self.room.seats.first().and_then(Option::as_ref).map(Member::tally).unwrap_or_default();
        Tally { rating: None, ..tally }
    }

    /// Whether anything was claimed in it (a result): only then is it kept with its student
    /// when they leave, and a line of their Progress (a run only started, or rolls only
    /// passed over, is no record: joining and pressing Start under name after name holds
    /// nobody's place).
    pub fn claimed(&self) -> bool {
        let t = self.tally();
        t.scores_made + t.scores_failed + t.impossible_right + t.impossible_wrong > 0
    }

    /// Whether it is kept with its student when they leave: it holds a result, or a clock
    /// still runs on it (its result will be theirs).
    pub fn worth_keeping(&self) -> bool {
        self.claimed() || self.room.round.is_running()
    }

    /// Rolls behind them: settled, or passed over.
    fn played(&self) -> u32 {
        let on_table = self.room.round.phase() == Phase::Over;
        self.at as u32 + u32::from(on_table || self.done)
    }
}

impl Member {
    /// Their homework line for the teacher.
    pub fn homework_row(&self) -> Option<HomeworkRow> {
        let run = self.homework.as_ref()?;
        Some(HomeworkRow { name: self.name.clone(), played: run.played(), done: run.done, tally: run.tally() })
    }
}

impl Room {
    /// The class's homework, if any.
    pub fn homework(&self) -> Option<&Assignment> {
        self.saved.homework.as_ref()
    }

    /// Every student's homework line, members by seat, then those who left.
    pub fn homework_rows(&self) -> Vec<HomeworkRow> {
        self.members_and_gone().filter_map(Member::homework_row).collect()
    }

    /// `seat`'s homework as their page shows it.
    pub(super) fn run_view(&self, seat: usize, now: u64) -> Option<Box<HomeworkRun>> {
        let run = self.member(seat).ok()?.homework.as_ref()?;
        let deal = self.saved.homework.as_ref()?.deal_of(run)?;
        let room = run.rebuilt(deal, now);
        Some(Box::new(HomeworkRun {
            at: run.at as u32,
            done: run.done,
            tally: run.tally(),
            view: Box::new(room.view(Some(ALONE), now)),
        }))
    }

    /// `seat`'s homework board as the room holds it, for that member alone (the answer to a
    /// move refused before the room saw it).
    pub fn homework_board_event(&self, seat: usize) -> Option<Out> {
        let run = self.member(seat).ok()?.homework.as_ref()?;
        let deal = self.saved.homework.as_ref()?.deal_of(run)?;
        let board = run.rebuilt(deal, 0).board_event(ALONE).event;
        Some(Out { to: To::Seat(seat), event: RoomEvent::HomeworkPlay { event: Box::new(board) } })
    }

    /// Host: new homework (its rolls dealt, with verdicts, by the caller). Any before it is
    /// closed, each student's run kept as a row of their Progress.
    pub(super) fn set_homework(&mut self, mut assignment: Assignment, now: u64) -> Result<Vec<Out>, RoomError> {
        if !self.saved.kept {
            return Err(RoomError::NotKept);
        }
        assignment.check(now)?;
        let mut out = self.close_homework(now);
        assignment.number = self.saved.homework_set + 1;
        assignment.lesson = self.saved.lesson;
        assignment.closed = false;
        self.saved.homework_set = assignment.number;
        out.push(everyone(RoomEvent::Homework { info: Some(assignment.info()) }));
        self.saved.homework = Some(assignment);
        out.push(self.rows_event());
        Ok(out)
    }

    /// Host: close the homework now (it stays listed, closed, with everyone's lines).
    pub(super) fn end_homework(&mut self) -> Result<Vec<Out>, RoomError> {
        let hw = self.saved.homework.as_mut().ok_or(RoomError::NoHomework)?;
        if hw.closed {
            return Ok(Vec::new());
        }
        hw.closed = true;
        Ok(vec![everyone(RoomEvent::Homework { info: Some(hw.info()) })])
    }

    /// Closes the homework set before: a clock still running on a run is settled now (a SCORE
    /// fails, an IMPOSSIBLE claim is judged), each run with a result becomes a past row of its
    /// member's Progress, and every page's run is emptied.
    fn close_homework(&mut self, now: u64) -> Vec<Out> {
        let Some(old) = self.saved.homework.take() else { return Vec::new() };
        let mut out = Vec::new();
        // Each run's rolls join the class's counts now that nobody can play them any more.
        let mut stats = Vec::new();
        let rolls = &mut self.saved.roll_ratings;
        let mut close = |m: &mut Member| {
            let mut run = m.homework.take()?;
            if let Some(deal) = old.deal_of(&run).filter(|_| run.room.round.is_running()) {
                let (mut room, _) = run.open(deal, now);
                let _ = room.round(score_engine::Input::Abandon, now);
                // What settled on the way (a clock that ran out) moves the class's ratings.
                let before = std::mem::replace(&mut *run.room, room.saved);
                crate::ratings::run_stored(m, rolls, Some(&before), &mut run.room);
            }
            if run.claimed() {
                let tally = Tally { rating: crate::ratings::stored(m.rating), ..run.tally() };
                let record = LessonRecord { lesson: old.lesson, homework: Some(old.number), tally };
                push_latest(&mut m.lessons, record, LESSONS_KEPT);
            }
            super::rolls::add(&mut stats, &run.room.roll_stats, !old.untimed);
            Some(())
        };
        for (seat, m) in self.saved.seats.iter_mut().enumerate() {
            if let Some(m) = m {
                if close(m).is_some() {
                    out.push(Out { to: To::Seat(seat), event: RoomEvent::HomeworkRun { run: None } });
                }
            }
        }
        self.saved.gone.iter_mut().for_each(|g| {
            close(&mut g.member);
        });
        super::rolls::add(&mut self.saved.roll_stats, &stats, true);
        out
    }

    /// The teacher's homework lines, to the host screens.
    pub(super) fn rows_event(&self) -> Out {
        Out { to: To::Hosts, event: RoomEvent::HomeworkRows { rows: self.homework_rows() } }
    }

    /// A student's command on their homework: the events, or why it was refused with the
    /// events that must still reach their page (a clock settled on the way, the board's answer
    /// to a refused move).
    pub(super) fn homework_input(
        &mut self,
        seat: usize,
        command: HomeworkCommand,
        now: u64,
    ) -> Result<Vec<Out>, (RoomError, Vec<Out>)> {
        self.homework_play(seat, command, now).map_err(|e| (e, Vec::new()))?
    }

    fn homework_play(&mut self, seat: usize, command: HomeworkCommand, now: u64) -> Result<Played, RoomError> {
        let member = self.member(seat)?;
        let hw = self.saved.homework.as_ref().ok_or(RoomError::NoHomework)?;
        let open = hw.open(now);
        let Some(run) = member.homework.clone() else {
            // Only Start begins a run, and only while the homework is open.
            if command != HomeworkCommand::Start {
                return Err(RoomError::HomeworkNotStarted);
            }
            if !open {
                return Err(RoomError::HomeworkOver);
            }
            // At each student's level, the first roll is chosen by their rating in the class.
            let picked = match hw.adaptive {
                true => vec![hw
                    .pick(&member.name, member.rating, &[], &self.saved.roll_ratings)
                    .ok_or(RoomError::NoHomework)?],
                false => Vec::new(),
            };
            let first = picked.first().map_or(0, |&i| i as usize);
            let mut room = Room::new(hw.play_rules(), true, hw.deals[first].clone()).dealt(now);
            room.join(&member.name, None)?;
            let run = Run { number: hw.number, at: 0, done: false, room: Box::new(room.saved.clone()), picked };
            self.set_run(seat, run);
            return Ok(Ok(vec![self.run_event(seat, now), self.rows_event()]));
        };
        let deal = hw.deal_of(&run).cloned().ok_or(RoomError::NoHomework)?;
        let untimed = hw.untimed;
        let (mut room, mut settled) = run.open(&deal, now);
        let phase = room.phase();
        let input = match command {
            // Going on where it was left: the run as it is.
            HomeworkCommand::Start => None,
            HomeworkCommand::Next => {
                if run.done {
                    return Err(RoomError::HomeworkDone);
                }
                if matches!(phase, Phase::Score { .. } | Phase::Impossible(_)) {
                    return Err(RoomError::ClockRunning);
                }
                let last = run.at + 1 == hw.rolls();
                // Passed over unclaimed and unmade: a roll they didn't find (as New roll alone).
                if phase == Phase::Open && open {
                    if let Some(dealt) = room.saved.dealt_at {
                        let name = member.name.clone();
                        crate::ratings::passed(&mut room.saved.unrated, name, now.saturating_sub(dealt));
                        crate::ratings::settle(&mut room.saved);
                    }
                }
                let mut run = run;
                // The last roll behind them, or the homework due or closed (no roll is dealt
                // then): it is done, and they see what they made of it.
                if last || !open {
                    run.done = true;
                } else {
                    run.at += 1;
                    // At each student's level, by their rating after this roll (passed over
                    // just now, or settled before).
                    let next = if hw.adaptive {
                        let player = crate::ratings::run_rating(member.rating, &run.room, &room.saved);
                        let class = &self.saved.roll_ratings;
                        let i = hw.pick(&member.name, player, &run.picked, class).ok_or(RoomError::NoHomework)?;
                        run.picked.push(i);
                        i as usize
                    } else {
                        run.at
                    };
                    // Whatever this roll was (passed over unclaimed, or settled), the next is dealt.
                    room.apply(Input::NewRoll { deal: hw.deals[next].clone() }, now).map_err(|r| r.error)?;
                }
                run.room = Box::new(room.saved.clone());
                self.set_run(seat, run);
                return Ok(Ok(vec![self.run_event(seat, now), self.rows_event()]));
            }
            HomeworkCommand::Claim { .. } | HomeworkCommand::Reveal | HomeworkCommand::GiveUp if run.done => {
                return Err(RoomError::HomeworkDone)
            }
            HomeworkCommand::Claim { .. } if !open => return Err(RoomError::HomeworkOver),
            HomeworkCommand::Claim { claim } => Some(Input::Claim { seat: ALONE, claim }),
            HomeworkCommand::Reveal => Some(Input::RevealNow { seat: ALONE }),
            HomeworkCommand::GiveUp => Some(Input::GiveUp { seat: ALONE }),
            HomeworkCommand::Act { action } => Some(Input::Act { seat: ALONE, action: action.into() }),
        };
        let refused = match input {
            None => None,
            Some(input) => {
                let impossible = input == Input::Claim { seat: ALONE, claim: Claim::Impossible };
                match room.apply(input, now) {
                    Ok(more) => {
                        settled.extend(more);
                        // Untimed: nobody else could beat the claim, so it is judged at once.
                        if impossible && untimed {
                            settled.extend(room.apply(Input::RevealNow { seat: ALONE }, now).unwrap_or_default());
                        }
                        None
                    }
                    Err(r) => {
                        settled.extend(r.settled);
                        settled.extend(r.board.map(|b| *b));
                        Some(r.error)
                    }
                }
            }
        };
        let mut run = run;
        run.room = Box::new(room.saved.clone());
        self.set_run(seat, run);
        // Start on a run under way sends it again, to its student alone (nothing changed,
        // unless a clock ran out on the way).
        let resent = command == HomeworkCommand::Start && settled.is_empty();
        let mut out = if command == HomeworkCommand::Start {
            vec![self.run_event(seat, now)]
        } else {
            self.forward(seat, settled, now)
        };
        if resent {
            return Ok(Ok(out));
        }
        if out.iter().any(|o| matches!(o.event, RoomEvent::HomeworkRun { .. })) {
            out.push(self.rows_event());
        }
        // Refused: what was settled on the way, and the board's answer, still reach the page.
        Ok(match refused {
            Some(error) => Err((error, out)),
            None => Ok(out),
        })
    }

    /// A run's room events, to its student: as they are, or (a result, which changes the
    /// run's tally) the whole run afresh.
    fn forward(&self, seat: usize, outs: Vec<Out>, now: u64) -> Vec<Out> {
        if outs.is_empty() {
            return outs;
        }
        if outs.iter().any(|o| matches!(o.event, RoomEvent::Results { .. })) {
            return vec![self.run_event(seat, now)];
        }
        let play = |o: Out| Out { to: To::Seat(seat), event: RoomEvent::HomeworkPlay { event: Box::new(o.event) } };
        outs.into_iter().map(play).collect()
    }

    fn run_event(&self, seat: usize, now: u64) -> Out {
        Out { to: To::Seat(seat), event: RoomEvent::HomeworkRun { run: self.run_view(seat, now) } }
    }

    fn set_run(&mut self, seat: usize, mut run: Run) {
        if let Some(Some(m)) = self.saved.seats.get_mut(seat) {
            let before = m.homework.take();
            let rolls = &mut self.saved.roll_ratings;
            crate::ratings::run_stored(m, rolls, before.as_ref().map(|b| &*b.room), &mut run.room);
            m.homework = Some(run);
        }
    }

    /// Settles the homework clocks that ran out by `now` (of members here, and of those who
    /// left: their result is theirs).
    pub(super) fn tick_homework(&mut self, now: u64) -> Vec<Out> {
        let Some(number) = self.saved.homework.as_ref().map(|h| h.number) else { return Vec::new() };
        let due = |run: &Run| run.number == number && run.room.round.deadline().is_some_and(|d| d <= now);
        // Only the runs whose clock ran out are looked at (and copied): most ticks, none.
        let seats: Vec<usize> = (0..self.saved.seats.len())
            .filter(|&s| self.saved.seats[s].as_ref().and_then(|m| m.homework.as_ref()).is_some_and(due))
            .collect();
        let gone = self.saved.gone.iter().any(|g| g.member.homework.as_ref().is_some_and(due));
        if seats.is_empty() && !gone {
            return Vec::new();
        }
        let Some(hw) = self.saved.homework.clone() else { return Vec::new() };
        let mut out = Vec::new();
        for seat in seats {
            let Some(run) = self.saved.seats[seat].as_ref().and_then(|m| m.homework.clone()) else { continue };
            let Some(deal) = hw.deal_of(&run) else { continue };
            let (room, settled) = run.open(deal, now);
            self.set_run(seat, Run { room: Box::new(room.saved.clone()), ..run });
            out.extend(self.forward(seat, settled, now));
        }
        for g in &mut self.saved.gone {
            let Some(mut run) = g.member.homework.take_if(|r| due(r)) else { continue };
            if let Some(deal) = hw.deal_of(&run) {
                let (room, _) = run.open(deal, now);
                let before = std::mem::replace(&mut *run.room, room.saved);
                crate::ratings::run_stored(&mut g.member, &mut self.saved.roll_ratings, Some(&before), &mut run.room);
            }
            g.member.homework = Some(run);
        }
        out.push(self.rows_event());
        out
    }
}

/// Why homework at each student's level couldn't be dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolError {
    /// More dice than a class rates play on ([`crate::ratings::MAX_RATED_DICE`]).
    NotRated,
    /// Too few rolls with a solution turned up at this level (the first short of its share).
    Short(u8),
}

/// Homework at each student's level of `count` rolls: its pool, drawn with `next_u32`:
/// [`pool_per_level`] distinct rolls with a solution at each level these dice hold, each with
/// the model's rating. The caller deals it outside any room's lock (it rates hundreds of rolls).
pub fn pool(rules: &Rules, count: usize, mut next_u32: impl FnMut() -> u32) -> Result<Vec<(Deal, Ability)>, PoolError> {
    use score_engine::difficulty::{rate_roll, Levels};
    if rules.dice.len() > crate::ratings::MAX_RATED_DICE {
        return Err(PoolError::NotRated);
    }
    let levels = Levels::of(rules);
    let per_level = pool_per_level(count);
    let mut seen = std::collections::HashSet::new();
    let mut pool = Vec::new();
    let mut short = None;
    for level in 1..=5u8 {
        let sheet = score_engine::practice::worksheet(rules, per_level, Some(level), &mut next_u32).unwrap_or_default();
        let before = pool.len();
        for item in sheet {
            if !seen.insert(crate::protocol::sorted(&item.roll)) {
                continue;
            }
            let Some(rated) = rate_roll(&item.roll, rules) else { continue };
            let ability = Ability::start(elo::roll_rating(rated.seconds, &levels));
            pool.push((Deal::new(item.roll, rules), ability));
        }
        if pool.len() - before < per_level && levels.holds(level) {
            short.get_or_insert(level);
        }
    }
    // A level the dice hold too few of is made up by the others, as long as every student
    // still has rolls enough.
    let enough = pool.len() >= count.max(1) && (short.is_none() || pool.len() >= 2 * count);
    match short {
        _ if enough => Ok(pool),
        short => Err(PoolError::Short(short.unwrap_or(1))),
    }
}

/// Whether `roll` has a solution under `rules` (the solver's verdict, for a roll the teacher
/// typed; the caller deals, outside any lock).
pub fn solvable(roll: &[i64], rules: &Rules) -> bool {
    score_engine::solve::simplest(&Puzzle::from_roll(roll, rules)).is_some()
}

#[cfg(test)]
mod tests {
    use score_engine::{Action, Op, TileId};

    use super::*;
    use crate::protocol::{Claim, Move};

    const DAY: u64 = 86_400_000;

    fn deal(roll: &[i64]) -> Deal {
        Deal::new(roll.to_vec(), &Rules::default())
    }

    /// A roll of the default dice with no solution.
    fn impossible_roll() -> Vec<i64> {
        let mut found = None;
        score_engine::roll::for_each_sorted_roll(&Rules::default().dice, |r| {
            if found.is_none() && !solvable(r, &Rules::default()) {
                found = Some(r.to_vec());
            }
        });
        found.expect("the default dice have impossible rolls")
    }

    /// A kept class of Ana (seat 0) and Ben (seat 1), set homework of `rolls` due in a week.
    fn class(rolls: &[&[i64]], untimed: bool) -> Room {
        let mut r = Room::new(Rules::default(), true, deal(&[1, 1, 1, 1]));
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        for name in ["Ana", "Ben"] {
            r.apply(Input::Join { name: name.into() }, 0).unwrap();
        }
        let deals = rolls.iter().map(|r| deal(r)).collect();
        let assignment = Assignment::new(deals, &Rules::default(), untimed, false, 7 * DAY);
        r.apply(Input::SetHomework { assignment }, 0).unwrap();
        r
    }

    fn hw(r: &mut Room, seat: usize, command: HomeworkCommand, now: u64) -> Result<Vec<Out>, RoomError> {
        r.apply(Input::Homework { seat, command }, now).map_err(|e| e.error)
    }

    fn combine(left: u32, op: Op, right: u32) -> HomeworkCommand {
        HomeworkCommand::Act { action: Move::from(Action::Combine { left: TileId(left), op, right: TileId(right) }) }
    }

    /// 12 − 12 = 0, then 2‖0 = 20, on 2 5 12 12.
    fn solve(r: &mut Room, seat: usize, now: u64) -> Vec<Out> {
        hw(r, seat, combine(2, Op::Sub, 3), now).unwrap();
        hw(r, seat, combine(0, Op::Concat, 4), now).unwrap()
    }

    fn run(r: &Room, seat: usize) -> Run {
        r.member(seat).unwrap().homework.clone().expect("started")
    }

    const SCORE: HomeworkCommand = HomeworkCommand::Claim { claim: Claim::Score };
    const IMPOSSIBLE: HomeworkCommand = HomeworkCommand::Claim { claim: Claim::Impossible };

    // The report's Hardest rolls never show an open homework's rolls (a projector may show
    // the report while students still have them to play): they join the class's when it closes.
    #[test]
    fn homework_rolls_join_the_hardest_only_once_the_homework_is_closed() {
        let mut r = class(&[&[2, 5, 12, 12]], false);
        hw(&mut r, 0, HomeworkCommand::Start, 1_000).unwrap();
        hw(&mut r, 0, SCORE, 2_000).unwrap();
        solve(&mut r, 0, 9_000);
        hw(&mut r, 1, HomeworkCommand::Start, 1_000).unwrap();
        hw(&mut r, 1, IMPOSSIBLE, 2_000).unwrap();
        hw(&mut r, 1, HomeworkCommand::Reveal, 3_000).unwrap();
        assert_eq!(r.hardest(9_500), [], "open: none of its rolls");
        assert_eq!(r.hardest(8 * DAY)[0].missed, 1, "due: its rolls");
        r.apply(Input::EndHomework, 10_000).unwrap();
        let hard = r.hardest(10_000);
        assert_eq!(hard.len(), 1);
        let h = &hard[0];
        assert_eq!((h.roll.clone(), h.made, h.missed, h.median_made_ms), (vec![2, 5, 12, 12], 1, 1, Some(7_000)));
        // The class's own table counts as each result is settled.
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 11_000).unwrap();
        r.apply(Input::Claim { seat: 0, claim: Claim::Score }, 11_000).unwrap();
        r.apply(Input::GiveUp { seat: 0 }, 12_000).unwrap();
        assert_eq!(r.hardest(12_000)[0].missed, 2);
        // Dealt again, it is out of the report until it is settled again.
        r.apply(Input::NewRoll { deal: deal(&[12, 2, 5, 12]) }, 12_500).unwrap();
        assert_eq!(r.hardest(12_500), []);
        r.apply(Input::Claim { seat: 1, claim: Claim::Score }, 12_600).unwrap();
        assert_eq!(r.hardest(12_600), [], "a SCORE clock running");
        r.apply(Input::GiveUp { seat: 1 }, 12_700).unwrap();
        assert_eq!(r.hardest(12_700)[0].missed, 3);
        // Homework of a roll the class has played: out of the report while it is open.
        let assignment = Assignment::new(vec![deal(&[2, 5, 12, 12])], &Rules::default(), true, false, 7 * DAY);
        r.apply(Input::SetHomework { assignment }, 12_800).unwrap();
        assert_eq!(r.hardest(12_800), []);
        hw(&mut r, 0, HomeworkCommand::Start, 12_900).unwrap();
        hw(&mut r, 0, SCORE, 12_900).unwrap();
        solve(&mut r, 0, 3_612_900);
        assert_eq!(r.hardest(3_613_000), []);
        // Over: the run's made SCORE counts, but an untimed homework's hour says nothing of
        // the roll's difficulty.
        r.apply(Input::EndHomework, 3_613_000).unwrap();
        let h = &r.hardest(3_613_000)[0];
        assert_eq!((h.made, h.missed, h.median_made_ms), (2, 3, Some(7_000)));
        // Another homework set: the last one's rolls are the class's for good.
        let assignment = Assignment::new(vec![deal(&[1, 1, 1, 4])], &Rules::default(), false, false, 7 * DAY);
        r.apply(Input::SetHomework { assignment }, 3_614_000).unwrap();
        assert_eq!(r.hardest(3_614_000)[0].missed, 3);
        assert_eq!(r.saved().roll_stats[0].made, 2);
        assert_eq!(r.saved().roll_stats[0].made_ms, [7_000]);
    }

    /// A homework SCORE moves its student's class rating and the roll's, as in class; play
    /// in class meanwhile is kept, not overwritten by the run's copy.
    #[test]
    fn homework_scores_move_the_class_ratings() {
        let mut r = class(&[&[2, 5, 12, 12], &[2, 5, 12, 12], &[9, 9, 9, 9]], false);
        let rating = |r: &Room| r.saved().seats[0].as_ref().unwrap().rating;
        hw(&mut r, 0, HomeworkCommand::Start, 1_000).unwrap();
        hw(&mut r, 0, SCORE, 2_000).unwrap();
        solve(&mut r, 0, 4_000);
        let first = rating(&r);
        assert!(first.rating > 0.0 && first.answers == 1, "{first:?}");
        assert_eq!(r.saved().roll_ratings.len(), 1);
        let roll = r.saved().roll_ratings[0].ability;
        // In class, Ana's SCORE runs out: her class rating falls.
        r.apply(Input::NewRoll { deal: deal(&[2, 5, 12, 12]) }, 5_000).unwrap();
        r.apply(Input::Claim { seat: 0, claim: Claim::Score }, 5_000).unwrap();
        r.tick(40_000);
        let fell = rating(&r);
        assert!(fell.rating < first.rating && fell.answers == 2, "{fell:?}");
        // The next homework roll, made quickly: it moves from there, not from the run's copy.
        hw(&mut r, 0, HomeworkCommand::Next, 41_000).unwrap();
        hw(&mut r, 0, SCORE, 42_000).unwrap();
        solve(&mut r, 0, 43_000);
        let again = rating(&r);
        assert!(again.rating > fell.rating && again.answers == 3, "{again:?}");
        assert!(r.saved().roll_ratings[0].ability.answers == 3 && r.saved().roll_ratings[0].ability != roll);
        // The last roll passed over after a second, unclaimed: a roll she didn't find.
        hw(&mut r, 0, HomeworkCommand::Next, 44_000).unwrap();
        hw(&mut r, 0, HomeworkCommand::Next, 45_000).unwrap();
        let passed = rating(&r);
        assert!(passed.rating < again.rating && passed.answers == 4, "{passed:?}");
    }

    #[test]
    fn each_student_plays_the_rolls_alone_at_their_own_pace_judged_as_in_class() {
        let mut r = class(&[&[2, 5, 12, 12], &[2, 5, 12, 12]], false);
        let out = hw(&mut r, 0, HomeworkCommand::Start, 1_000).unwrap();
        // To Ana alone, and her line to the teacher's screens; nothing to Ben.
        assert!(out.iter().all(|o| o.to == To::Seat(0) || o.to == To::Hosts), "{out:?}");
        hw(&mut r, 0, SCORE, 2_000).unwrap();
        let out = solve(&mut r, 0, 9_000);
        let Some(RoomEvent::HomeworkRun { run: Some(shown) }) = out.first().map(|o| &o.event) else {
            panic!("{out:?}")
        };
        assert_eq!((shown.tally.points, shown.tally.scores_made, shown.tally.median_score_ms), (1, 1, Some(7_000)));
        assert!(shown.view.settled);
        // The class's table and scores are untouched.
        assert_eq!(r.member(0).unwrap().score, 0);
        assert_eq!(r.phase(), Phase::Open);
        // Ben starts later on his own first roll, with its own clock.
        hw(&mut r, 1, HomeworkCommand::Start, 50_000).unwrap();
        hw(&mut r, 1, SCORE, 50_000).unwrap();
        assert_eq!(run(&r, 1).room.round.deadline(), Some(80_000));
        assert_eq!(run(&r, 0).at, 0);
        hw(&mut r, 0, HomeworkCommand::Next, 60_000).unwrap();
        assert_eq!(run(&r, 0).at, 1);
        let rows = r.homework_rows();
        assert_eq!((rows[0].played, rows[0].tally.points, rows[1].played), (1, 1, 0));
    }

    #[test]
    fn a_roll_left_mid_clock_is_settled_by_its_clock_and_waits_for_its_student() {
        let mut r = class(&[&[2, 5, 12, 12], &[2, 5, 12, 12]], false);
        hw(&mut r, 0, HomeworkCommand::Start, 0).unwrap();
        hw(&mut r, 0, SCORE, 1_000).unwrap();
        r.apply(Input::Leave { seat: 0 }, 2_000).unwrap();
        r.tick(40_000);
        let gone = &r.saved.gone[0].member;
        let tally = gone.homework.as_ref().unwrap().tally();
        assert_eq!((tally.points, tally.scores_failed), (-1, 1));
        // Back (the seat keeps the run), going on where it was left: the next roll.
        r.apply(Input::Join { name: "Ana".into() }, 50_000).unwrap();
        let out = hw(&mut r, 0, HomeworkCommand::Start, 50_000).unwrap();
        let Some(RoomEvent::HomeworkRun { run: Some(shown) }) = out.first().map(|o| &o.event) else { panic!() };
        assert_eq!((shown.at, shown.tally.points, shown.view.settled), (0, -1, true));
        hw(&mut r, 0, HomeworkCommand::Next, 51_000).unwrap();
        assert_eq!(run(&r, 0).at, 1);
    }

    #[test]
    fn no_roll_is_dealt_twice_nor_anything_claimed_once_it_is_due_or_closed() {
        let mut r = class(&[&[2, 5, 12, 12], &[2, 5, 12, 12]], false);
        assert_eq!(hw(&mut r, 0, SCORE, 0), Err(RoomError::HomeworkNotStarted));
        hw(&mut r, 0, HomeworkCommand::Start, 0).unwrap();
        hw(&mut r, 0, SCORE, 0).unwrap();
        assert_eq!(hw(&mut r, 0, HomeworkCommand::Next, 1), Err(RoomError::ClockRunning));
        hw(&mut r, 0, HomeworkCommand::GiveUp, 2).unwrap();
        hw(&mut r, 0, HomeworkCommand::Next, 3).unwrap();
        // The last roll, passed over: the homework is done, and nothing more is dealt.
        hw(&mut r, 0, HomeworkCommand::Next, 4).unwrap();
        assert!(run(&r, 0).done);
        assert_eq!(hw(&mut r, 0, HomeworkCommand::Next, 5), Err(RoomError::HomeworkDone));
        assert_eq!(hw(&mut r, 0, SCORE, 5), Err(RoomError::HomeworkDone));
        // Starting again goes on where it was: the same run, never a new one.
        hw(&mut r, 0, HomeworkCommand::Start, 6).unwrap();
        assert!(run(&r, 0).done);
        assert_eq!(run(&r, 0).tally().points, -1);
        // Due: Ben can't start, and can't claim.
        assert_eq!(hw(&mut r, 1, HomeworkCommand::Start, 7 * DAY), Err(RoomError::HomeworkOver));
        let mut r = class(&[&[2, 5, 12, 12], &[2, 5, 12, 12]], false);
        hw(&mut r, 1, HomeworkCommand::Start, 0).unwrap();
        r.apply(Input::EndHomework, 1).unwrap();
        assert_eq!(hw(&mut r, 1, SCORE, 2), Err(RoomError::HomeworkOver));
        // Moves are still practice on the table; Next deals nothing more: the homework is
        // done, and its student sees what they made of it.
        hw(&mut r, 1, combine(2, Op::Sub, 3), 3).unwrap();
        hw(&mut r, 1, HomeworkCommand::Next, 4).unwrap();
        assert_eq!((run(&r, 1).at, run(&r, 1).done), (0, true));
    }

    #[test]
    fn untimed_homework_has_no_race_and_judges_impossible_at_once() {
        let none = impossible_roll();
        let mut r = class(&[&none, &[2, 5, 12, 12]], true);
        hw(&mut r, 0, HomeworkCommand::Start, 0).unwrap();
        let out = hw(&mut r, 0, IMPOSSIBLE, 0).unwrap();
        assert!(out
            .iter()
            .any(|o| matches!(&o.event, RoomEvent::HomeworkRun { run: Some(run) } if run.tally.points == 1)));
        hw(&mut r, 0, HomeworkCommand::Next, 1).unwrap();
        hw(&mut r, 0, SCORE, 10).unwrap();
        assert_eq!(run(&r, 0).room.round.deadline(), Some(10 + u64::from(UNTIMED_SECS) * 1000));
        r.tick(10 * 60_000);
        solve(&mut r, 0, 10 * 60_000);
        assert_eq!(run(&r, 0).tally().points, 2);
    }

    #[test]
    fn a_new_assignment_closes_the_last_into_each_students_progress() {
        let mut r = class(&[&[2, 5, 12, 12]], false);
        hw(&mut r, 0, HomeworkCommand::Start, 0).unwrap();
        hw(&mut r, 0, SCORE, 0).unwrap();
        solve(&mut r, 0, 4_000);
        // Started and nothing claimed: a line for the teacher's live view, none in the Progress.
        // Homework is no lesson.
        hw(&mut r, 1, HomeworkCommand::Start, 0).unwrap();
        assert!(!r.lesson_played());
        assert_eq!(r.homework_rows().len(), 2);
        let progress = r.progress();
        assert_eq!(progress.len(), 1, "{progress:?}");
        assert_eq!((progress[0].homework, progress[0].lesson, progress[0].tally.points), (Some(1), 1, 1));
        // A clock running when new homework is set is settled then (Ben's SCORE fails: −1).
        hw(&mut r, 1, SCORE, 1_000).unwrap();
        let deals = vec![deal(&[2, 5, 12, 12])];
        let assignment = Assignment::new(deals, &Rules::default(), false, false, 8 * DAY);
        let out = r.apply(Input::SetHomework { assignment }, DAY).unwrap();
        assert!(out.contains(&Out { to: To::Seat(0), event: RoomEvent::HomeworkRun { run: None } }));
        assert_eq!(r.homework().map(|h| (h.number, h.lesson)), Some((2, 1)));
        assert!(r.member(0).unwrap().homework.is_none());
        let rows: Vec<_> = r.progress().into_iter().map(|p| (p.name, p.homework, p.tally.points)).collect();
        assert_eq!(rows, [("Ana".to_string(), Some(1), 1), ("Ben".to_string(), Some(1), -1)]);
    }

    #[test]
    fn the_csv_labels_homework_lines_and_a_class_no_longer_kept_closes_its_homework() {
        let mut r = class(&[&[2, 5, 12, 12]], false);
        hw(&mut r, 0, HomeworkCommand::Start, 0).unwrap();
        hw(&mut r, 0, SCORE, 0).unwrap();
        solve(&mut r, 0, 1_000);
        let csv = r.csv(&score_i18n::Catalog::english());
        assert!(csv.contains("\"Progress\",\"Ana\",\"Homework 1\",1,1,1,0,0,0,\"1.0\""), "{csv}");
        r.apply(Input::Keep { kept: false }, 2_000).unwrap();
        assert!(r.homework().unwrap().closed);
        assert_eq!(hw(&mut r, 1, HomeworkCommand::Start, 3_000), Err(RoomError::HomeworkOver));
    }

    #[test]
    fn homework_is_a_kept_class_s_with_one_to_fifty_rolls_due_within_a_year() {
        let set = |r: &mut Room, n: usize, due: u64| {
            let a = Assignment::new(vec![deal(&[2, 5, 12, 12]); n], &Rules::default(), false, false, due);
            r.apply(Input::SetHomework { assignment: a }, DAY).map_err(|e| e.error)
        };
        let mut r = Room::new(Rules::default(), true, deal(&[1, 1, 1, 1]));
        assert_eq!(set(&mut r, 3, 2 * DAY), Err(RoomError::NotKept));
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        assert_eq!(set(&mut r, 0, 2 * DAY), Err(RoomError::HomeworkCount));
        assert_eq!(set(&mut r, 51, 2 * DAY), Err(RoomError::HomeworkCount));
        assert_eq!(set(&mut r, 3, DAY), Err(RoomError::HomeworkDue));
        assert_eq!(set(&mut r, 3, DAY + MAX_DUE_MS + 1), Err(RoomError::HomeworkDue));
        assert!(r.homework().is_none());
        assert!(set(&mut r, 50, 2 * DAY).is_ok());
    }

    #[test]
    fn a_run_survives_a_restart_with_its_clock_and_its_verdict_is_never_in_a_view() {
        let none = impossible_roll();
        let mut r = class(&[&none], false);
        hw(&mut r, 0, HomeworkCommand::Start, 0).unwrap();
        hw(&mut r, 0, IMPOSSIBLE, 1_000).unwrap();
        let view = serde_json::to_string(&r.view(Some(0), 2_000)).unwrap();
        assert!(!view.contains("solution") || view.contains("\"solution\":null"), "{view}");
        let json = serde_json::to_string(r.saved()).unwrap();
        let (back, out) = Room::restore(serde_json::from_str(&json).unwrap(), 70_000);
        assert_eq!(back.member(0).unwrap().homework.as_ref().unwrap().tally().impossible_right, 1);
        assert!(out.iter().any(|o| o.to == To::Seat(0)));
    }
}

#[cfg(test)]
mod at_each_level {
    use score_engine::expr::Expr;
    use score_engine::solve::simplest;
    use score_engine::{Action, TileId};

    use super::*;
    use crate::protocol::{Claim, Move};

    const WEEK: u64 = 7 * 86_400_000;

    fn lcg(seed: u64) -> impl FnMut() -> u32 {
        let mut x = seed;
        move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as u32
        }
    }

    /// A kept class of Ana (seat 0) and Ben (seat 1), set `count` rolls at each student's level.
    fn class(count: u32) -> Room {
        let rules = Rules::default();
        let mut r = Room::new(rules.clone(), true, Deal::new(vec![1, 1, 1, 1], &rules));
        r.apply(Input::Keep { kept: true }, 0).unwrap();
        for name in ["Ana", "Ben"] {
            r.apply(Input::Join { name: name.into() }, 0).unwrap();
        }
        let pool = pool(&rules, count as usize, lcg(7)).unwrap();
        let assignment = Assignment::at_each_level(pool, count, &rules, false, WEEK);
        r.apply(Input::SetHomework { assignment }, 0).unwrap();
        r
    }

    fn hw(r: &mut Room, seat: usize, command: HomeworkCommand, now: u64) -> Result<Vec<Out>, RoomError> {
        r.apply(Input::Homework { seat, command }, now).map_err(|e| e.error)
    }

    fn run(r: &Room, seat: usize) -> &Run {
        r.member(seat).unwrap().homework.as_ref().expect("started")
    }

    /// The pool's (model's) rating of the roll on `seat`'s table.
    fn rating_on_table(r: &Room, seat: usize) -> f64 {
        let hw = r.homework().unwrap();
        hw.rated[*run(r, seat).picked.last().unwrap() as usize].rating
    }

    /// Makes the goal on `seat`'s homework table by its simplest solution, tile by tile.
    fn make(r: &mut Room, seat: usize, now: u64) {
        let roll = run(r, seat).room.roll.clone();
        let e =
            simplest(&score_engine::Puzzle::from_roll(&roll, &Rules::default())).expect("a pool roll has a solution");
        let mut next = roll.len() as u32;
        fn walk(e: &Expr, next: &mut u32, moves: &mut Vec<Action>) -> TileId {
            match e {
                Expr::Leaf { slot, .. } => TileId(*slot as u32),
                Expr::Node { op, left, right, .. } => {
                    let (l, rr) = (walk(left, next, moves), walk(right, next, moves));
                    moves.push(Action::Combine { left: l, op: *op, right: rr });
                    *next += 1;
                    TileId(*next - 1)
                }
            }
        }
        let mut moves = Vec::new();
        walk(&e, &mut next, &mut moves);
        hw(r, seat, HomeworkCommand::Claim { claim: Claim::Score }, now).unwrap();
        for m in moves {
            hw(r, seat, HomeworkCommand::Act { action: Move::from(m) }, now).unwrap();
        }
        assert!(run(r, seat).room.round.phase() == Phase::Over, "made {e} on {roll:?}");
    }

    #[test]
    fn its_pool_spreads_rolls_with_a_solution_over_the_five_levels() {
        let rules = Rules::default();
        let p = pool(&rules, 10, lcg(1)).unwrap();
        assert_eq!(p.len(), 5 * pool_per_level(10));
        let mut keys: Vec<Vec<i64>> = p.iter().map(|(d, _)| crate::protocol::sorted(&d.roll)).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), p.len(), "distinct rolls");
        assert!(p.iter().all(|(d, _)| d.solution.is_some()));
        let ratings: Vec<f64> = p.iter().map(|(_, a)| a.rating).collect();
        let (lo, hi) = ratings.iter().fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        // Score's easiest rolls rate about −0.7 (3.5 s against a median of 5.8 s).
        assert!(lo < -0.5 && hi > 1.5, "from easy to hard: {lo} … {hi}");
        // A small homework still has rolls at every level to move among.
        assert_eq!(pool(&rules, 1, lcg(2)).unwrap().len(), 5 * MIN_POOL_PER_LEVEL);
        // Five dice: a class rates no play on them.
        let five = Rules { dice: vec![6, 6, 6, 12, 20], ..rules };
        assert_eq!(pool(&five, 5, lcg(3)).err(), Some(PoolError::NotRated));
    }

    #[test]
    fn each_student_is_dealt_rolls_by_their_own_rating_and_no_roll_twice() {
        let mut r = class(8);
        assert_eq!((r.homework().unwrap().info().rolls, r.homework().unwrap().info().adaptive), (8, true));
        r.saved.seats[0].as_mut().unwrap().rating = Ability { rating: 3.0, answers: 40 };
        r.saved.seats[1].as_mut().unwrap().rating = Ability { rating: -3.0, answers: 40 };
        hw(&mut r, 0, HomeworkCommand::Start, 1_000).unwrap();
        hw(&mut r, 1, HomeworkCommand::Start, 1_000).unwrap();
        let (strong, weak) = (rating_on_table(&r, 0), rating_on_table(&r, 1));
        // Level 5's roll for the strong, level 1's for the weak.
        let levels = score_engine::difficulty::Levels::of(&Rules::default());
        let level = |rating: f64| levels.level(elo::seconds_of_rating(rating, &levels));
        assert_eq!((level(strong), level(weak)), (5, 1), "{strong} vs {weak}");
        // Each roll is near the one they make three times in four.
        let hw_ratings = &r.homework().unwrap().rated;
        let target = elo::target_rating(3.0);
        let nearer = hw_ratings.iter().filter(|a| (a.rating - target).abs() < (strong - target).abs()).count();
        assert!(nearer < NEAREST, "{nearer} rolls nearer {target} than {strong}");
        // Ben passes over every roll: no roll twice, eight in all, then done.
        for i in 0..8u64 {
            hw(&mut r, 1, HomeworkCommand::Next, 2_000 + i * 1_000).unwrap();
        }
        let ben = run(&r, 1);
        assert!(ben.done && ben.picked.len() == 8, "{ben:?}");
        let mut seen = ben.picked.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 8, "no roll twice");
        assert_eq!(hw(&mut r, 1, HomeworkCommand::Next, 20_000), Err(RoomError::HomeworkDone));
        // A restart deals the same roll on Ana's table.
        let before = run(&r, 0).clone();
        let text = serde_json::to_string(r.saved()).unwrap();
        let (back, _) = Room::restore(serde_json::from_str(&text).unwrap(), 30_000);
        let (after, kept) = (run(&back, 0), &before);
        assert_eq!((after.at, &after.picked, &after.room.roll), (kept.at, &kept.picked, &kept.room.roll));
        assert_eq!(back.run_view(0, 30_000).unwrap().view.roll, r.run_view(0, 30_000).unwrap().view.roll);
    }

    /// The promise, in a class: quick goals deal harder rolls within a few, misses easier.
    #[test]
    fn making_rolls_quickly_deals_harder_ones_and_missing_them_easier() {
        let mut r = class(10);
        // Ben was rated well in class, once: a new player with room to fall.
        r.saved.seats[1].as_mut().unwrap().rating = Ability { rating: 2.5, answers: 1 };
        hw(&mut r, 0, HomeworkCommand::Start, 1_000).unwrap();
        hw(&mut r, 1, HomeworkCommand::Start, 1_000).unwrap();
        let (ana_first, ben_first) = (rating_on_table(&r, 0), rating_on_table(&r, 1));
        let mut now = 1_000;
        let (mut ana, mut ben) = (vec![ana_first], vec![ben_first]);
        for _ in 0..6 {
            now += 2_000;
            make(&mut r, 0, now);
            hw(&mut r, 0, HomeworkCommand::Next, now).unwrap();
            hw(&mut r, 1, HomeworkCommand::Next, now).unwrap();
            ana.push(rating_on_table(&r, 0));
            ben.push(rating_on_table(&r, 1));
        }
        // Two levels up within seven rolls, and two down.
        let levels = score_engine::difficulty::Levels::of(&Rules::default());
        let level = |rating: &f64| levels.level(elo::seconds_of_rating(*rating, &levels));
        let (ana_levels, ben_levels): (Vec<u8>, Vec<u8>) =
            (ana.iter().map(level).collect(), ben.iter().map(level).collect());
        assert!(
            ana_levels[6] >= ana_levels[0] + 2 && ana.last().unwrap() > &ana_first,
            "Ana's rolls: {ana:?} {ana_levels:?}"
        );
        assert!(
            ben_levels[6] + 2 <= ben_levels[0] && ben.last().unwrap() < &ben_first,
            "Ben's rolls: {ben:?} {ben_levels:?}"
        );
        let ana_rating = r.member(0).unwrap().rating;
        assert!(ana_rating.rating > 1.0 && ana_rating.answers == 6, "{ana_rating:?}");
        assert_eq!(run(&r, 0).tally().scores_made, 6);
    }

    #[test]
    fn a_pool_that_cant_serve_every_student_is_refused() {
        let rules = Rules::default();
        let good = pool(&rules, 3, lcg(4)).unwrap();
        let set =
            |pool: Vec<(Deal, Ability)>, count| Assignment::at_each_level(pool, count, &rules, false, WEEK).check(0);
        assert_eq!(set(good.clone(), 3), Ok(()));
        assert_eq!(set(good[..2].to_vec(), 3), Err(RoomError::HomeworkCount), "fewer rolls than each plays");
        let mut unsolvable = good.clone();
        unsolvable[0].0.solution = None;
        assert_eq!(set(unsolvable, 3), Err(RoomError::HomeworkCount), "a roll with no solution");
        assert_eq!(set(good, 0), Err(RoomError::HomeworkCount));
    }
}
