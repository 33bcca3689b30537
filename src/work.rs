//! Work for the solver's Web Worker: what the page asks, what it gets back (plain objects
//! through `postMessage`, see [`crate::codec`]), and [`run`], the one function that does
//! it, in the worker or, where no worker can start, on the page itself.

use score_engine::difficulty::{rate, Levels};
use score_engine::practice::{worksheet_avoiding, WorksheetError};
use score_engine::solve::{impossible_rolls_reporting, solutions_up_to, Puzzle};
use score_engine::{Expr, Num, Rules};
use serde::{Deserialize, Serialize};

use crate::game::roll_text;

/// A long computation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// The impossible rolls of `rules`' dice and goal.
    Impossibles(Rules),
    /// The first `limit` distinct solutions of `numbers` → `goal` under `rules`' operators.
    Solutions { numbers: Vec<i64>, goal: i64, rules: Rules, limit: usize },
    /// The table's roll: its first `limit` distinct solutions and its difficulty.
    Roll { roll: Vec<i64>, rules: Rules, limit: usize },
    /// A worksheet of `count` rolls (of difficulty `level`, if any), drawn from `seed`,
    /// leaving out `avoid` (the table's unsettled roll, if any) and any roll answering it.
    Worksheet {
        rules: Rules,
        count: usize,
        level: Option<u8>,
        seed: u64,
        #[serde(default)]
        avoid: Vec<i64>,
    },
}

/// A job as sent to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Which request of the page's this is (a reply names it).
    pub id: u32,
    /// What to do.
    pub job: Job,
}

/// One listed solution, as text: the expression and its working step by step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed {
    /// The expression, e.g. "2‖(12 − 12)".
    pub expr: String,
    /// Its working, e.g. ["12 − 12 = 0", "2 ‖ 0 = 20"].
    pub steps: Vec<String>,
}

/// Solutions as text.
pub fn listed(list: &[Expr]) -> Vec<Listed> {
    list.iter()
        .map(|e| Listed { expr: e.to_string(), steps: e.steps().iter().map(ToString::to_string).collect() })
        .collect()
}

/// An impossible-rolls table as text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Distinct rolls examined.
    pub rolls: u64,
    /// The impossible rolls, e.g. "1 1 1 4".
    pub impossible: Vec<String>,
    /// The chance that a roll is impossible.
    pub probability: f64,
}

/// One roll of a worksheet, with its answer as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetRoll {
    /// The roll, e.g. "2 5 12 12".
    pub roll: String,
    /// A simplest solution, with its working.
    pub answer: Listed,
}

/// What the worker says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has loaded and takes requests; it names its build's id (scripts/postbuild.py
    /// writes it into the worker's loader as `self.SCORE_BUILD`; empty where none did). The
    /// page refuses a worker of another build than its own.
    Ready(String),
    /// How far request `id` has come.
    Progress { id: u32, done: u64, total: u64 },
    /// The answer to request `id`.
    Done { id: u32, outcome: Outcome },
    /// A message the worker could not read.
    Unreadable(String),
}

/// A job's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Impossible rolls, or why they cannot be listed.
    /// The table, or how many rolls the dice have (too many to list).
    Impossibles(Result<Table, u64>),
    /// Solutions.
    Solutions(Vec<Listed>),
    /// The table's roll: solutions, its level (none: no solution) and its rating, in expected
    /// seconds for a typical player ([`score_engine::difficulty`]).
    Roll {
        solutions: Vec<Listed>,
        difficulty: Option<u8>,
        #[serde(default)]
        seconds: Option<f64>,
    },
    /// A worksheet, or why it cannot be made.
    Worksheet(Result<Vec<SheetRoll>, WorksheetError>),
}

/// SplitMix64: the worksheet's rolls from one seed the page draws (the worker needs no
/// randomness of its own, and a seed gives the same sheet again).
fn seeded(mut seed: u64) -> impl FnMut() -> u32 {
    move || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 32) as u32
    }
}

/// Rolls between progress reports for a table.
pub const PROGRESS_EVERY: u64 = 1000;

/// Does `job` without telling progress (a page's fallback where no worker starts).
pub fn run_all(job: Job) -> Outcome {
    run(job, |_, _| {})
}

/// Does the jobs the table's own views ask for (a roll's solutions, an experiment's), and
/// no table or worksheet: the page's first load links only these. The tools module, which
/// asks for tables and worksheets, runs [`run_all`] instead.
pub fn run_play(job: Job) -> Outcome {
    match job {
        Job::Solutions { numbers, goal, rules, limit } => solutions_of(numbers, goal, &rules, limit),
        Job::Roll { roll, rules, limit } => roll_of(&roll, &rules, limit),
        Job::Impossibles(_) => Outcome::Impossibles(Err(0)),
        Job::Worksheet { .. } => Outcome::Worksheet(Err(WorksheetError::NoneSolvable)),
    }
}

