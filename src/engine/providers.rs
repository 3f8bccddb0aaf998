//! Operator changes to the LLM providers (enabled, default), made from the console or the CLI.
//!
//! The config file stays the operator's hand-written text; run-time changes live in an overlay,
//! `<data dir>/providers.json`, written atomically (tmp + fsync + rename) and applied over the
//! config's `[llm]` section. Every change is audited before it is written (fail closed).
//!
//! `view` computes what the console shows: each provider's switches and, per entity, which
//! provider it would use and why it is blocked when it would be (a HIPAA entity whose cleared
//! provider is off, with no other cleared provider enabled).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Call, Engine, EngineError};
use crate::config::{Config, LlmConfig};
use crate::domain::{AuditOutcome, Outcome};
use crate::paths::{Paths, write_atomic};
use crate::store::StoreError;

/// File name of the overlay in the data dir.
pub(crate) const OVERLAY_FILE: &str = "providers.json";

/// Serializes read-modify-write of the overlay within this process (the engine holding the
/// data-dir lock is the only writer in practice).
static WRITE: Mutex<()> = Mutex::new(());

/// Run-time changes over the config's `[llm]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderOverlay {
    /// Provider name → enabled.
    #[serde(default)]
    pub enabled: BTreeMap<String, bool>,
    /// Default provider chosen at run time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Job → provider chosen at run time (over `[llm.jobs]`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub jobs: BTreeMap<String, String>,
}

pub(crate) fn overlay_path(paths: &Paths) -> PathBuf {
    paths.data_dir.join(OVERLAY_FILE)
}

/// The overlay on disk; a missing file is an empty overlay. An unreadable or malformed file is
/// an error: guessing would silently re-enable a provider the operator turned off.
pub(crate) fn load_overlay(paths: &Paths) -> Result<ProviderOverlay, EngineError> {
    let path = overlay_path(paths);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            EngineError::Store(StoreError::Corrupt {
                path: path.clone(),
                line: e.line() as u64,
                msg: format!("{e}; fix or remove the file to return to the config's [llm]"),
            })
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ProviderOverlay::default()),
        Err(e) => Err(EngineError::Store(StoreError::io(&path, "read", e))),
    }
}

/// `llm` with the overlay applied. Names the config no longer has are ignored.
pub fn apply(llm: &LlmConfig, overlay: &ProviderOverlay) -> LlmConfig {
    let mut out = llm.clone();
    for (name, on) in &overlay.enabled {
        if let Some(p) = out.providers.get_mut(name) {
            p.enabled = *on;
        }
    }
    if let Some(d) = &overlay.default
        && out.providers.contains_key(d)
    {
        out.default = Some(d.clone());
    }
    for (job, p) in &overlay.jobs {
        if out.providers.contains_key(p) {
            out.jobs.insert(job.clone(), p.clone());
        }
    }
    out
}

/// One provider as the console shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderRow {
    pub name: String,
    pub kind: String,
    pub model: String,
    pub enabled: bool,
    pub is_default: bool,
    pub hipaa_cleared: bool,
    /// Tokens this process's router has used with the provider (absent before its first
    /// call; the router keeps usage in memory only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<crate::llm::Usage>,
    /// Calls it answered in this process.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls: Option<u64>,
    /// While the provider cools down after repeated failures (RFC 3339); the router skips it
    /// until then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cooldown_until: Option<String>,
    /// Summary of its last failure (status and code; never text or credentials).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// The environment variable its credential is read from, when that is not set: every
    /// call to it fails before anything is sent. Never the value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_credential: Option<String>,
}

/// One entity's routing as the console shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntityRow {
    pub profile: String,
    /// `profiles.<p>.llm_provider`, if set.
    pub override_provider: Option<String>,
    pub requires_hipaa: bool,
    /// The provider the entity's jobs would go to (before per-job overrides).
    pub effective: Option<String>,
    /// Why the entity's LLM calls would be blocked, if they would.
    pub blocked: Option<String>,
    /// A remark that is not a block (e.g. a fallback).
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ProvidersView {
    pub default: Option<String>,
    /// Job → provider routes in effect (`[llm.jobs]` with the run-time ones over it).
    pub jobs: BTreeMap<String, String>,
    pub providers: Vec<ProviderRow>,
    pub entities: Vec<EntityRow>,
    /// Every `[llm.budgets]` limit and what is spent against it (durable across restarts).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub budgets: Vec<crate::llm::budget::BudgetStatus>,
    /// One row per assistant job: its provider override and where each entity's calls of
    /// that job go (the HIPAA filter applied).
    pub job_routes: Vec<JobRow>,
}

