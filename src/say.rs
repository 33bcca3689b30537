//! What the local game says, as data ([`Said`], [`Settled`], [`Cost`]) and in words: the game
//! keeps the data, and the page words it in its language when it draws, so a language
//! switch rewords what is on the table (a refusal, a hint, the results) in place.
//! Plain Rust, tested natively.

use score_engine::{Award, BoardError, Op, Reason, RoundError};
use score_i18n::{Catalog, Key};
use score_room::say::{board_error, round_error};

use crate::game::{number, roll_text, signed};

/// Something the table says: a refusal beside the slots, a hint, or what a screen reader
/// hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Nothing (yet).
    Nothing,
    /// A new roll.
    Rolled { roll: Vec<i64>, goal: i64 },
    /// The daily puzzle's roll.
    Daily { roll: Vec<i64>, goal: i64 },
    /// The round refused a claim, a hint or an undo.
    Round(RoundError),
    /// The table refused a move.
    Board(BoardError),
    /// A hint: the next move of a simplest solution.
    Hint { a: String, op: Op, b: String },
    /// No hint for this position.
    NoHint,
    /// The goal can't be made from here.
    NoWay,
    /// A claim's clock started: `secs` to go.
    ClockRuns { score: bool, secs: u64 },
    /// The results just settled (the game's `results`).
    Results,
    /// A move made: its step ("12 − 12 = 0").
    Step(String),
    /// In a match during the IMPOSSIBLE clock: a move needs a SCORE first.
    ScoreFirst,
    /// A move undone.
    Undone,
    /// The moves cleared.
    BackToRoll { roll: Vec<i64> },
    /// The results just settled (the game's `results`), then what came with them (a new
    /// roll after a claim it ended, a hint after the roll it made practice).
    AfterResults(Box<Said>),
}

/// A settled result: its award and what wording it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The award.
    pub award: Award,
    /// The player's name in a match (none in solitaire, or for a practice line).
    pub name: Option<String>,
    /// The name of the player who beat an IMPOSSIBLE claim, in a match.
    pub beaten_by: Option<String>,
    /// The roll and goal it was on.
    pub roll: Vec<i64>,
    pub goal: i64,
    /// A solution, for a wrong IMPOSSIBLE.
    pub solution: Option<String>,
    /// That solution's working, a step a line.
    pub working: Vec<String>,
}

/// What a new roll would cost while a clock runs. Names are `None` in solitaire ("your").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cost {
    /// A SCORE clock runs, and perhaps an IMPOSSIBLE claim waits under it.
    Score { name: Option<String>, claimant: Option<Option<String>> },
    /// An IMPOSSIBLE claim runs.
    Impossible { name: Option<String> },
}

/// What was stored, named in a notice about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stored {
    Settings,
    Score,
    Game,
    Daily,
    Help,
    Rooms,
}

/// A notice at the top of the page: storage, links, other tabs, languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The browser keeps nothing.
    NoStorage,
    /// Something stored couldn't be read (it was set aside).
    Unreadable(Stored),
    /// The stored rules were out of range.
    RulesOutOfRange,
    /// A link's roll wasn't dealt: a claim runs.
    LinkWhileClaim,
    /// A link's roll can't be played, and why.
    BadLink(crate::forms::FormError),
    /// Another tab stored a newer game.
    NewerTab,
    /// The stats were stored by a newer Score: kept, and nothing written over them.
    NewerData,
    /// Another tab plays this game too.
    OtherTab,
    /// A language couldn't be fetched.
    LanguageUnavailable(score_i18n::Lang),
    /// Something that went wrong, as the browser said it.
    Text(String),
}

/// The daily puzzle's line to share, in `words`: the day, the points and the streak, never
/// the roll or a solution.
pub fn daily_share(log: &crate::game::DailyLog, day: i64, words: &Catalog) -> Option<String> {
    let points = log.points(day)?;
    let (y, m, d) = score_engine::practice::civil_date(day);
    let date = format!("{y}-{m:02}-{d:02}");
    let mark = if points > 0 { "✓" } else { "✗" };
    let streak = log.streak(day).to_string();
    Some(words.text(
        Key::DailyShareLine,
        &[("date", &date), ("mark", mark), ("points", &signed(points)), ("streak", &streak)],
    ))
}

