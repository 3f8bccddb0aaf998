//! `audit export`: a time range of the trail for a compliance officer, with the chain verified
//! over the exported span and the span's ends named so they can be checked against the trail.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use opsdesk::store::audit::{Audit, GENESIS, record_hash};
use opsdesk::store::audit_export::{
    ExportFilter, ExportFormat, ExportSummary, export, export_with, parse_bound,
};
use serde_json::{Value, json};

/// One forged record: (time, event, actor, entity, outcome, reason).
type Row<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, &'a str, &'a str);

/// A valid chain with chosen timestamps (appends always stamp "now"), in month files as the
/// store writes them. Returns each record's hash.
fn forge_trail(dir: &Path, rows: &[Row]) -> Vec<String> {
    fs::create_dir_all(dir).unwrap();
    let mut prev = GENESIS.to_string();
    let mut hashes = Vec::new();
    for (i, (ts, event, actor, entity, outcome, reason)) in rows.iter().enumerate() {
        let mut v = json!({
            "seq": i as u64 + 1, "ts": ts, "event": event, "actor": actor,
            "outcome": outcome, "reason": reason, "prev": prev,
        });
        if let Some(e) = entity {
            v["entity"] = json!(e);
        }
        let hash = record_hash(&v).unwrap();
        v["hash"] = json!(hash);
        let file = dir.join(format!("{}.jsonl", &ts[..7]));
        let mut text = fs::read_to_string(&file).unwrap_or_default();
        text.push_str(&format!("{v}\n"));
        fs::write(&file, text).unwrap();
        prev = hash.clone();
        hashes.push(hash);
    }
    hashes
}

const ROWS: &[Row] = &[
    (
        "2026-10-31T23:59:00Z",
        "tool.call",
        "mcp:claude-code",
        Some("work"),
        "ok",
        "before",
    ),
    (
        "2026-11-01T00:00:00Z",
        "draft.approved",
        "console",
        Some("work"),
        "ok",
        "draft approved",
    ),
    (
        "2026-11-01T08:00:00Z",
        "tool.call",
        "mcp:claude-code",
        Some("clinic"),
        "denied",
        "=HYPERLINK(\"http://x\")",
    ),
    (
        "2026-11-02T12:00:00Z",
        "draft.rejected",
        "cli",
        Some("clinic"),
        "ok",
        "-2+3, \"quoted\"\nsecond line",
    ),
    (
        "2026-11-02T23:59:59Z",
        "tool.call",
        "mcp:cursor",
        Some("work"),
        "blocked",
        "@SUM(A1)",
    ),
    (
        "2026-11-03T00:00:00Z",
        "tool.call",
        "mcp:claude-code",
        Some("work"),
        "ok",
        "after",
    ),
];

fn nov_1_to_2() -> ExportFilter {
    ExportFilter::new(
        parse_bound("2026-11-01", false).unwrap(),
        parse_bound("2026-11-02", true).unwrap(),
    )
}

fn run_export(dir: &Path, f: &ExportFilter, format: ExportFormat) -> (ExportSummary, String) {
    let audit = Audit::open(dir).unwrap();
    let mut out = Vec::new();
    let s = export(&audit, f, format, &mut out).unwrap();
    (s, String::from_utf8(out).unwrap())
}

#[test]
fn jsonl_holds_exactly_the_range_names_its_ends_and_every_line_recomputes() {
    let dir = tempfile::tempdir().unwrap();
    let hashes = forge_trail(dir.path(), ROWS);
    let (s, text) = run_export(dir.path(), &nov_1_to_2(), ExportFormat::Jsonl);

    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seqs: Vec<u64> = lines.iter().map(|v| v["seq"].as_u64().unwrap()).collect();
    assert_eq!(
        seqs,
        [2, 3, 4, 5],
        "midnight on both ends: the 1st and 2nd in, the 3rd out"
    );
    for v in &lines {
        assert_eq!(
            record_hash(v).as_deref(),
            v["hash"].as_str(),
            "exported bytes recompute"
        );
    }
    assert!(s.span_verified && s.trail_verified, "{s:?}");
    let (first, last) = (s.first.unwrap(), s.last.unwrap());
    assert_eq!(
        (first.seq, &first.hash, &first.prev),
        (2, &hashes[1], &hashes[0])
    );
    assert_eq!((last.seq, &last.hash), (5, &hashes[4]));
    assert_eq!((s.span_records, s.exported_records), (4, 4));
}

#[test]
fn an_altered_record_inside_the_span_is_named_and_the_export_says_it_did_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    forge_trail(dir.path(), ROWS);
    let file = dir.path().join("2026-11.jsonl");
    let text = fs::read_to_string(&file).unwrap();
    // Record 4 was the only one by `cli`.
    fs::write(&file, text.replacen("\"cli\"", "\"console\"", 1)).unwrap();

    let (s, _) = run_export(dir.path(), &nov_1_to_2(), ExportFormat::Jsonl);
    assert!(!s.span_verified);
    let why = s.span_break.clone().unwrap();
    assert!(why.contains("record 4") && why.contains("altered"), "{why}");
    assert!(!s.trail_verified);
    assert!(!s.verified());
}

