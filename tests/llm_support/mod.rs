//! An in-process fake OpenAI-compatible provider (axum on 127.0.0.1:0) for the router tests:
//! scripted replies per path, every request recorded (path, headers, body, time).
#![allow(dead_code)] // each test file uses part of it

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

/// One step of a scripted answer.
#[derive(Clone, Debug)]
pub enum Step {
    /// Write these bytes.
    Bytes(String),
    /// Wait before the next step.
    Sleep(Duration),
}

#[derive(Clone, Debug)]
pub enum Reply {
    /// Status, headers, body (a whole answer).
    Whole(u16, Vec<(&'static str, String)>, String),
    /// 200 `text/event-stream` written step by step.
    Stream(Vec<Step>),
    /// Stream the last user message back as content deltas of `piece` bytes (so placeholders
    /// arrive split across chunks), with usage and `[DONE]`.
    Echo { piece: usize },
}

#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: HeaderMap,
    pub body: String,
    pub at: Instant,
}

#[derive(Default)]
pub struct FakeState {
    requests: Vec<Recorded>,
    /// Scripted replies per path suffix ("" matches every path), used in order; the last one
    /// repeats.
    scripts: Vec<(String, VecDeque<Reply>)>,
}

#[derive(Clone)]
pub struct Fake {
    pub url: String,
    state: Arc<Mutex<FakeState>>,
}

impl Fake {
    pub async fn start() -> Fake {
        let state = Arc::new(Mutex::new(FakeState::default()));
        let st = state.clone();
        let app = axum::Router::new().fallback(
            move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
                let st = st.clone();
                async move { handle(st, method, uri, headers, body).await }
            },
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        // Like a real provider's front end: small SSE writes go out at once (no Nagle delay).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Fake {
            url: format!("http://{addr}"),
            state,
        }
    }

    /// Script the replies for paths ending in `path`.
    pub fn script(&self, path: &str, replies: Vec<Reply>) {
        self.state
            .lock()
            .unwrap()
            .scripts
            .push((path.to_string(), replies.into()));
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn posts(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "POST")
            .collect()
    }
}

