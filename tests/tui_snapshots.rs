//! Snapshot tests of every pane and overlay, rendered with ratatui's TestBackend from fixed
//! state (no clock, no files). `cargo insta review` (or INSTA_UPDATE=always) to accept changes.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use opsdesk::brief::{Brief, BriefInputs, build};
use opsdesk::config::Config;
use opsdesk::domain::{
    Action, AuditEvent, AuditOutcome, AuditRecord, BriefKind, Channel, Draft, DraftStatus,
    InboxRecord, Outbound, Party, Verdict,
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
        attachments: Vec::new(),
    }
}

fn draft(id: &str, status: DraftStatus, to: &str, minutes: i64) -> Draft {
    let outbound = Outbound::ReplyEmail {
        message_id: "msg-2".into(),
        to: vec![to.into()],
        subject: "Re: Q3 planning".into(),
        body: "Thanks — noted. I'll get back to you by end of day.".into(),
        attachments: Vec::new(),
        body_html: None,
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
        requeued_from: None,
        requeued_as: None,
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
    // Ages are shown against this clock: three hours after T0.
    app.now = T0 + time::Duration::hours(3);
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
        ..Default::default()
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
        text: "intact through record 4".into(),
        records: 4,
        at: Some(T0),
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

/// A brief as the engine answers it (`Answer::Brief`): built from `records` as of the console's
/// clock in the fixture (T0 + 3 h), the operator having read up to seq 3.
fn typed_brief(kind: BriefKind, records: Vec<InboxRecord>) -> Result<Box<Brief>, String> {
    let inputs = BriefInputs {
        records,
        unread_after: 3,
        ..Default::default()
    };
    let now = T0 + time::Duration::hours(3);
    Ok(Box::new(build(
        &inputs,
        kind,
        "clinic",
        now,
        time::UtcOffset::UTC,
    )))
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
        morning: typed_brief(
            BriefKind::Morning,
            vec![record(
                4,
                Channel::Email,
                "clinic",
                "Front Desk",
                "Schedule change for Thursday",
            )],
        ),
        eod: Err("boom".into()),
    });
    let out = render(&a);
    // The brief's own text, counting the one unread clinic message.
    assert!(out.contains(r#"top senders: "Front Desk" 1"#), "{out}");
    insta::assert_snapshot!(out);
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
fn providers_pane_shows_budgets_and_which_are_exhausted() {
    use opsdesk::llm::budget::BudgetStatus;
    let mut a = app(false);
    let config = Config::demo();
    let mut v = view(&config, &config.llm);
    v.budgets = vec![BudgetStatus {
        scope: "provider".into(),
        name: "openai".into(),
        period: "daily".into(),
        unit: "tokens".into(),
        used: "90".into(),
        limit: "80".into(),
        exhausted: true,
        resets_at: "2026-11-26T00:00:00Z".into(),
    }];
    a.update(Msg::Providers(Ok(v)));
    a.size = (140, 50);
    key(&mut a, KeyCode::Char('4'));
    let out = render(&a);
    assert!(out.contains("provider openai"), "{out}");
    assert!(
        out.contains("90 / 80") && out.contains("EXHAUSTED"),
        "{out}"
    );
}

#[test]
fn providers_pane_lists_vault_tools_with_their_health_and_broken_folders() {
    use opsdesk::vault::{Broken, LastCall, VaultToolRow, VaultView};
    let mut a = app(false);
    let row = |name: &str, network: &'static str, last_call: Option<LastCall>| VaultToolRow {
        name: name.into(),
        tier: "read_only",
        timeout_secs: 5,
        network,
        may_see_phi: false,
        refused: None,
        last_call,
    };
    a.update(Msg::Vault(Ok(VaultView {
        dir: "/home/op/.config/opsdesk/tools".into(),
        sandbox: "sandbox (best_effort) incomplete: missing namespaces (unshare(CLONE_NEWUSER | CLONE_NEWPID): Operation not permitted); only read_only tools that may not see PHI run, without the missing layers".into(),
        sandbox_complete: false,
        tools: vec![
            row(
                "vault_thread_summary",
                "not isolated",
                Some(LastCall {
                    at: T0,
                    outcome: "ok".into(),
                    duration_ms: Some(42),
                    reason: None,
                }),
            ),
            row(
                "vault_hang",
                "declared",
                Some(LastCall {
                    at: T0,
                    outcome: "error".into(),
                    duration_ms: Some(1000),
                    reason: Some("the tool did not finish within 1s and was killed".into()),
                }),
            ),
            row("vault_fresh", "none", None),
        ],
        broken: vec![Broken {
            folder: "bad".into(),
            error: "tier `governance` is not supported".into(),
        }],
    })));
    a.size = (160, 50);
    key(&mut a, KeyCode::Char('4'));
    let out = render(&a);
    for want in [
        "Vault tools · 3 served, 1 broken",
        "sandbox (best_effort) incomplete: missing namespaces",
        "vault_thread_summary",
        "ok (42 ms)",
        "error: the tool did not finish within 1s",
        "no recent call",
        "BROKEN bad: tier `governance` is not supported",
    ] {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
    // The entities (what the pane was about before) are still shown above it.
    assert!(out.contains("Entities and jobs (routing"), "{out}");
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

/// A message's details list its attachments; `Tab` moves the `▸` mark, the picked one is what
/// `o` opens and `s` saves, and the keys are named above the list.
#[test]
fn message_details_mark_the_picked_attachment() {
    use opsdesk::domain::{Attachment, AttachmentStatus};
    let mut a = app(false);
    let mut r = record(6, Channel::Email, "clinic", "Front Desk", "Referral packet");
    let att = |name: &str, media_type: &str, size: u64, hash: char| Attachment {
        name: name.into(),
        media_type: media_type.into(),
        size,
        sha256: Some(hash.to_string().repeat(64)),
        inline: false,
        status: AttachmentStatus::Stored,
        text: None,
        risk: None,
    };
    r.attachments = vec![
        att("referral.pdf", "application/pdf", 48_213, 'a'),
        att(
            "lab results.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            9_800,
            'b',
        ),
    ];
    a.update(Msg::InboxPage {
        generation: a.inbox.generation,
        anchor: Anchor::Top,
        rows: vec![(&r).into()],
        last_seq: 6,
    });
    key(&mut a, KeyCode::Enter);
    assert!(key(&mut a, KeyCode::Tab).is_empty());
    insta::assert_snapshot!(render(&a));
    assert_eq!(
        key(&mut a, KeyCode::Char('o')),
        vec![Effect::Req(Req::OpenAttachment {
            sha256: "b".repeat(64),
            name: "lab results.docx".into()
        })]
    );
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
fn a_draft_that_sends_nothing_gets_the_same_dialog_and_outcome() {
    let mut a = app(false);
    let mut d = draft("d-aaaa000007", DraftStatus::Pending, "x@contoso.com", 0);
    d.outbound = Outbound::MoveMail {
        message_id: "msg-2".into(),
        folder: "archive".into(),
    };
    d.digest = opsdesk::domain::content_digest("work", &d.outbound);
    a.update(Msg::Drafts(vec![d.clone()]));
    key(&mut a, KeyCode::Char('3'));
    let fx = key(&mut a, KeyCode::Char('a'));
    assert!(fx.is_empty(), "approval waits for the confirmation");
    let screen = render(&a);
    assert!(
        screen.contains("move message msg-2 to folder archive")
            && screen.contains("nothing is sent"),
        "{screen}"
    );
    let fx = key(&mut a, KeyCode::Char('y'));
    assert_eq!(
        fx,
        vec![Effect::Req(Req::Submit {
            action: Action::ApproveDraft {
                id: "d-aaaa000007".into(),
                digest: Some(d.digest.clone())
            },
            label: "approved draft d-aaaa000007".into()
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
    // Only `y` goes ahead (README, "Confirmations"): a stray Enter cancels too.
    key(&mut a, KeyCode::Char('a'));
    assert!(key(&mut a, KeyCode::Enter).is_empty());
    assert!(a.overlay.is_none());
    assert!(a.message.clone().unwrap().1.contains("nothing changed"));
}

#[test]
fn a_sent_draft_is_called_sent_in_the_list_and_its_details() {
    let mut a = app(false);
    let mut d = draft("d-aaaa000009", DraftStatus::Executed, "x@contoso.com", 0);
    d.remote_id = Some("demo-outbox#1".into());
    a.update(Msg::Drafts(vec![d]));
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Char('A'));
    assert!(render(&a).contains("sent"));
    key(&mut a, KeyCode::Enter);
    let Some(opsdesk::tui::app::Overlay::Details { lines, .. }) = &a.overlay else {
        panic!("Enter shows the draft");
    };
    assert!(lines.iter().any(|l| l == "status:     sent"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("executed")), "{lines:?}");
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
    // The filter applies while typing: the last key asks for the matching page.
    let mut fx = vec![];
    for c in "plan channel:email".chars() {
        fx = key(&mut a, KeyCode::Char(c));
    }
    insta::assert_snapshot!("filter_overlay", render(&a));
    assert!(key(&mut a, KeyCode::Enter).is_empty(), "Enter keeps it");
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
    assert!(out.contains("!! spool (3x)"), "{out}");
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
fn reply_is_written_in_the_editor_from_a_quoted_template() {
    let mut a = app(false);
    let fx = a.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('R'),
        KeyModifiers::SHIFT,
    )));
    let [
        Effect::Compose {
            message_id,
            template,
            ..
        },
    ] = &fx[..]
    else {
        panic!("{fx:?}")
    };
    assert_eq!(message_id, "msg-5");
    assert!(template.contains("Ana Lima wrote:"), "{template}");
    assert!(template.contains("> this is message 5"), "{template}");
    // Nothing written: nothing drafted. Something written: the body, instructions removed.
    assert_eq!(
        opsdesk::tui::app::reply_from_template(template, template),
        None
    );
    let edited = format!("On it, thanks.\n{template}");
    let body = opsdesk::tui::app::reply_from_template(template, &edited).unwrap();
    assert!(body.starts_with("On it, thanks.\n"), "{body}");
    assert!(body.contains("Ana Lima wrote:\n> Hello,"), "{body}");
    assert!(!body.contains("# Write"), "{body}");
    // Calendar items cannot be replied to: nothing opens.
    key(&mut a, KeyCode::Char('j'));
    key(&mut a, KeyCode::Char('j'));
    let fx = a.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('R'),
        KeyModifiers::SHIFT,
    )));
    assert!(fx.is_empty());
}

#[test]
fn the_job_keys_ask_the_assistant_about_the_selected_message() {
    use opsdesk::assistant::JobKind;
    use opsdesk::tui::app::JobTarget;
    let mut a = app(false);
    let seq = a.inbox.selected().unwrap().seq;
    for (c, want) in [
        ('a', JobKind::Draft),
        ('t', JobKind::Triage),
        ('D', JobKind::Deadlines),
    ] {
        match &key(&mut a, KeyCode::Char(c))[..] {
            [Effect::Req(Req::Job { job, target })] => {
                assert_eq!((*job, target), (want, &JobTarget::Seqs(vec![seq])))
            }
            other => panic!("{c}: {other:?}"),
        }
    }
    match &key(&mut a, KeyCode::Char('T'))[..] {
        [Effect::Req(Req::Job { job, target })] => {
            assert_eq!((*job, target), (JobKind::Triage, &JobTarget::Untriaged))
        }
        other => panic!("{other:?}"),
    }
    // Nothing runs: X says so instead of sending a cancel.
    assert!(key(&mut a, KeyCode::Char('X')).is_empty());
    assert!(
        a.message
            .clone()
            .unwrap()
            .1
            .contains("no assistant job is running")
    );
}

#[test]
fn inbox_filter_applies_while_typing_and_esc_clears_it() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('/'));
    let fx = key(&mut a, KeyCode::Char('Q'));
    match &fx[..] {
        [Effect::Req(Req::Inbox { filter, .. })] => assert_eq!(filter.text.as_deref(), Some("Q")),
        other => panic!("{other:?}"),
    }
    // An unfinished `channel:` keeps the last valid filter and says why.
    for c in "3 channel:em".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    assert!(a.inbox.filter_error.is_some());
    assert_eq!(a.inbox.filter.text.as_deref(), Some("Q3 channel"));
    // So does a search that has nothing to find yet (only an exclusion), said while typing.
    for _ in 0.."3 channel:em".len() {
        key(&mut a, KeyCode::Backspace);
    }
    for c in " -dra".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    assert_eq!(
        a.inbox.filter.text.as_deref(),
        Some("Q -dra"),
        "a valid one"
    );
    a.inbox.filter_error = None;
    for _ in 0.." -dra".len() + 1 {
        key(&mut a, KeyCode::Backspace);
    }
    for c in "-dra".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    assert!(
        a.inbox
            .filter_error
            .as_deref()
            .is_some_and(|e| e.contains("nothing to search for")),
        "{:?}",
        a.inbox.filter_error
    );
    for _ in 0.."-dra".len() {
        key(&mut a, KeyCode::Backspace);
    }
    for c in "Q3 channel".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    // The page that matches arrives: "1 of 5".
    let generation = a.inbox.generation;
    a.update(Msg::InboxPage {
        generation,
        anchor: Anchor::Top,
        rows: vec![(&record(2, Channel::Email, "work", "Jon Park", "Q3 planning")).into()],
        last_seq: 5,
    });
    key(&mut a, KeyCode::Esc);
    assert!(a.overlay.is_none());
    assert!(a.inbox.filter_text.is_empty(), "Esc clears the filter");
    // Filter again, keep it with Enter, and clear it from the pane with Esc.
    key(&mut a, KeyCode::Char('/'));
    key(&mut a, KeyCode::Char('x'));
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.inbox.filter_text, "x");
    let generation = a.inbox.generation;
    a.update(Msg::InboxPage {
        generation,
        anchor: Anchor::Top,
        rows: vec![],
        last_seq: 5,
    });
    let out = render(&a);
    assert!(out.contains("Nothing matches"), "{out}");
    insta::assert_snapshot!("inbox_nothing_matches", out);
    let fx = key(&mut a, KeyCode::Esc);
    assert!(a.inbox.filter_text.is_empty());
    assert!(
        matches!(&fx[..], [Effect::Req(Req::Inbox { .. })]),
        "{fx:?}"
    );
}

