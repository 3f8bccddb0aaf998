//! Router budgets (`[llm.budgets]`) against in-process fake OpenAI servers: a hop that would
//! exceed a provider's or a profile's limit is refused with the budget named and its reset
//! time, the call is never moved to another provider because of a budget, local models are
//! never stopped by money, and spending survives a restart.

mod llm_support;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use llm_support::*;
use opsdesk::config::budgets::{BudgetsConfig, Limits, Money};
use opsdesk::config::{Config, LlmConfig, Profile, ProviderConfig, ProviderKind};
use opsdesk::domain::AuditEvent;
use opsdesk::llm::router::{CallContext, Router, RouterOptions};
use opsdesk::llm::{ChatMessage, LlmAudit, LlmError, LlmRequest};
use time::OffsetDateTime;
use time::macros::datetime;

const CHAT: &str = "/chat/completions";

fn provider(kind: ProviderKind, endpoint: &str) -> ProviderConfig {
    ProviderConfig {
        kind,
        enabled: true,
        endpoint: endpoint.to_string(),
        auth_env: match kind {
            ProviderKind::Local => None,
            k => Some(k.conventional_env().to_string()),
        },
        model: "fake-model".into(),
        hipaa_cleared: false,
        timeout_secs: 10,
        first_chunk_timeout_secs: 5,
        api_version: None,
        deployment: None,
        token_endpoint: None,
    }
}

fn llm(default: &str, providers: Vec<(&str, ProviderConfig)>, budgets: BudgetsConfig) -> LlmConfig {
    LlmConfig {
        default: Some(default.into()),
        jobs: BTreeMap::new(),
        providers: providers
            .into_iter()
            .map(|(n, p)| (n.to_string(), p))
            .collect(),
        budgets,
    }
}

/// A clock the test moves.
#[derive(Clone)]
struct TestClock(Arc<Mutex<OffsetDateTime>>);

impl TestClock {
    fn at(t: OffsetDateTime) -> TestClock {
        TestClock(Arc::new(Mutex::new(t)))
    }
    fn set(&self, t: OffsetDateTime) {
        *self.0.lock().unwrap() = t;
    }
}

fn router(clock: &TestClock, usage_file: Option<&Path>) -> Router {
    let c = clock.0.clone();
    Router::new(RouterOptions {
        max_retries: 0,
        backoff_base: Duration::from_millis(5),
        backoff_max: Duration::from_millis(10),
        secrets: Arc::new(|name: &str| (name == "OPENAI_API_KEY").then(|| "sk-test-key".into())),
        usage_file: usage_file.map(Path::to_path_buf),
        clock: Arc::new(move || *c.lock().unwrap()),
        ..RouterOptions::default()
    })
    .unwrap()
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
    fn find(&self, name: &str) -> Option<AuditEvent> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .find(|e| e.event == name)
            .cloned()
    }
}

async fn call(
    r: &Router,
    cfg: &LlmConfig,
    trail: &Trail,
) -> Result<opsdesk::llm::LlmResponse, LlmError> {
    let profile = Profile::default();
    let cx = CallContext {
        llm: cfg,
        profile_name: "p",
        profile: &profile,
        actor: "test",
        audit: trail,
        refresh: None,
    };
    // 12 characters: an estimate of 3 tokens.
    let req = LlmRequest::new(
        "test",
        vec![ChatMessage::system("be brief"), ChatMessage::user("ping")],
    );
    r.complete(&cx, &req, None).await
}

fn provider_limit(name: &str, l: Limits) -> BudgetsConfig {
    let mut b = BudgetsConfig::default();
    b.providers.insert(name.into(), l);
    b
}

fn blocked(r: Result<opsdesk::llm::LlmResponse, LlmError>) -> (String, String, String) {
    match r {
        Err(LlmError::Blocked {
            rule,
            reason,
            remedy,
        }) => (rule, reason, remedy),
        other => panic!("expected a block, got {other:?}"),
    }
}

const NOON: OffsetDateTime = datetime!(2026-11-25 12:00 UTC);

