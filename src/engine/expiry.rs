//! Draft expiry: a pending draft older than its kind's time to live (`[drafts.ttl_hours]`)
//! becomes `expired`, audited (`draft.expired`), and can no longer be approved.
//!
//! Expiry is checked when it matters rather than by a timer alone: before every approval (so
//! an approval can never beat a sweep that has not run yet) and whenever the caller sweeps
//! (`expire_drafts`, run at engine start and by `drafts list`). The time is passed in, which
//! keeps the rule testable with any clock.

use time::OffsetDateTime;

use super::{Engine, EngineError, EngineEvent};
use crate::domain::{
    Actor, AuditEvent, AuditOutcome, Draft, DraftEvent, DraftEventKind, DraftStatus,
};

impl Engine {
    /// Expire every pending draft whose time to live has passed at `now`. Returns their ids.
    pub fn expire_drafts(&self, now: OffsetDateTime) -> Result<Vec<String>, EngineError> {
        let queue = self.drafts.queue()?;
        let mut expired = Vec::new();
        for d in queue.pending() {
            if self.expire_if_due(d, now)? {
                expired.push(d.id.clone());
            }
        }
        Ok(expired)
    }

    /// Expire `d` if it is pending past its time to live; true when it did.
    pub(super) fn expire_if_due(
        &self,
        d: &Draft,
        now: OffsetDateTime,
    ) -> Result<bool, EngineError> {
        let kind = d.outbound.kind();
        let Some(ttl) = self.config.drafts.ttl(kind) else {
            return Ok(false);
        };
        if d.status != DraftStatus::Pending || d.created_at + ttl > now {
            return Ok(false);
        }
        let ttl_hours = ttl.whole_hours().max(0) as u64;
        let mut ev = DraftEvent {
            ts: now,
            draft_id: d.id.clone(),
            actor: Actor::Engine,
            kind: DraftEventKind::Expired { ttl_hours },
            audit: None,
        };
        self.drafts.check(&ev)?;
        // Audited before it is written, like every other draft event, and bound to its record.
        let rec = self.audit(
            AuditEvent::new("draft.expired", Actor::Engine, AuditOutcome::Ok)
                .entity(&d.profile)
                .target(d.id.clone())
                .reason(format!(
                    "draft expired: {kind} pending longer than {ttl_hours} h ([drafts.ttl_hours])"
                )),
        )?;
        ev.audit = Some(crate::domain::AuditRef::of(&rec));
        let draft = self.drafts.append(ev)?;
        self.announce(EngineEvent::DraftChanged(std::sync::Arc::new(draft)));
        Ok(true)
    }
}
