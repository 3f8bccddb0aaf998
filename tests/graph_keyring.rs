//! Refresh tokens in the OS keyring, against a real Secret Service: GNOME Keyring started on a
//! private D-Bus session bus (never the bus, keyring or home of whoever runs the tests). The real
//! binary signs in through the fake identity platform, `doctor` reads the token back, `serve`
//! redeems it and saves the rotated one back into the keyring, `logout` removes it; the token is
//! in no file of the data dir at any point.
//!
//! Needs `dbus-daemon` and `gnome-keyring-daemon` (`.ci/deps/keyring.sh` installs them). Without
//! them the test says so loudly and stops, except in CI (`CI` or `CI_REQUIRE_PEERS` set), where
//! it fails.

mod graph_support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use graph_support::{CLIENT_ID, Fake};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_opsdesk");
const WAIT: Duration = Duration::from_secs(60);

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether the peers are here; in CI their absence fails the test instead of skipping it.
fn peers_present() -> bool {
    let missing: Vec<&str> = ["dbus-daemon", "gnome-keyring-daemon"]
        .into_iter()
        .filter(|t| !have(t))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let required = std::env::var_os("CI_REQUIRE_PEERS").is_some_and(|v| v == "1")
        || std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
    assert!(
        !required,
        "the keyring test needs {}: run `bash .ci/deps/keyring.sh` as root (installs dbus and gnome-keyring)",
        missing.join(", ")
    );
    eprintln!(
        "\n*** SKIPPED graph_keyring: {} not installed; run `bash .ci/deps/keyring.sh` as root (CI does, and fails without it) ***\n",
        missing.join(", ")
    );
    false
}

/// A private session bus with GNOME Keyring on it, its login keyring unlocked; its home,
/// data and runtime dirs in a tempdir. Both processes are killed on drop.
struct Keyring {
    address: String,
    home: PathBuf,
    children: Vec<Child>,
    _dir: tempfile::TempDir,
}

