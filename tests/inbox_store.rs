//! The durable inbox: ordering, dedup, cursors, damage recovery and crash safety.

mod common;

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use common::record;
use opsdesk::domain::Channel;
use opsdesk::store::inbox::{Appended, Filter, Inbox};

/// `n` work emails `m0`, `m1`, … with the text "x".
fn add_mail(inbox: &Inbox, n: usize) {
    for i in 0..n {
        inbox
            .append(record(&format!("m{i}"), "work", Channel::Email, "x"))
            .unwrap();
    }
}

fn all(inbox: &Inbox) -> Vec<opsdesk::domain::InboxRecord> {
    let b = inbox.read_after(0, usize::MAX, &Filter::default()).unwrap();
    assert_eq!(b.skipped_corrupt, 0, "no record may come back damaged");
    b.records
        .into_iter()
        .map(std::sync::Arc::unwrap_or_clone)
        .collect()
}

#[test]
fn appends_get_dense_increasing_seqs_and_read_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    for i in 0..10 {
        inbox
            .append(record(&format!("m{i}"), "work", Channel::Email, "hello"))
            .unwrap();
    }
    let recs = all(&inbox);
    assert_eq!(
        recs.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    assert!(recs.iter().all(|r| r.untrusted));
    assert_eq!(inbox.last_seq().unwrap(), 10);
    let page = inbox.read_after(3, 4, &Filter::default()).unwrap();
    assert_eq!(
        page.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        vec![4, 5, 6, 7]
    );
    let newest = inbox.read_before(None, 3, &Filter::default()).unwrap();
    assert_eq!(
        newest.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        vec![10, 9, 8]
    );
}

/// An idle engine drops its parsed-record cache after a burst (to give the allocator's pages
/// back): the reads after it answer exactly as before, cache or not.
#[test]
fn shedding_the_record_cache_changes_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    add_mail(&inbox, 50);
    let before = inbox.read_before(None, 20, &Filter::default()).unwrap();
    let cached = inbox.read_before(None, 20, &Filter::default()).unwrap();
    inbox.shed_caches();
    let after = inbox.read_before(None, 20, &Filter::default()).unwrap();
    assert_eq!(before.records.len(), 20);
    assert_eq!(cached.records, before.records);
    assert_eq!(after.records, before.records);
    assert_eq!(inbox.get(50).unwrap().as_ref(), Some(&*after.records[0]));
    // Appends after a shed are read back too, and the cache fills again.
    inbox
        .append(record("late", "work", Channel::Email, "x"))
        .unwrap();
    inbox.shed_caches();
    inbox.shed_caches();
    assert_eq!(all(&inbox).len(), 51);
    assert_eq!(inbox.get(51).unwrap().map(|r| r.seq), Some(51));
}

/// The writer's id map is shed with the caches and rebuilt from the index on the next write:
/// a record seen before the shed is still a duplicate after it, on every side of a merge.
#[test]
fn shedding_the_caches_keeps_every_id_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    // More than one merge of the map's newest entries (8,192) in one batch.
    inbox
        .append_batch(
            (0..9000)
                .map(|i| record(&format!("m{i}"), "work", Channel::Email, "x"))
                .collect(),
        )
        .unwrap();
    inbox.shed_caches();
    for i in [0, 4500, 8191, 8192, 8999] {
        match inbox
            .append(record(&format!("m{i}"), "work", Channel::Email, "again"))
            .unwrap()
        {
            Appended::Duplicate { seq, .. } => assert_eq!(seq, i + 1, "m{i}"),
            other => panic!("m{i} stored twice: {other:?}"),
        }
    }
    assert!(matches!(
        inbox
            .append(record("fresh", "work", Channel::Email, "x"))
            .unwrap(),
        Appended::New(r) if r.seq == 9001
    ));
    inbox.shed_caches();
    assert!(matches!(
        inbox
            .append(record("fresh", "work", Channel::Email, "y"))
            .unwrap(),
        Appended::Duplicate { seq: 9001, .. }
    ));
}

