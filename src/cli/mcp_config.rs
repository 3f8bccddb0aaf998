//! `opsdesk mcp-config copilot-cli|vscode|claude-code [--write]`: the configuration each MCP
//! client needs to reach this opsdesk over streamable HTTP, with its bearer token.
//!
//! | client | file (`--write`) | shape | token |
//! |---|---|---|---|
//! | GitHub Copilot CLI | `$COPILOT_HOME/mcp-config.json`, else `~/.copilot/mcp-config.json` | `mcpServers.<name>` = `{type: "http", url, headers, tools: ["*"]}` | `${OPSDESK_TOKEN}`, expanded by the CLI at run time |
//! | VS Code | `.vscode/mcp.json` (workspace) | `servers.<name>` = `{type: "http", url, headers}` | `${input:opsdesk-token}`: VS Code prompts once and keeps it in its secret storage |
//! | Claude Code | `.mcp.json` (project scope) | `mcpServers.<name>` = `{type: "http", url, headers}` | `${OPSDESK_TOKEN}`, expanded by Claude Code at run time |
//!
//! With `--embed-token` the literal token goes into the file instead (then the file holds a
//! secret: it is written 0600 and a warning says so).
//!
//! `--write` merges into the existing file (other servers, inputs and keys are kept, in their
//! order), shows a unified diff, asks for confirmation on a terminal (`--yes` for scripts) and
//! writes atomically. A file that is not plain JSON (e.g. JSON with comments) is refused, never
//! overwritten.

use crate::cli::output::outln;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::{CmdResult, Context, Failure};
use crate::http::auth::{self, TOKEN_ENV, TokenSource};
use crate::mcp::RuntimeInfo;
use crate::mcp::scope::ScopeSummary;

/// Id of the VS Code input that prompts for the token.
pub const VSCODE_INPUT_ID: &str = "opsdesk-token";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Client {
    /// GitHub Copilot CLI (`~/.copilot/mcp-config.json`).
    CopilotCli,
    /// VS Code (`.vscode/mcp.json` in the workspace).
    Vscode,
    /// Claude Code (`.mcp.json`, project scope).
    ClaudeCode,
}

#[derive(Debug, Args)]
pub struct McpConfigArgs {
    /// The client to configure.
    #[arg(value_enum)]
    pub client: Client,
    /// Merge the entry into the client's config file (shows the diff, asks first).
    #[arg(long)]
    pub write: bool,
    /// With --write: do not ask for confirmation (for scripts).
    #[arg(long, short = 'y', requires = "write")]
    pub yes: bool,
    /// The file to write instead of the client's default.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Server name in the client's config.
    #[arg(long, default_value = "opsdesk")]
    pub name: String,
    /// Put the token itself into the configuration instead of a reference to OPSDESK_TOKEN
    /// (or VS Code's secret prompt). The file then holds a secret.
    #[arg(long)]
    pub embed_token: bool,
    /// The MCP URL (default: the running engine's, else the configured server.bind).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Mint a token for a new named client NAME (`[server.clients.NAME]`): prints the token's
    /// `export` line, the opsdesk config section and this client's entry referencing it.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["write", "embed_token"])]
    pub new_client: Option<String>,
    /// With --new-client: mark the client HIPAA-cleared (it then gets PHI in clear; only for a
    /// client whose model runs under a BAA).
    #[arg(long, requires = "new_client")]
    pub hipaa_cleared: bool,
    /// Configure the app as the configured named client NAME (`[server.clients.NAME]`): the
    /// entry sends that client's token variable, and Copilot CLI's tool list is its scope.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["new_client", "embed_token"])]
    pub as_client: Option<String>,
    /// With --new-client: the client gets only read tools (`read_only = true`).
    #[arg(long, requires = "new_client")]
    pub read_only: bool,
    /// With --new-client: only these toolsets, comma-separated (inbox, briefs, drafts,
    /// calendar, deals, triage, vault, admin).
    #[arg(long, requires = "new_client", value_delimiter = ',', value_parser = crate::mcp::scope::Toolset::parse, value_name = "SET,…")]
    pub toolsets: Option<Vec<crate::mcp::scope::Toolset>>,
    /// With --new-client: only tools matching these patterns, comma-separated (`*` wildcard).
    #[arg(long, requires = "new_client", value_delimiter = ',', value_parser = tool_pattern, value_name = "PATTERN,…")]
    pub enabled_tools: Option<Vec<String>>,
}

