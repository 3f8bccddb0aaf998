//! Who is asking: a signed request proves it came through GitHub, not that the operator sent
//! it (anyone who installed the app can talk to it). The request's own `X-GitHub-Token` names
//! its user at GitHub's `GET /user`, and only logins in `[copilot_extension] allowed_users`
//! get an answer. The token is sent there and to the Copilot LLM API, nowhere else.

use std::time::Duration;

use serde::Deserialize;

use crate::config::CopilotExtensionConfig;
use crate::llm::UserToken;

/// Why a request's user was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// No `X-GitHub-Token` header (or not text).
    Missing,
    /// GitHub refused the token (status).
    Refused(u16),
    /// A GitHub user, but not one of `allowed_users`.
    NotAllowed(String),
    /// GitHub could not be asked (network, timeout, an answer without a login).
    Unavailable(String),
}

impl Rejection {
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::Missing => "missing_user_token",
            Rejection::Refused(_) => "user_token_refused",
            Rejection::NotAllowed(_) => "user_not_allowed",
            Rejection::Unavailable(_) => "github_unavailable",
        }
    }
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::Missing => f.write_str("the request carries no X-GitHub-Token"),
            Rejection::Refused(s) => write!(f, "GitHub refused the user token ({s})"),
            Rejection::NotAllowed(login) => write!(
                f,
                "GitHub user `{login}` is not in [copilot_extension] allowed_users"
            ),
            Rejection::Unavailable(why) => write!(f, "GitHub could not name the user: {why}"),
        }
    }
}

pub struct Users {
    api: String,
    allowed: Vec<String>,
    http: reqwest::Client,
}

#[derive(Deserialize)]
struct GithubUser {
    login: String,
}

impl Users {
    pub fn new(c: &CopilotExtensionConfig) -> anyhow::Result<Users> {
        let http = crate::net::client_builder()
            .timeout(Duration::from_secs(10))
            // A redirect would carry the token to another host.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("opsdesk/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Users {
            api: c.github_api_url.trim_end_matches('/').to_string(),
            allowed: c
                .allowed_users
                .iter()
                .map(|u| u.trim().to_lowercase())
                .filter(|u| !u.is_empty())
                .collect(),
            http,
        })
    }

    /// The login of the token's user, if it is allowed. GitHub logins are case-insensitive.
    pub async fn identify(&self, token: Option<&UserToken>) -> Result<String, Rejection> {
        let token = token.ok_or(Rejection::Missing)?;
        let resp = self
            .http
            .get(format!("{}/user", self.api))
            .bearer_auth(token.expose())
            .header("accept", "application/vnd.github+json")
            .header("x-github-api-version", "2022-11-28")
            .send()
            .await
            // Without the URL: reqwest's text could name it, never the token, but keep it short.
            .map_err(|e| Rejection::Unavailable(e.without_url().to_string()))?;
        let status = resp.status().as_u16();
        if status == 401 || status == 403 {
            return Err(Rejection::Refused(status));
        }
        if status != 200 {
            return Err(Rejection::Unavailable(format!(
                "GET /user answered {status}"
            )));
        }
        let user: GithubUser = resp
            .json()
            .await
            .map_err(|_| Rejection::Unavailable("GET /user answered without a login".into()))?;
        let login = crate::sanitize::one_line(&user.login, 64);
        if self.allowed.contains(&login.to_lowercase()) {
            Ok(login)
        } else {
            Err(Rejection::NotAllowed(login))
        }
    }
}
