//! `opsdesk login`, `logout` and `doctor` (the real binary) against the fake identity
//! platform: the device-code sign-in stores a 0600 refresh token and is audited without it;
//! doctor names each problem with the command that fixes it and exits non-zero.

mod graph_support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use graph_support::{CLIENT_ID, Fake};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_opsdesk");

fn write_config(dir: &Path, fake: &Fake) -> std::path::PathBuf {
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[profiles.work]
sources = ["graph_mail", "graph_calendar"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
authority_url = "{}"
base_url = "{}"

[profiles.home]
sources = ["spool"]
"#,
            fake.authority(),
            fake.graph_base()
        ),
    )
    .unwrap();
    config
}

fn run(data: &Path, config: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("--data-dir")
        .arg(data)
        .arg("--config")
        .arg(config)
        .args(args)
        .env_remove("OPSDESK_TOKEN")
        // Files only: never the keyring of whoever runs the tests (tests/graph_keyring.rs
        // covers the keyring on a private bus).
        .env("OPSDESK_TOKEN_STORE", "file")
        .output()
        .expect("run opsdesk")
}

fn doctor(data: &Path, config: &Path) -> (i32, Value) {
    let out = run(data, config, &["--json", "doctor"]);
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).expect("doctor --json"),
    )
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no check {name} in {report}"))
}

#[test]
fn login_stores_a_private_refresh_token_doctor_and_logout_follow() {
    let fake = Fake::start_in_thread();
    fake.with(|s| {
        s.device_interval = 1;
        s.device_script = ["authorization_pending", "ok"].into();
    });
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let config = write_config(tmp.path(), &fake);

    // Before: doctor says what to do.
    let (code, report) = doctor(&data, &config);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["ok"], false);
    let login = check(&report, "login work");
    assert_eq!(login["ok"], false);
    assert_eq!(login["fix"], "opsdesk login work");

    let out = run(&data, &config, &["login", "work"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("FAKE-CODE"), "the code is shown: {stderr}");
    let token_file = data.join("tokens/work.json");
    let mode = std::fs::metadata(&token_file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let stored: Value = serde_json::from_slice(&std::fs::read(&token_file).unwrap()).unwrap();
    let rt = stored["refresh_token"].as_str().unwrap().to_string();
    assert!(fake.with(|s| s.refresh_tokens.contains(&rt)));
    assert!(stored.get("access_token").is_none());
    let scopes = stored["scopes"].to_string();
    assert!(
        scopes.contains("offline_access")
            && scopes.contains("Mail.Send")
            && scopes.contains("Calendars.ReadWrite"),
        "{scopes}"
    );
    fake.with(|s| {
        assert_eq!(s.device_polls, 2);
        let dc = s
            .requests
            .iter()
            .find(|r| r.path.ends_with("/devicecode"))
            .unwrap();
        assert!(dc.path.starts_with("/organizations/"));
    });
    // The sign-in is audited; the token is not in the trail, nor printed.
    let audit: String = std::fs::read_dir(data.join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(audit.contains("\"login\""));
    assert!(!audit.contains(&rt));
    assert!(!String::from_utf8_lossy(&out.stdout).contains(&rt));
    assert!(!stderr.contains(&rt));

    let (code, report) = doctor(&data, &config);
    assert_eq!(check(&report, "login work")["ok"], true, "{report}");
    assert_eq!(code, 0, "{report}");

    // A source reported a revoked sign-in: doctor names the fix.
    let health = data.join("graph/work/health-graph_mail.json");
    std::fs::create_dir_all(health.parent().unwrap()).unwrap();
    std::fs::write(
        &health,
        r#"{"name":"graph_mail:work","ok":false,"failures":3,"last_error":"login required for profile `work` (sign-in expired or revoked: invalid_grant); run `opsdesk login work`","last_ok":null,"items":0}"#,
    )
    .unwrap();
    let (code, report) = doctor(&data, &config);
    assert_eq!(code, 1);
    let src = check(&report, "source graph_mail:work");
    assert_eq!(src["ok"], false);
    assert_eq!(src["fix"], "opsdesk login work");
    std::fs::remove_file(&health).unwrap();

    let out = run(&data, &config, &["logout", "work"]);
    assert!(out.status.success());
    assert!(!token_file.exists());
    let (code, _) = doctor(&data, &config);
    assert_eq!(code, 1);
}

#[test]
fn login_reports_an_expired_code_and_refuses_unknown_profiles() {
    let fake = Fake::start_in_thread();
    fake.with(|s| {
        s.device_interval = 1;
        s.device_script = ["expired_token"].into();
    });
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let config = write_config(tmp.path(), &fake);
    let out = run(&data, &config, &["login", "work"]);
    assert_eq!(out.status.code(), Some(4));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("expired") && err.contains("opsdesk login work"),
        "{err}"
    );
    assert!(!data.join("tokens/work.json").exists());

    let out = run(&data, &config, &["login", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("work"));
    let out = run(&data, &config, &["login", "home"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[profiles.home.graph]"));
}

#[test]
fn graph_urls_accept_plain_http_only_on_loopback() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config.toml");
    let write = |url: &str| {
        std::fs::write(
            &config,
            format!(
                "[profiles.work]\nsources = [\"graph_mail\"]\n[profiles.work.graph]\nclient_id = \"{CLIENT_ID}\"\nbase_url = \"{url}\"\n"
            ),
        )
        .unwrap();
        run(&tmp.path().join("data"), &config, &["config", "check"])
    };
    for good in [
        "https://graph.microsoft.com/v1.0",
        "http://127.0.0.1:8080/v1.0",
        "http://localhost:1/v1.0",
    ] {
        let out = write(good);
        assert!(
            out.status.success(),
            "{good}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for bad in [
        "http://graph.example.com/v1.0",
        "ftp://127.0.0.1/",
        "https://user:pw@graph.microsoft.com",
        "not a url",
    ] {
        let out = write(bad);
        assert_eq!(out.status.code(), Some(2), "{bad} must be refused");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("profiles.work.graph.base_url"), "{bad}: {err}");
    }
}
