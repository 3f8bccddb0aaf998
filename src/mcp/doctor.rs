//! The MCP server's own installation checks, beside `crate::doctor`'s: where the default
//! client's token comes from and each client's scope. The CLI's `doctor` and the MCP `doctor`
//! tool both run `crate::doctor::checks` and then these.

use crate::config::Config;
use crate::doctor::{Check, ok, problem, warning};
use crate::http::auth;
use crate::paths::Paths;

/// The token source always; the scopes when the configuration loaded.
pub fn checks(paths: &Paths, config: Option<&Config>) -> Vec<Check> {
    let mut checks = vec![token(paths)];
    if let Some(config) = config {
        for w in super::scope::config_warnings(&config.server) {
            checks.push(warning(format!("config {}", w.key), w.message, None));
        }
        checks.extend(scopes(paths, config));
    }
    checks
}

/// The default client's token as a client started from this shell would send it
/// (`OPSDESK_TOKEN`, else the token file), checked against what the running engine uses.
fn token(paths: &Paths) -> Check {
    const NAME: &str = "mcp token";
    let token_path = auth::token_path(paths);
    let env = std::env::var(auth::TOKEN_ENV).unwrap_or_default();
    let env = env.trim();
    if !env.is_empty()
        && let Err(e) = auth::check_length(auth::TOKEN_ENV, env)
    {
        return problem(
            NAME,
            format!("{e:#}"),
            "export a token of 32 or more random characters (`openssl rand -hex 32`)",
        );
    }
    let here = match auth::read_existing(paths) {
        Ok(t) => t,
        Err(e) => {
            return problem(
                NAME,
                format!("{e:#}"),
                format!("check {} (0600, one line)", token_path.display()),
            );
        }
    };
    let engine = super::RuntimeInfo::read_live(paths);
    let engine_token = engine
        .as_ref()
        .and_then(|i| Some((i.pid, i.token_source.clone()?, i.token_fingerprint.clone()?)));
    match (here, engine_token) {
        (Some(t), Some((pid, source, fp))) if t.fingerprint() != fp => problem(
            NAME,
            format!(
                "the running engine (pid {pid}) uses the token from {source}, and a client started from this shell sends another one (from {}): it gets 401 \"wrong bearer token\"",
                t.source_label()
            ),
            if source == auth::TOKEN_ENV {
                "export the OPSDESK_TOKEN the engine was started with, or restart the engine from this shell".to_string()
            } else {
                format!(
                    "export OPSDESK_TOKEN=\"$(cat {source})\" (or unset OPSDESK_TOKEN), or restart the engine from this shell"
                )
            },
        ),
        (Some(t), Some((_, source, _))) => ok(
            NAME,
            format!(
                "from {}; the running engine uses the same ({source})",
                t.source_label()
            ),
        ),
        (Some(t), None) => ok(NAME, format!("from {}", t.source_label())),
        (None, _) => ok(
            NAME,
            format!(
                "not generated yet; `opsdesk serve` creates {} (0600)",
                token_path.display()
            ),
        ),
    }
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
