//! Reading what players type: whole numbers, lists of them, and Experiment's numbers and
//! goal. Every reader returns a sentence a player can act on instead of failing. The app's
//! forms and the `score` command read through these same functions, so both accept the
//! same input and refuse it in the same words.

use crate::solve::MAX_NUMBERS;

/// Lowest number accepted in Experiment.
pub const MIN_EXPERIMENT: i64 = -9999;
/// Highest number accepted in Experiment.
pub const MAX_EXPERIMENT: i64 = 99_999;

/// The words of a list: numbers apart by spaces, commas or semicolons.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|w| !w.is_empty())
}

/// A whole number in `lo..=hi`, named `what` in the message.
pub fn whole(text: &str, what: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let t = text.trim().replace('−', "-");
    if t.is_empty() {
        return Err(format!("{what} is missing."));
    }
    let n: i64 = t.parse().map_err(|_| format!("{what} must be a whole number, not “{}”.", text.trim()))?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{what} must be from {lo} to {hi}."))
    }
}

/// Several whole numbers in `lo..=hi`, between `min` and `max` of them.
pub fn numbers(text: &str, min: usize, max: usize, lo: i64, hi: i64) -> Result<Vec<i64>, String> {
    let mut out = Vec::new();
    for w in words(text) {
        out.push(whole(w, "Each number", lo, hi)?);
    }
    if out.len() < min || out.len() > max {
        return Err(if min == max {
            format!("Enter {min} numbers (you entered {}).", out.len())
        } else {
            format!("Enter {min} to {max} numbers (you entered {}).", out.len())
        });
    }
    Ok(out)
}

/// Fewest numbers Experiment takes (a goal from two numbers in one move never counts).
pub const MIN_NUMBERS: usize = 3;

/// Numbers and goal for Experiment (and `score solve`): 3 to 6 numbers and a goal, each a
/// whole number from −9999 to 99999; each field's own message.
pub fn experiment(numbers_text: &str, goal_text: &str) -> (Result<Vec<i64>, String>, Result<i64, String>) {
    (
        numbers(numbers_text, MIN_NUMBERS, MAX_NUMBERS, MIN_EXPERIMENT, MAX_EXPERIMENT),
        whole(goal_text, "The goal", MIN_EXPERIMENT, MAX_EXPERIMENT),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn experiment_reads_numbers_and_goal_or_says_what_is_wrong() {
        assert_eq!(experiment("9 9 9 9", "20"), (Ok(vec![9, 9, 9, 9]), Ok(20)));
        assert_eq!(experiment("1, 2; 3", "−5"), (Ok(vec![1, 2, 3]), Ok(-5)));
        assert_eq!(experiment("1 2", "20").0, Err("Enter 3 to 6 numbers (you entered 2).".into()));
        assert_eq!(experiment("1 2 3 4 5 6 7", "20").0, Err("Enter 3 to 6 numbers (you entered 7).".into()));
        assert_eq!(experiment("1 x 3", "20").0, Err("Each number must be a whole number, not “x”.".into()));
        assert_eq!(experiment("1 2 100000", "20").0, Err("Each number must be from -9999 to 99999.".into()));
        assert_eq!(experiment("1 2 3", "").1, Err("The goal is missing.".into()));
        assert_eq!(experiment("1 2 3", "123456").1, Err("The goal must be from -9999 to 99999.".into()));
    }
}
