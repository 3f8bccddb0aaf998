//! The Copilot webhook against GitHub's own SDK (`@copilot-extensions/preview-sdk` 5.0.1,
//! installed by `.ci/deps/copilot.sh`, run under Node 22 from `.ci/deps/mcp.sh`): requests
//! signed in Node are accepted by the SDK's `verifyRequestByKeyId` against the same fake keys
//! endpoint opsdesk uses, opsdesk answers them with exactly the bytes the SDK's event helpers
//! produce (ack → text → [references / errors] → done), and a tampered body gets 401.

mod copilot_support;
mod mcp_support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use copilot_support::{FakeKeys, key, private_key_pem};
use mcp_support::{Server, ci_tool, interop_script, run_bounded};
use serde_json::Value;

const CONFIG: &str = r#"
[profiles.clinic]
sources = ["spool"]
requires_hipaa = true

[profiles.deals]
sources = ["spool"]
"#;

fn sdk_dir() -> std::path::PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/tools/npm-copilot");
    assert!(
        d.join("node_modules/@copilot-extensions/preview-sdk/package.json")
            .exists(),
        "{} has no @copilot-extensions/preview-sdk: run `.ci/deps/copilot.sh`",
        d.display()
    );
    d
}

#[test]
fn the_preview_sdk_accepts_the_signatures_and_reads_back_its_own_frames() {
    let sdk = sdk_dir();
    let node = ci_tool("node22");
    let k = key(3);
    let fake = FakeKeys::start(&[("sdk-key", &k)]);
    let config = format!(
        "[copilot_extension]\nenabled = true\n{}{CONFIG}",
        fake.config_lines()
    );
    let server = Server::start(&[], Some(&config));
    let dir = tempfile::tempdir().unwrap();
    let pem = dir.path().join("key.pem");
    std::fs::write(&pem, private_key_pem(3)).unwrap();
    let mut cmd = Command::new(node);
    cmd.arg(interop_script("copilot_sdk.mjs"))
        .arg(&server.base)
        .arg(fake.base())
        .arg(&pem)
        .arg("sdk-key")
        .arg(&sdk);
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
    assert!(ok, "node failed:\n{out}\n{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|_| panic!("{out}\n{err}"));
    let cases = v["cases"].as_array().unwrap();
    for c in cases {
        assert!(
            c["problems"].as_array().unwrap().is_empty(),
            "{}: {}",
            c["text"],
            c["problems"]
        );
    }
    assert_eq!(v["ok"], true, "{v}");
    // The draft request carried a reference, the clinic draft an error: both frame kinds were
    // compared with the SDK's.
    let kinds: Vec<String> = cases
        .iter()
        .flat_map(|c| c["frames"].as_array().unwrap().clone())
        .filter_map(|f| f.as_str().map(str::to_string))
        .collect();
    assert!(kinds.iter().any(|k| k == "references"), "{kinds:?}");
    assert!(kinds.iter().any(|k| k == "errors"), "{kinds:?}");
}
