//! Providers: switches per LLM provider and each entity's routing, with the reason when an
//! entity would be blocked. HEALTH comes from the router of this process (`ok` once a
//! provider answered, `cool` while it cools down after repeated failures, `no key` when its
//! credential's variable is unset, `failing` after failed calls, "—" before any call); a usage line lists tokens per provider once there are any. Latency is not measured
//! yet and shows "—": no invented numbers.
//!
//! Below the entities, the tool vault: every tool with its tier, timeout, network (as it runs
//! on this machine) and how its last recent call ended, and every broken folder with why.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{block, fit, header, row, sub_block};
use crate::assistant::JobKind;
use crate::domain::Action;
use crate::engine::providers::ProvidersView;
use crate::tui::app::App;
use crate::tui::msg::{Effect, Level, Req};
use crate::tui::overlay::Overlay;

fn yn(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Tokens per provider used by this process's router, if any.
fn usage_line(app: &App, view: &crate::engine::providers::ProvidersView) -> Option<String> {
    let parts: Vec<String> = view
        .providers
        .iter()
        .filter_map(|r| {
            let u = r.usage?;
            let mut s = format!("{} {}+{} tok", r.name, u.prompt_tokens, u.completion_tokens);
            if let Some(until) = &r.cooldown_until {
                s.push_str(&format!(
                    " (cooling down until {})",
                    crate::tui::health::until_text(until, app.now, app.tz)
                ));
            }
            Some(s)
        })
        .collect();
    (!parts.is_empty()).then(|| format!("  usage: {}", parts.join(" · ")))
}

/// The router's view of a provider in this process (also what the status bar and the
/// health view count as failing).
pub fn health(r: &crate::engine::providers::ProviderRow) -> &'static str {
    if r.cooldown_until.is_some() {
        "cool"
    } else if r.calls.is_some_and(|c| c > 0) {
        "ok"
    } else if r.missing_credential.is_some() {
        // Every call would fail before sending: known without trying.
        "no key"
    } else if r.last_error.is_some() {
        "failing"
    } else {
        "—"
    }
}

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let p = &app.providers;
    let Some(view) = &p.view else {
        let msg = p.error.clone().unwrap_or_else(|| "loading…".into());
        f.render_widget(
            Paragraph::new(Line::from(Span::styled(format!("  {msg}"), t.error)))
                .wrap(Wrap { trim: false })
                .block(block(t, " Providers ".into())),
            area,
        );
        return;
    };
    let usage = usage_line(app, view);
    let top_h = (view.providers.len() as u16 + 3 + u16::from(usage.is_some()))
        .min(area.height / 2)
        .max(3);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(area);
    let width = top.width.saturating_sub(4) as usize;
    let mut lines = vec![header(
        t,
        fit(
            &format!(
                "{:<12} {:<13} {:<16} {:<8} {:<8} {:<6} {:<7} {:<8}",
                "NAME", "KIND", "MODEL", "ENABLED", "DEFAULT", "HIPAA", "HEALTH", "LATENCY"
            ),
            width,
        ),
    )];
    for (i, r) in view.providers.iter().enumerate() {
        let text = format!(
            "{} {} {} {} {} {} {:<7} {:<8}",
            fit(&r.name, 12),
            fit(&r.kind, 13),
            fit(&r.model, 16),
            fit(yn(r.enabled), 8),
            fit(if r.is_default { "★ yes" } else { "" }, 8),
            fit(yn(r.hipaa_cleared), 6),
            health(r),
            "—"
        );
        let style = if r.enabled { t.text } else { t.muted };
        lines.push(row(t, i == p.sel, fit(&text, width), style));
    }
    if let Some(u) = usage {
        lines.push(Line::from(Span::styled(fit(&u, width), t.muted)));
    }
    if let Some(e) = &p.error {
        lines.push(Line::from(Span::styled(format!("  {e}"), t.error)));
    }
    f.render_widget(
        Paragraph::new(lines).block(block(
            t,
            format!(
                " Providers · default {} · changes saved to providers.json and audited ",
                view.default.as_deref().unwrap_or("none")
            ),
        )),
        top,
    );

    let width = bottom.width.saturating_sub(4) as usize;
    let mut lines = vec![header(
        t,
        fit(
            &format!(
                "{:<10} {:<10} {:<6} {:<10} {}",
                "ENTITY", "OVERRIDE", "HIPAA", "EFFECTIVE", "STATUS"
            ),
            width,
        ),
    )];
    for e in &view.entities {
        let (status, style) = match (&e.blocked, &e.note) {
            (Some(b), _) => (format!("BLOCKED: {b}"), t.error),
            (None, Some(n)) => (format!("ok ({n})"), t.warn),
            (None, None) => ("ok".to_string(), t.ok),
        };
        let text = format!(
            "{} {} {} {} {}",
            fit(&e.profile, 10),
            fit(e.override_provider.as_deref().unwrap_or("—"), 10),
            fit(if e.requires_hipaa { "req." } else { "" }, 6),
            fit(e.effective.as_deref().unwrap_or("none"), 10),
            status
        );
        lines.push(Line::from(Span::styled(format!("  {text}"), style)));
    }
    // Per job: its override and where each entity's calls go (the HIPAA consequence).
    lines.push(Line::from(""));
    lines.push(header(
        t,
        fit(
            &format!(
                "{:<10} {:<10} {:<9} {}",
                "JOB", "OVERRIDE", "SET BY", "ROUTES (entity → provider)"
            ),
            width,
        ),
    ));
    for j in &view.job_routes {
        let blocked = j.entities.iter().any(|e| e.blocked);
        let routes: Vec<String> = j
            .entities
            .iter()
            // Why an entity is blocked is in the entity table above; a job row says so short.
            .map(|e| match (&e.provider, &e.note) {
                (None, _) => format!("{} BLOCKED", e.profile),
                (Some(p), Some(n)) if j.provider.is_some() => {
                    format!("{} → {p} ({n})", e.profile)
                }
                (Some(p), _) => format!("{} → {p}", e.profile),
            })
            .collect();
        let text = format!(
            "{} {} {} {}",
            fit(&j.job, 10),
            fit(j.provider.as_deref().unwrap_or("—"), 10),
            fit(j.set_by.as_deref().unwrap_or(""), 9),
            routes.join(" · ")
        );
        let style = if blocked { t.error } else { t.text };
        lines.push(Line::from(Span::styled(format!("  {text}"), style)));
    }
    if !view.budgets.is_empty() {
        lines.push(Line::from(""));
        lines.push(header(
            t,
            fit(
                &format!(
                    "{:<20} {:<8} {:<7} {:<22} {}",
                    "BUDGET", "PERIOD", "UNIT", "USED / LIMIT", "RESETS"
                ),
                width,
            ),
        ));
        for b in &view.budgets {
            let text = format!(
                "{} {} {} {} {}{}",
                fit(&format!("{} {}", b.scope, b.name), 20),
                fit(&b.period, 8),
                fit(&b.unit, 7),
                fit(&format!("{} / {}", b.used, b.limit), 22),
                b.resets_at,
                if b.exhausted {
                    "  EXHAUSTED: calls blocked"
                } else {
                    ""
                }
            );
            let style = if b.exhausted { t.error } else { t.ok };
            lines.push(Line::from(Span::styled(format!("  {text}"), style)));
        }
    }
    // The vault's section takes what its rows need (at most half), the entities the rest.
    let (bottom, vault_area) = match &p.vault {
        None => (bottom, None),
        Some(v) => {
            let rows = match v {
                Ok(v) => v.tools.len().max(1) + v.broken.len() + 2,
                Err(_) => 1,
            };
            let h = (rows as u16 + 2).min(bottom.height / 2).max(3);
            let [a, b] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(h)]).areas(bottom);
            (a, Some(b))
        }
    };
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(
                t,
                " Entities and jobs (routing; `:route JOB PROVIDER` overrides a job) ".into(),
            )),
        bottom,
    );
    if let (Some(area), Some(v)) = (vault_area, &p.vault) {
        vault(app, v, f, area);
    }
}

