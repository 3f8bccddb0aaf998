//! No network for vault tools that do not declare `needs_network`.
//!
//! On Linux the child enters a new user namespace and a new network namespace before it execs
//! (`unshare(CLONE_NEWUSER | CLONE_NEWNET)`, unprivileged: the user namespace is what lets an
//! ordinary user create the network one). The new network namespace has only a loopback
//! interface, and it is down: no route anywhere, not even to the host's own 127.0.0.1. The
//! user namespace maps the operator's uid and gid onto themselves, so the tool sees who it
//! runs as; it gains no rights outside its namespaces.
//!
//! Whether the kernel allows it is probed once per process (a forked child tries exactly the
//! steps a tool's child takes). When it refuses — user namespaces disabled by sysctl, a
//! container's seccomp profile, another OS — tools still run, with the network, and that is
//! said: a warning in the log once, `doctor` ("network not isolated: <reason>"), `tools list`
//! and the console. The operator can also turn isolation off (`[vault] isolate_network =
//! false`), which is reported the same way.

use std::sync::OnceLock;

use serde::Serialize;

/// Whether tools that do not declare a network need run without one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum NetIsolation {
    /// Each such tool runs in its own empty network namespace.
    Enforced,
    /// Tools run with the operator's network; `reason` says why.
    NotIsolated { reason: String },
}

impl NetIsolation {
    pub fn enforced(&self) -> bool {
        *self == NetIsolation::Enforced
    }

    /// One line for `doctor`, `tools list` and the console.
    pub fn line(&self) -> String {
        match self {
            NetIsolation::Enforced => {
                "network isolated: tools without needs_network run in an empty network namespace"
                    .into()
            }
            NetIsolation::NotIsolated { reason } => format!("network not isolated: {reason}"),
        }
    }
}

/// What this machine allows, probed once (the first vault that asks logs the fallback).
pub fn probe() -> &'static NetIsolation {
    static PROBED: OnceLock<NetIsolation> = OnceLock::new();
    PROBED.get_or_init(|| {
        let r = match probe_kernel() {
            Ok(()) => NetIsolation::Enforced,
            Err(reason) => NetIsolation::NotIsolated { reason },
        };
        if let NetIsolation::NotIsolated { reason } = &r {
            tracing::warn!(
                "vault: network not isolated: {reason}; tools that do not declare needs_network can still reach the network"
            );
        }
        r
    })
}

/// The isolation in force for a vault whose `[vault] isolate_network` is `wanted`.
pub fn state(wanted: bool) -> NetIsolation {
    if wanted {
        probe().clone()
    } else {
        NetIsolation::NotIsolated {
            reason: "turned off by `[vault] isolate_network = false`".into(),
        }
    }
}

/// The bytes the child writes into its `/proc/self/*` files, prepared before `fork`: the child
/// of a multi-threaded process may not allocate.
#[cfg(target_os = "linux")]
pub struct Prepared {
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
}

#[cfg(target_os = "linux")]
impl Prepared {
    pub fn for_this_process() -> Prepared {
        // SAFETY: geteuid/getegid cannot fail and touch no memory of ours.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        Prepared {
            uid_map: format!("{uid} {uid} 1\n").into_bytes(),
            gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        }
    }

    /// In the child, between `fork` and `exec`: new user and network namespaces, the ids mapped
    /// onto themselves. Only async-signal-safe calls (raw syscalls), no allocation.
    pub fn enter(&self) -> Result<(), Step> {
        // SAFETY: unshare only changes this (single-threaded, just forked) process's namespaces.
        if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) } != 0 {
            return Err(Step::Unshare(errno()));
        }
        // An unprivileged process must deny setgroups before it may write its gid_map.
        write_proc(c"/proc/self/setgroups", b"deny").map_err(Step::Setgroups)?;
        write_proc(c"/proc/self/uid_map", &self.uid_map).map_err(Step::UidMap)?;
        write_proc(c"/proc/self/gid_map", &self.gid_map).map_err(Step::GidMap)?;
        Ok(())
    }
}

/// Which step of [`Prepared::enter`] failed, with its errno.
#[derive(Debug, Clone, Copy)]
pub enum Step {
    Unshare(i32),
    Setgroups(i32),
    UidMap(i32),
    GidMap(i32),
}

impl Step {
    fn code(self) -> (i32, i32) {
        match self {
            Step::Unshare(e) => (1, e),
            Step::Setgroups(e) => (2, e),
            Step::UidMap(e) => (3, e),
            Step::GidMap(e) => (4, e),
        }
    }

