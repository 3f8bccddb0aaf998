// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
use std::process::ExitCode;

/// The allocator's options must be set before mimalloc's constructor reads them (see
/// `opsdesk::tune_allocator`): a constructor of priority 100 runs before every constructor of
/// default priority, mimalloc's among them (a C `__attribute__((constructor))`).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static TUNE_ALLOCATOR_FIRST: extern "C" fn() = {
    extern "C" fn tune() {
        opsdesk::tune_allocator();
    }
    tune
};

fn main() -> ExitCode {
    // Again for platforms without the constructor; on Linux a no-op repeat.
    opsdesk::tune_allocator();
    // A file-size limit (ulimit -f) must surface as a write error we can report, not kill us.
    // SAFETY: setting a signal disposition to SIG_IGN at start-up, before any threads exist.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // No process of the same user (a vault tool, any script) may read this one's memory or
    // `/proc/<pid>/environ`, where the API keys of the environment are.
    opsdesk::vault::sandbox::protect_this_process();
    let cli = match opsdesk::cli::Cli::parse_args() {
        Ok(cli) => cli,
        Err(e) => return opsdesk::cli::parse_failed(&e),
    };
    // Colour only for a person watching stderr: never in a pipe, and never for the console,
    // whose stderr goes to console.log once its UI owns the terminal.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr()) && !cli.runs_console();
    tracing_subscriber::fmt()
        .with_ansi(ansi && log_colour())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OPSDESK_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    opsdesk::cli::run(cli)
}

/// Colour log lines only for a person at a terminal: never into a file or pipe, and never when
/// `NO_COLOR` is set to anything non-empty (https://no-color.org).
fn log_colour() -> bool {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color && std::io::stderr().is_terminal()
}
