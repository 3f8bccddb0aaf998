//! The LLM router against in-process fake providers (axum on 127.0.0.1:0) that speak the
//! documented chat-completions wire shapes: OpenAI's streamed `chat.completion.chunk` events
//! with a final usage chunk and `data: [DONE]`, Azure's extra chunks (empty `choices` with
//! `prompt_filter_results` first, `content_filter_results` on deltas, the usage chunk with
//! empty `choices`), error objects (`{"error": {message, type, code}}`) as HTTP bodies and as
//! mid-stream events, and Copilot's token exchange (`GET /copilot_internal/v2/token` →
//! `{token, expires_at}`).
//!
//! Every fake records every request (path, headers, body, time), so the tests assert on what
//! actually went over the wire: how many attempts, which credentials, the honoured waits, and
//! that no seeded PHI string is ever in a body.

mod llm_support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use llm_support::*;
use opsdesk::config::{LlmConfig, Profile, ProviderConfig, ProviderKind};
use opsdesk::domain::{AuditEvent, AuditOutcome};
use opsdesk::llm::router::{CallContext, Router, RouterOptions};
use opsdesk::llm::{ChatMessage, LlmAudit, LlmError, LlmRequest};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Set-up helpers

const CHAT: &str = "/chat/completions";

fn provider(kind: ProviderKind, endpoint: &str, cleared: bool) -> ProviderConfig {
    ProviderConfig {
        kind,
        enabled: true,
        endpoint: endpoint.to_string(),
        auth_env: match kind {
            ProviderKind::Local => None,
            k => Some(k.conventional_env().to_string()),
        },
        model: "fake-model".into(),
        hipaa_cleared: cleared,
        timeout_secs: 10,
        first_chunk_timeout_secs: 5,
        api_version: None,
        deployment: None,
        token_endpoint: None,
    }
}

fn llm(default: &str, providers: Vec<(&str, ProviderConfig)>) -> LlmConfig {
    LlmConfig {
        default: Some(default.into()),
        jobs: BTreeMap::new(),
        providers: providers
            .into_iter()
            .map(|(n, p)| (n.to_string(), p))
            .collect(),
        budgets: Default::default(),
    }
}

const OPENAI_KEY: &str = "sk-test-OPENAI-0123456789";
const AZURE_KEY: &str = "azure-test-key-abcdef";
const GITHUB_TOKEN: &str = "ghu_testGithubToken123";

fn router() -> Router {
    router_with(|_| {})
}

fn router_with(f: impl FnOnce(&mut RouterOptions)) -> Router {
    let mut secrets = BTreeMap::new();
    secrets.insert("OPENAI_API_KEY", OPENAI_KEY);
    secrets.insert("AZURE_OPENAI_API_KEY", AZURE_KEY);
    secrets.insert("GITHUB_TOKEN", GITHUB_TOKEN);
    let mut opts = RouterOptions {
        max_retries: 2,
        backoff_base: Duration::from_millis(10),
        backoff_max: Duration::from_millis(40),
        retry_after_cap: Duration::from_secs(5),
        secrets: Arc::new(move |name: &str| secrets.get(name).map(|s| s.to_string())),
        ..RouterOptions::default()
    };
    f(&mut opts);
    Router::new(opts).unwrap()
}

#[derive(Default, Clone)]
struct Trail(Arc<Mutex<Vec<AuditEvent>>>);

impl LlmAudit for Trail {
    fn record(&self, ev: AuditEvent) -> Result<(), String> {
        self.0.lock().unwrap().push(ev);
        Ok(())
    }
}

impl Trail {
    fn events(&self) -> Vec<AuditEvent> {
        self.0.lock().unwrap().clone()
    }
    fn names(&self) -> Vec<String> {
        self.events().into_iter().map(|e| e.event).collect()
    }
    /// Nothing secret or private in any record.
    fn assert_clean(&self, forbidden: &[&str]) {
        let text = serde_json::to_string(&self.events()).unwrap();
        for f in forbidden
            .iter()
            .chain([OPENAI_KEY, AZURE_KEY, GITHUB_TOKEN].iter())
        {
            assert!(!text.contains(f), "audit trail holds {f:?}: {text}");
        }
    }
}

fn plain_profile() -> Profile {
    Profile::default()
}

fn request(text: &str) -> LlmRequest {
    LlmRequest::new(
        "test",
        vec![ChatMessage::system("be brief"), ChatMessage::user(text)],
    )
}

