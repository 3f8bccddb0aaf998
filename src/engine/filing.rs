//! Filing suggestions: which mail folder a message belongs in, and why. Rule-based: the
//! `[filing]` rules in order (sender, domain, keyword, each optionally limited to profiles),
//! then the folder of a deal the message is linked to (`deal_folder`). Messages no rule places
//! get no folder and say so here; the assistant's filing job ([`Engine::filing_item`], the
//! router's `filing` job) asks the model for those, among the configured folders only.
//! Accepting a suggestion is a `mail_move`, queued for the operator like any move.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::query::Answer;
use super::{Engine, EngineError};
use crate::config::FilingConfig;
use crate::domain::{Deal, InboxRecord};

/// Most messages one request may ask about.
pub const MAX_BATCH: usize = 50;

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FilingSuggestion {
    /// The message asked about (its source id, or the seq as given).
    pub message_id: String,
    pub seq: Option<u64>,
    /// The message's profile (empty when the message was not found).
    pub profile: String,
    /// The suggested folder; none when no rule places the message.
    pub folder: Option<String>,
    /// Which rule: `filing.rules[N]` or `deal:<id>`.
    pub rule: Option<String>,
    /// Why, in words.
    pub reason: String,
    /// Who placed it: `rule` or `model` (absent when nothing did).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// The model pass ran for this message and its answer was not used (or it could not
    /// run): why. The rule result stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_error: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FilingAnswer {
    pub suggestions: Vec<FilingSuggestion>,
    pub notice: String,
}

/// The folder `rec` belongs in under `config`, with the rule and the reason; `deals` are the
/// deals `rec` is linked to (of its own profile).
pub fn suggest(
    config: &FilingConfig,
    rec: &InboxRecord,
    deals: &[&Deal],
) -> Option<(String, String, String)> {
    let from = rec.from.address.trim().to_lowercase();
    let domain = from.rsplit_once('@').map(|(_, d)| d.to_string());
    let subject = rec.subject.as_deref().unwrap_or("").to_lowercase();
    let text = rec.text.to_lowercase();
    for (i, r) in config.rules.iter().enumerate() {
        if !r.profiles.is_empty() && !r.profiles.contains(&rec.profile) {
            continue;
        }
        let rule = format!("filing.rules[{i}]");
        if let Some(s) = r.senders.iter().find(|s| s.trim().to_lowercase() == from) {
            return Some((r.folder.clone(), rule, format!("sender {s}")));
        }
        if let Some(d) = domain.as_deref()
            && let Some(want) = r.domains.iter().find(|want| {
                let w = want.trim().trim_start_matches('@').to_lowercase();
                d == w || d.ends_with(&format!(".{w}"))
            })
        {
            return Some((r.folder.clone(), rule, format!("sender domain {want}")));
        }
        for k in &r.keywords {
            let k = k.trim().to_lowercase();
            if crate::sanitize::has_word(&subject, &k) {
                return Some((
                    r.folder.clone(),
                    rule,
                    format!("keyword `{k}` in the subject"),
                ));
            }
            if crate::sanitize::has_word(&text, &k) {
                return Some((r.folder.clone(), rule, format!("keyword `{k}` in the text")));
            }
        }
    }
    if let (Some(template), Some(deal)) = (&config.deal_folder, deals.first()) {
        let name = deal.name.replace('/', "-");
        return Some((
            template.replace("{deal}", &name),
            format!("deal:{}", deal.id),
            format!("linked to deal {} ({})", deal.id, deal.name),
        ));
    }
    None
}

