//! Selection, compliance, redaction, retries, fallbacks, cooldown and usage.
//!
//! A call walks a chain of candidates: the job's provider (`llm.jobs.<job>`), the entity's
//! (`profiles.<p>.llm_provider`), `llm.default`, then every other configured provider in name
//! order as fallbacks. Before **every** HTTP attempt — the first, each retry, each fallback —
//! the candidate passes the compliance filter again (configured, enabled, HIPAA-cleared when
//! the profile requires it, not cooling down) and the messages are redacted again for a
//! `phi_auto_redact` profile (with one [`RedactionSession`] per call, so placeholders stay the
//! same from hop to hop). Checking per attempt rather than once per chain is deliberate: the
//! operator can switch a provider off mid-call, a provider can enter cooldown mid-call, and a
//! single check that a later refactor moves would silently cover fewer hops.
//!
//! Everything the router decides goes to the [`LlmAudit`] callback first; if that fails the
//! call stops (fail closed). Audit records name providers, rules and failure summaries; never
//! message text, placeholders' values or credentials.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use time::OffsetDateTime;
use tokio::time::Instant;

use super::client::{self, Attempt, AttemptError, FailureKind, Sink};
use super::providers::{self, PrepareCx, SecretLookup, copilot::CopilotTokens};
use super::{ChatMessage, LlmAudit, LlmError, LlmRequest, LlmResponse, Usage};
use crate::config::{LlmConfig, Profile, ProviderConfig, ProviderKind};
use crate::domain::{AuditEvent, AuditOutcome};
use crate::governance::redact::{RedactionSession, Redactor};

/// Tunables of retries and cooldown.
#[derive(Clone)]
pub struct RouterOptions {
    /// Retries on the same provider after a transient failure (so at most `1 + max_retries`
    /// attempts per provider per call).
    pub max_retries: u32,
    /// Exponential backoff: `base * 2^n`, capped at `backoff_max`, with jitter.
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// The longest `Retry-After` honoured by waiting; a longer one moves to the next provider.
    pub retry_after_cap: Duration,
    /// Consecutive failures after which a provider cools down …
    pub cooldown_after: u32,
    /// … for this long, doubling with each further cooldown, up to `cooldown_max`.
    pub cooldown_base: Duration,
    pub cooldown_max: Duration,
    /// Where credentials come from (the process environment outside tests).
    pub secrets: SecretLookup,
    /// The usage ledger for `[llm.budgets]` (`<data>/llm-usage.json`); `None`: memory only.
    pub usage_file: Option<std::path::PathBuf>,
    /// Which day and month budgets count against (UTC).
    pub clock: super::budget::Clock,
}

impl Default for RouterOptions {
    fn default() -> Self {
        RouterOptions {
            max_retries: 2,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(8),
            retry_after_cap: Duration::from_secs(30),
            cooldown_after: 3,
            cooldown_base: Duration::from_secs(60),
            cooldown_max: Duration::from_secs(30 * 60),
            secrets: providers::env_lookup(),
            usage_file: None,
            clock: super::budget::system_clock(),
        }
    }
}

/// A provider's health and usage in this process.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProviderStats {
    pub usage: Usage,
    /// Calls it answered.
    pub calls: u64,
    /// Failed attempts.
    pub failures: u64,
    pub consecutive_failures: u32,
    /// RFC 3339, while it cools down.
    pub cooldown_until: Option<String>,
    /// The last failure's summary (status, code; never request text or credentials).
    pub last_error: Option<String>,
}

#[derive(Default)]
struct Health {
    stats: ProviderStats,
    /// Cooldowns since the last success (each one doubles the next).
    cooldowns: u32,
    until: Option<Instant>,
}

/// What a job's LLM call is checked against.
pub struct CallContext<'a> {
    /// The effective `[llm]` (operator toggles applied).
    pub llm: &'a LlmConfig,
    pub profile_name: &'a str,
    pub profile: &'a Profile,
    /// Who asked (for the audit trail).
    pub actor: &'a str,
    pub audit: &'a dyn LlmAudit,
    /// Re-reads the effective `[llm]` before every hop after the first, so a provider the
    /// operator switches off mid-call gets no further attempt. `None`: `llm` holds throughout.
    pub refresh: Option<&'a (dyn Fn() -> Result<LlmConfig, String> + Send + Sync)>,
}

