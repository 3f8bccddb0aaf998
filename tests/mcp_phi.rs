//! PHI reaches only who is cleared for it (issue 11, DESIGN principle 8). With a
//! `requires_hipaa` profile holding a PHI fixture, an uncleared MCP client (the default token)
//! finds no fixture identifier anywhere in the full JSON of any tool result or resource; a
//! client whose own token is `hipaa_cleared` gets the clear text; a non-HIPAA profile stays
//! clear for everyone; the operator's CLI is unchanged; each redacted answer is audited with
//! counts, never values. The pushes are checked end to end with the official Python SDK.

mod llm_support;
mod mcp_support;

use std::process::Command;
use std::time::Duration;

use mcp_support::{Server, ci_tool, interop_script, run_bounded};
use serde_json::{Value, json};

const CONFIG: &str = r#"
[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
phi_auto_redact = true
phi_names = ["Margaret Okafor"]

[profiles.deals]
sources = ["spool"]

[server.clients.scribe]
token_env = "SCRIBE_TOKEN"
hipaa_cleared = true
"#;

/// Every identifier of the fixture; none may reach an uncleared client.
const IDENTIFIERS: &[&str] = mcp_support::PATIENT_IDENTIFIERS;

fn scribe_token() -> String {
    "s".repeat(48)
}

fn start() -> Server {
    let token = scribe_token();
    let server = Server::start_env(&[], Some(CONFIG), &[("SCRIBE_TOKEN", token.as_str())]);
    add_fixture(&server);
    server
}

fn add_fixture(server: &Server) {
    mcp_support::add_patient_message(server);
    let o = server.cli(&[
        "inbox",
        "add",
        "--profile",
        "deals",
        "--channel",
        "email",
        "--from",
        "Jordan Lee <jordan.lee@contoso.com>",
        "--subject",
        "Term sheet",
        "--body",
        "Jordan Lee signed the term sheet.",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("http client")
}

/// One stateless (2026-07-28) request; the whole JSON-RPC answer.
async fn rpc(server: &Server, token: &str, method: &str, params: Value) -> Value {
    let mut p = params;
    p["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "phi-test", "version": "1"},
    });
    let name = p
        .get("name")
        .or_else(|| p.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": p}).to_string();
    let mut rb = http().post(&server.url).header("mcp-method", method);
    if let Some(n) = name {
        rb = rb.header("mcp-name", n);
    }
    let resp = rb
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("authorization", format!("Bearer {token}"))
        .body(body)
        .send()
        .await
        .expect("send");
    let text = resp.text().await.unwrap_or_default();
    serde_json::from_str::<Value>(&text)
        .ok()
        .or_else(|| {
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                .next_back()
        })
        .unwrap_or(Value::Null)
}

async fn tool(server: &Server, token: &str, name: &str, args: Value) -> Value {
    rpc(
        server,
        token,
        "tools/call",
        json!({"name": name, "arguments": args}),
    )
    .await
}

/// Every tool and resource an MCP client can read, as full JSON answers.
async fn everything(server: &Server, token: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    // A draft of the clinic profile, written by a model, quoting the patient.
    out.push((
        "draft_email".into(),
        tool(
            server,
            token,
            "draft_email",
            json!({"profile": "clinic", "to": ["front-desk@clinic.example"], "subject": "Callback",
                   "body": "Please call Margaret Okafor back at 555-201-4477."}),
        )
        .await,
    ));
    for (name, args) in [
        (
            "inbox_pull",
            json!({"since": 0, "limit": 50, "mark_consumed": false}),
        ),
        ("inbox_search", json!({"text": "refill"})),
        ("mail_list", json!({})),
        ("morning_brief", json!({"profile": "clinic"})),
        ("eod_digest", json!({"profile": "clinic"})),
        (
            "morning_brief",
            json!({"profile": "clinic", "polish": true}),
        ),
        ("drafts_list", json!({"all": true})),
        ("status", json!({})),
    ] {
        out.push((name.to_string(), tool(server, token, name, args).await));
    }
    for uri in [
        "opsdesk://inbox",
        "opsdesk://drafts",
        "opsdesk://audit/recent",
        "opsdesk://config/profiles",
    ] {
        out.push((
            uri.to_string(),
            rpc(server, token, "resources/read", json!({"uri": uri})).await,
        ));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncleared_client_never_sees_a_fixture_identifier() {
    let server = start();
    let answers = everything(&server, &server.token.clone()).await;
    for (what, v) in &answers {
        assert!(v.get("result").is_some(), "{what} failed: {v}");
        let s = v.to_string();
        for id in IDENTIFIERS {
            assert!(
                !s.contains(id),
                "{what} leaks `{id}` to an uncleared client: {s}"
            );
        }
    }
    // Error answers pass the view too (here a not-found error echoing the lookup).
    let err = tool(
        &server,
        &server.token.clone(),
        "draft_reply",
        json!({"message_id": "Margaret Okafor MRN: 00482913", "body": "hi"}),
    )
    .await;
    assert!(err.get("error").is_some(), "{err}");
    for id in ["Okafor", "00482913"] {
        assert!(
            !err.to_string().contains(id),
            "an error leaks `{id}`: {err}"
        );
    }
    // The answers say they were redacted and how clearance works.
    let pull = &answers
        .iter()
        .find(|(w, _)| w == "inbox_pull")
        .expect("pull")
        .1;
    let notice = &pull["result"]["structuredContent"]["phi_redaction"];
    assert_eq!(notice["redacted"], true, "{pull}");
    assert!(
        notice["notice"]
            .as_str()
            .unwrap_or("")
            .contains("hipaa_cleared"),
        "{notice}"
    );
    // The non-HIPAA profile stays clear.
    let s = pull.to_string();
    assert!(s.contains("Jordan Lee signed the term sheet"), "{s}");
    // Placeholders are stable within the answer's text copy too.
    let text = pull["result"]["content"][0]["text"].as_str().unwrap_or("");
    assert!(text.contains("<PERSON_"), "{text}");

    // Each redacted answer is audited with counts, never values.
    let mut audit = String::new();
    for e in std::fs::read_dir(server.data_dir.join("audit")).expect("audit dir") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            audit.push_str(&std::fs::read_to_string(&p).expect("audit file"));
        }
    }
    assert!(audit.contains("mcp.redacted"), "{audit}");
    assert!(audit.contains("person="), "{audit}");
    for id in IDENTIFIERS {
        assert!(!audit.contains(id), "the audit quotes `{id}`: {audit}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cleared_client_gets_the_clear_text() {
    let server = start();
    let v = tool(
        &server,
        &scribe_token(),
        "inbox_pull",
        json!({"since": 0, "limit": 50, "mark_consumed": false}),
    )
    .await;
    let s = v.to_string();
    for id in ["Margaret Okafor", "00482913", "1958-03-14"] {
        assert!(s.contains(id), "the cleared client did not get `{id}`: {s}");
    }
    assert!(
        v["result"]["structuredContent"]
            .get("phi_redaction")
            .is_none(),
        "{v}"
    );
    // The cursor is the credential's.
    assert_eq!(
        v["result"]["structuredContent"]["consumer"], "mcp:scribe",
        "{v}"
    );
}

#[test]
fn the_operators_cli_is_unchanged() {
    let server = start();
    let o = server.cli(&["inbox", "list", "--json"]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(
        s.contains("Margaret Okafor") && s.contains("00482913"),
        "{s}"
    );
}

#[test]
fn python_sdk_uncleared_client_gets_redacted_pushes_tools_and_resources() {
    let python = ci_tool("mcp-python");
    let server = start();
    for (mode, token, expect_clear) in [
        ("legacy", server.token.clone(), false),
        ("legacy", scribe_token(), true),
    ] {
        let mut cmd = Command::new(&python);
        // The script's `opsdesk inbox add` needs the server's profiles.
        let config = server.data_dir.with_file_name("config.toml");
        cmd.env("OPSDESK_CONFIG", &config);
        cmd.arg(interop_script("py_phi.py"))
            .args([&server.url, &token, mode, mcp_support::BIN])
            .arg(&server.data_dir)
            .arg(if expect_clear { "clear" } else { "redacted" })
            .args(IDENTIFIERS);
        let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
        assert!(
            ok,
            "python PHI client ({mode}, clear={expect_clear}) failed:\nstdout: {out}\nstderr: {err}"
        );
    }
}

/// A polish that the router re-identified for the operator (a cleared provider, echoing the
/// redacted prompt back) must not reach an uncleared MCP client in clear; a provider's error
/// body quoting the patient is redacted before it enters the audit trail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reidentified_polish_is_redacted_again_for_an_uncleared_client() {
    let fake = llm_support::Fake::start().await;
    fake.script(
        "/chat/completions",
        vec![
            llm_support::Reply::Echo { piece: 7 },
            llm_support::Reply::Echo { piece: 7 },
            llm_support::Reply::Whole(
                400,
                vec![("content-type", "application/json".to_string())],
                r#"{"error":{"message":"rejected: Margaret Okafor MRN: 00482913"}}"#.to_string(),
            ),
        ],
    );
    let config = format!(
        r#"{CONFIG}
[llm]
default = "local"
[llm.providers.local]
enabled = true
hipaa_cleared = true
endpoint = "{}/v1"
model = "fake-model"
"#,
        fake.url
    );
    let token = scribe_token();
    let server = tokio::task::spawn_blocking(move || {
        let s = Server::start_env(&[], Some(&config), &[("SCRIBE_TOKEN", token.as_str())]);
        add_fixture(&s);
        s
    })
    .await
    .expect("server");

    let args = json!({"profile": "clinic", "polish": true});
    let cleared = tool(&server, &scribe_token(), "morning_brief", args.clone()).await;
    let sc = &cleared["result"]["structuredContent"];
    assert_eq!(sc["polished"], true, "{cleared}");
    assert!(
        cleared.to_string().contains("Okafor"),
        "the polish was not re-identified for a cleared client: {cleared}"
    );

    let uncleared = tool(
        &server,
        &server.token.clone(),
        "morning_brief",
        args.clone(),
    )
    .await;
    assert_eq!(
        uncleared["result"]["structuredContent"]["polished"], true,
        "{uncleared}"
    );
    let s = uncleared.to_string();
    for id in IDENTIFIERS {
        assert!(
            !s.contains(id),
            "the re-identified polish leaks `{id}`: {s}"
        );
    }

    // The provider now fails with a body that quotes the patient.
    let failed = tool(&server, &scribe_token(), "morning_brief", args).await;
    assert_eq!(
        failed["result"]["structuredContent"]["polished"], false,
        "{failed}"
    );
    let mut audit = String::new();
    for e in std::fs::read_dir(server.data_dir.join("audit")).expect("audit dir") {
        let p = e.expect("entry").path();
        audit.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
    }
    assert!(
        audit.contains("rejected: <PERSON_"),
        "the provider's error body is not in the audit (redacted): {audit}"
    );
    for id in ["Okafor", "00482913"] {
        assert!(
            !audit.contains(id),
            "the audit trail quotes `{id}`: {audit}"
        );
    }
}

/// `draft_email` takes exactly one of `body` and `body_html`; HTML is sanitized before it is
/// queued, hidden characters are refused, and the draft carries the HTML and its text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draft_email_body_html_is_checked_sanitized_and_queued() {
    let server = start();
    let token = server.token.clone();
    let base = json!({"profile": "deals", "to": ["jordan.lee@contoso.com"], "subject": "Q3"});
    let with = |extra: Value| {
        let mut a = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            a[k] = v.clone();
        }
        a
    };
    for (args, field) in [
        (
            with(json!({"body": "x", "body_html": "<p>x</p>"})),
            "body_html",
        ),
        (with(json!({})), "body"),
    ] {
        let v = tool(&server, &token, "draft_email", args).await;
        assert_eq!(v["error"]["code"], -32602, "{v}");
        assert_eq!(v["error"]["data"]["field"], field, "{v}");
    }
    for hidden in ["\u{0}", "\u{202E}", "\u{200B}"] {
        let html = format!("<p>Hi{hidden} Jordan</p>");
        let v = tool(
            &server,
            &token,
            "draft_email",
            with(json!({"body_html": html})),
        )
        .await;
        assert_eq!(v["error"]["code"], -32602, "{v}");
        assert_eq!(v["error"]["data"]["field"], "body_html", "{v}");
    }
    // Nothing readable left: refused, not queued empty.
    let v = tool(
        &server,
        &token,
        "draft_email",
        with(json!({"body_html": "<script>alert(1)</script>"})),
    )
    .await;
    assert_eq!(v["error"]["data"]["field"], "body_html", "{v}");

    let html = r#"<p onclick="x()">Hi <b>Jordan</b></p><script>alert(1)</script><a href="javascript:alert(2)">x</a> <a href="https://contoso.com/terms">terms</a>"#;
    let v = tool(
        &server,
        &token,
        "draft_email",
        with(json!({"body_html": html})),
    )
    .await;
    let out = &v["result"]["structuredContent"];
    assert_eq!(out["status"], "pending_approval", "{v}");
    let id = out["draft_id"].as_str().unwrap().to_string();
    let v = tool(&server, &token, "draft_status", json!({"id": id})).await;
    let o = &v["result"]["structuredContent"]["draft"]["outbound"];
    let sent = o["body_html"].as_str().unwrap();
    assert!(sent.contains("<b>Jordan</b>"), "{o}");
    for bad in ["script", "onclick", "javascript:"] {
        assert!(!sent.contains(bad), "{bad} left in {sent}");
    }
    let text = o["body"].as_str().unwrap();
    assert!(
        text.contains("Hi Jordan") && text.contains("https://contoso.com/terms"),
        "{o}"
    );
    // The operator's `drafts show` says it is HTML and shows the text.
    let show = server.cli(&["drafts", "show", &id]);
    let shown = String::from_utf8_lossy(&show.stdout);
    assert!(
        shown.contains("HTML mail") && shown.contains("Hi Jordan"),
        "{shown}"
    );
    assert!(!shown.contains("<b>"), "{shown}");

    // A reply takes `body_html` too, for mail only: a chat reply is refused, naming the field.
    let o = server.cli(&[
        "inbox",
        "add",
        "--profile",
        "deals",
        "--channel",
        "teams",
        "--from",
        "Jordan Lee <jordan.lee@contoso.com>",
        "--subject",
        "chat",
        "--body",
        "ping",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pulled = tool(&server, &token, "inbox_search", json!({"text": "ping"})).await;
    let chat = pulled["result"]["structuredContent"]["messages"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let v = tool(
        &server,
        &token,
        "draft_reply",
        json!({"message_id": chat, "body_html": "<p>pong</p>"}),
    )
    .await;
    assert_eq!(v["error"]["data"]["field"], "body_html", "{v}");
}

/// An HTML draft of a HIPAA profile reaches an uncleared client with its HTML redacted too,
/// even where markup splits a name or an entity hides a digit; a cleared client reads it clear.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_html_draft_is_redacted_for_an_uncleared_client() {
    let server = start();
    let html =
        "<p>Please call Margaret <b>Okafor</b> (MRN: 0048291&#51;) back at 555-201-4477.</p>";
    let v = tool(
        &server,
        &server.token.clone(),
        "draft_email",
        json!({"profile": "clinic", "to": ["front-desk@clinic.example"], "subject": "Callback",
               "body_html": html}),
    )
    .await;
    assert_eq!(
        v["result"]["structuredContent"]["status"], "pending_approval",
        "{v}"
    );
    let uncleared = tool(&server, &server.token.clone(), "drafts_list", json!({})).await;
    let s = uncleared.to_string();
    assert!(s.contains("body_html"), "{s}");
    for id in IDENTIFIERS {
        assert!(!s.contains(id), "`{id}` leaks through the HTML body: {s}");
    }
    assert!(!s.contains("0048291&#51;"), "{s}");
    let cleared = tool(&server, &scribe_token(), "drafts_list", json!({})).await;
    let s = cleared.to_string();
    assert!(s.contains("Margaret <b>Okafor</b>"), "{s}");
}

/// An HTML mail is reviewed whole or not queued: a tail past 50 000 characters (where link
/// footnotes go) reaches the draft's text that the operator, the bans and the boundary read;
/// HTML whose text is over the body limit, HTML over 400 KB and deeply nested HTML are refused
/// naming `body_html` (the nesting is refused before parsing; its depth here is small, so the
/// test shows the refusal, never a timing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_html_mail_is_reviewed_whole_or_refused() {
    let server = start();
    let token = server.token.clone();
    let draft = |html: String| {
        json!({"profile": "deals", "to": ["jordan.lee@contoso.com"], "subject": "Q3",
               "body_html": html})
    };
    let filler = "lorem ipsum ".repeat(5_000);
    let html = format!(
        r#"<p>{filler}</p><p>Wire the deposit to 4321 0987 <a href="https://evil.example/x">here</a></p>"#
    );
    let v = tool(&server, &token, "draft_email", draft(html)).await;
    let out = &v["result"]["structuredContent"];
    assert_eq!(out["status"], "pending_approval", "{v}");
    let id = out["draft_id"].as_str().unwrap().to_string();
    let v = tool(&server, &token, "draft_status", json!({"id": id})).await;
    let text = v["result"]["structuredContent"]["draft"]["outbound"]["body"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.len() > 60_000, "{}", text.len());
    assert!(text.contains("Wire the deposit to 4321 0987"), "tail cut");
    assert!(text.contains("https://evil.example/x"), "link footnote cut");
    assert!(!text.ends_with('…'));

    for (what, html) in [
        (
            "text over the limit",
            format!("<p>{}</p>", "lorem ipsum ".repeat(9_000)),
        ),
        (
            "HTML over 400 KB",
            format!("<p>{}</p>", "<b></b>".repeat(60_000)),
        ),
        (
            "nested 1 000 deep",
            format!("{}x{}", "<div>".repeat(1_000), "</div>".repeat(1_000)),
        ),
    ] {
        let v = tool(&server, &token, "draft_email", draft(html)).await;
        assert_eq!(v["error"]["code"], -32602, "{what}: {v}");
        assert_eq!(v["error"]["data"]["field"], "body_html", "{what}: {v}");
    }
}

/// Search is no oracle for redacted words: an uncleared client that searches for the patient's
/// name, MRN or phone gets nothing (the record it would find shows `<PERSON_…>` where the
/// name was, so handing it over would say whom it is about), while a search for a word the
/// view leaves visible finds the record, redacted; a cleared client finds it by the name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncleared_search_finds_nothing_by_a_redacted_word() {
    let server = start();
    let token = server.token.clone();
    let hits = |v: &Value| {
        v["result"]["structuredContent"]["messages"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(usize::MAX)
    };
    for text in ["okafor", "Margaret Okafor", "00482913", "555-201-4477"] {
        let v = tool(&server, &token, "inbox_search", json!({"text": text})).await;
        assert_eq!(hits(&v), 0, "{text}: {v}");
        let copy = v["result"]["content"][0]["text"].as_str().unwrap_or("");
        assert!(!copy.contains("refill"), "the text copy agrees: {copy}");
    }
    let v = tool(
        &server,
        &token,
        "inbox_search",
        json!({"text": "refill hba1c"}),
    )
    .await;
    assert_eq!(hits(&v), 1, "{v}");
    assert!(!v.to_string().contains("Okafor"), "{v}");
    let cleared = tool(
        &server,
        &scribe_token(),
        "inbox_search",
        json!({"text": "okafor"}),
    )
    .await;
    assert_eq!(hits(&cleared), 1, "{cleared}");
    // Another profile's record is found by name by anyone.
    let v = tool(
        &server,
        &token,
        "inbox_search",
        json!({"text": "jordan lee"}),
    )
    .await;
    assert_eq!(hits(&v), 1, "{v}");
}

/// A draft's digest is SHA-256 of its clear content: an uncleared client that could read it
/// could hash guesses (a name, a date of birth in a known subject) until one matched. Of a
/// HIPAA profile's draft it sees a keyed digest, stable while the engine runs; a cleared
/// client sees the real one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncleared_client_sees_a_keyed_digest_it_cannot_check_guesses_against() {
    let server = start();
    let made = tool(
        &server,
        &server.token.clone(),
        "draft_email",
        json!({"profile": "clinic", "to": ["front-desk@clinic.example"],
               "subject": "Callback", "body": "Please call Margaret Okafor back."}),
    )
    .await;
    let shown = made["result"]["structuredContent"]["digest"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.starts_with("hmac-sha256:"), "{made}");
    let cleared = tool(&server, &scribe_token(), "drafts_list", json!({})).await;
    let real = cleared["result"]["structuredContent"]["drafts"][0]["digest"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(real.len(), 64, "{cleared}");
    assert!(!shown.contains(&real));
    let listed = tool(&server, &server.token.clone(), "drafts_list", json!({})).await;
    assert_eq!(
        listed["result"]["structuredContent"]["drafts"][0]["digest"], shown,
        "the same draft shows the same keyed digest: {listed}"
    );
    assert!(!listed.to_string().contains(&real));
}

/// The PHI view redacts what senders and models wrote, never opsdesk's own fixed text: a fence
/// notice's explanation and the counts of an `mcp.redacted` record come out exactly as opsdesk
/// wrote them, and an answer holding no PHI is not reported as redacted because of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opsdesks_own_notices_and_redaction_counts_pass_the_phi_view_unchanged() {
    let server = start();
    let token = server.token.clone();

    // A pull of the non-HIPAA profile alone: nothing is redacted, the notice is whole.
    let deals = tool(
        &server,
        &token,
        "inbox_pull",
        json!({"since": 0, "limit": 50, "profile": "deals", "mark_consumed": false}),
    )
    .await;
    let sc = &deals["result"]["structuredContent"];
    assert!(sc.get("phi_redaction").is_none(), "{deals}");
    let notice = sc["notice"].as_str().expect("notice");
    let fence = sc["fence"].as_str().expect("fence");
    assert!(
        notice.contains("attachment names and texts, source meta, and anything quoting them")
            && notice.contains(&format!("exactly this id ({fence})")),
        "{notice}"
    );

    // A pull with PHI is redacted, its notice still whole, and the redaction audited.
    let all = tool(
        &server,
        &token,
        "inbox_pull",
        json!({"since": 0, "limit": 50, "mark_consumed": false}),
    )
    .await;
    let sc = &all["result"]["structuredContent"];
    assert_eq!(sc["phi_redaction"]["redacted"], true, "{all}");
    assert!(
        sc["notice"]
            .as_str()
            .expect("notice")
            .contains("source meta, and anything"),
        "{all}"
    );

    // Read back by the same uncleared client, the audit's records of redactions carry their
    // counts and times as the trail has them.
    let mut trail = Vec::new();
    for e in std::fs::read_dir(server.data_dir.join("audit")).expect("audit dir") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            let text = std::fs::read_to_string(&p).expect("audit file");
            trail.extend(
                text.lines()
                    .map(|l| serde_json::from_str::<Value>(l).expect("record")),
            );
        }
    }
    let r = rpc(
        &server,
        &token,
        "resources/read",
        json!({"uri": "opsdesk://audit/recent"}),
    )
    .await;
    let body: Value = serde_json::from_str(
        r["result"]["contents"][0]["text"]
            .as_str()
            .expect("resource text"),
    )
    .expect("JSON body");
    let mut records = Vec::new();
    collect_records(&body, &mut records);
    let redacted: Vec<&Value> = records
        .iter()
        .copied()
        .filter(|r| r["event"] == "mcp.redacted")
        .collect();
    assert!(!redacted.is_empty(), "{body}");
    for rec in redacted {
        assert_eq!(
            rec["reason"], "PHI redacted for an uncleared client",
            "{rec}"
        );
        let counts = rec["target"].as_str().expect("counts");
        assert!(
            counts.split(' ').all(|c| c
                .split_once('=')
                .is_some_and(|(k, n)| !k.is_empty() && n.parse::<u32>().is_ok())),
            "counts as numbers: {rec}"
        );
        let original = trail
            .iter()
            .find(|t| t["seq"] == rec["seq"])
            .expect("the record is on the trail");
        assert_eq!(rec["target"], original["target"], "{rec}");
        assert_eq!(rec["ts"], original["ts"], "{rec}");
    }
}

/// Every audit record (an object with `seq` and `hash`) in `v`.
fn collect_records<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(o) if o.contains_key("seq") && o.contains_key("hash") => out.push(v),
        Value::Object(o) => o.values().for_each(|x| collect_records(x, out)),
        Value::Array(a) => a.iter().for_each(|x| collect_records(x, out)),
        _ => {}
    }
}