impl Keyring {
    fn start() -> Keyring {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let runtime = dir.path().join("run");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&runtime).unwrap();
        std::fs::set_permissions(
            &runtime,
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        // No service activation: nothing on this bus starts by itself.
        let conf = dir.path().join("session.conf");
        std::fs::write(
            &conf,
            format!(
                r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                dir.path().display()
            ),
        )
        .unwrap();
        let mut daemon = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", conf.display()))
            .args(["--nofork", "--nopidfile", "--print-address=1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = address.trim().to_string();
        assert!(!address.is_empty(), "dbus-daemon printed no address");
        let mut kr = Keyring {
            address,
            home,
            children: vec![daemon],
            _dir: dir,
        };
        let mut gk = Command::new("gnome-keyring-daemon");
        let mut gk = kr
            .env(&mut gk)
            .args(["--foreground", "--unlock", "--components=secrets"])
            .env("XDG_RUNTIME_DIR", &runtime)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // `--unlock` reads the login keyring's password from stdin and creates that keyring,
        // the default collection, as a desktop login does. An empty password creates none, so
        // a throwaway one (the keyring file lives in the tempdir).
        gk.stdin.take().unwrap().write_all(b"opsdesk-test").unwrap();
        kr.children.push(gk);
        let deadline = Instant::now() + WAIT;
        while !kr.has_secret_service() {
            assert!(
                Instant::now() < deadline,
                "gnome-keyring-daemon did not take org.freedesktop.secrets"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        kr
    }

    /// `cmd` pointed at this bus and home, and nowhere else.
    fn env<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        cmd.env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .env("HOME", &self.home)
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_CACHE_HOME", self.home.join(".cache"))
    }

    fn has_secret_service(&self) -> bool {
        Command::new("dbus-send")
            .arg(format!("--bus={}", self.address))
            .args([
                "--print-reply",
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner",
                "string:org.freedesktop.secrets",
            ])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("boolean true"))
    }
}

impl Drop for Keyring {
    fn drop(&mut self) {
        for c in self.children.iter_mut().rev() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A running `opsdesk serve`, stopped on drop.
struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn opsdesk(kr: &Keyring, data: &Path, config: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    kr.env(&mut cmd)
        .arg("--data-dir")
        .arg(data)
        .arg("--config")
        .arg(config)
        .args(args)
        .env_remove("OPSDESK_TOKEN")
        .env_remove("OPSDESK_TOKEN_STORE");
    cmd
}

fn run(kr: &Keyring, data: &Path, config: &Path, args: &[&str]) -> std::process::Output {
    opsdesk(kr, data, config, args).output().unwrap()
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no check {name} in {report}"))
}

/// Run `serve` until it has redeemed `old` and polled the mailbox with the access token (so the
/// rotated token is already saved: a refresh saves before it hands out the access token);
/// the refresh token the fake issued in its place.
fn serve_until_redeemed(
    kr: &Keyring,
    data: &Path,
    config: &Path,
    fake: &Fake,
    old: &str,
) -> String {
    let polls = fake.with(|s| s.count("GET", "/delta"));
    let child = opsdesk(kr, data, config, &["serve", "--bind", "127.0.0.1:0"])
        .env("OPSDESK_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let _serve = Serve(child);
    let deadline = Instant::now() + WAIT;
    loop {
        let (issued, polled) = fake.with(|s| {
            (
                s.refresh_tokens.iter().cloned().collect::<Vec<_>>(),
                s.count("GET", "/delta"),
            )
        });
        if polled > polls && !issued.iter().any(|t| t == old) {
            assert_eq!(issued.len(), 1, "{issued:?}");
            return issued[0].clone();
        }
        assert!(
            Instant::now() < deadline,
            "serve never redeemed the token from the keyring"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn doctor(kr: &Keyring, data: &Path, config: &Path) -> Value {
    let out = run(kr, data, config, &["--json", "doctor"]);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "doctor --json: {e}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// `login --json` prints the device-code event, then the outcome.
fn last_json_line(stdout: &[u8]) -> Value {
    serde_json::Deserializer::from_slice(stdout)
        .into_iter::<Value>()
        .last()
        .expect("a JSON document on stdout")
        .unwrap()
}

/// Every file under `dir` whose bytes contain `needle`.
fn files_containing(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut hits = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            hits.extend(files_containing(&p, needle));
        } else if std::fs::read(&p)
            .is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
        {
            hits.push(p);
        }
    }
    hits
}

#[test]
fn the_refresh_token_round_trips_through_the_os_keyring_and_never_a_file() {
    if !peers_present() {
        return;
    }
    let kr = Keyring::start();
    let fake = Fake::start_in_thread();
    fake.with(|s| {
        s.device_interval = 1;
        s.device_script = ["ok"].into();
    });
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[profiles.work]
sources = ["graph_mail"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
time_zone = "UTC"
mail_interval_secs = 1
authority_url = "{}"
base_url = "{}"
"#,
            fake.authority(),
            fake.graph_base()
        ),
    )
    .unwrap();

    // Before sign-in, doctor says new tokens will go to the keyring.
    let report = doctor(&kr, &data, &config);
    let store = check(&report, "token store");
    assert!(
        store["detail"]
            .as_str()
            .unwrap()
            .starts_with("the OS keyring (Secret Service"),
        "{report}"
    );

    // Sign in: the token goes to the keyring, not to tokens/work.json.
    let out = run(&kr, &data, &config, &["--json", "login", "work"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed = last_json_line(&out.stdout);
    assert_eq!(signed["token_store"], "keyring", "{signed}");
    assert!(!data.join("tokens/work.json").exists());
    let rt = fake.with(|s| {
        assert_eq!(s.refresh_tokens.len(), 1);
        s.refresh_tokens.iter().next().unwrap().clone()
    });
    assert_eq!(files_containing(&data, &rt), Vec::<PathBuf>::new());

    // Doctor reads it back from the keyring and says where it is.
    let report = doctor(&kr, &data, &config);
    let login = check(&report, "login work");
    assert_eq!(login["ok"], true, "{report}");
    assert!(
        login["detail"]
            .as_str()
            .unwrap()
            .starts_with("signed in (token in the OS keyring"),
        "{login}"
    );

    // The engine redeems it from the keyring; the rotated token is saved back there, and only
    // there: a second engine redeems that one (the fake accepts nothing else).
    fake.with(|s| s.add_mail("Keyring check", "ann@fabrikam.com", "<p>hi</p>"));
    let rt2 = serve_until_redeemed(&kr, &data, &config, &fake, &rt);
    assert_eq!(files_containing(&data, &rt2), Vec::<PathBuf>::new());
    assert!(!data.join("tokens/work.json").exists());
    let rt3 = serve_until_redeemed(&kr, &data, &config, &fake, &rt2);
    assert_eq!(files_containing(&data, &rt3), Vec::<PathBuf>::new());

    // Logout removes it from the keyring.
    let out = run(&kr, &data, &config, &["--json", "logout", "work"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gone: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(gone["removed"], true);
    let report = doctor(&kr, &data, &config);
    let login = check(&report, "login work");
    assert_eq!(login["ok"], false, "{report}");
    assert_eq!(login["detail"], "not signed in");

    // A process that cannot reach the keyring (a systemd `serve` has no session bus) is told
    // where the token is rather than "not signed in", and can sign in to the file instead.
    let out = run(&kr, &data, &config, &["--json", "login", "work"]);
    assert_eq!(last_json_line(&out.stdout)["token_store"], "keyring");
    let nowhere = format!("unix:path={}/no-bus", tmp.path().display());
    let elsewhere = |args: &[&str], store: Option<&str>| {
        let mut cmd = opsdesk(&kr, &data, &config, args);
        cmd.env("DBUS_SESSION_BUS_ADDRESS", &nowhere);
        if let Some(s) = store {
            cmd.env("OPSDESK_TOKEN_STORE", s);
        }
        cmd.output().unwrap()
    };
    let out = elsewhere(&["--json", "doctor"], None);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let login = check(&report, "login work");
    assert_eq!(login["ok"], false, "{report}");
    assert!(
        login["detail"]
            .as_str()
            .unwrap()
            .contains("the refresh token is in the OS keyring, which this process cannot use"),
        "{login}"
    );
    let out = elsewhere(&["--json", "login", "work"], Some("file"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed = last_json_line(&out.stdout);
    assert_eq!(signed["token_store"], "file", "{signed}");
    assert!(
        signed["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("the previous token stays in the OS keyring")),
        "{signed}"
    );
    assert!(data.join("tokens/work.json").exists());
    assert!(!data.join("tokens/work.keyring.json").exists());
}

#[test]
fn without_a_keyring_sign_in_falls_back_to_the_private_file_and_says_why() {
    let fake = Fake::start_in_thread();
    fake.with(|s| {
        s.device_interval = 1;
        s.device_script = ["ok"].into();
    });
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[profiles.work]\nsources = [\"graph_mail\"]\n[profiles.work.graph]\nclient_id = \"{CLIENT_ID}\"\nauthority_url = \"{}\"\nbase_url = \"{}\"\n",
            fake.authority(),
            fake.graph_base()
        ),
    )
    .unwrap();
    // A bus address where nothing listens: no keyring reachable.
    let nowhere = format!("unix:path={}/no-bus", tmp.path().display());
    let cmd = |args: &[&str]| {
        Command::new(BIN)
            .arg("--data-dir")
            .arg(&data)
            .arg("--config")
            .arg(&config)
            .args(args)
            .env("DBUS_SESSION_BUS_ADDRESS", &nowhere)
            .env_remove("OPSDESK_TOKEN")
            .env_remove("OPSDESK_TOKEN_STORE")
            .output()
            .unwrap()
    };
    let out = cmd(&["--json", "login", "work"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed = last_json_line(&out.stdout);
    assert_eq!(signed["token_store"], "file", "{signed}");
    assert!(
        signed["note"]
            .as_str()
            .is_some_and(|why| why.starts_with("no OS keyring")),
        "{signed}"
    );
    let file = data.join("tokens/work.json");
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&file).unwrap().permissions())
            & 0o777,
        0o600
    );
    let out = cmd(&["--json", "doctor"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let store = check(&report, "token store");
    assert_eq!(store["ok"], true);
    assert!(
        store["detail"].as_str().unwrap().contains("0600 files")
            && store["detail"].as_str().unwrap().contains("no OS keyring"),
        "{store}"
    );
    assert!(
        check(&report, "login work")["detail"]
            .as_str()
            .unwrap()
            .contains("tokens/work.json"),
        "{report}"
    );

    // Asking for the keyring explicitly refuses to fall back.
    let out = Command::new(BIN)
        .arg("--data-dir")
        .arg(&data)
        .arg("--config")
        .arg(&config)
        .args(["--json", "doctor"])
        .env("DBUS_SESSION_BUS_ADDRESS", &nowhere)
        .env("OPSDESK_TOKEN_STORE", "keyring")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(check(&report, "token store")["ok"], false, "{report}");
    let out = Command::new(BIN)
        .arg("--data-dir")
        .arg(&data)
        .arg("--config")
        .arg(&config)
        .args(["login", "work"])
        .env("DBUS_SESSION_BUS_ADDRESS", &nowhere)
        .env("OPSDESK_TOKEN_STORE", "keyring")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("OPSDESK_TOKEN_STORE=keyring, but the OS keyring cannot take the token"),
        "{err}"
    );
    // Refused before the sign-in started; the earlier file token is untouched.
    assert_eq!(fake.with(|s| s.device_polls), 1);
    assert!(file.exists());

    // A value that names no store is refused, not guessed.
    let out = Command::new(BIN)
        .arg("--data-dir")
        .arg(&data)
        .arg("--config")
        .arg(&config)
        .args(["login", "work"])
        .env("OPSDESK_TOKEN_STORE", "vault")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("use auto, file or keyring"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
