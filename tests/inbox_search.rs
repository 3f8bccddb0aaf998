//! Inbox search through the full-text index: the same records as reading every record and
//! checking its words, every filter, both orders, and an index that is disposable — deleted,
//! damaged, stale or cut off by a kill -9, it is rebuilt and answers as before.

mod common;

use std::collections::{BTreeSet, HashSet};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::record;
use opsdesk::domain::{Channel, InboxRecord, SearchField, SearchOrder, SearchQuery, words_of};
use opsdesk::store::inbox::{Filter, Inbox};

/// Words the stemmer leaves as they are and folds into nothing else: a search's answer can
/// then be computed by reading every record's words.
const VOCAB: &[&str] = &[
    "zork", "quib", "blat", "vrom", "plox", "drun", "kwat", "mub", "frob", "glim", "snark", "twib",
    "yomp", "zat", "crub", "dwim", "fnord", "gronk", "hask", "jub",
];
const PROFILES: &[&str] = &["work", "clinic", "home"];

/// A deterministic generator (no clock, no randomness between runs).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() as usize) % from.len()]
    }
}

fn generated(n: usize, seed: u64) -> Vec<InboxRecord> {
    let mut g = Lcg(seed);
    (0..n)
        .map(|i| {
            let words: Vec<&str> = (0..3 + g.next() % 8).map(|_| g.pick(VOCAB)).collect();
            let channel = Channel::ALL[(g.next() as usize) % 3];
            let mut r = record(
                &format!("g{seed}-{i}"),
                g.pick(PROFILES),
                channel,
                &words.join(" "),
            );
            r.subject = Some(format!("{} {}", g.pick(VOCAB), g.pick(VOCAB)));
            r
        })
        .collect()
}

/// What a search must answer, found by reading every record: the seqs whose words hold every
/// positive term (a phrase as consecutive words) and no negated one, newest first.
fn expected(all: &[InboxRecord], query: &str, filter: &Filter) -> Vec<u64> {
    let q = SearchQuery::parse(query).unwrap();
    let mut out: Vec<u64> = all
        .iter()
        .filter(|r| filter.matches(r))
        .filter(|r| {
            let fields = [
                words_of(&format!("{} {}", r.from.name, r.from.address)),
                words_of(r.subject.as_deref().unwrap_or("")),
                words_of(&r.text),
            ];
            q.terms.iter().all(|t| {
                let fields: &[Vec<String>] = match t.field {
                    SearchField::Any => &fields,
                    SearchField::From => &fields[..1],
                    SearchField::Subject => &fields[1..2],
                };
                let found = fields.iter().any(|f| {
                    f.windows(t.words.len()).any(|w| {
                        w.iter().zip(&t.words).enumerate().all(|(i, (a, b))| {
                            if t.prefix && i == t.words.len() - 1 {
                                a.starts_with(b.as_str())
                            } else {
                                a == b
                            }
                        })
                    })
                });
                found != t.negated
            })
        })
        .map(|r| r.seq)
        .collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

fn found(inbox: &Inbox, query: &str, filter: &Filter) -> Vec<u64> {
    let f = Filter {
        text: Some(query.to_string()),
        ..filter.clone()
    };
    let b = inbox.read_before(None, 100_000, &f).unwrap();
    assert_eq!(b.skipped_corrupt, 0);
    b.records.iter().map(|r| r.seq).collect()
}

fn stored(inbox: &Inbox) -> Vec<InboxRecord> {
    inbox
        .read_after(0, usize::MAX, &Filter::default())
        .unwrap()
        .records
        .into_iter()
        .map(std::sync::Arc::unwrap_or_clone)
        .collect()
}

const QUERIES: &[&str] = &[
    "zork",
    "zork quib",
    "\"zork quib\"",
    "blat -vrom",
    "fno*",
    "subject:mub",
    "\"twib yom\"*",
    "ada@example.com hask",
    "nosuchword",
];

fn filters() -> Vec<Filter> {
    let mut out = vec![Filter::default()];
    out.push(Filter {
        channel: Some(Channel::Teams),
        ..Filter::default()
    });
    out.push(Filter {
        profile: Some("clinic".into()),
        ..Filter::default()
    });
    out.push(Filter {
        channel: Some(Channel::Email),
        profile: Some("home".into()),
        ..Filter::default()
    });
    out
}

#[test]
fn a_search_answers_what_reading_every_record_answers() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox.append_batch(generated(600, 7)).unwrap();
    let all = stored(&inbox);
    for q in QUERIES {
        for f in filters() {
            let want = expected(&all, q, &f);
            assert_eq!(found(&inbox, q, &f), want, "query {q:?} filter {f:?}");
        }
    }
    // Some queries must find something, or the comparison proves little.
    assert!(expected(&all, "\"zork quib\"", &Filter::default()).len() > 5);
    assert!(expected(&all, "nosuchword", &Filter::default()).is_empty());
}

