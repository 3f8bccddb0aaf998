//! Attachments end to end: `.eml` MIME parts and Graph attachments land in the content-addressed
//! store with neutralized names and clear markers; MCP clients get metadata and
//! `opsdesk://attachments/{sha256}` URIs, never base64 in tool results; an uncleared client gets
//! no PHI from a clinic's attachment. Real files in temporary directories, a real inbox.

mod graph_support;
mod mcp_support;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use graph_support::{CLIENT_ID, Fake, LARGE_ATTACHMENT};
use opsdesk::config::Config;
use opsdesk::domain::NewMessage;
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use opsdesk::sources::graph::mail::MailSync;
use opsdesk::sources::graph::{Account, Deliver};
use opsdesk::sources::poller::SourceHost;

use base64::Engine as _;
use opsdesk::config::attachments::AttachmentsConfig;
use opsdesk::domain::{AttachmentStatus, InboxRecord};
use opsdesk::sanitize::safe_file_name;
use opsdesk::sources::InboxSink;
use opsdesk::sources::spool::Spool;
use opsdesk::store::attachments::AttachmentStore;
use opsdesk::store::inbox::{Filter, Inbox};
use sha2::{Digest, Sha256};

fn sha(b: &[u8]) -> String {
    hex::encode(Sha256::digest(b))
}

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// A small but real PDF's bytes (only the header matters to nothing here; the bytes are
/// what is hashed).
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

/// A referral: text body, an inline logo (multipart/related), a PDF named with RFC 2231
/// (UTF-8, continuation), a text note named with RFC 2047, and a hostile name: path traversal,
/// a right-to-left override that makes `exe.pdf` read as `fdp.exe`, a Windows device name.
fn referral_eml() -> String {
    format!(
        "From: Clinic Front Desk <desk@clinic.example>\r\n\
To: ops@example.com\r\n\
Subject: Referral packet\r\n\
Message-ID: <ref-1@clinic.example>\r\n\
Date: Tue, 24 Nov 2026 09:00:00 +0000\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"mixed\"\r\n\
\r\n\
--mixed\r\n\
Content-Type: multipart/related; boundary=\"rel\"\r\n\
\r\n\
--rel\r\n\
Content-Type: text/html; charset=utf-8\r\n\
\r\n\
<p>Please see the referral.</p><img src=\"cid:logo@x\">\r\n\
--rel\r\n\
Content-Type: image/png; name=\"logo.png\"\r\n\
Content-Disposition: inline; filename=\"logo.png\"\r\n\
Content-ID: <logo@x>\r\n\
Content-Transfer-Encoding: base64\r\n\
\r\n\
{png}\r\n\
--rel--\r\n\
--mixed\r\n\
Content-Type: application/pdf\r\n\
Content-Disposition: attachment;\r\n filename*0*=UTF-8''R%C3%A9f%C3%A9rence%20;\r\n filename*1*=patient.pdf\r\n\
Content-Transfer-Encoding: base64\r\n\
\r\n\
{pdf}\r\n\
--mixed\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Content-Disposition: attachment; filename=\"=?UTF-8?B?Tm90ZXMgw7xiZXIudHh0?=\"\r\n\
\r\n\
Follow-up in two weeks.\u{1b}[31m red\r\n\
--mixed\r\n\
Content-Type: application/octet-stream\r\n\
Content-Disposition: attachment; filename=\"../../..\\\\evil/CON.\u{202e}fdp.exe\"\r\n\
Content-Transfer-Encoding: base64\r\n\
\r\n\
{evil}\r\n\
--mixed--\r\n",
        png = b64(PNG),
        pdf = b64(PDF),
        evil = b64(b"MZ not really"),
    )
}

struct Spooled {
    tmp: tempfile::TempDir,
    inbox: Inbox,
    spool: Spool,
    store: AttachmentStore,
}

fn spooled(limits: AttachmentsConfig) -> Spooled {
    let tmp = tempfile::tempdir().unwrap();
    let store = AttachmentStore::new(tmp.path(), &limits);
    let inbox = Inbox::open(&tmp.path().join("inbox")).unwrap();
    let spool = Spool::new(tmp.path().join("spool"), "clinic".into())
        .unwrap()
        .with_settle(Duration::ZERO)
        .with_attachments(store.clone());
    Spooled {
        tmp,
        inbox,
        spool,
        store,
    }
}

impl Spooled {
    fn drop_and_poll(&self, name: &str, content: &str) -> Vec<InboxRecord> {
        fs::write(self.tmp.path().join("spool").join(name), content).unwrap();
        let report = self.spool.poll_once(&InboxSink(&self.inbox)).unwrap();
        assert!(report.rejected.is_empty(), "{:?}", report.rejected);
        self.inbox
            .read_after(0, usize::MAX, &Filter::default())
            .unwrap()
            .records
            .into_iter()
            .map(std::sync::Arc::unwrap_or_clone)
            .collect()
    }
}

#[test]
fn an_eml_with_a_pdf_an_inline_image_and_a_hostile_name_is_stored_by_hash() {
    let s = spooled(AttachmentsConfig::default());
    let records = s.drop_and_poll("referral.eml", &referral_eml());
    assert_eq!(records.len(), 1);
    let a = &records[0].attachments;
    let names: Vec<&str> = a.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "logo.png",
            "Référence patient.pdf",
            "Notes über.txt",
            "_CON.fdp.exe"
        ],
        "RFC 2231 and 2047 names decoded; the hostile one neutralized"
    );

    let logo = &a[0];
    assert!(logo.inline);
    assert_eq!(logo.media_type, "image/png");
    assert_eq!(logo.sha256.as_deref(), Some(sha(PNG).as_str()));

    let pdf = &a[1];
    assert!(!pdf.inline);
    assert_eq!(
        (pdf.media_type.as_str(), pdf.size),
        ("application/pdf", PDF.len() as u64)
    );
    assert_eq!(pdf.status, AttachmentStatus::Stored);
    assert_eq!(pdf.text, None, "no PDF text extraction");
    assert_eq!(
        pdf.uri().unwrap(),
        format!("opsdesk://attachments/{}", sha(PDF))
    );

    let note = &a[2];
    assert_eq!(
        note.text.as_deref(),
        Some("Follow-up in two weeks. red"),
        "text attachments' text is extracted and sanitized like bodies"
    );

    let evil = &a[3];
    assert_eq!(evil.risk.as_deref(), Some("executable"));
    assert!(!evil.name.contains(['/', '\\', '\u{202e}']));

    // On disk: named by hash only, private, nothing named after the sender's path.
    for att in a {
        let h = att.sha256.as_deref().unwrap();
        let path = s.store.path_of(h).unwrap();
        assert_eq!(path.file_name().unwrap().to_str().unwrap(), h);
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let (bytes, size) = s.store.read(&sha(PDF), u64::MAX).unwrap().unwrap();
    assert_eq!((bytes.as_slice(), size), (PDF, PDF.len() as u64));
    assert_no_file_named_like_the_sender(s.tmp.path());
}

