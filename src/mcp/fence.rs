//! Fences around inbound content in MCP answers: the fence itself lives on the domain floor
//! (`domain::fence`), since the tool vault marks a tool's input with it too.

pub use crate::domain::fence::*;