async fn handle(
    st: Arc<Mutex<FakeState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    let body = String::from_utf8_lossy(&body).into_owned();
    let reply = {
        let mut s = st.lock().unwrap();
        s.requests.push(Recorded {
            method: method.to_string(),
            path: path.clone(),
            headers,
            body: body.clone(),
            at: Instant::now(),
        });
        let p = uri.path().to_string();
        let script = s
            .scripts
            .iter_mut()
            .find(|(suffix, _)| p.ends_with(suffix.as_str()));
        match script {
            Some((_, q)) if q.len() > 1 => q.pop_front().unwrap(),
            Some((_, q)) if q.len() == 1 => q[0].clone(),
            _ => Reply::Whole(404, vec![], r#"{"error":{"message":"no script"}}"#.into()),
        }
    };
    match reply {
        Reply::Whole(status, hs, body) => {
            let mut b = Response::builder()
                .status(StatusCode::from_u16(status).unwrap())
                .header("content-type", "application/json");
            for (k, v) in hs {
                b = b.header(k, v);
            }
            b.body(Body::from(body)).unwrap()
        }
        Reply::Stream(steps) => stream_response(steps),
        Reply::Echo { piece } => {
            let v: Value = serde_json::from_str(&body).unwrap();
            let last = v["messages"]
                .as_array()
                .unwrap()
                .iter()
                .rev()
                .find(|m| m["role"] == "user")
                .unwrap()["content"]
                .as_str()
                .unwrap()
                .to_string();
            let chars: Vec<char> = last.chars().collect();
            let mut steps = vec![];
            for c in chars.chunks(piece) {
                let s: String = c.iter().collect();
                steps.push(Step::Bytes(chunk(&s)));
            }
            steps.push(Step::Bytes(finish_chunk()));
            steps.push(Step::Bytes(usage_chunk(11, 7)));
            steps.push(Step::Bytes(DONE.into()));
            stream_response(steps)
        }
    }
}

pub fn stream_response(steps: Vec<Step>) -> Response {
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(16);
    tokio::spawn(async move {
        for s in steps {
            match s {
                Step::Bytes(b) => {
                    if tx.send(Bytes::from(b)).await.is_err() {
                        return;
                    }
                }
                Step::Sleep(d) => tokio::time::sleep(d).await,
            }
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    });
    Response::builder()
        .status(200)
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(Body::from_stream(stream))
        .unwrap()
}

pub const DONE: &str = "data: [DONE]\n\n";

pub fn chunk(content: &str) -> String {
    let v = json!({"id":"c1","object":"chat.completion.chunk","created":1,"model":"fake-model",
        "choices":[{"index":0,"delta":{"content":content},"finish_reason":null}]});
    format!("data: {v}\n\n")
}

pub fn finish_chunk() -> String {
    let v = json!({"id":"c1","object":"chat.completion.chunk","created":1,"model":"fake-model",
        "choices":[{"index":0,"delta":{},"finish_reason":"stop"}]});
    format!("data: {v}\n\n")
}

pub fn usage_chunk(p: u64, c: u64) -> String {
    let v = json!({"id":"c1","object":"chat.completion.chunk","created":1,"model":"fake-model","choices":[],
        "usage":{"prompt_tokens":p,"completion_tokens":c,"total_tokens":p+c}});
    format!("data: {v}\n\n")
}

/// A normal streamed answer: a keep-alive comment, deltas, finish, usage, `[DONE]`.
pub fn answer(parts: &[&str], p: u64, c: u64) -> Reply {
    let mut steps = vec![Step::Bytes(": keep-alive\n\n".into())];
    steps.extend(parts.iter().map(|t| Step::Bytes(chunk(t))));
    steps.push(Step::Bytes(finish_chunk()));
    steps.push(Step::Bytes(usage_chunk(p, c)));
    steps.push(Step::Bytes(DONE.into()));
    Reply::Stream(steps)
}

pub fn error_body(message: &str, typ: &str, code: &str) -> String {
    json!({"error":{"message":message,"type":typ,"param":null,"code":code}}).to_string()
}

/// A config file and a data dir for an engine on a fake model: the engine opened in process
/// (`Mode::Secondary`, beside any other) and the CLI run against the same files.
pub struct Env {
    pub dir: tempfile::TempDir,
    pub config: String,
}

impl Env {
    pub fn new(config: String) -> Env {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), &config).unwrap();
        Env { dir, config }
    }

    pub fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }

    pub fn engine(&self) -> Arc<opsdesk::engine::Engine> {
        let paths = opsdesk::paths::Paths::resolve(
            Some(self.data()),
            Some(self.dir.path().join("config.toml")),
        )
        .unwrap();
        let config =
            opsdesk::config::Config::from_toml_str(&self.config, std::path::Path::new("test.toml"))
                .unwrap();
        Arc::new(
            opsdesk::engine::Engine::open(paths, config, opsdesk::engine::Mode::Secondary).unwrap(),
        )
    }

    /// `opsdesk ARGS` on this env's files.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .args(args)
            .env("OPSDESK_DATA_DIR", self.data())
            .env("OPSDESK_CONFIG", self.dir.path().join("config.toml"))
            .env_remove("OPSDESK_LOG")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    }

    /// (event, outcome, reason) of the newest 500 audit records, oldest first.
    pub fn audit(&self, engine: &opsdesk::engine::Engine) -> Vec<(String, String, String)> {
        engine
            .audit_tail(500)
            .unwrap()
            .into_iter()
            .map(|r| {
                (
                    r.event.event,
                    r.event.outcome.as_str().to_string(),
                    r.event.reason.unwrap_or_default(),
                )
            })
            .collect()
    }
}
