//! The room is fair, under random play (a state-machine test, `proptest-state-machine`):
//! random inputs from random members and the host, time passing and restarts, and after
//! every step:
//!
//! - a member's score changes only by a Results line that names them, by an amount
//!   docs/RULES.md §5 lists for its reason (+1 made, −1 a failed SCORE, +1 a right claim,
//!   −2 a wrong one), whether they are seated or have left;
//! - no input from one member settles, fails or shortens a clock that is another's, except
//!   the SCORE that beats a claim (the host's new roll or rules settle every clock; time
//!   settles the one that ran out);
//! - a name's record survives Leave and joining again: every name that ever claimed still
//!   has its score, seated or kept;
//! - every Board is at most the roll's moves, and every Welcome is bounded, whatever was sent;
//! - a refused input leaves the room as it was;
//! - nothing anyone sees depends on the verdict before the roll is settled: the same play on
//!   a twin room whose solver says the opposite shows every member and the host the same
//!   events, the same view and the host the same report (Progress and Hardest rolls too)
//!   until a result settles the roll.
//!
//! 100,000 sequences in the test run (`FAIRNESS_CASES` sets another count); a long run:
//! `FAIRNESS_CASES=1000000 cargo test -p score-room --test room fairness` (7 min on two cores).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::common::{action, actor, NAMES};
use proptest::prelude::*;
use proptest::test_runner::Config;
use proptest_state_machine::{prop_state_machine, ReferenceStateMachine, StateMachineTest};
use score_engine::{Phase, Rules};
use score_room::protocol::{Claim, RoomEvent, Seat, Why, CHAT_KEPT, MAX_CHAT, MAX_MEMBERS, MAX_NAME};
use score_room::room::{name_key, Deal, Input, Out, Refused, Room, GONE_KEPT};

/// The rules a room may play under.
fn rule_sets() -> &'static [Rules] {
    static RULES: OnceLock<Vec<Rules>> = OnceLock::new();
    RULES.get_or_init(|| {
        vec![
            Rules::default(),
            Rules { strict: true, score_secs: 5, ..Rules::default() },
            Rules { dice: vec![6, 6, 6], goal: 10, ..Rules::default() },
        ]
    })
}

/// Rolls for each rule set, solved once (solvable and not): the solver runs outside the
/// cases, as a server deals before it takes a room's lock.
fn deals(rules: usize) -> &'static [Deal] {
    static DEALS: OnceLock<Vec<Vec<Deal>>> = OnceLock::new();
    &DEALS.get_or_init(|| {
        let rolls: [&[&[i64]]; 3] = [
            &[&[2, 5, 12, 12], &[1, 1, 1, 4], &[3, 3, 3, 3], &[4, 5, 1, 1], &[6, 6, 6, 6], &[1, 2, 3, 17]],
            &[&[2, 5, 12, 12], &[1, 1, 1, 4], &[5, 4, 1, 1], &[6, 6, 6, 6]],
            &[&[1, 2, 3], &[1, 1, 1], &[5, 5, 6], &[6, 6, 6]],
        ];
        rule_sets()
            .iter()
            .zip(rolls)
            .map(|(r, rolls)| rolls.iter().map(|roll| Deal::new(roll.to_vec(), r)).collect())
            .collect()
    })[rules]
}

/// The same roll with the opposite verdict: what the twin room is told.
fn flipped(deal: &Deal) -> Deal {
    Deal { roll: deal.roll.clone(), solution: if deal.solution.is_some() { None } else { Some("x".into()) } }
}

/// How a room starts.
#[derive(Debug, Clone)]
struct Setup {
    rules: usize,
    judging: bool,
    deal: usize,
}

/// One step of play. Deals name a roll of the pool (for the room's rules when dealt).
#[derive(Debug, Clone)]
enum Step {
    Input(Input),
    NewRoll(usize),
    NextRoll(usize),
    SetRules { rules: usize, judging: bool, deal: usize },
    Wait(u64, bool),
    Restart,
}

struct Model;

impl ReferenceStateMachine for Model {
    type State = Setup;
    type Transition = Step;