fn tool_pattern(s: &str) -> Result<String, String> {
    crate::mcp::scope::check_pattern(s).map(|()| s.trim().to_string())
}

/// Copilot CLI's tool allow-list follows the client's scope: the tools it may call, or `*`
/// when nothing narrows it. Other clients take the list from the server's `tools/list`.
fn scoped(client: Client, mut entry: OJson, scope: &ScopeSummary) -> OJson {
    if client == Client::CopilotCli
        && !scope.set_by.is_empty()
        && let OJson::Object(fields) = &mut entry
    {
        for (k, v) in fields.iter_mut() {
            if k == "tools" {
                *v = OJson::Array(scope.tools.iter().map(|t| OJson::str(t.as_str())).collect());
            }
        }
    }
    entry
}

/// `--as-client NAME`: that configured client's token variable and its effective scope; an
/// unknown name lists the configured ones.
fn named_client(ctx: &Context, name: &str) -> Result<(String, ScopeSummary), Failure> {
    let config = ctx.config()?;
    let Some(c) = config.server.clients.get(name) else {
        let known: Vec<&str> = config.server.clients.keys().map(String::as_str).collect();
        return Err(Failure::usage(format!(
            "no MCP client `{}` in the config; configured: {} (`--new-client NAME` makes one)",
            crate::sanitize::one_line(name, 64),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )));
    };
    let (scopes, _) = crate::mcp::scope::effective(
        &ctx.paths,
        &config.server,
        &crate::vault::Vault::configured(&ctx.paths, &config).scope_facts(),
    )
    .map_err(Failure::usage)?;
    let scope = scopes
        .into_iter()
        .find(|s| s.client == name)
        .ok_or_else(|| {
            Failure::failed(format!(
                "the running engine publishes no scope for `{name}`: it was started before the client was configured; restart it"
            ))
        })?;
    Ok((c.token_env.clone(), scope))
}

/// The `Authorization` header naming a named client's token variable (VS Code prompts).
fn named_header(client: Client, var: &str) -> String {
    match client {
        Client::Vscode => format!("Bearer ${{input:{VSCODE_INPUT_ID}}}"),
        _ => format!("Bearer ${{{var}}}"),
    }
}

/// The scope of the default credential (which `mcp-config` configures without --new-client).
fn default_scope(ctx: &Context) -> Result<ScopeSummary, Failure> {
    let config = ctx.config()?;
    let (scopes, _) = crate::mcp::scope::effective(
        &ctx.paths,
        &config.server,
        &crate::vault::Vault::configured(&ctx.paths, &config).scope_facts(),
    )
    .map_err(Failure::usage)?;
    scopes
        .into_iter()
        .find(|s| s.client == auth::DEFAULT_CLIENT)
        .ok_or_else(|| Failure::failed("the running engine publishes no scope for `default`"))
}

/// How the token appears in the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenRef {
    /// `${OPSDESK_TOKEN}` (Copilot CLI, Claude Code) or `${input:opsdesk-token}` (VS Code).
    Reference,
    /// The literal secret.
    Embedded(String),
}