#[test]
fn a_repeated_source_id_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    assert!(matches!(
        inbox
            .append(record("same", "work", Channel::Teams, "a"))
            .unwrap(),
        Appended::New(_)
    ));
    match inbox
        .append(record("same", "work", Channel::Teams, "b"))
        .unwrap()
    {
        Appended::Duplicate { seq, .. } => assert_eq!(seq, 1),
        other => panic!("expected duplicate, got {other:?}"),
    }
    // Within one batch, and from a second process's point of view (a fresh handle).
    let out = inbox
        .append_batch(vec![
            record("x", "work", Channel::Email, "1"),
            record("x", "work", Channel::Email, "2"),
        ])
        .unwrap();
    assert!(matches!(out[1], Appended::Duplicate { seq: 2, .. }));
    let other = Inbox::open(dir.path()).unwrap();
    assert!(matches!(
        other
            .append(record("same", "work", Channel::Teams, "c"))
            .unwrap(),
        Appended::Duplicate { .. }
    ));
    assert_eq!(all(&inbox).len(), 2);
}

#[test]
fn each_consumer_moves_only_its_own_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    add_mail(&inbox, 5);
    let (b, remaining) = inbox
        .pull("mcp:claude-code", 3, &Filter::default(), true)
        .unwrap();
    assert_eq!(b.records.len(), 3);
    assert_eq!(remaining, 2);
    let (again, _) = inbox
        .pull("mcp:claude-code", 10, &Filter::default(), true)
        .unwrap();
    assert_eq!(
        again.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        vec![4, 5]
    );
    // Another client still sees everything; a peek does not move anything.
    let (peek, _) = inbox
        .pull("mcp:copilot", 10, &Filter::default(), false)
        .unwrap();
    assert_eq!(peek.records.len(), 5);
    assert_eq!(inbox.cursor("mcp:copilot").unwrap(), None);
    assert_eq!(inbox.cursor("mcp:claude-code").unwrap(), Some(5));
    // Cursors never move backwards through advance.
    inbox.advance_cursor("mcp:claude-code", 2).unwrap();
    assert_eq!(inbox.cursor("mcp:claude-code").unwrap(), Some(5));
    let st = inbox.state().unwrap();
    assert_eq!(st.last_seq, 5);
    assert_eq!(st.unread, 5, "the operator (console) has read nothing");
}

#[test]
fn filters_select_by_channel_profile_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox
        .append(record("a", "work", Channel::Email, "contract renewal"))
        .unwrap();
    inbox
        .append(record("b", "clinic", Channel::Teams, "lab results"))
        .unwrap();
    inbox
        .append(record("c", "work", Channel::Teams, "standup moved"))
        .unwrap();
    let teams = Filter {
        channel: Some(Channel::Teams),
        ..Filter::default()
    };
    assert_eq!(inbox.read_after(0, 10, &teams).unwrap().records.len(), 2);
    let clinic = Filter {
        profile: Some("clinic".into()),
        ..Filter::default()
    };
    assert_eq!(inbox.read_after(0, 10, &clinic).unwrap().records[0].id, "b");
    let text = Filter {
        text: Some("RENEWAL".into()),
        ..Filter::default()
    };
    assert_eq!(inbox.read_after(0, 10, &text).unwrap().records[0].id, "a");
    assert_eq!(inbox.find_by_id("c").unwrap().unwrap().seq, 3);
    assert!(inbox.find_by_id("nope").unwrap().is_none());
}

#[test]
fn files_are_private() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("inbox");
    let inbox = Inbox::open(&path).unwrap();
    inbox
        .append(record("a", "work", Channel::Email, "x"))
        .unwrap();
    inbox.advance_cursor("console", 1).unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o700
    );
    for e in fs::read_dir(&path).unwrap() {
        let e = e.unwrap();
        let mode = e.metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{} has mode {mode:o}", e.path().display());
    }
}

