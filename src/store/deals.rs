//! The deals as an event log, `deals/deals.jsonl` (0600), folded into the current deals like
//! the drafts queue. Every event is checked against the rules before it is appended and again
//! when the log is folded, so an event that breaks them (a link across profiles, a deal created
//! by an MCP client) never takes effect, even if it was written by hand. A torn last line (a
//! writer killed mid-append) is cut by the next writer; complete lines are never lost.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::StoreError;
use super::jsonl::{FileLock, Lines, append_durable, repair_torn_tail};
use super::stamp::Stamp;
use crate::domain::{Actor, Deal, DealEvent, DealEventKind, LinkRule};
use crate::paths::{ensure_private_dir, open_private_append};

const LOG: &str = "deals.jsonl";
const LOCK: &str = ".lock";

pub struct Deals {
    dir: PathBuf,
    /// The last fold, valid while the log's stamp holds.
    cache: Mutex<Option<(Stamp, Arc<Book>)>>,
}

/// The deals as folded from the log, in creation order.
#[derive(Debug, Default, Clone)]
pub struct Book {
    pub deals: Vec<Deal>,
    /// Lines that did not parse or events that broke the rules (reported, ignored).
    pub skipped: Vec<String>,
}

impl Book {
    pub fn get(&self, id: &str) -> Option<&Deal> {
        self.deals.iter().find(|d| d.id == id)
    }
    pub fn open(&self) -> impl Iterator<Item = &Deal> {
        self.deals.iter().filter(|d| d.is_open())
    }
}

impl Deals {
    pub fn open(dir: &Path) -> Result<Deals, StoreError> {
        ensure_private_dir(dir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
        Ok(Deals {
            dir: dir.to_path_buf(),
            cache: Mutex::new(None),
        })
    }

    pub fn log_path(&self) -> PathBuf {
        self.dir.join(LOG)
    }

    /// The current deals (the fold of the whole log, reused while the log is unchanged).
    pub fn book(&self) -> Result<Arc<Book>, StoreError> {
        let path = self.log_path();
        let stamp = Stamp::of(&path).map_err(|e| StoreError::io(&path, "stat", e))?;
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let (Some(now), Some((seen, b))) = (stamp, cache.as_ref())
            && now == *seen
        {
            return Ok(b.clone());
        }
        let b = Arc::new(self.fold(|_| {})?);
        *cache = stamp.map(|s| (s, b.clone()));
        Ok(b)
    }

    pub fn get(&self, id: &str) -> Result<Option<Deal>, StoreError> {
        Ok(self.book()?.get(id).cloned())
    }

    /// The events of one deal that took effect, in log order.
    pub fn history(&self, id: &str) -> Result<Vec<DealEvent>, StoreError> {
        let mut out = Vec::new();
        self.fold(|ev| {
            if ev.deal_id == id {
                out.push(ev.clone())
            }
        })?;
        Ok(out)
    }

    /// Fold the whole log; `took_effect` sees each event that was applied.
    fn fold(&self, mut took_effect: impl FnMut(&DealEvent)) -> Result<Book, StoreError> {
        let path = self.log_path();
        let mut book = Book::default();
        let mut by_id = HashMap::new();
        let lines = match Lines::open(&path, 0) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(book),
            Err(e) => return Err(StoreError::io(&path, "open", e)),
        };
        for line in lines {
            let line = line.map_err(|e| StoreError::io(&path, "read", e))?;
            let ev: DealEvent = match serde_json::from_slice(&line.bytes) {
                Ok(ev) => ev,
                Err(e) => {
                    let msg = format!("{}:{}: unreadable event ({e})", path.display(), line.number);
                    tracing::warn!("{msg}");
                    book.skipped.push(msg);
                    continue;
                }
            };
            match apply(&mut book.deals, &mut by_id, &ev) {
                Ok(_) => took_effect(&ev),
                Err(e) => {
                    let msg = format!("{}:{}: event ignored: {e}", path.display(), line.number);
                    tracing::warn!("{msg}");
                    book.skipped.push(msg);
                }
            }
        }
        Ok(book)
    }

    /// Whether `ev` would be accepted now (the append checks again under the lock).
    pub fn check(&self, ev: &DealEvent) -> Result<(), StoreError> {
        let mut deals = self.book()?.deals.clone();
        let mut by_id = index(&deals);
        apply(&mut deals, &mut by_id, ev)
            .map(|_| ())
            .map_err(StoreError::Rejected)
    }

    /// Check `ev` against the current deals and append it (fsync'd); returns the deal as it
    /// now stands.
    pub fn append(&self, ev: DealEvent) -> Result<Deal, StoreError> {
        let _lock = FileLock::exclusive(&self.dir.join(LOCK))?;
        let path = self.log_path();
        let mut file = open_private_append(&path).map_err(|e| StoreError::io(&path, "open", e))?;
        repair_torn_tail(&mut file, &path)?;
        let mut deals = self.book()?.deals.clone();
        let mut by_id = index(&deals);
        let idx = apply(&mut deals, &mut by_id, &ev).map_err(StoreError::Rejected)?;
        let mut line = serde_json::to_vec(&ev).map_err(|e| StoreError::Rejected(e.to_string()))?;
        line.push(b'\n');
        append_durable(&mut file, &path, &line)?;
        Ok(deals.swap_remove(idx))
    }
}

