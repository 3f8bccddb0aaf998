//! Governance building blocks that sit between the operator's data and anything that leaves the
//! process (DESIGN "Governance", principle 3 and 5).

pub mod redact;
