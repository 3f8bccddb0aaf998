//! Tool scopes: which tools a client may see and call, and so which resources and pushes it
//! gets. Everything is derived from the one `TOOLS` table (each tool's `toolset` and `tier`);
//! there is no second list of tools.
//!
//! A client's scope is a stack of layers, each of which can only narrow what the one before it
//! allows: the server's layer (`--read-only`, `OPSDESK_READ_ONLY`, `--toolsets`,
//! `--enabled-tools`, `[server] read_only / toolsets / tools`) applies to every client; a named
//! client's layer (`[server.clients.<name>] read_only / toolsets / tools`) narrows it further
//! for that credential. Within a layer a tool must pass all three rules: read-only admits only
//! read tools, `toolsets` only the tools of the listed toolsets, `tools` only names matching one
//! of the patterns. A refusal names the layer and rule that refused, where that rule was set,
//! and how to leave it.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::tools::{TOOLS, Tier, ToolDef};
use crate::config::ServerConfig;
use crate::http::auth;

/// The tools grouped by purpose. Every tool in `TOOLS` names one (the table's macro requires
/// it), so a tool added later is scoped the moment it is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Toolset {
    Inbox,
    Briefs,
    Drafts,
    Calendar,
    Deals,
    Triage,
    Vault,
    Admin,
}

impl Toolset {
    pub const ALL: [Toolset; 8] = [
        Toolset::Inbox,
        Toolset::Briefs,
        Toolset::Drafts,
        Toolset::Calendar,
        Toolset::Deals,
        Toolset::Triage,
        Toolset::Vault,
        Toolset::Admin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Toolset::Inbox => "inbox",
            Toolset::Briefs => "briefs",
            Toolset::Drafts => "drafts",
            Toolset::Calendar => "calendar",
            Toolset::Deals => "deals",
            Toolset::Triage => "triage",
            Toolset::Vault => "vault",
            Toolset::Admin => "admin",
        }
    }

    /// What the toolset is for (`--help`, docs, errors).
    pub fn purpose(self) -> &'static str {
        match self {
            Toolset::Inbox => "reading the inbox: pull with your cursor, search, list mail",
            Toolset::Briefs => "the morning brief and the end-of-day digest",
            Toolset::Drafts => "the approval queue: drafting mail and chat replies, reading drafts",
            Toolset::Calendar => "calendar items and calendar event drafts",
            Toolset::Deals => "deals and their timelines",
            Toolset::Triage => "the assistant's triage of the inbox",
            Toolset::Vault => "tools from the tool vault",
            Toolset::Admin => "engine status and the LLM providers",
        }
    }

    /// A toolset by name; an unknown one is an error listing the valid names.
    pub fn parse(s: &str) -> Result<Toolset, String> {
        let t = s.trim();
        Toolset::ALL
            .into_iter()
            .find(|ts| ts.name() == t)
            .ok_or_else(|| {
                format!(
                    "unknown toolset `{}`; valid toolsets: {}",
                    crate::sanitize::one_line(t, 64),
                    toolset_names()
                )
            })
    }

    /// The tools of this toolset, in table order.
    pub fn tools(self) -> impl Iterator<Item = &'static ToolDef> {
        TOOLS.iter().filter(move |t| t.toolset == self)
    }
}

impl fmt::Display for Toolset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// `inbox, briefs, …`: every toolset's name.
/// What a scope judges a tool by: its name (patterns), tier (read-only mode) and toolset.
#[derive(Debug, Clone, Copy)]
pub struct ToolFacts<'a> {
    pub name: &'a str,
    pub tier: Tier,
    pub toolset: Toolset,
}

impl<'a> From<&'a ToolDef> for ToolFacts<'a> {
    fn from(d: &'a ToolDef) -> Self {
        ToolFacts {
            name: d.name,
            tier: d.tier,
            toolset: d.toolset,
        }
    }
}

pub(crate) fn toolset_names() -> String {
    Toolset::ALL.map(Toolset::name).join(", ")
}

/// Every tool's name, for errors that must list the valid ones.
pub(crate) fn tool_names() -> String {
    TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters (also none)
/// and everything else is literal.
pub(crate) fn pattern_matches(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut pi, mut ni) = (0, 0);
    // The last `*` seen and the name position it was tried at: on a mismatch the star takes
    // one more character (the classic linear-backtracking wildcard match).
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ni));
            pi += 1;
        } else if pi < p.len() && p[pi] == n[ni] {
            pi += 1;
            ni += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&b| b == b'*')
}

/// A tool pattern must be made of tool-name characters and `*`, and match at least one tool
/// (a typo would otherwise silently hide tools). The error lists the valid names.
pub(crate) fn check_pattern(pattern: &str) -> Result<(), String> {
    let p = pattern.trim();
    let shown = crate::sanitize::one_line(p, 64);
    if p.is_empty()
        || !p
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'*')
    {
        return Err(format!(
            "`{shown}` is not a tool pattern: use tool names with `*` as a wildcard (e.g. `inbox_*`); valid tools: {}",
            tool_names()
        ));
    }
    if !TOOLS.iter().any(|t| pattern_matches(p, t.name)) && !may_match_vault(p) {
        return Err(format!(
            "`{shown}` matches no tool; valid tools: {}, and tool-vault tools as `{}<name>` (all of them: `{}*`)",
            tool_names(),
            crate::vault::MCP_PREFIX,
            crate::vault::MCP_PREFIX,
        ));
    }
    Ok(())
}

