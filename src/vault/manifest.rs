//! `tool.toml`: what a vault tool says about itself, checked before it is served.
//!
//! A manifest is data from the operator's disk, but it may have been copied from anywhere:
//! every field is checked, unknown keys are errors (a typo must not silently widen a tool's
//! rights), and the executable must stay inside the tool's own folder.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

pub(crate) use crate::config::vault::RequestedLimits;

/// Longest timeout a manifest may ask for.
pub const MAX_TIMEOUT_SECS: u64 = 300;
const DEFAULT_TIMEOUT_SECS: u64 = 10;

/// What a tool may do, and so the annotations it carries and what its commands may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VaultTier {
    /// Reads and answers; a result carrying commands is refused.
    ReadOnly,
    /// May propose commands, each of which becomes a pending draft (or is blocked).
    DraftOnly,
}

impl VaultTier {
    pub fn as_str(self) -> &'static str {
        match self {
            VaultTier::ReadOnly => "read_only",
            VaultTier::DraftOnly => "draft_only",
        }
    }
}

/// The raw file: every field the format knows.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    name: String,
    #[serde(default)]
    title: Option<String>,
    description: String,
    tier: String,
    /// The executable, relative to the tool's folder (default `run`).
    #[serde(default)]
    exec: Option<String>,
    #[serde(default)]
    timeout_secs: Option<u64>,
    /// Profiles the tool may act for and read from; empty or absent: every profile.
    #[serde(default)]
    profiles: Vec<String>,
    #[serde(default)]
    may_see_phi: bool,
    /// Whether the tool needs the network; without it the tool runs without one where the
    /// platform allows (`sandbox`).
    #[serde(default)]
    needs_network: bool,
    /// A JSON Schema: a TOML table, or a string holding JSON.
    input_schema: toml::Value,
    #[serde(default)]
    output_schema: Option<toml::Value>,
    /// Resources the tool asks for (rlimits), within the operator's `[vault.max_limits]`.
    #[serde(default)]
    limits: RequestedLimits,
}

/// A checked manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub name: String,
    pub title: String,
    pub description: String,
    pub tier: VaultTier,
    /// Absolute path of the executable (inside the tool's folder).
    pub exec: PathBuf,
    pub timeout_secs: u64,
    pub profiles: Vec<String>,
    pub may_see_phi: bool,
    pub needs_network: bool,
    pub input_schema: serde_json::Map<String, Value>,
    pub output_schema: Option<serde_json::Map<String, Value>>,
    /// `input_schema`, compiled: arguments are checked before the tool is started.
    pub input_check: super::schema::Compiled,
    /// `output_schema`, compiled: the output (less `commands`) is checked before any command
    /// is submitted.
    pub output_check: Option<super::schema::Compiled>,
    /// The manifest's `[limits]` (checked against the caps when the vault loads it).
    pub limits: RequestedLimits,
    /// The tool's folder (read-only to the tool in its sandbox).
    pub dir: PathBuf,
}

impl Manifest {
    /// The name it is served under over MCP.
    pub fn mcp_name(&self) -> String {
        format!("vault_{}", self.name)
    }

    /// Whether the tool may act for / read from `profile`.
    pub fn allows_profile(&self, profile: &str) -> bool {
        self.profiles.is_empty() || self.profiles.iter().any(|p| p == profile)
    }
}

/// Read and check `<tool dir>/tool.toml`. The error says what is wrong, in one line.
pub fn load(tool_dir: &Path) -> Result<Manifest, String> {
    trusted("the tool's folder", tool_dir, true)?;
    let file = tool_dir.join("tool.toml");
    trusted("tool.toml", &file, false)?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read tool.toml: {e}"))?;
    parse(tool_dir, &text)
}

