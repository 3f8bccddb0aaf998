//! The bearer token that guards `/mcp`: where it comes from, and how a presented one is checked.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::paths::{Paths, write_atomic};

/// The default client's token variable and the stdio client's name are configuration
/// vocabulary (config validation names them too).
pub(crate) use crate::config::{MCP_TOKEN_ENV as TOKEN_ENV, STDIO_CLIENT};
/// File in the data dir holding the generated token (0600).
pub const TOKEN_FILE: &str = "mcp-token";
/// File in the data dir holding the stdio bridge's token (0600), written by each engine that
/// serves HTTP: a `serve --stdio` that bridges to a running engine presents it and is served
/// as the stdio client (`server.stdio_client`, else `stdio`), as it would be without a
/// running engine, instead of as `default`.
pub const STDIO_TOKEN_FILE: &str = "mcp-stdio-token";
/// Shortest token accepted (from the environment; generated ones are 64 hex characters).
pub const MIN_TOKEN_LEN: usize = 32;
/// Name of the client holding the default token (`OPSDESK_TOKEN` / `mcp-token`).
pub const DEFAULT_CLIENT: &str = "default";

/// Who a request comes from, as its credential says (never as the client declares itself).
/// The HTTP guard inserts it into the request's extensions; handlers read it from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    /// `default`, `stdio` or a `[server.clients.<name>]` name: cursors (`mcp:<name>`), rate
    /// limits, clearance and the audit use it.
    pub name: String,
    /// May receive PHI of `requires_hipaa` profiles in clear.
    pub hipaa_cleared: bool,
}

impl ClientIdentity {
    pub fn uncleared(name: &str) -> ClientIdentity {
        ClientIdentity {
            name: name.to_string(),
            hipaa_cleared: false,
        }
    }
}

/// Every credential the server accepts and the client each one names.
#[derive(Debug, Clone)]
pub struct Credentials {
    entries: Vec<(Token, ClientIdentity)>,
}

impl Credentials {
    /// The default client's token (`OPSDESK_TOKEN` or `mcp-token`).
    pub fn default_token(&self) -> &Token {
        &self.entries[0].0
    }

    /// The default token (uncleared client `default`) plus one per `[server.clients.<name>]`,
    /// read from the variable its `token_env` names. A missing or short token is an error that
    /// says how to make one.
    pub fn load(paths: &Paths, server: &crate::config::ServerConfig) -> Result<Credentials> {
        let mut entries = vec![
            (
                load_or_create(paths)?,
                ClientIdentity::uncleared(DEFAULT_CLIENT),
            ),
            (stdio_bridge_token(paths)?, stdio_identity(server)),
        ];
        for (name, c) in &server.clients {
            let v = std::env::var(&c.token_env).unwrap_or_default();
            let v = v.trim();
            if v.is_empty() {
                anyhow::bail!(
                    "MCP client `{name}`: the environment variable {} (server.clients.{name}.token_env) is not set; export the client's token there (`opsdesk mcp-config <client> --new-client {name}` makes one), or remove [server.clients.{name}]",
                    c.token_env
                );
            }
            check_length(&c.token_env, v)?;
            let token = Token::new(v.to_string(), TokenSource::Env);
            if entries.iter().any(|(t, _)| t.secret() == token.secret()) {
                anyhow::bail!(
                    "MCP client `{name}`: its token ({}) is the same as another client's; each client needs its own token",
                    c.token_env
                );
            }
            entries.push((
                token,
                ClientIdentity {
                    name: name.clone(),
                    hipaa_cleared: c.hipaa_cleared,
                },
            ));
        }
        Ok(Credentials { entries })
    }

    /// The client an `Authorization` header names, if any. Every credential is compared (in
    /// constant time) whatever matches, so timing tells nothing about which or how many exist.
    pub fn identify_header(&self, value: &[u8]) -> Option<&ClientIdentity> {
        let mut found = None;
        for (t, id) in &self.entries {
            if t.matches_header(value) && found.is_none() {
                found = Some(id);
            }
        }
        found
    }
}

