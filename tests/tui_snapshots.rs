//! Snapshot tests of every pane and overlay, rendered with ratatui's TestBackend from fixed
//! state (no clock, no files). `cargo insta review` (or INSTA_UPDATE=always) to accept changes.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use opsdesk::config::Config;
use opsdesk::domain::{
    Action, AuditEvent, AuditOutcome, AuditRecord, Channel, Draft, DraftStatus, InboxRecord,
    Outbound, Party, Verdict,
};
use opsdesk::engine::EngineEvent;
use opsdesk::engine::providers::{ProviderOverlay, apply, view};
use opsdesk::engine::runner::SourceHealth;
use opsdesk::tui::app::{Anchor, App, ChainStatus, Effect, Msg, Pane, Req};
use opsdesk::tui::draw;
use opsdesk::tui::keymap::Keymap;
use opsdesk::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use time::OffsetDateTime;
use time::macros::datetime;

const T0: OffsetDateTime = datetime!(2026-03-02 09:15 UTC);

fn record(seq: u64, channel: Channel, profile: &str, from: &str, subject: &str) -> InboxRecord {
    InboxRecord {
        seq,
        id: format!("msg-{seq}"),
        received_at: T0 + time::Duration::minutes(seq as i64),
        profile: profile.into(),
        channel,
        thread_id: None,
        from: Party::new(
            from,
            format!("{}@example.org", from.to_lowercase().replace(' ', ".")),
        ),
        to: vec![],
        subject: Some(subject.into()),
        ts: T0,
        text: format!("Hello,\n\nthis is message {seq} about {subject}.\n\nRegards,\n{from}"),
        preview: subject.into(),
        meta: Default::default(),
        untrusted: true,
    }
}

fn draft(id: &str, status: DraftStatus, to: &str, minutes: i64) -> Draft {
    let outbound = Outbound::ReplyEmail {
        message_id: "msg-2".into(),
        to: vec![to.into()],
        subject: "Re: Q3 planning".into(),
        body: "Thanks — noted. I'll get back to you by end of day.".into(),
    };
    Draft {
        id: id.into(),
        profile: "work".into(),
        digest: opsdesk::domain::content_digest("work", &outbound),
        outbound,
        verdict: Verdict::Queue {
            reason: "reply_email is draft_only".into(),
        },
        provider: None,
        status,
        created_by: "mcp:demo-assistant".parse().unwrap(),
        created_at: T0 + time::Duration::minutes(minutes),
        updated_at: T0 + time::Duration::minutes(minutes),
        approved_digest: None,
        decided_by: None,
        reason: None,
        remote_id: None,
        edits: 0,
    }
}

fn audit(seq: u64, event: &str, actor: &str, outcome: AuditOutcome, target: &str) -> AuditRecord {
    AuditRecord {
        seq,
        ts: T0 + time::Duration::seconds(seq as i64 * 7),
        event: AuditEvent::new(event, actor, outcome)
            .entity("work")
            .target(target),
        prev: "0".repeat(64),
        hash: "f".repeat(64),
    }
}

