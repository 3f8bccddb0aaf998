//! Audit retention (`[audit] archive_after_months`): month files older than the kept months
//! are archived (`store::audit_archive`), each archive recorded in the live chain before its
//! month file is removed. Nothing is deleted: an archive is the month, compressed.

use time::OffsetDateTime;

use super::{Engine, EngineError};
use crate::domain::{Actor, AuditEvent, AuditOutcome};
use crate::store::StoreError;
use crate::store::audit_archive::{self, Archived};

impl Engine {
    /// Archive every month older than the newest `keep_months` (the current month counts) as
    /// of `now`. Refuses while the trail does not verify: a broken month is evidence, and is
    /// left where it is. Returns what was archived.
    pub fn archive_audit(
        &self,
        keep_months: u32,
        now: OffsetDateTime,
        actor: Actor,
    ) -> Result<Vec<Archived>, EngineError> {
        if keep_months == 0 {
            return Ok(Vec::new());
        }
        let keep_from = month_minus(now, keep_months - 1);
        let dir = self.paths.audit_dir();
        let due = audit_archive::due(&dir, &keep_from)?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let report = self.audit.verify()?;
        if let Some(b) = &report.first_bad {
            return Err(EngineError::Store(StoreError::Rejected(format!(
                "the audit trail does not verify ({}: {}); nothing was archived",
                b.file.display(),
                b.reason
            ))));
        }
        let mut done = Vec::new();
        for month_file in due {
            let a = audit_archive::prepare(&dir, &month_file)?;
            // The chain records the archive before the month leaves the live trail.
            self.audit(
                AuditEvent::new(audit_archive::EVENT, actor.clone(), AuditOutcome::Ok)
                    .target(a.note())
                    .reason(format!(
                        "month {} archived (records {} to {}), kept {keep_months} month(s) live ([audit] archive_after_months)",
                        a.month, a.first, a.last
                    )),
            )?;
            audit_archive::commit(&dir, &a)?;
            done.push(a);
        }
        Ok(done)
    }
}

/// `YYYY-MM` of the month `back` months before `now`'s.
fn month_minus(now: OffsetDateTime, back: u32) -> String {
    let total = now.year() as i64 * 12 + (now.month() as i64 - 1) - back as i64;
    format!(
        "{:04}-{:02}",
        total.div_euclid(12),
        total.rem_euclid(12) + 1
    )
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    #[test]
    fn months_count_back_across_years() {
        let now = datetime!(2026-02-10 12:00 UTC);
        assert_eq!(super::month_minus(now, 0), "2026-02");
        assert_eq!(super::month_minus(now, 1), "2026-01");
        assert_eq!(super::month_minus(now, 2), "2025-12");
        assert_eq!(super::month_minus(now, 14), "2024-12");
    }
}