    fn init_state() -> BoxedStrategy<Setup> {
        (0..rule_sets().len(), any::<bool>(), 0usize..4)
            .prop_map(|(rules, judging, deal)| Setup { rules, judging, deal })
            .boxed()
    }

    fn transitions(_: &Setup) -> BoxedStrategy<Step> {
        let seat = 0usize..6;
        let claim = prop_oneof![Just(Claim::Score), Just(Claim::Impossible)];
        prop_oneof![
            3 => (0..NAMES.len()).prop_map(|i| Step::Input(Input::Join { name: NAMES[i].into() })),
            1 => seat.clone().prop_map(|seat| Step::Input(Input::Leave { seat })),
            1 => seat.clone().prop_map(|seat| Step::Input(Input::Remove { seat })),
            1 => (0..NAMES.len()).prop_map(|i| Step::Input(Input::Readmit { name: NAMES[i].to_uppercase() })),
            4 => (seat.clone(), claim).prop_map(|(seat, claim)| Step::Input(Input::Claim { seat, claim })),
            2 => seat.clone().prop_map(|seat| Step::Input(Input::RevealNow { seat })),
            1 => seat.clone().prop_map(|seat| Step::Input(Input::GiveUp { seat })),
            12 => (seat.clone(), action()).prop_map(|(seat, action)| Step::Input(Input::Act { seat, action })),
            1 => (seat.clone(), "[a-z ]{0,8}").prop_map(|(seat, text)| Step::Input(Input::Chat { seat, text })),
            1 => "[a-z ]{0,8}".prop_map(|text| Step::Input(Input::TeacherChat { text })),
            1 => (seat, any::<bool>()).prop_map(|(seat, away)| Step::Input(Input::Presence { seat, away })),
            1 => any::<bool>().prop_map(|locked| Step::Input(Input::Lock { locked })),
            1 => any::<bool>().prop_map(|kept| Step::Input(Input::Keep { kept })),
            1 => Just(Step::Input(Input::EndLesson)),
            1 => Just(Step::Input(Input::ClearEmpty)),
            1 => (0usize..6).prop_map(Step::NewRoll),
            1 => (0usize..6).prop_map(Step::NextRoll),
            1 => (0..rule_sets().len(), any::<bool>(), 0usize..4)
                .prop_map(|(rules, judging, deal)| Step::SetRules { rules, judging, deal }),
            4 => (0u64..70_000, any::<bool>()).prop_map(|(ms, tick)| Step::Wait(ms, tick)),
            1 => Just(Step::Restart),
        ]
        .boxed()
    }

    fn apply(state: Setup, _: &Step) -> Setup {
        state
    }
}

/// Two rooms played alike, the twin told the opposite verdict on every roll.
struct Rooms {
    room: Room,
    twin: Room,
    now: u64,
    /// Every name whose record held a claim or a result, as names compare: it is kept.
    joined: Vec<String>,
}

/// Points for a reason, as docs/RULES.md §5 lists them.
fn points_for(why: &Why) -> i32 {
    match why {
        Why::Made { .. } | Why::TrulyImpossible | Why::NobodyScored => 1,
        Why::TimeUp | Why::GaveUp | Why::NumbersUsedUp | Why::Abandoned | Why::Left => -1,
        Why::HadSolution { .. } | Why::ClaimBeaten { .. } => -2,
    }
}

/// A name's key, as the room compares names ([`name_key`]: the characters that count, as
/// their confusable skeleton, in any case), remembered: the checks ask for the same few
/// names at every step, and working their keys out was a sixth of the test's time.
fn key(name: &str) -> String {
    thread_local! {
        static KEYS: std::cell::RefCell<std::collections::HashMap<String, String>> = Default::default();
    }
    KEYS.with_borrow_mut(|keys| keys.entry(name.to_owned()).or_insert_with(|| name_key(name)).clone())
}

/// Every record in the room, seated or kept after leaving, by name: the score, and how
/// many past lessons of a kept class it holds.
fn records(room: &Room) -> BTreeMap<String, (i32, usize)> {
    let mut all: BTreeMap<String, (i32, usize)> =
        room.saved().gone.iter().map(|g| (key(&g.member.name), (g.member.score, g.member.lessons.len()))).collect();
    all.extend(room.members().map(|(_, m)| (key(&m.name), (m.score, m.lessons.len()))));
    all
}

