//! A small cache of parsed bodies by row, bounded by the bytes of the lines
//! they came from (a parsed body is about the size of its line).

use std::collections::HashMap;
use std::rc::Rc;

/// Source bytes of parsed lines kept at most by the viewer.
pub const CACHE_BUDGET_BYTES: u64 = 8 << 20;

struct Entry<V> {
    value: Rc<V>,
    /// When it was last put or got (a counter, not a clock).
    used: u64,
    len_bytes: u64,
}

/// Least recently used entries are evicted first once the entries' lengths
/// add up to more than `budget_bytes`; the entry just put always stays,
/// however long. Invariant: `held_bytes` is the sum of the entries' lengths.
pub struct BodyCache<V> {
    map: HashMap<u32, Entry<V>>,
    held_bytes: u64,
    budget_bytes: u64,
    tick: u64,
}

impl<V> BodyCache<V> {
    pub fn new(budget_bytes: u64) -> Self {
        BodyCache { map: HashMap::new(), held_bytes: 0, budget_bytes, tick: 0 }
    }

    pub fn get(&mut self, row: u32) -> Option<Rc<V>> {
        self.tick += 1;
        let tick = self.tick;
        self.map.get_mut(&row).map(|e| {
            e.used = tick;
            e.value.clone()
        })
    }

    pub fn put(&mut self, row: u32, value: Rc<V>, len_bytes: u64) {
        self.tick += 1;
        if let Some(old) = self.map.insert(row, Entry { value, used: self.tick, len_bytes }) {
            self.held_bytes -= old.len_bytes;
        }
        self.held_bytes += len_bytes;
        while self.held_bytes > self.budget_bytes && self.map.len() > 1 {
            let Some(oldest) = self.map.iter().filter(|(&r, _)| r != row).min_by_key(|(_, e)| e.used).map(|(&r, _)| r) else { break };
            if let Some(e) = self.map.remove(&oldest) {
                self.held_bytes -= e.len_bytes;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Bytes of the lines whose bodies are held.
    pub fn held_bytes(&self) -> u64 {
        self.held_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used_first() {
        let mut c = BodyCache::new(100);
        c.put(1, Rc::new("a"), 40);
        c.put(2, Rc::new("b"), 40);
        assert!(c.get(1).is_some(), "1 is now the most recently used");
        c.put(3, Rc::new("c"), 40);
        assert!(c.get(2).is_none(), "2 was the least recently used");
        assert!(c.get(1).is_some() && c.get(3).is_some());
        assert_eq!(c.held_bytes(), 80);
    }

    #[test]
    fn an_entry_over_budget_stays_alone() {
        let mut c = BodyCache::new(10);
        c.put(1, Rc::new(1), 5);
        c.put(2, Rc::new(2), 1_000);
        assert_eq!(c.len(), 1);
        assert_eq!(c.get(2).as_deref(), Some(&2));
        assert_eq!(c.held_bytes(), 1_000);
    }

    #[test]
    fn putting_a_row_again_replaces_its_length() {
        let mut c = BodyCache::new(100);
        c.put(7, Rc::new(1), 60);
        c.put(7, Rc::new(2), 30);
        assert_eq!((c.len(), c.held_bytes()), (1, 30));
        assert_eq!(c.get(7).as_deref(), Some(&2));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the puts and gets: the bytes held are the sum of the
        /// entries' lengths, within budget unless one entry alone exceeds it,
        /// and the last put is always there.
        #[test]
        fn held_bytes_stay_within_budget(ops in proptest::collection::vec((0u32..20, 0u64..50, any::<bool>()), 1..200)) {
            let mut c = BodyCache::new(120);
            let mut lens = std::collections::HashMap::new();
            for (row, len, put) in ops {
                if put {
                    c.put(row, Rc::new(row), len);
                    lens.insert(row, len);
                    prop_assert!(c.get(row).is_some());
                } else {
                    c.get(row);
                }
                let held: u64 = c.map.iter().map(|(r, e)| { assert_eq!(lens[r], e.len_bytes); e.len_bytes }).sum();
                prop_assert_eq!(held, c.held_bytes());
                prop_assert!(c.held_bytes() <= 120 || c.len() == 1);
            }
        }
    }
}
