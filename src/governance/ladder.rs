//! The autonomy ladder: per action kind, how much may happen without the operator.

use crate::config::{ActionKind, AutonomyLevel, Config};
use crate::domain::{Outbound, Verdict};

/// The ladder's verdict for an action of `kind` in `profile`.
///
/// - reads, classification, LLM calls: `autonomous` runs; `blocked`/`never` refuse; the
///   waiting levels refuse too, because a read cannot wait in a queue (the remedy says so);
/// - moving mail: `autonomous` runs; `draft_only`/`approval_required` queue;
/// - outbound kinds always queue at best (the config may not make them autonomous, and a
///   ladder built in code that does is still treated as `draft_only`).
pub fn gate(config: &Config, kind: ActionKind, profile: &str) -> Verdict {
    let level = config.autonomy.level(kind);
    match level {
        AutonomyLevel::Never => Verdict::block(
            "autonomy.never",
            format!("`{kind}` is set to never (profile {profile})"),
            format!(
                "this action is not available; if that is wrong, change `{kind}` in [autonomy]"
            ),
        ),
        AutonomyLevel::Blocked => Verdict::block(
            "autonomy.blocked",
            format!("`{kind}` is blocked by the autonomy ladder (profile {profile})"),
            format!("set `{kind}` in [autonomy] to a level that allows it"),
        ),
        _ if kind.is_outbound() => Verdict::Queue {
            reason: format!(
                "{kind} waits for the operator's approval (autonomy: {})",
                if level == AutonomyLevel::ApprovalRequired {
                    "approval_required"
                } else {
                    "draft_only"
                }
            ),
        },
        AutonomyLevel::Autonomous => Verdict::Run,
        AutonomyLevel::DraftOnly | AutonomyLevel::ApprovalRequired
            if kind == ActionKind::MoveMail =>
        {
            Verdict::Queue {
                reason: format!("{kind} waits for the operator's approval (autonomy: {level})"),
            }
        }
        AutonomyLevel::DraftOnly | AutonomyLevel::ApprovalRequired => Verdict::block(
            "autonomy.cannot_wait",
            format!("`{kind}` is set to {level}, but a {kind} cannot wait for approval"),
            format!("set `{kind}` in [autonomy] to autonomous or blocked"),
        ),
    }
}

/// Whether a draft of `profile` may be decided in a batch (several approved or rejected in
/// one step): its kind is in `[drafts] batch_kinds`, or it is mail to the profile's own
/// domains only and `batch_internal_mail` is on. `Err` says why not. Outbound mail to anyone
/// outside is not eligible by default: each one is read and decided alone.
pub fn batch_eligible(config: &Config, profile: &str, outbound: &Outbound) -> Result<(), String> {
    let kind = outbound.kind();
    let d = &config.drafts;
    if d.batch_kinds.iter().any(|k| k == kind) {
        return Ok(());
    }
    let mail = matches!(
        outbound,
        Outbound::SendEmail { .. } | Outbound::ReplyEmail { .. }
    );
    if mail && d.batch_internal_mail {
        let domains = config
            .profiles
            .get(profile)
            .map(|p| p.email_domains.as_slice())
            .unwrap_or_default();
        let inside = |addr: &str| {
            addr.rsplit_once('@').is_some_and(|(_, dom)| {
                domains
                    .iter()
                    .any(|own| own.eq_ignore_ascii_case(dom.trim()))
            })
        };
        let outside: Vec<String> = outbound
            .recipients()
            .into_iter()
            .filter(|r| !inside(r))
            .collect();
        if outside.is_empty() {
            return Ok(());
        }
        return Err(format!(
            "{kind} to {} (outside {profile}'s domains) is decided one at a time",
            outside.join(", ")
        ));
    }
    Err(format!(
        "{kind} is not in [drafts] batch_kinds, so it is decided one at a time"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(kind: ActionKind, level: AutonomyLevel) -> Config {
        let mut c = Config::demo();
        c.autonomy.levels.insert(kind, level);
        c
    }

    #[test]
    fn every_kind_and_level_has_a_verdict_and_outbound_never_runs() {
        for kind in ActionKind::ALL {
            for level in AutonomyLevel::ALL {
                let v = gate(&with(kind, level), kind, "work");
                match (&v, level) {
                    (Verdict::Block { rule, .. }, AutonomyLevel::Never) => {
                        assert_eq!(rule, "autonomy.never")
                    }
                    (Verdict::Block { rule, .. }, AutonomyLevel::Blocked) => {
                        assert_eq!(rule, "autonomy.blocked")
                    }
                    (Verdict::Run, AutonomyLevel::Autonomous) => {
                        assert!(!kind.is_outbound(), "{kind} must never run unattended")
                    }
                    (Verdict::Queue { .. }, _) => {
                        assert!(kind.is_outbound() || kind == ActionKind::MoveMail, "{kind}")
                    }
                    (Verdict::Block { rule, .. }, _) => {
                        assert_eq!(rule, "autonomy.cannot_wait", "{kind} {level}")
                    }
                    other => panic!("{kind} at {level}: unexpected {other:?}"),
                }
            }
        }
    }

    #[test]
    fn the_defaults_read_freely_and_queue_sending() {
        let c = Config::demo();
        assert_eq!(gate(&c, ActionKind::Read, "work"), Verdict::Run);
        assert!(matches!(
            gate(&c, ActionKind::SendEmail, "work"),
            Verdict::Queue { .. }
        ));
        assert!(matches!(
            gate(&c, ActionKind::MoveMail, "work"),
            Verdict::Queue { .. }
        ));
    }
}
