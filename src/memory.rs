//! The process's memory: the allocator and its tuning, and giving pages back to the system
//! after a burst (docs/ARCHITECTURE.md, "Memory").

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

/// Drop this process's mappings of its own machine code: the executable's read-only,
/// executable load segments. An engine that sits idle all day in a side terminal keeps mapped
/// every code page a burst (an import, a poll round, a load of reads) touched, and the kernel
/// maps 64 kB around each faulting page, so after an import most of the 18 MB of code counts
/// to its resident set (`RssFile`) although it runs none of it. Unmapped with `MADV_DONTNEED`,
/// the pages stay in the page cache (a private file mapping that was never written refaults
/// from the file's cached pages: a minor fault, no disk read) and the next request maps what it
/// runs. Only segments that are executable and not writable and outside `PT_GNU_RELRO` are
/// touched: relocated data pages are private copies that `MADV_DONTNEED` would reset to the
/// file's unrelocated bytes. Returns the bytes advised (0 where this is not supported).
pub(crate) fn release_code_pages() -> usize {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        linux_code::release()
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        0
    }
}

/// Code mapped beyond what was mapped after the last unmap before a quiet engine unmaps it
/// again: a poll round runs a few hundred kB of code it will run again at the next round, and
/// unmapping that every minute would only trade it for page faults; an import, a start-up or a
/// load of reads maps megabytes it may not run again today.
const CODE_GROWTH_WORTH_UNMAPPING: u64 = 4 << 20;

/// [`release_code_pages`] when the file-backed memory mapped (`RssFile`) grew by more than
/// [`CODE_GROWTH_WORTH_UNMAPPING`] since `after_last` (what it was after the last unmap, 0 for
/// never); returns the new baseline. Where `RssFile` cannot be read, nothing is unmapped.
pub(crate) fn trim_code_pages(after_last: u64) -> u64 {
    let Some(mapped) = rss_file() else {
        return after_last;
    };
    if mapped <= after_last.saturating_add(CODE_GROWTH_WORTH_UNMAPPING) {
        return after_last;
    }
    let advised = release_code_pages();
    let left = rss_file().unwrap_or(mapped);
    tracing::debug!(
        advised,
        mapped_before = mapped,
        mapped_after = left,
        "quiet after a burst: code pages unmapped (they stay in the page cache)"
    );
    left
}

/// This process's resident file-backed memory in bytes, from `/proc/self/status`.
fn rss_file() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("RssFile:"))?;
    kb.trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<u64>()
        .ok()
        .map(|k| k * 1024)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod linux_code {
    use std::ffi::{c_int, c_void};

    /// The executable's code segments as page-aligned `(start, len)`, read from its program
    /// headers (the first object `dl_iterate_phdr` reports is the executable itself).
    pub(super) fn segments() -> Vec<(usize, usize)> {
        struct Found {
            first: bool,
            ranges: Vec<(usize, usize)>,
        }
        unsafe extern "C" fn visit(
            info: *mut libc::dl_phdr_info,
            _size: libc::size_t,
            data: *mut c_void,
        ) -> c_int {
            // SAFETY: `data` is the `Found` passed below; `info` and its `dlpi_phdr` array of
            // `dlpi_phnum` headers are valid for this call (dl_iterate_phdr's contract).
            let (found, info) = unsafe { (&mut *data.cast::<Found>(), &*info) };
            if !found.first {
                return 1;
            }
            found.first = false;
            let headers = if info.dlpi_phdr.is_null() {
                &[][..]
            } else {
                // SAFETY: as above.
                unsafe { std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) }
            };
            let base = info.dlpi_addr as usize;
            let relro: Vec<(usize, usize)> = headers
                .iter()
                .filter(|h| h.p_type == libc::PT_GNU_RELRO)
                .map(|h| {
                    (
                        base + h.p_vaddr as usize,
                        base + (h.p_vaddr + h.p_memsz) as usize,
                    )
                })
                .collect();
            let page = page_size();
            for h in headers {
                let code = h.p_type == libc::PT_LOAD
                    && h.p_flags & libc::PF_X != 0
                    && h.p_flags & libc::PF_W == 0;
                if !code {
                    continue;
                }
                // Whole pages inside the segment only: its first and last pages may share
                // bytes with a neighbouring segment.
                let from = (base + h.p_vaddr as usize).next_multiple_of(page);
                let to = (base + (h.p_vaddr + h.p_filesz) as usize) / page * page;
                let overlaps_relro = relro.iter().any(|&(a, b)| a < to && from < b);
                if to > from && !overlaps_relro {
                    found.ranges.push((from, to - from));
                }
            }
            1
        }
        let mut found = Found {
            first: true,
            ranges: Vec::new(),
        };
        // SAFETY: `visit` only reads what dl_iterate_phdr hands it and writes `found`.
        unsafe { libc::dl_iterate_phdr(Some(visit), (&raw mut found).cast()) };
        found.ranges
    }

    fn page_size() -> usize {
        // SAFETY: sysconf has no preconditions.
        let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(n).ok().filter(|&n| n > 0).unwrap_or(4096)
    }

    pub(super) fn release() -> usize {
        let mut advised = 0;
        for (start, len) in segments() {
            // SAFETY: the range is whole pages of this executable's read-only code mapping
            // (never written, outside RELRO), so dropping them only makes the next execution
            // of that code refault the same bytes from the file.
            let r = unsafe { libc::madvise(start as *mut c_void, len, libc::MADV_DONTNEED) };
            if r == 0 {
                advised += len;
            } else {
                tracing::debug!(
                    "madvise of the code pages failed: {}",
                    std::io::Error::last_os_error()
                );
            }
        }
        advised
    }
}

#[cfg(test)]
mod tests {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn the_code_pages_are_the_executables_and_the_program_runs_on_after_they_are_dropped() {
        let segments = super::linux_code::segments();
        assert!(!segments.is_empty(), "no code segment found");
        // This very function lies in one of them.
        let here = the_code_pages_are_the_executables_and_the_program_runs_on_after_they_are_dropped
            as fn() as usize;
        assert!(
            segments.iter().any(|&(s, l)| (s..s + l).contains(&here)),
            "{here:#x} not in {segments:x?}"
        );
        let rss_file = || {
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            let line = status.lines().find(|l| l.starts_with("RssFile:")).unwrap();
            line.split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<u64>()
                .unwrap()
        };
        let before = rss_file();
        let advised = super::release_code_pages();
        assert_eq!(advised, segments.iter().map(|s| s.1).sum::<usize>());
        // The mappings went (what this thread and others ran since is mapped again).
        let after = rss_file();
        assert!(after < before, "RssFile {before} B -> {after} B");
        // Code and relocated data still work: a formatted string goes through std's code,
        // vtables and a static.
        assert_eq!(format!("{:>5}|{}", 42, String::from("ok")), "   42|ok");
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn a_quiet_engine_unmaps_code_only_when_a_burst_mapped_megabytes_more() {
        let mapped = super::rss_file().unwrap();
        // Less than the threshold more than after the last unmap: left alone.
        let baseline = mapped - super::CODE_GROWTH_WORTH_UNMAPPING / 2;
        assert_eq!(super::trim_code_pages(baseline), baseline);
        // Never unmapped and megabytes mapped (a test binary's code): unmapped.
        assert!(mapped > super::CODE_GROWTH_WORTH_UNMAPPING, "{mapped}");
        let after = super::trim_code_pages(0);
        assert!(after < mapped, "{mapped} -> {after}");
    }
}
