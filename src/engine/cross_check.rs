//! The audit trail read against the inbox and the drafts log (`opsdesk audit verify`): an
//! offline reader, with no engine and no lock, that only reads the three stores.

use crate::paths::Paths;
use crate::store::StoreError;
use crate::store::audit::Audit;
use crate::store::drafts::Drafts;
use crate::store::inbox::Inbox;

/// What [`cross_check`] found.
#[derive(Default)]
pub struct CrossCheck {
    /// Inbox seqs no audit record names.
    pub unaudited: Vec<u64>,
    /// Inbox seqs audited at recovery (`inbox.recovered`).
    pub recovered: Vec<u64>,
    pub drafts_findings: Vec<String>,
}

/// What the audit trail says happened, compared with the inbox and the drafts log.
///
/// Inbox: every stored record is audited (`inbox.append`, target `<channel>#<seq>`) as it is
/// appended, so a seq with no such record was stored while the trail could not be written (a
/// full disk) or its record was removed. Drafts: every event is audited before it is written
/// and names its audit record; the queue's fold ignores an event the trail does not vouch for
/// (`store::drafts_binding`), and each one it ignored is listed here. A draft the audit saw
/// created but the log does not hold was deleted with the log.
/// Inbox records audited only at recovery (`inbox.recovered`, a crash between the two
/// appends) count as audited and are named.
pub fn cross_check(paths: &Paths, audit: &Audit) -> Result<CrossCheck, StoreError> {
    use std::collections::HashMap;
    let inbox = Inbox::open(&paths.inbox_dir())?;
    let last = inbox.last_seq()?;
    let mut seen = vec![false; last as usize];
    let mut recovered = Vec::new();
    // (draft id, event kind) → audit records minus log events.
    let mut balance: HashMap<(String, String), i64> = HashMap::new();
    for file in audit.files()? {
        for r in audit.read_file(&file, 0)?.0 {
            let e = &r.event;
            if e.event == "inbox.append" || e.event == super::recovery::RECOVERED_EVENT {
                if let Some(seq) = super::recovery::audited_inbox_seq(&e.event, e.target.as_deref())
                    && (1..=last).contains(&seq)
                {
                    seen[(seq - 1) as usize] = true;
                    if e.event == super::recovery::RECOVERED_EVENT {
                        recovered.push(seq);
                    }
                }
                continue;
            }
            if e.outcome != crate::domain::AuditOutcome::Ok {
                continue;
            }
            // A draft audited as created before a crash, never stored, and said so at recovery.
            if e.event == super::recovery::LOST_DRAFT_EVENT
                && let Some(id) = e.target.as_deref()
            {
                *balance
                    .entry((id.to_string(), "created".to_string()))
                    .or_default() -= 1;
                continue;
            }
            if let (Some(id), Some(kind)) = (
                e.target.as_deref(),
                e.reason.as_deref().and_then(|r| r.strip_prefix("draft ")),
            ) && DECISIONS.contains(&kind)
            {
                *balance
                    .entry((id.to_string(), kind.to_string()))
                    .or_default() += 1;
            }
        }
    }
    let unaudited = (1..=last).filter(|s| !seen[(*s - 1) as usize]).collect();

    let mut findings = Vec::new();
    let log = paths.drafts_dir().join("drafts.jsonl");
    // The drafts log's macs are checked with the key the trail was opened with.
    let queue = Drafts::open(&paths.drafts_dir(), audit.dir())?
        .with_key(audit.key())
        .queue()?;
    for u in &queue.unbound {
        findings.push(format!(
            "{} line {}: `{}` of draft {} ignored: {}",
            log.display(),
            u.line,
            u.event,
            u.draft_id,
            u.reason
        ));
    }
    match std::fs::read(&log) {
        Ok(bytes) => {
            for line in bytes.split(|b| *b == b'\n') {
                let Ok(ev) = serde_json::from_slice::<crate::domain::DraftEvent>(line) else {
                    continue; // the fold reports unreadable lines
                };
                if let Some(b) = balance.get_mut(&(ev.draft_id.clone(), ev.kind.name().to_string()))
                {
                    *b -= 1;
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(StoreError::io(&log, "read", e)),
    }
    let mut missing: Vec<&str> = balance
        .iter()
        .filter(|((_, kind), b)| kind == "created" && **b > 0)
        .map(|((id, _), _)| id.as_str())
        .collect();
    missing.sort();
    for id in missing {
        findings.push(format!(
            "draft {id} was created according to the audit trail but is missing from {} (was the log deleted or cut?)",
            log.display()
        ));
    }
    recovered.sort_unstable();
    Ok(CrossCheck {
        unaudited,
        recovered,
        drafts_findings: findings,
    })
}

/// Draft events the engine audits before writing them.
const DECISIONS: [&str; 4] = ["created", "edited", "approved", "rejected"];
