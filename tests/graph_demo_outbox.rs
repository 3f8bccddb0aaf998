//! The demo executor behind the same adapter trait as Microsoft Graph: in the demo, an approved
//! draft is really carried out into `<data>/demo-outbox/sent.jsonl` (0600), recorded as
//! `executed` with where it went, exactly once — also when the record of the execution was lost.

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, DraftStatus, Outbound, Outcome};
use opsdesk::engine::outbound::{DemoOutbox, OutboundExecutor};
use opsdesk::engine::{Engine, Mode, executor};
use opsdesk::paths::Paths;

fn create_and_approve(engine: &Engine, body: &str) -> String {
    let Outcome::Queued {
        draft_id, digest, ..
    } = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::SendEmail {
                    to: vec!["ann@contoso.com".into()],
                    cc: vec![],
                    subject: "Numbers".into(),
                    body: body.into(),
                    attachments: Vec::new(),
                    body_html: None,
                },
                provider: None,
            },
            Actor::mcp("demo-assistant"),
        )
        .unwrap()
    else {
        panic!("not queued")
    };
    engine
        .submit(
            Action::ApproveDraft {
                id: draft_id.clone(),
                digest: Some(digest),
            },
            Actor::Cli,
        )
        .unwrap();
    draft_id
}

fn lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_demo_draft_lands_in_the_demo_outbox_once_and_is_recorded_as_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let paths = Paths::resolve(
        Some(tmp.path().to_path_buf()),
        Some(tmp.path().join("config.toml")),
    )
    .unwrap();
    let engine = Arc::new(Engine::open(paths, Config::demo(), Mode::Primary).unwrap());
    let outbox = Arc::new(DemoOutbox::new(
        tmp.path(),
        vec!["work".into(), "clinic".into()],
    ));
    let executors: Vec<Arc<dyn OutboundExecutor>> = vec![outbox.clone()];
    let file = tmp.path().join("demo-outbox/sent.jsonl");
    assert_eq!(outbox.file(), file);
    let mut retry = HashMap::new();

    let id = create_and_approve(&engine, "Q3 numbers attached.");
    executor::run_once(&engine, &executors, &mut retry).await;
    let d = engine.draft(&id).unwrap().unwrap();
    assert_eq!(d.status, DraftStatus::Executed, "{:?}", d.reason);
    assert_eq!(d.remote_id.as_deref(), Some("demo-outbox/sent.jsonl#1"));
    let sent = lines(&file);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["draft_id"], id.as_str());
    assert_eq!(sent[0]["profile"], "work");
    assert_eq!(sent[0]["kind"], "send_email");
    assert_eq!(sent[0]["to"][0], "ann@contoso.com");
    assert_eq!(sent[0]["body"], "Q3 numbers attached.");
    assert!(sent[0]["sent_at"].as_str().unwrap().ends_with('Z'));
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // Executed drafts are not carried out again.
    executor::run_once(&engine, &executors, &mut retry).await;
    assert_eq!(lines(&file).len(), 1);

    // A crash after the append, before `executed` was recorded: the outbox already holds it,
    // so the retry records it without a second copy.
    let id2 = create_and_approve(&engine, "Second.");
    let d2 = engine.draft(&id2).unwrap().unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    use std::io::Write;
    writeln!(
        f,
        "{}",
        serde_json::json!({"sent_at": "2026-11-22T07:00:00Z", "draft_id": d2.id, "profile": "work",
            "kind": "send_email", "to": ["ann@contoso.com"], "subject": "Numbers", "body": "Second."})
    )
    .unwrap();
    executor::run_once(&engine, &executors, &mut retry).await;
    let d2 = engine.draft(&id2).unwrap().unwrap();
    assert_eq!(d2.status, DraftStatus::Executed);
    assert_eq!(d2.remote_id.as_deref(), Some("demo-outbox/sent.jsonl#2"));
    assert_eq!(lines(&file).len(), 2);

    // A pending draft is not carried out.
    let Outcome::Queued { draft_id: id3, .. } = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::PostChat {
                    chat_id: "19:x".into(),
                    body: "hi".into(),
                },
                provider: None,
            },
            Actor::mcp("demo-assistant"),
        )
        .unwrap()
    else {
        panic!("not queued")
    };
    executor::run_once(&engine, &executors, &mut retry).await;
    assert_eq!(
        engine.draft(&id3).unwrap().unwrap().status,
        DraftStatus::Pending
    );
    assert_eq!(lines(&file).len(), 2);

    // The attempt and the result are audited, naming the executor and the target.
    let audit = std::fs::read_dir(tmp.path().join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect::<String>();
    assert!(audit.contains("send_email attempt via demo"));
    assert!(audit.contains("demo-outbox/sent.jsonl#1"));
}

// ---- the demo assistant's drafts ----

use opsdesk::domain::{Channel, InboxRecord, NewMessage, Party};
use opsdesk::engine::runner::{demo_assistant_reply, demo_ingest};
use opsdesk::sources::demo::Demo;
use opsdesk::store::inbox::Appended;

fn demo_engine(tmp: &tempfile::TempDir) -> Engine {
    let paths = Paths::resolve(
        Some(tmp.path().to_path_buf()),
        Some(tmp.path().join("config.toml")),
    )
    .unwrap();
    Engine::open(paths, Config::demo(), Mode::Primary).unwrap()
}

