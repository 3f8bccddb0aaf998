//! The configuration file, specified by example: what a file may say, what it may not, and
//! what the operator is told when it is wrong.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use opsdesk::config::*;

const FILE: &str = "/home/op/.config/opsdesk/config.toml";

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::from_toml_str(text, Path::new(FILE))
}

/// The error for `text`, which must be refused.
fn refuse(text: &str) -> ConfigError {
    match parse(text) {
        Ok(c) => panic!("config should have been refused:\n{text}\nparsed as {c:#?}"),
        Err(e) => e,
    }
}

fn assert_mentions(e: &ConfigError, needles: &[&str]) {
    let msg = e.to_string();
    for n in needles {
        assert!(msg.contains(n), "expected {n:?} in error message:\n{msg}");
    }
}

// ---------------------------------------------------------------------------------------------
// No file, defaults, the demo file

#[test]
fn with_no_config_file_opsdesk_runs_on_built_in_defaults() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("config.toml");
    let c = Config::load_or_default(&missing, false).expect("defaults");
    assert_eq!(c, Config::default());

    assert_eq!(
        c.server.bind,
        "127.0.0.1:48080".parse::<SocketAddr>().expect("addr")
    );
    assert!(!c.server.allow_non_loopback);
    assert_eq!(c.server.max_body_bytes, 1024 * 1024);
    assert_eq!(c.server.rate_limit_per_sec, 50);
    assert_eq!(c.server.rate_limit_burst, 100);
    assert_eq!(c.server.request_timeout_secs, 30);
    assert_eq!(c.console.theme, "dark");

    assert_eq!(c.profile_names().collect::<Vec<_>>(), ["default"]);
    let p = c.profile("default").expect("default profile");
    assert_eq!(p.sources, [SourceKind::Spool]);
    assert!(!p.phi_auto_redact && !p.requires_hipaa && p.phi_names.is_empty());

    assert_eq!(c.llm.default, None);
    let local = &c.llm.providers["local"];
    assert_eq!(local.kind, ProviderKind::Local);
    assert_eq!(local.endpoint, "http://127.0.0.1:11434/v1");
    assert_eq!(local.model, "llama3.1");
    assert_eq!(local.auth_env, None);
    assert!(!local.enabled && !local.hipaa_cleared);
    let openai = &c.llm.providers["openai"];
    assert_eq!(openai.kind, ProviderKind::Openai);
    assert_eq!(openai.endpoint, "https://api.openai.com/v1");
    assert_eq!(openai.auth_env.as_deref(), Some("OPENAI_API_KEY"));
    assert_eq!(openai.model, "gpt-4o-mini");
    assert!(!openai.enabled);
    assert_eq!(
        (openai.timeout_secs, openai.first_chunk_timeout_secs),
        (60, 20)
    );
    assert_eq!(c.llm.providers.len(), 2);

    assert!(c.hard_bans.blocked_recipient_domains.is_empty());
    assert!(c.hard_bans.blocked_phrases.is_empty());
    assert_eq!(c.sources.spool.interval_secs, 2);
    assert_eq!(c.sources.spool.dir, None);
    assert_eq!(c.sources.demo.interval_secs, 4);
}

#[test]
fn an_empty_file_is_the_same_as_no_file() {
    assert_eq!(parse("").expect("empty"), Config::default());
    assert_eq!(
        parse("# only a comment\n").expect("comment"),
        Config::default()
    );
}

#[test]
fn the_default_autonomy_ladder() {
    let ladder = Config::default().autonomy;
    use ActionKind::*;
    use AutonomyLevel::*;
    for (kind, level) in [
        (Read, Autonomous),
        (Classify, Autonomous),
        (LlmCall, Autonomous),
        (MoveMail, ApprovalRequired),
        (SendEmail, DraftOnly),
        (ReplyEmail, DraftOnly),
        (PostChat, DraftOnly),
        (CreateEvent, DraftOnly),
    ] {
        assert_eq!(ladder.level(kind), level, "{kind}");
    }
}

#[test]
fn an_explicitly_given_config_file_must_exist() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nope.toml");
    for result in [
        Config::load(&missing),
        Config::load_or_default(&missing, true),
    ] {
        let e = result.expect_err("missing explicit file");
        assert_eq!(e.kind(), Some(ProblemKind::NotFound));
        assert_mentions(&e, &["nope.toml", "not found"]);
    }
}

