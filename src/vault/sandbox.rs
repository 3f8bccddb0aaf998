//! The sandbox a vault tool runs in: code the operator installs is not the operator.
//!
//! A tool is a program of the operator's uid; without help from the kernel it could read the
//! data dir, run `opsdesk drafts approve`, plant another tool or read the server's memory. On
//! Linux each call is contained by five layers, all set up in the child between `fork` and
//! `exec` (only raw system calls there; everything that allocates is prepared before):
//!
//! 1. **Namespaces** — a new user namespace (what lets an unprivileged user create the others;
//!    the operator's uid and gid are mapped onto themselves), a new PID namespace whose first
//!    process is the tool (so when the tool's first process ends, by success, error or
//!    timeout, the kernel kills every process it started, `setsid` or not), and for a tool
//!    that does not declare `needs_network`, a new network namespace with only a loopback
//!    interface that is down.
//! 2. **Landlock** — the filesystem: read and execute on system paths (`/usr`, `/etc`, …),
//!    read-only on the tool's own folder, read-write on a private scratch folder made for the
//!    call; nothing else (no data dir, no config dir, no home). Landlock also denies ptrace-style
//!    access (`/proc/<pid>/environ`, `mem`) to processes outside the sandbox, and, where the
//!    kernel has it (ABI 6), signals and abstract unix sockets outside it.
//! 3. **seccomp** — a BPF filter that refuses ptrace, `process_vm_readv/writev`, the kernel
//!    keyring, io_uring (it would bypass the filter), mounts, new namespaces, kernel modules and
//!    BPF; and sockets: none at all for a tool without the network (pathname unix sockets such
//!    as ssh-agent's or the D-Bus session bus are reached through `socket(AF_UNIX)`, which a
//!    namespace does not stop), only IPv4/IPv6/netlink for a tool with it.
//! 4. **no_new_privs** — a setuid program cannot give the tool more rights.
//! 5. **rlimits** — address space, processes, open files, file size and CPU time
//!    (`[vault.limits]`, per-tool `[limits]` in the manifest, capped by `[vault.max_limits]`).
//!
//! What the kernel allows is probed once per process by a forked child that takes exactly
//! these steps. Where it refuses a layer, `[vault] sandbox` decides: `require` (the default
//! when a profile requires HIPAA) runs no tool; `best_effort` runs read-only tools that may
//! not see PHI with the layers that work and refuses the others. Either way the missing
//! layer and how to enable it are said by `doctor`, `tools list` and the console.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::config::{SandboxMode, ToolLimits};

/// The layers the kernel may refuse (rlimits and no_new_privs never are).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// User + PID namespaces (every descendant ends with the call).
    Namespaces,
    /// The network namespace for tools without `needs_network`.
    Network,
    /// Landlock (filesystem).
    Filesystem,
    /// seccomp (system calls).
    Syscalls,
}

impl Layer {
    pub const ALL: [Layer; 4] = [
        Layer::Namespaces,
        Layer::Network,
        Layer::Filesystem,
        Layer::Syscalls,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Namespaces => "namespaces",
            Layer::Network => "network",
            Layer::Filesystem => "filesystem",
            Layer::Syscalls => "syscalls",
        }
    }

    /// How an operator turns the layer on.
    fn remedy(self) -> &'static str {
        match self {
            Layer::Namespaces | Layer::Network => {
                "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; in a container, a seccomp profile that permits unshare)"
            }
            Layer::Filesystem => {
                "boot a kernel with Landlock enabled (Linux 5.13+, CONFIG_SECURITY_LANDLOCK=y and `landlock` in the lsm= boot parameter)"
            }
            Layer::Syscalls => "use a kernel with CONFIG_SECCOMP_FILTER=y",
        }
    }
}

/// What the kernel gave the probe, layer by layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Support {
    /// Per layer: `None` when it works, else why not.
    refused: Vec<(Layer, String)>,
    /// The Landlock ABI version (0: none).
    pub landlock_abi: i32,
}

impl Support {
    pub fn refused(&self, layer: Layer) -> Option<&str> {
        self.refused
            .iter()
            .find(|(l, _)| *l == layer)
            .map(|(_, r)| r.as_str())
    }

    pub fn has(&self, layer: Layer) -> bool {
        self.refused(layer).is_none()
    }

    fn complete(&self) -> bool {
        self.refused.is_empty()
    }

