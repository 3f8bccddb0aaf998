//! The configuration schema: every section, its fields and the built-in defaults.
//!
//! Every struct denies unknown fields (a typo must be an error, never a silently ignored
//! setting) and takes `#[serde(default)]`, so a file only has to name what it changes.
//! No struct here has a field that could hold a secret: credentials are named by
//! environment variable (`auth_env`) and read from the environment at the moment of use.

use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use serde::de::{DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The whole configuration. Every section is optional in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[server]`: the MCP HTTP endpoint.
    pub server: ServerConfig,
    /// `[console]`: the terminal UI.
    pub console: ConsoleConfig,
    /// `[profiles.<name>]`: the entities. Writing any profile replaces the built-in `default`
    /// profile: the file then defines the complete set.
    pub profiles: BTreeMap<String, Profile>,
    /// `[autonomy]`: per action kind, how much may happen without the operator.
    pub autonomy: AutonomyLadder,
    /// `[hard_bans]`: additions to the built-in bans (which cannot be switched off).
    pub hard_bans: HardBans,
    /// `[llm]`: providers and routing.
    pub llm: LlmConfig,
    /// `[sources]`: settings of the non-Graph sources.
    pub sources: SourcesConfig,
    /// `[copilot_extension]`: the legacy GitHub Copilot Extension webhook (off by default).
    pub copilot_extension: CopilotExtensionConfig,
    /// `[filing]`: which mail folder a message belongs in (`filing_suggestion`).
    pub filing: super::FilingConfig,
    /// `[operator]`: the operator's name and time zone.
    pub operator: super::OperatorConfig,
    /// `[drafting]`: the style drafts are written in.
    pub drafting: super::DraftingConfig,
    /// `[brief]`: sections, order and limits of the brief and the digest.
    pub brief: super::BriefConfig,
    /// `[drafts]`: time to live of pending drafts per action kind (`config/drafts_ttl.rs`).
    pub drafts: super::drafts_ttl::DraftsConfig,
    /// `[audit]`: retention (archiving old months) of the audit trail.
    pub audit: super::audit_retention::AuditConfig,
    /// `[vault]`: the folder of packaged tools served as `vault_<name>` (docs/ARCHITECTURE.md,
    /// "The tool vault").
    pub vault: VaultConfig,
    /// `[assistant]`: jobs run by themselves on arriving items (`config/assistant.rs`).
    pub assistant: super::AssistantConfig,
    /// `[attachments]`: limits of the attachment store (`config/attachments.rs`).
    pub attachments: super::attachments::AttachmentsConfig,
    /// `[classification]`: where items of unclear profile go (`config/classification.rs`).
    /// Absent: they get the source's default profile, as before the section existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classification: Option<super::ClassificationConfig>,
}

/// Name of the profile a configuration without `[profiles]` has.
pub const DEFAULT_PROFILE: &str = "default";

impl Default for Config {
    fn default() -> Self {
        let mut profiles = BTreeMap::new();
        profiles.insert(
            DEFAULT_PROFILE.to_owned(),
            Profile {
                sources: vec![SourceKind::Spool],
                ..Profile::default()
            },
        );
        Config {
            server: ServerConfig::default(),
            console: ConsoleConfig::default(),
            profiles,
            autonomy: AutonomyLadder::default(),
            hard_bans: HardBans::default(),
            llm: LlmConfig::default(),
            sources: SourcesConfig::default(),
            copilot_extension: CopilotExtensionConfig::default(),
            filing: Default::default(),
            operator: Default::default(),
            drafting: Default::default(),
            brief: Default::default(),
            drafts: Default::default(),
            audit: Default::default(),
            vault: VaultConfig::default(),
            assistant: Default::default(),
            attachments: Default::default(),
            classification: None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [server]

/// Default MCP HTTP port.
pub const DEFAULT_PORT: u16 = 48080;

/// `[server]`: where and how the MCP HTTP endpoint listens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Listen address. Local by default; anything but a loopback address also needs
    /// `allow_non_loopback = true`, so exposing the server is always a deliberate act.
    pub bind: SocketAddr,
    /// Must be `true` for a non-loopback `bind`.
    pub allow_non_loopback: bool,
    /// Origins accepted in addition to the loopback ones (`http://127.0.0.1:<port>`,
    /// `http://localhost:<port>`, …), each written `scheme://host[:port]`.
    #[schemars(example = &["https://opsdesk.example.internal"])]
    pub allowed_origins: Vec<String>,
    /// Largest accepted request body.
    pub max_body_bytes: usize,
    /// Token bucket: sustained requests per second …
    pub rate_limit_per_sec: u32,
    /// … and burst size.
    pub rate_limit_burst: u32,
    /// Time limit for one request.
    pub request_timeout_secs: u64,
    /// A connection must deliver a request's headers within this many seconds of connecting
    /// (or of its previous response ending), else it is closed: slow or idle connections hold
    /// no file descriptor for long, token or not.
    pub header_read_timeout_secs: u64,
    /// Most simultaneous HTTP connections; more are closed at once. Lowered at start when the
    /// process's file limit would leave the engine too few descriptors for its own work.
    pub max_connections: usize,
    /// Most live MCP sessions (legacy HTTP sessions); `initialize` beyond it gets 503.
    pub max_sessions: usize,
    /// A session with no request for this long is closed and its memory freed.
    pub session_idle_secs: u64,
    /// Failed token attempts allowed per peer address before it is refused with 429 for a while
    /// (the allowance refills at one attempt per second).
    pub auth_failures_burst: u32,
    /// `[server.operation_limits]`: lower rate limits per credential for expensive tools
    /// (model jobs, vault tools, briefs with polish), on top of the request rate limit.
    pub operation_limits: OperationLimits,
    /// `[server.clients.<name>]`: named MCP clients, each with its own bearer token. The name
    /// (not the client's self-declared `clientInfo.name`) is what cursors, rate limits,
    /// clearance and the audit use.
    pub clients: BTreeMap<String, McpClientConfig>,
    /// The named client a stdio connection (`opsdesk serve --stdio`) acts as; unset = the
    /// uncleared client `stdio`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"scribe")]
    pub stdio_client: Option<String>,
    /// Read-only mode for every client: only read tools are listed and callable (also
    /// `opsdesk serve --read-only` and `OPSDESK_READ_ONLY=1`). `mcp::scope` has the rules.
    pub read_only: bool,
    /// Only the tools of these toolsets (inbox, briefs, drafts, calendar, deals, triage,
    /// vault, admin) for every client; unset = all (`--toolsets` replaces it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &["inbox", "briefs"])]
    pub toolsets: Option<Vec<String>>,
    /// Only tools matching one of these patterns (`*` wildcard) for every client; unset = all
    /// (`--enabled-tools` replaces it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &["inbox_*", "vault_*"])]
    pub tools: Option<Vec<String>>,
}

