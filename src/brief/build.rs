//! Building a brief from the engine's data: a pure function of `BriefInputs`.

use std::collections::{BTreeSet, HashMap};

use time::format_description::well_known::Rfc3339;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

use super::dates::*;
use super::model::*;
use super::render::*;
use crate::config::BriefSection;
use crate::domain::{BriefKind, Channel, Draft, DraftStatus, InboxRecord, Outbound};

/// Build the brief of `profile` from `inputs`, as of `now`, with days reckoned in `tz`.
pub fn build(
    inputs: &BriefInputs,
    kind: BriefKind,
    profile: &str,
    now: OffsetDateTime,
    tz: UtcOffset,
) -> Brief {
    let now = now.to_offset(tz);
    let today = now.date();
    let records: Vec<&InboxRecord> = {
        let mut v: Vec<&InboxRecord> = inputs
            .records
            .iter()
            .filter(|r| r.profile == profile)
            .collect();
        v.sort_by_key(|r| std::cmp::Reverse(r.seq));
        v.dedup_by_key(|r| r.seq);
        v
    };
    let drafts: Vec<&Draft> = inputs
        .drafts
        .iter()
        .filter(|d| d.profile == profile)
        .collect();

    let unread = unread(&records, inputs.unread_after);
    let arrived_today = {
        let mut c = Counts::default();
        for r in records
            .iter()
            .filter(|r| r.received_at.to_offset(tz).date() == today)
        {
            c.total += 1;
            *c.by_channel.entry(r.channel.to_string()).or_default() += 1;
        }
        c
    };
    let meetings_date = match kind {
        BriefKind::Morning => today,
        BriefKind::EndOfDay => today.next_day().unwrap_or(today),
    };
    let (meetings, conflicts) = meetings_on(&records, meetings_date, tz);
    let drafts_awaiting_approval = pending_drafts(&drafts, now);
    let decided_today = match kind {
        BriefKind::Morning => Vec::new(),
        BriefKind::EndOfDay => decided_on(&drafts, today, tz),
    };
    let deadlines = deadlines(&records, today, tz, inputs.date_order);
    let needs_decision = decisions(&records, &drafts);
    let deals = deal_snapshots(inputs, profile, &records, &drafts, now, today);
    // `[brief]`: left-out sections are empty, lists are cut to their limits.
    let layout = &inputs.layout;
    let shown = |s: BriefSection| layout.sections.contains(&s);
    let (meetings, conflicts) = if shown(BriefSection::Meetings) {
        (meetings, conflicts)
    } else {
        (Vec::new(), Vec::new())
    };
    let drafts_awaiting_approval = keep(
        shown(BriefSection::Drafts),
        drafts_awaiting_approval,
        usize::MAX,
    );
    let decided_today = keep(shown(BriefSection::Decided), decided_today, usize::MAX);
    let deadlines = keep(
        shown(BriefSection::Deadlines),
        deadlines,
        layout.max_deadlines,
    );
    let needs_decision = keep(
        shown(BriefSection::Decisions),
        needs_decision,
        layout.max_decisions,
    );
    let deals = keep(shown(BriefSection::Deals), deals, layout.max_deals);

    let mut b = Brief {
        kind: match kind {
            BriefKind::Morning => "morning",
            BriefKind::EndOfDay => "end_of_day",
        }
        .into(),
        profile: profile.to_string(),
        generated_at: rfc3339(now),
        tz: fmt_offset(tz),
        day: today.to_string(),
        untrusted_content: true,
        unread,
        arrived_today,
        meetings_date: meetings_date.to_string(),
        meetings,
        conflicts,
        drafts_awaiting_approval,
        decided_today,
        deadlines,
        needs_decision,
        polished: false,
        polish_note: POLISH_NOTE_NOT_REQUESTED.into(),
        polish_skipped: None,
        records_considered: records.len(),
        truncated: inputs.truncated,
        deals,
        unassigned_waiting: 0,
        text: String::new(),
    };
    b.text = render(&b, kind, now, &layout.sections);
    b
}