#[test]
fn drafts_show_their_age_and_sort_by_it_oldest_first_unless_asked() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    let ids =
        |a: &App| -> Vec<String> { a.drafts.visible().iter().map(|d| d.id.clone()).collect() };
    let oldest_first = ids(&a);
    let ages: Vec<_> = a
        .drafts
        .visible()
        .iter()
        .map(|d| opsdesk::tui::app::age_text(d.created_at, a.now))
        .collect();
    let out = render(&a);
    assert!(out.contains("AGE ↓"), "oldest first: {out}");
    for age in &ages {
        assert!(out.contains(age.as_str()), "{age} in {out}");
    }
    let created: Vec<_> = a.drafts.visible().iter().map(|d| d.created_at).collect();
    assert!(created.windows(2).all(|w| w[0] <= w[1]), "{created:?}");
    key(&mut a, KeyCode::Char('s'));
    let mut newest_first = ids(&a);
    assert!(render(&a).contains("AGE ↑"), "newest first");
    newest_first.reverse();
    assert_eq!(newest_first, oldest_first);
    // Ages read at a glance.
    let t = T0;
    let age = |m: i64| opsdesk::tui::app::age_text(t, t + time::Duration::minutes(m));
    assert_eq!(
        [
            age(45),
            age(7 * 60),
            age(3 * 1440 + 4 * 60),
            age(12 * 1440 + 60)
        ],
        ["45m", "7h", "3d4h", "12d"].map(String::from)
    );
}