/// A job's routing as the console shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct JobRow {
    pub job: String,
    /// The job's provider override, if any.
    pub provider: Option<String>,
    /// `config` (`[llm.jobs]`) or `run time` (`providers set-job`).
    pub set_by: Option<String>,
    pub entities: Vec<JobEntity>,
}

/// Where one entity's calls of one job go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct JobEntity {
    pub profile: String,
    /// The provider the router tries first; none when the calls are blocked.
    pub provider: Option<String>,
    /// Why it is not the job's override (e.g. not HIPAA-cleared), or why blocked.
    pub note: Option<String>,
    pub blocked: bool,
}

/// Every job's routing per entity: the router's candidate order (job → entity → default →
/// the rest), skipping disabled providers and, for an entity that requires HIPAA, uncleared
/// ones, exactly as the router's filter does on every hop.
pub fn job_routes(config: &Config, llm: &LlmConfig) -> Vec<JobRow> {
    crate::assistant::JobKind::ALL
        .iter()
        .map(|job| {
            let name = job.as_str();
            let provider = llm.jobs.get(name).cloned();
            let set_by = provider.as_ref().map(|p| {
                if config.llm.jobs.get(name) == Some(p) {
                    "config".to_string()
                } else {
                    "run time".to_string()
                }
            });
            let entities = config
                .profiles
                .iter()
                .map(|(profile, p)| {
                    let need = p.requires_hipaa;
                    let usable = |n: &str| {
                        llm.providers
                            .get(n)
                            .is_some_and(|c| c.enabled && (!need || c.hipaa_cleared))
                    };
                    let first = crate::llm::router::candidates(llm, p, name)
                        .into_iter()
                        .find(|(n, _)| usable(n));
                    let why_not = |o: &str| match llm.providers.get(o) {
                        None => format!("`{o}` is not configured"),
                        Some(c) if !c.enabled => format!("`{o}` is disabled"),
                        Some(_) => format!("`{o}` is not HIPAA-cleared"),
                    };
                    match (first, provider.as_deref()) {
                        (None, _) => JobEntity {
                            profile: profile.clone(),
                            provider: None,
                            note: Some(if need {
                                "no enabled HIPAA-cleared provider: blocked".into()
                            } else {
                                "no enabled provider: blocked".into()
                            }),
                            blocked: true,
                        },
                        (Some((n, _)), Some(o)) if n != o => JobEntity {
                            profile: profile.clone(),
                            note: Some(format!("{}; goes to `{n}`", why_not(o))),
                            provider: Some(n),
                            blocked: false,
                        },
                        (Some((n, src)), _) => JobEntity {
                            profile: profile.clone(),
                            provider: Some(n),
                            note: (src != crate::llm::router::Source::Job)
                                .then(|| src.as_str().to_string()),
                            blocked: false,
                        },
                    }
                })
                .collect();
            JobRow {
                job: name.to_string(),
                provider,
                set_by,
                entities,
            }
        })
        .collect()
}