/// The deal snapshot: open deals of `profile` with a stage change in the last day, key dates
/// in the next two weeks, or linked mail from others that has no reply draft.
pub(super) fn deal_snapshots(
    inputs: &BriefInputs,
    profile: &str,
    records: &[&InboxRecord],
    drafts: &[&Draft],
    now: OffsetDateTime,
    today: Date,
) -> Vec<DealSnapshot> {
    let mut out = Vec::new();
    for d in inputs
        .deals
        .iter()
        .filter(|d| d.profile == profile && d.is_open())
    {
        let stage_changed_at = d
            .stage_changed_at
            .filter(|t| now - *t <= Duration::days(1))
            .map(rfc3339);
        let mut dates: Vec<(Date, String)> = d
            .key_dates
            .iter()
            .filter_map(|k| k.day().map(|day| (day, format!("{} {}", k.label, k.date))))
            .filter(|(day, _)| {
                *day >= today && *day - today <= Duration::days(DEAL_DATES_AHEAD_DAYS)
            })
            .collect();
        dates.sort();
        let unanswered: Vec<u64> = records
            .iter()
            .filter(|r| d.linked(&r.id).is_some())
            .filter(|r| r.channel != Channel::Calendar && !is_automated_sender(&r.from.address))
            .filter(|r| !answered(r, drafts))
            .map(|r| r.seq)
            .collect();
        if stage_changed_at.is_some() || !dates.is_empty() || !unanswered.is_empty() {
            out.push(DealSnapshot {
                id: d.id.clone(),
                name: d.name.clone(),
                stage: d.stage.to_string(),
                stage_changed_at,
                upcoming: dates.into_iter().map(|(_, s)| s).collect(),
                unanswered,
            });
        }
    }
    out
}

/// `v` when its section is shown, at most `max` long; empty otherwise.
pub(super) fn keep<T>(on: bool, mut v: Vec<T>, max: usize) -> Vec<T> {
    if !on {
        v.clear();
    }
    v.truncate(max);
    v
}

pub(super) fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_default()
}

pub(super) fn fmt_offset(tz: UtcOffset) -> String {
    let (h, m, _) = tz.as_hms();
    let sign = if tz.is_negative() { '-' } else { '+' };
    format!("{sign}{:02}:{:02}", h.unsigned_abs(), m.unsigned_abs())
}

pub(super) fn unread(records: &[&InboxRecord], after: u64) -> Unread {
    let mut u = Unread::default();
    let mut senders: HashMap<String, u64> = HashMap::new();
    for r in records.iter().filter(|r| r.seq > after) {
        u.total += 1;
        *u.by_channel.entry(r.channel.to_string()).or_default() += 1;
        *senders.entry(r.from.label().to_string()).or_default() += 1;
    }
    let mut by: Vec<SenderCount> = senders
        .into_iter()
        .map(|(sender, count)| SenderCount { sender, count })
        .collect();
    by.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.sender.cmp(&b.sender)));
    by.truncate(TOP_SENDERS);
    u.by_sender = by;
    u
}