#[test]
fn a_config_file_is_loaded_and_an_unreadable_one_fails_closed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[console]\ntheme = \"light\"\n").expect("write");
    let c = Config::load_or_default(&path, false).expect("load");
    assert_eq!(c.console.theme, "light");
    assert_eq!(c.server, ServerConfig::default());

    // A directory where the file should be is not "no config": it is an error.
    let e = Config::load_or_default(dir.path(), false).expect_err("a directory");
    assert_eq!(e.kind(), Some(ProblemKind::Io));

    std::fs::write(&path, b"theme = \"\xff\"\n").expect("write");
    let e = Config::load(&path).expect_err("not UTF-8");
    assert_mentions(&e, &["config.toml", "UTF-8"]);
}

#[test]
fn the_demo_config_has_two_entities_that_never_mix() {
    let c = Config::demo();
    assert_eq!(c.profile_names().collect::<Vec<_>>(), ["clinic", "work"]);

    let work = c.profile("work").expect("work");
    assert_eq!(work.display_name.as_deref(), Some("Contoso (work)"));
    assert_eq!(work.sources, [SourceKind::Demo]);
    assert_eq!(work.email_domains, ["contoso.com"]);
    assert!(work.must_not_mix_with("clinic"));

    let clinic = c.profile("clinic").expect("clinic");
    assert_eq!(clinic.display_name.as_deref(), Some("Riverside Clinic"));
    assert!(clinic.phi_auto_redact && clinic.requires_hipaa);
    assert!(clinic.must_not_mix_with("work"));
    assert_eq!(clinic.llm_provider.as_deref(), Some("azure"));
    assert_eq!(clinic.email_domains, ["riversideclinic.org"]);
    assert!(!clinic.phi_names.is_empty());
    assert!(clinic.is_external_address("someone@contoso.com"));
    assert!(!clinic.is_external_address("Front.Desk@RiversideClinic.org"));

    let azure = &c.llm.providers["azure"];
    assert_eq!(azure.kind, ProviderKind::AzureOpenai);
    assert!(azure.enabled && azure.hipaa_cleared);
    assert_eq!(azure.auth_env.as_deref(), Some("AZURE_OPENAI_API_KEY"));
    assert_eq!(azure.api_version.as_deref(), Some("2024-10-21"));
    assert!(azure.deployment.is_some());
    assert!(c.llm.providers["openai"].enabled && !c.llm.providers["openai"].hipaa_cleared);
    assert!(!c.llm.providers["copilot"].enabled);
    assert!(c.llm.providers["local"].enabled && !c.llm.providers["local"].hipaa_cleared);
    assert_eq!(c.llm.default.as_deref(), Some("openai"));
    assert_eq!(c.llm.jobs.get("brief").map(String::as_str), Some("local"));

    // The documented example is also the text of the asset.
    assert_eq!(
        Config::from_toml_str(DEMO_CONFIG_TOML, Path::new("demo")),
        Ok(c)
    );
}

#[test]
fn never_mix_with_is_made_symmetric() {
    let c = parse(
        r#"
        [profiles.work]
        never_mix_with = ["clinic", "side"]
        [profiles.clinic]
        [profiles.side]
        "#,
    )
    .expect("valid");
    assert!(c.profiles["clinic"].must_not_mix_with("work"));
    assert!(c.profiles["side"].must_not_mix_with("work"));
    assert!(!c.profiles["clinic"].must_not_mix_with("side"));
}

#[test]
fn a_file_sets_only_what_it_changes() {
    let c = parse(
        r#"
        [server]
        rate_limit_per_sec = 10
        [autonomy]
        move_mail = "autonomous"
        send_email = "never"
        [llm.providers.openai]
        enabled = true
        "#,
    )
    .expect("valid");
    assert_eq!(c.server.rate_limit_per_sec, 10);
    assert_eq!(c.server.rate_limit_burst, 100);
    assert_eq!(
        c.autonomy.level(ActionKind::MoveMail),
        AutonomyLevel::Autonomous
    );
    assert_eq!(
        c.autonomy.level(ActionKind::SendEmail),
        AutonomyLevel::Never
    );
    assert_eq!(
        c.autonomy.level(ActionKind::PostChat),
        AutonomyLevel::DraftOnly
    );
    // The provider's kind comes from its name; its other fields from the kind's defaults.
    let openai = &c.llm.providers["openai"];
    assert!(openai.enabled);
    assert_eq!(openai.endpoint, "https://api.openai.com/v1");
    assert_eq!(openai.auth_env.as_deref(), Some("OPENAI_API_KEY"));
    // Built-in providers the file does not mention remain (disabled).
    assert!(!c.llm.providers["local"].enabled);
    // No [profiles]: the built-in default profile.
    assert_eq!(c.profile_names().collect::<Vec<_>>(), ["default"]);
}