/// Whether `pattern` can match a tool-vault name (`vault_<name>`). Vault tools come and go
/// while the server runs, so a pattern for them is judged by its shape, not against today's
/// folder: its literal start must agree with the prefix, and a pattern without `*` must name
/// a tool after it.
fn may_match_vault(pattern: &str) -> bool {
    let prefix = crate::vault::MCP_PREFIX;
    match pattern.split_once('*') {
        Some((head, _)) => prefix.starts_with(head) || head.starts_with(prefix),
        None => pattern.len() > prefix.len() && pattern.starts_with(prefix),
    }
}

/// Where a server-wide setting came from: a refusal names it, so the client (and the operator
/// reading the error) knows how to leave the mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// `opsdesk serve --read-only / --toolsets / --enabled-tools`.
    Flag,
    /// `OPSDESK_READ_ONLY`.
    Env,
    /// The config file (`[server]` or `[server.clients.<name>]`).
    Config,
}

/// Environment variable that turns read-only mode on for the whole server.
pub(crate) const READ_ONLY_ENV: &str = "OPSDESK_READ_ONLY";

/// What the command line and the environment add to `[server]`'s scope settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Read-only turned on by the flag and/or the environment (they can only turn it on).
    pub read_only: Vec<Origin>,
    /// `--toolsets`: replaces `[server] toolsets`.
    pub toolsets: Option<Vec<Toolset>>,
    /// `--enabled-tools`: replaces `[server] tools`.
    pub tools: Option<Vec<String>>,
}

impl Overrides {
    /// `OPSDESK_READ_ONLY`: `1`/`true`/`yes`/`on` turn read-only on, `0`/`false`/`no`/`off`
    /// or empty leave it to the config; anything else is an error (a typo must not leave a
    /// server writable that was meant to be read-only).
    pub fn from_env() -> Result<Overrides, String> {
        let mut o = Overrides::default();
        if let Ok(v) = std::env::var(READ_ONLY_ENV) {
            match v.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => o.read_only.push(Origin::Env),
                "" | "0" | "false" | "no" | "off" => {}
                _ => {
                    return Err(format!(
                        "{READ_ONLY_ENV}=\"{}\" is neither on nor off; use 1/true/yes/on or 0/false/no/off",
                        crate::sanitize::one_line(&v, 32)
                    ));
                }
            }
        }
        Ok(o)
    }

    /// The command line's flags on top (`--toolsets` / `--enabled-tools` replace the config's
    /// lists; `--read-only` adds to wherever else read-only is on).
    pub fn with_flags(
        mut self,
        read_only: bool,
        toolsets: Option<Vec<Toolset>>,
        tools: Option<Vec<String>>,
    ) -> Overrides {
        if read_only {
            self.read_only.insert(0, Origin::Flag);
        }
        if toolsets.is_some() {
            self.toolsets = toolsets;
        }
        if tools.is_some() {
            self.tools = tools;
        }
        self
    }

    /// Whether anything is set (the stdio bridge cannot apply a scope of its own).
    pub fn is_empty(&self) -> bool {
        *self == Overrides::default()
    }
}

/// One layer's rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Rules {
    /// Every place that turns read-only on (each must be undone to leave it).
    read_only: Vec<Origin>,
    toolsets: Option<(Vec<Toolset>, Origin)>,
    tools: Option<(Vec<String>, Origin)>,
}

/// A layer: the server's (`client: None`) or a named client's.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Layer {
    client: Option<String>,
    rules: Rules,
}

/// Which rule refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    ReadOnly,
    Toolsets,
    Tools,
}

impl Rule {
    fn key(self) -> &'static str {
        match self {
            Rule::ReadOnly => "read_only",
            Rule::Toolsets => "toolsets",
            Rule::Tools => "tools",
        }
    }
}

/// Why a tool is out of a client's scope, and how to bring it back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub tool: String,
    /// `server`, or the named client whose own scope refused.
    pub scope: String,
    pub rule: Rule,
    /// Where the refusing setting was made (`opsdesk serve --read-only`, `OPSDESK_READ_ONLY`,
    /// `[server] read_only`, `[server.clients.dash] toolsets`, …).
    pub set_by: String,
    /// What the refusal means, in a sentence.
    pub message: String,
    /// How to leave the mode (what the operator changes).
    pub remedy: String,
}

impl Refusal {
    /// `server read_only (opsdesk serve --read-only)`: the audit record's reason prefix.
    pub fn audit_reason(&self) -> String {
        format!(
            "scope {} {} ({}): {}",
            self.scope,
            self.rule.key(),
            self.set_by,
            self.message
        )
    }
}

