//! The candidates of texts already read, so a text viewed again (the same message in the next
//! `inbox_pull`, its push, its resource, the next LLM hop) is not scanned again.
//!
//! What is kept is a pure function of the redactor and the text: the candidates every detector
//! proposed and the other occurrences of the names among them, before the job's learned names
//! are added and the overlaps resolved, and the hashes of the text's words (by which the job's
//! learned names are looked up). Placeholder
//! numbers and learned names belong to the session and are applied afresh on every call, so a
//! cached text redacts exactly as an uncached one would.
//!
//! Bounded by the bytes of text held: two generations, the older dropped when the newer is
//! full (an approximate LRU without per-entry bookkeeping). The texts are PHI: they never leave
//! the process and nothing here is printed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::Span;

/// What is kept of one text: its candidates (span, rank) and the hashes of its words
/// ([`super::word_hashes`]: the view looks up the session's learned names by them).
#[derive(Clone)]
pub(super) struct Scan {
    pub(super) cands: Arc<[(Span, u8)]>,
    pub(super) words: Arc<[u64]>,
}

/// Bytes one generation holds by default: texts with their candidates and word hashes (the
/// newest several hundred messages).
pub(super) const DEFAULT_BUDGET: usize = 4 << 20;

pub(super) struct SpanCache {
    budget: usize,
    gens: Mutex<Gens>,
}

#[derive(Default)]
struct Gens {
    current: HashMap<Box<str>, Scan, foldhash::quality::RandomState>,
    current_bytes: usize,
    previous: HashMap<Box<str>, Scan, foldhash::quality::RandomState>,
}

/// The bytes one entry holds: its text, its candidates and its word hashes (about as many
/// bytes again as the text: counting the text alone let two generations hold 2.5 times their
/// budget).
fn entry_bytes(text: &str, c: &Scan) -> usize {
    text.len() + std::mem::size_of_val(&*c.cands) + std::mem::size_of_val(&*c.words)
}

impl Gens {
    fn insert(&mut self, budget: usize, text: Box<str>, c: Scan) {
        // Two callers that missed on one text both put it: count its bytes once.
        let len = entry_bytes(&text, &c);
        if self.current.insert(text, c).is_none() {
            self.current_bytes += len;
        }
        if self.current_bytes > budget {
            self.previous = std::mem::take(&mut self.current);
            self.current_bytes = 0;
        }
    }
}

impl SpanCache {
    /// `budget` 0 turns the cache off.
    pub(super) fn new(budget: usize) -> SpanCache {
        SpanCache {
            budget,
            gens: Mutex::new(Gens::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Gens> {
        // A panic while holding the lock cannot leave an entry half written (each is one
        // insert of an immutable value): the maps stay usable.
        self.gens.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn get(&self, text: &str) -> Option<Scan> {
        if self.budget == 0 {
            return None;
        }
        let mut g = self.lock();
        if let Some(c) = g.current.get(text) {
            return Some(c.clone());
        }
        let (k, c) = g.previous.remove_entry(text)?;
        g.insert(self.budget, k, c.clone());
        Some(c)
    }

    pub(super) fn put(&self, text: &str, c: Scan) {
        // A text bigger than a quarter of the budget would evict too much for one entry.
        if self.budget == 0 || entry_bytes(text, &c) > self.budget / 4 {
            return;
        }
        self.lock().insert(self.budget, text.into(), c);
    }

    /// Entries held (both generations): for the redactor's `Debug`.
    pub(super) fn len(&self) -> usize {
        let g = self.lock();
        g.current.len() + g.previous.len()
    }
}

/// Names met → their variants (`super::name_variants`, a pure function of the name): each view
/// learns its patients' names on a fresh session. Bounded by entries; emptied when full.
#[derive(Default)]
pub(super) struct Variants {
    map: Mutex<HashMap<Box<str>, Arc<[String]>, foldhash::fast::RandomState>>,
    /// Keep nothing (a redactor without its caches).
    off: bool,
}

/// Names whose variants are kept at most.
const VARIANTS_MAX: usize = 8192;

impl Variants {
    pub(super) fn off() -> Variants {
        Variants {
            off: true,
            ..Variants::default()
        }
    }

    pub(super) fn of(&self, name: &str) -> Arc<[String]> {
        if self.off {
            return super::name_variants(name).into();
        }
        // A panic while holding the lock cannot leave an entry half written: see `lock` above.
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = map.get(name) {
            return v.clone();
        }
        let v: Arc<[String]> = super::name_variants(name).into();
        if map.len() >= VARIANTS_MAX {
            map.clear();
        }
        map.insert(name.into(), v.clone());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::governance::redact::Kind;

    fn cands(n: usize) -> Scan {
        Scan {
            cands: vec![(
                Span {
                    kind: Kind::Person,
                    start: 0,
                    end: n,
                },
                1,
            )]
            .into(),
            words: Vec::new().into(),
        }
    }

    #[test]
    fn holds_recent_texts_within_its_budget() {
        // A budget of four ten-letter entries (text, candidates and word hashes counted).
        let ten = entry_bytes("0123456789", &cands(10));
        assert!(ten > 10, "an entry's candidates count too");
        let c = SpanCache::new(4 * ten);
        c.put("abc", cands(3));
        assert_eq!(c.get("abc").unwrap().cands[0].0.end, 3);
        assert!(c.get("abd").is_none());
        // Over budget: the full generation becomes the previous one; a hit there is kept.
        for t in ["0123456789", "1123456789", "2123456789", "3123456789"] {
            c.put(t, cands(10));
        }
        assert!(c.get("abc").is_some());
        for t in ["4123456789", "5123456789", "6123456789", "7123456789"] {
            c.put(t, cands(10));
        }
        // Two generations later, what was not read again is gone.
        assert!(c.get("0123456789").is_none());
        assert!(c.get("abc").is_some());
        // Bigger than a quarter of the budget: not kept.
        c.put("01234567890", cands(11));
        assert!(c.get("01234567890").is_none());
        let off = SpanCache::new(0);
        off.put("abc", cands(3));
        assert!(off.get("abc").is_none());
        assert_eq!(off.len(), 0);
    }
}