/// ssh's StrictModes for what the vault runs: a folder or file that someone other than the
/// operator can change could run code as the operator. `path` must not be a symlink, must be
/// owned by the operator (or root) and must not be writable by group or others.
pub fn trusted(what: &str, path: &Path, dir: bool) -> Result<(), String> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let meta = std::fs::symlink_metadata(path).map_err(|e| format!("{what}: {e}"))?;
    if meta.file_type().is_symlink() {
        return Err(format!(
            "{what} is a symlink ({}): the vault runs only what its own folders hold; copy it in instead",
            path.display()
        ));
    }
    if dir != meta.is_dir() || (!dir && !meta.is_file()) {
        return Err(format!(
            "{what} is not a {}",
            if dir { "folder" } else { "regular file" }
        ));
    }
    // SAFETY: geteuid cannot fail and touches no memory.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me && meta.uid() != 0 {
        return Err(format!(
            "{what} is owned by uid {}, not by you (uid {me}) or root: another user could change what runs; chown it",
            meta.uid()
        ));
    }
    let mode = meta.permissions().mode();
    if mode & 0o022 != 0 {
        return Err(format!(
            "{what} is writable by group or others (mode {:o}): chmod go-w {}",
            mode & 0o777,
            path.display()
        ));
    }
    Ok(())
}

/// Check a manifest's text (`tool_dir` anchors the executable).
pub fn parse(tool_dir: &Path, text: &str) -> Result<Manifest, String> {
    let raw: RawManifest =
        toml::from_str(text).map_err(|e| format!("tool.toml: {}", one_line(&e.to_string())))?;
    if !valid_name(&raw.name) {
        return Err(format!(
            "name `{}` must be 1-48 characters of a-z, 0-9 and _, starting with a letter",
            crate::sanitize::one_line(&raw.name, 60)
        ));
    }
    let description = raw.description.trim().to_string();
    if description.is_empty() {
        return Err("description is empty: say what the tool does (clients show it)".into());
    }
    let tier = match raw.tier.as_str() {
        "read_only" => VaultTier::ReadOnly,
        "draft_only" => VaultTier::DraftOnly,
        "governance" => {
            return Err("tier `governance` is not supported: vault tools only read (`read_only`) or propose drafts (`draft_only`); decisions stay with the operator".into());
        }
        other => {
            return Err(format!(
                "tier `{}` is unknown: use `read_only` or `draft_only`",
                crate::sanitize::one_line(other, 40)
            ));
        }
    };
    let timeout_secs = raw.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS);
    if timeout_secs == 0 || timeout_secs > MAX_TIMEOUT_SECS {
        return Err(format!(
            "timeout_secs {timeout_secs} is out of range: 1 to {MAX_TIMEOUT_SECS}"
        ));
    }
    let exec_rel = raw.exec.unwrap_or_else(|| "run".to_string());
    let exec = executable(tool_dir, &exec_rel)?;
    let input_schema = schema("input_schema", raw.input_schema)?;
    if input_schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(
            "input_schema must have `type = \"object\"` (MCP tool arguments are an object)".into(),
        );
    }
    let output_schema = raw
        .output_schema
        .map(|s| schema("output_schema", s))
        .transpose()?;
    if let Some(o) = &output_schema
        && o.get("type").and_then(Value::as_str) != Some("object")
    {
        return Err(
            "output_schema must have `type = \"object\"` (MCP structured content is an object)"
                .into(),
        );
    }
    let input_check = super::schema::Compiled::new("input_schema", &input_schema)?;
    let output_check = output_schema
        .as_ref()
        .map(|o| super::schema::Compiled::new("output_schema", o))
        .transpose()?;
    Ok(Manifest {
        title: raw
            .title
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| raw.name.clone()),
        name: raw.name,
        description,
        tier,
        exec,
        timeout_secs,
        profiles: raw.profiles,
        may_see_phi: raw.may_see_phi,
        needs_network: raw.needs_network,
        input_schema,
        output_schema,
        input_check,
        output_check,
        limits: raw.limits,
        dir: std::fs::canonicalize(tool_dir).map_err(|e| format!("tool folder: {e}"))?,
    })
}