#[test]
fn a_break_before_the_span_leaves_the_span_verified_but_the_trail_not() {
    let dir = tempfile::tempdir().unwrap();
    forge_trail(dir.path(), ROWS);
    let file = dir.path().join("2026-10.jsonl");
    let text = fs::read_to_string(&file).unwrap();
    fs::write(&file, text.replace("before", "BEFORE")).unwrap();

    let (s, _) = run_export(dir.path(), &nov_1_to_2(), ExportFormat::Jsonl);
    assert!(s.span_verified, "{s:?}");
    assert!(!s.trail_verified);
    assert!(s.trail_break.unwrap().contains("record 1"));
}

#[test]
fn a_record_removed_from_the_span_breaks_it_at_its_successor() {
    let dir = tempfile::tempdir().unwrap();
    forge_trail(dir.path(), ROWS);
    let file = dir.path().join("2026-11.jsonl");
    let kept: Vec<String> = fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"seq\":3"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&file, kept.concat()).unwrap();

    let (s, text) = run_export(dir.path(), &nov_1_to_2(), ExportFormat::Jsonl);
    assert_eq!(text.lines().count(), 3);
    let why = s.span_break.unwrap();
    assert!(why.contains("record 4 follows record 2"), "{why}");
}

#[test]
fn csv_is_escaped_and_no_cell_starts_a_formula() {
    let dir = tempfile::tempdir().unwrap();
    forge_trail(dir.path(), ROWS);
    let (s, text) = run_export(dir.path(), &nov_1_to_2(), ExportFormat::Csv);
    assert!(s.verified());

    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(head[0], "seq");
    let reason = head.iter().position(|h| h == "reason").unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    // Quotes, commas and a newline survive a round trip; formula starters are defused.
    assert_eq!(&rows[1][reason], "'=HYPERLINK(\"http://x\")");
    assert_eq!(&rows[2][reason], "'-2+3, \"quoted\"\nsecond line");
    assert_eq!(&rows[3][reason], "'@SUM(A1)");
    for row in &rows {
        for cell in row {
            assert!(!cell.starts_with(['=', '+', '-', '@']), "{cell:?}");
        }
    }
}

#[test]
fn filters_choose_records_but_the_span_is_still_verified_and_stated_whole() {
    let dir = tempfile::tempdir().unwrap();
    forge_trail(dir.path(), ROWS);
    let seqs = |f: ExportFilter| {
        let (s, text) = run_export(dir.path(), &f, ExportFormat::Jsonl);
        assert_eq!(
            (s.span_records, s.first.unwrap().seq, s.last.unwrap().seq),
            (4, 2, 5)
        );
        text.lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["seq"]
                    .as_u64()
                    .unwrap()
            })
            .collect::<Vec<_>>()
    };
    let mut f = nov_1_to_2();
    f.actor = Some("mcp:".into());
    assert_eq!(seqs(f), [3, 5]);
    let mut f = nov_1_to_2();
    f.actor = Some("mcp:claude-code".into());
    assert_eq!(seqs(f), [3]);
    let mut f = nov_1_to_2();
    f.event = Some("draft.".into());
    assert_eq!(seqs(f), [2, 4]);
    let mut f = nov_1_to_2();
    f.profile = Some("clinic".into());
    f.outcome = Some(opsdesk::domain::AuditOutcome::Ok);
    assert_eq!(seqs(f), [4]);
}

#[test]
fn dates_are_whole_utc_days_and_bad_ones_are_explained() {
    let from = parse_bound("2026-11-01", false).unwrap();
    let until = parse_bound("2026-11-01", true).unwrap();
    assert_eq!((until - from).whole_hours(), 24);
    let e = parse_bound("01/11/2026", false).unwrap_err();
    assert!(e.contains("YYYY-MM-DD"), "{e}");
}

// ---- the command line ----

fn opsdesk(data: &Path, args: &[&str]) -> Output {
    opsdesk_in(data, Path::new("."), args)
}