    #[cfg(test)]
    pub fn all() -> Support {
        Support {
            refused: Vec::new(),
            landlock_abi: 6,
        }
    }

    #[cfg(test)]
    pub fn without(layers: &[Layer]) -> Support {
        Support {
            refused: layers
                .iter()
                .map(|l| (*l, "refused in a test".to_string()))
                .collect(),
            landlock_abi: 0,
        }
    }
}

/// The sandbox a vault runs its tools in: the mode, what the kernel allows and whether the
/// operator turned network isolation off.
#[derive(Debug, Clone, Serialize)]
pub struct Sandbox {
    pub mode: SandboxMode,
    pub support: Support,
    /// `[vault] isolate_network`.
    pub isolate_network: bool,
}

/// Whether one tool may run here, and with which layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Run {
        /// The tool runs without a network (namespace and/or no sockets).
        no_network: bool,
    },
    Refuse {
        reason: String,
    },
}

impl Sandbox {
    pub fn new(mode: SandboxMode, isolate_network: bool) -> Sandbox {
        Sandbox {
            mode,
            support: probe().clone(),
            isolate_network,
        }
    }

    /// The layers a tool needs that the kernel refused (the network layer only for tools
    /// without `needs_network` when isolation is wanted).
    fn missing(&self, needs_network: bool) -> Vec<Layer> {
        Layer::ALL
            .into_iter()
            .filter(|l| *l != Layer::Network || (!needs_network && self.isolate_network))
            .filter(|l| !self.support.has(*l))
            .collect()
    }

    /// Whether a tool of this shape runs: `require` refuses any missing layer; `best_effort`
    /// refuses a missing layer only for a tool that may see PHI or may propose actions.
    pub fn verdict(&self, may_see_phi: bool, read_only: bool, needs_network: bool) -> Verdict {
        let missing = self.missing(needs_network);
        let no_network = !needs_network && self.isolate_network;
        if missing.is_empty() {
            return Verdict::Run { no_network };
        }
        let names: Vec<&str> = missing.iter().map(|l| l.as_str()).collect();
        let why: Vec<String> = missing
            .iter()
            .map(|l| {
                format!(
                    "{}: {}",
                    l.as_str(),
                    self.support.refused(*l).unwrap_or("refused")
                )
            })
            .collect();
        let strict = match self.mode {
            SandboxMode::Require => Some("`[vault] sandbox = \"require\"`"),
            SandboxMode::BestEffort if may_see_phi => {
                Some("the tool may see PHI (`may_see_phi = true`)")
            }
            SandboxMode::BestEffort if !read_only => {
                Some("the tool may propose actions (`draft_only`)")
            }
            SandboxMode::BestEffort => None,
        };
        match strict {
            Some(because) => Verdict::Refuse {
                reason: format!(
                    "the sandbox cannot be built here (missing: {}) and {because}, so the tool does not run; {}; to enable: {}",
                    names.join(", "),
                    why.join("; "),
                    missing
                        .iter()
                        .map(|l| l.remedy())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            },
            None => Verdict::Run { no_network },
        }
    }

    /// One line for `doctor`, `tools list` and the console.
    pub fn line(&self) -> String {
        let mode = self.mode.as_str();
        let mut missing: Vec<Layer> = self.missing(false);
        if !self.isolate_network {
            missing.retain(|l| *l != Layer::Network);
        }
        let net = if self.isolate_network {
            "tools without needs_network have no network"
        } else {
            "network not isolated: turned off by `[vault] isolate_network = false`"
        };
        if missing.is_empty() {
            format!(
                "sandbox ({mode}): namespaces, Landlock ABI {}, seccomp, rlimits; {net}",
                self.support.landlock_abi
            )
        } else {
            let what: Vec<String> = missing
                .iter()
                .map(|l| {
                    format!(
                        "{} ({})",
                        l.as_str(),
                        self.support.refused(*l).unwrap_or("refused")
                    )
                })
                .collect();
            let consequence = match self.mode {
                SandboxMode::Require => "no tool runs",
                SandboxMode::BestEffort => {
                    "only read_only tools that may not see PHI run, without the missing layers"
                }
            };
            format!(
                "sandbox ({mode}) incomplete: missing {}; {consequence}; to enable: {}",
                what.join(", "),
                missing
                    .iter()
                    .map(|l| l.remedy())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        }
    }

    /// Mark a layer refused (a filter that could not be built, say).
    pub fn refuse(&mut self, layer: Layer, why: &str) {
        if self.support.has(layer) {
            self.support.refused.push((layer, why.to_string()));
        }
    }

    /// Whether a tool without `needs_network` is cut off from the network here: by its own
    /// network namespace, or by the filter that refuses it every socket.
    pub fn can_cut_network(&self) -> bool {
        self.isolate_network
            && (self.support.has(Layer::Network) || self.support.has(Layer::Syscalls))
    }

    /// Whether every layer is in force.
    pub fn complete(&self) -> bool {
        let mut s = self.support.clone();
        if !self.isolate_network {
            s.refused.retain(|(l, _)| *l != Layer::Network);
        }
        s.complete()
    }
}

/// What this machine allows, probed once per process.
pub fn probe() -> &'static Support {
    static PROBED: OnceLock<Support> = OnceLock::new();
    PROBED.get_or_init(|| {
        let s = probe_kernel();
        for (l, why) in &s.refused {
            tracing::warn!(
                "vault sandbox: layer {} refused by the kernel: {why}",
                l.as_str()
            );
        }
        s
    })
}

// ---------------------------------------------------------------------------------------------
// Linux

/// The filters, built once per vault: with and without sockets.
#[cfg(target_os = "linux")]
pub struct Filters {
    no_network: Arc<seccompiler::BpfProgram>,
    network: Arc<seccompiler::BpfProgram>,
    clone3: Arc<seccompiler::BpfProgram>,
}

#[cfg(target_os = "linux")]
impl Filters {
    pub fn build() -> Result<Filters, String> {
        Ok(Filters {
            no_network: Arc::new(filter(false)?),
            network: Arc::new(filter(true)?),
            clone3: Arc::new(clone3_filter()?),
        })
    }
}

#[cfg(target_os = "linux")]
fn arch() -> Result<seccompiler::TargetArch, String> {
    seccompiler::TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())
}

