//! The brief's deadlines: phrases found in messages, resolved through `timeexpr` (the one
//! time understanding of the product); nothing here parses dates itself.

use std::collections::BTreeSet;

use time::{Date, UtcOffset};

use super::model::*;
use crate::domain::{Channel, InboxRecord};

/// Deadlines in the records' subjects and texts that are not already past, soonest first
/// (unresolved ones last), at most one per record and date. Dates resolve from each record's
/// time in the operator's zone `tz` (`timeexpr`: the one time understanding of the product).
pub(super) fn deadlines(
    records: &[&InboxRecord],
    today: Date,
    tz: UtcOffset,
    order: crate::timeexpr::DateOrder,
) -> Vec<Deadline> {
    let mut out: Vec<(Option<Date>, Deadline)> = Vec::new();
    for r in records.iter().filter(|r| r.channel != Channel::Calendar) {
        let ctx = crate::timeexpr::Context::new(r.ts, tz).with_order(order);
        let mut seen: BTreeSet<Option<Date>> = BTreeSet::new();
        let subject = r.subject.as_deref().unwrap_or("");
        for hay in [subject, r.text.as_str()] {
            for d in crate::timeexpr::deadlines(hay, &ctx) {
                if d.due.is_some_and(|x| x < today) || !seen.insert(d.due) {
                    continue;
                }
                out.push((
                    d.due,
                    Deadline {
                        text: d.phrase,
                        due: d.due.map(|x| x.to_string()),
                        seq: r.seq,
                        from: r.from.label().to_string(),
                        subject: r.subject.clone(),
                        expr: Some(d.expr),
                        time: d.time.map(hh_mm),
                    },
                ));
            }
        }
    }
    out.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x.cmp(&y).then(b.1.seq.cmp(&a.1.seq)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => b.1.seq.cmp(&a.1.seq),
    });
    out.truncate(MAX_DEADLINES);
    out.into_iter().map(|(_, d)| d).collect()
}

/// `HH:MM`.
pub fn hh_mm(t: time::Time) -> String {
    format!("{:02}:{:02}", t.hour(), t.minute())
}
