//! Per-call overhead of a trivial vault tool: spawn + JSON round trip (`process::run`), and a
//! whole `Vault::call` (lookup, child process, audit record with its fsync).
//!
//! Run: `cargo bench --bench vault`. Prints p50/p99/max over 1,000 calls of each, after 50
//! warm-up calls. `process::run` is measured bare (no sandbox: the cost of spawn + JSON alone);
//! the whole call runs the way `serve` would: in the full sandbox where this machine allows it
//! (user + PID + network namespaces, Landlock, seccomp, rlimits: `vault::sandbox`), arguments
//! checked against the schema, audited. The tool is `/bin/sh` reading one line and printing
//! `{}` (no interpreter start-up beyond the shell's, which is what the overhead is meant to
//! measure).

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use opsdesk::config::Config;
use opsdesk::domain::Actor;
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use opsdesk::vault::Vault;
use opsdesk::vault::process::{Confine, Limits, run};
use serde_json::json;

const CALLS: usize = 1_000;
const WARMUP: usize = 50;

fn report(what: &str, mut t: Vec<Duration>) {
    t.sort();
    let pct = |p: f64| t[((t.len() as f64 * p) as usize).min(t.len() - 1)];
    println!(
        "{what}: {} calls, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        t.len(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        t[t.len() - 1].as_secs_f64() * 1e3
    );
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tools = dir.path().join("tools");
    let tool = tools.join("trivial");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        tool.join("tool.toml"),
        "name = \"trivial\"\ndescription = \"x\"\ntier = \"read_only\"\ninput_schema = { type = \"object\" }\n",
    )
    .unwrap();
    let exec = tool.join("run");
    std::fs::write(&exec, "#!/bin/sh\nread -r _ || true\necho '{}'\n").unwrap();
    std::fs::set_permissions(&exec, std::fs::Permissions::from_mode(0o755)).unwrap();

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let limits = Limits {
        timeout: Duration::from_secs(10),
        max_output_bytes: 1 << 20,
        max_stderr_bytes: 16 << 10,
        no_network: false,
    };
    let input = json!({"tool": "trivial", "arguments": {"n": 1}, "context": {}});
    let measure = |limits: Limits, confine: Option<&Confine<'_>>| -> Vec<Duration> {
        rt.block_on(async {
            let mut v = Vec::new();
            for i in 0..WARMUP + CALLS {
                let s = Instant::now();
                run(&exec, "trivial", &input, limits, confine)
                    .await
                    .expect("run");
                if i >= WARMUP {
                    v.push(s.elapsed());
                }
            }
            v
        })
    };
    report(
        "spawn + JSON round trip (process::run, no sandbox)",
        measure(limits, None),
    );
    let sandbox =
        opsdesk::vault::sandbox::Sandbox::new(opsdesk::config::SandboxMode::BestEffort, true);
    println!("{}", sandbox.line());
    let filters = opsdesk::vault::sandbox::Filters::build().expect("seccomp filters");
    let private = opsdesk::vault::sandbox::Private::default();
    let confine = Confine {
        tool_dir: &tool,
        resources: opsdesk::config::ToolLimits::default(),
        allow_read: &[],
        private: &private,
        support: &sandbox.support,
        filters: Some(&filters),
    };
    report(
        "spawn + JSON round trip (process::run, full sandbox, no network)",
        measure(
            Limits {
                no_network: true,
                ..limits
            },
            Some(&confine),
        ),
    );

    let mut config = Config::default();
    config.vault.dir = Some(tools.clone());
    let paths = Paths {
        data_dir: dir.path().join("data"),
        config_file: dir.path().join("config.toml"),
        config_explicit: false,
    };
    let engine = Arc::new(Engine::open(paths, config, Mode::Primary).expect("engine"));
    let vault = Vault::for_engine(&engine);
    let args = json!({"n": 1}).as_object().cloned().unwrap();
    let full: Vec<Duration> = rt.block_on(async {
        let mut v = Vec::new();
        for i in 0..WARMUP + CALLS {
            let s = Instant::now();
            vault
                .call(&engine, "vault_trivial", args.clone(), Actor::Cli)
                .await
                .expect("call");
            if i >= WARMUP {
                v.push(s.elapsed());
            }
        }
        v
    });
    report(
        "whole Vault::call (schema check, isolation as configured, audit fsync)",
        full,
    );
}
