//! Command-line surface. `main.rs` parses; this module opens what each command needs and
//! prints. Every state change goes through `Engine::submit`.
//!
//! Exit codes: 0 success, 1 failure, 2 usage error (bad flags, bad input, unknown id),
//! 3 integrity failure (`audit verify` found a broken chain), 4 refused by governance.

mod assistant;
mod audit;
mod audit_export;
mod brief;
mod config_cmd;
mod console;
mod deals;
mod doctor;
mod drafts;
mod filing;
mod host;
mod inbox;
mod login;
mod mcp_config;
mod output;
mod packaging;
mod providers;
mod serve;
mod tools;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::config::Config;
use crate::engine::{Engine, EngineError, Mode};
use crate::paths::Paths;

pub use output::Printer;

#[derive(Debug, Parser)]
#[command(name = "opsdesk", version = packaging::VERSION, about = "An operator's console for AI-assisted work", long_about = None)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    /// Console options (plain `opsdesk` is the console). Not global: other commands' help
    /// stays about them; `Cli::parse_args` refuses them before another subcommand.
    #[command(flatten, next_help_heading = "Console options")]
    pub console: console::ConsoleArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// Whether this command line opens the console (no subcommand, or `console`).
    pub fn runs_console(&self) -> bool {
        matches!(self.command, None | Some(Command::Console(_)))
    }

    /// Parse the process's arguments. Beyond clap: a console option written before a
    /// subcommand that is not the console is a usage error naming it, not silently ignored
    /// (`--bind`/`--no-http` before `serve` still apply to it, as they always have).
    pub fn parse_args() -> Result<Cli, clap::Error> {
        use clap::parser::ValueSource;
        use clap::{CommandFactory, FromArgMatches};
        let mut cmd = Cli::command();
        let matches = cmd.try_get_matches_from_mut(std::env::args_os())?;
        let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))?;
        let allowed: &[&str] = match &cli.command {
            None | Some(Command::Console(_)) => return Ok(cli),
            Some(Command::Serve(_)) => &["bind", "no_http"],
            Some(_) => &[],
        };
        let name = matches.subcommand_name().unwrap_or_default();
        let stray = ["theme", "keymap", "bind", "no_http"]
            .into_iter()
            .find(|id| {
                !allowed.contains(id) && matches.value_source(id) == Some(ValueSource::CommandLine)
            });
        match stray {
            None => Ok(cli),
            Some(id) => Err(cmd.error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "--{} is a console option; `opsdesk {name}` does not take it \
                     (the console: `opsdesk --{0} …` or `opsdesk console --{0} …`)",
                    id.replace('_', "-")
                ),
            )),
        }
    }
}

