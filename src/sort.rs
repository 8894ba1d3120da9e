//! Sorting through one shared sort. Each `sort_by` or `sort_by_key` with a
//! closure of its own makes the compiler emit the whole sort algorithm once
//! more (3–5 KiB of wasm each: the page's sorts were 137 KiB, 7 % of its
//! code, before 31 call sites came here). Here the algorithm is instantiated once, over positions compared
//! through a `dyn` call; each caller adds only its comparison and a move into
//! the new order. Stable, like `slice::sort_by`.
//!
//! For lists a person sees (hundreds to a few hundred thousand items): a
//! comparison costs one indirect call more. The indexer's own sorts, on hot
//! paths, stay in `crates/ccscope-index`.

use std::cmp::Ordering;

/// Positions `0..len` in the order `cmp` gives them (stable).
fn positions(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<u32> {
    let mut at: Vec<u32> = (0..len as u32).collect();
    at.sort_by(|&a, &b| cmp(a as usize, b as usize));
    at
}

/// `v.sort_by(cmp)`, without a sort of its own.
pub fn by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let at = positions(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut old: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(at.iter().filter_map(|&i| old[i as usize].take()));
}

/// `v.sort_by_key(key)`, without a sort of its own.
pub fn by_key<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    by(v, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort_does() {
        // Ties by the first field keep their order; the second shows it.
        let mut mine: Vec<(u8, u32)> = (0..500u32).map(|i| ((i * 7919 % 13) as u8, i)).collect();
        let mut std = mine.clone();
        by_key(&mut mine, |x| x.0);
        std.sort_by_key(|x| x.0);
        assert_eq!(mine, std);
        by(&mut mine, |a, b| b.1.cmp(&a.1));
        assert_eq!(mine.iter().map(|x| x.1).collect::<Vec<_>>(), (0..500).rev().collect::<Vec<_>>());
        let mut empty: Vec<String> = Vec::new();
        by_key(&mut empty, |s| s.len());
        assert!(empty.is_empty());
    }
}