/// A refusal as the JSON-RPC error the client gets (-32602, as for a tool that does not
/// exist): the message names the mode and how to leave it; `data` says the same in fields and
/// lists what this client can call instead.
pub(crate) fn refusal_error(r: &Refusal, available: Vec<String>) -> rmcp::ErrorData {
    rmcp::ErrorData::invalid_params(
        format!(
            "`{}` is not available to this client: {}. Set by {}; to change it, {}.",
            r.tool, r.message, r.set_by, r.remedy
        ),
        Some(serde_json::json!({
            "refused_by_scope": r,
            "available_tools": available,
            "hint": "only the tools in tools/list can be called; this refusal is the operator's setting, not an error to retry",
        })),
    )
}

impl Layer {
    fn setting(&self, rule: Rule, origin: Origin) -> String {
        match (&self.client, origin, rule) {
            (Some(c), _, r) => format!("[server.clients.{c}] {}", r.key()),
            (None, Origin::Flag, Rule::ReadOnly) => "opsdesk serve --read-only".into(),
            (None, Origin::Flag, Rule::Toolsets) => "opsdesk serve --toolsets".into(),
            (None, Origin::Flag, Rule::Tools) => "opsdesk serve --enabled-tools".into(),
            (None, Origin::Env, _) => READ_ONLY_ENV.into(),
            (None, Origin::Config, r) => format!("[server] {}", r.key()),
        }
    }

    fn who(&self) -> String {
        match &self.client {
            Some(c) => format!("client `{c}`"),
            None => "this server".into(),
        }
    }

    fn check(&self, def: ToolFacts<'_>) -> Result<(), Box<Refusal>> {
        let refuse = |rule: Rule, set_by: String, message: String, remedy: String| {
            Box::new(Refusal {
                tool: def.name.to_string(),
                scope: self.client.clone().unwrap_or_else(|| "server".into()),
                rule,
                set_by,
                message,
                remedy,
            })
        };
        let r = &self.rules;
        if !r.read_only.is_empty() && def.tier != Tier::ReadOnly {
            let remedy = |origin: Origin| match (&self.client, origin) {
                (Some(c), _) => format!(
                    "sets `read_only = false` in [server.clients.{c}] of the opsdesk config"
                ),
                (None, Origin::Flag) => "drops --read-only from `opsdesk serve`".into(),
                (None, Origin::Env) => format!("unsets {READ_ONLY_ENV}"),
                (None, Origin::Config) => {
                    "sets `read_only = false` in [server] of the opsdesk config".into()
                }
            };
            // Only the config file can be reloaded in place (SIGHUP).
            let then = if r.read_only.iter().all(|o| *o == Origin::Config) {
                "and restarts opsdesk or sends `opsdesk serve` SIGHUP"
            } else {
                "and restarts opsdesk"
            };
            let set_by: Vec<String> = r
                .read_only
                .iter()
                .map(|o| self.setting(Rule::ReadOnly, *o))
                .collect();
            let remedies: Vec<String> = r.read_only.iter().map(|o| remedy(*o)).collect();
            return Err(refuse(
                Rule::ReadOnly,
                set_by.join(" and "),
                format!(
                    "{} is in read-only mode: only read tools can be called, and `{}` is a draft tool",
                    self.who(),
                    def.name
                ),
                format!("the operator {} {then}", remedies.join(", ")),
            ));
        }
        if let Some((sets, origin)) = &r.toolsets
            && !sets.contains(&def.toolset)
        {
            let list = sets.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ");
            let remedy = match (&self.client, origin) {
                (Some(c), _) => format!(
                    "the operator adds `{}` to `toolsets` in [server.clients.{c}] and restarts opsdesk or sends `opsdesk serve` SIGHUP",
                    def.toolset
                ),
                (None, Origin::Flag) => format!(
                    "the operator restarts `opsdesk serve` with `{}` in --toolsets",
                    def.toolset
                ),
                (None, _) => format!(
                    "the operator adds `{}` to `toolsets` in [server] and restarts opsdesk or sends `opsdesk serve` SIGHUP",
                    def.toolset
                ),
            };
            return Err(refuse(
                Rule::Toolsets,
                self.setting(Rule::Toolsets, *origin),
                format!(
                    "`{}` belongs to toolset `{}`, which is not enabled for {} (enabled: {})",
                    def.name,
                    def.toolset,
                    self.who(),
                    if list.is_empty() { "none" } else { &list }
                ),
                remedy,
            ));
        }
        if let Some((pats, origin)) = &r.tools
            && !pats.iter().any(|p| pattern_matches(p, def.name))
        {
            let remedy = match (&self.client, origin) {
                (Some(c), _) => format!(
                    "the operator adds `{}` to `tools` in [server.clients.{c}] and restarts opsdesk or sends `opsdesk serve` SIGHUP",
                    def.name
                ),
                (None, Origin::Flag) => format!(
                    "the operator restarts `opsdesk serve` with `{}` in --enabled-tools",
                    def.name
                ),
                (None, _) => format!(
                    "the operator adds `{}` to `tools` in [server] and restarts opsdesk or sends `opsdesk serve` SIGHUP",
                    def.name
                ),
            };
            return Err(refuse(
                Rule::Tools,
                self.setting(Rule::Tools, *origin),
                format!(
                    "`{}` matches none of the tool patterns enabled for {} ({})",
                    def.name,
                    self.who(),
                    pats.join(", ")
                ),
                remedy,
            ));
        }
        Ok(())
    }
}

