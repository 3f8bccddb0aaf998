//! The inbox writer's map of source-id hash → seq (dedup), compact: the one structure that
//! grows with every record stored, so it costs 8 bytes a record: the top 32 bits of the id's
//! hash and the seq, in two sorted arrays (a hash table of full hashes took ~34 bytes, two
//! arrays of full hashes and seqs 16; a million records: 8 MB). The newest entries sit in a
//! small hash table and are merged into the arrays in bulk.
//!
//! 32 bits do not tell ids apart (a million records hold about a hundred pairs that share
//! them), so a lookup answers *candidates*: every seq stored under the same top half, which
//! the writer confirms against the full hash in the seq's index entry (and then the record's
//! id). A new id meets a stranger's top half about once in 4,000 lookups at a million records:
//! one extra 32-byte read then.

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

/// The part of an id hash the arrays keep.
fn top(hash: u64) -> u32 {
    (hash >> 32) as u32
}

#[derive(Default)]
pub(crate) struct IdIndex {
    /// Sorted by (top half, seq), with `seqs` beside it; a top half may repeat.
    tops: Vec<u32>,
    seqs: Vec<u32>,
    /// Entries whose seq does not fit 32 bits (past four billion records): full hash → seq.
    wide: IdMap,
    /// Not merged yet: full hash → seq (the first stays when a full hash repeats).
    recent: IdMap,
}

impl IdIndex {
    /// The seqs that may have been stored under `hash`, most likely first: an exact match
    /// among the newest entries, then every older seq whose hash shares its top half. The
    /// caller confirms each against the full hash it stored.
    pub(crate) fn candidates(&self, hash: u64) -> impl Iterator<Item = u64> + '_ {
        let t = top(hash);
        let from = self.tops.partition_point(|&x| x < t);
        let to = from + self.tops[from..].partition_point(|&x| x == t);
        self.recent
            .get(&hash)
            .into_iter()
            .chain(self.wide.get(&hash))
            .copied()
            .chain(self.seqs[from..to].iter().map(|&s| u64::from(s)))
    }

    /// Remember that `seq` was stored under `hash`.
    pub(crate) fn insert(&mut self, hash: u64, seq: u64) {
        if u32::try_from(seq).is_err() {
            self.wide.entry(hash).or_insert(seq);
            return;
        }
        self.recent.entry(hash).or_insert(seq);
        if self.recent.len() >= MERGE_AT {
            self.merge();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.tops.len() + self.recent.len() + self.wide.len()
    }

    /// Move the recent entries into the sorted arrays (one pass over both).
    fn merge(&mut self) {
        let mut add: Vec<(u32, u32)> = self
            .recent
            .drain()
            .map(|(h, s)| {
                (
                    top(h),
                    u32::try_from(s).expect("wide seqs never enter `recent`"),
                )
            })
            .collect();
        add.sort_unstable();
        let n = self.tops.len() + add.len();
        let mut tops = Vec::with_capacity(n);
        let mut seqs = Vec::with_capacity(n);
        let (mut i, mut j) = (0, 0);
        while i < self.tops.len() || j < add.len() {
            let take_old =
                j == add.len() || (i < self.tops.len() && (self.tops[i], self.seqs[i]) < add[j]);
            if take_old {
                tops.push(self.tops[i]);
                seqs.push(self.seqs[i]);
                i += 1;
            } else {
                tops.push(add[j].0);
                seqs.push(add[j].1);
                j += 1;
            }
        }
        self.tops = tops;
        self.seqs = seqs;
        self.recent.shrink_to(MERGE_AT);
    }

    /// Bytes held.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.tops.capacity() * 4 + self.seqs.capacity() * 4 + self.recent.capacity() * 17
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
    fn every_stored_seq_is_among_its_hash_candidates_across_merges() {
        let mut x = IdIndex::default();
        let n = 3 * MERGE_AT as u64 + 123;
        for i in 0..n {
            x.insert(h(i), i + 1);
        }
        assert_eq!(x.len() as u64, n);
        for i in 0..n {
            let c: Vec<u64> = x.candidates(h(i)).collect();
            assert!(c.contains(&(i + 1)), "{i}: {c:?}");
        }
        assert!(
            x.tops.windows(2).all(|w| w[0] <= w[1]),
            "sorted by top half"
        );
    }

    #[test]
    fn an_unknown_hash_has_no_candidates_unless_it_shares_a_top_half() {
        let mut x = IdIndex::default();
        for i in 0..2 * MERGE_AT as u64 {
            x.insert(h(i), i + 1);
        }
        assert_eq!(x.candidates(h(10 * MERGE_AT as u64)).count(), 0);
        // Same top half, another bottom half: a candidate the caller must rule out.
        let twin = (h(3) & !0xffff_ffff) | (!h(3) & 0xffff_ffff);
        assert_eq!(x.candidates(twin).collect::<Vec<_>>(), vec![4]);
    }

    #[test]
    fn hashes_sharing_a_top_half_keep_every_seq() {
        let mut x = IdIndex::default();
        let a = 0xABCD_0000_0000_0001;
        let b = 0xABCD_0000_0000_0002;
        x.insert(a, 10);
        x.insert(b, 20);
        for i in 0..MERGE_AT as u64 {
            x.insert(h(i), 100 + i);
        }
        let mut c: Vec<u64> = x.candidates(a).collect();
        c.sort_unstable();
        assert_eq!(c, vec![10, 20]);
        // Before a merge the exact hash answers first.
        let mut y = IdIndex::default();
        y.insert(a, 10);
        y.insert(b, 20);
        assert_eq!(y.candidates(b).collect::<Vec<_>>(), vec![20]);
    }

    #[test]
    fn seqs_past_four_billion_are_kept_whole() {
        let mut x = IdIndex::default();
        let big = u64::from(u32::MAX) + 7;
        x.insert(h(1), big);
        assert_eq!(x.candidates(h(1)).collect::<Vec<_>>(), vec![big]);
    }

    #[test]
    fn entries_cost_about_eight_bytes_each() {
        let mut x = IdIndex::default();
        for i in 0..200_000u64 {
            x.insert(h(i), i + 1);
        }
        let per = x.heap_bytes() as f64 / 200_000.0;
        assert!(per < 10.0, "{per} bytes per entry");
    }
}
