//! `opsdesk login <profile>` (device-code sign-in to Microsoft Graph) and `opsdesk logout`.
//! The code to enter goes to stderr (stdout stays clean for `--json`); the refresh token goes
//! to the OS keyring or `<data dir>/tokens/<profile>.json` (0600; see `graph::auth`), never to
//! the screen, logs or audit.

use crate::cli::output::outln;
use clap::Args;
use serde_json::json;

use super::{CmdResult, Context, Failure};
use crate::config::{Config, GraphProfile};
use crate::domain::{Actor, AuditEvent, AuditOutcome};
use crate::sources::graph::auth::{
    self, DeviceError, TokenLocation, device_code_poll, device_code_start, save_login, scopes_for,
};

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// The profile whose Microsoft 365 account to sign in (its [profiles.<name>.graph]).
    pub profile: String,
}

#[derive(Debug, Args)]
pub struct LogoutArgs {
    /// The profile whose stored sign-in to forget.
    pub profile: String,
}

fn graph_of<'a>(config: &'a Config, profile: &str) -> Result<&'a GraphProfile, Failure> {
    let p = config.profiles.get(profile).ok_or_else(|| {
        Failure::usage(format!(
            "unknown profile `{profile}`; configured profiles: {}",
            config
                .profiles
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    p.graph.as_ref().ok_or_else(|| {
        Failure::usage(format!(
            "profile `{profile}` has no Microsoft Graph account: add [profiles.{profile}.graph] with `client_id` (and `tenant`) to the config"
        ))
    })
}

fn audit(ctx: &Context, event: &str, profile: &str, outcome: AuditOutcome, reason: &str) {
    match ctx.engine() {
        Ok(engine) => {
            let ev = AuditEvent::new(event, Actor::Cli, outcome)
                .entity(profile)
                .reason(reason);
            if let Err(e) = engine.audit(ev) {
                eprintln!("opsdesk: warning: {e}");
            }
        }
        Err(e) => eprintln!("opsdesk: warning: not audited: {}", e.message),
    }
}

pub fn run_login(ctx: &Context, args: LoginArgs) -> CmdResult {
    let config = ctx.config()?;
    let graph = graph_of(&config, &args.profile)?.clone();
    let scopes = scopes_for(&config.profiles[&args.profile]);
    ctx.paths.ensure()?;
    let store =
        auth::store_in(&ctx.paths.data_dir).map_err(|e| Failure::usage(format!("{e:#}")))?;
    // Say so before the operator goes through the sign-in, not after.
    if store.policy() == auth::TokenPolicy::Keyring
        && let Err(e) = crate::sources::graph::keyring::probe()
    {
        return Err(Failure::failed(format!(
            "{}=keyring, but the OS keyring cannot take the token: {e}",
            auth::TokenPolicy::ENV
        )));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(format!("cannot start the runtime: {e}")))?;
    let http = crate::sources::graph::client::http_client();
    let json_out = ctx.global.json;
    let result = rt.block_on(async {
        let dc = device_code_start(&http, &graph, &scopes).await?;
        let msg = dc.message.clone().unwrap_or_else(|| {
            format!(
                "To sign in, open {} and enter the code {}",
                dc.verification_uri, dc.user_code
            )
        });
        eprintln!("{}", crate::sanitize::for_terminal(&msg));
        if json_out {
            outln!(
                "{}",
                json!({"event": "device_code", "profile": args.profile, "user_code": dc.user_code, "verification_uri": dc.verification_uri, "expires_in": dc.expires_in})
            );
        }
        device_code_poll(&http, &graph, &dc, tokio::time::sleep).await
    });
    match result {
        Ok(grant) => {
            let (location, fallback) = save_login(&store, &args.profile, &graph, &scopes, &grant)
                .map_err(|e| Failure::failed(format!("{e:#}")))?;
            let (kind, file) = match &location {
                TokenLocation::Keyring => ("keyring", None),
                TokenLocation::File(p) => ("file", Some(p.clone())),
            };
            audit(
                ctx,
                "login",
                &args.profile,
                AuditOutcome::Ok,
                &format!("device code; token store: {kind}"),
            );
            ctx.printer().emit(
                &json!({"event": "signed_in", "profile": args.profile, "token_store": kind, "token_file": file, "note": fallback, "scopes": scopes}),
                |l| {
                    l.push(format!(
                        "signed in: profile {} (refresh token kept in {location})",
                        args.profile
                    ));
                    if let Some(why) = &fallback {
                        l.push(format!("  note: {why}"));
                    }
                },
            );
            Ok(())
        }
        Err(e) => {
            let reason = e.to_string();
            audit(ctx, "login", &args.profile, AuditOutcome::Error, &reason);
            Err(match e {
                DeviceError::Declined | DeviceError::Expired => Failure::refused(format!(
                    "{reason}; run `opsdesk login {}` to try again",
                    args.profile
                )),
                _ => Failure::failed(reason),
            })
        }
    }
}

pub fn run_logout(ctx: &Context, args: LogoutArgs) -> CmdResult {
    let config = ctx.config()?;
    graph_of(&config, &args.profile)?;
    let store =
        auth::store_in(&ctx.paths.data_dir).map_err(|e| Failure::usage(format!("{e:#}")))?;
    let had = store
        .delete(&args.profile)
        .map_err(|e| Failure::failed(format!("{e:#}")))?;
    audit(
        ctx,
        "logout",
        &args.profile,
        AuditOutcome::Ok,
        if had {
            "token removed"
        } else {
            "no token stored"
        },
    );
    ctx.printer().emit(
        &json!({"profile": args.profile, "removed": had}),
        |l| {
            l.push(if had {
                format!(
                    "signed out: profile {} (a running engine stops polling it at its next refresh)",
                    args.profile
                )
            } else {
                format!("profile {} had no stored sign-in", args.profile)
            });
        },
    );
    Ok(())
}