    fn from_code(step: i32, errno: i32) -> Step {
        match step {
            1 => Step::Unshare(errno),
            2 => Step::Setgroups(errno),
            3 => Step::UidMap(errno),
            _ => Step::GidMap(errno),
        }
    }

    pub fn errno(self) -> i32 {
        self.code().1
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, e) = match *self {
            Step::Unshare(e) => ("unshare(CLONE_NEWUSER | CLONE_NEWNET)", e),
            Step::Setgroups(e) => ("writing /proc/self/setgroups", e),
            Step::UidMap(e) => ("writing /proc/self/uid_map", e),
            Step::GidMap(e) => ("writing /proc/self/gid_map", e),
        };
        write!(f, "{what} failed: {}", std::io::Error::from_raw_os_error(e))
    }
}

#[cfg(target_os = "linux")]
fn errno() -> i32 {
    // SAFETY: errno is thread-local and always readable.
    unsafe { *libc::__errno_location() }
}

#[cfg(target_os = "linux")]
fn write_proc(path: &std::ffi::CStr, bytes: &[u8]) -> Result<(), i32> {
    // SAFETY: a NUL-terminated path and a buffer we own; the fd is closed on every path.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(errno());
        }
        let n = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let e = errno();
        libc::close(fd);
        if n != bytes.len() as isize {
            return Err(if n < 0 { e } else { libc::EIO });
        }
    }
    Ok(())
}

/// Fork a child that takes the same steps a tool's child takes and reports the failing one
/// over a pipe.
#[cfg(target_os = "linux")]
fn probe_kernel() -> Result<(), String> {
    let prepared = Prepared::for_this_process();
    let mut fds = [0i32; 2];
    // SAFETY: pipe2 fills the two fds we pass.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!(
            "could not probe (pipe: {})",
            std::io::Error::last_os_error()
        ));
    }
    let [read_fd, write_fd] = fds;
    // SAFETY: the child only makes raw syscalls (no allocation, no locks) and then _exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let code: [i32; 2] = match prepared.enter() {
            Ok(()) => [0, 0],
            Err(s) => {
                let (a, b) = s.code();
                [a, b]
            }
        };
        // SAFETY: writes our own 8 bytes to the pipe, then leaves without running destructors.
        unsafe {
            libc::write(write_fd, code.as_ptr().cast(), 8);
            libc::_exit(0);
        }
    }
    // SAFETY: closing our copy of the write end; the read end is ours.
    unsafe { libc::close(write_fd) };
    if pid < 0 {
        let e = std::io::Error::last_os_error();
        // SAFETY: closing the read end we own.
        unsafe { libc::close(read_fd) };
        return Err(format!("could not probe (fork: {e})"));
    }
    let mut code = [0i32; 2];
    // SAFETY: reads at most 8 bytes into `code`; then the fd is closed and the child reaped.
    let n = unsafe { libc::read(read_fd, code.as_mut_ptr().cast(), 8) };
    unsafe {
        libc::close(read_fd);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    if n != 8 {
        return Err("could not probe (the probing child said nothing)".into());
    }
    match code {
        [0, _] => Ok(()),
        [step, e] => Err(hint(Step::from_code(step, e))),
    }
}

#[cfg(target_os = "linux")]
fn hint(step: Step) -> String {
    let why = match step {
        Step::Unshare(e) if e == libc::EPERM || e == libc::ENOSPC => {
            " (unprivileged user namespaces are disabled here: see sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, or the container's seccomp profile)"
        }
        _ => "",
    };
    format!("{step}{why}")
}

#[cfg(not(target_os = "linux"))]
fn probe_kernel() -> Result<(), String> {
    Err("only enforced on Linux (network namespaces)".into())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_probe_gives_an_answer_with_a_reason_when_it_refuses() {
        match probe() {
            NetIsolation::Enforced => assert!(probe().line().starts_with("network isolated")),
            NetIsolation::NotIsolated { reason } => {
                assert!(!reason.is_empty());
                assert!(probe().line().starts_with("network not isolated: "));
            }
        }
        // Asking twice does not probe twice (the same value, by address).
        assert!(std::ptr::eq(probe(), probe()));
    }

    #[test]
    fn turned_off_is_reported_as_such() {
        let s = state(false);
        assert!(!s.enforced());
        assert!(s.line().contains("isolate_network = false"), "{}", s.line());
    }
}
