//! Refusing secrets in config files (design principle 6: secrets come from the environment).
//!
//! The scan runs on the parsed TOML document *before* the schema is applied, so that an
//! `api_key = "…"` gets the helpful "export it as OPENAI_API_KEY" message instead of a bare
//! "unknown key", and so that it also covers sections the schema would reject. It flags
//! 1. string values under a key whose name says "secret" (`api_key`, `token`, `password`, …),
//! 2. string values that look like a credential wherever they are (`sk-…`, `ghp_…`, a JWT, a
//!    URL with an embedded password …), and
//! 3. keys that themselves look like a credential (someone pasted the key as a table name).
//!
//! Messages name the key and the kind of credential, never the value.

use toml::de::{DeTable, DeValue};

use super::error::{KeyPath, Location, Problem, ProblemKind, Seg};
use super::schema::ProviderKind;

/// Every secret found in `doc`, in document order.
pub(crate) fn scan(doc: &DeTable<'_>, text: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    walk_table(doc, &KeyPath::root(), doc, text, &mut found);
    found
}

fn walk_table(
    table: &DeTable<'_>,
    path: &KeyPath,
    root: &DeTable<'_>,
    text: &str,
    out: &mut Vec<Problem>,
) {
    for (key, value) in table.iter() {
        let name: &str = key.get_ref();
        if let Some(what) = credential_kind(name) {
            // Do not echo the key: it is the secret.
            out.push(Problem {
                kind: ProblemKind::Secret,
                key: Some(if path.0.is_empty() {
                    "<redacted>".to_owned()
                } else {
                    format!("{path}.<redacted>")
                }),
                message: format!(
                    "a key in `{path}` is itself a credential ({what}). opsdesk never reads secrets from config files: remove it and put the credential in an environment variable."
                ),
                location: Some(Location::of_offset(text, key.span().start)),
            });
            continue;
        }
        let child = path.key(name);
        // Strings in an array under a secret-named key are secrets too; tables are not
        // inherited into, because map keys such as profile names are chosen by the user
        // (a profile may well be called `pat`).
        // `[drafting] signature` is a mail signature block, not a credential; its value is
        // still checked for the look of one.
        let secret_name = is_secret_key_name(name) && child.to_string() != "drafting.signature";
        walk_value(
            value.get_ref(),
            value.span().start,
            &child,
            secret_name,
            root,
            text,
            out,
        );
    }
}

fn walk_value(
    value: &DeValue<'_>,
    offset: usize,
    path: &KeyPath,
    under_secret_name: bool,
    root: &DeTable<'_>,
    text: &str,
    out: &mut Vec<Problem>,
) {
    match value {
        DeValue::String(s) => {
            let reason = if under_secret_name {
                Some(Reason::KeyName)
            } else {
                credential_kind(s).map(Reason::Looks)
            };
            if let Some(reason) = reason {
                out.push(Problem {
                    kind: ProblemKind::Secret,
                    key: Some(path.to_string()),
                    message: secret_message(path, reason, root),
                    location: Some(Location::of_offset(text, offset)),
                });
            }
        }
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk_value(
                    item.get_ref(),
                    item.span().start,
                    &path.index(i),
                    under_secret_name,
                    root,
                    text,
                    out,
                );
            }
        }
        DeValue::Table(t) => walk_table(t, path, root, text, out),
        DeValue::Integer(_) | DeValue::Float(_) | DeValue::Boolean(_) | DeValue::Datetime(_) => {}
    }
}

