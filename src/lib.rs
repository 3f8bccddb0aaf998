//! opsdesk: an operator's console for AI-assisted work. See docs/ARCHITECTURE.md.
// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod brief;
pub mod cli;
pub mod config;
pub mod doctor;
pub mod domain;
pub mod engine;
pub mod governance;
pub mod llm;
pub mod mcp;
pub mod paths;
pub mod sanitize;
pub mod sources;
pub mod store;
pub mod tui;
pub mod watch;