#[tokio::test]
async fn a_spent_daily_token_budget_blocks_the_next_call_naming_it_and_its_reset() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["ok"], 60, 30), answer(&["ok"], 1, 1)]);
    let budgets = provider_limit(
        "oa",
        Limits {
            daily_tokens: Some(80),
            ..Limits::default()
        },
    );
    let cfg = llm(
        "oa",
        vec![(
            "oa",
            provider(ProviderKind::Openai, &format!("{}/v1", fake.url)),
        )],
        budgets,
    );
    let clock = TestClock::at(NOON);
    let r = router(&clock, None);
    let trail = Trail::default();

    call(&r, &cfg, &trail)
        .await
        .expect("3 of 80 tokens: allowed");
    let (rule, reason, remedy) = blocked(call(&r, &cfg, &trail).await);
    assert_eq!(rule, "budget_exceeded");
    assert!(reason.contains("provider `oa` daily tokens"), "{reason}");
    assert!(reason.contains("90 tokens used"), "{reason}");
    assert!(
        reason.contains("resets at 2026-11-26T00:00:00Z"),
        "{reason}"
    );
    assert!(remedy.contains("not sent to another provider"), "{remedy}");
    assert_eq!(
        fake.posts().len(),
        1,
        "nothing sent after the budget ran out"
    );
    let audited = trail.find("llm.block").expect("the refusal is audited");
    assert!(audited.reason.unwrap().starts_with("budget_exceeded: "));

    // The next UTC day starts over.
    clock.set(datetime!(2026-11-26 00:00:01 UTC));
    call(&r, &cfg, &trail).await.expect("a new day");
    assert_eq!(fake.posts().len(), 2);
}

#[tokio::test]
async fn an_exhausted_provider_is_not_silently_replaced_by_another() {
    let (fa, fb) = (Fake::start().await, Fake::start().await);
    fb.script(CHAT, vec![answer(&["from b"], 1, 1)]);
    let budgets = provider_limit(
        "oa",
        Limits {
            daily_tokens: Some(2),
            ..Limits::default()
        },
    );
    let cfg = llm(
        "oa",
        vec![
            (
                "oa",
                provider(ProviderKind::Openai, &format!("{}/v1", fa.url)),
            ),
            (
                "ob",
                provider(ProviderKind::Openai, &format!("{}/v1", fb.url)),
            ),
        ],
        budgets,
    );
    let r = router(&TestClock::at(NOON), None);
    let (rule, reason, _) = blocked(call(&r, &cfg, &Trail::default()).await);
    assert_eq!(rule, "budget_exceeded");
    assert!(reason.contains("`oa`"), "{reason}");
    assert!(
        fa.posts().is_empty() && fb.posts().is_empty(),
        "no provider was asked"
    );
}

#[tokio::test]
async fn a_fallback_hop_is_checked_too_and_a_failure_does_not_spill_into_an_exhausted_provider() {
    let (fa, fb) = (Fake::start().await, Fake::start().await);
    fa.script(
        CHAT,
        vec![Reply::Whole(
            503,
            vec![],
            error_body("down", "server_error", "down"),
        )],
    );
    fb.script(CHAT, vec![answer(&["from b"], 1, 1)]);
    let budgets = provider_limit(
        "ob",
        Limits {
            daily_tokens: Some(2),
            ..Limits::default()
        },
    );
    let cfg = llm(
        "oa",
        vec![
            (
                "oa",
                provider(ProviderKind::Openai, &format!("{}/v1", fa.url)),
            ),
            (
                "ob",
                provider(ProviderKind::Openai, &format!("{}/v1", fb.url)),
            ),
        ],
        budgets,
    );
    let trail = Trail::default();
    let r = router(&TestClock::at(NOON), None);
    let (rule, reason, _) = blocked(call(&r, &cfg, &trail).await);
    assert_eq!(rule, "budget_exceeded");
    assert!(reason.contains("provider `ob` daily tokens"), "{reason}");
    assert_eq!(fa.posts().len(), 1);
    assert!(fb.posts().is_empty(), "the exhausted fallback got nothing");
    assert!(trail.find("llm.fallback").is_none());
}

