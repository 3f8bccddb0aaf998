// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A file-size limit (ulimit -f) must surface as a write error we can report, not kill us.
    // SAFETY: setting a signal disposition to SIG_IGN at start-up, before any threads exist.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OPSDESK_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    opsdesk::cli::run(opsdesk::cli::Cli::parse())
}
