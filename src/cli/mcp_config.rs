//! `opsdesk mcp-config` (being written: issue 3).
use clap::Args;

use super::{CmdResult, Context, Failure};

#[derive(Debug, Args)]
pub struct McpConfigArgs {}

pub fn run(_ctx: &Context, _args: McpConfigArgs) -> CmdResult {
    Err(Failure::failed("`opsdesk mcp-config` is not built yet"))
}
