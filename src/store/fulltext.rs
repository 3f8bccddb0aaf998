//! The inbox's full-text index: `inbox/search.db`, an SQLite FTS5 table beside the JSONL files.
//!
//! The JSONL files stay the truth; this is a derived, disposable index of them:
//! - **contentless** (`content=''`): it holds the words' postings, not the text (a record's text
//!   is read back from its line), so it costs a fraction of the data;
//! - three-letter prefixes are indexed too: `inv*` is one posting list, not the merge of every
//!   word starting so (hundreds of lists for a short prefix); a prefix needs three letters;
//! - rowid = the record's seq; one more column of tags (the channel and the stored profile, as
//!   digit tokens) lets a filter narrow the postings instead of reading records;
//! - `covered` (the last seq indexed) and that record's id hash are written in the same
//!   transaction as its postings: after a kill -9 the index is exactly some prefix of the
//!   inbox, and the next catch-up continues from there;
//! - deleted, unreadable, of another schema, ahead of the inbox or pointing at another record
//!   than the inbox has at `covered` (a restored or rebuilt inbox): dropped and rebuilt.
//!
//! Writers in several processes (the host, a CLI command) serialize on SQLite's write lock;
//! a catch-up re-reads `covered` inside its transaction, so none indexes a record twice.
//! Why SQLite FTS5 and not tantivy: docs/ARCHITECTURE.md, "Full-text search".

use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, OpenFlags, ffi, params};
use sha2::Digest;

use super::StoreError;
use crate::domain::{Channel, InboxRecord, SearchField, SearchQuery};

/// The index's file name in the inbox directory (SQLite adds `-wal` and `-shm` beside it).
pub(crate) const DB: &str = "search.db";

/// Bumped when the table's shape or tokenizer changes: an index of another version is rebuilt.
const SCHEMA: i64 = 3;

/// Columns in table order; `tags` is never searched by words.
const TEXT_COLUMNS: &str = "{sender subject body attachments}";

/// bm25 column weights (sender, subject, body, attachments, tags): a word in the subject says
/// more about what a message is than the same word deep in its body.
const WEIGHTS: [f64; 5] = [2.0, 3.0, 1.0, 1.0, 0.0];

/// A term's document frequency is estimated from its this many newest matches (see
/// [`idf`]): the cost of a relevance search stays bounded by it, however common the word.
const DF_SAMPLE: usize = 1000;

/// How long SQLite waits for another process's write before giving up.
const BUSY_MS: u64 = 10_000;

pub(crate) struct FullText {
    conn: Connection,
    path: PathBuf,
}

/// Where a page of candidates starts: newest first below a seq, or oldest first above one.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Page {
    Below(u64),
    Above(u64),
}

impl Page {
    /// The next page after one that ended at `last`.
    pub(crate) fn past(self, last: u64) -> Page {
        match self {
            Page::Below(_) => Page::Below(last),
            Page::Above(_) => Page::Above(last),
        }
    }
}

/// One record as the index sees it.
pub(crate) struct Doc {
    pub seq: u64,
    pub sender: String,
    pub subject: String,
    pub body: String,
    pub attachments: String,
    pub tags: String,
}

impl Doc {
    pub(crate) fn of(r: &InboxRecord) -> Doc {
        let mut attachments = String::new();
        for a in &r.attachments {
            attachments.push_str(&a.name);
            attachments.push('\n');
            if let Some(t) = &a.text {
                attachments.push_str(t);
                attachments.push('\n');
            }
        }
        Doc {
            seq: r.seq,
            sender: format!("{} {}", r.from.name, r.from.address),
            subject: r.subject.clone().unwrap_or_default(),
            body: r.text.clone(),
            attachments,
            tags: format!("{} {}", channel_tag(r.channel), profile_tag(&r.profile)),
        }
    }
}

/// A channel as one index token.
pub(crate) fn channel_tag(c: Channel) -> String {
    tag("channel", c.as_str())
}

/// A profile name as one index token (profile names may hold any character).
pub(crate) fn profile_tag(profile: &str) -> String {
    tag("profile", profile)
}

