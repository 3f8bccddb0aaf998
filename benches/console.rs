//! Console performance with a 100k-item inbox (DESIGN budgets: first frame < 150 ms, key →
//! frame < 16 ms, RSS < 60 MB).
//!
//! Two measurements:
//! 1. The real binary (`opsdesk console --no-http`) in a pseudo-terminal read through a vt100
//!    screen model: time from spawn to the first frame that shows the 100k inbox, and the
//!    process's resident memory (VmRSS, and VmHWM after paging through the list).
//! 2. In process: `update(key) + draw` with the crossterm backend writing escape sequences to
//!    a sink, 2,000 `j` presses and 300 `PageDown`s (page-ins of the next 200 records served
//!    synchronously and timed separately, as the data task does them off the UI thread).
//!
//! Run: `cargo bench --bench console`. OPSDESK_BENCH_ITEMS changes the inbox size.

mod support;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use opsdesk::domain::InboxRecord;
use opsdesk::store::inbox::Inbox;
use opsdesk::tui::app::{Anchor, App, Effect, InboxRow, Msg, PAGE, Req};
use opsdesk::tui::keymap::Keymap;
use opsdesk::tui::theme::Theme;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

const W: u16 = 160;
const H: u16 = 48;

fn record(i: u64) -> InboxRecord {
    support::record(i, "bench", support::profile_of(i), 4)
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn proc_status(pid: u32, key: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn real_binary(data: &std::path::Path, home: &std::path::Path, n: u64) {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: H,
            cols: W,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_opsdesk"));
    cmd.args([
        "--data-dir",
        data.to_str().expect("utf-8 path"),
        "console",
        "--no-http",
    ]);
    for v in [
        "OPSDESK_CONFIG",
        "OPSDESK_DATA_DIR",
        "OPSDESK_THEME",
        "NO_COLOR",
    ] {
        cmd.env_remove(v);
    }
    cmd.env("TERM", "xterm-256color");
    cmd.env("HOME", home);
    cmd.env("XDG_CONFIG_HOME", home.join(".config"));
    let started = Instant::now();
    let mut child = pty.slave.spawn_command(cmd).expect("spawn");
    drop(pty.slave);
    let pid = child.process_id().expect("pid");
    let parser = Arc::new(Mutex::new(vt100::Parser::new(
        H.try_into().expect("rows"),
        W.try_into().expect("cols"),
        0,
    )));
    let p = parser.clone();
    let mut reader = pty.master.try_clone_reader().expect("reader");
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(k) = reader.read(&mut buf) {
            if k == 0 {
                break;
            }
            p.lock().expect("parser").process(&buf[..k]);
        }
    });
    let mut writer = pty.master.take_writer().expect("writer");
    let want = format!("Inbox · {n} items");
    let first_frame = loop {
        if parser
            .lock()
            .expect("parser")
            .screen()
            .contents()
            .contains(&want)
            && parser
                .lock()
                .expect("parser")
                .screen()
                .contents()
                .contains("Quarterly review item")
        {
            break started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no first frame"
        );
        std::thread::sleep(Duration::from_millis(1));
    };
    std::thread::sleep(Duration::from_secs(1));
    let rss = proc_status(pid, "VmRSS:").unwrap_or(0);
    // Page through a good part of the list, then read the peak.
    for _ in 0..60 {
        writer.write_all(b"\x1b[6~").expect("write"); // PageDown
        writer.flush().expect("flush");
        std::thread::sleep(Duration::from_millis(20));
    }
    writer.write_all(b"G").expect("write");
    writer.flush().expect("flush");
    std::thread::sleep(Duration::from_secs(1));
    let rss_after = proc_status(pid, "VmRSS:").unwrap_or(0);
    let hwm = proc_status(pid, "VmHWM:").unwrap_or(0);
    writer.write_all(b"q").expect("write");
    writer.flush().expect("flush");
    let _ = child.wait();
    println!("real binary, {n} inbox items, {W}x{H} pty:");
    println!(
        "  process start → first frame showing the inbox: {:.1} ms",
        first_frame.as_secs_f64() * 1e3
    );
    println!(
        "  RSS after first frame: {:.1} MB; after 60 PageDowns + G: {:.1} MB; peak (VmHWM): {:.1} MB",
        rss as f64 / 1024.0,
        rss_after as f64 / 1024.0,
        hwm as f64 / 1024.0
    );
}

