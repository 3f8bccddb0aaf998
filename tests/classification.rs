//! S0 section 6.3's default classification: `[classification]` rules place spool items whose
//! profile is unclear at ingestion (saying which rule), the rest wait in the reserved profile
//! `unassigned` — redacted for uncleared clients, never sent to a model, refused for every
//! action — until the operator assigns them, after which every read presents the assigned
//! profile. Real spool files, a real engine, a real `opsdesk serve` for the MCP side.

mod mcp_support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_support::Server;
use opsdesk::config::{Config, ConfigError};
use opsdesk::domain::{
    Action, Actor, BriefKind, InboxRecord, Outbound, Outcome, Query, UNASSIGNED,
};
use opsdesk::engine::query::Answer;
use opsdesk::engine::runner::EngineSink;
use opsdesk::engine::{Engine, EngineError, Mode};
use opsdesk::paths::Paths;
use opsdesk::sources::classify::Classifier;
use opsdesk::sources::spool::Spool;
use opsdesk::store::inbox::Filter;
use serde_json::{Value, json};

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
phi_auto_redact = true
phi_names = ["Maria Lopez"]

[classification]
[[classification.rules]]
profile = "clinic"
domains = ["lakeside-clinic.example"]
[[classification.rules]]
profile = "work"
keywords = ["invoice"]
channels = ["spool"]
"#;

const EML_NOBODY: &str = "From: Stranger <someone@elsewhere.example>\r\nTo: desk@contoso.com\r\nSubject: Refill for Maria Lopez\r\nMessage-ID: <m-1@elsewhere.example>\r\nDate: Wed, 25 Nov 2026 09:00:00 +0000\r\n\r\nMaria Lopez MRN: 00482913 needs her refill.\r\n";

struct Env {
    dir: tempfile::TempDir,
    engine: Arc<Engine>,
    spool: Spool,
}

impl Env {
    /// An engine on `config` and a spool wired as `engine::runner` wires it.
    fn new(config: &str) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let cfg = Config::from_toml_str(config, Path::new("t.toml")).unwrap();
        let paths = Paths::resolve(
            Some(dir.path().join("data")),
            Some(dir.path().join("config.toml")),
        )
        .unwrap();
        let classifier = cfg.classification.as_ref().map(Classifier::new);
        let spool = Spool::new(dir.path().join("spool"), "clinic".into())
            .unwrap()
            .with_settle(Duration::ZERO)
            .with_profiles(cfg.profiles.keys().cloned())
            .with_classifier(classifier)
            .with_attachments(opsdesk::store::attachments::AttachmentStore::new(
                &paths.data_dir,
                &cfg.attachments,
            ));
        let engine = Arc::new(Engine::open(paths, cfg, Mode::Secondary).unwrap());
        Env { dir, engine, spool }
    }

    fn drop_file(&self, name: &str, content: &str) {
        std::fs::write(self.dir.path().join("spool").join(name), content).unwrap();
    }

    fn poll(&self) {
        let r = self
            .spool
            .poll_once(&EngineSink {
                engine: &self.engine,
                source: "spool",
            })
            .unwrap();
        assert!(r.rejected.is_empty(), "{:?}", r.rejected);
    }

    fn records(&self) -> Vec<InboxRecord> {
        self.engine
            .unaudited_inbox_page_after(0, 100, &Filter::default())
            .unwrap()
            .records
            .into_iter()
            .map(std::sync::Arc::unwrap_or_clone)
            .collect()
    }

    fn record(&self, seq: u64) -> InboxRecord {
        self.engine.inbox_record(seq).unwrap().unwrap()
    }
}

fn rule_of(r: &InboxRecord) -> Option<&str> {
    r.meta.get("profile_rule").and_then(Value::as_str)
}

/// Four unclear items and two clear ones, in this order (seqs 1..=6).
fn drop_mixed(env: &Env) {
    env.drop_file(
        "a.json",
        &json!([
            {"from": "Desk <desk@lakeside-clinic.example>", "subject": "Rota", "body": "Monday"},
            {"from": "ap@vendor.example", "subject": "Your invoice", "body": "attached"},
            {"from": "who@unknown.example", "subject": "Hello", "body": "no clue whose"},
            {"from": "boss@contoso.com", "profile": "work", "body": "explicit",
             "meta": {"opsdesk_profile_unclear": true}},
            {"from": "x@lakeside-clinic.example", "profile": "work", "body": "explicit too"},
        ])
        .to_string(),
    );
    env.poll();
    env.drop_file("b.eml", EML_NOBODY);
    env.poll();
}