/// Where a candidate came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Job,
    Entity,
    Default,
    Fallback,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Job => "job override",
            Source::Entity => "entity override",
            Source::Default => "default",
            Source::Fallback => "fallback",
        }
    }
}

/// Why a candidate may not receive this hop.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Skip {
    Unknown,
    Disabled,
    NotCleared,
    CoolingDown(String),
    /// The request carries a Copilot user token, which goes to `copilot` providers only.
    NotForUserToken,
}

/// A compiled redactor and the roster (`phi_names`) it was built from.
type RosterRedactor = (Vec<String>, Arc<Redactor>);

pub struct Router {
    http: reqwest::Client,
    opts: RouterOptions,
    health: Mutex<BTreeMap<String, Health>>,
    copilot: CopilotTokens,
    /// Compiled redactors per profile, with the roster they were built from: compiling the
    /// detectors costs tens of milliseconds, so it is done once per profile, not per call.
    redactors: Mutex<BTreeMap<String, RosterRedactor>>,
    /// Spending per provider and profile, durable across restarts.
    ledger: super::budget::Ledger,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router").finish_non_exhaustive()
    }
}

/// The candidates for `job` of `profile`, in order, each once.
pub fn candidates(llm: &LlmConfig, profile: &Profile, job: &str) -> Vec<(String, Source)> {
    let mut out: Vec<(String, Source)> = Vec::new();
    let mut add = |name: Option<&String>, src: Source| {
        if let Some(n) = name
            && !out.iter().any(|(o, _)| o == n)
        {
            out.push((n.clone(), src));
        }
    };
    add(llm.jobs.get(job), Source::Job);
    add(profile.llm_provider.as_ref(), Source::Entity);
    add(llm.default.as_ref(), Source::Default);
    for name in llm.providers.keys() {
        add(Some(name), Source::Fallback);
    }
    out
}

impl Router {
    pub fn new(opts: RouterOptions) -> Result<Router, String> {
        let http = crate::net::client_builder()
            // Provider endpoints are configured; a redirect elsewhere would carry the key along.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let ledger = super::budget::Ledger::open(opts.usage_file.clone(), opts.clock.clone())?;
        Ok(Router {
            http,
            ledger,
            opts,
            health: Mutex::new(BTreeMap::new()),
            copilot: CopilotTokens::default(),
            redactors: Mutex::new(BTreeMap::new()),
        })
    }

    /// Whether the credential named `var` is set, looked up where this router's calls look
    /// (never the value).
    pub fn has_secret(&self, var: &str) -> bool {
        (self.opts.secrets)(var).is_some()
    }

    /// Usage and health per provider (only providers this process has called).
    pub fn stats(&self) -> BTreeMap<String, ProviderStats> {
        let now = Instant::now();
        self.lock()
            .iter()
            .map(|(n, h)| {
                let mut s = h.stats.clone();
                if h.until.is_none_or(|u| u <= now) {
                    s.cooldown_until = None;
                }
                (n.clone(), s)
            })
            .collect()
    }

    /// Every budget of `budgets` and where it stands (from the durable ledger).
    pub fn budget_status(
        &self,
        budgets: &crate::config::budgets::BudgetsConfig,
    ) -> Vec<super::budget::BudgetStatus> {
        self.ledger.status(budgets)
    }

    /// Copilot token exchanges made so far.
    pub fn copilot_exchanges(&self) -> u64 {
        self.copilot.exchanges()
    }

    /// The profile's redactor, compiled on first use and again only if its roster changed.
    fn redactor(
        &self,
        profile_name: &str,
        profile: &Profile,
    ) -> Result<Arc<Redactor>, crate::governance::redact::RedactError> {
        let mut map = self.redactors.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((names, r)) = map.get(profile_name)
            && *names == profile.phi_names
        {
            return Ok(r.clone());
        }
        let r = Arc::new(Redactor::for_profile(profile)?);
        map.insert(
            profile_name.to_string(),
            (profile.phi_names.clone(), r.clone()),
        );
        Ok(r)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Health>> {
        self.health.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The compliance filter for one hop.
    fn admit<'c>(
        &self,
        cx: &CallContext<'_>,
        llm: &'c LlmConfig,
        name: &str,
        user_token: bool,
    ) -> Result<&'c ProviderConfig, Skip> {
        let Some(cfg) = llm.providers.get(name) else {
            return Err(Skip::Unknown);
        };
        if !cfg.enabled {
            return Err(Skip::Disabled);
        }
        if user_token && cfg.kind != ProviderKind::Copilot {
            return Err(Skip::NotForUserToken);
        }
        if cx.profile.requires_hipaa && !cfg.hipaa_cleared {
            return Err(Skip::NotCleared);
        }
        if let Some(h) = self.lock().get(name)
            && let Some(until) = h.until
            && until > Instant::now()
        {
            return Err(Skip::CoolingDown(
                h.stats.cooldown_until.clone().unwrap_or_default(),
            ));
        }
        Ok(cfg)
    }