/// The scopes of one server: its own layer and each named client's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scopes {
    server: Layer,
    clients: BTreeMap<String, Layer>,
    /// `[server] stdio_client`: stdio connections then act as that client.
    stdio_client: Option<String>,
}

impl Default for Scopes {
    /// Every tool for every client.
    fn default() -> Self {
        Scopes::new(&ServerConfig::default(), &Overrides::default())
    }
}

/// Toolset names from a validated config (an unknown name was refused by validation; one
/// that slips through selects nothing rather than everything).
fn parse_sets(names: &[String]) -> Vec<Toolset> {
    names
        .iter()
        .filter_map(|n| Toolset::parse(n).ok())
        .collect()
}

fn trimmed(patterns: &[String]) -> Vec<String> {
    patterns.iter().map(|p| p.trim().to_string()).collect()
}

impl Scopes {
    /// The scopes `[server]` (validated) and the command line's overrides give.
    pub fn new(server: &ServerConfig, o: &Overrides) -> Scopes {
        let server_rules = Rules {
            read_only: o
                .read_only
                .iter()
                .copied()
                .chain(server.read_only.then_some(Origin::Config))
                .collect(),
            toolsets: match (&o.toolsets, &server.toolsets) {
                (Some(t), _) => Some((t.clone(), Origin::Flag)),
                (None, Some(t)) => Some((parse_sets(t), Origin::Config)),
                (None, None) => None,
            },
            tools: match (&o.tools, &server.tools) {
                (Some(t), _) => Some((trimmed(t), Origin::Flag)),
                (None, Some(t)) => Some((trimmed(t), Origin::Config)),
                (None, None) => None,
            },
        };
        let clients = server
            .clients
            .iter()
            .map(|(name, c)| {
                let rules = Rules {
                    read_only: c.read_only.then_some(Origin::Config).into_iter().collect(),
                    toolsets: c.toolsets.as_ref().map(|t| (parse_sets(t), Origin::Config)),
                    tools: c.tools.as_ref().map(|t| (trimmed(t), Origin::Config)),
                };
                (
                    name.clone(),
                    Layer {
                        client: Some(name.clone()),
                        rules,
                    },
                )
            })
            .collect();
        Scopes {
            server: Layer {
                client: None,
                rules: server_rules,
            },
            clients,
            stdio_client: server.stdio_client.clone(),
        }
    }

    /// The scope of the client a credential names (`default`, `stdio` or a configured name).
    pub fn for_client(&self, name: &str) -> ClientScope {
        ClientScope {
            name: name.to_string(),
            server: self.server.clone(),
            client: self.clients.get(name).cloned(),
        }
    }

    /// Every client's scope: `default`, `stdio` (unless stdio acts as a named client), then
    /// the named clients.
    pub fn all(&self) -> Vec<ClientScope> {
        let mut v = vec![self.for_client(auth::DEFAULT_CLIENT)];
        if self.stdio_client.is_none() {
            v.push(self.for_client(auth::STDIO_CLIENT));
        }
        v.extend(self.clients.keys().map(|n| self.for_client(n)));
        v
    }
}

/// One client's scope: the server's layer, then its own (a copy: the server's scopes can be
/// replaced while a request holds it).
#[derive(Debug, Clone)]
pub struct ClientScope {
    name: String,
    server: Layer,
    client: Option<Layer>,
}

/// A scope as `doctor`, `mcp-config` and `engine.json` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScopeSummary {
    pub client: String,
    /// True when read-only mode applies (server-wide or for this client).
    pub read_only: bool,
    /// The toolsets that contribute at least one visible tool.
    pub toolsets: Vec<Toolset>,
    /// The tools this client sees and may call, in table order.
    pub tools: Vec<String>,
    /// The settings that narrow this client's scope (empty: every tool).
    pub set_by: Vec<String>,
    /// The vault tools (`vault_<name>`) this client sees and may call.
    #[serde(default)]
    pub vault_tools: Vec<String>,
}

impl ScopeSummary {
    /// One line: `all 27 tools (25 built-in, 2 vault)` or `read-only; 10 of 25 tools, plus 1
    /// vault tool (toolsets: …) — set by …` (the 25 are the built-ins).
    pub fn line(&self) -> String {
        let vault = match self.vault_tools.len() {
            0 => String::new(),
            1 => ", plus 1 vault tool".to_string(),
            n => format!(", plus {n} vault tools"),
        };
        if self.set_by.is_empty() {
            return if self.vault_tools.is_empty() {
                format!("all {} tools", self.tools.len())
            } else {
                format!(
                    "all {} tools ({} built-in, {} vault)",
                    self.tools.len() + self.vault_tools.len(),
                    self.tools.len(),
                    self.vault_tools.len()
                )
            };
        }
        format!(
            "{}{} of {} tools{vault} (toolsets: {}) — set by {}",
            if self.read_only { "read-only; " } else { "" },
            self.tools.len(),
            TOOLS.len(),
            if self.toolsets.is_empty() {
                "none".to_string()
            } else {
                self.toolsets
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            self.set_by.join(", ")
        )
    }
}

impl ClientScope {
    fn layers(&self) -> impl Iterator<Item = &Layer> {
        std::iter::once(&self.server).chain(self.client.as_ref())
    }