/// What the console shows, from the config and the effective `[llm]`.
pub fn view(config: &Config, llm: &LlmConfig) -> ProvidersView {
    let providers = llm
        .providers
        .iter()
        .map(|(name, p)| ProviderRow {
            name: name.clone(),
            kind: p.kind.as_str().to_string(),
            model: p.model.clone(),
            enabled: p.enabled,
            is_default: llm.default.as_deref() == Some(name),
            hipaa_cleared: p.hipaa_cleared,
            usage: None,
            calls: None,
            cooldown_until: None,
            last_error: None,
            missing_credential: None,
        })
        .collect();
    let usable = |name: &str, need_hipaa: bool| {
        llm.providers
            .get(name)
            .is_some_and(|p| p.enabled && (!need_hipaa || p.hipaa_cleared))
    };
    let entities = config
        .profiles
        .iter()
        .map(|(profile, p)| {
            let effective = p.llm_provider.clone().or_else(|| llm.default.clone());
            let need = p.requires_hipaa;
            let fallback = llm
                .providers
                .iter()
                .find(|(n, _)| usable(n, need))
                .map(|(n, _)| n.clone());
            let problem = match effective.as_deref() {
                None => Some("no provider is set (no entity override, no default)".to_string()),
                Some(e) => match llm.providers.get(e) {
                    None => Some(format!("provider `{e}` is not configured")),
                    Some(pc) if !pc.enabled => Some(format!("`{e}` is disabled")),
                    Some(pc) if need && !pc.hipaa_cleared => {
                        Some(format!("`{e}` is not HIPAA-cleared"))
                    }
                    Some(_) => None,
                },
            };
            let (blocked, note) = match (problem, &fallback) {
                (None, _) => (None, None),
                (Some(why), Some(f)) => (None, Some(format!("{why}; falls back to `{f}`"))),
                (Some(why), None) if need => (
                    Some(format!(
                        "{why} and no enabled HIPAA-cleared provider exists: LLM calls for this entity are blocked"
                    )),
                    None,
                ),
                (Some(why), None) => (
                    Some(format!(
                        "{why} and no provider is enabled: LLM calls are blocked"
                    )),
                    None,
                ),
            };
            EntityRow {
                profile: profile.clone(),
                override_provider: p.llm_provider.clone(),
                requires_hipaa: need,
                effective,
                blocked,
                note,
            }
        })
        .collect();
    ProvidersView {
        default: llm.default.clone(),
        jobs: llm.jobs.clone(),
        providers,
        entities,
        budgets: Vec::new(),
        job_routes: job_routes(config, llm),
    }
}

/// The entities that switching `name` on or off would newly block, each as
/// "profile: why" (so a surface can ask before it leaves an entity without a provider).
pub(crate) fn newly_blocked(
    config: &Config,
    llm: &LlmConfig,
    name: &str,
    enabled: bool,
) -> Vec<String> {
    let before = view(config, llm);
    let mut changed = llm.clone();
    if let Some(p) = changed.providers.get_mut(name) {
        p.enabled = enabled;
    }
    view(config, &changed)
        .entities
        .into_iter()
        .filter(|e| {
            e.blocked.is_some()
                && !before
                    .entities
                    .iter()
                    .any(|b| b.profile == e.profile && b.blocked.is_some())
        })
        .map(|e| format!("{}: {}", e.profile, e.blocked.unwrap_or_default()))
        .collect()
}

impl Engine {
    /// The `[llm]` section with the operator's run-time changes applied.
    pub fn effective_llm(&self) -> Result<LlmConfig, EngineError> {
        Ok(apply(&self.config.llm, &load_overlay(&self.paths)?))
    }

    /// What the console's Providers pane shows, with the router's usage and cooldowns.
    pub fn providers_view(&self) -> Result<ProvidersView, EngineError> {
        let llm = self.effective_llm()?;
        let mut v = view(&self.config, &llm);
        v.budgets = self.budget_status(&llm)?;
        let stats = self.llm_stats();
        // The router's own lookup when it exists; before the first call, the environment,
        // which is where the engine's router reads credentials.
        let router = self.llm.get().cloned();
        let env = crate::llm::providers::env_lookup();
        let has = |var: &str| match &router {
            Some(r) => r.has_secret(var),
            None => env(var).is_some(),
        };
        for row in &mut v.providers {
            row.missing_credential = llm
                .providers
                .get(&row.name)
                .and_then(|p| p.auth_env.clone())
                .filter(|var| !has(var));
            if let Some(s) = stats.get(&row.name) {
                row.usage = Some(s.usage);
                row.calls = Some(s.calls);
                row.cooldown_until = s.cooldown_until.clone();
                row.last_error = s.last_error.clone();
            }
        }
        Ok(v)
    }