/// The system calls a tool is refused (EPERM), and the socket rule.
#[cfg(target_os = "linux")]
fn filter(network: bool) -> Result<seccompiler::BpfProgram, String> {
    use seccompiler::{
        SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    };
    use std::collections::BTreeMap;
    let always: &[i64] = &[
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_pidfd_getfd,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_fsconfig,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_mount_setattr,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_reboot,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_unshare,
        libc::SYS_setns,
    ];
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        always.iter().map(|n| (*n, Vec::new())).collect();
    let cond = |op, v| SeccompCondition::new(0, SeccompCmpArgLen::Dword, op, v);
    let err = |e: seccompiler::BackendError| e.to_string();
    // clone with a namespace flag: one rule per flag (rules are OR-ed).
    let ns_flags = [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWCGROUP,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
    ];
    let mut clone_rules = Vec::new();
    for f in ns_flags {
        let f = f as u64;
        clone_rules.push(
            SeccompRule::new(vec![
                SeccompCondition::new(0, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(f), f)
                    .map_err(err)?,
            ])
            .map_err(err)?,
        );
    }
    rules.insert(libc::SYS_clone, clone_rules);
    if network {
        // Any family but IPv4, IPv6 and netlink (conditions are AND-ed): no unix sockets.
        rules.insert(
            libc::SYS_socket,
            vec![
                SeccompRule::new(vec![
                    cond(SeccompCmpOp::Ne, libc::AF_INET as u64).map_err(err)?,
                    cond(SeccompCmpOp::Ne, libc::AF_INET6 as u64).map_err(err)?,
                    cond(SeccompCmpOp::Ne, libc::AF_NETLINK as u64).map_err(err)?,
                ])
                .map_err(err)?,
            ],
        );
    } else {
        rules.insert(libc::SYS_socket, Vec::new());
    }
    let f = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch()?,
    )
    .map_err(err)?;
    let mut prog: seccompiler::BpfProgram = f
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    refuse_x32(&mut prog);
    Ok(prog)
}

/// `clone3` takes its flags in a struct a filter cannot read: ENOSYS makes libc fall back to
/// `clone`, whose flags the main filter checks.
#[cfg(target_os = "linux")]
fn clone3_filter() -> Result<seccompiler::BpfProgram, String> {
    use seccompiler::{SeccompAction, SeccompFilter};
    let rules = [(libc::SYS_clone3, Vec::new())].into_iter().collect();
    let f = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch()?,
    )
    .map_err(|e| e.to_string())?;
    f.try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// On x86_64 the x32 ABI's system calls share the architecture tag and carry bit 30 in their
