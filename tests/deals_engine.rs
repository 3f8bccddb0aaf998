//! Deals through the engine: the operator's actions are audited before they happen (no audit,
//! no change), new mail links itself to open deals of its own profile with the reason recorded,
//! the entity boundary refuses links across profiles with rule, reason and remedy, and a
//! client's proposal becomes a deal only when the operator accepts it, exactly once.

use std::path::Path;
use std::sync::Arc;

use opsdesk::config::Config;
use opsdesk::domain::{
    Action, Actor, AuditOutcome, Channel, DealSpec, DealStage, KeyDate, LinkRule, NewMessage,
    Outbound, Outcome, Party, Query,
};
use opsdesk::engine::query::Answer;
use opsdesk::engine::{Engine, EngineError, Mode};
use opsdesk::paths::Paths;

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
never_mix_with = ["clinic"]

[profiles.clinic]
sources = ["spool"]
email_domains = ["riversideclinic.org"]

[profiles.personal]
sources = ["spool"]
"#;

fn engine(dir: &Path) -> Engine {
    let paths = Paths::resolve(Some(dir.to_path_buf()), Some(dir.join("config.toml"))).unwrap();
    let config = Config::from_toml_str(CONFIG, Path::new("test.toml")).unwrap();
    Engine::open(paths, config, Mode::Secondary).unwrap()
}

fn mail(id: &str, profile: &str, from: &str, subject: &str, thread: Option<&str>) -> NewMessage {
    NewMessage {
        id: id.into(),
        profile: profile.into(),
        channel: Channel::Email,
        thread_id: thread.map(str::to_string),
        from: Party::new("", from),
        to: vec![],
        subject: Some(subject.into()),
        ts: time::OffsetDateTime::now_utc(),
        body: "see attached".into(),
        html: false,
        meta: Default::default(),
        attachments: Vec::new(),
    }
}

fn spec(name: &str) -> DealSpec {
    DealSpec {
        name: name.into(),
        counterparties: vec!["acme.example".into()],
        stage: DealStage::Lead,
        key_dates: vec![KeyDate {
            label: "closing".into(),
            date: "2026-12-15".into(),
        }],
        notes: "first call went well".into(),
        keywords: vec!["sunrise".into()],
    }
}

fn create(e: &Engine, profile: &str) -> String {
    let o = e
        .submit(
            Action::CreateDeal {
                profile: profile.into(),
                spec: spec("Sunrise"),
            },
            Actor::Cli,
        )
        .unwrap();
    let Outcome::Done {
        detail: opsdesk::domain::Done::Deal(deal),
    } = o
    else {
        panic!("{o:?}")
    };
    deal.id
}

fn audit_events(e: &Engine) -> Vec<(String, AuditOutcome, Option<String>)> {
    e.audit_tail(1000)
        .unwrap()
        .into_iter()
        .map(|r| (r.event.event, r.event.outcome, r.event.reason))
        .collect()
}

#[test]
fn new_mail_links_itself_by_participant_thread_and_keyword_within_its_profile() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(dir.path());
    let id = create(&e, "work");
    e.ingest(
        mail("m1", "work", "ann@acme.example", "Terms", Some("t1")),
        "test",
    )
    .unwrap();
    e.ingest(
        mail("m2", "work", "zed@z.example", "Re: Terms", Some("t1")),
        "test",
    )
    .unwrap();
    e.ingest(
        mail("m3", "work", "q@q.example", "Sunrise diligence list", None),
        "test",
    )
    .unwrap();
    e.ingest(mail("m4", "work", "q@q.example", "Lunch?", None), "test")
        .unwrap();
    // Another profile's mail never links to a work deal, whatever it matches.
    e.ingest(
        mail("c1", "clinic", "ann@acme.example", "Sunrise", Some("t1")),
        "test",
    )
    .unwrap();
    e.ingest(
        mail("p1", "personal", "ann@acme.example", "Sunrise", None),
        "test",
    )
    .unwrap();

    let d = e.deal(&id).unwrap().unwrap();
    let links: Vec<(&str, LinkRule)> = d
        .links
        .iter()
        .map(|l| (l.message_id.as_str(), l.rule))
        .collect();
    assert_eq!(
        links,
        [
            ("m1", LinkRule::Participant),
            ("m2", LinkRule::Thread),
            ("m3", LinkRule::Keyword)
        ]
    );
    assert_eq!(d.links[1].reason, "same thread as linked message #1");
    // Each automatic link is in the audit trail with its reason.
    let autolinks: Vec<String> = audit_events(&e)
        .into_iter()
        .filter(|(ev, ..)| ev == "deal.autolink")
        .filter_map(|(_, _, r)| r)
        .collect();
    assert_eq!(autolinks.len(), 3, "{autolinks:?}");
    assert!(
        autolinks[2].contains("keyword `sunrise` in the subject"),
        "{autolinks:?}"
    );

    // Detail and timeline show only the deal's own entity's messages, in time order.
    let Answer::Deal(detail) = e
        .read(Query::DealDetail { id: id.clone() }, Actor::Cli)
        .unwrap()
    else {
        panic!()
    };
    assert!(detail.messages.iter().all(|m| m.profile == "work"));
    assert_eq!(detail.messages.len(), 3);
    let Answer::DealTimeline(tl) = e
        .read(
            Query::DealTimeline {
                id: id.clone(),
                limit: 100,
            },
            Actor::Cli,
        )
        .unwrap()
    else {
        panic!()
    };
    let sources: Vec<&str> = tl.entries.iter().map(|x| x.source.as_str()).collect();
    assert_eq!(sources.iter().filter(|s| **s == "message").count(), 3);
    assert!(sources.contains(&"deal") && sources.contains(&"audit"));
    assert!(tl.entries.windows(2).all(|w| w[0].at <= w[1].at));
    assert!(tl.entries.iter().all(|x| x.profile == "work"));
}

