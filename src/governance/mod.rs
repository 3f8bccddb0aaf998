//! Governance building blocks that sit between the operator's data and anything that leaves the
//! process (DESIGN "Governance", principle 3 and 5). The engine applies them in
//! `engine::governance` to every action, whichever surface produced it.

pub(crate) mod audience;
pub(crate) mod bans;
pub(crate) mod boundary;
pub(crate) mod ladder;
pub mod phi_view;
pub mod redact;
