//! opsdesk: an operator's console for AI-assisted work. See docs/ARCHITECTURE.md.
// Zero `.unwrap()` in the product (tests may); `expect` says why a panic cannot happen.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

mod memory;
pub use memory::tune_allocator;
pub(crate) use memory::{release_memory, trim_code_pages};

pub mod assistant;
pub mod brief;
pub mod cli;
pub(crate) mod clock;
pub mod config;
pub(crate) mod copilot;
pub(crate) mod doctor;
pub mod domain;
pub mod engine;
pub mod governance;
pub(crate) mod html_mail;
pub(crate) mod http;
pub mod llm;
pub mod mcp;
pub(crate) mod net;
pub mod paths;
pub mod sanitize;
pub mod sources;
pub mod store;
pub mod timeexpr;
pub mod tui;
pub mod vault;
pub mod watch;
