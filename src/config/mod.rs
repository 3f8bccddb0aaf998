//! The TOML configuration: schema, built-in defaults, loading and validation.
//!
//! opsdesk runs with no config file at all ([`Config::default`]). A file only names what it
//! changes. Loading goes through four stages, each stopping at its own errors:
//!
//! 1. **syntax**: the TOML parser; errors carry line and column.
//! 2. **secrets**: a scan of the raw document that refuses credentials (by key name or by
//!    look) and says which environment variable to use instead. It runs before the schema so
//!    that `api_key = "…"` gets that advice rather than a bare "unknown key".
//! 3. **schema**: serde with `deny_unknown_fields`; errors carry the key path and the keys or
//!    values allowed there.
//! 4. **semantics** ([`validate`]): references between sections, names, ranges, governance
//!    rules; all problems are reported at once. Then normalisation (`never_mix_with` made
//!    symmetric, domains lower-cased).
//!
//! No error message or log line contains a secret value: there is no field that could hold
//! one, and error messages describe the kind of value found rather than echoing it.

mod assistant;
pub mod attachments;
pub(crate) mod audit_retention;
mod brief;
pub mod budgets;
mod classification;
pub(crate) mod drafts_ttl;
mod error;
mod filing;
mod operator;
pub mod reference;
mod schema;
mod secrets;
mod validate;
pub(crate) mod vault;

use std::io::ErrorKind;
use std::path::Path;

use toml::de::{DeTable, DeValue};

pub use assistant::AssistantConfig;
pub use brief::{BriefConfig, BriefSection};
pub use classification::{ClassificationConfig, ClassificationRule, Unmatched};
pub use error::{ConfigError, Location, Problem, ProblemKind};
pub use filing::{FilingConfig, FilingRule};
pub use operator::{DateOrder, DraftFormat, DraftingConfig, OperatorConfig, offset_in};
pub use schema::*;
/// The profile name that asks for the brief across every entity (`profile: "all"`), so no
/// profile may be called that.
pub(crate) const ALL_PROFILES: &str = "all";
/// Environment variable that, when set, is the default MCP client's token (and nothing is
/// written to disk).
pub(crate) const MCP_TOKEN_ENV: &str = "OPSDESK_TOKEN";
/// Name of an MCP stdio connection unless `server.stdio_client` names a configured client.
pub(crate) const STDIO_CLIENT: &str = "stdio";

pub use validate::{ConfigWarning, MAX_NAME_LEN, is_valid_env_name, is_valid_name};

use error::{KeyPath, Seg};

/// Largest config file accepted; a config is a few KiB, anything near this is a mistake.
pub(crate) const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The demo configuration's text (also the documented example config).
pub const DEMO_CONFIG_TOML: &str = include_str!("../../assets/demo-config.toml");

impl Config {
    /// Parses and validates a TOML string; `origin` is the file path used in messages.
    pub fn from_toml_str(text: &str, origin: &Path) -> Result<Config, ConfigError> {
        parse(text, Some(origin))
    }

