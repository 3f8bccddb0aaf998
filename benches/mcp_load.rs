//! MCP load benchmark: N concurrent clients calling tools over streamable HTTP against a real
//! release `opsdesk serve`, each on its own keep-alive connection and MCP session.
//!
//! Run: `cargo bench --bench mcp_load` (builds target/release/opsdesk too).
//! Env: `MCP_LOAD_SECS` (seconds per run, default 5), `MCP_LOAD_CLIENTS` (default "1,4,16"),
//! `MCP_LOAD_ONLY` (run only the workloads whose name contains this text),
//! `MCP_LOAD_RECORDS` (records seeded, default 1000), `MCP_LOAD_TEXT_REPEAT` (each record's
//! text is a 150-character paragraph this many times, default 1; 4 is about the peer bench's
//! mean),
//! `OPSDESK_BENCH_DIR` (where the data dir goes, default the system temp dir: the audit trail
//! fsyncs there, so the disk matters), `OPSDESK_BIN` (another binary).
//!
//! Reports, per workload and N: calls, throughput, latency p50 / p99 / max, and the server's
//! CPU per call (utime + stime of the server process from /proc, before/after ÷ calls). With
//! two or more cores, the server is pinned to CPU 0 and the load generator to CPU 1.
//! It also measures the disk's fsync latency (what each audited call pays at least once).

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use opsdesk::domain::InboxRecord;
use opsdesk::store::inbox::Inbox;
use serde_json::{Value, json};

/// Records seeded (`MCP_LOAD_RECORDS`), read by the workloads' argument builders.
static RECORDS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

fn records() -> u64 {
    *RECORDS.get_or_init(|| env_or("MCP_LOAD_RECORDS", 1000u64).max(40))
}

