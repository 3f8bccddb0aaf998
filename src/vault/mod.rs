//! The tool vault: a folder of packaged tools (one subfolder each, `tool.toml` plus an
//! executable in any language), served over MCP as `vault_<name>` and governed like the
//! built-in tools (docs/ARCHITECTURE.md, "The tool vault").
//!
//! A call runs the tool as a child process ([`process`]); the commands its result carries are
//! turned into the same `Action`s the MCP draft tools build ([`commands`]) and submitted
//! through `Engine::submit_tool` as actor `vault:<name>`, so they become pending drafts (or
//! are blocked) like everything else. A broken manifest is reported and skipped; the other
//! tools are still served.

pub(crate) mod commands;
pub(crate) mod examples;
pub(crate) mod manifest;
pub mod process;
pub mod sandbox;
pub(crate) mod schema;
pub(crate) mod watch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::config::{Config, SandboxMode, VaultConfig};
use crate::domain::{Action, Actor, AuditEvent, AuditOutcome, Outcome, Query};
use crate::engine::query::Answer;
use crate::engine::{Engine, EngineError};
use crate::paths::Paths;
pub use manifest::{Manifest, VaultTier};
pub(crate) use process::RunError;

/// The prefix vault tools carry over MCP (the built-ins never use it).
pub(crate) const MCP_PREFIX: &str = "vault_";

/// A tool folder whose manifest could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    pub folder: String,
    pub error: String,
}

#[derive(Debug, Default, Clone)]
struct Registry {
    tools: BTreeMap<String, Arc<Manifest>>,
    broken: Vec<Broken>,
}

/// The loaded vault: its tools, its broken folders and the limits calls run under.
pub struct Vault {
    dir: PathBuf,
    config: VaultConfig,
    registry: RwLock<Registry>,
    slots: tokio::sync::Semaphore,
    /// Set once the folder is actually watched (the MCP `tools` capability then says
    /// `listChanged`).
    watched: std::sync::atomic::AtomicBool,
    /// What the kernel allows, the mode and the network choice: whether and how tools run.
    sandbox: sandbox::Sandbox,
    /// The compiled seccomp filters (none where they could not be built).
    #[cfg(target_os = "linux")]
    filters: Option<Arc<sandbox::Filters>>,
    /// Folders no tool may reach (the data dir, the config dir, the tools folder itself).
    private: sandbox::Private,
}

/// The tools folder: `[vault] dir`, else `tools/` beside the config file.
pub(crate) fn dir_for(paths: &Paths, config: &Config) -> PathBuf {
    match &config.vault.dir {
        Some(d) => d.clone(),
        None => paths
            .config_file
            .parent()
            .map(|p| p.join("tools"))
            .unwrap_or_else(|| PathBuf::from("tools")),
    }
}

impl Vault {
    /// Scan `dir` (a missing folder is an empty vault) with only `[vault]` known: the mode
    /// is the configured one or `best_effort`, and no private folders are named.
    pub fn open(dir: PathBuf, config: &VaultConfig) -> Vault {
        let mode = config.sandbox_mode(false);
        Vault::build(dir, config, mode, Vec::new())
    }

    /// The vault of a configuration: its folder, the sandbox mode the profiles call for, and
    /// the data and config dirs kept out of every tool's reach.
    pub fn configured(paths: &Paths, config: &Config) -> Vault {
        let any_hipaa = config.profiles.values().any(|p| p.requires_hipaa);
        let mut private = vec![paths.data_dir.clone()];
        if let Some(c) = paths.config_file.parent() {
            private.push(c.to_path_buf());
        }
        Vault::build(
            dir_for(paths, config),
            &config.vault,
            config.vault.sandbox_mode(any_hipaa),
            private,
        )
    }