/// A vault tool's health: how its last call (in the recent audit trail) ended.
fn tool_health(r: &crate::vault::VaultToolRow) -> (String, bool) {
    if let Some(why) = &r.refused {
        return (
            format!("not run here: {}", crate::sanitize::one_line(why, 200)),
            false,
        );
    }
    match &r.last_call {
        None => ("— (no recent call)".into(), true),
        Some(c) if c.outcome == "ok" => (
            format!(
                "ok{}",
                c.duration_ms
                    .map(|d| format!(" ({d} ms)"))
                    .unwrap_or_default()
            ),
            true,
        ),
        Some(c) => (
            format!(
                "{}: {}",
                c.outcome,
                crate::sanitize::one_line(c.reason.as_deref().unwrap_or("no reason recorded"), 200)
            ),
            false,
        ),
    }
}

/// The tool vault: each tool (tier, timeout, network, last call) and each broken folder.
fn vault(app: &App, v: &Result<crate::vault::VaultView, String>, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let width = area.width.saturating_sub(4) as usize;
    let v = match v {
        Ok(v) => v,
        Err(e) => {
            f.render_widget(
                Paragraph::new(Line::from(Span::styled(
                    format!("  cannot read the vault: {e}"),
                    t.error,
                )))
                .block(sub_block(t, " Vault tools ".into())),
                area,
            );
            return;
        }
    };
    let mut lines = vec![Line::from(Span::styled(
        format!("  {}", fit(&v.sandbox, width)),
        if v.sandbox_complete { t.muted } else { t.warn },
    ))];
    lines.push(header(
        t,
        fit(
            &format!(
                "{:<24} {:<10} {:<7} {:<12} {:<4} {}",
                "TOOL", "TIER", "TIMEOUT", "NETWORK", "PHI", "LAST CALL"
            ),
            width,
        ),
    ));
    for r in &v.tools {
        let (health, good) = tool_health(r);
        let when = r
            .last_call
            .as_ref()
            .map(|c| format!("{} ", crate::tui::text::fmt_time(c.at, app.tz)))
            .unwrap_or_default();
        let text = format!(
            "{} {} {} {} {} {when}{health}",
            fit(&r.name, 24),
            fit(r.tier, 10),
            fit(&format!("{}s", r.timeout_secs), 7),
            fit(r.network, 12),
            fit(if r.may_see_phi { "yes" } else { "no" }, 4),
        );
        let style = if !good {
            t.error
        } else if r.network == "not isolated" {
            t.warn
        } else {
            t.text
        };
        lines.push(Line::from(Span::styled(
            format!("  {}", fit(&text, width)),
            style,
        )));
    }
    if v.tools.is_empty() && v.broken.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("  (no tools in {})", v.dir),
            t.muted,
        )));
    }
    for b in &v.broken {
        lines.push(Line::from(Span::styled(
            format!(
                "  {}",
                fit(
                    &format!(
                        "BROKEN {}: {}",
                        crate::sanitize::one_line(&b.folder, 40),
                        crate::sanitize::one_line(&b.error, 300)
                    ),
                    width
                )
            ),
            t.error,
        )));
    }
    let ok = v.tools.len();
    let title = if v.broken.is_empty() {
        format!(" Vault tools · {ok} served from {} ", v.dir)
    } else {
        format!(
            " Vault tools · {ok} served, {} broken (opsdesk tools check) ",
            v.broken.len()
        )
    };
    f.render_widget(Paragraph::new(lines).block(sub_block(t, title)), area);
}