/// Digits only: the tokenizer keeps them as one word and the stemmer leaves them alone.
/// A collision only widens the candidates; every candidate is checked against its record.
fn tag(kind: &str, name: &str) -> String {
    let h = sha2::Sha256::digest(format!("{kind}\0{name}").as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&h[..8]);
    format!("{}", u64::from_le_bytes(b))
}

/// One term as an FTS5 phrase with its column filter.
fn phrase(t: &crate::domain::SearchTerm) -> String {
    let cols = match t.field {
        SearchField::Any => TEXT_COLUMNS,
        SearchField::From => "sender",
        SearchField::Subject => "subject",
    };
    // Words are letters and digits only (`words_of`): nothing in them needs quoting.
    format!(
        "{cols} : \"{}\"{}",
        t.words.join(" "),
        if t.prefix { " *" } else { "" }
    )
}

/// The positive terms of `q`, each alone as an FTS5 expression, in the order [`compile`]
/// puts them first in its expression (FTS5 numbers phrases left to right): what
/// [`FullText::scored`] weighs by rarity.
pub(crate) fn phrases(q: &SearchQuery) -> Vec<String> {
    q.terms.iter().filter(|t| !t.negated).map(phrase).collect()
}

/// `q` as an FTS5 expression, limited to records carrying, of every group in `tags`, one tag.
pub(crate) fn compile(q: &SearchQuery, tags: &[Vec<String>]) -> String {
    let positive = phrases(q);
    let mut expr = format!("({})", positive.join(" AND "));
    for group in tags.iter().filter(|g| !g.is_empty()) {
        let any: Vec<String> = group.iter().map(|t| format!("\"{t}\"")).collect();
        expr = format!("{expr} AND tags : ({})", any.join(" OR "));
    }
    for t in q.terms.iter().filter(|t| t.negated) {
        expr = format!("({expr}) NOT ({})", phrase(t));
    }
    expr
}

fn sql_err(path: &Path, op: &'static str, e: rusqlite::Error) -> StoreError {
    StoreError::io(path, op, std::io::Error::other(e))
}

/// Whether `e` says the file is not a usable database (rebuild it) rather than busy or full.
fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

impl FullText {
    /// Open the index in `dir` (the inbox directory), creating it 0600, or rebuilding it empty
    /// when the file is damaged or of another schema.
    pub(crate) fn open(dir: &Path) -> Result<FullText, StoreError> {
        let path = dir.join(DB);
        match FullText::open_at(&path) {
            Ok(ft) => Ok(ft),
            Err((e, damaged)) if damaged => {
                tracing::warn!(
                    "{} is unreadable ({e}); rebuilding the search index",
                    path.display()
                );
                remove_files(&path)?;
                FullText::open_at(&path).map_err(|(e, _)| e)
            }
            Err((e, _)) => Err(e),
        }
    }

