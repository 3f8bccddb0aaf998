//! Names the commit a binary is built from (`opsdesk --version`): `git rev-parse`, or
//! `unknown` outside a git checkout (a source tarball), and `OPSDESK_COMMIT` wins when set
//! (packagers building without `.git`). It also passes the release binary's size-saving link
//! flags (`link_flags`).

use std::process::Command;

fn main() {
    link_flags();
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

/// Two linker flags that make the release binary smaller at no cost in speed (measured in
/// docs/ARCHITECTURE.md, "Release build"): packed relative relocations (`DT_RELR`: about 1 MB
/// of `.rela.dyn` becomes a few kB, the binary stays position-independent) and identical code
/// folding (`--icf=all`: about 0.2 MB of duplicate functions). Only where they are known to
/// work: a release build for x86_64 Linux with glibc, on the same machine, with rustc's own
/// `rust-lld` (the default since 1.90) and no linker chosen by the builder; `DT_RELR` also
/// needs glibc 2.36 (the loader that applies it; the binary then asks for it by version, so an
/// older glibc refuses it at start instead of running it unrelocated). `OPSDESK_PLAIN_LINK=1`
/// turns both off.
fn link_flags() {
    println!("cargo:rerun-if-env-changed=OPSDESK_PLAIN_LINK");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let target = var("TARGET");
    if var("PROFILE") != "release"
        || target != "x86_64-unknown-linux-gnu"
        || var("HOST") != target
        || !var("OPSDESK_PLAIN_LINK").is_empty()
        || !var("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_empty()
        // A linker from cargo's configuration (`[target.…] linker`), which cargo resolves
        // and names here; the variable above covers only the environment.
        || !var("RUSTC_LINKER").is_empty()
        // Any linker setting of the builder's (`-C linker`, `-C link-self-contained`,
        // `-C link-arg`, linker features): their linker may not take these flags.
        || var("CARGO_ENCODED_RUSTFLAGS").contains("link")
        || rustc_minor().is_none_or(|m| m < 90)
    {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-Wl,--icf=all");
    if glibc_minor().is_some_and(|m| m >= 36) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// `1.N` of `rustc --version`.
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let v = String::from_utf8_lossy(&out.stdout);
    // "rustc 1.95.0 (…)"
    v.split_whitespace().nth(1)?.split('.').nth(1)?.parse().ok()
}

/// `2.N` of the host's glibc (`getconf GNU_LIBC_VERSION`: "glibc 2.36").
fn glibc_minor() -> Option<u32> {
    let out = Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .ok()?;
    let v = String::from_utf8_lossy(&out.stdout);
    let v = v.trim().strip_prefix("glibc 2.")?;
    v.split('.').next()?.parse().ok()
}