fn app(no_color: bool) -> App {
    let theme = Theme::built_in("dark", no_color).unwrap();
    let mut app = App::new(
        theme,
        Keymap::defaults(),
        vec!["clinic".into(), "work".into()],
        (110, 30),
    );
    let _ = app.start();
    let records = [
        record(
            5,
            Channel::Teams,
            "work",
            "Ana Lima",
            "Standup moved to 10:30",
        ),
        record(
            4,
            Channel::Email,
            "clinic",
            "Front Desk",
            "Schedule change for Thursday",
        ),
        record(3, Channel::Calendar, "work", "Board", "Quarterly review"),
        record(2, Channel::Email, "work", "Jon Park", "Q3 planning"),
        record(1, Channel::Spool, "work", "ops-bot", "Nightly report"),
    ];
    app.update(Msg::InboxPage {
        generation: 0,
        anchor: Anchor::Top,
        rows: records.iter().map(Into::into).collect(),
        last_seq: 5,
    });
    app.update(Msg::Cursor {
        cursor: 3,
        last_seq: 5,
    });
    app.update(Msg::Drafts(vec![
        draft(
            "d-aaaa000001",
            DraftStatus::Pending,
            "jon.park@contoso.com",
            1,
        ),
        draft(
            "d-aaaa000002",
            DraftStatus::Pending,
            "ana.lima@contoso.com",
            2,
        ),
        draft("d-aaaa000003", DraftStatus::Rejected, "x@contoso.com", 0),
    ]));
    let config = Config::demo();
    let ov = ProviderOverlay {
        enabled: [("azure".to_string(), false)].into(),
        default: None,
    };
    app.update(Msg::Providers(Ok(view(&config, &apply(&config.llm, &ov)))));
    app.update(Msg::AuditTail(vec![
        audit(
            1,
            "inbox.append",
            "source:demo",
            AuditOutcome::Ok,
            "email#1",
        ),
        audit(
            2,
            "draft.reply",
            "mcp:demo-assistant",
            AuditOutcome::Ok,
            "d-aaaa000001",
        ),
        audit(
            3,
            "draft.approve",
            "mcp:claude-code",
            AuditOutcome::Blocked,
            "d-aaaa000001",
        ),
        audit(
            4,
            "draft.reject",
            "console",
            AuditOutcome::Ok,
            "d-aaaa000003",
        ),
    ]));
    app.update(Msg::Chain(ChainStatus {
        ok: true,
        text: "intact (4 records, audit verify)".into(),
    }));
    app.update(Msg::Engine(EngineEvent::SourceHealth(Arc::new(
        SourceHealth {
            name: "demo".into(),
            ok: true,
            failures: 0,
            last_error: None,
            last_ok: None,
            items: 5,
        },
    ))));
    app.status.mcp_url = Some("http://127.0.0.1:48080/mcp".into());
    app.status.clients = vec!["claude-code".into()];
    app
}

fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn render(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    t.draw(|f| draw(app, f)).unwrap();
    t.backend().to_string()
}

#[test]
fn inbox_pane() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('j'));
    insta::assert_snapshot!(render(&a));
}

#[test]
fn inbox_pane_no_color_keeps_the_selection_mark() {
    let mut a = app(true);
    key(&mut a, KeyCode::Char('j'));
    let out = render(&a);
    assert!(out.contains("> "), "selection marker missing");
    insta::assert_snapshot!(out);
}

#[test]
fn brief_pane() {
    let mut a = app(false);
    let fx = key(&mut a, KeyCode::Char('2'));
    assert!(fx.contains(&Effect::Req(Req::Brief {
        profile: "clinic".into()
    })));
    a.update(Msg::Brief {
        profile: "clinic".into(),
        morning: Ok(serde_json::json!({"configured": false, "profile": "clinic",
            "message": "the morning brief is not configured in this opsdesk build",
            "remedy": "use inbox_pull / mail_list / calendar_list to read the raw items meanwhile"})),
        eod: Err("boom".into()),
    });
    insta::assert_snapshot!(render(&a));
}

#[test]
fn drafts_pane() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    insta::assert_snapshot!(render(&a));
}

#[test]
fn providers_pane_shows_why_an_entity_is_blocked() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('4'));
    let out = render(&a);
    assert!(out.contains("BLOCKED"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn audit_pane_and_outcome_filter() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('5'));
    insta::assert_snapshot!("audit_pane", render(&a));
    key(&mut a, KeyCode::Char('o'));
    key(&mut a, KeyCode::Char('o'));
    key(&mut a, KeyCode::Char('o')); // ok → denied → blocked
    insta::assert_snapshot!("audit_pane_blocked_only", render(&a));
}

#[test]
fn help_overlay_is_built_from_the_keymap() {
    let mut a = app(false);
    a.size = (110, 60);
    key(&mut a, KeyCode::Char('?'));
    let out = render(&a);
    assert!(out.contains("Approve the selected draft"));
    insta::assert_snapshot!(out);
}

#[test]
fn details_overlay() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Enter);
    insta::assert_snapshot!(render(&a));
}

#[test]
fn approve_asks_for_confirmation_then_submits_with_the_shown_digest() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    let fx = key(&mut a, KeyCode::Char('a'));
    assert!(fx.is_empty(), "approval must wait for the confirmation");
    insta::assert_snapshot!(render(&a));
    let fx = key(&mut a, KeyCode::Char('y'));
    let digest = a.drafts.all[0].digest.clone();
    assert_eq!(
        fx,
        vec![Effect::Req(Req::Submit {
            action: Action::ApproveDraft {
                id: "d-aaaa000001".into(),
                digest: Some(digest)
            },
            label: "approved draft d-aaaa000001".into()
        })]
    );
}

