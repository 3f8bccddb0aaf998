//! Semantic validation and normalisation of a [`Config`] that already has the right shape:
//! references between sections, names, ranges, and the governance rules a file may not break.
//! Every finding is collected (not just the first) so one `opsdesk config check` shows them all.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;

use super::error::{KeyPath, ProblemKind};
use super::schema::{
    ActionKind, AutonomyLevel, Config, GraphProfile, LlmConfig, Profile, ProviderKind, SourceKind,
};

/// One semantic problem, before it is given a file location.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub(crate) kind: ProblemKind,
    pub(crate) path: KeyPath,
    pub(crate) message: String,
}

/// Something legal but probably not what the operator wants; shown by `config check` and
/// `doctor`, never fatal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    /// Key path the warning is about.
    pub key: String,
    /// What is odd and what it means.
    pub message: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.key, self.message)
    }
}

/// Longest profile / provider / job name.
pub const MAX_NAME_LEN: usize = 64;

/// Whether `name` is a valid profile, provider or job name: 1–64 characters of
/// `a-z 0-9 _ -`. These names end up in file names, audit records and MCP arguments, so they
/// are kept to characters that are safe in all three.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

const NAME_RULE: &str = "1 to 64 characters, each a-z, 0-9, `_` or `-`";

/// Whether `name` is a valid environment variable name (`^[A-Z_][A-Z0-9_]*$`).
pub fn is_valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Checks `config` and normalises it in place: domains lower-cased, lists de-duplicated,
/// `never_mix_with` made symmetric. Returns every problem found.
pub(crate) fn validate(config: &mut Config) -> Vec<Finding> {
    let mut v = Validator::default();
    v.server(config);
    v.console(config);
    v.profiles(config);
    v.autonomy(config);
    v.hard_bans(config);
    v.llm(config);
    let mut extra = super::budgets::problems(config);
    extra.extend(super::drafts_ttl::problems(&config.drafts));
    extra.extend(super::assistant::problems(&config.assistant));
    extra.extend(super::audit_retention::problems(&config.audit));
    extra.extend(super::vault::problems(&config.vault));
    extra.extend(super::vault::operation_limit_problems(
        &config.server.operation_limits,
    ));
    for (keys, message) in extra {
        let keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
        v.invalid(KeyPath::of(&keys), message);
    }
    v.sources(config);
    v.copilot_extension(config);
    v.operator_filing_brief(config);
    v.classification(config);
    if v.findings.is_empty() {
        make_never_mix_symmetric(config);
    }
    v.findings
}

#[derive(Default)]
struct Validator {
    findings: Vec<Finding>,
}