#[test]
fn rules_place_unclear_items_at_ingestion_saying_which_rule_and_the_rest_wait_unassigned() {
    let env = Env::new(CONFIG);
    drop_mixed(&env);
    let recs = env.records();
    let got: Vec<(u64, &str, Option<&str>)> = recs
        .iter()
        .map(|r| (r.seq, r.profile.as_str(), rule_of(r)))
        .collect();
    assert_eq!(
        got,
        [
            (
                1,
                "clinic",
                Some("classification.rules[0]: sender domain lakeside-clinic.example")
            ),
            (
                2,
                "work",
                Some("classification.rules[1]: keyword `invoice` in the subject")
            ),
            (3, UNASSIGNED, rule_of(&recs[2])),
            // A file that names the profile is clear, whatever its meta claims.
            (4, "work", None),
            (5, "work", None),
            (6, UNASSIGNED, rule_of(&recs[5])),
        ]
    );
    assert!(
        rule_of(&recs[2])
            .unwrap()
            .starts_with("classification.unmatched"),
        "{recs:?}"
    );
    assert!(
        recs.iter()
            .all(|r| !r.meta.contains_key("opsdesk_profile_unclear")),
        "the spool's marker never reaches the inbox"
    );
    // A mail file is always unclear (it names no profile); this one matches no rule.
    assert_eq!(recs[5].channel.as_str(), "email");
}

#[test]
fn without_the_section_an_unclear_item_gets_the_default_profile_as_before() {
    let config = CONFIG.split("[classification]").next().unwrap();
    let env = Env::new(config);
    env.drop_file(
        "a.json",
        &json!({"from": "who@unknown.example", "body": "no clue"}).to_string(),
    );
    env.poll();
    env.drop_file("b.eml", EML_NOBODY);
    env.poll();
    for r in env.records() {
        assert_eq!(r.profile, "clinic", "the spool's default");
        assert!(rule_of(&r).is_none() && !r.meta.contains_key("opsdesk_profile_unclear"));
    }
    // And `unassigned` is no profile at all then.
    assert!(matches!(
        env.engine.read(
            Query::TriageList {
                profile: Some(UNASSIGNED.into()),
                category: None,
                urgency: None,
                limit: 10
            },
            Actor::Cli
        ),
        Err(EngineError::Invalid { .. })
    ));
}

