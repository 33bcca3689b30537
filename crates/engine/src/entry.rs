//! Reading what players type: whole numbers, lists of them, and Experiment's numbers and
//! goal. Every reader says what is wrong instead of failing, as data ([`EntryError`]: which
//! field, what was typed, the range): the `score` command prints its English
//! ([`std::fmt::Display`]); the app words it in the page's language. Both read through these
//! same functions, so both accept the same input and refuse it for the same reasons.

use crate::solve::MAX_NUMBERS;

/// Lowest number accepted in Experiment.
pub const MIN_EXPERIMENT: i64 = -9999;
/// Highest number accepted in Experiment.
pub const MAX_EXPERIMENT: i64 = 99_999;

/// A field a player types into, as a refusal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    /// The goal.
    Goal,
    /// One of several numbers (Experiment's, a typed roll's).
    Number,
    /// A die's sides.
    Sides,
    /// The SCORE clock's seconds.
    ScoreClock,
    /// The IMPOSSIBLE clock's seconds.
    ImpossibleClock,
    /// How many rolls a worksheet has.
    Rolls,
}

impl Entry {
    /// How English names it at the start of a sentence.
    pub const fn english(self) -> &'static str {
        match self {
            Entry::Goal => "The goal",
            Entry::Number => "Each number",
            Entry::Sides => "Each die's sides",
            Entry::ScoreClock => "The SCORE clock",
            Entry::ImpossibleClock => "The IMPOSSIBLE clock",
            Entry::Rolls => "The number of rolls",
        }
    }
}

/// What is wrong with what a player typed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EntryError {
    /// Nothing typed.
    Missing(Entry),
    /// Not a whole number: what was typed.
    NotWhole(Entry, String),
    /// Out of `lo..=hi`.
    Range(Entry, i64, i64),
    /// Too few or too many numbers.
    Count {
        /// Fewest wanted.
        min: usize,
        /// Most wanted.
        max: usize,
        /// How many were typed.
        got: usize,
    },
    /// A roll the dice can't show.
    CantRoll {
        /// The roll typed.
        roll: Vec<i64>,
        /// The dice.
        dice: Vec<u32>,
    },
}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryError::Missing(e) => write!(f, "{} is missing.", e.english()),
            EntryError::NotWhole(e, text) => write!(f, "{} must be a whole number, not “{text}”.", e.english()),
            EntryError::Range(e, lo, hi) => write!(f, "{} must be from {lo} to {hi}.", e.english()),
            EntryError::Count { min, max, got } if min == max => write!(f, "Enter {min} numbers (you entered {got})."),
            EntryError::Count { min, max, got } => write!(f, "Enter {min} to {max} numbers (you entered {got})."),
            EntryError::CantRoll { roll, dice } => {
                write!(f, "{} can't be rolled with {}.", crate::roll::roll_text(roll), crate::roll::dice_text(dice))
            }
        }
    }
}

impl std::error::Error for EntryError {}

/// The words of a list: numbers apart by spaces, commas or semicolons.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|w| !w.is_empty())
}

/// A whole number in `lo..=hi`, for the field `what`.
pub fn whole(text: &str, what: Entry, lo: i64, hi: i64) -> Result<i64, EntryError> {
    let t = text.trim().replace('−', "-");
    if t.is_empty() {
        return Err(EntryError::Missing(what));
    }
    let n: i64 = t.parse().map_err(|_| EntryError::NotWhole(what, text.trim().to_string()))?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(EntryError::Range(what, lo, hi))
    }
}

/// Several whole numbers in `lo..=hi`, between `min` and `max` of them.
pub fn numbers(text: &str, min: usize, max: usize, lo: i64, hi: i64) -> Result<Vec<i64>, EntryError> {
    let mut out = Vec::new();
    for w in words(text) {
        out.push(whole(w, Entry::Number, lo, hi)?);
    }
    if out.len() < min || out.len() > max {
        return Err(EntryError::Count { min, max, got: out.len() });
    }
    Ok(out)
}

/// Fewest numbers Experiment takes (a goal from two numbers in one move never counts).
pub const MIN_NUMBERS: usize = 3;

/// Numbers and goal for Experiment (and `score solve`): 3 to 6 numbers and a goal, each a
/// whole number from −9999 to 99999; each field's own message.
pub fn experiment(numbers_text: &str, goal_text: &str) -> (Result<Vec<i64>, EntryError>, Result<i64, EntryError>) {
    (
        numbers(numbers_text, MIN_NUMBERS, MAX_NUMBERS, MIN_EXPERIMENT, MAX_EXPERIMENT),
        whole(goal_text, Entry::Goal, MIN_EXPERIMENT, MAX_EXPERIMENT),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said<T>(r: Result<T, EntryError>) -> Result<T, String> {
        r.map_err(|e| e.to_string())
    }

    #[test]
    fn experiment_reads_numbers_and_goal_or_says_what_is_wrong() {
        assert_eq!(experiment("9 9 9 9", "20"), (Ok(vec![9, 9, 9, 9]), Ok(20)));
        assert_eq!(experiment("1, 2; 3", "−5"), (Ok(vec![1, 2, 3]), Ok(-5)));
        assert_eq!(said(experiment("1 2", "20").0), Err("Enter 3 to 6 numbers (you entered 2).".into()));
        assert_eq!(said(experiment("1 2 3 4 5 6 7", "20").0), Err("Enter 3 to 6 numbers (you entered 7).".into()));
        assert_eq!(said(experiment("1 x 3", "20").0), Err("Each number must be a whole number, not “x”.".into()));
        assert_eq!(said(experiment("1 2 100000", "20").0), Err("Each number must be from -9999 to 99999.".into()));
        assert_eq!(said(experiment("1 2 3", "").1), Err("The goal is missing.".into()));
        assert_eq!(said(experiment("1 2 3", "123456").1), Err("The goal must be from -9999 to 99999.".into()));
    }
}