pub fn run(ctx: &Context, args: McpConfigArgs) -> CmdResult {
    if !valid_name(&args.name) {
        return Err(Failure::usage(format!(
            "invalid server name `{}`: use letters, digits, `-` and `_`, starting with a letter",
            crate::sanitize::one_line(&args.name, 64)
        )));
    }
    let url = match &args.url {
        Some(u) => u.clone(),
        None => default_url(ctx)?,
    };
    if let Some(name) = &args.new_client {
        return new_client(ctx, &args, name, &url);
    }
    // Whose credential the entry carries: a configured named client's, or the default one.
    let named = match &args.as_client {
        Some(name) => Some(named_client(ctx, name)?),
        None => None,
    };
    let (token_ref, token_source) = if named.is_some() {
        (TokenRef::Reference, None)
    } else if args.embed_token {
        // The server uses this same token (it creates the file on first use too).
        let t = auth::load_or_create(&ctx.paths)?;
        (TokenRef::Embedded(t.secret().to_string()), Some(t.source))
    } else {
        (
            TokenRef::Reference,
            auth::read_existing(&ctx.paths)?.map(|t| t.source),
        )
    };
    let (entry, scope, var) = match &named {
        Some((var, scope)) => (
            entry_with_header(args.client, &url, named_header(args.client, var)),
            scope.clone(),
            var.as_str(),
        ),
        None => (
            entry(args.client, &url, &token_ref),
            default_scope(ctx)?,
            TOKEN_ENV,
        ),
    };
    let entry = scoped(args.client, entry, &scope);
    eprintln!(
        "# scope of this credential (`{}`): {}",
        scope.client,
        super::output::safe(&scope.line())
    );
    let path = match &args.file {
        Some(f) => f.clone(),
        None => default_path(args.client)?,
    };

    if !args.write {
        let doc = merge(args.client, None, &args.name, entry, &token_ref)
            .map_err(|e| Failure::failed(e.to_string()))?;
        outln!("{}", render(&doc)?);
        print_hints(ctx, &args, &url, &path, &token_ref, &token_source, var);
        return Ok(());
    }

    // Absolute, so the atomic write's temp file and directory sync have a real directory.
    let target = std::path::absolute(resolve_symlink(&path))
        .map_err(|e| Failure::failed(format!("cannot resolve {}: {e}", path.display())))?;
    let before = match std::fs::read_to_string(&target) {
        Ok(s) => Some(s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(Failure::failed(format!(
                "cannot read {}: {e}",
                target.display()
            )));
        }
    };
    let existing = match before.as_deref() {
        Some(s) if !s.trim().is_empty() => Some(serde_json::from_str::<OJson>(s).map_err(|e| {
            Failure::failed(format!(
                "{} is not plain JSON ({e}); it is left as it is: add the entry by hand (`opsdesk mcp-config {}` prints it)",
                target.display(),
                client_arg(args.client)
            ))
        })?),
        _ => None,
    };
    let doc = merge(args.client, existing, &args.name, entry, &token_ref)
        .map_err(|e| Failure::failed(format!("{}: {e}", target.display())))?;
    let after = format!("{}\n", render(&doc)?);
    let before_text = before.unwrap_or_default();
    if before_text == after {
        eprintln!("{} is already up to date", target.display());
        print_hints(ctx, &args, &url, &path, &token_ref, &token_source, var);
        return Ok(());
    }
    let shown = path.display().to_string();
    let diff = unified_diff(&before_text, &after, &shown);
    // The diff goes to stderr with the other human text; a secret in it is masked.
    let masked = match &token_ref {
        TokenRef::Embedded(s) => diff.replace(s.as_str(), "********"),
        TokenRef::Reference => diff,
    };
    eprint!("{}", super::output::safe(&masked));
    if !args.yes {
        if !std::io::stdin().is_terminal() {
            return Err(Failure::usage(format!(
                "not writing {shown} without confirmation: standard input is not a terminal (pass --yes)"
            )));
        }
        if !confirm(&format!("Write {shown}? [y/N] "))? {
            eprintln!("nothing written");
            return Ok(());
        }
    }
    write(
        &target,
        after.as_bytes(),
        matches!(token_ref, TokenRef::Embedded(_)),
    )?;
    eprintln!("wrote {shown}");
    if matches!(token_ref, TokenRef::Embedded(_)) {
        eprintln!(
            "WARNING: {shown} now holds the opsdesk MCP token (written 0600). Do not commit or share it; without --embed-token the file references ${TOKEN_ENV} instead."
        );
    }
    print_hints(ctx, &args, &url, &path, &token_ref, &token_source, var);
    Ok(())
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 64
}

fn client_arg(c: Client) -> &'static str {
    match c {
        Client::CopilotCli => "copilot-cli",
        Client::Vscode => "vscode",
        Client::ClaudeCode => "claude-code",
    }
}

/// The running engine's URL, else the configured bind address (an unspecified address such as
/// 0.0.0.0 is reached through loopback).
fn default_url(ctx: &Context) -> Result<String, Failure> {
    if let Some(info) = RuntimeInfo::read_live(&ctx.paths) {
        return Ok(info.mcp_url);
    }
    let config = ctx.config()?;
    let mut addr = config.server.bind;
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() {
            std::net::Ipv4Addr::LOCALHOST.into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }
    if addr.port() == 0 {
        eprintln!(
            "note: server.bind has port 0 (a free port each start) and no engine runs now; set a fixed port so the client configuration stays valid"
        );
    }
    Ok(crate::mcp::mcp_url(addr))
}