impl Engine {
    pub(super) fn filing_answer(&self, keys: Vec<String>) -> Result<(Answer, String), EngineError> {
        if keys.is_empty() || keys.len() > MAX_BATCH {
            return Err(EngineError::invalid(
                format!("ask about 1 to {MAX_BATCH} messages"),
                json!({"field": "message_ids", "given": keys.len()}),
            ));
        }
        let book = self.deals.book()?;
        let mut suggestions = Vec::new();
        for key in keys {
            let rec = match crate::domain::parse_seq(&key) {
                Some(seq) => self.inbox.get(seq)?,
                None => self.inbox.find_by_id(&key)?,
            };
            let Some(rec) = rec else {
                suggestions.push(FilingSuggestion {
                    message_id: key,
                    seq: None,
                    profile: String::new(),
                    folder: None,
                    rule: None,
                    reason: "no such inbox message".into(),
                    decided_by: None,
                    model_error: None,
                });
                continue;
            };
            let deals: Vec<&Deal> = book
                .deals
                .iter()
                .filter(|d| d.profile == rec.profile && d.linked(&rec.id).is_some())
                .collect();
            let (folder, rule, reason) = match suggest(&self.config.filing, &rec, &deals) {
                Some((f, r, why)) => (Some(f), Some(r), why),
                None => (
                    None,
                    None,
                    "no filing rule places this message (`opsdesk filing propose` asks the assistant)"
                        .to_string(),
                ),
            };
            suggestions.push(FilingSuggestion {
                decided_by: folder.as_ref().map(|_| "rule".to_string()),
                message_id: rec.id.clone(),
                seq: Some(rec.seq),
                profile: rec.profile.clone(),
                folder,
                rule,
                reason,
                model_error: None,
            });
        }
        let placed = suggestions.iter().filter(|s| s.folder.is_some()).count();
        let target = format!("asked={} placed={placed}", suggestions.len());
        Ok((
            Answer::Filing(FilingAnswer {
                suggestions,
                notice: "a suggestion moves nothing: mail_move queues the move for the operator's approval".into(),
            }),
            target,
        ))
    }
}

/// What the filing job proposed for one message.
#[derive(Debug, Clone, Serialize)]
pub struct FilingProposal {
    pub suggestion: FilingSuggestion,
    /// `rule` or `model`.
    pub by: crate::assistant::triage::DecidedBy,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Why the model's answer was not used (the message then has no folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_error: Option<String>,
    /// The move as queued (`queue`): its outcome under the `move_mail` ladder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queued: Option<crate::domain::Outcome>,
}

impl Engine {
    /// File mail item `seq`: the `[filing]` rules (and deal folders) first, then the
    /// model through the router (job `filing`: HIPAA filter, redaction, audit), choosing among
    /// the configured folders only. With `queue`, a proposed folder becomes a `mail_move` by
    /// `assistant:filing`, governed like any move (queued for approval by default).
    pub async fn filing_item(
        &self,
        seq: u64,
        actor: &crate::domain::Actor,
        queue: bool,
    ) -> Result<FilingProposal, EngineError> {
        use crate::assistant::JobKind;
        use crate::assistant::filing as job;
        use crate::assistant::triage::DecidedBy;
        use crate::domain::{Action, Actor, AuditOutcome, Channel};
        let r = self.item(seq)?;
        if r.channel != Channel::Email {
            return Err(EngineError::invalid(
                format!("#{seq} is a {} item; only mail is filed", r.channel),
                json!({"field": "seq", "channel": r.channel.to_string()}),
            ));
        }
        let book = self.deals.book()?;
        let deals: Vec<&Deal> = book
            .deals
            .iter()
            .filter(|d| d.profile == r.profile && d.linked(&r.id).is_some())
            .collect();
        let mut suggestion = FilingSuggestion {
            message_id: r.id.clone(),
            seq: Some(r.seq),
            profile: r.profile.clone(),
            folder: None,
            rule: None,
            reason: String::new(),
            decided_by: None,
            model_error: None,
        };
        let (mut by, mut provider, mut model_error) = (DecidedBy::Rule, None, None);
        match suggest(&self.config.filing, &r, &deals) {
            Some((f, rule, why)) => {
                suggestion.folder = Some(f);
                suggestion.rule = Some(rule);
                suggestion.reason = why;
            }
            None => {
                let folders = job::candidates(&self.config.filing, &r.profile);
                let answer = self
                    .ask(
                        JobKind::Filing,
                        &r,
                        job::SYSTEM,
                        job::prompt(&r, &folders, &self.zone),
                        150,
                        actor,
                    )
                    .await
                    .and_then(|resp| {
                        job::parse_answer(&self.config, &folders, &resp.text)
                            .map(|a| (a, resp.provider))
                            .map_err(|e| e.to_string())
                    });
                match answer {
                    Ok(((folder, reason), p)) => {
                        by = DecidedBy::Model;
                        suggestion.rule = folder.as_ref().map(|_| format!("model:{p}"));
                        suggestion.folder = folder;
                        suggestion.reason = reason;
                        provider = Some(p);
                    }
                    Err(why) => {
                        suggestion.reason = "no filing rule places this message and the model's answer was not used".into();
                        model_error = Some(why);
                    }
                }
            }
        }
        let (outcome, why) = match (&model_error, &suggestion.folder) {
            (Some(e), _) => (
                AuditOutcome::Error,
                format!("model answer not used ({e}); no folder"),
            ),
            (None, Some(f)) => (
                AuditOutcome::Ok,
                format!("{f} by {}", format!("{by:?}").to_lowercase()),
            ),
            (None, None) => (AuditOutcome::Ok, "no folder fits".to_string()),
        };
        self.job_audit(JobKind::Filing, actor, &r, outcome, why)?;
        let queued = match (&suggestion.folder, queue) {
            (Some(folder), true) => Some(self.submit(
                Action::MoveMessage {
                    message_id: r.id.clone(),
                    folder: folder.clone(),
                },
                Actor::Assistant(JobKind::Filing.as_str().into()),
            )?),
            _ => None,
        };
        Ok(FilingProposal {
            suggestion,
            by,
            provider,
            model_error,
            queued,
        })
    }

