//! Printing for humans and for scripts. Everything shown to a human passes through
//! `sanitize::for_terminal`, whatever the stores hold.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::sanitize::for_terminal;

/// Set once stdout's reader has gone (`opsdesk brief | head`): later output is dropped.
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);

/// `println!` for command output. A reader that goes away early (`| head`) is not an error of
/// the command: its output stops, the command finishes its work (cursors saved, locks released)
/// and exits as it would have. Rust ignores SIGPIPE, so a plain `println!` would panic here.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::write_line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// One line to stdout (see [`outln!`]); another write error is reported once on stderr.
pub fn write_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
    {
        STDOUT_GONE.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("opsdesk: cannot write to stdout: {e}; the rest of the output is dropped");
        }
    }
}

/// Set once a command has printed its JSON answer: a failure after that (doctor's report with
/// problems) is already described on stdout, and a second document would break the output.
static JSON_PRINTED: AtomicBool = AtomicBool::new(false);

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
                Ok(s) => {
                    outln!("{s}");
                    JSON_PRINTED.store(true, Ordering::SeqCst);
                }
                Err(e) => eprintln!("opsdesk: cannot encode output: {e}"),
            }
        } else {
            let mut lines = Vec::new();
            human(&mut lines);
            for l in lines {
                outln!("{}", safe(&l));
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

/// The one time convention (console, `inbox list`, `inbox show`, `watch`): an item's own time
/// in the local zone, to the minute. `zone_of` names the zone.
pub fn local_time(t: time::OffsetDateTime) -> String {
    crate::clock::fmt_time(t, crate::clock::local_offset(t))
}

/// The local zone at `t`, as `UTC` or `UTC+01:00`.
pub fn zone_of(t: time::OffsetDateTime) -> String {
    crate::clock::zone_name(crate::clock::local_offset(t))
}

/// The one confirmation convention (console and CLI): a question answered with y/yes to go
/// on; anything else cancels, which is not a usage error: exit 1 with "cancelled; nothing
/// changed". Without a terminal to ask on, the caller must pass `--yes` (`script_hint`).
pub fn confirm(
    question: &str,
    details: &[String],
    script_hint: &str,
) -> Result<(), super::Failure> {
    use std::io::{BufRead, IsTerminal, Write};
    if !std::io::stdin().is_terminal() {
        return Err(super::Failure::usage(script_hint.to_string()));
    }
    for l in details {
        eprintln!("{}", safe(l));
    }
    eprint!("{} [y/N] ", safe(question));
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| super::Failure::failed(format!("cannot read the answer: {e}")))?;
    if matches!(answer.trim(), "y" | "Y" | "yes" | "Yes") {
        Ok(())
    } else {
        Err(super::Failure::failed("cancelled; nothing changed"))
    }
}

/// The machine-readable form of a failed command (`--json`): one JSON object on stdout, so a
/// script reading stdout sees the failure as well as the exit code; unless the command already
/// printed its JSON answer, which then says what failed (`doctor`).
pub fn print_error_json(f: &super::Failure) {
    if JSON_PRINTED.load(Ordering::SeqCst) {
        return;
    }
    let kind = match f.code {
        2 => "usage",
        3 => "integrity",
        4 => "refused",
        _ => "failed",
    };
    let v = serde_json::json!({
        "ok": false,
        "error": {"code": f.code, "kind": kind, "message": f.message},
    });
    outln!("{v}");
}

/// Structured error details (`{"field": …, "valid_providers": [...]}`) as words for a person:
/// `valid providers: a, b`. The field name alone says nothing the message does not.
pub fn describe_data(data: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let words = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string())
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    match data {
        Value::Null => None,
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .filter(|(k, _)| k.as_str() != "field")
                .map(|(k, v)| format!("{}: {}", k.replace('_', " "), words(v)))
                .collect();
            (!parts.is_empty()).then(|| parts.join("; "))
        }
        other => Some(words(other)),
    }
}