#[test]
fn drafts_filter_counts_what_is_shown() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Char('/'));
    for c in "ana".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    key(&mut a, KeyCode::Enter);
    let out = render(&a);
    assert!(out.contains("showing 1 of 3"), "{out}");
}

#[test]
fn layout_at_80x24() {
    let mut a = app(false);
    a.update(Msg::Resize(80, 24));
    a.update(Msg::Engine(EngineEvent::SourceHealth(Arc::new(
        SourceHealth {
            name: "spool".into(),
            ok: false,
            failures: 3,
            last_error: Some("cannot read /data/spool: Permission denied (os error 13)".into()),
            last_ok: None,
            items: 0,
        },
    ))));
    let out = render(&a);
    let status = out.lines().nth(23).unwrap();
    assert!(status.contains("!! spool (3x)"), "health first: {status}");
    insta::assert_snapshot!("inbox_80x24", out);
    key(&mut a, KeyCode::Char('3'));
    let out = render(&a);
    // Draft ids stay visible at 80 columns.
    assert!(out.contains("d-aaaa000001"), "{out}");
    insta::assert_snapshot!("drafts_80x24", out);
}

#[test]
fn wide_terminal_gives_recipients_room() {
    let mut a = app(false);
    a.update(Msg::Resize(160, 30));
    key(&mut a, KeyCode::Char('3'));
    let out = render(&a);
    assert!(out.contains("jon.park@contoso.com"), "{out}");
    assert!(out.contains("VERDICT"), "{out}");
}

