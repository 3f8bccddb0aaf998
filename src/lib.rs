//! opsdesk: an operator's console for AI-assisted work. See docs/ARCHITECTURE.md.
// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

// Every MCP call allocates and frees a few hundred small buffers (JSON values, strings): under
// glibc's malloc an `inbox_pull` took 2.76M instructions, under mimalloc 2.28M (callgrind,
// docs/ARCHITECTURE.md "MCP hot path"). Set here so the binary and the tests run on the same one.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
