//! `opsdesk watch`: latency from a durable append to its line on watch's stdout.
//!
//! Runs the real binary (`opsdesk watch --json --no-toast`) on a fresh data dir, appends
//! records one at a time through `Inbox::append`, and times, per record, until its line is
//! read from the pipe. The record is committed somewhere inside `append` (after the data
//! fsync, at the index write; the state.json update follows), so two figures bracket the
//! real latency: from the moment `append` was called (includes the store's own fsyncs: an
//! upper bound) and from the moment it returned (a lower bound; a line that arrived before
//! the return counts as zero). Budget (DESIGN.md, "Performance budgets"): p99 < 50 ms.
//!
//! Two runs:
//! - `one-by-one`: append, wait for the line, append the next;
//! - `paced`: appends every 10 ms without waiting (a live stream, lines may batch).
//!
//! `cargo bench --bench watch` (OPSDESK_BENCH_N sets the records per run, default 500).

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use opsdesk::domain::{Channel, InboxRecord, Party};
use opsdesk::store::inbox::Inbox;

fn record(i: usize) -> InboxRecord {
    let now = time::OffsetDateTime::now_utc();
    InboxRecord {
        seq: 0,
        id: format!("bench-{i}"),
        received_at: now,
        profile: "work".into(),
        channel: if i.is_multiple_of(3) {
            Channel::Teams
        } else {
            Channel::Email
        },
        thread_id: None,
        from: Party::new("Bench Sender", "bench@example.com"),
        to: vec![],
        subject: Some(format!("Message {i}")),
        ts: now,
        text: "A short message body, as a chat or a mail preview would be.".into(),
        preview: "A short message body, as a chat or a mail preview would be.".into(),
        meta: Default::default(),
        untrusted: true,
        attachments: Vec::new(),
    }
}

/// The seq at the start of a `--json` line (`{"seq":N,...`).
fn seq_of(line: &str) -> Option<u64> {
    let rest = line.strip_prefix("{\"seq\":")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

struct Run {
    name: &'static str,
    /// From `append` called to the line read.
    from_call: Vec<Duration>,
    /// From `append` returned to the line read.
    from_return: Vec<Duration>,
    /// Lines that arrived before `append` returned (counted as zero in `from_return`).
    early: usize,
}

fn bench(name: &'static str, n: usize, pace: Option<Duration>) -> Run {
    let dir = tempfile::Builder::new()
        .prefix("opsdesk-watch-bench-")
        .tempdir()
        .expect("temp dir");
    let data = dir.path().join("data");
    let inbox_dir = data.join("inbox");
    let inbox = Inbox::open(&inbox_dir).expect("inbox");

    let mut child = Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .env_clear()
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .env("TZ", "UTC")
        .arg("--data-dir")
        .arg(&data)
        .args(["--json", "watch", "--no-toast"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn opsdesk watch");

    // Wait for "following": from then on every append is watch's to show.
    let stderr = child.stderr.take().expect("stderr");
    let (ready_tx, ready_rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if line.contains("following") {
                let _ = ready_tx.send(());
            }
        }
    });
    ready_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("watch did not start");

    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<(u64, Instant)>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let at = Instant::now();
            if let Some(seq) = seq_of(&line)
                && tx.send((seq, at)).is_err()
            {
                break;
            }
        }
    });

    let mut appended: HashMap<u64, (Instant, Instant)> = HashMap::with_capacity(n);
    let mut arrived: HashMap<u64, Instant> = HashMap::with_capacity(n);
    let started = Instant::now();
    for i in 0..n {
        let called = Instant::now();
        let seq = match inbox.append(record(i)).expect("append") {
            opsdesk::store::inbox::Appended::New(r) => r.seq,
            other => panic!("not appended: {other:?}"),
        };
        appended.insert(seq, (called, Instant::now()));
        match pace {
            None => {
                while !arrived.contains_key(&seq) {
                    let (s, at) = rx
                        .recv_timeout(Duration::from_secs(30))
                        .expect("a line from watch");
                    arrived.insert(s, at);
                }
            }
            Some(p) => {
                while let Ok((s, at)) = rx.try_recv() {
                    arrived.insert(s, at);
                }
                let next = started + p * (i as u32 + 1);
                if let Some(wait) = next.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
            }
        }
    }
    while arrived.len() < n {
        let (s, at) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("a line from watch");
        arrived.insert(s, at);
    }
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let _ = child.wait();

    let mut early = 0;
    let mut from_call = Vec::with_capacity(n);
    let mut from_return = Vec::with_capacity(n);
    for (seq, (called, returned)) in &appended {
        let line = arrived[seq];
        from_call.push(line.saturating_duration_since(*called));
        from_return.push(line.checked_duration_since(*returned).unwrap_or_else(|| {
            early += 1;
            Duration::ZERO
        }));
    }
    from_call.sort();
    from_return.sort();
    Run {
        name,
        from_call,
        from_return,
        early,
    }
}

fn summary(l: &[Duration]) -> String {
    format!(
        "p50 {} p90 {} p99 {} max {}",
        ms(percentile(l, 0.50)),
        ms(percentile(l, 0.90)),
        ms(percentile(l, 0.99)),
        ms(l.last().copied().unwrap_or_default())
    )
}

fn main() {
    // `cargo bench` passes flags such as `--bench`; this harness takes none.
    let n: usize = std::env::var("OPSDESK_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let budget = Duration::from_millis(50);
    for run in [
        bench("one-by-one", n, None),
        bench("paced 10 ms", n, Some(Duration::from_millis(10))),
    ] {
        let p99 = percentile(&run.from_call, 0.99);
        println!(
            "watch append->line [{}] n={}\n  from append called:   {}\n  from append returned: {} ({} lines before the return)\n  budget p99 < {} (from append called): {}",
            run.name,
            run.from_call.len(),
            summary(&run.from_call),
            summary(&run.from_return),
            run.early,
            ms(budget),
            if p99 < budget { "ok" } else { "EXCEEDED" }
        );
    }
}