#[test]
fn a_corrupt_state_file_falls_back_to_the_backup_without_losing_cursors() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox
        .append(record("a", "work", Channel::Email, "x"))
        .unwrap();
    inbox
        .append(record("b", "work", Channel::Email, "y"))
        .unwrap();
    inbox.advance_cursor("watch", 1).unwrap();
    fs::write(dir.path().join("state.json"), b"{ this is not json").unwrap();
    assert_eq!(inbox.cursor("watch").unwrap(), Some(1));
    assert_eq!(inbox.state().unwrap().last_seq, 2);
    // The damaged copy is kept for inspection.
    assert!(fs::read_dir(dir.path()).unwrap().any(|e| {
        e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with("state.json.corrupt-")
    }));
    // Both gone: cursors start over, records are all still there.
    fs::remove_file(dir.path().join("state.json.bak")).unwrap();
    let _ = fs::remove_file(dir.path().join("state.json"));
    assert_eq!(inbox.cursor("watch").unwrap(), None);
    assert_eq!(all(&inbox).len(), 2);
}

#[test]
fn a_damaged_line_is_skipped_never_returned() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    for i in 0..3 {
        inbox
            .append(record(
                &format!("m{i}"),
                "work",
                Channel::Email,
                "hello world",
            ))
            .unwrap();
    }
    let day = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let mut bytes = fs::read(&day).unwrap();
    // Flip a byte inside the second record's JSON.
    let second = bytes.iter().position(|&b| b == b'\n').unwrap() + 2;
    bytes[second] = b'#';
    fs::write(&day, &bytes).unwrap();
    let b = inbox.read_after(0, 10, &Filter::default()).unwrap();
    assert_eq!(
        b.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        vec![1, 3]
    );
    assert_eq!(b.skipped_corrupt, 1);
    // Appending still works and continues the sequence.
    inbox
        .append(record("m3", "work", Channel::Email, "x"))
        .unwrap();
    assert_eq!(inbox.last_seq().unwrap(), 4);
}

#[test]
fn a_lost_index_is_rebuilt_from_the_data_files() {
    let dir = tempfile::tempdir().unwrap();
    {
        let inbox = Inbox::open(dir.path()).unwrap();
        for i in 0..5 {
            inbox
                .append(record(&format!("m{i}"), "work", Channel::Email, "x"))
                .unwrap();
        }
    }
    fs::remove_file(dir.path().join("index2.bin")).unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    // A writer notices and rebuilds; dedup still knows the old ids.
    assert!(matches!(
        inbox
            .append(record("m0", "work", Channel::Email, "x"))
            .unwrap(),
        Appended::Duplicate { seq: 1, .. }
    ));
    inbox
        .append(record("m5", "work", Channel::Email, "x"))
        .unwrap();
    assert_eq!(
        all(&inbox).iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=6).collect::<Vec<_>>()
    );
}

#[test]
fn readers_notice_a_missing_or_truncated_index_and_see_every_record() {
    let dir = tempfile::tempdir().unwrap();
    {
        let inbox = Inbox::open(dir.path()).unwrap();
        for i in 0..5 {
            inbox
                .append(record(&format!("m{i}"), "work", Channel::Email, "x"))
                .unwrap();
        }
    }
    let index = dir.path().join("index2.bin");
    let seqs = |inbox: &Inbox| all(inbox).iter().map(|r| r.seq).collect::<Vec<_>>();
    // Cut to two entries: no writer comes by, readers alone must not show a short inbox.
    let f = fs::OpenOptions::new().write(true).open(&index).unwrap();
    f.set_len(2 * 32).unwrap();
    drop(f);
    let inbox = Inbox::open(dir.path()).unwrap();
    assert_eq!(inbox.last_seq().unwrap(), 5);
    assert_eq!(seqs(&inbox), (1..=5).collect::<Vec<_>>());
    // Deleted, then emptied: the same.
    for damage in [
        |p: &std::path::Path| fs::remove_file(p).unwrap(),
        |p: &std::path::Path| fs::write(p, b"").unwrap(),
    ] {
        damage(&index);
        let inbox = Inbox::open(dir.path()).unwrap();
        let newest = inbox
            .read_before(None, 10, &Filter::default())
            .unwrap()
            .records;
        assert_eq!(newest.len(), 5, "newest-first readers too");
        assert_eq!(inbox.get(5).unwrap().map(|r| r.id), Some("m4".to_string()));
        assert_eq!(inbox.state().unwrap().last_seq, 5);
    }
}