/// The clocks of a round that are someone's: (whose, which, until when), an IMPOSSIBLE claim
/// interrupted by a SCORE included.
fn clocks(phase: Phase) -> Vec<(Seat, Claim, u64)> {
    match phase {
        Phase::Score { player, deadline, claim } => {
            let mut c = vec![(player, Claim::Score, deadline)];
            c.extend(claim.map(|c| (c.player, Claim::Impossible, c.deadline)));
            c
        }
        Phase::Impossible(c) => vec![(c.player, Claim::Impossible, c.deadline)],
        Phase::Open | Phase::Over => Vec::new(),
    }
}

/// The largest a Welcome's view can be: every chat line, member, removed name and result
/// at its longest (four bytes a character, escaped quotes and all).
fn view_bound(rules: &Rules) -> usize {
    let name = 4 * MAX_NAME + 64;
    4096 + CHAT_KEPT * (4 * MAX_CHAT + name + 32) + MAX_MEMBERS * (name + 64) + GONE_KEPT * name + rules.dice.len() * 96
}

impl Rooms {
    fn results(outs: &[Out]) -> Vec<(String, i32, Why)> {
        outs.iter()
            .filter_map(|o| match &o.event {
                RoomEvent::Results { outcomes, .. } => {
                    Some(outcomes.iter().map(|r| (r.name.clone(), r.points, r.why.clone())))
                }
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// One input on both rooms, checked against the rules above.
    fn input(&mut self, input: Input, twin_input: Input) {
        let now = self.now;
        // Clocks that ran out are settled before any input is looked at: that is time's doing.
        let mut ticked = self.room.clone();
        let by_time = ticked.tick(now).len();
        // Scores before the input (its events carry the tick's results too).
        let before = records(&self.room);
        let (clocks_before, settled_before) = (clocks(ticked.phase()), ticked.phase() == Phase::Over);
        let who = actor(&input);
        let revealing = matches!(input, Input::RevealNow { .. }) && ticked.saved().judging;
        let result = self.room.apply(input, now);
        let twin = self.twin.apply(twin_input, now);
        for (_, m) in self.room.members().filter(|(_, m)| m.worth_keeping()) {
            if !self.joined.contains(&key(&m.name)) {
                self.joined.push(key(&m.name));
            }
        }
        let outs = match result {
            Ok(outs) => outs,
            Err(Refused { settled, .. }) => {
                // A refusal changes nothing but what the clock settled on the way.
                assert_eq!(self.room.saved(), ticked.saved(), "a refused input changed the room");
                settled
            }
        };
        self.same_until_settled(&outs, &twin.unwrap_or_else(|r| r.settled), settled_before);
        self.scores_follow_results(&before, &outs);
        self.boards_bounded(&outs);
        let Some(me) = who else { return };
        // Whose a seat's clock is: its member's, or the one's who left it with the clock running.
        let owner = |seat: Seat| {
            let gone = ticked.saved().gone.iter().find(|g| g.stake == Some(seat)).map(|g| &g.member);
            ticked.members().find(|(s, _)| *s == seat).map(|(_, m)| m).or(gone).map(|m| key(&m.name))
        };
        // The input's own results: after those the clock settled on the way.
        let results = Self::results(&outs[by_time.min(outs.len())..]);
        let beaten_by_me = |name: &str| {
            results.iter().any(|(n, _, why)| matches!(why, Why::ClaimBeaten { by, .. } if *by == me) && key(n) == name)
        };
        let clocks_after = clocks(self.room.phase());
        let mine = owner(me);
        for &(seat, claim, deadline) in &clocks_before {
            let Some(name) = owner(seat).filter(|n| Some(n) != mine.as_ref()) else { continue };
            // Kept as it was, beaten by my SCORE, or past its deadline (time settled it).
            let ok = clocks_after.contains(&(seat, claim, deadline)) || beaten_by_me(&name) || deadline <= now;
            assert!(ok, "seat {me}'s input ended seat {seat}'s {claim:?} clock: {clocks_after:?}");
        }
        // One's own claim ends early only by Reveal now (judging on) or a goal made: never by
        // giving up or leaving (with judging off that would be +1 at once).
        for (name, _, why) in &results {
            let judged = matches!(why, Why::TrulyImpossible | Why::NobodyScored | Why::HadSolution { .. });
            let due = clocks_before.iter().any(|&(_, c, d)| c == Claim::Impossible && d <= now);
            if judged && Some(&key(name)) == mine.as_ref() {
                assert!(revealing || due, "seat {me} ended their own claim early: {why:?}");
            }
        }
        for (name, _, why) in &results {
            let whose = key(name);
            let ran_out = clocks_before
                .iter()
                .any(|&(s, c, d)| c == Claim::Impossible && d <= now && owner(s) == Some(whose.clone()));
            let ok =
                Some(&whose) == mine.as_ref() || matches!(why, Why::ClaimBeaten { by, .. } if *by == me) || ran_out;
            assert!(ok, "seat {me}'s input settled {name}'s {why:?}");
        }
    }

    /// Each member's score moves only by results that name them, by the amounts the rules list.
    fn scores_follow_results(&self, before: &BTreeMap<String, (i32, usize)>, outs: &[Out]) {
        let mut said: BTreeMap<String, i32> = BTreeMap::new();
        for (name, points, why) in Self::results(outs) {
            assert_eq!(points, points_for(&why), "{name}: {why:?}");
            *said.entry(key(&name)).or_default() += points;
        }
        let after = records(&self.room);
        // A kept class's lesson ended: every score is 0 (the one change without a result).
        let lesson_ended = outs.iter().any(|o| matches!(o.event, RoomEvent::Lesson { .. }));
        for (name, &(score, lessons)) in &after {
            let (was, had) = before.get(name).copied().unwrap_or((0, 0));
            // Nothing takes a past lesson from anyone (leaving, being removed, a restart).
            assert!(lessons >= had, "{name} lost past lessons: {had} → {lessons}");
            if lesson_ended {
                assert_eq!(score, 0, "{name} keeps points past the end of a lesson");
            } else {
                assert_eq!(score - was, said.get(name).copied().unwrap_or(0), "{name}'s score");
            }
        }
        for name in &self.joined {
            assert!(after.contains_key(name), "{name}'s record is gone");
        }
    }

    /// The twin (the opposite verdict) shows the same until a result settles the roll; then
    /// it becomes the room again, with the opposite verdict, for the rolls to come.
    fn same_until_settled(&mut self, outs: &[Out], twin: &[Out], settled_before: bool) {
        // Results with no clock running on settle the roll (a new roll may follow at once).
        let settles = |outs: &[Out]| outs.iter().any(|o| matches!(o.event, RoomEvent::Results { clock: None, .. }));
        if settled_before || settles(outs) || settles(twin) {
            let mut saved = self.room.saved().clone();
            saved.solution = if saved.solution.is_some() { None } else { Some("x".into()) };
            self.twin = Room::restore(saved, self.now).0;
            return;
        }
        assert_eq!(outs, twin, "what the room said depends on the verdict");
        for seat in (0..MAX_MEMBERS.min(6)).map(Some).chain([None]) {
            assert_eq!(self.room.view(seat, self.now), self.twin.view(seat, self.now), "{seat:?}'s view");
        }
        // Nor the host's report: its lines, its Progress, its Hardest rolls.
        assert_eq!(self.room.report(), self.twin.report(), "the report");
        assert_eq!(self.room.progress(), self.twin.progress(), "the Progress");
        assert_eq!(self.room.hardest(self.now), self.twin.hardest(self.now), "the Hardest rolls");
    }

    /// Every Board the room sent is at most the roll's moves.
    fn boards_bounded(&self, outs: &[Out]) {
        let moves = self.room.rules().dice.len();
        for o in outs {
            if let RoomEvent::Board { actions, .. } = &o.event {
                assert!(actions.len() < moves, "a Board of {} moves", actions.len());
            }
        }
    }

    /// Every Welcome the room would send now, to each member and the host, is bounded:
    /// checked after every step (`check_invariants`), its bytes counted as written.
    fn views_bounded(&self) {
        /// Counts what serde_json writes, keeping none of it.
        struct Counted(usize);
        impl std::io::Write for Counted {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0 += bytes.len();
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let bound = view_bound(self.room.rules());
        for seat in self.room.members().map(|(s, _)| Some(s)).chain([None]) {
            let mut view = Counted(0);
            serde_json::to_writer(&mut view, &self.room.view(seat, self.now)).unwrap();
            assert!(view.0 <= bound, "a Welcome of {} bytes", view.0);
        }
    }
}

impl StateMachineTest for Rooms {
    type SystemUnderTest = Rooms;
    type Reference = Model;

    fn init_test(setup: &Setup) -> Rooms {
        let rules = rule_sets()[setup.rules].clone();
        let deal = deals(setup.rules)[setup.deal].clone();
        Rooms {
            room: Room::new(rules.clone(), setup.judging, deal.clone()),
            twin: Room::new(rules, setup.judging, flipped(&deal)),
            now: 0,
            joined: Vec::new(),
        }
    }

    fn apply(mut rooms: Rooms, _: &Setup, step: Step) -> Rooms {
        let pick = |rooms: &Rooms, i: usize| {
            let set = rule_sets().iter().position(|r| r == rooms.room.rules()).unwrap_or(0);
            let pool = deals(set);
            pool[i % pool.len()].clone()
        };
        match step {
            Step::Input(input) => {
                rooms.now += 1;
                rooms.input(input.clone(), input);
            }
            Step::NewRoll(i) | Step::NextRoll(i) => {
                rooms.now += 1;
                let deal = pick(&rooms, i);
                let twin = flipped(&deal);
                let (a, b) = if matches!(step, Step::NewRoll(_)) {
                    (Input::NewRoll { deal }, Input::NewRoll { deal: twin })
                } else {
                    (Input::NextRoll { deal }, Input::NextRoll { deal: twin })
                };
                rooms.input(a, b);
            }
            Step::SetRules { rules, judging, deal } => {
                rooms.now += 1;
                let d = deals(rules)[deal].clone();
                let r = rule_sets()[rules].clone();
                let twin = Input::SetRules { rules: r.clone(), judging, deal: flipped(&d) };
                rooms.input(Input::SetRules { rules: r, judging, deal: d }, twin);
            }
            Step::Wait(ms, tick) => {
                rooms.now += ms;
                if tick {
                    let before = records(&rooms.room);
                    let settled_before = rooms.room.phase() == Phase::Over;
                    let outs = rooms.room.tick(rooms.now);
                    let twin = rooms.twin.tick(rooms.now);
                    rooms.scores_follow_results(&before, &outs);
                    rooms.same_until_settled(&outs, &twin, settled_before);
                }
            }
            Step::Restart => {
                let before = records(&rooms.room);
                let settled_before = rooms.room.phase() == Phase::Over;
                let text = serde_json::to_string(rooms.room.saved()).unwrap();
                let (back, outs) = Room::restore(serde_json::from_str(&text).unwrap(), rooms.now);
                rooms.room = back;
                let text = serde_json::to_string(rooms.twin.saved()).unwrap();
                let mut saved: score_room::room::Saved = serde_json::from_str(&text).unwrap();
                // A stored room is solved again on restore; the twin keeps its opposite verdict.
                saved.solved = true;
                let (twin, twin_outs) = Room::restore(saved, rooms.now);
                rooms.twin = twin;
                rooms.scores_follow_results(&before, &outs);
                rooms.same_until_settled(&outs, &twin_outs, settled_before);
                rooms.boards_bounded(&outs);
            }
        }
        rooms
    }

    fn check_invariants(rooms: &Rooms, _: &Setup) {
        rooms.views_bounded();
        for log in &rooms.room.saved().actions {
            assert!(log.len() < rooms.room.rules().dice.len(), "a log of {} moves", log.len());
        }
    }
}

/// Half the sequences: the test run plays the two halves side by side, one a core.
fn half() -> u32 {
    std::env::var("FAIRNESS_CASES").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(100_000).div_ceil(2)
}

prop_state_machine! {
    #![proptest_config(Config { cases: half(), failure_persistence: None, ..Config::default() })]

    #[test]
    fn the_room_is_fair_under_random_play(sequential 1..40 => Rooms);

    #[test]
    fn the_room_is_fair_under_more_random_play(sequential 1..40 => Rooms);
}
