//! Is this installation fit to run? Config, data-dir permissions, each Graph profile's sign-in,
//! the last health of its sources (written by the running engine), the MCP token, and whether
//! every folder and file the engine reads and writes can be used by this user. Every problem
//! comes with the command that fixes it. Shown by `opsdesk doctor` and the MCP tool `doctor`;
//! never a secret (token *sources* and paths, never their values).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use crate::config::Config;
use crate::engine::EngineLock;
use crate::sources::graph::auth;
use crate::sources::graph::run::health_file;

/// One check: what, whether it passed, what was found, and the command that fixes it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Check {
    pub check: String,
    pub ok: bool,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Passed, but something will not work as the operator probably expects (a config
    /// warning, an enabled provider without its credential): shown as `warn`, not fatal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warning: bool,
}

pub fn ok(check: impl Into<String>, detail: impl Into<String>) -> Check {
    Check {
        check: check.into(),
        ok: true,
        detail: detail.into(),
        fix: None,
        warning: false,
    }
}

pub fn warning(check: impl Into<String>, detail: impl Into<String>, fix: Option<String>) -> Check {
    Check {
        check: check.into(),
        ok: true,
        detail: detail.into(),
        fix,
        warning: true,
    }
}

pub fn problem(
    check: impl Into<String>,
    detail: impl Into<String>,
    fix: impl Into<String>,
) -> Check {
    Check {
        check: check.into(),
        ok: false,
        detail: detail.into(),
        fix: Some(fix.into()),
        warning: false,
    }
}

/// Where new sign-ins keep their refresh token: the OS keyring when one answers, else files.
/// (Each profile's own `login` check says where its current token is.)
fn token_store(store: &auth::TokenStore) -> Check {
    use crate::sources::graph::keyring;
    let files = "0600 files in <data dir>/tokens";
    match store.policy() {
        auth::TokenPolicy::File => ok(
            "token store",
            format!("{files} ({}=file)", auth::TokenPolicy::ENV),
        ),
        auth::TokenPolicy::Auto => match keyring::probe() {
            Ok(label) => ok(
                "token store",
                format!("the OS keyring (Secret Service, collection {label:?})"),
            ),
            Err(e) => ok("token store", format!("{files} (no OS keyring: {e})")),
        },
        auth::TokenPolicy::Keyring => match keyring::probe() {
            Ok(label) => ok(
                "token store",
                format!("the OS keyring (Secret Service, collection {label:?})"),
            ),
            Err(e) => problem(
                "token store",
                format!(
                    "{}=keyring, but the OS keyring is unavailable: {e}",
                    auth::TokenPolicy::ENV
                ),
                "start and unlock the desktop keyring (e.g. gnome-keyring-daemon), or unset OPSDESK_TOKEN_STORE to fall back to files",
            ),
        },
    }
}

/// The audit name of the doctor read (`Engine::read_outside`).
pub const READ_NAME: &str = "query.doctor";

/// The checks as the MCP tool `doctor` answers them, and the audit target of the read.
pub fn answer(checks: Vec<Check>) -> (DoctorAnswer, String) {
    let failing = checks.iter().filter(|c| !c.ok).count();
    let answer = DoctorAnswer {
        ok: failing == 0,
        checks,
    };
    (answer, format!("failing={failing}"))
}

/// The checks as the MCP tool `doctor` answers them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DoctorAnswer {
    /// True when every check passed.
    pub ok: bool,
    pub checks: Vec<Check>,
}