/// Collects what `tracing` logs on the current thread, for asserting on warnings.
#[derive(Clone, Default)]
struct Logged(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Logged {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_reader_that_catches_a_writer_mid_append_waits_for_it_and_warns_of_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    add_mail(&inbox, 2);
    // Stage a writer between its two writes: it holds the inbox lock, its data line is on
    // disk, its index entry not yet.
    let index = dir.path().join("index2.bin");
    let full = fs::read(&index).unwrap();
    let lock = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.path().join(".lock"))
        .unwrap();
    lock.lock().unwrap();
    fs::write(&index, &full[..32]).unwrap();

    let logged = Logged::default();
    let sink = logged.clone();
    let path = dir.path().to_path_buf();
    let reader = std::thread::spawn(move || {
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            Inbox::open(&path).unwrap().last_seq().unwrap()
        })
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    fs::write(&index, &full).unwrap(); // the writer commits
    lock.unlock().unwrap();

    assert_eq!(
        reader.join().unwrap(),
        2,
        "the reader sees the finished append"
    );
    let text = String::from_utf8(logged.0.lock().unwrap().clone()).unwrap();
    assert!(
        !text.contains("missing or short"),
        "a writer at work is no damaged index: {text}"
    );
    // A truly short index is still repaired and reported.
    fs::write(&index, &full[..32]).unwrap();
    let logged = Logged::default();
    let sink = logged.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || sink.clone())
        .with_ansi(false)
        .finish();
    let n = tracing::subscriber::with_default(subscriber, || {
        Inbox::open(dir.path()).unwrap().last_seq().unwrap()
    });
    assert_eq!(n, 2);
    let text = String::from_utf8(logged.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("missing or short"), "{text}");
}

#[test]
fn a_torn_tail_is_invisible_to_readers_and_repaired_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox
        .append(record("a", "work", Channel::Email, "x"))
        .unwrap();
    let day = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    // A writer died mid-line, and another mid-index-entry.
    fs::OpenOptions::new()
        .append(true)
        .open(&day)
        .unwrap()
        .write_all_ext(b"{\"seq\":2,\"id\":\"b\",\"recei");
    fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("index2.bin"))
        .unwrap()
        .write_all_ext(&[1, 2, 3]);
    assert_eq!(all(&inbox).len(), 1);
    inbox
        .append(record("c", "work", Channel::Email, "x"))
        .unwrap();
    let recs = all(&inbox);
    assert_eq!(
        recs.iter()
            .map(|r| (r.seq, r.id.as_str()))
            .collect::<Vec<_>>(),
        vec![(1, "a"), (2, "c")]
    );
}

trait WriteAllExt {
    fn write_all_ext(self, b: &[u8]);
}
impl WriteAllExt for fs::File {
    fn write_all_ext(mut self, b: &[u8]) {
        use std::io::Write;
        self.write_all(b).unwrap();
    }
}

// ------------------------------------------------------------------ multi-process tests
//
// These re-run this test binary as a child process that executes `child_writer` (below) with
// its instructions in environment variables, so the writers are real separate processes.

const CHILD_ENV: &str = "OPSDESK_TEST_CHILD_WRITER";

/// Child side: append records with ids `<prefix>-<n>` and report each one whose append returned.
#[test]
fn child_writer() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let mut parts = spec.splitn(3, '|');
    let dir = parts.next().unwrap().to_string();
    let prefix = parts.next().unwrap().to_string();
    let count: usize = parts.next().unwrap().parse().unwrap();
    let inbox = Inbox::open(std::path::Path::new(&dir)).unwrap();
    let out = std::io::stdout();
    for n in 0..count {
        // Vary the size so kills land in every phase of a write.
        let body = "x".repeat((n * 7919) % 20_000);
        let id = format!("{prefix}-{n}");
        if n % 5 == 4 {
            let batch = vec![
                record(&id, "work", Channel::Email, &body),
                record(&format!("{id}b"), "work", Channel::Email, "b"),
            ];
            inbox.append_batch(batch).unwrap();
            use std::io::Write;
            writeln!(out.lock(), "\n@@ack {id}\n@@ack {id}b").unwrap();
        } else {
            inbox
                .append(record(&id, "work", Channel::Email, &body))
                .unwrap();
            use std::io::Write;
            writeln!(out.lock(), "\n@@ack {id}").unwrap();
        }
    }
}

