//! `opsdesk mcp-config copilot-cli|vscode|claude-code [--write]`: the printed configuration for
//! each client, and `--write` merging into an existing file without clobbering it.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_opsdesk");
const TOKEN: &str = "0123456789abcdef0123456789abcdef-test-token";

struct Env {
    tmp: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        for d in ["home", "project", "data"] {
            std::fs::create_dir_all(tmp.path().join(d)).unwrap();
        }
        std::fs::write(tmp.path().join("data/mcp-token"), format!("{TOKEN}\n")).unwrap();
        Env { tmp }
    }
    fn home(&self) -> PathBuf {
        self.tmp.path().join("home")
    }
    fn project(&self) -> PathBuf {
        self.tmp.path().join("project")
    }
    fn data(&self) -> PathBuf {
        self.tmp.path().join("data")
    }
    /// Pretend an engine runs: engine.json naming this (live) test process.
    fn running_engine(&self, url: &str) {
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_string();
        let info = json!({"pid": std::process::id(), "mcp_url": url, "addr": addr, "started_at": "2026-01-01T00:00:00Z"});
        std::fs::write(self.data().join("engine.json"), info.to_string()).unwrap();
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .arg("--data-dir")
            .arg(self.data())
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env_remove("COPILOT_HOME")
            .env_remove("OPSDESK_TOKEN")
            .env_remove("OPSDESK_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .output()
            .expect("run opsdesk")
    }
    fn print(&self, client: &str) -> (Value, String) {
        let out = self.run(&["mcp-config", client]);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "mcp-config {client} failed: {stderr}");
        let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {}",
                String::from_utf8_lossy(&out.stdout)
            )
        });
        (v, stderr)
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn copilot_cli_config_uses_mcp_servers_http_and_the_token_variable() {
    let env = Env::new();
    env.running_engine("http://127.0.0.1:45678/mcp");
    let (v, stderr) = env.print("copilot-cli");
    assert_eq!(
        v,
        json!({"mcpServers": {"opsdesk": {
            "type": "http",
            "url": "http://127.0.0.1:45678/mcp",
            "headers": {"Authorization": "Bearer ${OPSDESK_TOKEN}"},
            "tools": ["*"],
        }}})
    );
    assert!(stderr.contains(".copilot/mcp-config.json"), "{stderr}");
    assert!(
        stderr.contains("mcp-token"),
        "says where the token is: {stderr}"
    );
    assert!(
        !stderr.contains(TOKEN),
        "the secret is not printed: {stderr}"
    );
}

#[test]
fn vscode_config_uses_servers_and_a_secret_prompt() {
    let env = Env::new();
    // No engine runs: the configured bind (default 127.0.0.1:48080) is used.
    let (v, stderr) = env.print("vscode");
    assert_eq!(
        v,
        json!({
            "inputs": [{
                "type": "promptString",
                "id": "opsdesk-token",
                "description": "opsdesk MCP token (the value of OPSDESK_TOKEN, or of mcp-token in the opsdesk data dir)",
                "password": true,
            }],
            "servers": {"opsdesk": {
                "type": "http",
                "url": "http://127.0.0.1:48080/mcp",
                "headers": {"Authorization": "Bearer ${input:opsdesk-token}"},
            }},
        })
    );
    assert!(stderr.contains(".vscode/mcp.json"), "{stderr}");
}

#[test]
fn claude_code_config_uses_mcp_json_and_shows_the_cli_equivalent() {
    let env = Env::new();
    env.running_engine("http://127.0.0.1:45679/mcp");
    let (v, stderr) = env.print("claude-code");
    assert_eq!(
        v,
        json!({"mcpServers": {"opsdesk": {
            "type": "http",
            "url": "http://127.0.0.1:45679/mcp",
            "headers": {"Authorization": "Bearer ${OPSDESK_TOKEN}"},
        }}})
    );
    assert!(
        stderr.contains("claude mcp add --transport http --scope project opsdesk http://127.0.0.1:45679/mcp --header 'Authorization: Bearer ${OPSDESK_TOKEN}'"),
        "{stderr}"
    );
}