/// A notice, in `words`.
pub fn notice(n: &Notice, words: &Catalog) -> String {
    let t = |key: Key| words.text(key, &[]);
    match n {
        Notice::NoStorage => t(Key::NoStorage),
        Notice::Unreadable(what) => {
            let what = t(match what {
                Stored::Settings => Key::StoredSettings,
                Stored::Score => Key::StoredScore,
                Stored::Game => Key::StoredGame,
                Stored::Daily => Key::StoredDaily,
                Stored::Help => Key::StoredHelp,
                Stored::Rooms => Key::StoredRooms,
            });
            words.text(Key::Unreadable, &[("what", &what)])
        }
        Notice::RulesOutOfRange => t(Key::RulesOutOfRange),
        Notice::LinkWhileClaim => t(Key::LinkWhileClaim),
        Notice::BadLink(why) => words.text(Key::BadLink, &[("why", &form_error(why, words))]),
        Notice::NewerTab => t(Key::NewerTab),
        Notice::NewerData => t(Key::NewerData),
        Notice::OtherTab => t(Key::OtherTab),
        Notice::LanguageUnavailable(lang) => words.text(Key::LanguageUnavailable, &[("language", lang.own_name())]),
        Notice::Text(text) => text.clone(),
    }
}

/// Why a worksheet wasn't made, in `words`.
pub fn worksheet_error(e: &score_engine::practice::WorksheetError, words: &Catalog) -> String {
    use score_engine::practice::WorksheetError;
    match e {
        WorksheetError::NoneFound(level) => words.text(Key::WorksheetNoneFound, &[("level", &level.to_string())]),
        WorksheetError::NoneSolvable => words.text(Key::WorksheetNoneSolvable, &[]),
        WorksheetError::Count(_) | WorksheetError::Difficulty(_) => words.text(Key::WorksheetBadRequest, &[]),
    }
}

/// What is wrong with what a player typed, in `words`.
pub fn form_error(e: &crate::forms::FormError, words: &Catalog) -> String {
    use crate::forms::FormError;
    use score_engine::entry::{Entry, EntryError};
    let keys = |what: Entry| match what {
        Entry::Goal => (Key::GoalMissing, Key::GoalNotWhole, Key::GoalRange),
        Entry::Number => (Key::NumberMissing, Key::NumberNotWhole, Key::NumberRange),
        Entry::Sides => (Key::SidesMissing, Key::SidesNotWhole, Key::SidesRange),
        Entry::ScoreClock => (Key::ScoreClockMissing, Key::ScoreClockNotWhole, Key::ScoreClockRange),
        Entry::ImpossibleClock => {
            (Key::ImpossibleClockMissing, Key::ImpossibleClockNotWhole, Key::ImpossibleClockRange)
        }
        Entry::Rolls => (Key::RollsMissing, Key::RollsNotWhole, Key::RollsRange),
    };
    let range = |key: Key, lo: &dyn ToString, hi: &dyn ToString, got: usize| {
        words.text(key, &[("lo", &lo.to_string()), ("hi", &hi.to_string()), ("got", &got.to_string())])
    };
    match e {
        FormError::Entry(EntryError::Missing(what)) => words.text(keys(*what).0, &[]),
        FormError::Entry(EntryError::NotWhole(what, text)) => words.text(keys(*what).1, &[("text", text)]),
        FormError::Entry(EntryError::Range(what, lo, hi)) => {
            words.text(keys(*what).2, &[("lo", &number(*lo)), ("hi", &number(*hi))])
        }
        FormError::Entry(EntryError::Count { min, max, got }) if min == max => {
            words.count(Key::EnterNumbers, *min as u64, &[("got", &got.to_string())])
        }
        FormError::Entry(EntryError::Count { min, max, got }) => range(Key::EnterNumbersRange, min, max, *got),
        FormError::Entry(EntryError::CantRoll { roll, dice }) => words
            .text(Key::RefusedCantRoll, &[("roll", &roll_text(roll)), ("dice", &score_engine::roll::dice_text(dice))]),
        FormError::DiceCount(got) => {
            range(Key::EnterDiceRange, &score_engine::rules::MIN_DICE, &score_engine::rules::MAX_DICE, *got)
        }
        FormError::NotPreset(text) => words.text(Key::NotAPreset, &[("text", text)]),
        FormError::Rules(list) => {
            list.iter().map(|r| score_room::say::rules_error(r, words)).collect::<Vec<_>>().join(" ")
        }
        FormError::Players(got) => range(Key::EnterPlayersRange, &2, &8, *got),
        FormError::NameTooLong(name) => {
            words.count(Key::NameTooLong, score_engine::rules::MAX_NAME as u64, &[("name", name)])
        }
        FormError::NameTwice(name) => words.text(Key::NameTwice, &[("name", name)]),
    }
}

