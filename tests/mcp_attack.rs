//! The MCP endpoint under attack (issue 15): slow and idle connections, connection and session
//! caps, token guessing, short tokens, cleartext exposure, and protocol oddities. Each answer is
//! checked on the wire with raw HTTP against a real `opsdesk serve`.

mod mcp_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_support::{BIN, Server};
use serde_json::{Value, json};

const ACCEPT: &str = "application/json, text/event-stream";

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("http client")
}

async fn post_raw(
    server: &Server,
    token: Option<&str>,
    body: impl Into<reqwest::Body>,
    extra: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut rb = http()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT)
        .body(body);
    if let Some(t) = token {
        rb = rb.header("authorization", format!("Bearer {t}"));
    }
    for (k, v) in extra {
        rb = rb.header(*k, *v);
    }
    let resp = rb.send().await.expect("send");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.text().await.unwrap_or_default())
}

fn message(text: &str) -> Value {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return v;
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .next_back()
        .unwrap_or(Value::Null)
}

fn modern_headers() -> Vec<(&'static str, &'static str)> {
    vec![("mcp-protocol-version", "2026-07-28")]
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "attacker", "version": "1"},
    })
}

fn hostport(server: &Server) -> String {
    server
        .base
        .strip_prefix("http://")
        .expect("http base")
        .to_string()
}

/// Read until EOF or error; true when the server closed the connection within `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> bool {
    s.set_read_timeout(Some(limit)).expect("timeout");
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false;
            }
            Err(_) => return true, // reset
        }
    }
}

fn serve_fails_with(env: &[(&str, &str)], config: Option<&str>) -> String {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir").arg(tmp.path().join("d"));
    cmd.env("XDG_CONFIG_HOME", tmp.path().join("xdg"));
    if let Some(c) = config {
        let p = tmp.path().join("config.toml");
        std::fs::write(&p, c).expect("config");
        cmd.arg("--config").arg(p);
    }
    cmd.args(["serve", "--bind", "127.0.0.1:0"])
        .env_remove("OPSDESK_TOKEN");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (ok, _out, err) = mcp_support::run_bounded(cmd, Duration::from_secs(60));
    assert!(!ok, "serve started although it should refuse: {err}");
    err
}

#[test]
fn a_short_opsdesk_token_is_refused_with_how_to_make_one() {
    let err = serve_fails_with(&[("OPSDESK_TOKEN", "abc")], None);
    assert!(err.contains("at least 32"), "{err}");
    assert!(err.contains("openssl rand -hex 32"), "{err}");
}

#[test]
fn a_named_clients_short_or_missing_token_is_refused() {
    let config = "[server.clients.scribe]\ntoken_env = \"SCRIBE_TOKEN\"\n";
    let err = serve_fails_with(&[("SCRIBE_TOKEN", "short-token")], Some(config));
    assert!(
        err.contains("SCRIBE_TOKEN") && err.contains("at least 32"),
        "{err}"
    );
    let err = serve_fails_with(&[], Some(config));
    assert!(
        err.contains("SCRIBE_TOKEN") && err.contains("not set"),
        "{err}"
    );
}

