//! `opsdesk watch`: tail the inbox in this terminal and raise desktop notifications.
//! The work is in [`crate::watch`]; this wires it to the command line, stdout and stderr.

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::{CmdResult, Context, Failure};
use crate::domain::Channel;
use crate::engine::reminders::Reminders;
use crate::sanitize::for_terminal;
use crate::store::StoreError;
use crate::store::inbox::Filter;
use crate::watch::{self, DirWatch, End, Follower, Options, Start, Toaster, toast};

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Only messages of this channel (email, teams, calendar, spool).
    #[arg(long)]
    pub channel: Option<Channel>,
    /// Only messages of this profile (entity).
    #[arg(long)]
    pub profile: Option<String>,
    /// Toasts only, print nothing (lines are printed after all if no notification server
    /// answers).
    #[arg(long, conflicts_with = "no_toast")]
    pub quiet: bool,
    /// Print only, raise no desktop notifications.
    #[arg(long)]
    pub no_toast: bool,
    /// On the first run of this consumer, start with the oldest message instead of only new
    /// ones. A consumer that has a cursor always continues from it.
    #[arg(long)]
    pub from_start: bool,
    /// The cursor to read from and move: each consumer sees every message once.
    #[arg(long, default_value = watch::DEFAULT_CONSUMER, value_name = "NAME")]
    pub consumer: String,
}

/// Messages for the operator on stderr, cleaned like everything else that reaches a terminal.
fn notice(s: &str) {
    eprintln!("{}", for_terminal(s));
}

pub fn run(ctx: &Context, args: WatchArgs) -> CmdResult {
    let dir = ctx.paths.inbox_dir();
    if ctx.global.demo && ctx.global.data_dir.is_none() {
        notice(
            "opsdesk watch --demo watches an empty throw-away inbox; to watch the demo, run \
             `opsdesk --demo --keep` (its health view, `!`, shows the data dir, and it is printed \
             on exit) and pass that dir: OPSDESK_DATA_DIR=<dir> opsdesk watch",
        );
    }
    if let Some(p) = &args.profile {
        // Not an error: the inbox may hold profiles the config no longer lists. A warning
        // catches the typo that would otherwise show nothing, forever.
        if let Ok(cfg) = ctx.config()
            && !cfg.profiles.is_empty()
            && !cfg.profiles.contains_key(p)
        {
            let names: Vec<&str> = cfg.profiles.keys().map(String::as_str).collect();
            notice(&format!(
                "opsdesk watch: profile `{p}` is not in the config (profiles: {}); watching for it anyway",
                names.join(", ")
            ));
        }
    }
    let filter = Filter {
        channel: args.channel,
        profile: args.profile.clone(),
        text: None,
    };
    if !dir.is_dir() {
        notice(&format!(
            "opsdesk watch: no inbox at {} yet; waiting for the first message",
            dir.display()
        ));
    }

    // Signals first (so Ctrl-C is ours from the start), then the directory watch, then the
    // first read: a change between the watch and the read is seen by the read.
    let (tx, rx) = std::sync::mpsc::channel();
    watch::stop_on_signals(tx.clone())
        .map_err(|e| Failure::failed(format!("cannot install signal handlers: {e}")))?;
    let (mut follower, start) = Follower::open(&dir, &args.consumer, filter, args.from_start)
        .map_err(|e| match e {
            StoreError::Rejected(m) => Failure::usage(m),
            e => Failure::failed(format!("cannot open the inbox: {e}")),
        })?;
    let mut dir_watch = match DirWatch::start(&dir, tx.clone()) {
        Ok(w) => Some(w),
        Err(e) => {
            notice(&format!(
                "opsdesk watch: cannot watch {} for changes ({e}); checking every second instead",
                dir.display()
            ));
            None
        }
    };

    let from = match start {
        Start::Resumed(c) => format!("after #{c} (where `{}` stopped)", args.consumer),
        Start::AtEnd(c) => format!("after #{c} (new messages only; --from-start for all)"),
        Start::FromStart => "from the first message".to_string(),
    };
    if args.from_start && matches!(start, Start::Resumed(_)) {
        notice(&format!(
            "opsdesk watch: --from-start applies to a new consumer; `{}` already has a cursor \
             (use --consumer NAME for a fresh one)",
            args.consumer
        ));
    }
    notice(&format!(
        "opsdesk watch: following {} {from} (Ctrl-C to stop)",
        dir.display()
    ));

    let toaster = (!args.no_toast).then(|| {
        let icon = toast::install_icon(None);
        Toaster::spawn(
            Box::new(watch::DesktopNotifier::new(icon)),
            Arc::new(notice),
            watch::ToastConfig::default(),
        )
    });

    let opts = Options {
        print: !args.quiet,
        json: ctx.global.json,
        colour: watch::format::colour_enabled(
            std::env::var_os("NO_COLOR").as_deref(),
            io::stdout().is_terminal(),
        ),
        fit_width: io::stdout().is_terminal(),
        hint: true,
        poll_every: watch::FALLBACK_POLL,
        saving: watch::Saving::default(),
    };
    let reminders = reminders(ctx);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (stop_reminders, stopped) = std::sync::mpsc::channel::<()>();
    let result = std::thread::scope(|s| {
        if let Some(r) = reminders {
            let toaster = toaster.as_ref();
            s.spawn(move || remind_loop(r, toaster, &stopped));
        }
        let result = watch::run(
            &mut follower,
            &opts,
            &mut out,
            toaster.as_ref(),
            &rx,
            dir_watch.as_mut(),
            &notice,
        );
        drop(stop_reminders);
        result
    });
    if let Some(t) = toaster {
        // Let a toast that is on its way finish, briefly; never wait on a hung server.
        t.finish(Duration::from_millis(500));
    }
    let stats = result.map_err(|e| Failure::failed(e.to_string()))?;
    if stats.end != End::BrokenPipe {
        notice(&format!(
            "opsdesk watch: stopped; `{}` cursor at #{}",
            args.consumer, stats.cursor
        ));
    }
    Ok(())
}