fn solutions_of(numbers: Vec<i64>, goal: i64, rules: &Rules, limit: usize) -> Outcome {
    let p = Puzzle::new(numbers.into_iter().map(Num::int).collect(), Num::int(goal), rules.ops, rules.use_all);
    Outcome::Solutions(listed(&solutions_up_to(&p, limit)))
}

fn roll_of(roll: &[i64], rules: &Rules, limit: usize) -> Outcome {
    let p = Puzzle::from_roll(roll, rules);
    let rated = rate(&p, &Levels::of(rules));
    Outcome::Roll {
        solutions: listed(&solutions_up_to(&p, limit)),
        difficulty: rated.as_ref().map(|r| r.level),
        seconds: rated.map(|r| r.seconds),
    }
}

/// Does `job`, telling `progress(done, total)` on the way.
pub fn run(job: Job, progress: impl FnMut(u64, u64)) -> Outcome {
    match job {
        Job::Impossibles(rules) => Outcome::Impossibles(
            impossible_rolls_reporting(&rules, PROGRESS_EVERY, progress)
                .map(|t| Table {
                    rolls: t.rolls,
                    probability: t.probability(),
                    impossible: t.impossible.iter().map(|r| roll_text(r)).collect(),
                })
                .map_err(|e| e.0),
        ),
        Job::Solutions { numbers, goal, rules, limit } => solutions_of(numbers, goal, &rules, limit),
        Job::Roll { roll, rules, limit } => roll_of(&roll, &rules, limit),
        Job::Worksheet { rules, count, level, seed, avoid } => {
            Outcome::Worksheet(worksheet_avoiding(&rules, count, level, &avoid, seeded(seed)).map(|items| {
                items
                    .iter()
                    .map(|i| SheetRoll {
                        roll: roll_text(&i.roll),
                        answer: listed(std::slice::from_ref(&i.answer)).remove(0),
                    })
                    .collect()
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_survive_json() {
        let req = Request { id: 7, job: Job::Impossibles(Rules::default()) };
        let text = serde_json::to_string(&req).unwrap();
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), req);
        let reply = Reply::Progress { id: 7, done: 1000, total: 2359 };
        assert_eq!(serde_json::from_str::<Reply>(&serde_json::to_string(&reply).unwrap()).unwrap(), reply);
        let hello = Reply::Ready("0903e0e57fc98621".into());
        assert_eq!(serde_json::to_string(&hello).unwrap(), r#"{"Ready":"0903e0e57fc98621"}"#);
    }

    #[test]
    fn a_worker_of_before_build_ids_is_no_hello() {
        // A worker built before hellos named their build says only "Ready": the page must not
        // take that for a worker of its own build.
        assert!(serde_json::from_str::<Reply>(r#""Ready""#).is_err());
    }

    #[test]
    fn the_default_table_reports_progress_and_finds_104_rolls() {
        let mut reports = Vec::new();
        let Outcome::Impossibles(Ok(t)) = run(Job::Impossibles(Rules::default()), |d, n| reports.push((d, n))) else {
            panic!("no table");
        };
        assert_eq!((t.rolls, t.impossible.len()), (2359, 104));
        assert_eq!(t.impossible[0], "1 1 1 4");
        assert_eq!(reports, [(1000, 2359), (2000, 2359)]);
    }

    #[test]
    fn a_worksheet_comes_from_its_seed() {
        let job = Job::Worksheet { rules: Rules::default(), count: 5, level: Some(3), seed: 42, avoid: vec![] };
        let Outcome::Worksheet(Ok(sheet)) = run(job.clone(), |_, _| {}) else { panic!("no sheet") };
        assert_eq!(sheet.len(), 5);
        assert_eq!(run(job, |_, _| {}), Outcome::Worksheet(Ok(sheet)));
    }

    #[test]
    fn solutions_come_as_text_with_their_working() {
        let job = Job::Solutions { numbers: vec![2, 5, 12, 12], goal: 20, rules: Rules::default(), limit: 300 };
        let Outcome::Solutions(list) = run(job, |_, _| {}) else { panic!("no list") };
        assert_eq!(
            list[0],
            Listed { expr: "2‖(12 − 12)".into(), steps: vec!["12 − 12 = 0".into(), "2 ‖ 0 = 20".into()] }
        );
    }
}
