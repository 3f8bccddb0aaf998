//! The Graph pollers and the executor inside a real engine (library level, fake Graph on
//! loopback): the circuit breaker opens and stops the calls; approved drafts are sent exactly
//! once, also across a crash at any point of the send protocol; nothing unapproved is sent.

mod graph_support;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use graph_support::{CLIENT_ID, Chat, ChatMsg, Fake, RemoteDraft};
use opsdesk::config::{Config, SourceKind};
use opsdesk::domain::{Action, Actor, DraftStatus, NewMessage, Outbound, Outcome};
use opsdesk::engine::{Engine, Mode, executor};
use opsdesk::paths::Paths;
use opsdesk::sources::graph::auth::{TokenFile, TokenStore};
use opsdesk::sources::graph::mail::MailSync;
use opsdesk::sources::graph::run::{Schedule, spawn_source};
use opsdesk::sources::graph::{Account, Deliver};
use tokio_util::sync::CancellationToken;

fn config(fake: &Fake) -> Config {
    let text = format!(
        r#"
[profiles.work]
sources = ["graph_mail"]
email_domains = ["contoso.com"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
time_zone = "UTC"
authority_url = "{}"
base_url = "{}"
"#,
        fake.authority(),
        fake.graph_base()
    );
    Config::from_toml_str(&text, Path::new("test.toml")).unwrap()
}

fn engine(fake: &Fake, dir: &Path) -> Arc<Engine> {
    let paths = Paths::resolve(Some(dir.to_path_buf()), Some(dir.join("config.toml"))).unwrap();
    Arc::new(Engine::open(paths, config(fake), Mode::Primary).unwrap())
}

fn account(fake: &Fake, data_dir: &Path, retries: u32) -> Arc<Account> {
    let g = config(fake).profiles["work"].graph.clone().unwrap();
    let mut client = graph_support::signed_in(fake, &g, data_dir, &[], &["offline_access"]);
    client.get_retries = retries;
    graph_support::account(client, data_dir, "UTC")
}

async fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_circuit_opens_after_repeated_failures_and_stops_calling() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    fake.with(|s| s.fail(None, "/delta", 500, None, 10_000));
    let stop = CancellationToken::new();
    let task = spawn_source(
        engine.clone(),
        acct,
        SourceKind::GraphMail,
        Schedule {
            every: Duration::from_millis(10),
            breaker_threshold: 3,
            breaker_cool_off: Duration::from_secs(3600),
        },
        stop.clone(),
    )
    .unwrap();
    wait_for("the circuit to open", || {
        engine.health().iter().any(|h| {
            h.name == "graph_mail:work"
                && h.last_error
                    .as_deref()
                    .is_some_and(|e| e.contains("circuit open"))
        })
    })
    .await;
    let calls = fake.with(|s| s.count("GET", "/delta"));
    assert_eq!(calls, 3, "three failures open the circuit");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        fake.with(|s| s.count("GET", "/delta")),
        calls,
        "no calls while open"
    );
    let h = std::fs::read_to_string(tmp.path().join("graph/work/health-graph_mail.json")).unwrap();
    assert!(
        h.contains("\"ok\": false") && h.contains("circuit open"),
        "{h}"
    );
    stop.cancel();
    task.await.unwrap();
}

/// A Graph mail in the inbox of `work` (through the real poller and the engine's ingestion).
async fn ingest_mail(
    fake: &Fake,
    engine: &Arc<Engine>,
    acct: &Arc<Account>,
    subject: &str,
) -> String {
    let id = fake.with(|s| s.add_mail(subject, "ann@fabrikam.com", "<p>please confirm</p>"));
    let e = engine.clone();
    let deliver: Deliver = Arc::new(move |m: NewMessage| {
        Ok(matches!(
            e.ingest(m, "test")?,
            opsdesk::store::inbox::Appended::New(_)
        ))
    });
    MailSync::new(acct.clone())
        .poll_once(&deliver)
        .await
        .unwrap();
    id
}

fn reply_draft(engine: &Engine, message_id: &str, body: &str) -> (String, String) {
    match engine
        .submit(
            Action::DraftReply {
                message_id: message_id.into(),
                body: body.into(),
                attachments: Vec::new(),
                body_html: None,
            },
            Actor::mcp("test-client"),
        )
        .unwrap()
    {
        Outcome::Queued {
            draft_id, digest, ..
        } => (draft_id, digest),
        other => panic!("not queued: {other:?}"),
    }
}