#[test]
fn terminal_too_small_says_so() {
    let mut a = app(false);
    a.update(Msg::Resize(50, 12));
    let out = render(&a);
    assert!(out.contains("Terminal too small"), "{out}");
    assert!(out.contains("needs 60x15"), "{out}");
    insta::assert_snapshot!("too_small", out);
    // At the minimum every tab still shows.
    a.update(Msg::Resize(60, 15));
    let out = render(&a);
    for t in ["1 Inb", "2 Bri", "3 Dra", "4 Pro", "5 Aud"] {
        assert!(out.lines().next().unwrap().contains(t), "{t}: {out}");
    }
}

#[test]
fn the_health_view_shows_each_mcp_clients_scope() {
    let mut a = app(false);
    a.status.mcp_url = Some("http://127.0.0.1:48080/mcp".into());
    a.status.mcp_scopes = vec![
        "default: all 14 tools".into(),
        "dash: read-only; 5 of 14 tools (toolsets: inbox, briefs) — set by [server.clients.dash] read_only".into(),
    ];
    let lines = a.health_lines();
    let at = lines
        .iter()
        .position(|l| l.starts_with("  ok    http://127.0.0.1:48080/mcp"))
        .expect("the MCP server line");
    assert_eq!(lines[at + 1], "  scope default: all 14 tools");
    assert!(
        lines[at + 2].starts_with("  scope dash: read-only; 5 of 14 tools"),
        "{lines:?}"
    );
}

#[test]
fn failing_source_reason_is_reached_with_the_health_key() {
    let mut a = app(false);
    a.data_dir = Some("/tmp/opsdesk-demo-x".into());
    a.update(Msg::Engine(EngineEvent::SourceHealth(Arc::new(
        SourceHealth {
            name: "spool".into(),
            ok: false,
            failures: 3,
            last_error: Some("cannot read /data/spool: Permission denied (os error 13)".into()),
            last_ok: None,
            items: 0,
        },
    ))));
    key(&mut a, KeyCode::Char('!'));
    let out = render(&a);
    assert!(out.contains("Permission denied"), "{out}");
    assert!(out.contains("/tmp/opsdesk-demo-x"), "{out}");
    insta::assert_snapshot!("health_overlay", out);
}

#[test]
fn blocked_entities_show_in_the_status_bar() {
    let mut a = app(false);
    let config = Config::demo();
    let ov = ProviderOverlay {
        enabled: config
            .llm
            .providers
            .keys()
            .map(|k| (k.clone(), false))
            .collect(),
        ..Default::default()
    };
    a.update(Msg::Providers(Ok(view(&config, &apply(&config.llm, &ov)))));
    let out = render(&a);
    let status = out.lines().last().unwrap();
    assert!(status.contains("LLM blocked: clinic"), "{status}");
}

#[test]
fn disabling_the_last_cleared_provider_asks_first() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('4'));
    let enabled_row = a
        .providers
        .view
        .as_ref()
        .unwrap()
        .providers
        .iter()
        .position(|p| p.enabled);
    for _ in 0..enabled_row.unwrap() {
        key(&mut a, KeyCode::Char('j'));
    }
    let fx = key(&mut a, KeyCode::Char('t'));
    let [Effect::Req(Req::ToggleImpact { name, enabled })] = &fx[..] else {
        panic!("{fx:?}")
    };
    assert!(!enabled);
    let fx = a.update(Msg::ToggleImpact {
        name: name.clone(),
        enabled: false,
        blocks: Ok(vec!["clinic: no HIPAA-cleared provider".into()]),
    });
    assert!(
        fx.is_empty(),
        "nothing is submitted before the confirmation"
    );
    insta::assert_snapshot!("toggle_confirmation", render(&a));
    // `n` cancels: nothing changes.
    assert!(key(&mut a, KeyCode::Char('n')).is_empty());
    assert!(a.overlay.is_none());
    // Without a block the switch is submitted at once.
    let fx = a.update(Msg::ToggleImpact {
        name: name.clone(),
        enabled: false,
        blocks: Ok(vec![]),
    });
    assert!(matches!(
        &fx[..],
        [Effect::Req(Req::Submit {
            action: Action::SetProviderEnabled { enabled: false, .. },
            ..
        })]
    ));
}

#[test]
fn verify_answers_on_any_pane_and_the_chain_line_counts_newer_records() {
    let mut a = app(false);
    let fx = key(&mut a, KeyCode::Char(':'));
    assert!(fx.is_empty());
    for c in "verify".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    let fx = key(&mut a, KeyCode::Enter);
    assert_eq!(fx, vec![Effect::Req(Req::Verify)]);
    a.update(Msg::Chain(ChainStatus {
        ok: true,
        text: "intact through record 2".into(),
        records: 2,
        at: Some(T0),
    }));
    let (_, m) = a.message.clone().unwrap();
    assert!(m.contains("audit chain: intact through record 2"), "{m}");
    key(&mut a, KeyCode::Char('5'));
    let out = render(&a);
    assert!(out.contains("2 newer records not verified yet"), "{out}");
}

