//! What a kept class costs after a school year, measured: a class of 35 that met 72 times
//! (twice a week), 20 rolls a lesson, each with a claim judged, and was set a 10-roll homework
//! each week that every student played to the end. Prints the stored room's size, the time to
//! make its Progress, the start-up of a server holding CLASSES of them, the time to read every
//! class whole (what start-up took before classes were read when first asked for), and the
//! time to read one back.
//!
//! `cargo run --release -p score-server --example class_year [CLASSES]` (500 by default;
//! with `CLASS_YEAR_KEEP=1` in the environment the database is left for a look).

use std::collections::HashMap;
use std::time::Instant;

use score_engine::Rules;
use score_room::protocol::{Claim, HomeworkCommand};
use score_room::room::{Assignment, Deal, Input, Room};
use score_server::hub::{Hub, Limits};
use score_server::store::{Store, StoredRoom};

const STUDENTS: usize = 35;
const LESSONS: u64 = 72;
const ROLLS: u64 = 20;
const HOMEWORK_ROLLS: usize = 10;

fn year_of_lessons() -> Room {
    let rules = Rules::default();
    let deals = [Deal::new(vec![1, 1, 1, 4], &rules), Deal::new(vec![2, 5, 12, 12], &rules)];
    let mut r = Room::new(rules, true, deals[0].clone());
    r.apply(Input::Keep { kept: true }, 0).unwrap();
    for i in 0..STUDENTS {
        r.apply(Input::Join { name: format!("Student {i:02}") }, 0).unwrap();
    }
    let mut now = 1;
    for lesson in 0..LESSONS {
        for roll in 0..ROLLS {
            r.apply(Input::NewRoll { deal: deals[(roll % 2) as usize].clone() }, now).unwrap();
            let seat = ((lesson * ROLLS + roll) as usize * 7) % STUDENTS;
            r.apply(Input::Claim { seat, claim: Claim::Impossible }, now + 1).unwrap();
            r.apply(Input::RevealNow { seat }, now + 2).unwrap();
            now += 3;
        }
        r.apply(Input::EndLesson, now).unwrap();
        now += 1;
        if lesson % 2 == 1 {
            // The week's homework, played by everyone to its end.
            let hw: Vec<Deal> = (0..HOMEWORK_ROLLS).map(|i| deals[i % 2].clone()).collect();
            let assignment = Assignment::new(hw, r.rules(), false, false, now + 7 * 86_400_000);
            r.apply(Input::SetHomework { assignment }, now).unwrap();
            for seat in 0..STUDENTS {
                let mut play = |command| r.apply(Input::Homework { seat, command }, now).unwrap();
                play(HomeworkCommand::Start);
                for _ in 0..HOMEWORK_ROLLS {
                    play(HomeworkCommand::Claim { claim: Claim::Impossible });
                    play(HomeworkCommand::Reveal);
                    play(HomeworkCommand::Next);
                }
            }
            now += 1;
        }
    }
    r
}

fn median_ms(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let classes: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let room = year_of_lessons();
    let stored = StoredRoom { room: room.saved().clone(), host: "h".repeat(32), tokens: HashMap::new(), active_ms: 1 };
    let json = serde_json::to_string(&stored).unwrap();
    let rows = room.progress().len();
    let progress: Vec<f64> = (0..21)
        .map(|_| {
            let t = Instant::now();
            let p = room.progress();
            let text = serde_json::to_string(&p).unwrap();
            std::hint::black_box(text);
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!(
        "a class of {STUDENTS}, {LESSONS} lessons of {ROLLS} rolls and {} homeworks of {HOMEWORK_ROLLS}: stored room {} bytes (JSON), Progress {rows} rows",
        LESSONS / 2,
        json.len()
    );
    println!("Progress made and written as JSON: {:.2} ms (median of 21)", median_ms(progress));

    let dir = std::env::temp_dir().join(format!("score-class-year-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::open(&dir).unwrap();
    let t = Instant::now();
    for i in 0..classes {
        store.save_lightly(&format!("C{i:05}"), &stored).unwrap();
    }
    println!("{classes} classes written in {:.1} s", t.elapsed().as_secs_f64());
    drop(store);
    let file = std::fs::metadata(dir.join("score.sqlite3")).map(|m| m.len()).unwrap_or(0);
    println!("database: {:.1} MB", file as f64 / 1e6);
    let t = Instant::now();
    let (loaded, _) = Store::open(&dir).unwrap().load().unwrap();
    println!("every class read whole: {:.2} s ({} rooms)", t.elapsed().as_secs_f64(), loaded.len());
    drop(loaded);
    let t = Instant::now();
    let hub = Hub::with_limits(Some(Store::open(&dir).unwrap()), Rules::default(), Limits::default());
    println!("start-up with {classes} classes: {:.3} s (each read when first asked for)", t.elapsed().as_secs_f64());
    drop(hub);
    // What the first student or teacher in a class waits for it to be read back.
    let store = Store::open(&dir).unwrap();
    let wake: Vec<f64> = (0..21)
        .map(|i| {
            let t = Instant::now();
            let stored = store.load_one(&format!("C{i:05}")).unwrap().unwrap();
            std::hint::black_box(Room::restore(stored.room, 2));
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!("one class read back: {:.1} ms (median of 21)", median_ms(wake));
    // Kept for a cross-check with the real binary (`score-server --data DIR`), if asked.
    match std::env::var_os("CLASS_YEAR_KEEP") {
        Some(_) => println!("database kept in {}", dir.display()),
        None => {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