#[test]
fn non_loopback_serving_warns_that_the_token_travels_in_cleartext() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(BIN)
        .arg("--data-dir")
        .arg(tmp.path().join("d"))
        .args(["serve", "--bind", "0.0.0.0:0", "--allow-non-loopback"])
        .env("XDG_CONFIG_HOME", tmp.path().join("xdg"))
        .env_remove("OPSDESK_TOKEN")
        .env("OPSDESK_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut seen = String::new();
        let mut buf = [0u8; 4096];
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline && !seen.contains("listening") {
            match err.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
            }
        }
        seen
    });
    let seen = reader.join().expect("reader");
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen.contains("cleartext"), "{seen}");
    assert!(seen.contains("TLS reverse proxy"), "{seen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_token_attempts_are_throttled_per_peer_with_retry_after() {
    let server = Server::start(&[], Some("[server]\nauth_failures_burst = 3\n"));
    let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta": meta()}})
        .to_string();
    let h = modern_headers();
    let mut statuses = Vec::new();
    let mut retry = None;
    for i in 0..6 {
        let (s, headers, _) =
            post_raw(&server, Some(&format!("guess-{i}")), body.clone(), &h).await;
        statuses.push(s);
        if s == 429 {
            retry = headers
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
        }
    }
    assert_eq!(&statuses[..3], &[401, 401, 401], "{statuses:?}");
    // (The allowance refills at one per second, so on a slow machine one more 401 may slip in.)
    assert!(
        statuses[3..].iter().filter(|s| **s == 429).count() >= 2,
        "{statuses:?}"
    );
    assert!(retry.is_some_and(|r| r >= 1), "Retry-After missing");
    // The throttle counts failures, not the address: the right token is served at once, and
    // the endpoint's other checks still give their own answers.
    let h = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
    ];
    let (s, _, text) = post_raw(&server, Some(&server.token), body.clone(), &h).await;
    assert_eq!(s, 200, "the right token was throttled: {text}");
    let (s, _, _) = post_raw(
        &server,
        Some(&server.token),
        body.clone(),
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
            ("host", "evil.example"),
        ],
    )
    .await;
    assert_ne!(s, 429, "a bad Host got the throttle's answer");
    let (s, _, _) = post_raw(&server, Some("still-guessing"), body.clone(), &h).await;
    assert_eq!(s, 429, "a wrong token is still throttled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_client_keeps_working_while_a_bad_one_guesses() {
    let server = Server::start(&[], Some("[server]\nauth_failures_burst = 3\n"));
    let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta": meta()}})
        .to_string();
    let h = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
    ];
    let bad = async {
        for i in 0..30 {
            post_raw(&server, Some(&format!("guess-{i}")), body.clone(), &h).await;
        }
    };
    let good = async {
        let mut statuses = Vec::new();
        for _ in 0..30 {
            statuses.push(
                post_raw(&server, Some(&server.token), body.clone(), &h)
                    .await
                    .0,
            );
        }
        statuses
    };
    let ((), statuses) = tokio::join!(bad, good);
    assert!(
        statuses.iter().all(|s| *s == 200),
        "the good client was refused: {statuses:?}"
    );
}

#[test]
fn an_idle_connection_is_closed_after_the_header_timeout() {
    let server = Server::start(&[], Some("[server]\nheader_read_timeout_secs = 1\n"));
    let mut s = TcpStream::connect(hostport(&server)).expect("connect");
    assert!(
        closed_within(&mut s, Duration::from_secs(15)),
        "an idle connection stayed open"
    );
}