/// Every check, in the order `opsdesk doctor` prints them. `config` is the loaded configuration
/// or why it could not be loaded.
pub fn checks(paths: &crate::paths::Paths, config: Result<&Config, String>) -> Vec<Check> {
    let mut checks = Vec::new();
    // The config as the engine runs it: `[llm]` with the operator's switches (providers.json)
    // applied, so doctor agrees with `providers list`.
    let effective = match config {
        Ok(c) => match effective_config(paths, c) {
            Ok(e) => Ok(e),
            Err(e) => {
                checks.push(problem(
                    "providers overlay",
                    e,
                    "fix or remove providers.json in the data dir (`opsdesk providers` rewrites it)",
                ));
                Ok(c.clone())
            }
        },
        Err(e) => Err(e),
    };
    let config = match &effective {
        Ok(c) => {
            // Provider credentials get a line each below; their warnings would repeat them.
            let warnings: Vec<_> = c
                .warnings()
                .into_iter()
                .filter(|w| !is_credential_warning(&w.key))
                .collect();
            checks.push(ok(
                "config",
                format!(
                    "{} profile(s), {} warning(s)",
                    c.profiles.len(),
                    warnings.len()
                ),
            ));
            for w in warnings {
                checks.push(warning(format!("config {}", w.key), w.message, None));
            }
            checks.extend(provider_credentials(c));
            Some(c)
        }
        Err(message) => {
            checks.push(problem(
                "config",
                message.clone(),
                "fix the key named above, then `opsdesk config check`",
            ));
            None
        }
    };
    if let Some(c) = &config {
        checks.extend(vault_checks(paths, c));
        checks.extend(client_tokens(c));
    }
    checks.push(permissions(&paths.data_dir));
    checks.extend(storage(paths, config));
    let running = EngineLock::holder(&paths.engine_lock());
    checks.push(ok(
        "engine",
        match running {
            Some(pid) => format!("running (pid {pid})"),
            None => "not running (source health below is the last known)".into(),
        },
    ));
    if let Some(config) = &config {
        let store = match auth::store_in(&paths.data_dir) {
            Ok(s) => s,
            Err(e) => {
                checks.push(problem(
                    "token store",
                    format!("{e:#}"),
                    format!(
                        "unset {} or set it to auto, file or keyring",
                        auth::TokenPolicy::ENV
                    ),
                ));
                auth::TokenStore::new(paths.data_dir.join("tokens"))
            }
        };
        if config.profiles.values().any(|p| p.graph.is_some()) {
            checks.push(token_store(&store));
        }
        for (name, profile) in &config.profiles {
            let Some(g) = &profile.graph else { continue };
            let login = format!("opsdesk login {name}");
            checks.push(match store.load(name) {
                Ok(Some(t)) if t.client_id == g.client_id && t.tenant == g.tenant => ok(
                    format!("login {name}"),
                    format!(
                        "signed in (token in {}, saved {} {})",
                        store.location(name),
                        crate::clock::fmt_time(t.saved_at, crate::clock::local_offset(t.saved_at)),
                        crate::clock::zone_name(crate::clock::local_offset(t.saved_at))
                    ),
                ),
                Ok(Some(_)) => problem(
                    format!("login {name}"),
                    "the stored sign-in is for another app registration or tenant",
                    login.clone(),
                ),
                Ok(None) => problem(format!("login {name}"), "not signed in", login.clone()),
                Err(e) => problem(format!("login {name}"), format!("{e:#}"), login.clone()),
            });
            for src in profile.sources.iter().filter(|s| s.is_graph()) {
                let path = health_file(&paths.data_dir.join("graph").join(name), *src);
                let check = format!("source {src}:{name}");
                let Ok(bytes) = std::fs::read(&path) else {
                    checks.push(ok(check, "no health reported yet"));
                    continue;
                };
                let Ok(h) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
                    checks.push(ok(check, "health file unreadable"));
                    continue;
                };
                if h["ok"].as_bool() == Some(true) {
                    checks.push(ok(
                        check,
                        format!("ok, {} new item(s) this run", h["items"]),
                    ));
                } else {
                    let err = h["last_error"].as_str().unwrap_or("").to_owned();
                    let fix = if err.contains("login required") {
                        login.clone()
                    } else {
                        "check the network and the engine's log (OPSDESK_LOG=info opsdesk serve); it retries by itself".into()
                    };
                    checks.push(problem(
                        check,
                        format!("failing ({}x): {err}", h["failures"]),
                        fix,
                    ));
                }
            }
        }
    }
    checks.extend(store_checks(paths));
    checks
}

/// `config` with the operator's provider switches (`<data dir>/providers.json`) applied over
/// its `[llm]`, as the engine runs it; `config check` and doctor judge this, not the file alone.
pub fn effective_config(paths: &crate::paths::Paths, config: &Config) -> Result<Config, String> {
    let overlay = crate::engine::providers::load_overlay(paths).map_err(|e| e.to_string())?;
    let mut c = config.clone();
    c.llm = crate::engine::providers::apply(&c.llm, &overlay);
    Ok(c)
}

fn is_credential_warning(key: &str) -> bool {
    key.starts_with("llm.providers.") && key.ends_with(".auth_env")
}

