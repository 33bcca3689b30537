//! Rolling dice and enumerating rolls.
//!
//! Randomness is injected: [`roll`] takes any source of uniform `u32`s (the
//! app passes the browser's crypto RNG, tests pass a fixed sequence) and uses
//! rejection sampling, so every face is exactly equally likely. A "sorted
//! roll" is a roll as a multiset; [`sorted_rolls`] lists each once with the
//! number of ordered outcomes that produce it, for probabilities.

/// Rolls each die once: `dice[i]` sides → a face in `1..=dice[i]`.
pub fn roll(dice: &[u32], mut next_u32: impl FnMut() -> u32) -> Vec<i64> {
    dice.iter().map(|&sides| face(sides.max(1), &mut next_u32)).collect()
}

fn face(sides: u32, next_u32: &mut impl FnMut() -> u32) -> i64 {
    // Accept only the largest multiple of `sides` below 2^32, so no face is favoured.
    let zone = (1u64 << 32) - (1u64 << 32) % sides as u64;
    loop {
        let x = next_u32() as u64;
        if x < zone {
            return (x % sides as u64) as i64 + 1;
        }
    }
}

/// Whether solving `numbers` may answer `roll` (for the same goal): they hold three or more
/// of its numbers (all of a shorter roll). A solution takes two moves at least, so three
/// numbers; any solution on numbers the roll has is one of the roll's: "2 12 12",
/// "2 12 12 7" and the roll with 1 added all list 2‖(12 − 12).
pub fn answers(roll: &[i64], numbers: &[i64]) -> bool {
    let mut left = roll.to_vec();
    let shared =
        numbers.iter().filter(|n| left.iter().position(|m| m == *n).map(|i| left.swap_remove(i)).is_some()).count();
    shared >= roll.len().min(3)
}

/// How many distinct sorted rolls the dice have (cheap; check before listing).
pub fn count_sorted_rolls(dice: &[u32]) -> u64 {
    let mut sides: Vec<u32> = dice.to_vec();
    crate::small_sort::sort(&mut sides);
    let top = sides.last().copied().unwrap_or(0) as usize;
    // ways[v] = nondecreasing prefixes ending in value v.
    let mut ways = vec![0u64; top + 1];
    for (i, &s) in sides.iter().enumerate() {
        let mut next = vec![0u64; top + 1];
        let mut running = if i == 0 { 1 } else { 0 };
        for v in 1..=s as usize {
            if i > 0 {
                running += ways[v];
            }
            next[v] = running;
        }
        ways = next;
    }
    ways.iter().sum()
}

/// Every distinct roll as an ascending list, with the number of ordered outcomes giving it.
///
/// With the dice sorted by sides, an ascending tuple `v` is a possible roll exactly
/// when `v[i] ≤ sides[i]` for every `i`.
pub fn sorted_rolls(dice: &[u32]) -> Vec<(Vec<i64>, u64)> {
    let mut out = Vec::new();
    for_each_sorted_roll(dice, |faces| out.push((faces.to_vec(), ordered_outcomes(dice, faces))));
    out
}

/// Calls `f` with every distinct roll as an ascending list, without collecting them.
pub fn for_each_sorted_roll(dice: &[u32], mut f: impl FnMut(&[i64])) {
    let mut sides: Vec<u32> = dice.to_vec();
    crate::small_sort::sort(&mut sides);
    let mut cur = Vec::with_capacity(sides.len());
    fn rec(sides: &[u32], cur: &mut Vec<i64>, f: &mut impl FnMut(&[i64])) {
        let i = cur.len();
        if i == sides.len() {
            f(cur);
            return;
        }
        let lo = cur.last().copied().unwrap_or(1);
        for v in lo..=sides[i] as i64 {
            cur.push(v);
            rec(sides, cur, f);
            cur.pop();
        }
    }
    rec(&sides, &mut cur, &mut f);
}

/// `faces` (in any order) put on dice that can show them, in `dice` order: the
/// sorted faces go onto the dice sorted by sides. `None` when they cannot all be rolled.
pub fn arrange(faces: &[i64], dice: &[u32]) -> Option<Vec<i64>> {
    if faces.len() != dice.len() {
        return None;
    }
    let mut sorted = faces.to_vec();
    crate::small_sort::sort(&mut sorted);
    let mut order: Vec<usize> = (0..dice.len()).collect();
    crate::small_sort::sort_by_key(&mut order, |&i| dice[i]);
    let mut placed = vec![0; dice.len()];
    for (&i, &f) in order.iter().zip(&sorted) {
        if f < 1 || f > dice[i] as i64 {
            return None;
        }
        placed[i] = f;
    }
    Some(placed)
}