/// number, so a rule for `socket` would not match x32's `socket`: refuse them all, right after
/// the architecture check (jumps in the rest of the program are relative, so inserting here
/// moves nothing they point to).
#[cfg(target_os = "linux")]
fn refuse_x32(prog: &mut seccompiler::BpfProgram) {
    if std::env::consts::ARCH != "x86_64" || prog.len() < 3 {
        return;
    }
    // BPF_LD | BPF_W | BPF_ABS, BPF_JMP | BPF_JGE | BPF_K, BPF_RET | BPF_K.
    const BPF_LD_W_ABS: u16 = 0x20;
    const BPF_JMP_JGE_K: u16 = 0x35;
    const BPF_RET_K: u16 = 0x06;
    let x32 = [
        seccompiler::sock_filter {
            code: BPF_LD_W_ABS,
            jt: 0,
            jf: 0,
            k: 0, // seccomp_data.nr
        },
        seccompiler::sock_filter {
            code: BPF_JMP_JGE_K,
            jt: 0,
            jf: 1,
            k: 0x4000_0000,
        },
        seccompiler::sock_filter {
            code: BPF_RET_K,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_ERRNO | libc::EPERM as u32,
        },
    ];
    prog.splice(3..3, x32);
}

/// Paths a tool may read and execute from (those that exist are granted).
#[cfg(target_os = "linux")]
const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix/store",
    "/proc",
    "/sys",
];
/// Device files a tool may read and write.
#[cfg(target_os = "linux")]
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];
/// Where a networked tool's resolver configuration may point (`/etc/resolv.conf` is often a
/// symlink into /run).
#[cfg(target_os = "linux")]
const RESOLVER: &[&str] = &[
    "/run/systemd/resolve",
    "/run/resolvconf",
    "/run/NetworkManager",
];

/// The folders a call may not reach even through a granted system path.
#[derive(Debug, Clone, Default)]
pub struct Private {
    pub dirs: Vec<PathBuf>,
}

/// Everything the child needs, prepared before `fork` (the child of a multi-threaded process
/// may not allocate).
#[cfg(target_os = "linux")]
pub(crate) struct Prepared {
    namespaces: bool,
    new_net: bool,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    landlock: Option<OwnedFd>,
    filter: Option<Arc<seccompiler::BpfProgram>>,
    clone3: Option<Arc<seccompiler::BpfProgram>>,
    rlimits: Vec<(libc::__rlimit_resource_t, libc::rlimit)>,
}

/// Which step of the child's setup failed, with its errno.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Unshare(i32),
    Setgroups(i32),
    UidMap(i32),
    GidMap(i32),
    Fork(i32),
    Rlimit(i32),
    NoNewPrivs(i32),
    Landlock(i32),
    Seccomp(i32),
}

impl Step {
    pub fn errno(self) -> i32 {
        match self {
            Step::Unshare(e)
            | Step::Setgroups(e)
            | Step::UidMap(e)
            | Step::GidMap(e)
            | Step::Fork(e)
            | Step::Rlimit(e)
            | Step::NoNewPrivs(e)
            | Step::Landlock(e)
            | Step::Seccomp(e) => e,
        }
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match *self {
            Step::Unshare(_) => "unshare(CLONE_NEWUSER | CLONE_NEWPID …)",
            Step::Setgroups(_) => "writing /proc/self/setgroups",
            Step::UidMap(_) => "writing /proc/self/uid_map",
            Step::GidMap(_) => "writing /proc/self/gid_map",
            Step::Fork(_) => "fork into the PID namespace",
            Step::Rlimit(_) => "setrlimit",
            Step::NoNewPrivs(_) => "prctl(PR_SET_NO_NEW_PRIVS)",
            Step::Landlock(_) => "landlock_restrict_self",
            Step::Seccomp(_) => "seccomp(SECCOMP_SET_MODE_FILTER)",
        };
        write!(
            f,
            "{what} failed: {}",
            std::io::Error::from_raw_os_error(self.errno())
        )
    }
}

/// One call's sandbox, as the vault asks for it.
#[derive(Debug, Clone)]
pub(crate) struct CallSpec<'a> {
    pub tool_dir: &'a Path,
    pub scratch: &'a Path,
    pub no_network: bool,
    pub limits: ToolLimits,
    /// Extra read-only paths (`[vault] allow_read`).
    pub allow_read: &'a [PathBuf],
    pub private: &'a Private,
}

