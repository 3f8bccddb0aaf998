//! Per-job placeholder mapping.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use super::{Kind, lead_word, name_variants};

/// The placeholder mapping of one job: the same value gets the same placeholder on every hop
/// and in every message of the job. Holds PHI: never serialized, never cloned, and its `Debug`
/// shows only counts.
#[derive(Default)]
pub struct RedactionSession {
    by_value: HashMap<(Kind, String), String>,
    by_placeholder: HashMap<String, String>,
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
    by_lead: HashMap<String, Vec<usize>, foldhash::fast::RandomState>,
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
            .entry(lead_word(&name).to_string())
            .or_default()
            .push(self.names.len());
        self.all.insert(name.clone());
        self.names.push(name);
    }

    /// The learned names whose first word is one of `words`.
    pub(super) fn led_by<'a>(
        &'a self,
        words: &'a super::WordSet<'_>,
    ) -> impl Iterator<Item = &'a String> + 'a {
        self.led_by_since(words, 0)
    }

    /// [`KnownNames::led_by`], only the names learned after the first `since`.
    pub(super) fn led_by_since<'a>(
        &'a self,
        words: &'a super::WordSet<'_>,
        since: usize,
    ) -> impl Iterator<Item = &'a String> + 'a {
        words
            .iter()
            .filter_map(|w| self.by_lead.get(*w))
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
        self.by_value.is_empty()
    }

    pub(super) fn placeholder(&mut self, kind: Kind, value: &str) -> String {
        let key = (kind, value.to_string());
        if let Some(p) = self.by_value.get(&key) {
            return p.clone();
        }
        let n = self.next.entry(kind).or_insert(0);
        *n += 1;
        let p = format!("<{}_{}>", kind.tag(), n);
        self.by_placeholder.insert(p.clone(), value.to_string());
        self.by_value.insert(key, p.clone());
        p
    }

    pub(super) fn learn_name(&mut self, name: &str) {
        for v in name_variants(name) {
            self.known_names.insert(v);
        }
    }
}