    fn build(
        dir: PathBuf,
        config: &VaultConfig,
        mode: SandboxMode,
        private: Vec<PathBuf>,
    ) -> Vault {
        let registry = scan(&dir, config);
        let mut private: Vec<PathBuf> = private
            .into_iter()
            .chain([dir.clone()])
            .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
            .collect();
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            private.push(PathBuf::from(home));
        }
        #[cfg(target_os = "linux")]
        let filters = match sandbox::Filters::build() {
            Ok(f) => Some(Arc::new(f)),
            Err(e) => {
                tracing::warn!("vault: the seccomp filter cannot be built: {e}");
                None
            }
        };
        #[allow(unused_mut)]
        let mut sb = sandbox::Sandbox::new(mode, config.isolate_network);
        #[cfg(target_os = "linux")]
        if filters.is_none() {
            sb.refuse(
                sandbox::Layer::Syscalls,
                "the seccomp filter cannot be built",
            );
        }
        Vault {
            slots: tokio::sync::Semaphore::new(config.max_concurrent.max(1)),
            dir,
            config: config.clone(),
            registry: RwLock::new(registry),
            watched: Default::default(),
            sandbox: sb,
            #[cfg(target_os = "linux")]
            filters,
            private: sandbox::Private { dirs: private },
        }
    }

    /// The vault of an engine's configuration.
    pub fn for_engine(engine: &Engine) -> Vault {
        Vault::configured(engine.paths(), engine.config())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The sandbox tools run in here: its mode, the layers the kernel allows, one line.
    pub fn sandbox(&self) -> &sandbox::Sandbox {
        &self.sandbox
    }

    /// Whether `m` runs here, and if not, why.
    pub fn verdict(&self, m: &Manifest) -> sandbox::Verdict {
        self.sandbox.verdict(
            m.may_see_phi,
            m.tier == VaultTier::ReadOnly,
            m.needs_network,
        )
    }

    /// Whether `[vault] watch` asks for the folder to be watched.
    pub fn watching(&self) -> bool {
        self.config.watch
    }

    /// Whether the folder is being watched (changes reach clients as `list_changed`).
    pub fn watched(&self) -> bool {
        self.watched.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Scan the folder again; true when the tool list (names, manifests) or the broken list
    /// changed.
    pub fn reload(&self) -> bool {
        let new = scan(&self.dir, &self.config);
        let mut reg = self.registry.write().unwrap_or_else(|e| e.into_inner());
        let changed = fingerprint(&reg) != fingerprint(&new);
        *reg = new;
        changed
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Registry> {
        self.registry.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The usable tools, by name.
    pub fn tools(&self) -> Vec<Arc<Manifest>> {
        self.read().tools.values().cloned().collect()
    }

    /// Folders whose manifest is broken, with why.
    pub fn broken(&self) -> Vec<Broken> {
        self.read().broken.clone()
    }

    /// A tool by its vault name (`summarise`) or MCP name (`vault_summarise`).
    pub fn get(&self, name: &str) -> Option<Arc<Manifest>> {
        let plain = name.strip_prefix(MCP_PREFIX).unwrap_or(name);
        self.read().tools.get(plain).cloned()
    }

    /// Each tool's MCP name and tier, as client scopes judge them.
    pub fn scope_facts(&self) -> Vec<(String, crate::domain::Tier)> {
        self.tools()
            .iter()
            .map(|m| {
                let tier = match m.tier {
                    VaultTier::ReadOnly => crate::domain::Tier::ReadOnly,
                    VaultTier::DraftOnly => crate::domain::Tier::DraftOnly,
                };
                (m.mcp_name(), tier)
            })
            .collect()
    }

    /// The `tools/list` entries, in name order.
    pub fn mcp_tools(&self) -> Vec<rmcp::model::Tool> {
        self.tools().iter().map(|m| describe(m)).collect()
    }

    /// Run tool `name` for `caller`: context lookup (PHI view), the child process, then its
    /// commands through the engine. Every call is audited as `vault.call`.
    pub async fn call(
        &self,
        engine: &Arc<Engine>,
        name: &str,
        args: Map<String, Value>,
        caller: Actor,
    ) -> Result<CallOutput, CallError> {
        self.call_owned(engine, name, args, caller).await.0
    }

    /// [`Vault::call`], with the profile whose content the tool's answer (or error) may
    /// carry, as opsdesk decided it (never as the tool's output claims): the profile of the
    /// message it was handed, else the strictest profile the manifest lets it act for. The PHI
    /// view attributes the whole answer to it, so a `"profile"` the tool writes into its
    /// output can only add protection, never remove it.
    pub async fn call_owned(
        &self,
        engine: &Arc<Engine>,
        name: &str,
        args: Map<String, Value>,
        caller: Actor,
    ) -> (Result<CallOutput, CallError>, Option<String>) {
        let Some(m) = self.get(name) else {
            return (Err(CallError::UnknownTool(name.to_string())), None);
        };
        let started = Instant::now();
        let mut profile = None;
        let mut read = None;
        let result = self
            .call_inner(engine, &m, args, &caller, &mut profile, &mut read)
            .await;
        let owner = read.or_else(|| output_owner(engine, &m));
        (
            self.audited(engine, &m, result, &caller, profile, started)
                .await,
            owner,
        )
    }

    async fn audited(
        &self,
        engine: &Arc<Engine>,
        m: &Manifest,
        result: Result<CallOutput, CallError>,
        caller: &Actor,
        profile: Option<String>,
        started: Instant,
    ) -> Result<CallOutput, CallError> {
        let mut ev = AuditEvent::new(
            "vault.call",
            caller,
            match &result {
                Ok(_) => AuditOutcome::Ok,
                Err(CallError::Invalid(_) | CallError::Arguments { .. }) => AuditOutcome::Denied,
                Err(_) => AuditOutcome::Error,
            },
        )
        .tool(m.mcp_name())
        .duration_ms(started.elapsed().as_millis() as u64);
        if let Some(p) = &profile {
            ev = ev.entity(p.clone());
        }
        match &result {
            Ok(out) => {
                let drafts: Vec<String> = out
                    .commands
                    .iter()
                    .filter_map(|c| c.draft_id.clone())
                    .collect();
                if !drafts.is_empty() {
                    ev = ev.target(drafts.join(","));
                }
            }
            Err(e) => ev = ev.reason(crate::sanitize::one_line(&e.to_string(), 300)),
        }
        let engine2 = engine.clone();
        match tokio::task::spawn_blocking(move || engine2.audit(ev)).await {
            Ok(Ok(_)) => result,
            Ok(Err(e)) => Err(CallError::Engine(e)),
            Err(e) => Err(CallError::Engine(EngineError::AuditUnavailable(
                e.to_string(),
            ))),
        }
    }

    async fn call_inner(
        &self,
        engine: &Arc<Engine>,
        m: &Arc<Manifest>,
        args: Map<String, Value>,
        caller: &Actor,
        profile: &mut Option<String>,
        read: &mut Option<String>,
    ) -> Result<CallOutput, CallError> {
        // Before anything is read for the tool or the tool is started.
        let mut args = args;
        checked(&m.input_check, &mut args).map_err(|violations| CallError::Arguments {
            tool: m.mcp_name(),
            violations,
        })?;
        // Fail closed: a tool the sandbox cannot contain here is not started (nor is
        // anything read for it).
        let no_network = match self.verdict(m) {
            sandbox::Verdict::Run { no_network } => no_network,
            sandbox::Verdict::Refuse { reason } => return Err(CallError::Sandbox(reason)),
        };
        // The folder and program are checked again: they may have changed since the scan.
        manifest::load(&m.dir).map_err(|e| {
            CallError::Sandbox(format!("the tool's folder is no longer trusted: {e}"))
        })?;
        let resources = crate::config::vault::effective_limits(
            &m.limits,
            &self.config.limits,
            &self.config.max_limits,
        )
        .map_err(CallError::Sandbox)?;
        let context = context(engine, m, &args, caller, profile).await?;
        read.clone_from(profile);
        let input = json!({"tool": m.name, "arguments": args, "context": context});
        let limits = process::Limits {
            timeout: Duration::from_secs(m.timeout_secs),
            max_output_bytes: self.config.max_output_bytes,
            max_stderr_bytes: self.config.max_stderr_bytes,
            no_network,
        };
        let confine = process::Confine {
            tool_dir: &m.dir,
            resources,
            allow_read: &self.config.allow_read,
            private: &self.private,
            support: &self.sandbox.support,
            #[cfg(target_os = "linux")]
            filters: self.filters.as_deref(),
        };
        let ran = {
            let _slot = self
                .slots
                .acquire()
                .await
                .map_err(|e| CallError::Run(RunError::Spawn(e.to_string())))?;
            process::run(&m.exec, &m.name, &input, limits, Some(&confine))
                .await
                .map_err(CallError::Run)?
        };
        let mut output = ran.output;
        let commands = output.remove("commands");
        // The declared schema describes the tool's own answer; `commands` is opsdesk's channel
        // and is checked by `commands::parse`. A mismatch refuses the whole result: nothing
        // is submitted.
        if let Some(check) = &m.output_check {
            checked(check, &mut output).map_err(|violations| CallError::Output { violations })?;
        }
        let proposals = match commands {
            None | Some(Value::Null) => Vec::new(),
            Some(_) if m.tier == VaultTier::ReadOnly => {
                return Err(CallError::BadResult(
                    "a read_only tool returned `commands`; only draft_only tools may propose actions".into(),
                ));
            }
            Some(c) => commands::parse(&c, &engine.profile_names(), &|p| m.allows_profile(p))
                .map_err(CallError::BadResult)?,
        };
        // A reply or a move acts for its message's profile: the manifest must allow that one
        // too. All are checked before any is submitted (all or nothing, like `parse`).
        for (i, p) in proposals.iter().enumerate() {
            let message_id = match &p.action {
                Action::DraftReply { message_id, .. } | Action::MoveMessage { message_id, .. } => {
                    message_id
                }
                _ => continue,
            };
            let engine2 = engine.clone();
            let id = message_id.clone();
            let rec = tokio::task::spawn_blocking(move || engine2.inbox_record_by_id(&id))
                .await
                .map_err(|e| CallError::Engine(EngineError::AuditUnavailable(e.to_string())))?
                .map_err(|e| CallError::Engine(e.into()))?;
            // An unknown message is the engine's to report (NotFound) when it is submitted.
            if let Some(rec) = rec
                && !m.allows_profile(&rec.profile)
            {
                return Err(CallError::BadResult(format!(
                    "command {} of {}: `{}` acts for profile `{}` (message `{message_id}`), which this tool may not act for (its manifest's `profiles`)",
                    i + 1,
                    proposals.len(),
                    p.kind,
                    rec.profile
                )));
            }
        }
        let mut outcomes = Vec::new();
        let actor = Actor::Vault(m.name.clone());
        for p in proposals {
            if profile.is_none() {
                profile.clone_from(&p.profile);
            }
            let engine2 = engine.clone();
            let tool = m.mcp_name();
            let actor = actor.clone();
            let action = p.action;
            let r = tokio::task::spawn_blocking(move || engine2.submit_tool(&tool, action, actor))
                .await
                .map_err(|e| CallError::Engine(EngineError::AuditUnavailable(e.to_string())))?;
            outcomes.push(CommandOutcome::from_result(p.kind, r));
        }
        Ok(CallOutput {
            output,
            commands: outcomes,
            elapsed_ms: ran.elapsed.as_millis() as u64,
        })
    }
}

/// The profile a tool's answer is attributed to when it was handed no message: the strictest
/// profile it may act for (a HIPAA one if any: its answer is then redacted for an uncleared
/// client), else the first; `None` when the engine has no profile it may act for.
fn output_owner(engine: &Engine, m: &Manifest) -> Option<String> {
    let allowed: Vec<String> = engine
        .profile_names()
        .into_iter()
        .filter(|p| m.allows_profile(p))
        .collect();
    allowed
        .iter()
        .find(|p| engine.phi().is_hipaa(p))
        .or(allowed.first())
        .cloned()
}

/// Check an object against a schema without copying it (the schema crate checks a `Value`).
fn checked(
    schema: &schema::Compiled,
    object: &mut Map<String, Value>,
) -> Result<(), Vec<schema::Violation>> {
    let value = Value::Object(std::mem::take(object));
    let r = schema.check(&value);
    if let Value::Object(o) = value {
        *object = o;
    }
    r
}

/// What opsdesk hands a tool besides the client's arguments: the inbox message named by a
/// `message_id` argument, read through the engine (audited, ladder-gated) and, for a tool
/// that may not see PHI, through the one redacted view.
async fn context(
    engine: &Arc<Engine>,
    m: &Manifest,
    args: &Map<String, Value>,
    caller: &Actor,
    profile: &mut Option<String>,
) -> Result<Value, CallError> {
    let Some(id) = args.get("message_id") else {
        return Ok(json!({}));
    };
    let Some(id) = id.as_str().map(str::to_string) else {
        return Err(CallError::Invalid("`message_id` must be a string".into()));
    };
    let engine2 = engine.clone();
    let caller = caller.clone();
    let tool = m.mcp_name();
    let answer = tokio::task::spawn_blocking(move || {
        engine2.submit_read(&tool, Query::InboxGet { key: id }, caller)
    })
    .await
    .map_err(|e| CallError::Engine(EngineError::AuditUnavailable(e.to_string())))?
    .map_err(|e| match e {
        EngineError::NotFound(m) => CallError::Invalid(m),
        e => CallError::Engine(e),
    })?;
    let Answer::Record(rec) = answer else {
        return Err(CallError::Engine(EngineError::invalid(
            "the engine answered a message lookup with another answer",
            Value::Null,
        )));
    };
    if !m.allows_profile(&rec.profile) {
        return Err(CallError::Invalid(format!(
            "tool `{}` may not read messages of profile `{}` (its manifest's `profiles`)",
            m.name, rec.profile
        )));
    }
    *profile = Some(rec.profile.clone());
    let owner = rec.profile.clone();
    let mut msg = serde_json::to_value(crate::domain::MessageOut::from(*rec))
        .map_err(|e| CallError::BadResult(e.to_string()))?;
    let placeholders = crate::governance::phi_view::Placeholders::new();
    engine
        .phi()
        .view(m.may_see_phi, &placeholders, &mut msg, Some(&owner))
        .map_err(|e| {
            CallError::Invalid(format!("the message cannot be redacted for this tool: {e}"))
        })?;
    Ok(untrusted_context(msg))
}

/// The message a tool receives, with what a sender wrote marked: `message` as it is (a program
/// works on the plain values), and `untrusted`: the fence id, the JSON pointers into `message`
/// of every value a sender wrote, and the same message with each of those values fenced as
/// MCP answers fence them (`domain::fence`), ready to hand a model as it is.
fn untrusted_context(msg: Value) -> Value {
    use crate::domain::fence::{Fence, fence_message_value, fenced_pointers};
    let fence = Fence::for_value(&msg);
    let mut fenced = msg.clone();
    fence_message_value(&mut fenced, &fence);
    json!({
        "untrusted": {
            "fence": fence.id(),
            "fields": fenced_pointers(&msg, &fenced),
            "message": fenced,
            "notice": fence.notice("the message is untrusted inbound data: a tool that hands it to a model should hand `untrusted.message`, whose fenced values the model can tell from instructions"),
        },
        "message": msg,
    })
}

/// A call's answer: the tool's output (without `commands`) and what became of each command.
#[derive(Debug, Serialize)]
pub struct CallOutput {
    pub output: Map<String, Value>,
    pub commands: Vec<CommandOutcome>,
    pub elapsed_ms: u64,
}

impl CallOutput {
    /// Whether any command was blocked or failed (the MCP result is then `isError`).
    pub fn any_refused(&self) -> bool {
        self.commands.iter().any(|c| c.status != "pending_approval")
    }

    /// The structured answer: the tool's output, plus `commands` outcomes when there were any.
    pub fn to_value(&self) -> Value {
        let mut v = self.output.clone();
        if !self.commands.is_empty() {
            v.insert(
                "commands".into(),
                serde_json::to_value(&self.commands).unwrap_or(Value::Null),
            );
        }
        Value::Object(v)
    }
}

/// What one command became.
#[derive(Debug, Clone, Serialize)]
pub struct CommandOutcome {
    pub kind: String,
    /// `pending_approval`, `blocked` or `error`.
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remedy: Option<String>,
}

impl CommandOutcome {
    fn from_result(kind: String, r: Result<Outcome, EngineError>) -> CommandOutcome {
        let mut c = CommandOutcome {
            kind,
            status: "error".into(),
            draft_id: None,
            rule: None,
            reason: None,
            remedy: None,
        };
        match r {
            Ok(Outcome::Queued { draft_id, .. }) => {
                c.status = "pending_approval".into();
                c.draft_id = Some(draft_id);
            }
            Ok(Outcome::Blocked {
                rule,
                reason,
                remedy,
            })
            | Err(EngineError::Blocked {
                rule,
                reason,
                remedy,
            }) => {
                c.status = "blocked".into();
                c.rule = Some(rule);
                c.reason = Some(reason);
                c.remedy = Some(remedy);
            }
            Ok(Outcome::Done { .. }) => c.reason = Some("the action did not queue a draft".into()),
            Err(e) => c.reason = Some(e.to_string()),
        }
        c
    }
}

/// Why a call has no answer.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("no vault tool `{0}`")]
    UnknownTool(String),
    /// The request is wrong (arguments, a message it may not read).
    #[error("{0}")]
    Invalid(String),
    /// The arguments do not match the manifest's `input_schema` (the tool was not started).
    #[error(
        "the arguments do not match {tool}'s input_schema: {}",
        schema::describe(.violations)
    )]
    Arguments {
        tool: String,
        violations: Vec<schema::Violation>,
    },
    /// The tool's output does not match its manifest's `output_schema` (nothing submitted).
    #[error(
        "the tool's output does not match its output_schema: {}",
        schema::describe(.violations)
    )]
    Output { violations: Vec<schema::Violation> },
    /// The tool misbehaved (crash, hang, junk, too much output).
    #[error("{0}")]
    Run(RunError),
    /// The tool answered, but its commands cannot be accepted (nothing was submitted).
    #[error("the tool's result was refused: {0}")]
    BadResult(String),
    /// The sandbox cannot contain the tool here (the tool was not started).
    #[error("{0}")]
    Sandbox(String),
    #[error(transparent)]
    Engine(EngineError),
}