#[test]
fn a_slowloris_connection_is_closed_although_it_keeps_sending() {
    let server = Server::start(&[], Some("[server]\nheader_read_timeout_secs = 1\n"));
    let mut s = TcpStream::connect(hostport(&server)).expect("connect");
    s.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .expect("write");
    let start = Instant::now();
    let mut closed = false;
    while start.elapsed() < Duration::from_secs(15) {
        if s.write_all(b"X-Slow: a\r\n").is_err() {
            closed = true;
            break;
        }
        s.set_read_timeout(Some(Duration::from_millis(300)))
            .expect("timeout");
        let mut b = [0u8; 64];
        match s.read(&mut b) {
            Ok(0) => {
                closed = true;
                break;
            }
            Ok(_) => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert!(closed, "a connection dribbling headers stayed open");
}

/// One authenticated MCP request over a raw keep-alive connection; true on a 200 answer.
fn authenticated_request(s: &mut TcpStream, server: &Server) -> bool {
    let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta": meta()}})
        .to_string();
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nAccept: {ACCEPT}\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: {}\r\n\r\n{body}",
        hostport(server),
        server.token,
        body.len()
    );
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut buf = [0u8; 64];
    match s.read(&mut buf) {
        Ok(n) if n > 0 => {
            // Drain the rest of the answer so the connection is idle again.
            s.set_read_timeout(Some(Duration::from_millis(300)))
                .expect("timeout");
            let mut rest = [0u8; 65536];
            while let Ok(m) = s.read(&mut rest) {
                if m == 0 {
                    break;
                }
            }
            String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200")
        }
        _ => false,
    }
}

fn health(server: &Server) -> bool {
    let mut s = TcpStream::connect(hostport(server)).expect("connect");
    let _ = s.write_all(
        format!(
            "GET /health HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            hostport(server)
        )
        .as_bytes(),
    );
    let mut buf = String::new();
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = s.read_to_string(&mut buf);
    buf.starts_with("HTTP/1.1 200")
}

#[test]
fn at_the_cap_idle_strangers_make_room_and_authenticated_clients_stay() {
    let server = Server::start(
        &[],
        Some("[server]\nmax_connections = 4\nheader_read_timeout_secs = 60\n"),
    );
    // The operator's client, authenticated, then idle on its keep-alive connection.
    let mut client = TcpStream::connect(hostport(&server)).expect("connect");
    assert!(authenticated_request(&mut client, &server));
    // A flood of idle sockets fills the rest of the cap.
    let mut idle: Vec<TcpStream> = (0..3)
        .map(|_| {
            let s = TcpStream::connect(hostport(&server)).expect("connect");
            std::thread::sleep(Duration::from_millis(50));
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // A newcomer is served: the oldest idle stranger was closed to make room.
    assert!(health(&server), "a new connection was refused at the cap");
    assert!(
        closed_within(&mut idle[0], Duration::from_secs(10)),
        "the oldest idle stranger was kept"
    );
    // More newcomers push out the other strangers, never the authenticated client.
    assert!(health(&server));
    assert!(health(&server));
    assert!(
        authenticated_request(&mut client, &server),
        "the authenticated client's connection was closed"
    );
}

#[test]
fn connections_over_the_cap_are_closed_at_once_when_every_one_is_authenticated() {
    let server = Server::start(
        &[],
        Some("[server]\nmax_connections = 4\nheader_read_timeout_secs = 60\n"),
    );
    let mut held: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(hostport(&server)).expect("connect"))
        .collect();
    for s in &mut held {
        assert!(authenticated_request(s, &server));
    }
    let mut extra = TcpStream::connect(hostport(&server)).expect("connect");
    assert!(
        closed_within(&mut extra, Duration::from_secs(10)),
        "a connection over the cap was kept"
    );
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut ok = false;
    while Instant::now() < deadline && !ok {
        ok = health(&server);
        if !ok {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    assert!(ok, "/health not served once the held connections closed");
}

async fn initialize(server: &Server, token: &str) -> (u16, Option<String>, Value) {
    let body = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})
    .to_string();
    let (s, h, text) = post_raw(server, Some(token), body, &[]).await;
    let sid = h
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (s, sid, message(&text))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_capped_with_a_clear_error_and_delete_frees_a_slot() {
    let server = Server::start(&[], Some("[server]\nmax_sessions = 2\n"));
    let token = server.token.clone();
    let (s1, a, _) = initialize(&server, &token).await;
    let (s2, _b, _) = initialize(&server, &token).await;
    assert_eq!((s1, s2), (200, 200));
    let (s3, _, v) = initialize(&server, &token).await;
    assert_eq!(s3, 503, "{v}");
    assert_eq!(v["error"]["code"], -32010, "{v}");
    assert!(
        v["error"]["data"]["hint"]
            .as_str()
            .unwrap_or("")
            .contains("max_sessions"),
        "{v}"
    );
    // Ending a session (DELETE) answers 204 and makes room.
    let a = a.expect("session id");
    let resp = http()
        .delete(&server.url)
        .header("authorization", format!("Bearer {token}"))
        .header("mcp-session-id", &a)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("delete");
    assert_eq!(resp.status().as_u16(), 204);
    let (s4, _, v) = initialize(&server, &token).await;
    assert_eq!(s4, 200, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_of_an_unknown_session_is_404() {
    let server = Server::start(&[], None);
    let resp = http()
        .delete(&server.url)
        .header("authorization", format!("Bearer {}", server.token))
        .header("mcp-session-id", "no-such-session")
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("delete");
    assert_eq!(resp.status().as_u16(), 404);
    let v: Value = serde_json::from_str(&resp.text().await.unwrap_or_default()).unwrap_or_default();
    assert!(v["error"]["code"].is_i64(), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_usable_only_with_the_credential_that_opened_it() {
    let other = "p".repeat(40);
    let server = Server::start_env(
        &[],
        Some("[server.clients.other]\ntoken_env = \"OTHER_TOKEN\"\n"),
        &[("OTHER_TOKEN", other.as_str())],
    );
    let (_, sid, _) = initialize(&server, &server.token.clone()).await;
    let sid = sid.expect("session id");
    let body = json!({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}).to_string();
    let (s, _, text) = post_raw(
        &server,
        Some(&other),
        body,
        &[
            ("mcp-session-id", sid.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ],
    )
    .await;
    assert_eq!(s, 404, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odd_messages_get_400_with_a_json_rpc_error_not_a_bare_415() {
    let server = Server::start(&[], None);
    let token = server.token.clone();
    let h = modern_headers();
    let m = meta();
    let mut deep = json!("x");
    for _ in 0..100 {
        deep = json!({"a": deep});
    }
    let cases: Vec<(Vec<u8>, i64, &str)> = vec![
        (
            json!({"jsonrpc":"2.0","id":{"odd":1},"method":"tools/list","params":{"_meta": m}}).to_string().into_bytes(),
            -32600,
            "object id",
        ),
        (
            json!({"jsonrpc":"2.0","id":1.5,"method":"tools/list","params":{"_meta": m}}).to_string().into_bytes(),
            -32600,
            "fractional id",
        ),
        (
            json!({"jsonrpc":"2.0","id":true,"method":"tools/list"}).to_string().into_bytes(),
            -32600,
            "boolean id",
        ),
        (
            json!({"jsonrpc":"2.0","id":3,"method":"tools/list","params":[]}).to_string().into_bytes(),
            -32602,
            "params as an array",
        ),
        (
            [
                &br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"status","arguments":{"x":""#[..],
                &[0xff, 0xfe][..],
                &br#""}}}"#[..],
            ]
            .concat(),
            -32700,
            "invalid UTF-8 in arguments",
        ),
        (
            json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"status","arguments":{"deep": deep}, "_meta": m}}).to_string().into_bytes(),
            -32600,
            "deep nesting",
        ),
        (
            json!({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":5, "_meta": m}}).to_string().into_bytes(),
            -32602,
            "tools/call with a numeric name",
        ),
        (
            json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"status","arguments":[1], "_meta": m}}).to_string().into_bytes(),
            -32602,
            "tools/call with array arguments",
        ),
    ];
    for (body, code, what) in cases {
        let (s, headers, text) = post_raw(&server, Some(&token), body, &h).await;
        assert_eq!(s, 400, "{what}: {s} {text}");
        assert!(
            headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|c| c.starts_with("application/json")),
            "{what}: not JSON"
        );
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!(v["jsonrpc"], "2.0", "{what}: {text}");
        assert_eq!(v["error"]["code"], code, "{what}: {text}");
    }
    // The id is echoed when it is a valid one.
    let (_, _, text) = post_raw(
        &server,
        Some(&token),
        json!({"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":7, "_meta": meta()}}).to_string(),
        &h,
    )
    .await;
    assert_eq!(message(&text)["id"], "abc", "{text}");
}