#[test]
fn linking_across_profiles_is_refused_with_rule_reason_and_remedy() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(dir.path());
    let id = create(&e, "work");
    e.ingest(mail("c1", "clinic", "x@x.example", "Labs", None), "test")
        .unwrap();
    e.ingest(mail("p1", "personal", "x@x.example", "Hi", None), "test")
        .unwrap();
    for (message, rule) in [
        ("c1", "entity_boundary.never_mix"),
        ("p1", "entity_boundary.deal_profile"),
    ] {
        let o = e
            .submit(
                Action::LinkDeal {
                    deal_id: id.clone(),
                    message: message.into(),
                },
                Actor::Cli,
            )
            .unwrap();
        let Outcome::Blocked {
            rule: r,
            reason,
            remedy,
        } = o
        else {
            panic!("{o:?}")
        };
        assert_eq!(r, rule);
        assert!(reason.contains("work"), "{reason}");
        assert!(!remedy.is_empty());
    }
    assert!(e.deal(&id).unwrap().unwrap().links.is_empty());
    let blocked = audit_events(&e)
        .into_iter()
        .filter(|(ev, o, _)| ev == "deal.link" && *o == AuditOutcome::Blocked)
        .count();
    assert_eq!(blocked, 2);
}

#[test]
fn clients_cannot_change_deals_and_operator_changes_are_audited_first() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(dir.path());
    let o = e
        .submit(
            Action::CreateDeal {
                profile: "work".into(),
                spec: spec("Sunrise"),
            },
            Actor::mcp("claude"),
        )
        .unwrap();
    assert!(
        matches!(&o, Outcome::Blocked { rule, .. } if rule == "operator_only_deals"),
        "{o:?}"
    );
    assert!(e.deal_book().unwrap().deals.is_empty());

    let id = create(&e, "work");
    // Fail closed: with the audit trail unwritable the stage change does not happen.
    let month = time::OffsetDateTime::now_utc();
    let file = dir.path().join("audit").join(format!(
        "{:04}-{:02}.jsonl",
        month.year(),
        month.month() as u8
    ));
    assert!(file.exists(), "{}", file.display());
    let e = {
        drop(e);
        // Replace the month's file with a directory: no process, root included, can append.
        std::fs::rename(&file, file.with_extension("moved")).unwrap();
        std::fs::create_dir(&file).unwrap();
        engine(dir.path())
    };
    let err = e
        .submit(
            Action::SetDealStage {
                deal_id: id.clone(),
                stage: DealStage::Closing,
                note: None,
            },
            Actor::Cli,
        )
        .unwrap_err();
    assert!(matches!(err, EngineError::AuditUnavailable(_)), "{err:?}");
    assert_eq!(e.deal(&id).unwrap().unwrap().stage, DealStage::Lead);
}

#[test]
fn a_proposal_becomes_a_deal_only_when_accepted_and_only_once() {
    let dir = tempfile::tempdir().unwrap();
    let e = Arc::new(engine(dir.path()));
    let o = e
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::CreateDeal {
                    spec: spec("Proposed"),
                },
                provider: None,
            },
            Actor::mcp("claude"),
        )
        .unwrap();
    let Outcome::Queued { draft_id, .. } = o else {
        panic!("{o:?}")
    };
    assert!(
        e.deal_book().unwrap().deals.is_empty(),
        "nothing before acceptance"
    );
    let pending = e.draft(&draft_id).unwrap().unwrap();
    assert!(
        e.carry_out_deal_proposal(&pending).is_err(),
        "not approved yet"
    );

    e.submit(
        Action::ApproveDraft {
            id: draft_id.clone(),
            digest: None,
        },
        Actor::Cli,
    )
    .unwrap();
    let approved = e.draft(&draft_id).unwrap().unwrap();
    let deal = e.carry_out_deal_proposal(&approved).unwrap();
    assert_eq!(deal.proposal.as_deref(), Some(draft_id.as_str()));
    assert_eq!(deal.profile, "work");
    // A second attempt (the executor racing the CLI, a retry after a crash) finds it there.
    let again = e.carry_out_deal_proposal(&approved).unwrap();
    assert_eq!(again.id, deal.id);
    assert_eq!(e.deal_book().unwrap().deals.len(), 1);
    let d = e.draft(&draft_id).unwrap().unwrap();
    assert_eq!(d.status.as_str(), "executed");
    assert_eq!(d.remote_id.as_deref(), Some(deal.id.as_str()));
}

#[test]
fn a_proposal_with_a_counterparty_of_a_foreign_entity_is_blocked() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(dir.path());
    let mut s = spec("Crossing");
    s.counterparties = vec!["dr@riversideclinic.org".into()];
    let o = e
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::CreateDeal { spec: s.clone() },
                provider: None,
            },
            Actor::mcp("claude"),
        )
        .unwrap();
    assert!(
        matches!(&o, Outcome::Blocked { rule, .. } if rule == "entity_boundary.recipient"),
        "{o:?}"
    );
    let o = e
        .submit(
            Action::CreateDeal {
                profile: "work".into(),
                spec: s,
            },
            Actor::Cli,
        )
        .unwrap();
    assert!(matches!(o, Outcome::Blocked { .. }), "{o:?}");
}