async fn call(
    router: &Router,
    llm: &LlmConfig,
    profile: &Profile,
    trail: &Trail,
    req: &LlmRequest,
    collect: Option<&mut String>,
) -> Result<opsdesk::llm::LlmResponse, LlmError> {
    let cx = CallContext {
        llm,
        profile_name: "p",
        profile,
        actor: "test",
        audit: trail,
        refresh: None,
    };
    match collect {
        Some(out) => {
            let mut f = |t: &str| out.push_str(t);
            router.complete(&cx, req, Some(&mut f)).await
        }
        None => router.complete(&cx, req, None).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Tests

#[tokio::test]
async fn streams_deltas_and_records_usage() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["Hel", "lo", " world"], 12, 3)]);
    let cfg = llm(
        "oa",
        vec![(
            "oa",
            provider(ProviderKind::Openai, &format!("{}/v1", fake.url), false),
        )],
    );
    let r = router();
    let trail = Trail::default();
    let mut streamed = String::new();
    let resp = call(
        &r,
        &cfg,
        &plain_profile(),
        &trail,
        &request("hi"),
        Some(&mut streamed),
    )
    .await
    .unwrap();
    assert_eq!(resp.text, "Hello world");
    assert_eq!(streamed, "Hello world");
    assert_eq!(resp.provider, "oa");
    assert_eq!(resp.model, "fake-model");
    assert_eq!(
        (resp.usage.prompt_tokens, resp.usage.completion_tokens),
        (12, 3)
    );
    assert_eq!(resp.attempts, 1);

    let reqs = fake.posts();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/v1/chat/completions");
    assert_eq!(
        reqs[0].headers["authorization"].to_str().unwrap(),
        format!("Bearer {OPENAI_KEY}")
    );
    let body: Value = serde_json::from_str(&reqs[0].body).unwrap();
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
    assert_eq!(body["model"], "fake-model");
    assert_eq!(body["messages"][1]["content"], "hi");

    // Usage accumulates per provider.
    call(&r, &cfg, &plain_profile(), &trail, &request("again"), None)
        .await
        .unwrap();
    let stats = r.stats();
    assert_eq!(stats["oa"].usage.prompt_tokens, 24);
    assert_eq!(stats["oa"].usage.completion_tokens, 6);
    assert_eq!(stats["oa"].calls, 2);
    assert_eq!(
        trail.names(),
        ["llm.select", "llm.call", "llm.select", "llm.call"]
    );
    trail.assert_clean(&[]);
}

