//! The inbox writer's map of source-id hash → seq (dedup), compact: the one structure that
//! grows with every record stored, so it costs 16 bytes a record in two sorted arrays rather
//! than a hash table's ~34 (a million records: 16 MB, not 36). The newest entries sit in a
//! small hash table and are merged into the arrays in bulk.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Entries held unsorted before a merge: bounds the table, amortizes the merge.
const MERGE_AT: usize = 8192;

/// Id hashes are already uniform 64-bit values: the table hashes them as they are.
#[derive(Default)]
pub(crate) struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) type IdMap = HashMap<u64, u64, BuildHasherDefault<PassThrough>>;

#[derive(Default)]
pub(crate) struct IdIndex {
    /// Sorted, with `seqs` beside it.
    hashes: Vec<u64>,
    seqs: Vec<u64>,
    recent: IdMap,
}

impl IdIndex {
    /// The seq first stored under `hash`.
    pub(crate) fn get(&self, hash: u64) -> Option<u64> {
        if let Some(&s) = self.recent.get(&hash) {
            return Some(s);
        }
        self.hashes.binary_search(&hash).ok().map(|i| self.seqs[i])
    }

    /// Remember `seq` under `hash` unless the hash already has one (the first stays).
    pub(crate) fn insert(&mut self, hash: u64, seq: u64) {
        if self.get(hash).is_some() {
            return;
        }
        self.recent.insert(hash, seq);
        if self.recent.len() >= MERGE_AT {
            self.merge();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.hashes.len() + self.recent.len()
    }

    /// Move the recent entries into the sorted arrays (one pass over both).
    fn merge(&mut self) {
        let mut add: Vec<(u64, u64)> = self.recent.drain().collect();
        add.sort_unstable();
        let n = self.hashes.len() + add.len();
        let mut hashes = Vec::with_capacity(n);
        let mut seqs = Vec::with_capacity(n);
        let (mut i, mut j) = (0, 0);
        while i < self.hashes.len() || j < add.len() {
            let take_old = j == add.len() || (i < self.hashes.len() && self.hashes[i] < add[j].0);
            if take_old {
                hashes.push(self.hashes[i]);
                seqs.push(self.seqs[i]);
                i += 1;
            } else {
                hashes.push(add[j].0);
                seqs.push(add[j].1);
                j += 1;
            }
        }
        self.hashes = hashes;
        self.seqs = seqs;
        self.recent.shrink_to(MERGE_AT);
    }

    /// Bytes held.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.hashes.capacity() * 8 + self.seqs.capacity() * 8 + self.recent.capacity() * 17
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for id hashes: uniform, deterministic.
    fn h(i: u64) -> u64 {
        i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) | 1
    }

    #[test]
    fn finds_every_entry_across_merges_and_keeps_the_first_seq() {
        let mut x = IdIndex::default();
        let n = 3 * MERGE_AT as u64 + 123;
        for i in 0..n {
            x.insert(h(i), i + 1);
        }
        assert_eq!(x.len() as u64, n);
        for i in 0..n {
            assert_eq!(x.get(h(i)), Some(i + 1), "{i}");
        }
        assert_eq!(x.get(h(n + 5)), None);
        // A second seq under a known hash (a hash collision) does not replace the first.
        x.insert(h(7), 999_999);
        assert_eq!(x.get(h(7)), Some(8));
        assert!(
            x.hashes.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
    }

    #[test]
    fn entries_cost_about_sixteen_bytes_each() {
        let mut x = IdIndex::default();
        for i in 0..200_000u64 {
            x.insert(h(i), i + 1);
        }
        let per = x.heap_bytes() as f64 / 200_000.0;
        assert!(per < 20.0, "{per} bytes per entry");
    }
}