    fn succeeded(&self, name: &str, usage: Usage) {
        let mut map = self.lock();
        let h = map.entry(name.to_string()).or_default();
        h.stats.usage.add(usage);
        h.stats.calls += 1;
        h.stats.consecutive_failures = 0;
        h.stats.cooldown_until = None;
        h.cooldowns = 0;
        h.until = None;
    }

    /// Record a failed attempt; returns the cooldown's end when this failure starts one.
    fn failed(&self, name: &str, e: &AttemptError) -> Option<String> {
        let mut map = self.lock();
        let h = map.entry(name.to_string()).or_default();
        h.stats.failures += 1;
        h.stats.last_error = Some(e.summary.clone());
        if !e.kind.counts_against_provider() {
            return None;
        }
        h.stats.consecutive_failures += 1;
        // After a cooldown one more failure is enough: the provider had its chance.
        let threshold = if h.cooldowns > 0 {
            1
        } else {
            self.opts.cooldown_after.max(1)
        };
        if h.stats.consecutive_failures < threshold {
            return None;
        }
        let factor = 2u32.saturating_pow(h.cooldowns.min(16));
        let len = self
            .opts
            .cooldown_base
            .saturating_mul(factor)
            .min(self.opts.cooldown_max);
        h.cooldowns += 1;
        h.stats.consecutive_failures = 0;
        h.until = Some(Instant::now() + len);
        let wall = OffsetDateTime::now_utc() + len;
        let text = wall
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        h.stats.cooldown_until = Some(text.clone());
        Some(text)
    }

    /// How long to wait before retry number `n + 1`; `None` when the server asks for longer
    /// than we are willing to wait.
    fn wait(&self, n: u32, retry_after: Option<Duration>) -> Option<Duration> {
        if let Some(ra) = retry_after {
            if ra > self.opts.retry_after_cap {
                return None;
            }
            // At least what the server asked for, plus a little so clients do not return in
            // lockstep.
            let extra = jitter((ra / 10).min(Duration::from_secs(1)));
            return Some(ra + extra);
        }
        let exp = self
            .opts
            .backoff_base
            .saturating_mul(2u32.saturating_pow(n.min(16)))
            .min(self.opts.backoff_max);
        // "Equal jitter": half fixed, half random.
        Some(exp / 2 + jitter(exp / 2))
    }

    /// Run a job's LLM call: select, filter, redact, send, retry, fall back; re-identify the
    /// answer when asked. `sink` receives the answer as it streams (re-identified when asked).
    pub async fn complete(
        &self,
        cx: &CallContext<'_>,
        req: &LlmRequest,
        mut sink: Option<Sink<'_>>,
    ) -> Result<LlmResponse, LlmError> {
        if req.messages.is_empty() {
            return Err(LlmError::Invalid(
                "an LLM call needs at least one message".into(),
            ));
        }
        let mut call = Call::start(self, cx, req)?;
        for (name, source) in candidates(cx.llm, cx.profile, &req.job) {
            if let Some(answer) = call.try_provider(&name, source, &mut sink).await? {
                return Ok(answer);
            }
        }
        Err(call.nobody_answered())
    }
}

/// One call's state across its hops: what each candidate refused or failed with, the redaction
/// session (placeholders stay the same on every hop) and the streamed text held back for
/// re-identification.
struct Call<'r, 'c> {
    router: &'r Router,
    cx: &'r CallContext<'c>,
    req: &'r LlmRequest,
    started: Instant,
    redactor: Option<Arc<Redactor>>,
    session: RedactionSession,
    reid: bool,
    held: String,
    attempts: u32,
    hops: u32,
    failed_over: Vec<String>,
    last_error: Option<String>,
    not_cleared: Vec<String>,
    cooling: Vec<String>,
    /// The operator's provider switches as of the latest hop.
    current: LlmConfig,
    estimate: u64,
}

