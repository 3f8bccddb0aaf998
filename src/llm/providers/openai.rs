//! api.openai.com (and anything that speaks it with a bearer key):
//! `POST {endpoint}/chat/completions`, `Authorization: Bearer <key>`.

use super::{PrepareCx, Prepared, join, required_secret};
use crate::config::ProviderConfig;
use crate::llm::client::AttemptError;

pub fn prepare(cx: &PrepareCx<'_>, cfg: &ProviderConfig) -> Result<Prepared, AttemptError> {
    let key = required_secret(cx, cfg)?;
    Ok(Prepared {
        url: join(&cfg.endpoint, "chat/completions"),
        headers: vec![("authorization", format!("Bearer {key}"))],
        secrets: vec![key],
    })
}
