//! The engine's handlers for the operator's decisions on drafts and for the smaller actions
//! (a mail move, a cursor move): each one step of `Engine::submit`, after the action was named
//! and before it is audited.

use serde_json::json;

use super::{Call, Engine, EngineError, consumer_name, governance};
use crate::domain::{
    AuditOutcome, Channel, DraftEvent, DraftEventKind, Outbound, Outcome, Verdict, content_digest,
    now,
};

impl Engine {
    /// `mail.move`: a move of one mail message, queued as a draft like any outbound change.
    pub(super) fn move_message(
        &self,
        name: &str,
        message_id: String,
        folder: String,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let rec = self.inbox.find_by_id(&message_id)?.ok_or_else(|| {
            EngineError::NotFound(format!("no inbox message with id `{message_id}`; use the `id` field of an inbox_pull result"))
        })?;
        if rec.channel != Channel::Email {
            return Err(EngineError::invalid(
                format!(
                    "only mail can be moved; `{message_id}` is a {} item",
                    rec.channel
                ),
                json!({"field": "message_id", "channel": rec.channel.as_str()}),
            ));
        }
        let outbound = Outbound::MoveMail {
            message_id: rec.id,
            folder: folder.trim().to_string(),
        };
        self.create_draft(name, rec.profile, outbound, None, cx)
    }

    /// `draft.edit`: new content, judged again, with a new digest (an earlier approval no longer matches).
    pub(super) fn edit_draft(
        &self,
        name: &str,
        id: String,
        mut outbound: Outbound,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let actor = cx.actor;
        let draft = self.existing_draft(&id)?;
        self.complete_attachments(&draft.profile, &mut outbound)?;
        governance::prepare_outbound(&mut outbound)?;
        governance::validate_outbound(&outbound)?;
        let verdict = self.judge(&draft.profile, &outbound);
        if let Verdict::Block { .. } = &verdict {
            return self.blocked(name, cx, &draft.profile, &id, verdict);
        }
        let digest = content_digest(&draft.profile, &outbound);
        let ev = DraftEvent {
            ts: now(),
            draft_id: id.clone(),
            actor: actor.clone(),
            kind: DraftEventKind::Edited { outbound, digest },
            audit: None,
        };
        self.apply_draft_event(name, ev, &draft.profile, cx)
    }

    /// `draft.approve`: the operator only, judged again, bound to the digest the operator saw.
    pub(super) fn approve_draft(
        &self,
        name: &str,
        id: String,
        digest: Option<String>,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let actor = cx.actor;
        let draft = self.existing_draft(&id)?;
        // An approval never beats the clock: a draft past its time to live expires
        // now, and the store then refuses the approval (expired is final).
        self.expire_if_due(&draft, now())?;
        if !actor.is_operator() {
            return self.blocked(
                name,
                cx,
                &draft.profile,
                &id,
                Verdict::block(
                    "operator_only_approval",
                    format!("{actor} asked to approve draft {id}; only the operator can approve"),
                    "approve it in the opsdesk console (Drafts pane, `a`) or with `opsdesk drafts approve`",
                ),
            );
        }
        // Rules may have tightened since the draft was made (config reloaded, new
        // messages showing its text came from a foreign profile): judge it again.
        if let v @ Verdict::Block { .. } = self.judge(&draft.profile, &draft.outbound) {
            return self.blocked(name, cx, &draft.profile, &id, v);
        }
        // Bind the approval to what the operator reviewed: the digest they saw, or the
        // current one when they approve what is shown now.
        let digest = digest.unwrap_or_else(|| draft.digest.clone());
        let ev = DraftEvent {
            ts: now(),
            draft_id: id.clone(),
            actor: actor.clone(),
            kind: DraftEventKind::Approved { digest },
            audit: None,
        };
        self.apply_draft_event(name, ev, &draft.profile, cx)
    }

    /// `draft.reject`: the operator only, with a reason.
    pub(super) fn reject_draft(
        &self,
        name: &str,
        id: String,
        reason: String,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let actor = cx.actor;
        let draft = self.existing_draft(&id)?;
        if !actor.is_operator() {
            return self.blocked(
                name,
                cx,
                &draft.profile,
                &id,
                Verdict::block(
                    "operator_only_approval",
                    format!(
                        "{actor} asked to reject draft {id}; only the operator can decide on drafts"
                    ),
                    "decide in the opsdesk console or with `opsdesk drafts reject`",
                ),
            );
        }
        let reason = reason.trim().to_string();
        if reason.is_empty() {
            return Err(EngineError::invalid(
                "a rejection needs a reason",
                json!({"field": "reason", "hint": "say why, e.g. \"wrong recipient\""}),
            ));
        }
        let ev = DraftEvent {
            ts: now(),
            draft_id: id.clone(),
            actor: actor.clone(),
            kind: DraftEventKind::Rejected {
                reason: crate::sanitize::one_line(&reason, 500),
            },
            audit: None,
        };
        self.apply_draft_event(name, ev, &draft.profile, cx)
    }

    /// `inbox.mark_read`: a client moves only its own cursor; the operator may move any.
    pub(super) fn mark_read(
        &self,
        name: &str,
        consumer: String,
        seq: u64,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let actor = cx.actor;
        match self.gate_read(name, cx) {
            Ok(()) => {}
            Err(EngineError::Blocked {
                rule,
                reason,
                remedy,
            }) => {
                return Ok(Outcome::Blocked {
                    rule,
                    reason,
                    remedy,
                });
            }
            Err(e) => return Err(e),
        }
        // A client moves only its own cursor; the operator may move any.
        let own = consumer_name(actor);
        if !actor.is_operator() && Some(consumer.as_str()) != own.as_deref() {
            return Err(EngineError::invalid(
                format!("{actor} may only move its own cursor"),
                json!({"allowed_consumer": own}),
            ));
        }
        let at = self.inbox.advance_cursor(&consumer, seq)?;
        self.audit(
            cx.event(name, AuditOutcome::Ok)
                .target(format!("{consumer}@{at}")),
        )?;
        Ok(Outcome::Done {
            detail: crate::domain::Done::Cursor {
                consumer,
                cursor: at,
            },
        })
    }
}