#[derive(Debug, Clone, Default)]
pub struct ProvidersPane {
    pub view: Option<ProvidersView>,
    pub error: Option<String>,
    pub sel: usize,
    /// The tool vault's section of the pane (what the assistant and MCP clients can use);
    /// `None` until the data task has read it.
    pub vault: Option<Result<crate::vault::VaultView, String>>,
}

impl App {
    pub fn default_provider(&self) -> Option<&str> {
        self.providers.view.as_ref()?.default.as_deref()
    }
    /// Enabled providers whose calls in this process failed and none answered (or that cool
    /// down): the Providers pane's HEALTH `failing` / `cool`.
    pub fn failing_providers(&self) -> Vec<&crate::engine::providers::ProviderRow> {
        self.providers.view.as_ref().map_or_else(Vec::new, |v| {
            v.providers
                .iter()
                .filter(|p| {
                    p.enabled
                        && matches!(
                            crate::tui::panes::providers::health(p),
                            "failing" | "cool" | "no key"
                        )
                })
                .collect()
        })
    }
    /// Before an assistant job: `Err` (say it, send nothing) when no enabled provider can
    /// answer and the job needs one; else a remark when the item's own provider is known to
    /// fail before sending (the job still runs: other providers, or rules, may do it).
    pub fn llm_precheck(&self, job: JobKind, profile: &str) -> Result<Option<String>, String> {
        let Some(v) = &self.providers.view else {
            return Ok(None);
        };
        let bad = self.failing_providers();
        let enabled = v.providers.iter().filter(|p| p.enabled).count();
        let why: Vec<String> = bad
            .iter()
            .map(|p| format!("{}: {}", p.name, provider_trouble(p)))
            .collect();
        let health = self
            .keymap
            .key_for(self.pane.section(), crate::tui::keymap::Act::Health);
        // Only a reply draft needs the model; triage and deadlines start with rules.
        if job == JobKind::Draft && enabled > 0 && bad.len() == enabled {
            return Err(format!(
                "no working LLM provider, so no draft was asked for (nothing was sent): {} — {health} shows how to fix it",
                why.join("; ")
            ));
        }
        let own = v
            .entities
            .iter()
            .find(|e| e.profile == profile)
            .and_then(|e| e.effective.as_deref())
            .and_then(|name| bad.iter().find(|p| p.name == name));
        Ok(own.map(|p| {
            format!(
                "{} ({profile}'s provider) will fail: {}; the other enabled providers are tried",
                p.name,
                provider_trouble(p)
            )
        }))
    }
    /// Entities whose LLM work is blocked by the provider switches (from the Providers view).
    pub fn blocked_entities(&self) -> Vec<&str> {
        self.providers.view.as_ref().map_or_else(Vec::new, |v| {
            v.entities
                .iter()
                .filter(|e| e.blocked.is_some())
                .map(|e| e.profile.as_str())
                .collect()
        })
    }
    /// The answer to a provider switch: submit it, or ask first when it blocks an entity.
    pub(in crate::tui) fn on_toggle_impact(
        &mut self,
        name: String,
        enabled: bool,
        blocks: Result<Vec<String>, String>,
        fx: &mut Vec<Effect>,
    ) {
        match blocks {
            Err(e) => self.say(Level::Error, format!("provider {name}: {e}")),
            Ok(b) if b.is_empty() => fx.push(Effect::Req(toggle_submit(name, enabled))),
            Ok(b) => {
                let mut lines = vec![format!(
                    "Disabling {name} leaves {} without a usable provider:",
                    if b.len() == 1 {
                        "this entity"
                    } else {
                        "these entities"
                    }
                )];
                lines.push(String::new());
                lines.extend(b.iter().map(|x| format!("  {x}")));
                lines.push(String::new());
                lines.push(
                    "Their LLM work (briefs polish, drafts, triage) is refused until a cleared provider is on."
                        .into(),
                );
                lines.push(String::new());
                lines.push(format!(
                    "Disable {name} anyway? y = disable · anything else cancels"
                ));
                let Req::Submit { action, label } = toggle_submit(name.clone(), enabled) else {
                    return;
                };
                self.overlay = Some(Overlay::Confirm {
                    title: format!("Disable provider {name}?"),
                    lines,
                    then: Req::Submit { action, label },
                });
            }
        }
    }
    pub(in crate::tui) fn selected_provider(
        &self,
    ) -> Option<&crate::engine::providers::ProviderRow> {
        self.providers
            .view
            .as_ref()?
            .providers
            .get(self.providers.sel)
    }
}