/// `[server.clients.<name>]`: one MCP client and the credential bound to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpClientConfig {
    /// NAME of the environment variable holding this client's bearer token (at least 32
    /// characters). The token itself never goes into a config file.
    #[schemars(example = &"OPSDESK_TOKEN_SCRIBE")]
    pub token_env: String,
    /// May this client receive PHI of `requires_hipaa` profiles in clear? Default false: it
    /// gets the redacted view. Set true only for a client whose model runs under a BAA.
    #[serde(default)]
    pub hipaa_cleared: bool,
    /// This client gets only read tools, whatever the server allows.
    #[serde(default)]
    pub read_only: bool,
    /// This client gets only the tools of these toolsets (within the server's scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &["inbox", "drafts"])]
    pub toolsets: Option<Vec<String>>,
    /// This client gets only tools matching one of these patterns (within the server's scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &["inbox_*", "status"])]
    pub tools: Option<Vec<String>>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), DEFAULT_PORT),
            allow_non_loopback: false,
            allowed_origins: Vec::new(),
            max_body_bytes: 1024 * 1024,
            rate_limit_per_sec: 50,
            rate_limit_burst: 100,
            request_timeout_secs: 30,
            header_read_timeout_secs: 10,
            max_connections: 256,
            max_sessions: 128,
            session_idle_secs: 600,
            auth_failures_burst: 10,
            operation_limits: OperationLimits::default(),
            clients: BTreeMap::new(),
            stdio_client: None,
            read_only: false,
            toolsets: None,
            tools: None,
        }
    }
}

/// `[server.operation_limits]`: one token bucket per credential and kind of expensive call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct OperationLimits {
    /// `triage_classify`, `extraction_deadlines`, `draft_generate`, `filing_suggestion` when
    /// they may call a model.
    pub model_jobs: OperationLimit,
    /// `vault_<name>` tools (each call starts a process).
    pub vault_tools: OperationLimit,
    /// `morning_brief` / `eod_digest` with `polish: true` (a model call).
    pub polish: OperationLimit,
}

impl Default for OperationLimits {
    fn default() -> Self {
        OperationLimits {
            model_jobs: OperationLimit {
                per_minute: 20,
                burst: 5,
            },
            vault_tools: OperationLimit {
                per_minute: 60,
                burst: 10,
            },
            polish: OperationLimit {
                per_minute: 6,
                burst: 2,
            },
        }
    }
}

/// A sustained rate and a burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OperationLimit {
    /// Calls allowed per minute, sustained (per credential).
    #[schemars(example = 20)]
    pub per_minute: u32,
    /// Calls allowed at once before the per-minute rate applies.
    #[schemars(example = 5)]
    pub burst: u32,
}

// ---------------------------------------------------------------------------------------------
// [console]

/// `[console]`: the terminal UI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ConsoleConfig {
    /// Theme name: a built-in theme or `themes/<name>.toml`.
    pub theme: String,
    /// A keymap TOML file overriding the built-in keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"/home/me/.config/opsdesk/keymap.toml")]
    pub keymap: Option<PathBuf>,
}

