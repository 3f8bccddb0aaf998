//! Answers to `Query` actions. Results are JSON values for the surface to shape; inbound
//! records in them keep their `untrusted: true` mark.

use serde::Serialize;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime, UtcOffset};

use super::{Call, Engine, EngineError, consumer_name};
use crate::brief::{self, BriefInputs};
use crate::config::BUILT_IN_HARD_BANS;
use crate::domain::{ConfigSection, DraftStatus, InboxRecord, Query};
use crate::store::inbox::{Filter, InboxState};

/// Upper bound on records one read returns, whatever the caller asks for.
pub const MAX_READ: usize = 200;

/// The answer to a read. Most answers are JSON for the surface to shape; the hot MCP read keeps
/// its records typed so they are not turned into JSON values and back on every call.
#[derive(Debug)]
pub enum Answer {
    Json(Value),
    Pull(PullAnswer),
}

#[derive(Debug, Serialize)]
pub struct PullAnswer {
    pub consumer: String,
    pub messages: Vec<InboxRecord>,
    /// The consumer's cursor after this read.
    pub cursor: u64,
    pub unread_remaining: u64,
    pub skipped_corrupt: u64,
}

impl Answer {
    pub fn into_value(self) -> Value {
        match self {
            Answer::Json(v) => v,
            Answer::Pull(p) => serde_json::to_value(p).unwrap_or(Value::Null),
        }
    }
}

impl Engine {
    pub(super) fn run_query(&self, q: Query, cx: &Call) -> Result<(Answer, String), EngineError> {
        let (v, target) = match q {
            Query::InboxPull {
                consumer,
                since,
                limit,
                channel,
                profile,
                mark_consumed,
            } => {
                let (p, target) =
                    self.pull(cx, consumer, since, limit, channel, profile, mark_consumed)?;
                return Ok((Answer::Pull(p), target));
            }
            other => self.run_json_query(other, cx)?,
        };
        Ok((Answer::Json(v), target))
    }

    #[allow(clippy::too_many_arguments)]
    fn pull(
        &self,
        cx: &Call,
        consumer: Option<String>,
        since: Option<u64>,
        limit: usize,
        channel: Option<crate::domain::Channel>,
        profile: Option<String>,
        mark_consumed: bool,
    ) -> Result<(PullAnswer, String), EngineError> {
        let own = consumer_name(cx.actor);
        let consumer = match consumer {
            Some(c) if cx.actor.is_operator() || Some(&c) == own.as_ref() => c,
            Some(c) => {
                return Err(EngineError::invalid(
                    format!("{} may only read with its own cursor, not `{c}`", cx.actor),
                    json!({"allowed_consumer": own}),
                ));
            }
            None => own.ok_or_else(|| {
                EngineError::invalid("this caller has no inbox cursor", Value::Null)
            })?,
        };
        self.check_profile(profile.as_deref())?;
        let limit = limit.clamp(1, MAX_READ);
        let filter = Filter {
            channel,
            profile,
            text: None,
        };
        let (batch, now_at) =
            self.inbox
                .pull_from(&consumer, since, limit, &filter, mark_consumed)?;
        let target = format!(
            "{consumer} returned={} cursor={now_at}",
            batch.records.len()
        );
        Ok((
            PullAnswer {
                consumer,
                messages: batch.records,
                cursor: now_at,
                unread_remaining: batch.last_seq.saturating_sub(now_at),
                skipped_corrupt: batch.skipped_corrupt,
            },
            target,
        ))
    }