#[cfg(target_os = "linux")]
impl Prepared {
    /// Build what `enter` applies: only the layers `support` says work.
    pub fn new(
        spec: &CallSpec<'_>,
        support: &Support,
        filters: Option<&Filters>,
    ) -> Result<Prepared, String> {
        // SAFETY: geteuid/getegid cannot fail and touch no memory of ours.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let namespaces = support.has(Layer::Namespaces);
        let new_net = spec.no_network && namespaces && support.has(Layer::Network);
        let landlock = if support.has(Layer::Filesystem) {
            Some(ruleset(spec, support.landlock_abi)?)
        } else {
            None
        };
        let (filter, clone3) = match filters {
            Some(f) if support.has(Layer::Syscalls) => (
                Some(if spec.no_network {
                    f.no_network.clone()
                } else {
                    f.network.clone()
                }),
                Some(f.clone3.clone()),
            ),
            _ => (None, None),
        };
        let mb = 1024 * 1024;
        let l = &spec.limits;
        let lim = |soft: u64, hard: u64| libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        let mut rlimits = vec![
            (libc::RLIMIT_AS, lim(l.memory_mb * mb, l.memory_mb * mb)),
            (libc::RLIMIT_NOFILE, lim(l.open_files, l.open_files)),
            (
                libc::RLIMIT_FSIZE,
                lim(l.file_size_mb * mb, l.file_size_mb * mb),
            ),
            // SIGXCPU at the limit, SIGKILL a second later.
            (libc::RLIMIT_CPU, lim(l.cpu_secs, l.cpu_secs + 1)),
            (libc::RLIMIT_CORE, lim(0, 0)),
        ];
        // The process count is per user; only inside the tool's own user namespace does it
        // count the tool's processes alone rather than all of the operator's.
        if namespaces {
            rlimits.push((libc::RLIMIT_NPROC, lim(l.processes, l.processes)));
        }
        Ok(Prepared {
            namespaces,
            new_net,
            uid_map: format!("{uid} {uid} 1\n").into_bytes(),
            gid_map: format!("{gid} {gid} 1\n").into_bytes(),
            landlock,
            filter,
            clone3,
            rlimits,
        })
    }

    /// In the child, between `fork` and `exec`. Only raw system calls, no allocation. With
    /// namespaces this process forks once more: it stays outside as a reaper that waits for
    /// the tool (PID 1 of the new PID namespace) and exits with its status, so the parent's
    /// `wait` sees the tool's; only the inner child returns (and then execs the tool).
    pub fn enter(&self) -> Result<(), Step> {
        // SAFETY (whole function): raw system calls on buffers prepared before fork; this
        // process is single-threaded (a just-forked child).
        unsafe {
            if self.namespaces {
                let ppid = libc::getppid();
                let mut flags = libc::CLONE_NEWUSER | libc::CLONE_NEWPID;
                if self.new_net {
                    flags |= libc::CLONE_NEWNET;
                }
                if libc::unshare(flags) != 0 {
                    return Err(Step::Unshare(errno()));
                }
                // An unprivileged process must deny setgroups before it may write its gid_map.
                write_proc(c"/proc/self/setgroups", b"deny").map_err(Step::Setgroups)?;
                write_proc(c"/proc/self/uid_map", &self.uid_map).map_err(Step::UidMap)?;
                write_proc(c"/proc/self/gid_map", &self.gid_map).map_err(Step::GidMap)?;
                let pid = libc::fork();
                if pid < 0 {
                    return Err(Step::Fork(errno()));
                }
                if pid > 0 {
                    reap(pid, ppid);
                }
                // PID 1 of the namespace: should the reaper die (opsdesk killed), so does the
                // tool, and with it every process in the namespace.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            }
            for (res, lim) in &self.rlimits {
                if libc::setrlimit(*res, lim) != 0 {
                    return Err(Step::Rlimit(errno()));
                }
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(Step::NoNewPrivs(errno()));
            }
            if let Some(fd) = &self.landlock
                && libc::syscall(libc::SYS_landlock_restrict_self, fd.as_raw_fd(), 0) != 0
            {
                return Err(Step::Landlock(errno()));
            }
            for f in [&self.clone3, &self.filter].into_iter().flatten() {
                let prog = libc::sock_fprog {
                    len: f.len() as u16,
                    filter: f.as_ptr() as *mut libc::sock_filter,
                };
                if libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0,
                    &prog as *const libc::sock_fprog,
                ) != 0
                {
                    return Err(Step::Seccomp(errno()));
                }
            }
        }
        Ok(())
    }
}