fn assert_no_file_named_like_the_sender(root: &Path) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let n = e.file_name().to_string_lossy().into_owned();
            assert!(
                !n.contains("evil") && !n.contains("CON") && !n.contains(".exe"),
                "{}",
                e.path().display()
            );
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
        }
    }
}

#[test]
fn the_same_eml_dropped_twice_is_one_record_and_one_copy_of_each_file() {
    let s = spooled(AttachmentsConfig::default());
    s.drop_and_poll("a.eml", &referral_eml());
    let before = s.store.measure().unwrap();
    let records = s.drop_and_poll("again.eml", &referral_eml());
    assert_eq!(records.len(), 1);
    assert_eq!(s.store.measure().unwrap(), before);
}

#[test]
fn size_limits_and_the_quota_leave_clear_markers() {
    let s = spooled(AttachmentsConfig {
        max_file_bytes: PDF.len() as u64 - 1,
        max_message_bytes: 1000,
        quota_bytes: PNG.len() as u64 + 5,
        outbound_dirs: Vec::new(),
    });
    let records = s.drop_and_poll("referral.eml", &referral_eml());
    let st: Vec<_> = records[0]
        .attachments
        .iter()
        .map(|a| (a.name.as_str(), a.status))
        .collect();
    assert_eq!(
        st,
        [
            ("logo.png", AttachmentStatus::Stored),
            ("Référence patient.pdf", AttachmentStatus::TooLarge),
            ("Notes über.txt", AttachmentStatus::QuotaFull),
            ("_CON.fdp.exe", AttachmentStatus::QuotaFull),
        ]
    );
    let pdf = &records[0].attachments[1];
    assert_eq!(pdf.status.marker(), "too large, not stored");
    assert!(pdf.uri().is_none());
    assert!(s.store.read(&sha(PDF), 10).unwrap().is_none());
}

#[test]
fn records_without_attachments_are_written_as_before() {
    let s = spooled(AttachmentsConfig::default());
    let records = s.drop_and_poll(
        "plain.json",
        r#"{"from":"a@b.example","subject":"s","body":"hi"}"#,
    );
    let line = serde_json::to_string(&records[0]).unwrap();
    assert!(!line.contains("attachments"), "{line}");
}

#[test]
fn hostile_names_are_neutralized() {
    for (raw, safe) in [
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\x\\report.docx", "report.docx"),
        ("nul.txt", "_nul.txt"),
        ("COM1", "_COM1"),
        ("inv\u{202e}fdp.exe", "invfdp.exe"),
        ("a\u{200b}b\u{0007}c.pdf", "abc.pdf"),
        ("...", "attachment"),
        ("", "attachment"),
        (".bashrc", "bashrc"),
        ("what?<>|*.txt", "what_____.txt"),
    ] {
        assert_eq!(safe_file_name(raw), safe, "{raw:?}");
        assert_eq!(safe_file_name(safe), safe, "idempotent on {safe:?}");
    }
    let long = format!("{}.pdf", "x".repeat(500));
    let cut = safe_file_name(&long);
    assert_eq!(cut.chars().count(), 120);
    assert!(cut.ends_with("….pdf"), "{cut}");
}

// ------------------------------------------------------------------------ Microsoft Graph

