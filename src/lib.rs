//! opsdesk: an operator's console for AI-assisted work. See docs/ARCHITECTURE.md.
// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

// Every MCP call allocates and frees a few hundred small buffers (JSON values, strings): under
// glibc's malloc an `inbox_pull` took 2.76M instructions, under mimalloc 2.28M (callgrind,
// docs/ARCHITECTURE.md "MCP hot path"). Set here so the binary and the tests run on the same one.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Let an idle engine give memory back. mimalloc purges freed pages only after a delay and only
/// on later allocator activity, and it advises its arenas for transparent huge pages, which
/// khugepaged then fills back in: after a 50k-record spool import an idle `serve` stayed at
/// 78–92 MB where a fresh one idles at 25–31 MB; purging at once with THP off, it idles at
/// 40 MB and imports as fast (`benches/import_rss.sh`, docs/ARCHITECTURE.md "Memory"). Called first thing
/// in `main`; the `MIMALLOC_PURGE_DELAY` / `MIMALLOC_ALLOW_THP` environment variables still win.
pub fn tune_allocator() {
    use libmimalloc_sys::{_mi_option_last, mi_option_set, mi_option_t};
    // libmimalloc-sys does not name these two; their numbers in mimalloc 3.x's `mi_option_e`.
    // A mimalloc with another option table fails to compile here instead of setting the wrong one.
    const _: () = assert!(_mi_option_last == 47, "mimalloc's option numbers changed");
    const PURGE_DELAY: mi_option_t = 15;
    const ALLOW_THP: mi_option_t = 43;
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets an allocator option; called before the program starts any thread.
        unsafe { mi_option_set(PURGE_DELAY, 0) };
    }
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: as above. The prctl covers the arenas mimalloc mapped before this call.
        unsafe {
            mi_option_set(ALLOW_THP, 0);
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
    }
}

pub mod assistant;
pub mod brief;
pub mod cli;
pub mod config;
pub mod copilot;
pub mod doctor;
pub mod domain;
pub mod engine;
pub mod governance;
pub mod html_mail;
pub mod llm;
pub mod mcp;
pub mod paths;
pub mod sanitize;
pub mod sources;
pub mod store;
pub mod tui;
pub mod vault;
pub mod watch;