#[derive(Debug, Clone, Copy)]
enum Reason {
    /// The key's name says it is a secret.
    KeyName,
    /// The value looks like this kind of credential.
    Looks(&'static str),
}

/// Whether a key of this name holds a secret. Keys ending in `_env` hold a variable *name*
/// and are fine. Matching is by word so that `path` or `keymap` are not taken for `pat`/`key`.
pub(crate) fn is_secret_key_name(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let Some(last) = words.last() else {
        return false;
    };
    if *last == "env" {
        return false;
    }
    // Words that make the key a secret when they end it: `api_key`, `github_pat`, `auth`.
    const LAST_WORDS: &[&str] = &[
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "pat",
        "bearer",
        "credential",
        "credentials",
        "authorization",
        "auth",
        "passphrase",
        "sas",
        "cookie",
        "signature",
    ];
    // Fragments that make it a secret anywhere, also in camelCase (`clientSecret`, `apiKey`).
    const FRAGMENTS: &[&str] = &[
        "password",
        "passwd",
        "secret",
        "apikey",
        "accesstoken",
        "refreshtoken",
        "authtoken",
        "bearertoken",
        "idtoken",
        "sessiontoken",
        "privatekey",
        "accesskey",
        "passphrase",
        "connectionstring",
    ];
    let compact: String = words.concat();
    LAST_WORDS.contains(last)
        || FRAGMENTS.iter().any(|f| compact.contains(f))
        || compact.ends_with("token")
}

/// What kind of credential `value` looks like, if any. Tuned to known token formats so that
/// ordinary values (names, URLs, model ids) do not trip it.
pub(crate) fn credential_kind(value: &str) -> Option<&'static str> {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    if lower.starts_with("bearer ") && v.len() > "bearer ".len() + 4 {
        return Some("an HTTP bearer token");
    }
    if lower.starts_with("basic ") && v.len() > "basic ".len() + 4 && !v[6..].contains(' ') {
        return Some("HTTP basic credentials");
    }
    if v.starts_with("-----BEGIN") && v.contains("PRIVATE KEY") {
        return Some("a private key");
    }
    if let Some(what) = url_credential(v) {
        return Some(what);
    }
    if v.chars().any(char::is_whitespace) {
        return None;
    }
    const PREFIXES: &[(&str, &str)] = &[
        ("sk-", "an OpenAI-style API key"),
        ("ghp_", "a GitHub personal access token"),
        ("gho_", "a GitHub OAuth token"),
        ("ghu_", "a GitHub user token"),
        ("ghs_", "a GitHub app token"),
        ("ghr_", "a GitHub refresh token"),
        ("github_pat_", "a GitHub fine-grained token"),
        ("glpat-", "a GitLab token"),
        ("xoxa-", "a Slack token"),
        ("xoxb-", "a Slack token"),
        ("xoxe", "a Slack token"),
        ("xoxp-", "a Slack token"),
        ("xoxr-", "a Slack token"),
        ("xoxs-", "a Slack token"),
        ("npm_", "an npm token"),
        ("AIza", "a Google API key"),
    ];
    let token_chars = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    };
    for (prefix, what) in PREFIXES {
        if let Some(rest) = v.strip_prefix(prefix)
            && rest.len() >= 8
            && token_chars(rest)
        {
            return Some(what);
        }
    }
    // AWS access key id: AKIA/ASIA + 16 upper-case alphanumerics.
    if (v.starts_with("AKIA") || v.starts_with("ASIA"))
        && v.len() == 20
        && v.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return Some("an AWS access key");
    }
    // JWT: base64url("{\"…") . payload . signature
    if v.starts_with("eyJ") && v.len() >= 20 {
        let parts: Vec<&str> = v.split('.').collect();
        if parts.len() == 3
            && parts[..2].iter().all(|p| !p.is_empty())
            && parts.iter().all(|p| {
                p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '=')
            })
        {
            return Some("a JSON Web Token");
        }
    }
    None
}

/// A URL carrying a password in its userinfo or a credential in its query string.
fn url_credential(v: &str) -> Option<&'static str> {
    let (_, rest) = v.split_once("://")?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if let Some((userinfo, _)) = authority.rsplit_once('@')
        && userinfo.contains(':')
    {
        return Some("a URL with an embedded password");
    }
    let query = rest[authority_end..].split_once('?').map(|(_, q)| q)?;
    let query = query.split('#').next().unwrap_or_default();
    for pair in query.split('&') {
        let name = pair.split('=').next().unwrap_or_default();
        let has_value = pair.split_once('=').is_some_and(|(_, val)| !val.is_empty());
        let name_l = name.to_ascii_lowercase();
        if has_value
            && (is_secret_key_name(name)
                || matches!(name_l.as_str(), "sig" | "code" | "api-key" | "x-api-key"))
        {
            return Some("a URL with a credential in its query string");
        }
    }
    None
}

/// The "which environment variable instead" advice, derived from where the secret was.
fn secret_message(path: &KeyPath, reason: Reason, root: &DeTable<'_>) -> String {
    let what = match reason {
        Reason::KeyName => "holds a secret".to_owned(),
        Reason::Looks(kind) => format!("holds what looks like a credential ({kind})"),
    };
    let keys = path.keys();
    let is_env_key = path.last_key().is_some_and(|k| k.ends_with("_env"));
    if is_env_key {
        return format!(
            "`{path}` {what}. An `_env` key holds the NAME of an environment variable (e.g. \"OPENAI_API_KEY\"), not the credential: export the credential under that name and put only the name here."
        );
    }
    match keys.as_slice() {
        ["llm", "providers", provider, ..] => {
            let env = provider_kind(root, provider)
                .map(|k| k.conventional_env().to_owned())
                .unwrap_or_else(|| env_name_for(path));
            format!(
                "`{path}` {what}. opsdesk never reads secrets from config files: export it as {env} (or any name) and set `auth_env = \"{env}\"` in [llm.providers.{}].",
                super::error::render_key(provider)
            )
        }
        ["server", ..] => format!(
            "`{path}` {what}. opsdesk never reads secrets from config files: the MCP server's bearer token comes from the environment variable OPSDESK_TOKEN (or is generated once and kept in the data directory)."
        ),
        ["profiles", profile, "graph", ..] => format!(
            "`{path}` {what}. opsdesk never reads secrets from config files, and Microsoft Graph needs none: sign in with `opsdesk login {}` (device code); the refresh token is kept in the OS keyring or <data dir>/tokens/ (0600).",
            super::error::render_key(profile)
        ),
        _ => format!(
            "`{path}` {what}. opsdesk never reads secrets from config files: export it as {} in the environment instead.",
            env_name_for(path)
        ),
    }
}

