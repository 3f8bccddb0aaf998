//! `opsdesk providers list|enable|disable|set-default|set-job`: the operator's LLM provider switches.
//! Changes are `Action`s through `Engine::submit` (audited before `providers.json` is written
//! atomically), exactly like the console's toggles; a running engine sees them on its next
//! LLM call.

use clap::Subcommand;

use super::{CmdResult, Context, Failure};
use crate::domain::{Action, Actor, Outcome};
use crate::engine::providers::ProvidersView;

#[derive(Debug, Subcommand)]
pub enum ProvidersCmd {
    /// The providers with their switches, and each entity's routing (and why it is blocked).
    List,
    /// Turn a provider on.
    Enable {
        /// The provider's name (`opsdesk providers list`).
        name: String,
    },
    /// Turn a provider off (entities that need it fall back or are blocked). Asks first when
    /// it would leave an entity without a usable provider.
    Disable {
        /// The provider's name (`opsdesk providers list`).
        name: String,
        /// Do not ask, even if an entity would be blocked (required without a terminal).
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Make an (enabled) provider the default.
    SetDefault {
        /// The provider's name (`opsdesk providers list`).
        name: String,
    },
    /// Route one job (triage, deadlines, draft, brief, filing) to an (enabled) provider, or with
    /// --clear drop that run-time route. HIPAA entities still only reach cleared providers.
    SetJob {
        /// triage, deadlines, draft or brief.
        job: String,
        /// The provider's name (`opsdesk providers list`).
        #[arg(required_unless_present = "clear", conflicts_with = "clear")]
        name: Option<String>,
        #[arg(long)]
        clear: bool,
    },
}

pub fn run(ctx: &Context, cmd: ProvidersCmd) -> CmdResult {
    let out = ctx.printer();
    let engine = ctx.engine()?;
    let (action, verb) = match cmd {
        ProvidersCmd::List => {
            let view = engine.providers_view()?;
            out.emit(&view, |l| describe(&view, l));
            return Ok(());
        }
        ProvidersCmd::Enable { name } => (
            Action::SetProviderEnabled {
                name: name.clone(),
                enabled: true,
            },
            format!("enabled provider `{name}`"),
        ),
        ProvidersCmd::Disable { name, yes } => {
            let blocks = crate::engine::providers::newly_blocked(
                engine.config(),
                &engine.effective_llm()?,
                &name,
                false,
            );
            if !blocks.is_empty() && !yes {
                let mut lines = vec![format!(
                    "Disabling `{name}` leaves {} without a usable provider:",
                    if blocks.len() == 1 {
                        "this entity"
                    } else {
                        "these entities"
                    }
                )];
                lines.extend(blocks.iter().map(|b| format!("  {b}")));
                lines.push(
                    "Their LLM work (brief polish, drafts, triage) is refused until a cleared provider is on."
                        .into(),
                );
                super::output::confirm(
                    &format!("Disable `{name}` anyway?"),
                    &lines,
                    &format!(
                        "disabling `{name}` would block LLM work for {}: pass --yes to do it from a script",
                        blocks
                            .iter()
                            .map(|b| b.split(':').next().unwrap_or(b))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )?;
            }
            (
                Action::SetProviderEnabled {
                    name: name.clone(),
                    enabled: false,
                },
                format!("disabled provider `{name}`"),
            )
        }
        ProvidersCmd::SetDefault { name } => (
            Action::SetDefaultProvider { name: name.clone() },
            format!("default provider is now `{name}`"),
        ),
        ProvidersCmd::SetJob { job, name, .. } => {
            let verb = match &name {
                Some(n) => {
                    let uncleared = !engine
                        .config()
                        .llm
                        .providers
                        .get(n)
                        .is_some_and(|p| p.hipaa_cleared);
                    let hipaa: Vec<&String> = engine
                        .config()
                        .profiles
                        .iter()
                        .filter(|(_, p)| p.requires_hipaa)
                        .map(|(k, _)| k)
                        .collect();
                    if uncleared && !hipaa.is_empty() {
                        eprintln!(
                            "opsdesk: `{n}` is not HIPAA-cleared: job `{job}` of {} still goes only to a cleared provider (or is blocked)",
                            hipaa
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        );
                    }
                    format!("job `{job}` now goes to `{n}`")
                }
                None => format!("job `{job}` has no run-time route any more"),
            };
            (Action::SetJobProvider { job, name }, verb)
        }
    };
    match engine.submit(action, Actor::Cli)? {
        Outcome::Blocked {
            rule,
            reason,
            remedy,
        } => Err(Failure::refused(format!(
            "blocked by {rule}: {reason}; {remedy}"
        ))),
        other => {
            let change = match &other {
                Outcome::Done {
                    detail: crate::domain::Done::Provider { change, .. },
                } => format!(" ({change})"),
                _ => String::new(),
            };
            out.emit(&other, |l| l.push(format!("{verb}{change}")));
            Ok(())
        }
    }
}

fn describe(v: &ProvidersView, l: &mut Vec<String>) {
    l.push(format!(
        "{:<12} {:<13} {:<20} {:<8} {:<8} {:<6} {}",
        "NAME", "KIND", "MODEL", "ENABLED", "DEFAULT", "HIPAA", "USAGE"
    ));
    let yn = |b: bool| if b { "yes" } else { "no" };
    for p in &v.providers {
        let mut usage = match (&p.usage, p.calls) {
            (Some(u), Some(c)) => format!(
                "{c} call(s), {} prompt + {} completion tokens",
                u.prompt_tokens, u.completion_tokens
            ),
            _ => "—".to_string(),
        };
        if let Some(until) = &p.cooldown_until {
            // As the console says it: local time to the second, and how long is left.
            let now = crate::domain::now();
            let text = crate::clock::until_text(until, now, crate::clock::local_offset(now));
            usage.push_str(&format!(
                "; cooling down after repeated failures until {text}"
            ));
        }
        l.push(format!(
            "{:<12} {:<13} {:<20} {:<8} {:<8} {:<6} {}",
            p.name,
            p.kind,
            p.model,
            yn(p.enabled),
            if p.is_default { "yes" } else { "" },
            yn(p.hipaa_cleared),
            usage
        ));
    }
    l.push(String::new());
    l.push(format!(
        "{:<12} {:<10} {:<6} {:<10} {}",
        "ENTITY", "OVERRIDE", "HIPAA", "EFFECTIVE", "STATUS"
    ));
    for e in &v.entities {
        let status = match (&e.blocked, &e.note) {
            (Some(b), _) => format!("BLOCKED: {b}"),
            (None, Some(n)) => format!("ok ({n})"),
            (None, None) => "ok".to_string(),
        };
        l.push(format!(
            "{:<12} {:<10} {:<6} {:<10} {}",
            e.profile,
            e.override_provider.as_deref().unwrap_or("—"),
            if e.requires_hipaa { "req." } else { "" },
            e.effective.as_deref().unwrap_or("none"),
            status
        ));
    }
    l.push(String::new());
    l.push(format!(
        "{:<10} {:<12} {}",
        "JOB", "ROUTE", "HIPAA ENTITIES"
    ));
    for job in crate::assistant::JobKind::ALL {
        let route = v.jobs.get(job.as_str());
        let cleared = route
            .and_then(|r| v.providers.iter().find(|p| &p.name == r))
            .map(|p| p.hipaa_cleared);
        let hipaa: Vec<&str> = v
            .entities
            .iter()
            .filter(|e| e.requires_hipaa)
            .map(|e| e.profile.as_str())
            .collect();
        let consequence = match (route, cleared) {
            (None, _) => "entity / default selection".to_string(),
            (Some(_), Some(false)) if !hipaa.is_empty() => {
                format!(
                    "{}: not cleared, goes to a cleared provider or is blocked",
                    hipaa.join(", ")
                )
            }
            _ => "—".to_string(),
        };
        l.push(format!(
            "{:<10} {:<12} {}",
            job.as_str(),
            route.map(String::as_str).unwrap_or("—"),
            consequence
        ));
    }
    if !v.budgets.is_empty() {
        l.push(String::new());
        l.push(format!(
            "{:<22} {:<8} {:<7} {:<26} {}",
            "BUDGET", "PERIOD", "UNIT", "USED / LIMIT", "RESETS"
        ));
        for b in &v.budgets {
            l.push(format!(
                "{:<22} {:<8} {:<7} {:<26} {}{}",
                format!("{} {}", b.scope, b.name),
                b.period,
                b.unit,
                format!("{} / {}", b.used, b.limit),
                b.resets_at,
                if b.exhausted {
                    "  EXHAUSTED: calls are blocked"
                } else {
                    ""
                }
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::providers::ProviderRow;

    /// `opsdesk providers list` says a cooldown's end as the console does: what it means, in
    /// local time to the second, not the router's raw RFC 3339 stamp.
    #[test]
    fn a_cooling_provider_says_why_and_until_when_in_local_time() {
        let view = ProvidersView {
            providers: vec![ProviderRow {
                name: "local".into(),
                kind: "local".into(),
                model: "m".into(),
                enabled: true,
                is_default: false,
                hipaa_cleared: false,
                usage: None,
                calls: None,
                cooldown_until: Some("2099-01-01T12:00:00.123456789Z".into()),
                last_error: None,
                missing_credential: None,
            }],
            ..ProvidersView::default()
        };
        let mut lines = Vec::new();
        describe(&view, &mut lines);
        let all = lines.join("\n");
        assert!(
            all.contains("cooling down after repeated failures until 2099-01-0"),
            "{all}"
        );
        assert!(!all.contains("T12:00:00"), "{all}");
    }
}