/// Each enabled provider's credential: whether its `auth_env` variable is set (never its value).
fn provider_credentials(c: &Config) -> Vec<Check> {
    c.llm
        .providers
        .iter()
        .filter(|(_, p)| p.enabled)
        .map(|(name, p)| {
            let check = format!("llm provider {name}");
            match (p.auth_env.as_deref(), p.auth_env_is_set()) {
                (Some(var), Some(true)) => ok(check, format!("enabled; {var} is set")),
                (Some(var), _) => warning(
                    check,
                    format!("enabled, but {var} is not set: its LLM calls will fail"),
                    Some(format!(
                        "export {var}=<key> in the environment opsdesk runs in, or `opsdesk providers disable {name}`"
                    )),
                ),
                (None, _) => ok(check, "enabled; needs no credential variable"),
            }
        })
        .collect()
}

/// Group/other access anywhere in the data dir (two levels, like the repair on start).
/// A named MCP client's token must be in its variable wherever `serve` runs: `serve` refuses
/// to start without it. Checked in doctor's own environment (say so: a service may have
/// another).
fn client_tokens(c: &Config) -> Vec<Check> {
    c.server
        .clients
        .iter()
        .map(|(name, client)| {
            let check = format!("mcp client {name}");
            let set = std::env::var(&client.token_env).is_ok_and(|v| !v.trim().is_empty());
            if set {
                ok(check, format!("token in {} (this environment)", client.token_env))
            } else {
                problem(
                    check,
                    format!(
                        "{} is not set in this environment: `opsdesk serve` refuses to start without it",
                        client.token_env
                    ),
                    format!(
                        "export {} with the client's token where `serve` runs (`opsdesk mcp-config <client> --new-client {name}` makes one), or remove [server.clients.{name}]",
                        client.token_env
                    ),
                )
            }
        })
        .collect()
}

fn permissions(dir: &Path) -> Check {
    if !dir.exists() {
        return ok("data dir", format!("{} (not created yet)", dir.display()));
    }
    let mut loose = Vec::new();
    let mut visit = |p: &Path| {
        if let Ok(m) = std::fs::metadata(p)
            && m.permissions().mode() & 0o077 != 0
        {
            loose.push(p.display().to_string());
        }
    };
    visit(dir);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        visit(&entry.path());
        if entry.path().is_dir() {
            // Files dropped into the spool belong to their writers until the engine takes them.
            let spool = entry.file_name() == "spool";
            for inner in std::fs::read_dir(entry.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if spool && !inner.path().is_dir() {
                    continue;
                }
                visit(&inner.path());
            }
        }
    }
    if loose.is_empty() {
        ok(
            "data dir",
            format!("{} (private: 0700/0600)", dir.display()),
        )
    } else {
        problem(
            "data dir",
            format!("readable by others: {}", loose.join(", ")),
            format!("chmod -R go-rwx {}", dir.display()),
        )
    }
}

/// What the engine opens: the data dir's folders and files must be readable and writable (and
/// folders searchable) by this user, and the spool folder, when a profile uses it, readable.
/// Missing ones are fine (the engine creates them); unusable ones are not: the engine would
/// stop with "Permission denied".
fn storage(paths: &crate::paths::Paths, config: Option<&crate::config::Config>) -> Vec<Check> {
    use crate::config::SourceKind;
    let rwx = libc::R_OK | libc::W_OK | libc::X_OK;
    let rw = libc::R_OK | libc::W_OK;
    let mut wanted: Vec<(String, std::path::PathBuf, libc::c_int)> = vec![
        ("data dir access".into(), paths.data_dir.clone(), rwx),
        ("inbox folder".into(), paths.inbox_dir(), rwx),
        ("drafts folder".into(), paths.drafts_dir(), rwx),
        ("deals folder".into(), paths.deals_dir(), rwx),
        ("audit folder".into(), paths.audit_dir(), rwx),
        ("tokens folder".into(), paths.tokens_dir(), rwx),
    ];
    for (name, file) in [
        (
            "inbox index",
            paths.inbox_dir().join(crate::store::inbox::INDEX),
        ),
        ("inbox cursors", paths.inbox_dir().join("state.json")),
        ("drafts log", paths.drafts_dir().join("drafts.jsonl")),
        ("deals log", paths.deals_dir().join("deals.jsonl")),
        ("providers overlay", paths.data_dir.join("providers.json")),
    ] {
        wanted.push((name.into(), file, rw));
    }
    if let Ok(rd) = std::fs::read_dir(paths.audit_dir()) {
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "jsonl") {
                wanted.push((
                    format!("audit file {}", e.file_name().to_string_lossy()),
                    p,
                    rw,
                ));
            }
        }
    }
    if let Some(c) = config
        && c.profiles
            .values()
            .any(|p| p.sources.contains(&SourceKind::Spool))
    {
        let dir = c
            .sources
            .spool
            .dir
            .clone()
            .unwrap_or_else(|| paths.spool_dir());
        wanted.push(("spool folder".into(), dir, rwx));
    }
    wanted
        .into_iter()
        .map(|(name, path, mode)| usable(&name, &path, mode))
        .collect()
}