/// One provider's attempts within a call.
#[derive(Default)]
struct Hop {
    tries: u32,
    /// A Copilot token was exchanged again after an auth failure (once per provider).
    reexchanged: bool,
    /// Some servers (older Azure api-versions, older local servers) refuse `stream_options`;
    /// then this provider is asked once more without it (no usage).
    without_stream_options: bool,
    /// A request reached this provider (so falling past it is a fallback, not a skip).
    tried_here: bool,
}

/// What a failed attempt leads to.
enum Next {
    SameProvider,
    NextProvider,
}

impl<'r, 'c> Call<'r, 'c> {
    /// Build the redactor before anything else: a profile that cannot be redacted sends
    /// nothing anywhere (fail closed).
    fn start(
        router: &'r Router,
        cx: &'r CallContext<'c>,
        req: &'r LlmRequest,
    ) -> Result<Self, LlmError> {
        let mut call = Call {
            router,
            cx,
            req,
            started: Instant::now(),
            redactor: None,
            session: RedactionSession::new(),
            reid: false,
            held: String::new(),
            attempts: 0,
            hops: 0,
            failed_over: Vec::new(),
            last_error: None,
            not_cleared: Vec::new(),
            cooling: Vec::new(),
            current: cx.llm.clone(),
            estimate: super::budget::estimate(&req.messages, req.max_tokens),
        };
        if cx.profile.phi_auto_redact {
            match router.redactor(cx.profile_name, cx.profile) {
                Ok(r) => call.redactor = Some(r),
                Err(e) => {
                    return Err(call.block(
                        "phi_redaction_failed",
                        format!(
                            "the redactor of profile `{}` cannot be built: {e}",
                            cx.profile_name
                        ),
                        "fix the profile's phi_names / redaction patterns; nothing was sent".into(),
                    ));
                }
            }
        }
        call.reid = call.redactor.is_some() && req.reidentify;
        Ok(call)
    }

    fn audit(&self, ev: AuditEvent) -> Result<(), LlmError> {
        let ev = ev
            .entity(self.cx.profile_name)
            .tool(format!("llm:{}", self.req.job));
        self.cx.audit.record(ev).map_err(LlmError::AuditUnavailable)
    }