fn graph_config(fake: &Fake, extra: &str) -> Config {
    let text = format!(
        r#"
[profiles.work]
sources = ["graph_mail"]
email_domains = ["contoso.com"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
time_zone = "UTC"
authority_url = "{}"
base_url = "{}"
{extra}
"#,
        fake.authority(),
        fake.graph_base()
    );
    Config::from_toml_str(&text, Path::new("test.toml")).unwrap()
}

fn graph_account(fake: &Fake, cfg: &Config, data_dir: &Path) -> Arc<Account> {
    let g = cfg.profiles["work"].graph.clone().unwrap();
    let client = graph_support::signed_in(fake, &g, data_dir, &[], &["offline_access"]);
    graph_support::account(client, data_dir, "UTC")
}

/// One poll of the Graph mail source into `engine`, taking attachments in.
async fn poll_mail(engine: &Arc<Engine>, acct: &Arc<Account>) {
    let e = engine.clone();
    let deliver: Deliver = Arc::new(move |m: NewMessage| {
        Ok(matches!(
            e.ingest(m, "test")?,
            opsdesk::store::inbox::Appended::New(_)
        ))
    });
    let host: Arc<dyn SourceHost> = engine.clone();
    MailSync::new(acct.clone())
        .with_attachments(engine.attachment_store().unwrap(), host)
        .poll_once(&deliver)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_small_large_and_item_attachments_are_ingested_once() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let cfg = graph_config(
        &fake,
        "[attachments]\nmax_file_bytes = 4194304\nmax_message_bytes = 20971520",
    );
    let acct = graph_account(&fake, &cfg, tmp.path());
    let paths = Paths::resolve(
        Some(tmp.path().to_path_buf()),
        Some(tmp.path().join("config.toml")),
    )
    .unwrap();
    let engine = Arc::new(Engine::open(paths, cfg, Mode::Primary).unwrap());

    let large: Vec<u8> = (0..LARGE_ATTACHMENT + 4096)
        .map(|i| (i % 251) as u8)
        .collect();
    let huge = vec![7u8; 5 * 1024 * 1024];
    let forwarded = b"From: a@fabrikam.com\r\nSubject: Original\r\n\r\nthe original\r\n";
    let mail = fake.with(|s| {
        let id = s.add_mail("Contract", "ann@fabrikam.com", "<p>attached</p>");
        s.add_file_attachment(&id, "contract.pdf", "application/pdf", PDF, false);
        s.add_file_attachment(&id, "scan.tiff", "image/tiff", &large, false);
        s.add_item_attachment(&id, "Original", forwarded);
        s.add_file_attachment(&id, "video.mp4", "video/mp4", &huge, false);
        s.add_file_attachment(&id, "sig.png", "image/png", PNG, true);
        s.add_reference_attachment(&id, "Budget.xlsx");
        s.add_mail("No attachments", "bob@fabrikam.com", "<p>hi</p>");
        id
    });

    poll_mail(&engine, &acct).await;
    let rec = engine.inbox_record_by_id(&mail).unwrap().unwrap();
    let got: Vec<_> = rec
        .attachments
        .iter()
        .map(|a| (a.name.as_str(), a.media_type.as_str(), a.status, a.inline))
        .collect();
    assert_eq!(
        got,
        [
            (
                "contract.pdf",
                "application/pdf",
                AttachmentStatus::Stored,
                false
            ),
            ("scan.tiff", "image/tiff", AttachmentStatus::Stored, false),
            (
                "Original",
                "message/rfc822",
                AttachmentStatus::Stored,
                false
            ),
            ("video.mp4", "video/mp4", AttachmentStatus::TooLarge, false),
            ("sig.png", "image/png", AttachmentStatus::Stored, true),
            (
                "Budget.xlsx",
                "application/octet-stream",
                AttachmentStatus::Link,
                false
            ),
        ]
    );
    assert_eq!(
        rec.attachments[0].sha256.as_deref(),
        Some(sha(PDF).as_str())
    );
    assert_eq!(
        rec.attachments[1].sha256.as_deref(),
        Some(sha(&large).as_str())
    );
    assert_eq!(rec.attachments[1].size, large.len() as u64);
    assert_eq!(
        rec.attachments[2].sha256.as_deref(),
        Some(sha(forwarded).as_str())
    );
    assert_eq!(rec.attachments[3].sha256, None, "never downloaded");
    assert_eq!(rec.attachments[3].size, huge.len() as u64);
    let store = engine.attachment_store().unwrap();
    assert_eq!(
        store.read(&sha(&large), u64::MAX).unwrap().unwrap().0,
        large
    );

    let value_gets = |f: &Fake| f.with(|s| s.count("GET", "/$value"));
    let list_gets = |f: &Fake| f.with(|s| s.count("GET", "/attachments"));
    assert_eq!(
        value_gets(&fake),
        2,
        "the large file and the item; small ones came inline"
    );
    assert_eq!(
        fake.with(|s| s.count("GET", "/attachments") - s.count("GET", "/$value")),
        1,
        "only the mail with attachments is asked for them"
    );

    // The delta token expires: a full resync delivers the same mail again.
    fake.with(|s| s.delta_expired_below = usize::MAX);
    let (lists, values) = (list_gets(&fake), value_gets(&fake));
    poll_mail(&engine, &acct).await;
    assert_eq!(engine.inbox_last_seq().unwrap(), 2, "no duplicate record");
    assert_eq!(
        (list_gets(&fake), value_gets(&fake)),
        (lists, values),
        "a message already in the inbox has its attachments fetched once"
    );
}

// ------------------------------------------------------------------------ MCP

use mcp_support::Server;
use serde_json::{Value, json};

/// A clinic's referral: the patient's name in the attachment names, identifiers in the text
/// attachment.
fn clinic_eml() -> String {
    format!(
        "From: Front Desk <desk@clinic.example>\r\n\
To: ops@example.com\r\n\
Subject: Referral\r\n\
Message-ID: <clinic-1@clinic.example>\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b\"\r\n\
\r\n\
--b\r\n\
Content-Type: text/plain\r\n\
\r\n\
See attached.\r\n\
--b\r\n\
Content-Type: application/pdf\r\n\
Content-Disposition: attachment; filename=\"Margaret Okafor referral.pdf\"\r\n\
Content-Transfer-Encoding: base64\r\n\
\r\n\
{pdf}\r\n\
--b\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Content-Disposition: attachment; filename=\"intake Margaret Okafor.txt\"\r\n\
\r\n\
Patient Margaret Okafor MRN: 00482913 DOB: 1958-03-14, call back at 555-201-4477.\r\n\
--b--\r\n",
        pdf = b64(PDF),
    )
}

const CLINIC_IDS: &[&str] = &["Okafor", "00482913", "1958-03-14", "555-201-4477"];

/// Drop an `.eml` into a running server's spool (written aside, renamed in).
fn spool_eml(server: &Server, name: &str, content: &str) {
    let dir = server.data_dir.join("spool");
    fs::create_dir_all(&dir).unwrap();
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(&tmp, content).unwrap();
    fs::rename(&tmp, dir.join(name)).unwrap();
}

async fn rpc(server: &Server, token: &str, method: &str, params: Value) -> Value {
    let mut p = params;
    p["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "attachments-test", "version": "1"},
    });
    let name = p
        .get("name")
        .or_else(|| p.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": p}).to_string();
    let mut rb = reqwest::Client::new()
        .post(&server.url)
        .header("mcp-method", method);
    if let Some(n) = name {
        rb = rb.header("mcp-name", n);
    }
    let text = rb
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("authorization", format!("Bearer {token}"))
        .timeout(Duration::from_secs(60))
        .body(body)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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

/// `inbox_pull` until a message with attachments is there; its attachments.
async fn pulled_attachments(server: &Server, token: &str) -> (Value, Vec<Value>) {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let v = rpc(
            server,
            token,
            "tools/call",
            json!({"name": "inbox_pull", "arguments": {"since": 0, "limit": 50, "mark_consumed": false}}),
        )
        .await;
        let found = v["result"]["structuredContent"]["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m.get("attachments").is_some()).cloned());
        if let Some(m) = found {
            return (v, m["attachments"].as_array().unwrap().clone());
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no message with attachments arrived: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_clients_get_uris_and_metadata_never_base64_in_tool_results() {
    let server = Server::start(&[], Some("[profiles.work]\nsources = [\"spool\"]\n"));
    let token = server.token.clone();
    spool_eml(&server, "referral.eml", &referral_eml());
    let (pull, atts) = pulled_attachments(&server, &token).await;

    let pdf = atts
        .iter()
        .find(|a| a["media_type"] == "application/pdf")
        .unwrap();
    assert_eq!(pdf["uri"], format!("opsdesk://attachments/{}", sha(PDF)));
    assert_eq!(pdf["status"], "stored");
    assert_eq!(pdf["size"], PDF.len());
    let evil = atts.iter().find(|a| a["risk"] == "executable").unwrap();
    // The name is the sender's: fenced with the answer's fence.
    let fence = pull["result"]["structuredContent"]["fence"]
        .as_str()
        .unwrap();
    assert_eq!(evil["name"], mcp_support::fenced(fence, "_CON.fdp.exe"));
    let full = pull.to_string();
    for bytes in [PDF, PNG] {
        assert!(
            !full.contains(&b64(bytes)),
            "bytes in a tool result: {full}"
        );
    }

    // The resource template is listed; reads give a blob for binary types, text for text.
    let templates = rpc(&server, &token, "resources/templates/list", json!({})).await;
    assert!(
        templates
            .to_string()
            .contains("opsdesk://attachments/{sha256}"),
        "{templates}"
    );
    let read = rpc(
        &server,
        &token,
        "resources/read",
        json!({"uri": pdf["uri"]}),
    )
    .await;
    let c = &read["result"]["contents"][0];
    assert_eq!(c["mimeType"], "application/pdf", "{read}");
    assert_eq!(c["blob"], b64(PDF));
    let note = atts
        .iter()
        .find(|a| a["media_type"] == "text/plain")
        .unwrap();
    let read = rpc(
        &server,
        &token,
        "resources/read",
        json!({"uri": note["uri"]}),
    )
    .await;
    // The text is the sender's: fenced, the fence named in the contents' `_meta`.
    let contents = &read["result"]["contents"][0];
    let fence = contents["_meta"]["fence"].as_str().expect("the fence id");
    assert_eq!(
        contents["text"],
        mcp_support::fenced(fence, "Follow-up in two weeks. red"),
        "{read}"
    );
    // The operator's `inbox show` lists them with type, size, state and the local file.
    let o = server.cli(&["inbox", "show", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shown = String::from_utf8(o.stdout).unwrap();
    assert!(shown.contains("attachments (4):"), "{shown}");
    assert!(
        shown.contains(&format!(
            "Référence patient.pdf  application/pdf  {} B  stored",
            PDF.len()
        )),
        "{shown}"
    );
    assert!(
        shown.contains("logo.png  image/png") && shown.contains("(inline)"),
        "{shown}"
    );
    assert!(
        shown.contains("_CON.fdp.exe") && shown.contains("! executable type"),
        "{shown}"
    );
    let path = server
        .data_dir
        .join("attachments")
        .join(&sha(PDF)[..2])
        .join(sha(PDF));
    assert!(shown.contains(&path.display().to_string()), "{shown}");

    // A draft attaches a received file by its hash; `drafts show` lists it with the hash the
    // digest covers, and flags risky types.
    let drafted = rpc(
        &server,
        &token,
        "tools/call",
        json!({"name": "draft_email", "arguments": {"to": ["ann@fabrikam.com"], "subject": "Re: referral",
            "body": "Returned with notes.", "attachments": [sha(PDF), evil["sha256"]]}}),
    )
    .await;
    let draft_id = drafted["result"]["structuredContent"]["draft_id"]
        .as_str()
        .unwrap_or_else(|| panic!("{drafted}"))
        .to_string();
    let o = server.cli(&["drafts", "show", &draft_id]);
    let shown = String::from_utf8(o.stdout).unwrap();
    assert!(
        shown.contains(&format!(
            "attached:   Référence patient.pdf  application/pdf  {} B  sha256 {}",
            PDF.len(),
            sha(PDF)
        )),
        "{shown}"
    );
    assert!(
        shown.contains("_CON.fdp.exe") && shown.contains("! executable type"),
        "{shown}"
    );

    // Not a hash, not stored: refused, nothing read.
    for uri in [
        "opsdesk://attachments/../../mcp-token",
        &format!("opsdesk://attachments/{}", "0".repeat(64)),
    ] {
        let r = rpc(&server, &token, "resources/read", json!({"uri": uri})).await;
        assert!(r.get("error").is_some(), "{uri}: {r}");
    }
}

const CLINIC: &str = r#"
[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
phi_auto_redact = true
phi_names = ["Margaret Okafor"]

[server.clients.scribe]
token_env = "SCRIBE_TOKEN"
hipaa_cleared = true
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncleared_client_gets_no_phi_and_no_bytes_of_a_clinic_attachment() {
    let scribe = "s".repeat(48);
    let server = Server::start_env(&[], Some(CLINIC), &[("SCRIBE_TOKEN", scribe.as_str())]);
    let token = server.token.clone();
    spool_eml(&server, "clinic.eml", &clinic_eml());
    let (pull, atts) = pulled_attachments(&server, &token).await;
    let s = pull.to_string();
    for id in CLINIC_IDS {
        assert!(!s.contains(id), "inbox_pull leaks `{id}`: {s}");
    }
    assert_eq!(atts.len(), 2, "{s}");
    for a in &atts {
        let read = rpc(&server, &token, "resources/read", json!({"uri": a["uri"]})).await;
        let r = read.to_string();
        assert!(read.get("result").is_some(), "{r}");
        assert!(!r.contains("\"blob\""), "bytes to an uncleared client: {r}");
        assert!(!r.contains(&b64(PDF)), "{r}");
        for id in CLINIC_IDS {
            assert!(!r.contains(id), "resource read leaks `{id}`: {r}");
        }
        assert!(r.contains("bytes_withheld"), "{r}");
    }

    // The cleared client gets the names, the text and the bytes.
    let (pull, atts) = pulled_attachments(&server, &scribe).await;
    let pdf = atts
        .iter()
        .find(|a| a["media_type"] == "application/pdf")
        .unwrap();
    let fence = pull["result"]["structuredContent"]["fence"]
        .as_str()
        .unwrap();
    assert_eq!(
        pdf["name"],
        mcp_support::fenced(fence, "Margaret Okafor referral.pdf")
    );
    let read = rpc(
        &server,
        &scribe,
        "resources/read",
        json!({"uri": pdf["uri"]}),
    )
    .await;
    assert_eq!(read["result"]["contents"][0]["blob"], b64(PDF), "{read}");
}

// ------------------------------------------------------------------------ console

#[test]
fn the_console_lists_attachments_in_the_message_details_and_opens_nothing() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use opsdesk::tui::app::{Anchor, App, Msg, Overlay};
    use opsdesk::tui::keymap::Keymap;
    use opsdesk::tui::theme::Theme;

    let s = spooled(AttachmentsConfig {
        max_file_bytes: PDF.len() as u64 - 1,
        ..AttachmentsConfig::default()
    });
    let records = s.drop_and_poll("referral.eml", &referral_eml());
    assert_eq!(records[0].attachments.len(), 4, "{records:?}");
    let mut app = App::new(
        Theme::built_in("dark", true).unwrap(),
        Keymap::defaults(),
        vec!["clinic".into()],
        (110, 30),
    );
    let _ = app.start();
    app.update(Msg::InboxPage {
        generation: 0,
        anchor: Anchor::Top,
        rows: records.iter().map(Into::into).collect(),
        last_seq: 1,
    });
    let effects = app.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert!(
        effects.is_empty(),
        "showing details does nothing else: {effects:?}"
    );
    let Some(Overlay::Details { lines, .. }) = &app.overlay else {
        panic!("no details overlay");
    };
    let text = lines.join("\n");
    assert!(text.contains("attachments (4):"), "{text}");
    assert!(
        text.contains(&format!(
            "Référence patient.pdf  application/pdf  {} B  too large, not stored",
            PDF.len()
        )),
        "{text}"
    );
    assert!(
        text.contains("_CON.fdp.exe") && text.contains("! executable type"),
        "{text}"
    );
}

/// The console's details pick an attachment (`n`), open it (`o`) and save a copy (`s` + a
/// folder); the data task runs the opener on the stored file and writes copies under the safe
/// name without overwriting; a risky type asks before anything runs.
#[test]
fn the_console_opens_a_picked_attachment_and_saves_copies_that_never_overwrite() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use opsdesk::tui::app::{Anchor, App, Effect, Level, Msg, Overlay, Req};
    use opsdesk::tui::keymap::Keymap;
    use opsdesk::tui::theme::Theme;

    let s = spooled(AttachmentsConfig::default());
    let records = s.drop_and_poll("referral.eml", &referral_eml());
    let cfg = Config::from_toml_str(
        "[profiles.clinic]\nsources = [\"spool\"]\n",
        Path::new("t.toml"),
    )
    .unwrap();
    // The engine over the same data dir reads the store the spool wrote.
    let paths = Paths::resolve(
        Some(s.tmp.path().to_path_buf()),
        Some(s.tmp.path().join("config.toml")),
    )
    .unwrap();
    let engine = Arc::new(Engine::open(paths, cfg, Mode::Primary).unwrap());

    let key = |c: char| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let enter = || Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let mut app = App::new(
        Theme::built_in("dark", true).unwrap(),
        Keymap::defaults(),
        vec!["clinic".into()],
        (110, 30),
    );
    let downloads = s.tmp.path().join("Downloads");
    fs::create_dir(&downloads).unwrap();
    app.save_dir = Some(downloads.display().to_string());
    let _ = app.start();
    app.update(Msg::InboxPage {
        generation: 0,
        anchor: Anchor::Top,
        rows: records.iter().map(Into::into).collect(),
        last_seq: 1,
    });
    assert!(app.update(enter()).is_empty(), "details alone do nothing");

    // Pick the PDF (the second) and open it: one request, no question.
    assert!(app.update(key('n')).is_empty());
    let open = app.update(key('o'));
    let pdf = sha(PDF);
    assert_eq!(
        open,
        [Effect::Req(Req::OpenAttachment {
            sha256: pdf.clone(),
            name: "Référence patient.pdf".into()
        })]
    );
    assert!(
        matches!(app.overlay, Some(Overlay::Details { .. })),
        "the details stay open"
    );

    // The opener (a script recording its argument) gets the stored file's path, detached.
    let log = s.tmp.path().join("opened.log");
    let script = s.tmp.path().join("opener.sh");
    fs::write(
        &script,
        format!("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n", log.display()),
    )
    .unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o700)).unwrap();
    let (path, mut child) =
        opsdesk::tui::files::open(&engine, &pdf, &script.clone().into_os_string()).unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(path, engine.attachment_path(&pdf).unwrap());
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        format!("{}\n", path.display())
    );

    // Save: the folder is asked for, offered as the default; Enter sends it to the data task.
    assert!(app.update(key('s')).is_empty());
    let Some(Overlay::Input { buf, .. }) = &app.overlay else {
        panic!("no folder question: {:?}", app.overlay);
    };
    assert_eq!(buf, &downloads.display().to_string());
    let save = app.update(enter());
    let [Effect::Req(req @ Req::SaveAttachment { .. })] = save.as_slice() else {
        panic!("{save:?}");
    };

    // The data task does the file work and answers on the message line; twice gives two
    // files, the first untouched.
    let (req_tx, req_rx) = std::sync::mpsc::channel();
    let (msg_tx, msg_rx) = std::sync::mpsc::channel();
    // The data task runs the assistant's jobs on a runtime; this test asks it for none.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let worker =
        opsdesk::tui::data::spawn(engine.clone(), None, rt.handle().clone(), req_rx, msg_tx)
            .unwrap();
    let mut saved = Vec::new();
    for _ in 0..2 {
        req_tx.send(req.clone()).unwrap();
        match msg_rx.recv_timeout(Duration::from_secs(60)).unwrap() {
            Msg::Notice {
                level: Level::Info,
                text,
            } => saved.push(text),
            other => panic!("{other:?}"),
        }
    }
    let first = downloads.join("Référence patient.pdf");
    let second = downloads.join("Référence patient (2).pdf");
    assert_eq!(
        saved,
        [
            format!("saved a copy as {}", first.display()),
            format!("saved a copy as {}", second.display())
        ]
    );
    for p in [&first, &second] {
        assert_eq!(fs::read(p).unwrap(), PDF);
        assert_eq!(fs::metadata(p).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // A folder that is not one is refused, and nothing is written.
    req_tx
        .send(Req::SaveAttachment {
            sha256: pdf.clone(),
            name: "x.pdf".into(),
            dir: "relative/dir".into(),
        })
        .unwrap();
    match msg_rx.recv_timeout(Duration::from_secs(60)).unwrap() {
        Msg::Notice {
            level: Level::Error,
            text,
        } => assert!(
            text.contains("NOT saved") && text.contains("not a full path"),
            "{text}"
        ),
        other => panic!("{other:?}"),
    }
    drop(req_tx);
    worker.join().unwrap();
    assert_eq!(fs::read_dir(&downloads).unwrap().count(), 2);

    // The hostile executable (the fourth): opening asks first, and `n` runs nothing.
    assert!(app.update(enter()).is_empty());
    for _ in 0..3 {
        app.update(key('n'));
    }
    assert!(
        app.update(key('o')).is_empty(),
        "nothing runs before the answer"
    );
    let Some(Overlay::Confirm { title, .. }) = &app.overlay else {
        panic!("no question for an executable: {:?}", app.overlay);
    };
    assert!(
        title.contains("_CON.fdp.exe") && title.contains("executable"),
        "{title}"
    );
    assert!(app.update(key('n')).is_empty());
    assert!(app.overlay.is_none());
    // Confirmed, it is opened like any other.
    app.update(enter());
    for _ in 0..3 {
        app.update(key('n'));
    }
    app.update(key('o'));
    assert_eq!(
        app.update(key('y')),
        [Effect::Req(Req::OpenAttachment {
            sha256: sha(b"MZ not really"),
            name: "_CON.fdp.exe".into()
        })]
    );
}

// ------------------------------------------------------------------------ outbound drafts

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_with_attachments_is_approved_by_digest_and_uploaded_once() {
    use opsdesk::domain::{Action, Actor, DraftStatus, Outcome, content_digest};
    use opsdesk::engine::executor;
    use opsdesk::sources::graph::send::{INLINE_ATTACHMENT_MAX, UPLOAD_CHUNK};
    use std::collections::{BTreeMap, HashMap};

    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let cfg = graph_config(&fake, "[profiles.other]\nsources = [\"spool\"]");
    let acct = graph_account(&fake, &cfg, tmp.path());
    let paths = Paths::resolve(
        Some(tmp.path().to_path_buf()),
        Some(tmp.path().join("config.toml")),
    )
    .unwrap();
    let engine = Arc::new(Engine::open(paths, cfg, Mode::Primary).unwrap());
    let large: Vec<u8> = (0..INLINE_ATTACHMENT_MAX + 700_000)
        .map(|i| (i % 241) as u8)
        .collect();
    let mail = fake.with(|s| {
        let id = s.add_mail("Contract", "ann@fabrikam.com", "<p>please sign</p>");
        s.add_file_attachment(&id, "contract.pdf", "application/pdf", PDF, false);
        s.add_file_attachment(&id, "annex.tiff", "image/tiff", &large, false);
        id
    });
    poll_mail(&engine, &acct).await;

    let reply = |attachments: Vec<String>| {
        engine
            .submit(
                Action::DraftReply {
                    message_id: mail.clone(),
                    body: "Signed copy attached.".into(),
                    attachments,
                    body_html: None,
                },
                Actor::mcp("test-client"),
            )
            .unwrap()
    };
    let (id, digest) = match reply(vec![sha(PDF), sha(&large).to_uppercase()]) {
        Outcome::Queued {
            draft_id, digest, ..
        } => (draft_id, digest),
        other => panic!("not queued: {other:?}"),
    };
    // The engine completed the references from the store; the digest covers the hashes.
    let d = engine.draft(&id).unwrap().unwrap();
    let names: Vec<_> = d
        .outbound
        .attachments()
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["contract.pdf", "annex.tiff"]);
    assert_eq!(d.outbound.attachments()[1].sha256, sha(&large));
    assert_eq!(d.outbound.attachments()[1].size, large.len() as u64);
    assert_eq!(digest, content_digest("work", &d.outbound));
    let without = match reply(vec![]) {
        Outcome::Queued { digest, .. } => digest,
        other => panic!("{other:?}"),
    };
    assert_ne!(
        digest, without,
        "the attachments are part of what is approved"
    );

    // A hash the store does not hold is refused; another profile's file is blocked.
    assert!(
        engine
            .submit(
                Action::DraftReply {
                    message_id: mail.clone(),
                    body: "x".into(),
                    attachments: vec!["0".repeat(64)],
                    body_html: None,
                },
                Actor::mcp("test-client"),
            )
            .is_err()
    );
    let foreign = engine
        .submit(
            Action::CreateDraft {
                profile: "other".into(),
                outbound: opsdesk::domain::Outbound::SendEmail {
                    to: vec!["someone@contoso.com".into()],
                    cc: vec![],
                    subject: "fwd".into(),
                    body: "see attached".into(),
                    attachments: vec![opsdesk::domain::OutboundAttachment::by_hash(sha(PDF))],
                    body_html: None,
                },
                provider: None,
            },
            Actor::mcp("test-client"),
        )
        .unwrap();
    assert!(
        matches!(&foreign, Outcome::Blocked { rule, .. } if rule == "entity_boundary.attachment"),
        "{foreign:?}"
    );

    // Approved and executed: the small file in one request, the large one through an upload
    // session in chunks, then the send; once.
    engine
        .submit(
            Action::ApproveDraft {
                id: id.clone(),
                digest: Some(digest),
            },
            Actor::Cli,
        )
        .unwrap();
    let accounts: BTreeMap<String, Arc<Account>> = [("work".to_string(), acct.clone())].into();
    let out: Vec<Arc<dyn opsdesk::engine::outbound::OutboundExecutor>> = vec![Arc::new(
        opsdesk::sources::graph::outbound::GraphOutbound::new(accounts),
    )];
    let mut retry = HashMap::new();
    // The first attempt is cut off after the small file went up: the retry adds only the
    // large one, and sends once.
    fake.with(|s| {
        s.fail(
            Some(axum::http::Method::POST),
            "/createUploadSession",
            503,
            None,
            1,
        )
    });
    executor::run_once(&engine, &out, &mut retry).await;
    let d = engine.draft(&id).unwrap().unwrap();
    assert_eq!(d.status, DraftStatus::Failed, "{:?}", d.reason);
    fake.with(|s| assert!(s.sent.is_empty()));
    retry.clear();
    executor::run_once(&engine, &out, &mut retry).await;
    let d = engine.draft(&id).unwrap().unwrap();
    assert_eq!(d.status, DraftStatus::Executed, "{:?}", d.reason);
    let remote = d.remote_id.clone().unwrap();
    let chunks = large.len().div_ceil(UPLOAD_CHUNK);
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1);
        let atts = &s.attachments[&remote];
        let got: Vec<(&str, usize)> = atts
            .iter()
            .map(|a| match &a.kind {
                graph_support::FakeAttachmentKind::File(b) => (a.name.as_str(), b.len()),
                _ => panic!("not a file"),
            })
            .collect();
        assert_eq!(
            got,
            [("contract.pdf", PDF.len()), ("annex.tiff", large.len())]
        );
        match &atts[1].kind {
            graph_support::FakeAttachmentKind::File(b) => assert!(*b == large),
            _ => unreachable!(),
        }
        assert_eq!(
            s.count("POST", "/createUploadSession"),
            2,
            "one refused, one used"
        );
        assert_eq!(
            s.count("POST", "/attachments") - s.count("POST", "/createUploadSession"),
            1,
            "the small file went up once, across the retry"
        );
        assert_eq!(s.count("PUT", "/upload/"), chunks);
    });
    executor::run_once(&engine, &out, &mut retry).await;
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1, "executed drafts are not sent again");
        assert_eq!(
            s.attachments[&remote].len(),
            2,
            "nor their files uploaded again"
        );
    });
}