impl Default for ConsoleConfig {
    fn default() -> Self {
        ConsoleConfig {
            theme: "dark".to_owned(),
            keymap: None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [profiles.<name>]

/// `[profiles.<name>]`: one entity (a job, a client, a practice) with its own sources and rules.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Profile {
    /// Human name shown in the console; the profile name is used when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Contoso")]
    pub display_name: Option<String>,
    /// Where this profile's inbound items come from.
    #[schemars(example = &["spool", "graph_mail"])]
    pub sources: Vec<SourceKind>,
    /// Redact PHI (names in `phi_names`, identifiers the redactor recognises) before any text
    /// of this profile leaves the process.
    pub phi_auto_redact: bool,
    /// Only HIPAA-cleared providers may receive this profile's text; with none available the
    /// call is blocked, never sent elsewhere.
    pub requires_hipaa: bool,
    /// Profiles whose data must never flow into this profile's actions (and vice versa: the
    /// relation is made symmetric when the config is loaded).
    #[schemars(example = &["clinic"])]
    pub never_mix_with: Vec<String>,
    /// Entity override of the LLM provider (between the per-job override and `llm.default`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"azure")]
    pub llm_provider: Option<String>,
    /// Microsoft Graph account of this profile (needed for the `graph_*` sources).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<GraphProfile>,
    /// The profile's own mail domains: a recipient outside them is "external".
    #[schemars(example = &["contoso.com"])]
    pub email_domains: Vec<String>,
    /// Names to redact as PHI (a roster of patients, clients, …).
    #[schemars(example = &["Jane Doe"])]
    pub phi_names: Vec<String>,
    /// Names never redacted: the practice itself and its staff ("Lakeside Clinic",
    /// "Priya Raman"; a staff entry also keeps "Dr. Raman"). Not PHI.
    #[schemars(example = &["Lakeside Clinic", "Priya Raman"])]
    pub phi_keep: Vec<String>,
    /// Also redact diagnoses and medical conditions (off by default: they are what a summary
    /// is usually about).
    pub redact_conditions: bool,
    /// The operator's own life (family, private mail) rather than a business entity: left out
    /// of the brief across entities (`profile: "all"`) unless `include_personal` asks for it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(example = true)]
    pub personal: bool,
    /// `[profiles.<name>.audience]`: what must not reach a recipient outside `email_domains`
    /// (`governance/audience.rs`).
    pub audience: AudienceConfig,
}

/// `[profiles.<name>.audience]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AudienceConfig {
    /// Labels, deal code names and phrases kept internal: a draft to an external recipient
    /// that contains one is refused (case and spacing ignored).
    #[schemars(example = &["Project Falcon", "margin floor"])]
    pub internal_only: Vec<String>,
    /// Refuse a draft to an external recipient that quotes a recent internal thread (mail
    /// from the profile's own domains). A chat message quoted back into the chat it came from
    /// is not refused: that chat's members read it there. Default true.
    pub internal_quotes: bool,
}

impl Default for AudienceConfig {
    fn default() -> Self {
        AudienceConfig {
            internal_only: Vec::new(),
            internal_quotes: true,
        }
    }
}

impl Profile {
    /// The name to show for this profile.
    pub fn display<'a>(&'a self, name: &'a str) -> &'a str {
        self.display_name.as_deref().unwrap_or(name)
    }

    /// Whether data of `other` must never flow into this profile (and back).
    pub fn must_not_mix_with(&self, other: &str) -> bool {
        self.never_mix_with.iter().any(|p| p == other)
    }

    /// Whether `address` (a mail address or a bare domain) lies outside this profile's own
    /// domains. With no `email_domains` configured every recipient counts as external, which
    /// is the cautious reading.
    pub fn is_external_address(&self, address: &str) -> bool {
        let domain = address
            .rsplit_once('@')
            .map_or(address, |(_, d)| d)
            .trim()
            .trim_end_matches('.')
            .to_ascii_lowercase();
        !self
            .email_domains
            .iter()
            .any(|own| domain == *own || domain.ends_with(&format!(".{own}")))
    }
}

/// A source of inbound items.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// Built-in generator of realistic traffic (`--demo`).
    Demo,
    /// A folder: drop `.json` or `.eml` files in.
    Spool,
    /// Microsoft Graph mail (delta query).
    GraphMail,
    /// Microsoft Graph Teams chats.
    GraphTeams,
    /// Microsoft Graph calendar (calendarView).
    GraphCalendar,
}

impl SourceKind {
    /// Every kind, in declaration order.
    pub const ALL: [SourceKind; 5] = [
        SourceKind::Demo,
        SourceKind::Spool,
        SourceKind::GraphMail,
        SourceKind::GraphTeams,
        SourceKind::GraphCalendar,
    ];

    /// The name used in the config file.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Demo => "demo",
            SourceKind::Spool => "spool",
            SourceKind::GraphMail => "graph_mail",
            SourceKind::GraphTeams => "graph_teams",
            SourceKind::GraphCalendar => "graph_calendar",
        }
    }

    /// Whether this source needs the profile's `[graph]` account.
    pub fn is_graph(self) -> bool {
        matches!(
            self,
            SourceKind::GraphMail | SourceKind::GraphTeams | SourceKind::GraphCalendar
        )
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// `[profiles.<name>.graph]`: the Microsoft Graph account of a profile. Sign-in is by device
/// code with a public client, so there is no client secret to configure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphProfile {
    /// `organizations`, `consumers`, `common`, a tenant GUID or a tenant domain.
    #[serde(default = "default_tenant")]
    pub tenant: String,
    /// The application (client) id of the app registration, a GUID.
    #[schemars(example = &"00000000-0000-0000-0000-000000000000")]
    pub client_id: String,
    /// IANA or Windows time zone for calendar views; the local zone when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Europe/Berlin")]
    pub time_zone: Option<String>,
    /// Poll interval for mail.
    #[serde(default = "default_mail_interval")]
    pub mail_interval_secs: u64,
    /// Poll interval for Teams chats.
    #[serde(default = "default_chat_interval")]
    pub chat_interval_secs: u64,
    /// Poll interval for the calendar.
    #[serde(default = "default_calendar_interval")]
    pub calendar_interval_secs: u64,
    /// Identity platform base (default `https://login.microsoftonline.com`). Plain http is
    /// accepted only for a loopback host: it exists so tests can point at a local fake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://login.microsoftonline.com")]
    pub authority_url: Option<String>,
    /// Graph API base (default `https://graph.microsoft.com/v1.0`); same rule as above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://graph.microsoft.com/v1.0")]
    pub base_url: Option<String>,
}