fn take_in(
    engine: &Engine,
    id: &str,
    channel: Channel,
    thread: &str,
    from: (&str, &str),
) -> InboxRecord {
    let msg = NewMessage {
        id: id.into(),
        profile: "work".into(),
        channel,
        thread_id: Some(thread.into()),
        from: Party::new(from.0, from.1),
        to: vec![Party::new("Alex Kim", "alex.kim@contoso.com")],
        subject: (channel == Channel::Email).then(|| "Release".to_string()),
        ts: opsdesk::domain::now(),
        body: "Is the hotfix in?".into(),
        html: false,
        meta: Default::default(),
        attachments: Vec::new(),
    };
    match engine.ingest(msg, "demo").unwrap() {
        Appended::New(rec) => *rec,
        Appended::Duplicate { .. } => panic!("{id} taken in twice"),
    }
}

fn assistant_drafts(engine: &Engine) -> Vec<opsdesk::domain::Draft> {
    engine
        .draft_queue()
        .unwrap()
        .drafts
        .into_iter()
        .filter(|d| d.created_by.to_string() == "mcp:demo-assistant")
        .collect()
}

#[test]
fn the_demo_assistant_never_drafts_a_reply_to_a_no_reply_sender() {
    let tmp = tempfile::tempdir().unwrap();
    let engine = demo_engine(&tmp);
    for (i, addr) in [
        "ci-noreply@contoso.com",
        "hr-no-reply@contoso.com",
        "DoNotReply@fabrikam.com",
        "notifications@github.com",
        "mailer-daemon@contoso.com",
    ]
    .iter()
    .enumerate()
    {
        let rec = take_in(
            &engine,
            &format!("bot-{i}"),
            Channel::Email,
            &format!("conv-bot-{i}"),
            ("Robot", addr),
        );
        assert_eq!(demo_assistant_reply(&engine, &rec).unwrap(), None, "{addr}");
    }
    assert!(assistant_drafts(&engine).is_empty());

    // A person still gets an answer.
    let rec = take_in(
        &engine,
        "ann-1",
        Channel::Email,
        "conv-ann",
        ("Ann Lee", "ann@contoso.com"),
    );
    assert!(matches!(
        demo_assistant_reply(&engine, &rec).unwrap(),
        Some(Outcome::Queued { .. })
    ));
}

#[test]
fn the_demo_assistant_queues_one_pending_reply_per_chat_or_thread_and_answers_again_once_it_is_decided()
 {
    let tmp = tempfile::tempdir().unwrap();
    let engine = demo_engine(&tmp);
    let sam = ("Sam Rivera", "sam.rivera@contoso.com");
    let chat = "19:platform-team@thread.v2";

    let first = take_in(&engine, "chat-1", Channel::Teams, chat, sam);
    let Some(Outcome::Queued { draft_id, .. }) = demo_assistant_reply(&engine, &first).unwrap()
    else {
        panic!("the first chat message is answered")
    };
    // Sam writes twice more in the same chat while the answer waits for the operator.
    for id in ["chat-2", "chat-3"] {
        let rec = take_in(&engine, id, Channel::Teams, chat, sam);
        assert_eq!(demo_assistant_reply(&engine, &rec).unwrap(), None, "{id}");
    }
    // The same message asked about again.
    assert_eq!(demo_assistant_reply(&engine, &first).unwrap(), None);
    // Another chat is its own conversation.
    let other = take_in(&engine, "chat-x", Channel::Teams, "19:other@thread.v2", sam);
    assert!(demo_assistant_reply(&engine, &other).unwrap().is_some());

    // Mail: a second message of the thread waits for the pending reply to the first.
    let m1 = take_in(&engine, "mail-1", Channel::Email, "conv-release", sam);
    let m2 = take_in(&engine, "mail-2", Channel::Email, "conv-release", sam);
    assert!(demo_assistant_reply(&engine, &m1).unwrap().is_some());
    assert_eq!(demo_assistant_reply(&engine, &m2).unwrap(), None);
    assert_eq!(assistant_drafts(&engine).len(), 3);

    // Once the operator has decided the chat's draft, a new message there is answered again.
    engine
        .submit(
            Action::RejectDraft {
                id: draft_id,
                reason: "not now".into(),
            },
            Actor::Cli,
        )
        .unwrap();
    let later = take_in(&engine, "chat-4", Channel::Teams, chat, sam);
    assert!(demo_assistant_reply(&engine, &later).unwrap().is_some());
}

#[test]
fn two_rounds_of_the_demo_script_leave_no_duplicate_pending_drafts_and_none_to_a_robot() {
    let tmp = tempfile::tempdir().unwrap();
    let engine = demo_engine(&tmp);
    let mut demo = Demo::new(vec!["work".into(), "clinic".into()], "t1");
    let now = opsdesk::domain::now();
    let mut n = 0;
    demo_ingest(&engine, demo.initial_burst(now), &mut n).unwrap();
    // Far more batches than the script has items, so every item is met at every third count.
    for i in 0..120 {
        let at = now + time::Duration::minutes(i);
        demo_ingest(&engine, demo.next_batch(at), &mut n).unwrap();
    }
    let drafts = assistant_drafts(&engine);
    assert!(!drafts.is_empty(), "the demo shows at least one draft");
    let mut targets = std::collections::HashSet::new();
    for d in &drafts {
        let (target, to) = match &d.outbound {
            Outbound::PostChat { chat_id, .. } => (chat_id.clone(), Vec::new()),
            Outbound::ReplyEmail { message_id, to, .. } => {
                let thread = engine
                    .inbox_record_by_id(message_id)
                    .unwrap()
                    .unwrap()
                    .thread_id
                    .unwrap_or_else(|| message_id.clone());
                (thread, to.clone())
            }
            other => panic!("unexpected draft {other:?}"),
        };
        for addr in &to {
            assert!(
                !opsdesk::brief::is_automated_sender(addr),
                "a draft to {addr}"
            );
        }
        if d.status == DraftStatus::Pending {
            assert!(
                targets.insert(target.clone()),
                "two pending drafts answer {target}"
            );
        }
    }
}
