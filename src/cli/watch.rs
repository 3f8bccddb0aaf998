//! `opsdesk watch` (being written: issue 5).
use clap::Args;

use super::{CmdResult, Context, Failure};

#[derive(Debug, Args)]
pub struct WatchArgs {}

pub fn run(_ctx: &Context, _args: WatchArgs) -> CmdResult {
    Err(Failure::failed("`opsdesk watch` is not built yet"))
}