/// Where the Microsoft identity platform lives unless a profile says otherwise.
pub const DEFAULT_AUTHORITY_URL: &str = "https://login.microsoftonline.com";
/// Where Microsoft Graph lives unless a profile says otherwise.
pub const DEFAULT_GRAPH_URL: &str = "https://graph.microsoft.com/v1.0";

impl GraphProfile {
    /// The identity platform base URL, without a trailing slash.
    pub fn authority(&self) -> String {
        self.authority_url
            .as_deref()
            .unwrap_or(DEFAULT_AUTHORITY_URL)
            .trim_end_matches('/')
            .to_owned()
    }
    /// The Graph base URL, without a trailing slash.
    pub fn graph_base(&self) -> String {
        self.base_url
            .as_deref()
            .unwrap_or(DEFAULT_GRAPH_URL)
            .trim_end_matches('/')
            .to_owned()
    }
}

fn default_tenant() -> String {
    "organizations".to_owned()
}
fn default_mail_interval() -> u64 {
    60
}
fn default_chat_interval() -> u64 {
    5
}
fn default_calendar_interval() -> u64 {
    300
}

// ---------------------------------------------------------------------------------------------
// [autonomy]

/// How much of an action may happen without the operator.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum AutonomyLevel {
    /// Done at once, audited.
    Autonomous,
    /// Only a draft is made; the operator sends it.
    DraftOnly,
    /// Queued; executed once the operator approves.
    ApprovalRequired,
    /// Refused (for now; the operator may change the config).
    Blocked,
    /// Refused, and meant to stay so.
    Never,
}

impl AutonomyLevel {
    /// Every level, in declaration order.
    pub const ALL: [AutonomyLevel; 5] = [
        AutonomyLevel::Autonomous,
        AutonomyLevel::DraftOnly,
        AutonomyLevel::ApprovalRequired,
        AutonomyLevel::Blocked,
        AutonomyLevel::Never,
    ];

    /// The name used in the config file.
    pub fn as_str(self) -> &'static str {
        match self {
            AutonomyLevel::Autonomous => "autonomous",
            AutonomyLevel::DraftOnly => "draft_only",
            AutonomyLevel::ApprovalRequired => "approval_required",
            AutonomyLevel::Blocked => "blocked",
            AutonomyLevel::Never => "never",
        }
    }
}

impl fmt::Display for AutonomyLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The kinds of action the ladder governs.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Reading the inbox, mail, calendar.
    Read,
    /// Sending a new mail.
    SendEmail,
    /// Replying to a mail.
    ReplyEmail,
    /// Posting a chat message.
    PostChat,
    /// Creating a calendar event.
    CreateEvent,
    /// Moving mail between folders.
    MoveMail,
    /// Triage classification.
    Classify,
    /// Sending text to an LLM provider (always after the compliance filter and redaction).
    LlmCall,
    /// Creating a deal on a client's proposal (`deal_create`): the operator accepts it.
    CreateDeal,
}

impl ActionKind {
    /// Every kind, in declaration order.
    pub const ALL: [ActionKind; 9] = [
        ActionKind::Read,
        ActionKind::SendEmail,
        ActionKind::ReplyEmail,
        ActionKind::PostChat,
        ActionKind::CreateEvent,
        ActionKind::MoveMail,
        ActionKind::Classify,
        ActionKind::LlmCall,
        ActionKind::CreateDeal,
    ];

    /// The name used in the config file.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Read => "read",
            ActionKind::SendEmail => "send_email",
            ActionKind::ReplyEmail => "reply_email",
            ActionKind::PostChat => "post_chat",
            ActionKind::CreateEvent => "create_event",
            ActionKind::MoveMail => "move_mail",
            ActionKind::Classify => "classify",
            ActionKind::LlmCall => "llm_call",
            ActionKind::CreateDeal => "create_deal",
        }
    }

    /// Kinds that send something to other people, or act in the operator's name (a deal
    /// proposed by a client). These can never be `autonomous`: they need the operator.
    pub fn is_outbound(self) -> bool {
        matches!(
            self,
            ActionKind::SendEmail
                | ActionKind::ReplyEmail
                | ActionKind::PostChat
                | ActionKind::CreateEvent
                | ActionKind::CreateDeal
        )
    }

    /// The built-in level of this kind.
    pub fn default_level(self) -> AutonomyLevel {
        match self {
            ActionKind::Read | ActionKind::Classify | ActionKind::LlmCall => {
                AutonomyLevel::Autonomous
            }
            ActionKind::MoveMail => AutonomyLevel::ApprovalRequired,
            ActionKind::SendEmail
            | ActionKind::ReplyEmail
            | ActionKind::PostChat
            | ActionKind::CreateEvent
            | ActionKind::CreateDeal => AutonomyLevel::DraftOnly,
        }
    }
}

impl fmt::Display for ActionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// `[autonomy]`: `send_email = "draft_only"` and so on. Kinds the file does not name keep
/// their built-in level, so `levels` always holds every kind after loading.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "BTreeMap<ActionKind, AutonomyLevel>")]
pub struct AutonomyLadder {
    /// The level of each action kind.
    pub levels: BTreeMap<ActionKind, AutonomyLevel>,
}

impl AutonomyLadder {
    /// The level of `kind` (the built-in default if the map lacks it, which only happens for
    /// a ladder built in code).
    pub fn level(&self, kind: ActionKind) -> AutonomyLevel {
        self.levels
            .get(&kind)
            .copied()
            .unwrap_or_else(|| kind.default_level())
    }
}

impl Default for AutonomyLadder {
    fn default() -> Self {
        AutonomyLadder {
            levels: ActionKind::ALL
                .iter()
                .map(|k| (*k, k.default_level()))
                .collect(),
        }
    }
}

