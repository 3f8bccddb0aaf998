//! Names the commit a binary is built from (`opsdesk --version`): `git rev-parse`, or
//! `unknown` outside a git checkout (a source tarball), and `OPSDESK_COMMIT` wins when set
//! (packagers building without `.git`).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=OPSDESK_COMMIT");
    let commit = std::env::var("OPSDESK_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| {
            Command::new("git")
                .args(["rev-parse", "--short=12", "HEAD"])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .filter(|c| !c.is_empty())
        })
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=OPSDESK_COMMIT={commit}");
    // A new commit (HEAD moving, or the branch it names) means a new version string.
    for p in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if std::path::Path::new(p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
}