/// The identity of a stdio connection: `server.stdio_client` if set, else uncleared `stdio`.
pub fn stdio_identity(server: &crate::config::ServerConfig) -> ClientIdentity {
    match server
        .stdio_client
        .as_ref()
        .and_then(|n| server.clients.get(n).map(|c| (n, c)))
    {
        Some((name, c)) => ClientIdentity {
            name: name.clone(),
            hipaa_cleared: c.hipaa_cleared,
        },
        None => ClientIdentity::uncleared(STDIO_CLIENT),
    }
}

/// A token shorter than [`MIN_TOKEN_LEN`] is refused, with how to make a good one.
pub fn check_length(var: &str, value: &str) -> Result<()> {
    let n = value.chars().count();
    if n < MIN_TOKEN_LEN {
        anyhow::bail!(
            "{var} is {n} characters long; MCP tokens must be at least {MIN_TOKEN_LEN} random characters. Make one with `openssl rand -hex 32` (or `opsdesk mcp-config <client> --new-client <name>` for a named client), or unset {TOKEN_ENV} to use the generated token in the data dir"
        );
    }
    Ok(())
}

/// A new random token (64 hex characters), for `mcp-config --new-client`.
pub fn mint() -> String {
    generate()
}

/// The secret clients must send as `Authorization: Bearer <token>`. Debug never shows it.
#[derive(Clone)]
pub struct Token {
    secret: String,
    /// Hash of the secret: comparisons hash the presented value and compare fixed-size digests,
    /// so neither the content nor the length of the secret leaks through timing.
    digest: [u8; 32],
    pub source: TokenSource,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    Env,
    File(PathBuf),
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Token")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl Token {
    pub fn new(secret: String, source: TokenSource) -> Token {
        let digest = Sha256::digest(secret.as_bytes()).into();
        Token {
            secret,
            digest,
            source,
        }
    }

    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// A short public name of the secret (the first 12 hex digits of its SHA-256): enough to
    /// tell two tokens apart (`engine.json` publishes it, `doctor` compares it with the token
    /// a client here would send), useless for guessing the token.
    pub fn fingerprint(&self) -> String {
        hex::encode(&self.digest[..6])
    }

    /// Where the token came from, as shown to people.
    pub fn source_label(&self) -> String {
        match &self.source {
            TokenSource::Env => TOKEN_ENV.to_string(),
            TokenSource::File(p) => p.display().to_string(),
        }
    }

    /// Constant-time check of a presented token.
    pub fn matches(&self, presented: &[u8]) -> bool {
        let d: [u8; 32] = Sha256::digest(presented).into();
        d.ct_eq(&self.digest).into()
    }

    /// Check an `Authorization` header value (`Bearer <token>`, scheme case-insensitive).
    pub fn matches_header(&self, value: &[u8]) -> bool {
        let Some((scheme, rest)) = split_scheme(value) else {
            return false;
        };
        scheme.eq_ignore_ascii_case(b"bearer") && self.matches(rest.trim_ascii())
    }
}

fn split_scheme(value: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = value.iter().position(|b| *b == b' ')?;
    Some((&value[..i], &value[i + 1..]))
}

pub fn token_path(paths: &Paths) -> PathBuf {
    paths.data_dir.join(TOKEN_FILE)
}

/// A fresh token for the stdio bridge, written for this engine's lifetime (a new one at every
/// start: a bridge to an engine that is gone cannot be replayed against the next).
fn stdio_bridge_token(paths: &Paths) -> Result<Token> {
    crate::paths::ensure_private_dir(&paths.data_dir)?;
    let path = paths.data_dir.join(STDIO_TOKEN_FILE);
    let secret = generate();
    write_atomic(&path, format!("{secret}\n").as_bytes()).with_context(|| {
        format!(
            "cannot write the stdio bridge's token to {}",
            path.display()
        )
    })?;
    Ok(Token::new(secret, TokenSource::File(path)))
}

/// The stdio bridge's token of the running engine, when it wrote one.
pub fn read_stdio_bridge_token(paths: &Paths) -> Result<Option<Token>> {
    let path = paths.data_dir.join(STDIO_TOKEN_FILE);
    Ok(read_token_file(&path)?.map(|t| Token::new(t, TokenSource::File(path))))
}

