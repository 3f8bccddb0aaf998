//! The `:` command line: `:inbox`, `:verify`, `:theme NAME`, `:route JOB PROVIDER`…

use super::app::{App, Pane};
use super::msg::{Effect, Level, Req};
use super::overlay::Overlay;

impl App {
    /// `:route JOB PROVIDER` (or `:route JOB clear`): route one assistant job to a provider
    /// at run time, as `opsdesk providers set-job` does, after a confirmation that says what
    /// it means for the HIPAA entities (they still reach only cleared providers).
    pub(in crate::tui) fn route_job(&mut self, arg: &str) {
        let mut words = arg.split_whitespace();
        let (Some(job), Some(target), None) = (words.next(), words.next(), words.next()) else {
            self.say(
                Level::Error,
                "usage: :route JOB PROVIDER, or :route JOB clear (jobs: triage, deadlines, draft, brief, filing, intent)",
            );
            return;
        };
        let Some(view) = &self.providers.view else {
            self.say(
                Level::Error,
                "the providers are not loaded yet; try again in a moment",
            );
            return;
        };
        let job = job.to_string();
        let (name, lines) = if target == "clear" {
            (
                None,
                vec![
                    format!("Job {job} loses its run-time route:"),
                    "the config's [llm.jobs], else each entity's and the default provider, apply again."
                        .to_string(),
                ],
            )
        } else {
            let Some(p) = view.providers.iter().find(|p| p.name == target) else {
                let known: Vec<&str> = view.providers.iter().map(|p| p.name.as_str()).collect();
                self.say(
                    Level::Error,
                    format!("no provider `{target}`; providers: {}", known.join(", ")),
                );
                return;
            };
            let mut lines = vec![format!(
                "Job {job} goes to {} ({} {}) for every entity it may serve.",
                p.name, p.kind, p.model
            )];
            if !p.enabled {
                lines.push(format!(
                    "{} is disabled: enable it first (e) or the change is refused.",
                    p.name
                ));
            }
            let hipaa: Vec<&str> = view
                .entities
                .iter()
                .filter(|e| e.requires_hipaa)
                .map(|e| e.profile.as_str())
                .collect();
            if !p.hipaa_cleared && !hipaa.is_empty() {
                lines.push(String::new());
                lines.push(format!(
                    "{} is not HIPAA-cleared: job {job} of {} still goes only to a cleared provider, or is blocked.",
                    p.name,
                    hipaa.join(", ")
                ));
            }
            (Some(p.name.clone()), lines)
        };
        let mut lines = lines;
        lines.push(String::new());
        lines.push("Saved to providers.json and audited. y = route · anything else cancels".into());
        let label = match &name {
            Some(n) => format!("job {job} now goes to {n}"),
            None => format!("job {job} has no run-time route any more"),
        };
        self.overlay = Some(Overlay::Confirm {
            title: format!("Route job {job}?"),
            lines,
            then: Req::Submit {
                action: crate::domain::Action::SetJobProvider { job, name },
                label,
            },
        });
    }
    pub(in crate::tui) fn command(&mut self, cmd: &str, fx: &mut Vec<Effect>) {
        use crate::tui::keymap::Act;
        let mut parts = cmd.split_whitespace();
        let head = parts.next().unwrap_or("");
        let arg = parts.collect::<Vec<_>>().join(" ");
        match head {
            "" => {}
            "q" | "quit" | "exit" => self.quit = true,
            "inbox" | "1" => self.switch(Pane::Inbox, fx),
            "brief" | "2" => self.switch(Pane::Brief, fx),
            "drafts" | "3" => self.switch(Pane::Drafts, fx),
            "providers" | "4" => self.switch(Pane::Providers, fx),
            "audit" | "5" => self.switch(Pane::Audit, fx),
            "deals" | "6" => self.switch(Pane::Deals, fx),
            "verify" => self.act(Act::Verify, fx),
            "refresh" | "reload" => self.act(Act::Refresh, fx),
            "help" => self.act(Act::Help, fx),
            "messages" | "log" => self.act(Act::Messages, fx),
            "health" | "sources" => self.act(Act::Health, fx),
            "mouse" => self.act(Act::Mouse, fx),
            "route" => self.route_job(&arg),
            "theme" => match crate::tui::theme::Theme::built_in(&arg, self.theme.no_color) {
                Some(t) => {
                    self.theme = t.fit_to(self.theme.depth);
                    self.say(Level::Info, format!("theme {arg}"));
                }
                None => self.say(
                    Level::Error,
                    format!(
                        "no built-in theme `{arg}` (dark, light, high-contrast; others: --theme)"
                    ),
                ),
            },
            other => self.say(
                Level::Error,
                format!("unknown command `{other}` (try :help)"),
            ),
        }
    }
}
