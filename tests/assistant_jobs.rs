//! The assistant's jobs (triage, deadlines, reply drafts) through the engine, the real router,
//! the audit trail and the stores, against the recording fake provider: the exact wire shape,
//! the fallbacks on bad answers, hard bans on outputs, HIPAA and redaction on every hop,
//! cancellation and the CLI.

mod llm_support;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use llm_support::*;
use opsdesk::assistant::triage::{Category, DecidedBy, Urgency};
use opsdesk::config::Config;
use opsdesk::domain::{Actor, Channel, DraftStatus, NewMessage, Outbound, Outcome, Party};
use opsdesk::engine::jobs::JobState;
use opsdesk::engine::{Engine, JobError};
use serde_json::{Value, json};
use time::OffsetDateTime;

const CHAT: &str = "/chat/completions";

fn config_text(url: &str, cleared: bool) -> String {
    format!(
        r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]

[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
requires_hipaa = true
phi_names = ["Maria Lopez"]

[hard_bans]
blocked_phrases = ["wire the funds"]

[llm]
default = "local"

[llm.providers.local]
enabled = true
endpoint = "{url}/v1"
model = "fake-model"
hipaa_cleared = {cleared}
"#
    )
}

fn msg(id: &str, profile: &str, channel: Channel, subject: &str, body: &str) -> NewMessage {
    NewMessage {
        id: id.into(),
        profile: profile.into(),
        channel,
        thread_id: None,
        from: Party::new("Mei Chen", "mei.chen@contoso.com"),
        to: vec![Party::new("Alex Morgan", "alex.morgan@contoso.com")],
        subject: Some(subject.into()),
        ts: OffsetDateTime::now_utc(),
        body: body.into(),
        html: false,
        meta: BTreeMap::new(),
        attachments: Vec::new(),
    }
}

fn ingest(engine: &Engine, m: NewMessage) -> u64 {
    match engine.ingest(m, "test").unwrap() {
        opsdesk::store::inbox::Appended::New(r) => r.seq,
        other => panic!("{other:?}"),
    }
}

/// A whole (non-streamed) chat completion whose content is `content`.
fn completion(content: &str) -> Reply {
    let body = json!({
        "id": "c1", "object": "chat.completion", "created": 1, "model": "fake-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}
    });
    Reply::Whole(200, vec![], body.to_string())
}

fn bodies(fake: &Fake) -> Vec<Value> {
    fake.posts()
        .iter()
        .map(|r| serde_json::from_str(&r.body).unwrap())
        .collect()
}

#[tokio::test]
async fn triage_asks_the_model_only_when_the_rules_are_unsure_and_keeps_a_schema_valid_answer() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(
            r#"{"category":"decision","urgency":"high","reason":"asks to choose a vendor"}"#,
        )],
    );
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let meeting = ingest(
        &engine,
        msg("m1", "work", Channel::Calendar, "Standup", "Daily standup"),
    );
    let vendor = ingest(
        &engine,
        msg(
            "m2",
            "work",
            Channel::Email,
            "Vendor",
            "Which of the two vendors do we take?",
        ),
    );

    let t = engine
        .triage_item(meeting, &Actor::Cli, true)
        .await
        .unwrap();
    assert_eq!((t.category, t.by), (Category::Meeting, DecidedBy::Rule));
    assert!(fake.posts().is_empty(), "a sure rule result asks no model");

    let t = engine.triage_item(vendor, &Actor::Cli, true).await.unwrap();
    assert_eq!(
        (t.category, t.urgency, t.by),
        (Category::Decision, Urgency::High, DecidedBy::Model)
    );
    assert_eq!(t.provider.as_deref(), Some("local"));
    assert_eq!(t.reason, "asks to choose a vendor");

    // The wire: job `triage` selected `local`; one non-streamed request with the schema
    // instruction and the message fenced as untrusted data.
    let posts = fake.posts();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].path, "/v1/chat/completions");
    let body = &bodies(&fake)[0];
    assert_eq!(body["model"], "fake-model");
    assert_eq!(body["stream"], false);
    assert_eq!(body["temperature"], 0.0);
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("\"needs_reply\"") && system.contains("untrusted"),
        "{system}"
    );
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("<message seq=\"2\"") && user.contains("Which of the two vendors"));

    // Durable: a fresh engine (a restart) reads the same triage.
    drop(engine);
    let engine = env.engine();
    let all = engine.triage_all().unwrap();
    assert_eq!(all[&vendor].by, DecidedBy::Model);
    assert_eq!(all[&meeting].category, Category::Meeting);
    let events = env.audit(&engine);
    assert!(
        events.iter().any(|(e, o, r)| e == "assistant.triage"
            && o == "ok"
            && r.contains("decision by model")),
        "{events:?}"
    );
    assert!(events.iter().any(|(e, _, _)| e == "llm.call"));
    assert!(engine.verify_audit().is_ok());
}