/// The token: `OPSDESK_TOKEN` if set, else the one kept in the data dir, generated on first use.
pub fn load_or_create(paths: &Paths) -> Result<Token> {
    if let Ok(v) = std::env::var(TOKEN_ENV) {
        let v = v.trim().to_string();
        if !v.is_empty() {
            check_length(TOKEN_ENV, &v)?;
            return Ok(Token::new(v, TokenSource::Env));
        }
    }
    let path = token_path(paths);
    if let Some(t) = read_token_file(&path)? {
        return Ok(Token::new(t, TokenSource::File(path)));
    }
    crate::paths::ensure_private_dir(&paths.data_dir)?;
    let secret = generate();
    write_atomic(&path, format!("{secret}\n").as_bytes())
        .with_context(|| format!("cannot write the MCP token to {}", path.display()))?;
    Ok(Token::new(secret, TokenSource::File(path)))
}

/// The token as a client on this machine finds it (env first, then the file); `None` when no
/// server has generated one yet.
pub fn read_existing(paths: &Paths) -> Result<Option<Token>> {
    if let Ok(v) = std::env::var(TOKEN_ENV)
        && !v.trim().is_empty()
    {
        return Ok(Some(Token::new(v.trim().to_string(), TokenSource::Env)));
    }
    let path = token_path(paths);
    Ok(read_token_file(&path)?.map(|t| Token::new(t, TokenSource::File(path))))
}

fn read_token_file(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(s) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read the MCP token {}", path.display())),
    }
}

/// 244 random bits (two v4 UUIDs, which come from the OS random source), hex.
fn generate() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_the_exact_bearer_token() {
        let t = Token::new("s3cret-token-value".into(), TokenSource::Env);
        assert!(t.matches_header(b"Bearer s3cret-token-value"));
        assert!(t.matches_header(b"bearer s3cret-token-value"));
        assert!(!t.matches_header(b"Bearer s3cret-token-valuE"));
        assert!(!t.matches_header(b"Bearer s3cret-token-value-and-more"));
        assert!(!t.matches_header(b"Bearer "));
        assert!(!t.matches_header(b"Basic s3cret-token-value"));
        assert!(!t.matches_header(b"s3cret-token-value"));
    }

    #[test]
    fn a_header_names_the_client_whose_token_it_carries() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let creds = Credentials {
            entries: vec![
                (
                    Token::new(a.clone(), TokenSource::Env),
                    ClientIdentity::uncleared(DEFAULT_CLIENT),
                ),
                (
                    Token::new(b.clone(), TokenSource::Env),
                    ClientIdentity {
                        name: "scribe".into(),
                        hipaa_cleared: true,
                    },
                ),
            ],
        };
        assert_eq!(
            creds
                .identify_header(format!("Bearer {a}").as_bytes())
                .map(|i| i.name.as_str()),
            Some("default")
        );
        let id = creds
            .identify_header(format!("Bearer {b}").as_bytes())
            .unwrap();
        assert_eq!((id.name.as_str(), id.hipaa_cleared), ("scribe", true));
        assert!(creds.identify_header(b"Bearer nope").is_none());
    }

    #[test]
    fn short_tokens_are_refused_with_how_to_make_one() {
        let e = check_length("OPSDESK_TOKEN", "abc")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("at least 32") && e.contains("openssl rand -hex 32"),
            "{e}"
        );
        assert!(check_length("X", &mint()).is_ok());
    }

    #[test]
    fn debug_output_never_shows_the_secret() {
        let t = Token::new("s3cret-token-value".into(), TokenSource::Env);
        assert!(!format!("{t:?}").contains("s3cret"));
    }

    #[test]
    fn generated_token_is_kept_private_and_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = Paths::resolve(
            Some(tmp.path().join("d")),
            Some(tmp.path().join("config.toml")),
        )
        .unwrap();
        // SAFETY of the test: OPSDESK_TOKEN is not set in the test environment.
        if std::env::var_os(TOKEN_ENV).is_some() {
            return;
        }
        let a = load_or_create(&paths).unwrap();
        let b = load_or_create(&paths).unwrap();
        assert_eq!(a.secret(), b.secret());
        assert_eq!(a.secret().len(), 64);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(token_path(&paths))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
    }
}
