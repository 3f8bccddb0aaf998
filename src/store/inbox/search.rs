//! Searching the inbox through its full-text index (`store/fulltext.rs`): pages of matches in
//! seq order either way, or the newest matches ranked by relevance and recency; and keeping
//! the index caught up with the records.

use std::fs::File;

use super::{Batch, Filter, INDEX, Inbox, RecordReader, read_entries, read_entry};
use crate::domain::{SearchOrder, SearchQuery};
use crate::store::StoreError;
use crate::store::fulltext::{self, Doc, FullText};

impl Inbox {
    /// Up to `limit` records with seq < `before` (all, for `None`) that have `query`'s words
    /// and `filter`'s channel and profile (its text is ignored: `query` is the text), newest
    /// first or by relevance. Indexes what the full-text index has not seen yet first.
    pub fn search(
        &self,
        query: &SearchQuery,
        filter: &Filter,
        before: Option<u64>,
        limit: usize,
        order: SearchOrder,
    ) -> Result<Batch, StoreError> {
        let how = match order {
            SearchOrder::Newest => How::Page(Toward::Older(before)),
            SearchOrder::Relevance => How::Ranked(before),
        };
        self.run_search(query, filter, limit, how)
    }

    /// Like [`Inbox::search`], oldest first above `after` (the console paging down a filter).
    pub(super) fn search_after(
        &self,
        query: &SearchQuery,
        filter: &Filter,
        after: u64,
        limit: usize,
    ) -> Result<Batch, StoreError> {
        self.run_search(query, filter, limit, How::Page(Toward::Newer(after)))
    }

    fn run_search(
        &self,
        query: &SearchQuery,
        filter: &Filter,
        limit: usize,
        how: How,
    ) -> Result<Batch, StoreError> {
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(Batch::default());
        };
        let map = self.assignments.current()?;
        let expr = fulltext::compile(query, &candidate_tags(filter, &map));
        self.with_fulltext(|ft| {
            self.catch_up(ft, &index, n, &mut |_, _| {})?;
            let mut batch = Batch {
                last_seq: n,
                ..Batch::default()
            };
            let limit = limit.max(1);
            let mut reader = RecordReader::caching(self, n).assigned(map);
            let mut take = |seq: u64, batch: &mut Batch| {
                self.take_match(&index, &mut reader, filter, seq, batch)
            };
            let below = |before: Option<u64>| before.map_or(n + 1, |b| b.min(n + 1));
            match how {
                How::Page(toward) => {
                    // Candidates come in windows: a filter the tags cannot express exactly (an
                    // assigned profile) may drop some.
                    let window = limit.saturating_mul(2).clamp(64, 1024);
                    let mut from = match toward {
                        Toward::Older(before) => fulltext::Page::Below(below(before)),
                        Toward::Newer(after) => fulltext::Page::Above(after),
                    };
                    loop {
                        let seqs = ft.page(&expr, from, window)?;
                        for &seq in seqs.iter().filter(|&&s| s >= 1 && s <= n) {
                            take(seq, &mut batch)?;
                            if batch.records.len() >= limit {
                                return Ok(batch);
                            }
                        }
                        match seqs.last() {
                            Some(&last) if seqs.len() == window => from = from.past(last),
                            _ => return Ok(batch),
                        }
                    }
                }
                How::Ranked(before) => {
                    let phrases = fulltext::phrases(query);
                    let mut scored = ft.scored(&expr, &phrases, below(before), RELEVANCE_WINDOW)?;
                    scored.retain(|&(s, _)| s >= 1 && s <= n);
                    let mut days = Vec::with_capacity(scored.len());
                    for &(seq, _) in &scored {
                        days.push(read_entry(&index, &self.path(INDEX), seq - 1)?.day);
                    }
                    let newest = days.iter().copied().max().unwrap_or(0);
                    let mut ranked: Vec<(f64, u64)> = scored
                        .iter()
                        .zip(&days)
                        .map(|(&(seq, relevance), &day)| {
                            let age = f64::from(newest.saturating_sub(day));
                            (relevance / (1.0 + age / RECENCY_DAYS), seq)
                        })
                        .collect();
                    // Best first; equal scores newest first.
                    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
                    for (_, seq) in ranked {
                        take(seq, &mut batch)?;
                        if batch.records.len() >= limit {
                            break;
                        }
                    }
                    Ok(batch)
                }
            }
        })
    }

    /// Add record `seq` to `batch` if it reads back and has `filter`'s channel and profile.
    fn take_match(
        &self,
        index: &File,
        reader: &mut RecordReader<'_>,
        filter: &Filter,
        seq: u64,
        batch: &mut Batch,
    ) -> Result<(), StoreError> {
        let e = read_entry(index, &self.path(INDEX), seq - 1)?;
        if e.is_hole() {
            return Ok(());
        }
        match reader.read(seq, &e) {
            Some(r) if filter.matches(&r) => batch.records.push(r),
            Some(_) => {}
            None => batch.skipped_corrupt += 1,
        }
        Ok(())
    }

    /// Bring the full-text index up to the inbox (a host runs this after ingests, so searches
    /// find it current). Returns how many records were indexed; `progress(done, of)` is told
    /// after every batch.
    pub fn index_pending(&self, progress: &mut dyn FnMut(u64, u64)) -> Result<u64, StoreError> {
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(0);
        };
        self.with_fulltext(|ft| self.catch_up(ft, &index, n, progress))
    }

    /// Drop the full-text index and build it again from the records.
    pub fn reindex(&self, progress: &mut dyn FnMut(u64, u64)) -> Result<u64, StoreError> {
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(0);
        };
        self.with_fulltext(|ft| {
            ft.reset()?;
            ft.vacuum()?;
            self.catch_up(ft, &index, n, progress)
        })
    }

    /// Records in the full-text index and its bytes on disk.
    pub fn index_stats(&self) -> Result<(u64, u64), StoreError> {
        self.with_fulltext(|ft| Ok((ft.covered()?.0, ft.disk_bytes())))
    }

    /// `f` on the full-text index, opened on first use; one user at a time.
    fn with_fulltext<T>(
        &self,
        f: impl FnOnce(&mut FullText) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut slot = self.fulltext.lock().unwrap_or_else(|p| p.into_inner());
        let ft = match slot.as_mut() {
            Some(ft) => ft,
            None => slot.insert(FullText::open(&self.dir)?),
        };
        f(ft)
    }

    /// Index records `covered+1..=n`, in transactions of [`INDEX_BATCH`]; start over when the
    /// index describes another inbox than this one (restored, rebuilt, replaced).
    fn catch_up(
        &self,
        ft: &mut FullText,
        index: &File,
        n: u64,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<u64, StoreError> {
        let index_path = self.path(INDEX);
        let mut indexed = 0u64;
        let mut reader = RecordReader::new(self);
        let mut buf = Vec::new();
        loop {
            let (covered, hash) = ft.covered()?;
            let stale = covered > n
                || (covered > 0 && read_entry(index, &index_path, covered - 1)?.id_hash != hash);
            if stale {
                tracing::warn!(
                    covered,
                    records = n,
                    "the search index describes another inbox; rebuilding it"
                );
                ft.reset()?;
                continue;
            }
            if covered == n {
                return Ok(indexed);
            }
            let to = (covered + INDEX_BATCH).min(n);
            let mut docs = Vec::with_capacity((to - covered) as usize);
            let mut last_hash = 0;
            for (s, e) in read_entries(index, &index_path, covered, to - covered, &mut buf)? {
                last_hash = e.id_hash;
                if e.is_hole() {
                    continue;
                }
                // As stored (no assignment): the tags name the stored profile, and a search
                // for an assigned profile asks for the stored ones it may come from.
                if let Some(r) = reader.read_line(s, &e) {
                    docs.push(Doc::of(&r));
                }
            }
            if ft.add(covered, to, last_hash, &docs)? {
                indexed += docs.len() as u64;
                progress(to, n);
            }
        }
    }
}

