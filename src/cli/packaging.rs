//! What packagers and shells need from the command line itself: completion scripts and man
//! pages, generated from the same clap definition the parser uses (so they never drift).

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;

use super::{Cli, CmdResult, Failure};

/// `opsdesk --version`: the crate version and the commit it was built from.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("OPSDESK_COMMIT"), ")");

/// Print the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> CmdResult {
    let mut cmd = Cli::command();
    // Into memory first: clap_complete panics on a write error, and a reader that stops
    // early (`| head`) closes the pipe.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "opsdesk", &mut script);
    to_stdout(&script)
        .map_err(|e| Failure::failed(format!("cannot write the completion script: {e}")))
}

/// Write `bytes` to stdout. A reader that closed the pipe early (`| head`) had what it wanted:
/// not an error.
fn to_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Print the man page to stdout, or with `dir` write one page per command there
/// (`opsdesk.1`, `opsdesk-inbox.1`, …).
pub fn man(dir: Option<&Path>) -> CmdResult {
    let cmd = Cli::command();
    match dir {
        Some(d) => {
            std::fs::create_dir_all(d)
                .map_err(|e| Failure::failed(format!("cannot create {}: {e}", d.display())))?;
            clap_mangen::generate_to(cmd, d).map_err(|e| {
                Failure::failed(format!("cannot write man pages to {}: {e}", d.display()))
            })
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .and_then(|()| to_stdout(&page))
                .map_err(|e| Failure::failed(format!("cannot write the man page: {e}")))
        }
    }
}
