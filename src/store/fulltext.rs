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

use rusqlite::{Connection, ErrorCode, OpenFlags, params};
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
const BM25: &str = "bm25(docs, 2.0, 3.0, 1.0, 1.0, 0.0)";

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

/// `q` as an FTS5 expression, limited to records carrying, of every group in `tags`, one tag.
pub(crate) fn compile(q: &SearchQuery, tags: &[Vec<String>]) -> String {
    let phrase = |t: &crate::domain::SearchTerm| {
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
    };
    let positive: Vec<String> = q.terms.iter().filter(|t| !t.negated).map(phrase).collect();
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
    /// (bm25, larger is better).
    pub(crate) fn scored(
        &self,
        expr: &str,
        before: u64,
        window: usize,
    ) -> Result<Vec<(u64, f64)>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT rowid, -{BM25} FROM docs WHERE docs MATCH ?1 AND rowid < ?2
                 ORDER BY rowid DESC LIMIT ?3"
            ))
            .map_err(|e| self.err("prepare", e))?;
        let rows = st
            .query_map(params![expr, before as i64, window as i64], |r| {
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
        let scored = ft.scored(&compile(&q("budget"), &[]), 100, 10).unwrap();
        assert_eq!(scored.iter().map(|s| s.0).collect::<Vec<_>>(), vec![2, 1]);
        assert!(
            scored[1].1 > scored[0].1,
            "in the subject and the body outranks the body: {scored:?}"
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
