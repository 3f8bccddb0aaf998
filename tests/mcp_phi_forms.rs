//! Issue 29: what an uncleared MCP client reads of a `requires_hipaa` profile holds no
//! identifier in any written form, on every surface, and one answer is redacted once.
//!
//! One clinic mail (spooled as `.eml`) carries the forms that passed before: an HL7 feed (its
//! segments folded onto one line in the preview), names in registry order and in capitals,
//! names in lower case, a first name alone, a date of birth in number words, an unlabelled
//! record number, and identifiers glued with underscores in the subject and an attachment's
//! name. The roster knows only "Margaret Okafor": every other name is found without it.

mod mcp_support;

use std::fs;
use std::time::Duration;

use mcp_support::{Server, rpc};
use serde_json::{Value, json};

const CLINIC: &str = r#"
[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
phi_auto_redact = true
phi_names = ["Margaret Okafor"]
"#;

const GLUED: &str = "Margaret_Okafor_123-45-6789_MRN00442211_DOB_1961-03-14.txt";

/// Every identifier of the mail; none may reach the uncleared client, in any field.
const IDENTIFIERS: &[&str] = &[
    "Okafor",
    "OKAFOR",
    "okafor",
    "123-45-6789",
    "00442211",
    "1961-03-14",
    "7110489",
    "ABERNATHY",
    "RUTH",
    "19521103",
    "POPESCU",
    "ANA-MARIA",
    "rajesh patel",
    "Soledad",
    "twelve twenty eight nineteen sixty one",
    "8841207",
];

fn clinic_eml() -> String {
    format!(
        "From: Front Desk <desk@clinic.example>\r\n\
To: ops@example.com\r\n\
Subject: Scan {GLUED}\r\n\
Message-ID: <forms-1@clinic.example>\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b\"\r\n\
\r\n\
--b\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
\r\n\
MSH|^~\\&|LAB|RVC|||202601011200||ADT^A04|9|P|2.5\r\n\
PID|1||7110489^^^RVC^MR||ABERNATHY^RUTH^L||19521103|F\r\n\
Registry: POPESCU, ANA-MARIA\r\n\
voicemail: hi this is rajesh patel, my mom OKAFOR needs a callback, her dob is twelve twenty\r\n\
eight nineteen sixty one. pt 8841207 asked for the forms by Friday end of day.\r\n\
Soledad will bring the scan.\r\n\
--b\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Content-Disposition: attachment; filename=\"{GLUED}\"\r\n\
\r\n\
okafor intake form\r\n\
--b--\r\n"
    )
}

fn spool_eml(server: &Server, name: &str, content: &str) {
    let dir = server.data_dir.join("spool");
    fs::create_dir_all(&dir).expect("spool dir");
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(&tmp, content).expect("write eml");
    fs::rename(&tmp, dir.join(name)).expect("rename eml");
}

/// `inbox_pull` until the mail is there.
async fn pull_when_arrived(server: &Server) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let v = rpc(
            server,
            "forms-test",
            "tools/call",
            json!({"name": "inbox_pull", "arguments": {"since": 0, "limit": 50, "mark_consumed": false}}),
        )
        .await;
        if v["result"]["structuredContent"]["messages"]
            .as_array()
            .is_some_and(|m| !m.is_empty())
        {
            return v;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the mail did not arrive: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn assert_clean(what: &str, v: &Value) {
    let s = v.to_string();
    for id in IDENTIFIERS {
        assert!(!s.contains(id), "{what} leaks `{id}`: {s}");
    }
}

/// Both copies of one tool answer are the same redaction: the text copy is the structured
/// content, placeholder for placeholder.
fn assert_one_redaction(what: &str, result: &Value) {
    let structured = &result["structuredContent"];
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let copy: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    assert_eq!(&copy, structured, "{what}: the two copies differ");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_surface_hides_every_form_and_both_copies_agree() {
    let server = Server::start(&[], Some(CLINIC));
    spool_eml(&server, "forms.eml", &clinic_eml());
    let pull = pull_when_arrived(&server).await;
    assert_clean("inbox_pull", &pull);
    assert_one_redaction("inbox_pull", &pull["result"]);

    // What the values say, inside their fences.
    let msg = &mcp_support::unfenced_answer(&pull["result"]["structuredContent"])["messages"][0];
    // The preview is the redacted text folded: the HL7 name fields read mid-line too.
    let preview = msg["preview"].as_str().unwrap_or_default();
    assert!(preview.contains("<PERSON_"), "{preview}");
    assert!(preview.contains("<MRN_"), "{preview}");
    // The deadline stays readable.
    let text = msg["text"].as_str().unwrap_or_default();
    assert!(text.contains("by Friday end of day"), "{text}");
    // Subject and attachment names: the glued file name loses every identifier, keeps its
    // shape.
    let subject = msg["subject"].as_str().unwrap_or_default();
    assert!(subject.starts_with("Scan <PERSON_"), "{subject}");
    assert!(subject.ends_with(".txt"), "{subject}");
    let att = &msg["attachments"][0];
    assert!(
        att["name"].as_str().unwrap_or_default().contains("<SSN_"),
        "{att}"
    );

    for (name, args) in [
        ("mail_list", json!({})),
        ("inbox_search", json!({"text": "scan"})),
        ("morning_brief", json!({"profile": "clinic"})),
    ] {
        let v = rpc(
            &server,
            "forms-test",
            "tools/call",
            json!({"name": name, "arguments": args}),
        )
        .await;
        assert!(v.get("result").is_some(), "{name}: {v}");
        assert_clean(name, &v);
        assert_one_redaction(name, &v["result"]);
    }

    // Resources: the inbox and the attachment's metadata.
    let inbox = rpc(
        &server,
        "forms-test",
        "resources/read",
        json!({"uri": "opsdesk://inbox"}),
    )
    .await;
    assert!(inbox.get("result").is_some(), "{inbox}");
    assert_clean("opsdesk://inbox", &inbox);
    let uri = att["uri"].as_str().expect("the attachment is stored");
    let read = rpc(&server, "forms-test", "resources/read", json!({"uri": uri})).await;
    assert!(read.get("result").is_some(), "{read}");
    assert_clean("the attachment resource", &read);
}
