//! `[vault]` checks: the sandbox's limits and the extra folders tools may read.
//!
//! ```toml
//! [vault]
//! sandbox = "require"            # or "best_effort"; default: require with a HIPAA profile
//! allow_read = ["/home/me/.pyenv"]
//!
//! [vault.limits]                 # what a tool gets unless its manifest says otherwise
//! memory_mb = 2048
//! processes = 64
//!
//! [vault.max_limits]             # the most a manifest's [limits] may ask for
//! memory_mb = 8192
//! ```

use super::schema::{ToolLimits, VaultConfig};

/// `[server.operation_limits]`: every rate and burst at least 1.
pub(crate) fn operation_limit_problems(
    c: &super::schema::OperationLimits,
) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for (name, l) in [
        ("model_jobs", c.model_jobs),
        ("vault_tools", c.vault_tools),
        ("polish", c.polish),
    ] {
        for (field, v) in [("per_minute", l.per_minute), ("burst", l.burst)] {
            if v == 0 {
                out.push((
                    vec![
                        "server".to_string(),
                        "operation_limits".into(),
                        name.into(),
                        field.into(),
                    ],
                    format!(
                        "`server.operation_limits.{name}.{field}` is 0; allowed: 1 or more (remove the tool from the client's scope to forbid it)"
                    ),
                ));
            }
        }
    }
    out
}

pub(crate) fn problems(c: &VaultConfig) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let key = |table: &str, field: &str| vec!["vault".to_string(), table.into(), field.into()];
    for (table, limits) in [("limits", &c.limits), ("max_limits", &c.max_limits)] {
        for (field, v) in limits.fields() {
            if v == 0 {
                out.push((
                    key(table, field),
                    format!(
                        "`vault.{table}.{field}` is 0; allowed: 1 or more (a tool could not start)"
                    ),
                ));
            }
        }
    }
    for ((field, v), (_, cap)) in c.limits.fields().into_iter().zip(c.max_limits.fields()) {
        if v > cap {
            out.push((
                key("limits", field),
                format!(
                    "`vault.limits.{field}` = {v} is over `vault.max_limits.{field}` = {cap}; the default a tool gets must be within the cap"
                ),
            ));
        }
    }
    for (i, p) in c.allow_read.iter().enumerate() {
        if !p.is_absolute() {
            out.push((
                vec!["vault".to_string(), "allow_read".into(), i.to_string()],
                format!(
                    "`vault.allow_read` entry \"{}\" is not an absolute path",
                    p.display().to_string().escape_debug()
                ),
            ));
        }
    }
    out
}

/// The limits one tool gets: its manifest's request where it made one, else the default;
/// a request over the cap is an error naming the field.
pub(crate) fn effective_limits(
    requested: &RequestedLimits,
    defaults: &ToolLimits,
    caps: &ToolLimits,
) -> Result<ToolLimits, String> {
    let pick = |field: &str, r: Option<u64>, d: u64, cap: u64| -> Result<u64, String> {
        match r {
            None => Ok(d.min(cap)),
            Some(0) => Err(format!("[limits] {field} = 0; allowed: 1 or more")),
            Some(v) if v > cap => Err(format!(
                "[limits] {field} = {v} is over the operator's cap {cap} (`[vault.max_limits] {field}`)"
            )),
            Some(v) => Ok(v),
        }
    };
    Ok(ToolLimits {
        memory_mb: pick(
            "memory_mb",
            requested.memory_mb,
            defaults.memory_mb,
            caps.memory_mb,
        )?,
        processes: pick(
            "processes",
            requested.processes,
            defaults.processes,
            caps.processes,
        )?,
        open_files: pick(
            "open_files",
            requested.open_files,
            defaults.open_files,
            caps.open_files,
        )?,
        file_size_mb: pick(
            "file_size_mb",
            requested.file_size_mb,
            defaults.file_size_mb,
            caps.file_size_mb,
        )?,
        cpu_secs: pick(
            "cpu_secs",
            requested.cpu_secs,
            defaults.cpu_secs,
            caps.cpu_secs,
        )?,
    })
}

/// A manifest's `[limits]`: only what it names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestedLimits {
    pub memory_mb: Option<u64>,
    pub processes: Option<u64>,
    pub open_files: Option<u64>,
    pub file_size_mb: Option<u64>,
    pub cpu_secs: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_gets_the_default_unless_it_asks_and_never_over_the_cap() {
        let d = ToolLimits::default();
        let caps = ToolLimits::default_caps();
        assert_eq!(
            effective_limits(&RequestedLimits::default(), &d, &caps).unwrap(),
            d
        );
        let more = RequestedLimits {
            memory_mb: Some(4096),
            ..Default::default()
        };
        assert_eq!(effective_limits(&more, &d, &caps).unwrap().memory_mb, 4096);
        let greedy = RequestedLimits {
            processes: Some(100_000),
            ..Default::default()
        };
        let e = effective_limits(&greedy, &d, &caps).unwrap_err();
        assert!(e.contains("processes") && e.contains("max_limits"), "{e}");
    }

    #[test]
    fn zero_limits_and_relative_folders_are_refused() {
        let mut c = VaultConfig::default();
        c.limits.cpu_secs = 0;
        c.allow_read = vec!["relative/dir".into()];
        let p = problems(&c);
        assert!(
            p.iter()
                .any(|(k, _)| k.join(".") == "vault.limits.cpu_secs"),
            "{p:?}"
        );
        assert!(
            p.iter().any(|(k, _)| k.join(".") == "vault.allow_read.0"),
            "{p:?}"
        );
    }
}