#[tokio::test]
async fn non_streaming_answer_is_read_too() {
    let fake = Fake::start().await;
    let whole = json!({"id":"x","object":"chat.completion","model":"fake-model",
        "choices":[{"index":0,"message":{"role":"assistant","content":"whole answer"},"finish_reason":"stop"}],
        "usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}});
    fake.script(CHAT, vec![Reply::Whole(200, vec![], whole.to_string())]);
    let cfg = llm(
        "l",
        vec![(
            "l",
            provider(ProviderKind::Local, &format!("{}/v1", fake.url), false),
        )],
    );
    let mut req = request("hi");
    req.stream = false;
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &req,
        None,
    )
    .await
    .unwrap();
    assert_eq!(resp.text, "whole answer");
    assert_eq!(resp.usage.prompt_tokens, 4);
    let body: Value = serde_json::from_str(&fake.posts()[0].body).unwrap();
    assert_eq!(body["stream"], false);
    assert!(body.get("stream_options").is_none());
    // A local provider without a key sends no credential.
    assert!(fake.posts()[0].headers.get("authorization").is_none());
}

#[tokio::test]
async fn retry_after_is_honoured_then_success() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![
            Reply::Whole(
                429,
                vec![("retry-after", "1".into())],
                error_body("Rate limit reached", "requests", "rate_limit_exceeded"),
            ),
            answer(&["ok"], 1, 1),
        ],
    );
    let cfg = llm(
        "oa",
        vec![("oa", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let trail = Trail::default();
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &trail,
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(resp.text, "ok");
    assert_eq!(resp.attempts, 2);
    let reqs = fake.posts();
    assert_eq!(reqs.len(), 2);
    // The second request came no earlier than the server asked (sleep never returns early;
    // the upper bound is generous).
    let gap = reqs[1].at - reqs[0].at;
    assert!(gap >= Duration::from_millis(1000), "retried after {gap:?}");
    assert!(gap < Duration::from_secs(4), "retried after {gap:?}");
    assert_eq!(
        trail.names(),
        ["llm.select", "llm.attempt", "llm.retry", "llm.call"]
    );
}

#[tokio::test]
async fn retry_after_http_date_is_honoured() {
    let fake = Fake::start().await;
    let at = SystemTime::now() + Duration::from_secs(2);
    fake.script(
        CHAT,
        vec![
            Reply::Whole(
                503,
                vec![("retry-after", httpdate::fmt_http_date(at))],
                String::new(),
            ),
            answer(&["ok"], 1, 1),
        ],
    );
    let cfg = llm(
        "oa",
        vec![("oa", provider(ProviderKind::Openai, &fake.url, false))],
    );
    call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    let reqs = fake.posts();
    // HTTP dates have one-second resolution: at least ~1 s of the 2 s must have been waited.
    let gap = reqs[1].at - reqs[0].at;
    assert!(gap >= Duration::from_millis(900), "retried after {gap:?}");
}

#[tokio::test]
async fn retry_after_beyond_the_cap_moves_on_instead_of_waiting() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    a.script(
        CHAT,
        vec![Reply::Whole(
            429,
            vec![("retry-after", "3600".into())],
            "{}".into(),
        )],
    );
    b.script(CHAT, vec![answer(&["from b"], 1, 1)]);
    let cfg = llm(
        "a",
        vec![
            ("a", provider(ProviderKind::Openai, &a.url, false)),
            ("b", provider(ProviderKind::Openai, &b.url, false)),
        ],
    );
    let started = Instant::now();
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(resp.provider, "b");
    assert_eq!(a.posts().len(), 1);
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn a_server_that_refuses_stream_options_is_asked_again_without_them() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![
            Reply::Whole(
                400,
                vec![],
                error_body(
                    "Unrecognized request argument supplied: stream_options",
                    "invalid_request_error",
                    "",
                ),
            ),
            answer(&["ok"], 0, 0),
        ],
    );
    let cfg = llm(
        "a",
        vec![("a", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("x"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(resp.text, "ok");
    let posts = fake.posts();
    assert_eq!(posts.len(), 2);
    let first: Value = serde_json::from_str(&posts[0].body).unwrap();
    let second: Value = serde_json::from_str(&posts[1].body).unwrap();
    assert!(first.get("stream_options").is_some());
    assert!(second.get("stream_options").is_none());
    assert_eq!(second["stream"], true);
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_the_key_is_never_echoed() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![Reply::Whole(
            401,
            vec![],
            error_body(
                &format!("Incorrect API key provided: {OPENAI_KEY}"),
                "invalid_request_error",
                "invalid_api_key",
            ),
        )],
    );
    let cfg = llm(
        "oa",
        vec![("oa", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let trail = Trail::default();
    let err = call(
        &router(),
        &cfg,
        &plain_profile(),
        &trail,
        &request("hi"),
        None,
    )
    .await
    .unwrap_err();
    assert_eq!(fake.posts().len(), 1, "401 must not be retried");
    let LlmError::Failed { reason, attempts } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*attempts, 1);
    assert!(reason.contains("401"), "{reason}");
    assert!(!err.to_string().contains("sk-test"), "{err}");
    trail.assert_clean(&["sk-test"]);
}

#[tokio::test]
async fn insufficient_quota_is_not_retried_but_falls_back() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    a.script(
        CHAT,
        vec![Reply::Whole(
            429,
            vec![("retry-after", "0".into())],
            error_body(
                "You exceeded your current quota",
                "insufficient_quota",
                "insufficient_quota",
            ),
        )],
    );
    b.script(CHAT, vec![answer(&["from b"], 2, 2)]);
    let cfg = llm(
        "a",
        vec![
            ("a", provider(ProviderKind::Openai, &a.url, false)),
            ("b", provider(ProviderKind::Local, &b.url, false)),
        ],
    );
    let trail = Trail::default();
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &trail,
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(a.posts().len(), 1, "insufficient_quota must not be retried");
    assert_eq!(resp.provider, "b");
    assert_eq!(resp.failed_over, ["a"]);
    assert_eq!(
        trail.names(),
        ["llm.select", "llm.attempt", "llm.fallback", "llm.call"]
    );
    let attempt = &trail.events()[1];
    assert!(
        attempt.reason.as_deref().unwrap().contains("quota"),
        "{attempt:?}"
    );
}

#[tokio::test]
async fn server_errors_are_retried_then_fall_back() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    a.script(
        CHAT,
        vec![Reply::Whole(
            500,
            vec![],
            error_body("boom", "server_error", "server_error"),
        )],
    );
    b.script(CHAT, vec![answer(&["fine"], 1, 1)]);
    let cfg = llm(
        "a",
        vec![
            ("a", provider(ProviderKind::Openai, &a.url, false)),
            ("b", provider(ProviderKind::Openai, &b.url, false)),
        ],
    );
    let trail = Trail::default();
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &trail,
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(a.posts().len(), 3, "1 attempt + 2 retries");
    assert_eq!(b.posts().len(), 1);
    assert_eq!(resp.provider, "b");
    assert_eq!(resp.attempts, 4);
    let names = trail.names();
    assert!(names.contains(&"llm.fallback".to_string()), "{names:?}");
    // Three consecutive failures: `a` cools down …
    assert!(names.contains(&"llm.cooldown".to_string()), "{names:?}");
    assert!(r_stats_cooling(&trail));

    fn r_stats_cooling(trail: &Trail) -> bool {
        trail
            .events()
            .iter()
            .any(|e| e.event == "llm.cooldown" && e.target.as_deref() == Some("a"))
    }
}

#[tokio::test]
async fn a_provider_in_cooldown_is_skipped_until_it_ends() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    a.script(CHAT, vec![Reply::Whole(503, vec![], String::new())]);
    b.script(CHAT, vec![answer(&["b"], 1, 1)]);
    let cfg = llm(
        "a",
        vec![
            ("a", provider(ProviderKind::Openai, &a.url, false)),
            ("b", provider(ProviderKind::Openai, &b.url, false)),
        ],
    );
    let r = router_with(|o| o.cooldown_base = Duration::from_millis(1500));
    let trail = Trail::default();
    call(&r, &cfg, &plain_profile(), &trail, &request("1"), None)
        .await
        .unwrap();
    assert_eq!(a.posts().len(), 3);
    let stats = r.stats();
    assert!(stats["a"].cooldown_until.is_some(), "{stats:?}");
    assert_eq!(stats["a"].failures, 3);

    // While it cools down `a` gets nothing.
    let trail2 = Trail::default();
    let resp = call(&r, &cfg, &plain_profile(), &trail2, &request("2"), None)
        .await
        .unwrap();
    assert_eq!(resp.provider, "b");
    assert_eq!(a.posts().len(), 3);
    assert!(
        trail2
            .events()
            .iter()
            .any(|e| e.event == "llm.skip" && e.reason.as_deref().unwrap().contains("cooling down"))
    );

    // Afterwards it gets one chance; failing again starts a longer cooldown at once.
    tokio::time::sleep(Duration::from_millis(1600)).await;
    call(
        &r,
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("3"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        a.posts().len(),
        4,
        "one attempt after the cooldown, then skipped again"
    );
}

#[tokio::test]
async fn mid_stream_error_after_delivery_is_not_retried() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    let err =
        json!({"error":{"message":"The server had an error","type":"server_error","code":null}});
    a.script(
        CHAT,
        vec![Reply::Stream(vec![
            Step::Bytes(chunk("Hel")),
            Step::Bytes(format!("data: {err}\n\n")),
        ])],
    );
    b.script(CHAT, vec![answer(&["never"], 1, 1)]);
    let cfg = llm(
        "a",
        vec![
            ("a", provider(ProviderKind::Openai, &a.url, false)),
            ("b", provider(ProviderKind::Openai, &b.url, false)),
        ],
    );
    let mut streamed = String::new();
    let err = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        Some(&mut streamed),
    )
    .await
    .unwrap_err();
    assert_eq!(streamed, "Hel");
    assert_eq!(a.posts().len(), 1, "no retry once text reached the caller");
    assert_eq!(
        b.posts().len(),
        0,
        "no fallback once text reached the caller"
    );
    assert!(
        err.to_string().contains("after part of the answer"),
        "{err}"
    );
}

#[tokio::test]
async fn mid_stream_error_before_any_text_is_retried() {
    let fake = Fake::start().await;
    let err = json!({"error":{"message":"overloaded","type":"server_error","code":"server_error"}});
    fake.script(
        CHAT,
        vec![
            Reply::Stream(vec![Step::Bytes(format!("data: {err}\n\n"))]),
            answer(&["second"], 1, 1),
        ],
    );
    let cfg = llm(
        "a",
        vec![("a", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let mut streamed = String::new();
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        Some(&mut streamed),
    )
    .await
    .unwrap();
    assert_eq!(resp.text, "second");
    assert_eq!(streamed, "second");
    assert_eq!(fake.posts().len(), 2);
}

#[tokio::test]
async fn stream_cut_off_without_finish_is_an_error() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![Reply::Stream(vec![Step::Bytes(chunk("partial"))])],
    );
    let cfg = llm(
        "a",
        vec![("a", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let err = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        None,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("ended before"), "{err}");
    // Without a sink nothing reached a caller, so it was retried.
    assert_eq!(fake.posts().len(), 3);
}

#[tokio::test]
async fn azure_deployment_url_header_and_chunk_quirks() {
    let fake = Fake::start().await;
    let first = json!({"choices":[],"created":0,"id":"","model":"","object":"",
        "prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]});
    let delta = |t: &str| {
        json!({"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}},
            "delta":{"content":t},"finish_reason":null,"index":0}],
            "created":1,"id":"a","model":"gpt-4o-2024-08-06","object":"chat.completion.chunk","system_fingerprint":"fp"})
    };
    let role = json!({"choices":[{"content_filter_results":{},"delta":{"content":"","role":"assistant"},"finish_reason":null,"index":0}],
        "created":1,"id":"a","model":"gpt-4o-2024-08-06","object":"chat.completion.chunk"});
    let fin = json!({"choices":[{"content_filter_results":{},"delta":{},"finish_reason":"stop","index":0}],
        "created":1,"id":"a","model":"gpt-4o-2024-08-06","object":"chat.completion.chunk"});
    let usage = json!({"choices":[],"created":1,"id":"a","model":"gpt-4o-2024-08-06","object":"chat.completion.chunk",
        "usage":{"completion_tokens":2,"prompt_tokens":9,"total_tokens":11}});
    let steps = [first, role, delta("Az"), delta("ure"), fin, usage]
        .iter()
        .map(|v| Step::Bytes(format!("data: {v}\r\n\r\n")))
        .chain([Step::Bytes("data: [DONE]\r\n\r\n".into())])
        .collect();
    fake.script(CHAT, vec![Reply::Stream(steps)]);

    let mut p = provider(ProviderKind::AzureOpenai, &fake.url, true);
    p.deployment = Some("gpt4o-clinic".into());
    p.api_version = Some("2024-10-21".into());
    let cfg = llm("az", vec![("az", p.clone())]);
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(resp.text, "Azure");
    assert_eq!(resp.model, "gpt-4o-2024-08-06");
    assert_eq!(resp.usage.prompt_tokens, 9);
    let r = &fake.posts()[0];
    assert_eq!(
        r.path,
        "/openai/deployments/gpt4o-clinic/chat/completions?api-version=2024-10-21"
    );
    assert_eq!(r.headers["api-key"].to_str().unwrap(), AZURE_KEY);
    assert!(r.headers.get("authorization").is_none());

    // The v1 API: no deployment in the path, the deployment in `model`.
    p.api_version = Some("v1".into());
    let cfg = llm("az", vec![("az", p)]);
    call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        None,
    )
    .await
    .unwrap();
    let r = &fake.posts()[1];
    assert_eq!(r.path, "/openai/v1/chat/completions");
    let body: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["model"], "gpt4o-clinic");
}

#[tokio::test]
async fn azure_content_filter_stops_the_answer() {
    let fake = Fake::start().await;
    let filtered = json!({"choices":[{"content_filter_results":{"violence":{"filtered":true,"severity":"high"}},
        "delta":{},"finish_reason":"content_filter","index":0}],"id":"a","model":"m","object":"chat.completion.chunk"});
    fake.script(
        CHAT,
        vec![Reply::Stream(vec![Step::Bytes(format!(
            "data: {filtered}\n\n"
        ))])],
    );
    let mut p = provider(ProviderKind::AzureOpenai, &fake.url, true);
    p.deployment = Some("d".into());
    let cfg = llm("az", vec![("az", p)]);
    let err = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        None,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("content filter"), "{err}");
    assert_eq!(fake.posts().len(), 1, "a filtered answer is not retried");
}