/// One line per attachment of an inbox item ([`crate::domain::Attachment::summary`]), and the
/// local file when `path_of` knows it.
pub fn attachment_lines(
    attachments: &[crate::domain::Attachment],
    path_of: impl Fn(&str) -> Option<std::path::PathBuf>,
) -> Vec<String> {
    let mut l = Vec::new();
    if attachments.is_empty() {
        return l;
    }
    l.push(format!("attachments ({}):", attachments.len()));
    for a in attachments {
        l.push(format!("  {}", safe(&a.summary())));
        if let Some(p) = a.sha256.as_deref().and_then(&path_of) {
            l.push(format!("      {}", safe(&p.display().to_string())));
        }
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_details_read_as_words() {
        let d = serde_json::json!({"field": "name", "valid_providers": ["azure", "local"]});
        assert_eq!(
            describe_data(&d).as_deref(),
            Some("valid providers: azure, local")
        );
        assert_eq!(describe_data(&serde_json::json!({"field": "to"})), None);
        assert_eq!(describe_data(&serde_json::Value::Null), None);
    }
}

/// A progress line on stderr for a command that runs long (`audit verify`, `inbox verify`,
/// `audit export`): nothing for the first second, then "label: N records…" at most four times
/// a second, rewritten in place on a terminal and one line every five seconds otherwise; the
/// line is cleared when the work ends, so the answer on stdout reads as before.
pub struct Progress {
    label: &'static str,
    start: std::time::Instant,
    last: Option<std::time::Instant>,
    tty: bool,
    out: Box<dyn std::io::Write + Send>,
    clock: Box<dyn Fn() -> std::time::Instant + Send>,
}

impl Progress {
    /// Quiet for this long.
    pub const AFTER: std::time::Duration = std::time::Duration::from_secs(1);

    pub fn new(label: &'static str) -> Progress {
        use std::io::IsTerminal;
        Progress::with(
            label,
            std::io::stderr().is_terminal(),
            Box::new(std::io::stderr()),
            Box::new(std::time::Instant::now),
        )
    }

    /// With its terminal-ness, output and clock given (tests).
    pub fn with(
        label: &'static str,
        tty: bool,
        out: Box<dyn std::io::Write + Send>,
        clock: Box<dyn Fn() -> std::time::Instant + Send>,
    ) -> Progress {
        Progress {
            label,
            start: clock(),
            last: None,
            tty,
            out,
            clock,
        }
    }

    /// `done` records so far.
    pub fn tick(&mut self, done: u64) {
        use std::io::Write;
        let now = (self.clock)();
        if now.duration_since(self.start) < Self::AFTER {
            return;
        }
        let every = if self.tty {
            std::time::Duration::from_millis(250)
        } else {
            std::time::Duration::from_secs(5)
        };
        if self.last.is_some_and(|l| now.duration_since(l) < every) {
            return;
        }
        self.last = Some(now);
        // Progress is a courtesy: a closed stderr must not fail the command.
        let _ = if self.tty {
            write!(self.out, "\r\x1b[K{}: {done} records…", self.label)
        } else {
            writeln!(self.out, "{}: {done} records…", self.label)
        };
        let _ = self.out.flush();
    }

    /// The work is done: clear the line (on a terminal).
    pub fn finish(&mut self) {
        use std::io::Write;
        if self.tty && self.last.is_some() {
            let _ = write!(self.out, "\r\x1b[K");
            let _ = self.out.flush();
        }
    }
}

#[cfg(test)]
mod progress_tests {
    use super::Progress;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn progress(tty: bool) -> (Progress, Sink, Arc<Mutex<Instant>>) {
        let sink = Sink::default();
        let t0 = Instant::now();
        let now = Arc::new(Mutex::new(t0));
        let clock = now.clone();
        let p = Progress::with(
            "audit verify",
            tty,
            Box::new(sink.clone()),
            Box::new(move || *clock.lock().unwrap()),
        );
        (p, sink, now)
    }

    fn text(s: &Sink) -> String {
        String::from_utf8(s.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn quiet_for_a_second_then_a_line_in_place_then_cleared() {
        let (mut p, sink, now) = progress(true);
        p.tick(4096);
        *now.lock().unwrap() += Duration::from_millis(900);
        p.tick(8192);
        assert_eq!(text(&sink), "", "nothing in the first second");
        *now.lock().unwrap() += Duration::from_millis(200);
        p.tick(12288);
        assert_eq!(text(&sink), "\r\x1b[Kaudit verify: 12288 records…");
        // Not again within a quarter second.
        *now.lock().unwrap() += Duration::from_millis(100);
        p.tick(16384);
        assert!(!text(&sink).contains("16384"));
        p.finish();
        assert!(text(&sink).ends_with("\r\x1b[K"));
    }

    #[test]
    fn without_a_terminal_whole_lines_every_five_seconds() {
        let (mut p, sink, now) = progress(false);
        *now.lock().unwrap() += Duration::from_secs(2);
        p.tick(1);
        *now.lock().unwrap() += Duration::from_secs(1);
        p.tick(2);
        *now.lock().unwrap() += Duration::from_secs(5);
        p.tick(3);
        p.finish();
        assert_eq!(
            text(&sink),
            "audit verify: 1 records…\naudit verify: 3 records…\n"
        );
    }

    #[test]
    fn a_short_run_prints_nothing() {
        let (mut p, sink, _) = progress(true);
        p.tick(10);
        p.finish();
        assert_eq!(text(&sink), "");
    }
}
