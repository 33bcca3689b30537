//! Rolls chosen on purpose: the daily puzzle, practice at a difficulty, worksheets.
//!
//! Everything here is deterministic given its seed or random source, so the
//! daily roll is the same on every device and platform for a given date (no
//! network needed), and worksheets can be regenerated from a seed.

use std::collections::HashSet;

use crate::expr::Expr;
use crate::roll;
use crate::rules::Rules;
use crate::solve::{has_difficulty, rated, Puzzle};

/// SplitMix64: a small, well-known generator with a fixed output for a seed.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian; H. Hinnant's algorithm).
pub fn day_number(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number: `(year, month, day)`.
pub fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The daily puzzle's roll for a day: the same for everyone with the same rules.
pub fn daily_roll(rules: &Rules, day: i64) -> Vec<i64> {
    // Mix the rules into the seed so another preset gets another daily roll.
    let mut seed = day as u64 ^ 0x5C0E_DA11_0000_0000;
    for &s in &rules.dice {
        seed = seed.rotate_left(7) ^ s as u64;
    }
    seed ^= (rules.goal as u64).rotate_left(17);
    let mut rng = SplitMix64(seed);
    roll::roll(&rules.dice, || rng.next_u32())
}

/// Most rolls tried when looking for one of a given difficulty.
pub const MAX_TRIES: usize = 5000;

/// A random solvable roll of the given difficulty (1–5), or `None` after [`MAX_TRIES`] rolls.
pub fn roll_of_difficulty(rules: &Rules, level: u8, mut next_u32: impl FnMut() -> u32) -> Option<Vec<i64>> {
    (0..MAX_TRIES).find_map(|_| {
        let r = roll::roll(&rules.dice, &mut next_u32);
        has_difficulty(&Puzzle::from_roll(&r, rules), level).then_some(r)
    })
}

/// One line of a worksheet: a solvable roll and one simplest solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorksheetItem {
    /// The roll.
    pub roll: Vec<i64>,
    /// Its difficulty, 1–5.
    pub difficulty: u8,
    /// A simplest solution, for the answer key.
    pub answer: Expr,
}

/// Most rolls on one worksheet.
pub const MAX_WORKSHEET: usize = 50;

/// Why a worksheet could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorksheetError {
    /// Count out of range.
    #[error("A worksheet has 1 to 50 rolls (not {0}).")]
    Count(usize),
    /// Difficulty out of range.
    #[error("Difficulty runs from 1 to 5 (not {0}).")]
    Difficulty(u8),
    /// No roll of that difficulty turned up.
    #[error("No roll of difficulty {0} turned up for these dice; try another difficulty.")]
    NoneFound(u8),
}

/// `count` distinct solvable rolls (of `level`, if given), each with a simplest solution.
pub fn worksheet(
    rules: &Rules,
    count: usize,
    level: Option<u8>,
    mut next_u32: impl FnMut() -> u32,
) -> Result<Vec<WorksheetItem>, WorksheetError> {
    if !(1..=MAX_WORKSHEET).contains(&count) {
        return Err(WorksheetError::Count(count));
    }
    if let Some(l) = level.filter(|l| !(1..=5).contains(l)) {
        return Err(WorksheetError::Difficulty(l));
    }
    let mut items: Vec<WorksheetItem> = Vec::with_capacity(count);
    // Rolls (sorted) on the sheet already, and rolls found not to fit: a rare level draws the
    // same ones again and again, and each would cost a search. The same seed still gives the
    // same sheet.
    let (mut taken, mut unfit): (HashSet<Vec<i64>>, HashSet<Vec<i64>>) = (HashSet::new(), HashSet::new());
    let mut tries = 0;
    while items.len() < count {
        tries += 1;
        if tries > MAX_TRIES * count.max(4) {
            return Err(WorksheetError::NoneFound(level.unwrap_or(0)));
        }
        let r = roll::roll(&rules.dice, &mut next_u32);
        let mut sorted = r.clone();
        sorted.sort_unstable();
        if taken.contains(&sorted) && tries < MAX_TRIES {
            continue;
        }
        if unfit.contains(&sorted) {
            continue;
        }
        let Some((d, answer)) = rated(&Puzzle::from_roll(&r, rules), level) else {
            unfit.insert(sorted);
            continue;
        };
        taken.insert(sorted);
        items.push(WorksheetItem { roll: r, difficulty: d, answer });
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn day_numbers_round_trip() {
        assert_eq!(day_number(1970, 1, 1), 0);
        assert_eq!(day_number(2026, 11, 22), 20_779);
        assert_eq!(civil_date(20_779), (2026, 11, 22));
        for d in [-1000, 0, 59, 60, 11_016, 20_000, 100_000] {
            let (y, m, dd) = civil_date(d);
            assert_eq!(day_number(y, m, dd), d);
        }
    }

    #[test]
    fn splitmix_is_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn daily_roll_is_fixed_per_day_and_differs_between_days() {
        let rules = Rules::default();
        let today = daily_roll(&rules, 20_779);
        assert_eq!(today, daily_roll(&rules, 20_779));
        assert_ne!(today, daily_roll(&rules, 20_780));
        assert_ne!(today, daily_roll(&Rules::preset(Preset::TwentyFour), 20_779));
        for (face, sides) in today.iter().zip(&rules.dice) {
            assert!((1..=*sides as i64).contains(face));
        }
    }
}
