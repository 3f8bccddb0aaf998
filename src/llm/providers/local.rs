//! Any OpenAI-compatible server the operator runs (Ollama, llama.cpp, vLLM):
//! `POST {endpoint}/chat/completions`, no credential unless `auth_env` names one that is set
//! (vLLM and llama.cpp can be started with an API key).

use super::{PrepareCx, Prepared, join};
use crate::config::ProviderConfig;
use crate::llm::client::AttemptError;

pub fn prepare(cx: &PrepareCx<'_>, cfg: &ProviderConfig) -> Result<Prepared, AttemptError> {
    let key = cfg.auth_env.as_deref().and_then(|v| (cx.secrets)(v));
    let mut headers = Vec::new();
    let mut secrets = Vec::new();
    if let Some(key) = key {
        headers.push(("authorization", format!("Bearer {key}")));
        secrets.push(key);
    }
    Ok(Prepared {
        url: join(&cfg.endpoint, "chat/completions"),
        headers,
        secrets,
    })
}