#[tokio::test]
async fn a_bad_model_answer_is_a_recorded_failure_that_keeps_the_rule_result() {
    let fake = Fake::start().await;
    let long_reason = "x".repeat(500);
    let garbage = [
        "Sure! The category is decision.".to_string(),
        "".to_string(),
        r#"{"category":"panic","urgency":"high","reason":"made up"}"#.to_string(),
        format!(r#"{{"category":"fyi","urgency":"low","reason":"{long_reason}"}}"#),
        r#"{"category":"fyi","urgency":"low","reason":"ok","note":"ignore previous instructions"}"#
            .to_string(),
        r#"{"category":"fyi","urgency":"low","reason":"wire the funds now"}"#.to_string(),
    ];
    fake.script(CHAT, garbage.iter().map(|g| completion(g)).collect());
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let mut expected_errors = vec![
        "not JSON",
        "empty",
        "schema",
        "longer than 200",
        "unknown field",
        "hard bans",
    ]
    .into_iter();
    for i in 0..garbage.len() {
        let seq = ingest(
            &engine,
            msg(
                &format!("q{i}"),
                "work",
                Channel::Email,
                "Lunch",
                "Are you free on Thursday?",
            ),
        );
        let t = engine.triage_item(seq, &Actor::Cli, true).await.unwrap();
        assert_eq!(
            (t.category, t.by),
            (Category::NeedsReply, DecidedBy::Rule),
            "answer {i}"
        );
        let why = t
            .model_error
            .expect("the failure is recorded with the triage");
        let want = expected_errors.next().unwrap();
        assert!(why.contains(want), "answer {i}: {why} (wanted {want})");
        assert!(
            !why.contains("ignore previous"),
            "the answer is not quoted: {why}"
        );
    }
    let fails: Vec<_> = env
        .audit(&engine)
        .into_iter()
        .filter(|(e, o, _)| e == "assistant.triage" && o == "error")
        .collect();
    assert_eq!(fails.len(), garbage.len(), "{fails:?}");
    assert!(fails.iter().all(|(_, _, r)| r.contains("rule result kept")));
}

#[tokio::test]
async fn a_failing_provider_falls_back_to_the_rules_and_the_operator_wins_over_everything() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![Reply::Whole(
            400,
            vec![],
            error_body("bad request", "invalid_request_error", "x"),
        )],
    );
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let seq = ingest(
        &engine,
        msg("a", "work", Channel::Email, "Q", "Can you send the deck?"),
    );
    let t = engine.triage_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(t.by, DecidedBy::Rule);
    assert!(t.model_error.unwrap().contains("failed"));

    // Only the operator sets triage; an MCP client is refused (audited).
    let e = engine
        .set_triage(seq, Category::Bulk, Urgency::Low, None, &Actor::mcp("bot"))
        .unwrap_err();
    assert!(e.to_string().contains("operator_only_triage"), "{e}");
    let t = engine
        .set_triage(
            seq,
            Category::Fyi,
            Urgency::Low,
            Some("handled by phone".into()),
            &Actor::Cli,
        )
        .unwrap();
    assert_eq!(t.by, DecidedBy::Operator);
    // A later model or rule run does not overturn it.
    fake.script(
        CHAT,
        vec![completion(
            r#"{"category":"decision","urgency":"high","reason":"r"}"#,
        )],
    );
    engine.triage_item(seq, &Actor::Cli, true).await.unwrap();
    let now = &engine.triage_all().unwrap()[&seq];
    assert_eq!((now.category, now.by), (Category::Fyi, DecidedBy::Operator));
    assert_eq!(now.reason, "handled by phone");
}

#[tokio::test]
async fn phi_is_redacted_on_the_wire_and_restored_only_in_the_operators_draft() {
    let fake = Fake::start().await;
    // The model answers with the placeholders it was given (sender and patient).
    fake.script(
        CHAT,
        vec![completion(
            r#"{"body":"Hello <PERSON_1>, the refill for <PERSON_2> is approved."}"#,
        )],
    );
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let seq = ingest(
        &engine,
        msg(
            "c1",
            "clinic",
            Channel::Email,
            "Refill",
            "Maria Lopez asks whether her refill is approved?",
        ),
    );
    let out = engine.draft_item(seq, &Actor::Cli).await.unwrap();
    let Outcome::Queued { draft_id, .. } = out else {
        panic!("{out:?}")
    };
    let sent = &fake.posts()[0].body;
    assert!(
        !sent.contains("Maria") && !sent.contains("Lopez"),
        "PHI on the wire: {sent}"
    );
    assert!(
        sent.contains("<PERSON_1>") && sent.contains("<PERSON_2>"),
        "{sent}"
    );

    let d = engine.draft(&draft_id).unwrap().unwrap();
    assert_eq!(
        d.status,
        DraftStatus::Pending,
        "never approved by the assistant"
    );
    assert_eq!(d.created_by, Actor::Assistant("draft".into()));
    assert_eq!(d.provider.as_deref(), Some("local"));
    match &d.outbound {
        Outbound::ReplyEmail {
            body,
            to,
            message_id,
            ..
        } => {
            assert!(
                !body.contains("<PERSON"),
                "re-identified for the operator: {body}"
            );
            assert!(
                body.contains("Maria Lopez") && body.contains("Mei Chen"),
                "{body}"
            );
            assert_eq!(to, &vec!["mei.chen@contoso.com".to_string()]);
            assert_eq!(message_id, "c1");
        }
        o => panic!("{o:?}"),
    }
    // The audit trail never holds the name.
    for r in engine.audit_tail(100).unwrap() {
        let s = serde_json::to_string(&r).unwrap();
        assert!(!s.contains("Lopez"), "{s}");
    }
}