fn index(deals: &[Deal]) -> HashMap<String, usize> {
    deals
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id.clone(), i))
        .collect()
}

/// Apply one event, or say why it is not allowed. Returns the deal's index.
fn apply(
    deals: &mut Vec<Deal>,
    by_id: &mut HashMap<String, usize>,
    ev: &DealEvent,
) -> Result<usize, String> {
    if let DealEventKind::Created {
        profile,
        spec,
        proposal,
    } = &ev.kind
    {
        // The operator creates deals; the engine only when carrying out an accepted proposal.
        let allowed = ev.actor.is_operator()
            || (proposal.is_some() && matches!(ev.actor, Actor::Engine | Actor::Executor));
        if !allowed {
            return Err(format!(
                "only the operator creates deals (an MCP client proposes one with deal_create); {} cannot",
                ev.actor
            ));
        }
        if by_id.contains_key(&ev.deal_id) {
            return Err(format!("deal {} already exists", ev.deal_id));
        }
        if spec.name.trim().is_empty() || profile.trim().is_empty() {
            return Err(format!("deal {} needs a name and a profile", ev.deal_id));
        }
        deals.push(Deal {
            id: ev.deal_id.clone(),
            profile: profile.clone(),
            name: spec.name.clone(),
            counterparties: spec.counterparties.clone(),
            stage: spec.stage,
            key_dates: spec.key_dates.clone(),
            notes: spec.notes.clone(),
            keywords: spec.keywords.clone(),
            links: Vec::new(),
            proposal: proposal.clone(),
            stage_changed_at: None,
            created_by: ev.actor.clone(),
            created_at: ev.ts,
            updated_at: ev.ts,
        });
        by_id.insert(ev.deal_id.clone(), deals.len() - 1);
        return Ok(deals.len() - 1);
    }
    let &idx = by_id
        .get(&ev.deal_id)
        .ok_or_else(|| format!("no deal with id {}", ev.deal_id))?;
    let d = &mut deals[idx];
    match &ev.kind {
        DealEventKind::Created { .. } => unreachable!("handled above"),
        DealEventKind::StageChanged { stage, .. } => {
            operator_only(&ev.actor, "move a deal's stage")?;
            if *stage == d.stage {
                return Err(format!("deal {} is already at stage {stage}", d.id));
            }
            d.stage = *stage;
            d.stage_changed_at = Some(ev.ts);
        }
        DealEventKind::Linked { link } => {
            // The engine links automatically (with its rule); only the operator links by hand.
            match (link.rule, &ev.actor) {
                (LinkRule::Manual, a) if a.is_operator() => {}
                (LinkRule::Manual, a) => {
                    return Err(format!(
                        "only the operator links messages by hand; {a} cannot"
                    ));
                }
                (_, Actor::Engine) => {}
                (_, a) => {
                    return Err(format!(
                        "automatic links are the engine's; {a} links with rule manual"
                    ));
                }
            }
            // The entity boundary, kept even against a hand-written log.
            if link.profile != d.profile {
                return Err(format!(
                    "message {} belongs to profile {}, deal {} to {}: a deal never shows another entity's messages",
                    link.message_id, link.profile, d.id, d.profile
                ));
            }
            if d.linked(&link.message_id).is_some() {
                return Err(format!(
                    "message {} is already linked to deal {}",
                    link.message_id, d.id
                ));
            }
            d.links.push(link.clone());
        }
        DealEventKind::Unlinked { message_id, .. } => {
            operator_only(&ev.actor, "unlink a message")?;
            let before = d.links.len();
            d.links.retain(|l| l.message_id != *message_id);
            if d.links.len() == before {
                return Err(format!(
                    "message {message_id} is not linked to deal {}",
                    d.id
                ));
            }
        }
    }
    d.updated_at = ev.ts;
    Ok(idx)
}