/// A result line: "+1: 20 made in 2 moves", "Ana −2: …".
pub fn settled(s: &Settled, words: &Catalog) -> String {
    let goal = number(s.goal);
    let roll = roll_text(&s.roll);
    let t = |key: Key| words.text(key, &[]);
    let why = match s.award.reason {
        Reason::Made { moves } => words.count(Key::WhyMade, moves as u64, &[("goal", &goal)]),
        Reason::FreePractice => t(Key::WhyFreePractice),
        Reason::TimeUp => t(Key::WhyTimeUp),
        Reason::GaveUp if s.name.is_some() => t(Key::WhyGaveUp),
        Reason::GaveUp => t(Key::WhyGaveUpYou),
        Reason::NumbersUsedUp => t(Key::WhyNumbersUsedUp),
        Reason::Abandoned => t(Key::WhyAbandoned),
        Reason::Left => t(Key::WhyLeft),
        Reason::TrulyImpossible => words.text(Key::WhyTrulyImpossible, &[("roll", &roll)]),
        Reason::HadSolution => words.text(
            Key::WhyHadSolution,
            &[("roll", &roll), ("solution", &words.signs(s.solution.as_deref().unwrap_or_default()))],
        ),
        Reason::NobodyScored => t(Key::WhyNobodyScored),
        Reason::ClaimBeaten { by } if by != s.award.player => match &s.beaten_by {
            Some(name) => words.text(Key::WhyBeatClaim, &[("name", name), ("goal", &goal)]),
            None => t(Key::WhyClaimWrong),
        },
        Reason::ClaimBeaten { .. } => t(Key::WhyClaimWrong),
        Reason::HintUsed => t(Key::WhyHintUsed),
        Reason::SolutionsShown => t(Key::WhySolutionsShown),
    };
    let points = signed(s.award.points);
    match &s.name {
        Some(name) => words.text(Key::LinePlayer, &[("name", name), ("points", &points), ("why", &why)]),
        None => words.text(Key::LineSolo, &[("points", &points), ("why", &why)]),
    }
}

/// A line of the score's history, in `words`: its claim ("SCORE", "IMPOSSIBLE", "Practice",
/// "Hint", "Solutions") and its result ("+1: 20 made in 2 moves"). An entry stored before
/// the history kept its reason as data shows its English words, as stored.
pub fn history_line(h: &score_engine::stats::HistoryEntry, words: &Catalog) -> (String, String) {
    let claim = match (h.why, h.claim.as_str()) {
        (Some(Reason::HintUsed), _) | (None, "hint") => Key::Hint,
        (Some(Reason::SolutionsShown), _) | (None, "solutions") => Key::TabSolutions,
        (Some(Reason::FreePractice), _) | (None, "practice") => Key::Practice,
        (
            Some(Reason::TrulyImpossible | Reason::HadSolution | Reason::NobodyScored | Reason::ClaimBeaten { .. }),
            _,
        )
        | (None, "IMPOSSIBLE") => Key::ClaimImpossible,
        _ => Key::ClaimScore,
    };
    let result = match h.why {
        Some(reason) => settled(
            &Settled {
                award: Award { player: 0, points: h.points, reason },
                name: None,
                beaten_by: None,
                roll: h.roll.clone(),
                goal: h.goal,
                solution: h.solution.clone(),
                working: Vec::new(),
            },
            words,
        ),
        None => words.signs(&h.reason),
    };
    (words.text(claim, &[]), result)
}

