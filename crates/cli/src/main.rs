//! `score`: the Score solver on the command line, for teachers and scripts.
//!
//! ```text
//! score solve 2 5 12 12 [--goal 20] [--preset score|24] [--json]
//! score impossibles [--dice 6,6,12,20] [--goal 20] [--preset score|24] [--json]
//! score worksheet [--count 20] [--difficulty 1-5] [--preset score|24] [--format text|markdown|html] [--seed [V-]N]
//!                 [--lang en|es|fr|de|pt-BR|ar] [--ops cross|dot]
//! score rate [--dice 6,6,12,20] [--goal 20] [--preset score|24] [--json]   < rolls, one a line
//! ```
//! Bad arguments print one line to stderr and exit with status 2.

use std::io::Write;
use std::process::ExitCode;

use score_engine::entry;
use score_engine::practice::{self, SplitMix64, WorksheetItem};
use score_engine::roll::roll_text;
use score_engine::solve::{impossible_rolls, solutions, Puzzle};
use score_engine::{Num, Preset, Rules};
use score_i18n::{escape_html, Catalog, Key, Lang, Ops};
use serde::Serialize;

const USAGE: &str = "usage: score solve N N N [N…] [--goal G] [--preset score|24] [--json]
       score impossibles [--dice S,S,S[,…]] [--goal G] [--preset score|24] [--json]
       score worksheet [--count N] [--difficulty 1-5] [--preset score|24] [--format text|markdown|html] [--seed [V-]N]
                       [--lang en|es|fr|de|pt-BR|ar] [--ops cross|dot]
       score rate [--dice S,S,S[,…]] [--goal G] [--preset score|24] [--json]   < rolls, one a line (2 5 12 12)