#[test]
fn a_draft_attaches_files_by_path_only_from_the_allowed_folder() {
    use opsdesk::domain::{Action, Actor, Outbound, OutboundAttachment, Outcome};

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("outbox");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("contract.pdf"), PDF).unwrap();
    fs::write(tmp.path().join("secret.txt"), "not for mail").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), out.join("link.txt")).unwrap();
    let cfg = Config::from_toml_str(
        &format!(
            "[profiles.work]\nsources = [\"spool\"]\n[attachments]\noutbound_dirs = [\"{}\"]\n",
            out.display()
        ),
        Path::new("t.toml"),
    )
    .unwrap();
    let paths = Paths::resolve(
        Some(tmp.path().join("data")),
        Some(tmp.path().join("config.toml")),
    )
    .unwrap();
    let engine = Engine::open(paths, cfg, Mode::Primary).unwrap();
    let draft = |path: &Path| {
        engine.submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::SendEmail {
                    to: vec!["ann@fabrikam.com".into()],
                    cc: vec![],
                    subject: "Contract".into(),
                    body: "Attached.".into(),
                    attachments: vec![OutboundAttachment::by_hash(path.display().to_string())],
                    body_html: None,
                },
                provider: None,
            },
            Actor::mcp("test-client"),
        )
    };
    let id = match draft(&out.join("contract.pdf")).unwrap() {
        Outcome::Queued { draft_id, .. } => draft_id,
        other => panic!("{other:?}"),
    };
    let d = engine.draft(&id).unwrap().unwrap();
    let a = &d.outbound.attachments()[0];
    assert_eq!(
        (a.name.as_str(), a.media_type.as_str(), a.sha256.as_str()),
        ("contract.pdf", "application/pdf", sha(PDF).as_str())
    );
    assert!(
        engine.attachment_path(&sha(PDF)).is_some(),
        "taken into the store"
    );
    for outside in [
        tmp.path().join("secret.txt"),
        out.join("../secret.txt"),
        out.join("link.txt"),
        out.clone(),
    ] {
        let e = draft(&outside).unwrap_err().to_string();
        assert!(e.contains("cannot attach"), "{}: {e}", outside.display());
    }
}