    /// `run_batch` for filing.
    pub async fn filing_batch(
        self: &std::sync::Arc<Self>,
        seqs: Vec<u64>,
        actor: crate::domain::Actor,
        queue: bool,
        cancel: Option<tokio_util::sync::CancellationToken>,
        on_progress: &(dyn Fn(&super::jobs::JobProgress) + Send + Sync),
    ) -> super::jobs::BatchReport<FilingProposal> {
        self.run_batch(
            crate::assistant::JobKind::Filing,
            seqs,
            cancel,
            on_progress,
            move |e, seq| {
                let actor = actor.clone();
                async move {
                    e.filing_item(seq, &actor, queue)
                        .await
                        .map_err(|e| e.to_string())
                }
            },
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FilingRule;

    fn rec(from: &str, subject: &str, profile: &str) -> InboxRecord {
        serde_json::from_value(json!({
            "seq": 3, "id": "m3", "received_at": "2026-11-25T08:00:00Z", "profile": profile,
            "channel": "email", "from": {"name": "", "address": from}, "subject": subject,
            "ts": "2026-11-25T08:00:00Z", "text": "body", "preview": "body", "untrusted": true,
        }))
        .unwrap()
    }

    #[test]
    fn the_first_matching_rule_names_the_folder_and_why() {
        let c = FilingConfig {
            deal_folder: Some("Deals/{deal}".into()),
            folders: Vec::new(),
            rules: vec![
                FilingRule {
                    folder: "Finance".into(),
                    keywords: vec!["invoice".into()],
                    profiles: vec!["work".into()],
                    ..Default::default()
                },
                FilingRule {
                    folder: "Vendors/Acme".into(),
                    domains: vec!["acme.example".into()],
                    ..Default::default()
                },
            ],
        };
        let (f, r, why) =
            suggest(&c, &rec("a@mail.acme.example", "Invoice 7", "work"), &[]).unwrap();
        assert_eq!((f.as_str(), r.as_str()), ("Finance", "filing.rules[0]"));
        assert_eq!(why, "keyword `invoice` in the subject");
        // The first rule is limited to `work`.
        let (f, _, why) =
            suggest(&c, &rec("a@mail.acme.example", "Invoice 7", "home"), &[]).unwrap();
        assert_eq!(f, "Vendors/Acme");
        assert_eq!(why, "sender domain acme.example");
        assert!(suggest(&c, &rec("z@z.example", "hello", "work"), &[]).is_none());
    }
}