    fn open_at(path: &Path) -> Result<FullText, (StoreError, bool)> {
        // Created 0600 before SQLite sees it: SQLite gives its -wal and -shm the db's mode.
        if let Err(e) = crate::paths::open_private_append(path) {
            return Err((StoreError::io(path, "create", e), false));
        }
        let fail = |op, e: rusqlite::Error| {
            let damaged = is_damage(&e);
            (sql_err(path, op, e), damaged)
        };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| fail("open", e))?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_MS))
            .map_err(|e| fail("configure", e))?;
        // WAL: readers never wait for the writer. NORMAL: a commit is durable at the next
        // checkpoint; a crash can lose the newest commits, never corrupt the index, and what
        // it loses the next catch-up indexes again. A small page cache: the OS caches the file.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             PRAGMA cache_size = -1024;
             PRAGMA temp_store = MEMORY;",
        )
        .map_err(|e| fail("configure", e))?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| fail("read", e))?;
        if version != SCHEMA {
            if version != 0 {
                // Another shape: start over (the JSONL files are the truth).
                conn.execute_batch(
                    "DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS state; VACUUM;",
                )
                .map_err(|e| fail("reset", e))?;
            }
            conn.execute_batch(&format!(
                "BEGIN;
                 CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(
                     sender, subject, body, attachments, tags,
                     content = '', contentless_delete = 1,
                     tokenize = 'porter unicode61 remove_diacritics 2',
                     prefix = '3');
                 CREATE TABLE IF NOT EXISTS state (
                     id INTEGER PRIMARY KEY CHECK (id = 1),
                     covered INTEGER NOT NULL,
                     covered_hash INTEGER NOT NULL);
                 INSERT OR IGNORE INTO state (id, covered, covered_hash) VALUES (1, 0, 0);
                 PRAGMA user_version = {SCHEMA};
                 COMMIT;"
            ))
            .map_err(|e| fail("create", e))?;
        }
        register_rank(&conn).map_err(|e| fail("configure", e))?;
        Ok(FullText {
            conn,
            path: path.to_path_buf(),
        })
    }

    fn err(&self, op: &'static str, e: rusqlite::Error) -> StoreError {
        sql_err(&self.path, op, e)
    }

    /// The last seq indexed and its record's id hash.
    pub(crate) fn covered(&self) -> Result<(u64, u64), StoreError> {
        self.conn
            .query_row("SELECT covered, covered_hash FROM state", [], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
            })
            .map_err(|e| self.err("read", e))
    }

    /// Forget everything (the inbox it indexed is not the inbox there now).
    pub(crate) fn reset(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute_batch(
                "BEGIN IMMEDIATE;
                 INSERT INTO docs (docs) VALUES ('delete-all');
                 UPDATE state SET covered = 0, covered_hash = 0;
                 COMMIT;",
            )
            .map_err(|e| self.err("reset", e))
    }

    /// Give the space of deleted postings back to the file system.
    pub(crate) fn vacuum(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(|e| self.err("vacuum", e))
    }

    /// Index `docs` as the records after `from` up to `to` (whose id hash is `to_hash`), in
    /// one transaction. `false` (nothing written) when another writer moved `covered` since
    /// the caller read it.
    pub(crate) fn add(
        &mut self,
        from: u64,
        to: u64,
        to_hash: u64,
        docs: &[Doc],
    ) -> Result<bool, StoreError> {
        let path = self.path.clone();
        let err = |op, e| sql_err(&path, op, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| err("lock", e))?;
        let now: i64 = tx
            .query_row("SELECT covered FROM state", [], |r| r.get(0))
            .map_err(|e| err("read", e))?;
        if now as u64 != from {
            return Ok(false);
        }
        {
            let mut ins = tx
                .prepare_cached(
                    "INSERT INTO docs (rowid, sender, subject, body, attachments, tags)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(|e| err("prepare", e))?;
            for d in docs {
                ins.execute(params![
                    d.seq as i64,
                    d.sender,
                    d.subject,
                    d.body,
                    d.attachments,
                    d.tags
                ])
                .map_err(|e| err("write", e))?;
            }
        }
        tx.execute(
            "UPDATE state SET covered = ?1, covered_hash = ?2",
            params![to as i64, to_hash as i64],
        )
        .map_err(|e| err("write", e))?;
        tx.commit().map_err(|e| err("commit", e))?;
        Ok(true)
    }

    /// Up to `limit` seqs matching `expr` from `from` on, in its direction.
    pub(crate) fn page(
        &self,
        expr: &str,
        from: Page,
        limit: usize,
    ) -> Result<Vec<u64>, StoreError> {
        let (sql, at) = match from {
            Page::Below(s) => (
                "SELECT rowid FROM docs WHERE docs MATCH ?1 AND rowid < ?2
                 ORDER BY rowid DESC LIMIT ?3",
                s,
            ),
            Page::Above(s) => (
                "SELECT rowid FROM docs WHERE docs MATCH ?1 AND rowid > ?2
                 ORDER BY rowid ASC LIMIT ?3",
                s,
            ),
        };
        let mut st = self
            .conn
            .prepare_cached(sql)
            .map_err(|e| self.err("prepare", e))?;
        let rows = st
            .query_map(params![expr, at as i64, limit as i64], |r| {
                r.get::<_, i64>(0)
            })
            .map_err(|e| self.err("search", e))?;
        rows.map(|r| r.map(|s| s as u64).map_err(|e| self.err("search", e)))
            .collect()
    }

    /// The `window` newest seqs below `before` matching `expr`, each with its relevance
    /// (BM25, larger is better). `phrases` are the query's positive terms ([`phrases`]), the
    /// first phrases of `expr`: each is weighed by its rarity, estimated among the records
    /// below `before` from its [`DF_SAMPLE`] newest matches.
    ///
    /// Not FTS5's own `bm25()`: that counts every record holding each phrase on its first
    /// call, a walk of the whole posting list (65–170 ms p99 for a word in every record at 1M;
    /// the whole ranked search is now 2 ms p50). [`rank`] scores the same way from an estimate.
    pub(crate) fn scored(
        &self,
        expr: &str,
        phrases: &[String],
        before: u64,
        window: usize,
    ) -> Result<Vec<(u64, f64)>, StoreError> {
        let mut idfs = Vec::with_capacity(phrases.len() * 8);
        {
            let mut sample = self
                .conn
                .prepare_cached(
                    "SELECT count(*), ifnull(min(rowid), 0) FROM (
                         SELECT rowid FROM docs WHERE docs MATCH ?1 AND rowid < ?2
                         ORDER BY rowid DESC LIMIT ?3)",
                )
                .map_err(|e| self.err("prepare", e))?;
            for p in phrases {
                let (found, oldest) = sample
                    .query_row(params![p, before as i64, DF_SAMPLE as i64], |r| {
                        Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
                    })
                    .map_err(|e| self.err("search", e))?;
                let w = idf(found, oldest, before, DF_SAMPLE as u64);
                idfs.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT rowid, {RANK}(docs, ?4) FROM docs WHERE docs MATCH ?1 AND rowid < ?2
                 ORDER BY rowid DESC LIMIT ?3"
            ))
            .map_err(|e| self.err("prepare", e))?;
        let rows = st
            .query_map(params![expr, before as i64, window as i64, idfs], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, f64>(1)?))
            })
            .map_err(|e| self.err("search", e))?;
        rows.map(|r| r.map_err(|e| self.err("search", e))).collect()
    }

    /// Bytes the index occupies on disk (with its write-ahead log).
    pub(crate) fn disk_bytes(&self) -> u64 {
        ["", "-wal"]
            .iter()
            .filter_map(|s| std::fs::metadata(format!("{}{s}", self.path.display())).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// A term's inverse document frequency among the records below `below` (seqs are dense, so
/// there are about `below - 1`), from its newest `sample` matches there: `found` of them, the
/// oldest at seq `oldest`. Fewer than `sample` is the exact count; a full sample is
/// extrapolated from how densely it falls in the seqs it spans. The density is the recent
/// one, which is what the relevance window ranks. Lucene's form, positive even for a word in
/// most records (FTS5's `bm25()` floors those at 1e-6, so every such word weighs the same).
fn idf(found: u64, oldest: u64, below: u64, sample: u64) -> f64 {
    let rows = below.saturating_sub(1).max(1) as f64;
    let df = if found < sample {
        found as f64
    } else {
        sample as f64 * rows / below.saturating_sub(oldest).max(1) as f64
    }
    .min(rows);
    (1.0 + (rows - df + 0.5) / (df + 0.5)).ln()
}

/// The SQL name of the ranking function [`register_rank`] adds to a connection.
const RANK: &str = "opsdesk_bm25";

/// Add [`RANK`] to `conn`: an FTS5 auxiliary function, `opsdesk_bm25(docs, idfs)` with `idfs`
/// a blob of little-endian f64, one per phrase of the query in order (phrases past its end,
/// the tags and the exclusions, weigh nothing).
fn register_rank(conn: &Connection) -> rusqlite::Result<()> {
    let fail = |rc| rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None);
    let mut api: *mut ffi::fts5_api = std::ptr::null_mut();
    // SAFETY: FTS5's documented way to reach its API (sqlite.org/fts5.html, "Extending
    // FTS5"): `SELECT fts5(?1)` with a pointer bound as "fts5_api_ptr" writes the API pointer
    // through it. `db` is this open connection's handle, the statement is finalized before
    // `api` is read, and `api` outlives the statement.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = std::ptr::null_mut();
        let rc = ffi::sqlite3_prepare_v2(
            db,
            c"SELECT fts5(?1)".as_ptr(),
            -1,
            &mut stmt,
            std::ptr::null_mut(),
        );
        if rc != ffi::SQLITE_OK {
            return Err(fail(rc));
        }
        let mut rc = ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&raw mut api).cast(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        if rc == ffi::SQLITE_OK {
            rc = ffi::sqlite3_step(stmt);
        }
        let done = ffi::sqlite3_finalize(stmt);
        if rc != ffi::SQLITE_ROW && rc != ffi::SQLITE_DONE {
            return Err(fail(rc));
        }
        if done != ffi::SQLITE_OK {
            return Err(fail(done));
        }
    }
    // SAFETY: a non-null `api` is FTS5's API object, valid while the connection is open;
    // version 2 is the first with xCreateFunction as declared. FTS5 copies the name; `rank`
    // has the signature FTS5 calls, with no user data and nothing to destroy.
    unsafe {
        if api.is_null() || (*api).iVersion < 2 {
            return Err(fail(ffi::SQLITE_ERROR));
        }
        let create = (*api)
            .xCreateFunction
            .ok_or_else(|| fail(ffi::SQLITE_ERROR))?;
        let name = std::ffi::CString::new(RANK).map_err(|_| fail(ffi::SQLITE_ERROR))?;
        let rc = create(api, name.as_ptr(), std::ptr::null_mut(), Some(rank), None);
        if rc != ffi::SQLITE_OK {
            return Err(fail(rc));
        }
    }
    Ok(())
}