/// Issue 29: a tool that may draft must not read the outbound folder through its drafts. A
/// file taken in by path is told by hash and size only (no name, no bytes) until the operator
/// approves a draft that sends it.
#[test]
fn a_file_attached_by_path_is_read_only_after_its_draft_is_approved() {
    use opsdesk::domain::{Action, Actor, Outbound, OutboundAttachment, Outcome, Query};
    use opsdesk::engine::query::Answer;

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("outbox");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("salaries 2026.pdf"), PDF).unwrap();
    let cfg = Config::from_toml_str(
        &format!(
            "[profiles.work]\nsources = [\"spool\"]\n[attachments]\noutbound_dirs = [\"{}\"]\n",
            out.display()
        ),
        Path::new("t.toml"),
    )
    .unwrap();
    let paths = Paths::resolve(Some(tmp.path().join("data")), None).unwrap();
    let engine = Engine::open(paths, cfg, Mode::Primary).unwrap();
    let (id, digest) = match engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::SendEmail {
                    to: vec!["ann@fabrikam.com".into()],
                    cc: vec![],
                    subject: "Figures".into(),
                    body: "Attached.".into(),
                    attachments: vec![OutboundAttachment::by_hash(
                        out.join("salaries 2026.pdf").display().to_string(),
                    )],
                    body_html: None,
                },
                provider: None,
            },
            Actor::mcp("drafting-tool"),
        )
        .unwrap()
    {
        Outcome::Queued {
            draft_id, digest, ..
        } => (draft_id, digest),
        other => panic!("{other:?}"),
    };
    let read = || match engine
        .read(
            Query::AttachmentRead {
                sha256: sha(PDF),
                max_bytes: 1 << 20,
            },
            Actor::mcp("drafting-tool"),
        )
        .unwrap()
    {
        Answer::Attachment(a) => a,
        other => panic!("{other:?}"),
    };
    let before = read();
    assert!(before.awaiting_approval);
    assert!(before.bytes.is_empty(), "bytes before approval");
    assert_eq!(before.size, PDF.len() as u64);
    assert_eq!(before.name, "attachment", "not even its name");

    engine
        .submit(
            Action::ApproveDraft {
                id,
                digest: Some(digest),
            },
            Actor::Cli,
        )
        .unwrap();
    let after = read();
    assert!(!after.awaiting_approval);
    assert_eq!(after.bytes, PDF);
    assert_eq!(after.name, "salaries 2026.pdf");
}