#[test]
fn pages_newest_first_below_before_and_oldest_first_after() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox.append_batch(generated(400, 11)).unwrap();
    let all = stored(&inbox);
    let want = expected(&all, "glim", &Filter::default());
    let text = Filter {
        text: Some("glim".into()),
        ..Filter::default()
    };
    let mut paged = Vec::new();
    let mut before = None;
    loop {
        let page = inbox.read_before(before, 7, &text).unwrap();
        if page.records.is_empty() {
            break;
        }
        paged.extend(page.records.iter().map(|r| r.seq));
        before = page.records.last().map(|r| r.seq);
    }
    assert_eq!(paged, want);
    let up = inbox.read_after(0, 5, &text).unwrap();
    let mut oldest: Vec<u64> = want.iter().rev().take(5).copied().collect();
    oldest.sort_unstable();
    assert_eq!(up.records.iter().map(|r| r.seq).collect::<Vec<_>>(), oldest);
}

#[test]
fn relevance_puts_the_subject_and_the_rare_word_ahead_and_prefers_the_recent() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    let mut recs = Vec::new();
    let mut deep = record("deep", "work", Channel::Email, "");
    deep.text = format!("{} invoice {}", "filler ".repeat(60), "filler ".repeat(60));
    deep.subject = Some("weekly notes".into());
    recs.push(deep);
    let mut titled = record("titled", "work", Channel::Email, "please pay the invoice");
    titled.subject = Some("Invoice overdue".into());
    recs.push(titled);
    for i in 0..5 {
        recs.push(record(
            &format!("newer{i}"),
            "work",
            Channel::Email,
            &format!("{} invoice", "filler ".repeat(60)),
        ));
    }
    inbox.append_batch(recs).unwrap();
    let q = SearchQuery::parse("invoice").unwrap();
    let ranked = inbox
        .search(&q, &Filter::default(), None, 3, SearchOrder::Relevance)
        .unwrap();
    assert_eq!(ranked.records[0].id, "titled", "{:?}", ids(&ranked.records));
    let newest = inbox
        .search(&q, &Filter::default(), None, 3, SearchOrder::Newest)
        .unwrap();
    assert_eq!(ids(&newest.records), ["newer4", "newer3", "newer2"]);
}

fn ids(recs: &[std::sync::Arc<InboxRecord>]) -> Vec<String> {
    recs.iter().map(|r| r.id.clone()).collect()
}

#[test]
fn a_deleted_damaged_or_stale_index_is_rebuilt_and_answers_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox.append_batch(generated(300, 3)).unwrap();
    let before = found(&inbox, "zork quib", &Filter::default());
    assert!(!before.is_empty());
    drop(inbox);

    // Deleted (with its log).
    for f in ["search.db", "search.db-wal", "search.db-shm"] {
        let _ = std::fs::remove_file(dir.path().join(f));
    }
    let inbox = Inbox::open(dir.path()).unwrap();
    assert_eq!(found(&inbox, "zork quib", &Filter::default()), before);
    drop(inbox);

    // Overwritten with garbage.
    for f in ["search.db-wal", "search.db-shm"] {
        let _ = std::fs::remove_file(dir.path().join(f));
    }
    std::fs::write(dir.path().join("search.db"), vec![0x42u8; 65536]).unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    assert_eq!(found(&inbox, "zork quib", &Filter::default()), before);
    drop(inbox);

    // Another inbox of the same length under the same index: its records, not the old ones.
    let other = tempfile::tempdir().unwrap();
    let o = Inbox::open(other.path()).unwrap();
    o.append_batch(generated(300, 99)).unwrap();
    let want = expected(&stored(&o), "zork quib", &Filter::default());
    drop(o);
    for f in ["search.db", "search.db-wal", "search.db-shm"] {
        let _ = std::fs::copy(dir.path().join(f), other.path().join(f));
    }
    let o = Inbox::open(other.path()).unwrap();
    assert_eq!(found(&o, "zork quib", &Filter::default()), want);
    assert_ne!(
        want, before,
        "the two inboxes must differ for this to prove anything"
    );
}