#[derive(Debug, Args, Clone)]
pub struct Global {
    /// Data directory (inbox, drafts, audit). Default: the XDG data dir.
    #[arg(long, global = true, env = "OPSDESK_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Config file (TOML). Default: the XDG config dir's opsdesk/config.toml, if present.
    #[arg(long, global = true, env = "OPSDESK_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Machine-readable JSON output.
    #[arg(long, global = true)]
    pub json: bool,
    /// Use a throw-away data dir and the demo config and source.
    #[arg(long, global = true)]
    pub demo: bool,
    /// With --demo: keep the demo data dir on exit and print where it is.
    #[arg(long, global = true, requires = "demo")]
    pub keep: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read and add inbox items.
    #[command(subcommand)]
    Inbox(inbox::InboxCmd),
    /// The morning brief (or, with --eod, the end-of-day digest) of a profile.
    Brief(brief::BriefArgs),
    /// The approval queue.
    #[command(subcommand)]
    Drafts(drafts::DraftsCmd),
    /// Deals: list, show, create, link, unlink, stage, accept a proposal.
    #[command(subcommand)]
    Deals(deals::DealsCmd),
    /// Filing: where mail belongs (suggest), and queueing moves (move, accept).
    #[command(subcommand)]
    Filing(filing::FilingCmd),
    /// The hash-chained audit trail.
    #[command(subcommand)]
    Audit(audit::AuditCmd),
    /// Triage inbox items (rules, then the LLM router): run, list, set, assign.
    #[command(subcommand)]
    Triage(assistant::TriageCmd),
    /// Deadlines found in inbox items (the LLM router, the rules as fallback): extract, list.
    #[command(subcommand)]
    Deadlines(assistant::DeadlinesCmd),
    /// Check or show the configuration.
    #[command(subcommand)]
    Config(config_cmd::ConfigCmd),
    /// The LLM providers: list, enable, disable, set-default, set-job (saved to providers.json, audited).
    #[command(subcommand)]
    Providers(providers::ProvidersCmd),
    /// Run the engine headless: sources and the MCP server (HTTP, --stdio), until SIGINT/SIGTERM.
    Serve(serve::ServeArgs),
    /// Print (or write) the configuration an MCP client needs to reach this opsdesk.
    McpConfig(mcp_config::McpConfigArgs),
    /// Tail the inbox in this terminal and raise desktop notifications (no engine needed).
    Watch(watch::WatchArgs),
    /// The operator's console (the default with no subcommand): engine + terminal UI.
    Console(console::ConsoleArgs),
    /// Sign a profile in to Microsoft Graph (device code); the refresh token is kept in the OS
    /// keyring (Secret Service) when one is reachable, else in a 0600 file in the data dir.
    Login(login::LoginArgs),
    /// Forget a profile's Microsoft Graph sign-in.
    Logout(login::LogoutArgs),
    /// Check config, permissions, sign-ins and source health; each problem with its fix.
    Doctor(doctor::DoctorArgs),
    /// The tool vault: list, check or run packaged tools (`<config dir>/tools/`).
    #[command(subcommand)]
    Tools(tools::ToolsCmd),
    /// Print a shell completion script: `opsdesk completions bash > ~/.local/share/bash-completion/completions/opsdesk`.
    Completions {
        /// bash, zsh, fish, powershell or elvish.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff); with --dir, write one page per command into DIR.
    Man {
        /// Write `opsdesk.1`, `opsdesk-inbox.1`, … here instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// A failure with the exit code it maps to.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

/// Exit codes, as the README and `--help` promise them.
pub(crate) mod exit {
    /// Something failed (I/O, a peer, a check).
    pub const FAILED: u8 = 1;
    /// The command line or the config is wrong.
    pub const USAGE: u8 = 2;
    /// A trail or store does not verify (tampering or damage).
    pub const INTEGRITY: u8 = 3;
    /// Governance refused the action, or a store rejected it.
    pub const REFUSED: u8 = 4;
}

impl Failure {
    /// Exit 2: the command line or the config is wrong.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: exit::USAGE,
            message: message.into(),
        }
    }
    /// Exit 1: something failed.
    pub fn failed(message: impl Into<String>) -> Self {
        Failure {
            code: exit::FAILED,
            message: message.into(),
        }
    }
    /// Exit 3: a trail or store does not verify.
    pub fn integrity(message: impl Into<String>) -> Self {
        Failure {
            code: exit::INTEGRITY,
            message: message.into(),
        }
    }
    /// Exit 4: governance refused the action (or a store rejected it).
    pub fn refused(message: impl Into<String>) -> Self {
        Failure {
            code: exit::REFUSED,
            message: message.into(),
        }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::failed(format!("{e:#}"))
    }
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        match &e {
            EngineError::Invalid { data, .. } => {
                let hint = output::describe_data(data)
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default();
                Failure::usage(format!("{e}{hint}"))
            }
            EngineError::NotFound(_) => Failure::usage(e.to_string()),
            EngineError::Store(crate::store::StoreError::Rejected(_))
            | EngineError::Blocked { .. } => Failure::refused(e.to_string()),
            _ => Failure::failed(e.to_string()),
        }
    }
}

impl From<crate::engine::OpenError> for Failure {
    fn from(e: crate::engine::OpenError) -> Self {
        match e {
            crate::engine::OpenError::Locked(e) => Failure::failed(e.to_string()),
            crate::engine::OpenError::Stores(e) => Failure::from(e),
        }
    }
}

impl From<crate::sources::IngestFailure> for Failure {
    fn from(e: crate::sources::IngestFailure) -> Self {
        match e {
            crate::sources::IngestFailure::Refused { .. } => Failure::usage(e.to_string()),
            crate::sources::IngestFailure::Store(e) => Failure::from(e),
        }
    }
}

impl From<crate::store::StoreError> for Failure {
    fn from(e: crate::store::StoreError) -> Self {
        Failure::failed(e.to_string())
    }
}

pub(crate) type CmdResult = Result<(), Failure>;

/// Everything a command needs to find its files and config.
pub struct Context {
    pub global: Global,
    pub paths: Paths,
    /// Kept alive so a `--demo` data dir lives as long as the command.
    demo_dir: Option<tempfile::TempDir>,
}

