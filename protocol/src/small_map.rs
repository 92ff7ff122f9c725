//! A map tuned for "few entries at a time, many inserts and removals".
//!
//! Pairing tool calls with outputs keeps, at any moment, only the outputs still waiting for
//! their call: usually one, a handful with parallel tool calls. Hashing every call id of a
//! 100k-item history costs more than the rest of the pass, so the newest entries live in a
//! short array searched linearly; only when more are waiting than fit there do the oldest spill
//! into a hash map, which keeps the worst case (thousands of orphan outputs) linear.

use std::collections::HashMap;
use std::hash::Hash;

/// How many entries are searched linearly before older ones spill into the hash map.
const INLINE_CAPACITY: usize = 16;

/// A map from `K` to `V` optimized for small live sizes (see the module docs).
#[derive(Debug)]
pub(crate) struct SmallMap<K, V> {
    /// Newest entries, oldest first. Keys are unique across `recent` and `spill`.
    recent: Vec<(K, V)>,
    spill: HashMap<K, V>,
}

impl<K: Eq + Hash, V> SmallMap<K, V> {
    pub(crate) fn new() -> Self {
        Self {
            recent: Vec::with_capacity(INLINE_CAPACITY),
            spill: HashMap::new(),
        }
    }

    /// Inserts `value` under `key`, returning the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        if let Some(slot) = self.recent.iter_mut().rev().find(|(k, _)| *k == key) {
            return Some(std::mem::replace(&mut slot.1, value));
        }
        if !self.spill.is_empty()
            && let Some(slot) = self.spill.get_mut(&key)
        {
            return Some(std::mem::replace(slot, value));
        }
        if self.recent.len() == INLINE_CAPACITY {
            let (old_key, old_value) = self.recent.remove(0);
            self.spill.insert(old_key, old_value);
        }
        self.recent.push((key, value));
        None
    }

    /// Removes and returns the value under `key`.
    pub(crate) fn remove(&mut self, key: &K) -> Option<V> {
        if let Some(position) = self.recent.iter().rposition(|(k, _)| k == key) {
            return Some(self.recent.remove(position).1);
        }
        if self.spill.is_empty() {
            None
        } else {
            self.spill.remove(key)
        }
    }

    /// How many entries there are.
    pub(crate) fn len(&self) -> usize {
        self.recent.len() + self.spill.len()
    }

    /// Every remaining value, in no particular order.
    pub(crate) fn into_values(self) -> impl Iterator<Item = V> {
        self.recent
            .into_iter()
            .map(|(_, value)| value)
            .chain(self.spill.into_values())
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn behaves_like_a_map_across_the_spill_boundary() {
        let mut small = SmallMap::new();
        let mut reference = HashMap::new();
        // Deterministic mix of inserts and removals over 40 keys, so entries spill and return.
        let mut state = 7u64;
        for _ in 0..5_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let key = (state >> 33) % 40;
            let value = state % 1_000;
            if state.is_multiple_of(3) {
                assert_eq!(small.remove(&key), reference.remove(&key));
            } else {
                assert_eq!(small.insert(key, value), reference.insert(key, value));
            }
        }
        let mut left: Vec<u64> = small.into_values().collect();
        let mut expected: Vec<u64> = reference.into_values().collect();
        left.sort_unstable();
        expected.sort_unstable();
        assert_eq!(left, expected);
    }
}