impl Validator {
    /// `[operator]`, `[filing]`, `[brief]`, `[drafting]` (deals, filing and moves).
    fn operator_filing_brief(&mut self, c: &Config) {
        if let Some(tz) = &c.operator.time_zone
            && jiff::tz::TimeZone::get(tz).is_err()
        {
            let path = KeyPath::of(&["operator", "time_zone"]);
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` = \"{}\" is not an IANA time zone; allowed: a name like \"America/Chicago\" or \"Europe/Amsterdam\"",
                    tz.escape_debug()
                ),
            );
        }
        // The house style goes into the draft job's prompt: bounded, one paragraph each.
        let d = &c.drafting;
        for (key, value, max) in [
            ("tone", Some(d.tone.as_str()), 200),
            ("language", d.language.as_deref(), 64),
            ("style", d.style.as_deref(), 1000),
        ] {
            if let Some(v) = value
                && (v.chars().count() > max || v.chars().any(char::is_control))
            {
                let path = KeyPath::of(&["drafting", key]);
                self.invalid(
                    path.clone(),
                    format!("`{path}` must be at most {max} characters on one line (it is given to the draft job's model)"),
                );
            }
        }
        let profile_names: Vec<String> = c.profiles.keys().cloned().collect();
        let folder_ok = |f: &str| {
            !f.trim().is_empty() && f.chars().count() <= 255 && !f.chars().any(char::is_control)
        };
        for (i, f) in c.filing.folders.iter().enumerate() {
            if !folder_ok(f) {
                let path = KeyPath::of(&["filing", "folders"]).index(i);
                self.invalid(
                    path.clone(),
                    format!("`{path}` must name a folder (1-255 characters, no control characters), e.g. \"Travel\""),
                );
            }
        }
        for (i, r) in c.filing.rules.iter().enumerate() {
            let p = KeyPath::of(&["filing", "rules"]).index(i);
            if !folder_ok(&r.folder) {
                let path = p.key("folder");
                self.invalid(
                    path.clone(),
                    format!("`{path}` must name a folder (1-255 characters, no control characters), e.g. \"Deals/Sunrise\" or \"archive\""),
                );
            }
            if r.senders.is_empty() && r.domains.is_empty() && r.keywords.is_empty() {
                self.invalid(
                    p.clone(),
                    format!("`{p}` matches nothing; give it senders, domains or keywords"),
                );
            }
            for (j, prof) in r.profiles.iter().enumerate() {
                if !profile_names.contains(prof) {
                    let path = p.key("profiles").index(j);
                    self.push(
                        ProblemKind::UnknownReference,
                        path.clone(),
                        format!(
                            "`{path}` = \"{}\" is not a profile; allowed: {}",
                            prof.escape_debug(),
                            list(&profile_names)
                        ),
                    );
                }
            }
        }
        if let Some(f) = &c.filing.deal_folder
            && !folder_ok(f)
        {
            let path = KeyPath::of(&["filing", "deal_folder"]);
            self.invalid(
                path.clone(),
                format!("`{path}` must name a folder, e.g. \"Deals/{{deal}}\""),
            );
        }
        let sections = &c.brief.sections;
        let path = KeyPath::of(&["brief", "sections"]);
        if sections.is_empty() {
            self.invalid(
                path.clone(),
                format!("`{path}` is empty; list at least one of unread, decided, meetings, drafts, deadlines, decisions, deals"),
            );
        }
        for (i, s) in sections.iter().enumerate() {
            if sections[..i].contains(s) {
                self.invalid(
                    path.index(i),
                    format!("`{path}` lists {} twice", format!("{s:?}").to_lowercase()),
                );
            }
        }
    }

    /// `[classification]`: rules name configured profiles (findings name the rule's index).
    fn classification(&mut self, c: &Config) {
        let Some(cl) = &c.classification else {
            return;
        };
        let names: Vec<String> = c.profiles.keys().cloned().collect();
        for (i, key, message) in super::classification::problems(cl, &names) {
            let rule = KeyPath::of(&["classification", "rules"]).index(i);
            let path = key.map_or(rule.clone(), |k| rule.key(k));
            let kind = if key == Some("profile") {
                ProblemKind::UnknownReference
            } else {
                ProblemKind::InvalidValue
            };
            self.push(kind, path, message);
        }
    }

    fn push(&mut self, kind: ProblemKind, path: KeyPath, message: String) {
        self.findings.push(Finding {
            kind,
            path,
            message,
        });
    }

    fn invalid(&mut self, path: KeyPath, message: String) {
        self.push(ProblemKind::InvalidValue, path, message);
    }

    fn range(&mut self, path: KeyPath, value: u64, min: u64, max: u64, unit: &str) {
        if value < min || value > max {
            self.invalid(
                path.clone(),
                format!("`{path}` is {value}; allowed: {min} to {max} {unit}"),
            );
        }
    }

    fn server(&mut self, c: &Config) {
        let s = &c.server;
        let base = KeyPath::of(&["server"]);
        if !s.bind.ip().is_loopback() && !s.allow_non_loopback {
            self.push(
                ProblemKind::Forbidden,
                base.key("bind"),
                format!(
                    "`server.bind` = \"{}\" is not a loopback address, so the MCP server would be reachable from other machines; set `allow_non_loopback = true` in [server] if that is really wanted, or use 127.0.0.1",
                    s.bind
                ),
            );
        }
        for (i, origin) in s.allowed_origins.iter().enumerate() {
            let path = base.key("allowed_origins").index(i);
            if let Err(why) = check_origin(origin) {
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}` is not an origin: {why}; allowed: `scheme://host[:port]` with scheme http or https, no path (e.g. \"https://vscode.dev\")"
                    ),
                );
            }
        }
        self.range(
            base.key("max_body_bytes"),
            s.max_body_bytes as u64,
            1024,
            64 * 1024 * 1024,
            "bytes (1 KiB to 64 MiB)",
        );
        self.range(
            base.key("rate_limit_per_sec"),
            u64::from(s.rate_limit_per_sec),
            1,
            1_000_000,
            "requests per second",
        );
        self.range(
            base.key("rate_limit_burst"),
            u64::from(s.rate_limit_burst),
            1,
            1_000_000,
            "requests",
        );
        self.range(
            base.key("request_timeout_secs"),
            s.request_timeout_secs,
            1,
            3600,
            "seconds",
        );
        self.range(
            base.key("header_read_timeout_secs"),
            s.header_read_timeout_secs,
            1,
            600,
            "seconds",
        );
        self.range(
            base.key("max_connections"),
            s.max_connections as u64,
            4,
            1_000_000,
            "connections",
        );
        self.range(
            base.key("max_sessions"),
            s.max_sessions as u64,
            1,
            1_000_000,
            "sessions",
        );
        self.range(
            base.key("session_idle_secs"),
            s.session_idle_secs,
            10,
            86_400,
            "seconds",
        );
        self.range(
            base.key("auth_failures_burst"),
            u64::from(s.auth_failures_burst),
            1,
            10_000,
            "attempts",
        );
        let mut envs: BTreeMap<&str, &str> = BTreeMap::new();
        for (name, client) in &s.clients {
            let path = base.key("clients").key(name);
            if !is_valid_name(name) || name == "default" || name == "stdio" {
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}`: `{name}` is not a usable client name; allowed: {NAME_RULE}, and not `default` or `stdio` (those name the built-in clients)"
                    ),
                );
            }
            let env = client.token_env.trim();
            let env_ok = !env.is_empty()
                && env.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !env.as_bytes()[0].is_ascii_digit();
            if !env_ok {
                let p = path.key("token_env");
                self.invalid(
                    p.clone(),
                    format!(
                        "`{p}` must be the NAME of an environment variable (letters, digits, `_`), e.g. \"OPSDESK_TOKEN_{}\"; `opsdesk mcp-config <client> --new-client {name}` makes one",
                        name.to_ascii_uppercase().replace('-', "_")
                    ),
                );
            } else if env == super::MCP_TOKEN_ENV {
                let p = path.key("token_env");
                self.invalid(
                    p.clone(),
                    format!(
                        "`{p}` = \"{env}\" is the default client's token; give `{name}` its own variable"
                    ),
                );
            } else if let Some(other) = envs.insert(env, name) {
                let p = path.key("token_env");
                self.invalid(
                    p.clone(),
                    format!(
                        "`{p}` = \"{env}\" is also the token of client `{other}`: one credential names one client"
                    ),
                );
            }
        }
        if let Some(stdio) = &s.stdio_client
            && !s.clients.contains_key(stdio)
        {
            let p = base.key("stdio_client");
            self.invalid(
                p.clone(),
                format!(
                    "`{p}` = \"{stdio}\" is not a configured client; allowed: {}",
                    if s.clients.is_empty() {
                        "none configured (add [server.clients.<name>])".to_string()
                    } else {
                        s.clients.keys().cloned().collect::<Vec<_>>().join(", ")
                    }
                ),
            );
        }
    }

    fn console(&mut self, c: &Config) {
        if !is_valid_name(&c.console.theme) {
            let path = KeyPath::of(&["console", "theme"]);
            self.invalid(
                path.clone(),
                format!("`{path}` is not a theme name; allowed: {NAME_RULE}"),
            );
        }
        if c.console
            .keymap
            .as_ref()
            .is_some_and(|p| p.as_os_str().is_empty())
        {
            let path = KeyPath::of(&["console", "keymap"]);
            self.invalid(
                path.clone(),
                format!("`{path}` is empty; give a file path or leave the key out"),
            );
        }
    }

    fn profiles(&mut self, c: &mut Config) {
        let base = KeyPath::of(&["profiles"]);
        if c.profiles.is_empty() {
            self.invalid(
                base.clone(),
                "`profiles` is empty; define at least one [profiles.<name>] or leave the section out to get the built-in `default` profile".to_owned(),
            );
        }
        let profile_names: Vec<String> = c.profiles.keys().cloned().collect();
        for (name, profile) in c.profiles.iter_mut() {
            self.profile(name, profile, &profile_names, &c.llm);
        }
    }

    /// One `[profiles.<name>]`: its name, sources and boundaries, then its provider, Graph
    /// account and PHI lists.
    fn profile(
        &mut self,
        name: &str,
        profile: &mut Profile,
        profile_names: &[String],
        llm: &LlmConfig,
    ) {
        let p = KeyPath::of(&["profiles"]).key(name);
        let listed = list(profile_names);
        if !is_valid_name(name) {
            self.invalid(
                p.clone(),
                format!(
                    "`{p}`: the profile name \"{}\" is not allowed; profile names are {NAME_RULE}",
                    name.escape_debug()
                ),
            );
        }
        // Reserved names are matched ignoring case, as MCP arguments match `all`.
        if name.eq_ignore_ascii_case(super::ALL_PROFILES) {
            self.invalid(
                p.clone(),
                format!(
                    "`{p}`: the profile name \"{name}\" is reserved (`profile: \"all\"` asks for the brief across every entity); rename the profile"
                ),
            );
        }
        if name.eq_ignore_ascii_case(crate::domain::UNASSIGNED) {
            self.push(
                ProblemKind::Forbidden,
                p.clone(),
                format!(
                    "`{p}`: \"{}\" is reserved for items whose profile is unclear and that no [classification] rule placed; name the profile differently",
                    crate::domain::UNASSIGNED
                ),
            );
        }
        if let Some(d) = &profile.display_name
            && (d.trim().is_empty() || d.chars().any(char::is_control) || d.chars().count() > 100)
        {
            let path = p.key("display_name");
            self.invalid(
                path.clone(),
                format!("`{path}` must be 1 to 100 characters with no control characters"),
            );
        }
        dedup(&mut profile.sources);
        if let Some(src) = profile.sources.iter().find(|s| s.is_graph())
            && profile.graph.is_none()
        {
            let path = p.key("sources");
            self.push(
                ProblemKind::MissingKey,
                path.clone(),
                format!(
                    "`{path}` lists {src}, which needs the profile's Microsoft Graph account: add [{}.graph] with `client_id` (and `tenant`)",
                    p
                ),
            );
        }
        dedup(&mut profile.never_mix_with);
        for (i, other) in profile.never_mix_with.iter().enumerate() {
            let path = p.key("never_mix_with").index(i);
            if other == name {
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}` names the profile itself; a profile cannot be kept apart from itself. Allowed: the other profiles ({})",
                        list_except(profile_names, name)
                    ),
                );
            } else if !profile_names.contains(other) {
                self.push(
                    ProblemKind::UnknownReference,
                    path.clone(),
                    format!(
                        "`{path}` = \"{}\" is not a profile; allowed: {listed}",
                        other.escape_debug()
                    ),
                );
            }
        }
        self.profile_llm_provider(&p, name, profile, llm);
        if let Some(g) = &profile.graph {
            self.profile_graph(&p.key("graph"), g);
        }
        self.profile_lists(&p, profile);
    }

    /// `llm_provider`: a configured provider, HIPAA-cleared when the profile requires it.
    fn profile_llm_provider(
        &mut self,
        p: &KeyPath,
        name: &str,
        profile: &Profile,
        llm: &LlmConfig,
    ) {
        if let Some(provider) = &profile.llm_provider {
            let path = p.key("llm_provider");
            match llm.providers.get(provider) {
                None => self.push(
                    ProblemKind::UnknownReference,
                    path.clone(),
                    format!(
                        "`{path}` = \"{}\" is not a provider; allowed: {}",
                        provider.escape_debug(),
                        list(llm.providers.keys())
                    ),
                ),
                Some(pc) if profile.requires_hipaa && !pc.hipaa_cleared => self.push(
                    ProblemKind::Forbidden,
                    path.clone(),
                    format!(
                        "`{path}` = \"{provider}\" but profile `{name}` requires HIPAA and provider `{provider}` is not `hipaa_cleared`; allowed: a cleared provider ({}), or set `hipaa_cleared = true` on a provider whose BAA covers it",
                        or_none(list(
                            llm
                                .providers
                                .iter()
                                .filter(|(_, pc)| pc.hipaa_cleared)
                                .map(|(n, _)| n)
                        ))
                    ),
                ),
                Some(_) => {}
            }
        }
    }

    /// `[profiles.<name>.graph]`: tenant, client id, time zone, intervals and service URLs.
    fn profile_graph(&mut self, gp: &KeyPath, g: &GraphProfile) {
        if !is_valid_tenant(&g.tenant) {
            let path = gp.key("tenant");
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` is not a tenant; allowed: organizations, consumers, common, a tenant id (GUID) or a tenant domain such as contoso.onmicrosoft.com"
                ),
            );
        }
        if !is_guid(&g.client_id) {
            let path = gp.key("client_id");
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` is not an application (client) id; allowed: a GUID like 00000000-0000-0000-0000-000000000000 from the app registration"
                ),
            );
        }
        if g.time_zone
            .as_ref()
            .is_some_and(|tz| tz.trim().is_empty() || tz.chars().any(char::is_control))
        {
            let path = gp.key("time_zone");
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` is empty; give an IANA or Windows time zone name or leave the key out"
                ),
            );
        }
        self.range(
            gp.key("mail_interval_secs"),
            g.mail_interval_secs,
            1,
            86_400,
            "seconds",
        );
        self.range(
            gp.key("chat_interval_secs"),
            g.chat_interval_secs,
            1,
            86_400,
            "seconds",
        );
        self.range(
            gp.key("calendar_interval_secs"),
            g.calendar_interval_secs,
            1,
            86_400,
            "seconds",
        );
        for (key, url) in [
            ("authority_url", &g.authority_url),
            ("base_url", &g.base_url),
        ] {
            if let Some(url) = url
                && let Err(why) = check_service_url(url)
            {
                let path = gp.key(key);
                self.invalid(path.clone(), format!("`{path}` {why}"));
            }
        }
    }

    /// The mail domains and the PHI name lists: trimmed, checked and deduplicated in place.
    fn profile_lists(&mut self, p: &KeyPath, profile: &mut Profile) {
        for (i, d) in profile.email_domains.iter_mut().enumerate() {
            let path = p.key("email_domains").index(i);
            self.domain(path, d);
        }
        dedup(&mut profile.email_domains);
        for (i, n) in profile.phi_names.iter_mut().enumerate() {
            let trimmed = n.trim();
            if trimmed.is_empty() || trimmed.chars().any(char::is_control) {
                let path = p.key("phi_names").index(i);
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}` is empty or has control characters; allowed: a name to redact"
                    ),
                );
            } else if trimmed.len() != n.len() {
                *n = trimmed.to_owned();
            }
        }
        dedup(&mut profile.phi_names);
        for (i, n) in profile.phi_keep.iter_mut().enumerate() {
            let trimmed = n.trim();
            if trimmed.is_empty() || trimmed.chars().any(char::is_control) {
                let path = p.key("phi_keep").index(i);
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}` is empty or has control characters; allowed: a staff or organisation name never to redact"
                    ),
                );
            } else if trimmed.len() != n.len() {
                *n = trimmed.to_owned();
            }
        }
        dedup(&mut profile.phi_keep);
    }

    /// Checks a mail domain and lower-cases it in place.
    fn domain(&mut self, path: KeyPath, domain: &mut String) {
        let d = domain.trim().trim_end_matches('.').to_ascii_lowercase();
        let ok = d.contains('.')
            && d.len() <= 253
            && d.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            });
        if ok {
            *domain = d;
        } else {
            let hint = if d.contains('@') {
                " (give the domain only, without the part before `@`)"
            } else {
                ""
            };
            self.invalid(
                path.clone(),
                format!("`{path}` is not a mail domain{hint}; allowed: a domain name like \"contoso.com\""),
            );
        }
    }

    fn autonomy(&mut self, c: &Config) {
        for kind in ActionKind::ALL {
            if kind.is_outbound() && c.autonomy.level(kind) == AutonomyLevel::Autonomous {
                let path = KeyPath::of(&["autonomy", kind.as_str()]);
                self.push(
                    ProblemKind::Forbidden,
                    path.clone(),
                    format!(
                        "`{path}` cannot be \"autonomous\": sending needs the operator; allowed: draft_only, approval_required, blocked, never"
                    ),
                );
            }
        }
    }

    fn hard_bans(&mut self, c: &mut Config) {
        let base = KeyPath::of(&["hard_bans"]);
        for (i, d) in c.hard_bans.blocked_recipient_domains.iter_mut().enumerate() {
            self.domain(base.key("blocked_recipient_domains").index(i), d);
        }
        dedup(&mut c.hard_bans.blocked_recipient_domains);
        for (i, phrase) in c.hard_bans.blocked_phrases.iter().enumerate() {
            if phrase.trim().is_empty() {
                let path = base.key("blocked_phrases").index(i);
                self.invalid(
                    path.clone(),
                    format!("`{path}` is empty; an empty phrase would match everything"),
                );
            }
        }
        dedup(&mut c.hard_bans.blocked_phrases);
    }

    fn llm(&mut self, c: &Config) {
        let base = KeyPath::of(&["llm"]);
        let names = list(c.llm.providers.keys());
        if let Some(d) = &c.llm.default
            && !c.llm.providers.contains_key(d)
        {
            let path = base.key("default");
            self.push(
                ProblemKind::UnknownReference,
                path.clone(),
                format!(
                    "`{path}` = \"{}\" is not a provider; allowed: {names}",
                    d.escape_debug()
                ),
            );
        }
        for (job, provider) in &c.llm.jobs {
            let path = base.key("jobs").key(job);
            if !is_valid_name(job) {
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}`: the job name \"{}\" is not allowed; job names are {NAME_RULE}",
                        job.escape_debug()
                    ),
                );
            }
            if !c.llm.providers.contains_key(provider) {
                self.push(
                    ProblemKind::UnknownReference,
                    path.clone(),
                    format!(
                        "`{path}` = \"{}\" is not a provider; allowed: {names}",
                        provider.escape_debug()
                    ),
                );
            }
        }
        for (name, p) in &c.llm.providers {
            let pp = base.key("providers").key(name);
            if !is_valid_name(name) {
                self.invalid(
                    pp.clone(),
                    format!(
                        "`{pp}`: the provider name \"{}\" is not allowed; provider names are {NAME_RULE}",
                        name.escape_debug()
                    ),
                );
            }
            if let Err(why) = check_endpoint(&p.endpoint, p.kind) {
                let path = pp.key("endpoint");
                self.invalid(path.clone(), format!("`{path}` {why}"));
            }
            if let Some(env) = &p.auth_env
                && !is_valid_env_name(env)
            {
                let path = pp.key("auth_env");
                self.invalid(
                    path.clone(),
                    format!(
                        "`{path}` is not an environment variable name; allowed: upper-case letters, digits and `_`, not starting with a digit (e.g. \"{}\")",
                        p.kind.conventional_env()
                    ),
                );
            }
            if p.model.trim().is_empty() || p.model.chars().any(char::is_control) {
                let path = pp.key("model");
                self.invalid(
                    path.clone(),
                    format!("`{path}` is empty; allowed: a model name"),
                );
            }
            self.range(pp.key("timeout_secs"), p.timeout_secs, 1, 3600, "seconds");
            self.range(
                pp.key("first_chunk_timeout_secs"),
                p.first_chunk_timeout_secs,
                1,
                p.timeout_secs.clamp(1, 3600),
                "seconds (at most `timeout_secs`)",
            );
            self.token_endpoint(&pp, p);
            match p.kind {
                ProviderKind::AzureOpenai => {
                    if p.deployment
                        .as_deref()
                        .is_none_or(|d| !is_deployment_name(d))
                    {
                        let path = pp.key("deployment");
                        self.push(
                            ProblemKind::MissingKey,
                            path.clone(),
                            format!("`{path}` is missing or empty; an azure_openai provider needs the name of its model deployment (letters, digits, `_`, `-`, `.`)"),
                        );
                    }
                    // "v1" selects Azure's version-less v1 API (`/openai/v1/chat/completions`).
                    if p.api_version
                        .as_deref()
                        .is_some_and(|v| v != "v1" && !is_api_version(v))
                    {
                        let path = pp.key("api_version");
                        self.invalid(
                            path.clone(),
                            format!("`{path}` is not an api-version; allowed: a date like \"2024-10-21\", optionally with a suffix like \"-preview\", or \"v1\""),
                        );
                    }
                }
                other => {
                    for (key, set) in [
                        ("deployment", p.deployment.is_some()),
                        ("api_version", p.api_version.is_some()),
                    ] {
                        if set {
                            let path = pp.key(key);
                            self.invalid(
                                path.clone(),
                                format!("`{path}` applies only to kind azure_openai, and this provider is {other}; remove it"),
                            );
                        }
                    }
                }
            }
        }
    }

    /// `token_endpoint` is Copilot's token-exchange URL: only that kind has one, and it carries
    /// the GitHub token, so it follows the endpoint rules (https, or http to loopback).
    fn token_endpoint(&mut self, pp: &KeyPath, p: &crate::config::ProviderConfig) {
        let Some(url) = &p.token_endpoint else {
            return;
        };
        let path = pp.key("token_endpoint");
        if p.kind != ProviderKind::Copilot {
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` applies only to kind copilot, and this provider is {}; remove it",
                    p.kind
                ),
            );
        } else if let Err(why) = check_endpoint(url, ProviderKind::Copilot) {
            self.invalid(path.clone(), format!("`{path}` {why}"));
        }
    }

    fn sources(&mut self, c: &Config) {
        let base = KeyPath::of(&["sources"]);
        self.range(
            base.key("spool").key("interval_secs"),
            c.sources.spool.interval_secs,
            1,
            86_400,
            "seconds",
        );
        if c.sources
            .spool
            .dir
            .as_ref()
            .is_some_and(|d| d.as_os_str().is_empty())
        {
            let path = base.key("spool").key("dir");
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` is empty; give a folder or leave the key out for <data dir>/spool"
                ),
            );
        }
        self.range(
            base.key("demo").key("interval_secs"),
            c.sources.demo.interval_secs,
            1,
            86_400,
            "seconds",
        );
    }
}

impl Validator {
    fn copilot_extension(&mut self, c: &Config) {
        let x = &c.copilot_extension;
        let base = KeyPath::of(&["copilot_extension"]);
        if let Err(why) = check_service_url(&x.keys_url) {
            let path = base.key("keys_url");
            self.invalid(path.clone(), format!("`{path}` {why}"));
        }
        if let Err(why) = check_service_url(&x.github_api_url) {
            let path = base.key("github_api_url");
            self.invalid(path.clone(), format!("`{path}` {why}"));
        }
        if x.enabled && x.allowed_users.iter().all(|u| u.trim().is_empty()) {
            let path = base.key("allowed_users");
            self.invalid(
                path.clone(),
                format!(
                    "`{path}` is required when the webhook is enabled: GitHub signs requests from every user of the app, so list the GitHub logins that may use it, e.g. allowed_users = [\"your-login\"]"
                ),
            );
        }
        self.range(
            base.key("keys_cache_secs"),
            x.keys_cache_secs,
            0,
            86_400,
            "seconds",
        );
        self.range(
            base.key("keys_refresh_min_secs"),
            x.keys_refresh_min_secs,
            0,
            86_400,
            "seconds",
        );
    }
}

/// If A must not mix with B, B must not mix with A: add the missing reverse entries.
fn make_never_mix_symmetric(c: &mut Config) {
    let pairs: Vec<(String, String)> = c
        .profiles
        .iter()
        .flat_map(|(a, p)| p.never_mix_with.iter().map(move |b| (b.clone(), a.clone())))
        .collect();
    for (b, a) in pairs {
        if let Some(pb) = c.profiles.get_mut(&b)
            && !pb.never_mix_with.contains(&a)
        {
            pb.never_mix_with.push(a);
        }
    }
}

/// Warnings about a valid config (see [`ConfigWarning`]).
pub(crate) fn warnings(c: &Config) -> Vec<ConfigWarning> {
    let mut out = Vec::new();
    let mut warn = |key: String, message: String| out.push(ConfigWarning { key, message });
    let cleared_enabled: Vec<&String> = c
        .llm
        .providers
        .iter()
        .filter(|(_, p)| p.enabled && p.hipaa_cleared)
        .map(|(n, _)| n)
        .collect();
    let mut domain_owner: std::collections::BTreeMap<&str, &str> = Default::default();
    for (name, p) in &c.profiles {
        let key = format!("profiles.{name}");
        if p.sources.is_empty() {
            warn(
                format!("{key}.sources"),
                "no sources: nothing will arrive in this profile's inbox".to_owned(),
            );
        }
        if p.requires_hipaa && !p.phi_auto_redact {
            warn(
                format!("{key}.phi_auto_redact"),
                "the profile requires HIPAA but PHI is not redacted automatically; consider `phi_auto_redact = true`".to_owned(),
            );
        }
        if p.requires_hipaa && cleared_enabled.is_empty() {
            warn(
                format!("{key}.requires_hipaa"),
                "no enabled provider is `hipaa_cleared`, so every LLM job of this profile will be blocked".to_owned(),
            );
        }
        if p.graph.is_some() && !p.sources.iter().any(|s| s.is_graph()) {
            warn(
                format!("{key}.graph"),
                format!(
                    "a Graph account is configured but no Graph source is listed ({}, {}, {})",
                    SourceKind::GraphMail,
                    SourceKind::GraphTeams,
                    SourceKind::GraphCalendar
                ),
            );
        }
        for d in &p.email_domains {
            if let Some(other) = domain_owner.insert(d, name) {
                warn(
                    format!("{key}.email_domains"),
                    format!("domain {d} also belongs to profile `{other}`"),
                );
            }
        }
    }
    if let Some(d) = &c.llm.default
        && c.llm.providers.get(d).is_some_and(|p| !p.enabled)
    {
        warn(
            "llm.default".to_owned(),
            format!("the default provider `{d}` is disabled"),
        );
    }
    for (job, provider) in &c.llm.jobs {
        if c.llm.providers.get(provider).is_some_and(|p| !p.enabled) {
            warn(
                format!("llm.jobs.{job}"),
                format!(
                    "provider `{provider}` is disabled, so the job falls back to the profile's or the default provider"
                ),
            );
        }
    }
    for (name, p) in &c.llm.providers {
        if p.enabled && p.auth_env_is_set() == Some(false) {
            warn(
                format!("llm.providers.{name}.auth_env"),
                format!(
                    "the provider is enabled but {} is not set in the environment",
                    p.auth_env.as_deref().unwrap_or_default()
                ),
            );
        }
    }
    for (name, p) in &c.llm.providers {
        // A `local` provider may use plain http (a server the operator runs); once it is
        // cleared for PHI, text of HIPAA profiles crosses the network unencrypted.
        if p.kind == ProviderKind::Local
            && p.hipaa_cleared
            && let Some((scheme, host, _)) = split_url(&p.endpoint)
            && scheme.eq_ignore_ascii_case("http")
            && !is_loopback_host(host_only(host))
        {
            warn(
                format!("llm.providers.{name}.endpoint"),
                format!(
                    "the provider is marked hipaa_cleared but is reached over plain http on {}, which is not this machine: PHI would cross the network unencrypted; use https (a TLS proxy in front of the server) or a loopback address",
                    host_only(host)
                ),
            );
        }
    }
    if !c.llm.providers.values().any(|p| p.enabled) {
        warn(
            "llm.providers".to_owned(),
            "no provider is enabled: LLM jobs (briefs, drafts, triage) are unavailable".to_owned(),
        );
    }
    out
}

fn dedup<T: PartialEq + Clone>(items: &mut Vec<T>) {
    let mut seen: Vec<T> = Vec::with_capacity(items.len());
    items.retain(|x| {
        if seen.contains(x) {
            false
        } else {
            seen.push(x.clone());
            true
        }
    });
}

fn list<I, S>(items: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    items
        .into_iter()
        .map(|s| s.as_ref().to_owned())
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_except(items: &[String], except: &str) -> String {
    or_none(list(items.iter().filter(|s| *s != except)))
}

fn or_none(s: String) -> String {
    if s.is_empty() { "(none)".to_owned() } else { s }
}

/// A service base URL: https anywhere, plain http only on a loopback host (a local fake in
/// tests; tokens must never cross a network in clear text), no credentials, query or fragment.
fn check_service_url(url: &str) -> Result<(), String> {
    let allowed = "allowed: https://host[/path], or http://127.0.0.1:<port>[/path] / http://localhost:<port>[/path] for a local test server";
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("is not a URL; {allowed}"))?;
    let authority = rest.split('/').next().unwrap_or("");
    if authority.is_empty() || authority.contains('@') || rest.contains(['?', '#', ' ']) {
        return Err(format!("is not a plain base URL; {allowed}"));
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    match scheme {
        "https" => Ok(()),
        "http" => {
            let loopback = host.eq_ignore_ascii_case("localhost")
                || host
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback());
            if loopback {
                Ok(())
            } else {
                Err(format!(
                    "uses plain http for a non-loopback host; {allowed}"
                ))
            }
        }
        _ => Err(format!("has scheme `{scheme}`; {allowed}")),
    }
}

fn is_guid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()))
}

fn is_valid_tenant(t: &str) -> bool {
    matches!(t, "organizations" | "consumers" | "common")
        || is_guid(t)
        || (t.contains('.')
            && t.split('.')
                .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')))
}

fn is_deployment_name(d: &str) -> bool {
    !d.is_empty()
        && d.len() <= 64
        && d.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

fn is_api_version(v: &str) -> bool {
    let (date, suffix) = v.split_at(v.len().min(10));
    let b = date.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
        && (suffix.is_empty()
            || (suffix.starts_with('-') && suffix[1..].chars().all(|c| c.is_ascii_alphanumeric())))
}

/// The host part of `scheme://host[:port]…`, and the rest after the authority.
fn split_url(url: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    Some((scheme, host, &rest[end..]))
}

/// The host without the port (IPv6 brackets removed).
fn host_only(host_port: &str) -> &str {
    if let Some(rest) = host_port.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    host_port.split(':').next().unwrap_or(host_port)
}

fn is_loopback_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn check_origin(origin: &str) -> Result<(), &'static str> {
    if origin == "*" || origin.contains('*') {
        return Err("wildcards are not allowed: every extra origin is named");
    }
    let (scheme, host, rest) = split_url(origin).ok_or("it has no `scheme://`")?;
    if scheme != "http" && scheme != "https" {
        return Err("the scheme must be http or https");
    }
    if host_only(host).is_empty() {
        return Err("the host is missing");
    }
    if !rest.is_empty() {
        return Err("an origin has no path, query or trailing `/`");
    }
    if origin.contains('@') {
        return Err("an origin has no user part");
    }
    Ok(())
}

fn check_endpoint(endpoint: &str, kind: ProviderKind) -> Result<(), String> {
    let allowed =
        "allowed: an https:// URL (http:// only for a loopback address or a `local` provider)";
    let Some((scheme, host, _)) = split_url(endpoint) else {
        return Err(format!("is not a URL; {allowed}"));
    };
    let host = host_only(host);
    if host.is_empty()
        || endpoint
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(format!("is not a URL; {allowed}"));
    }
    match scheme {
        "https" => Ok(()),
        // Plain http would carry prompts (and the API key) readable on the network; that is
        // acceptable only on this machine or for a self-hosted server the operator chose.
        "http" if is_loopback_host(host) || kind == ProviderKind::Local => Ok(()),
        "http" => Err(format!(
            "uses plain http to a remote {kind} server, which would send text and credentials unencrypted; {allowed}"
        )),
        _ => Err(format!("has scheme `{}`; {allowed}", scheme.escape_debug())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_valid_name("clinic"));
        assert!(is_valid_name("work-2_x"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("Work"));
        assert!(!is_valid_name("a b"));
        assert!(!is_valid_name("../x"));
        assert!(!is_valid_name(&"a".repeat(65)));
    }

    /// MCP matches `profile: "all"` ignoring case, so a profile spelled `All` could never be
    /// reached: the reservation is told whatever the case (also for `unassigned`).
    #[test]
    fn reserved_profile_names_are_refused_in_any_case() {
        for name in ["all", "All", "ALL", "unassigned", "Unassigned"] {
            let text = format!("[profiles.{name}]\nsources = [\"spool\"]\n");
            let e = crate::config::Config::from_toml_str(&text, std::path::Path::new("t.toml"))
                .expect_err(name)
                .to_string();
            assert!(e.contains("is reserved"), "{name}: {e}");
        }
    }

    #[test]
    fn env_names() {
        assert!(is_valid_env_name("OPENAI_API_KEY"));
        assert!(is_valid_env_name("_X1"));
        assert!(!is_valid_env_name("1X"));
        assert!(!is_valid_env_name("openai_api_key"));
        assert!(!is_valid_env_name(""));
    }

    #[test]
    fn origins() {
        assert!(check_origin("https://vscode.dev").is_ok());
        assert!(check_origin("http://localhost:3000").is_ok());
        assert!(check_origin("*").is_err());
        assert!(check_origin("https://vscode.dev/").is_err());
        assert!(check_origin("vscode.dev").is_err());
        assert!(check_origin("ftp://x").is_err());
    }

    #[test]
    fn endpoints() {
        use ProviderKind::*;
        assert!(check_endpoint("https://api.openai.com/v1", Openai).is_ok());
        assert!(check_endpoint("http://127.0.0.1:9999/v1", Openai).is_ok());
        assert!(check_endpoint("http://[::1]:9999/v1", Openai).is_ok());
        assert!(check_endpoint("http://gpu-box.lan:11434/v1", Local).is_ok());
        assert!(check_endpoint("http://api.openai.com/v1", Openai).is_err());
        assert!(check_endpoint("api.openai.com", Openai).is_err());
        assert!(check_endpoint("file:///etc/passwd", Local).is_err());
    }

    #[test]
    fn guids_tenants_versions() {
        assert!(is_guid("3fa85f64-5717-4562-b3fc-2c963f66afa6"));
        assert!(!is_guid("3fa85f64-5717-4562-b3fc-2c963f66afa"));
        assert!(is_valid_tenant("organizations"));
        assert!(is_valid_tenant("contoso.onmicrosoft.com"));
        assert!(!is_valid_tenant("not a tenant"));
        assert!(is_api_version("2024-10-21"));
        assert!(is_api_version("2025-01-01-preview"));
        assert!(!is_api_version("v1"));
    }
}