fn home() -> Result<PathBuf, Failure> {
    directories::BaseDirs::new()
        .map(|b| b.home_dir().to_path_buf())
        .ok_or_else(|| Failure::failed("cannot find the home directory; pass --file"))
}

/// Where each client reads its configuration (the one `--write` targets).
pub fn default_path(client: Client) -> Result<PathBuf, Failure> {
    Ok(match client {
        Client::CopilotCli => match std::env::var_os("COPILOT_HOME") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("mcp-config.json"),
            _ => home()?.join(".copilot").join("mcp-config.json"),
        },
        Client::Vscode => PathBuf::from(".vscode").join("mcp.json"),
        Client::ClaudeCode => PathBuf::from(".mcp.json"),
    })
}

/// The `Authorization` header value for this client.
fn auth_header(client: Client, token: &TokenRef) -> String {
    match (token, client) {
        (TokenRef::Embedded(s), _) => format!("Bearer {s}"),
        (TokenRef::Reference, Client::Vscode) => format!("Bearer ${{input:{VSCODE_INPUT_ID}}}"),
        (TokenRef::Reference, _) => format!("Bearer ${{{TOKEN_ENV}}}"),
    }
}

/// `--new-client NAME`: a fresh token for a named client, and everything needed to use it. The
/// token is shown once, on stderr, in an `export` line; nothing is written.
fn new_client(ctx: &Context, args: &McpConfigArgs, name: &str, url: &str) -> CmdResult {
    if !valid_name(name) || name == auth::DEFAULT_CLIENT || name == auth::STDIO_CLIENT {
        return Err(Failure::usage(format!(
            "invalid client name `{}`: use letters, digits, `-` and `_`, starting with a letter (not `default` or `stdio`)",
            crate::sanitize::one_line(name, 64)
        )));
    }
    let var = format!(
        "{TOKEN_ENV}_{}",
        name.to_ascii_uppercase().replace('-', "_")
    );
    let token = auth::mint();
    let header = match args.client {
        // VS Code prompts for the token once and keeps it in its secret storage.
        Client::Vscode => format!("Bearer ${{input:{VSCODE_INPUT_ID}}}"),
        _ => format!("Bearer ${{{var}}}"),
    };
    // The new client's scope: the server's (config and environment), narrowed by its own.
    let mut server = ctx.config()?.server.clone();
    let own = crate::config::McpClientConfig {
        token_env: var.clone(),
        hipaa_cleared: args.hipaa_cleared,
        read_only: args.read_only,
        toolsets: args
            .toolsets
            .as_ref()
            .map(|t| t.iter().map(|s| s.name().to_string()).collect()),
        tools: args.enabled_tools.clone(),
    };
    server.clients.insert(name.to_string(), own.clone());
    let overrides = crate::mcp::scope::Overrides::from_env().map_err(Failure::usage)?;
    let vault = crate::vault::Vault::configured(&ctx.paths, &ctx.config()?).scope_facts();
    let scope = crate::mcp::scope::Scopes::new(&server, &overrides)
        .for_client(name)
        .summary_with(&vault);
    let entry = scoped(
        args.client,
        entry_with_header(args.client, url, header),
        &scope,
    );
    let mut scope_lines = String::new();
    if own.read_only {
        scope_lines.push_str("\n\x20    read_only = true");
    }
    let quoted = |v: &[String]| {
        v.iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(t) = &own.toolsets {
        scope_lines.push_str(&format!("\n\x20    toolsets = [{}]", quoted(t)));
    }
    if let Some(t) = &own.tools {
        scope_lines.push_str(&format!("\n\x20    tools = [{}]", quoted(t)));
    }
    let doc = merge(args.client, None, &args.name, entry, &TokenRef::Reference)
        .map_err(|e| Failure::failed(e.to_string()))?;
    outln!("{}", render(&doc)?);
    let config_path = ctx.paths.config_file.display().to_string();
    eprintln!(
        "New MCP client `{name}` ({}).\n\
         1. Put its token in the environment of opsdesk AND of the client (e.g. your shell profile); it is shown only now:\n\
         \x20    export {var}={token}\n\
         2. Add to {config_path}:\n\
         \x20    [server.clients.{name}]\n\
         \x20    token_env = \"{var}\"\n\
         \x20    hipaa_cleared = {}{scope_lines}\n\
         3. Restart `opsdesk serve` (or the console). The client's entry above sends this token; cursors, rate limits and the audit then name it `{name}`.\n\
         Its scope: {} ({}).",
        if args.hipaa_cleared {
            "HIPAA-cleared: it receives PHI in clear; only for a client whose model runs under a BAA"
        } else {
            "not HIPAA-cleared: it gets the redacted view of requires_hipaa profiles"
        },
        args.hipaa_cleared,
        scope.line(),
        scope.tools.join(", "),
    );
    Ok(())
}

/// The server entry for one client.
pub fn entry(client: Client, url: &str, token: &TokenRef) -> OJson {
    entry_with_header(client, url, auth_header(client, token))
}

fn entry_with_header(client: Client, url: &str, header: String) -> OJson {
    let headers = OJson::object([("Authorization", OJson::str(header))]);
    let mut fields = vec![
        ("type", OJson::str("http")),
        ("url", OJson::str(url)),
        ("headers", headers),
    ];
    if client == Client::CopilotCli {
        // Copilot CLI requires the tool allow-list; opsdesk's tools are governed server-side.
        fields.push(("tools", OJson::Array(vec![OJson::str("*")])));
    }
    OJson::object(fields)
}

fn vscode_input() -> OJson {
    OJson::object([
        ("type", OJson::str("promptString")),
        ("id", OJson::str(VSCODE_INPUT_ID)),
        (
            "description",
            OJson::str(
                "opsdesk MCP token (the value of OPSDESK_TOKEN, or of mcp-token in the opsdesk data dir)",
            ),
        ),
        ("password", OJson::Bool(true)),
    ])
}

/// Merge `entry` as server `name` into the client's document (or a new one). Everything else
/// in the document is kept, in order.
pub fn merge(
    client: Client,
    existing: Option<OJson>,
    name: &str,
    entry: OJson,
    token: &TokenRef,
) -> Result<OJson, MergeError> {
    let mut doc = existing.unwrap_or(OJson::Object(Vec::new()));
    let OJson::Object(top) = &mut doc else {
        return Err(MergeError("the top level is not a JSON object".into()));
    };
    let servers_key = match client {
        Client::Vscode => "servers",
        Client::CopilotCli | Client::ClaudeCode => "mcpServers",
    };
    if client == Client::Vscode && *token == TokenRef::Reference {
        let inputs = get_or_insert(top, "inputs", OJson::Array(Vec::new()));
        let OJson::Array(list) = inputs else {
            return Err(MergeError("`inputs` is not an array".into()));
        };
        let has = list.iter().any(|i| {
            matches!(i, OJson::Object(f) if f.iter().any(|(k, v)| k == "id" && *v == OJson::str(VSCODE_INPUT_ID)))
        });
        if !has {
            list.push(vscode_input());
        }
    }
    let servers = get_or_insert(top, servers_key, OJson::Object(Vec::new()));
    let OJson::Object(map) = servers else {
        return Err(MergeError(format!("`{servers_key}` is not a JSON object")));
    };
    match map.iter_mut().find(|(k, _)| k == name) {
        Some((_, v)) => *v = entry,
        None => map.push((name.to_string(), entry)),
    }
    Ok(doc)
}

#[derive(Debug)]
pub struct MergeError(String);

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot merge: {}", self.0)
    }
}