A worksheet names its seed as VERSION-SEED (2-7): the same seed makes the same sheet again.
A seed without a version (7) is one from before versions, and makes the sheet of version 1.
rate prints each roll's rating (expected seconds to a solution for a typical player) and level
(1-5 among the dice's solvable rolls; none when the roll has no solution).";

#[derive(Debug, PartialEq)]
enum Command {
    Solve {
        numbers: Vec<i64>,
        goal: i64,
        rules: Rules,
        json: bool,
    },
    Impossibles {
        rules: Rules,
        json: bool,
    },
    Rate {
        rules: Rules,
        json: bool,
    },
    Worksheet {
        rules: Rules,
        count: usize,
        difficulty: Option<u8>,
        format: Format,
        seed: u64,
        /// The difficulty model's version the sheet is made by (the seed's `V-`).
        version: u8,
        lang: Lang,
        /// × ÷ or · : (none: the language's way).
        ops: Option<Ops>,
    },
    Help,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Markdown,
    Html,
}

fn parse_int(flag: &str, v: &str) -> Result<i64, String> {
    v.trim().parse().map_err(|_| format!("{flag} needs a whole number, not “{v}”"))
}

/// A worksheet's seed: `VERSION-SEED`, or a bare seed from before versions (version 1).
fn parse_seed(v: &str) -> Result<(u8, u64), String> {
    let bad = || format!("--seed needs a whole number, or a version and one (2-7), not “{v}”");
    let (version, seed) = match v.trim().split_once('-') {
        Some((ver, n)) => (ver.parse::<u8>().map_err(|_| bad())?, n),
        None => (1, v.trim()),
    };
    if !(1..=practice::SHEET_VERSION).contains(&version) {
        return Err(format!(
            "--seed {v} is of version {version}; this score makes sheets of versions 1 to {}",
            practice::SHEET_VERSION
        ));
    }
    Ok((version, seed.parse().map_err(|_| bad())?))
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut it = args.iter();
    let sub = it.next().ok_or("missing command: solve or impossibles")?;
    if matches!(sub.as_str(), "-h" | "--help" | "help") {
        return Ok(Command::Help);
    }
    let mut rules = Rules::default();
    let (mut goal, mut dice, mut json, mut numbers) = (None::<String>, None, false, Vec::new());
    let (mut count, mut difficulty, mut format, mut seed) = (20usize, None, Format::Text, None);
    let (mut lang, mut ops) = (None, None);
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
        match a.as_str() {
            "--json" => json = true,
            "--goal" => goal = Some(value("--goal")?),
            "--preset" => {
                let v = value("--preset")?;
                rules = Rules::preset(Preset::from_key(&v).ok_or(format!("unknown preset “{v}” (score or 24)"))?);
            }
            "--dice" => {
                let v = value("--dice")?;
                let sides: Result<Vec<u32>, _> = v.split(',').map(|s| s.trim().parse::<u32>()).collect();
                dice = Some(sides.map_err(|_| format!("--dice needs sides like 6,6,12,20, not “{v}”"))?);
            }
            "--count" => {
                let v = value("--count")?;
                count = v.parse().map_err(|_| format!("--count needs a whole number from 1 to 50, not “{v}”"))?;
            }
            "--difficulty" => {
                let v = value("--difficulty")?;
                difficulty = Some(v.parse().map_err(|_| format!("--difficulty needs 1 to 5, not “{v}”"))?);
            }
            "--format" => {
                let v = value("--format")?;
                format = match v.as_str() {
                    "text" => Format::Text,
                    "markdown" | "md" => Format::Markdown,
                    "html" => Format::Html,
                    _ => return Err(format!("unknown format “{v}” (text, markdown or html)")),
                };
            }
            "--lang" => {
                let v = value("--lang")?;
                let codes = Lang::ALL.map(Lang::code).join(", ");
                lang = Some(Lang::from_code(&v).ok_or_else(|| format!("--lang needs one of {codes}, not “{v}”"))?);
            }
            "--ops" => {
                let v = value("--ops")?;
                ops =
                    Some(Ops::from_code(&v).ok_or_else(|| format!("--ops needs cross (× ÷) or dot (· :), not “{v}”"))?);
            }
            "--seed" => seed = Some(parse_seed(&value("--seed")?)?),
            "-h" | "--help" => return Ok(Command::Help),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            n if sub == "solve" => numbers.push(n),
            other => return Err(format!("unexpected argument “{other}”")),
        }
    }
    if sub == "solve" {
        // The numbers and goal are checked as the app's Experiment checks them, in its words.
        let goal = goal.unwrap_or_else(|| rules.goal.to_string());
        let (numbers, goal) = entry::experiment(&numbers.join(" "), &goal);
        return Ok(Command::Solve {
            numbers: numbers.map_err(|e| e.to_string())?,
            goal: goal.map_err(|e| e.to_string())?,
            rules,
            json,
        });
    }
    if let Some(g) = goal {
        rules.goal = parse_int("--goal", &g)?;
    }
    if let Some(d) = dice {
        rules.dice = d;
    }
    if let Err(errors) = rules.validate() {
        return Err(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "));
    }
    match sub.as_str() {
        "impossibles" => Ok(Command::Impossibles { rules, json }),
        "worksheet" => {
            if !(1..=practice::MAX_WORKSHEET).contains(&count) {
                return Err(format!("--count must be from 1 to 50, not {count}"));
            }
            if let Some(d) = difficulty.filter(|d| !(1..=5).contains(d)) {
                return Err(format!("--difficulty must be from 1 to 5, not {d}"));
            }
            let (version, seed) = seed.unwrap_or_else(|| {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
                (practice::SHEET_VERSION, now.map_or(1, |d| d.as_nanos() as u64))
            });
            Ok(Command::Worksheet {
                rules,
                count,
                difficulty,
                format,
                seed,
                version,
                lang: lang.unwrap_or(Lang::En),
                ops,
            })
        }
        "rate" => Ok(Command::Rate { rules, json }),
        other => Err(format!("unknown command “{other}” (solve, impossibles, worksheet or rate)")),
    }
}

#[derive(Serialize)]
struct SolveOut {
    numbers: Vec<i64>,
    goal: i64,
    solutions: Vec<SolutionOut>,
}

#[derive(Serialize)]
struct SolutionOut {
    expr: String,
    steps: Vec<String>,
}

#[derive(Serialize)]
struct ImpossiblesOut {
    dice: Vec<u32>,
    goal: i64,
    rolls: u64,
    impossible: Vec<Vec<i64>>,
    probability: f64,
}

/// A worksheet: the rolls with room to work, then an answer key on its own page.
/// The worksheet in `words`' language: its title, headings and answer key's heading (rolls
/// and working are numbers and symbols, read left to right in every language, with × and ÷
/// written `words`' way).
fn render_worksheet(
    items: &[WorksheetItem],
    rules: &Rules,
    difficulty: Option<u8>,
    sheet: &str,
    format: Format,
    words: &Catalog,
) -> String {
    let goal = rules.goal.to_string();
    let level = difficulty
        .map_or(String::new(), |d| format!(" · {}", words.text(Key::DifficultyOf, &[("level", &d.to_string())])));
    let title = format!("Score: {}{level} · {sheet}", words.text(Key::WorksheetTitle, &[("goal", &goal)]));
    let answers = words.text(Key::AnswerKey, &[]);
    let steps = |i: &WorksheetItem| {
        words.signs(&i.answer.steps().iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
    };
    let answer = |i: &WorksheetItem| words.signs(&i.answer.to_string());
    match format {
        Format::Text => {
            let mut out = format!("{title}\n\n");
            for (n, i) in items.iter().enumerate() {
                out += &format!("{:>2}. {:<14} ______________________________\n\n", n + 1, roll_text(&i.roll));
            }
            out += &format!("\n{answers}\n\n");
            for (n, i) in items.iter().enumerate() {
                out += &format!("{:>2}. {} → {}    ({})\n", n + 1, roll_text(&i.roll), answer(i), steps(i));
            }
            out
        }
        Format::Markdown => {
            let (roll, working) = (words.text(Key::ColRoll, &[]), words.text(Key::TheWorking, &[]));
            let mut out = format!("# {title}\n\n| # | {roll} | {working} |\n|---|---|---|\n");
            for (n, i) in items.iter().enumerate() {
                out += &format!("| {} | {} | |\n", n + 1, roll_text(&i.roll));
            }
            out += &format!("\n## {answers}\n\n");
            for (n, i) in items.iter().enumerate() {
                out += &format!("{}. {} → `{}` ({})\n", n + 1, roll_text(&i.roll), answer(i), steps(i));
            }
            out
        }
        Format::Html => {
            let mut out = format!(
                "<!doctype html>\n<html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\"><title>{t}</title>\n<style>\
                 body{{font-family:system-ui,sans-serif;margin:2rem}} .roll{{font-size:1.6rem;font-weight:700;\
                 border-bottom:1px solid #999;padding:1rem 0 3rem;break-inside:avoid}} \
                 .answers{{break-before:page}} .ltr{{direction:ltr;unicode-bidi:isolate}}</style></head><body>\n\
                 <h1>{t}</h1>\n<ol class=\"rolls\">\n",
                t = escape_html(&title),
                lang = words.lang().code(),
                dir = if words.lang().rtl() { "rtl" } else { "ltr" },
            );
            for i in items {
                out += &format!(
                    "<li class=\"roll\"><span class=\"ltr\">{}</span></li>\n",
                    escape_html(&roll_text(&i.roll))
                );
            }
            out += &format!("</ol>\n<section class=\"answers\"><h2>{}</h2><ol>\n", escape_html(&answers));
            for i in items {
                out += &format!(
                    "<li><span class=\"ltr\">{} → <strong>{}</strong> ({})</span></li>\n",
                    escape_html(&roll_text(&i.roll)),
                    escape_html(&answer(i)),
                    escape_html(&steps(i))
                );
            }
            out + "</ol></section>\n</body></html>"
        }
    }
}

fn run(cmd: Command) -> Result<String, String> {
    match cmd {
        Command::Worksheet { rules, count, difficulty, format, seed, version, lang, ops } => {
            let mut rng = SplitMix64(seed);
            let items = practice::worksheet_of_version(version, &rules, count, difficulty, || rng.next_u32())
                .map_err(|e| e.to_string())?;
            let sheet = format!("{version}-{seed}");
            Ok(render_worksheet(&items, &rules, difficulty, &sheet, format, &Catalog::builtin(lang).with_ops(ops)))
        }
        Command::Rate { .. } => Err("rate reads rolls from standard input".into()),
        Command::Help => Ok(USAGE.to_string()),
        Command::Solve { numbers, goal, rules, json } => {
            let p =
                Puzzle::new(numbers.iter().map(|&n| Num::int(n)).collect(), Num::int(goal), rules.ops, rules.use_all);
            let list = solutions(&p);
            let out = SolveOut {
                numbers,
                goal,
                solutions: list
                    .iter()
                    .map(|e| SolutionOut {
                        expr: e.to_string(),
                        steps: e.steps().iter().map(ToString::to_string).collect(),
                    })
                    .collect(),
            };
            if json {
                return serde_json::to_string(&out).map_err(|e| e.to_string());
            }
            let nums: Vec<String> = out.numbers.iter().map(ToString::to_string).collect();
            let mut text = format!("{} → {}: {} distinct solutions", nums.join(" "), out.goal, out.solutions.len());
            for s in &out.solutions {
                text += &format!("\n  {}    ({})", s.expr, s.steps.join("; "));
            }
            Ok(text)
        }
        Command::Impossibles { rules, json } => {
            let table = impossible_rolls(&rules).map_err(|e| e.to_string())?;
            let out = ImpossiblesOut {
                dice: rules.dice.clone(),
                goal: rules.goal,
                rolls: table.rolls,
                probability: table.probability(),
                impossible: table.impossible,
            };
            if json {
                return serde_json::to_string(&out).map_err(|e| e.to_string());
            }
            let mut text = format!(
                "{} → {}: {} impossible of {} rolls (chance {:.2}%)",
                score_engine::roll::dice_text(&out.dice),
                out.goal,
                out.impossible.len(),
                out.rolls,
                out.probability * 100.0
            );
            for r in &out.impossible {
                text += &format!("\n  {}", r.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "));
            }
            Ok(text)
        }
    }
}

#[derive(Serialize)]
struct RateOut {
    roll: Vec<i64>,
    /// Expected seconds to a solution for a typical player, to a tenth; none without one.
    rating: Option<f64>,
    level: Option<u8>,
}

/// `score rate`: each line of `input` a roll of `rules`' dice, rated; a line that isn't one
/// is said on `errors` with its number, and the rest are still rated. Blank lines and lines
/// starting with `#` are skipped.
fn rate_lines(rules: &Rules, input: &str, json: bool, errors: &mut Vec<String>) -> String {
    let levels = score_engine::difficulty::Levels::of(rules);
    let mut out = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let faces =
            entry::numbers(line, rules.dice.len(), rules.dice.len(), 1, 100).map_err(|e| e.to_string()).and_then(|f| {
                score_engine::roll::arrange_or_explain(&f, &rules.dice).map(|_| f).map_err(|e| e.to_string())
            });
        let roll = match faces {
            Ok(f) => f,
            Err(e) => {
                errors.push(format!("line {}: {e}", n + 1));
                continue;
            }
        };
        let rated = score_engine::difficulty::rate(&Puzzle::from_roll(&roll, rules), &levels);
        let rating = rated.as_ref().map(|r| (r.seconds * 10.0).round() / 10.0);
        let level = rated.map(|r| r.level);
        out.push(if json {
            serde_json::to_string(&RateOut { roll, rating, level }).unwrap_or_default()
        } else {
            match (rating, level) {
                (Some(s), Some(l)) => format!("{}\t{s:.1} s\tlevel {l}", roll_text(&roll)),
                _ => format!("{}\tno solution", roll_text(&roll)),
            }
        });
    }
    out.join("\n")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Ok(Command::Rate { rules, json }) = parse(&args) {
        let mut input = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut input) {
            eprintln!("score: can't read the rolls: {e}");
            return ExitCode::from(2);
        }
        let mut errors = Vec::new();
        let text = rate_lines(&rules, &input, json, &mut errors);
        let mut out = std::io::stdout().lock();
        if !text.is_empty() {
            let _ = writeln!(out, "{text}");
        }
        for e in &errors {
            eprintln!("score: {e}");
        }
        return if errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
    }
    match parse(&args).and_then(run) {
        Ok(text) => {
            // A reader that stops early (`| head`) is not an error worth a panic.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{text}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("score: {msg}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_solve_with_goal_and_preset() {
        let Command::Solve { numbers, goal, rules, json } = parse(&args("solve 3 3 8 8 --preset 24 --json")).unwrap()
        else {
            panic!("not solve")
        };
        assert_eq!((numbers, goal, rules.use_all, json), (vec![3, 3, 8, 8], 24, true, true));
    }

    #[test]
    fn bad_arguments_are_one_line_errors() {
        for bad in [
            "",
            "solve 1 x 3",
            "solve 1 2 3 --goal",
            "solve 1",
            "impossibles --dice 6,1,12",
            "frobnicate",
            "solve 1 2 3 --preset 25",
        ] {
            let e = parse(&args(bad)).unwrap_err();
            assert!(!e.contains('\n'), "{bad}: {e}");
        }
    }

    /// One check for the app's Experiment and `score solve`: the same input is refused in
    /// the same words (`score solve 1 2` once listed "0 distinct solutions" and exited 0).
    #[test]
    fn solve_checks_numbers_and_goal_as_experiment_does() {
        for (line, numbers, goal) in [
            ("solve 1 2", "1 2", "20"),
            ("solve 1 2 3 4 5 6 7", "1 2 3 4 5 6 7", "20"),
            ("solve 1 x 3", "1 x 3", "20"),
            ("solve 1 2 100000", "1 2 100000", "20"),
            ("solve 1 2 3 --goal 100000", "1 2 3", "100000"),
            ("solve 1 2 3 --goal twenty", "1 2 3", "twenty"),
        ] {
            let (n, g) = entry::experiment(numbers, goal);
            let expected = n.err().or(g.err()).unwrap();
            assert_eq!(parse(&args(line)), Err(expected.to_string()), "{line}");
        }
        // A goal Experiment takes but Settings would not: the range is Experiment's.
        assert!(matches!(parse(&args("solve 97 89 83 79 73 71 --goal 99999")), Ok(Command::Solve { goal: 99999, .. })));
    }

    #[test]
    fn solve_json_has_the_documented_shape() {
        let out = run(parse(&args("solve 9 9 9 9 --json")).unwrap()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["goal"], 20);
        assert_eq!(v["numbers"], serde_json::json!([9, 9, 9, 9]));
        assert!(v["solutions"].as_array().unwrap().iter().any(|s| s["expr"] == "9‖9 ÷ 9 + 9"));
        assert!(v["solutions"][0]["steps"].is_array());
    }

    #[test]
    fn worksheet_answers_make_the_goal_and_formats_differ() {
        for (line, needle) in [
            ("worksheet --count 12 --difficulty 3 --seed 7", "Answer key"),
            ("worksheet --count 12 --difficulty 3 --seed 2-7", "Answer key"),
            ("worksheet --count 5 --preset 24 --format markdown --seed 2-1", "## Answer key"),
            ("worksheet --count 3 --format html --seed 2", "<section class=\"answers\">"),
        ] {
            let Command::Worksheet { rules, count, difficulty, seed, version, format, lang, .. } =
                parse(&args(line)).unwrap()
            else {
                panic!("not a worksheet")
            };
            let mut rng = SplitMix64(seed);
            let items = practice::worksheet_of_version(version, &rules, count, difficulty, || rng.next_u32()).unwrap();
            assert_eq!(items.len(), count);
            for i in &items {
                assert_eq!(i.answer.eval(), Ok(score_engine::Num::int(rules.goal)));
                assert!(difficulty.is_none_or(|d| d == i.difficulty));
            }
            let text = render_worksheet(
                &items,
                &rules,
                difficulty,
                &format!("{version}-{seed}"),
                format,
                &Catalog::builtin(lang),
            );
            assert!(text.contains(needle), "{text}");
            // Same seed, same worksheet.
            assert_eq!(run(parse(&args(line)).unwrap()).unwrap(), text);
        }
        assert!(parse(&args("worksheet --count 0")).is_err());
        assert!(parse(&args("worksheet --difficulty 6")).is_err());
        assert!(parse(&args("worksheet --format pdf")).is_err());
    }

    /// A seed from before versions makes the sheet it made then, under the first model (the
    /// file is that sheet as the command printed it, less its title); the same seed of the
    /// current version makes another, said in its title.
    #[test]
    fn an_old_seed_makes_the_old_sheet_and_a_new_one_says_its_version() {
        let old = run(parse(&args("worksheet --count 8 --difficulty 3 --seed 7")).unwrap()).unwrap();
        let (title, body) = old.split_once('\n').unwrap();
        assert!(title.ends_with(" · 1-7"), "{title}");
        assert_eq!(format!("{body}\n"), include_str!("../tests/golden/worksheet-v1-seed-7.txt"));
        assert_eq!(run(parse(&args("worksheet --count 8 --difficulty 3 --seed 1-7")).unwrap()).unwrap(), old);
        let new = run(parse(&args("worksheet --count 8 --difficulty 3 --seed 2-7")).unwrap()).unwrap();
        assert!(new.starts_with("Score: Make 20 with each roll · Difficulty 3 of 5 · 2-7\n"), "{new}");
        for bad in ["3-7", "x-7", "2-", "-7", "2-x"] {
            assert!(parse(&args(&format!("worksheet --seed {bad}"))).is_err(), "{bad}");
        }
    }

    #[test]
    fn rate_reads_rolls_and_says_bad_lines_by_number() {
        let mut errors = Vec::new();
        let input = "# rolls\n2 5 12 12\n\n1 1 1 4\n7 7 7\n1 2 3 99\n";
        let out = rate_lines(&Rules::default(), input, true, &mut errors);
        let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["roll"], serde_json::json!([2, 5, 12, 12]));
        assert!(lines[0]["rating"].as_f64().is_some_and(|s| s > 3.0) && lines[0]["level"].as_u64().is_some());
        assert_eq!(lines[1], serde_json::json!({"roll": [1, 1, 1, 4], "rating": null, "level": null}));
        assert_eq!(errors.len(), 2);
        assert!(errors[0].starts_with("line 5: ") && errors[1].starts_with("line 6: "), "{errors:?}");
        let text = rate_lines(&Rules::preset(Preset::TwentyFour), "1 2 3 4\n1 1 1 1", false, &mut Vec::new());
        assert!(text.starts_with("1 2 3 4\t") && text.contains("level 1") && text.ends_with("no solution"), "{text}");
        assert!(matches!(parse(&args("rate --preset 24 --json")), Ok(Command::Rate { json: true, .. })));
    }

    #[test]
    fn a_worksheet_speaks_each_language_and_keeps_its_rolls_and_answers() {
        let english = run(parse(&args("worksheet --count 4 --difficulty 2 --seed 9")).unwrap()).unwrap();
        assert!(english.starts_with("Score: Make 20 with each roll · Difficulty 2 of 5 · 1-9\n"), "{english}");
        let rolls_and_answers = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                .map(String::from)
                .collect()
        };
        for lang in Lang::ALL {
            let words = Catalog::builtin(lang);
            let line = format!("worksheet --count 4 --difficulty 2 --seed 9 --lang {}", lang.code());
            let text = run(parse(&args(&line)).unwrap()).unwrap();
            let title = words.text(Key::WorksheetTitle, &[("goal", "20")]);
            assert!(text.starts_with(&format!("Score: {title}")), "{text}");
            assert!(text.contains(&words.text(Key::AnswerKey, &[])), "{text}");
            // The same rolls and answers as in English: only the words change, and × ÷ in a
            // language whose schools write · : (German).
            let crossed = |text: &str| text.replace('·', "×").replace(':', "÷");
            assert_eq!(crossed(&rolls_and_answers(&text).join("\n")), rolls_and_answers(&english).join("\n"));
            let dot = lang.ops() == Ops::Dot;
            let answers = rolls_and_answers(&text).join("\n");
            assert_eq!(answers.contains(" · ") || answers.contains(" : "), dot, "{}: {text}", lang.code());
            if lang != Lang::En {
                assert_ne!(text, english, "{}", lang.code());
            }
            let html = run(parse(&args(&format!("{line} --format html"))).unwrap()).unwrap();
            let dir = if lang.rtl() { "rtl" } else { "ltr" };
            assert!(html.contains(&format!("<html lang=\"{}\" dir=\"{dir}\">", lang.code())), "{html}");
        }
        // A teacher chooses the signs, whatever the language.
        let crossed = run(parse(&args("worksheet --count 4 --difficulty 2 --seed 9 --lang de --ops cross")).unwrap());
        assert_eq!(rolls_and_answers(&crossed.unwrap()), rolls_and_answers(&english));
        let dotted = run(parse(&args("worksheet --count 20 --difficulty 4 --seed 9 --ops dot")).unwrap()).unwrap();
        let answers = rolls_and_answers(&dotted).join("\n");
        assert!(!answers.contains('×') && !answers.contains('÷') && answers.contains(" · "), "{dotted}");
        assert!(parse(&args("worksheet --ops slash")).unwrap_err().contains("cross (× ÷) or dot (· :)"));
        // Written as a browser would, or not at all.
        assert!(parse(&args("worksheet --lang pt-br")).is_ok());
        let wrong = parse(&args("worksheet --lang tlh")).unwrap_err();
        assert!(wrong.contains("en, es, fr, de, pt-BR, ar"), "{wrong}");
    }

    #[test]
    fn impossibles_json_has_the_documented_shape() {
        let out = run(parse(&args("impossibles --json")).unwrap()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["rolls"], 2359);
        assert_eq!(v["impossible"].as_array().unwrap().len(), 104);
        assert_eq!(v["impossible"][0], serde_json::json!([1, 1, 1, 4]));
        assert_eq!(v["dice"], serde_json::json!([6, 6, 12, 20]));
    }
}