/// [`arrange`], or the sentence that says why the faces can't be rolled with these dice
/// ("7 7 7 1 can't be rolled with d6 d6 d12 d20."): the one wording for typed rolls,
/// links and a room host's roll.
pub fn arrange_or_explain(faces: &[i64], dice: &[u32]) -> Result<Vec<i64>, crate::entry::EntryError> {
    arrange(faces, dice).ok_or_else(|| crate::entry::EntryError::CantRoll { roll: faces.to_vec(), dice: dice.to_vec() })
}

/// Why `faces` can't be rolled with `dice`, in words.
pub fn cant_roll(faces: &[i64], dice: &[u32]) -> String {
    format!("{} can't be rolled with {}.", roll_text(faces), dice_text(dice))
}

/// Dice as players name them: "d6 d6 d12 d20".
pub fn dice_text(dice: &[u32]) -> String {
    dice.iter().map(|s| format!("d{s}")).collect::<Vec<_>>().join(" ")
}

/// A roll as players write it: "2 5 12 12".
pub fn roll_text(roll: &[i64]) -> String {
    roll.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// How many ordered outcomes of `dice` sort to the ascending `faces`.
pub fn ordered_outcomes(dice: &[u32], faces: &[i64]) -> u64 {
    fn rec(dice: &[u32], left: &mut Vec<(i64, u32)>) -> u64 {
        let Some((&sides, rest)) = dice.split_first() else {
            return 1;
        };
        let mut total = 0;
        for k in 0..left.len() {
            let (v, n) = left[k];
            if n > 0 && v <= sides as i64 {
                left[k].1 -= 1;
                total += rec(rest, left);
                left[k].1 += 1;
            }
        }
        total
    }
    let mut counts: Vec<(i64, u32)> = Vec::new();
    for &f in faces {
        match counts.iter_mut().find(|(v, _)| *v == f) {
            Some((_, n)) => *n += 1,
            None => counts.push((f, 1)),
        }
    }
    rec(dice, &mut counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dice_have_2359_sorted_rolls_covering_8640_outcomes() {
        let rolls = sorted_rolls(&[6, 6, 12, 20]);
        assert_eq!(rolls.len(), 2359);
        assert_eq!(count_sorted_rolls(&[20, 6, 12, 6]), 2359);
        assert_eq!(rolls.iter().map(|r| r.1).sum::<u64>(), 6 * 6 * 12 * 20);
    }

    #[test]
    fn twenty_four_deals() {
        assert_eq!(count_sorted_rolls(&[13; 4]), 1820);
        assert_eq!(count_sorted_rolls(&[10; 4]), 715);
        assert_eq!(count_sorted_rolls(&[9; 4]), 495);
    }

    #[test]
    fn outcome_counts() {
        assert_eq!(ordered_outcomes(&[6, 6, 12, 20], &[1, 1, 1, 1]), 1);
        assert_eq!(ordered_outcomes(&[6, 6, 12, 20], &[1, 2, 3, 4]), 24);
        // 13 and 20 can only come from the d20, 12 only from the d12 or d20.
        assert_eq!(ordered_outcomes(&[6, 6, 12, 20], &[1, 2, 12, 13]), 2);
    }

    #[test]
    fn faces_are_put_on_dice_that_can_show_them() {
        assert_eq!(arrange(&[20, 1, 1, 1], &[6, 6, 12, 20]), Some(vec![1, 1, 1, 20]));
        assert_eq!(arrange(&[12, 12, 2, 5], &[20, 6, 12, 6]), Some(vec![12, 2, 12, 5]));
        assert_eq!(arrange(&[7, 7, 7, 1], &[6, 6, 12, 20]), None);
        assert_eq!(arrange(&[0, 1, 1, 1], &[6, 6, 12, 20]), None);
        assert_eq!(arrange(&[1, 1, 1], &[6, 6, 12, 20]), None);
        assert_eq!(roll_text(&[2, 5, 12, 12]), "2 5 12 12");
    }

    #[test]
    fn roll_is_in_range_and_rejects_the_biased_zone() {
        let mut seq = [u32::MAX, 7, 0, 5].into_iter();
        // u32::MAX falls in the rejected zone for a d6; 7 → face 2.
        assert_eq!(roll(&[6, 6, 20], || seq.next().unwrap()), vec![2, 1, 6]);
    }
}