/// How often `watch` looks for drafts that wait too long (a reminder is due at most once per
/// `[drafts] remind_every_minutes`, so a minute late is no loss).
const REMIND_POLL: Duration = Duration::from_secs(30);

/// What the reminders need, when `[drafts]` turns them on: the engine is opened (beside a
/// running one, no lock) only once a drafts log exists, so watching an empty data dir
/// creates nothing in it.
fn reminders(ctx: &Context) -> Option<(crate::paths::Paths, crate::config::Config, Reminders)> {
    let config = ctx.config().ok()?;
    let rem = Reminders::new(&config.drafts)?;
    Some((ctx.paths.clone(), config, rem))
}

/// Reminders of drafts waiting longer than `[drafts] remind_after_hours`: one line on stderr
/// and one toast naming them all, at most once per `remind_every_minutes`, until `stop` hangs up.
fn remind_loop(
    (paths, config, mut rem): (crate::paths::Paths, crate::config::Config, Reminders),
    toaster: Option<&Toaster>,
    stop: &std::sync::mpsc::Receiver<()>,
) {
    let log = paths.drafts_dir().join("drafts.jsonl");
    let mut engine: Option<crate::engine::Engine> = None;
    let mut problem: Option<String> = None;
    let mut report = |msg: String| {
        if problem.as_deref() != Some(msg.as_str()) {
            notice(&msg);
            problem = Some(msg);
        }
    };
    loop {
        if engine.is_none() && log.exists() {
            match crate::engine::Engine::open(
                paths.clone(),
                config.clone(),
                crate::engine::Mode::Secondary,
            ) {
                Ok(e) => engine = Some(e),
                Err(e) => report(format!(
                    "opsdesk watch: cannot open the drafts queue ({e:#}); no reminders of waiting drafts yet"
                )),
            }
        }
        if let Some(engine) = &engine {
            match engine.draft_queue() {
                Ok(q) => {
                    if let Some(r) = rem.check(&q.drafts, crate::domain::now()) {
                        notice(&format!("opsdesk watch: {}", r.line()));
                        if let Some(t) = toaster {
                            t.remind(&r);
                        }
                    }
                }
                Err(e) => report(format!(
                    "opsdesk watch: cannot read the drafts queue ({e}); retrying"
                )),
            }
        }
        if stop.recv_timeout(REMIND_POLL) != Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            return;
        }
    }
}
