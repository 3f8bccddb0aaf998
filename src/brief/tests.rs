use super::build::*;
use super::model::*;
use crate::config::BriefSection;
use crate::domain::{BriefKind, Channel, Draft, DraftStatus, InboxRecord, Outbound};
use std::collections::BTreeMap;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

use crate::domain::{Actor, Party, Verdict};
use serde_json::Value;
use time::macros::{date, datetime, offset};

// Tuesday 2025-06-10, 08:00 UTC.
const NOW: OffsetDateTime = datetime!(2025-06-10 08:00 UTC);

/// Deadline phrases in `text` and the date each resolves to, for a message of day `sent` (its
/// time unknown): what the brief's deadline section reads from one message.
fn find_deadlines(text: &str, sent: Date) -> Vec<(String, Option<Date>)> {
    crate::timeexpr::deadlines(text, &crate::timeexpr::Context::on_day(sent))
        .into_iter()
        .map(|d| (d.phrase, d.due))
        .collect()
}

fn rec(seq: u64, channel: Channel, from: &str, subject: Option<&str>, text: &str) -> InboxRecord {
    InboxRecord {
        seq,
        id: format!("id-{seq}"),
        received_at: NOW - Duration::hours(1),
        profile: "work".into(),
        channel,
        thread_id: None,
        from: Party::new(
            from,
            format!("{}@example.com", from.to_lowercase().replace(' ', ".")),
        ),
        to: vec![],
        subject: subject.map(str::to_string),
        ts: NOW - Duration::hours(1),
        text: text.into(),
        preview: text.chars().take(40).collect(),
        meta: BTreeMap::new(),
        untrusted: true,
        attachments: Vec::new(),
    }
}

fn meeting(seq: u64, subject: &str, start: OffsetDateTime, minutes: i64) -> InboxRecord {
    let mut r = rec(seq, Channel::Calendar, "Organizer", Some(subject), "");
    r.meta.insert("start".into(), Value::from(rfc3339(start)));
    r.meta.insert(
        "end".into(),
        Value::from(rfc3339(start + Duration::minutes(minutes))),
    );
    r.meta.insert("location".into(), Value::from("Room 1"));
    r.meta
        .insert("organizer".into(), Value::from("org@example.com"));
    r
}

fn draft(id: &str, status: DraftStatus, outbound: Outbound, at: OffsetDateTime) -> Draft {
    Draft {
        id: id.into(),
        profile: "work".into(),
        digest: "d".into(),
        outbound,
        verdict: Verdict::Queue {
            reason: "test".into(),
        },
        provider: None,
        status,
        created_by: Actor::Mcp("claude".into()),
        created_at: at,
        updated_at: at,
        approved_digest: None,
        decided_by: None,
        reason: None,
        remote_id: None,
        edits: 0,
        requeued_from: None,
        requeued_as: None,
    }
}

fn email(to: &str, subject: &str) -> Outbound {
    Outbound::SendEmail {
        to: vec![to.into()],
        cc: vec![],
        subject: subject.into(),
        body: "b".into(),
        attachments: Vec::new(),
        body_html: None,
    }
}

fn due(text: &str, sent: Date) -> Vec<Option<Date>> {
    find_deadlines(text, sent)
        .into_iter()
        .map(|(_, d)| d)
        .collect()
}