fn spawn_writer(dir: &std::path::Path, prefix: &str, count: usize) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_writer", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, format!("{}|{prefix}|{count}", dir.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn acks(line: &str) -> Option<String> {
    // libtest may print its own text on the same line before ours.
    line.split_once("@@ack ")
        .map(|(_, id)| id.trim().to_string())
}

#[test]
fn several_processes_appending_at_once_get_distinct_dense_seqs() {
    let dir = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..4)
        .map(|w| spawn_writer(dir.path(), &format!("w{w}"), 60))
        .collect();
    let mut acked = HashSet::new();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success());
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some(id) = acks(l) {
                acked.insert(id);
            }
        }
    }
    let inbox = Inbox::open(dir.path()).unwrap();
    let recs = all(&inbox);
    assert_eq!(recs.len(), acked.len());
    assert_eq!(
        recs.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=recs.len() as u64).collect::<Vec<_>>()
    );
    let ids: HashSet<_> = recs.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, acked);
}

#[test]
fn a_writer_killed_mid_append_loses_nothing_it_acknowledged_and_corrupts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut acked: HashSet<String> = HashSet::new();
    let rounds = 40;
    let mut dirty_rounds = 0;
    for round in 0..rounds {
        let mut child = spawn_writer(dir.path(), &format!("r{round}"), 100_000);
        let stdout = child.stdout.take().unwrap();
        let mut reader = BufReader::new(stdout);
        // Let it get going for a varying number of acknowledged appends, then SIGKILL it
        // while it is in the middle of the next ones.
        let target = 3 + (round * 13) % 40;
        let mut line = String::new();
        let mut seen = 0;
        while seen < target {
            line.clear();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if let Some(id) = acks(&line) {
                acked.insert(id);
                seen += 1;
            }
        }
        std::thread::sleep(std::time::Duration::from_micros(
            (round as u64 * 211) % 3000,
        ));
        // SAFETY: plain kill(2) on our own child.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGKILL);
        }
        // Whatever it printed before dying was acknowledged too.
        for l in reader.lines().map_while(Result::ok) {
            if let Some(id) = acks(&l) {
                acked.insert(id);
            }
        }
        child.wait().unwrap();

        // A reader on the un-repaired files sees only whole records.
        let inbox = Inbox::open(dir.path()).unwrap();
        dirty_rounds += inbox.needs_repair().unwrap() as usize;
        let before = inbox.read_after(0, usize::MAX, &Filter::default()).unwrap();
        assert_eq!(
            before.skipped_corrupt, 0,
            "round {round}: a reader saw a damaged record"
        );
    }
    // Killing a writer that spends most of its time inside fsync leaves unfinished writes in
    // practically every round; if none did, this test would prove nothing.
    eprintln!("{dirty_rounds} of {rounds} kills left an unfinished write behind");
    assert!(dirty_rounds > 0, "no kill landed mid-append");
    // The next writer repairs; then every acknowledged record is present exactly once.
    let inbox = Inbox::open(dir.path()).unwrap();
    inbox
        .append(record("after-the-crashes", "work", Channel::Email, "x"))
        .unwrap();
    let recs = all(&inbox);
    let mut count: HashMap<&str, usize> = HashMap::new();
    for r in &recs {
        *count.entry(r.id.as_str()).or_default() += 1;
    }
    assert!(count.values().all(|&c| c == 1), "a record is stored twice");
    for id in &acked {
        assert_eq!(
            count.get(id.as_str()),
            Some(&1),
            "acknowledged record {id} is missing"
        );
    }
    assert_eq!(
        recs.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=recs.len() as u64).collect::<Vec<_>>()
    );
}

