//! Health text: the health view (`!`), the status bar's failing list and the jobs'
//! progress line.

use std::collections::BTreeMap;

use super::app::App;
use super::keymap::Section;
use super::panes::providers::provider_trouble;
use super::text::fmt_time;
use crate::engine::jobs::JobProgress;
use crate::engine::runner::SourceHealth;

/// The progress line of the running jobs: `triage 3/10 ▕███░░░░░░░▏ · deadlines 1/1`.
pub fn jobs_line(jobs: &BTreeMap<u64, JobProgress>) -> Option<String> {
    if jobs.is_empty() {
        return None;
    }
    let parts: Vec<String> = jobs
        .values()
        .map(|p| {
            const W: usize = 10;
            let filled = (p.done * W).checked_div(p.total).unwrap_or(W).min(W);
            format!(
                "{} ▕{}{}▏",
                p.line(),
                "█".repeat(filled),
                "░".repeat(W - filled)
            )
        })
        .collect();
    Some(parts.join(" · "))
}

impl App {
    pub fn failing(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .status
            .sources
            .values()
            .filter(|h| !h.ok)
            .map(|h| match login_fix(h) {
                // A lost sign-in is fixed by the operator, not by waiting: say how.
                Some(fix) => format!("{} ({}x): {fix}", h.name, h.failures),
                None => format!("{} ({}x)", h.name, h.failures),
            })
            .collect();
        // A provider whose calls fail (a missing credential, a refused key…) fails every LLM
        // job routed to it: as much a failure as a source's.
        let (no_key, llm): (Vec<_>, Vec<_>) = self
            .failing_providers()
            .into_iter()
            .partition(|p| p.missing_credential.is_some() && p.cooldown_until.is_none());
        for (what, list) in [("LLM key missing", no_key), ("LLM failing", llm)] {
            if !list.is_empty() {
                let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
                out.push(format!("{what}: {}", names.join(", ")));
            }
        }
        if self.status.mcp_error.is_some() {
            out.push("mcp".into());
        }
        if self.audit.chain.as_ref().is_some_and(|c| !c.ok) {
            out.push("audit chain".into());
        }
        out
    }
    /// The health view (`!`): every source with its last error, the MCP server, the audit
    /// chain, LLM routing blocks, and where the data lives.
    pub fn health_lines(&self) -> Vec<String> {
        let mut l = Vec::new();
        l.push(format!(
            "data dir:  {}",
            self.data_dir.as_deref().unwrap_or("(unknown)")
        ));
        l.push(String::new());
        l.push("Sources".into());
        if self.status.sources.is_empty() {
            l.push("  no pollers run (no source is configured for any profile)".into());
        }
        for h in self.status.sources.values() {
            let last_ok = h
                .last_ok
                .map(|t| fmt_time(t, self.tz))
                .unwrap_or_else(|| "never".into());
            if h.ok {
                l.push(format!(
                    "  ok    {}: {} new item(s) since the console started; last ok {last_ok}",
                    h.name, h.items
                ));
            } else {
                l.push(format!(
                    "  FAIL  {}: {} failure(s) in a row; last ok {last_ok}",
                    h.name, h.failures
                ));
                l.push(format!(
                    "        why: {}",
                    h.last_error.as_deref().unwrap_or("(no error text)")
                ));
                if let Some(fix) = login_fix(h) {
                    l.push(format!("        fix: {fix}"));
                } else {
                    l.push(
                        "        it retries by itself; `opsdesk doctor` checks folders and sign-ins"
                            .into(),
                    );
                }
            }
        }
        l.push(String::new());
        l.push("MCP server".into());
        l.push(match (&self.status.mcp_url, &self.status.mcp_error) {
            (Some(url), _) if self.status.clients.is_empty() => {
                format!("  ok    {url} · no client connected")
            }
            (Some(url), _) => format!(
                "  ok    {url} · {} client(s): {}",
                self.status.clients.len(),
                self.status.clients.join(", ")
            ),
            (None, Some(e)) => format!("  FAIL  not running: {e}"),
            (None, None) => "  off   (--no-http)".into(),
        });
        for scope in &self.status.mcp_scopes {
            l.push(format!("  scope {scope}"));
        }
        l.push(String::new());
        l.push("Audit chain".into());
        l.push(match &self.audit.chain {
            None => "  not verified yet".into(),
            Some(c) if c.ok => {
                // Like the Audit pane: what came after the verification is not covered.
                let newest = self.audit.records.front().map_or(0, |r| r.seq);
                let since = newest.saturating_sub(c.records);
                let mut s = format!("  ok    {}", c.text);
                if let Some(at) = c.at {
                    s.push_str(&format!(" (verified {})", fmt_time(at, self.tz)));
                }
                if since > 0 {
                    let v = self
                        .keymap
                        .key_for(Section::Audit, crate::tui::keymap::Act::Verify);
                    s.push_str(&format!(
                        "; {since} newer record(s) not verified yet (`{v}` in Audit, or :verify)"
                    ));
                }
                s
            }
            Some(c) => format!("  FAIL  {}", c.text),
        });
        l.push(String::new());
        l.push("LLM routing (Providers, 4)".into());
        match &self.providers.view {
            None => l.push(format!(
                "  unknown: {}",
                self.providers.error.as_deref().unwrap_or("not loaded yet")
            )),
            Some(v) => {
                let failing = self.failing_providers();
                let is_failing = |name: &str| failing.iter().any(|p| p.name == name);
                for e in &v.entities {
                    match (&e.blocked, e.effective.as_deref()) {
                        (Some(why), _) => l.push(format!("  BLOCKED {}: {why}", e.profile)),
                        (None, Some(p)) if is_failing(p) => l.push(format!(
                            "  FAIL  {} → {p}: its calls fail (below); other enabled providers are tried next",
                            e.profile
                        )),
                        (None, p) => l.push(format!(
                            "  ok    {} → {}",
                            e.profile,
                            p.unwrap_or("none")
                        )),
                    }
                }
                for p in failing {
                    l.push(format!(
                        "  FAIL  provider {}: {}",
                        p.name,
                        health_words(crate::tui::panes::providers::health(p))
                    ));
                    l.push(format!("        why: {}", provider_trouble(p)));
                    if let Some(until) = &p.cooldown_until {
                        l.push(format!(
                            "        skipped until {}; then it is tried again",
                            until_text(until, self.now, self.tz)
                        ));
                    }
                    if let Some(var) = &p.missing_credential {
                        l.push(format!(
                            "        fix: set {var} in the environment opsdesk starts in, then restart it (or disable {} in Providers, 4)",
                            p.name
                        ));
                    } else {
                        l.push(
                            "        fix: check its credential and model (`opsdesk doctor`), or disable it in Providers (4)"
                                .into(),
                        );
                    }
                }
            }
        }
        l
    }
}

