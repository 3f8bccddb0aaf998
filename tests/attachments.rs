//! Attachments end to end: `.eml` MIME parts and Graph attachments land in the content-addressed
//! store with neutralized names and clear markers; MCP clients get metadata and
//! `opsdesk://attachments/{sha256}` URIs, never base64 in tool results; an uncleared client gets
//! no PHI from a clinic's attachment. Real files in temporary directories, a real inbox.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

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
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

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
        ["logo.png", "Référence patient.pdf", "Notes über.txt", "_CON.fdp.exe"],
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
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
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