fn usable(name: &str, path: &Path, mode: libc::c_int) -> Check {
    let shown = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return ok(
                name,
                format!("{shown} (not created yet; the engine creates it)"),
            );
        }
        Err(e) => {
            return problem(
                name,
                format!("cannot stat {shown}: {e}"),
                format!("check the permissions of the folders above {shown}"),
            );
        }
        Ok(m) => m,
    };
    let want_dir = mode & libc::X_OK != 0;
    if want_dir && !meta.is_dir() {
        return problem(
            name,
            format!("{shown} is not a folder"),
            format!("move {shown} aside; the engine creates the folder"),
        );
    }
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
        return problem(
            name,
            format!("{shown}: the path holds a NUL byte"),
            "use another path",
        );
    };
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    let allowed = unsafe { libc::access(c.as_ptr(), mode) } == 0;
    // access(2) answers for the real uid; root passes it whatever the mode, and so does the
    // engine, so the answer is the engine's.
    if !allowed {
        let e = std::io::Error::last_os_error();
        let need = if want_dir { "u+rwx" } else { "u+rw" };
        return problem(
            name,
            format!(
                "{shown}: {e} (mode {:o}); the engine cannot use it",
                meta.permissions().mode() & 0o7777
            ),
            format!("chmod {need} {shown}"),
        );
    }
    if want_dir && let Err(e) = std::fs::read_dir(path) {
        return problem(
            name,
            format!("cannot list {shown}: {e}"),
            format!("chmod u+rwx {shown}"),
        );
    }
    ok(name, format!("{shown} (usable)"))
}

