//! One tool call as one child process: JSON in on stdin, JSON out on stdout, bounded and timed.
//!
//! The child gets a scrubbed environment (nothing inherited: no tokens, keys or opsdesk
//! settings), a fresh temporary working directory that is removed afterwards, its own process
//! group, and — when the vault asks for it — the sandbox of [`super::sandbox`]: a PID namespace
//! whose end takes every process the tool started, Landlock, seccomp and rlimits.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// Limits one call runs under.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub timeout: Duration,
    pub max_output_bytes: usize,
    pub max_stderr_bytes: usize,
    /// Start the tool without a network ([`super::sandbox`]).
    pub no_network: bool,
}

/// The sandbox of one call, as the vault asks for it (the scratch folder is made by [`run`]).
pub struct Confine<'a> {
    pub tool_dir: &'a Path,
    pub resources: crate::config::ToolLimits,
    pub allow_read: &'a [std::path::PathBuf],
    pub private: &'a super::sandbox::Private,
    pub support: &'a super::sandbox::Support,
    #[cfg(target_os = "linux")]
    pub filters: Option<&'a super::sandbox::Filters>,
}

/// Why a call produced no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("could not start the tool: {0}")]
    Spawn(String),
    #[error(
        "the tool did not finish within {secs}s and was killed (with every process it started)"
    )]
    Timeout { secs: u64, stderr: String },
    #[error("the tool wrote more than {limit} bytes to stdout and was killed")]
    TooMuchOutput { limit: usize, stderr: String },
    #[error("the tool exited with {status}{}", tail(.stderr))]
    Crashed { status: String, stderr: String },
    #[error("the tool's stdout is not a JSON object: {reason}")]
    NotJson { reason: String, stderr: String },
    #[error("I/O with the tool failed: {0}")]
    Io(String),
}

impl RunError {
    /// The audit / error-data label of this failure.
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::Spawn(_) => "spawn_failed",
            RunError::Timeout { .. } => "timeout",
            RunError::TooMuchOutput { .. } => "output_too_large",
            RunError::Crashed { .. } => "crashed",
            RunError::NotJson { .. } => "not_json",
            RunError::Io(_) => "io",
        }
    }

    /// What the tool said on stderr (bounded), when it got that far.
    pub fn stderr(&self) -> &str {
        match self {
            RunError::Timeout { stderr, .. }
            | RunError::TooMuchOutput { stderr, .. }
            | RunError::Crashed { stderr, .. }
            | RunError::NotJson { stderr, .. } => stderr,
            _ => "",
        }
    }
}

fn tail(stderr: &str) -> String {
    let s = crate::sanitize::one_line(stderr.trim(), 300);
    if s.is_empty() {
        String::new()
    } else {
        format!("; stderr: {s}")
    }
}

/// A finished call.
#[derive(Debug)]
pub struct Ran {
    pub output: serde_json::Map<String, Value>,
    pub stderr: String,
    pub elapsed: Duration,
}

/// The only variables a tool sees. `PATH` is a fixed system path, not the operator's.
fn environment(work: &Path, tool: &str) -> Vec<(&'static str, String)> {
    let w = work.to_string_lossy().to_string();
    vec![
        ("PATH", "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME", w.clone()),
        ("TMPDIR", w),
        ("LANG", "C.UTF-8".into()),
        ("OPSDESK_TOOL", tool.into()),
    ]
}