fn approve(engine: &Engine, id: &str, digest: &str) {
    engine
        .submit(
            Action::ApproveDraft {
                id: id.into(),
                digest: Some(digest.into()),
            },
            Actor::Cli,
        )
        .unwrap();
}

fn status(engine: &Engine, id: &str) -> (DraftStatus, Option<String>, Option<String>) {
    let d = engine.draft(id).unwrap().unwrap();
    (d.status, d.remote_id, d.reason)
}

fn write_marker(data_dir: &Path, draft_id: &str, digest: &str, remote: &str, stage: &str) {
    let dir = data_dir.join("graph/work/outbox");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("{draft_id}.json")),
        serde_json::json!({
            "draft_id": draft_id, "digest": digest, "kind": "reply_email",
            "remote_id": remote, "stage": stage, "started_at": "2026-11-22T07:00:00Z"
        })
        .to_string(),
    )
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approved_replies_are_sent_exactly_once_even_across_crashes() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();

    // Pending (not approved): nothing happens.
    let m1 = ingest_mail(&fake, &engine, &acct, "Budget").await;
    let (d1, g1) = reply_draft(&engine, &m1, "Confirmed, thanks.");
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    fake.with(|s| assert_eq!(s.count("POST", "/me/messages"), 0));

    // Approved: createReply, PATCH to the approved text, send (202), executed with the id.
    approve(&engine, &d1, &g1);
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, remote, _) = status(&engine, &d1);
    assert_eq!(st, DraftStatus::Executed);
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1);
        assert_eq!(s.sent[0].body, "Confirmed, thanks.");
        assert_eq!(s.sent[0].subject, "Re: Budget");
        assert_eq!(s.sent[0].reply_to.as_deref(), Some(m1.as_str()));
        assert_eq!(remote.as_deref(), Some(s.sent[0].id.as_str()));
        assert_eq!(s.count("POST", "/createReply"), 1);
    });
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    fake.with(|s| assert_eq!(s.sent.len(), 1, "executed drafts are not sent again"));

    // Crash after send, before `executed` was recorded: the marker's remote message is no
    // longer a draft → recorded as executed, not sent again.
    let m2 = ingest_mail(&fake, &engine, &acct, "Offsite").await;
    let (d2, g2) = reply_draft(&engine, &m2, "Yes.");
    approve(&engine, &d2, &g2);
    fake.with(|s| {
        s.drafts.insert(
            "AAMkSentBeforeCrash".into(),
            RemoteDraft {
                id: "AAMkSentBeforeCrash".into(),
                folder: "sentitems".into(),
                send_id: Some(d2.clone()),
                subject: "Re: Offsite".into(),
                to: vec![],
                body: "Yes.".into(),
                reply_to: Some(m2.clone()),
            },
        );
    });
    write_marker(tmp.path(), &d2, &g2, "AAMkSentBeforeCrash", "sending");
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(
        status(&engine, &d2).1.as_deref(),
        Some("AAMkSentBeforeCrash")
    );
    fake.with(|s| assert_eq!(s.sent.len(), 1, "no second send"));

    // Crash after the remote draft was created, before send: it is still a draft → sent once.
    let m3 = ingest_mail(&fake, &engine, &acct, "Lunch").await;
    let (d3, g3) = reply_draft(&engine, &m3, "Noon works.");
    approve(&engine, &d3, &g3);
    fake.with(|s| {
        s.drafts.insert(
            "AAMkCreatedBeforeCrash".into(),
            RemoteDraft {
                id: "AAMkCreatedBeforeCrash".into(),
                folder: "drafts".into(),
                send_id: None,
                subject: "RE: Lunch".into(),
                to: vec!["ann@fabrikam.com".into()],
                body: "quoted".into(),
                reply_to: Some(m3.clone()),
            },
        );
    });
    write_marker(tmp.path(), &d3, &g3, "AAMkCreatedBeforeCrash", "created");
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(status(&engine, &d3).0, DraftStatus::Executed);
    fake.with(|s| {
        assert_eq!(s.sent.len(), 2);
        assert_eq!(s.sent[1].id, "AAMkCreatedBeforeCrash");
        assert_eq!(s.sent[1].body, "Noon works.");
        assert_eq!(
            s.count("POST", "/createReply"),
            1,
            "the existing remote draft was reused"
        );
    });

    // The remote draft vanished: outcome unknown → failed, never re-sent blindly.
    let m4 = ingest_mail(&fake, &engine, &acct, "Invoice").await;
    let (d4, g4) = reply_draft(&engine, &m4, "Paid.");
    approve(&engine, &d4, &g4);
    write_marker(tmp.path(), &d4, &g4, "AAMkGone", "sending");
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, _, reason) = status(&engine, &d4);
    assert_eq!(st, DraftStatus::Failed);
    assert!(reason.unwrap().contains("outcome unknown"));
    fake.with(|s| assert_eq!(s.sent.len(), 2));

    // Every execution is audited, without bodies.
    let audit = std::fs::read_dir(tmp.path().join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(audit.contains("draft.execute"));
    assert!(!audit.contains("Noon works."));
    assert!(!audit.contains("at-"), "no access token in the audit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_send_is_retryable_and_an_edit_after_approval_sends_nothing() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();

    let m = ingest_mail(&fake, &engine, &acct, "Status").await;
    let (d, g) = reply_draft(&engine, &m, "All green.");
    approve(&engine, &d, &g);
    fake.with(|s| s.fail(Some(axum::http::Method::POST), "/send", 503, None, 1));
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, _, reason) = status(&engine, &d);
    assert_eq!(st, DraftStatus::Failed, "{reason:?}");
    assert!(
        engine.draft(&d).unwrap().unwrap().approval_holds(),
        "still approved"
    );
    fake.with(|s| assert_eq!(s.sent.len(), 0));
    // A 5xx on /send is ambiguous: right after it, a message still in Drafts may yet be moved
    // out by the service, so an immediate retry sends nothing.
    retry.clear();
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, _, reason) = status(&engine, &d);
    assert_eq!(st, DraftStatus::Failed);
    assert!(reason.unwrap().contains("not known yet"));
    fake.with(|s| assert_eq!(s.sent.len(), 0));
    // Minutes later it is still in Drafts and not in Sent Items: not sent, so it is sent now.
    let marker = tmp.path().join(format!("graph/work/outbox/{d}.json"));
    let mut m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&marker).unwrap()).unwrap();
    assert_eq!(m["stage"], "sending");
    m["started_at"] = "2026-11-22T07:00:00Z".into();
    std::fs::write(&marker, m.to_string()).unwrap();
    retry.clear(); // the retry is due
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(status(&engine, &d).0, DraftStatus::Executed);
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1);
        assert_eq!(
            s.count("POST", "/createReply"),
            1,
            "the retry reused the remote draft"
        );
    });

    // Edited after approval: the approval no longer holds, nothing is sent.
    let m2 = ingest_mail(&fake, &engine, &acct, "Plan").await;
    let (d2, g2) = reply_draft(&engine, &m2, "v1");
    approve(&engine, &d2, &g2);
    let draft = engine.draft(&d2).unwrap().unwrap();
    let Outbound::ReplyEmail {
        message_id,
        to,
        subject,
        ..
    } = draft.outbound
    else {
        panic!()
    };
    engine
        .submit(
            Action::EditDraft {
                id: d2.clone(),
                outbound: Outbound::ReplyEmail {
                    message_id,
                    to,
                    subject,
                    body: "v2".into(),
                    attachments: Vec::new(),
                    body_html: None,
                },
            },
            Actor::Cli,
        )
        .unwrap();
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(status(&engine, &d2).0, DraftStatus::Pending);
    fake.with(|s| assert_eq!(s.sent.len(), 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_posts_and_events_are_executed_once() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();
    fake.with(|s| {
        s.chats.push(Chat {
            id: "19:abc@thread.v2".into(),
            messages: vec![ChatMsg {
                id: "1".into(),
                created: "2026-11-22T07:00:00Z".into(),
                modified: None,
                edited: None,
                from_id: "user-ann".into(),
                from_name: "Ann".into(),
                body: "hi".into(),
                message_type: "message".into(),
                attachments: Vec::new(),
            }],
        })
    });
    let create = |outbound: Outbound| match engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound,
                provider: None,
            },
            Actor::mcp("test-client"),
        )
        .unwrap()
    {
        Outcome::Queued {
            draft_id, digest, ..
        } => (draft_id, digest),
        other => panic!("{other:?}"),
    };
    let (c, cg) = create(Outbound::PostChat {
        chat_id: "19:abc@thread.v2".into(),
        body: "On it.".into(),
    });
    let start = time::OffsetDateTime::now_utc() + time::Duration::days(1);
    let (e, eg) = create(Outbound::CreateEvent {
        subject: "Sync".into(),
        start,
        end: start + time::Duration::minutes(30),
        attendees: vec!["bob@contoso.com".into()],
        location: None,
        body: String::new(),
    });
    approve(&engine, &c, &cg);
    approve(&engine, &e, &eg);
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(status(&engine, &c).0, DraftStatus::Executed);
    assert_eq!(status(&engine, &e).0, DraftStatus::Executed);
    fake.with(|s| {
        assert_eq!(s.count("POST", "/chats/19:abc@thread.v2/messages"), 1);
        assert_eq!(s.chats[0].messages.last().unwrap().body, "On it.");
        assert_eq!(s.created_events.len(), 1);
        assert_eq!(s.created_events[0]["transactionId"], e.as_str());
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_profiles_polled_at_once_stay_separate() {
    let work_fake = Fake::start().await;
    let clinic_fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let text = format!(
        r#"
[profiles.work]
sources = ["graph_mail"]
never_mix_with = ["clinic"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
authority_url = "{}"
base_url = "{}"
[profiles.clinic]
sources = ["graph_mail"]
[profiles.clinic.graph]
client_id = "{CLIENT_ID}"
authority_url = "{}"
base_url = "{}"
"#,
        work_fake.authority(),
        work_fake.graph_base(),
        clinic_fake.authority(),
        clinic_fake.graph_base()
    );
    let cfg = Config::from_toml_str(&text, Path::new("two.toml")).unwrap();
    let paths = Paths::resolve(
        Some(tmp.path().to_path_buf()),
        Some(tmp.path().join("config.toml")),
    )
    .unwrap();
    let engine = Arc::new(Engine::open(paths, cfg.clone(), Mode::Primary).unwrap());
    let store = TokenStore::new(tmp.path().join("tokens"));
    for (name, fake) in [("work", &work_fake), ("clinic", &clinic_fake)] {
        let rt = fake.with(|s| s.issue_refresh_token());
        store
            .save(
                name,
                &TokenFile {
                    refresh_token: rt,
                    tenant: "organizations".into(),
                    client_id: CLIENT_ID.into(),
                    scopes: vec![],
                    saved_at: time::OffsetDateTime::now_utc(),
                },
            )
            .unwrap();
    }
    let w = work_fake.with(|s| s.add_mail("work item", "ann@contoso.com", "w"));
    let c = clinic_fake.with(|s| s.add_mail("clinic item", "dr@clinic.org", "c"));
    let accounts = opsdesk::sources::graph::accounts(&cfg, tmp.path());
    let stop = CancellationToken::new();
    let tasks = opsdesk::sources::graph::run::spawn_all(
        engine.clone(),
        engine.config(),
        &accounts,
        stop.clone(),
    );
    assert_eq!(tasks.len(), 2);
    wait_for("both items", || {
        engine.inbox_record_by_id(&w).unwrap().is_some()
            && engine.inbox_record_by_id(&c).unwrap().is_some()
    })
    .await;
    assert_eq!(
        engine.inbox_record_by_id(&w).unwrap().unwrap().profile,
        "work"
    );
    assert_eq!(
        engine.inbox_record_by_id(&c).unwrap().unwrap().profile,
        "clinic"
    );
    // Each account used its own service and its own token; state and health are per profile.
    assert!(work_fake.with(|s| s.count("GET", "/delta")) > 0);
    assert!(clinic_fake.with(|s| s.count("GET", "/delta")) > 0);
    // (The delta link is saved after the items are durable, so it may trail them a moment.)
    wait_for("per-profile sync state", || {
        tmp.path().join("graph/work/mail.json").exists()
            && tmp.path().join("graph/clinic/mail.json").exists()
    })
    .await;
    wait_for("health of both", || {
        let names: Vec<String> = engine.health().into_iter().map(|h| h.name).collect();
        names.contains(&"graph_mail:work".to_string())
            && names.contains(&"graph_mail:clinic".to_string())
    })
    .await;
    let audit: String = std::fs::read_dir(tmp.path().join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let appends: Vec<&str> = audit
        .lines()
        .filter(|l| l.contains("inbox.append"))
        .collect();
    assert!(
        appends
            .iter()
            .any(|l| l.contains("\"entity\":\"work\"") && l.contains("source:graph_mail:work"))
    );
    assert!(
        appends
            .iter()
            .any(|l| l.contains("\"entity\":\"clinic\"") && l.contains("source:graph_mail:clinic"))
    );
    stop.cancel();
    for t in tasks {
        t.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_login_shows_in_source_health_with_its_fix() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    fake.with(|s| s.refresh_tokens.clear());
    let stop = CancellationToken::new();
    let task = spawn_source(
        engine.clone(),
        acct,
        SourceKind::GraphMail,
        Schedule::every(Duration::from_secs(3600)),
        stop.clone(),
    )
    .unwrap();
    wait_for("the failure in health", || {
        engine.health().iter().any(|h| {
            h.name == "graph_mail:work"
                && !h.ok
                && h.last_error
                    .as_deref()
                    .is_some_and(|e| e.contains("run `opsdesk login work`"))
        })
    })
    .await;
    stop.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_with_an_unknown_outcome_is_looked_up_in_sent_items_by_its_send_id_never_resent() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();

    // The service accepts the send (the message goes to the Outbox), then answers 500.
    fake.with(|s| {
        s.send_via_outbox = true;
        s.fail(Some(axum::http::Method::POST), "/send", 500, None, 1);
        s.faults.last_mut().unwrap().after_acting = true;
    });
    let m = ingest_mail(&fake, &engine, &acct, "Quarter close").await;
    let (d, g) = reply_draft(&engine, &m, "Closed.");
    approve(&engine, &d, &g);
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(status(&engine, &d).0, DraftStatus::Failed);
    fake.with(|s| assert_eq!(s.sent.len(), 1, "it did go out"));

    // Long after: the message sits in the Outbox, where (undocumented) it may still read as
    // a draft. It is in neither Drafts nor Sent Items, so the outcome is unknown: not re-sent.
    let marker = tmp.path().join(format!("graph/work/outbox/{d}.json"));
    let mut mk: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&marker).unwrap()).unwrap();
    mk["started_at"] = "2026-11-22T07:00:00Z".into();
    std::fs::write(&marker, mk.to_string()).unwrap();
    retry.clear();
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, _, reason) = status(&engine, &d);
    assert_eq!(st, DraftStatus::Failed);
    assert!(reason.unwrap().contains("outcome unknown"));
    fake.with(|s| assert_eq!(s.sent.len(), 1, "never sent twice"));

    // Once delivered it is in Sent Items, found by the send-id property: executed.
    fake.with(|s| s.deliver_outbox());
    retry.clear();
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, remote, _) = status(&engine, &d);
    assert_eq!(st, DraftStatus::Executed);
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1);
        assert_eq!(remote.as_deref(), Some(s.sent[0].id.as_str()));
        let remote_msg = &s.drafts[&s.sent[0].id];
        assert_eq!(
            remote_msg.send_id.as_deref(),
            Some(d.as_str()),
            "marked with the draft id"
        );
        // The lookup used the documented extended-property filter on Sent Items.
        assert!(s.requests.iter().any(|r| {
            r.path.ends_with("/mailFolders/sentitems/messages")
                && r.query
                    .contains("singleValueExtendedProperties/Any(ep: ep/id eq 'String {")
                && r.query.contains("Name OpsdeskSendId' and ep/value eq '")
        }));
        // Every request that reads or writes stored mail ids asked for immutable ids.
        for r in s
            .requests
            .iter()
            .filter(|r| r.path.contains("/me/messages") || r.path.contains("/mailFolders"))
        {
            assert!(
                r.prefer.contains("IdType=\"ImmutableId\""),
                "{} {}",
                r.method,
                r.path
            );
        }
    });
}

