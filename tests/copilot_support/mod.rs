//! Shared by the Copilot webhook tests: a fake of GitHub's keys endpoint, locally made P-256
//! keys, signing as GitHub does (base64 DER ECDSA over the raw body), plain HTTP/1.1 requests
//! and an event-stream reader.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::{EncodePublicKey, LineEnding};
use serde_json::{Value, json};

use crate::mcp_support::Server;

pub const USER_TOKEN: &str = "ghu_CANARYusertoken0123456789abcdefXYZ";
/// A token GitHub knows, of a user the operator did not allow.
pub const STRANGER_TOKEN: &str = "ghu_STRANGERtoken9876543210fedcbaQRS";
/// The login of [`USER_TOKEN`] (and of the SDK test's token) at the fake `GET /user`.
pub const OPERATOR_LOGIN: &str = "Octo-Operator";

/// GitHub's API, faked: the keys endpoint serves `{"public_keys": [...]}` for the keys it holds
/// now and counts the requests; `GET /user` names the user of a bearer token (401 for an
/// unknown one). Every request's head is kept. [`FakeKeys::set_down`] makes the keys endpoint
/// answer 503 (an outage; still counted as a hit).
pub struct FakeKeys {
    pub url: String,
    keys: Arc<Mutex<Vec<(String, String)>>>,
    hits: Arc<AtomicUsize>,
    down: Arc<AtomicBool>,
    heads: Arc<Mutex<Vec<String>>>,
}

impl FakeKeys {
    pub fn start(initial: &[(&str, &SigningKey)]) -> FakeKeys {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!(
            "http://{}/meta/public_keys/copilot_api",
            listener.local_addr().unwrap()
        );
        let keys = Arc::new(Mutex::new(Vec::new()));
        let hits = Arc::new(AtomicUsize::new(0));
        let down = Arc::new(AtomicBool::new(false));
        let heads = Arc::new(Mutex::new(Vec::new()));
        let fake = FakeKeys {
            url,
            keys: keys.clone(),
            hits: hits.clone(),
            down: down.clone(),
            heads: heads.clone(),
        };
        fake.publish(initial);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { continue };
                let head = read_head(&mut s);
                heads.lock().unwrap().push(head.clone());
                if head.starts_with("GET /user ") {
                    let auth = head
                        .lines()
                        .find_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            k.eq_ignore_ascii_case("authorization")
                                .then(|| v.trim().to_string())
                        })
                        .unwrap_or_default();
                    let login = match auth.strip_prefix("Bearer ") {
                        Some(t) if t == USER_TOKEN || t.starts_with("ghu_sdk") => {
                            Some(OPERATOR_LOGIN)
                        }
                        Some(t) if t == STRANGER_TOKEN => Some("mallory"),
                        _ => None,
                    };
                    let (status, body) = match login {
                        Some(l) => ("200 OK", json!({"login": l, "id": 1}).to_string()),
                        None => (
                            "401 Unauthorized",
                            json!({"message": "Bad credentials"}).to_string(),
                        ),
                    };
                    let _ = write!(
                        s,
                        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    continue;
                }
                hits.fetch_add(1, Ordering::SeqCst);
                if down.load(Ordering::SeqCst) {
                    let body = "{\"message\":\"Service Unavailable\"}";
                    let _ = write!(
                        s,
                        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    continue;
                }
                let list: Vec<Value> = keys
                    .lock()
                    .unwrap()
                    .iter()
                    .map(|(id, pem): &(String, String)| json!({"key_identifier": id, "key": pem, "is_current": true}))
                    .collect();
                let body = json!({ "public_keys": list }).to_string();
                let _ = write!(
                    s,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        fake
    }

    pub fn publish(&self, keys: &[(&str, &SigningKey)]) {
        *self.keys.lock().unwrap() = keys
            .iter()
            .map(|(id, k)| {
                (
                    id.to_string(),
                    k.verifying_key().to_public_key_pem(LineEnding::LF).unwrap(),
                )
            })
            .collect();
    }

    /// Take the keys endpoint down (503) or bring it back.
    pub fn set_down(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
    }

    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    /// The request heads received (keys and `/user`), oldest first.
    pub fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }

    /// The `[copilot_extension]` lines that point opsdesk at this fake and allow the operator.
    pub fn config_lines(&self) -> String {
        format!(
            "keys_url = \"{}\"\ngithub_api_url = \"{}\"\nallowed_users = [\"octo-operator\"]\n",
            self.url,
            self.base()
        )
    }
}

pub fn read_head(s: &mut TcpStream) -> String {
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match s.read(&mut b) {
            Ok(1) => head.push(b[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

pub fn key(seed: u8) -> SigningKey {
    SigningKey::from_slice(&[seed; 32]).unwrap()
}

pub fn sign(k: &SigningKey, body: &str) -> String {
    let sig: Signature = k.sign(body.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(sig.to_der().as_bytes())
}

/// The same signature in its other form, `(r, n − s)`: valid for the same body and key
/// (ECDSA signatures are malleable), yet different bytes.
pub fn sign_other_form(k: &SigningKey, body: &str) -> String {
    let sig: Signature = k.sign(body.as_bytes());
    let (r, s) = sig.split_scalars();
    let other = Signature::from_scalars(r, -s).unwrap();
    assert_ne!(other, sig);
    base64::engine::general_purpose::STANDARD.encode(other.to_der().as_bytes())
}

/// The headers of `body` signed by `k` as `key_id`, with the user's token, for [`post`].
pub fn signed(k: &SigningKey, key_id: &str, body: &str) -> Vec<(String, String)> {
    vec![
        ("Github-Public-Key-Identifier".into(), key_id.into()),
        ("Github-Public-Key-Signature".into(), sign(k, body)),
        ("X-GitHub-Token".into(), USER_TOKEN.into()),
    ]
}

#[derive(Clone)]
pub struct Resp {
    pub status: u16,
    pub head: String,
    pub body: String,
}

/// One HTTP/1.1 POST to the webhook with `headers`; the connection is closed after it.
pub fn post(server: &Server, headers: &[(&str, &str)], body: &str) -> Resp {
    let hostport = server.base.strip_prefix("http://").unwrap();
    let mut s = TcpStream::connect(hostport).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut req = format!(
        "POST /copilot/webhook HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Resp {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

/// A Copilot agent request whose last user message is `text`, signed by `k` as `key_id`.
pub fn ask(server: &Server, k: &SigningKey, key_id: &str, text: &str) -> Resp {
    let body = request_body(text);
    let sig = sign(k, &body);
    post(
        server,
        &[
            ("Github-Public-Key-Identifier", key_id),
            ("Github-Public-Key-Signature", &sig),
            ("X-GitHub-Token", USER_TOKEN),
        ],
        &body,
    )
}

pub fn request_body(text: &str) -> String {
    json!({
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": text},
        ],
        "copilot_thread_id": "thread-1",
        "agent": "opsdesk",
    })
    .to_string()
}

/// The `data:` payloads of an event stream, with the event name of each (`""` for plain data).
pub fn frames(body: &str) -> Vec<(String, String)> {
    body.split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| {
            let mut event = String::new();
            let mut data = String::new();
            for line in f.lines() {
                if let Some(e) = line.strip_prefix("event: ") {
                    event = e.to_string();
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data = d.to_string();
                }
            }
            (event, data)
        })
        .collect()
}

/// All markdown text the stream carries.
pub fn text_of(body: &str) -> String {
    frames(body)
        .iter()
        .filter(|(e, _)| e.is_empty())
        .filter_map(|(_, d)| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| {
            v["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_string)
        })
        .collect()
}

/// The private key of [`key`]`(seed)` as PKCS#8 PEM, for a peer that signs on its own.
pub fn private_key_pem(seed: u8) -> String {
    use p256::pkcs8::EncodePrivateKey;
    let sk = p256::SecretKey::from_slice(&[seed; 32]).unwrap();
    sk.to_pkcs8_pem(LineEnding::LF).unwrap().to_string()
}

impl FakeKeys {
    /// The API base the keys path hangs off (what an Octokit `baseUrl` would be).
    pub fn base(&self) -> String {
        self.url
            .trim_end_matches("/meta/public_keys/copilot_api")
            .to_string()
    }
}