#[test]
fn a_cursor_moved_by_another_process_is_seen_at_once() {
    // Two handles on one directory stand for two processes (the engine and the CLI): each
    // caches state.json, and neither may answer from a stale copy.
    let dir = tempfile::tempdir().unwrap();
    let engine = Inbox::open(dir.path()).unwrap();
    let cli = Inbox::open(dir.path()).unwrap();
    add_mail(&engine, 4);
    assert_eq!(engine.cursor("console").unwrap(), None);
    engine.advance_cursor("console", 1).unwrap();
    assert_eq!(engine.cursor("console").unwrap(), Some(1));
    cli.advance_cursor("console", 3).unwrap();
    assert_eq!(engine.cursor("console").unwrap(), Some(3));
    assert_eq!(engine.state().unwrap().unread, 1);
    // A state file replaced by hand (same length, other inode) is read again too.
    let path = dir.path().join("state.json");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("\"console\": 3", "\"console\": 2");
    let tmp = dir.path().join("state.json.tmp");
    fs::write(&tmp, text).unwrap();
    fs::rename(&tmp, &path).unwrap();
    assert_eq!(engine.cursor("console").unwrap(), Some(2));
}

#[test]
fn a_pull_moves_the_cursor_at_once_for_its_process_and_on_disk_when_saved() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Inbox::open(dir.path()).unwrap();
    add_mail(&engine, 4);
    let (b, _) = engine
        .pull("mcp:claude-code", 2, &Filter::default(), true)
        .unwrap();
    assert_eq!(b.records.len(), 2);
    // The next pull of this process continues after it, saved or not.
    assert_eq!(engine.cursor("mcp:claude-code").unwrap(), Some(2));
    engine.save_cursors().unwrap();
    let other = Inbox::open(dir.path()).unwrap();
    assert_eq!(other.cursor("mcp:claude-code").unwrap(), Some(2));
    // A move another process saved meanwhile is merged, never moved back.
    other.advance_cursor("mcp:claude-code", 3).unwrap();
    engine
        .pull("mcp:claude-code", 1, &Filter::default(), true)
        .unwrap();
    drop(engine); // dropping the inbox saves what is pending
    assert_eq!(other.cursor("mcp:claude-code").unwrap(), Some(4));
    // An explicit rewind wins over an unsaved move.
    let third = Inbox::open(dir.path()).unwrap();
    third.set_cursor("mcp:claude-code", 1).unwrap();
    assert_eq!(third.cursor("mcp:claude-code").unwrap(), Some(1));
}

#[test]
fn a_re_read_that_moves_no_cursor_writes_no_state() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    add_mail(&inbox, 3);
    inbox.pull("mcp:a", 3, &Filter::default(), true).unwrap();
    inbox.save_cursors().unwrap();
    let state = dir.path().join("state.json");
    let written = fs::metadata(&state).unwrap().ino();
    // Records the cursor is already past, and a pull with nothing new.
    let (b, cursor) = inbox
        .pull_from("mcp:a", Some(0), 2, &Filter::default(), true)
        .unwrap();
    assert_eq!((b.records.len(), cursor), (2, 3));
    let (b, _) = inbox.pull("mcp:a", 5, &Filter::default(), true).unwrap();
    assert!(b.records.is_empty());
    drop(inbox); // would save anything pending
    // state.json is replaced whole when written: the same inode means it was not.
    assert_eq!(fs::metadata(&state).unwrap().ino(), written);
    assert_eq!(
        Inbox::open(dir.path()).unwrap().cursor("mcp:a").unwrap(),
        Some(3)
    );
}

#[test]
fn a_seq_whose_record_changed_under_a_rebuilt_index_is_read_again_not_served_from_memory() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    for i in 0..3 {
        inbox
            .append(record(&format!("m{i}"), "work", Channel::Email, "first"))
            .unwrap();
    }
    assert_eq!(inbox.get(3).unwrap().unwrap().id, "m2"); // now parsed and kept in memory
    // Lose the index, the cursors and the last record's line: nothing remembers seq 3, so the
    // rebuilt index ends at seq 2 and the next record takes seq 3 again, elsewhere in the file.
    fs::remove_file(dir.path().join("index2.bin")).unwrap();
    for f in ["state.json", "state.json.bak"] {
        let _ = fs::remove_file(dir.path().join(f));
    }
    let day = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let text = fs::read_to_string(&day).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    fs::write(&day, kept).unwrap();
    inbox
        .append(record(
            "other",
            "work",
            Channel::Email,
            "second, longer text",
        ))
        .unwrap();
    let r = inbox.get(3).unwrap().unwrap();
    assert_eq!(r.id, "other");
    assert_eq!(r.text, "second, longer text");
}