#[test]
fn reindex_builds_the_same_index_and_reports_progress() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox.append_batch(generated(2500, 5)).unwrap();
    let before = found(&inbox, "fno*", &Filter::default());
    let mut ticks = Vec::new();
    let n = inbox
        .reindex(&mut |done, of| ticks.push((done, of)))
        .unwrap();
    assert_eq!(n, 2500);
    assert_eq!(ticks.last(), Some(&(2500, 2500)));
    assert!(ticks.len() >= 3, "one tick per batch: {ticks:?}");
    assert_eq!(found(&inbox, "fno*", &Filter::default()), before);
    let (covered, bytes) = inbox.index_stats().unwrap();
    assert_eq!(covered, 2500);
    assert!(bytes > 0);
}

const CHILD_ENV: &str = "OPSDESK_TEST_SEARCH_CHILD";
const MARK: &str = "quux";

/// Child side: append batches, each followed by indexing (as a host does after ingests), and
/// report every record whose append returned.
#[test]
fn child_ingester() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        return;
    };
    let inbox = Inbox::open(std::path::Path::new(&dir)).unwrap();
    let out = std::io::stdout();
    for b in 0..100_000 {
        let batch: Vec<_> = (0..40)
            .map(|i| {
                let id = format!("{}-{b}-{i}", std::process::id());
                record(
                    &id,
                    "work",
                    Channel::Email,
                    &format!("{MARK} {}", "w ".repeat(i * 13)),
                )
            })
            .collect();
        let ids: Vec<String> = batch.iter().map(|r| r.id.clone()).collect();
        inbox.append_batch(batch).unwrap();
        {
            use std::io::Write;
            let mut o = out.lock();
            for id in ids {
                writeln!(o, "\n@@ack {id}").unwrap();
            }
        }
        inbox.index_pending(&mut |_, _| {}).unwrap();
    }
}

#[test]
fn an_ingest_killed_while_indexing_leaves_an_index_that_catches_up_with_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut acked: HashSet<String> = HashSet::new();
    let mut behind = 0;
    for round in 0..8u64 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "child_ingester",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        let target = 40 * (2 + round * 3);
        let mut line = String::new();
        let mut seen = 0;
        while seen < target {
            line.clear();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if let Some((_, id)) = line.split_once("@@ack ") {
                acked.insert(id.trim().to_string());
                seen += 1;
            }
        }
        std::thread::sleep(std::time::Duration::from_micros((round * 701) % 4000));
        // SAFETY: plain kill(2) on our own child.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGKILL);
        }
        for l in reader.lines().map_while(Result::ok) {
            if let Some((_, id)) = l.split_once("@@ack ") {
                acked.insert(id.trim().to_string());
            }
        }
        child.wait().unwrap();
        let inbox = Inbox::open(dir.path()).unwrap();
        behind += (inbox.index_stats().unwrap().0 < inbox.last_seq().unwrap()) as usize;
    }
    // A kill between an append and its indexing leaves the index behind: if none did, the
    // catch-up below would prove nothing.
    assert!(behind > 0, "no kill left the index behind the inbox");
    let inbox = Inbox::open(dir.path()).unwrap();
    let all = stored(&inbox);
    let hits = inbox
        .read_before(
            None,
            usize::MAX,
            &Filter {
                text: Some(MARK.into()),
                ..Filter::default()
            },
        )
        .unwrap();
    let found: Vec<u64> = hits.records.iter().map(|r| r.seq).collect();
    let unique: BTreeSet<u64> = found.iter().copied().collect();
    assert_eq!(unique.len(), found.len(), "a record was found twice");
    assert_eq!(found.len(), all.len(), "every stored record has the word");
    let ids: HashSet<String> = hits.records.iter().map(|r| r.id.clone()).collect();
    for id in &acked {
        assert!(ids.contains(id), "acknowledged record {id} is not found");
    }
    assert_eq!(inbox.index_stats().unwrap().0, all.len() as u64);
}