impl From<BTreeMap<ActionKind, AutonomyLevel>> for AutonomyLadder {
    fn from(overrides: BTreeMap<ActionKind, AutonomyLevel>) -> Self {
        let mut ladder = AutonomyLadder::default();
        ladder.levels.extend(overrides);
        ladder
    }
}

// By hand: the derived schema of a map with enum keys would not name the kinds. Each kind is
// a key of the flat `[autonomy]` table, described by its own doc comment.
impl schemars::JsonSchema for AutonomyLadder {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AutonomyLadder".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let kinds = <ActionKind as schemars::JsonSchema>::json_schema(generator);
        let level = generator.subschema_for::<AutonomyLevel>();
        let mut properties = serde_json::Map::new();
        for variant in kinds
            .get("oneOf")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let Some(name) = variant.get("const").and_then(|c| c.as_str()) else {
                continue;
            };
            let mut property = level.clone();
            if let Some(d) = variant.get("description") {
                property.insert("description".into(), d.clone());
            }
            properties.insert(name.to_owned(), property.to_value());
        }
        schemars::json_schema!({
            "description": "`[autonomy]`: `send_email = \"draft_only\"` and so on. Kinds the file does not name keep their built-in level.",
            "type": "object",
            "properties": properties,
            "additionalProperties": false
        })
    }
}

impl Serialize for AutonomyLadder {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Written as the flat `[autonomy]` table it is read from.
        self.levels.serialize(serializer)
    }
}

// ---------------------------------------------------------------------------------------------
// [hard_bans]

/// A ban that is always on. The config cannot relax these; it can only add to
/// [`HardBans`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltInBan {
    /// Stable rule id (used in block explanations and the audit).
    pub rule: &'static str,
    /// What it forbids.
    pub description: &'static str,
}

/// The bans that hold whatever the config says.
pub const BUILT_IN_HARD_BANS: [BuiltInBan; 3] = [
    BuiltInBan {
        rule: "external_send_without_approval",
        description: "nothing is sent to a recipient outside the profile's email_domains without the operator's approval",
    },
    BuiltInBan {
        rule: "entity_mixing",
        description: "data of one profile never flows into an action of a profile it must not mix with",
    },
    BuiltInBan {
        rule: "unredacted_phi_to_uncleared_provider",
        description: "text of a PHI profile never reaches a provider that is not hipaa_cleared, and never unredacted",
    },
];

/// `[hard_bans]`: additions to [`BUILT_IN_HARD_BANS`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct HardBans {
    /// Recipients in these domains (and their subdomains) are always refused.
    #[schemars(example = &["competitor.example"])]
    pub blocked_recipient_domains: Vec<String>,
    /// Outbound text or LLM output containing one of these phrases (case-insensitive) is refused.
    #[schemars(example = &["wire the funds today"])]
    pub blocked_phrases: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// [llm]

/// `[llm]`: providers and routing. Selection order: `jobs.<job>`, then the profile's
/// `llm_provider`, then `default`; the compliance filter applies to every hop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    /// Provider used when neither the job nor the profile names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"openai")]
    pub default: Option<String>,
    /// Per-job override: job name (`brief`, `triage`, `draft`, …) → provider name.
    #[schemars(example = serde_json::json!({"triage": "local", "draft": "openai"}))]
    pub jobs: BTreeMap<String, String>,
    /// `[llm.providers.<name>]`. The built-in `local` and `openai` entries (disabled) are
    /// always present; an entry of the same name in the file replaces the built-in one.
    #[serde(deserialize_with = "deserialize_providers")]
    #[schemars(with = "BTreeMap<String, ProviderConfig>")]
    pub providers: BTreeMap<String, ProviderConfig>,
    /// `[llm.budgets]`: prices and spending limits (`config/budgets.rs`).
    #[serde(skip_serializing_if = "super::budgets::BudgetsConfig::is_empty")]
    pub budgets: super::budgets::BudgetsConfig,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            default: None,
            jobs: BTreeMap::new(),
            providers: builtin_providers(),
            budgets: Default::default(),
        }
    }
}

/// The providers every configuration has (both disabled until the operator enables one).
pub fn builtin_providers() -> BTreeMap<String, ProviderConfig> {
    let mut providers = BTreeMap::new();
    for kind in [ProviderKind::Local, ProviderKind::Openai] {
        if let Ok(p) = RawProviderConfig::default().resolve(Some(kind.as_str())) {
            providers.insert(kind.as_str().to_owned(), p);
        }
    }
    providers
}

/// The kind of API a provider speaks.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// api.openai.com.
    Openai,
    /// An Azure OpenAI resource (deployment + api-version in the URL).
    AzureOpenai,
    /// GitHub Copilot's chat API.
    Copilot,
    /// Any OpenAI-compatible local server: Ollama, llama.cpp, vLLM.
    Local,
}

impl ProviderKind {
    /// Every kind, in declaration order.
    pub const ALL: [ProviderKind; 4] = [
        ProviderKind::Openai,
        ProviderKind::AzureOpenai,
        ProviderKind::Copilot,
        ProviderKind::Local,
    ];