fn token_answer(token: &str, expires_in: i64) -> Reply {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    Reply::Whole(
        200,
        vec![],
        json!({"token": token, "expires_at": now + expires_in, "refresh_in": 1500}).to_string(),
    )
}

#[tokio::test]
async fn copilot_token_exchange_cache_expiry_and_reexchange_on_401() {
    let fake = Fake::start().await;
    let token_path = "/copilot_internal/v2/token";
    fake.script(
        token_path,
        vec![
            token_answer("tid=one", 3600),
            token_answer("tid=two", 30), // expires within the renewal margin
            token_answer("tid=three", 3600),
        ],
    );
    fake.script(
        CHAT,
        vec![
            answer(&["a"], 1, 1),
            answer(&["b"], 1, 1),
            answer(&["c"], 1, 1),
            Reply::Whole(401, vec![], "unauthorized".into()),
            answer(&["d"], 1, 1),
        ],
    );
    let mut p = provider(ProviderKind::Copilot, &fake.url, false);
    p.token_endpoint = Some(format!("{}{token_path}", fake.url));
    let cfg = llm("cp", vec![("cp", p)]);
    let r = router();
    let trail = Trail::default();
    let bearer = |i: usize| -> String {
        fake.posts()[i].headers["authorization"]
            .to_str()
            .unwrap()
            .to_string()
    };

    // 1: exchange, then chat with the Copilot token and the editor headers.
    call(&r, &cfg, &plain_profile(), &trail, &request("1"), None)
        .await
        .unwrap();
    let gets: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|q| q.method == "GET")
        .collect();
    assert_eq!(gets.len(), 1);
    assert_eq!(
        gets[0].headers["authorization"].to_str().unwrap(),
        format!("token {GITHUB_TOKEN}")
    );
    let chat = &fake.posts()[0];
    assert_eq!(chat.path, "/chat/completions");
    assert_eq!(bearer(0), "Bearer tid=one");
    for h in [
        "editor-version",
        "copilot-integration-id",
        "editor-plugin-version",
    ] {
        assert!(chat.headers.get(h).is_some(), "missing {h}");
    }
    // 2: the cached token is reused.
    call(&r, &cfg, &plain_profile(), &trail, &request("2"), None)
        .await
        .unwrap();
    assert_eq!(r.copilot_exchanges(), 1);
    assert_eq!(bearer(1), "Bearer tid=one");

    // 3: after invalidation by a 401 the router exchanges again and retries once. Here the
    // script first serves a good answer with the cached token (call 3) …
    call(&r, &cfg, &plain_profile(), &trail, &request("3"), None)
        .await
        .unwrap();
    assert_eq!(bearer(2), "Bearer tid=one");
    // … then a 401: re-exchange (gets "two", which expires within the margin) and retry.
    let resp = call(&r, &cfg, &plain_profile(), &trail, &request("4"), None)
        .await
        .unwrap();
    assert_eq!(resp.text, "d");
    assert_eq!(r.copilot_exchanges(), 2);
    assert_eq!(bearer(3), "Bearer tid=one");
    assert_eq!(bearer(4), "Bearer tid=two");
    // 5: "two" is about to expire, so the next call exchanges again ("three").
    call(&r, &cfg, &plain_profile(), &trail, &request("5"), None)
        .await
        .unwrap();
    assert_eq!(r.copilot_exchanges(), 3);
    assert_eq!(bearer(5), "Bearer tid=three");
    trail.assert_clean(&["tid="]);
}

