//! Per-job placeholder mapping.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use std::sync::Arc;

use super::{Kind, lead_word, word_hash};

/// The placeholder mapping of one job: the same value gets the same placeholder on every hop
/// and in every message of the job. Holds PHI: never serialized, never cloned, and its `Debug`
/// shows only counts.
#[derive(Default)]
pub struct RedactionSession {
    /// Per kind: value → placeholder (looked up by `&str`, no key built per span).
    by_value: HashMap<Kind, HashMap<String, String, foldhash::fast::RandomState>>,
    by_placeholder: HashMap<String, String, foldhash::fast::RandomState>,
    /// The names whose variants are learned already (a view meets one patient's name many
    /// times; its variants are computed once).
    learned_from: HashSet<String, foldhash::fast::RandomState>,
    next: BTreeMap<Kind, usize>,
    /// Names detected so far, redacted wherever they appear later in the job.
    pub(super) known_names: KnownNames,
}

/// The names a job has learned, indexed by their first word (why: a job learns hundreds, and
/// every text of the job is searched for the few whose first word it holds; scanning them all
/// per text made a 100-message answer quadratic).
#[derive(Default)]
pub(super) struct KnownNames {
    names: Vec<String>,
    /// By [`super::word_hash`] of the first word.
    by_lead: HashMap<u64, Vec<usize>, foldhash::fast::RandomState>,
    all: HashSet<String, foldhash::fast::RandomState>,
}

impl KnownNames {
    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    fn insert(&mut self, name: String) {
        if self.all.contains(&name) {
            return;
        }
        self.by_lead
            .entry(word_hash(lead_word(&name)))
            .or_default()
            .push(self.names.len());
        self.all.insert(name.clone());
        self.names.push(name);
    }

    /// The learned names whose first word is one of `words` (hashes of distinct words, see
    /// [`super::word_hash`]).
    pub(super) fn led_by<'a>(&'a self, words: &'a [u64]) -> impl Iterator<Item = &'a String> + 'a {
        self.led_by_since(words, 0)
    }

    /// [`KnownNames::led_by`], only the names learned after the first `since`.
    pub(super) fn led_by_since<'a>(
        &'a self,
        words: &'a [u64],
        since: usize,
    ) -> impl Iterator<Item = &'a String> + 'a {
        words
            .iter()
            .filter_map(|w| self.by_lead.get(w))
            .flatten()
            .filter(move |&&i| i >= since)
            .filter_map(|&i| self.names.get(i))
    }
}

impl fmt::Debug for RedactionSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedactionSession")
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}

impl RedactionSession {
    pub fn new() -> Self {
        Self::default()
    }

    /// Put the original values back in place of the placeholders this session issued.
    /// Placeholders it did not issue (a model inventing `<PERSON_9>`) stay as they are.
    pub fn reidentify(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('<') {
            out.push_str(&rest[..open]);
            let tail = &rest[open..];
            let close = tail.find('>').filter(|&c| c <= 24);
            match close.and_then(|c| self.by_placeholder.get(&tail[..=c]).map(|v| (c, v))) {
                Some((c, value)) => {
                    out.push_str(value);
                    rest = &tail[c + 1..];
                }
                None => {
                    out.push('<');
                    rest = &tail[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// How many distinct values of each kind this session has replaced.
    pub fn counts(&self) -> BTreeMap<Kind, usize> {
        self.next.clone()
    }

    /// True when nothing has been redacted yet.
    pub fn is_empty(&self) -> bool {
        self.by_placeholder.is_empty()
    }

    pub(super) fn placeholder(&mut self, kind: Kind, value: &str) -> &str {
        let values = self.by_value.entry(kind).or_default();
        if !values.contains_key(value) {
            let n = self.next.entry(kind).or_insert(0);
            *n += 1;
            let p = format!("<{}_{}>", kind.tag(), n);
            self.by_placeholder.insert(p.clone(), value.to_string());
            values.insert(value.to_string(), p);
        }
        &values[value]
    }

    /// Learn `name` and its variants (`variants` computes them: a redactor keeps them for the
    /// names it has met, as every view meets the same patients' names afresh).
    pub(super) fn learn_name(&mut self, name: &str, variants: impl FnOnce(&str) -> Arc<[String]>) {
        if self.learned_from.contains(name) {
            return;
        }
        self.learned_from.insert(name.to_string());
        for v in variants(name).iter() {
            self.known_names.insert(v.clone());
        }
    }
}