    /// The name used in the config file.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::AzureOpenai => "azure_openai",
            ProviderKind::Copilot => "copilot",
            ProviderKind::Local => "local",
        }
    }

    /// The conventional environment variable holding this kind's credential; used as the
    /// default `auth_env` and in the advice given when a config holds a secret.
    pub fn conventional_env(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OPENAI_API_KEY",
            ProviderKind::AzureOpenai => "AZURE_OPENAI_API_KEY",
            ProviderKind::Copilot => "GITHUB_TOKEN",
            ProviderKind::Local => "LOCAL_LLM_API_KEY",
        }
    }

    /// The kind a provider named `name` has when its entry does not say: a provider may be
    /// named after its kind (`openai`, `azure`, `copilot`, `local`).
    pub fn from_provider_name(name: &str) -> Option<ProviderKind> {
        match name {
            "openai" => Some(ProviderKind::Openai),
            "azure" | "azure_openai" => Some(ProviderKind::AzureOpenai),
            "copilot" => Some(ProviderKind::Copilot),
            "local" | "ollama" => Some(ProviderKind::Local),
            _ => None,
        }
    }

    fn default_endpoint(self) -> Option<&'static str> {
        match self {
            ProviderKind::Openai => Some("https://api.openai.com/v1"),
            ProviderKind::AzureOpenai => None, // every resource has its own
            ProviderKind::Copilot => Some("https://api.githubcopilot.com"),
            ProviderKind::Local => Some("http://127.0.0.1:11434/v1"),
        }
    }

    fn default_auth_env(self) -> Option<&'static str> {
        match self {
            // A local server usually needs no key.
            ProviderKind::Local => None,
            other => Some(other.conventional_env()),
        }
    }

    fn default_model(self) -> Option<&'static str> {
        match self {
            ProviderKind::Openai => Some("gpt-4o-mini"),
            ProviderKind::AzureOpenai => None, // the deployment decides
            ProviderKind::Copilot => Some("gpt-4o"),
            ProviderKind::Local => Some("llama3.1"),
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Default Azure OpenAI REST api-version.
pub const DEFAULT_AZURE_API_VERSION: &str = "2024-10-21";

/// `[llm.providers.<name>]`. Fields a file leaves out take the defaults of the provider's
/// kind; `kind` itself may be left out when the provider is named after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "RawProviderConfig")]
pub struct ProviderConfig {
    /// The API it speaks.
    pub kind: ProviderKind,
    /// Disabled providers are never selected.
    pub enabled: bool,
    /// Base URL (`…/v1` for OpenAI-style APIs; the resource URL for Azure).
    pub endpoint: String,
    /// NAME of the environment variable holding the credential (never the credential).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth_env: Option<String>,
    /// Model name (for Azure: informational, the deployment decides).
    pub model: String,
    /// May receive text of profiles that require HIPAA (a BAA is in place).
    pub hipaa_cleared: bool,
    /// Time limit for a whole call.
    pub timeout_secs: u64,
    /// Time limit until the first streamed chunk.
    pub first_chunk_timeout_secs: u64,
    /// Azure only: REST api-version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Azure only: deployment name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deployment: Option<String>,
    /// Copilot only: where the GitHub token is exchanged for a Copilot API token (default
    /// GitHub's `copilot_internal/v2/token`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_endpoint: Option<String>,
}

impl ProviderConfig {
    /// Whether the credential variable is set (non-empty) in this process's environment.
    /// `None` when the provider names no variable.
    pub fn auth_env_is_set(&self) -> Option<bool> {
        self.auth_env
            .as_deref()
            .map(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
    }
}

/// What the file may say about a provider; [`RawProviderConfig::resolve`] fills the gaps.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawProviderConfig {
    /// The API it speaks. May be left out when the provider is named after its kind
    /// (`openai`, `azure` or `azure_openai`, `copilot`, `local` or `ollama`).
    #[schemars(example = &"local")]
    kind: Option<ProviderKind>,
    /// Disabled providers are never selected. Default false (also `opsdesk providers enable`).
    #[schemars(example = true)]
    enabled: Option<bool>,
    /// Base URL (`…/v1` for OpenAI-style APIs; the resource URL for Azure). Default by kind:
    /// openai `https://api.openai.com/v1`, copilot `https://api.githubcopilot.com`, local
    /// `http://127.0.0.1:11434/v1`; azure_openai has none and needs one.
    #[schemars(example = &"https://contoso.openai.azure.com")]
    endpoint: Option<String>,
    /// NAME of the environment variable holding the credential (never the credential).
    /// Default by kind: `OPENAI_API_KEY`, `AZURE_OPENAI_API_KEY`, `GITHUB_TOKEN`; none for local.
    #[schemars(example = &"OPENAI_API_KEY")]
    auth_env: Option<String>,
    /// Model name. Default by kind: openai `gpt-4o-mini`, copilot `gpt-4o`, local `llama3.1`;
    /// azure_openai: the deployment's name (informational, the deployment decides).
    #[schemars(example = &"gpt-4o-mini")]
    model: Option<String>,
    /// May receive text of profiles that require HIPAA (a BAA is in place). Default false.
    #[schemars(example = true)]
    hipaa_cleared: Option<bool>,
    /// Time limit for a whole call, seconds. Default 60.
    #[schemars(example = 60)]
    timeout_secs: Option<u64>,
    /// Time limit until the first streamed chunk, seconds. Default 20.
    #[schemars(example = 20)]
    first_chunk_timeout_secs: Option<u64>,
    /// Azure only: REST api-version (default `2024-10-21`).
    #[schemars(example = &"2024-10-21")]
    api_version: Option<String>,
    /// Azure only: deployment name (required for azure_openai).
    #[schemars(example = &"gpt-4o-prod")]
    deployment: Option<String>,
    /// Copilot only: where the GitHub token is exchanged for a Copilot API token (default
    /// GitHub's `copilot_internal/v2/token`).
    #[schemars(example = &"https://api.github.com/copilot_internal/v2/token")]
    token_endpoint: Option<String>,
}

const PROVIDER_KINDS_TEXT: &str = "openai, azure_openai, copilot, local";

impl RawProviderConfig {
    /// Fill in defaults of the kind. `name` is the provider's name in the file, if known.
    pub(crate) fn resolve(self, name: Option<&str>) -> Result<ProviderConfig, String> {
        let kind = match (self.kind, name.and_then(ProviderKind::from_provider_name)) {
            (Some(kind), _) | (None, Some(kind)) => kind,
            (None, None) => {
                return Err(format!(
                    "missing key `kind`; allowed values: {PROVIDER_KINDS_TEXT} (it may be left out only when the provider is named openai, azure, copilot or local)"
                ));
            }
        };
        let endpoint = match self.endpoint.or(kind.default_endpoint().map(str::to_owned)) {
            Some(e) => e,
            None => {
                return Err(
                    "missing key `endpoint`; an azure_openai provider needs its resource URL, e.g. \"https://<resource>.openai.azure.com\""
                        .to_owned(),
                );
            }
        };
        let model = match self
            .model
            .or_else(|| kind.default_model().map(str::to_owned))
            .or_else(|| self.deployment.clone())
        {
            Some(m) => m,
            None => {
                return Err(
                    "missing key `deployment`; an azure_openai provider needs the name of its model deployment"
                        .to_owned(),
                );
            }
        };
        let api_version = match kind {
            ProviderKind::AzureOpenai => self
                .api_version
                .or_else(|| Some(DEFAULT_AZURE_API_VERSION.to_owned())),
            _ => self.api_version,
        };
        Ok(ProviderConfig {
            kind,
            enabled: self.enabled.unwrap_or(false),
            endpoint,
            auth_env: self
                .auth_env
                .or_else(|| kind.default_auth_env().map(str::to_owned)),
            model,
            hipaa_cleared: self.hipaa_cleared.unwrap_or(false),
            timeout_secs: self.timeout_secs.unwrap_or(60),
            first_chunk_timeout_secs: self.first_chunk_timeout_secs.unwrap_or(20),
            api_version,
            deployment: self.deployment,
            token_endpoint: self.token_endpoint,
        })
    }
}

impl TryFrom<RawProviderConfig> for ProviderConfig {
    type Error = String;
    fn try_from(raw: RawProviderConfig) -> Result<Self, String> {
        raw.resolve(None)
    }
}

/// Reads `[llm.providers]`, resolving each entry with its name (so `kind` can be inferred)
/// inside the entry's own deserializer: an error then carries the entry's key path.
fn deserialize_providers<'de, D>(
    deserializer: D,
) -> Result<BTreeMap<String, ProviderConfig>, D::Error>
where
    D: Deserializer<'de>,
{
    struct ProvidersVisitor;

    struct NamedProvider<'a>(&'a str);

    impl<'de> DeserializeSeed<'de> for NamedProvider<'_> {
        type Value = ProviderConfig;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ProviderConfig, D::Error> {
            RawProviderConfig::deserialize(d)?
                .resolve(Some(self.0))
                .map_err(serde::de::Error::custom)
        }
    }

    impl<'de> Visitor<'de> for ProvidersVisitor {
        type Value = BTreeMap<String, ProviderConfig>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a table of providers")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut providers = builtin_providers();
            while let Some(name) = map.next_key::<String>()? {
                let provider = map.next_value_seed(NamedProvider(&name))?;
                providers.insert(name, provider);
            }
            Ok(providers)
        }
    }

    deserializer.deserialize_map(ProvidersVisitor)
}