/// The kind of provider `name` in the raw document: its `kind` key, else inferred from the name.
fn provider_kind(root: &DeTable<'_>, name: &str) -> Option<ProviderKind> {
    let kind_text = lookup(root, &["llm", "providers", name, "kind"]).and_then(|v| match v {
        DeValue::String(s) => Some(s.to_string()),
        _ => None,
    });
    match kind_text {
        Some(k) => ProviderKind::ALL.into_iter().find(|p| p.as_str() == k),
        None => ProviderKind::from_provider_name(name),
    }
}

fn lookup<'a>(root: &'a DeTable<'_>, keys: &[&str]) -> Option<&'a DeValue<'a>> {
    let (first, rest) = keys.split_first()?;
    let (_, value) = root.iter().find(|(k, _)| k.get_ref() == first)?;
    if rest.is_empty() {
        return Some(value.get_ref());
    }
    match value.get_ref() {
        DeValue::Table(t) => lookup(t, rest),
        _ => None,
    }
}

/// `OPSDESK_<PATH>`: the path upper-cased, non-alphanumerics as `_`.
pub(crate) fn env_name_for(path: &KeyPath) -> String {
    let mut name = String::from("OPSDESK");
    for seg in &path.0 {
        if let Seg::Key(k) = seg {
            name.push('_');
            name.extend(k.chars().map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_uppercase()
                } else {
                    '_'
                }
            }));
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_key_names() {
        for k in [
            "api_key",
            "apiKey",
            "APIKEY",
            "key",
            "token",
            "access_token",
            "refresh_token",
            "secret",
            "client_secret",
            "clientSecret",
            "password",
            "db_passwd",
            "pat",
            "github_pat",
            "bearer",
            "auth",
            "githubToken",
        ] {
            assert!(is_secret_key_name(k), "{k} should be a secret name");
        }
        for k in [
            "auth_env",
            "token_env",
            "keymap",
            "path",
            "pattern",
            "model",
            "endpoint",
            "max_tokens",
            "client_id",
            "tenant",
            "key_env",
            "monkey",
        ] {
            assert!(!is_secret_key_name(k), "{k} should not be a secret name");
        }
    }

    #[test]
    fn credential_values() {
        for v in [
            "sk-proj-abcdefghijklmnop",
            "ghp_0123456789abcdefghijkl",
            "github_pat_11ABCDEFG0123456789",
            "xoxb-1234-5678-abcdefgh",
            "Bearer abc.def.ghi",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
            "AKIAABCDEFGHIJKLMNOP",
            "https://user:hunter2@example.com/v1",
            "https://x.blob.core.windows.net/c?sv=1&sig=abcdef",
            "https://api.example.com/v1?api_key=abc123",
        ] {
            assert!(
                credential_kind(v).is_some(),
                "{v} should look like a credential"
            );
        }
        for v in [
            "gpt-4o-mini",
            "https://api.openai.com/v1",
            "http://127.0.0.1:11434/v1",
            "Riverside Clinic",
            "sk-",
            "skeleton-crew",
            "contoso.com",
            "eyJ",
            "https://user@example.com/",
            "https://example.com/?q=1",
            "Basic income discussion",
        ] {
            assert!(
                credential_kind(v).is_none(),
                "{v} should not look like a credential"
            );
        }
    }

    #[test]
    fn a_mail_signature_is_not_a_credential_unless_it_looks_like_one() {
        let ok = "[drafting]\nsignature = \"Alex Morgan\\nContoso\"\n";
        let doc = DeTable::parse(ok).unwrap();
        assert!(scan(doc.get_ref(), ok).is_empty());
        let bad = "[drafting]\nsignature = \"ghp_0123456789abcdefghijkl\"\n";
        let doc = DeTable::parse(bad).unwrap();
        assert_eq!(scan(doc.get_ref(), bad).len(), 1);
        // Elsewhere the name still marks a secret.
        let other = "[llm.providers.x]\nsignature = \"abc\"\n";
        let doc = DeTable::parse(other).unwrap();
        assert_eq!(scan(doc.get_ref(), other).len(), 1);
    }

    #[test]
    fn env_names_follow_the_path() {
        let p = KeyPath::of(&["profiles", "work-x", "graph", "client_secret"]);
        assert_eq!(
            env_name_for(&p),
            "OPSDESK_PROFILES_WORK_X_GRAPH_CLIENT_SECRET"
        );
    }
}