fn valid_name(n: &str) -> bool {
    (1..=48).contains(&n.len())
        && n.starts_with(|c: char| c.is_ascii_lowercase())
        && n.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The executable: a plain relative path inside the tool's folder, present and executable.
fn executable(tool_dir: &Path, rel: &str) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let p = Path::new(rel);
    if rel.is_empty()
        || p.is_absolute()
        || p.components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(format!(
            "exec `{}` must be a path inside the tool's folder (no `..`, not absolute)",
            crate::sanitize::one_line(rel, 80)
        ));
    }
    let full = tool_dir.join(p);
    // A symlink pointing out of the folder would run something the folder does not hold.
    let real = std::fs::canonicalize(&full).map_err(|e| format!("exec `{rel}`: {e}"))?;
    let dir = std::fs::canonicalize(tool_dir).map_err(|e| format!("tool folder: {e}"))?;
    if !real.starts_with(&dir) {
        return Err(format!("exec `{rel}` points outside the tool's folder"));
    }
    // Anyone else who can write the folder or the program could run code as the operator.
    trusted("the tool's folder", &dir, true)?;
    trusted("exec", &real, false)?;
    let meta = std::fs::metadata(&real).map_err(|e| format!("exec `{rel}`: {e}"))?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return Err(format!(
            "exec `{rel}` is not an executable file (chmod +x it)"
        ));
    }
    Ok(real)
}

fn schema(field: &str, v: toml::Value) -> Result<serde_json::Map<String, Value>, String> {
    let json = match v {
        toml::Value::String(s) => serde_json::from_str::<Value>(&s)
            .map_err(|e| format!("{field} is not valid JSON: {e}"))?,
        other => serde_json::to_value(other).map_err(|e| format!("{field}: {e}"))?,
    };
    match json {
        Value::Object(m) => Ok(m),
        _ => Err(format!("{field} must be a JSON Schema object")),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn tool_dir() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let run = d.path().join("run");
        std::fs::write(&run, "#!/bin/sh\necho '{}'\n").unwrap();
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
        d
    }

    const GOOD: &str = r#"
name = "echo"
description = "Echo"
tier = "read_only"
input_schema = { type = "object", properties = { text = { type = "string" } } }
"#;

    #[test]
    fn a_good_manifest_loads_with_defaults() {
        let d = tool_dir();
        let m = parse(d.path(), GOOD).unwrap();
        assert_eq!(m.mcp_name(), "vault_echo");
        assert_eq!(m.timeout_secs, DEFAULT_TIMEOUT_SECS);
        assert!(!m.may_see_phi);
        assert!(m.allows_profile("any"));
        assert_eq!(m.input_schema["type"], "object");
    }

    #[test]
    fn a_json_string_schema_is_accepted() {
        let d = tool_dir();
        let text = GOOD.replace(
            "input_schema = { type = \"object\", properties = { text = { type = \"string\" } } }",
            "input_schema = '{\"type\": \"object\"}'",
        );
        assert!(parse(d.path(), &text).is_ok());
    }

    #[test]
    fn broken_manifests_say_what_is_wrong() {
        let d = tool_dir();
        let cases = [
            (GOOD.replace("\"echo\"", "\"Echo Tool\""), "name"),
            (GOOD.replace("read_only", "governance"), "not supported"),
            (GOOD.replace("read_only", "admin"), "unknown"),
            (GOOD.replace("\"object\"", "\"string\""), "type"),
            (format!("{GOOD}timeout_secs = 0\n"), "timeout_secs"),
            (format!("{GOOD}exec = \"../x\"\n"), "inside"),
            (format!("{GOOD}exec = \"missing\"\n"), "missing"),
            (format!("{GOOD}sudo = true\n"), "sudo"),
            ("name = \"x\"".to_string(), "missing field"),
            (
                GOOD.replace("type = \"string\"", "type = \"text\""),
                "input_schema is not a valid JSON Schema (at `/properties/text/type`)",
            ),
        ];
        for (text, needle) in cases {
            let e = parse(d.path(), &text).unwrap_err();
            assert!(e.contains(needle), "{needle:?} not in {e:?}");
        }
    }

    #[test]
    fn a_program_others_can_write_is_refused() {
        let d = tool_dir();
        std::fs::set_permissions(d.path().join("run"), std::fs::Permissions::from_mode(0o777))
            .unwrap();
        assert!(parse(d.path(), GOOD).unwrap_err().contains("chmod go-w"));
    }

    #[test]
    fn a_non_executable_file_is_refused() {
        let d = tool_dir();
        std::fs::set_permissions(d.path().join("run"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        assert!(parse(d.path(), GOOD).unwrap_err().contains("chmod +x"));
    }
}