// ---------------------------------------------------------------------------------------------
// Shape errors: syntax, unknown keys, wrong types

#[test]
fn a_syntax_error_names_the_file_and_line_and_does_not_panic() {
    let e = refuse("[server]\nbind = \"127.0.0.1:48080\"\n[profiles.work\n");
    assert_eq!(e.kind(), Some(ProblemKind::Syntax));
    let loc = e.problems()[0].location.expect("location");
    assert_eq!(loc.line, 3);
    assert_mentions(&e, &[FILE, ":3:", "TOML syntax error"]);

    for broken in [
        "= 1",
        "a = ",
        "a = \"x",
        "[[",
        "a = 1\na = 2",
        "\u{0}",
        "a = [1,,2]",
    ] {
        let e = refuse(broken);
        assert_eq!(e.kind(), Some(ProblemKind::Syntax), "{broken:?}");
    }
}

#[test]
fn a_syntax_error_on_a_line_holding_a_secret_does_not_repeat_the_line() {
    let e = refuse("[llm.providers.openai]\napi_key = \"sk-proj-SECRETVALUE123456\n");
    assert_eq!(e.kind(), Some(ProblemKind::Syntax));
    assert!(!e.to_string().contains("SECRETVALUE"), "{e}");
}

#[test]
fn an_unknown_top_level_key_names_the_key_and_the_allowed_keys() {
    let e = refuse("[servr]\nbind = \"127.0.0.1:1\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::UnknownKey));
    assert_eq!(e.key(), Some("servr"));
    assert_mentions(
        &e,
        &[
            FILE,
            "unknown key `servr`",
            "did you mean `server`",
            "allowed keys here: server, console, profiles, autonomy, hard_bans, llm, sources",
        ],
    );
}

#[test]
fn an_unknown_nested_key_names_its_full_path_and_the_allowed_keys() {
    let e = refuse("[profiles.work]\nsources = [\"demo\"]\nphi_redact = true\n");
    assert_eq!(e.kind(), Some(ProblemKind::UnknownKey));
    assert_eq!(e.key(), Some("profiles.work.phi_redact"));
    assert_eq!(e.problems()[0].location.map(|l| l.line), Some(3));
    assert_mentions(
        &e,
        &[
            "unknown key `profiles.work.phi_redact`",
            "allowed keys here: display_name, sources, phi_auto_redact, requires_hipaa, never_mix_with",
        ],
    );

    let e = refuse("[llm.providers.local]\nmodle = \"x\"\n");
    assert_mentions(
        &e,
        &[
            "`llm.providers.local.modle`",
            "did you mean `model`",
            "endpoint",
        ],
    );

    let e = refuse("[sources.spool]\nfolder = \"/tmp\"\n");
    assert_mentions(&e, &["`sources.spool.folder`", "dir, interval_secs"]);
}

#[test]
fn an_unknown_action_kind_in_the_ladder_is_an_unknown_key() {
    let e = refuse("[autonomy]\nsend_mail = \"draft_only\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::UnknownKey));
    assert_mentions(
        &e,
        &[
            "`autonomy.send_mail`",
            "did you mean `send_email`",
            "read, send_email, reply_email, post_chat, create_event, move_mail, classify, llm_call",
        ],
    );
}

#[test]
fn an_unknown_value_lists_the_allowed_values() {
    let e = refuse("[autonomy]\nsend_email = \"sometimes\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::InvalidValue));
    assert_mentions(
        &e,
        &[
            "`autonomy.send_email`",
            "autonomous, draft_only, approval_required, blocked, never",
        ],
    );

    let e = refuse("[profiles.work]\nsources = [\"demo\", \"imap\"]\n");
    assert_mentions(
        &e,
        &[
            "`profiles.work.sources[1]`",
            "demo, spool, graph_mail, graph_teams, graph_calendar",
        ],
    );

    let e = refuse("[llm.providers.x]\nkind = \"anthropic\"\n");
    assert_mentions(
        &e,
        &[
            "`llm.providers.x.kind`",
            "openai, azure_openai, copilot, local",
        ],
    );
}

#[test]
fn a_wrong_type_names_the_path_and_the_expected_type() {
    let e = refuse("[profiles.work]\nphi_auto_redact = \"yes\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::WrongType));
    assert_eq!(e.key(), Some("profiles.work.phi_auto_redact"));
    assert_mentions(
        &e,
        &[
            "`profiles.work.phi_auto_redact`",
            "expected a boolean",
            "found a string",
        ],
    );

    let e = refuse("[server]\nrate_limit_per_sec = \"fast\"\n");
    assert_mentions(
        &e,
        &["`server.rate_limit_per_sec`", "expected a whole number"],
    );

    let e = refuse("profiles = [\"work\"]\n");
    assert_mentions(&e, &["`profiles`", "expected a table", "found an array"]);

    let e = refuse("[hard_bans]\nblocked_phrases = [\"ok\", 7]\n");
    assert_mentions(&e, &["`hard_bans.blocked_phrases[1]`", "expected a string"]);

    let e = refuse("[server]\nmax_body_bytes = -1\n");
    assert_mentions(&e, &["`server.max_body_bytes`", "whole number from 0"]);

    let e = refuse("[server]\nbind = \"localhost\"\n");
    assert_mentions(&e, &["`server.bind`", "127.0.0.1:48080"]);
}

#[test]
fn a_wrong_type_does_not_echo_the_value() {
    let e = refuse("[llm.providers.openai]\nenabled = \"correct horse battery staple\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::WrongType));
    assert!(!e.to_string().contains("horse"), "{e}");
}

#[test]
fn a_missing_required_key_is_named() {
    let e = refuse("[profiles.work.graph]\ntenant = \"organizations\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::MissingKey));
    assert_mentions(&e, &["`profiles.work.graph.client_id`"]);

    // A provider not named after its kind must say which kind it is.
    let e = refuse("[llm.providers.gpu-box]\nendpoint = \"http://10.0.0.5:8000/v1\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::MissingKey));
    assert_mentions(
        &e,
        &[
            "`llm.providers.gpu-box.kind`",
            "openai, azure_openai, copilot, local",
        ],
    );

    let e = refuse("[llm.providers.azure]\nenabled = true\n");
    assert_mentions(&e, &["`llm.providers.azure.endpoint`"]);
}

// ---------------------------------------------------------------------------------------------
// References and names

#[test]
fn an_unknown_profile_reference_names_the_valid_profiles() {
    let e = refuse(
        "[profiles.work]\nnever_mix_with = [\"clinc\"]\n[profiles.clinic]\n[profiles.home]\n",
    );
    assert_eq!(e.kind(), Some(ProblemKind::UnknownReference));
    assert_eq!(e.key(), Some("profiles.work.never_mix_with[0]"));
    assert_eq!(e.problems()[0].location.map(|l| l.line), Some(2));
    assert_mentions(
        &e,
        &[
            FILE,
            "`profiles.work.never_mix_with[0]` = \"clinc\" is not a profile",
            "allowed: clinic, home, work",
        ],
    );
}

#[test]
fn a_profile_cannot_refuse_to_mix_with_itself() {
    let e = refuse("[profiles.work]\nnever_mix_with = [\"work\"]\n[profiles.home]\n");
    assert_eq!(e.key(), Some("profiles.work.never_mix_with[0]"));
    assert_mentions(&e, &["names the profile itself", "home"]);
}

#[test]
fn unknown_provider_references_name_the_valid_providers() {
    let e = refuse(
        r#"
        [profiles.work]
        llm_provider = "gpt"
        [llm]
        default = "opneai"
        [llm.jobs]
        brief = "ollama-box"
        "#,
    );
    // All problems are reported at once.
    let keys: Vec<_> = e
        .problems()
        .iter()
        .filter_map(|p| p.key.as_deref())
        .collect();
    assert_eq!(
        keys,
        [
            "profiles.work.llm_provider",
            "llm.default",
            "llm.jobs.brief"
        ]
    );
    assert!(
        e.problems()
            .iter()
            .all(|p| p.kind == ProblemKind::UnknownReference)
    );
    assert_mentions(&e, &["allowed: local, openai"]);
}

#[test]
fn profile_names_are_restricted_to_safe_characters() {
    for bad in ["Work", "my profile", "a/b", "é"] {
        let text = format!("[profiles.\"{bad}\"]\n");
        let e = refuse(&text);
        assert_eq!(e.kind(), Some(ProblemKind::InvalidValue), "{bad}");
        assert_mentions(&e, &["a-z, 0-9, `_` or `-`"]);
    }
    let e = refuse("[profiles.\"\"]\n");
    assert_mentions(&e, &["profile name"]);
    assert!(parse("[profiles.work-2_x]\n").is_ok());
}

#[test]
fn profile_lookup_lists_the_valid_names() {
    let c = Config::demo();
    assert!(c.profile("work").is_ok());
    let e = c.profile("wrok").expect_err("unknown");
    assert_eq!(e.kind(), Some(ProblemKind::UnknownProfile));
    assert_mentions(
        &e,
        &["unknown profile \"wrok\"", "valid profiles: clinic, work"],
    );
    // A name from a model's tool arguments cannot inject terminal escapes into the message.
    let e = c.profile("x\u{1b}[2J").expect_err("unknown");
    assert!(!e.to_string().contains('\u{1b}'));
}

#[test]
fn graph_sources_need_the_profile_graph_account() {
    let e = refuse("[profiles.work]\nsources = [\"graph_mail\"]\n");
    assert_mentions(
        &e,
        &[
            "`profiles.work.sources`",
            "[profiles.work.graph]",
            "client_id",
        ],
    );
    let c = parse(
        r#"
        [profiles.work]
        sources = ["graph_mail", "graph_calendar"]
        [profiles.work.graph]
        tenant = "organizations"
        client_id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        "#,
    )
    .expect("valid");
    let g = c.profiles["work"].graph.as_ref().expect("graph");
    assert_eq!(
        (
            g.mail_interval_secs,
            g.chat_interval_secs,
            g.calendar_interval_secs
        ),
        (60, 5, 300)
    );
    let e = refuse("[profiles.work.graph]\nclient_id = \"my-app\"\n");
    assert_mentions(&e, &["`profiles.work.graph.client_id`", "GUID"]);
}

#[test]
fn a_hipaa_profile_cannot_be_routed_to_an_uncleared_provider() {
    let e = refuse("[profiles.clinic]\nrequires_hipaa = true\nllm_provider = \"openai\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::Forbidden));
    assert_mentions(&e, &["`profiles.clinic.llm_provider`", "hipaa_cleared"]);
}

#[test]
fn mail_domains_are_checked_and_lower_cased() {
    let c = parse("[profiles.w]\nemail_domains = [\"Contoso.COM\"]\n[hard_bans]\nblocked_recipient_domains = [\"Evil.Example\"]\n")
        .expect("valid");
    assert_eq!(c.profiles["w"].email_domains, ["contoso.com"]);
    assert_eq!(c.hard_bans.blocked_recipient_domains, ["evil.example"]);
    let e = refuse("[profiles.w]\nemail_domains = [\"bob@contoso.com\"]\n");
    assert_mentions(
        &e,
        &[
            "`profiles.w.email_domains[0]`",
            "without the part before `@`",
        ],
    );
}

#[test]
fn provider_settings_are_checked() {
    let e = refuse("[llm.providers.openai]\nendpoint = \"http://api.openai.com/v1\"\n");
    assert_mentions(&e, &["`llm.providers.openai.endpoint`", "https"]);
    // Loopback over http is fine (fake servers in tests, local proxies), as is a local server.
    assert!(parse("[llm.providers.openai]\nendpoint = \"http://127.0.0.1:9000/v1\"\n").is_ok());
    assert!(parse("[llm.providers.local]\nendpoint = \"http://gpu-box.lan:11434/v1\"\n").is_ok());

    let e = refuse("[llm.providers.openai]\nauth_env = \"openai-key\"\n");
    assert_mentions(
        &e,
        &[
            "`llm.providers.openai.auth_env`",
            "environment variable name",
        ],
    );

    let e = refuse("[llm.providers.openai]\ndeployment = \"x\"\n");
    assert_mentions(&e, &["`llm.providers.openai.deployment`", "azure_openai"]);

    let e = refuse("[llm.providers.local]\ntimeout_secs = 0\n");
    assert_mentions(&e, &["`llm.providers.local.timeout_secs`", "1 to 3600"]);
}

#[test]
fn an_auth_env_that_is_not_set_is_not_a_config_error() {
    let c = parse(
        "[llm.providers.openai]\nenabled = true\nauth_env = \"OPSDESK_TEST_SURELY_UNSET_VAR\"\n",
    )
    .expect("valid");
    assert_eq!(c.llm.providers["openai"].auth_env_is_set(), Some(false));
    assert!(
        c.warnings()
            .iter()
            .any(|w| w.key == "llm.providers.openai.auth_env")
    );
    let shown = c.to_display_toml();
    assert!(
        shown.contains("auth_env = \"OPSDESK_TEST_SURELY_UNSET_VAR\"  # NOT set"),
        "{shown}"
    );
}

// ---------------------------------------------------------------------------------------------
// Secrets

const SECRET: &str = "sk-proj-Zq81hX0tDoNotLeakMe4242";

#[test]
fn an_api_key_is_refused_with_the_environment_variable_to_use() {
    let text = format!("[llm.providers.openai]\nenabled = true\napi_key = \"{SECRET}\"\n");
    let e = refuse(&text);
    assert_eq!(e.kind(), Some(ProblemKind::Secret));
    assert_eq!(e.key(), Some("llm.providers.openai.api_key"));
    assert_eq!(e.problems()[0].location.map(|l| l.line), Some(3));
    assert_mentions(
        &e,
        &[
            FILE,
            "`llm.providers.openai.api_key` holds a secret",
            "opsdesk never reads secrets from config files",
            "export it as OPENAI_API_KEY",
            "`auth_env = \"OPENAI_API_KEY\"` in [llm.providers.openai]",
        ],
    );
    let shown = format!("{e} {e:?}");
    assert!(
        !shown.contains(SECRET) && !shown.contains("DoNotLeak"),
        "{shown}"
    );
}

#[test]
fn the_suggested_variable_follows_the_provider_kind() {
    let cases = [
        (
            "[llm.providers.azure]\nkind = \"azure_openai\"\nkey = \"abc\"\n",
            "AZURE_OPENAI_API_KEY",
        ),
        (
            "[llm.providers.gh]\nkind = \"copilot\"\ntoken = \"abc\"\n",
            "GITHUB_TOKEN",
        ),
        (
            "[llm.providers.box]\nkind = \"local\"\napiKey = \"abc\"\n",
            "LOCAL_LLM_API_KEY",
        ),
        (
            "[llm.providers.azure]\npassword = \"abc\"\n",
            "AZURE_OPENAI_API_KEY",
        ),
        (
            "[llm.providers.mystery]\nsecret = \"abc\"\n",
            "OPSDESK_LLM_PROVIDERS_MYSTERY_SECRET",
        ),
        (
            "[mail]\nimap_password = \"abc\"\n",
            "OPSDESK_MAIL_IMAP_PASSWORD",
        ),
        ("[server]\naccess_token = \"abc\"\n", "OPSDESK_TOKEN"),
    ];
    for (text, env) in cases {
        let e = refuse(text);
        assert_eq!(e.kind(), Some(ProblemKind::Secret), "{text}");
        assert_mentions(&e, &[env]);
    }
}

#[test]
fn secrets_are_refused_before_unknown_keys_and_anywhere_in_the_file() {
    // `client_secret` is not a key of [profiles.x.graph], and [whatever] is not a section:
    // the operator still hears about the secret first.
    let e = refuse(
        "[profiles.x.graph]\nclient_id = \"3fa85f64-5717-4562-b3fc-2c963f66afa6\"\nclient_secret = \"abc\"\n",
    );
    assert_eq!(e.kind(), Some(ProblemKind::Secret));
    assert_mentions(&e, &["`profiles.x.graph.client_secret`", "opsdesk login x"]);

    let e = refuse("[whatever.deeper]\nPassword = \"hunter2\"\nrefresh_token = \"r\"\n");
    assert_eq!(e.problems().len(), 2);
    assert!(e.problems().iter().all(|p| p.kind == ProblemKind::Secret));
    assert!(!e.to_string().contains("hunter2"));
}

#[test]
fn a_credential_under_an_innocuous_key_is_refused() {
    for (value, what) in [
        (SECRET, "OpenAI-style API key"),
        ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", "GitHub"),
        ("github_pat_11AAAAAAA0123456789abcdef", "GitHub"),
        ("xoxb-123456789012-abcdefghij", "Slack"),
        ("Bearer abc.def.ghi", "bearer token"),
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXZhbHVl",
            "JSON Web Token",
        ),
    ] {
        let text = format!("[llm.providers.openai]\nmodel = \"{value}\"\n");
        let e = refuse(&text);
        assert_eq!(e.kind(), Some(ProblemKind::Secret), "{value}");
        assert_mentions(
            &e,
            &["`llm.providers.openai.model`", what, "OPENAI_API_KEY"],
        );
        assert!(!e.to_string().contains(value), "{e}");
    }
    // In an array too.
    let e = refuse(&format!(
        "[hard_bans]\nblocked_phrases = [\"ok\", \"{SECRET}\"]\n"
    ));
    assert_eq!(e.key(), Some("hard_bans.blocked_phrases[1]"));
    // And a URL carrying a password.
    let e = refuse("[llm.providers.local]\nendpoint = \"http://me:pa55word@127.0.0.1:11434/v1\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::Secret));
    assert!(!e.to_string().contains("pa55word"));
}

#[test]
fn a_key_pasted_into_auth_env_is_explained() {
    let e = refuse(&format!(
        "[llm.providers.openai]\nauth_env = \"{SECRET}\"\n"
    ));
    assert_eq!(e.kind(), Some(ProblemKind::Secret));
    assert_mentions(&e, &["NAME of an environment variable"]);
    assert!(!e.to_string().contains(SECRET));
}

#[test]
fn ordinary_values_are_not_mistaken_for_secrets() {
    let c = parse(
        r#"
        [console]
        keymap = "/home/op/.config/opsdesk/keymap.toml"
        [profiles.pat]
        display_name = "Pat's consulting"
        [profiles.token-ring]
        [llm.providers.openai]
        auth_env = "OPENAI_API_KEY"
        model = "gpt-4o-mini"
        "#,
    )
    .expect("valid");
    assert_eq!(
        c.console.keymap,
        Some(PathBuf::from("/home/op/.config/opsdesk/keymap.toml"))
    );
}

// ---------------------------------------------------------------------------------------------
// Governance settings

#[test]
fn the_ladder_forbids_autonomous_sending() {
    for kind in ["send_email", "reply_email", "post_chat", "create_event"] {
        let e = refuse(&format!("[autonomy]\n{kind} = \"autonomous\"\n"));
        assert_eq!(e.kind(), Some(ProblemKind::Forbidden), "{kind}");
        assert_eq!(e.key(), Some(format!("autonomy.{kind}").as_str()));
        assert_mentions(
            &e,
            &[
                "sending needs the operator",
                "draft_only, approval_required, blocked, never",
            ],
        );
    }
    // Stricter is always allowed, and non-sending kinds may be loosened.
    let c = parse("[autonomy]\nsend_email = \"approval_required\"\nread = \"blocked\"\nmove_mail = \"autonomous\"\n")
        .expect("valid");
    assert_eq!(
        c.autonomy.level(ActionKind::SendEmail),
        AutonomyLevel::ApprovalRequired
    );
    assert_eq!(c.autonomy.level(ActionKind::Read), AutonomyLevel::Blocked);
    assert_eq!(
        c.autonomy.level(ActionKind::MoveMail),
        AutonomyLevel::Autonomous
    );
}

#[test]
fn a_non_loopback_bind_needs_the_explicit_flag() {
    let e = refuse("[server]\nbind = \"0.0.0.0:48080\"\n");
    assert_eq!(e.kind(), Some(ProblemKind::Forbidden));
    assert_eq!(e.key(), Some("server.bind"));
    assert_mentions(&e, &["not a loopback address", "allow_non_loopback = true"]);

    let c =
        parse("[server]\nbind = \"0.0.0.0:48080\"\nallow_non_loopback = true\n").expect("valid");
    assert_eq!(c.server.bind.port(), 48080);
    assert!(parse("[server]\nbind = \"[::1]:9000\"\n").is_ok());
}

#[test]
fn extra_origins_must_be_origins() {
    assert!(parse("[server]\nallowed_origins = [\"https://vscode.dev\"]\n").is_ok());
    let e = refuse("[server]\nallowed_origins = [\"*\"]\n");
    assert_mentions(&e, &["`server.allowed_origins[0]`", "wildcards"]);
}

#[test]
fn hard_bans_can_only_be_added() {
    let c = parse("[hard_bans]\nblocked_phrases = [\"wire the funds\"]\n").expect("valid");
    assert_eq!(c.hard_bans.blocked_phrases, ["wire the funds"]);
    // There is no key to switch a built-in ban off.
    let e = refuse("[hard_bans]\nexternal_send_without_approval = false\n");
    assert_eq!(e.kind(), Some(ProblemKind::UnknownKey));
    assert_eq!(BUILT_IN_HARD_BANS.len(), 3);
}

// ---------------------------------------------------------------------------------------------
// config show / config check

#[test]
fn config_show_round_trips_and_shows_no_secret() {
    for c in [Config::default(), Config::demo()] {
        let shown = c.to_display_toml();
        let back = Config::from_toml_str(&shown, Path::new("shown.toml"))
            .unwrap_or_else(|e| panic!("display output must parse back:\n{e}\n{shown}"));
        assert_eq!(back, c);
        assert!(shown.contains("auth_env = \"OPENAI_API_KEY\""));
        assert!(!shown.contains("sk-"));
    }
}

#[test]
fn config_show_says_whether_auth_env_is_set_but_never_its_value() {
    // PATH is set in any test environment; its value stands in for a secret.
    let c = parse("[llm.providers.local]\nauth_env = \"PATH\"\n").expect("valid");
    let shown = c.to_display_toml();
    assert!(
        shown.contains("auth_env = \"PATH\"  # set in the environment"),
        "{shown}"
    );
    if let Ok(value) = std::env::var("PATH")
        && !value.is_empty()
    {
        assert!(!shown.contains(&value));
    }
}

#[test]
fn several_problems_are_reported_together_one_per_line() {
    let e = refuse(
        "[server]\nbind = \"0.0.0.0:1\"\n[autonomy]\npost_chat = \"autonomous\"\n[llm]\ndefault = \"nope\"\n",
    );
    assert_eq!(e.problems().len(), 3);
    let text = e.to_string();
    assert_eq!(text.lines().count(), 3);
    assert!(text.lines().all(|l| l.starts_with(FILE)), "{text}");
}

#[test]
fn the_demo_config_warns_about_nothing_but_the_environment() {
    let warnings = Config::demo().warnings();
    assert!(
        warnings.iter().all(|w| w.key.ends_with(".auth_env")),
        "{warnings:?}"
    );
    let hipaa_stranded = parse("[profiles.c]\nrequires_hipaa = true\n").expect("valid");
    assert!(
        hipaa_stranded
            .warnings()
            .iter()
            .any(|w| w.key == "profiles.c.requires_hipaa")
    );
}

#[test]
fn a_hipaa_cleared_local_provider_over_plain_http_to_another_host_is_warned_about() {
    let local = |endpoint: &str, cleared: bool| {
        parse(&format!(
            "[llm.providers.box]\nkind = \"local\"\nenabled = true\nendpoint = \"{endpoint}\"\nmodel = \"m\"\nhipaa_cleared = {cleared}\n"
        ))
        .expect("valid: a local server may use http")
    };
    let key = "llm.providers.box.endpoint";
    let warned = |c: &Config| c.warnings().into_iter().find(|w| w.key == key);
    let w = warned(&local("http://gpu-box.lan:11434/v1", true)).expect("a warning");
    assert!(
        w.message.contains("plain http") && w.message.contains("gpu-box.lan"),
        "{w:?}"
    );
    // This machine, https, or a provider not cleared for PHI: nothing to say.
    assert!(warned(&local("http://127.0.0.1:11434/v1", true)).is_none());
    assert!(warned(&local("http://localhost:11434/v1", true)).is_none());
    assert!(warned(&local("https://gpu-box.lan/v1", true)).is_none());
    assert!(warned(&local("http://gpu-box.lan:11434/v1", false)).is_none());

    // `config check` and `doctor` say it too.
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        "[llm.providers.box]\nkind = \"local\"\nenabled = true\nendpoint = \"http://10.0.0.7:8080/v1\"\nmodel = \"m\"\nhipaa_cleared = true\n",
    )
    .unwrap();
    for args in [&["config", "check"][..], &["doctor"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .env("OPSDESK_DATA_DIR", dir.path().join("data"))
            .env("OPSDESK_CONFIG", &cfg)
            .env("XDG_CONFIG_HOME", dir.path().join("xdg"))
            .args(args)
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            all.contains(key) && all.contains("plain http on 10.0.0.7"),
            "{args:?}: {all}"
        );
    }
}

/// A classification rule without its profile, or a filing rule without its folder, is
/// refused naming the missing key, not read as the empty string (the reference marks both
/// *required*).
#[test]
fn a_rule_without_its_profile_or_folder_names_the_missing_key() {
    let e = refuse("[profiles.work]\n[[classification.rules]]\nsenders = [\"a@b.example\"]\n");
    assert_mentions(&e, &["classification.rules", "profile"]);
    let e = refuse("[[filing.rules]]\nsenders = [\"a@b.example\"]\n");
    assert_mentions(&e, &["filing.rules", "folder"]);
}