impl std::error::Error for MergeError {}

fn get_or_insert<'a>(
    fields: &'a mut Vec<(String, OJson)>,
    key: &str,
    default: OJson,
) -> &'a mut OJson {
    let i = match fields.iter().position(|(k, _)| k == key) {
        Some(i) => i,
        None => {
            fields.push((key.to_string(), default));
            fields.len() - 1
        }
    };
    &mut fields[i].1
}

fn render(doc: &OJson) -> Result<String, Failure> {
    serde_json::to_string_pretty(doc).map_err(|e| Failure::failed(format!("cannot encode: {e}")))
}

/// A unified diff of `before` → `after` (`/dev/null` for a new file).
pub fn unified_diff(before: &str, after: &str, name: &str) -> String {
    // git's headers: `a/` and `b/` before the path, an absolute one without its leading `/`
    // (not `b//home/…`).
    let name = name.trim_start_matches('/');
    let old = if before.is_empty() {
        "/dev/null".to_string()
    } else {
        format!("a/{name}")
    };
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&old, &format!("b/{name}"))
        .to_string()
}

/// Follow a symlinked config file (dotfile managers) so the link itself stays in place.
fn resolve_symlink(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

fn confirm(prompt: &str) -> Result<bool, Failure> {
    eprint!("{prompt}");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| Failure::failed(format!("cannot read the answer: {e}")))?;
    Ok(matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// Write atomically (private, 0600). A file without a secret gets its previous mode back.
fn write(path: &Path, bytes: &[u8], secret: bool) -> Result<(), Failure> {
    use std::os::unix::fs::PermissionsExt;
    let old_mode = std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::failed(format!("cannot create {}: {e}", dir.display())))?;
    }
    crate::paths::write_atomic(path, bytes)
        .map_err(|e| Failure::failed(format!("cannot write {}: {e}", path.display())))?;
    if !secret && let Some(mode) = old_mode {
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
    }
    Ok(())
}