fn in_process(inbox: &Inbox, n: u64) {
    let backend = CrosstermBackend::new(std::io::sink());
    let mut term = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, W, H)),
        },
    )
    .expect("terminal");
    let serve = |app: &mut App, fx: Vec<Effect>, page_ms: &mut Vec<f64>| {
        for e in fx {
            if let Effect::Req(Req::Inbox {
                generation,
                filter,
                anchor,
            }) = e
            {
                let t = Instant::now();
                let b = match anchor {
                    Anchor::Top => inbox.read_before(None, PAGE, &filter),
                    Anchor::Before(s) => inbox.read_before(Some(s), PAGE, &filter),
                    Anchor::After(s) => inbox.read_after(s, PAGE, &filter).map(|mut b| {
                        b.records.reverse();
                        b
                    }),
                    Anchor::Bottom => inbox.read_after(0, PAGE, &filter).map(|mut b| {
                        b.records.reverse();
                        b
                    }),
                }
                .expect("read");
                let rows: Vec<InboxRow> = b.records.iter().map(|r| InboxRow::from(&**r)).collect();
                page_ms.push(t.elapsed().as_secs_f64() * 1e3);
                let more = app.update(Msg::InboxPage {
                    generation,
                    anchor,
                    rows,
                    last_seq: b.last_seq,
                });
                assert!(more.len() <= 1);
            }
        }
    };
    let mut page_ms = Vec::new();
    let t0 = Instant::now();
    let mut app = App::new(
        Theme::built_in("dark", false).expect("theme"),
        Keymap::defaults(),
        vec!["clinic".into(), "work".into()],
        (W, H),
    );
    let fx = app.start();
    serve(&mut app, fx, &mut page_ms);
    term.draw(|f| opsdesk::tui::draw(&app, f)).expect("draw");
    let first = t0.elapsed();
    let mut frame = |app: &mut App, code: KeyCode, page_ms: &mut Vec<f64>| -> f64 {
        let t = Instant::now();
        let fx = app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        term.draw(|f| opsdesk::tui::draw(app, f)).expect("draw");
        let el = t.elapsed().as_secs_f64() * 1e3;
        serve(app, fx, page_ms);
        el
    };
    let mut j: Vec<f64> = (0..2000)
        .map(|_| frame(&mut app, KeyCode::Char('j'), &mut page_ms))
        .collect();
    let mut pg: Vec<f64> = (0..300)
        .map(|_| frame(&mut app, KeyCode::PageDown, &mut page_ms))
        .collect();
    println!("in process, {n} inbox items, {W}x{H}, crossterm backend to a sink:");
    println!(
        "  first frame (open window of {PAGE} + draw): {:.2} ms",
        first.as_secs_f64() * 1e3
    );
    println!(
        "  key j → frame: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms (2000 keys)",
        pct(&mut j, 0.5),
        pct(&mut j, 0.99),
        pct(&mut j, 1.0)
    );
    println!(
        "  PageDown → frame: p50 {:.3} ms, p99 {:.3} ms (300 keys, selection reached #{})",
        pct(&mut pg, 0.5),
        pct(&mut pg, 0.99),
        app.inbox.selected().map(|r| r.seq).unwrap_or(0)
    );
    if !page_ms.is_empty() {
        println!(
            "  page-in of {PAGE} records (data task, off the UI thread): p50 {:.2} ms, p99 {:.2} ms ({} pages); rows held: {}",
            pct(&mut page_ms, 0.5),
            pct(&mut page_ms, 0.99),
            page_ms.len(),
            app.inbox.rows.len()
        );
    }
}

fn main() {
    // `cargo test --benches` runs this with --bench absent; keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let n: u64 = std::env::var("OPSDESK_BENCH_ITEMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let tmp = tempfile::tempdir().expect("tempdir");
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let t = Instant::now();
    opsdesk::paths::ensure_private_dir(&data).expect("data dir");
    let inbox = Inbox::open(&data.join("inbox")).expect("inbox");
    let mut i = 0;
    while i < n {
        let k = (n - i).min(20_000);
        inbox
            .append_batch((i..i + k).map(record).collect())
            .expect("fill");
        i += k;
    }
    println!("filled {n} records in {:.1} s", t.elapsed().as_secs_f64());
    in_process(&inbox, n);
    drop(inbox);
    real_binary(&data, &home, n);
}