#[tokio::test]
async fn money_is_priced_per_1k_tokens_and_a_local_model_is_never_stopped_by_it() {
    let (fa, fl) = (Fake::start().await, Fake::start().await);
    fa.script(CHAT, vec![answer(&["ok"], 60, 30)]);
    fl.script(
        CHAT,
        vec![answer(&["ok"], 5000, 5000), answer(&["ok"], 1, 1)],
    );
    let mut budgets = BudgetsConfig::default();
    budgets
        .prices
        .insert("oa".into(), Money::from_units(2.0).unwrap());
    budgets.profiles.insert(
        "p".into(),
        Limits {
            daily_money: Some(Money::from_units(0.1).unwrap()),
            ..Limits::default()
        },
    );
    let providers = |default| {
        llm(
            default,
            vec![
                (
                    "oa",
                    provider(ProviderKind::Openai, &format!("{}/v1", fa.url)),
                ),
                (
                    "zlocal",
                    provider(ProviderKind::Local, &format!("{}/v1", fl.url)),
                ),
            ],
            budgets.clone(),
        )
    };
    let r = router(&TestClock::at(NOON), None);
    let trail = Trail::default();
    call(&r, &providers("oa"), &trail)
        .await
        .expect("0.006 of 0.1");
    // 90 tokens at 2.0 per 1000 = 0.18: the profile's money is spent.
    let (_, reason, _) = blocked(call(&r, &providers("oa"), &trail).await);
    assert!(reason.contains("profile `p` daily money"), "{reason}");
    assert!(reason.contains("0.1800 spent"), "{reason}");
    // The local model costs nothing: twice, 10 000 tokens or not.
    call(&r, &providers("zlocal"), &trail)
        .await
        .expect("local is free");
    call(&r, &providers("zlocal"), &trail)
        .await
        .expect("still free");
    let status = r.budget_status(&budgets);
    assert_eq!(status.len(), 1);
    assert_eq!(
        (status[0].used.as_str(), status[0].exhausted),
        ("0.1800", true)
    );
}

#[tokio::test]
async fn spending_survives_a_restart_in_a_private_file() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["ok"], 60, 30)]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("llm-usage.json");
    let budgets = provider_limit(
        "oa",
        Limits {
            monthly_tokens: Some(92),
            ..Limits::default()
        },
    );
    let cfg = llm(
        "oa",
        vec![(
            "oa",
            provider(ProviderKind::Openai, &format!("{}/v1", fake.url)),
        )],
        budgets.clone(),
    );
    let clock = TestClock::at(NOON);
    call(&router(&clock, Some(&file)), &cfg, &Trail::default())
        .await
        .unwrap();
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );

    // A new process (router) reads what was spent; a new day does not reset a monthly budget.
    clock.set(datetime!(2026-11-30 23:00 UTC));
    let again = router(&clock, Some(&file));
    assert_eq!(again.budget_status(&budgets)[0].used, "90");
    let (_, reason, _) = blocked(call(&again, &cfg, &Trail::default()).await);
    assert!(
        reason.contains("monthly tokens") && reason.contains("resets at 2026-12-01T00:00:00Z"),
        "{reason}"
    );
    assert_eq!(fake.posts().len(), 1);

    // A broken ledger is refused with its path, not silently reset.
    std::fs::write(&file, "{ not json").unwrap();
    let e = Router::new(RouterOptions {
        usage_file: Some(file.clone()),
        ..RouterOptions::default()
    })
    .unwrap_err();
    assert!(
        e.contains("llm-usage.json") && e.contains("unreadable"),
        "{e}"
    );
}