#[test]
fn configured_bind_is_used_when_no_engine_runs() {
    let env = Env::new();
    let cfg = env.tmp.path().join("config.toml");
    std::fs::write(&cfg, "[server]\nbind = \"127.0.0.1:39999\"\n").unwrap();
    let out = env.run(&[
        "--config",
        cfg.to_str().unwrap(),
        "mcp-config",
        "claude-code",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["mcpServers"]["opsdesk"]["url"],
        "http://127.0.0.1:39999/mcp"
    );
}

#[test]
fn write_merges_into_an_existing_file_keeping_other_entries_and_order() {
    let env = Env::new();
    env.running_engine("http://127.0.0.1:45680/mcp");
    let file = env.project().join(".mcp.json");
    let original = r#"{
  "mcpServers": {
    "zeta": {"command": "zeta-mcp", "args": ["--x"], "env": {"A": "1"}},
    "opsdesk": {"type": "sse", "url": "http://old"},
    "alpha": {"type": "http", "url": "https://alpha.example/mcp"}
  },
  "someOtherKey": {"keep": [1, 2.5, null, true]}
}
"#;
    std::fs::write(&file, original).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();

    let out = env.run(&["mcp-config", "claude-code", "--write", "--yes"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The diff came first, as a unified diff of the target.
    assert!(
        stderr.contains("--- a/.mcp.json") && stderr.contains("+++ b/.mcp.json"),
        "{stderr}"
    );
    assert!(stderr.contains("+      \"type\": \"http\","), "{stderr}");
    assert!(
        stderr.contains("-    \"opsdesk\": {\"type\": \"sse\", \"url\": \"http://old\"},"),
        "{stderr}"
    );

    let written = std::fs::read_to_string(&file).unwrap();
    let v: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        v["mcpServers"]["zeta"],
        json!({"command": "zeta-mcp", "args": ["--x"], "env": {"A": "1"}})
    );
    assert_eq!(v["mcpServers"]["alpha"]["url"], "https://alpha.example/mcp");
    assert_eq!(
        v["mcpServers"]["opsdesk"]["url"],
        "http://127.0.0.1:45680/mcp"
    );
    assert_eq!(v["someOtherKey"], json!({"keep": [1, 2.5, null, true]}));
    // Key order is the user's, not sorted.
    let (z, o, a) = (
        written.find("\"zeta\"").unwrap(),
        written.find("\"opsdesk\"").unwrap(),
        written.find("\"alpha\"").unwrap(),
    );
    assert!(z < o && o < a, "order changed:\n{written}");
    assert!(written.find("\"mcpServers\"").unwrap() < written.find("\"someOtherKey\"").unwrap());
    // No secret in it, so its mode is what it was.
    assert!(!written.contains(TOKEN));
    assert_eq!(mode(&file), 0o644);

    // Running it again changes nothing.
    let again = env.run(&["mcp-config", "claude-code", "--write", "--yes"]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already up to date"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);
}

#[test]
fn write_vscode_adds_the_input_once_and_keeps_existing_inputs() {
    let env = Env::new();
    let file = env.project().join(".vscode/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        r#"{"servers": {"gh": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}},
            "inputs": [{"type": "promptString", "id": "gh-pat", "password": true}]}"#,
    )
    .unwrap();
    for _ in 0..2 {
        let out = env.run(&["mcp-config", "vscode", "--write", "--yes"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        v["servers"]["gh"]["url"],
        "https://api.githubcopilot.com/mcp/"
    );
    assert_eq!(
        v["servers"]["opsdesk"]["headers"]["Authorization"],
        "Bearer ${input:opsdesk-token}"
    );
    let ids: Vec<&str> = v["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["id"].as_str())
        .collect();
    assert_eq!(ids, ["gh-pat", "opsdesk-token"]);
}

#[test]
fn write_copilot_cli_creates_the_file_under_copilot_home() {
    let env = Env::new();
    let dir = env.tmp.path().join("copilot-home");
    let out = Command::new(BIN)
        .arg("--data-dir")
        .arg(env.data())
        .args(["mcp-config", "copilot-cli", "--write", "--yes"])
        .current_dir(env.project())
        .env("HOME", env.home())
        .env("COPILOT_HOME", &dir)
        .env_remove("OPSDESK_TOKEN")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("--- /dev/null"),
        "a new file diffs against /dev/null: {stderr}"
    );
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mcp-config.json")).unwrap())
            .unwrap();
    assert_eq!(v["mcpServers"]["opsdesk"]["tools"], json!(["*"]));
    assert!(!env.home().join(".copilot").exists());
}

#[test]
fn embedded_token_is_masked_in_the_diff_written_private_and_warned_about() {
    let env = Env::new();
    let file = env.project().join(".mcp.json");
    std::fs::write(&file, "{}\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = env.run(&[
        "mcp-config",
        "claude-code",
        "--embed-token",
        "--write",
        "--yes",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains(TOKEN),
        "the diff shows the secret: {stderr}"
    );
    assert!(
        stderr.contains("WARNING") && stderr.contains("holds the opsdesk MCP token"),
        "{stderr}"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        v["mcpServers"]["opsdesk"]["headers"]["Authorization"],
        format!("Bearer {TOKEN}")
    );
    assert_eq!(mode(&file), 0o600);
}

#[test]
fn write_without_a_terminal_needs_yes_and_changes_nothing() {
    let env = Env::new();
    let file = env.project().join(".mcp.json");
    std::fs::write(&file, "{\"mcpServers\": {}}\n").unwrap();
    let out = env.run(&["mcp-config", "claude-code", "--write"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--yes"), "{stderr}");
    assert!(
        stderr.contains("+++ b/.mcp.json"),
        "the diff is still shown: {stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{\"mcpServers\": {}}\n"
    );
}

#[test]
fn a_file_that_is_not_plain_json_is_never_overwritten() {
    let env = Env::new();
    let file = env.project().join(".vscode/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let jsonc = "{\n  // my servers\n  \"servers\": {}\n}\n";
    std::fs::write(&file, jsonc).unwrap();
    let out = env.run(&["mcp-config", "vscode", "--write", "--yes"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not plain JSON"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), jsonc);
}

#[test]
fn write_follows_a_symlinked_config_file() {
    let env = Env::new();
    let real = env.tmp.path().join("dotfiles-mcp.json");
    std::fs::write(&real, "{\"mcpServers\": {\"x\": {\"command\": \"x\"}}}").unwrap();
    let link = env.project().join(".mcp.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = env.run(&["mcp-config", "claude-code", "--write", "--yes"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    assert!(v["mcpServers"]["x"].is_object() && v["mcpServers"]["opsdesk"].is_object());
}

/// `doctor` tells the operator when a client started from this shell would send another token
/// than the running engine uses (the engine publishes where its token came from and a
/// fingerprint of it in engine.json), and refuses a short `OPSDESK_TOKEN` as `serve` does.
#[test]
fn doctor_compares_this_shells_token_with_the_running_engines() {
    use sha2::{Digest, Sha256};
    let env = Env::new();
    let fingerprint = hex::encode(&Sha256::digest(TOKEN.as_bytes())[..6]);
    let token_file = env.data().join("mcp-token");
    let info = json!({"pid": std::process::id(), "mcp_url": "http://127.0.0.1:9/mcp",
        "addr": "127.0.0.1:9", "started_at": "2026-01-01T00:00:00Z",
        "token_source": token_file.display().to_string(), "token_fingerprint": fingerprint});
    std::fs::write(env.data().join("engine.json"), info.to_string()).unwrap();
    let doctor = |token: Option<&str>| {
        let mut c = Command::new(BIN);
        c.arg("--data-dir")
            .arg(env.data())
            .arg("doctor")
            .env("HOME", env.home())
            .env("XDG_CONFIG_HOME", env.home().join(".config"))
            .env_remove("OPSDESK_CONFIG")
            .env_remove("OPSDESK_TOKEN")
            .stdin(Stdio::null());
        if let Some(t) = token {
            c.env("OPSDESK_TOKEN", t);
        }
        let o = c.output().unwrap();
        let text =
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        text.lines()
            .filter(|l| l.contains("mcp token"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // The same token (the file, no variable): fine.
    let same = doctor(None);
    assert!(same.contains("the running engine uses the same"), "{same}");
    // Another token exported in this shell: the client would get 401; the fix names the file.
    let other = doctor(Some(&"f".repeat(64)));
    assert!(other.contains("wrong bearer token"), "{other}");
    assert!(other.contains("mcp-token"), "{other}");
    // A token serve would refuse.
    let short = doctor(Some("abc"));
    assert!(short.contains("3 characters long"), "{short}");
}
