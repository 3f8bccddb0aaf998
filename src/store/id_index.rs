//! The inbox writer's map of source-id hash → seq (dedup), compact: the one structure that
//! grows with every record stored, so it costs 8 bytes a record: the top 32 bits of the id's
//! hash and the seq packed in one `u64`, in one sorted array (a hash table of full hashes took
//! ~34 bytes, two arrays of full hashes and seqs 16; a million records: 8 MB). The newest
//! entries sit in a small hash table and are merged into the array in bulk, in place.
//!
//! 32 bits do not tell ids apart (a million records hold about a hundred pairs that share
//! them), so a lookup answers *candidates*: every seq stored under the same top half, which
//! the writer confirms against the full hash in the seq's index entry (and then the record's
//! id). A new id meets a stranger's top half about once in 4,000 lookups at a million records:
//! one extra 32-byte read then.
//!
//! The map is derived from the index file and can be dropped at any time (an idle engine
//! does, `Inbox::shed_caches`): a [`Batch`] of every entry rebuilds it with one sort.

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

/// The part of an id hash the array keeps.
fn top(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// One array entry: the hash's top half above, the seq below, so that sorting the entries
/// sorts them by (top half, seq).
fn pack(hash: u64, seq: u32) -> u64 {
    (u64::from(top(hash)) << 32) | u64::from(seq)
}

#[derive(Default)]
pub(crate) struct IdIndex {
    /// Sorted [`pack`]ed entries; a top half may repeat.
    packed: Vec<u64>,
    /// Entries whose seq does not fit 32 bits (past four billion records): full hash → seq.
    wide: IdMap,
    /// Not merged yet: full hash → seq (the first stays when a full hash repeats); only seqs
    /// that fit 32 bits, like the array's.
    recent: HashMap<u64, u32, BuildHasherDefault<PassThrough>>,
}

/// Entries gathered for [`IdIndex::extend`]: a rebuild from the index file collects every
/// entry and merges them with one sort, where inserting them one by one would merge every
/// [`MERGE_AT`].
pub(crate) struct Batch {
    packed: Vec<u64>,
    wide: Vec<(u64, u64)>,
}

impl Batch {
    /// Room for `expected` entries, taken once and exactly (a doubling vector could hold
    /// twice what it needs).
    pub(crate) fn with_capacity(expected: usize) -> Batch {
        Batch {
            packed: Vec::with_capacity(expected),
            wide: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, hash: u64, seq: u64) {
        match u32::try_from(seq) {
            Ok(s) => self.packed.push(pack(hash, s)),
            Err(_) => self.wide.push((hash, seq)),
        }
    }
}

impl IdIndex {
    /// The seqs that may have been stored under `hash`, most likely first: an exact match
    /// among the newest entries, then every older seq whose hash shares its top half. The
    /// caller confirms each against the full hash it stored.
    pub(crate) fn candidates(&self, hash: u64) -> impl Iterator<Item = u64> + '_ {
        let t = top(hash);
        let from = self.packed.partition_point(|&x| top(x) < t);
        let to = from + self.packed[from..].partition_point(|&x| top(x) == t);
        self.recent
            .get(&hash)
            .map(|&s| u64::from(s))
            .into_iter()
            .chain(self.wide.get(&hash).copied())
            .chain(self.packed[from..to].iter().map(|&x| x & 0xffff_ffff))
    }

    /// Remember that `seq` was stored under `hash`.
    pub(crate) fn insert(&mut self, hash: u64, seq: u64) {
        let Ok(seq32) = u32::try_from(seq) else {
            self.wide.entry(hash).or_insert(seq);
            return;
        };
        self.recent.entry(hash).or_insert(seq32);
        if self.recent.len() >= MERGE_AT {
            self.merge();
        }
    }

    /// Remember every entry of `batch` (one sort, one merge).
    pub(crate) fn extend(&mut self, batch: Batch) {
        for (hash, seq) in batch.wide {
            self.wide.entry(hash).or_insert(seq);
        }
        self.merge_sorted(batch.packed);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.packed.len() + self.recent.len() + self.wide.len()
    }

    /// Move the recent entries into the sorted array.
    fn merge(&mut self) {
        let add: Vec<u64> = self.recent.drain().map(|(h, s)| pack(h, s)).collect();
        self.merge_sorted(add);
        self.recent.shrink_to(MERGE_AT);
    }

    /// Merge `add` (any order) into the array in place, from the back: no second copy of the
    /// array is ever held (why: at a million records that copy was another 8 MB at peak).
    fn merge_sorted(&mut self, mut add: Vec<u64>) {
        if add.is_empty() {
            return;
        }
        add.sort_unstable();
        let old = self.packed.len();
        if old == 0 {
            self.packed = add;
            return;
        }
        self.packed.reserve_exact(add.len());
        self.packed.resize(old + add.len(), 0);
        let (mut i, mut j, mut k) = (old, add.len(), old + add.len());
        while j > 0 {
            k -= 1;
            if i > 0 && self.packed[i - 1] > add[j - 1] {
                self.packed[k] = self.packed[i - 1];
                i -= 1;
            } else {
                self.packed[k] = add[j - 1];
                j -= 1;
            }
        }
    }

    /// Bytes held.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.packed.capacity() * 8 + self.recent.capacity() * 13
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
            x.packed.windows(2).all(|w| w[0] <= w[1]),
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

    /// A rebuild in bulk finds every seq single inserts find, on top of entries already merged,
    /// with a top half shared between the two and a seq past four billion.
    #[test]
    fn a_bulk_rebuild_answers_as_single_inserts_do() {
        let n = 2 * MERGE_AT as u64 + 77;
        let mut one = IdIndex::default();
        let mut bulk = IdIndex::default();
        for i in 0..n {
            one.insert(h(i), i + 1);
        }
        for i in 0..MERGE_AT as u64 + 5 {
            bulk.insert(h(i), i + 1);
        }
        let mut batch = Batch::with_capacity((n - MERGE_AT as u64) as usize);
        for i in MERGE_AT as u64 + 5..n {
            batch.push(h(i), i + 1);
        }
        bulk.extend(batch);
        assert!(bulk.packed.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(one.len(), bulk.len());
        for i in 0..n {
            let mut a: Vec<u64> = one.candidates(h(i)).collect();
            let mut b: Vec<u64> = bulk.candidates(h(i)).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{i}");
        }
        let twin = (h(9) & !0xffff_ffff) | (!h(9) & 0xffff_ffff);
        let big = u64::from(u32::MAX) + 1;
        let mut batch = Batch::with_capacity(2);
        batch.push(twin, n + 1);
        batch.push(h(3), big);
        bulk.extend(batch);
        let mut c: Vec<u64> = bulk.candidates(twin).collect();
        c.sort_unstable();
        assert_eq!(c, vec![10, n + 1]);
        assert!(bulk.candidates(h(3)).any(|s| s == big));
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
