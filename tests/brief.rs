//! `opsdesk brief`: the real binary against a data dir filled through the Inbox API and the
//! command line, checking the JSON it answers.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use opsdesk::config::Config;
use opsdesk::domain::{Channel, NewMessage, Party};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime, Time};

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
[profiles.clinic]
sources = ["spool"]
"#;

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env::with_config(CONFIG)
    }
    fn with_config(config: &str) -> Env {
        let env = Env {
            dir: tempfile::tempdir().unwrap(),
        };
        let cfg = env.dir.path().join("xdg/opsdesk");
        std::fs::create_dir_all(&cfg).unwrap();
        std::fs::write(cfg.join("config.toml"), config).unwrap();
        env
    }
    fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .args(args)
            .env("OPSDESK_DATA_DIR", self.data())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg"))
            .env("TZ", "UTC")
            .env_remove("OPSDESK_CONFIG")
            .env_remove("OPSDESK_LOG")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
    fn engine(&self) -> Engine {
        let paths = Paths::resolve(
            Some(self.data()),
            Some(self.dir.path().join("xdg/opsdesk/config.toml")),
        )
        .unwrap();
        let config = Config::from_toml_str(CONFIG, Path::new("test.toml")).unwrap();
        Engine::open(paths, config, Mode::Secondary).unwrap()
    }
}

fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stdout)))
}

fn msg(id: &str, channel: Channel, from: (&str, &str), subject: &str, body: &str) -> NewMessage {
    NewMessage {
        id: id.into(),
        profile: "work".into(),
        channel,
        thread_id: None,
        from: Party::new(from.0, from.1),
        to: vec![Party::new("Alex Morgan", "alex.morgan@contoso.com")],
        subject: Some(subject.into()),
        ts: OffsetDateTime::now_utc(),
        body: body.into(),
        html: false,
        meta: BTreeMap::new(),
        attachments: Vec::new(),
    }
}

fn event(id: &str, subject: &str, start: OffsetDateTime, minutes: i64) -> NewMessage {
    let mut m = msg(
        id,
        Channel::Calendar,
        ("Mei Chen", "mei.chen@contoso.com"),
        subject,
        "agenda",
    );
    let end = start + Duration::minutes(minutes);
    m.meta
        .insert("start".into(), Value::from(start.format(&Rfc3339).unwrap()));
    m.meta
        .insert("end".into(), Value::from(end.format(&Rfc3339).unwrap()));
    m.meta.insert("location".into(), Value::from("Room 4.12"));
    m.meta
        .insert("organizer".into(), Value::from("mei.chen@contoso.com"));
    m.meta.insert(
        "attendees".into(),
        Value::from(vec!["alex.morgan@contoso.com"]),
    );
    m
}