    /// `Ok` when `def` is in scope, else the first layer and rule that refuse it.
    pub fn check(&self, def: &ToolDef) -> Result<(), Box<Refusal>> {
        self.check_facts(ToolFacts::from(def))
    }

    /// [`ClientScope::check`] for a tool outside the `TOOLS` table (a vault tool).
    pub fn check_facts(&self, tool: ToolFacts<'_>) -> Result<(), Box<Refusal>> {
        self.layers().try_for_each(|l| l.check(tool))
    }

    pub fn admits(&self, def: &ToolDef) -> bool {
        self.check(def).is_ok()
    }

    /// Whether the client can use any tool of `set`: resources and pushes of a toolset follow
    /// its tools.
    pub fn reaches(&self, set: Toolset) -> bool {
        set.tools().any(|t| self.admits(t))
    }

    /// `Ok` when the client reaches `set` (see [`ClientScope::reaches`]), else why not, for
    /// `what` (a resource or a push): the refusal of the toolset's first tool, reworded.
    pub fn check_toolset(&self, set: Toolset, what: &str) -> Result<(), Box<Refusal>> {
        // The refusal that explains it best: the toolset itself not enabled, else the first.
        let mut first: Option<Box<Refusal>> = None;
        for t in set.tools() {
            match self.check(t) {
                Ok(()) => return Ok(()),
                Err(r) => {
                    if first
                        .as_ref()
                        .is_none_or(|f| f.rule != Rule::Toolsets && r.rule == Rule::Toolsets)
                    {
                        first = Some(r);
                    }
                }
            }
        }
        let mut r = first.unwrap_or_else(|| {
            Box::new(Refusal {
                tool: String::new(),
                scope: "server".into(),
                rule: Rule::Toolsets,
                set_by: "this build".into(),
                message: String::new(),
                remedy: "none: this build has no tools in that toolset".into(),
            })
        });
        r.message = format!(
            "{what} belongs to toolset `{set}`, and none of its tools is in the scope of client `{}` ({})",
            self.name, r.message
        );
        r.tool = what.to_string();
        Err(r)
    }

    /// The tools in scope, in table order.
    pub fn tools(&self) -> Vec<&'static str> {
        TOOLS
            .iter()
            .filter(|t| self.admits(t))
            .map(|t| t.name)
            .collect()
    }

    pub fn summary(&self) -> ScopeSummary {
        let mut set_by = Vec::new();
        let mut read_only = false;
        for l in self.layers() {
            for o in &l.rules.read_only {
                read_only = true;
                set_by.push(l.setting(Rule::ReadOnly, *o));
            }
            if let Some((_, o)) = &l.rules.toolsets {
                set_by.push(l.setting(Rule::Toolsets, *o));
            }
            if let Some((_, o)) = &l.rules.tools {
                set_by.push(l.setting(Rule::Tools, *o));
            }
        }
        let tools = self.tools();
        let mut toolsets: Vec<Toolset> = TOOLS
            .iter()
            .filter(|t| tools.contains(&t.name))
            .map(|t| t.toolset)
            .collect();
        toolsets.sort();
        toolsets.dedup();
        ScopeSummary {
            client: self.name.clone(),
            read_only,
            toolsets,
            tools: tools.into_iter().map(str::to_string).collect(),
            set_by,
            vault_tools: Vec::new(),
        }
    }

    /// [`ClientScope::summary`] with the vault tools (name, tier) this client may call.
    pub fn summary_with(&self, vault: &[(String, Tier)]) -> ScopeSummary {
        let mut s = self.summary();
        s.vault_tools = vault
            .iter()
            .filter(|(name, tier)| {
                self.check_facts(ToolFacts {
                    name,
                    tier: *tier,
                    toolset: Toolset::Vault,
                })
                .is_ok()
            })
            .map(|(name, _)| name.clone())
            .collect();
        if !s.vault_tools.is_empty() && !s.toolsets.contains(&Toolset::Vault) {
            s.toolsets.push(Toolset::Vault);
        }
        s
    }
}

/// `[server] toolsets / tools` and each client's: known toolsets, and patterns that match a
/// tool (a typo would silently hide tools). The config floor cannot judge these (the tool table
/// is this surface's), so the binary's one config loader (`cli::Context::config`) runs this
/// after `Config::load`. Each problem is (key path, message listing the valid names).
pub(crate) fn config_problems(server: &ServerConfig) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lists = |base: String, toolsets: Option<&[String]>, tools: Option<&[String]>| {
        for (i, t) in toolsets.unwrap_or_default().iter().enumerate() {
            if let Err(e) = Toolset::parse(t) {
                let p = format!("{base}.toolsets");
                out.push((p.clone(), format!("`{p}` item {}: {e}", i + 1)));
            }
        }
        for (i, t) in tools.unwrap_or_default().iter().enumerate() {
            if let Err(e) = check_pattern(t) {
                let p = format!("{base}.tools");
                out.push((p.clone(), format!("`{p}` item {}: {e}", i + 1)));
            }
        }
    };
    lists(
        "server".into(),
        server.toolsets.as_deref(),
        server.tools.as_deref(),
    );
    for (name, client) in &server.clients {
        lists(
            format!("server.clients.{name}"),
            client.toolsets.as_deref(),
            client.tools.as_deref(),
        );
    }
    out
}

