//! The brief polish is checked against the deterministic brief before it is used: a rewrite
//! that drops a fact (an unread count, a sender, a deadline's date or sender, a draft waiting
//! for approval, its recipients, a meeting, a decision's sender) is not a rewrite. The model's
//! text replaces the brief only when every fact is still in it.

use crate::brief::Brief;

/// The facts of `b` a rewrite must keep, as they are written in the deterministic text.
pub fn facts(b: &Brief) -> Vec<String> {
    let mut f: Vec<String> = Vec::new();
    if b.unread.total > 0 {
        f.push(b.unread.total.to_string());
    }
    f.extend(b.unread.by_sender.iter().map(|s| s.sender.clone()));
    for d in &b.deadlines {
        f.extend(d.due.clone());
        f.push(d.from.clone());
    }
    for d in &b.drafts_awaiting_approval {
        f.push(d.id.clone());
        f.extend(d.recipients.iter().cloned());
    }
    f.extend(b.meetings.iter().map(|m| m.subject.clone()));
    f.extend(b.needs_decision.iter().map(|d| d.from.clone()));
    f.retain(|s| !s.trim().is_empty());
    f.sort();
    f.dedup();
    f
}

/// `Err` with how many facts of `b` are missing from `polished` (never which: the reason is
/// shown and may reach an uncleared client).
pub fn check(b: &Brief, polished: &str) -> Result<(), String> {
    let text = polished.to_lowercase();
    let all = facts(b);
    let missing = all
        .iter()
        .filter(|f| !text.contains(&f.to_lowercase()))
        .count();
    if missing == 0 {
        Ok(())
    } else {
        Err(format!(
            "the rewrite dropped {missing} of {} facts (counts, senders, dates, deadlines, drafts, recipients, meetings)",
            all.len()
        ))
    }
}
