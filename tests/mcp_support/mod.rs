//! Shared by the MCP integration tests: a real `opsdesk serve` on a free loopback port with a
//! temp data dir, stopped (and waited for) when dropped, and the interop tools installed by
//! `.ci/deps/mcp.sh`.
#![allow(dead_code)]

pub mod stdio;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const BIN: &str = env!("CARGO_BIN_EXE_opsdesk");

pub struct Server {
    child: Option<Child>,
    pub url: String,
    pub base: String,
    pub token: String,
    pub data_dir: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Server {
    /// `opsdesk serve --bind 127.0.0.1:0` plus `extra`, with `config` (TOML) if given.
    pub fn start(extra: &[&str], config: Option<&str>) -> Server {
        Server::start_env(extra, config, &[])
    }

    /// Like [`Server::start`], with extra environment variables (named clients' tokens).
    pub fn start_env(extra: &[&str], config: Option<&str>, env: &[(&str, &str)]) -> Server {
        let tmp = tempfile::tempdir().expect("temp dir");
        let data_dir = tmp.path().join("data");
        let mut cmd = Command::new(BIN);
        cmd.arg("--data-dir").arg(&data_dir);
        if let Some(c) = config {
            let path = tmp.path().join("config.toml");
            std::fs::write(&path, c).expect("write config");
            cmd.arg("--config").arg(path);
        }
        cmd.args(["serve", "--bind", "127.0.0.1:0"]).args(extra);
        // The config dir (and the integrity key in it) inside the tempdir, never the real HOME.
        cmd.env("XDG_CONFIG_HOME", tmp.path().join("xdg"));
        cmd.env_remove("OPSDESK_TOKEN").env("OPSDESK_LOG", "warn");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let child = cmd.spawn().expect("spawn opsdesk serve");
        let mut s = Server {
            child: Some(child),
            url: String::new(),
            base: String::new(),
            token: String::new(),
            data_dir,
            _tmp: tmp,
        };
        s.wait_ready();
        s
    }

    fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let runtime = self.data_dir.join("engine.json");
        loop {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                let mut err = String::new();
                if let Some(mut e) = self.child.as_mut().and_then(|c| c.stderr.take()) {
                    use std::io::Read;
                    let _ = e.read_to_string(&mut err);
                }
                panic!("opsdesk serve exited early ({status}): {err}");
            }
            if let Ok(bytes) = std::fs::read(&runtime)
                && let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes)
                && let Some(url) = v["mcp_url"].as_str()
            {
                let base = url.trim_end_matches("/mcp").to_string();
                if health_ok(&base) {
                    self.url = url.to_string();
                    self.base = base;
                    self.token = std::fs::read_to_string(self.data_dir.join("mcp-token"))
                        .map(|t| t.trim().to_string())
                        .unwrap_or_default();
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "opsdesk serve did not become ready within 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(|c| c.id()).unwrap_or(0)
    }

    /// SIGTERM and wait (bounded); returns whether it exited by itself in time.
    pub fn stop(&mut self) -> Option<std::process::ExitStatus> {
        let mut child = self.child.take()?;
        // SAFETY: signalling our own child process.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(st)) = child.try_wait() {
                return Some(st);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        None
    }

    /// The `XDG_CONFIG_HOME` the server runs with: a client process that runs `opsdesk` on this
    /// server's data dir (an interop script's `inbox add`) needs it, since the integrity key
    /// sits next to the config and a data dir is only opened with the key it was written with.
    pub fn config_home(&self) -> PathBuf {
        self._tmp.path().join("xdg")
    }

    /// `opsdesk <args>` on this server's data dir.
    pub fn cli(&self, args: &[&str]) -> std::process::Output {
        let mut cmd = Command::new(BIN);
        cmd.arg("--data-dir").arg(&self.data_dir);
        // The server's own config, when it was started with one.
        let config = self._tmp.path().join("config.toml");
        if config.exists() && !args.contains(&"--config") {
            cmd.arg("--config").arg(config);
        }
        cmd.args(args)
            .env("XDG_CONFIG_HOME", self._tmp.path().join("xdg"))
            .env_remove("OPSDESK_TOKEN")
            .output()
            .expect("run opsdesk")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn health_ok(base: &str) -> bool {
    use std::io::{Read, Write};
    let Some(hostport) = base.strip_prefix("http://") else {
        return false;
    };
    let Ok(mut s) = std::net::TcpStream::connect(hostport) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    if s.write_all(
        format!("GET /health HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .is_err()
    {
        return false;
    }
    let mut buf = String::new();
    let _ = s.read_to_string(&mut buf);
    buf.starts_with("HTTP/1.1 200")
}

/// A tool `.ci/deps/mcp.sh` installs into `.ci/tools/bin`; fails the test (never skips) when
/// it is missing.
pub fn ci_tool(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".ci/tools/bin")
        .join(name);
    assert!(
        p.exists(),
        "{} is missing: run `.ci/deps/mcp.sh` to install the MCP interop peers (Node 22, the conformance suite, the TypeScript and Python SDKs)",
        p.display()
    );
    p
}

pub fn npm_dir() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/tools/npm");
    assert!(
        p.join("node_modules/@modelcontextprotocol").exists(),
        "{} has no MCP npm packages: run `.ci/deps/mcp.sh`",
        p.display()
    );
    p
}

pub fn interop_script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(name)
}

/// Run a command with a time limit, killing it when over; returns (status ok, stdout, stderr).
pub fn run_bounded(mut cmd: Command, limit: Duration) -> (bool, String, String) {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn interop command");
    let out = child.stdout.take();
    let err = child.stderr.take();
    let read = |p: Option<std::process::ChildStdout>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = p {
                use std::io::Read;
                let _ = p.read_to_string(&mut s);
            }
            s
        })
    };
    let t_out = read(out);
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut p) = err {
            use std::io::Read;
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Ok(Some(st)) = child.try_wait() {
            break Some(st);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let so = t_out.join().unwrap_or_default();
    let se = t_err.join().unwrap_or_default();
    match status {
        Some(st) => (st.success(), so, se),
        None => (false, so, format!("{se}\n(killed after {limit:?})")),
    }
}

/// One stateless JSON-RPC call at protocol 2026-07-28 (its `_meta` and headers), as `client`;
/// the answer whether framed as JSON or as SSE.
pub async fn rpc(server: &Server, client: &str, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"},
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut req = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {}", server.token))
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    // The name header names the tool, prompt or resource the call is about.
    if let Some(n) = params["name"].as_str().or(params["uri"].as_str()) {
        req = req.header("mcp-name", n);
    }
    let text = req
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    serde_json::from_str::<Value>(&text)
        .ok()
        .unwrap_or_else(|| {
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                .next_back()
                .unwrap_or(Value::Null)
        })
}

/// `tools/call` through [`rpc`]; fails the test on a JSON-RPC error, else the `result`.
pub async fn call(server: &Server, client: &str, tool: &str, args: Value) -> Value {
    let v = rpc(
        server,
        client,
        "tools/call",
        json!({"name": tool, "arguments": args}),
    )
    .await;
    assert!(v["error"].is_null(), "{tool}: {v}");
    v["result"].clone()
}

/// Every identifier of the patient message [`add_patient_message`] stores; none may reach a
/// client that is not HIPAA-cleared.
pub const PATIENT_IDENTIFIERS: &[&str] = &[
    "Okafor",
    "00482913",
    "1958-03-14",
    "555-201-4477",
    "m.okafor@example.org",
];

/// Store a patient's refill request in profile `clinic` through the operator's CLI.
pub fn add_patient_message(server: &Server) {
    let o = server.cli(&[
        "inbox",
        "add",
        "--profile",
        "clinic",
        "--channel",
        "email",
        "--from",
        "Margaret Okafor <m.okafor@example.org>",
        "--subject",
        "Refill request from Margaret Okafor",
        "--body",
        "Patient Margaret Okafor MRN: 00482913 DOB: 1958-03-14, call back at 555-201-4477. HbA1c 7.9%.",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `s` as opsdesk fences a value a sender wrote, with fence id `fence`
/// (`<<untrusted:ID>>\n…\n<</untrusted:ID>>`).
pub fn fenced(fence: &str, s: &str) -> String {
    format!("<<untrusted:{fence}>>\n{s}\n<</untrusted:{fence}>>")
}

/// What is inside fenced value `s` when it is fenced with `fence` (an answer's `fence`); `None`
/// when it is not exactly one such value.
pub fn inside<'a>(fence: &str, s: &'a str) -> Option<&'a str> {
    s.strip_prefix(&format!("<<untrusted:{fence}>>\n"))?
        .strip_suffix(&format!("\n<</untrusted:{fence}>>"))
}

/// `v` with every string fenced with `fence` replaced by what is inside: for tests about what
/// a value says, not about its fence (the fence has tests of its own).
pub fn unfence(fence: &str, v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::String(s) => Value::String(inside(fence, s).unwrap_or(s).to_string()),
        Value::Array(a) => Value::Array(a.iter().map(|x| unfence(fence, x)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), unfence(fence, x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A tool answer's structured content with its fences taken off (see [`unfence`]).
pub fn unfenced_answer(structured: &serde_json::Value) -> serde_json::Value {
    let fence = structured["fence"]
        .as_str()
        .expect("a fenced answer names its fence");
    unfence(fence, structured)
}