/// Clients whose settings leave them no tool at all (each layer of a scope only narrows, so a
/// client's lists can): legal, but surely not meant. For `config check` and `doctor`.
pub(crate) fn config_warnings(server: &ServerConfig) -> Vec<crate::config::ConfigWarning> {
    let mut out = Vec::new();
    let scopes = Scopes::new(server, &Default::default());
    for scope in scopes.all() {
        let s = scope.summary();
        // `stdio` has the server's scope unless it is a named client: one warning is enough.
        if s.tools.is_empty() && s.client != auth::STDIO_CLIENT {
            let key = match server.clients.contains_key(&s.client) {
                true => format!("server.clients.{}", s.client),
                false => "server".to_owned(),
            };
            out.push(crate::config::ConfigWarning {
                key,
                message: format!(
                    "client `{}` is offered no tool at all ({}): its settings and [server]'s leave nothing in common",
                    s.client,
                    s.set_by.join(", ")
                ),
            });
        }
    }
    out
}

/// `[server]` without its scope settings: what a scope reload must leave as it is.
fn without_scopes(server: &ServerConfig) -> ServerConfig {
    let mut s = server.clone();
    s.read_only = false;
    s.toolsets = None;
    s.tools = None;
    for c in s.clients.values_mut() {
        c.read_only = false;
        c.toolsets = None;
        c.tools = None;
    }
    s
}

/// A reload (SIGHUP) may change only the scope settings. Credentials, clearance and the rest of
/// `[server]` are bound at start: a client removed from the file would keep its token but lose
/// its own narrowing, so such a reload is refused as a whole.
pub(crate) fn check_reload(running: &ServerConfig, reloaded: &ServerConfig) -> Result<(), String> {
    if without_scopes(running) != without_scopes(reloaded) {
        return Err("[server] has changes besides read_only / toolsets / tools (clients, tokens, clearance, limits or the address); those need a restart of opsdesk, so nothing was reloaded".into());
    }
    Ok(())
}

