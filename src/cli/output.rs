//! Printing for humans and for scripts. Everything shown to a human passes through
//! `sanitize::for_terminal`, whatever the stores hold.

use serde::Serialize;

use crate::sanitize::for_terminal;

pub struct Printer {
    pub json: bool,
}

impl Printer {
    pub fn new(json: bool) -> Self {
        Printer { json }
    }

    /// Print `value` as JSON when `--json`, else call `human`.
    pub fn emit<T: Serialize>(&self, value: &T, human: impl FnOnce(&mut Vec<String>)) {
        if self.json {
            match serde_json::to_string_pretty(value) {
                Ok(s) => println!("{s}"),
                Err(e) => eprintln!("opsdesk: cannot encode output: {e}"),
            }
        } else {
            let mut lines = Vec::new();
            human(&mut lines);
            for l in lines {
                println!("{}", safe(&l));
            }
        }
    }
}

/// Terminal-safe text, keeping line structure for multi-line bodies.
pub fn safe(s: &str) -> String {
    s.split('\n')
        .map(for_terminal)
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn time_short(t: time::OffsetDateTime) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    t.format(&f).unwrap_or_default()
}