/// The demo's tools folder: in its data dir.
fn demo_tools(paths: &Paths) -> PathBuf {
    paths.data_dir.join("tools")
}

/// The throw-away demo's config, written beside its integrity key: a command run from another
/// terminal with `--config` on this file (the hints `serve` prints) gets the demo's profiles
/// and its key, so what it writes verifies with the rest of the demo's trail. This process
/// uses the built-in demo config, which is the same.
fn write_demo_config(paths: &Paths) -> Result<(), Failure> {
    let tools = demo_tools(paths).display().to_string();
    let text = format!(
        "{}\n# Written by `opsdesk --demo`: the demo's tools folder is in its data dir.\n[vault]\ndir = {}\n",
        crate::config::DEMO_CONFIG_TOML,
        toml::Value::String(tools)
    );
    std::fs::write(&paths.config_file, text).map_err(|e| {
        Failure::failed(format!(
            "cannot write the demo config {}: {e}",
            paths.config_file.display()
        ))
    })
}

impl Context {
    pub fn new(global: Global) -> Result<Context, Failure> {
        let (paths, demo_dir) = if global.demo && global.data_dir.is_none() {
            use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
            let dir = tempfile::Builder::new()
                .prefix("opsdesk-demo-")
                .permissions(std::fs::Permissions::from_mode(0o700))
                .tempdir()
                .map_err(|e| Failure::failed(format!("cannot create a demo data dir: {e}")))?;
            let p = if global.keep || global.config.is_some() {
                Paths::resolve(Some(dir.path().to_path_buf()), global.config.clone())?
            } else {
                // A throw-away demo leaves nothing behind: its integrity key (which lives in
                // the config dir, outside the data dir) goes in a config dir of its own beside
                // the data. A kept demo uses the operator's config dir, so that its records
                // still verify when opened again with --data-dir.
                let data = dir.path().join("data");
                let config = dir.path().join("config");
                for d in [&data, &config] {
                    std::fs::DirBuilder::new()
                        .mode(0o700)
                        .create(d)
                        .map_err(|e| {
                            Failure::failed(format!("cannot create {}: {e}", d.display()))
                        })?;
                }
                let paths = Paths {
                    data_dir: data,
                    config_file: config.join("config.toml"),
                    config_explicit: false,
                };
                write_demo_config(&paths)?;
                paths
            };
            (p, Some(dir))
        } else {
            (
                Paths::resolve(global.data_dir.clone(), global.config.clone())?,
                None,
            )
        };
        if global.demo && global.config.is_none() {
            crate::vault::examples::install(&demo_tools(&paths)).map_err(|e| {
                Failure::failed(format!("cannot install the demo's example tools: {e}"))
            })?;
        }
        Ok(Context {
            global,
            paths,
            demo_dir,
        })
    }

    /// Whether this command runs on a throw-away demo data dir.
    pub fn throw_away_demo(&self) -> bool {
        self.demo_dir.is_some() && !self.global.keep
    }

    /// End of the command: remove the demo data dir, or (with `--keep`) keep it and return
    /// its path so that it can be printed.
    fn finish_demo(&mut self) -> Option<PathBuf> {
        let dir = self.demo_dir.take()?;
        if self.global.keep {
            Some(dir.keep())
        } else {
            drop(dir);
            None
        }
    }

    pub fn config(&self) -> Result<Config, Failure> {
        if self.global.demo && self.global.config.is_none() {
            let mut c = Config::demo();
            // The demo's tools folder is in its data dir (with the shipped examples), never
            // the operator's own.
            c.vault.dir = Some(demo_tools(&self.paths));
            return Ok(c);
        }
        let c = Config::load_or_default(&self.paths.config_file, self.paths.config_explicit)
            .map_err(|e| Failure::usage(e.to_string()))?;
        // The scope lists are judged against the tool table, which the config floor does not
        // know: the same usage error, with the key path, as any other invalid value.
        let problems = crate::mcp::scope::config_problems(&c.server);
        if !problems.is_empty() {
            let e =
                crate::config::ConfigError::invalid_values(Some(&self.paths.config_file), problems);
            return Err(Failure::usage(e.to_string()));
        }
        Ok(c)
    }

    /// An engine beside any running one: for commands that make one change and exit.
    pub fn engine(&self) -> Result<Engine, Failure> {
        Ok(Engine::open(
            self.paths.clone(),
            self.config()?,
            Mode::Secondary,
        )?)
    }