/// Each client's scope as `doctor` and `mcp-config` report it: the running engine's (which
/// includes its command-line flags, published in `engine.json`), else what the config and
/// `OPSDESK_READ_ONLY` give. The flag says which.
pub fn effective(
    paths: &crate::paths::Paths,
    server: &ServerConfig,
    vault: &[(String, Tier)],
) -> Result<(Vec<ScopeSummary>, bool), String> {
    if let Some(info) = super::RuntimeInfo::read_live(paths)
        && !info.scopes.is_empty()
    {
        return Ok((info.scopes, true));
    }
    let scopes = Scopes::new(server, &Overrides::from_env()?);
    Ok((
        scopes.all().iter().map(|s| s.summary_with(vault)).collect(),
        false,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::McpClientConfig;

    fn def(name: &str) -> &'static ToolDef {
        super::super::tools::tool_def(name).unwrap_or_else(|| panic!("no tool {name}"))
    }

    fn client(
        read_only: bool,
        toolsets: Option<&[&str]>,
        tools: Option<&[&str]>,
    ) -> McpClientConfig {
        McpClientConfig {
            token_env: "X_TOKEN".into(),
            hipaa_cleared: false,
            read_only,
            toolsets: toolsets.map(|t| t.iter().map(|s| s.to_string()).collect()),
            tools: tools.map(|t| t.iter().map(|s| s.to_string()).collect()),
        }
    }

    #[test]
    fn patterns_match_whole_names_with_star_wildcards() {
        assert!(pattern_matches("inbox_*", "inbox_pull"));
        assert!(pattern_matches("*_draft", "calendar_event_draft"));
        assert!(pattern_matches("*draft*", "drafts_list"));
        assert!(pattern_matches("status", "status"));
        assert!(pattern_matches("*", "status"));
        assert!(pattern_matches("d*_*s", "draft_status"));
        assert!(!pattern_matches("d*_*t", "draft_status"));
        assert!(!pattern_matches("inbox", "inbox_pull"));
        assert!(!pattern_matches("status", "statuses"));
        assert!(!pattern_matches("*_draft", "draft_email"));
    }

    #[test]
    fn a_pattern_that_matches_no_tool_or_has_odd_characters_lists_the_valid_tools() {
        assert!(check_pattern("inbox_*").is_ok());
        for bad in ["inbx_*", "Inbox_pull", "inbox.pull", "", "status;rm"] {
            let e = check_pattern(bad).unwrap_err();
            assert!(
                e.contains("valid tools: ") && e.contains("inbox_pull"),
                "{e}"
            );
        }
    }

    #[test]
    fn vault_patterns_are_accepted_by_shape_since_vault_tools_come_and_go() {
        for good in [
            "vault_*",
            "vault_follow_up",
            "vault_thread_*",
            "vault*",
            "*_summary",
        ] {
            assert!(check_pattern(good).is_ok(), "{good}");
        }
        for bad in ["vault_", "vaults_*", "vault-x"] {
            let e = check_pattern(bad).unwrap_err();
            assert!(
                e.contains("vault_<name>") || e.contains("not a tool pattern"),
                "{bad}: {e}"
            );
        }
        // And a vault pattern admits the vault tools it matches, nothing else.
        let c = Scopes::new(
            &ServerConfig {
                tools: Some(vec!["inbox_*".into(), "vault_*".into()]),
                ..ServerConfig::default()
            },
            &Overrides::default(),
        )
        .for_client("default");
        let vault = |name| ToolFacts {
            name,
            tier: Tier::DraftOnly,
            toolset: Toolset::Vault,
        };
        assert!(c.check_facts(vault("vault_follow_up")).is_ok());
        assert!(c.check(def("inbox_pull")).is_ok());
        assert_eq!(c.check(def("status")).unwrap_err().rule, Rule::Tools);
    }

    #[test]
    fn unknown_toolsets_are_refused_with_the_valid_names() {
        assert_eq!(Toolset::parse("briefs"), Ok(Toolset::Briefs));
        let e = Toolset::parse("mail").unwrap_err();
        assert!(e.contains("`mail`") && e.contains(&toolset_names()), "{e}");
    }

    #[test]
    fn with_nothing_set_every_client_sees_every_tool() {
        let s = Scopes::default();
        for c in s.all() {
            assert_eq!(c.tools().len(), TOOLS.len());
            assert!(c.summary().set_by.is_empty());
        }
    }

    #[test]
    fn read_only_admits_exactly_the_read_tier_and_names_its_origin() {
        for (o, set_by, remedy) in [
            (
                Origin::Flag,
                "opsdesk serve --read-only",
                "drops --read-only",
            ),
            (Origin::Env, "OPSDESK_READ_ONLY", "unsets OPSDESK_READ_ONLY"),
        ] {
            let s = Scopes::new(
                &ServerConfig::default(),
                &Overrides {
                    read_only: vec![o],
                    ..Overrides::default()
                },
            );
            let c = s.for_client("default");
            for t in TOOLS {
                assert_eq!(c.admits(t), t.tier == Tier::ReadOnly, "{}", t.name);
            }
            let r = c.check(def("draft_email")).unwrap_err();
            assert_eq!((r.rule, r.scope.as_str()), (Rule::ReadOnly, "server"));
            assert_eq!(r.set_by, set_by);
            assert!(r.message.contains("read-only mode"), "{}", r.message);
            assert!(r.remedy.contains(remedy), "{}", r.remedy);
        }
        let server = ServerConfig {
            read_only: true,
            ..ServerConfig::default()
        };
        let r = Scopes::new(&server, &Overrides::default())
            .for_client("stdio")
            .check(def("draft_reply"))
            .unwrap_err();
        assert_eq!(r.set_by, "[server] read_only");
        assert!(r.remedy.contains("read_only = false"), "{}", r.remedy);
        // Turned on in two places: the refusal names both, and how to undo each.
        let both = Overrides::default().with_flags(true, None, None);
        let r = Scopes::new(&server, &both)
            .for_client("default")
            .check(def("draft_reply"))
            .unwrap_err();
        assert_eq!(r.set_by, "opsdesk serve --read-only and [server] read_only");
        assert!(
            r.remedy.contains("drops --read-only") && r.remedy.contains("read_only = false"),
            "{}",
            r.remedy
        );
    }

    #[test]
    fn vault_tools_are_judged_by_the_same_rules() {
        let facts = |name, tier| ToolFacts {
            name,
            tier,
            toolset: Toolset::Vault,
        };
        let ro = ServerConfig {
            read_only: true,
            ..ServerConfig::default()
        };
        let c = Scopes::new(&ro, &Overrides::default()).for_client("default");
        assert!(
            c.check_facts(facts("vault_summary", Tier::ReadOnly))
                .is_ok()
        );
        let r = c
            .check_facts(facts("vault_follow_up", Tier::DraftOnly))
            .unwrap_err();
        assert_eq!(r.rule, Rule::ReadOnly);
        let inbox_only = ServerConfig {
            toolsets: Some(vec!["inbox".into()]),
            ..ServerConfig::default()
        };
        let c = Scopes::new(&inbox_only, &Overrides::default()).for_client("default");
        let r = c
            .check_facts(facts("vault_summary", Tier::ReadOnly))
            .unwrap_err();
        assert_eq!(r.rule, Rule::Toolsets);
        let pattern = ServerConfig {
            tools: Some(vec!["vault_sum*".into()]),
            ..ServerConfig::default()
        };
        let c = Scopes::new(&pattern, &Overrides::default()).for_client("default");
        assert!(
            c.check_facts(facts("vault_summary", Tier::ReadOnly))
                .is_ok()
        );
        assert_eq!(
            c.check_facts(facts("vault_follow_up", Tier::DraftOnly))
                .unwrap_err()
                .rule,
            Rule::Tools
        );
    }

    #[test]
    fn toolsets_and_patterns_narrow_and_both_must_admit() {
        let server = ServerConfig {
            toolsets: Some(vec!["inbox".into(), "drafts".into()]),
            tools: Some(vec!["inbox_*".into(), "draft*".into()]),
            ..ServerConfig::default()
        };
        let s = Scopes::new(&server, &Overrides::default());
        let c = s.for_client("default");
        assert_eq!(
            c.tools(),
            vec![
                "draft_email",
                "draft_generate",
                "draft_reply",
                "draft_status",
                "drafts_list",
                "inbox_pull",
                "inbox_search"
            ]
        );
        // mail_list is in `inbox` but matches no pattern; calendar_list is in no enabled set.
        assert_eq!(c.check(def("mail_list")).unwrap_err().rule, Rule::Tools);
        let r = c.check(def("calendar_list")).unwrap_err();
        assert_eq!(r.rule, Rule::Toolsets);
        assert!(r.message.contains("`calendar`"), "{}", r.message);
        assert!(c.reaches(Toolset::Inbox) && !c.reaches(Toolset::Admin));
    }

    #[test]
    fn flags_replace_the_configured_lists() {
        let server = ServerConfig {
            toolsets: Some(vec!["admin".into()]),
            ..ServerConfig::default()
        };
        let o = Overrides::default().with_flags(false, Some(vec![Toolset::Briefs]), None);
        let s = Scopes::new(&server, &o);
        assert_eq!(
            s.for_client("default").tools(),
            vec!["eod_digest", "morning_brief"]
        );
        let r = s.for_client("default").check(def("status")).unwrap_err();
        assert_eq!(r.set_by, "opsdesk serve --toolsets");
    }

    #[test]
    fn a_named_client_narrows_the_server_and_never_widens_it() {
        let mut server = ServerConfig::default();
        server.clients.insert(
            "dash".into(),
            client(true, Some(&["inbox", "briefs"]), None),
        );
        server
            .clients
            .insert("agent".into(), client(false, None, None));
        let s = Scopes::new(&server, &Overrides::default());
        let dash = s.for_client("dash");
        assert_eq!(
            dash.tools(),
            vec![
                "eod_digest",
                "filing_suggestion",
                "inbox_pull",
                "inbox_search",
                "mail_list",
                "morning_brief"
            ]
        );
        let r = dash.check(def("draft_email")).unwrap_err();
        assert_eq!((r.scope.as_str(), r.rule), ("dash", Rule::ReadOnly));
        assert_eq!(r.set_by, "[server.clients.dash] read_only");
        assert_eq!(s.for_client("agent").tools().len(), TOOLS.len());
        assert_eq!(s.for_client("default").tools().len(), TOOLS.len());

        // A read-only server stays read-only for a client that is not.
        let ro = Overrides::default().with_flags(true, None, None);
        let s = Scopes::new(&server, &ro);
        let r = s.for_client("agent").check(def("draft_email")).unwrap_err();
        assert_eq!(
            (r.scope.as_str(), r.set_by.as_str()),
            ("server", "opsdesk serve --read-only")
        );
        let summary = s.for_client("dash").summary();
        assert!(summary.read_only);
        assert_eq!(
            summary.set_by,
            vec![
                "opsdesk serve --read-only",
                "[server.clients.dash] read_only",
                "[server.clients.dash] toolsets"
            ]
        );
        assert_eq!(summary.toolsets, vec![Toolset::Inbox, Toolset::Briefs]);
    }

    #[test]
    fn stdio_is_listed_on_its_own_only_when_it_is_not_a_named_client() {
        let mut server = ServerConfig::default();
        server
            .clients
            .insert("desk".into(), client(true, None, None));
        let names = |s: &Scopes| {
            s.all()
                .iter()
                .map(|c| c.summary().client)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&Scopes::new(&server, &Overrides::default())),
            ["default", "stdio", "desk"]
        );
        server.stdio_client = Some("desk".into());
        assert_eq!(
            names(&Scopes::new(&server, &Overrides::default())),
            ["default", "desk"]
        );
    }

    #[test]
    fn a_reload_may_change_scope_settings_only() {
        let mut running = ServerConfig::default();
        running
            .clients
            .insert("dash".into(), client(false, None, None));
        let mut narrower = running.clone();
        narrower.read_only = true;
        narrower.toolsets = Some(vec!["inbox".into()]);
        narrower
            .clients
            .insert("dash".into(), client(true, Some(&["briefs"]), Some(&["*"])));
        assert!(check_reload(&running, &narrower).is_ok());
        // Dropping a client would leave its token valid without its own narrowing.
        let mut dropped = narrower.clone();
        dropped.clients.clear();
        let e = check_reload(&running, &dropped).unwrap_err();
        assert!(e.contains("need a restart"), "{e}");
        let mut cleared = running.clone();
        if let Some(c) = cleared.clients.get_mut("dash") {
            c.hipaa_cleared = true;
        }
        assert!(check_reload(&running, &cleared).is_err());
    }

    #[test]
    fn every_toolset_name_round_trips() {
        for t in Toolset::ALL {
            assert_eq!(Toolset::parse(t.name()), Ok(t));
            assert!(!t.purpose().is_empty());
        }
    }
}