#[test]
fn draft_life_shows_decision_and_where_it_went() {
    use opsdesk::domain::{DraftEvent, DraftEventKind};
    let mut a = app(false);
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Char('A'));
    let mut d = a.drafts.all[0].clone();
    d.status = DraftStatus::Executed;
    d.decided_by = Some("console".parse().unwrap());
    d.remote_id = Some("demo-outbox:d-aaaa000001".into());
    d.updated_at = T0 + time::Duration::minutes(9);
    a.update(Msg::Engine(EngineEvent::DraftChanged(Arc::new(d.clone()))));
    let ev = |m: i64, actor: &str, kind| DraftEvent {
        ts: T0 + time::Duration::minutes(m),
        draft_id: d.id.clone(),
        actor: actor.parse().unwrap(),
        kind,
        audit: None,
    };
    let digest = d.digest.clone();
    // Select it; the pane asks for the selected draft's events.
    let at = a
        .drafts
        .visible()
        .iter()
        .position(|x| x.id == d.id)
        .unwrap();
    key(&mut a, KeyCode::Char('g'));
    let mut fx = vec![];
    for _ in 0..at {
        fx = key(&mut a, KeyCode::Char('j'));
    }
    let id = a.drafts.selected().unwrap().id.clone();
    assert_eq!(id, d.id);
    assert!(
        fx.contains(&Effect::Req(Req::DraftHistory { id: id.clone() })),
        "{fx:?}"
    );
    a.update(Msg::DraftHistory {
        id: id.clone(),
        events: Ok(vec![
            ev(
                1,
                "mcp:demo-assistant",
                DraftEventKind::Created {
                    profile: "work".into(),
                    outbound: d.outbound.clone(),
                    digest: digest.clone(),
                    verdict: d.verdict.clone(),
                    provider: None,
                },
            ),
            ev(5, "console", DraftEventKind::Approved { digest }),
            ev(
                9,
                "executor",
                DraftEventKind::Executed {
                    remote_id: "demo-outbox:d-aaaa000001".into(),
                },
            ),
        ]),
    });
    let out = render(&a);
    assert!(out.contains("approved by console"), "{out}");
    assert!(out.contains("→ demo-outbox:d-aaaa000001"), "{out}");
    assert!(out.contains("now: sent"), "{out}");
    insta::assert_snapshot!("draft_life", out);
}

#[test]
fn mouse_click_switches_panes_and_selects_rows_and_the_wheel_scrolls() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut a = app(false);
    let mouse = |kind, column, row| {
        Msg::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    // Row 3 is the first inbox row (tabs, border, header); row 5 the third.
    a.update(mouse(MouseEventKind::Down(MouseButton::Left), 10, 5));
    assert_eq!(a.inbox.sel, 2);
    a.update(mouse(MouseEventKind::ScrollDown, 10, 5));
    assert_eq!(a.inbox.sel, 4);
    a.update(mouse(MouseEventKind::ScrollUp, 10, 5));
    assert_eq!(a.inbox.sel, 1);
    // A second click on the selected row opens its details.
    a.update(mouse(MouseEventKind::Down(MouseButton::Left), 10, 4));
    assert!(matches!(
        a.overlay,
        Some(opsdesk::tui::app::Overlay::Details { .. })
    ));
    key(&mut a, KeyCode::Esc);
    // The tab row: find "3 Drafts" and click it.
    let out = render(&a);
    let top = out.lines().next().unwrap();
    let x = top.find("3 Drafts").unwrap() as u16; // ASCII up to there
    a.update(mouse(
        MouseEventKind::Down(MouseButton::Left),
        x.saturating_sub(1),
        0,
    ));
    assert_eq!(a.pane, Pane::Drafts);
}

#[test]
fn help_is_grouped_with_the_current_pane_first() {
    let mut a = app(false);
    a.size = (110, 70);
    key(&mut a, KeyCode::Char('3'));
    key(&mut a, KeyCode::Char('?'));
    let out = render(&a);
    let first_group = out.find("Drafts pane · act").unwrap();
    let moves = out.find("Move (everywhere)").unwrap();
    let inbox = out.find("Inbox pane").unwrap();
    assert!(first_group < moves && moves < inbox, "{out}");
    insta::assert_snapshot!("help_drafts_pane", out);
}

#[test]
fn a_background_failure_ends_the_app_with_its_message() {
    let mut a = app(false);
    a.update(Msg::Fatal("console-data panicked: boom".into()));
    assert!(a.quit);
    assert_eq!(a.fatal.as_deref(), Some("console-data panicked: boom"));
}

#[test]
fn triage_labels_show_in_the_inbox_list_and_preview_and_job_progress_in_the_message_line() {
    use opsdesk::assistant::store::TriageRecord;
    use opsdesk::assistant::triage::{Category, DecidedBy, Urgency};
    let mut a = app(false);
    let mut row: opsdesk::tui::app::InboxRow =
        (&record(6, Channel::Email, "work", "Mei Chen", "Vendor choice")).into();
    row.triage = Some(TriageRecord {
        seq: 6,
        id: "m6".into(),
        profile: "work".into(),
        category: Category::Decision,
        urgency: Urgency::High,
        reason: "asks to pick a vendor".into(),
        by: DecidedBy::Model,
        provider: Some("local".into()),
        model_error: None,
        at: "2026-11-25T08:00:00Z".into(),
    });
    a.update(Msg::InboxPage {
        generation: 0,
        anchor: Anchor::Top,
        rows: vec![row],
        last_seq: 6,
    });
    let out = render(&a);
    assert!(out.contains("[decision!] Vendor choice"), "{out}");
    assert!(
        out.contains("Triage: decision · high · by model — asks to pick a vendor"),
        "{out}"
    );
    a.update(Msg::Engine(opsdesk::engine::EngineEvent::JobProgress(
        std::sync::Arc::new(opsdesk::engine::jobs::JobProgress {
            id: 1,
            job: opsdesk::assistant::JobKind::Triage,
            total: 10,
            done: 3,
            failed: 1,
            state: opsdesk::engine::jobs::JobState::Running,
        }),
    )));
    let out = render(&a);
    assert!(
        out.contains("⟳ triage 3/10 (1 failed) ▕███░░░░░░░▏ · X cancels"),
        "{out}"
    );
    // X cancels what runs; the end of the job is said once and refreshes the labels.
    match &key(&mut a, KeyCode::Char('X'))[..] {
        [Effect::Req(Req::CancelJobs)] => {}
        other => panic!("{other:?}"),
    }
    let fx = a.update(Msg::Engine(opsdesk::engine::EngineEvent::JobProgress(
        std::sync::Arc::new(opsdesk::engine::jobs::JobProgress {
            id: 1,
            job: opsdesk::assistant::JobKind::Triage,
            total: 10,
            done: 4,
            failed: 1,
            state: opsdesk::engine::jobs::JobState::Cancelled,
        }),
    )));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Req(Req::TriageOf { seqs }) if !seqs.is_empty())),
        "{fx:?}"
    );
    let out = render(&a);
    assert!(!out.contains('⟳'), "{out}");
    assert!(
        out.contains("job triage 4/10 (1 failed) cancelled"),
        "{out}"
    );
}