/// [`opsdesk`] run from the working dir `cwd`.
fn opsdesk_in(data: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .current_dir(cwd)
        .env("OPSDESK_DATA_DIR", data)
        .env("XDG_CONFIG_HOME", data.join("xdg"))
        .env_remove("OPSDESK_CONFIG")
        .env_remove("OPSDESK_LOG")
        .stdin(Stdio::null())
        .args(args)
        .output()
        .unwrap()
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn cli_writes_a_private_file_and_a_manifest_and_the_export_itself_is_audited() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let hashes = forge_trail(&data.join("audit"), ROWS);
    let out = tmp.path().join("nov.csv");
    let o = opsdesk(
        &data,
        &[
            "audit",
            "export",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-02",
            "--format",
            "csv",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(mode(&out), 0o600);
    let manifest = tmp.path().join("nov.csv.manifest.json");
    assert_eq!(mode(&manifest), 0o600);
    let m: Value = serde_json::from_slice(&fs::read(&manifest).unwrap()).unwrap();
    assert_eq!(m["first"]["seq"], 2);
    assert_eq!(m["first"]["prev"], hashes[0].as_str());
    assert_eq!(m["last"]["hash"], hashes[4].as_str());
    assert_eq!(m["span_verified"], true);
    assert_eq!(m["trail_verified"], true);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains(&hashes[4]) && stdout.contains("verified"),
        "{stdout}"
    );

    let [start, last] = trail_tail(&data);
    assert_eq!(
        start["event"], "audit.export.start",
        "recorded before writing"
    );
    assert_eq!(
        start["prev"],
        hashes[5].as_str(),
        "appended to the same chain"
    );
    assert_eq!(last["event"], "audit.export");
    assert_eq!(last["actor"], "cli");
    assert_eq!(last["outcome"], "ok");
}

/// The trail's last two records (an export's start and its outcome).
fn trail_tail(data: &Path) -> [Value; 2] {
    let tail = opsdesk(data, &["--json", "audit", "tail", "-n", "2"]);
    let v: Vec<Value> = String::from_utf8_lossy(&tail.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    v.try_into().unwrap()
}

#[test]
fn a_failed_export_is_on_the_trail_as_an_error_never_as_ok() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    forge_trail(&data.join("audit"), ROWS);
    let out = tmp.path().join("no/such/dir/x.jsonl");
    let o = opsdesk(
        &data,
        &[
            "audit",
            "export",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-02",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let [start, last] = trail_tail(&data);
    assert_eq!(start["event"], "audit.export.start");
    assert_eq!(last["event"], "audit.export");
    assert_eq!(last["outcome"], "error");
    assert!(
        last["reason"].as_str().unwrap().contains("cannot write"),
        "{last}"
    );
}

#[test]
fn a_reader_closing_stdout_early_ends_the_export_quietly_and_the_trail_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    forge_trail(&data.join("audit"), ROWS);
    let mut child = Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .env("OPSDESK_DATA_DIR", &data)
        .env("XDG_CONFIG_HOME", data.join("xdg"))
        .env_remove("OPSDESK_CONFIG")
        .env_remove("OPSDESK_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .args([
            "audit",
            "export",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-02",
        ])
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader is gone before the first record
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("cannot write"),
        "{err}"
    );
    let [_, last] = trail_tail(&data);
    assert_eq!(last["event"], "audit.export");
    assert_eq!(last["outcome"], "ok");
    assert!(
        last["reason"].as_str().unwrap().contains("closed stdout"),
        "{last}"
    );
}

#[test]
fn cli_exits_3_on_a_broken_span_and_2_on_a_bad_date() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    forge_trail(&data.join("audit"), ROWS);
    let file = data.join("audit/2026-11.jsonl");
    let text = fs::read_to_string(&file).unwrap();
    fs::write(&file, text.replace("@SUM(A1)", "@SUM(A2)")).unwrap();

    let o = opsdesk(
        &data,
        &[
            "audit",
            "export",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-02",
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().count(),
        4,
        "records still go out"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("span: chain BROKEN") && err.contains("record 5"),
        "{err}"
    );

    let o = opsdesk(
        &data,
        &[
            "audit",
            "export",
            "--from",
            "yesterday",
            "--to",
            "2026-11-02",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("YYYY-MM-DD"));
}

#[test]
fn a_bare_file_name_is_written_beside_the_caller_and_the_command_succeeds() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    forge_trail(&data.join("audit"), ROWS);
    let work = tmp.path().join("work");
    fs::create_dir_all(&work).unwrap();
    let o = opsdesk_in(
        &data,
        &work,
        &[
            "audit",
            "export",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-02",
            "--out",
            "exp.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(work.join("exp.jsonl").is_file());
    assert!(work.join("exp.jsonl.manifest.json").is_file());
}

/// A long export says how far it is: its progress is told every 4,096 records read, with the
/// count so far, and the export is the same as without it.
#[test]
fn a_long_export_reports_progress_as_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<(String, String)> = (0..9000)
        .map(|i| {
            (
                format!(
                    "2026-11-01T{:02}:{:02}:{:02}Z",
                    i / 3600,
                    (i / 60) % 60,
                    i % 60
                ),
                format!("r{i}"),
            )
        })
        .collect();
    let rows: Vec<Row> = rows
        .iter()
        .map(|(ts, reason)| (ts.as_str(), "status", "cli", None, "ok", reason.as_str()))
        .collect();
    forge_trail(dir.path(), &rows);
    let audit = Audit::open(dir.path()).unwrap();
    let mut ticks = Vec::new();
    let mut out = Vec::new();
    let s = export_with(
        &audit,
        &nov_1_to_2(),
        ExportFormat::Jsonl,
        &mut out,
        &mut |n| ticks.push(n),
    )
    .unwrap();
    assert_eq!(ticks, [4096, 8192]);
    assert_eq!(s.exported_records, 9000);
    let (plain, text) = run_export(dir.path(), &nov_1_to_2(), ExportFormat::Jsonl);
    assert_eq!(plain.exported_records, 9000);
    assert_eq!(String::from_utf8(out).unwrap(), text);
}