    fn event(&self, name: &str, outcome: AuditOutcome) -> AuditEvent {
        AuditEvent::new(name, self.cx.actor, outcome)
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// A governance block, audited (an audit failure wins: nothing proceeds unaudited).
    fn block(&self, rule: &str, reason: String, remedy: String) -> LlmError {
        let err = LlmError::block(rule, reason.clone(), remedy);
        match self.audit(
            self.event("llm.block", AuditOutcome::Blocked)
                .reason(format!("{rule}: {reason}"))
                .duration_ms(self.elapsed_ms()),
        ) {
            Ok(()) => err,
            Err(a) => a,
        }
    }

    /// Offer the call to one candidate: its attempts, retries and re-exchanges. `Some` is the
    /// answer; `None` moves on to the next candidate.
    async fn try_provider(
        &mut self,
        name: &str,
        source: Source,
        sink: &mut Option<Sink<'_>>,
    ) -> Result<Option<LlmResponse>, LlmError> {
        let mut hop = Hop::default();
        loop {
            self.refresh_switches()?;
            self.hops += 1;
            // The compliance filter, on this very hop.
            let cfg =
                match self
                    .router
                    .admit(self.cx, &self.current, name, self.req.user_token.is_some())
                {
                    Ok(c) => c.clone(),
                    Err(skip) => {
                        self.skipped(name, source, skip, hop.tried_here)?;
                        break;
                    }
                };
            self.check_budget(name, &cfg)?;
            self.announce(name, source, &cfg, &hop)?;
            let messages = self.redact()?;
            hop.tried_here = true;
            match self
                .send(name, &cfg, &messages, !hop.without_stream_options, sink)
                .await
            {
                Ok(c) => return self.answered(name, &cfg, c, sink).map(Some),
                Err(e) => match self.attempt_failed(name, &cfg, e, &mut hop, sink).await? {
                    Next::SameProvider => continue,
                    Next::NextProvider => break,
                },
            }
        }
        if hop.tried_here {
            self.failed_over.push(name.to_string());
        }
        Ok(None)
    }

    /// The operator's switches as they are now: they may change during a call.
    fn refresh_switches(&mut self) -> Result<(), LlmError> {
        if self.hops == 0 {
            return Ok(());
        }
        let Some(refresh) = self.cx.refresh else {
            return Ok(());
        };
        match refresh() {
            Ok(l) => {
                self.current = l;
                Ok(())
            }
            Err(e) => Err(self.block(
                "providers_unreadable",
                format!("the provider switches cannot be read: {e}"),
                "fix or remove providers.json in the data dir".into(),
            )),
        }
    }

    /// A candidate the filter refused: remembered for the final explanation, audited when the
    /// operator would want to know (an unknown or disabled fallback is not news).
    fn skipped(
        &mut self,
        name: &str,
        source: Source,
        skip: Skip,
        tried_here: bool,
    ) -> Result<(), LlmError> {
        let (why, notable) = match &skip {
            Skip::Unknown => ("is not configured".to_string(), source != Source::Fallback),
            Skip::Disabled => (
                "is disabled".to_string(),
                source != Source::Fallback || tried_here,
            ),
            Skip::NotCleared => {
                self.not_cleared.push(name.to_string());
                (
                    "is not HIPAA-cleared and this profile requires it".to_string(),
                    true,
                )
            }
            Skip::CoolingDown(until) => {
                self.cooling.push(format!("{name} (until {until})"));
                (format!("is cooling down until {until}"), true)
            }
            Skip::NotForUserToken => (
                "is not of kind copilot, and this call's Copilot user token goes to no other kind"
                    .to_string(),
                source != Source::Fallback,
            ),
        };
        if !notable {
            return Ok(());
        }
        let outcome = if skip == Skip::NotCleared {
            AuditOutcome::Blocked
        } else {
            AuditOutcome::Denied
        };
        self.audit(
            self.event("llm.skip", outcome)
                .target(name)
                .reason(format!("{} `{name}` {why}", source.as_str())),
        )
    }

    /// Budgets, on this very hop. An exhausted budget stops the call: moving to another
    /// provider because of money is the operator's decision, not ours.
    fn check_budget(&self, name: &str, cfg: &ProviderConfig) -> Result<(), LlmError> {
        let Err(x) = self.router.ledger.check(
            &self.current.budgets,
            name,
            cfg.kind,
            self.cx.profile_name,
            self.estimate,
        ) else {
            return Ok(());
        };
        Err(self.block(
            "budget_exceeded",
            format!(
                "the {} budget would be exceeded by a call to `{name}` ({}; limit {}); it resets at {}",
                x.budget, x.used, x.limit, x.resets_at
            ),
            format!(
                "wait until {} or raise the limit under [llm.budgets]; the call was not sent to another provider",
                x.resets_at
            ),
        ))
    }

    /// Audit the hop before it goes out: a selection, a retry or a fallback.
    fn announce(
        &self,
        name: &str,
        source: Source,
        cfg: &ProviderConfig,
        hop: &Hop,
    ) -> Result<(), LlmError> {
        let what = if hop.tries > 0 || hop.reexchanged || hop.without_stream_options {
            "llm.retry"
        } else if !self.failed_over.is_empty() {
            "llm.fallback"
        } else {
            "llm.select"
        };
        let mut reason = format!(
            "{} (kind {}, model {})",
            source.as_str(),
            cfg.kind,
            cfg.model
        );
        if what == "llm.fallback" {
            reason = format!("after {} failed: {reason}", self.failed_over.join(", "));
        }
        if self.redactor.is_some() {
            reason.push_str("; text redacted");
        }
        self.audit(
            self.event(what, AuditOutcome::Ok)
                .target(name)
                .reason(reason),
        )
    }

    /// Redact on this very hop, with the call's session (stable placeholders).
    fn redact(&mut self) -> Result<Vec<ChatMessage>, LlmError> {
        match redact_messages(
            self.redactor.as_deref(),
            &mut self.session,
            &self.req.messages,
        ) {
            Ok(m) => Ok(m),
            Err(e) => Err(self.block(
                "phi_redaction_failed",
                format!("redaction failed ({e}); nothing was sent"),
                "report this redaction failure; the text cannot leave the machine until it is fixed"
                    .into(),
            )),
        }
    }

    /// One request to one provider; streamed text reaches `sink` (re-identified when asked).
    async fn send(
        &mut self,
        name: &str,
        cfg: &ProviderConfig,
        messages: &[ChatMessage],
        stream_options: bool,
        sink: &mut Option<Sink<'_>>,
    ) -> Result<client::Completion, AttemptError> {
        let router = self.router;
        let pcx = PrepareCx {
            name,
            http: &router.http,
            secrets: &router.opts.secrets,
            copilot: &router.copilot,
            user_token: self.req.user_token.as_ref().map(|t| t.expose()),
        };
        let target = providers::prepare(&pcx, cfg).await?;
        self.attempts += 1;
        let attempt = Attempt {
            target: &target,
            body: request_body(cfg, messages, self.req, stream_options),
            timeout: Duration::from_secs(cfg.timeout_secs.max(1)),
            first_chunk_timeout: Duration::from_secs(cfg.first_chunk_timeout_secs.max(1)),
        };
        let (reid, session, held) = (self.reid, &self.session, &mut self.held);
        match sink.as_mut() {
            Some(s) => {
                let mut forward = |t: &str| forward_text(t, reid, session, held, &mut **s);
                client::send(&router.http, attempt, Some(&mut forward)).await
            }
            None => client::send(&router.http, attempt, None).await,
        }
    }

    /// The answer: usage counted against health and budgets, the held tail flushed, audited.
    fn answered(
        &mut self,
        name: &str,
        cfg: &ProviderConfig,
        c: client::Completion,
        sink: &mut Option<Sink<'_>>,
    ) -> Result<LlmResponse, LlmError> {
        let usage = c.usage.unwrap_or_default();
        self.router.succeeded(name, usage);
        // A provider that reports no usage is counted at the estimate.
        let spent = match usage.prompt_tokens + usage.completion_tokens {
            0 => self.estimate,
            n => n,
        };
        if let Err(e) = self.router.ledger.record(
            &self.current.budgets,
            name,
            cfg.kind,
            self.cx.profile_name,
            spent,
        ) {
            // The answer is here and paid for; later budgeted hops are refused until the
            // ledger can be written again.
            self.audit(
                self.event("llm.usage", AuditOutcome::Error)
                    .target(name)
                    .reason(format!("usage not saved: {e}")),
            )?;
        }
        self.flush_held(sink);
        let redacted = if self.redactor.is_some() {
            format!(
                "; redacted {} value(s)",
                self.session.counts().values().sum::<usize>()
            )
        } else {
            String::new()
        };
        self.audit(
            self.event("llm.call", AuditOutcome::Ok)
                .target(name)
                .duration_ms(self.elapsed_ms())
                .reason(format!(
                    "attempts {}; tokens prompt {} completion {}{redacted}",
                    self.attempts, usage.prompt_tokens, usage.completion_tokens,
                )),
        )?;
        let text = if self.reid {
            self.session.reidentify(&c.text)
        } else {
            c.text
        };
        Ok(LlmResponse {
            provider: name.to_string(),
            model: c.model.unwrap_or_else(|| cfg.model.clone()),
            text,
            usage,
            redacted: self.redactor.is_some(),
            attempts: self.attempts,
            failed_over: std::mem::take(&mut self.failed_over),
        })
    }

    /// Text held back for re-identification (a placeholder may straddle two chunks) goes out
    /// once the answer ends.
    fn flush_held(&mut self, sink: &mut Option<Sink<'_>>) {
        if let Some(s) = sink.as_mut()
            && !self.held.is_empty()
        {
            s(&self.session.reidentify(&self.held));
            self.held.clear();
        }
    }

    /// A failed attempt: counted against the provider, audited, then retried here, or moved
    /// past. Part of an answer already delivered ends the call.
    async fn attempt_failed(
        &mut self,
        name: &str,
        cfg: &ProviderConfig,
        e: AttemptError,
        hop: &mut Hop,
        sink: &mut Option<Sink<'_>>,
    ) -> Result<Next, LlmError> {
        let cooldown = self.router.failed(name, &e);
        self.last_error = Some(format!("{name}: {}", e.summary));
        self.audit(
            self.event("llm.attempt", AuditOutcome::Error)
                .target(name)
                .reason(format!("{} failure: {}", e.kind.as_str(), e.summary)),
        )?;
        if let Some(until) = cooldown {
            self.audit(
                self.event("llm.cooldown", AuditOutcome::Error)
                    .target(name)
                    .reason(format!(
                        "too many consecutive failures; skipped until {until}"
                    )),
            )?;
        }
        if e.delivered {
            // Part of the answer has reached the caller: neither a retry nor another provider
            // may start it again.
            self.flush_held(sink);
            let reason = format!(
                "{name} failed after part of the answer was delivered: {}",
                e.summary
            );
            self.audit(
                self.event("llm.call", AuditOutcome::Error)
                    .target(name)
                    .duration_ms(self.elapsed_ms())
                    .reason(reason.clone()),
            )?;
            return Err(LlmError::Failed {
                reason,
                attempts: self.attempts,
            });
        }
        if e.kind == FailureKind::Request
            && e.status == Some(400)
            && self.req.stream
            && !hop.without_stream_options
            && e.summary.contains("stream_options")
        {
            hop.without_stream_options = true;
            return Ok(Next::SameProvider);
        }
        if e.kind == FailureKind::Auth
            && cfg.kind == ProviderKind::Copilot
            && self.req.user_token.is_none()
            && !hop.reexchanged
        {
            // A Copilot token can be revoked before it expires: exchange once more.
            self.router.copilot.invalidate(name);
            hop.reexchanged = true;
            return Ok(Next::SameProvider);
        }
        if e.kind.retryable()
            && hop.tries < self.router.opts.max_retries
            && let Some(wait) = self.router.wait(hop.tries, e.retry_after)
        {
            tokio::time::sleep(wait).await;
            hop.tries += 1;
            return Ok(Next::SameProvider);
        }
        Ok(Next::NextProvider)
    }

    /// Nobody answered. A HIPAA profile that lost its cleared provider(s) is a block, not a
    /// failure: the other providers were refused on purpose.
    fn nobody_answered(self) -> LlmError {
        let attempts = self.attempts;
        let failed = |reason: String| match self.audit(
            self.event("llm.call", AuditOutcome::Error)
                .duration_ms(self.elapsed_ms())
                .reason(reason.clone()),
        ) {
            Ok(()) => LlmError::Failed { reason, attempts },
            Err(a) => a,
        };
        if self.cx.profile.requires_hipaa && !self.not_cleared.is_empty() {
            let head = match &self.last_error {
                Some(e) => format!("the HIPAA-cleared provider(s) failed ({e})"),
                None if !self.cooling.is_empty() => format!(
                    "the HIPAA-cleared provider(s) are cooling down ({})",
                    self.cooling.join(", ")
                ),
                None => "no HIPAA-cleared provider is enabled".to_string(),
            };
            return self.block(
                "hipaa_provider_required",
                format!(
                    "profile `{}` requires a HIPAA-cleared provider; {head}, and {} not cleared",
                    self.cx.profile_name,
                    list_is(&self.not_cleared)
                ),
                "enable a HIPAA-cleared provider (hipaa_cleared = true, BAA in place) or retry later; nothing was sent to an uncleared provider".into(),
            );
        }
        if self.failed_over.is_empty() {
            if !self.cooling.is_empty() {
                return failed(format!(
                    "every allowed provider is cooling down: {}",
                    self.cooling.join(", ")
                ));
            }
            return self.block(
                "no_provider_available",
                format!(
                    "no enabled LLM provider for job `{}` of profile `{}`",
                    self.req.job, self.cx.profile_name
                ),
                "enable a provider (`opsdesk providers enable <name>`) or set llm.default".into(),
            );
        }
        failed(format!(
            "every provider tried failed ({}); last: {}",
            self.failed_over.join(", "),
            self.last_error.clone().unwrap_or_default()
        ))
    }
}

/// The chat-completions body. Redacted messages only: it is built after redaction.
fn request_body(
    cfg: &ProviderConfig,
    messages: &[ChatMessage],
    req: &LlmRequest,
    stream_options: bool,
) -> Vec<u8> {
    let model = match cfg.kind {
        ProviderKind::AzureOpenai => providers::azure::body_model(cfg),
        _ => &cfg.model,
    };
    let mut body = json!({
        "model": model,
        "messages": messages,
        "stream": req.stream,
    });
    if req.stream && stream_options {
        body["stream_options"] = json!({"include_usage": true});
    }
    if let Some(m) = req.max_tokens {
        body["max_tokens"] = json!(m);
    }
    if let Some(t) = req.temperature {
        body["temperature"] = json!(t);
    }
    serde_json::to_vec(&body).unwrap_or_default()
}

/// The messages as they may leave: redacted with the call's session when the profile needs it.
fn redact_messages(
    redactor: Option<&Redactor>,
    session: &mut RedactionSession,
    messages: &[ChatMessage],
) -> Result<Vec<ChatMessage>, crate::governance::redact::RedactError> {
    let Some(r) = redactor else {
        return Ok(messages.to_vec());
    };
    messages
        .iter()
        .map(|m| {
            Ok(ChatMessage {
                role: m.role.clone(),
                content: r.redact(&m.content, session)?,
            })
        })
        .collect()
}

/// Pass streamed text on to the caller; when re-identifying, hold back a trailing partial
/// placeholder (`held`) until it is complete.
fn forward_text(
    t: &str,
    reid: bool,
    session: &RedactionSession,
    held: &mut String,
    sink: &mut (dyn FnMut(&str) + Send),
) {
    if !reid {
        sink(t);
        return;
    }
    held.push_str(t);
    let cut = safe_cut(held);
    if cut > 0 {
        let out = session.reidentify(&held[..cut]);
        held.drain(..cut);
        sink(&out);
    }
}

/// How much of streamed text can be re-identified now: everything except a trailing `<…`
/// that may still become a placeholder (placeholders are at most 24 bytes, `<HEALTH_PLAN_12>`).
fn safe_cut(held: &str) -> usize {
    match held.rfind('<') {
        Some(i) if !held[i..].contains('>') && held.len() - i <= 24 => i,
        _ => held.len(),
    }
}

fn list_is(names: &[String]) -> String {
    match names {
        [one] => format!("`{one}` is"),
        many => format!(
            "{} are",
            many.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A random duration in `[0, max]`. `RandomState` is seeded per instance by the standard
/// library, which is plenty for spreading retries.
fn jitter(max: Duration) -> Duration {
    use std::hash::BuildHasher;
    if max.is_zero() {
        return max;
    }
    let r = std::collections::hash_map::RandomState::new().hash_one(std::time::Instant::now());
    let nanos = max.as_nanos().min(u64::MAX as u128) as u64;
    Duration::from_nanos(r % (nanos + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn chain_order_is_job_entity_default_then_the_rest() {
        let config = Config::demo();
        let mut llm = config.llm.clone();
        let clinic = config.profiles.get("clinic").unwrap().clone();
        llm.jobs.insert("triage".into(), "local".into());
        let names: Vec<_> = candidates(&llm, &clinic, "triage").into_iter().collect();
        assert_eq!(names[0], ("local".to_string(), Source::Job));
        assert_eq!(names[1].1, Source::Entity);
        assert_eq!(names.len(), llm.providers.len());
        let mut uniq: Vec<_> = names.iter().map(|(n, _)| n.clone()).collect();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), names.len());
    }

    #[test]
    fn safe_cut_holds_back_a_partial_placeholder() {
        assert_eq!(safe_cut("hello <PER"), 6);
        assert_eq!(safe_cut("hello <PERSON_1> x"), 18);
        assert_eq!(safe_cut("a < b and more text that is long enough"), 39);
    }

    #[test]
    fn waits_honour_retry_after_and_cap() {
        let r = Router::new(RouterOptions::default()).unwrap();
        let w = r.wait(0, Some(Duration::from_secs(2))).unwrap();
        assert!(
            w >= Duration::from_secs(2) && w <= Duration::from_millis(2200),
            "{w:?}"
        );
        assert_eq!(r.wait(0, Some(Duration::from_secs(31))), None);
        let w = r.wait(3, None).unwrap();
        assert!(
            w >= Duration::from_secs(2) && w <= Duration::from_secs(4),
            "{w:?}"
        );
        let w = r.wait(30, None).unwrap();
        assert!(w <= Duration::from_secs(8));
    }

    #[test]
    fn cooldown_starts_after_threshold_and_doubles() {
        let r = Router::new(RouterOptions::default()).unwrap();
        let e = AttemptError::new(FailureKind::Transient, "HTTP 503");
        assert!(r.failed("p", &e).is_none());
        assert!(r.failed("p", &e).is_none());
        assert!(r.failed("p", &e).is_some());
        let until1 = r.lock().get("p").unwrap().until.unwrap();
        // One failure after a cooldown starts the next, twice as long.
        assert!(r.failed("p", &e).is_some());
        let until2 = r.lock().get("p").unwrap().until.unwrap();
        assert!(until2 - until1 > Duration::from_secs(55));
        assert!(r.stats()["p"].cooldown_until.is_some());
        // A request error says nothing about the provider.
        r.succeeded("q", Usage::default());
        assert!(
            r.failed("q", &AttemptError::new(FailureKind::Request, "HTTP 400"))
                .is_none()
        );
        assert_eq!(r.stats()["q"].consecutive_failures, 0);
    }
}