#[test]
fn brief_and_digest_from_the_real_binary() {
    let env = Env::new();
    let today = OffsetDateTime::now_utc().date();
    let at =
        |d: time::Date, h: u8, m: u8| d.with_time(Time::from_hms(h, m, 0).unwrap()).assume_utc();
    let tomorrow = today.next_day().unwrap();
    {
        let e = env.engine();
        e.ingest(
            msg(
                "m1",
                Channel::Email,
                ("Elena Petrova", "elena.petrova@fabrikam.example"),
                "Contract renewal FY26 – please confirm by tomorrow",
                "The price holds if you confirm by tomorrow.",
            ),
            "test",
        )
        .unwrap();
        e.ingest(
            msg(
                "m2",
                Channel::Teams,
                ("Sam Rivera", "sam.rivera@contoso.com"),
                "Deploy freeze",
                "Are we still on for the deploy freeze?",
            ),
            "test",
        )
        .unwrap();
        e.ingest(
            event("c1", "Fabrikam renewal call", at(today, 10, 0), 60),
            "test",
        )
        .unwrap();
        e.ingest(
            event("c2", "Q3 planning review", at(today, 10, 30), 60),
            "test",
        )
        .unwrap();
        e.ingest(
            event("c3", "Tomorrow's standup", at(tomorrow, 9, 0), 15),
            "test",
        )
        .unwrap();
        // Another profile's item never shows up in this one's brief.
        let mut other = msg(
            "x1",
            Channel::Email,
            ("Lab", "lab@clinic.example"),
            "Please sign off by EOD",
            "sign off?",
        );
        other.profile = "clinic".into();
        e.ingest(other, "test").unwrap();
        // The operator has read the first item.
        e.set_inbox_cursor("console", 1).unwrap();
    }
    // One item through the command line too, and a draft waiting for approval.
    let o = env.run(&[
        "inbox",
        "add",
        "--profile",
        "work",
        "--channel",
        "email",
        "--from",
        "Jordan Lee <jordan.lee@contoso.com>",
        "--subject",
        "Promo packet",
        "--body",
        "First draft by the 15th, please. Can you decide on the 12 vs 6 months?",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "jordan.lee@contoso.com",
        "--subject",
        "Re: Promo packet",
        "--body",
        "Will do.",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let b = json(&env.run(&["--json", "brief", "--profile", "work"]));
    assert_eq!(b["kind"], "morning");
    assert_eq!(b["profile"], "work");
    assert_eq!(b["untrusted_content"], true);
    assert_eq!(b["polished"], false);
    assert!(b["polish_note"].as_str().unwrap().contains("LLM router"));
    assert_eq!(b["records_considered"], 6);
    // Seq 1 was read: the rest of `work` (5 items) is unread.
    assert_eq!(b["unread"]["total"], 5);
    assert_eq!(b["unread"]["by_channel"]["calendar"], 3);
    assert_eq!(b["unread"]["by_channel"]["teams"], 1);
    assert_eq!(b["unread"]["by_sender"][0]["sender"], "Mei Chen");
    assert_eq!(b["unread"]["by_sender"][0]["count"], 3);

    let meetings = b["meetings"].as_array().unwrap();
    assert_eq!(b["meetings_date"], today.to_string());
    assert_eq!(meetings.len(), 2, "{meetings:?}");
    assert_eq!(meetings[0]["subject"], "Fabrikam renewal call");
    assert_eq!(meetings[0]["conflicts_with"][0], "Q3 planning review");
    assert_eq!(meetings[0]["location"], "Room 4.12");
    assert_eq!(b["conflicts"][0]["overlap_minutes"], 30);

    let drafts = b["drafts_awaiting_approval"].as_array().unwrap();
    assert_eq!(drafts.len(), 1);
    assert_eq!(drafts[0]["kind"], "send_email");
    assert_eq!(drafts[0]["recipients"][0], "jordan.lee@contoso.com");

    let deadlines = b["deadlines"].as_array().unwrap();
    let tomorrow_s = tomorrow.to_string();
    assert!(
        deadlines
            .iter()
            .any(|d| d["due"] == tomorrow_s.as_str() && d["from"] == "Elena Petrova"),
        "{deadlines:?}"
    );
    assert!(
        deadlines
            .iter()
            .any(|d| d["text"].as_str().unwrap().contains("by the 15th")),
        "{deadlines:?}"
    );

    let decisions: Vec<&str> = b["needs_decision"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["from"].as_str().unwrap())
        .collect();
    assert_eq!(decisions, vec!["Jordan Lee", "Sam Rivera", "Elena Petrova"]);

    let text = b["text"].as_str().unwrap();
    assert!(text.starts_with("Morning brief · work"), "{text}");
    assert!(text.contains("\"Fabrikam renewal call\""), "{text}");
    assert!(!text.contains("clinic.example"), "{text}");

    // The human rendering is the text.
    let o = env.run(&["brief", "--profile", "work"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("Meetings today (2):"));

    // End of day: tomorrow's meetings, what arrived today.
    let d = json(&env.run(&["--json", "brief", "--profile", "work", "--eod"]));
    assert_eq!(d["kind"], "end_of_day");
    assert_eq!(d["meetings_date"], tomorrow_s.as_str());
    assert_eq!(d["meetings"][0]["subject"], "Tomorrow's standup");
    assert_eq!(d["arrived_today"]["total"], 6);
    assert!(
        d["text"]
            .as_str()
            .unwrap()
            .contains("Meetings tomorrow (1):")
    );

    // Both queries were audited as CLI actions.
    let tail = env.run(&["--json", "audit", "tail", "-n", "50"]);
    let tail = String::from_utf8_lossy(&tail.stdout);
    assert_eq!(tail.matches("query.brief").count(), 3, "{tail}");

    // Several profiles and none named: a usage error; an unknown one too.
    assert_eq!(env.run(&["brief"]).status.code(), Some(2));
    assert_eq!(
        env.run(&["brief", "--profile", "nope"]).status.code(),
        Some(2)
    );
}

/// `opsdesk brief --profile all` (issue 14): a section per entity in profile order, each from
/// its own items only; a `personal` profile only with `--include-personal`; a profile may not
/// be named `all`.
#[test]
fn the_brief_across_entities_from_the_cli() {
    let env = Env::with_config(&format!(
        "{CONFIG}[profiles.home]\nsources = [\"spool\"]\npersonal = true\n"
    ));
    for (profile, subject) in [
        ("work", "Budget for FY26?"),
        ("clinic", "Lab results to sign?"),
        ("home", "Dinner on Friday?"),
    ] {
        let o = env.run(&[
            "inbox",
            "add",
            "--profile",
            profile,
            "--channel",
            "email",
            "--from",
            "Sam <sam@example.com>",
            "--subject",
            subject,
            "--body",
            "Can you confirm?",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let b = json(&env.run(&["--json", "brief", "--profile", "all"]));
    assert_eq!(b["profile"], "all");
    let profiles: Vec<&str> = b["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["profile"].as_str().unwrap())
        .collect();
    assert_eq!(profiles, ["clinic", "work"], "{b}");
    assert_eq!(b["left_out"][0]["profile"], "home");
    let work = b["sections"][1].to_string();
    assert!(
        work.contains("Budget") && !work.contains("Lab results"),
        "{work}"
    );
    assert!(!b.to_string().contains("Dinner"), "{b}");

    let text = env.run(&["brief", "--profile", "all", "--eod", "--include-personal"]);
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    let text = String::from_utf8_lossy(&text.stdout);
    let (clinic, home, work) = (
        text.find("=== clinic ===").unwrap(),
        text.find("=== home ===").unwrap(),
        text.find("=== work ===").unwrap(),
    );
    assert!(clinic < home && home < work, "{text}");
    let home_section = &text[home..work];
    assert!(
        home_section.contains("Dinner") && !home_section.contains("Budget"),
        "{text}"
    );

    let o = env.run(&["brief", "--profile", "work", "--include-personal"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let bad = Env::with_config("[profiles.all]\nsources = [\"spool\"]\n");
    let o = bad.run(&["brief", "--profile", "all"]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("reserved"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_graph_event_shows_once_as_its_newest_version_and_not_when_cancelled() {
    let env = Env::new();
    let today = OffsetDateTime::now_utc().date();
    let at =
        |d: time::Date, h: u8, m: u8| d.with_time(Time::from_hms(h, m, 0).unwrap()).assume_utc();
    let changed = at(today, 0, 0) - Duration::days(1);
    // As the Graph calendar poller writes them: one record per version of an event.
    let version = |graph_id: &str, rev: i64, subject: &str, start: OffsetDateTime| {
        let mut m = event(&format!("{graph_id}/rev/{rev}"), subject, start, 30);
        m.meta.insert("graph_id".into(), Value::from(graph_id));
        m.meta
            .insert("source".into(), Value::from("graph_calendar"));
        m.ts = changed + Duration::minutes(rev);
        m
    };
    {
        let e = env.engine();
        // Moved from 10:00 to 14:00.
        e.ingest(version("evA", 1, "Moved", at(today, 10, 0)), "test")
            .unwrap();
        e.ingest(version("evA", 2, "Moved", at(today, 14, 0)), "test")
            .unwrap();
        // Cancelled.
        e.ingest(version("evB", 1, "Called off", at(today, 11, 0)), "test")
            .unwrap();
        let mut off = version("evB", 2, "Called off", at(today, 11, 0));
        off.meta.insert("cancelled".into(), Value::from(true));
        e.ingest(off, "test").unwrap();
        // Moved to tomorrow.
        e.ingest(version("evC", 1, "Later", at(today, 9, 0)), "test")
            .unwrap();
        e.ingest(
            version("evC", 2, "Later", at(today.next_day().unwrap(), 9, 0)),
            "test",
        )
        .unwrap();
    }
    let b = json(&env.run(&["--json", "brief", "--profile", "work"]));
    let meetings = b["meetings"].as_array().unwrap();
    assert_eq!(meetings.len(), 1, "{meetings:?}");
    assert_eq!(meetings[0]["subject"], "Moved");
    assert!(
        meetings[0]["start"].as_str().unwrap().contains("T14:00:00"),
        "{meetings:?}"
    );
    assert!(b["conflicts"].as_array().unwrap().is_empty());
}