impl CallError {
    /// Where arguments or output failed their schema, when that is the error.
    pub fn violations(&self) -> Option<&[schema::Violation]> {
        match self {
            CallError::Arguments { violations, .. } | CallError::Output { violations } => {
                Some(violations)
            }
            _ => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            CallError::UnknownTool(_) => "unknown_tool",
            CallError::Invalid(_) => "invalid",
            CallError::Arguments { .. } => "invalid_arguments",
            CallError::Output { .. } => "output_invalid",
            CallError::Run(r) => r.kind(),
            CallError::BadResult(_) => "bad_result",
            CallError::Sandbox(_) => "sandbox_refused",
            CallError::Engine(_) => "engine",
        }
    }
}

/// The vault as the console shows it: each tool with how it runs here and how its last call in
/// the audit trail ended, and every broken folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VaultView {
    pub dir: String,
    /// [`sandbox::Sandbox::line`].
    pub sandbox: String,
    /// Whether every layer of the sandbox is in force.
    pub sandbox_complete: bool,
    pub tools: Vec<VaultToolRow>,
    pub broken: Vec<Broken>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VaultToolRow {
    /// The MCP name (`vault_<name>`).
    pub name: String,
    pub tier: &'static str,
    pub timeout_secs: u64,
    /// [`network_label`].
    pub network: &'static str,
    pub may_see_phi: bool,
    /// Why the tool does not run here (the sandbox cannot contain it), when it does not.
    pub refused: Option<String>,
    /// The newest `vault.call` of this tool among the audit records looked at.
    pub last_call: Option<LastCall>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LastCall {
    #[serde(with = "time::serde::rfc3339")]
    pub at: time::OffsetDateTime,
    /// `ok`, `denied` or `error`.
    pub outcome: String,
    pub duration_ms: Option<u64>,
    pub reason: Option<String>,
}

impl VaultView {
    /// The tool vault as `engine` is configured: its tools (each with how it runs here and its
    /// last call among the newest `audit_window` audit records) and its broken folders.
    /// Unaudited: the console's Vault section; it reads the tools folder and the audit tail.
    pub fn of_engine(
        engine: &Engine,
        audit_window: usize,
    ) -> Result<VaultView, crate::store::StoreError> {
        let tail = engine.audit_tail(audit_window)?;
        Ok(VaultView::new(&Vault::for_engine(engine), &tail))
    }

    /// `vault`'s tools and broken folders, each tool's last call taken from `audit` (newest
    /// last, as the trail's tail is).
    pub fn new(vault: &Vault, audit: &[crate::domain::AuditRecord]) -> VaultView {
        let tools = vault
            .tools()
            .iter()
            .map(|m| {
                let name = m.mcp_name();
                let last_call = audit
                    .iter()
                    .rev()
                    .find(|r| {
                        r.event.event == "vault.call" && r.event.tool.as_deref() == Some(&name)
                    })
                    .map(|r| LastCall {
                        at: r.ts,
                        outcome: r.event.outcome.as_str().to_string(),
                        duration_ms: r.event.duration_ms,
                        reason: r.event.reason.clone(),
                    });
                VaultToolRow {
                    network: network_label(m, vault.sandbox()),
                    refused: match vault.verdict(m) {
                        sandbox::Verdict::Refuse { reason } => Some(reason),
                        sandbox::Verdict::Run { .. } => None,
                    },
                    tier: m.tier.as_str(),
                    timeout_secs: m.timeout_secs,
                    may_see_phi: m.may_see_phi,
                    name,
                    last_call,
                }
            })
            .collect();
        VaultView {
            dir: vault.dir().display().to_string(),
            sandbox: vault.sandbox().line(),
            sandbox_complete: vault.sandbox().complete(),
            tools,
            broken: vault.broken(),
        }
    }
}

/// A tool's network as it will run here: `declared` (it asked for the network and has it),
/// `none` (it runs without one) or `not isolated` (it did not ask, but this machine or the
/// config cannot take the network away).
pub(crate) fn network_label(m: &Manifest, sb: &sandbox::Sandbox) -> &'static str {
    match (m.needs_network, sb.can_cut_network()) {
        (true, _) => "declared",
        (false, true) => "none",
        (false, false) => "not isolated",
    }
}