#[test]
fn cancelled_confirmation_submits_nothing() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Char('a'));
    assert!(key(&mut a, KeyCode::Esc).is_empty());
    assert!(a.overlay.is_none());
}

#[test]
fn reject_overlay_asks_for_a_reason() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Char('j'));
    key(&mut a, KeyCode::Char('r'));
    assert!(
        key(&mut a, KeyCode::Enter).is_empty(),
        "an empty reason rejects nothing"
    );
    key(&mut a, KeyCode::Char('r'));
    for c in "wrong tone".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    insta::assert_snapshot!(render(&a));
    let fx = key(&mut a, KeyCode::Enter);
    assert_eq!(
        fx,
        vec![Effect::Req(Req::Submit {
            action: Action::RejectDraft {
                id: "d-aaaa000002".into(),
                reason: "wrong tone".into()
            },
            label: "rejected draft d-aaaa000002".into()
        })]
    );
}

#[test]
fn command_line_and_filter_overlays() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char(':'));
    for c in "drafts".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    insta::assert_snapshot!("command_overlay", render(&a));
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.pane, Pane::Drafts);
    key(&mut a, KeyCode::Char('1'));
    key(&mut a, KeyCode::Char('/'));
    for c in "plan channel:email".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    insta::assert_snapshot!("filter_overlay", render(&a));
    let fx = key(&mut a, KeyCode::Enter);
    match &fx[..] {
        [Effect::Req(Req::Inbox { filter, anchor, .. })] => {
            assert_eq!(filter.channel, Some(Channel::Email));
            assert_eq!(filter.text.as_deref(), Some("plan"));
            assert_eq!(*anchor, Anchor::Top);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn digest_mismatch_is_shown_clearly() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    a.update(Msg::Submitted {
        label: "approved draft d-aaaa000001".into(),
        action: Action::ApproveDraft {
            id: "d-aaaa000001".into(),
            digest: Some("abc".into()),
        },
        result: Err("draft d-aaaa000001 changed since it was reviewed (digest abc ≠ current def); review it again".into()),
    });
    let out = render(&a);
    assert!(out.contains("NOT approved"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn live_inbox_growth_keeps_the_selection_and_failing_source_is_marked() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('j'));
    let before = a.inbox.selected().unwrap().seq;
    a.update(Msg::Engine(EngineEvent::InboxAppended(Arc::new(record(
        6,
        Channel::Email,
        "work",
        "New Person",
        "Just arrived",
    )))));
    assert_eq!(a.inbox.selected().unwrap().seq, before);
    a.update(Msg::Engine(EngineEvent::SourceHealth(Arc::new(
        SourceHealth {
            name: "spool".into(),
            ok: false,
            failures: 3,
            last_error: Some("permission denied".into()),
            last_ok: None,
            items: 0,
        },
    ))));
    let out = render(&a);
    assert!(out.contains("FAILING: spool"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn tiny_terminal_does_not_panic() {
    let mut a = app(false);
    for (w, h) in [(1, 1), (10, 3), (20, 5), (40, 10)] {
        a.update(Msg::Resize(w, h));
        for p in ['1', '2', '3', '4', '5'] {
            key(&mut a, KeyCode::Char(p));
            render(&a);
            key(&mut a, KeyCode::Char('?'));
            render(&a);
            key(&mut a, KeyCode::Esc);
        }
    }
}

#[test]
fn reply_draft_from_the_inbox_goes_through_an_action() {
    let mut a = app(false);
    a.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('R'),
        KeyModifiers::SHIFT,
    )));
    for c in "On it".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    let fx = key(&mut a, KeyCode::Enter);
    assert_eq!(
        fx,
        vec![Effect::Req(Req::Submit {
            action: Action::DraftReply {
                message_id: "msg-5".into(),
                body: "On it".into()
            },
            label: "reply drafted".into()
        })]
    );
    // Calendar items cannot be replied to: nothing opens.
    key(&mut a, KeyCode::Char('j'));
    key(&mut a, KeyCode::Char('j'));
    a.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('R'),
        KeyModifiers::SHIFT,
    )));
    assert!(a.overlay.is_none());
}

#[test]
fn a_background_failure_ends_the_app_with_its_message() {
    let mut a = app(false);
    a.update(Msg::Fatal("console-data panicked: boom".into()));
    assert!(a.quit);
    assert_eq!(a.fatal.as_deref(), Some("console-data panicked: boom"));
}