// ---------------------------------------------------------------------------------------------
// [sources]

/// `[sources]`: settings of the non-Graph sources (Graph settings live in each profile).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SourcesConfig {
    /// `[sources.spool]`.
    pub spool: SpoolConfig,
    /// `[sources.demo]`.
    pub demo: DemoConfig,
}

/// `[sources.spool]`: the drop folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SpoolConfig {
    /// The folder; `<data dir>/spool` when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"/srv/opsdesk/spool")]
    pub dir: Option<PathBuf>,
    /// How often the folder is scanned.
    pub interval_secs: u64,
}

impl Default for SpoolConfig {
    fn default() -> Self {
        SpoolConfig {
            dir: None,
            interval_secs: 2,
        }
    }
}

/// `[sources.demo]`: the demo traffic generator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DemoConfig {
    /// Seconds between generated items.
    pub interval_secs: u64,
}

impl Default for DemoConfig {
    fn default() -> Self {
        DemoConfig { interval_secs: 4 }
    }
}

// ---------------------------------------------------------------------------------------------
// [copilot_extension]

/// Where GitHub publishes the keys that sign Copilot Extension requests.
pub const COPILOT_KEYS_URL: &str = "https://api.github.com/meta/public_keys/copilot_api";

/// `[copilot_extension]`: `POST /copilot/webhook` on the MCP server, for GitHub's (deprecated)
/// App-based Copilot Extensions. Off unless enabled; requests must carry GitHub's signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CopilotExtensionConfig {
    /// Serve `POST /copilot/webhook`. Default false: the route does not exist (404).
    pub enabled: bool,
    /// GitHub's published Copilot API public keys (`{"public_keys": [...]}`). https, or plain
    /// http to a loopback host (a test server).
    pub keys_url: String,
    /// The lifetime of a fetched key list: fetched again after half of it; a failed fetch
    /// keeps the last good list until its lifetime ends. A key GitHub no longer lists is
    /// refused from then on.
    pub keys_cache_secs: u64,
    /// An unknown key id fetches the list again at most once per this many seconds (so forged
    /// key ids cannot make opsdesk hammer GitHub).
    pub keys_refresh_min_secs: u64,
    /// GitHub logins allowed to use the webhook; required when enabled. GitHub signs the
    /// requests of every user of the app, so the signature says "from GitHub", not "from
    /// the operator": each request's user is looked up with its own token (`GET /user`).
    #[schemars(example = &["your-github-login"])]
    pub allowed_users: Vec<String>,
    /// GitHub's REST API, where `GET /user` names a request's user. https, or plain http to a
    /// loopback host (a test server).
    pub github_api_url: String,
}