/// [`RANK`]'s body, called by FTS5 once per matching row.
unsafe extern "C" fn rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n_val: std::ffi::c_int,
    ap_val: *mut *mut ffi::sqlite3_value,
) {
    // No unwinding into C: a panic becomes the query's error.
    // SAFETY: FTS5 passes a valid API, context and `n_val` argument values for this call.
    let score = std::panic::catch_unwind(|| unsafe { rank_row(&*api, fts, n_val, ap_val) });
    // SAFETY: `ctx` is this call's result context.
    unsafe {
        match score {
            Ok(Ok(s)) => ffi::sqlite3_result_double(ctx, s),
            Ok(Err(rc)) => ffi::sqlite3_result_error_code(ctx, rc),
            Err(_) => ffi::sqlite3_result_error(ctx, c"opsdesk_bm25 panicked".as_ptr(), -1),
        }
    }
}

/// BM25 of the current row as FTS5's `bm25()` computes it (k1 = 1.2, b = 0.75, a phrase's
/// frequency summed over its hits with [`WEIGHTS`] by column, length over all columns), with
/// each phrase's idf given instead of counted.
///
/// # Safety
/// The arguments of an FTS5 auxiliary function call, for its duration.
unsafe fn rank_row(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    n_val: std::ffi::c_int,
    ap_val: *mut *mut ffi::sqlite3_value,
) -> Result<f64, std::ffi::c_int> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let call = |rc: std::ffi::c_int| {
        if rc == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(rc)
        }
    };
    let missing = || ffi::SQLITE_MISUSE;
    if n_val != 1 {
        return Err(ffi::SQLITE_MISUSE);
    }
    // SAFETY: one argument value, as checked; its blob stays valid during this call.
    let idfs: &[u8] = unsafe {
        let v = *ap_val;
        let p = ffi::sqlite3_value_blob(v).cast::<u8>();
        let n = usize::try_from(ffi::sqlite3_value_bytes(v)).map_err(|_| missing())?;
        if p.is_null() {
            &[]
        } else {
            std::slice::from_raw_parts(p, n)
        }
    };
    let idfs: Vec<f64> = idfs
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect();
    let mut freq = vec![0.0f64; idfs.len()];
    let (mut rows, mut total, mut len, mut hits) = (0i64, 0i64, 0i32, 0i32);
    // SAFETY: the API's functions on this call's context, each with out-pointers to locals.
    unsafe {
        call(api.xRowCount.ok_or_else(missing)?(fts, &mut rows))?;
        call(api.xColumnTotalSize.ok_or_else(missing)?(
            fts, -1, &mut total,
        ))?;
        call(api.xColumnSize.ok_or_else(missing)?(fts, -1, &mut len))?;
        call(api.xInstCount.ok_or_else(missing)?(fts, &mut hits))?;
        let inst = api.xInst.ok_or_else(missing)?;
        for i in 0..hits {
            let (mut phrase, mut col, mut off) = (0, 0, 0);
            call(inst(fts, i, &mut phrase, &mut col, &mut off))?;
            let (Ok(p), Ok(c)) = (usize::try_from(phrase), usize::try_from(col)) else {
                continue;
            };
            if let (Some(f), Some(w)) = (freq.get_mut(p), WEIGHTS.get(c)) {
                *f += w;
            }
        }
    }
    let avg = total as f64 / rows.max(1) as f64;
    let norm = K1 * (1.0 - B + B * f64::from(len) / avg.max(1.0));
    Ok(freq
        .iter()
        .zip(&idfs)
        .map(|(&f, &idf)| idf * f * (K1 + 1.0) / (f + norm))
        .sum())
}

