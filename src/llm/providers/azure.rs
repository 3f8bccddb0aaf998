//! Azure OpenAI. Two URL shapes:
//! - `api_version` a date (the default): `{endpoint}/openai/deployments/{deployment}/chat/completions?api-version={v}`;
//! - `api_version = "v1"`: the version-less v1 API, `{endpoint}/openai/v1/chat/completions`,
//!   where the body's `model` names the deployment.
//!
//! Either way the key goes in the `api-key` header.

use super::{PrepareCx, Prepared, join, required_secret};
use crate::config::ProviderConfig;
use crate::llm::client::AttemptError;

pub fn prepare(cx: &PrepareCx<'_>, cfg: &ProviderConfig) -> Result<Prepared, AttemptError> {
    let key = required_secret(cx, cfg)?;
    Ok(Prepared {
        url: url(cfg),
        headers: vec![("api-key", key.clone())],
        secrets: vec![key],
    })
}

pub fn url(cfg: &ProviderConfig) -> String {
    match cfg.api_version.as_deref() {
        None | Some("v1") => join(&cfg.endpoint, "openai/v1/chat/completions"),
        Some(version) => {
            let deployment = cfg.deployment.as_deref().unwrap_or(&cfg.model);
            join(
                &cfg.endpoint,
                &format!(
                    "openai/deployments/{}/chat/completions?api-version={}",
                    encode(deployment),
                    encode(version)
                ),
            )
        }
    }
}

/// The body's `model` field: the deployment on the v1 API (Azure routes by it there).
pub fn body_model(cfg: &ProviderConfig) -> &str {
    match cfg.api_version.as_deref() {
        None | Some("v1") => cfg.deployment.as_deref().unwrap_or(&cfg.model),
        Some(_) => &cfg.model,
    }
}

/// Percent-encode a path or query value. Validation already restricts deployments and
/// versions to `[A-Za-z0-9._-]`; this keeps a hand-built config from breaking the URL.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ProviderKind;

    fn cfg(api_version: Option<&str>) -> ProviderConfig {
        ProviderConfig {
            kind: ProviderKind::AzureOpenai,
            enabled: true,
            endpoint: "https://res.openai.azure.com/".into(),
            auth_env: Some("AZURE_OPENAI_API_KEY".into()),
            model: "gpt-4o".into(),
            hipaa_cleared: true,
            timeout_secs: 60,
            first_chunk_timeout_secs: 20,
            api_version: api_version.map(str::to_string),
            deployment: Some("chat 4o".into()),
            token_endpoint: None,
        }
    }

    #[test]
    fn deployment_and_v1_urls() {
        assert_eq!(
            url(&cfg(Some("2024-10-21"))),
            "https://res.openai.azure.com/openai/deployments/chat%204o/chat/completions?api-version=2024-10-21"
        );
        assert_eq!(
            url(&cfg(Some("v1"))),
            "https://res.openai.azure.com/openai/v1/chat/completions"
        );
        assert_eq!(body_model(&cfg(Some("v1"))), "chat 4o");
        assert_eq!(body_model(&cfg(Some("2024-10-21"))), "gpt-4o");
    }
}