fn print_hints(
    ctx: &Context,
    args: &McpConfigArgs,
    url: &str,
    path: &Path,
    token: &TokenRef,
    source: &Option<TokenSource>,
    var: &str,
) {
    let client = args.client;
    let mut lines: Vec<String> = Vec::new();
    if !args.write {
        lines.push(format!(
            "# {}: merge this into {} (or run `opsdesk mcp-config {} --write`)",
            client_name(client),
            path.display(),
            client_arg(client)
        ));
    }
    if *token == TokenRef::Reference {
        let where_ = match source {
            _ if var != TOKEN_ENV => format!(
                "{var} must hold the same token as in opsdesk's environment ([server.clients.*] token_env)"
            ),
            Some(TokenSource::Env) => format!("{TOKEN_ENV} is set in this shell"),
            Some(TokenSource::File(p)) => format!(
                "the token is in {}: export {TOKEN_ENV}=\"$(cat {})\"",
                p.display(),
                p.display()
            ),
            None => format!(
                "no token exists yet: start `opsdesk serve` once (it creates {}) or set {TOKEN_ENV}",
                auth::token_path(&ctx.paths).display()
            ),
        };
        match client {
            Client::Vscode => lines.push(format!(
                "# VS Code asks for the token once (input `{VSCODE_INPUT_ID}`) and keeps it in its secret storage; {where_}"
            )),
            _ => lines.push(format!(
                "# the client expands ${{{var}}} from its environment when it connects; {where_}"
            )),
        }
    }
    if client == Client::ClaudeCode {
        let header = match token {
            TokenRef::Reference => format!("'Authorization: Bearer ${{{var}}}'"),
            TokenRef::Embedded(_) => "'Authorization: Bearer <token>'".to_string(),
        };
        lines.push(format!(
            "# or: claude mcp add --transport http --scope project {} {url} --header {header}",
            args.name
        ));
        lines.push(
            "# inbound-message pushes reach Claude Code as turns with: claude --dangerously-load-development-channels server:"
                .to_string()
                + &args.name,
        );
    }
    for l in lines {
        eprintln!("{}", super::output::safe(&l));
    }
}

fn client_name(c: Client) -> &'static str {
    match c {
        Client::CopilotCli => "GitHub Copilot CLI",
        Client::Vscode => "VS Code",
        Client::ClaudeCode => "Claude Code",
    }
}

/// A JSON value whose objects keep their key order, so merging into a user's file changes only
/// what it must. (serde_json's own map is sorted here: the crate relies on that for canonical
/// audit hashes, so `preserve_order` is not an option.)
#[derive(Debug, Clone, PartialEq)]
pub enum OJson {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<OJson>),
    Object(Vec<(String, OJson)>),
}

impl OJson {
    pub fn str(s: impl Into<String>) -> OJson {
        OJson::String(s.into())
    }