    pub fn printer(&self) -> Printer {
        Printer::new(self.global.json)
    }
}

/// A seq argument: `12` or `#12` as lists print it.
pub(crate) fn seq_arg(s: &str) -> Result<u64, String> {
    crate::domain::parse_seq(s)
        .ok_or_else(|| format!("`{s}` is not a seq (a number, as in `12` or `#12`)"))
}

/// A command line clap could not parse. Help and `--version` print as clap prints them; a usage
/// error keeps clap's text on stderr and, with `--json` anywhere before a `--`, is also the
/// usual JSON failure on stdout (scripts see every failure the same way).
pub fn parse_failed(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    let informational = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
    let json = std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json");
    if json && !informational {
        let text = e.render().to_string();
        // clap's first line is the error itself ("error: unexpected argument …"); the usage
        // and "try --help" lines after it are for a person.
        let message = match e.kind() {
            // clap shows the command's help here; its first line is no error message.
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                "a subcommand or argument is missing; see --help".to_string()
            }
            _ => text
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_string(),
        };
        output::print_error_json(&Failure { code, message });
    }
    // Help and version to stdout, errors to stderr: clap knows which.
    let _ = e.print();
    ExitCode::from(code)
}

pub fn run(cli: Cli) -> ExitCode {
    let json = cli.global.json;
    // Completions and man pages need no data dir or config.
    let early = match &cli.command {
        Some(Command::Completions { shell }) => Some(packaging::completions(*shell)),
        Some(Command::Man { dir }) => Some(packaging::man(dir.as_deref())),
        _ => None,
    };
    if let Some(r) = early {
        return match r {
            Ok(()) => ExitCode::SUCCESS,
            Err(f) => {
                eprintln!("opsdesk: {}", f.message);
                ExitCode::from(f.code)
            }
        };
    }
    let mut kept: Option<PathBuf> = None;
    let result = (|| {
        let mut ctx = Context::new(cli.global.clone())?;
        let r = match cli.command {
            None => console::run(&ctx, cli.console),
            Some(Command::Console(a)) => console::run(&ctx, a.or(cli.console)),
            Some(Command::Inbox(c)) => inbox::run(&ctx, c),
            Some(Command::Brief(a)) => brief::run(&ctx, a),
            Some(Command::Drafts(c)) => drafts::run(&ctx, c),
            Some(Command::Audit(c)) => audit::run(&ctx, c),
            Some(Command::Triage(c)) => assistant::run_triage(&ctx, c),
            Some(Command::Deadlines(c)) => assistant::run_deadlines(&ctx, c),
            Some(Command::Deals(c)) => deals::run(&ctx, c),
            Some(Command::Filing(c)) => filing::run(&ctx, c),
            Some(Command::Config(c)) => config_cmd::run(&ctx, c),
            Some(Command::Providers(c)) => providers::run(&ctx, c),
            Some(Command::Serve(mut a)) => {
                // `opsdesk --bind … serve` (the console's place for them) still applies.
                a.bind = a.bind.or(cli.console.bind);
                a.no_http |= cli.console.no_http;
                serve::run(&ctx, a)
            }
            Some(Command::Watch(a)) => watch::run(&ctx, a),
            Some(Command::McpConfig(a)) => mcp_config::run(&ctx, a),
            Some(Command::Login(a)) => login::run_login(&ctx, a),
            Some(Command::Logout(a)) => login::run_logout(&ctx, a),
            Some(Command::Doctor(a)) => doctor::run(&ctx, a),
            Some(Command::Tools(c)) => tools::run(&ctx, c),
            Some(Command::Completions { .. } | Command::Man { .. }) => Ok(()),
        };
        kept = ctx.finish_demo();
        r
    })();
    if let Some(dir) = kept {
        // Its records are keyed with the key beside the config file in use: opening it again
        // needs the same one.
        let config = cli
            .global
            .config
            .as_ref()
            .map(|c| format!(" --config {}", c.display()))
            .unwrap_or_default();
        eprintln!(
            "opsdesk: demo data kept in {0} (open it again with --data-dir {0}{1})",
            crate::sanitize::for_terminal(&dir.display().to_string()),
            crate::sanitize::for_terminal(&config)
        );
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if json {
                output::print_error_json(&f);
            }
            eprintln!("opsdesk: {}", crate::sanitize::for_terminal(&f.message));
            ExitCode::from(f.code)
        }
    }
}