pub(super) fn meta_str(r: &InboxRecord, key: &str) -> Option<String> {
    r.meta
        .get(key)
        .and_then(|v| v.as_str())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

pub(super) fn meta_time(r: &InboxRecord, key: &str) -> Option<OffsetDateTime> {
    meta_str(r, key).and_then(|s| OffsetDateTime::parse(&s, &Rfc3339).ok())
}

/// Calendar items that touch `day` (in `tz`), earliest first, and the pairs that overlap.
pub(super) fn meetings_on(
    records: &[&InboxRecord],
    day: Date,
    tz: UtcOffset,
) -> (Vec<Meeting>, Vec<Conflict>) {
    let day_start = day.midnight().assume_offset(tz);
    let day_end = day_start + Duration::days(1);
    let mut seen = BTreeSet::new();
    // A Graph event comes in once per version (`meta.graph_id` = the event id): only its newest
    // version (latest change time, then latest record) counts, wherever it now falls, and a
    // cancelled one is left out.
    let mut newest: HashMap<String, (OffsetDateTime, u64)> = HashMap::new();
    for r in records.iter().filter(|r| r.channel == Channel::Calendar) {
        if let Some(id) = meta_str(r, "graph_id") {
            let v = newest.entry(id).or_insert((r.ts, r.seq));
            *v = (*v).max((r.ts, r.seq));
        }
    }
    // (start, end, busy, meeting)
    let mut found: Vec<(OffsetDateTime, OffsetDateTime, bool, Meeting)> = Vec::new();
    // Newest first: a later copy of the same meeting wins.
    for r in records.iter().filter(|r| r.channel == Channel::Calendar) {
        if meta_str(r, "graph_id").is_some_and(|id| newest.get(&id) != Some(&(r.ts, r.seq))) {
            continue;
        }
        if r.meta.get("cancelled").and_then(|v| v.as_bool()) == Some(true) {
            continue;
        }
        let Some(start) = meta_time(r, "start") else {
            continue;
        };
        let end = meta_time(r, "end").filter(|e| *e >= start).unwrap_or(start);
        if start >= day_end || (end <= day_start && start < day_start) {
            continue;
        }
        let subject = r
            .subject
            .clone()
            .unwrap_or_else(|| "(no subject)".to_string());
        if !seen.insert((subject.clone(), start, end)) {
            continue;
        }
        // An all-day event (a holiday, an out-of-office day) and one shown as free take no
        // time from the others: listed, never a conflict.
        let busy = r.meta.get("all_day").and_then(|v| v.as_bool()) != Some(true)
            && meta_str(r, "show_as").is_none_or(|s| !s.eq_ignore_ascii_case("free"));
        found.push((
            start,
            end,
            busy,
            Meeting {
                seq: r.seq,
                subject,
                start: rfc3339(start.to_offset(tz)),
                end: rfc3339(end.to_offset(tz)),
                location: meta_str(r, "location"),
                organizer: meta_str(r, "organizer")
                    .or_else(|| Some(r.from.label().to_string()).filter(|s| !s.is_empty())),
                conflicts_with: Vec::new(),
            },
        ));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(a.3.seq.cmp(&b.3.seq)));
    let mut conflicts = Vec::new();
    for i in 0..found.len() {
        for j in i + 1..found.len() {
            if !found[i].2 || !found[j].2 {
                continue;
            }
            let (s1, e1) = (found[i].0, found[i].1);
            let (s2, e2) = (found[j].0, found[j].1);
            let overlap = e1.min(e2) - s1.max(s2);
            if overlap > Duration::ZERO {
                conflicts.push(Conflict {
                    a_seq: found[i].3.seq,
                    a_subject: found[i].3.subject.clone(),
                    b_seq: found[j].3.seq,
                    b_subject: found[j].3.subject.clone(),
                    overlap_minutes: overlap.whole_minutes(),
                });
            }
        }
    }
    let mut meetings: Vec<Meeting> = found.into_iter().map(|(_, _, _, m)| m).collect();
    for c in &conflicts {
        for m in meetings.iter_mut() {
            if m.seq == c.a_seq {
                m.conflicts_with.push(c.b_subject.clone());
            } else if m.seq == c.b_seq {
                m.conflicts_with.push(c.a_subject.clone());
            }
        }
    }
    (meetings, conflicts)
}

pub(super) fn human_age(minutes: i64) -> String {
    let m = minutes.max(0);
    if m < 60 {
        format!("{m}m")
    } else if m < 60 * 24 {
        format!("{}h {}m", m / 60, m % 60)
    } else {
        format!("{}d {}h", m / (60 * 24), (m / 60) % 24)
    }
}

pub(super) fn pending_drafts(drafts: &[&Draft], now: OffsetDateTime) -> Vec<PendingDraft> {
    let mut v: Vec<&&Draft> = drafts
        .iter()
        .filter(|d| d.status == DraftStatus::Pending)
        .collect();
    v.sort_by_key(|d| d.created_at);
    v.into_iter()
        .map(|d| {
            let age_minutes = (now - d.created_at).whole_minutes().max(0);
            PendingDraft {
                id: d.id.clone(),
                kind: d.outbound.kind().to_string(),
                recipients: d.outbound.recipients(),
                subject: d.outbound.subject().map(str::to_string),
                created_at: rfc3339(d.created_at),
                age: human_age(age_minutes),
                age_minutes,
            }
        })
        .collect()
}

pub(super) fn decided_on(drafts: &[&Draft], day: Date, tz: UtcOffset) -> Vec<DecidedDraft> {
    let mut v: Vec<&&Draft> = drafts
        .iter()
        .filter(|d| d.status != DraftStatus::Pending)
        .filter(|d| d.updated_at.to_offset(tz).date() == day)
        .collect();
    v.sort_by_key(|d| d.updated_at);
    v.into_iter()
        .map(|d| DecidedDraft {
            id: d.id.clone(),
            kind: d.outbound.kind().to_string(),
            subject: d.outbound.subject().map(str::to_string),
            status: d.status.as_str().to_string(),
            decided_at: rfc3339(d.updated_at.to_offset(tz)),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Decisions

pub(super) const DECISION_PHRASES: &[(&str, &str)] = &[
    ("please confirm", "asks to confirm"),
    ("can you confirm", "asks to confirm"),
    ("could you confirm", "asks to confirm"),
    ("can you approve", "asks for approval"),
    ("could you approve", "asks for approval"),
    ("please approve", "asks for approval"),
    ("need your approval", "asks for approval"),
    ("needs your approval", "asks for approval"),
    ("sign off", "asks for a sign-off"),
    ("sign-off", "asks for a sign-off"),
    ("decide", "asks for a decision"),
    ("decision", "asks for a decision"),
    ("go/no-go", "asks for a decision"),
    ("your call", "asks for a decision"),
    ("let me know", "asks for an answer"),
];

/// Senders that never expect an answer (no-reply, notification and bounce addresses): the brief
/// does not count them as unanswered and the demo assistant never drafts a reply to them.
pub fn is_automated_sender(address: &str) -> bool {
    let a = address.to_ascii_lowercase();
    [
        "noreply",
        "no-reply",
        "donotreply",
        "do-not-reply",
        "notifications@",
        "mailer-daemon",
    ]
    .iter()
    .any(|p| a.contains(p))
}

pub(super) fn answered(r: &InboxRecord, drafts: &[&Draft]) -> bool {
    drafts.iter().any(|d| {
        d.status != DraftStatus::Rejected
            && match &d.outbound {
                Outbound::ReplyEmail { message_id, .. } => *message_id == r.id,
                Outbound::PostChat { chat_id, .. } => {
                    r.channel == Channel::Teams
                        && r.thread_id.as_deref() == Some(chat_id.as_str())
                        && d.created_at >= r.ts
                }
                _ => false,
            }
    })
}

pub(super) fn decisions(records: &[&InboxRecord], drafts: &[&Draft]) -> Vec<Decision> {
    let mut out = Vec::new();
    for r in records {
        if r.channel == Channel::Calendar || is_automated_sender(&r.from.address) {
            continue;
        }
        let subject = r.subject.as_deref().unwrap_or("");
        let hay = format!("{subject}\n{}", r.text).to_lowercase();
        let why = DECISION_PHRASES
            .iter()
            .find(|(p, _)| hay.contains(p))
            .map(|(p, why)| format!("{why} (\"{p}\")"))
            .or_else(|| hay.contains('?').then(|| "asks a question".to_string()));
        let Some(why) = why else { continue };
        if answered(r, drafts) {
            continue;
        }
        out.push(Decision {
            seq: r.seq,
            from: r.from.label().to_string(),
            subject: r.subject.clone(),
            why,
        });
        if out.len() >= MAX_DECISIONS {
            break;
        }
    }
    out
}