#[test]
fn a_record_keeps_a_bounded_amount_of_attachment_text() {
    use opsdesk::domain::{Attachment, Channel, Party};
    let att = |i: usize| Attachment {
        name: format!("../n{i}.txt"),
        media_type: "TEXT/Plain; charset=utf-8".into(),
        size: 9000,
        sha256: Some("Z".repeat(64)),
        inline: false,
        status: AttachmentStatus::Stored,
        text: Some("x".repeat(8000)),
        risk: None,
    };
    let msg = NewMessage {
        id: "m1".into(),
        profile: "work".into(),
        channel: Channel::Email,
        thread_id: None,
        from: Party::new("A", "a@b.example"),
        to: vec![],
        subject: None,
        ts: time::OffsetDateTime::now_utc(),
        body: "b".into(),
        html: false,
        meta: Default::default(),
        attachments: (0..70).map(att).collect(),
    };
    let r = opsdesk::domain::to_record(msg).unwrap();
    assert_eq!(r.attachments.len(), 64);
    assert_eq!(r.meta["attachments_truncated"], 70);
    let total: usize = r
        .attachments
        .iter()
        .filter_map(|a| a.text.as_ref())
        .map(|t| t.chars().count())
        .sum();
    assert_eq!(total, 32_000);
    let a = &r.attachments[0];
    assert_eq!(
        (a.name.as_str(), a.media_type.as_str()),
        ("n0.txt", "text/plain")
    );
    assert_eq!(a.sha256, None, "not a hash: dropped");
    assert_eq!(
        a.status,
        AttachmentStatus::TooLarge,
        "stored without a usable hash cannot be read"
    );
}

