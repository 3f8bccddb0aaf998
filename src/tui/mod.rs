//! The operator's console: a ratatui UI in the foreground over the engine running on a tokio
//! runtime in the background.
//!
//! - `app`: the `App` and `update(Msg) -> Vec<Effect>` (no I/O); `msg`: the messages
//! - `panes/<pane>`: each pane's state, key handlers and drawing; `actions`: the key
//!   dispatch and the keys every pane shares; `command`: the `:` line; `health`: health text
//! - `draw`, `overlay/`: the frame and the overlays (their keys in `overlay/keys`), a pure
//!   function of the state; `text`: times and ages as the console (and the CLI) show them
//! - `event`: terminal input and engine events into one channel of `Msg`
//! - `data`: the background task that owns all reads and writes
//! - `keymap`, `theme`: TOML keymap and themes with built-in defaults
//! - `term`: terminal restore on every exit path

pub(crate) mod actions;
pub mod app;
pub(crate) mod command;
pub mod data;
pub mod draw;
pub(crate) mod event;
pub mod files;
pub(crate) mod health;
pub mod keymap;
pub(crate) mod layout;
pub(crate) mod mouse;
pub(crate) mod msg;
pub(crate) mod overlay;
pub(crate) mod panes;
pub(crate) mod term;
pub(crate) mod text;
pub mod theme;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use app::App;
use data::ClientsFn;
use keymap::Keymap;
use msg::{Effect, Msg, Req};
use theme::Theme;

use crate::domain::Action;
use crate::engine::Engine;

pub use draw::draw;

pub struct Options {
    pub theme: Theme,
    pub keymap: Keymap,
    pub tz: time::UtcOffset,
    pub mcp_url: Option<String>,
    pub mcp_error: Option<String>,
    pub clients: Option<ClientsFn>,
    /// Each MCP client's scope, one line each, for the health view.
    pub mcp_scopes: Vec<String>,
    /// Where stderr goes while the UI owns the terminal.
    pub log_file: Option<PathBuf>,
    /// Shown in the health view and the help's "About".
    pub data_dir: Option<String>,
}

