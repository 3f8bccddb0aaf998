//! The embedded MCP server (being written: issue 3).