#[test]
fn executable_script_and_macro_types_are_flagged() {
    use opsdesk::sanitize::attachment_risk;
    for (name, mt, risk) in [
        ("setup.exe", "application/octet-stream", Some("executable")),
        (
            "invoice.pdf",
            "application/x-msdownload",
            Some("executable"),
        ),
        ("photos.iso", "application/octet-stream", Some("executable")),
        ("run.JS", "text/plain", Some("script")),
        ("budget.xlsm", "application/octet-stream", Some("macro")),
        (
            "q3.docx",
            "application/vnd.ms-word.document.macroenabled.12",
            Some("macro"),
        ),
        ("contract.pdf", "application/pdf", None),
        ("notes.txt", "text/plain", None),
    ] {
        assert_eq!(attachment_risk(name, mt), risk, "{name} {mt}");
    }
}

// ------------------------------------------------------------------------ issue 28

/// `opsdesk inbox show <seq>` over the data dir `dir` (no engine running), its stdout.
fn inbox_show(dir: &Path, seq: &str) -> String {
    let config = dir.join("empty-config.toml");
    fs::write(&config, "").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .arg("--data-dir")
        .arg(dir)
        .arg("--config")
        .arg(&config)
        .args(["inbox", "show", seq])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// A mail with `n` small attached files, `f0.bin` … (each its own bytes).
fn many_parts_eml(n: usize) -> String {
    let mut m = String::from(
        "From: Flood <flood@x.example>\r\nTo: ops@example.com\r\nSubject: Many parts\r\n\
Message-ID: <many@x.example>\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n",
    );
    for i in 0..n {
        m.push_str(&format!(
            "--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"f{i}.bin\"\r\n\r\npart {i}\r\n"
        ));
    }
    m.push_str("--b--\r\n");
    m
}

#[test]
fn a_mail_with_5000_parts_stores_only_the_parts_its_record_lists_and_says_how_many_were_dropped() {
    use opsdesk::sanitize::MAX_ATTACHMENTS;
    let s = spooled(AttachmentsConfig::default());
    let records = s.drop_and_poll("many.eml", &many_parts_eml(5000));
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.attachments.len(), MAX_ATTACHMENTS);
    assert_eq!(r.meta["attachments_truncated"], 5000);
    assert!(
        r.attachments
            .iter()
            .all(|a| a.status == AttachmentStatus::Stored)
    );
    // The store holds exactly the listed parts: the first 64, none of the rest.
    let stored_files = fs::read_dir(s.store.dir())
        .unwrap()
        .flatten()
        .flat_map(|shard| fs::read_dir(shard.path()).unwrap().flatten())
        .filter(|f| {
            f.file_name()
                .to_str()
                .is_some_and(opsdesk::store::attachments::is_hash)
        })
        .count();
    assert_eq!(stored_files, MAX_ATTACHMENTS);
    let listed: u64 = r.attachments.iter().map(|a| a.size).sum();
    assert_eq!(s.store.measure().unwrap(), listed);
    for i in [MAX_ATTACHMENTS, 4999] {
        let h = sha(format!("part {i}").as_bytes());
        assert!(
            !s.store.path_of(&h).unwrap().exists(),
            "part {i} was stored though no record names it"
        );
    }
    // The operator is told.
    let shown = inbox_show(s.tmp.path(), "1");
    assert!(shown.contains("attachments (64):"), "{shown}");
    assert!(
        shown.contains(
            "… and 4936 more attachment(s) dropped, not stored (a message keeps at most 64)"
        ),
        "{shown}"
    );
}

