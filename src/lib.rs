//! opsdesk: an operator's console for AI-assisted work. See docs/ARCHITECTURE.md.
// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

// Every MCP call allocates and frees a few hundred small buffers (JSON values, strings): under
// glibc's malloc an `inbox_pull` took 2.76M instructions, under mimalloc 2.28M (callgrind,
// docs/ARCHITECTURE.md "MCP hot path"). Set here so the binary and the tests run on the same one.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Keep RSS near what the engine holds without paying for it per request. mimalloc returns
/// freed pages to the system after a delay (10 ms by default), and only on later allocator
/// activity; and it advises its arenas for transparent huge pages, which khugepaged then fills
/// back in: after a 50k-record spool import an idle `serve` stayed at 78–92 MB where a fresh
/// one idles at 23–31 MB. THP is turned off here and the delay set to 1 ms: the idle engine
/// holds 37 MB, peaks at 63 MB during the import, and requests reuse their pages. A delay of 0
/// (purge at every free) held the same memory but made every request fault its pages back
/// in, a third of a `status` call's CPU. Places that free a lot at once (a poll round that
/// stored items, closed sessions) also call [`release_memory`]. The C code linked in (the
/// bundled SQLite of the search index) allocates through glibc's malloc, which kept one arena
/// per thread that had used it and never gave their free pages back: 14 MB of an idle engine
/// after a 50k import. Those allocations are few, so one arena serves them, and
/// [`release_memory`] trims it. Measured with
/// `benches/import_rss.sh` (docs/ARCHITECTURE.md "Memory"). Called first thing in `main`; the
/// `MIMALLOC_PURGE_DELAY` / `MIMALLOC_ALLOW_THP` / `MALLOC_ARENA_MAX` environment variables
/// still win.
///
/// The binary calls this from a constructor that runs before mimalloc's own (`main.rs`): by
/// `main`, mimalloc had already read its options and advised its first arena for huge pages,
/// and the first allocations faulted in a 2 MB page that then stayed resident (a fresh `serve`
/// held 6.5 MB anonymous, 4.0 MB with the options set first). So this allocates nothing
/// (the environment is read with `getenv`, not `std::env`) and may run again.
pub fn tune_allocator() {
    use libmimalloc_sys::{_mi_option_last, mi_option_set, mi_option_t};
    // libmimalloc-sys does not name these two; their numbers in mimalloc 3.x's `mi_option_e`.
    // A mimalloc with another option table fails to compile here instead of setting the wrong one.
    const _: () = assert!(_mi_option_last == 47, "mimalloc's option numbers changed");
    const PURGE_DELAY: mi_option_t = 15;
    const ALLOW_THP: mi_option_t = 43;
    if !env_set(c"MIMALLOC_PURGE_DELAY") {
        // SAFETY: sets an allocator option; called before the program starts any thread.
        unsafe { mi_option_set(PURGE_DELAY, 1) };
    }
    #[cfg(target_os = "linux")]
    if !env_set(c"MALLOC_ARENA_MAX") {
        // SAFETY: as above.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }
    if !env_set(c"MIMALLOC_ALLOW_THP") {
        // SAFETY: as above. The prctl covers the arenas mimalloc mapped before this call.
        unsafe {
            mi_option_set(ALLOW_THP, 0);
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
    }
}

/// Whether the environment names `var`, read without allocating (see [`tune_allocator`]).
fn env_set(var: &std::ffi::CStr) -> bool {
    // SAFETY: getenv reads the environment; nothing modifies it at start-up or later.
    unsafe { !libc::getenv(var.as_ptr()).is_null() }
}

/// Return freed heap pages to the system now, instead of after mimalloc's purge delay and
/// later allocator activity (which an idle engine never has); and glibc's free pages (SQLite's),
/// which it keeps until told.
pub(crate) fn release_memory() {
    // SAFETY: mi_collect only walks the allocator's own free lists; callable from any thread.
    unsafe {
        libmimalloc_sys::mi_collect(true);
        #[cfg(target_os = "linux")]
        libc::malloc_trim(0);
    }
}

pub mod assistant;
pub mod brief;
pub mod cli;
pub(crate) mod clock;
pub mod config;
pub(crate) mod copilot;
pub(crate) mod doctor;
pub mod domain;
pub mod engine;
pub mod governance;
pub(crate) mod html_mail;
pub(crate) mod http;
pub mod llm;
pub mod mcp;
pub(crate) mod net;
pub mod paths;
pub mod sanitize;
pub mod sources;
pub mod store;
pub mod timeexpr;
pub mod tui;
pub mod vault;
pub mod watch;