#[test]
fn help_can_be_searched_and_the_search_cleared() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('?'));
    let s = render(&a);
    assert!(s.contains("/ searches") && s.contains("Move down"), "{s}");
    key(&mut a, KeyCode::Char('/'));
    for c in "approve".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    let s = render(&a);
    assert!(s.contains("search: approve_"), "{s}");
    assert!(s.contains("approve"), "{s}");
    assert!(
        !s.contains("Move down"),
        "only matching keys are listed: {s}"
    );
    // Enter keeps the search; the overlay then scrolls and stays open.
    key(&mut a, KeyCode::Enter);
    key(&mut a, KeyCode::Char('j'));
    let s = render(&a);
    assert!(s.contains("search: approve "), "{s}");
    // Esc drops the search, a second Esc closes the help.
    key(&mut a, KeyCode::Esc);
    let s = render(&a);
    assert!(s.contains("/ searches") && s.contains("Move down"), "{s}");
    key(&mut a, KeyCode::Char('/'));
    for c in "zzqx".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    assert!(render(&a).contains("no key matches \"zzqx\""));
    key(&mut a, KeyCode::Backspace);
    assert!(render(&a).contains("search: zzq_"));
    key(&mut a, KeyCode::Esc);
    key(&mut a, KeyCode::Esc);
    assert!(!render(&a).contains("Help ·"), "closed");
}

#[test]
fn deals_pane_lists_open_deals_first_with_stage_dates_and_linked_messages() {
    let mut a = app(false);
    let deal = |id: &str,
                name: &str,
                stage: &str,
                links: serde_json::Value|
     -> opsdesk::domain::Deal {
        serde_json::from_value(serde_json::json!({
            "id": id, "profile": "work", "name": name,
            "counterparties": ["ann@acme.example"], "stage": stage,
            "key_dates": [{"label": "closing", "date": "2026-12-15"}, {"label": "loi", "date": "2026-12-01"}],
            "notes": "", "keywords": ["sunrise"], "links": links, "proposal": null,
            "stage_changed_at": null, "created_by": "cli",
            "created_at": "2026-11-20T09:00:00Z", "updated_at": "2026-11-25T09:00:00Z"
        }))
        .unwrap()
    };
    a.update(Msg::Deals(Ok(vec![
        deal("dl-lost00001", "Old lease", "lost", serde_json::json!([])),
        deal(
            "dl-sun000001",
            "Sunrise acquisition",
            "negotiation",
            serde_json::json!([{"message_id": "m4", "seq": 4, "profile": "work", "thread_id": null,
                "rule": "participant", "reason": "participant ann@acme.example is a counterparty"}]),
        ),
    ])));
    key(&mut a, KeyCode::Char('6'));
    let out = render(&a);
    assert!(out.contains("[6 Deals]"), "{out}");
    assert!(out.contains("Deals · 1 open of 2"), "{out}");
    // Open first, selected; its soonest key date; its linked message with the reason.
    let first = out.lines().find(|l| l.contains("dl-")).unwrap();
    assert!(
        first.contains("dl-sun000001") && first.contains("loi 2026-12-01"),
        "{out}"
    );
    assert!(
        // With sender and subject: seq 4 is in the inbox window.
        out.contains(
            "#4      Front Desk · Schedule change for Thursday — participant ann@acme.example"
        ),
        "{out}"
    );
    insta::assert_snapshot!(out);
    // j moves to the closed deal; its detail follows.
    key(&mut a, KeyCode::Char('j'));
    assert!(render(&a).contains("dl-lost00001 · Old lease"));
}

#[test]
fn c_classifies_the_selected_message_as_the_operator() {
    use opsdesk::assistant::triage::{Category, Urgency};
    let mut a = app(false);
    let seq = a.inbox.selected().unwrap().seq;
    assert!(key(&mut a, KeyCode::Char('c')).is_empty());
    assert!(render(&a).contains(&format!("Classify #{seq}")));
    for ch in "decision high call back first".chars() {
        key(&mut a, KeyCode::Char(ch));
    }
    match &key(&mut a, KeyCode::Enter)[..] {
        [
            Effect::Req(Req::SetTriage {
                seq: s,
                category,
                urgency,
                reason,
            }),
        ] => {
            assert_eq!(
                (*s, *category, *urgency, reason.as_deref()),
                (
                    seq,
                    Category::Decision,
                    Urgency::High,
                    Some("call back first")
                )
            );
        }
        other => panic!("{other:?}"),
    }
    // A word that is no category changes nothing and says why.
    key(&mut a, KeyCode::Char('c'));
    for ch in "urgent".chars() {
        key(&mut a, KeyCode::Char(ch));
    }
    assert!(key(&mut a, KeyCode::Enter).is_empty());
    assert!(a.message.clone().unwrap().1.contains("nothing was changed"));
}

#[test]
fn capital_p_assigns_the_selected_message_to_a_profile_through_the_data_thread() {
    let mut a = app(false);
    // An item whose profile was unclear (only those can be assigned).
    let sel = a.inbox.sel;
    a.inbox.rows[sel].profile_unclear = true;
    let seq = a.inbox.selected().unwrap().seq;
    assert!(
        key(&mut a, KeyCode::Char('P')).is_empty(),
        "the UI asks first"
    );
    assert!(render(&a).contains(&format!("Assign #{seq}")));
    for ch in "work".chars() {
        key(&mut a, KeyCode::Char(ch));
    }
    match &key(&mut a, KeyCode::Enter)[..] {
        [Effect::Req(Req::AssignProfile { seq: s, profile })] => {
            assert_eq!((*s, profile.as_str()), (seq, "work"));
        }
        other => panic!("{other:?}"),
    }
    // Nothing typed: nothing asked of the engine.
    key(&mut a, KeyCode::Char('P'));
    assert!(key(&mut a, KeyCode::Enter).is_empty());
    assert!(
        a.message
            .clone()
            .unwrap()
            .1
            .contains("nothing was assigned")
    );
    // The engine's answer updates the row.
    a.update(Msg::Assigned {
        seq,
        profile: "clinic".into(),
    });
    assert_eq!(a.inbox.selected().unwrap().profile, "clinic");
    assert!(
        a.message
            .clone()
            .unwrap()
            .1
            .contains("now in profile clinic")
    );
}