/// GitHub's REST API.
pub const GITHUB_API_URL: &str = "https://api.github.com";

impl Default for CopilotExtensionConfig {
    fn default() -> Self {
        CopilotExtensionConfig {
            enabled: false,
            keys_url: COPILOT_KEYS_URL.to_string(),
            keys_cache_secs: 3600,
            keys_refresh_min_secs: 60,
            allowed_users: Vec::new(),
            github_api_url: GITHUB_API_URL.to_string(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [vault]

/// `[vault]`: where packaged tools live and the limits every tool call runs under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct VaultConfig {
    /// The tools folder; default `<config dir>/tools` (beside config.toml).
    #[schemars(example = &"/home/me/opsdesk-tools")]
    pub dir: Option<PathBuf>,
    /// Tool processes running at once; further calls wait for a slot.
    pub max_concurrent: usize,
    /// Most bytes a tool may write to stdout; more is an error and the tool is killed.
    pub max_output_bytes: usize,
    /// Most bytes of stderr kept (the rest is read and dropped).
    pub max_stderr_bytes: usize,
    /// Watch the folder and tell connected MCP clients when the tool list changes.
    pub watch: bool,
    /// Run tools that do not declare `needs_network` without a network (Linux: their own
    /// network namespace). `false` turns it off; `doctor` then says the network is not isolated.
    pub isolate_network: bool,
    /// What to do where the kernel refuses a layer of the tool sandbox (`vault/sandbox.rs`):
    /// `require` runs no tool; `best_effort` runs only read-only tools that may not see PHI.
    /// Absent: `require` when a profile requires HIPAA, else `best_effort`.
    #[schemars(example = &"require")]
    pub sandbox: Option<SandboxMode>,
    /// Extra folders tools may read (and execute from), beside the system ones: an
    /// interpreter installed under a home folder, say. Absolute paths; never the data dir,
    /// the config dir or the tools folder (those are refused by validation).
    #[schemars(example = &["/home/me/.pyenv"])]
    pub allow_read: Vec<PathBuf>,
    /// `[vault.limits]`: the resources a tool gets unless its manifest asks for less or more.
    pub limits: ToolLimits,
    /// `[vault.max_limits]`: the most a manifest's `[limits]` may ask for; more is a broken
    /// manifest.
    pub max_limits: ToolLimits,
}

/// `[vault] sandbox`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SandboxMode {
    Require,
    BestEffort,
}

impl SandboxMode {
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::Require => "require",
            SandboxMode::BestEffort => "best_effort",
        }
    }
}

impl VaultConfig {
    /// The mode in force: the configured one, else `require` when any profile requires HIPAA.
    pub fn sandbox_mode(&self, any_hipaa: bool) -> SandboxMode {
        self.sandbox.unwrap_or(if any_hipaa {
            SandboxMode::Require
        } else {
            SandboxMode::BestEffort
        })
    }
}

/// Resource limits of one tool call (rlimits of its processes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ToolLimits {
    /// Address space per process, MiB (JIT runtimes such as Node reserve a lot: raise it
    /// for them in their manifest).
    pub memory_mb: u64,
    /// Processes and threads the call may run at once (enforced inside the tool's own user
    /// namespace; the kernel does not count them for root).
    pub processes: u64,
    /// Open files per process.
    pub open_files: u64,
    /// Largest file a process may write, MiB.
    pub file_size_mb: u64,
    /// CPU seconds per process (SIGXCPU, then SIGKILL a second later).
    pub cpu_secs: u64,
}

impl Default for ToolLimits {
    fn default() -> Self {
        ToolLimits {
            memory_mb: 2048,
            processes: 64,
            open_files: 256,
            file_size_mb: 64,
            cpu_secs: 60,
        }
    }
}

impl ToolLimits {
    /// The operator's default caps (`[vault.max_limits]`).
    pub fn default_caps() -> ToolLimits {
        ToolLimits {
            memory_mb: 8192,
            processes: 512,
            open_files: 4096,
            file_size_mb: 1024,
            cpu_secs: 300,
        }
    }

    /// Each field, named, for messages and checks.
    pub fn fields(&self) -> [(&'static str, u64); 5] {
        [
            ("memory_mb", self.memory_mb),
            ("processes", self.processes),
            ("open_files", self.open_files),
            ("file_size_mb", self.file_size_mb),
            ("cpu_secs", self.cpu_secs),
        ]
    }
}

impl Default for VaultConfig {
    fn default() -> Self {
        VaultConfig {
            dir: None,
            max_concurrent: 4,
            max_output_bytes: 1024 * 1024,
            max_stderr_bytes: 16 * 1024,
            watch: true,
            isolate_network: true,
            sandbox: None,
            allow_read: Vec::new(),
            limits: ToolLimits::default(),
            max_limits: ToolLimits::default_caps(),
        }
    }
}
