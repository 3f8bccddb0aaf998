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
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut cmd, "opsdesk", &mut out);
    out.flush()
        .map_err(|e| Failure::failed(format!("cannot write the completion script: {e}")))
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
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .and_then(|()| out.flush())
                .map_err(|e| Failure::failed(format!("cannot write the man page: {e}")))
        }
    }
}