/// Remove the index and SQLite's files beside it.
fn remove_files(path: &Path) -> Result<(), StoreError> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let p = PathBuf::from(format!("{}{suffix}", path.display()));
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::io(&p, "remove", e)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> SearchQuery {
        SearchQuery::parse(s).unwrap()
    }

    fn doc(seq: u64, subject: &str, body: &str) -> Doc {
        Doc {
            seq,
            sender: "Alice Example alice@contoso.com".into(),
            subject: subject.into(),
            body: body.into(),
            attachments: String::new(),
            tags: format!("{} {}", channel_tag(Channel::Email), profile_tag("work")),
        }
    }

    fn find(ft: &FullText, s: &str, tags: &[String]) -> Vec<u64> {
        ft.page(
            &compile(&q(s), &[tags.to_vec()]),
            Page::Below(u64::MAX >> 1),
            50,
        )
        .unwrap()
    }

    #[test]
    fn words_phrases_prefixes_stems_exclusions_fields_and_tags() {
        let dir = tempfile::tempdir().unwrap();
        let mut ft = FullText::open(dir.path()).unwrap();
        let docs = [
            doc(1, "Budget review", "The quarterly budget reviews are due."),
            doc(2, "Lunch", "Menu for Friday: budget-friendly tacos."),
            doc(
                3,
                "Re: invoice",
                "Invoices attached; draft only, Nguyễn will sign.",
            ),
        ];
        assert!(ft.add(0, 3, 33, &docs).unwrap());
        assert_eq!(ft.covered().unwrap(), (3, 33));
        assert_eq!(find(&ft, "budget", &[]), vec![2, 1]);
        assert_eq!(find(&ft, "\"budget review\"", &[]), vec![1]);
        assert_eq!(find(&ft, "review", &[]), vec![1], "stems: reviews");
        assert_eq!(find(&ft, "invoice", &[]), vec![3], "stems: invoices");
        assert_eq!(find(&ft, "inv*", &[]), vec![3]);
        assert_eq!(find(&ft, "quar", &[]), vec![1], "a bare word begins words");
        assert_eq!(
            find(&ft, "\"quar\"", &[]),
            Vec::<u64>::new(),
            "quoted: exact"
        );
        assert_eq!(find(&ft, "budget -tacos", &[]), vec![1]);
        assert_eq!(find(&ft, "subject:budget", &[]), vec![1]);
        assert_eq!(find(&ft, "from:alice@contoso.com lunch", &[]), vec![2]);
        assert_eq!(find(&ft, "nguyen", &[]), vec![3], "diacritics fold");
        assert_eq!(find(&ft, "absentword", &[]), Vec::<u64>::new());
        assert_eq!(find(&ft, "budget", &[profile_tag("work")]), vec![2, 1]);
        assert_eq!(
            find(&ft, "budget", &[profile_tag("clinic")]),
            Vec::<u64>::new()
        );
        assert_eq!(
            find(&ft, "budget", &[profile_tag("clinic"), profile_tag("work")]),
            vec![2, 1]
        );
        // A tag is not a word a search finds.
        assert_eq!(find(&ft, &profile_tag("work"), &[]), Vec::<u64>::new());
        // Groups: a channel and a profile, both needed.
        let both = |c, p: &str| {
            ft.page(
                &compile(&q("budget"), &[vec![channel_tag(c)], vec![profile_tag(p)]]),
                Page::Below(100),
                10,
            )
            .unwrap()
        };
        assert_eq!(both(Channel::Email, "work"), vec![2, 1]);
        assert_eq!(both(Channel::Teams, "work"), Vec::<u64>::new());
        let scored = ft
            .scored(&compile(&q("budget"), &[]), &phrases(&q("budget")), 100, 10)
            .unwrap();
        assert_eq!(scored.iter().map(|s| s.0).collect::<Vec<_>>(), vec![2, 1]);
        assert!(
            scored[1].1 > scored[0].1,
            "in the subject and the body outranks the body: {scored:?}"
        );
    }

    /// Scores of `expr` over everything by `opsdesk_bm25` with `idfs`, and by FTS5's own
    /// bm25 with the same weights (negated: larger is better), by seq.
    fn both_scores(ft: &FullText, expr: &str, idfs: &[f64]) -> Vec<(u64, f64, f64)> {
        let blob: Vec<u8> = idfs.iter().flat_map(|f| f.to_le_bytes()).collect();
        let mut st = ft
            .conn
            .prepare(&format!(
                "SELECT rowid, {RANK}(docs, ?2), -bm25(docs, 2.0, 3.0, 1.0, 1.0, 0.0)
                 FROM docs WHERE docs MATCH ?1 ORDER BY rowid"
            ))
            .unwrap();
        st.query_map(params![expr, blob], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get(1)?, r.get(2)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    #[test]
    fn the_ranking_function_is_fts5_bm25_with_the_idf_given() {
        let dir = tempfile::tempdir().unwrap();
        let mut ft = FullText::open(dir.path()).unwrap();
        let mut docs: Vec<Doc> = (1..=20)
            .map(|i| {
                doc(
                    i,
                    &format!("note {i}"),
                    &"filler words here ".repeat(i as usize),
                )
            })
            .collect();
        docs[2] = doc(3, "Invoice overdue", "please pay the invoice today");
        docs[6] = doc(
            7,
            "weekly notes",
            &format!("{} invoice overdue", "filler ".repeat(40)),
        );
        docs[11] = doc(
            12,
            "re: invoice",
            "the invoice is overdue, overdue since May",
        );
        docs[15].sender = "Invoice Desk invoices@contoso.com".into();
        docs[15].attachments = "invoice.pdf\nan overdue invoice\n".into();
        assert!(ft.add(0, 20, 20, &docs).unwrap());
        let query = q("invoice overdue -lunch");
        let expr = compile(&query, &[]);
        // FTS5's idf for a phrase in n of the 20 records (exact, and above its 1e-6 floor).
        let fts5_idf = |n: f64| ((20.0 - n + 0.5) / (n + 0.5)).ln();
        let got = both_scores(&ft, &expr, &[fts5_idf(4.0), fts5_idf(4.0)]);
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            vec![3, 7, 12, 16]
        );
        for (seq, ours, theirs) in &got {
            assert!(
                (ours - theirs).abs() < 1e-9 * theirs.abs().max(1.0) && *theirs > 0.0,
                "record {seq}: {ours} vs bm25 {theirs}"
            );
        }
        // Each phrase weighs by its own idf; a phrase without one (the exclusion) weighs nothing.
        let rare_first = both_scores(&ft, &expr, &[2.0, 0.0]);
        let rare_second = both_scores(&ft, &expr, &[0.0, 2.0]);
        for ((a, b), all) in rare_first.iter().zip(&rare_second).zip(&got) {
            assert!(a.1 > 0.0 && b.1 > 0.0, "{a:?} {b:?}");
            let sum = (a.1 + b.1) * fts5_idf(4.0) / 2.0;
            assert!((sum - all.1).abs() < 1e-9, "{a:?} + {b:?} vs {all:?}");
        }
        assert!(both_scores(&ft, &expr, &[]).iter().all(|g| g.1 == 0.0));
    }

    #[test]
    fn rarity_is_counted_below_the_sample_and_extrapolated_above_it() {
        // 10 of the 1,000 records below 1,001: counted exactly.
        let exact = idf(10, 500, 1001, 100);
        assert!((exact - (1.0 + 990.5 / 10.5f64).ln()).abs() < 1e-12);
        // A full sample of 100 spanning the newest 400 seqs: a quarter of all, 250 records.
        let quarter = idf(100, 601, 1001, 100);
        assert!((quarter - (1.0 + 750.5 / 250.5f64).ln()).abs() < 1e-12);
        // In every record: the smallest weight, still positive.
        let every = idf(100, 901, 1001, 100);
        assert!(every > 0.0 && every < quarter && quarter < exact);
        // Degenerate inputs stay finite.
        for w in [idf(0, 0, 1, 100), idf(100, 5, 5, 100), idf(0, 0, 0, 1)] {
            assert!(w.is_finite() && w > 0.0, "{w}");
        }
    }

    #[test]
    fn a_rare_word_outweighs_a_common_one_in_a_ranked_search() {
        let dir = tempfile::tempdir().unwrap();
        let mut ft = FullText::open(dir.path()).unwrap();
        // "status" is in every record, "outage" in two: the record with "outage" twice beats
        // the one with "status" three times, though by plain term counts it would lose.
        let n = 3 * DF_SAMPLE as u64;
        let docs: Vec<Doc> = (1..=n)
            .map(|i| match i {
                100 => doc(i, "daily", "status outage outage filler"),
                200 => doc(i, "daily", "status status status outage"),
                _ => doc(i, "daily", &format!("status filler {i}")),
            })
            .collect();
        assert!(ft.add(0, n, n, &docs).unwrap());
        let query = q("status outage");
        let scored = ft
            .scored(&compile(&query, &[]), &phrases(&query), n + 1, 10)
            .unwrap();
        assert_eq!(scored.len(), 2, "{scored:?}");
        assert_eq!(scored[0].0, 200);
        assert!(scored[1].1 > scored[0].1, "{scored:?}");
        // A word in every record, past the sample: still ranked, by how often it appears.
        let query = q("status");
        let scored = ft
            .scored(&compile(&query, &[]), &phrases(&query), n + 1, n as usize)
            .unwrap();
        assert_eq!(scored.len(), n as usize);
        let of = |seq| scored.iter().find(|s| s.0 == seq).unwrap().1;
        assert!(
            of(200) > of(100) && of(100) > 0.0,
            "{} {}",
            of(200),
            of(100)
        );
    }

    #[test]
    fn a_writer_that_lost_the_race_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = FullText::open(dir.path()).unwrap();
        let mut b = FullText::open(dir.path()).unwrap();
        assert!(a.add(0, 1, 11, &[doc(1, "one", "x")]).unwrap());
        assert!(!b.add(0, 1, 11, &[doc(1, "one", "x")]).unwrap());
        assert_eq!(find(&b, "one", &[]), vec![1]);
    }

    #[test]
    fn a_damaged_file_is_rebuilt_empty_and_the_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(DB), vec![0x5a; 8192]).unwrap();
        let mut ft = FullText::open(dir.path()).unwrap();
        assert_eq!(ft.covered().unwrap(), (0, 0));
        assert!(ft.add(0, 1, 1, &[doc(1, "one", "x")]).unwrap());
        for f in std::fs::read_dir(dir.path()).unwrap() {
            let f = f.unwrap();
            let mode = f.metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{:?}", f.file_name());
        }
        ft.reset().unwrap();
        assert_eq!(ft.covered().unwrap(), (0, 0));
        assert_eq!(find(&ft, "one", &[]), Vec::<u64>::new());
    }
}