#[test]
fn deadline_phrases_resolve_relative_to_the_message() {
    let tue = date!(2025 - 06 - 10);
    assert_eq!(
        due("please confirm by Friday.", tue),
        vec![Some(date!(2025 - 06 - 13))]
    );
    assert_eq!(due("by EOD please", tue), vec![Some(tue)]);
    assert_eq!(due("sign off by end of day", tue), vec![Some(tue)]);
    assert_eq!(due("by the end of the day", tue), vec![Some(tue)]);
    assert_eq!(
        due("send it by tomorrow", tue),
        vec![Some(date!(2025 - 06 - 11))]
    );
    assert_eq!(due("by Tuesday", tue), vec![Some(tue)]);
    assert_eq!(
        due("by next Tuesday", tue),
        vec![Some(date!(2025 - 06 - 17))]
    );
    assert_eq!(due("by Mon", tue), vec![Some(date!(2025 - 06 - 16))]);
    assert_eq!(
        due("first draft by the 15th", tue),
        vec![Some(date!(2025 - 06 - 15))]
    );
    assert_eq!(due("by the 5th", tue), vec![Some(date!(2025 - 07 - 05))]);
    assert_eq!(due("by the 31st", tue), vec![Some(date!(2025 - 07 - 31))]);
    assert_eq!(
        due("before 2025-07-01", tue),
        vec![Some(date!(2025 - 07 - 01))]
    );
    assert_eq!(due("due 6/30", tue), vec![Some(date!(2025 - 06 - 30))]);
    assert_eq!(
        due("due on 1/15/26", tue),
        vec![Some(date!(2026 - 01 - 15))]
    );
    assert_eq!(
        due("due by June 20th", tue),
        vec![Some(date!(2025 - 06 - 20))]
    );
    assert_eq!(
        due("no later than 3 March", tue),
        vec![Some(date!(2026 - 03 - 03))]
    );
    assert_eq!(
        due("by end of week", tue),
        vec![Some(date!(2025 - 06 - 13))]
    );
    // Not deadlines.
    assert!(due("written by Sam Rivera", tue).is_empty());
    assert!(due("before our 1:1", tue).is_empty());
    assert!(due("due to the outage", tue).is_empty());
    assert!(due("Total due: $12", tue).is_empty());
    assert!(due("standby Friday", tue).is_empty());
    assert!(due("hotfix by 15:30", tue).is_empty());
    assert!(due("contract ends on the 30th", tue).is_empty());
    // Invalid dates are found but not resolved.
    assert_eq!(due("before 2025-02-30", tue), vec![None]);
}

#[test]
fn deadline_text_is_the_clause_and_non_ascii_is_safe() {
    let got = find_deadlines(
        "Hi Alex. Price holds if you confirm by Friday. Thanks",
        date!(2025 - 06 - 10),
    );
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "Price holds if you confirm by Friday");
    let got = find_deadlines("Grüße – bitte by Friday 🎉 ok", date!(2025 - 06 - 10));
    assert_eq!(got[0].1, Some(date!(2025 - 06 - 13)));
}