/// Run the console until the operator quits. Returns the message of a fatal background
/// failure, if that is what ended it (printed by the caller after the terminal is restored).
pub fn run(
    engine: Arc<Engine>,
    rt: &tokio::runtime::Handle,
    opts: Options,
) -> Result<Option<String>> {
    let (msg_tx, msg_rx) = mpsc::channel::<Msg>();
    let (req_tx, req_rx) = mpsc::channel::<Req>();
    // Subscribe before the first loads so nothing falls between them and the live updates.
    rt.spawn(event::forward_engine(engine.subscribe(), msg_tx.clone()));
    {
        let tx = msg_tx.clone();
        rt.spawn(async move {
            use tokio::signal::unix::{SignalKind, signal};
            let (Ok(mut term), Ok(mut hup)) = (
                signal(SignalKind::terminate()),
                signal(SignalKind::hangup()),
            ) else {
                return;
            };
            tokio::select! {
                _ = term.recv() => {}
                _ = hup.recv() => {}
            }
            let _ = tx.send(Msg::Fatal("stopped by a signal".into()));
        });
    }
    // Best effort: without it, drafts from other processes still show after Ctrl-r.
    let _drafts_watch = match event::watch_drafts(&engine.paths().drafts_dir(), msg_tx.clone()) {
        Ok(w) => Some(w),
        Err(e) => {
            tracing::warn!("console: the drafts folder is not watched: {e}");
            None
        }
    };
    let worker = data::spawn(
        engine.clone(),
        opts.clients.clone(),
        rt.clone(),
        req_rx,
        msg_tx.clone(),
    )
    .context("cannot start the console's data task")?;

    let _stderr = match &opts.log_file {
        Some(p) => {
            Some(term::redirect_stderr(p).with_context(|| format!("cannot open {}", p.display()))?)
        }
        None => None,
    };
    let _hook = term::install_panic_hook(msg_tx.clone());
    let (mut terminal, _guard) = term::enter().context("cannot set up the terminal")?;
    let gate = Arc::new(event::InputGate::default());
    let input =
        event::spawn_input(msg_tx.clone(), gate.clone()).context("cannot read the terminal")?;

    let size = terminal
        .size()
        .map(|s| (s.width, s.height))
        .unwrap_or((80, 24));
    let profiles = engine.profile_names();
    let mut app = App::new(opts.theme, opts.keymap, profiles, size);
    app.tz = opts.tz;
    app.data_dir = opts.data_dir;
    app.save_dir = files::default_save_dir().map(|d| d.display().to_string());
    app.status.mcp_url = opts.mcp_url;
    app.status.mcp_error = opts.mcp_error.clone();
    app.status.mcp_scopes = opts.mcp_scopes;
    // Set before the first message, which the message log stamps with it.
    app.now = time::OffsetDateTime::now_utc();
    if let Some(e) = opts.mcp_error {
        app.say(msg::Level::Error, format!("MCP server not running: {e}"));
    }
    app.reminders = crate::engine::reminders::Reminders::new(&engine.config().drafts);
    let first = app.start();
    apply(first, &req_tx, &mut terminal, &gate, &mut app);

    let result = (|| -> Result<()> {
        loop {
            // ratatui diffs against the previous frame, so a redraw with no change writes
            // nothing to the terminal.
            // A resize event can be lost or carry a stale size (SIGWINCH coalesces); the
            // terminal's own size is the truth, and layout and mouse hit-testing use app.size.
            if let Ok(sz) = terminal.size()
                && (sz.width, sz.height) != app.size
            {
                let effects = app.update(Msg::Resize(sz.width, sz.height));
                apply(effects, &req_tx, &mut terminal, &gate, &mut app);
            }
            app.now = time::OffsetDateTime::now_utc();
            terminal.draw(|f| draw(&app, f))?;
            let msg = match msg_rx.recv_timeout(Duration::from_millis(250)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => Msg::Tick,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let effects = app.update(msg);
            apply(effects, &req_tx, &mut terminal, &gate, &mut app);
            // Drain what else is queued (bounded by time) before drawing once.
            let until = Instant::now() + Duration::from_millis(8);
            while Instant::now() < until {
                let Ok(m) = msg_rx.try_recv() else { break };
                let effects = app.update(m);
                apply(effects, &req_tx, &mut terminal, &gate, &mut app);
            }
            if app.quit {
                break;
            }
        }
        Ok(())
    })();

    gate.stop.store(true, Ordering::SeqCst);
    drop(req_tx);
    drop(_guard);
    // The reader notices `stop` within one poll; on a terminal that went away it may be stuck
    // inside crossterm, so it is waited for only briefly (the process exit ends it).
    join_within(input, Duration::from_millis(300));
    // The data task may be in the middle of a write; let it finish (it ends when the request
    // channel closes), but never hold a quit or a SIGTERM hostage to it.
    join_within(worker, Duration::from_millis(700));
    result?;
    Ok(app.fatal)
}

/// Join `t` if it ends within `limit`; otherwise leave it to the process exit.
fn join_within(t: std::thread::JoinHandle<()>, limit: Duration) {
    let until = Instant::now() + limit;
    while !t.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    if t.is_finished() {
        let _ = t.join();
    }
}

fn apply(
    effects: Vec<Effect>,
    req_tx: &mpsc::Sender<Req>,
    terminal: &mut term::Term,
    gate: &event::InputGate,
    app: &mut App,
) {
    for e in effects {
        match e {
            Effect::Req(r) => {
                if req_tx.send(r).is_err() {
                    app.fatal = Some("the console's data task stopped".into());
                    app.quit = true;
                }
            }
            Effect::Mouse(on) => {
                if let Err(e) = term::set_mouse(on) {
                    app.say(msg::Level::Error, format!("mouse: {e}"));
                }
            }
            Effect::Compose {
                message_id,
                to,
                template,
            } => match edit_in_editor(terminal, gate, &template, "opsdesk-reply-") {
                Ok(Some(edited)) => match panes::inbox::reply_from_template(&template, &edited) {
                    Some(body) => {
                        let _ = req_tx.send(Req::Submit {
                            label: format!("reply to {to} drafted"),
                            action: Action::DraftReply {
                                message_id,
                                body,
                                attachments: Vec::new(),
                                body_html: None,
                            },
                        });
                    }
                    None => app.say(msg::Level::Info, "no reply written; nothing was drafted"),
                },
                Ok(None) => app.say(msg::Level::Info, "no reply written; nothing was drafted"),
                Err(e) => app.say(msg::Level::Error, format!("editor: {e:#}")),
            },
            Effect::Edit { id, outbound } => {
                match edit_in_editor(terminal, gate, outbound.body(), "opsdesk-draft-") {
                    Ok(Some(body)) => {
                        let outbound = panes::drafts::with_body(&outbound, body);
                        let _ = req_tx.send(Req::Submit {
                            label: format!("edited draft {id} (it needs a fresh approval)"),
                            action: Action::EditDraft { id, outbound },
                        });
                    }
                    Ok(None) => app.say(msg::Level::Info, "no change; the draft is as it was"),
                    Err(e) => app.say(msg::Level::Error, format!("editor: {e:#}")),
                }
            }
        }
    }
}

/// Suspend the UI, edit `body` in `$VISUAL` / `$EDITOR` (default `vi`) on a private temp file,
/// restore the UI. `None` when the text is unchanged.
fn edit_in_editor(
    terminal: &mut term::Term,
    gate: &event::InputGate,
    body: &str,
    prefix: &str,
) -> Result<Option<String>> {
    use std::io::Write;
    let mut file = tempfile::Builder::new()
        .prefix(prefix)
        .suffix(".txt")
        .tempfile()
        .context("cannot create a temp file")?; // created 0600
    file.write_all(body.as_bytes())?;
    file.flush()?;
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| {
            std::env::var("EDITOR")
                .ok()
                .filter(|s| !s.trim().is_empty())
        })
        .unwrap_or_else(|| "vi".into());
    gate.pause();
    term::restore();
    // Through the shell so that EDITOR may carry arguments ("code -w"); the path is passed as
    // a positional argument, never spliced into the command text.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("opsdesk-editor")
        .arg(file.path())
        .status();
    let resumed = term::resume(terminal);
    gate.resume();
    resumed.context("cannot restore the terminal after the editor")?;
    let status = status.with_context(|| format!("cannot run `{editor}`"))?;
    if !status.success() {
        anyhow::bail!("`{editor}` exited with {status}; the draft was not changed");
    }
    let text = std::fs::read_to_string(file.path()).context("cannot read the edited text")?;
    let text = text.strip_suffix('\n').map(str::to_string).unwrap_or(text);
    Ok((text != body).then_some(text))
}
