//! `opsdesk watch` (being written: issue 5).