#[test]
fn deadlines_in_the_brief_are_sorted_deduped_and_skip_the_past() {
    let mut old = rec(1, Channel::Email, "Old", Some("x"), "reply by Monday");
    old.ts = datetime!(2025-06-02 09:00 UTC); // Monday a week ago: past
    let r2 = rec(
        2,
        Channel::Email,
        "Elena Petrova",
        Some("Renewal – please confirm by Friday"),
        "confirm by Friday",
    );
    let r3 = rec(3, Channel::Teams, "Sam", None, "need it by EOD");
    let inputs = BriefInputs {
        records: vec![old, r2, r3],
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    let got: Vec<(u64, Option<&str>)> = b
        .deadlines
        .iter()
        .map(|d| (d.seq, d.due.as_deref()))
        .collect();
    assert_eq!(got, vec![(3, Some("2025-06-10")), (2, Some("2025-06-13"))]);
    assert_eq!(b.deadlines[1].from, "Elena Petrova");
}

#[test]
fn open_deals_show_stage_changes_dates_ahead_and_unanswered_mail() {
    use crate::domain::{Deal, DealLink, DealStage, KeyDate, LinkRule};
    let link = |seq: u64| DealLink {
        message_id: format!("id-{seq}"),
        seq,
        profile: "work".into(),
        thread_id: None,
        rule: LinkRule::Manual,
        reason: "x".into(),
    };
    let deal = |id: &str, stage: DealStage, changed: Option<OffsetDateTime>| Deal {
        id: id.into(),
        profile: "work".into(),
        name: format!("Deal {id}"),
        counterparties: vec![],
        stage,
        key_dates: vec![
            KeyDate {
                label: "closing".into(),
                date: "2025-06-20".into(),
            },
            KeyDate {
                label: "signing".into(),
                date: "2025-06-01".into(),
            },
            KeyDate {
                label: "long".into(),
                date: "2025-09-01".into(),
            },
        ],
        notes: String::new(),
        keywords: vec![],
        links: vec![link(1), link(2)],
        proposal: None,
        stage_changed_at: changed,
        created_by: Actor::Cli,
        created_at: NOW - Duration::days(30),
        updated_at: NOW,
    };
    let mut other = deal("d3", DealStage::Lead, None);
    other.profile = "home".into();
    let inputs = BriefInputs {
        records: vec![
            rec(1, Channel::Email, "Ann", Some("Terms"), "see terms"),
            rec(2, Channel::Email, "Bob", Some("Data room"), "open"),
        ],
        drafts: vec![draft(
            "r1",
            DraftStatus::Pending,
            Outbound::ReplyEmail {
                message_id: "id-2".into(),
                to: vec!["bob@example.com".into()],
                subject: "Re: Data room".into(),
                body: "thanks".into(),
                attachments: Vec::new(),
                body_html: None,
            },
            NOW,
        )],
        deals: vec![
            deal("d1", DealStage::Negotiation, Some(NOW - Duration::hours(3))),
            // Closed deals say nothing; another profile's deals never show.
            deal("d2", DealStage::Won, Some(NOW - Duration::hours(1))),
            other,
        ],
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    assert_eq!(b.deals.len(), 1, "{:?}", b.deals);
    let d = &b.deals[0];
    assert_eq!(d.id, "d1");
    assert!(d.stage_changed_at.is_some());
    assert_eq!(d.upcoming, vec!["closing 2025-06-20".to_string()]);
    assert_eq!(d.unanswered, vec![1], "#2 has a reply draft");
    assert!(b.text.contains("Deals (1):"), "{}", b.text);
    assert!(b.text.contains("unanswered: #1"), "{}", b.text);
}

#[test]
fn brief_config_picks_orders_and_limits_sections() {
    let records: Vec<InboxRecord> = (1..=4)
        .map(|n| {
            rec(
                n,
                Channel::Email,
                "Elena Petrova",
                Some("Can you approve the budget?"),
                "please confirm by Friday",
            )
        })
        .collect();
    let full = build(
        &BriefInputs {
            records: records.clone(),
            ..Default::default()
        },
        BriefKind::Morning,
        "work",
        NOW,
        UtcOffset::UTC,
    );
    assert!(full.needs_decision.len() >= 2 && !full.deadlines.is_empty());
    let layout = crate::config::BriefConfig {
        sections: vec![BriefSection::Decisions, BriefSection::Unread],
        max_decisions: 1,
        ..Default::default()
    };
    let b = build(
        &BriefInputs {
            records,
            layout,
            ..Default::default()
        },
        BriefKind::Morning,
        "work",
        NOW,
        UtcOffset::UTC,
    );
    assert_eq!(b.needs_decision.len(), 1, "limited");
    assert!(b.deadlines.is_empty() && b.meetings.is_empty(), "left out");
    let decisions = b.text.find("Needs a decision").unwrap();
    let unread = b.text.find("Unread:").unwrap();
    assert!(decisions < unread, "in the configured order: {}", b.text);
    assert!(
        !b.text.contains("Deadlines") && !b.text.contains("Meetings"),
        "{}",
        b.text
    );
}

#[test]
fn an_all_day_event_or_one_shown_as_free_is_listed_but_conflicts_with_nothing() {
    let mut holiday = meeting(
        1,
        "Company holiday",
        datetime!(2025-06-10 00:00 UTC),
        24 * 60,
    );
    holiday.meta.insert("all_day".into(), Value::from(true));
    let mut focus = meeting(2, "Focus time", datetime!(2025-06-10 10:00 UTC), 120);
    focus.meta.insert("show_as".into(), Value::from("free"));
    let records = vec![
        holiday,
        focus,
        meeting(3, "Board call", datetime!(2025-06-10 10:30 UTC), 60),
        meeting(4, "Vendor call", datetime!(2025-06-10 11:00 UTC), 60),
    ];
    let inputs = BriefInputs {
        records,
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    assert_eq!(b.meetings.len(), 4, "all four are listed");
    // Only the two busy calls overlap.
    assert_eq!(b.conflicts.len(), 1, "{:?}", b.conflicts);
    assert_eq!(
        (
            b.conflicts[0].a_subject.as_str(),
            b.conflicts[0].b_subject.as_str()
        ),
        ("Board call", "Vendor call")
    );
}

#[test]
fn meetings_of_the_day_and_their_conflicts() {
    let records = vec![
        meeting(
            1,
            "Fabrikam renewal call",
            datetime!(2025-06-10 10:00 UTC),
            60,
        ),
        meeting(2, "Q3 planning review", datetime!(2025-06-10 10:30 UTC), 60),
        meeting(3, "Standup", datetime!(2025-06-10 09:00 UTC), 15),
        meeting(4, "Tomorrow sync", datetime!(2025-06-11 09:00 UTC), 30),
        // A second copy of the same meeting (re-delivered) does not double up.
        meeting(5, "Standup", datetime!(2025-06-10 09:00 UTC), 15),
        // Back to back is no conflict.
        meeting(6, "After", datetime!(2025-06-10 11:30 UTC), 30),
    ];
    let inputs = BriefInputs {
        records,
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    let subjects: Vec<&str> = b.meetings.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(
        subjects,
        vec![
            "Standup",
            "Fabrikam renewal call",
            "Q3 planning review",
            "After"
        ]
    );
    assert_eq!(b.conflicts.len(), 1);
    assert_eq!(b.conflicts[0].overlap_minutes, 30);
    assert_eq!(b.meetings[1].conflicts_with, vec!["Q3 planning review"]);
    assert_eq!(b.meetings[2].conflicts_with, vec!["Fabrikam renewal call"]);
    assert_eq!(b.meetings[1].location.as_deref(), Some("Room 1"));
    assert!(
        b.text.contains("conflicts with \"Q3 planning review\""),
        "{}",
        b.text
    );

    let e = build(&inputs, BriefKind::EndOfDay, "work", NOW, UtcOffset::UTC);
    assert_eq!(e.meetings_date, "2025-06-11");
    assert_eq!(e.meetings.len(), 1);
    assert_eq!(e.meetings[0].subject, "Tomorrow sync");
}

#[test]
fn days_are_reckoned_in_the_given_offset() {
    // 23:30 UTC on the 10th is the 11th in UTC+02:00.
    let inputs = BriefInputs {
        records: vec![meeting(1, "Late", datetime!(2025-06-10 23:30 UTC), 30)],
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, offset!(+2));
    assert!(b.meetings.is_empty());
    assert_eq!(b.tz, "+02:00");
    let b = build(&inputs, BriefKind::EndOfDay, "work", NOW, offset!(+2));
    assert_eq!(b.meetings.len(), 1);
    assert!(b.meetings[0].start.starts_with("2025-06-11T01:30:00+02:00"));
}

#[test]
fn unread_counts_by_channel_and_sender_after_the_cursor() {
    let mut records = vec![
        rec(1, Channel::Email, "A", Some("s"), "read already"),
        rec(2, Channel::Email, "B", Some("s"), "x"),
        rec(3, Channel::Email, "B", Some("s"), "x"),
        rec(4, Channel::Teams, "C", None, "x"),
    ];
    let mut other = rec(5, Channel::Email, "Z", Some("s"), "x");
    other.profile = "clinic".into();
    records.push(other);
    let inputs = BriefInputs {
        records,
        unread_after: 1,
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    assert_eq!(b.unread.total, 3);
    assert_eq!(b.unread.by_channel.get("email"), Some(&2));
    assert_eq!(b.unread.by_channel.get("teams"), Some(&1));
    assert_eq!(
        b.unread.by_sender[0],
        SenderCount {
            sender: "B".into(),
            count: 2
        }
    );
    assert_eq!(b.records_considered, 4);
    assert!(b.untrusted_content);
    assert!(!b.polished);
    assert!(b.polish_note.contains("no LLM router polish was requested"));
}

#[test]
fn decisions_are_questions_and_asks_without_a_reply_draft() {
    let q = rec(
        1,
        Channel::Email,
        "A",
        Some("Budget"),
        "Do we commit to 12 months or 6?",
    );
    let confirm = rec(
        2,
        Channel::Email,
        "B",
        Some("Renewal"),
        "Please confirm the quote",
    );
    let replied = rec(
        3,
        Channel::Email,
        "C",
        Some("Approve?"),
        "can you approve this",
    );
    let fyi = rec(4, Channel::Email, "D", Some("FYI"), "The build is green.");
    let mut bot = rec(5, Channel::Email, "CI", Some("Failed?"), "why?");
    bot.from.address = "ci-noreply@contoso.com".into();
    let drafts = vec![draft(
        "d1",
        DraftStatus::Pending,
        Outbound::ReplyEmail {
            message_id: "id-3".into(),
            to: vec!["c@example.com".into()],
            subject: "Re: Approve?".into(),
            body: "yes".into(),
            attachments: Vec::new(),
            body_html: None,
        },
        NOW,
    )];
    let inputs = BriefInputs {
        records: vec![q, confirm, replied, fyi, bot],
        drafts,
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    let seqs: Vec<u64> = b.needs_decision.iter().map(|d| d.seq).collect();
    assert_eq!(seqs, vec![2, 1]);
    assert!(b.needs_decision[0].why.contains("confirm"));
    assert_eq!(b.needs_decision[1].why, "asks a question");
}

#[test]
fn drafts_pending_and_decided_today_differ_between_morning_and_eod() {
    let drafts = vec![
        draft(
            "p1",
            DraftStatus::Pending,
            email("x@example.com", "Quote"),
            NOW - Duration::minutes(125),
        ),
        draft(
            "a1",
            DraftStatus::Approved,
            email("y@example.com", "Done"),
            NOW - Duration::minutes(5),
        ),
        draft(
            "r1",
            DraftStatus::Rejected,
            email("y@example.com", "Old"),
            NOW - Duration::days(2),
        ),
    ];
    let inputs = BriefInputs {
        records: vec![rec(1, Channel::Email, "A", Some("hello"), "hi")],
        drafts,
        ..Default::default()
    };
    let m = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    assert_eq!(m.kind, "morning");
    assert_eq!(m.drafts_awaiting_approval.len(), 1);
    assert_eq!(m.drafts_awaiting_approval[0].age, "2h 5m");
    assert_eq!(
        m.drafts_awaiting_approval[0].recipients,
        vec!["x@example.com"]
    );
    assert!(m.decided_today.is_empty());
    assert!(
        m.text
            .starts_with("Morning brief · work · Tuesday 2025-06-10"),
        "{}",
        m.text
    );

    let e = build(&inputs, BriefKind::EndOfDay, "work", NOW, UtcOffset::UTC);
    assert_eq!(e.kind, "end_of_day");
    let ids: Vec<&str> = e.decided_today.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, vec!["a1"]);
    assert_eq!(e.arrived_today.total, 1);
    assert!(e.text.contains("Arrived today: 1"), "{}", e.text);
    assert!(e.text.contains("Decided today (1)"), "{}", e.text);
    assert!(e.text.contains("Meetings tomorrow"), "{}", e.text);
}

#[test]
fn text_quotes_inbound_content_on_one_line() {
    let r = rec(
        1,
        Channel::Email,
        "Eve",
        Some("line1\nline2 \"x\"\u{1b}[31m"),
        "can you approve?",
    );
    let inputs = BriefInputs {
        records: vec![r],
        ..Default::default()
    };
    let b = build(&inputs, BriefKind::Morning, "work", NOW, UtcOffset::UTC);
    assert!(!b.text.contains('\u{1b}'));
    assert!(b.text.contains("\"line1 line2 'x' [31m\""), "{}", b.text);
}

#[test]
fn the_brief_serializes_to_what_its_schema_describes() {
    let b = build(
        &BriefInputs::default(),
        BriefKind::Morning,
        "work",
        NOW,
        UtcOffset::UTC,
    );
    let v = serde_json::to_value(&b).unwrap();
    let schema = serde_json::to_value(schemars::schema_for!(Brief)).unwrap();
    let props = schema["properties"].as_object().unwrap();
    for k in v.as_object().unwrap().keys() {
        assert!(props.contains_key(k), "{k} missing from the schema");
    }
    let back: Brief = serde_json::from_value(v).unwrap();
    assert_eq!(back, b);
}