/// The audit chain (and its anchor) and the inbox's index, in plain words.
fn store_checks(paths: &crate::paths::Paths) -> Vec<Check> {
    let mut out = Vec::new();
    let verify = "opsdesk audit verify";
    // Loaded, never created here (doctor only looks).
    let key = crate::store::integrity::for_verifier(paths)
        .ok()
        .flatten()
        .map(std::sync::Arc::new);
    out.push(match crate::store::integrity::inspect(paths) {
        Ok(Some(p)) => ok(
            "integrity key",
            format!(
                "{} (0600, outside the data dir): audit and inbox records are keyed",
                p.display()
            ),
        ),
        Ok(None) => ok(
            "integrity key",
            "none yet; created (0600, in the config dir) when opsdesk first writes",
        ),
        Err(why)
            if matches!(
                crate::store::integrity::KeyPlace::of(paths),
                crate::store::integrity::KeyPlace::InDataDir { .. }
            ) =>
        {
            warning("integrity key", why, None)
        }
        Err(why) => problem(
            "integrity key",
            why,
            "fix the key file as the message says; opsdesk does not start while it is refused",
        ),
    });
    // A store that does not exist yet is said so, not created: doctor only reads.
    let none_yet = |what: &str, dir: std::path::PathBuf| {
        (!dir.exists()).then(|| ok(what, "none yet: the engine creates it on its first start"))
    };
    out.push(
        if let Some(c) = none_yet("audit trail", paths.audit_dir()) {
            c
        } else {
            match crate::store::audit::Audit::open(&paths.audit_dir())
                .and_then(|a| a.with_key(key.clone()).verify())
            {
                Ok(r) if r.ok() => ok(
                    "audit trail",
                    format!("intact: {} record(s) in {} file(s)", r.records, r.files),
                ),
                Ok(r) => problem(
                    "audit trail",
                    r.first_bad
                        .map(|b| b.reason)
                        .unwrap_or_else(|| "broken".into()),
                    format!("{verify} names the place; restore the audit directory from a backup"),
                ),
                Err(e) => problem("audit trail", e.to_string(), verify),
            }
        },
    );
    out.push(
        if let Some(c) = none_yet("drafts log", paths.drafts_dir()) {
            c
        } else {
            match crate::store::drafts::Drafts::open(&paths.drafts_dir(), &paths.audit_dir())
                .and_then(|d| {
                    d.with_key(
                        crate::store::integrity::for_verifier(paths)
                            .ok()
                            .flatten()
                            .map(std::sync::Arc::new),
                    )
                    .queue()
                }) {
                Ok(q) if q.unbound.is_empty() => ok(
                    "drafts log",
                    format!(
                        "{} draft(s), every event bound to its audit record",
                        q.drafts.len()
                    ),
                ),
                Ok(q) => problem(
                    "drafts log",
                    format!(
                        "{} event(s) ignored because the audit trail does not vouch for them: {}",
                        q.unbound.len(),
                        q.unbound
                            .iter()
                            .map(|u| format!(
                                "line {} (`{}` of draft {})",
                                u.line, u.event, u.draft_id
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    format!("{verify} lists them; they were not written by opsdesk"),
                ),
                Err(e) => problem("drafts log", e.to_string(), verify),
            }
        },
    );
    if let Some(c) = none_yet("inbox", paths.inbox_dir()) {
        out.push(c);
        return out;
    }
    out.push(
        match crate::store::inbox::Inbox::open(&paths.inbox_dir())
            .and_then(|i| i.with_key(key.clone()).verify())
        {
            Ok(r) if r.ok() => ok(
                "inbox records",
                format!("{} record(s), every checksum matches", r.records),
            ),
            Ok(r) => problem(
                "inbox records",
                format!(
                    "{} damaged record(s) (readers skip them): {}",
                    r.damaged.len(),
                    r.damaged
                        .iter()
                        .map(|d| format!("#{}", d.seq))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "`opsdesk inbox verify` says what is wrong with each; restore the inbox directory from a backup",
            ),
            Err(e) => problem("inbox records", e.to_string(), "opsdesk inbox verify"),
        },
    );
    out.push(
        match crate::store::inbox::Inbox::open(&paths.inbox_dir())
            .and_then(|i| Ok((i.needs_repair()?, i.last_seq()?)))
        {
            Ok((false, n)) => ok("inbox", format!("{n} record(s), index consistent")),
            Ok((true, n)) => ok(
                "inbox",
                format!("{n} record(s); an interrupted write was left behind and has been or will be repaired by the next reader or writer"),
            ),
            Err(e) => problem(
                "inbox",
                e.to_string(),
                "check the data directory's disk and permissions",
            ),
        },
    );
    out
}

/// The tool vault: how many tools are served, and every broken manifest with why (the others
/// are still served).
fn vault_checks(paths: &crate::paths::Paths, config: &Config) -> Vec<Check> {
    let dir = crate::vault::dir_for(paths, config);
    let vault = crate::vault::Vault::configured(paths, config);
    let mut checks = vec![ok(
        "vault",
        format!(
            "{} tool(s) served from {}",
            vault.tools().len(),
            dir.display()
        ),
    )];
    // The sandbox: a problem when a layer is missing, naming the tools that do not run.
    let sb = vault.sandbox();
    let refused: Vec<String> = vault
        .tools()
        .iter()
        .filter(|m| {
            matches!(
                vault.verdict(m),
                crate::vault::sandbox::Verdict::Refuse { .. }
            )
        })
        .map(|m| m.mcp_name())
        .collect();
    checks.push(if sb.complete() {
        ok("vault sandbox", sb.line())
    } else {
        problem(
            "vault sandbox",
            if refused.is_empty() {
                sb.line()
            } else {
                format!("{}; not run here: {}", sb.line(), refused.join(", "))
            },
            "enable the missing kernel feature named above; until then only read_only tools that may not see PHI run under `[vault] sandbox = \"best_effort\"`",
        )
    });
    // Only a problem when a tool that did not ask for the network would still have it.
    let unconfined: Vec<String> = vault
        .tools()
        .iter()
        .filter(|m| !m.needs_network)
        .map(|m| m.mcp_name())
        .collect();
    checks.push(if !sb.can_cut_network() && !unconfined.is_empty() {
        problem(
            "vault network",
            format!(
                "network not isolated: {}; {} can reach the network without declaring it",
                if config.vault.isolate_network {
                    "the kernel refused both the network namespace and the socket filter"
                } else {
                    "turned off by `[vault] isolate_network = false`"
                },
                unconfined.join(", ")
            ),
            if config.vault.isolate_network {
                "allow unprivileged user namespaces on this machine, or install only tools you trust"
            } else {
                "remove `isolate_network = false` from [vault], or install only tools you trust"
            },
        )
    } else if sb.can_cut_network() {
        ok(
            "vault network",
            "network isolated: tools without needs_network have no network",
        )
    } else {
        ok(
            "vault network",
            "network not isolated (no tool would be affected)",
        )
    });
    for b in vault.broken() {
        checks.push(problem(
            format!("vault tool {}", b.folder),
            format!("broken manifest, not served: {}", b.error),
            "fix its tool.toml, then `opsdesk tools check`",
        ));
    }
    checks
}
