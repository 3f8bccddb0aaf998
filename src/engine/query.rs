//! Answers to `Query` actions: one typed [`Answer`] per query, which the surface serialises
//! once, in the shape it shows.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use super::runner::SourceHealth;
use super::{Call, Engine, EngineError, consumer_name};
use crate::brief::{self, Brief, BriefInputs};
use crate::config::BUILT_IN_HARD_BANS;
use crate::domain::{
    AuditRecord, BriefKind, Channel, ConfigSection, Draft, DraftStatus, InboxRecord, Query,
};
use crate::store::inbox::{Filter, InboxState};

/// Upper bound on records one read returns, whatever the caller asks for.
pub(crate) const MAX_READ: usize = 200;

/// The answer to a read: one typed shape per query, serialised once, by the surface that
/// shows it (the MCP tools shape their own views of it; the CLI prints it as JSON).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Status(StatusAnswer),
    Pull(PullAnswer),
    /// `InboxSearch` and `InboxList`.
    Messages(MessagesAnswer),
    Record(Box<InboxRecord>),
    Drafts(DraftsAnswer),
    DraftStatus(Box<DraftStatusAnswer>),
    Brief(Box<Brief>),
    /// `BriefAll`: one section per entity.
    Briefs(Box<brief::EntitiesBrief>),
    Providers(ProvidersAnswer),
    Audit(AuditAnswer),
    Deals(super::deals::DealsAnswer),
    Filing(super::filing::FilingAnswer),
    Deal(Box<super::deals::DealDetailAnswer>),
    DealTimeline(super::deals::DealTimelineAnswer),
    /// A configuration section: a JSON view of the config by nature (secrets and PHI rosters
    /// taken out).
    Config(Value),
    Triage(super::assistant_query::TriageAnswer),
    Deadlines(super::assistant_query::DeadlinesAnswer),
    Attachment(Box<AttachmentAnswer>),
}