/// What the table says, in `words`; `results` are the lines [`Said::Results`] speaks of.
pub fn said(s: &Said, results: &[Settled], words: &Catalog) -> String {
    let rolled =
        |key: Key, roll: &[i64], goal: i64| words.text(key, &[("roll", &roll_text(roll)), ("goal", &number(goal))]);
    match s {
        Said::Nothing => String::new(),
        Said::Rolled { roll, goal } => rolled(Key::HeardRolled, roll, *goal),
        Said::Daily { roll, goal } => rolled(Key::HeardDaily, roll, *goal),
        Said::Round(e) => round_error(*e, words),
        Said::Board(e) => board_error(*e, words),
        Said::Hint { a, op, b } => words.text(Key::HintTry, &[("a", a), ("op", &words.signs(op.symbol())), ("b", b)]),
        Said::NoHint => words.text(Key::HintNone, &[]),
        Said::NoWay => words.text(Key::HintNoWay, &[]),
        Said::ClockRuns { score: true, secs } => words.count(Key::HeardClockScore, *secs, &[]),
        Said::ClockRuns { score: false, secs } => words.count(Key::HeardClockImpossible, *secs, &[]),
        Said::Results => results
            .iter()
            .map(|r| words.text(Key::HeardResult, &[("line", &settled(r, words))]))
            .collect::<Vec<_>>()
            .join(" "),
        Said::Step(step) => step.clone(),
        Said::ScoreFirst => words.text(Key::ScoreFirst, &[]),
        Said::Undone => words.text(Key::HeardUndone, &[]),
        Said::BackToRoll { roll } => words.text(Key::HeardBackToRoll, &[("roll", &roll_text(roll))]),
        Said::AfterResults(then) => {
            [said(&Said::Results, results, words), said(then, results, words)].join(" ").trim().to_string()
        }
    }
}

/// What a new roll would cost, in a sentence.
pub fn cost(c: &Cost, words: &Catalog) -> String {
    match c {
        Cost::Score { name: None, claimant: None } => words.text(Key::CostScoreYou, &[]),
        Cost::Score { name: Some(n), claimant: None } => words.text(Key::CostScore, &[("name", n)]),
        Cost::Score { name: None, claimant: Some(_) } => words.text(Key::CostScoreClaimYou, &[]),
        Cost::Score { name: Some(n), claimant: Some(c) } => {
            words.text(Key::CostScoreClaim, &[("name", n), ("claimant", c.as_deref().unwrap_or(n))])
        }
        Cost::Impossible { name: None } => words.text(Key::CostImpossibleYou, &[]),
        Cost::Impossible { name: Some(n) } => words.text(Key::CostImpossible, &[("name", n)]),
    }
}