#[test]
fn the_brief_scrolls_opens_whole_with_enter_and_says_when_it_was_generated() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('2'));
    let text: String = (1..=40).map(|i| format!("brief line {i}\n")).collect();
    a.update(Msg::Brief {
        profile: "clinic".into(),
        // The pane shows the brief's own text (`Brief::text`), whatever the brief holds.
        morning: typed_brief(BriefKind::Morning, vec![]).map(|mut b| {
            b.text = text;
            b
        }),
        eod: typed_brief(BriefKind::EndOfDay, vec![]).map(|mut b| {
            b.text = "digest line 1".into();
            b
        }),
    });
    let first = render(&a);
    // The console's clock when the answer came: 3 h after T0 (09:15).
    assert!(
        first.contains("Morning brief · clinic · generated 12:15"),
        "{first}"
    );
    assert!(first.contains("brief line 1 "), "{first}");
    assert!(!first.contains("brief line 20 "), "{first}");
    key(&mut a, KeyCode::PageDown);
    key(&mut a, KeyCode::PageDown);
    let scrolled = render(&a);
    assert!(scrolled.contains("brief line 20 "), "{scrolled}");
    assert!(!scrolled.contains("brief line 1 "), "{scrolled}");
    key(&mut a, KeyCode::PageUp);
    key(&mut a, KeyCode::PageUp);
    assert!(render(&a).contains("brief line 1 "));
    // Enter: the whole brief and digest, scrollable like any details view.
    key(&mut a, KeyCode::Enter);
    match &a.overlay {
        Some(opsdesk::tui::app::Overlay::Details { title, lines, .. }) => {
            assert_eq!(title, "Brief · clinic");
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("generated 2026-03-02 12:15"))
            );
            assert!(lines.iter().any(|l| l == "brief line 40"));
            assert!(lines.iter().any(|l| l == "digest line 1"));
        }
        other => panic!("Enter should open the whole brief, got {other:?}"),
    }
}

#[test]
fn failing_providers_show_in_the_status_bar_and_the_health_view_with_the_fix() {
    let mut a = app(false);
    let config = Config::demo();
    let mut v = view(&config, &config.llm);
    let missing = "the credential of provider `openai` is missing: set the environment variable OPENAI_API_KEY";
    for p in v.providers.iter_mut() {
        if p.name == "openai" {
            p.last_error = Some(missing.into());
        }
    }
    let work_provider = v
        .entities
        .iter()
        .find(|e| e.profile == "work")
        .and_then(|e| e.effective.clone());
    a.update(Msg::Providers(Ok(v)));
    let out = render(&a);
    let status = out.lines().last().unwrap();
    assert!(status.contains("LLM failing: openai"), "{status}");
    assert!(!status.contains("all ok"), "{status}");
    key(&mut a, KeyCode::Char('!'));
    let Some(opsdesk::tui::app::Overlay::Details { lines, .. }) = &a.overlay else {
        panic!("! opens the health view");
    };
    let text = lines.join("\n");
    assert!(text.contains("FAIL  provider openai"), "{text}");
    // The whole error, with the variable to set, not cut to a line.
    assert!(text.contains(&format!("why: {missing}")), "{text}");
    // The demo routes work to openai by default.
    assert_eq!(work_provider.as_deref(), Some("openai"));
    assert!(text.contains("FAIL  work → openai"), "{text}");
    assert!(!text.contains("ok    work → openai"), "{text}");
}

#[test]
fn capital_p_refuses_an_item_that_came_with_its_profile_before_asking() {
    let mut a = app(false);
    let r = a.inbox.selected().unwrap().clone();
    assert!(
        !r.profile_unclear,
        "the fixture's items came with their profile"
    );
    assert!(key(&mut a, KeyCode::Char('P')).is_empty());
    assert!(a.overlay.is_none(), "no picker for an item it would refuse");
    let (_, m) = a.message.clone().unwrap();
    assert!(
        m.contains(&format!("#{} came with profile `{}`", r.seq, r.profile)),
        "{m}"
    );
}

#[test]
fn an_error_stays_until_a_key_and_the_log_keeps_it_whole() {
    let mut a = app(false);
    a.size = (80, 24);
    let long = format!(
        "no draft made for seq 21: {}set the environment variable AZURE_OPENAI_API_KEY",
        "every provider tried failed (openai, azure); ".repeat(3)
    );
    a.update(Msg::JobDone {
        job: opsdesk::assistant::JobKind::Draft,
        result: Err(long.clone()),
    });
    // A notice arriving later does not replace the error unseen.
    a.update(Msg::Notice {
        level: opsdesk::tui::app::Level::Info,
        text: "new draft d-1 by mcp:demo-assistant".into(),
    });
    let out = render(&a);
    let line = out.lines().rev().nth(1).unwrap();
    assert!(line.contains("✗ draft: no draft made"), "{line}");
    // Cut to the width, the line says where the rest is.
    assert!(line.contains("(L: full text)"), "{line}");
    // L: every message in full, newest first.
    key(&mut a, KeyCode::Char('L'));
    let Some(opsdesk::tui::app::Overlay::Details { lines, .. }) = &a.overlay else {
        panic!("L opens the message log");
    };
    assert!(lines[0].contains("new draft d-1"), "{lines:?}");
    assert!(lines[1].ends_with(&long), "{lines:?}");
    // Closing it is a key press: the error is gone, the next notice shows.
    key(&mut a, KeyCode::Esc);
    key(&mut a, KeyCode::Char('j'));
    assert!(a.message.is_none());
    a.update(Msg::Notice {
        level: opsdesk::tui::app::Level::Info,
        text: "later".into(),
    });
    assert_eq!(a.message.clone().unwrap().1, "later");
}