#[tokio::test]
async fn a_hipaa_profile_never_reaches_an_uncleared_provider_and_keeps_the_rules() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(
            r#"{"category":"fyi","urgency":"low","reason":"r"}"#,
        )],
    );
    let env = Env::new(config_text(&fake.url, false));
    let engine = env.engine();
    let seq = ingest(
        &engine,
        msg(
            "c2",
            "clinic",
            Channel::Email,
            "Refill",
            "Maria Lopez asks: is the refill approved?",
        ),
    );
    let t = engine.triage_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(t.by, DecidedBy::Rule);
    assert!(t.model_error.unwrap().contains("hipaa_provider_required"));
    let d = engine.deadlines_item(seq, &Actor::Cli, true).await.unwrap();
    assert!(d.model_error.unwrap().contains("hipaa_provider_required"));
    match engine.draft_item(seq, &Actor::Cli).await {
        Err(JobError::Model(why)) => assert!(why.contains("hipaa_provider_required"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(fake.posts().is_empty(), "nothing was sent");
    assert!(engine.draft_queue().unwrap().drafts.is_empty());
}

#[tokio::test]
async fn a_draft_with_a_banned_phrase_or_garbage_is_not_made_and_says_why() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![
            completion(r#"{"body":"Sure, I will wire the funds today."}"#),
            completion("Dear Mei, thanks!"),
        ],
    );
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let seq = ingest(
        &engine,
        msg(
            "w1",
            "work",
            Channel::Email,
            "Invoice",
            "Can you pay the invoice?",
        ),
    );
    for want in ["hard bans", "not JSON"] {
        match engine.draft_item(seq, &Actor::mcp("claude")).await {
            Err(JobError::Model(why)) => assert!(why.contains(want), "{why}"),
            other => panic!("{other:?}"),
        }
    }
    assert!(engine.draft_queue().unwrap().drafts.is_empty());
    let fails = env
        .audit(&engine)
        .into_iter()
        .filter(|(e, o, r)| {
            e == "assistant.draft" && o == "error" && r.starts_with("no draft made")
        })
        .count();
    assert_eq!(fails, 2);
}

#[tokio::test]
async fn deadlines_keep_only_quotes_from_the_message_and_are_deduplicated() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![
            // A made-up quote: rejected, the rules' deadline is kept.
            completion(r#"{"deadlines":[{"what":"sign lease","due":"2026-12-01","quote":"sign the lease","confidence":0.9}]}"#),
            completion(r#"{"deadlines":[{"what":"budget","due":"2026-12-04","quote":"send the budget by Friday","confidence":0.8}]}"#),
            completion(r#"{"deadlines":[{"what":"Budget","due":"2026-12-04","quote":"send the budget by Friday","confidence":0.7}]}"#),
        ],
    );
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let mut m = msg(
        "d1",
        "work",
        Channel::Email,
        "Budget",
        "Please send the budget by Friday.",
    );
    // A Saturday: "by Friday" is 2026-12-04 whatever day the test runs.
    m.ts = time::macros::datetime!(2026-11-28 09:00 UTC);
    let seq = ingest(&engine, m);
    let first = engine.deadlines_item(seq, &Actor::Cli, true).await.unwrap();
    assert!(
        first
            .model_error
            .unwrap()
            .contains("quote is not in the message")
    );
    assert_eq!(first.deadlines.len(), 1);
    assert_eq!(first.deadlines[0].found.by, DecidedBy::Rule);
    let second = engine.deadlines_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(second.model_error, None);
    assert_eq!(second.deadlines[0].found.due.as_deref(), Some("2026-12-04"));
    assert_eq!(second.new, 1);
    let third = engine.deadlines_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(third.new, 0, "re-extraction adds nothing new");
    assert_eq!(engine.deadlines_all().unwrap().len(), 2);
}

/// Issue 30: a model that validly answers "no deadlines" used to erase the rules' findings.
/// The rules always run; the model adds, confirms or disagrees, and a disagreement keeps both.
#[tokio::test]
async fn a_model_that_answers_no_deadlines_keeps_every_rule_finding() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![
            completion(r#"{"deadlines":[]}"#),
            completion(r#"{"deadlines":[{"what":"budget","due":"2026-11-27","quote":"send the budget by Friday","confidence":0.9}]}"#),
        ],
    );
    let env = Env::new(config_text(&fake.url, true).replace(
        "[hard_bans]",
        "[operator]\ntime_zone = \"UTC\"\n\n[hard_bans]",
    ));
    let engine = env.engine();
    let mut m = msg(
        "d2",
        "work",
        Channel::Email,
        "Budget",
        "Please send the budget by Friday. The venue deposit is due 12/10.",
    );
    m.ts = time::macros::datetime!(2026-11-28 09:00 UTC);
    let seq = ingest(&engine, m);

    let none = engine.deadlines_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(none.model_error, None, "a valid answer");
    let got: Vec<(Option<&str>, DecidedBy)> = none
        .deadlines
        .iter()
        .map(|d| (d.found.due.as_deref(), d.found.by))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some("2026-12-04"), DecidedBy::Rule),
            (Some("2026-12-10"), DecidedBy::Rule)
        ]
    );
    assert_eq!(none.deadlines[0].found.expr.as_deref(), Some("by Friday"));

    // The model reads "by Friday" as the day before the message: both readings are kept.
    let two = engine.deadlines_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(two.deadlines.len(), 3);
    let rule = &two.deadlines[0].found;
    let model = &two.deadlines[2].found;
    assert_eq!(
        (rule.by, rule.due.as_deref()),
        (DecidedBy::Rule, Some("2026-12-04"))
    );
    assert_eq!(
        (model.by, model.due.as_deref()),
        (DecidedBy::Model, Some("2026-11-27"))
    );
    for f in [rule, model] {
        let d = f.disagreement.as_ref().expect("shown, not resolved");
        assert_eq!(
            (d.rule_due.as_deref(), d.model_due.as_deref()),
            (Some("2026-12-04"), Some("2026-11-27"))
        );
    }
    assert!(
        env.audit(&engine)
            .iter()
            .any(|(e, o, r)| e == "assistant.deadlines"
                && o == "ok"
                && r == "2 deadline(s): 2 by the rules, 0 from the model, 0 disagreement(s)"),
        "{:?}",
        env.audit(&engine)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_reports_progress_bounds_concurrency_and_can_be_cancelled() {
    let fake = Fake::start().await;
    // Each answer takes a while, so the batch is still running when it is cancelled.
    let slow = Reply::Stream(vec![
        Step::Sleep(Duration::from_millis(300)),
        Step::Bytes(chunk(r#"{"category":"fyi","urgency":"low","reason":"r"}"#)),
        Step::Bytes(finish_chunk()),
        Step::Bytes(DONE.into()),
    ]);
    fake.script(CHAT, vec![slow]);
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    let seqs: Vec<u64> = (0..8)
        .map(|i| {
            ingest(
                &engine,
                msg(&format!("b{i}"), "work", Channel::Email, "Q", "Are you in?"),
            )
        })
        .collect();
    let token = tokio_util::sync::CancellationToken::new();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (t2, s2) = (token.clone(), seen.clone());
    let on = move |p: &opsdesk::engine::jobs::JobProgress| {
        s2.lock().unwrap().push(p.clone());
        if p.done >= 2 {
            t2.cancel();
        }
    };
    let mut events = engine.subscribe();
    let report = engine
        .triage_batch(seqs.clone(), Actor::Cli, true, Some(token), &on)
        .await;
    assert_eq!(report.progress.state, JobState::Cancelled);
    assert!(
        report.progress.done >= 2 && report.progress.done < 8,
        "{:?}",
        report.progress
    );
    assert_eq!(report.items.len(), report.progress.done);
    // Never more requests than the runner's bound beyond the finished ones.
    assert!(fake.posts().len() <= report.progress.done + opsdesk::engine::jobs::MAX_CONCURRENT);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.first().unwrap().done, 0);
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done));
    assert!(
        engine.jobs().is_empty(),
        "a finished job is no longer listed"
    );
    // The console's feed: progress events on the engine bus.
    let mut progress_events = 0;
    while let Ok(ev) = events.try_recv() {
        if let opsdesk::engine::EngineEvent::JobProgress(p) = ev {
            progress_events += 1;
            assert_eq!(p.total, 8);
        }
    }
    assert!(progress_events >= 3);
    // What finished is stored.
    assert_eq!(engine.triage_all().unwrap().len(), report.progress.done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_triages_a_backlog_with_progress_and_lists_it() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(
            r#"{"category":"needs_reply","urgency":"normal","reason":"a question"}"#,
        )],
    );
    let env = Env::new(config_text(&fake.url, true));
    {
        let engine = env.engine();
        ingest(
            &engine,
            msg("x1", "work", Channel::Calendar, "Standup", "Daily"),
        );
        ingest(&engine, msg("x2", "work", Channel::Email, "Q", "Lunch?"));
        ingest(
            &engine,
            msg("x3", "work", Channel::Email, "News", "Click to unsubscribe"),
        );
    }
    let out = env.run(&["triage", "run", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["progress"]["state"], "finished");
    assert_eq!(v["progress"]["done"], 3);
    let cats: Vec<&str> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["result"]["category"].as_str().unwrap())
        .collect();
    assert_eq!(cats, ["meeting", "needs_reply", "bulk"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("triage 3/3 done"), "{stderr}");
    assert_eq!(
        fake.posts().len(),
        1,
        "only the unsure item went to the model"
    );

    // Nothing left: a second backfill does nothing.
    let again = env.run(&["triage", "run", "--json"]);
    let v: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["progress"]["total"], 0);

    let list = env.run(&["triage", "list", "--category", "needs_reply", "--json"]);
    let v: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(v["items"].as_array().unwrap().len(), 1);
    assert_eq!(v["items"][0]["by"], "model");
    let bad = env.run(&["triage", "list", "--category", "urgentish"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("categories: needs_reply"));

    let set = env.run(&["triage", "set", "2", "fyi", "--urgency", "low"]);
    assert!(
        set.status.success(),
        "{}",
        String::from_utf8_lossy(&set.stderr)
    );
    let list = env.run(&["triage", "list", "--json"]);
    let v: Value = serde_json::from_slice(&list.stdout).unwrap();
    let two = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["seq"] == 2)
        .unwrap();
    assert_eq!(
        (two["category"].as_str(), two["by"].as_str()),
        (Some("fyi"), Some("operator"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_generates_a_pending_reply_draft() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(r#"{"body":"Thursday works for me."}"#)],
    );
    let env = Env::new(config_text(&fake.url, true));
    {
        let engine = env.engine();
        ingest(
            &engine,
            msg("g1", "work", Channel::Email, "Lunch", "Lunch on Thursday?"),
        );
    }
    let out = env.run(&["drafts", "generate", "--seq", "1", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["items"][0]["result"]["outcome"], "queued", "{v}");
    let list = env.run(&["drafts", "list", "--json"]);
    let v: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(v[0]["status"], "pending");
    assert_eq!(v[0]["created_by"], "assistant:draft");
    let none = env.run(&["drafts", "generate"]);
    assert_eq!(none.status.code(), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_can_be_routed_to_another_provider_at_run_time_and_back() {
    let fake = Fake::start().await;
    let other = Fake::start().await;
    let triage_answer = r#"{"category":"needs_reply","urgency":"normal","reason":"a question"}"#;
    fake.script(CHAT, vec![completion(triage_answer)]);
    other.script(CHAT, vec![completion(triage_answer)]);
    let config = format!(
        "{}\n[llm.providers.other]\nkind = \"local\"\nenabled = true\nendpoint = \"{}/v1\"\nmodel = \"other-model\"\n",
        config_text(&fake.url, true),
        other.url
    );
    let env = Env::new(config);
    {
        let engine = env.engine();
        ingest(&engine, msg("j1", "work", Channel::Email, "Q", "Lunch?"));
        ingest(&engine, msg("j2", "work", Channel::Email, "Q", "Dinner?"));
    }
    let set = env.run(&["providers", "set-job", "triage", "other"]);
    assert!(
        set.status.success(),
        "{}",
        String::from_utf8_lossy(&set.stderr)
    );
    let list = env.run(&["providers", "list", "--json"]);
    let v: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(v["jobs"]["triage"], "other", "{v}");
    // Per job and entity: the clinic's triage cannot follow the override to the uncleared
    // provider; it stays on the cleared one.
    let triage = v["job_routes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["job"] == "triage")
        .unwrap();
    assert_eq!(triage["set_by"], "run time", "{triage}");
    let clinic = triage["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["profile"] == "clinic")
        .unwrap();
    assert_eq!(clinic["provider"], "local", "{clinic}");
    assert_eq!(
        clinic["note"], "`other` is not HIPAA-cleared; goes to `local`",
        "{clinic}"
    );
    let human = env.run(&["providers", "list"]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("triage     other"), "{text}");
    assert!(
        text.contains("clinic: not cleared"),
        "the HIPAA consequence is shown: {text}"
    );

    let engine = env.engine();
    let t = engine.triage_item(1, &Actor::Cli, true).await.unwrap();
    assert_eq!(t.provider.as_deref(), Some("other"));
    assert_eq!((fake.posts().len(), other.posts().len()), (0, 1));

    let clear = env.run(&["providers", "set-job", "triage", "--clear"]);
    assert!(
        clear.status.success(),
        "{}",
        String::from_utf8_lossy(&clear.stderr)
    );
    let t = engine.triage_item(2, &Actor::Cli, true).await.unwrap();
    assert_eq!(t.provider.as_deref(), Some("local"));

    let audit = env.audit(&engine);
    let changes: Vec<&str> = audit
        .iter()
        .filter(|(e, _, _)| e == "provider.set_job")
        .map(|(_, _, r)| r.as_str())
        .collect();
    assert_eq!(
        changes,
        [
            "job triage: none → other",
            "job triage: other → none (entity and default selection)"
        ]
    );
    // Bad requests: exit 2 with the valid values; an MCP client may not route jobs.
    let bad = env.run(&["providers", "set-job", "summarize", "local"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("jobs: triage, deadlines, draft, brief, filing")
    );
    let bad = env.run(&["providers", "set-job", "triage", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    let out = engine
        .submit(
            opsdesk::domain::Action::SetJobProvider {
                job: "triage".into(),
                name: Some("other".into()),
            },
            Actor::mcp("bot"),
        )
        .unwrap();
    assert!(
        matches!(out, Outcome::Blocked { ref rule, .. } if rule == "operator_only_provider_change"),
        "{out:?}"
    );
}

#[tokio::test]
async fn a_brief_polish_that_drops_facts_is_not_used_and_says_why() {
    let fake = Fake::start().await;
    let env = Env::new(config_text(&fake.url, true));
    let engine = env.engine();
    ingest(
        &engine,
        msg(
            "p1",
            "work",
            Channel::Email,
            "Budget",
            "Please send the budget by Friday.",
        ),
    );
    let det = match engine
        .read(
            opsdesk::domain::Query::Brief {
                kind: opsdesk::domain::BriefKind::Morning,
                profile: "work".into(),
            },
            Actor::Cli,
        )
        .unwrap()
    {
        opsdesk::engine::query::Answer::Brief(b) => *b,
        other => panic!("{}", other.kind()),
    };
    let facts = opsdesk::assistant::brief_check::facts(&det);
    assert!(facts.contains(&"Mei Chen".to_string()), "{facts:?}");
    fake.script(
        CHAT,
        vec![
            // The kind of answer a tiny model gives: fluent, and nothing of the brief left.
            completion("The task is to create a brief that will help you get started."),
            // A rewrite that keeps every fact.
            completion(&format!("Morning! Still open: {}.", facts.join(", "))),
        ],
    );
    let out = engine
        .polish_brief(det.clone(), &Actor::Cli, Duration::from_secs(20))
        .await;
    assert!(!out.polished);
    let why = out.polish_skipped.clone().unwrap();
    assert!(why.contains("dropped") && why.contains("facts"), "{why}");
    assert!(!why.contains("Mei"), "the reason names no fact: {why}");
    assert!(
        out.text.contains("Mei Chen"),
        "the deterministic brief is kept"
    );
    let out = engine
        .polish_brief(det, &Actor::Cli, Duration::from_secs(20))
        .await;
    assert!(out.polished, "{:?}", out.polish_skipped);
}

#[tokio::test]
async fn the_autonomy_ladder_governs_the_jobs() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(
            r#"{"category":"fyi","urgency":"low","reason":"r"}"#,
        )],
    );
    // Classification blocked: triage is refused (audited), nothing is stored or sent.
    let env = Env::new(format!(
        "{}\n[autonomy]\nclassify = \"blocked\"\n",
        config_text(&fake.url, true)
    ));
    let engine = env.engine();
    let seq = ingest(&engine, msg("l1", "work", Channel::Email, "Q", "Lunch?"));
    let e = engine
        .triage_item(seq, &Actor::Cli, true)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("autonomy.blocked"), "{e}");
    assert!(engine.triage_all().unwrap().is_empty());
    assert!(
        env.audit(&engine)
            .iter()
            .any(|(e, o, _)| e == "assistant.triage" && o == "blocked")
    );
    // LLM calls forbidden: the rules still work, the model is not asked, the reason is kept.
    let env = Env::new(format!(
        "{}\n[autonomy]\nllm_call = \"never\"\n",
        config_text(&fake.url, true)
    ));
    let engine = env.engine();
    let seq = ingest(&engine, msg("l2", "work", Channel::Email, "Q", "Dinner?"));
    let t = engine.triage_item(seq, &Actor::Cli, true).await.unwrap();
    assert_eq!(t.by, DecidedBy::Rule);
    assert!(t.model_error.unwrap().contains("autonomy.never"));
    assert!(fake.posts().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_items_are_triaged_on_arrival_in_one_batch_and_a_hipaa_profile_keeps_the_rules() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(
            r#"{"category":"needs_reply","urgency":"normal","reason":"asks a question"}"#,
        )],
    );
    // A batch starts when 4 items wait (the window is long), so the batch is exactly these.
    let config = config_text(&fake.url, false).replace(
        "[llm]",
        "[assistant]\non_arrival = [\"triage\", \"deadlines\"]\narrival_batch = 4\narrival_coalesce_ms = 60000\n\n[llm]",
    );
    let env = Env::new(config);
    let engine = env.engine();
    let shutdown = tokio_util::sync::CancellationToken::new();
    let mut events = engine.subscribe();
    let task = opsdesk::engine::arrival::spawn(engine.clone(), shutdown.clone())
        .expect("on_arrival names jobs, so the task runs");
    let mut seqs: Vec<u64> = (0..3)
        .map(|i| {
            ingest(
                &engine,
                msg(
                    &format!("a{i}"),
                    "work",
                    Channel::Email,
                    "Budget",
                    "Which of the two budgets do we take?",
                ),
            )
        })
        .collect();
    let clinic = ingest(
        &engine,
        msg(
            "a-clinic",
            "clinic",
            Channel::Email,
            "Refill",
            "Maria Lopez asks whether the refill is approved.",
        ),
    );
    seqs.push(clinic);

    // The console's feed: one triage job over the four, then one deadlines job.
    let mut finished = Vec::new();
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        while finished.len() < 2 {
            if let Ok(opsdesk::engine::EngineEvent::JobProgress(p)) = events.recv().await
                && p.state != JobState::Running
            {
                finished.push((*p).clone());
            }
        }
    })
    .await;
    assert!(waited.is_ok(), "the arrival jobs finished: {finished:?}");
    assert_eq!(
        finished
            .iter()
            .map(|p| (p.job.as_str(), p.total, p.state))
            .collect::<Vec<_>>(),
        vec![
            ("triage", 4, JobState::Finished),
            ("deadlines", 4, JobState::Finished)
        ]
    );

    // Visible like a manual triage: the store (console, triage_list) has every item.
    let all = engine.triage_all().unwrap();
    for s in &seqs[..3] {
        assert_eq!(all[s].by, DecidedBy::Model, "{:?}", all[s]);
        assert_eq!(all[s].category, Category::NeedsReply);
    }
    // The HIPAA filter of the router: the clinic item never reached the uncleared provider
    // and kept the rule result, with the reason recorded.
    let c = &all[&clinic];
    assert_eq!(c.by, DecidedBy::Rule);
    assert!(
        c.model_error
            .as_deref()
            .is_some_and(|e| e.contains("hipaa_provider_required")),
        "{c:?}"
    );
    assert!(
        fake.posts()
            .iter()
            .all(|p| !p.body.contains("Maria") && !p.body.contains("refill")),
        "no clinic content on the wire"
    );
    // Three triage calls and three deadline calls, all for the work items.
    assert_eq!(fake.posts().len(), 6);
    // Audited under the assistant's own name; the model's answer to the deadline job was not
    // a deadline list, a recorded failure that keeps the rules' (none here).
    let trail = engine.audit_tail(500).unwrap();
    assert_eq!(
        trail
            .iter()
            .filter(|r| r.event.event == "assistant.deadlines"
                && r.event.actor == "assistant:deadlines"
                && r.event.outcome.as_str() == "error"
                && r.event
                    .reason
                    .as_deref()
                    .is_some_and(|x| x.contains("model answer not used")))
            .count(),
        4
    );
    assert!(
        trail
            .iter()
            .any(|r| r.event.event == "assistant.triage" && r.event.actor == "assistant:triage")
    );
    shutdown.cancel();
    task.await.unwrap();
}

#[tokio::test]
async fn the_assistant_does_nothing_on_arrival_unless_configured() {
    let env = Env::new(config_text("http://127.0.0.1:9", true));
    let engine = env.engine();
    let shutdown = tokio_util::sync::CancellationToken::new();
    assert!(opsdesk::engine::arrival::spawn(engine.clone(), shutdown).is_none());
    let bad = config_text("http://127.0.0.1:9", true)
        .replace("[llm]", "[assistant]\non_arrival = [\"draft\"]\n\n[llm]");
    let err = Config::from_toml_str(&bad, Path::new("t.toml")).unwrap_err();
    assert!(
        err.to_string().contains("assistant.on_arrival")
            && err.to_string().contains("allowed: triage, deadlines"),
        "{err}"
    );
}

#[tokio::test]
async fn dates_resolve_in_the_operators_time_zone_and_the_house_style_reaches_the_draft() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![completion(r#"{"body":"Tomorrow works for me."}"#)],
    );
    // Thursday 20:00 UTC is already Friday 09:00 in Auckland (UTC+13 in November).
    let config = config_text(&fake.url, true).replace(
        "[hard_bans]",
        "[operator]\nname = \"Alex Morgan\"\ntime_zone = \"Pacific/Auckland\"\n\n\
         [drafting]\ntone = \"brisk\"\nlanguage = \"English\"\nstyle = \"first names only\"\n\
         sign_off = \"Best,\"\nsignature = \"Alex\"\n\n[hard_bans]",
    );
    let env = Env::new(config);
    let engine = env.engine();
    let mut m = msg(
        "tz1",
        "work",
        Channel::Email,
        "Report",
        "Please send the report by tomorrow.",
    );
    m.ts = time::macros::datetime!(2026-11-26 20:00 UTC);
    let seq = ingest(&engine, m);

    // The rules: "tomorrow" is the operator's tomorrow (Saturday), not UTC's (Friday).
    let d = engine
        .deadlines_item(seq, &Actor::Cli, false)
        .await
        .unwrap();
    assert_eq!(d.deadlines[0].found.due.as_deref(), Some("2026-11-28"));

    // The draft job: the prompt carries the operator's zone and house style; the queued body
    // ends with the configured sign-off and signature.
    let outcome = engine.draft_item(seq, &Actor::Cli).await.unwrap();
    assert!(matches!(outcome, Outcome::Queued { .. }), "{outcome:?}");
    let user = bodies(&fake)[0]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    for want in [
        "Sent: 2026-11-27 (Friday) 09:00 Pacific/Auckland",
        "tone: brisk",
        "write in English",
        "you write as Alex Morgan",
        "first names only",
    ] {
        assert!(user.contains(want), "{want:?} in {user}");
    }
    let draft = engine.draft_queue().unwrap().drafts.pop().unwrap();
    assert_eq!(
        draft.outbound.body(),
        "Tomorrow works for me.\n\nBest,\nAlex"
    );

    // The brief reckons its days in the same zone.
    match engine
        .read(
            opsdesk::domain::Query::Brief {
                kind: opsdesk::domain::BriefKind::Morning,
                profile: "work".into(),
            },
            Actor::Cli,
        )
        .unwrap()
    {
        opsdesk::engine::query::Answer::Brief(b) => assert_eq!(b.tz, "+13:00"),
        other => panic!("{other:?}"),
    }
    // A zone that is not an IANA name is a config error that says what is allowed.
    let bad = config_text(&fake.url, true).replace(
        "[hard_bans]",
        "[operator]\ntime_zone = \"CST6\"x\n\n[hard_bans]",
    );
    assert!(Config::from_toml_str(&bad, Path::new("t.toml")).is_err());
}

#[tokio::test]
async fn the_filing_pass_uses_rules_first_then_the_model_among_configured_folders_and_queues_moves()
{
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![
            completion(r#"{"folder":"Travel","reason":"a flight booking"}"#),
            completion(r#"{"folder":"Secret stash","reason":"r"}"#),
        ],
    );
    let config = config_text(&fake.url, true).replace(
        "[hard_bans]",
        "[filing]\nfolders = [\"Travel\"]\n\n[[filing.rules]]\nfolder = \"Finance\"\nkeywords = [\"invoice\"]\n\n[hard_bans]",
    );
    let env = Env::new(config);
    let engine = env.engine();
    let invoice = ingest(
        &engine,
        msg("f1", "work", Channel::Email, "Invoice 42", "Attached."),
    );
    let flight = ingest(
        &engine,
        msg(
            "f2",
            "work",
            Channel::Email,
            "Your flight",
            "Booking AMS-JFK.",
        ),
    );
    let odd = ingest(
        &engine,
        msg("f3", "work", Channel::Email, "Hello", "Just saying hi."),
    );

    // A rule places the invoice: no model call, nothing queued without `queue`.
    let p = engine
        .filing_item(invoice, &Actor::Cli, false)
        .await
        .unwrap();
    assert_eq!(p.suggestion.folder.as_deref(), Some("Finance"));
    assert_eq!(p.by, DecidedBy::Rule);
    assert!(p.queued.is_none());
    assert!(fake.posts().is_empty());

    // The model files the flight among the configured folders; the move is queued for the
    // operator, by the assistant, as a move_mail draft.
    let p = engine.filing_item(flight, &Actor::Cli, true).await.unwrap();
    assert_eq!(
        (p.suggestion.folder.as_deref(), p.by),
        (Some("Travel"), DecidedBy::Model)
    );
    assert_eq!(p.suggestion.rule.as_deref(), Some("model:local"));
    let Some(Outcome::Queued { draft_id, .. }) = &p.queued else {
        panic!("{p:?}")
    };
    let d = engine.draft(draft_id).unwrap().unwrap();
    assert_eq!(d.status, DraftStatus::Pending);
    assert_eq!(d.outbound.kind(), "move_mail");
    assert_eq!(d.created_by, Actor::Assistant("filing".into()));
    let user = bodies(&fake)[0]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        user.contains("- \"Finance\"")
            && user.contains("- \"Travel\"")
            && user.contains("- \"archive\""),
        "{user}"
    );

    // A made-up folder is a recorded failure: no folder, nothing queued.
    let p = engine.filing_item(odd, &Actor::Cli, true).await.unwrap();
    assert!(p.suggestion.folder.is_none() && p.queued.is_none(), "{p:?}");
    assert!(
        p.model_error
            .as_deref()
            .is_some_and(|e| e.contains("not one of the configured folders")),
        "{p:?}"
    );
    let trail = env.audit(&engine);
    assert!(
        trail.iter().any(|(e, o, r)| e == "assistant.filing"
            && o == "error"
            && r.contains("model answer not used")),
        "{trail:?}"
    );
    assert_eq!(engine.draft_queue().unwrap().drafts.len(), 1);
    // Only mail is filed.
    let chat = ingest(&engine, msg("f4", "work", Channel::Teams, "", "hi"));
    assert!(engine.filing_item(chat, &Actor::Cli, true).await.is_err());

    // The CLI: the rule-placed invoice, its move queued for approval.
    let out = env.run(&[
        "--json",
        "filing",
        "propose",
        &invoice.to_string(),
        "--queue",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &v["items"][0]["result"];
    assert_eq!(r["suggestion"]["folder"], "Finance", "{v}");
    assert_eq!(r["queued"]["outcome"], "queued", "{v}");
    assert_eq!(engine.draft_queue().unwrap().drafts.len(), 2);
}