/// How a search walks its candidates.
enum How {
    /// In seq order from a point, in windows.
    Page(Toward),
    /// The newest matches below `before`, best first (see [`RELEVANCE_WINDOW`]).
    Ranked(Option<u64>),
}

enum Toward {
    /// Newest first below `before` (all, for `None`).
    Older(Option<u64>),
    /// Oldest first above `after`.
    Newer(u64),
}

/// Records indexed per transaction by a catch-up: bounds its memory (the records' text) and
/// how much a kill loses.
const INDEX_BATCH: u64 = 1024;
/// A relevance search ranks the newest this many matches: its cost stays flat at any inbox
/// size, and an operator's "best" answer is rarely older than a thousand matches back.
const RELEVANCE_WINDOW: usize = 1000;
/// Relevance halves for a match this many days older than the newest one.
const RECENCY_DAYS: f64 = 30.0;

/// The tag groups a search's candidates must carry for `filter`: its channel, and for a
/// profile the stored profiles a record of it may have (its own, and every profile an
/// assignment moved a record from, since tags name the profile as stored).
fn candidate_tags(
    filter: &Filter,
    map: &crate::store::assignments::AssignmentMap,
) -> Vec<Vec<String>> {
    let mut groups = Vec::new();
    if let Some(c) = filter.channel {
        groups.push(vec![fulltext::channel_tag(c)]);
    }
    if let Some(p) = &filter.profile {
        let mut names = std::collections::BTreeSet::from([p.as_str()]);
        if map.values().any(|a| a.profile == *p) {
            names.insert(crate::domain::UNASSIGNED);
            names.extend(map.values().map(|a| a.from.as_str()));
        }
        groups.push(names.into_iter().map(fulltext::profile_tag).collect());
    }
    groups
}
