//! The operator resolves the `unassigned` bucket (S0 section 6.3): `opsdesk triage assign SEQ
//! PROFILE` and the console's assign key call [`Engine::assign_profile`]. There is no
//! `Action` and no MCP tool for it: deciding whose data an item is stays with the operator
//! (a client asking through any other door meets `operator_only_assign`). The item's stored
//! attachments gain the new profile as an owner (a file of a reassigned item is owned by both:
//! the strictest applies to reads, and neither profile's drafts may attach it). The assignment
//! is audited first (fail closed), then appended beside the inbox (`store/assignments.rs`); from
//! then on every inbox read presents the item with the assigned profile, so the brief, triage,
//! pulls, governance and the PHI view all use it.

use serde::Serialize;
use serde_json::json;

use super::{Engine, EngineError};
use crate::domain::{Actor, AuditEvent, AuditOutcome, InboxRecord, META_PROFILE_RULE, UNASSIGNED};
use crate::store::assignments::{Assignment, AssignmentMap};

/// One item waiting in the `unassigned` bucket.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct WaitingItem {
    pub seq: u64,
    pub id: String,
    /// Always `unassigned` (named so the PHI view attributes the item).
    pub profile: String,
    pub channel: String,
    /// The sender (name or address) and subject, for a list a person reads.
    pub from: String,
    pub subject: Option<String>,
    /// RFC 3339.
    pub received_at: String,
    /// Why no rule placed it (`meta.profile_rule`).
    pub rule: Option<String>,
}

/// Whether `r` (as presented) is an item whose profile was unclear: stored as `unassigned`,
/// placed by a `[classification]` rule (`meta.profile_rule`, which only the classifier writes),
/// or assigned by the operator before (known from `assigned`, the assignments themselves, never
/// from the record's `meta`).
fn was_unclear(r: &InboxRecord, assigned: &AssignmentMap) -> bool {
    r.profile == UNASSIGNED
        || r.meta.contains_key(META_PROFILE_RULE)
        || assigned.get(&r.seq).is_some_and(|a| a.id == r.id)
}

impl Engine {
    /// Assign inbox item `seq` to `profile`. Only the operator may (console, CLI), only items
    /// whose profile was unclear (stored as `unassigned`, or placed by a `[classification]`
    /// rule: a rule's guess may be corrected), and only to a configured profile.
    pub fn assign_profile(
        &self,
        seq: u64,
        profile: &str,
        actor: &Actor,
    ) -> Result<Assignment, EngineError> {
        let r = self.item(seq)?;
        let event = |outcome, entity: &str, reason: String| {
            AuditEvent::new("inbox.assign", actor, outcome)
                .entity(entity.to_string())
                .target(format!("seq {seq}"))
                .reason(reason)
        };
        if !actor.is_operator() {
            let rule = "operator_only_assign";
            let reason = format!(
                "{actor} asked to assign seq {seq} to a profile; only the operator decides whose an item is"
            );
            self.audit(event(
                AuditOutcome::Blocked,
                &r.profile,
                format!("{rule}: {reason}"),
            ))?;
            return Err(EngineError::Blocked {
                rule: rule.into(),
                reason,
                remedy: "the operator runs `opsdesk triage assign SEQ PROFILE` or uses the console"
                    .into(),
            });
        }
        if !self.config.profiles.contains_key(profile) {
            return Err(EngineError::invalid(
                format!(
                    "`{}` is not a configured profile",
                    crate::sanitize::one_line(profile, 64)
                ),
                json!({"field": "profile", "valid_profiles": self.profile_names()}),
            ));
        }
        if !was_unclear(&r, &*self.inbox.assignments().current()?) {
            return Err(EngineError::invalid(
                format!(
                    "seq {seq} came with profile `{}` from its source; only items whose profile was unclear (placed by [classification] or `{UNASSIGNED}`) are assigned",
                    r.profile
                ),
                json!({"field": "seq", "profile": r.profile}),
            ));
        }
        if r.profile == profile {
            return Err(EngineError::invalid(
                format!("seq {seq} is in profile `{profile}` already"),
                json!({"field": "profile", "profile": r.profile}),
            ));
        }
        let a = Assignment {
            seq,
            id: r.id.clone(),
            from: r.profile.clone(),
            profile: profile.to_string(),
            by: actor.to_string(),
            at: crate::domain::now()
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
        };
        // The record's files become the new profile's too, before anything says the item moved:
        // an attachment read is attributed to its owners and a draft may attach a file only
        // when every owner is its profile, so a file of a reassigned item counts as owned by
        // both (the strictest applies; a failure here leaves the files stricter, never looser).
        for att in &r.attachments {
            let Some(sha) = att.sha256.as_deref() else {
                continue;
            };
            if !self.attachments.path_of(sha).is_some_and(|p| p.is_file()) {
                continue;
            }
            self.attachments
                .record_owner(sha, profile, &att.name, &att.media_type)
                .map_err(|e| {
                    EngineError::Store(crate::store::StoreError::io(
                        self.attachments.dir(),
                        "write owners of",
                        e,
                    ))
                })?;
        }
        self.audit(event(
            AuditOutcome::Ok,
            profile,
            format!("from `{}` to `{profile}` by the operator", a.from),
        ))?;
        // Audited before it is stored (fail closed): when storing fails, the trail must not be
        // left saying it was done.
        if let Err(e) = self.inbox.assignments().put(&a) {
            let _ = self.audit(event(
                AuditOutcome::Error,
                profile,
                format!("not stored: {e}"),
            ));
            return Err(e.into());
        }
        Ok(a)
    }

    /// Items waiting in the `unassigned` bucket, newest first (at most `limit`). Reads the
    /// inbox until enough are found: for the operator's list, not for a hot path.
    pub(super) fn waiting_unassigned(&self, limit: usize) -> Result<Vec<WaitingItem>, EngineError> {
        let filter = crate::store::inbox::Filter {
            profile: Some(UNASSIGNED.to_string()),
            ..Default::default()
        };
        let b = self.inbox.read_before(None, limit.max(1), &filter)?;
        Ok(b.records
            .into_iter()
            .map(std::sync::Arc::unwrap_or_clone)
            .map(|r| WaitingItem {
                seq: r.seq,
                channel: r.channel.to_string(),
                from: r.from.label().to_string(),
                subject: r.subject.clone(),
                received_at: r
                    .received_at
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default(),
                rule: r
                    .meta
                    .get(META_PROFILE_RULE)
                    .and_then(|v| v.as_str())
                    .map(str::to_string),
                profile: r.profile,
                id: r.id,
            })
            .collect())
    }
}