#[test]
fn a_name_over_the_length_limit_keeps_its_extension_and_its_risk_flag() {
    use opsdesk::sanitize::{MAX_ATTACHMENT_NAME_CHARS, attachment_risk};
    // Names far longer than anything the sanitizer keeps (the raw name used to be cut to
    // 1024 characters before its extension was looked for).
    for (ext, risk) in [
        ("exe", Some("executable")),
        ("js", Some("script")),
        ("docm", Some("macro")),
        ("pdf", None),
    ] {
        for len in [200, 1100, 5000] {
            let raw = format!("{}.{ext}", "a".repeat(len));
            let name = safe_file_name(&raw);
            assert_eq!(
                name.chars().count(),
                MAX_ATTACHMENT_NAME_CHARS,
                "{len} {ext}"
            );
            assert!(name.ends_with(&format!("….{ext}")), "{len}: {name}");
            assert_eq!(
                attachment_risk(&name, "application/octet-stream"),
                risk,
                "{name}"
            );
            assert_eq!(safe_file_name(&name), name, "idempotent");
        }
    }
    // Through the spool, the store and the record: flagged on every surface.
    let s = spooled(AttachmentsConfig::default());
    let long = format!("{}.exe", "a".repeat(5000));
    let eml = format!(
        "From: X <x@x.example>\r\nTo: ops@example.com\r\nSubject: Invoice\r\nMessage-ID: <long@x.example>\r\n\
MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n\
--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment;\r\n filename=\"{long}\"\r\n\r\nMZ\r\n--b--\r\n"
    );
    let records = s.drop_and_poll("long.eml", &eml);
    let a = &records[0].attachments[0];
    assert!(a.name.ends_with("….exe"), "{}", a.name);
    assert_eq!(a.name.chars().count(), MAX_ATTACHMENT_NAME_CHARS);
    assert_eq!(a.risk.as_deref(), Some("executable"));
    let shown = inbox_show(s.tmp.path(), "1");
    assert!(
        shown.contains("….exe") && shown.contains("! executable type"),
        "{shown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graph_mail_with_more_attachments_than_a_record_lists_stores_only_those_it_lists() {
    use opsdesk::sanitize::MAX_ATTACHMENTS;
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let cfg = graph_config(&fake, "");
    let acct = graph_account(&fake, &cfg, tmp.path());
    let paths = Paths::resolve(Some(tmp.path().to_path_buf()), None).unwrap();
    let engine = Arc::new(Engine::open(paths, cfg, Mode::Primary).unwrap());
    let carried = MAX_ATTACHMENTS + 36;
    let mail = fake.with(|s| {
        let id = s.add_mail("Many files", "ann@fabrikam.com", "<p>attached</p>");
        for i in 0..carried {
            let bytes = format!("file {i}");
            s.add_file_attachment(
                &id,
                &format!("f{i}.txt"),
                "text/plain",
                bytes.as_bytes(),
                false,
            );
        }
        id
    });
    poll_mail(&engine, &acct).await;
    let rec = engine.inbox_record_by_id(&mail).unwrap().unwrap();
    assert_eq!(rec.attachments.len(), MAX_ATTACHMENTS);
    assert_eq!(rec.meta["attachments_truncated"], carried);
    let store = engine.attachment_store().unwrap();
    let listed: u64 = rec.attachments.iter().map(|a| a.size).sum();
    assert_eq!(store.measure().unwrap(), listed);
    let dropped = sha(format!("file {MAX_ATTACHMENTS}").as_bytes());
    assert!(!store.path_of(&dropped).unwrap().exists());
    assert_eq!(
        opsdesk::store::attachments::dropped_count(&rec.meta, rec.attachments.len()),
        36
    );
}