fn operator_only(actor: &Actor, what: &str) -> Result<(), String> {
    if actor.is_operator() {
        Ok(())
    } else {
        Err(format!(
            "only the operator (console or local CLI) can {what}; {actor} cannot"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{DealLink, DealSpec, DealStage, now};

    fn spec(name: &str) -> DealSpec {
        DealSpec {
            name: name.into(),
            counterparties: vec!["acme.example".into()],
            stage: DealStage::Lead,
            key_dates: vec![],
            notes: String::new(),
            keywords: vec!["sunrise".into()],
        }
    }

    fn ev(id: &str, actor: Actor, kind: DealEventKind) -> DealEvent {
        DealEvent {
            ts: now(),
            deal_id: id.into(),
            actor,
            kind,
        }
    }

    fn created(id: &str, actor: Actor) -> DealEvent {
        ev(
            id,
            actor,
            DealEventKind::Created {
                profile: "work".into(),
                spec: spec("Sunrise"),
                proposal: None,
            },
        )
    }

    fn link(mid: &str, profile: &str, rule: LinkRule) -> DealEventKind {
        DealEventKind::Linked {
            link: DealLink {
                message_id: mid.into(),
                seq: 1,
                profile: profile.into(),
                thread_id: Some("t1".into()),
                rule,
                reason: "test".into(),
            },
        }
    }

    #[test]
    fn a_deal_is_the_fold_of_its_events_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let s = Deals::open(dir.path()).unwrap();
        s.append(created("deal-1", Actor::Cli)).unwrap();
        s.append(ev(
            "deal-1",
            Actor::Cli,
            DealEventKind::StageChanged {
                stage: DealStage::Diligence,
                note: None,
            },
        ))
        .unwrap();
        s.append(ev(
            "deal-1",
            Actor::Engine,
            link("m1", "work", LinkRule::Keyword),
        ))
        .unwrap();
        let again = Deals::open(dir.path()).unwrap();
        let d = again.get("deal-1").unwrap().unwrap();
        assert_eq!(d.stage, DealStage::Diligence);
        assert_eq!(d.links.len(), 1);
        assert_eq!(again.history("deal-1").unwrap().len(), 3);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(again.log_path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn rules_hold_on_append_and_on_fold() {
        let dir = tempfile::tempdir().unwrap();
        let s = Deals::open(dir.path()).unwrap();
        let mcp = s
            .append(created("deal-1", Actor::mcp("claude")))
            .unwrap_err();
        assert!(
            mcp.to_string().contains("only the operator creates"),
            "{mcp}"
        );
        s.append(created("deal-1", Actor::Console)).unwrap();
        assert!(
            s.append(created("deal-1", Actor::Cli)).is_err(),
            "duplicate id"
        );
        let across = s
            .append(ev(
                "deal-1",
                Actor::Cli,
                link("m9", "clinic", LinkRule::Manual),
            ))
            .unwrap_err();
        assert!(across.to_string().contains("another entity"), "{across}");
        let auto_by_client = s
            .append(ev(
                "deal-1",
                Actor::mcp("c"),
                link("m1", "work", LinkRule::Manual),
            ))
            .unwrap_err();
        assert!(auto_by_client.to_string().contains("only the operator"));
        s.append(ev(
            "deal-1",
            Actor::Cli,
            link("m1", "work", LinkRule::Manual),
        ))
        .unwrap();
        assert!(
            s.append(ev(
                "deal-1",
                Actor::Engine,
                link("m1", "work", LinkRule::Thread)
            ))
            .is_err(),
            "linked twice"
        );
        // A hand-written line that breaks the rules is ignored by the fold and reported.
        let bad = ev("deal-1", Actor::Cli, link("m2", "clinic", LinkRule::Manual));
        let mut line = serde_json::to_string(&bad).unwrap();
        line.push('\n');
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .open(s.log_path())
            .unwrap()
            .write_all(line.as_bytes())
            .unwrap();
        let b = s.book().unwrap();
        assert_eq!(b.get("deal-1").unwrap().links.len(), 1);
        assert_eq!(b.skipped.len(), 1, "{:?}", b.skipped);
    }

    #[test]
    fn a_torn_last_line_is_cut_and_nothing_complete_is_lost() {
        let dir = tempfile::tempdir().unwrap();
        let s = Deals::open(dir.path()).unwrap();
        s.append(created("deal-1", Actor::Cli)).unwrap();
        // A writer killed mid-append left half a line.
        let full = serde_json::to_string(&created("deal-2", Actor::Cli)).unwrap();
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .open(s.log_path())
            .unwrap()
            .write_all(&full.as_bytes()[..full.len() / 2])
            .unwrap();
        // Readers see only complete lines.
        assert_eq!(s.book().unwrap().deals.len(), 1);
        assert!(s.book().unwrap().skipped.is_empty());
        // The next writer cuts the torn tail and appends after the complete lines.
        s.append(created("deal-3", Actor::Cli)).unwrap();
        let ids: Vec<String> = s
            .book()
            .unwrap()
            .deals
            .iter()
            .map(|d| d.id.clone())
            .collect();
        assert_eq!(ids, ["deal-1", "deal-3"]);
        let text = std::fs::read_to_string(s.log_path()).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn only_an_accepted_proposal_lets_the_engine_create() {
        let dir = tempfile::tempdir().unwrap();
        let s = Deals::open(dir.path()).unwrap();
        assert!(s.append(created("deal-1", Actor::Engine)).is_err());
        let mut e = created("deal-1", Actor::Engine);
        if let DealEventKind::Created { proposal, .. } = &mut e.kind {
            *proposal = Some("d-1".into());
        }
        s.append(e).unwrap();
        let stage = s
            .append(ev(
                "deal-1",
                Actor::Engine,
                DealEventKind::StageChanged {
                    stage: DealStage::Won,
                    note: None,
                },
            ))
            .unwrap_err();
        assert!(stage.to_string().contains("only the operator"));
    }
}
