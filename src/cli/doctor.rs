//! `opsdesk doctor`: the installation checks of `crate::doctor`, printed; exit 1 when one
//! fails.

use clap::Args;
use serde_json::json;

use super::{CmdResult, Context, Failure};

#[derive(Debug, Args, Default)]
pub struct DoctorArgs {}

pub fn run(ctx: &Context, _args: DoctorArgs) -> CmdResult {
    let config = ctx.config().map_err(|f| f.message);
    let mut checks = crate::doctor::checks(&ctx.paths, config.as_ref().map_err(Clone::clone));
    checks.extend(crate::mcp::doctor::checks(&ctx.paths, config.as_ref().ok()));
    let healthy = checks.iter().all(|c| c.ok);
    ctx.printer()
        .emit(&json!({"ok": healthy, "checks": checks}), |l| {
            for c in &checks {
                l.push(format!(
                    "{} {}: {}",
                    match (c.ok, c.warning) {
                        (false, _) => "FIX ",
                        (true, true) => "warn",
                        (true, false) => "ok  ",
                    },
                    c.check,
                    c.detail
                ));
                if let Some(f) = &c.fix {
                    l.push(format!("    fix: {f}"));
                }
            }
        });
    if healthy {
        Ok(())
    } else {
        Err(Failure::failed(format!(
            "{} problem(s) need fixing (see above)",
            checks.iter().filter(|c| !c.ok).count()
        )))
    }
}
