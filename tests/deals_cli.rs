//! `opsdesk deals`: the project's CLI conventions (exit 0 ok, 2 usage, 4 refused; `--json`
//! answers and failures as JSON on stdout) and the operator accepting a client's proposal.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, DealSpec, DealStage, Outbound, Outcome};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use serde_json::Value;

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
never_mix_with = ["clinic"]

[profiles.clinic]
sources = ["spool"]
"#;

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), CONFIG).unwrap();
        Env { dir }
    }
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .env("OPSDESK_DATA_DIR", self.data())
            .env("OPSDESK_CONFIG", self.config())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg"))
            .env("TZ", "UTC")
            .env_remove("OPSDESK_LOG")
            .stdin(Stdio::null())
            .args(args)
            .output()
            .unwrap()
    }
    fn json(&self, args: &[&str]) -> Value {
        let mut a = vec!["--json"];
        a.extend_from_slice(args);
        let o = self.run(&a);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    }
    fn engine(&self) -> Engine {
        let paths = Paths::resolve(Some(self.data()), Some(self.config())).unwrap();
        let config = Config::from_toml_str(CONFIG, Path::new("test.toml")).unwrap();
        Engine::open(paths, config, Mode::Secondary).unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn create_link_stage_and_show_follow_the_cli_conventions() {
    let env = Env::new();
    let created = env.json(&[
        "deals",
        "create",
        "--profile",
        "work",
        "--name",
        "Sunrise",
        "--counterparty",
        "acme.example",
        "--date",
        "closing=2026-12-15",
        "--keyword",
        "sunrise",
    ]);
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["stage"], "lead");

    // Usage errors: exit 2, JSON on stdout with --json, words (not JSON) for a person.
    let o = env.run(&[
        "deals",
        "create",
        "--profile",
        "work",
        "--name",
        "X",
        "--stage",
        "signed",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("valid stages: lead"),
        "{}",
        text(&o.stderr)
    );
    let o = env.run(&[
        "--json",
        "deals",
        "create",
        "--profile",
        "work",
        "--name",
        "X",
        "--date",
        "closing=soon",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "usage");
    let o = env.run(&["--json", "deals", "show", "deal-nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    let o = env.run(&["deals", "create", "--profile", "nosuch", "--name", "X"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("valid profiles: clinic, work"),
        "{}",
        text(&o.stderr)
    );

    // A message of the deal's profile links; one of a never-mix profile is refused (exit 4).
    for (id_, profile) in [("m1", "work"), ("c1", "clinic")] {
        let o = env.run(&[
            "inbox",
            "add",
            "--profile",
            profile,
            "--from",
            "x@x.example",
            "--subject",
            "Hello",
            "--body",
            "hi",
            "--id",
            id_,
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let linked = env.json(&["deals", "link", &id, "m1"]);
    assert_eq!(linked["links"][0]["rule"], "manual");
    let o = env.run(&["--json", "deals", "link", &id, "c1"]);
    assert_eq!(o.status.code(), Some(4));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "refused");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("entity_boundary.never_mix"), "{msg}");

    let staged = env.json(&["deals", "stage", &id, "negotiation", "--note", "LOI signed"]);
    assert_eq!(staged["stage"], "negotiation");
    let shown = env.json(&["deals", "show", &id]);
    assert_eq!(shown["deal"]["stage"], "negotiation");
    assert_eq!(shown["messages"].as_array().unwrap().len(), 1);
    let summaries: Vec<&str> = shown["timeline"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["summary"].as_str())
        .collect();
    assert!(
        summaries
            .iter()
            .any(|s| s.contains("stage → negotiation: LOI signed")),
        "{summaries:?}"
    );

    let unlinked = env.json(&["deals", "unlink", &id, "m1", "--reason", "wrong deal"]);
    assert!(unlinked["links"].as_array().unwrap().is_empty());

    // Open deals by default; a closed one only with --all.
    env.json(&["deals", "stage", &id, "lost"]);
    assert!(
        env.json(&["deals", "list"])["deals"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        env.json(&["deals", "list", "--all"])["deals"][0]["id"],
        id.as_str()
    );
    // Human output is terminal-safe text.
    let o = env.run(&["deals", "list", "--all"]);
    assert!(text(&o.stdout).contains("Sunrise"));
}

#[test]
fn the_operator_accepts_a_proposal_once_and_a_script_must_say_yes() {
    let env = Env::new();
    let draft_id = {
        let e = env.engine();
        let o = e
            .submit(
                Action::CreateDraft {
                    profile: "work".into(),
                    outbound: Outbound::CreateDeal {
                        spec: DealSpec {
                            name: "Proposed".into(),
                            counterparties: vec!["acme.example".into()],
                            stage: DealStage::Diligence,
                            key_dates: vec![],
                            notes: String::new(),
                            keywords: vec![],
                        },
                    },
                    provider: None,
                },
                Actor::mcp("claude"),
            )
            .unwrap();
        let Outcome::Queued { draft_id, .. } = o else {
            panic!("{o:?}")
        };
        draft_id
    };
    let o = env.run(&["deals", "accept", &draft_id]);
    assert_eq!(o.status.code(), Some(2), "no terminal: --yes needed");
    assert!(
        env.json(&["deals", "list"])["deals"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    let deal = env.json(&["deals", "accept", &draft_id, "--yes"]);
    assert_eq!(deal["name"], "Proposed");
    assert_eq!(deal["stage"], "diligence");
    assert_eq!(deal["proposal"], draft_id.as_str());
    let again = env.run(&["deals", "accept", &draft_id, "--yes"]);
    assert!(again.status.success());
    assert!(text(&again.stdout).contains("already accepted"));
    assert_eq!(
        env.json(&["deals", "list"])["deals"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let d = env.json(&["drafts", "show", &draft_id]);
    assert_eq!(d["status"], "executed");
}

#[test]
fn broken_filing_brief_and_operator_settings_are_named() {
    let env = Env::new();
    std::fs::write(
        env.config(),
        r#"
[profiles.work]
sources = ["spool"]

[operator]
time_zone = "Mars/Olympus"

[[filing.rules]]
folder = ""
keywords = ["invoice"]
profiles = ["nosuch"]

[[filing.rules]]
folder = "Archive"

[brief]
sections = ["deals", "deals"]
"#,
    )
    .unwrap();
    let o = env.run(&["config", "check"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
    for key in [
        "operator.time_zone",
        "filing.rules[0].folder",
        "filing.rules[0].profiles[0]",
        "filing.rules[1]",
        "brief.sections",
    ] {
        assert!(all.contains(key), "{key} not named: {all}");
    }
    // Nothing runs on a broken config, deals included.
    let o = env.run(&["deals", "list"]);
    assert_eq!(o.status.code(), Some(2));
}