/// Run `exec` with `input` on stdin, confined by `confine` when given.
pub async fn run(
    exec: &Path,
    tool: &str,
    input: &Value,
    limits: Limits,
    confine: Option<&Confine<'_>>,
) -> Result<Ran, RunError> {
    let started = Instant::now();
    let work = tempfile::Builder::new()
        .prefix("opsdesk-tool-")
        .tempdir()
        .map_err(|e| RunError::Spawn(format!("no temporary directory: {e}")))?;
    let stdin_bytes = serde_json::to_vec(input).map_err(|e| RunError::Io(e.to_string()))?;
    let mut cmd = tokio::process::Command::new(exec);
    cmd.env_clear()
        .envs(environment(work.path(), tool))
        .current_dir(work.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group: the timeout kills grandchildren too.
        .process_group(0)
        .kill_on_drop(true);
    #[cfg(target_os = "linux")]
    if let Some(c) = confine {
        let spec = super::sandbox::CallSpec {
            tool_dir: c.tool_dir,
            scratch: work.path(),
            no_network: limits.no_network,
            limits: c.resources,
            allow_read: c.allow_read,
            private: c.private,
        };
        let prepared = super::sandbox::Prepared::new(&spec, c.support, c.filters)
            .map_err(|e| RunError::Spawn(format!("the sandbox could not be prepared: {e}")))?;
        // SAFETY: `enter` runs between fork and exec and makes only raw syscalls, with buffers
        // prepared here; its error is an errno, which `from_raw_os_error` wraps without
        // allocating.
        unsafe {
            cmd.pre_exec(move || {
                prepared
                    .enter()
                    .map_err(|s| std::io::Error::from_raw_os_error(s.errno()))
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = confine;
    let mut child = cmd.spawn().map_err(|e| {
        RunError::Spawn(if confine.is_some() {
            format!("{} (in its sandbox): {e}", exec.display())
        } else {
            format!("{}: {e}", exec.display())
        })
    })?;
    let pgid = child.id().map(|p| p as libc::pid_t);
    let kill_group = || {
        if let Some(g) = pgid {
            // SAFETY: killpg has no memory effects; a stale group id fails with ESRCH.
            unsafe {
                libc::killpg(g, libc::SIGKILL);
            }
        }
    };

    let mut stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let io = async {
        let feed = async {
            if let Some(mut s) = stdin.take() {
                // A tool that does not read its input closes the pipe: not an error.
                let _ = s.write_all(&stdin_bytes).await;
                let _ = s.shutdown().await;
            }
        };
        let out = read_bounded(stdout, limits.max_output_bytes, false);
        let err = read_bounded(stderr, limits.max_stderr_bytes, true);
        let ((), out, err) = tokio::join!(feed, out, err);
        (out, err)
    };
    let outcome = tokio::time::timeout(limits.timeout, async {
        let (out, err) = io.await;
        let (out_bytes, overflow) = out.map_err(|e| RunError::Io(e.to_string()))?;
        let err_text =
            String::from_utf8_lossy(&err.map(|(b, _)| b).unwrap_or_default()).to_string();
        if overflow {
            return Ok::<_, RunError>(Err(RunError::TooMuchOutput {
                limit: limits.max_output_bytes,
                stderr: err_text,
            }));
        }
        let status = child
            .wait()
            .await
            .map_err(|e| RunError::Io(e.to_string()))?;
        Ok(Ok((out_bytes, err_text, status)))
    })
    .await;
    let (out_bytes, stderr, status) = match outcome {
        Err(_) => {
            kill_group();
            // The child itself too, should the group kill have failed: never wait on a hang.
            let _ = child.start_kill();
            let _ = child.wait().await;
            return Err(RunError::Timeout {
                secs: limits.timeout.as_secs(),
                stderr: String::new(),
            });
        }
        Ok(Err(e)) => {
            kill_group();
            // The child itself too, should the group kill have failed: never wait on a hang.
            let _ = child.start_kill();
            let _ = child.wait().await;
            return Err(e);
        }
        Ok(Ok(Err(e))) => {
            kill_group();
            // The child itself too, should the group kill have failed: never wait on a hang.
            let _ = child.start_kill();
            let _ = child.wait().await;
            return Err(e);
        }
        Ok(Ok(Ok(v))) => v,
    };
    if !status.success() {
        return Err(RunError::Crashed {
            status: status.to_string(),
            stderr,
        });
    }
    let output = match serde_json::from_slice::<Value>(&out_bytes) {
        Ok(Value::Object(m)) => m,
        Ok(other) => {
            return Err(RunError::NotJson {
                reason: format!("got a JSON {}", json_kind(&other)),
                stderr,
            });
        }
        Err(e) => {
            let head = crate::sanitize::one_line(&String::from_utf8_lossy(&out_bytes), 120);
            return Err(RunError::NotJson {
                reason: format!("{e} (stdout began: {head:?})"),
                stderr,
            });
        }
    };
    Ok(Ran {
        output,
        stderr,
        elapsed: started.elapsed(),
    })
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Read up to `limit` bytes. Past it: stop and report overflow, or (`drain`) keep reading and
/// drop the rest so the writer never blocks on a full pipe.
async fn read_bounded<R: AsyncRead + Unpin>(
    r: Option<R>,
    limit: usize,
    drain: bool,
) -> std::io::Result<(Vec<u8>, bool)> {
    let Some(mut r) = r else {
        return Ok((Vec::new(), false));
    };
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let mut overflow = false;
    loop {
        let n = r.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        let room = limit.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..n.min(room)]);
        if n > room {
            overflow = true;
            if !drain {
                break;
            }
        }
    }
    Ok((buf, overflow))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, body: &str) -> std::path::PathBuf {
        let p = dir.join("run");
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn limits() -> Limits {
        Limits {
            timeout: Duration::from_secs(20),
            max_output_bytes: 4096,
            max_stderr_bytes: 64,
            no_network: false,
        }
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn stdin_reaches_the_tool_and_its_object_comes_back() {
        let d = tempfile::tempdir().unwrap();
        let exec = script(d.path(), "cat");
        let r = rt()
            .block_on(run(
                &exec,
                "t",
                &serde_json::json!({"a": 1}),
                limits(),
                None,
            ))
            .unwrap();
        assert_eq!(r.output["a"], 1);
    }

    #[test]
    fn too_much_output_kills_the_tool() {
        let d = tempfile::tempdir().unwrap();
        let exec = script(d.path(), "yes '{\"x\": 1}'");
        let e = rt()
            .block_on(run(&exec, "t", &serde_json::json!({}), limits(), None))
            .unwrap_err();
        assert!(
            matches!(e, RunError::TooMuchOutput { limit: 4096, .. }),
            "{e}"
        );
    }

    #[test]
    fn stderr_is_bounded_and_a_json_array_is_not_an_answer() {
        let d = tempfile::tempdir().unwrap();
        let exec = script(
            d.path(),
            "head -c 100000 /dev/zero | tr '\\0' e >&2; echo '[1]'",
        );
        let e = rt()
            .block_on(run(&exec, "t", &serde_json::json!({}), limits(), None))
            .unwrap_err();
        assert!(matches!(e, RunError::NotJson { .. }), "{e}");
        assert!(e.to_string().contains("array"), "{e}");
        assert_eq!(e.stderr().len(), 64);
    }
}
