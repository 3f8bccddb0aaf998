//! Conventions every command keeps: global options wherever they are written, `--json`
//! failures as JSON on stdout, human messages without raw JSON, one confirmation convention
//! (`n` cancels with exit 1, never a usage error), one time convention, and `doctor` checking
//! what the engine needs.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }
    fn cmd(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_opsdesk"));
        c.env("OPSDESK_DATA_DIR", self.data())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg"))
            .env("TZ", "UTC")
            .env_remove("OPSDESK_CONFIG")
            .env_remove("OPSDESK_LOG")
            .env_remove("OPSDESK_THEME")
            .stdin(Stdio::null());
        c
    }
    fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn console_options_belong_to_the_console() {
    let env = Env::new();
    // Before the (default) console command and after `console`, they parse; the console then
    // refuses because this is not a terminal (a usage error naming that, not the option).
    for args in [
        vec![
            "--demo",
            "--theme",
            "light",
            "--keymap",
            "/nonexistent.toml",
        ],
        vec!["--bind", "127.0.0.1:0", "--no-http", "console"],
        vec!["console", "--theme", "light", "--no-http"],
        vec!["--demo", "--keep", "--theme", "light"],
        vec!["--theme", "light", "console", "--bind", "127.0.0.1:0"],
    ] {
        let o = env.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains("needs a terminal"), "{args:?}: {err}");
    }
    // Another command's help is about that command only.
    for cmd in [
        vec!["inbox", "list", "--help"],
        vec!["doctor", "--help"],
        vec!["serve", "--help"],
    ] {
        let o = env.run(&cmd);
        assert_eq!(o.status.code(), Some(0), "{cmd:?}");
        let help = text(&o.stdout);
        for console_only in ["--theme", "--keymap"] {
            assert!(
                !help.contains(console_only),
                "{cmd:?} lists {console_only}:\n{help}"
            );
        }
    }
    let serve_help = text(&env.run(&["serve", "--help"]).stdout);
    assert!(serve_help.contains("--bind") && serve_help.contains("--no-http"));
    let top_help = text(&env.run(&["--help"]).stdout);
    assert!(top_help.contains("Console options") && top_help.contains("--theme"));
    // Written before another command, a console option is refused by name, not ignored...
    let o = env.run(&["--theme", "light", "inbox", "list"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("--theme is a console option") && err.contains("opsdesk inbox"),
        "{err}"
    );
    // ...while the environment's theme is the console's business and stops nothing else.
    let o = env
        .cmd()
        .env("OPSDESK_THEME", "light")
        .args(["--demo", "config", "check"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // --keep needs --demo.
    let o = env.run(&["--keep", "doctor"]);
    assert_eq!(o.status.code(), Some(2));
    // Every option has help text.
    for cmd in [
        vec!["--help"],
        vec!["providers", "disable", "--help"],
        vec!["drafts", "new", "--help"],
    ] {
        let o = env.run(&cmd);
        let help = text(&o.stdout);
        assert!(!help.contains("(soon)"), "{help}");
        for line in help.lines().filter(|l| l.trim_start().starts_with("--")) {
            let described = line.split("  ").filter(|p| !p.trim().is_empty()).count() > 1;
            assert!(described, "option without help in {cmd:?}: {line}");
        }
    }
}

/// A throw-away demo leaves nothing behind: not even the integrity key the engine creates
/// in the config dir on first start (it gets a config dir of its own beside its data). And
/// it says how a client gets its MCP token (its own, in the throw-away data dir).
#[test]
fn a_throw_away_demo_writes_nothing_into_the_operators_config_dir() {
    use std::io::BufRead;
    let env = Env::new();
    let mut c = env.cmd();
    c.env_remove("OPSDESK_DATA_DIR")
        .env_remove("OPSDESK_TOKEN")
        .args(["--demo", "serve", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        let mut hint = None;
        for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
            if line.contains("opsdesk drafts list") {
                hint = Some(line.trim().to_string());
            }
            // The last line of the start (the start is audited, so keyed, by then).
            if line.contains("export OPSDESK_TOKEN=") {
                let _ = tx.send(hint.take());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let started = rx.recv_timeout(Duration::from_secs(60));
    // The printed hints run as printed from another terminal (another shell, the operator's
    // own environment), beside the running demo, and leave its trail verifying.
    let hint_runs = started.as_ref().ok().cloned().flatten().map(|hint| {
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_opsdesk")).parent().unwrap();
        let shell = |line: &str| {
            Command::new("sh")
                .arg("-c")
                .arg(line)
                .env(
                    "PATH",
                    format!(
                        "{}:{}",
                        bin_dir.display(),
                        std::env::var("PATH").unwrap_or_default()
                    ),
                )
                .env("XDG_CONFIG_HOME", env.dir.path().join("xdg"))
                .env_remove("OPSDESK_DATA_DIR")
                .env_remove("OPSDESK_CONFIG")
                .env_remove("OPSDESK_LOG")
                .stdin(Stdio::null())
                .output()
                .unwrap()
        };
        let verify = hint.replace("opsdesk drafts list", "opsdesk audit verify");
        (hint.clone(), shell(&hint), shell(&verify))
    });
    // SAFETY: signals our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    let stderr = reader.join().unwrap();
    assert!(
        started.is_ok(),
        "serve did not start or named no token: {stderr}"
    );
    let (hint, list, verify) = hint_runs.unwrap_or_else(|| panic!("no drafts list hint: {stderr}"));
    assert!(
        list.status.success(),
        "`{hint}`: {}{}",
        text(&list.stdout),
        text(&list.stderr)
    );
    assert_eq!(
        verify.status.code(),
        Some(0),
        "the trail verifies after `{hint}`: {}{}",
        text(&verify.stdout),
        text(&verify.stderr)
    );
    assert!(stderr.contains("mcp-token"), "{stderr}");
    assert!(status.success(), "{status:?}: {stderr}");
    let config_dir = env.dir.path().join("xdg").join("opsdesk");
    assert!(
        !config_dir.join("integrity.key").exists(),
        "the demo wrote an integrity key into {}",
        config_dir.display()
    );
}

#[test]
fn demo_data_is_kept_and_named_with_keep() {
    let env = Env::new();
    let mut c = env.cmd();
    c.env_remove("OPSDESK_DATA_DIR");
    let o = c
        .args(["--demo", "--keep", "inbox", "state"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let dir = err
        .split("demo data kept in ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(Path::new(dir).join("inbox").is_dir(), "{dir}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn json_failures_are_json_on_stdout_and_human_ones_have_no_raw_json() {
    let env = Env::new();
    let o = env.run(&["--json", "drafts", "show", "d-nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], 2);
    assert_eq!(v["error"]["kind"], "usage");
    assert!(v["error"]["message"].as_str().unwrap().contains("d-nosuch"));

    let o = env.run(&["--demo", "providers", "enable", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("unknown provider `nosuch`"), "{err}");
    assert!(err.contains("valid providers: "), "{err}");
    assert!(!err.contains('{') && !err.contains('['), "raw JSON: {err}");
}

#[test]
fn json_argument_errors_are_json_too_but_help_and_version_are_unchanged() {
    let env = Env::new();
    let o = env.run(&["--json", "inbox", "list", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], 2);
    assert_eq!(v["error"]["kind"], "usage");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("--bogus"),
        "{v}"
    );
    assert!(
        text(&o.stderr).contains("--bogus"),
        "clap's text stays on stderr"
    );
    // Without --json, stdout stays empty.
    let o = env.run(&["inbox", "list", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    // Help and version are not failures, --json or not.
    for args in [&["--json", "--help"][..], &["--json", "--version"][..]] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = text(&o.stdout);
        assert!(!out.contains("\"ok\""), "{out}");
        assert!(out.contains("opsdesk"), "{out}");
    }
}

#[test]
fn doctor_and_config_check_judge_the_providers_as_switched_and_name_missing_credentials() {
    let env = Env::new();
    let run = |args: &[&str], key: Option<&str>| {
        let mut c = env.cmd();
        c.env_remove("OPENAI_API_KEY");
        if let Some(k) = key {
            c.env("OPENAI_API_KEY", k);
        }
        c.args(args).output().unwrap()
    };
    let o = run(&["providers", "enable", "openai"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));

    let doctor = text(&run(&["doctor"], None).stdout);
    assert!(!doctor.contains("no provider is enabled"), "{doctor}");
    let line = doctor
        .lines()
        .find(|l| l.contains("llm provider openai"))
        .unwrap_or_else(|| panic!("{doctor}"));
    assert!(
        line.starts_with("warn") && line.contains("OPENAI_API_KEY is not set"),
        "{line}"
    );
    for l in doctor.lines().filter(|l| l.contains("config ")) {
        assert!(!l.contains("warning") || l.starts_with("warn"), "{l}");
    }
    let check = text(&run(&["config", "check"], None).stdout);
    assert!(!check.contains("no provider is enabled"), "{check}");
    assert!(check.contains("OPENAI_API_KEY is not set"), "{check}");

    // Set: said so, the value never shown.
    let doctor = text(&run(&["--json", "doctor"], Some("sk-very-secret")).stdout);
    assert!(!doctor.contains("sk-very-secret"), "{doctor}");
    let v: serde_json::Value = serde_json::from_str(&doctor).unwrap();
    let openai = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "llm provider openai")
        .unwrap();
    assert_eq!(openai["detail"], "enabled; OPENAI_API_KEY is set");
    assert!(openai.get("warning").is_none(), "{openai}");
}

/// `doctor` only reads: on a data dir no engine has used yet it says the stores are not
/// there yet and creates none of them.
#[test]
fn doctor_creates_nothing_in_a_fresh_data_dir() {
    let env = Env::new();
    std::fs::create_dir_all(env.data()).unwrap();
    let o = env.run(&["doctor"]);
    let out = text(&o.stdout);
    for store in ["audit", "drafts", "inbox"] {
        assert!(
            !env.data().join(store).exists(),
            "doctor created {store}/:\n{out}"
        );
    }
    assert!(out.contains("none yet"), "{out}");
}

#[test]
fn doctor_fails_on_an_unusable_inbox_folder_and_names_it() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let env = Env::new();
    assert!(env.run(&["inbox", "state"]).status.success());
    let inbox = env.data().join("inbox");
    std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(0o000)).unwrap();
    // root passes any permission check: run as an unprivileged user who owns the tree.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        let st = Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(env.dir.path())
            .status()
            .unwrap();
        assert!(st.success());
    }
    let as_user = |args: &[&str]| {
        let mut c = env.cmd();
        c.env("HOME", env.dir.path()).args(args);
        if root {
            c.uid(65534).gid(65534);
        }
        c.output().unwrap()
    };
    let o = as_user(&["doctor"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FIX  inbox folder"), "{out}");
    assert!(out.contains(&inbox.display().to_string()), "{out}");
    assert!(out.contains("chmod u+rwx"), "{out}");
    // The command that trips over it names the path too.
    let o = as_user(&["inbox", "list"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains(&inbox.display().to_string()), "{err}");
    std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(0o700)).unwrap();
}

#[test]
fn inbox_list_and_show_use_the_items_own_time_and_say_the_zone() {
    let env = Env::new();
    let o = env.run(&[
        "inbox",
        "add",
        "--from",
        "a@example.org",
        "--subject",
        "hello",
        "--body",
        "hi",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_slice(&env.run(&["--json", "inbox", "show", "1"]).stdout).unwrap();
    let ts = time::OffsetDateTime::parse(
        v["ts"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    let shown = ts.to_offset(time::UtcOffset::UTC).format(&f).unwrap();
    let list = text(&env.run(&["inbox", "list"]).stdout);
    assert!(list.contains("TIME (UTC)"), "{list}");
    assert!(list.contains(&shown), "{list}");
    let show = text(&env.run(&["inbox", "show", "1"]).stdout);
    assert!(show.contains(&format!("{shown} UTC")), "{show}");
}

#[test]
fn disabling_the_only_cleared_provider_asks_and_no_is_not_a_usage_error() {
    let env = Env::new();
    std::fs::create_dir_all(env.dir.path().join("xdg/opsdesk")).unwrap();
    std::fs::write(
        env.dir.path().join("xdg/opsdesk/config.toml"),
        r#"
[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
[llm]
default = "cleared"
[llm.providers.cleared]
kind = "local"
endpoint = "http://127.0.0.1:9/v1"
model = "m"
hipaa_cleared = true
enabled = true
"#,
    )
    .unwrap();
    // No terminal: a script must say --yes (a usage error that says so).
    let o = env.run(&["providers", "disable", "cleared"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--yes"));
    assert!(text(&o.stderr).contains("clinic"));

    // At a terminal: it says what it blocks and `n` cancels with exit 1.
    let (out, code) = in_pty(&env, &["providers", "disable", "cleared"], "n\r");
    assert!(out.contains("clinic"), "{out}");
    assert!(out.contains("[y/N]"), "{out}");
    assert!(out.contains("cancelled; nothing changed"), "{out}");
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value =
        serde_json::from_slice(&env.run(&["--json", "providers", "list"]).stdout).unwrap();
    assert_eq!(v["providers"][0]["enabled"], true, "{v}");

    // `y` goes ahead; the status then names the block.
    let (out, code) = in_pty(&env, &["providers", "disable", "cleared"], "y\r");
    assert_eq!(code, 0, "{out}");
    let o = env.run(&["providers", "list"]);
    assert!(text(&o.stdout).contains("BLOCKED"), "{}", text(&o.stdout));
}

/// Run opsdesk in a pseudo-terminal, answer its prompt, return the screen text and exit code.
fn in_pty(env: &Env, args: &[&str], answer: &str) -> (String, u32) {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 160,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_opsdesk"));
    cmd.args(args);
    cmd.env("OPSDESK_DATA_DIR", env.data());
    cmd.env("XDG_CONFIG_HOME", env.dir.path().join("xdg"));
    cmd.env_remove("OPSDESK_CONFIG");
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let o = out.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            o.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let mut writer = pty.master.take_writer().unwrap();
    let start = Instant::now();
    while !text(&out.lock().unwrap()).contains("[y/N]") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no prompt: {}",
            text(&out.lock().unwrap())
        );
        if let Ok(Some(st)) = child.try_wait() {
            return (text(&out.lock().unwrap()), st.exit_code());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    writer.write_all(answer.as_bytes()).unwrap();
    writer.flush().unwrap();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "did not exit");
        std::thread::sleep(Duration::from_millis(50));
    };
    std::thread::sleep(Duration::from_millis(200));
    let s = text(&out.lock().unwrap());
    (s, status.exit_code())
}

/// `opsdesk completions bash | head -5`: a reader that stops early closed the pipe; the
/// command ends quietly and successfully instead of panicking (clap_complete panics on a
/// failed write) or reporting an error.
#[test]
fn completions_and_man_into_a_closed_pipe_end_quietly() {
    for args in [&["completions", "bash"][..], &["man"][..]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .args(args)
            .env_remove("OPSDESK_DATA_DIR")
            .env_remove("OPSDESK_CONFIG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before reading anything.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {:?} {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn completions_for_every_shell_and_man_pages_come_from_the_parser() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .args(args)
            .env_remove("OPSDESK_DATA_DIR")
            .env_remove("OPSDESK_CONFIG")
            .output()
            .unwrap()
    };
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = run(&["completions", shell]);
        assert!(
            o.status.success(),
            "{shell}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let script = String::from_utf8_lossy(&o.stdout);
        // The subcommands and a nested one are offered.
        for word in ["inbox", "drafts", "completions", "approve"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );

    let o = run(&["man"]);
    assert!(o.status.success());
    let page = String::from_utf8_lossy(&o.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH opsdesk"),
        "{page}"
    );
    assert!(
        page.contains("completions") && page.contains("drafts"),
        "{page}"
    );
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for page in ["opsdesk.1", "opsdesk-inbox.1", "opsdesk-drafts-approve.1"] {
        assert!(dir.path().join(page).is_file(), "{page} not written");
    }

    // The version names the commit it was built from.
    let o = run(&["--version"]);
    let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let inner = v
        .strip_prefix(&format!("opsdesk {} (", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        inner == "unknown" || (inner.len() == 12 && inner.chars().all(|c| c.is_ascii_hexdigit())),
        "{v}"
    );
}

/// A named MCP client without its token in the environment: `serve` would refuse to start,
/// and `doctor` says so (with the variable and how to make a token) instead of "ok".
#[test]
fn doctor_names_a_client_whose_token_variable_is_unset() {
    let env = Env::new();
    let cfg_dir = env.dir.path().join("xdg/opsdesk");
    std::fs::create_dir_all(&cfg_dir).unwrap();
    std::fs::write(
        cfg_dir.join("config.toml"),
        "[server.clients.agent]\ntoken_env = \"OPSDESK_TOKEN_AGENT\"\n",
    )
    .unwrap();
    let o = env
        .cmd()
        .env_remove("OPSDESK_TOKEN_AGENT")
        .arg("doctor")
        .output()
        .unwrap();
    let out = text(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.contains("mcp client agent"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("OPSDESK_TOKEN_AGENT is not set") && !o.status.success(),
        "{line}"
    );
    let o = env
        .cmd()
        .env("OPSDESK_TOKEN_AGENT", "a".repeat(40))
        .arg("doctor")
        .output()
        .unwrap();
    let out = text(&o.stdout);
    assert!(
        out.lines()
            .any(|l| l.contains("mcp client agent") && l.contains("token in OPSDESK_TOKEN_AGENT")),
        "{out}"
    );
    assert!(!out.contains(&"a".repeat(40)), "the token is never shown");
}