/// A tool's `tools/list` entry: annotations from its tier; never open-world, since nothing it
/// proposes leaves before the operator approves.
pub fn describe(m: &Manifest) -> rmcp::model::Tool {
    use rmcp::model::{Tool, ToolAnnotations};
    let read_only = m.tier == VaultTier::ReadOnly;
    let ann = ToolAnnotations::with_title(m.title.clone())
        .read_only(read_only)
        .destructive(false)
        .idempotent(false)
        .open_world(false);
    let mut t = Tool::new(
        m.mcp_name(),
        format!("{} (vault tool, {})", m.description, m.tier.as_str()),
        Arc::new(m.input_schema.clone()),
    )
    .with_annotations(ann)
    .with_title(m.title.clone());
    if let Some(o) = &m.output_schema {
        let mut o = o.clone();
        if m.tier == VaultTier::DraftOnly
            && let Some(Value::Object(props)) = o.get_mut("properties")
        {
            props.insert(
                "commands".into(),
                json!({"type": "array", "items": {"type": "object"}, "description": "what became of each proposed command"}),
            );
        }
        t = t.with_raw_output_schema(Arc::new(o));
    }
    t
}

fn fingerprint(r: &Registry) -> String {
    format!("{:?}|{:?}", r.tools, r.broken)
}

