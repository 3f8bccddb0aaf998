use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A file-size limit (ulimit -f) must surface as a write error we can report, not kill us.
    // SAFETY: setting a signal disposition to SIG_IGN at start-up, before any threads exist.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = opsdesk::cli::Cli::parse();
    // Colour only for a person watching stderr: never in a pipe, and never for the console,
    // whose stderr goes to console.log once its UI owns the terminal.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr()) && !cli.runs_console();
    tracing_subscriber::fmt()
        .with_ansi(ansi)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OPSDESK_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    opsdesk::cli::run(cli)
}