#[tokio::test]
async fn copilot_with_a_refused_github_token_is_not_retried() {
    let fake = Fake::start().await;
    let token_path = "/copilot_internal/v2/token";
    fake.script(
        token_path,
        vec![Reply::Whole(
            401,
            vec![],
            r#"{"message":"Bad credentials"}"#.into(),
        )],
    );
    let mut p = provider(ProviderKind::Copilot, &fake.url, false);
    p.token_endpoint = Some(format!("{}{token_path}", fake.url));
    let cfg = llm("cp", vec![("cp", p)]);
    let err = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("1"),
        None,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("token exchange"), "{err}");
    // One exchange, one re-exchange after the 401; no chat request at all.
    assert_eq!(fake.requests().len(), 2);
    assert!(fake.posts().is_empty());
}

#[tokio::test]
async fn first_chunk_timeout_moves_on() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    a.script(
        CHAT,
        vec![Reply::Stream(vec![
            Step::Bytes(": still thinking\n\n".into()),
            Step::Sleep(Duration::from_secs(10)),
            Step::Bytes(chunk("late")),
        ])],
    );
    b.script(CHAT, vec![answer(&["on time"], 1, 1)]);
    let mut pa = provider(ProviderKind::Openai, &a.url, false);
    pa.first_chunk_timeout_secs = 1;
    let cfg = llm(
        "a",
        vec![
            ("a", pa),
            ("b", provider(ProviderKind::Openai, &b.url, false)),
        ],
    );
    let r = router_with(|o| o.max_retries = 0);
    let trail = Trail::default();
    let started = Instant::now();
    let resp = call(&r, &cfg, &plain_profile(), &trail, &request("hi"), None)
        .await
        .unwrap();
    assert_eq!(resp.provider, "b");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    let attempt = trail
        .events()
        .into_iter()
        .find(|e| e.event == "llm.attempt")
        .unwrap();
    assert!(
        attempt
            .reason
            .as_deref()
            .unwrap()
            .contains("no first chunk"),
        "{attempt:?}"
    );
}