/// The reaper: close everything the tool's side needs (so the parent's spawn sees exec and
/// its pipes see EOF only from the tool), wait for the tool, exit as it did. Never returns.
#[cfg(target_os = "linux")]
unsafe fn reap(pid: libc::pid_t, ppid: libc::pid_t) -> ! {
    // SAFETY: raw system calls only; this process never returns to Rust code.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        if libc::getppid() != ppid {
            // opsdesk died before the death signal was armed.
            libc::kill(pid, libc::SIGKILL);
            libc::_exit(137);
        }
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
            for fd in 0..1024 {
                libc::close(fd);
            }
        }
        let mut status = 0;
        loop {
            let r = libc::waitpid(pid, &mut status, 0);
            if r == pid {
                break;
            }
            if r < 0 && errno() != libc::EINTR {
                libc::_exit(127);
            }
        }
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        // Die the way the tool died, so the parent reports the same signal.
        let sig = libc::WTERMSIG(status);
        libc::signal(sig, libc::SIG_DFL);
        libc::kill(libc::getpid(), sig);
        libc::_exit(128 + sig);
    }
}

/// The Landlock ruleset of one call, created in the parent; the child only restricts itself
/// with it.
#[cfg(target_os = "linux")]
fn ruleset(spec: &CallSpec<'_>, abi_version: i32) -> Result<OwnedFd, String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
        RulesetCreatedAttr, Scope, path_beneath_rules,
    };
    let abi = match abi_version {
        ..=0 => return Err("Landlock is not available".into()),
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        _ => ABI::V6,
    };
    let e = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(e)?
        .scope(Scope::AbstractUnixSocket | Scope::Signal)
        .map_err(e)?;
    if spec.no_network {
        // No TCP even should the network namespace be missing (ABI 4+).
        rs = rs
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(e)?;
    }
    let private = |p: &Path| {
        spec.private
            .dirs
            .iter()
            .any(|d| d.starts_with(p) || p.starts_with(d))
    };
    // A system path that holds a private folder (a data dir under /opt, say) is not granted.
    let system: Vec<&str> = SYSTEM_READ
        .iter()
        .copied()
        .filter(|p| !private(Path::new(p)))
        .collect();
    let extra: Vec<&PathBuf> = spec.allow_read.iter().filter(|p| !private(p)).collect();
    let mut created = rs
        .create()
        .map_err(e)?
        .add_rules(path_beneath_rules(&system, AccessFs::from_read(abi)))
        .map_err(e)?
        .add_rules(path_beneath_rules(extra, AccessFs::from_read(abi)))
        .map_err(e)?
        .add_rules(path_beneath_rules(
            [spec.tool_dir],
            AccessFs::from_read(abi),
        ))
        .map_err(e)?
        .add_rules(path_beneath_rules(
            DEVICES,
            AccessFs::from_read(abi) | AccessFs::WriteFile,
        ))
        .map_err(e)?
        .add_rules(path_beneath_rules([spec.scratch], AccessFs::from_all(abi)))
        .map_err(e)?;
    if !spec.no_network {
        created = created
            .add_rules(path_beneath_rules(RESOLVER, AccessFs::from_read(abi)))
            .map_err(e)?;
    }
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| "Landlock is not available".to_string())
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

/// Test hook: the integration tests cannot make the kernel refuse a layer on a machine where
/// all work, so the test build (the `conformance` feature, never in a release) reads the
/// layers to pretend refused from `OPSDESK_TEST_SANDBOX_REFUSE` (comma-separated).
fn pretend_refused() -> Vec<Layer> {
    #[cfg(feature = "conformance")]
    {
        if let Ok(v) = std::env::var("OPSDESK_TEST_SANDBOX_REFUSE") {
            return Layer::ALL
                .into_iter()
                .filter(|l| v.split(',').any(|x| x.trim() == l.as_str()))
                .collect();
        }
    }
    Vec::new()
}