#[test]
fn the_deals_pane_names_the_real_create_command_reloads_on_entry_and_lists_deals_in_the_command_line()
 {
    let mut a = app(false);
    a.update(Msg::Deals(Ok(vec![])));
    // A deal made by the CLI (another process) is read again when the pane opens.
    let fx = key(&mut a, KeyCode::Char('6'));
    assert!(fx.contains(&Effect::Req(Req::Deals)), "{fx:?}");
    let out = render(&a);
    assert!(
        out.contains("`opsdesk deals create --name NAME --profile P`"),
        "{out}"
    );
    key(&mut a, KeyCode::Char(':'));
    let out = render(&a);
    assert!(out.contains("deals"), "{out}");
    let Some(opsdesk::tui::app::Overlay::Input { title, .. }) = &a.overlay else {
        panic!(": opens the command line");
    };
    assert!(title.contains(" deals,"), "{title}");
}

#[test]
fn the_health_view_says_what_its_counts_cover() {
    let mut a = app(false);
    a.status.clients.clear();
    a.update(Msg::Engine(EngineEvent::Audited(Arc::new(audit(
        5,
        "inbox.append",
        "source:demo",
        AuditOutcome::Ok,
        "email#5",
    )))));
    let text = a.health_lines().join("\n");
    // The source's count is a running total, not the last poll's.
    assert!(
        text.contains("demo: 5 new item(s) since the console started"),
        "{text}"
    );
    assert!(text.contains("no client connected"), "{text}");
    assert!(!text.contains("client(s):"), "{text}");
    // The chain was verified through record 4; record 5 came after.
    assert!(
        text.contains("intact through record 4 (verified 2026-03-02 09:15); 1 newer record(s) not verified yet"),
        "{text}"
    );
}

#[test]
fn with_no_working_provider_the_assistant_keys_say_so_before_trying() {
    let mut a = app(false);
    let config = Config::demo();
    let mut v = view(&config, &config.llm);
    for p in v.providers.iter_mut() {
        match p.name.as_str() {
            "openai" => p.missing_credential = Some("OPENAI_API_KEY".into()),
            "azure" => p.missing_credential = Some("AZURE_OPENAI_API_KEY".into()),
            _ => {}
        }
    }
    a.update(Msg::Providers(Ok(v.clone())));
    let status = render(&a).lines().last().unwrap().to_string();
    assert!(
        status.contains("LLM key missing: azure, openai"),
        "{status}"
    );
    assert_eq!(a.inbox.selected().unwrap().profile, "work");
    // local is enabled and not known to fail: the job runs, with the plain warning first.
    let fx = key(&mut a, KeyCode::Char('a'));
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Req(Req::Job { .. }))),
        "{fx:?}"
    );
    let (_, m) = a.message.clone().unwrap();
    assert!(
        m.contains("openai (work's provider) will fail: its credential is missing: set the environment variable OPENAI_API_KEY"),
        "{m}"
    );
    // The failure refreshes the providers' health …
    let fx = a.update(Msg::JobDone {
        job: opsdesk::assistant::JobKind::Draft,
        result: Err("no draft made for seq 5: LLM call failed".into()),
    });
    assert!(fx.contains(&Effect::Req(Req::Providers)), "{fx:?}");
    // … and once every enabled provider is known to fail, `a` refuses before trying.
    for p in v.providers.iter_mut().filter(|p| p.name == "local") {
        p.last_error = Some("cannot connect to 127.0.0.1:11434".into());
    }
    a.update(Msg::Providers(Ok(v)));
    key(&mut a, KeyCode::Char('j'));
    key(&mut a, KeyCode::Char('k'));
    let fx = key(&mut a, KeyCode::Char('a'));
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Req(Req::Job { .. }))),
        "{fx:?}"
    );
    let (_, m) = a.message.clone().unwrap();
    assert!(m.contains("no working LLM provider"), "{m}");
    assert!(
        m.contains("set the environment variable OPENAI_API_KEY"),
        "{m}"
    );
    assert!(m.contains("nothing was sent"), "{m}");
}

#[test]
fn a_job_is_routed_from_the_console_after_saying_what_it_means_for_hipaa_entities() {
    let mut a = app(false);
    key(&mut a, KeyCode::Char('4'));
    let uncleared = a
        .providers
        .view
        .as_ref()
        .unwrap()
        .providers
        .iter()
        .find(|p| p.enabled && !p.hipaa_cleared)
        .map(|p| p.name.clone())
        .expect("an enabled provider that is not HIPAA-cleared");
    key(&mut a, KeyCode::Char(':'));
    for c in format!("route triage {uncleared}").chars() {
        key(&mut a, KeyCode::Char(c));
    }
    let fx = key(&mut a, KeyCode::Enter);
    assert!(fx.is_empty(), "nothing changes before the confirmation");
    let out = render(&a);
    assert!(out.contains("Route job triage?"), "{out}");
    assert!(
        out.contains("not HIPAA-cleared") && out.contains("clinic"),
        "{out}"
    );
    let fx = key(&mut a, KeyCode::Char('y'));
    assert_eq!(
        fx,
        vec![Effect::Req(Req::Submit {
            action: Action::SetJobProvider {
                job: "triage".into(),
                name: Some(uncleared.clone()),
            },
            label: format!("job triage now goes to {uncleared}"),
        })]
    );
    // A provider that does not exist is refused with the ones that do.
    key(&mut a, KeyCode::Char(':'));
    for c in "route triage nope".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    key(&mut a, KeyCode::Enter);
    assert!(a.overlay.is_none());
    assert!(a.message.clone().unwrap().1.contains("no provider `nope`"));
}