#[test]
fn a_rebuilt_index_never_reuses_a_seq_a_consumer_has_seen() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    add_mail(&inbox, 3);
    // A client has consumed everything, then the index and the last line are lost.
    inbox.advance_cursor("mcp:claude-code", 3).unwrap();
    fs::remove_file(dir.path().join("index2.bin")).unwrap();
    let day = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let text = fs::read_to_string(&day).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    fs::write(&day, kept).unwrap();
    let a = inbox
        .append(record("new", "work", Channel::Email, "after the loss"))
        .unwrap();
    assert!(matches!(&a, Appended::New(r) if r.seq == 4), "{a:?}");
    assert!(
        inbox.get(3).unwrap().is_none(),
        "the lost record stays a hole"
    );
    // The client is not made to skip the new record.
    let (b, _) = inbox
        .pull("mcp:claude-code", 10, &Filter::default(), true)
        .unwrap();
    assert_eq!(
        b.records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["new"]
    );
}

/// The day file holding the inbox's records (tests write within one day).
fn day_file(dir: &std::path::Path) -> std::path::PathBuf {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap()
}

#[test]
fn a_changed_byte_inside_a_record_that_still_parses_is_reported_never_returned() {
    let dir = tempfile::tempdir().unwrap();
    {
        let inbox = Inbox::open(dir.path()).unwrap();
        for (id, text) in [
            ("a", "pay 100 EUR"),
            ("b", "pay 200 EUR"),
            ("c", "pay 300 EUR"),
        ] {
            inbox
                .append(record(id, "work", Channel::Email, text))
                .unwrap();
        }
    }
    // One digit of record 2 changed: the line still parses as a record with seq 2.
    let day = day_file(dir.path());
    let data = fs::read_to_string(&day).unwrap();
    assert_eq!(data.matches("pay 200 EUR").count(), 2, "text and preview");
    fs::write(&day, data.replacen("pay 200 EUR", "pay 900 EUR", 1)).unwrap();

    let inbox = Inbox::open(dir.path()).unwrap();
    let after = inbox.read_after(0, 10, &Filter::default()).unwrap();
    assert_eq!(
        after.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        [1, 3]
    );
    assert_eq!(after.skipped_corrupt, 1);
    let before = inbox.read_before(None, 10, &Filter::default()).unwrap();
    assert_eq!(
        before.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
        [3, 1]
    );
    assert_eq!(before.skipped_corrupt, 1);
    assert!(inbox.get(2).unwrap().is_none());
    assert!(inbox.find_by_id("b").unwrap().is_none());

    let report = inbox.verify().unwrap();
    assert!(!report.ok());
    assert_eq!(report.records, 3);
    assert_eq!(report.damaged.len(), 1, "{report:?}");
    assert_eq!(report.damaged[0].seq, 2);
    assert!(report.damaged[0].reason.contains("checksum"), "{report:?}");
}