/// Why a provider fails, in words: its missing credential (known without a call), else its
/// last error.
pub(in crate::tui) fn provider_trouble(p: &crate::engine::providers::ProviderRow) -> String {
    match (&p.missing_credential, &p.last_error) {
        (Some(var), _) => format!("its credential is missing: set the environment variable {var}"),
        (None, Some(e)) => e.clone(),
        (None, None) => "cooling down after repeated failures".into(),
    }
}

impl App {
    /// Enabling is harmless; disabling asks the data task first what it would block, and the
    /// answer (`Msg::ToggleImpact`) either submits or asks to confirm.
    pub(in crate::tui) fn toggle_enabled(&mut self, fx: &mut Vec<Effect>) {
        let Some(p) = self.selected_provider() else {
            return;
        };
        let (name, enabled) = (p.name.clone(), !p.enabled);
        if enabled {
            fx.push(Effect::Req(toggle_submit(name, enabled)));
        } else {
            fx.push(Effect::Req(Req::ToggleImpact { name, enabled }));
        }
    }
    pub(in crate::tui) fn set_default(&mut self, fx: &mut Vec<Effect>) {
        if let Some(p) = self.selected_provider() {
            let name = p.name.clone();
            // The engine refuses a disabled default; say what to do before asking it.
            if !p.enabled {
                let key = self.keymap.key_for(
                    crate::tui::keymap::Section::Providers,
                    crate::tui::keymap::Act::ToggleEnabled,
                );
                self.say(
                    Level::Warn,
                    format!(
                        "cannot make {name} the default: it is disabled (toggle it on first: {key})"
                    ),
                );
                return;
            }
            fx.push(Effect::Req(Req::Submit {
                label: format!("default provider is now {name}"),
                action: Action::SetDefaultProvider { name },
            }));
        }
    }
}

/// The provider switch as an action for the data task.
pub fn toggle_submit(name: String, enabled: bool) -> Req {
    let label = format!(
        "provider {name} {}",
        if enabled { "enabled" } else { "disabled" }
    );
    Req::Submit {
        action: Action::SetProviderEnabled { name, enabled },
        label,
    }
}