/// A stored attachment: whose mail carried it (for the PHI rules) and its first bytes.
#[derive(Debug, Clone, Serialize)]
pub struct AttachmentAnswer {
    pub sha256: String,
    /// Profiles whose mail carried it; empty when that is not known (then the PHI view treats
    /// it as belonging to every `requires_hipaa` profile).
    pub profiles: Vec<String>,
    /// Neutralized name and media type it first arrived with.
    pub name: String,
    pub media_type: String,
    pub size: u64,
    /// Up to the `max_bytes` asked for; never serialised (surfaces decide how bytes go out).
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// `bytes` is shorter than the file.
    pub truncated: bool,
    /// Taken in from `[attachments] outbound_dirs` by a draft no operator has approved yet:
    /// `bytes` is empty, only the hash and size are told.
    pub awaiting_approval: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StatusAnswer {
    pub version: String,
    pub profiles: Vec<String>,
    pub inbox: InboxCounts,
    pub drafts: DraftCounts,
    /// Health of each inbound source.
    #[schemars(with = "Vec<Value>")]
    pub sources: Vec<SourceHealth>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InboxCounts {
    pub last_seq: u64,
    pub unread: u64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DraftCounts {
    pub pending: u64,
    pub total: u64,
}

#[derive(Debug, Serialize)]
pub struct PullAnswer {
    pub consumer: String,
    /// Shared with the inbox's parsed-record cache (`store::inbox::Batch`).
    pub messages: Vec<Arc<InboxRecord>>,
    /// The consumer's cursor after this read.
    pub cursor: u64,
    pub unread_remaining: u64,
    pub skipped_corrupt: u64,
}

#[derive(Debug, Serialize)]
pub struct MessagesAnswer {
    pub messages: Vec<Arc<InboxRecord>>,
    pub skipped_corrupt: u64,
}

#[derive(Debug, Serialize)]
pub struct DraftsAnswer {
    pub drafts: Vec<Draft>,
}

#[derive(Debug, Serialize)]
pub struct DraftStatusAnswer {
    pub draft: Draft,
    pub awaiting_operator: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ProvidersAnswer {
    pub default: Option<String>,
    pub jobs: BTreeMap<String, String>,
    /// Provider settings; `auth_env` names a variable, `credential_present` says whether it
    /// is set. Credentials themselves are never shown.
    pub providers: BTreeMap<String, Value>,
    /// Per provider this engine's LLM router has called: token usage, calls, failures,
    /// cooldown end and last failure summary (kept in memory by the running engine).
    pub router: BTreeMap<String, crate::llm::router::ProviderStats>,
    /// Every `[llm.budgets]` limit, what is spent against it and when it resets (durable).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub budgets: Vec<crate::llm::budget::BudgetStatus>,
    /// Per assistant job: its override and where each entity's calls go (the HIPAA filter
    /// applied), as the console's Providers pane shows it.
    pub job_routes: Vec<super::providers::JobRow>,
}

#[derive(Debug, Serialize)]
pub struct AuditAnswer {
    pub records: Vec<AuditRecord>,
}

impl Answer {
    /// The answer as JSON, for surfaces that print it whole (the CLI, resources).
    pub fn into_value(self) -> Value {
        // Every answer type is plain data (string keys, no failing `Serialize`), so this
        // cannot fail; `Null` rather than a panic if it ever did.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The variant's name, for "unexpected answer" errors at the surfaces.
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Status(_) => "status",
            Answer::Pull(_) => "pull",
            Answer::Messages(_) => "messages",
            Answer::Record(_) => "record",
            Answer::Drafts(_) => "drafts",
            Answer::DraftStatus(_) => "draft_status",
            Answer::Brief(_) => "brief",
            Answer::Briefs(_) => "briefs",
            Answer::Providers(_) => "providers",
            Answer::Audit(_) => "audit",
            Answer::Config(_) => "config",
            Answer::Triage(_) => "triage",
            Answer::Deadlines(_) => "deadlines",
            Answer::Deals(_) => "deals",
            Answer::Filing(_) => "filing",
            Answer::Deal(_) => "deal",
            Answer::DealTimeline(_) => "deal_timeline",
            Answer::Attachment(_) => "attachment",
        }
    }
}

impl Engine {
    /// Answer one query, with the target its audit record names. One named step per query.
    pub(super) fn run_query(&self, q: Query, cx: &Call) -> Result<(Answer, String), EngineError> {
        match q {
            Query::Status => self.status_answer(),
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
                Ok((Answer::Pull(p), target))
            }
            Query::InboxSearch {
                text,
                limit,
                channel,
                profile,
                before,
                order,
            } => self.search_answer(&text, limit, channel, profile, before, order),
            Query::InboxList {
                limit,
                channel,
                profile,
                before,
            } => self.messages_answer(limit, channel, profile, before),
            Query::InboxGet { key } => self.record_answer(&key),
            Query::AttachmentRead { sha256, max_bytes } => {
                self.attachment_answer(&sha256, max_bytes)
            }
            Query::DraftsList { all } => {
                let drafts: Vec<Draft> = self
                    .drafts
                    .queue()?
                    .drafts
                    .into_iter()
                    .filter(|d| all || !d.status.is_final())
                    .collect();
                let target = format!("returned={}", drafts.len());
                Ok((Answer::Drafts(DraftsAnswer { drafts }), target))
            }
            Query::DraftStatus { id } => {
                let draft = self.existing_draft(&id)?;
                let awaiting_operator = draft.status == DraftStatus::Pending;
                Ok((
                    Answer::DraftStatus(Box::new(DraftStatusAnswer {
                        draft,
                        awaiting_operator,
                    })),
                    id,
                ))
            }
            Query::Brief { kind, profile } => self.brief_answer(kind, profile),
            Query::BriefAll {
                kind,
                include_personal,
            } => self.brief_all_answer(kind, include_personal),
            Query::Providers => self.providers_answer(),
            Query::AuditRecent { limit } => {
                let records = self.audit.tail(limit.clamp(1, MAX_READ))?;
                let target = format!("returned={}", records.len());
                Ok((Answer::Audit(AuditAnswer { records }), target))
            }
            Query::DealsList { profile, all } => self.deals_list_answer(profile, all),
            Query::FilingSuggestion { message_ids } => self.filing_answer(message_ids),
            Query::DealDetail { id } => self.deal_detail_answer(&id),
            Query::DealTimeline { id, limit } => self.deal_timeline_answer(&id, limit),
            Query::ConfigSection { section } => Ok((
                Answer::Config(self.config_section(section)),
                format!("{section:?}"),
            )),
            Query::TriageList {
                profile,
                category,
                urgency,
                limit,
            } => self.triage_answer(profile, category, urgency, limit),
            Query::DeadlinesList { profile, limit } => self.deadlines_answer(profile, limit),
        }
    }

    /// Whether an approved draft (approved, executed, or failed and retryable) attaches the
    /// file `sha256`.
    fn approved_with(&self, sha256: &str) -> Result<bool, EngineError> {
        Ok(self.drafts.queue()?.drafts.iter().any(|d| {
            matches!(
                d.status,
                DraftStatus::Approved | DraftStatus::Executed | DraftStatus::Failed
            ) && d.outbound.attachments().iter().any(|a| a.sha256 == sha256)
        }))
    }

    fn attachment_answer(
        &self,
        sha256: &str,
        max_bytes: u64,
    ) -> Result<(Answer, String), EngineError> {
        let sha256 = sha256.trim().to_ascii_lowercase();
        if !crate::store::attachments::is_hash(&sha256) {
            return Err(EngineError::invalid(
                "not an attachment hash: expected 64 hexadecimal digits",
                json!({"field": "sha256"}),
            ));
        }
        let io = |e: std::io::Error| {
            EngineError::Store(crate::store::StoreError::io(
                self.attachments.dir(),
                "read",
                e,
            ))
        };
        let Some((bytes, size)) = self.attachments.read(&sha256, max_bytes).map_err(io)? else {
            return Err(EngineError::NotFound(format!(
                "no stored attachment {sha256} (never received, or marked too large)"
            )));
        };
        let owners = self.attachments.owners(&sha256).map_err(io)?;
        let by_path = owners.as_ref().is_some_and(|o| o.by_path);
        let (profiles, name, media_type) = match owners {
            Some(o) => (o.profiles, o.name, o.media_type),
            None => (
                Vec::new(),
                "attachment".into(),
                "application/octet-stream".into(),
            ),
        };
        let awaiting_approval = by_path && !self.approved_with(&sha256)?;
        let (bytes, name, media_type) = if awaiting_approval {
            // Fail closed: not even its name (it may name the file's contents).
            (
                Vec::new(),
                "attachment".into(),
                "application/octet-stream".into(),
            )
        } else {
            (bytes, name, media_type)
        };
        let target = format!("attachment={sha256}");
        Ok((
            Answer::Attachment(Box::new(AttachmentAnswer {
                awaiting_approval,
                truncated: !awaiting_approval && (bytes.len() as u64) < size,
                sha256,
                profiles,
                name,
                media_type,
                size,
                bytes,
            })),
            target,
        ))
    }

    fn status_answer(&self) -> Result<(Answer, String), EngineError> {
        let st: InboxState = self.inbox.state()?;
        let queue = self.drafts.shared_queue()?;
        let pending = queue.pending().count() as u64;
        let answer = StatusAnswer {
            version: env!("CARGO_PKG_VERSION").to_string(),
            profiles: self.profile_names(),
            inbox: InboxCounts {
                last_seq: st.last_seq,
                unread: st.unread,
            },
            drafts: DraftCounts {
                pending,
                total: queue.drafts.len() as u64,
            },
            sources: self.health(),
        };
        Ok((Answer::Status(answer), format!("pending={pending}")))
    }

    #[allow(clippy::too_many_arguments)]
    fn pull(
        &self,
        cx: &Call,
        consumer: Option<String>,
        since: Option<u64>,
        limit: usize,
        channel: Option<Channel>,
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
        let (mut batch, mut now_at) =
            self.inbox
                .pull_from(&consumer, since, limit, &filter, mark_consumed)?;
        // Records already pushed to this consumer as turns (Claude Code's channel) are not
        // handed over again by a consuming pull; it reads on past them so a full batch stays
        // full.
        let mut skipped_pushed = 0usize;
        if mark_consumed && self.has_delivered(&consumer) {
            let mut kept = Vec::with_capacity(limit);
            let mut want = limit;
            loop {
                let read = batch.records.len();
                let last = batch.records.last().map(|r| r.seq);
                for r in std::mem::take(&mut batch.records) {
                    if self.take_delivered(&consumer, r.seq) {
                        skipped_pushed += 1;
                    } else {
                        kept.push(r);
                    }
                }
                let Some(last) = last else { break };
                if read < want || kept.len() >= limit {
                    break;
                }
                want = limit - kept.len();
                let (more, at) =
                    self.inbox
                        .pull_from(&consumer, Some(last), want, &filter, true)?;
                now_at = at;
                batch.last_seq = more.last_seq;
                batch.skipped_corrupt += more.skipped_corrupt;
                batch.records = more.records;
            }
            batch.records = kept;
        }
        let target = if skipped_pushed > 0 {
            format!(
                "{consumer} returned={} cursor={now_at} skipped_pushed={skipped_pushed}",
                batch.records.len()
            )
        } else {
            format!(
                "{consumer} returned={} cursor={now_at}",
                batch.records.len()
            )
        };
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

    /// The records with `text`'s words (see `domain::SearchQuery`), below `before`.
    fn search_answer(
        &self,
        text: &str,
        limit: usize,
        channel: Option<Channel>,
        profile: Option<String>,
        before: Option<u64>,
        order: crate::domain::SearchOrder,
    ) -> Result<(Answer, String), EngineError> {
        let query = crate::domain::SearchQuery::parse(text)
            .map_err(|e| EngineError::invalid(e.0, json!({"field": "text"})))?;
        self.check_profile(profile.as_deref())?;
        let filter = Filter {
            channel,
            profile,
            text: None,
        };
        let batch = self
            .inbox
            .search(&query, &filter, before, limit.clamp(1, MAX_READ), order)?;
        Ok(messages_of(batch))
    }

    /// List, newest first, below `before`.
    fn messages_answer(
        &self,
        limit: usize,
        channel: Option<Channel>,
        profile: Option<String>,
        before: Option<u64>,
    ) -> Result<(Answer, String), EngineError> {
        self.check_profile(profile.as_deref())?;
        let filter = Filter {
            channel,
            profile,
            text: None,
        };
        let batch = self
            .inbox
            .read_before(before, limit.clamp(1, MAX_READ), &filter)?;
        Ok(messages_of(batch))
    }

    fn record_answer(&self, key: &str) -> Result<(Answer, String), EngineError> {
        let rec = match crate::domain::parse_seq(key) {
            Some(seq) => self.inbox.get(seq)?,
            None => self.inbox.find_by_id(key)?,
        }
        .ok_or_else(|| {
            EngineError::NotFound(format!("no inbox item `{key}` (give a seq or a source id)"))
        })?;
        let target = format!("#{}", rec.seq);
        Ok((Answer::Record(Box::new(rec)), target))
    }

    fn brief_answer(
        &self,
        kind: BriefKind,
        profile: String,
    ) -> Result<(Answer, String), EngineError> {
        self.check_profile(Some(&profile))?;
        let now = OffsetDateTime::now_utc();
        // The operator's zone ([operator] time_zone, else the system's).
        let tz = self.offset_at(now);
        let (inputs, waiting) = self.brief_inputs(&profile, now)?;
        let mut b = crate::brief::build(&inputs, kind, &profile, now, tz);
        crate::brief::note_unassigned(&mut b, waiting);
        let target = format!("{profile} {} records={}", b.kind, b.records_considered);
        Ok((Answer::Brief(Box::new(b)), target))
    }

    /// The brief across entities: each profile's brief built from its own inputs only (the
    /// same `build` as one profile's), personal profiles left out unless asked for.
    fn brief_all_answer(
        &self,
        kind: BriefKind,
        include_personal: bool,
    ) -> Result<(Answer, String), EngineError> {
        let now = OffsetDateTime::now_utc();
        let tz = self.offset_at(now);
        let mut sections = Vec::new();
        let mut left_out = Vec::new();
        for (name, p) in &self.config.profiles {
            if p.personal && !include_personal {
                left_out.push(brief::LeftOut {
                    profile: name.clone(),
                    why: brief::PERSONAL_LEFT_OUT.into(),
                });
                continue;
            }
            let (inputs, waiting) = self.brief_inputs(name, now)?;
            let mut b = brief::build(&inputs, kind, name, now, tz);
            // Items waiting for a profile belong to no entity: said once, in the first section.
            if sections.is_empty() {
                brief::note_unassigned(&mut b, waiting);
            }
            sections.push(b);
        }
        let b = brief::EntitiesBrief {
            kind: match kind {
                BriefKind::Morning => "morning",
                BriefKind::EndOfDay => "end_of_day",
            }
            .into(),
            profile: brief::ALL_PROFILES.into(),
            include_personal,
            generated_at: now
                .to_offset(tz)
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
            untrusted_content: true,
            sections,
            left_out,
        };
        let target = format!(
            "all {} sections={} left_out={}",
            b.kind,
            b.sections.len(),
            b.left_out.len()
        );
        Ok((Answer::Briefs(Box::new(b)), target))
    }

    fn providers_answer(&self) -> Result<(Answer, String), EngineError> {
        // The config as changed by the operator's toggles (providers.json).
        let llm = &self.effective_llm()?;
        let providers: BTreeMap<String, Value> = llm
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
        let target = format!("providers={}", llm.providers.len());
        let answer = ProvidersAnswer {
            default: llm.default.clone(),
            jobs: llm.jobs.clone(),
            providers,
            // Usage and cooldowns as this process's router has seen them.
            router: self.llm_stats(),
            budgets: self.budget_status(llm)?,
            job_routes: super::providers::job_routes(&self.config, llm),
        };
        Ok((Answer::Providers(answer), target))
    }

    fn config_section(&self, section: ConfigSection) -> Value {
        let c = &self.config;
        match section {
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
            ConfigSection::OperatorProfile => json!({
                "operator": c.operator,
                "entities": c.profiles.iter().map(|(name, p)| json!({
                    "profile": name,
                    "display_name": p.display(name),
                    "email_domains": p.email_domains,
                    "requires_hipaa": p.requires_hipaa,
                    "never_mix_with": p.never_mix_with,
                })).collect::<Vec<_>>(),
            }),
            ConfigSection::DraftStyle => serde_json::to_value(&c.drafting).unwrap_or(Value::Null),
            ConfigSection::BriefConfig => serde_json::to_value(&c.brief).unwrap_or(Value::Null),
            ConfigSection::LlmProviders => json!({
                "default": c.llm.default,
                "jobs": c.llm.jobs,
                "providers": c.llm.providers,
            }),
        }
    }

    /// What a brief of `profile` is built from: its newest records (at most
    /// `brief::MAX_RECORDS`, none older than `brief::MAX_AGE_DAYS`), all drafts and the
    /// operator's cursor; and how many items of that window wait in the `unassigned` bucket
    /// (counted in the same pass, when `[classification]` is configured).
    fn brief_inputs(
        &self,
        profile: &str,
        now: OffsetDateTime,
    ) -> Result<(BriefInputs, usize), EngineError> {
        const PAGE: usize = 500;
        let oldest = now - Duration::days(brief::MAX_AGE_DAYS);
        let count_waiting =
            self.config.classification.is_some() && profile != crate::domain::UNASSIGNED;
        let filter = Filter {
            channel: None,
            profile: (!count_waiting).then(|| profile.to_string()),
            text: None,
        };
        let mut waiting = 0;
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
                if r.profile != profile {
                    waiting += usize::from(r.profile == crate::domain::UNASSIGNED);
                    continue;
                }
                if records.len() >= brief::MAX_RECORDS {
                    truncated = true;
                    done = true;
                    break;
                }
                records.push(Arc::unwrap_or_clone(r));
            }
            if done {
                break;
            }
        }
        let unread_after = self.inbox.cursor(brief::OPERATOR_CONSUMER)?.unwrap_or(0);
        Ok((
            BriefInputs {
                records,
                drafts: self.drafts.queue()?.drafts,
                unread_after,
                truncated,
                deals: self.deals.book()?.deals.clone(),
                layout: self.config.brief.clone(),
                date_order: self.config.operator.date_order.unwrap_or_default(),
            },
            waiting,
        ))
    }

    pub(super) fn check_profile(&self, profile: Option<&str>) -> Result<(), EngineError> {
        match profile {
            // A name the README and the console use: say why it is not here rather than
            // calling it unknown.
            Some(p) if p == crate::domain::UNASSIGNED && !self.takes_unassigned(p) => {
                Err(EngineError::invalid(
                    format!(
                        "there is no `{p}` bucket without a [classification] section in the config: unclear items get the spool's default profile instead (see README, \"Files and configuration\")"
                    ),
                    json!({"field": "profile", "valid_profiles": self.profile_names()}),
                ))
            }
            Some(p) if !self.config.profiles.contains_key(p) && !self.takes_unassigned(p) => {
                Err(EngineError::invalid(
                    format!("unknown profile `{p}`"),
                    json!({"field": "profile", "valid_profiles": self.profile_names()}),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// A batch of records as a messages answer, with its audit target.
fn messages_of(batch: crate::store::inbox::Batch) -> (Answer, String) {
    let target = format!("returned={}", batch.records.len());
    (
        Answer::Messages(MessagesAnswer {
            messages: batch.records,
            skipped_corrupt: batch.skipped_corrupt,
        }),
        target,
    )
}