#[test]
fn config_errors_name_the_budget_and_the_fix() {
    let parse = |extra: &str| {
        let text = format!(
            "[llm.providers.oa]\nkind = \"openai\"\nenabled = true\nmodel = \"m\"\n[llm.providers.here]\nkind = \"local\"\nenabled = true\nmodel = \"m\"\nendpoint = \"http://127.0.0.1:1/v1\"\n{extra}"
        );
        Config::from_toml_str(&text, Path::new("t.toml"))
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    parse("[llm.budgets.prices]\noa = 0.5\n[llm.budgets.providers.oa]\ndaily_money = 3.0\n")
        .expect("valid");
    let e = parse("[llm.budgets.providers.oa]\ndaily_money = 3.0\n").unwrap_err();
    assert!(
        e.contains("llm.budgets.providers.oa") && e.contains("no price"),
        "{e}"
    );
    let e = parse("[llm.budgets.providers.nope]\ndaily_tokens = 3\n").unwrap_err();
    assert!(e.contains("names no provider"), "{e}");
    let e = parse("[llm.budgets.providers.here]\nmonthly_money = 1.0\n").unwrap_err();
    assert!(e.contains("local provider"), "{e}");
    let e = parse("[llm.budgets.prices]\noa = -1.0\n").unwrap_err();
    assert!(e.contains("not an amount of money"), "{e}");
    let e = parse("[llm.budgets.profiles.default]\ndaily_money = 1.0\n").unwrap_err();
    assert!(e.contains("no price") && e.contains("oa"), "{e}");
    let e = parse("[llm.budgets.providers.oa]\ndaily_tokenz = 1\n").unwrap_err();
    assert!(e.contains("daily_tokenz"), "{e}");
}

#[test]
fn providers_list_shows_each_budget_from_the_durable_ledger() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let conf = tmp.path().join("xdg/opsdesk");
    std::fs::create_dir_all(&conf).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        conf.join("config.toml"),
        "[llm.providers.oa]\nkind = \"openai\"\nenabled = true\nmodel = \"m\"\n[llm.budgets.prices]\noa = 2.0\n[llm.budgets.providers.oa]\ndaily_tokens = 80\nmonthly_money = 5.0\n",
    )
    .unwrap();
    // What an earlier process spent today.
    let now = OffsetDateTime::now_utc();
    let (day, month) = (
        format!(
            "{:04}-{:02}-{:02}",
            now.year(),
            now.month() as u8,
            now.day()
        ),
        format!("{:04}-{:02}", now.year(), now.month() as u8),
    );
    let spent = serde_json::json!({"provider:oa": {"tokens": 90, "money_micros": 180000}});
    std::fs::write(
        data.join("llm-usage.json"),
        serde_json::json!({"day": day, "month": month, "daily": spent, "monthly": spent})
            .to_string(),
    )
    .unwrap();
    let run = |json: bool| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"));
        c.env("OPSDESK_DATA_DIR", &data)
            .env("XDG_CONFIG_HOME", tmp.path().join("xdg"))
            .env_remove("OPSDESK_CONFIG")
            .stdin(std::process::Stdio::null());
        if json {
            c.arg("--json");
        }
        c.args(["providers", "list"]).output().unwrap()
    };
    let o = run(true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let budgets = v["budgets"].as_array().expect("budgets listed");
    let daily = budgets.iter().find(|b| b["period"] == "daily").unwrap();
    assert_eq!(
        (daily["used"].as_str(), daily["limit"].as_str()),
        (Some("90"), Some("80"))
    );
    assert_eq!(daily["exhausted"], true);
    let monthly = budgets.iter().find(|b| b["period"] == "monthly").unwrap();
    assert_eq!(
        (monthly["unit"].as_str(), monthly["used"].as_str()),
        (Some("money"), Some("0.1800"))
    );
    assert_eq!(monthly["exhausted"], false);
    let text = String::from_utf8_lossy(&run(false).stdout).into_owned();
    assert!(
        text.contains("provider oa") && text.contains("EXHAUSTED"),
        "{text}"
    );
}

#[tokio::test]
async fn two_processes_on_one_data_dir_count_each_others_spending() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["ok"], 60, 30), answer(&["ok"], 60, 30)]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("llm-usage.json");
    let budgets = provider_limit(
        "oa",
        Limits {
            daily_tokens: Some(182),
            ..Limits::default()
        },
    );
    let cfg = llm(
        "oa",
        vec![(
            "oa",
            provider(ProviderKind::Openai, &format!("{}/v1", fake.url)),
        )],
        budgets.clone(),
    );
    let clock = TestClock::at(NOON);
    // Both open the (empty) ledger before either spends: the engine and a CLI command.
    let (engine, cli) = (router(&clock, Some(&file)), router(&clock, Some(&file)));
    call(&engine, &cfg, &Trail::default()).await.unwrap();
    call(&cli, &cfg, &Trail::default()).await.unwrap();
    assert_eq!(
        engine.budget_status(&budgets)[0].used,
        "180",
        "neither count was lost"
    );
    // The engine's next call is judged on what both spent (180 + about 3 > 182).
    let (_, reason, _) = blocked(call(&engine, &cfg, &Trail::default()).await);
    assert!(reason.contains("daily tokens"), "{reason}");
}