#[tokio::test]
async fn whole_call_timeout_applies_after_the_first_chunk() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![Reply::Stream(vec![
            Step::Bytes(chunk("start")),
            Step::Sleep(Duration::from_secs(10)),
            Step::Bytes(finish_chunk()),
        ])],
    );
    let mut p = provider(ProviderKind::Openai, &fake.url, false);
    p.timeout_secs = 1;
    p.first_chunk_timeout_secs = 1;
    let cfg = llm("a", vec![("a", p)]);
    let r = router_with(|o| o.max_retries = 0);
    let started = Instant::now();
    let mut streamed = String::new();
    let err = call(
        &r,
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("hi"),
        Some(&mut streamed),
    )
    .await
    .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(8));
    assert_eq!(streamed, "start");
    assert!(err.to_string().contains("did not finish"), "{err}");
}

fn hipaa_profile() -> Profile {
    Profile {
        requires_hipaa: true,
        phi_auto_redact: true,
        phi_names: vec!["Maria Lopez".into(), "Daniel Reyes".into()],
        ..Profile::default()
    }
}

#[tokio::test]
async fn hipaa_profile_never_falls_back_to_an_uncleared_provider() {
    let cleared = Fake::start().await;
    let open = Fake::start().await;
    cleared.script(CHAT, vec![Reply::Whole(503, vec![], String::new())]);
    open.script(CHAT, vec![answer(&["should never be asked"], 1, 1)]);
    let mut az = provider(ProviderKind::AzureOpenai, &cleared.url, true);
    az.deployment = Some("d".into());
    // The uncleared provider is the default and a job override: neither may be used.
    let mut cfg = llm(
        "openai",
        vec![
            ("azure", az),
            ("openai", provider(ProviderKind::Openai, &open.url, false)),
            ("local", provider(ProviderKind::Local, &open.url, false)),
        ],
    );
    cfg.jobs.insert("test".into(), "openai".into());
    let mut profile = hipaa_profile();
    profile.llm_provider = Some("azure".into());
    let trail = Trail::default();
    let err = call(&router(), &cfg, &profile, &trail, &request("hi"), None)
        .await
        .unwrap_err();
    assert_eq!(cleared.posts().len(), 3, "the cleared provider is retried");
    assert_eq!(
        open.posts().len(),
        0,
        "nothing reaches an uncleared provider"
    );
    let LlmError::Blocked {
        rule,
        reason,
        remedy,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(rule, "hipaa_provider_required");
    assert!(reason.contains("503"), "{reason}");
    assert!(
        reason.contains("`local`") && reason.contains("`openai`"),
        "{reason}"
    );
    assert!(!remedy.is_empty());
    let ev = trail.events();
    // The job override (openai) was refused on the first hop, and every fallback after the
    // cleared provider failed was refused too; the block is audited.
    let skips: Vec<_> = ev
        .iter()
        .filter(|e| e.event == "llm.skip" && e.outcome == AuditOutcome::Blocked)
        .map(|e| e.target.clone().unwrap())
        .collect();
    assert_eq!(skips, ["openai", "local"]);
    assert_eq!(ev[0].event, "llm.skip");
    assert_eq!(ev.last().unwrap().event, "llm.block");
    assert_eq!(ev.last().unwrap().outcome, AuditOutcome::Blocked);
}

#[tokio::test]
async fn hipaa_profile_with_no_cleared_provider_sends_nothing() {
    let open = Fake::start().await;
    open.script(CHAT, vec![answer(&["no"], 1, 1)]);
    let mut az = provider(ProviderKind::AzureOpenai, &open.url, true);
    az.deployment = Some("d".into());
    az.enabled = false;
    let cfg = llm(
        "openai",
        vec![
            ("azure", az),
            ("openai", provider(ProviderKind::Openai, &open.url, false)),
        ],
    );
    let trail = Trail::default();
    let err = call(
        &router(),
        &cfg,
        &hipaa_profile(),
        &trail,
        &request("Maria Lopez"),
        None,
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, LlmError::Blocked { rule, .. } if rule == "hipaa_provider_required"),
        "{err:?}"
    );
    assert!(open.requests().is_empty());
    assert!(
        err.to_string()
            .contains("no HIPAA-cleared provider is enabled"),
        "{err}"
    );
    trail.assert_clean(&["Maria", "Lopez"]);
}

