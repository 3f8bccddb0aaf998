//! Reminders of drafts waiting too long (`[drafts] remind_after_hours`,
//! `remind_every_minutes`): one reminder names every overdue draft, and none follows before
//! the interval. The clock is chosen by the test (`Reminders::check(drafts, now)`), the
//! drafts are real ones from the engine.

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, Outbound, Outcome};
use opsdesk::engine::reminders::Reminders;
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use opsdesk::tui::app::{App, Level, Msg};
use opsdesk::tui::keymap::Keymap;
use opsdesk::tui::theme::Theme;
use time::Duration;

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]

[drafts]
remind_after_hours = 4
remind_every_minutes = 30
"#;

fn engine(dir: &Path, config: &str) -> Engine {
    let paths = Paths::resolve(Some(dir.to_path_buf()), Some(dir.join("config.toml"))).unwrap();
    let config = Config::from_toml_str(config, Path::new("test.toml")).unwrap();
    Engine::open(paths, config, Mode::Secondary).unwrap()
}

fn create(engine: &Engine, subject: &str) -> String {
    let out = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::SendEmail {
                    to: vec!["bob@contoso.com".into()],
                    cc: vec![],
                    subject: subject.into(),
                    body: "See attached.".into(),
                    attachments: vec![],
                    body_html: None,
                },
                provider: None,
            },
            Actor::mcp("claude-code"),
        )
        .unwrap();
    match out {
        Outcome::Queued { draft_id, .. } => draft_id,
        other => panic!("expected a queued draft, got {other:?}"),
    }
}

#[test]
fn one_reminder_names_every_overdue_draft_and_is_not_repeated_before_the_interval() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let (a, b) = (create(&engine, "Contract"), create(&engine, "Invoice"));
    let t0 = engine.draft(&b).unwrap().unwrap().created_at;
    let mut rem = Reminders::new(&engine.config().drafts).expect("reminders are on");
    let drafts = || engine.draft_queue().unwrap().drafts;

    // Younger than four hours: nothing to say.
    assert_eq!(rem.check(&drafts(), t0 + Duration::hours(3)), None);
    // Both overdue: one reminder naming both, oldest first.
    let r = rem.check(&drafts(), t0 + Duration::hours(5)).expect("due");
    let ids: Vec<&str> = r.drafts.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, [a.as_str(), b.as_str()]);
    assert_eq!(r.summary(), "2 drafts waiting longer than 4 h");
    assert!(
        r.line().contains(&a) && r.line().contains(&b),
        "{}",
        r.line()
    );
    assert!(r.body_lines()[0].contains("bob@contoso.com · Contract"));

    // A third draft becoming overdue inside the interval does not make a second reminder.
    let c = create(&engine, "Renewal");
    assert_eq!(
        rem.check(&drafts(), t0 + Duration::hours(5) + Duration::minutes(29)),
        None
    );
    // After the interval, one reminder again, now with every overdue draft.
    let later = engine.draft(&c).unwrap().unwrap().created_at + Duration::hours(6);
    let r = rem.check(&drafts(), later).expect("due again");
    assert_eq!(r.drafts.len(), 3);

    // Decided drafts are no longer overdue; with none left there is nothing to remind of.
    for id in [&a, &b, &c] {
        engine
            .submit(
                Action::RejectDraft {
                    id: id.clone(),
                    reason: "stale".into(),
                },
                Actor::Cli,
            )
            .unwrap();
    }
    assert_eq!(rem.check(&drafts(), later + Duration::hours(10)), None);
}

#[test]
fn reminders_are_configurable_and_can_be_switched_off() {
    let off =
        Config::from_toml_str("[drafts]\nremind_after_hours = 0\n", Path::new("t.toml")).unwrap();
    assert!(Reminders::new(&off.drafts).is_none());
    let default = Config::from_toml_str("", Path::new("t.toml")).unwrap();
    assert_eq!(default.drafts.remind_after_hours, 24);
    assert_eq!(default.drafts.remind_every_minutes, 60);
    let e = Config::from_toml_str("[drafts]\nremind_every_minutes = 0\n", Path::new("t.toml"))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("remind_every_minutes") && e.contains("allowed: 1 to"),
        "{e}"
    );
}

#[test]
fn the_console_shows_one_coalesced_notice_per_interval() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let (a, b) = (create(&engine, "Contract"), create(&engine, "Invoice"));
    let t0 = engine.draft(&b).unwrap().unwrap().created_at;

    let mut app = App::new(
        Theme::built_in("dark", true).unwrap(),
        Keymap::defaults(),
        vec!["work".into()],
        (110, 30),
    );
    app.reminders = Reminders::new(&engine.config().drafts);
    app.update(Msg::Drafts(engine.draft_queue().unwrap().drafts));
    app.now = t0 + Duration::hours(5);
    app.update(Msg::Tick);
    let (level, text) = app.message.clone().expect("a notice");
    assert_eq!(level, Level::Warn);
    assert!(
        text.starts_with("2 drafts waiting longer than 4 h"),
        "{text}"
    );
    assert!(text.contains(&a) && text.contains(&b), "{text}");

    // Dismissed (any key clears the line) and ticking on: no second notice within 30 minutes.
    app.message = None;
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('j'),
        KeyModifiers::NONE,
    )));
    app.now += Duration::minutes(20);
    app.update(Msg::Tick);
    assert_eq!(app.message, None);
    app.now += Duration::minutes(11);
    app.update(Msg::Tick);
    assert!(app.message.is_some(), "due again after the interval");
}
