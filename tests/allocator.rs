//! The binary's allocator settings (`opsdesk::tune_allocator`, docs/ARCHITECTURE.md "Memory")
//! are in force before the allocator reads them, not only from `main` on: set later, mimalloc
//! had already advised its first arena for huge pages, and a fresh engine held 2.5 MB more.

use std::process::Command;

/// The options mimalloc prints when it starts (`MIMALLOC_VERBOSE=1`), as name → value.
fn options_at_start(env: &[(&str, &str)]) -> Vec<(String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .env_remove("MIMALLOC_ALLOW_THP")
        .env_remove("MIMALLOC_PURGE_DELAY")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("option '")?;
            let (name, value) = rest.split_once("':")?;
            Some((name.to_string(), value.trim().to_string()))
        })
        .collect()
}

fn option(opts: &[(String, String)], name: &str) -> String {
    opts.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("mimalloc printed no option {name}: {opts:?}"))
}

#[test]
fn huge_pages_are_off_and_the_purge_delay_short_before_the_allocator_starts() {
    let opts = options_at_start(&[]);
    assert_eq!(option(&opts, "allow_thp"), "0");
    assert_eq!(option(&opts, "purge_delay"), "1");
}

#[test]
fn the_allocator_environment_variables_still_win() {
    let opts = options_at_start(&[("MIMALLOC_ALLOW_THP", "1"), ("MIMALLOC_PURGE_DELAY", "25")]);
    assert_eq!(option(&opts, "allow_thp"), "1");
    assert_eq!(option(&opts, "purge_delay"), "25");
}