/// The Graph executor of `accounts`, as the engine runs it.
fn graph_out(
    accounts: &BTreeMap<String, Arc<Account>>,
) -> Vec<Arc<dyn opsdesk::engine::outbound::OutboundExecutor>> {
    vec![Arc::new(
        opsdesk::sources::graph::outbound::GraphOutbound::new(accounts.clone()),
    )]
}

/// `draft_email` with `body_html` (issue 14): what goes over the wire is the sanitized HTML the
/// operator approved, as `contentType: HTML` — no script, no event handler, no `javascript:`
/// link — for a new mail and for a reply (whose createReply draft is overwritten with it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_html_mail_goes_out_as_the_sanitized_html_that_was_approved() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();
    let hostile = r#"<p onmouseover="steal()">Hi <b>Ann</b>,</p><script>fetch('https://evil.example')</script><a href="javascript:alert(1)">click</a> <a href="https://contoso.com/q3" onclick="x()">the Q3 report</a><img src="https://tracker.example/p.gif">"#;
    let queued = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::SendEmail {
                    to: vec!["ann@fabrikam.com".into()],
                    cc: vec![],
                    subject: "Q3".into(),
                    body: String::new(),
                    attachments: Vec::new(),
                    body_html: Some(hostile.into()),
                },
                provider: None,
            },
            Actor::mcp("test-client"),
        )
        .unwrap();
    let Outcome::Queued {
        draft_id, digest, ..
    } = queued
    else {
        panic!("not queued: {queued:?}")
    };
    // What the operator reviews: the text rendering, with the link's address shown.
    let draft = engine.draft(&draft_id).unwrap().unwrap();
    assert!(draft.outbound.body().contains("Hi Ann,"), "{draft:?}");
    assert!(draft.outbound.body().contains("https://contoso.com/q3"));
    let html = draft.outbound.body_html().unwrap().to_string();
    // The digest binds exactly the sanitized HTML that is stored (and sent).
    assert_eq!(
        digest,
        opsdesk::domain::content_digest("work", &draft.outbound)
    );
    approve(&engine, &draft_id, &digest);

    let m = ingest_mail(&fake, &engine, &acct, "Menu").await;
    let reply = engine
        .submit(
            Action::DraftReply {
                message_id: m.clone(),
                body: String::new(),
                attachments: Vec::new(),
                body_html: Some("<p>Fish, <i>please</i>.</p><svg onload=alert(1)></svg>".into()),
            },
            Actor::mcp("test-client"),
        )
        .unwrap();
    let Outcome::Queued {
        draft_id: r,
        digest: rg,
        ..
    } = reply
    else {
        panic!("not queued: {reply:?}")
    };
    approve(&engine, &r, &rg);
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    assert_eq!(status(&engine, &draft_id).0, DraftStatus::Executed);
    assert_eq!(status(&engine, &r).0, DraftStatus::Executed);
    fake.with(|s| {
        assert_eq!(s.sent.len(), 2);
        for sent in &s.sent {
            assert_eq!(sent.content_type, "HTML", "{sent:?}");
            let b = sent.body.to_ascii_lowercase();
            assert!(!b.contains("<script") && !b.contains("evil.example"), "{b}");
            assert!(!b.contains("javascript:"), "{b}");
            assert!(
                !b.contains("onmouseover") && !b.contains("onclick") && !b.contains("onload"),
                "{b}"
            );
            assert!(!b.contains("<img") && !b.contains("<svg"), "{b}");
        }
        let new = s.sent.iter().find(|x| x.reply_to.is_none()).unwrap();
        assert_eq!(new.body, html, "exactly the approved bytes");
        assert!(new.body.contains("<b>Ann</b>") && new.body.contains("https://contoso.com/q3"));
        let re = s.sent.iter().find(|x| x.reply_to.is_some()).unwrap();
        assert!(
            re.body.contains("<i>please</i>") && !re.body.contains("<quoted>"),
            "{re:?}"
        );
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_whose_attachments_cannot_be_listed_comes_in_without_them_and_the_sync_goes_on() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let (locked, gone, fine) = fake.with(|s| {
        let locked = s.add_mail("Protected", "ann@fabrikam.com", "<p>see attached</p>");
        s.add_file_attachment(&locked, "a.pdf", "application/pdf", b"%PDF-1.4", false);
        let gone = s.add_mail("Gone", "bob@fabrikam.com", "<p>see attached</p>");
        s.add_file_attachment(&gone, "b.pdf", "application/pdf", b"%PDF-1.4", false);
        let fine = s.add_mail("Fine", "cy@fabrikam.com", "<p>see attached</p>");
        s.add_file_attachment(&fine, "c.pdf", "application/pdf", b"%PDF-1.4", false);
        // "List attachments" refuses one message, and another is gone by the time it is asked.
        s.fail_code(
            &format!("/messages/{locked}/attachments"),
            403,
            "ErrorAccessDenied",
            10,
        );
        s.fail_code(
            &format!("/messages/{gone}/attachments"),
            404,
            "ErrorItemNotFound",
            10,
        );
        (locked, gone, fine)
    });
    let e = engine.clone();
    let deliver: Deliver = Arc::new(move |m: NewMessage| {
        Ok(matches!(
            e.ingest(m, "test")?,
            opsdesk::store::inbox::Appended::New(_)
        ))
    });
    use opsdesk::sources::poller::SourceHost;
    let host: Arc<dyn SourceHost> = engine.clone();
    let r = MailSync::new(acct.clone())
        .with_attachments(engine.attachment_store().unwrap(), host)
        .poll_once(&deliver)
        .await
        .unwrap();
    assert_eq!(r.new, 3, "{r:?}");
    for (id, status) in [(&locked, 403), (&gone, 404)] {
        let rec = engine.inbox_record_by_id(id).unwrap().unwrap();
        assert!(rec.attachments.is_empty());
        assert_eq!(
            rec.meta["attachments_unavailable"], status,
            "{:?}",
            rec.meta
        );
    }
    let rec = engine.inbox_record_by_id(&fine).unwrap().unwrap();
    assert_eq!(rec.attachments.len(), 1);
    assert!(!rec.meta.contains_key("attachments_unavailable"));
    let state = std::fs::read_to_string(tmp.path().join("graph/work/mail.json")).unwrap();
    assert!(
        state.contains("$deltatoken="),
        "the deltaLink is saved: {state}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_to_a_message_gone_from_the_mailbox_fails_once_and_is_not_retried() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();
    let m = ingest_mail(&fake, &engine, &acct, "Deleted soon").await;
    // Deleted in Outlook before the reply goes out: createReply answers 404 ErrorItemNotFound.
    fake.with(|s| s.remove_mail(&m));
    let (d, g) = reply_draft(&engine, &m, "Thanks.");
    approve(&engine, &d, &g);
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    let (st, _, reason) = status(&engine, &d);
    assert_eq!(st, DraftStatus::Failed);
    let reason = reason.unwrap();
    assert!(
        reason.starts_with("not retried: ") && reason.contains("404"),
        "{reason}"
    );
    retry.clear();
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    fake.with(|s| {
        assert_eq!(s.count("POST", "/createReply"), 1, "not retried");
        assert!(s.sent.is_empty());
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_goes_to_the_reply_to_recipients_a_message_names() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let engine = engine(&fake, tmp.path());
    let acct = account(&fake, tmp.path(), 0);
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let mut retry = HashMap::new();
    // A mailing list's message: from a member, replies to the list (createReply's rule).
    fake.with(|s| {
        s.add_mail("Agenda", "ann@fabrikam.com", "<p>thoughts?</p>");
        s.inbox.last_mut().unwrap().reply_to = vec!["team-list@fabrikam.com".into()];
    });
    let m = ingest_mail(&fake, &engine, &acct, "Plain").await;
    let listed = fake.with(|s| s.inbox[0].id.clone());
    let (d, g) = reply_draft(&engine, &listed, "Looks good.");
    let Outbound::ReplyEmail { to, .. } = engine.draft(&d).unwrap().unwrap().outbound else {
        panic!("not a reply");
    };
    assert_eq!(to, vec!["team-list@fabrikam.com"]);
    approve(&engine, &d, &g);
    executor::run_once(&engine, &graph_out(&accounts), &mut retry).await;
    fake.with(|s| assert_eq!(s.sent[0].to, vec!["team-list@fabrikam.com"]));
    // A message that names no replyTo is answered to its sender.
    let (d2, _) = reply_draft(&engine, &m, "Noted.");
    let Outbound::ReplyEmail { to, .. } = engine.draft(&d2).unwrap().unwrap().outbound else {
        panic!("not a reply");
    };
    assert_eq!(to, vec!["ann@fabrikam.com"]);
}