    pub fn object<K: Into<String>>(fields: impl IntoIterator<Item = (K, OJson)>) -> OJson {
        OJson::Object(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl Serialize for OJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            OJson::Null => s.serialize_unit(),
            OJson::Bool(b) => s.serialize_bool(*b),
            OJson::Number(n) => n.serialize(s),
            OJson::String(v) => s.serialize_str(v),
            OJson::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            OJson::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for OJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OJson, D::Error> {
        d.deserialize_any(OJsonVisitor)
    }
}

struct OJsonVisitor;

impl<'de> Visitor<'de> for OJsonVisitor {
    type Value = OJson;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<OJson, E> {
        Ok(OJson::Null)
    }
    fn visit_none<E>(self) -> Result<OJson, E> {
        Ok(OJson::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<OJson, E> {
        Ok(OJson::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<OJson, E> {
        Ok(OJson::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<OJson, E> {
        Ok(OJson::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<OJson, E> {
        serde_json::Number::from_f64(v)
            .map(OJson::Number)
            .ok_or_else(|| E::custom("not a finite number"))
    }
    fn visit_str<E>(self, v: &str) -> Result<OJson, E> {
        Ok(OJson::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<OJson, E> {
        Ok(OJson::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OJson, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element()? {
            v.push(x);
        }
        Ok(OJson::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OJson, A::Error> {
        let mut fields: Vec<(String, OJson)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, OJson>()? {
            // A repeated key: the last one wins, as in serde_json.
            match fields.iter_mut().find(|(key, _)| *key == k) {
                Some((_, old)) => *old = v,
                None => fields.push((k, v)),
            }
        }
        Ok(OJson::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_of_an_absolute_path_has_git_s_headers() {
        let d = unified_diff("{}\n", "{\"a\": 1}\n", "/home/op/.copilot/mcp-config.json");
        assert!(
            d.contains("--- a/home/op/.copilot/mcp-config.json")
                && d.contains("+++ b/home/op/.copilot/mcp-config.json"),
            "{d}"
        );
        let d = unified_diff("", "{}\n", ".mcp.json");
        assert!(
            d.contains("--- /dev/null") && d.contains("+++ b/.mcp.json"),
            "{d}"
        );
    }

    #[test]
    fn ordered_json_round_trips_key_order() {
        let src = r#"{"zeta":1,"alpha":{"y":[1,2.5,"x",null,true],"b":false}}"#;
        let v: OJson = serde_json::from_str(src).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), src);
    }

    #[test]
    fn merge_replaces_only_our_entry() {
        let existing: OJson = serde_json::from_str(
            r#"{"mcpServers":{"other":{"type":"stdio","command":"x"},"opsdesk":{"type":"sse"}},"extra":1}"#,
        )
        .unwrap();
        let e = entry(
            Client::ClaudeCode,
            "http://127.0.0.1:1/mcp",
            &TokenRef::Reference,
        );
        let doc = merge(
            Client::ClaudeCode,
            Some(existing),
            "opsdesk",
            e,
            &TokenRef::Reference,
        )
        .unwrap();
        let s = serde_json::to_string(&doc).unwrap();
        assert!(
            s.starts_with(
                r#"{"mcpServers":{"other":{"type":"stdio","command":"x"},"opsdesk":{"type":"http""#
            ),
            "{s}"
        );
        assert!(s.ends_with(r#""extra":1}"#));
    }

    #[test]
    fn merge_refuses_foreign_shapes() {
        let bad: OJson = serde_json::from_str(r#"{"servers":[]}"#).unwrap();
        let e = entry(Client::Vscode, "u", &TokenRef::Reference);
        assert!(
            merge(
                Client::Vscode,
                Some(bad),
                "opsdesk",
                e.clone(),
                &TokenRef::Reference
            )
            .is_err()
        );
        let bad: OJson = serde_json::from_str(r#"[1]"#).unwrap();
        assert!(
            merge(
                Client::Vscode,
                Some(bad),
                "opsdesk",
                e,
                &TokenRef::Reference
            )
            .is_err()
        );
    }

    #[test]
    fn names_are_checked() {
        assert!(valid_name("opsdesk"));
        assert!(valid_name("ops_desk-2"));
        assert!(!valid_name(""));
        assert!(!valid_name("2ops"));
        assert!(!valid_name("ops desk"));
    }
}