/// The Providers pane's one-word HEALTH, in words for the health view.
fn health_words(word: &str) -> &str {
    match word {
        "cool" => "cooling down after repeated failures (jobs skip it for now)",
        "no key" => "no credential",
        "failing" => "its calls fail",
        other => other,
    }
}

/// A cooldown's end as the console shows it (`crate::clock::until_text`).
pub(in crate::tui) use crate::clock::until_text;

/// The `opsdesk login <profile>` command named in a source's error, when its sign-in is gone.
pub(in crate::tui) fn login_fix(h: &SourceHealth) -> Option<&str> {
    let err = h.last_error.as_deref()?;
    let start = err.find("`opsdesk login ")? + 1;
    let len = err[start..].find('`')?;
    Some(&err[start..start + len])
}

#[cfg(test)]
mod login_fix_tests {
    use super::*;

    #[test]
    fn a_lost_sign_in_names_its_fix() {
        let mut h = SourceHealth {
            name: "graph_mail:work".into(),
            ok: false,
            failures: 2,
            last_error: Some(
                "login required for profile `work` (not signed in); run `opsdesk login work`"
                    .into(),
            ),
            last_ok: None,
            items: 0,
        };
        assert_eq!(login_fix(&h), Some("opsdesk login work"));
        h.last_error = Some("cannot reach Microsoft Graph: timed out".into());
        assert_eq!(login_fix(&h), None);
    }

    #[test]
    fn a_cooldown_end_reads_in_local_time_to_the_second() {
        use time::macros::{datetime, offset};
        let now = datetime!(2026-12-06 18:19:26 UTC);
        let until = "2026-12-06T18:21:31.777614143Z";
        assert_eq!(
            until_text(until, now, offset!(+1)),
            "19:21:31 UTC+01:00 (in 2m 05s)"
        );
        assert_eq!(
            until_text(until, now, time::UtcOffset::UTC),
            "18:21:31 UTC (in 2m 05s)"
        );
        // Another day shows its date; what cannot be read is shown as it came.
        assert_eq!(
            until_text(until, now - time::Duration::days(1), time::UtcOffset::UTC),
            "2026-12-06 18:21:31 UTC (in 24h 02m)"
        );
        assert_eq!(until_text("soon", now, time::UtcOffset::UTC), "soon");
    }

    #[test]
    fn a_cooling_provider_says_what_cool_means_and_until_when_in_local_time() {
        use time::macros::{datetime, offset};
        let config = crate::config::Config::demo();
        let mut v = crate::engine::providers::view(&config, &config.llm);
        let local = v.providers.iter_mut().find(|p| p.name == "local").unwrap();
        local.enabled = true;
        local.cooldown_until = Some("2026-12-06T18:21:31.777614143Z".into());
        local.last_error = Some("connection refused".into());
        let mut app = App::new(
            crate::tui::theme::Theme::built_in("dark", true).unwrap(),
            crate::tui::keymap::Keymap::defaults(),
            vec!["work".into()],
            (100, 30),
        );
        app.now = datetime!(2026-12-06 18:19:26 UTC);
        app.tz = offset!(+1);
        app.update(crate::tui::app::Msg::Providers(Ok(v)));
        let text = app.health_lines().join("\n");
        assert!(
            text.contains(
                "FAIL  provider local: cooling down after repeated failures (jobs skip it for now)"
            ),
            "{text}"
        );
        assert!(!text.contains(": cool\n"), "{text}");
        assert!(text.contains("why: connection refused"), "{text}");
        assert!(
            text.contains("skipped until 19:21:31 UTC+01:00 (in 2m 05s); then it is tried again"),
            "{text}"
        );
    }
}