/// A workload: its name and the `tools/call` params for call `i` (null = `ping`).
type Workload = (&'static str, fn(u64) -> Value);

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs with no such flag: do nothing.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let bin = binary();
    let secs: u64 = env_or("MCP_LOAD_SECS", 5);
    let clients: Vec<usize> = std::env::var("MCP_LOAD_CLIENTS")
        .unwrap_or_else(|_| "1,4,16".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let pin = cores >= 2;

    let tmp = match std::env::var_os("OPSDESK_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d).expect("bench dir"),
        None => tempfile::tempdir().expect("temp dir"),
    };
    let data_dir = tmp.path().join("data");
    seed(&data_dir);
    let config = tmp.path().join("config.toml");
    // The per-client rate limit (50/s by default) would measure the limiter, not the server.
    std::fs::write(
        &config,
        "[server]\nrate_limit_per_sec = 1000000\nrate_limit_burst = 1000000\n",
    )
    .expect("write config");

    let mut server = start_server(&bin, &data_dir, &config, pin);
    if pin {
        pin_self(1);
    }
    let (url, token) = wait_ready(&mut server.child, &data_dir);
    // Let start-up settle, then take the idle footprint.
    std::thread::sleep(Duration::from_secs(1));
    let idle_rss = proc_status_kb(server.child.id(), "VmRSS:");
    println!("opsdesk MCP load benchmark");
    println!(
        "binary {}; {} cores; server pinned to CPU 0 and load to CPU 1: {}; {secs} s per run; data dir on {}",
        bin.display(),
        cores,
        if pin { "yes" } else { "no (1 core)" },
        tmp.path().display()
    );
    let fsync = fsync_latency(tmp.path());
    println!(
        "disk fsync (append 300 B + fdatasync, 200x): p50 {} p99 {} max {}",
        us(fsync.0),
        us(fsync.1),
        us(fsync.2)
    );
    println!();
    println!(
        "{:<34} {:>3} {:>8} {:>10} {:>9} {:>9} {:>9} {:>12}",
        "workload", "N", "calls", "calls/s", "p50", "p99", "max", "server CPU/call"
    );

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let workloads: [Workload; 5] = [
        // No tool, no audit: the HTTP + guard + rmcp session floor.
        ("ping (no tool, not audited)", |_| json!(null)),
        ("status", |_| json!({"name": "status", "arguments": {}})),
        (
            "inbox_pull limit 20 (re-read)",
            |i| json!({"name": "inbox_pull", "arguments": {"limit": 20, "since": i % (records() - 20), "mark_consumed": false}}),
        ),
        (
            "inbox_pull limit 20 (the newest, re-read)",
            |_| json!({"name": "inbox_pull", "arguments": {"limit": 20, "since": records() - 20, "mark_consumed": false}}),
        ),
        (
            "inbox_pull limit 20 (own cursor)",
            |_| json!({"name": "inbox_pull", "arguments": {"limit": 20}}),
        ),
    ];
    let only = std::env::var("MCP_LOAD_ONLY").unwrap_or_default();
    let mut failed = false;
    for (name, args) in workloads {
        if !name.contains(only.as_str()) {
            continue;
        }
        for &n in &clients {
            let split0 = proc_cpu_split(server.child.id());
            let cpu0 = proc_cpu(server.child.id());
            let r = rt.block_on(run(&url, &token, n, Duration::from_secs(secs), args));
            let cpu1 = proc_cpu(server.child.id());
            let split1 = proc_cpu_split(server.child.id());
            let calls = r.latencies.len() as u64;
            let cpu_per_call = if calls > 0 {
                (cpu1 - cpu0) / calls as f64
            } else {
                0.0
            };
            let (p50, p99, max) = percentiles(&r.latencies);
            println!(
                "{:<34} {:>3} {:>8} {:>10.0} {:>9} {:>9} {:>9} {:>12}",
                name,
                n,
                calls,
                calls as f64 / r.elapsed.as_secs_f64(),
                us(p50),
                us(p99),
                us(max),
                format!("{:.0} µs", cpu_per_call * 1e6),
            );
            if calls > 0 {
                println!(
                    "    server user {:.0} µs + system {:.0} µs per call",
                    (split1.0 - split0.0) / calls as f64 * 1e6,
                    (split1.1 - split0.1) / calls as f64 * 1e6
                );
            }
            if r.errors > 0 {
                println!("    {} failed calls (first: {})", r.errors, r.first_error);
                failed = true;
            }
        }
    }
    println!();
    println!(
        "budget (docs DESIGN.md): ≤ 45 µs server CPU per call; p99 ≤ 2 ms at 16 concurrent clients"
    );
    let audit = std::fs::read_dir(data_dir.join("audit"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum::<u64>()
        })
        .unwrap_or(0);
    println!("audit trail after the run: {audit} bytes");
    println!(
        "server memory: idle RSS {} MB, now {} MB, peak {} MB (budget: < 30 MB idle, < 40 MB under load)",
        mb(idle_rss),
        mb(proc_status_kb(server.child.id(), "VmRSS:")),
        mb(proc_status_kb(server.child.id(), "VmHWM:")),
    );
    server.stop();
    if failed {
        std::process::exit(1);
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The release binary cargo built for this bench (or OPSDESK_BIN).
fn binary() -> PathBuf {
    let candidates = [
        std::env::var_os("OPSDESK_BIN").map(PathBuf::from),
        option_env!("CARGO_BIN_EXE_opsdesk").map(PathBuf::from),
        std::env::current_exe()
            .ok()
            .and_then(|p| p.parent()?.parent().map(|d| d.join("opsdesk"))),
    ];
    for p in candidates.into_iter().flatten() {
        if p.is_file() {
            return p;
        }
    }
    eprintln!(
        "the opsdesk release binary was not found next to this bench (target/release/opsdesk).\nBuild it first: cargo build --release   (or set OPSDESK_BIN=/path/to/opsdesk)"
    );
    std::process::exit(2);
}

fn record(i: u64) -> InboxRecord {
    support::record(i, "load", "default", env_or("MCP_LOAD_TEXT_REPEAT", 1))
}

fn seed(data_dir: &Path) {
    let paths = opsdesk::paths::Paths::resolve(
        Some(data_dir.to_path_buf()),
        Some(data_dir.join("config.toml")),
    )
    .expect("paths");
    paths.ensure().expect("data dir");
    let inbox = Inbox::open(&paths.inbox_dir()).expect("open inbox");
    inbox
        .append_batch((0..records()).map(record).collect())
        .expect("seed inbox");
}

struct ServerProc {
    child: Child,
}

impl ServerProc {
    fn stop(&mut self) {
        // SAFETY: signalling our own child.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn start_server(bin: &Path, data_dir: &Path, config: &Path, pin: bool) -> ServerProc {
    let mut cmd = Command::new(bin);
    cmd.arg("--data-dir")
        .arg(data_dir)
        .arg("--config")
        .arg(config)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env_remove("OPSDESK_TOKEN")
        .env("OPSDESK_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if pin {
        use std::os::unix::process::CommandExt;
        // SAFETY: sched_setaffinity is async-signal-safe; it only touches the child itself.
        unsafe {
            cmd.pre_exec(|| {
                set_affinity(0);
                Ok(())
            });
        }
    }
    ServerProc {
        child: cmd.spawn().expect("spawn opsdesk serve"),
    }
}

fn set_affinity(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is valid; CPU_SET stays within it for cpu < CPU_SETSIZE.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// Pin every thread this process creates from now on (and the current one).
fn pin_self(cpu: usize) {
    set_affinity(cpu);
}

fn wait_ready(child: &mut Child, data_dir: &Path) -> (String, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(Some(st)) = child.try_wait() {
            eprintln!("opsdesk serve exited early: {st}");
            std::process::exit(1);
        }
        if let Ok(bytes) = std::fs::read(data_dir.join("engine.json"))
            && let Ok(v) = serde_json::from_slice::<Value>(&bytes)
            && let Some(url) = v["mcp_url"].as_str()
            && let Ok(token) = std::fs::read_to_string(data_dir.join("mcp-token"))
            && std::net::TcpStream::connect(
                url.trim_start_matches("http://").trim_end_matches("/mcp"),
            )
            .is_ok()
        {
            return (url.to_string(), token.trim().to_string());
        }
        if Instant::now() > deadline {
            eprintln!("opsdesk serve did not become ready within 60 s");
            std::process::exit(1);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// utime + stime of a process, in seconds.
/// A `kB` field of /proc/<pid>/status (VmRSS, VmHWM), 0 when unreadable.
fn proc_status_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn mb(kb: u64) -> String {
    format!("{:.1}", kb as f64 / 1024.0)
}

fn proc_cpu(pid: u32) -> f64 {
    let (u, s) = proc_cpu_split(pid);
    u + s
}

/// (utime, stime) of a process, in seconds.
fn proc_cpu_split(pid: u32) -> (f64, f64) {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return (0.0, 0.0);
    };
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    // rest[0] is field 3 (state); utime is field 14, stime 15.
    let field = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (field(11) / hz.max(1.0), field(12) / hz.max(1.0))
}

struct RunResult {
    latencies: Vec<Duration>,
    elapsed: Duration,
    errors: u64,
    first_error: String,
}

async fn run(url: &str, token: &str, n: usize, dur: Duration, args: fn(u64) -> Value) -> RunResult {
    let mut tasks = Vec::new();
    let start = Instant::now();
    let end = start + dur;
    for c in 0..n {
        let url = url.to_string();
        let token = token.to_string();
        tasks.push(tokio::spawn(async move {
            client_loop(&url, &token, c, end, args).await
        }));
    }
    let mut out = RunResult {
        latencies: Vec::new(),
        elapsed: Duration::ZERO,
        errors: 0,
        first_error: String::new(),
    };
    for t in tasks {
        match t.await {
            Ok((lat, errs, first)) => {
                out.latencies.extend(lat);
                out.errors += errs;
                if out.first_error.is_empty() {
                    out.first_error = first;
                }
            }
            Err(e) => {
                out.errors += 1;
                out.first_error = e.to_string();
            }
        }
    }
    out.elapsed = start.elapsed();
    out
}

/// One client: its own connection and MCP session, calling until `end`.
async fn client_loop(
    url: &str,
    token: &str,
    c: usize,
    end: Instant,
    args: fn(u64) -> Value,
) -> (Vec<Duration>, u64, String) {
    let http = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(1)
        .tcp_nodelay(true)
        .build()
        .expect("client");
    let auth = format!("Bearer {token}");
    let post = |body: Value, session: Option<&str>| {
        let mut r = http
            .post(url)
            .header("authorization", &auth)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(s) = session {
            r = r
                .header("mcp-session-id", s)
                .header("mcp-protocol-version", "2025-11-25");
        }
        r
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": format!("load-{c}"), "version": "1"}}});
    let resp = match post(init, None).send().await {
        Ok(r) => r,
        Err(e) => return (Vec::new(), 1, format!("initialize: {e}")),
    };
    let Some(session) = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
    else {
        return (Vec::new(), 1, format!("initialize: HTTP {}", resp.status()));
    };
    let _ = resp.bytes().await;
    let _ = post(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        Some(&session),
    )
    .send()
    .await
    .map(|r| r.status());

    let mut lat = Vec::with_capacity(100_000);
    let mut errors = 0u64;
    let mut first = String::new();
    let mut i = c as u64 * 7919;
    while Instant::now() < end {
        i += 1;
        let params = args(i);
        let body = if params.is_null() {
            json!({"jsonrpc": "2.0", "id": i, "method": "ping"})
        } else {
            json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
        };
        let t0 = Instant::now();
        let r = post(body, Some(&session)).send().await;
        let ok = match r {
            Ok(r) if r.status().is_success() => match r.bytes().await {
                Ok(b) => {
                    let ok = b.windows(9).any(|w| w == b"\"result\":")
                        && !b.windows(14).any(|w| w == b"\"isError\":true");
                    if !ok && first.is_empty() {
                        first = String::from_utf8_lossy(&b).chars().take(300).collect();
                    }
                    ok
                }
                Err(e) => {
                    first = e.to_string();
                    false
                }
            },
            Ok(r) => {
                if first.is_empty() {
                    first = format!("HTTP {}", r.status());
                }
                false
            }
            Err(e) => {
                if first.is_empty() {
                    first = e.to_string();
                }
                false
            }
        };
        if ok {
            lat.push(t0.elapsed());
        } else {
            errors += 1;
        }
    }
    let _ = http
        .delete(url)
        .header("authorization", &auth)
        .header("mcp-session-id", &session)
        .send()
        .await;
    (lat, errors, first)
}

fn percentiles(v: &[Duration]) -> (Duration, Duration, Duration) {
    if v.is_empty() {
        return (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let at = |q: f64| s[((s.len() as f64 - 1.0) * q).round() as usize];
    (at(0.50), at(0.99), s[s.len() - 1])
}

fn us(d: Duration) -> String {
    let u = d.as_secs_f64() * 1e6;
    if u >= 10_000.0 {
        format!("{:.1} ms", u / 1000.0)
    } else {
        format!("{u:.0} µs")
    }
}

/// Latency of a small durable append on the bench's disk.
fn fsync_latency(dir: &Path) -> (Duration, Duration, Duration) {
    let path = dir.join("fsync-probe");
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .expect("probe file");
    let line = [b'x'; 300];
    let mut v = Vec::with_capacity(200);
    for _ in 0..200 {
        let t = Instant::now();
        f.write_all(&line).expect("write");
        f.sync_data().expect("fsync");
        v.push(t.elapsed());
    }
    let _ = std::fs::remove_file(&path);
    percentiles(&v)
}