#[tokio::test]
async fn no_enabled_provider_is_a_block() {
    let mut p = provider(ProviderKind::Openai, "http://127.0.0.1:9", false);
    p.enabled = false;
    let cfg = llm("oa", vec![("oa", p)]);
    let err = call(
        &router(),
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &request("x"),
        None,
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&err, LlmError::Blocked { rule, .. } if rule == "no_provider_available"),
        "{err:?}"
    );
}

#[tokio::test]
async fn missing_credential_names_the_variable_and_falls_back() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    b.script(CHAT, vec![answer(&["b"], 1, 1)]);
    let mut pa = provider(ProviderKind::Openai, &a.url, false);
    pa.auth_env = Some("OPSDESK_TEST_UNSET_KEY".into());
    let cfg = llm(
        "a",
        vec![
            ("a", pa),
            ("b", provider(ProviderKind::Local, &b.url, false)),
        ],
    );
    let trail = Trail::default();
    let resp = call(
        &router(),
        &cfg,
        &plain_profile(),
        &trail,
        &request("x"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(resp.provider, "b");
    assert!(a.requests().is_empty());
    let attempt = trail
        .events()
        .into_iter()
        .find(|e| e.event == "llm.attempt")
        .unwrap();
    assert!(attempt.reason.unwrap().contains("OPSDESK_TEST_UNSET_KEY"));
}

#[tokio::test]
async fn audit_failure_stops_the_call_before_anything_is_sent() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["x"], 1, 1)]);
    let cfg = llm(
        "a",
        vec![("a", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let failing = |_: AuditEvent| -> Result<(), String> { Err("disk full".into()) };
    let cx = CallContext {
        llm: &cfg,
        profile_name: "p",
        profile: &plain_profile(),
        actor: "test",
        audit: &failing,
        refresh: None,
    };
    let err = router()
        .complete(&cx, &request("x"), None)
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::AuditUnavailable(_)), "{err:?}");
    assert!(fake.requests().is_empty());
}

/// The canary: seeded PHI never appears in any request body — first choice, retries and
/// fallbacks included — and the answer is re-identified locally, streamed or whole.
#[tokio::test]
async fn canary_phi_never_leaves_on_any_hop_and_the_answer_is_reidentified() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    // `a` (cleared) fails twice with 500 and once mid-stream before any text, so it is tried
    // three times; `b` (cleared too) then answers by echoing what it was sent, in 3-char pieces
    // so placeholders arrive split across chunks.
    let err = json!({"error":{"message":"overloaded","type":"server_error"}});
    a.script(
        CHAT,
        vec![
            Reply::Whole(500, vec![], String::new()),
            Reply::Whole(502, vec![], String::new()),
            Reply::Stream(vec![Step::Bytes(format!("data: {err}\n\n"))]),
        ],
    );
    b.script(CHAT, vec![Reply::Echo { piece: 3 }]);
    let mut pa = provider(ProviderKind::AzureOpenai, &a.url, true);
    pa.deployment = Some("d".into());
    let cfg = llm(
        "a",
        vec![
            ("a", pa),
            ("b", provider(ProviderKind::Local, &b.url, true)),
        ],
    );
    let seeded = [
        "Maria Lopez",
        "Lopez",
        "Daniel Reyes",
        "123-45-6789",
        "00482913",
        "(555) 867-5309",
        "maria.lopez@example.com",
        "03/14/1931",
    ];
    let note = "Patient Maria Lopez (MRN: 00482913, SSN 123-45-6789, DOB 03/14/1931) called from \
                (555) 867-5309; email maria.lopez@example.com. Daniel Reyes will follow up. \
                Ms. Lopez asked about her refill.";
    let req = LlmRequest::new(
        "summarize",
        vec![
            ChatMessage::system("Summarize for the care team. Contact: Daniel Reyes."),
            ChatMessage::user(note),
        ],
    );
    let trail = Trail::default();
    let mut streamed = String::new();
    let resp = call(
        &router(),
        &cfg,
        &hipaa_profile(),
        &trail,
        &req,
        Some(&mut streamed),
    )
    .await
    .unwrap();

    let bodies: Vec<String> = a
        .posts()
        .into_iter()
        .chain(b.posts())
        .map(|r| r.body)
        .collect();
    assert_eq!(bodies.len(), 4, "3 attempts at a, 1 at b");
    for body in &bodies {
        for s in seeded {
            assert!(
                !body.contains(s),
                "seeded PHI {s:?} left the process: {body}"
            );
        }
        assert!(
            body.contains("<PERSON_1>") && body.contains("<SSN_1>"),
            "{body}"
        );
    }
    // The same placeholders on every hop (one session per call).
    let users: Vec<Value> = bodies
        .iter()
        .map(|b| serde_json::from_str::<Value>(b).unwrap()["messages"][1]["content"].clone())
        .collect();
    assert!(users.windows(2).all(|w| w[0] == w[1]));

    // Re-identified locally, both the whole answer and the streamed pieces.
    assert_eq!(resp.text, note);
    assert_eq!(streamed, note);
    assert!(resp.redacted);
    assert_eq!(resp.failed_over, ["a"]);
    // Nothing private in the audit trail either.
    trail.assert_clean(&seeded);
}