    fn run_json_query(&self, q: Query, cx: &Call) -> Result<(Value, String), EngineError> {
        match q {
            Query::Status => {
                let st: InboxState = self.inbox.state()?;
                let queue = self.drafts.shared_queue()?;
                let pending = queue.pending().count();
                let v = json!({
                    "version": env!("CARGO_PKG_VERSION"),
                    "profiles": self.profile_names(),
                    "inbox": {"last_seq": st.last_seq, "unread": st.unread},
                    "drafts": {"pending": pending, "total": queue.drafts.len()},
                    "sources": self.health(),
                });
                Ok((v, format!("pending={pending}")))
            }
            q @ Query::InboxPull { .. } => {
                let (answer, target) = self.run_query(q, cx)?;
                Ok((answer.into_value(), target))
            }
            Query::InboxSearch {
                text,
                limit,
                channel,
                profile,
                before,
            } => {
                self.check_profile(profile.as_deref())?;
                let text = text.trim().to_string();
                if text.is_empty() {
                    return Err(EngineError::invalid(
                        "search text is empty",
                        json!({"field": "text"}),
                    ));
                }
                let limit = limit.clamp(1, MAX_READ);
                let filter = Filter {
                    channel,
                    profile,
                    text: Some(text),
                };
                let batch = self.inbox.read_before(before, limit, &filter)?;
                let n = batch.records.len();
                Ok((
                    json!({"messages": batch.records, "skipped_corrupt": batch.skipped_corrupt}),
                    format!("returned={n}"),
                ))
            }
            Query::InboxGet { key } => {
                let rec = match key.parse::<u64>() {
                    Ok(seq) => self.inbox.get(seq)?,
                    Err(_) => self.inbox.find_by_id(&key)?,
                }
                .ok_or_else(|| {
                    EngineError::NotFound(format!(
                        "no inbox item `{key}` (give a seq or a source id)"
                    ))
                })?;
                let target = format!("#{}", rec.seq);
                Ok((serde_json::to_value(rec).unwrap_or_default(), target))
            }
            Query::DraftsList { all } => {
                let q = self.drafts.queue()?;
                let drafts: Vec<_> = q
                    .drafts
                    .into_iter()
                    .filter(|d| all || !d.status.is_final())
                    .collect();
                let n = drafts.len();
                Ok((json!({"drafts": drafts}), format!("returned={n}")))
            }
            Query::DraftStatus { id } => {
                let d = self.existing_draft(&id)?;
                let awaiting = d.status == DraftStatus::Pending;
                let v = json!({"draft": d, "awaiting_operator": awaiting});
                Ok((v, id))
            }
            Query::InboxList {
                limit,
                channel,
                profile,
                before,
            } => {
                self.check_profile(profile.as_deref())?;
                let limit = limit.clamp(1, MAX_READ);
                let filter = Filter {
                    channel,
                    profile,
                    text: None,
                };
                let batch = self.inbox.read_before(before, limit, &filter)?;
                let n = batch.records.len();
                let v =
                    json!({"messages": batch.records, "skipped_corrupt": batch.skipped_corrupt});
                Ok((v, format!("returned={n}")))
            }
            Query::Brief { kind, profile } => {
                self.check_profile(Some(&profile))?;
                let now = OffsetDateTime::now_utc();
                // Falls back to UTC where the local offset cannot be read safely.
                let tz = UtcOffset::local_offset_at(now).unwrap_or(UtcOffset::UTC);
                let inputs = self.brief_inputs(&profile, now)?;
                let b = crate::brief::build(&inputs, kind, &profile, now, tz);
                let target = format!("{profile} {} records={}", b.kind, b.records_considered);
                Ok((serde_json::to_value(b).unwrap_or_default(), target))
            }
            Query::Providers => {
                // The config as changed by the operator's toggles (providers.json).
                let llm = &self.effective_llm()?;
                let providers: serde_json::Map<String, Value> = llm
                    .providers
                    .iter()
                    .map(|(name, p)| {
                        let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
                        // Whether the credential is there, never what it is.
                        if let Some(obj) = v.as_object_mut() {
                            obj.insert("credential_present".into(), json!(p.auth_env_is_set()));
                        }
                        (name.clone(), v)
                    })
                    .collect();
                let v = json!({
                    "default": llm.default,
                    "jobs": llm.jobs,
                    "providers": providers,
                    // Usage and cooldowns as this process's router has seen them.
                    "router": self.llm_stats(),
                });
                Ok((v, format!("providers={}", llm.providers.len())))
            }
            Query::AuditRecent { limit } => {
                let limit = limit.clamp(1, MAX_READ);
                let records = self.audit.tail(limit)?;
                let n = records.len();
                Ok((json!({"records": records}), format!("returned={n}")))
            }
            Query::ConfigSection { section } => {
                let c = &self.config;
                let v = match section {
                    ConfigSection::Profiles => {
                        let mut profiles = serde_json::Map::new();
                        for (name, p) in &c.profiles {
                            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
                            // PHI rosters never leave the process.
                            if let Some(obj) = v.as_object_mut() {
                                obj.remove("phi_names");
                                obj.insert("phi_names_configured".into(), json!(p.phi_names.len()));
                            }
                            profiles.insert(name.clone(), v);
                        }
                        Value::Object(profiles)
                    }
                    ConfigSection::AutonomyLadder => {
                        serde_json::to_value(&c.autonomy).unwrap_or(Value::Null)
                    }
                    ConfigSection::HardBans => json!({
                        "built_in": BUILT_IN_HARD_BANS
                            .iter()
                            .map(|b| json!({"rule": b.rule, "description": b.description}))
                            .collect::<Vec<_>>(),
                        "configured": c.hard_bans,
                    }),
                    ConfigSection::LlmProviders => json!({
                        "default": c.llm.default,
                        "jobs": c.llm.jobs,
                        "providers": c.llm.providers,
                    }),
                };
                Ok((v, format!("{section:?}")))
            }
        }
    }

    /// What a brief of `profile` is built from: its newest records (at most
    /// `brief::MAX_RECORDS`, none older than `brief::MAX_AGE_DAYS`), all drafts and the
    /// operator's cursor.
    fn brief_inputs(&self, profile: &str, now: OffsetDateTime) -> Result<BriefInputs, EngineError> {
        const PAGE: usize = 500;
        let oldest = now - Duration::days(brief::MAX_AGE_DAYS);
        let filter = Filter {
            channel: None,
            profile: Some(profile.to_string()),
            text: None,
        };
        let mut records = Vec::new();
        let mut before = None;
        let mut truncated = false;
        loop {
            let batch = self.inbox.read_before(before, PAGE, &filter)?;
            let n = batch.records.len();
            let mut done = n < PAGE;
            for r in batch.records {
                before = Some(r.seq);
                if r.received_at < oldest {
                    done = true;
                    break;
                }
                if records.len() >= brief::MAX_RECORDS {
                    truncated = true;
                    done = true;
                    break;
                }
                records.push(r);
            }
            if done {
                break;
            }
        }
        let unread_after = self.inbox.cursor(brief::OPERATOR_CONSUMER)?.unwrap_or(0);
        Ok(BriefInputs {
            records,
            drafts: self.drafts.queue()?.drafts,
            unread_after,
            truncated,
        })
    }

    fn check_profile(&self, profile: Option<&str>) -> Result<(), EngineError> {
        match profile {
            Some(p) if !self.config.profiles.contains_key(p) => Err(EngineError::invalid(
                format!("unknown profile `{p}`"),
                json!({"field": "profile", "valid_profiles": self.profile_names()}),
            )),
            _ => Ok(()),
        }
    }
}