/// Fork a child that tries each layer exactly as a tool's child does and reports which the
/// kernel refused, over a pipe.
#[cfg(target_os = "linux")]
fn probe_kernel() -> Support {
    let mut refused = Vec::new();
    // SAFETY: a version query of the Landlock ABI; no memory is passed.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    } as i32;
    let scratch = std::env::temp_dir();
    let spec = CallSpec {
        tool_dir: &scratch,
        scratch: &scratch,
        no_network: true,
        limits: ToolLimits::default(),
        allow_read: &[],
        private: &Private::default(),
    };
    let ll = if abi >= 1 {
        match ruleset(&spec, abi) {
            Ok(fd) => Some(fd),
            Err(e) => {
                refused.push((Layer::Filesystem, e));
                None
            }
        }
    } else {
        refused.push((
            Layer::Filesystem,
            format!(
                "Landlock is not available ({})",
                std::io::Error::from_raw_os_error(errno())
            ),
        ));
        None
    };
    let filters = match Filters::build() {
        Ok(f) => Some(f),
        Err(e) => {
            refused.push((Layer::Syscalls, format!("cannot build the filter: {e}")));
            None
        }
    };
    // The child reports one errno per layer: namespaces, network, landlock, seccomp.
    let mut fds = [0i32; 2];
    // SAFETY: pipe2 fills the two fds we pass.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        let e = format!(
            "could not probe (pipe: {})",
            std::io::Error::last_os_error()
        );
        return all_refused(e, abi);
    }
    let [read_fd, write_fd] = fds;
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let uid_map = format!("{uid} {uid} 1\n").into_bytes();
    let gid_map = format!("{gid} {gid} 1\n").into_bytes();
    let prog = filters.as_ref().map(|f| f.no_network.clone());
    // SAFETY: the child only makes raw system calls (no allocation, no locks) and _exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let mut code = [0i32; 4];
        unsafe {
            // Namespaces (user + PID), then the network one on top, as a call does.
            code[0] = if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID) != 0 {
                errno()
            } else if let Err(e) = write_proc(c"/proc/self/setgroups", b"deny")
                .and_then(|()| write_proc(c"/proc/self/uid_map", &uid_map))
                .and_then(|()| write_proc(c"/proc/self/gid_map", &gid_map))
            {
                e
            } else {
                0
            };
            code[1] = if code[0] != 0 {
                code[0]
            } else if libc::unshare(libc::CLONE_NEWNET) != 0 {
                errno()
            } else {
                0
            };
            code[2] = match &ll {
                None => -1,
                Some(fd) => {
                    libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                    if libc::syscall(libc::SYS_landlock_restrict_self, fd.as_raw_fd(), 0) != 0 {
                        errno()
                    } else {
                        0
                    }
                }
            };
            code[3] = match &prog {
                None => -1,
                Some(p) => {
                    libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                    let f = libc::sock_fprog {
                        len: p.len() as u16,
                        filter: p.as_ptr() as *mut libc::sock_filter,
                    };
                    if libc::syscall(
                        libc::SYS_seccomp,
                        libc::SECCOMP_SET_MODE_FILTER,
                        0,
                        &f as *const libc::sock_fprog,
                    ) != 0
                    {
                        errno()
                    } else if libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0) >= 0 {
                        // The filter loaded but does not refuse what it should.
                        libc::EINVAL
                    } else {
                        0
                    }
                }
            };
            libc::write(write_fd, code.as_ptr().cast(), 16);
            libc::_exit(0);
        }
    }
    // SAFETY: closing our copy of the write end; the read end is ours.
    unsafe { libc::close(write_fd) };
    if pid < 0 {
        let e = std::io::Error::last_os_error();
        unsafe { libc::close(read_fd) };
        return all_refused(format!("could not probe (fork: {e})"), abi);
    }
    let mut code = [0i32; 4];
    // SAFETY: reads at most 16 bytes into `code`; then the fd is closed and the child reaped.
    let n = unsafe { libc::read(read_fd, code.as_mut_ptr().cast(), 16) };
    unsafe {
        libc::close(read_fd);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    if n != 16 {
        return all_refused(
            "could not probe (the probing child said nothing)".into(),
            abi,
        );
    }
    let os = |e: i32| std::io::Error::from_raw_os_error(e).to_string();
    if code[0] != 0 {
        refused.push((
            Layer::Namespaces,
            format!("unshare(CLONE_NEWUSER | CLONE_NEWPID): {}", os(code[0])),
        ));
    }
    if code[1] != 0 {
        refused.push((
            Layer::Network,
            format!("unshare(CLONE_NEWNET): {}", os(code[1])),
        ));
    }
    if code[2] > 0 {
        refused.push((
            Layer::Filesystem,
            format!("landlock_restrict_self: {}", os(code[2])),
        ));
    }
    if code[3] > 0 {
        refused.push((Layer::Syscalls, format!("seccomp: {}", os(code[3]))));
    }
    for l in pretend_refused() {
        if !refused.iter().any(|(x, _)| *x == l) {
            refused.push((l, "refused (test: OPSDESK_TEST_SANDBOX_REFUSE)".into()));
        }
    }
    Support {
        refused,
        landlock_abi: if abi > 0 { abi } else { 0 },
    }
}