fn blocked_rule(o: Outcome) -> (String, String) {
    match o {
        Outcome::Blocked { rule, remedy, .. } => (rule, remedy),
        other => panic!("not blocked: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unassigned_item_is_refused_for_actions_and_models_until_the_operator_assigns_it() {
    let env = Env::new(CONFIG);
    drop_mixed(&env);
    let unassigned = env.record(3);
    assert_eq!(unassigned.profile, UNASSIGNED);

    // Any action naming it is refused by the boundary, with rule and remedy, and audited.
    let reply = env.engine.submit(
        Action::DraftReply {
            message_id: unassigned.id.clone(),
            body: "Thanks".into(),
            body_html: None,
            attachments: Vec::new(),
        },
        Actor::Cli,
    );
    let (rule, remedy) = blocked_rule(reply.unwrap());
    assert_eq!(rule, "entity_boundary.unassigned");
    assert!(
        remedy.contains("opsdesk triage assign SEQ PROFILE"),
        "{remedy}"
    );
    let draft = env.engine.submit(
        Action::CreateDraft {
            profile: UNASSIGNED.into(),
            outbound: Outbound::SendEmail {
                to: vec!["someone@elsewhere.example".into()],
                cc: Vec::new(),
                subject: "Hi".into(),
                body: "Hello".into(),
                body_html: None,
                attachments: Vec::new(),
            },
            provider: None,
        },
        Actor::mcp("agent"),
    );
    assert_eq!(blocked_rule(draft.unwrap()).0, "entity_boundary.unassigned");
    assert!(
        env.engine.draft_queue().unwrap().drafts.is_empty(),
        "nothing was queued"
    );
    // Never sent to a provider (none is even configured: the refusal comes first).
    let req = opsdesk::llm::LlmRequest::new(
        "triage",
        vec![opsdesk::llm::ChatMessage::user("classify this")],
    );
    match env
        .engine
        .llm_complete(UNASSIGNED, &req, &Actor::Cli, None)
        .await
    {
        Err(opsdesk::llm::LlmError::Blocked { rule, remedy, .. }) => {
            assert_eq!(rule, "entity_boundary.unassigned");
            assert!(remedy.contains("assign it first"), "{remedy}");
        }
        other => panic!("not blocked: {other:?}"),
    }
    // Nor may it join a deal, nor a deal be made for it.
    let spec: opsdesk::domain::DealSpec =
        serde_json::from_value(json!({"name": "Sunrise"})).unwrap();
    let deal = match env
        .engine
        .submit(
            Action::CreateDeal {
                profile: "work".into(),
                spec: spec.clone(),
            },
            Actor::Cli,
        )
        .unwrap()
    {
        Outcome::Done {
            detail: opsdesk::domain::Done::Deal(deal),
        } => deal.id,
        other => panic!("{other:?}"),
    };
    let link = env.engine.submit(
        Action::LinkDeal {
            deal_id: deal,
            message: "3".into(),
        },
        Actor::Cli,
    );
    assert_eq!(blocked_rule(link.unwrap()).0, "entity_boundary.unassigned");
    let create = env.engine.submit(
        Action::CreateDeal {
            profile: UNASSIGNED.into(),
            spec,
        },
        Actor::Cli,
    );
    assert_eq!(
        blocked_rule(create.unwrap()).0,
        "entity_boundary.unassigned"
    );
    let blocks: Vec<String> = env
        .engine
        .audit_tail(50)
        .unwrap()
        .iter()
        .filter(|r| {
            r.event
                .reason
                .as_deref()
                .is_some_and(|x| x.contains("entity_boundary.unassigned"))
        })
        .map(|r| r.event.event.clone())
        .collect();
    assert!(blocks.len() >= 5, "each refusal is audited: {blocks:?}");

    // The bucket lists it (and the e-mail), the brief counts them.
    let waiting = |engine: &Engine| match engine
        .read(
            Query::TriageList {
                profile: Some(UNASSIGNED.into()),
                category: None,
                urgency: None,
                limit: 50,
            },
            Actor::Cli,
        )
        .unwrap()
    {
        Answer::Triage(t) => t.waiting.iter().map(|w| w.seq).collect::<Vec<_>>(),
        other => panic!("{}", other.kind()),
    };
    assert_eq!(waiting(&env.engine), [6, 3]);
    let brief = |profile: &str| match env
        .engine
        .read(
            Query::Brief {
                kind: BriefKind::Morning,
                profile: profile.into(),
            },
            Actor::Cli,
        )
        .unwrap()
    {
        Answer::Brief(b) => b,
        other => panic!("{}", other.kind()),
    };
    let before = brief("work");
    assert_eq!(before.unassigned_waiting, 2);
    assert!(
        before.text.contains("2 item(s) wait for a profile"),
        "{}",
        before.text
    );
    let work_before = before.records_considered;

    // Only the operator assigns: an MCP client is refused (and audited).
    let e = env
        .engine
        .assign_profile(3, "work", &Actor::mcp("agent"))
        .unwrap_err();
    assert!(
        matches!(&e, EngineError::Blocked { rule, .. } if rule == "operator_only_assign"),
        "{e}"
    );
    // Only to a configured profile, and only items whose profile was unclear.
    for (seq, profile) in [(3, UNASSIGNED), (3, "nope"), (4, "clinic")] {
        assert!(
            matches!(
                env.engine.assign_profile(seq, profile, &Actor::Cli),
                Err(EngineError::Invalid { .. })
            ),
            "seq {seq} to {profile}"
        );
    }
    assert_eq!(env.record(3).profile, UNASSIGNED, "nothing changed");

    let a = env.engine.assign_profile(3, "work", &Actor::Cli).unwrap();
    assert_eq!((a.from.as_str(), a.profile.as_str()), (UNASSIGNED, "work"));

    // Every read now presents the assigned profile; the inbox line is untouched.
    let r = env.record(3);
    assert_eq!(r.profile, "work");
    assert_eq!(r.meta["profile_assigned"]["from"], UNASSIGNED);
    assert_eq!(r.meta["profile_assigned"]["by"], "cli");
    let by_id = env
        .engine
        .inbox_record_by_id(&unassigned.id)
        .unwrap()
        .unwrap();
    assert_eq!(by_id.profile, "work");
    let pulled = match env
        .engine
        .read(
            Query::InboxPull {
                consumer: None,
                since: Some(0),
                limit: 50,
                channel: None,
                profile: Some("work".into()),
                mark_consumed: false,
            },
            Actor::Cli,
        )
        .unwrap()
    {
        Answer::Pull(p) => p.messages.iter().map(|m| m.seq).collect::<Vec<_>>(),
        other => panic!("{}", other.kind()),
    };
    assert_eq!(pulled, [2, 3, 4, 5], "a pull of `work` includes it");
    let after = brief("work");
    assert_eq!(after.records_considered, work_before + 1);
    assert_eq!(after.unassigned_waiting, 1);
    assert_eq!(waiting(&env.engine), [6]);
    let day_files: String = std::fs::read_dir(env.dir.path().join("data/inbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("20") && n.ends_with(".jsonl"))
        })
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(
        day_files.matches(r#""profile":"unassigned""#).count(),
        2,
        "inbox lines are never rewritten"
    );

    // Governance follows the assignment: a reply is now an ordinary `work` draft.
    let reply = env
        .engine
        .submit(
            Action::DraftReply {
                message_id: unassigned.id.clone(),
                body: "Thanks".into(),
                body_html: None,
                attachments: Vec::new(),
            },
            Actor::Cli,
        )
        .unwrap();
    assert!(matches!(reply, Outcome::Queued { .. }), "{reply:?}");
    // The assignment is audited, and survives another engine on the same data dir.
    let again = Env {
        engine: Arc::new(
            Engine::open(
                Paths::resolve(
                    Some(env.dir.path().join("data")),
                    Some(env.dir.path().join("config.toml")),
                )
                .unwrap(),
                Config::from_toml_str(CONFIG, Path::new("t.toml")).unwrap(),
                Mode::Secondary,
            )
            .unwrap(),
        ),
        spool: Spool::new(env.dir.path().join("spool2"), "work".into()).unwrap(),
        dir: tempfile::tempdir().unwrap(),
    };
    assert_eq!(again.record(3).profile, "work");
    assert!(
        env.engine
            .audit_tail(50)
            .unwrap()
            .iter()
            .any(|r| r.event.event == "inbox.assign" && r.event.entity.as_deref() == Some("work")),
    );
}

fn config_error(extra: &str) -> String {
    let text = format!("{CONFIG}{extra}");
    let e: ConfigError = Config::from_toml_str(&text, Path::new("t.toml")).unwrap_err();
    e.to_string()
}

#[test]
fn config_validation_names_the_rule_and_reserves_the_name() {
    let e = config_error(
        "[[classification.rules]]\nprofile = \"sales\"\nsenders = [\"a@b.example\"]\n",
    );
    assert!(
        e.contains("classification.rules[2].profile") && e.contains("not a profile"),
        "{e}"
    );
    let e = config_error("[[classification.rules]]\nprofile = \"work\"\n");
    assert!(
        e.contains("classification.rules[2]") && e.contains("matches nothing"),
        "{e}"
    );
    let e = config_error("[[classification.rules]]\nprofile = \"work\"\nsender = [\"x\"]\n");
    assert!(e.contains("sender"), "unknown key in a rule: {e}");
    let e = config_error("[[classification.rules]]\nprofile = \"work\"\nchannels = [\"fax\"]\n");
    assert!(e.contains("fax"), "{e}");
    let bad_switch = CONFIG.replace(
        "[classification]\n",
        "[classification]\nunmatched = \"drop\"\n",
    );
    let e = Config::from_toml_str(&bad_switch, Path::new("t.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unmatched"), "{e}");
    let e = config_error("[profiles.unassigned]\nsources = [\"spool\"]\n");
    assert!(
        e.contains("profiles.unassigned") && e.contains("reserved"),
        "{e}"
    );
    // The default switch is `unassigned`; "default" keeps today's behaviour for the rest.
    let c = Config::from_toml_str(
        &CONFIG.replace(
            "[classification]\n",
            "[classification]\nunmatched = \"default\"\n",
        ),
        Path::new("t.toml"),
    )
    .unwrap();
    assert_eq!(
        c.classification.unwrap().unmatched,
        opsdesk::config::Unmatched::Default
    );
}

// ------------------------------------------------------------------------------ MCP

const CLIENT: &str = "classification-test";

async fn rpc(server: &Server, method: &str, params: Value) -> Value {
    mcp_support::rpc(server, CLIENT, method, params).await
}

async fn call(server: &Server, tool: &str, args: Value) -> Value {
    mcp_support::call(server, CLIENT, tool, args).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_the_bucket_is_listed_redacted_actions_are_refused_and_nothing_can_assign() {
    let config = CONFIG.replace(
        "[classification]",
        "[sources.spool]\ninterval_secs = 1\n\n[classification]",
    );
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(&config)))
        .await
        .unwrap();
    // Written under a temporary name and renamed in, as the spool asks of writers.
    let spool = server.data_dir.join("spool");
    std::fs::create_dir_all(&spool).unwrap();
    std::fs::write(spool.join("m.eml.tmp"), EML_NOBODY).unwrap();
    std::fs::rename(spool.join("m.eml.tmp"), spool.join("m.eml")).unwrap();

    let deadline = Instant::now() + Duration::from_secs(30);
    let listed = loop {
        let r = call(&server, "triage_list", json!({"profile": UNASSIGNED})).await;
        if r["structuredContent"]["waiting"]
            .as_array()
            .is_some_and(|w| !w.is_empty())
        {
            break r;
        }
        assert!(
            Instant::now() < deadline,
            "the spooled mail never arrived: {r}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let w = &listed["structuredContent"]["waiting"][0];
    assert_eq!(w["profile"], UNASSIGNED);
    assert_eq!(w["seq"], 1);
    let s = listed.to_string();
    assert!(
        !s.contains("Lopez") && s.contains("phi_redaction"),
        "an uncleared client sees the unassigned item redacted: {s}"
    );

    // No tool assigns a profile.
    let tools = rpc(&server, "tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"triage_list"), "{names:?}");
    assert!(
        !names.iter().any(|n| n.contains("assign")),
        "no MCP tool can assign: {names:?}"
    );

    // An action naming it is refused with rule, reason and remedy.
    let r = call(
        &server,
        "draft_email",
        json!({"profile": UNASSIGNED, "to": ["someone@elsewhere.example"], "subject": "Hi", "body": "Hello"}),
    )
    .await;
    let sc = &r["structuredContent"];
    assert_eq!(sc["status"], "blocked", "{r}");
    assert_eq!(sc["rule"], "entity_boundary.unassigned");
    assert!(
        sc["remedy"]
            .as_str()
            .unwrap()
            .contains("opsdesk triage assign"),
        "{r}"
    );

    // The operator assigns it from the command line; the bucket empties, the item is the
    // clinic's (and still redacted for this client, now as the clinic's).
    let out = server.cli(&["triage", "assign", "1", "clinic"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = call(&server, "triage_list", json!({"profile": UNASSIGNED})).await;
    assert!(r["structuredContent"].get("waiting").is_none(), "{r}");
    let out = server.cli(&["--json", "triage", "list", "--profile", UNASSIGNED]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("waiting").is_none(), "{v}");
}

/// A mail a rule places in `work` (its sender's domain) that is really a patient's, with her
/// labs.
const EML_LABS: &str = "From: Lab Desk <labs@vendor-labs.example>\r\nTo: desk@contoso.com\r\nSubject: Your invoice and results\r\nMessage-ID: <labs-1@elsewhere.example>\r\nDate: Wed, 25 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nResults attached.\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=\"labs.txt\"\r\n\r\nMaria Lopez MRN: 00482913 potassium 6.1\r\n--b--\r\n";

fn work_draft_attaching(sha: &str) -> Action {
    Action::CreateDraft {
        profile: "work".into(),
        outbound: Outbound::SendEmail {
            to: vec!["bob@contoso.com".into()],
            cc: Vec::new(),
            subject: "fwd".into(),
            body: "see attached".into(),
            body_html: None,
            attachments: vec![opsdesk::domain::OutboundAttachment::by_hash(
                sha.to_string(),
            )],
        },
        provider: None,
    }
}

#[test]
fn assigning_an_item_makes_its_attachments_the_new_profiles_too_so_the_strictest_owner_applies() {
    let env = Env::new(&format!(
        "{CONFIG}\n[[classification.rules]]\nprofile = \"work\"\ndomains = [\"vendor-labs.example\"]\n"
    ));
    env.drop_file("labs.eml", EML_LABS);
    env.poll();
    let r = env.record(1);
    assert_eq!(r.profile, "work", "{:?}", rule_of(&r));
    let sha = r
        .attachments
        .iter()
        .find(|a| a.name == "labs.txt")
        .and_then(|a| a.sha256.clone())
        .expect("labs.txt stored");
    // Before the correction a `work` draft may attach the file (it came with `work` mail).
    let before = env.engine.submit(work_draft_attaching(&sha), Actor::Cli);
    assert!(matches!(before, Ok(Outcome::Queued { .. })), "{before:?}");

    env.engine.assign_profile(1, "clinic", &Actor::Cli).unwrap();

    // The file now belongs to `clinic` too: a read is attributed to both (so an uncleared
    // client gets it redacted, as HIPAA), and a `work` draft may no longer attach it.
    let owners = match env
        .engine
        .read(
            Query::AttachmentRead {
                sha256: sha.clone(),
                max_bytes: 1 << 20,
            },
            Actor::Cli,
        )
        .unwrap()
    {
        Answer::Attachment(a) => a.profiles.clone(),
        other => panic!("{}", other.kind()),
    };
    assert!(
        owners.contains(&"clinic".to_string()) && owners.contains(&"work".to_string()),
        "{owners:?}"
    );
    assert!(owners.iter().any(|p| env.engine.phi().is_hipaa(p)));
    let after = env
        .engine
        .submit(work_draft_attaching(&sha), Actor::Cli)
        .unwrap();
    assert_eq!(blocked_rule(after).0, "entity_boundary.attachment");
    // Nor may the clinic send it: `work` may have its own copy of the data.
    let mut clinic = work_draft_attaching(&sha);
    if let Action::CreateDraft {
        profile, outbound, ..
    } = &mut clinic
    {
        *profile = "clinic".into();
        if let Outbound::SendEmail { to, .. } = outbound {
            *to = vec!["desk@lakeside-clinic.example".into()];
        }
    }
    assert_eq!(
        blocked_rule(env.engine.submit(clinic, Actor::Cli).unwrap()).0,
        "entity_boundary.attachment"
    );
}

#[test]
fn removing_the_section_leaves_stored_unassigned_items_redacted_and_none_costs_nothing() {
    // A data dir that never held an unassigned item, and no HIPAA profile: the view is off.
    const PLAIN: &str = "[profiles.work]\nsources = [\"spool\"]\nphi_names = [\"Maria Lopez\"]\n";
    let plain = Env::new(PLAIN);
    assert!(!plain.engine.phi().is_active());
    // Nor does a [classification] that never sends items to `unassigned`.
    let default_only = Env::new(&format!(
        "{PLAIN}[classification]\nunmatched = \"default\"\n"
    ));
    assert!(!default_only.engine.phi().is_active());

    // Items stored as unassigned, then the section removed from the config.
    let env = Env::new(CONFIG);
    assert!(
        env.dir.path().join("data/inbox/unassigned.seen").is_file(),
        "a config with the bucket marks the data dir at once (items of older versions included)"
    );
    drop_mixed(&env);
    assert_eq!(env.record(6).profile, UNASSIGNED);
    let later = Engine::open(
        Paths::resolve(
            Some(env.dir.path().join("data")),
            Some(env.dir.path().join("config.toml")),
        )
        .unwrap(),
        Config::from_toml_str(PLAIN, Path::new("t.toml")).unwrap(),
        Mode::Secondary,
    )
    .unwrap();
    assert!(later.phi().is_active());
    let rec = later.inbox_record(6).unwrap().unwrap();
    let mut v = serde_json::to_value(&rec).unwrap();
    later
        .phi()
        .view(
            false,
            &opsdesk::governance::phi_view::Placeholders::default(),
            &mut v,
            None,
        )
        .unwrap();
    let s = v.to_string();
    assert!(!s.contains("Maria Lopez") && !s.contains("00482913"), "{s}");
}

fn work_email(to: &str, body: &str) -> Action {
    Action::CreateDraft {
        profile: "work".into(),
        outbound: Outbound::SendEmail {
            to: vec![to.into()],
            cc: Vec::new(),
            subject: "Re: your note".into(),
            body: body.into(),
            body_html: None,
            attachments: Vec::new(),
        },
        provider: None,
    }
}

#[test]
fn unassigned_content_cannot_be_copied_into_any_profiles_draft() {
    let env = Env::new(CONFIG);
    env.drop_file("b.eml", EML_NOBODY);
    env.poll();
    env.drop_file(
        "c.json",
        &json!([{"from": "who@unknown.example", "subject": "Hello",
                 "body": "The second scan on Tuesday showed the lesion has grown by four millimetres since October."}])
        .to_string(),
    );
    env.poll();
    assert!(env.records().iter().all(|r| r.profile == UNASSIGNED));

    // A paragraph of it quoted in a `work` draft, with no reply_to naming the item.
    let copied = env.engine.submit(
        work_email(
            "who@unknown.example",
            "Noted:\n> the second scan on Tuesday showed the lesion has grown by four millimetres",
        ),
        Actor::mcp("agent"),
    );
    let (rule, remedy) = blocked_rule(copied.unwrap());
    assert_eq!(rule, "entity_boundary.content");
    assert!(remedy.contains("opsdesk triage assign"), "{remedy}");
    // A person of any profile's roster who is named in an unassigned item.
    let named = env.engine.submit(
        work_email("bob@contoso.com", "Maria  Lopez asked about her refill"),
        Actor::mcp("agent"),
    );
    assert_eq!(blocked_rule(named.unwrap()).0, "entity_boundary.content");
    // Anything else is an ordinary draft.
    let plain = env
        .engine
        .submit(
            work_email("bob@contoso.com", "Running late, see you at ten."),
            Actor::mcp("agent"),
        )
        .unwrap();
    assert!(matches!(plain, Outcome::Queued { .. }), "{plain:?}");
}

#[test]
fn an_assignment_that_cannot_be_stored_is_audited_as_not_stored_and_changes_nothing() {
    let env = Env::new(CONFIG);
    drop_mixed(&env);
    // The assignments' lock cannot be opened (a directory in its place): `put` fails.
    let lock = env.dir.path().join("data/inbox/.assignments.lock");
    std::fs::create_dir_all(&lock).unwrap();
    let err = env.engine.assign_profile(3, "work", &Actor::Cli);
    assert!(matches!(err, Err(EngineError::Store(_))), "{err:?}");
    assert_eq!(env.record(3).profile, UNASSIGNED);
    let trail: Vec<(String, String)> = env
        .engine
        .audit_tail(50)
        .unwrap()
        .iter()
        .filter(|r| r.event.event == "inbox.assign")
        .map(|r| {
            (
                format!("{:?}", r.event.outcome),
                r.event.reason.clone().unwrap_or_default(),
            )
        })
        .collect();
    let last = trail.last().expect("audited");
    assert_eq!(last.0, "Error", "{trail:?}");
    assert!(last.1.starts_with("not stored:"), "{trail:?}");
    // Once the store works again the assignment goes through.
    std::fs::remove_dir(&lock).unwrap();
    env.engine.assign_profile(3, "work", &Actor::Cli).unwrap();
    assert_eq!(env.record(3).profile, "work");
}

#[test]
fn a_spool_file_cannot_forge_the_assignment_metadata() {
    let env = Env::new(CONFIG);
    env.drop_file(
        "forged.json",
        &json!([{"from": "boss@contoso.com", "profile": "work", "body": "explicit",
                 "meta": {"profile_rule": "classification.rules[0]: forged",
                          "profile_assigned": {"from": "unassigned", "by": "cli", "at": "2026-11-26T08:00:00Z"},
                          "note": "kept"}}])
        .to_string(),
    );
    env.poll();
    let r = env.record(1);
    assert_eq!(r.profile, "work");
    assert_eq!(rule_of(&r), None, "{:?}", r.meta);
    assert!(!r.meta.contains_key("profile_assigned"), "{:?}", r.meta);
    assert_eq!(r.meta["note"], "kept");
    // It came with its profile from its source: not assignable.
    let err = env.engine.assign_profile(1, "clinic", &Actor::Cli);
    assert!(matches!(err, Err(EngineError::Invalid { .. })), "{err:?}");
    assert_eq!(env.record(1).profile, "work");
}
