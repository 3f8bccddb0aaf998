//! The MCP server's own installation checks, beside `crate::doctor`'s: where the default
//! client's token comes from and each client's scope. The CLI's `doctor` and the MCP `doctor`
//! tool both run `crate::doctor::checks` and then these.

use crate::config::Config;
use crate::doctor::{Check, ok, problem, warning};
use crate::http::auth;
use crate::paths::Paths;

/// The token source always; the scopes when the configuration loaded.
pub fn checks(paths: &Paths, config: Option<&Config>) -> Vec<Check> {
    let token_path = auth::token_path(paths);
    let mut checks = vec![
        if std::env::var_os(auth::TOKEN_ENV).is_some_and(|v| !v.is_empty()) {
            ok("mcp token", format!("from {}", auth::TOKEN_ENV))
        } else if token_path.exists() {
            ok("mcp token", format!("{}", token_path.display()))
        } else {
            ok(
                "mcp token",
                "not generated yet; `opsdesk serve` creates it (0600)",
            )
        },
    ];
    if let Some(config) = config {
        for w in super::scope::config_warnings(&config.server) {
            checks.push(warning(format!("config {}", w.key), w.message, None));
        }
        checks.extend(scopes(paths, config));
    }
    checks
}

/// Each MCP client's scope: what it sees and may call (`mcp::scope`).
fn scopes(paths: &Paths, config: &Config) -> Vec<Check> {
    let vault = crate::vault::Vault::configured(paths, config).scope_facts();
    match super::scope::effective(paths, &config.server, &vault) {
        Ok((scopes, running)) => scopes
            .iter()
            .map(|s| {
                ok(
                    format!("mcp scope {}", s.client),
                    format!(
                        "{} ({}){}",
                        s.line(),
                        s.tools
                            .iter()
                            .chain(&s.vault_tools)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", "),
                        if running {
                            ""
                        } else {
                            "; from the config: a server started with --read-only, --toolsets or --enabled-tools narrows it"
                        }
                    ),
                )
            })
            .collect(),
        Err(e) => vec![problem(
            "mcp scope",
            e,
            format!(
                "set {} to 1 or 0, or unset it",
                super::scope::READ_ONLY_ENV
            ),
        )],
    }
}