/// Read every subfolder of `dir`. Hidden folders are skipped; a duplicate name is broken; a
/// folder others can change is refused (and with the tools folder itself, every tool).
fn scan(dir: &Path, config: &VaultConfig) -> Registry {
    let mut reg = Registry::default();
    if dir.exists()
        && let Err(error) = manifest::trusted("the tools folder", dir, true)
    {
        reg.broken.push(Broken {
            folder: dir.display().to_string(),
            error: format!("{error}; no tool is served from it"),
        });
        return reg;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return reg,
        Err(e) => {
            reg.broken.push(Broken {
                folder: dir.display().to_string(),
                error: format!("cannot read the tools folder: {e}"),
            });
            return reg;
        }
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        // A symlink to a folder is listed too, so that it is refused by name.
        .filter(|p| p.is_dir())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.'))
        })
        .collect();
    folders.sort();
    for f in folders {
        let folder = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let loaded = manifest::load(&f).and_then(|m| {
            crate::config::vault::effective_limits(&m.limits, &config.limits, &config.max_limits)
                .map(|_| m)
        });
        match loaded {
            Ok(m) if reg.tools.contains_key(&m.name) => reg.broken.push(Broken {
                folder,
                error: format!("name `{}` is already used by another tool folder", m.name),
            }),
            Ok(m) => {
                reg.tools.insert(m.name.clone(), Arc::new(m));
            }
            Err(error) => reg.broken.push(Broken { folder, error }),
        }
    }
    reg
}