#[test]
fn an_inbox_indexed_without_checksums_is_migrated_and_keeps_every_record() {
    let dir = tempfile::tempdir().unwrap();
    {
        let inbox = Inbox::open(dir.path()).unwrap();
        for i in 0..4 {
            inbox
                .append(record(&format!("m{i}"), "work", Channel::Email, "x"))
                .unwrap();
        }
    }
    // What an inbox written before checksums has: the 24-byte index under the old name.
    fs::remove_file(dir.path().join("index2.bin")).unwrap();
    fs::write(dir.path().join("index.bin"), vec![0u8; 4 * 24]).unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    assert_eq!(
        all(&inbox).iter().map(|r| r.seq).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert!(dir.path().join("index2.bin").exists());
    assert!(
        !dir.path().join("index.bin").exists(),
        "the old index is removed"
    );
    assert!(inbox.verify().unwrap().ok());
    // And it goes on from there.
    inbox
        .append(record("m4", "work", Channel::Email, "x"))
        .unwrap();
    assert_eq!(inbox.last_seq().unwrap(), 5);
    assert!(inbox.verify().unwrap().ok());
}

/// Whether records of `unassigned` may exist is known without looking for the marker on every
/// read: a watching inbox learns it from the marker appearing (another process stored one),
/// and any inbox from reading such a record, before anyone sees it.
#[test]
fn the_unassigned_flag_is_set_by_the_marker_appearing_and_by_reading_such_a_record() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let watching = Inbox::open(dir.path()).unwrap();
    let watch = watching.watch_unassigned().unwrap();
    assert!(
        watch.is_some(),
        "nothing stored yet: there is something to watch for"
    );
    let reader = Inbox::open(dir.path()).unwrap(); // opened before the marker exists, no watch
    assert!(!watching.has_unassigned());
    assert!(!reader.unassigned_seen().load(Ordering::Relaxed));

    let writer = Inbox::open(dir.path()).unwrap();
    writer
        .append(record(
            "u1",
            "unassigned",
            Channel::Email,
            "who is this for?",
        ))
        .unwrap();
    assert!(writer.has_unassigned(), "the writer knows at once");

    // The watch: the kernel's event arrives on the watcher's thread (bounded wait).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !watching.unassigned_seen().load(Ordering::Relaxed) {
        assert!(
            std::time::Instant::now() < deadline,
            "the marker's appearance was not seen"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // A reader that never looked: reading the record sets its flag.
    assert!(!reader.unassigned_seen().load(Ordering::Relaxed));
    let b = reader.read_after(0, 10, &Filter::default()).unwrap();
    assert_eq!(b.records.len(), 1);
    assert!(reader.unassigned_seen().load(Ordering::Relaxed));
    // Once set, nothing is left to watch for.
    assert!(
        Inbox::open(dir.path())
            .unwrap()
            .watch_unassigned()
            .unwrap()
            .is_none()
    );
}

/// The writer's id map keeps only the top half of each id's hash (8 bytes a record): two ids
/// whose hashes share it must both be stored, and each recognised as itself when it comes
/// again — in the process that stored them and in a new one that rebuilt the map.
#[test]
fn ids_whose_hashes_share_a_top_half_are_stored_and_deduplicated_apart() {
    use sha2::{Digest, Sha256};
    // The inbox hashes an id as the first 8 bytes of its SHA-256, little-endian: the top
    // half is bytes 4..8. Some 300,000 ids hold a few such pairs.
    let top = |id: &str| -> [u8; 4] { Sha256::digest(id.as_bytes())[4..8].try_into().unwrap() };
    let mut seen: HashMap<[u8; 4], String> = HashMap::new();
    let (a, b) = (0..400_000)
        .find_map(|i| {
            let id = format!("pair-{i}");
            let t = top(&id);
            match seen.get(&t) {
                Some(first) => Some((first.clone(), id)),
                None => {
                    seen.insert(t, id);
                    None
                }
            }
        })
        .expect("400,000 ids hold a pair sharing 32 bits");
    drop(seen);
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::open(dir.path()).unwrap();
    // Records around the pair so that both have left the writer's small table of newest
    // entries (8,192) for its sorted arrays, in this process and after a reopen.
    let filler = |from: usize, n: usize| -> Vec<_> {
        (from..from + n)
            .map(|i| record(&format!("f{i}"), "work", Channel::Email, "x"))
            .collect()
    };
    inbox.append_batch(filler(0, 9_000)).unwrap();
    let Appended::New(ra) = inbox
        .append(record(&a, "work", Channel::Email, "a"))
        .unwrap()
    else {
        panic!("{a} is new");
    };
    inbox.append_batch(filler(9_000, 8_200)).unwrap();
    let Appended::New(rb) = inbox
        .append(record(&b, "work", Channel::Email, "b"))
        .unwrap()
    else {
        panic!("{b} shares {a}'s top half but is another id: it must be stored");
    };
    inbox.append_batch(filler(17_200, 8_200)).unwrap();
    let again = |inbox: &Inbox| {
        for (id, seq) in [(&a, ra.seq), (&b, rb.seq)] {
            match inbox
                .append(record(id, "work", Channel::Email, "again"))
                .unwrap()
            {
                Appended::Duplicate { seq: s, .. } => assert_eq!(s, seq, "{id}"),
                Appended::New(r) => panic!("{id} stored twice (seq {} and {seq})", r.seq),
            }
        }
    };
    again(&inbox);
    drop(inbox);
    again(&Inbox::open(dir.path()).unwrap());
}