    /// Loads a config file. A missing file is an error here; see [`Config::load_or_default`].
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::load_or_default(path, true)
    }

    /// Loads `path`, or returns the built-in defaults when the file does not exist and the
    /// path was not `explicit`ly given (`--config` / environment). Any other read failure is
    /// an error even then: an unreadable config fails closed instead of being skipped.
    pub fn load_or_default(path: &Path, explicit: bool) -> Result<Config, ConfigError> {
        let io_err = |kind: ProblemKind, message: String| {
            ConfigError::single(Some(path), kind, None, message)
        };
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound && !explicit => {
                return Ok(Config::default());
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Err(io_err(
                    ProblemKind::NotFound,
                    "config file not found; create it (`opsdesk config show` prints a complete one to start from) or leave out the explicit path to run on built-in defaults".to_owned(),
                ));
            }
            Err(e) => {
                return Err(io_err(
                    ProblemKind::Io,
                    format!("cannot read config file: {e}"),
                ));
            }
        };
        if meta.is_dir() {
            return Err(io_err(
                ProblemKind::Io,
                "is a directory; the config is a TOML file".to_owned(),
            ));
        }
        if meta.len() > MAX_CONFIG_BYTES {
            return Err(io_err(
                ProblemKind::Io,
                format!(
                    "config file is {} bytes; allowed: at most {MAX_CONFIG_BYTES}",
                    meta.len()
                ),
            ));
        }
        let bytes = std::fs::read(path)
            .map_err(|e| io_err(ProblemKind::Io, format!("cannot read config file: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            io_err(
                ProblemKind::Io,
                format!(
                    "config file is not UTF-8 (invalid byte at offset {}); save it as UTF-8",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        parse(&text, Some(path))
    }

    /// The two-entity demo configuration (`assets/demo-config.toml`), used by `--demo`.
    pub fn demo() -> Config {
        // The asset is part of the binary and covered by tests, so a failure here is a
        // build defect, not an input error.
        parse(
            DEMO_CONFIG_TOML,
            Some(Path::new("assets/demo-config.toml (built in)")),
        )
        .expect("the built-in demo config is valid")
    }

    /// Checks and normalises a configuration built in code (as loading does for a file).
    pub fn validate(mut self) -> Result<Config, ConfigError> {
        let findings = validate::validate(&mut self);
        if findings.is_empty() {
            Ok(self)
        } else {
            Err(findings_error(findings, None, None))
        }
    }

    /// Things that are legal but probably unintended (disabled default provider, HIPAA
    /// profile without a cleared provider, unset `auth_env`, …), for `config check`/`doctor`.
    pub fn warnings(&self) -> Vec<ConfigWarning> {
        validate::warnings(self)
    }

    /// The profile named `name`, or an error listing the valid names. `name` may come from
    /// a model's tool arguments, so it is escaped and shortened in the message.
    pub fn profile(&self, name: &str) -> Result<&Profile, ConfigError> {
        self.profiles.get(name).ok_or_else(|| {
            let shown: String = name.chars().take(MAX_NAME_LEN).collect();
            ConfigError::single(
                None,
                ProblemKind::UnknownProfile,
                Some("profile".to_owned()),
                format!(
                    "unknown profile \"{}\"; valid profiles: {}",
                    shown.escape_debug(),
                    self.profile_names().collect::<Vec<_>>().join(", ")
                ),
            )
        })
    }

    /// Profile names, sorted.
    pub fn profile_names(&self) -> impl Iterator<Item = &str> {
        self.profiles.keys().map(String::as_str)
    }

    /// The effective configuration as TOML, for `opsdesk config show`: every value,
    /// including defaults. No field can hold a secret, so none can be shown; `auth_env`
    /// lines carry a comment saying whether that variable is set. The output parses back
    /// into an equal `Config`.
    pub fn to_display_toml(&self) -> String {
        let body = match toml::to_string(self) {
            Ok(b) => b,
            // Every field is plain data, so this cannot happen; say so rather than panic.
            Err(e) => return format!("# the configuration could not be rendered: {e}\n"),
        };
        let mut out = String::with_capacity(body.len() + 1024);
        out.push_str(
            "# opsdesk effective configuration (built-in defaults + config file).\n\
             # Secrets are never part of it: credentials are read from the environment\n\
             # variables named by `auth_env`.\n\n",
        );
        for line in body.lines() {
            out.push_str(line);
            if let Some(rest) = line.strip_prefix("auth_env = ") {
                let name = rest.trim().trim_matches('"');
                let set = std::env::var_os(name).is_some_and(|v| !v.is_empty());
                out.push_str(if set {
                    "  # set in the environment"
                } else {
                    "  # NOT set in the environment"
                });
            }
            out.push('\n');
            if line == "[hard_bans]" {
                out.push_str("# Always on, not configurable:\n");
                for ban in BUILT_IN_HARD_BANS {
                    out.push_str(&format!("#   {}: {}\n", ban.rule, ban.description));
                }
            }
        }
        out
    }
}

/// The four loading stages (see the module docs).
fn parse(text: &str, origin: Option<&Path>) -> Result<Config, ConfigError> {
    // Some Windows editors save UTF-8 with a byte-order mark, which TOML does not allow.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // 1. syntax
    let doc = DeTable::parse(text).map_err(|e| {
        let location = e.span().map(|s| Location::of_offset(text, s.start));
        ConfigError::new(
            origin,
            vec![Problem {
                kind: ProblemKind::Syntax,
                key: None,
                // The parser's message describes the token, it does not quote the line, so a
                // secret on a broken line stays out of the message.
                message: format!("TOML syntax error: {}", e.message()),
                location,
            }],
        )
    })?;
    // 2. secrets
    let secrets = secrets::scan(doc.get_ref(), text);
    if !secrets.is_empty() {
        return Err(ConfigError::new(origin, secrets));
    }
    // 3. schema
    let de = toml::Deserializer::from(doc.clone());
    let mut config: Config = serde_path_to_error::deserialize(de)
        .map_err(|e| ConfigError::new(origin, vec![schema_problem(&e, doc.get_ref(), text)]))?;
    // 4. semantics
    let findings = validate::validate(&mut config);
    if !findings.is_empty() {
        return Err(findings_error(
            findings,
            origin,
            Some((doc.get_ref(), text)),
        ));
    }
    Ok(config)
}

fn findings_error(
    findings: Vec<validate::Finding>,
    origin: Option<&Path>,
    doc: Option<(&DeTable<'_>, &str)>,
) -> ConfigError {
    let problems = findings
        .into_iter()
        .map(|f| Problem {
            kind: f.kind,
            location: doc.and_then(|(d, text)| locate(d, &f.path, text)),
            key: Some(f.path.to_string()),
            message: f.message,
        })
        .collect();
    ConfigError::new(origin, problems)
}

/// Where `path` is written in the document: the key itself, or the array element. Falls
/// back to the nearest ancestor that is written (a value may come from a default).
fn locate(doc: &DeTable<'_>, path: &KeyPath, text: &str) -> Option<Location> {
    let mut table = doc;
    let mut array: Option<&[toml::Spanned<DeValue<'_>>]> = None;
    let mut found = None;
    for seg in &path.0 {
        match seg {
            Seg::Key(k) => {
                let (key, value) = table.iter().find(|(key, _)| key.get_ref() == k)?;
                found = Some(key.span().start);
                array = None;
                match value.get_ref() {
                    DeValue::Table(t) => table = t,
                    DeValue::Array(a) => array = Some(a),
                    _ => {}
                }
            }
            Seg::Index(i) => {
                let item = array.and_then(|a| a.get(*i));
                match item {
                    Some(item) => {
                        found = Some(item.span().start);
                        if let DeValue::Table(t) = item.get_ref() {
                            table = t;
                        }
                    }
                    None => break,
                }
                array = None;
            }
        }
    }
    found.map(|offset| Location::of_offset(text, offset))
}

/// The entry of the table at `path` whose key or value contains byte `offset`: its key, and
/// whether the offset is in the key (rather than the value).
fn entry_at(doc: &DeTable<'_>, path: &KeyPath, offset: usize) -> Option<(String, bool)> {
    let mut table = doc;
    for key in path.keys() {
        let (_, value) = table.iter().find(|(k, _)| k.get_ref() == key)?;
        match value.get_ref() {
            DeValue::Table(t) => table = t,
            _ => return None,
        }
    }
    table.iter().find_map(|(k, v)| {
        if k.span().contains(&offset) {
            Some((k.get_ref().to_string(), true))
        } else if v.span().contains(&offset) {
            Some((k.get_ref().to_string(), false))
        } else {
            None
        }
    })
}

/// Turns a serde error (with its path) into a problem that names the key path and what is
/// allowed there. serde's messages have a fixed shape (`unknown field `x`, expected one of
/// `a`, `b``), which is rewritten here; values are never echoed except enum variants and
/// field names, which are identifiers the user typed.
fn schema_problem(
    e: &serde_path_to_error::Error<toml::de::Error>,
    doc: &DeTable<'_>,
    text: &str,
) -> Problem {
    let inner = e.inner();
    let msg = inner.message();
    let span_start = inner.span().map(|s| s.start);
    let location = span_start.map(|s| Location::of_offset(text, s));
    let mut path = KeyPath::root();
    // Set when the error is about a map key rather than a value (`[autonomy] send_mail`).
    let mut at_key = false;
    for seg in e.path().iter() {
        match seg {
            serde_path_to_error::Segment::Map { key } => path = path.key(key),
            serde_path_to_error::Segment::Seq { index } => path = path.index(*index),
            serde_path_to_error::Segment::Enum { variant } => path = path.key(variant),
            // A map whose keys are not strings (the autonomy ladder): the path tracker does
            // not know the key, so find the entry from the error's position in the file.
            serde_path_to_error::Segment::Unknown => {
                match span_start.and_then(|offset| entry_at(doc, &path, offset)) {
                    Some((key, is_key)) => {
                        path = path.key(&key);
                        at_key = is_key;
                    }
                    None => at_key = true,
                }
            }
        }
    }
    let (kind, message) = if let Some(rest) = msg.strip_prefix("unknown field ") {
        let (field, expected) = split_quoted(rest);
        // serde_path_to_error already ends the path with the unknown key; be robust if not.
        if path.last_key() != Some(field.as_str()) {
            path = path.key(&field);
        }
        (
            ProblemKind::UnknownKey,
            unknown_key_message(&path, &field, &backticked(expected)),
        )
    } else if let Some(rest) = msg.strip_prefix("unknown variant ") {
        let (variant, expected) = split_quoted(rest);
        let allowed = backticked(expected);
        if at_key {
            // A map key that must be one of a fixed set (`[autonomy] send_mail = …`).
            if path.last_key() != Some(variant.as_str()) {
                path = path.key(&variant);
            }
            (
                ProblemKind::UnknownKey,
                unknown_key_message(&path, &variant, &allowed),
            )
        } else {
            (
                ProblemKind::InvalidValue,
                format!(
                    "`{path}` = \"{}\" is not allowed; allowed values: {}",
                    variant.escape_debug(),
                    allowed.join(", ")
                ),
            )
        }
    } else if let Some(rest) = msg.strip_prefix("invalid type: ") {
        let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
        (
            ProblemKind::WrongType,
            format!(
                "`{path}` has the wrong type: expected {}, found {}",
                describe_expected(expected),
                describe_found(found)
            ),
        )
    } else if let Some(rest) = msg.strip_prefix("invalid value: ") {
        let (_, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
        (
            ProblemKind::InvalidValue,
            format!(
                "`{path}` has an invalid value; allowed: {}",
                describe_expected(expected)
            ),
        )
    } else if let Some(rest) = msg.strip_prefix("missing field ") {
        let (field, _) = split_quoted(rest);
        path = path.key(&field);
        (
            ProblemKind::MissingKey,
            format!("missing key `{path}`; it is required here"),
        )
    } else if let Some(rest) = msg.strip_prefix("missing key ") {
        // Our own messages (provider resolution): "missing key `endpoint`; …".
        let (field, tail) = split_quoted(rest);
        let full = path.key(&field);
        (
            ProblemKind::MissingKey,
            format!("missing key `{full}`{tail}"),
        )
    } else if msg == "wanted string or table" {
        // toml's wording for a non-string where a name from a fixed set is expected.
        (
            ProblemKind::WrongType,
            format!("`{path}` has the wrong type: expected a string (one of the allowed names)"),
        )
    } else if msg == "invalid socket address syntax" {
        (
            ProblemKind::InvalidValue,
            format!(
                "`{path}` is not a socket address; allowed: \"IP:port\", e.g. \"127.0.0.1:{DEFAULT_PORT}\""
            ),
        )
    } else {
        (ProblemKind::InvalidValue, format!("`{path}`: {msg}"))
    };
    Problem {
        kind,
        key: Some(path.to_string()),
        message,
        location,
    }
}

fn unknown_key_message(path: &KeyPath, key: &str, allowed: &[String]) -> String {
    let mut m = format!("unknown key `{path}`");
    if let Some(best) = closest(key, allowed) {
        m.push_str(&format!(" (did you mean `{best}`?)"));
    }
    if allowed.is_empty() {
        m.push_str("; no keys are allowed here");
    } else {
        m.push_str(&format!("; allowed keys here: {}", allowed.join(", ")));
    }
    m
}

/// "`name`, rest" → ("name", ", rest").
fn split_quoted(s: &str) -> (String, &str) {
    let Some(after) = s.strip_prefix('`') else {
        return (String::new(), s);
    };
    match after.find('`') {
        Some(end) => (after[..end].to_owned(), &after[end + 1..]),
        None => (after.to_owned(), ""),
    }
}

/// Every `backticked` word in `s`.
fn backticked(s: &str) -> Vec<String> {
    s.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, w)| w.to_owned())
        .collect()
}

/// serde's "expected" phrase in the user's (TOML) terms.
fn describe_expected(expected: &str) -> String {
    let e = expected.trim();
    match e {
        "a boolean" => "a boolean (true or false)".to_owned(),
        "a string" => "a string".to_owned(),
        "a sequence" => "an array".to_owned(),
        "a map" | "a table of providers" => "a table".to_owned(),
        "u8" | "u16" | "u32" | "u64" | "usize" => {
            format!("a whole number from 0 to {}", int_max(e))
        }
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_owned(),
        "socket address" => "an address like \"127.0.0.1:48080\"".to_owned(),
        "path string" => "a file path".to_owned(),
        _ if e.starts_with("struct ") => "a table".to_owned(),
        _ if e.starts_with("enum ") => "a string".to_owned(),
        _ if e.starts_with("one of ") || e.starts_with('`') => {
            format!("one of {}", backticked(e).join(", "))
        }
        _ => e.to_owned(),
    }
}

fn int_max(t: &str) -> u64 {
    match t {
        "u8" => u64::from(u8::MAX),
        "u16" => u64::from(u16::MAX),
        "u32" => u64::from(u32::MAX),
        _ => u64::MAX,
    }
}

/// serde's "found" phrase without the value itself (which might be sensitive).
fn describe_found(found: &str) -> String {
    let word = found.split([' ', '`', '"']).next().unwrap_or_default();
    match word {
        "string" => "a string",
        "integer" => "an integer",
        "floating" => "a floating-point number",
        "boolean" => "a boolean",
        "map" => "a table",
        "sequence" => "an array",
        "char" => "a string",
        _ => "a value of another type",
    }
    .to_owned()
}

/// The allowed key nearest to `key`, if it is a plausible typo (edit distance ≤ 2, or one
/// contains the other).
fn closest(key: &str, allowed: &[String]) -> Option<String> {
    let key_l = key.to_ascii_lowercase();
    allowed
        .iter()
        .map(|a| (edit_distance(&key_l, a), a))
        .filter(|(d, a)| *d <= 2 || (key_l.len() >= 4 && a.contains(&key_l)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a.clone())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> &'static Path {
        Path::new("t.toml")
    }

    #[test]
    fn empty_text_is_the_default_config() {
        assert_eq!(Config::from_toml_str("", origin()), Ok(Config::default()));
    }

    #[test]
    fn the_demo_asset_parses() {
        let c = Config::demo();
        assert!(c.profiles.contains_key("work") && c.profiles.contains_key("clinic"));
    }

    #[test]
    fn a_byte_order_mark_is_tolerated() {
        let c = Config::from_toml_str("\u{feff}[console]\ntheme = \"light\"\n", origin());
        assert_eq!(c.map(|c| c.console.theme), Ok("light".to_owned()));
    }

    #[test]
    fn default_config_is_valid() {
        assert_eq!(Config::default().validate(), Ok(Config::default()));
    }

    #[test]
    fn typo_suggestions() {
        let allowed: Vec<String> = ["phi_auto_redact", "sources"].map(String::from).to_vec();
        assert_eq!(closest("source", &allowed).as_deref(), Some("sources"));
        assert_eq!(
            closest("redact", &allowed).as_deref(),
            Some("phi_auto_redact")
        );
        assert_eq!(closest("zzz", &allowed), None);
    }

    #[test]
    fn provider_kind_is_inferred_from_the_name_and_defaults_fill_in() {
        let c = Config::from_toml_str("[llm.providers.openai]\nenabled = true\n", origin());
        let c = c.unwrap_or_default();
        let p = &c.llm.providers["openai"];
        assert!(p.enabled);
        assert_eq!(p.kind, ProviderKind::Openai);
        assert_eq!(p.auth_env.as_deref(), Some("OPENAI_API_KEY"));
        assert_eq!(p.endpoint, "https://api.openai.com/v1");
        // the other built-in stays
        assert!(c.llm.providers.contains_key("local"));
    }

    #[test]
    fn a_provider_with_an_unknown_name_needs_a_kind() {
        let err = Config::from_toml_str("[llm.providers.mybox]\nmodel = \"x\"\n", origin())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("llm.providers.mybox.kind"), "{err}");
        assert!(err.contains("azure_openai"), "{err}");
    }

    #[test]
    fn locations_point_at_the_key() {
        let text = "[profiles.a]\nnever_mix_with = [\"a\"]\n";
        let e = Config::from_toml_str(text, origin()).err();
        let loc = e.as_ref().and_then(|e| e.problems()[0].location);
        assert_eq!(
            loc,
            Some(Location {
                line: 2,
                column: 19
            })
        );
    }
}