    /// Every budget of `llm` and what is spent against it.
    pub fn budget_status(
        &self,
        llm: &LlmConfig,
    ) -> Result<Vec<crate::llm::budget::BudgetStatus>, EngineError> {
        if llm.budgets.providers.is_empty() && llm.budgets.profiles.is_empty() {
            return Ok(Vec::new());
        }
        Ok(match self.llm.get() {
            Some(router) => router.budget_status(&llm.budgets),
            // No call in this process yet: the ledger file is the whole story.
            None => crate::llm::budget::Ledger::open(
                Some(self.paths.data_dir.join(crate::llm::budget::USAGE_FILE)),
                crate::llm::budget::system_clock(),
            )
            .map_err(|e| EngineError::Store(crate::store::StoreError::Rejected(e)))?
            .status(&llm.budgets),
        })
    }

    fn known_provider(&self, provider: &str) -> Result<(), EngineError> {
        if self.config.llm.providers.contains_key(provider) {
            Ok(())
        } else {
            Err(EngineError::invalid(
                format!("unknown provider `{provider}`"),
                json!({"field": "name", "valid_providers": self.config.llm.providers.keys().collect::<Vec<_>>()}),
            ))
        }
    }

    pub(super) fn set_provider_enabled(
        &self,
        event: &str,
        provider: &str,
        enabled: bool,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        self.known_provider(provider)?;
        self.change_overlay(event, provider, cx, |ov, llm| {
            let was = llm.providers.get(provider).is_some_and(|p| p.enabled);
            ov.enabled.insert(provider.to_string(), enabled);
            format!("enabled {was} → {enabled}")
        })
    }

    pub(super) fn set_default_provider(
        &self,
        event: &str,
        provider: &str,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        self.known_provider(provider)?;
        let llm = self.effective_llm()?;
        if !llm.providers.get(provider).is_some_and(|p| p.enabled) {
            // A disabled default would leave every entity without a provider: refuse and say how.
            return Err(EngineError::invalid(
                format!(
                    "provider `{provider}` is disabled; enable it before making it the default"
                ),
                json!({"field": "name", "hint": "enable the provider first"}),
            ));
        }
        self.change_overlay(event, provider, cx, |ov, llm| {
            let was = llm.default.clone().unwrap_or_else(|| "none".into());
            ov.default = Some(provider.to_string());
            format!("default {was} → {provider}")
        })
    }

    /// Route `job` to `provider` at run time, or drop the run-time route (`None`: the config's
    /// `[llm.jobs]`, else the entity and default selection apply again). Audited from → to.
    pub(super) fn set_job_provider(
        &self,
        event: &str,
        job: &str,
        provider: Option<&str>,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let kind: crate::assistant::JobKind = job
            .parse()
            .map_err(|e: String| EngineError::invalid(e, json!({"field": "job"})))?;
        if let Some(p) = provider {
            self.known_provider(p)?;
            if !self
                .effective_llm()?
                .providers
                .get(p)
                .is_some_and(|c| c.enabled)
            {
                return Err(EngineError::invalid(
                    format!("provider `{p}` is disabled; enable it before routing a job to it"),
                    json!({"field": "name", "hint": "enable the provider first"}),
                ));
            }
        }
        let job = kind.as_str().to_string();
        let target = format!("job:{job}");
        self.change_overlay(event, &target, cx, |ov, llm| {
            let was = llm.jobs.get(&job).cloned().unwrap_or_else(|| "none".into());
            match provider {
                Some(p) => {
                    ov.jobs.insert(job.clone(), p.to_string());
                    format!("job {job}: {was} → {p}")
                }
                None => {
                    ov.jobs.remove(&job);
                    let now = self.config.llm.jobs.get(&job).cloned();
                    format!(
                        "job {job}: {was} → {}",
                        now.unwrap_or_else(|| "none (entity and default selection)".into())
                    )
                }
            }
        })
    }

