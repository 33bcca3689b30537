//! Sorting the few items of one roll (its dice, its faces, an expression's terms): an
//! insertion sort. For so few items it is as quick as the standard library's sorts, which
//! link a few kilobytes of code into the page's wasm for each type they sort.

/// Sorts `v`, a few items, keeping equal items in their order.
pub fn sort<T: Ord>(v: &mut [T]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j] < v[j - 1] {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Sorts `v`, a few items, by `key`, keeping items of equal keys in their order.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && key(&v[j]) < key(&v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_as_the_standard_stable_sort(v in prop::collection::vec((0u8..6, any::<u16>()), 0..12)) {
            let mut mine = v.clone();
            sort_by_key(&mut mine, |(k, _)| *k);
            let mut std = v.clone();
            std.sort_by_key(|(k, _)| *k);
            prop_assert_eq!(&mine, &std);
            let mut whole = v.clone();
            sort(&mut whole);
            let mut std = v;
            std.sort();
            prop_assert_eq!(whole, std);
        }
    }
}