#[cfg(target_os = "linux")]
fn all_refused(why: String, abi: i32) -> Support {
    Support {
        refused: Layer::ALL.into_iter().map(|l| (l, why.clone())).collect(),
        landlock_abi: abi.max(0),
    }
}

#[cfg(not(target_os = "linux"))]
fn probe_kernel() -> Support {
    let _ = pretend_refused();
    Support {
        refused: Layer::ALL
            .into_iter()
            .map(|l| (l, "only built on Linux".to_string()))
            .collect(),
        landlock_abi: 0,
    }
}

/// Make this process non-dumpable: no process of the same user (a vault tool, a script) can
/// then read its memory or `/proc/<pid>/environ`, where the API keys of the environment are.
pub fn protect_this_process() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn sb(mode: SandboxMode, support: Support) -> Sandbox {
        Sandbox {
            mode,
            support,
            isolate_network: true,
        }
    }

    #[test]
    fn the_probe_gives_an_answer_with_reasons_when_it_refuses() {
        let s = probe();
        for (l, why) in &s.refused {
            assert!(!why.is_empty(), "{l:?}");
        }
        assert!(std::ptr::eq(probe(), probe()));
    }

    #[test]
    fn a_complete_sandbox_runs_every_tool() {
        let s = sb(SandboxMode::Require, Support::all());
        assert_eq!(
            s.verdict(true, false, false),
            Verdict::Run { no_network: true }
        );
        assert_eq!(
            s.verdict(false, true, true),
            Verdict::Run { no_network: false }
        );
        assert!(
            s.line().starts_with("sandbox (require): namespaces"),
            "{}",
            s.line()
        );
    }

    #[test]
    fn require_refuses_every_tool_when_a_layer_is_missing() {
        let s = sb(SandboxMode::Require, Support::without(&[Layer::Filesystem]));
        match s.verdict(false, true, true) {
            Verdict::Refuse { reason } => {
                assert!(reason.contains("filesystem"), "{reason}");
                assert!(reason.contains("Landlock"), "names the remedy: {reason}");
            }
            v => panic!("{v:?}"),
        }
        assert!(s.line().contains("no tool runs"), "{}", s.line());
    }

    #[test]
    fn best_effort_refuses_phi_and_drafting_tools_but_runs_plain_readers() {
        let s = sb(
            SandboxMode::BestEffort,
            Support::without(&[Layer::Namespaces]),
        );
        assert!(
            matches!(s.verdict(true, true, false), Verdict::Refuse { reason } if reason.contains("may see PHI"))
        );
        assert!(
            matches!(s.verdict(false, false, false), Verdict::Refuse { reason } if reason.contains("draft_only"))
        );
        assert_eq!(
            s.verdict(false, true, false),
            Verdict::Run { no_network: true }
        );
    }

    #[test]
    fn the_network_layer_matters_only_to_tools_without_the_network() {
        let s = sb(SandboxMode::Require, Support::without(&[Layer::Network]));
        assert!(matches!(
            s.verdict(false, true, false),
            Verdict::Refuse { .. }
        ));
        assert_eq!(
            s.verdict(false, true, true),
            Verdict::Run { no_network: false }
        );
        let off = Sandbox {
            isolate_network: false,
            ..s
        };
        assert_eq!(
            off.verdict(false, true, false),
            Verdict::Run { no_network: false }
        );
        assert!(off.complete());
    }

    #[test]
    fn the_filters_compile_and_refuse_x32_numbers() {
        let f = Filters::build().unwrap();
        if std::env::consts::ARCH == "x86_64" {
            assert_eq!(
                f.network[4].k, 0x4000_0000,
                "the x32 guard follows the arch check"
            );
        }
        assert!(f.no_network.len() > 10);
    }
}
