//! The bearer token that guards `/mcp`: where it comes from, and how a presented one is checked.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::paths::{Paths, write_atomic};

/// Environment variable that, when set, is the token (and nothing is written to disk).
pub const TOKEN_ENV: &str = "OPSDESK_TOKEN";
/// File in the data dir holding the generated token (0600).
pub const TOKEN_FILE: &str = "mcp-token";

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

/// The token: `OPSDESK_TOKEN` if set, else the one kept in the data dir, generated on first use.
pub fn load_or_create(paths: &Paths) -> Result<Token> {
    if let Ok(v) = std::env::var(TOKEN_ENV) {
        let v = v.trim().to_string();
        if !v.is_empty() {
            if v.len() < 16 {
                tracing::warn!(
                    "{TOKEN_ENV} is shorter than 16 characters; use a long random value"
                );
            }
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
    fn debug_output_never_shows_the_secret() {
        let t = Token::new("s3cret-token-value".into(), TokenSource::Env);
        assert!(!format!("{t:?}").contains("s3cret"));
    }

    #[test]
    fn generated_token_is_kept_private_and_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = Paths::resolve(Some(tmp.path().join("d")), None).unwrap();
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