/// What the table says of rules other than the standard ones (a link's, or Settings'): the
/// dice and the goal; none for the standard rules (clocks and strict mode are settings).
pub fn rules_in_force(r: &score_engine::Rules, words: &Catalog) -> Option<String> {
    let dice = score_engine::roll::dice_text(&r.dice);
    let goal = number(r.goal);
    let fill = [("dice", dice.as_str()), ("goal", goal.as_str())];
    match r.matches_preset() {
        Some(score_engine::Preset::Score) => None,
        Some(score_engine::Preset::TwentyFour) => Some(words.text(Key::Rules24, &fill)),
        None => Some(words.text(Key::RulesOther, &fill)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(points: i32, reason: Reason, name: Option<&str>) -> Settled {
        Settled {
            award: Award { player: 0, points, reason },
            name: name.map(String::from),
            beaten_by: Some("Cy".into()),
            roll: vec![2, 5, 12, 12],
            goal: 20,
            solution: Some("2‖(12 − 12)".into()),
            working: Vec::new(),
        }
    }

    #[test]
    fn the_daily_share_line_tells_the_day_points_and_streak_in_the_readers_language() {
        let day = score_engine::practice::day_number(2026, 11, 22);
        let log = crate::game::DailyLog { days: vec![(day - 1, 1), (day, 1)], ..Default::default() };
        let en = Catalog::english();
        assert_eq!(daily_share(&log, day, &en).unwrap(), "Score daily 2026-11-22: ✓ +1, streak 2");
        assert_eq!(daily_share(&log, day + 1, &en), None);
        let lost = crate::game::DailyLog { days: vec![(day, -2)], ..Default::default() };
        assert_eq!(daily_share(&lost, day, &en).unwrap(), "Score daily 2026-11-22: ✗ −2, streak 0");
        // Right to left: the date and the points keep their own order (isolated).
        let texts = [("daily_share_line", "Score، تحدي اليوم {date}: {mark} {points}، السلسلة {streak}")];
        let ar =
            Catalog::from_texts(score_i18n::Lang::Ar, texts.map(|(k, v)| (k.into(), v.into())).into_iter().collect());
        let line = daily_share(&log, day, &ar).unwrap();
        assert!(line.contains("\u{2066}2026-11-22\u{2069}") && line.contains("\u{2066}+1\u{2069}"), "{line}");
    }

    #[test]
    fn the_history_is_worded_in_the_readers_language_and_an_old_entry_as_stored() {
        use score_engine::stats::HistoryEntry;
        let entry = |claim: &str, why: Option<Reason>, reason: &str| HistoryEntry {
            roll: vec![2, 5, 12, 12],
            goal: 20,
            claim: claim.into(),
            points: -2,
            reason: reason.into(),
            at_ms: 0,
            why,
            solution: why.map(|_| "2‖(12 ÷ 12 − 1)".into()),
        };
        let wrong = entry("IMPOSSIBLE", Some(Reason::HadSolution), "−2: 2 5 12 12 had a solution: …");
        let en = Catalog::english();
        assert_eq!(
            history_line(&wrong, &en),
            ("IMPOSSIBLE".into(), "−2: 2 5 12 12 had a solution: 2‖(12 ÷ 12 − 1)".into())
        );
        // Another language, and the classroom's signs: the same entry, worded for its reader.
        let texts = [
            ("claim_impossible", "IMPOSSIBLE"),
            ("line_solo", "{points} : {why}"),
            ("why_had_solution", "{roll} avait une solution : {solution}"),
        ];
        let fr =
            Catalog::from_texts(score_i18n::Lang::Fr, texts.map(|(k, v)| (k.into(), v.into())).into_iter().collect())
                .with_ops(Some(score_i18n::Ops::Dot));
        assert_eq!(history_line(&wrong, &fr).1, "−2 : 2 5 12 12 avait une solution : 2‖(12 : 12 − 1)");
        // Stored before the history kept its reason as data: its English words, its claim worded.
        let old = entry("practice", None, "0: the clock wasn't running");
        assert_eq!(history_line(&old, &en), ("Practice".into(), "0: the clock wasn't running".into()));
        assert_eq!(history_line(&entry("hint", None, ""), &en).0, "Hint");
        assert_eq!(history_line(&entry("SCORE", Some(Reason::TimeUp), ""), &en).1, "−2: the SCORE clock ran out");
    }

    #[test]
    fn result_lines_read_as_solitaire_and_a_match_say_them() {
        let en = Catalog::english();
        let made = line(1, Reason::Made { moves: 2 }, None);
        assert_eq!(settled(&made, &en), "+1: 20 made in 2 moves");
        assert_eq!(settled(&line(-1, Reason::GaveUp, None), &en), "−1: you gave up the SCORE");
        assert_eq!(settled(&line(-1, Reason::GaveUp, Some("Ben")), &en), "Ben −1: gave up the SCORE");
        assert_eq!(settled(&line(-2, Reason::HadSolution, None), &en), "−2: 2 5 12 12 had a solution: 2‖(12 − 12)");
        assert_eq!(
            settled(&line(-2, Reason::ClaimBeaten { by: 2 }, Some("Ana")), &en),
            "Ana −2: Cy made 20 during the IMPOSSIBLE clock"
        );
        assert_eq!(settled(&line(0, Reason::HintUsed, None), &en), "0: a hint was used, so this roll is practice");
        let both = [made.clone(), line(-2, Reason::NobodyScored, Some("Ana"))];
        assert_eq!(said(&Said::Results, &both, &en), "+1: 20 made in 2 moves. Ana −2: nobody found a solution.");
    }

    #[test]
    fn the_cost_of_a_new_roll_names_whose_clock_it_fails() {
        let en = Catalog::english();
        assert_eq!(
            cost(&Cost::Score { name: None, claimant: None }, &en),
            "Your SCORE clock is running: a new roll now fails it, for −1."
        );
        assert!(cost(&Cost::Score { name: Some("Ben".into()), claimant: Some(Some("Ana".into())) }, &en)
            .contains("judges Ana's IMPOSSIBLE claim"));
        assert!(
            cost(&Cost::Impossible { name: Some("Ben".into()) }, &en).starts_with("Ben's IMPOSSIBLE claim is running")
        );
    }

    #[test]
    fn what_is_wrong_with_a_form_reads_as_before_in_english() {
        use crate::forms::{dice, goal, player_names, roll_for, whole, Entry};
        let en = Catalog::english();
        let said = |e: crate::forms::FormError| form_error(&e, &en);
        assert_eq!(said(dice("6 6").unwrap_err()), "Enter 3 to 6 dice (you entered 2).");
        assert_eq!(said(goal("abc").unwrap_err()), "The goal must be a whole number, not “abc”.");
        assert_eq!(said(goal("").unwrap_err()), "The goal is missing.");
        assert_eq!(said(goal("-1000").unwrap_err()), "The goal must be from −999 to 9999.");
        let clock = whole("3", Entry::ScoreClock, 5, 600).unwrap_err();
        assert_eq!(said(clock.into()), "The SCORE clock must be from 5 to 600.");
        assert_eq!(said(roll_for("1 2 3", &[6, 6, 12, 20]).unwrap_err()), "Enter 4 numbers (you entered 3).");
        assert_eq!(said(player_names("ana\nAna").unwrap_err()), "“Ana” is in the list twice.");
        let pseudo = Catalog::pseudo();
        assert!(form_error(&dice("6").unwrap_err(), &pseudo).starts_with("[Éntér"));
    }

    #[test]
    fn notices_name_what_they_speak_of() {
        let en = Catalog::english();
        assert_eq!(
            notice(&Notice::Unreadable(Stored::Daily), &en),
            "Your saved daily results could not be read, so Score started fresh (the old data is kept aside)."
        );
        assert!(
            notice(&Notice::LanguageUnavailable(score_i18n::Lang::Fr), &en).starts_with("Français could not be loaded")
        );
    }

    #[test]
    fn what_the_table_says_is_worded_in_the_pages_language() {
        let en = Catalog::english();
        assert_eq!(
            said(&Said::Rolled { roll: vec![2, 5, 12, 12], goal: 20 }, &[], &en),
            "New roll: 2 5 12 12. Make 20."
        );
        assert_eq!(said(&Said::ClockRuns { score: true, secs: 30 }, &[], &en), "SCORE: the clock runs 30 seconds.");
        assert_eq!(
            said(&Said::Board(BoardError::Move(score_engine::MoveError::DivideByZero)), &[], &en),
            "You can't divide by zero."
        );
        let pseudo = Catalog::pseudo();
        assert!(said(&Said::Undone, &[], &pseudo).starts_with("[Mövé"));
    }
}