    /// Read the overlay, change it, audit (fail closed), write it atomically.
    fn change_overlay(
        &self,
        event: &str,
        provider: &str,
        cx: &Call,
        change: impl FnOnce(&mut ProviderOverlay, &LlmConfig) -> String,
    ) -> Result<Outcome, EngineError> {
        let _guard = WRITE.lock().unwrap_or_else(|p| p.into_inner());
        let mut overlay = load_overlay(&self.paths)?;
        let before = apply(&self.config.llm, &overlay);
        let what = change(&mut overlay, &before);
        self.audit(
            cx.event(event, AuditOutcome::Ok)
                .target(provider)
                .reason(what.clone()),
        )?;
        let path = overlay_path(&self.paths);
        let bytes = serde_json::to_vec_pretty(&overlay).unwrap_or_default();
        if let Err(e) = write_atomic(&path, &bytes) {
            let err = StoreError::io(&path, "write", e);
            // The audit line above says the change was made; record that it did not stick.
            let _ = self.audit(
                cx.event(event, AuditOutcome::Error)
                    .target(provider)
                    .reason(err.to_string()),
            );
            return Err(err.into());
        }
        let after = apply(&self.config.llm, &overlay);
        Ok(Outcome::Done {
            detail: crate::domain::Done::Provider {
                provider: provider.to_string(),
                change: what.to_string(),
                default: after.default,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hipaa_entity_is_blocked_when_its_cleared_provider_is_off() {
        let config = Config::demo();
        let mut ov = ProviderOverlay::default();
        let v = view(&config, &apply(&config.llm, &ov));
        let clinic = v.entities.iter().find(|e| e.profile == "clinic").unwrap();
        assert_eq!(clinic.effective.as_deref(), Some("azure"));
        assert!(clinic.blocked.is_none());

        ov.enabled.insert("azure".into(), false);
        let v = view(&config, &apply(&config.llm, &ov));
        let clinic = v.entities.iter().find(|e| e.profile == "clinic").unwrap();
        let why = clinic.blocked.as_deref().unwrap();
        assert!(why.contains("`azure` is disabled"), "{why}");
        assert!(why.contains("HIPAA"), "{why}");
        // The work entity is not affected.
        let work = v.entities.iter().find(|e| e.profile == "work").unwrap();
        assert!(work.blocked.is_none());
    }

    #[test]
    fn job_rows_show_where_each_entitys_calls_of_a_job_go() {
        let config = Config::demo();
        let mut ov = ProviderOverlay::default();
        ov.jobs.insert("triage".into(), "local".into());
        let v = view(&config, &apply(&config.llm, &ov));
        let triage = v.job_routes.iter().find(|r| r.job == "triage").unwrap();
        assert_eq!(triage.provider.as_deref(), Some("local"));
        assert_eq!(triage.set_by.as_deref(), Some("run time"));
        let of = |row: &JobRow, p: &str| row.entities.iter().find(|e| e.profile == p).cloned();
        let work = of(triage, "work").unwrap();
        assert_eq!(
            (work.provider.as_deref(), work.blocked),
            (Some("local"), false)
        );
        // The HIPAA consequence: the clinic's triage cannot go to the uncleared `local`.
        let clinic = of(triage, "clinic").unwrap();
        assert_eq!(clinic.provider.as_deref(), Some("azure"));
        assert_eq!(
            clinic.note.as_deref(),
            Some("`local` is not HIPAA-cleared; goes to `azure`")
        );
        // Without azure, the clinic's calls of every job are blocked.
        ov.enabled.insert("azure".into(), false);
        let v = view(&config, &apply(&config.llm, &ov));
        for row in &v.job_routes {
            let c = of(row, "clinic").unwrap();
            assert!(c.blocked && c.provider.is_none(), "{row:?}");
        }
        let draft = v.job_routes.iter().find(|r| r.job == "draft").unwrap();
        assert_eq!(draft.provider, None);
        assert_eq!(of(draft, "work").unwrap().note.as_deref(), Some("default"));
    }

    #[test]
    fn overlay_sets_default_and_ignores_unknown_names() {
        let config = Config::demo();
        let ov = ProviderOverlay {
            enabled: [("nope".to_string(), true)].into(),
            default: Some("local".into()),
            jobs: [
                ("triage".to_string(), "local".to_string()),
                ("draft".to_string(), "nope".to_string()),
            ]
            .into(),
        };
        let llm = apply(&config.llm, &ov);
        assert_eq!(llm.default.as_deref(), Some("local"));
        assert!(!llm.providers.contains_key("nope"));
        assert_eq!(llm.jobs.get("triage").map(String::as_str), Some("local"));
        assert!(
            !llm.jobs.contains_key("draft"),
            "an unknown provider is ignored"
        );
    }
}