#[tokio::test]
async fn redacted_answer_stays_redacted_when_the_job_does_not_reidentify() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![Reply::Echo { piece: 5 }]);
    let cfg = llm(
        "a",
        vec![("a", provider(ProviderKind::Local, &fake.url, true))],
    );
    let mut req = request("Ask Maria Lopez to call back.");
    req.reidentify = false;
    let resp = call(
        &router(),
        &cfg,
        &hipaa_profile(),
        &Trail::default(),
        &req,
        None,
    )
    .await
    .unwrap();
    assert!(!resp.text.contains("Maria"), "{}", resp.text);
    assert!(resp.text.contains("<PERSON_1>"), "{}", resp.text);
}

/// Against a real OpenAI-compatible server (Ollama, llama.cpp, vLLM), only when
/// `OPSDESK_LLM_SMOKE_URL` is set, e.g. `http://127.0.0.1:11434/v1`; the model comes from
/// `OPSDESK_LLM_SMOKE_MODEL` (default `llama3.1`).
#[tokio::test]
async fn smoke_against_a_real_local_server() {
    let Ok(url) = std::env::var("OPSDESK_LLM_SMOKE_URL") else {
        println!(
            "skipped: set OPSDESK_LLM_SMOKE_URL to run against a real OpenAI-compatible server"
        );
        return;
    };
    let mut p = provider(ProviderKind::Local, &url, false);
    p.model = std::env::var("OPSDESK_LLM_SMOKE_MODEL").unwrap_or_else(|_| "llama3.1".into());
    p.timeout_secs = 120;
    p.first_chunk_timeout_secs = 60;
    let cfg = llm("local", vec![("local", p)]);
    let r = Router::new(RouterOptions::default()).unwrap();
    let mut streamed = String::new();
    let mut req = request("Answer with one word: what colour is the sky on a clear day?");
    req.max_tokens = Some(16);
    let resp = call(
        &r,
        &cfg,
        &plain_profile(),
        &Trail::default(),
        &req,
        Some(&mut streamed),
    )
    .await
    .expect("the smoke server answered");
    println!(
        "smoke answer from {}: {:?} usage {:?}",
        resp.model, resp.text, resp.usage
    );
    assert!(!resp.text.trim().is_empty());
    assert_eq!(resp.text, streamed);
}

#[tokio::test]
async fn a_provider_switched_off_mid_call_gets_no_further_attempt() {
    let a = Fake::start().await;
    let b = Fake::start().await;
    a.script(CHAT, vec![Reply::Whole(503, vec![], String::new())]);
    b.script(CHAT, vec![answer(&["b"], 1, 1)]);
    let cfg = llm(
        "a",
        vec![
            ("a", provider(ProviderKind::Openai, &a.url, false)),
            ("b", provider(ProviderKind::Openai, &b.url, false)),
        ],
    );
    // The operator switches `a` off while its first attempt is under way.
    let mut off = cfg.clone();
    off.providers.get_mut("a").unwrap().enabled = false;
    let refresh = move || -> Result<LlmConfig, String> { Ok(off.clone()) };
    let trail = Trail::default();
    let profile = plain_profile();
    let cx = CallContext {
        llm: &cfg,
        profile_name: "p",
        profile: &profile,
        actor: "test",
        audit: &trail,
        refresh: Some(&refresh),
    };
    let resp = router().complete(&cx, &request("x"), None).await.unwrap();
    assert_eq!(resp.provider, "b");
    assert_eq!(a.posts().len(), 1, "no retry on a provider switched off");
    assert!(
        trail
            .events()
            .iter()
            .any(|e| e.event == "llm.skip" && e.target.as_deref() == Some("a")),
        "{:?}",
        trail.names()
    );

    // An unreadable overlay mid-call blocks (fail closed).
    let broken = || -> Result<LlmConfig, String> { Err("providers.json: bad JSON".into()) };
    let cx = CallContext {
        refresh: Some(&broken),
        ..cx
    };
    let err = router()
        .complete(&cx, &request("x"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, LlmError::Blocked { rule, .. } if rule == "providers_unreadable"),
        "{err:?}"
    );
}

/// A figure, not a check: time per streamed call through the router against the in-process
/// fake (loopback HTTP, 3 content chunks + usage), plain and with redaction + re-identification.
/// `cargo test --release --test llm_router measure -- --ignored --nocapture`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_router_overhead() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["a", "b", "c"], 1, 1)]);
    let echo = Fake::start().await;
    echo.script(CHAT, vec![Reply::Echo { piece: 16 }]);
    let plain = llm(
        "a",
        vec![("a", provider(ProviderKind::Openai, &fake.url, false))],
    );
    let redacting = llm(
        "e",
        vec![("e", provider(ProviderKind::Local, &echo.url, true))],
    );
    let r = router();
    let trail = Trail::default();
    let note = "Patient Maria Lopez (MRN: 00482913, DOB 03/14/1931) called from (555) 867-5309.";
    for (label, cfg, profile) in [
        ("plain", &plain, plain_profile()),
        ("redacted + re-identified", &redacting, hipaa_profile()),
    ] {
        let n = 300;
        for _ in 0..20 {
            call(&r, cfg, &profile, &trail, &request(note), None)
                .await
                .unwrap();
        }
        let t = Instant::now();
        for _ in 0..n {
            call(&r, cfg, &profile, &trail, &request(note), None)
                .await
                .unwrap();
        }
        let per = t.elapsed() / n;
        println!("{label}: {per:?} per call ({n} calls, fake server in-process)");
    }
}
