//! Providers: switches per LLM provider and each entity's routing, with the reason when an
//! entity would be blocked. HEALTH comes from the router of this process (`ok` once a
//! provider answered, `cool` while it cools down after repeated failures, "—" before any
//! call); a usage line lists tokens per provider once there are any. Latency is not measured
//! yet and shows "—": no invented numbers.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{block, fit, header, row, sub_block};
use crate::tui::app::App;

fn yn(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Tokens per provider used by this process's router, if any.
fn usage_line(view: &crate::engine::providers::ProvidersView) -> Option<String> {
    let parts: Vec<String> = view
        .providers
        .iter()
        .filter_map(|r| {
            let u = r.usage?;
            let mut s = format!("{} {}+{} tok", r.name, u.prompt_tokens, u.completion_tokens);
            if let Some(until) = &r.cooldown_until {
                s.push_str(&format!(" (cooling down until {until})"));
            }
            Some(s)
        })
        .collect();
    (!parts.is_empty()).then(|| format!("  usage: {}", parts.join(" · ")))
}

/// The router's view of a provider in this process.
fn health(r: &crate::engine::providers::ProviderRow) -> &'static str {
    if r.cooldown_until.is_some() {
        "cool"
    } else if r.calls.is_some_and(|c| c > 0) {
        "ok"
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
    let usage = usage_line(view);
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
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(
                t,
                " Entities and jobs (routing; `opsdesk providers set-job` overrides a job) ".into(),
            )),
        bottom,
    );
}
