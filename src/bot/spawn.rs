//! Starting a bot's process without copying arena.
//!
//! `fork` copies the page tables of a process with many threads and a large heap, and every page
//! either side writes afterwards is copied again; then `exec` throws the copy away. In a
//! tournament of short games that was about 40% of arena's time (bench/README.md). Here the child
//! shares arena's memory (`CLONE_VM`) and arena's thread waits (`CLONE_VFORK`) until the child has
//! exec'd or failed, as `posix_spawn` does; unlike `posix_spawn`, the child can first do the
//! set-up a bot needs (its cgroup, session, user, limits, parent-death signal).
//!
//! The child runs on a stack of its own and shares everything else with arena, so between clone
//! and exec it makes plain system calls only: no allocation, no lock, nothing of glibc's that
//! thinks it is a thread of arena's (`setuid` and friends there signal every thread of the
//! process, so they are made as raw system calls). Whatever it needs was prepared before the
//! clone; a failure is left in shared memory for arena to read once it resumes.
//!
//! A bot with a cgroup starts in it: `clone3` with `CLONE_INTO_CGROUP` (5.7), so that no process
//! is moved between groups. A move (writing `cgroup.procs`) takes a lock that now and then waits
//! for an RCU grace period, 4 to 28 ms during which every game starting or ending a bot waits too
//! (bench/README.md). libc does not wrap `clone3` for a child on a stack of its own, so it is made
//! here in a few lines of assembly (x86-64); elsewhere, or on an older kernel, the child joins its
//! group by writing `cgroup.procs`.

use std::collections::BTreeMap;
use std::ffi::{CString, OsStr, OsString};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

use nix::libc::{self, c_char, c_int, c_void};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tokio::io::unix::AsyncFd;

/// linux/capability.h
const CAP_SYS_PTRACE: libc::c_ulong = 19;

/// The child's stack: what it runs is a few system calls deep.
const STACK: usize = 64 * 1024;

/// How often a child is looked at where the kernel gives no descriptor to wait on (before 5.2),
/// or said it had exited before it could be collected.
const POLL: Duration = Duration::from_millis(5);

/// Where one of the child's standard streams comes from.
pub enum Stdio {
    /// arena's own.
    Inherit,
    Null,
    Fd(OwnedFd),
}

/// A cgroup's folder, to start a child in, and its `cgroup.procs`, for the child to join it
/// where the kernel cannot start it there.
#[derive(Debug, Clone, Copy)]
pub struct CgroupEntry {
    pub dir: RawFd,
    pub procs: RawFd,
}

/// A program to start and the set-up its process gets before it runs.
pub struct Spawn {
    program: OsString,
    args: Vec<OsString>,
    env: BTreeMap<OsString, OsString>,
    cwd: Option<OsString>,
    stdio: [Stdio; 3],
    /// A cgroup to start in, or else join first (as the sandbox's user it could not).
    pub cgroup: Option<CgroupEntry>,
    /// The `cgroup.procs` of more groups to join (v1 hierarchies' limits, `controllers`).
    pub joins: Vec<RawFd>,
    /// Out of the bounding set: as root, CAP_SYS_PTRACE would let the bot read arena's memory.
    pub drop_ptrace: bool,
    /// A new session, so no controlling terminal: the bot cannot type into arena's (TIOCSTI).
    pub setsid: bool,
    /// A process group of its own (without a session of its own): out of the reach of Ctrl-C,
    /// which is for arena.
    pub own_group: bool,
    /// The unprivileged user and group to become.
    pub user: Option<(u32, u32)>,
    /// SIGKILL when arena's thread that started it goes, as when arena is killed.
    pub die_with_arena: bool,
    /// A user namespace of its own, made before its limits are set: there RLIMIT_NPROC counts
    /// the processes and threads of this bot alone (`user_namespaces`).
    pub new_userns: bool,
    /// Resource limits, (resource, soft, hard).
    pub rlimits: Vec<(c_int, u64, u64)>,
    /// A descriptor left open across exec (the sandbox's ready pipe).
    pub keep: Option<RawFd>,
}

impl Spawn {
    pub fn new(program: impl AsRef<OsStr>) -> Spawn {
        Spawn {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            stdio: [Stdio::Inherit, Stdio::Inherit, Stdio::Inherit],
            cgroup: None,
            joins: Vec::new(),
            drop_ptrace: false,
            setsid: false,
            own_group: false,
            user: None,
            die_with_arena: false,
            new_userns: false,
            rlimits: Vec::new(),
            keep: None,
        }
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(&mut self, args: I) -> &mut Spawn {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Set a variable of the child's environment, which starts empty; a later value wins.
    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Spawn {
        self.env
            .insert(key.as_ref().to_owned(), value.as_ref().to_owned());
        self
    }

    pub fn envs<I, K, V>(&mut self, vars: I) -> &mut Spawn
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        for (k, v) in vars {
            self.env(k, v);
        }
        self
    }

    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Spawn {
        self.cwd = Some(dir.as_ref().as_os_str().to_owned());
        self
    }

    pub fn stdin(&mut self, s: Stdio) -> &mut Spawn {
        self.stdio[0] = s;
        self
    }

    pub fn stdout(&mut self, s: Stdio) -> &mut Spawn {
        self.stdio[1] = s;
        self
    }

    pub fn stderr(&mut self, s: Stdio) -> &mut Spawn {
        self.stdio[2] = s;
        self
    }

    /// Start the process. The descriptors given for its streams are closed in arena once it
    /// has them (or has failed).
    pub fn spawn(mut self) -> std::io::Result<Child> {
        let path = program_path(&self.program, self.env.get(OsStr::new("PATH")))?;
        let path = cstring(path.as_bytes())?;
        let mut argv_owned = vec![cstring(self.program.as_bytes())?];
        for a in &self.args {
            argv_owned.push(cstring(a.as_bytes())?);
        }
        let mut envp_owned = Vec::with_capacity(self.env.len());
        for (k, v) in &self.env {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            envp_owned.push(cstring(&kv)?);
        }
        let argv = null_terminated(&argv_owned);
        let envp = null_terminated(&envp_owned);
        let cwd = self
            .cwd
            .as_ref()
            .map(|c| cstring(c.as_bytes()))
            .transpose()?;

        // Descriptors below 3 would be overwritten by the first dup2 onto a standard stream
        // before another is dup'd from them (arena started with a stream closed): copies of
        // them (`try_clone` gives 3 or above) are used instead.
        let null = match self.stdio.iter().any(|s| matches!(s, Stdio::Null)) {
            true => {
                let null = std::fs::File::options()
                    .read(true)
                    .write(true)
                    .open("/dev/null")?;
                Some(match null.as_raw_fd() < 3 {
                    true => null.try_clone()?,
                    false => null,
                })
            }
            false => None,
        };
        for s in &mut self.stdio {
            if let Stdio::Fd(fd) = s
                && fd.as_raw_fd() < 3
            {
                *fd = fd.try_clone()?;
            }
        }
        let stdio = [0, 1, 2].map(|i| match &self.stdio[i] {
            Stdio::Inherit => -1,
            Stdio::Null => null.as_ref().map_or(-1, |f| f.as_raw_fd()),
            Stdio::Fd(fd) => fd.as_raw_fd(),
        });

        let plan = Plan {
            path: path.as_ptr(),
            argv: argv.as_ptr(),
            envp: envp.as_ptr(),
            cwd: cwd.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
            stdio,
            cgroup: self.cgroup.map_or(-1, |c| c.procs),
            cgroup_dir: self.cgroup.map_or(-1, |c| c.dir),
            started_in_cgroup: AtomicBool::new(false),
            joins: &self.joins,
            ran: AtomicBool::new(false),
            drop_ptrace: self.drop_ptrace,
            setsid: self.setsid,
            own_group: self.own_group,
            user: self.user,
            arena: arena_pid(),
            die_with_arena: self.die_with_arena,
            new_userns: self.new_userns,
            rlimits: &self.rlimits,
            keep: self.keep.unwrap_or(-1),
            error: AtomicI32::new(0),
        };
        let (pid, pidfd) = clone_child(&plan)?;
        let errno = plan.error.load(Ordering::Acquire);
        if errno != 0 {
            // It has exited: collect it, so that no zombie is left.
            // SAFETY: waits for our own child, which is gone.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
            return Err(std::io::Error::from_raw_os_error(errno));
        }
        let pidfd = match pidfd {
            // SAFETY: the descriptor is owned by the AsyncFd from here on, and never replaced.
            Some(fd) => Some(unsafe { AsyncFd::register(fd)? }),
            None => None,
        };
        Ok(Child {
            pid: Pid::from_raw(pid),
            pidfd,
            status: None,
        })
    }
}

/// Whether arena may give a bot a user namespace of its own (not where the kernel, a
/// distribution's setting or a container's seccomp filter forbids unprivileged ones): learnt
/// once, by starting `/bin/true` in one.
pub fn user_namespaces() -> bool {
    static CAN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CAN.get_or_init(|| {
        // The tests' build can be told to do without, as where a distribution forbids them
        // (Ubuntu 24.04's AppArmor setting): what arena does there is tested on any machine.
        #[cfg(feature = "test-game")]
        if std::env::var_os("ARENA_TEST_NO_USER_NAMESPACES").is_some() {
            return false;
        }
        let mut probe = Spawn::new("/bin/true");
        probe.new_userns = true;
        probe
            .stdin(Stdio::Null)
            .stdout(Stdio::Null)
            .stderr(Stdio::Null);
        // Dropped, it is reaped (it has exited, or is killed first).
        probe.spawn().is_ok()
    })
}

/// The program as exec takes it: a name without a slash is looked for in the child's `PATH`.
fn program_path(program: &OsStr, path: Option<&OsString>) -> std::io::Result<OsString> {
    if program.as_bytes().contains(&b'/') {
        return Ok(program.to_owned());
    }
    let path = path.cloned().or_else(|| std::env::var_os("PATH"));
    std::env::split_paths(&path.unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|p| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .map(|p| p.into_os_string())
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
}

fn cstring(bytes: &[u8]) -> std::io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a program, argument or variable holds a NUL byte",
        )
    })
}

fn null_terminated(strings: &[CString]) -> Vec<*const c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect()
}

/// Everything the child needs, made before the clone: it reads this and allocates nothing.
struct Plan<'a> {
    path: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
    cwd: *const c_char,
    /// What to dup onto 0, 1, 2; -1 leaves arena's.
    stdio: [RawFd; 3],
    /// The group's `cgroup.procs` and folder.
    cgroup: RawFd,
    cgroup_dir: RawFd,
    /// Set by arena before a clone that starts the child in its group: it then joins no group.
    started_in_cgroup: AtomicBool,
    joins: &'a [RawFd],
    /// Set by the child as it starts: one the kernel killed at birth never ran.
    ran: AtomicBool,
    drop_ptrace: bool,
    setsid: bool,
    own_group: bool,
    user: Option<(u32, u32)>,
    arena: libc::pid_t,
    die_with_arena: bool,
    new_userns: bool,
    rlimits: &'a [(c_int, u64, u64)],
    keep: RawFd,
    /// The errno of the step that failed, written by the child before it exits.
    error: AtomicI32,
}

/// Whether the kernel gives pidfds with clone (5.2); learnt on the first spawn.
static NO_PIDFD: AtomicBool = AtomicBool::new(false);

/// Clone the child onto its own stack, all signals blocked across the clone (a handler of
/// arena's must not run in the child, on arena's memory). Returns once it has exec'd or failed.
fn clone_child(plan: &Plan) -> std::io::Result<(libc::pid_t, Option<OwnedFd>)> {
    thread_local! {
        // One per thread, made once: a thread is stopped while its child uses it.
        static CHILD_STACK: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; STACK]);
    }
    CHILD_STACK.with_borrow_mut(|stack| clone_on(plan, stack))
}

fn clone_on(plan: &Plan, stack: &mut [u8]) -> std::io::Result<(libc::pid_t, Option<OwnedFd>)> {
    // The stack grows down from its end, which must be 16-byte aligned.
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: plain calls on sets we own.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
    }
    let mut pidfd: c_int = -1;
    let result = match clone_into_cgroup(plan, stack, top, &mut pidfd) {
        Some(pid) => pid,
        None => clone_joining(plan, top, &mut pidfd),
    };
    let error = std::io::Error::last_os_error();
    // SAFETY: restores this thread's mask.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    if result == -1 {
        return Err(error);
    }
    // SAFETY: with CLONE_PIDFD the kernel wrote a new descriptor, ours alone.
    let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
    Ok((result, pidfd))
}

/// Clone with libc: the child joins its group itself, if it has one. Returns -1 and sets errno
/// on failure.
fn clone_joining(plan: &Plan, top: usize, pidfd: &mut c_int) -> libc::pid_t {
    loop {
        let with_pidfd = !NO_PIDFD.load(Ordering::Relaxed);
        let flags = libc::CLONE_VM
            | libc::CLONE_VFORK
            | libc::SIGCHLD
            | if with_pidfd { libc::CLONE_PIDFD } else { 0 };
        // SAFETY: the child runs `child_main` on the stack below `top`, which outlives it (this
        // thread waits until the child has exec'd or exited), and reads `plan`, borrowed for as
        // long.
        let result = unsafe {
            libc::clone(
                child_main,
                top as *mut c_void,
                flags,
                plan as *const Plan as *mut c_void,
                pidfd as *mut c_int,
            )
        };
        if result == -1
            && with_pidfd
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL)
        {
            NO_PIDFD.store(true, Ordering::Relaxed);
            continue;
        }
        return result;
    }
}

/// linux/sched.h; libc's constant has the wrong type.
const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

/// Whether the kernel can start a child in a cgroup (clone3 with CLONE_INTO_CGROUP, 5.7; not
/// where a seccomp filter refuses clone3); learnt on the first spawn.
pub(super) static NO_INTO_CGROUP: AtomicBool = AtomicBool::new(false);

/// Clone the child straight into its group. `None` where that cannot be done (no group, not
/// x86-64, a kernel without it) or failed: the caller then clones it the other way, which
/// reports a failure that is not the kernel's lack.
#[cfg(target_arch = "x86_64")]
fn clone_into_cgroup(
    plan: &Plan,
    stack: &mut [u8],
    top: usize,
    pidfd: &mut c_int,
) -> Option<libc::pid_t> {
    if plan.cgroup_dir < 0 || NO_INTO_CGROUP.load(Ordering::Relaxed) {
        return None;
    }
    let bottom = stack.as_mut_ptr() as usize;
    // SAFETY: all zeroes is a valid clone_args (no flags, no pointers).
    let mut args: libc::clone_args = unsafe { std::mem::zeroed() };
    args.flags =
        (libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PIDFD) as u64 | CLONE_INTO_CGROUP;
    args.pidfd = pidfd as *mut c_int as u64;
    args.exit_signal = libc::SIGCHLD as u64;
    // The child's stack pointer starts at stack + stack_size: `top`, 16-byte aligned.
    args.stack = bottom as u64;
    args.stack_size = (top - bottom) as u64;
    args.cgroup = plan.cgroup_dir as u64;
    plan.started_in_cgroup.store(true, Ordering::Release);
    // SAFETY: as for `clone_joining`: the child runs `child_main(plan)` on `stack`, which
    // outlives it, and this thread waits until the child has exec'd or exited.
    let result = unsafe {
        clone3(
            &args,
            std::mem::size_of::<libc::clone_args>(),
            child_main,
            plan as *const Plan as *mut c_void,
        )
    };
    plan.started_in_cgroup.store(false, Ordering::Release);
    if result >= 0 {
        let pid = result as libc::pid_t;
        if plan.ran.load(Ordering::Acquire) {
            return Some(pid);
        }
        // Killed at birth (a kernel that counts a group's kills seems to compare the count with
        // arena's own group's: see `Cgroup::killed`): collected, and never asked again.
        // SAFETY: our own child, gone; the pidfd the kernel gave for it is ours alone.
        unsafe {
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            if *pidfd >= 0 {
                libc::close(*pidfd);
                *pidfd = -1;
            }
        }
        NO_INTO_CGROUP.store(true, Ordering::Relaxed);
        return None;
    }
    // No clone3 (before 5.3, or a seccomp filter), or none that takes a group (before 5.7).
    if matches!(-result as c_int, libc::ENOSYS | libc::E2BIG | libc::EINVAL) {
        NO_INTO_CGROUP.store(true, Ordering::Relaxed);
    }
    None
}

#[cfg(not(target_arch = "x86_64"))]
fn clone_into_cgroup(_: &Plan, _: &mut [u8], _: usize, _: &mut c_int) -> Option<libc::pid_t> {
    None
}

/// The clone3 system call. In the child, which starts on the stack `args` gives, it calls
/// `child(arg)`, which must not return; in arena it returns the child's pid or -errno.
///
/// SAFETY: `args` must give a stack that outlives the child and ends 16-byte aligned, and the
/// child must be able to run `child` there (CLONE_VM with CLONE_VFORK: see `clone_child`).
#[cfg(target_arch = "x86_64")]
unsafe fn clone3(
    args: *const libc::clone_args,
    size: usize,
    child: extern "C" fn(*mut c_void) -> c_int,
    arg: *mut c_void,
) -> libc::c_long {
    let result: libc::c_long;
    // The kernel keeps every register but rax (the result), rcx and r11 in the child, whose
    // stack pointer is the new stack's top: `call` leaves it as a function expects at entry.
    unsafe {
        std::arch::asm!(
            "syscall",
            "test rax, rax",
            "jnz 2f",
            "mov rdi, r12",
            "call r13",
            "ud2",
            "2:",
            inlateout("rax") libc::SYS_clone3 => result,
            in("rdi") args,
            in("rsi") size,
            in("r12") arg,
            in("r13") child,
            lateout("rcx") _,
            lateout("r11") _,
        );
    }
    result
}

/// The child, from clone to exec. Never returns.
extern "C" fn child_main(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the plan `clone_child` passed, alive until this process execs or exits.
    let plan = unsafe { &*(arg as *const Plan) };
    plan.ran.store(true, Ordering::Release);
    // SAFETY: system calls only, on what the plan holds; see the module's comment.
    let errno = unsafe { become_bot(plan) };
    plan.error.store(errno, Ordering::Release);
    // SAFETY: ends the child alone (it is a process of its own); arena then reads the error.
    unsafe { libc::_exit(127) }
}

/// The pid a bot's first process checks its parent against. arena never forks without exec, so
/// it is asked once, not at every spawn.
fn arena_pid() -> libc::pid_t {
    static PID: std::sync::OnceLock<libc::pid_t> = std::sync::OnceLock::new();
    *PID.get_or_init(|| std::process::id() as libc::pid_t)
}

fn errno() -> c_int {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// Set the child up and exec; returns the errno of the step that failed.
///
/// SAFETY: to be called only in the child of `clone_child`.
unsafe fn become_bot(plan: &Plan) -> c_int {
    unsafe {
        if plan.cgroup >= 0
            && !plan.started_in_cgroup.load(Ordering::Acquire)
            && libc::write(plan.cgroup, b"0".as_ptr().cast(), 1) != 1
        {
            return errno();
        }
        for &procs in plan.joins {
            if libc::write(procs, b"0".as_ptr().cast(), 1) != 1 {
                return errno();
            }
        }
        if plan.drop_ptrace {
            // A container's root without CAP_SETPCAP cannot drop it, and has no CAP_SYS_PTRACE.
            libc::prctl(libc::PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0);
        }
        if plan.setsid && libc::setsid() == -1 {
            return errno();
        }
        if plan.own_group && libc::setpgid(0, 0) == -1 {
            return errno();
        }
        if let Some((uid, gid)) = plan.user {
            let no_groups: *const libc::gid_t = std::ptr::null();
            if libc::syscall(libc::SYS_setgroups, 0, no_groups) == -1
                || libc::syscall(libc::SYS_setgid, gid) == -1
                || libc::syscall(libc::SYS_setuid, uid) == -1
            {
                return errno();
            }
        }
        // After setuid (whose user owns the namespace), before the limits: a namespace takes
        // its creator's RLIMIT_NPROC as the bound on all its processes, counted also in the
        // user's own count, which is not the bot's to be held to.
        if plan.new_userns && libc::unshare(libc::CLONE_NEWUSER) == -1 {
            return errno();
        }
        if plan.die_with_arena {
            // After setuid, which clears it.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) == -1 {
                return errno();
            }
            if libc::getppid() != plan.arena {
                // arena died before the signal was asked for.
                return libc::ESRCH;
            }
        }
        for &(resource, soft, hard) in plan.rlimits {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource as _, &limit) == -1 {
                return errno();
            }
        }
        if plan.keep >= 0 && libc::fcntl(plan.keep, libc::F_SETFD, 0) == -1 {
            return errno();
        }
        for (target, &fd) in plan.stdio.iter().enumerate() {
            // dup2 clears close-on-exec on the copy.
            if fd >= 0 && libc::dup2(fd, target as c_int) == -1 {
                return errno();
            }
        }
        if !plan.cwd.is_null() && libc::chdir(plan.cwd) == -1 {
            return errno();
        }
        // The program starts with every signal at its default (those arena ignores stay ignored,
        // as exec keeps them, but for SIGPIPE and SIGXFSZ, which arena ignores for itself) and
        // none blocked.
        let mut action: libc::sigaction = std::mem::zeroed();
        for sig in 1..libc::SIGRTMAX() {
            if libc::sigaction(sig, std::ptr::null(), &mut action) != 0 {
                continue;
            }
            let handled =
                action.sa_sigaction != libc::SIG_DFL && action.sa_sigaction != libc::SIG_IGN;
            if handled || sig == libc::SIGPIPE || sig == libc::SIGXFSZ {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &default, std::ptr::null_mut());
            }
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        libc::execve(plan.path, plan.argv, plan.envp);
        errno()
    }
}

/// A started process, waited for through its pidfd (or by polling, on kernels without one).
/// Dropped before it was reaped, it is killed and reaped.
pub struct Child {
    pid: Pid,
    pidfd: Option<AsyncFd<OwnedFd>>,
    status: Option<ExitStatus>,
}

impl Child {
    pub fn id(&self) -> Pid {
        self.pid
    }

    /// Its status if it has exited, reaping it.
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        if let Some(status) = self.status {
            return Ok(Some(status));
        }
        let mut raw: c_int = 0;
        // SAFETY: our own child, not yet reaped (so the pid is still its).
        match unsafe { libc::waitpid(self.pid.as_raw(), &mut raw, libc::WNOHANG) } {
            0 => Ok(None),
            -1 => Err(std::io::Error::last_os_error()),
            _ => {
                let status = ExitStatus::from_raw(raw);
                self.status = Some(status);
                Ok(Some(status))
            }
        }
    }

    /// Wait for it to exit. Cancel-safe.
    pub async fn wait(&mut self) -> std::io::Result<ExitStatus> {
        if let Some(status) = self.status {
            return Ok(status);
        }
        if let Some(fd) = &self.pidfd {
            // Readable once it has exited. Asked first, so that a wait begun for every line a
            // bot sends costs no system call while the bot lives.
            drop(fd.readable().await?);
        }
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(status);
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if self.status.is_some() || matches!(self.try_wait(), Ok(Some(_)) | Err(_)) {
            return;
        }
        let _ = kill(self.pid, Signal::SIGKILL);
        if !matches!(self.try_wait(), Ok(Some(_))) {
            // Dying, not yet dead: collected off this thread, which may be a game's.
            let pid = self.pid;
            let reap = move || {
                // SAFETY: waits for our own child, which no one else reaps.
                unsafe { libc::waitpid(pid.as_raw(), std::ptr::null_mut(), 0) };
            };
            if std::thread::Builder::new()
                .name("arena-reap".into())
                .spawn(reap)
                .is_err()
            {
                // SAFETY: as above, here and now.
                unsafe { libc::waitpid(pid.as_raw(), std::ptr::null_mut(), 0) };
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::io::Read;

    /// Runs `argv` with its stdout on a pipe; returns what it printed and how it ended.
    pub(in crate::bot) async fn output(mut spawn: Spawn) -> (String, ExitStatus) {
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).unwrap();
        spawn.stdout(Stdio::Fd(write));
        let mut child = spawn.spawn().unwrap();
        let mut text = String::new();
        std::fs::File::from(read).read_to_string(&mut text).unwrap();
        (text, child.wait().await.unwrap())
    }

    #[tokio::test]
    async fn the_child_gets_its_arguments_environment_and_folder_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let mut spawn = Spawn::new("sh");
        spawn
            .args(["-c", "echo \"$1\"; env | sort; pwd", "sh", "one arg"])
            .env("PATH", "/usr/bin:/bin")
            .env("A", "1")
            .env("A", "2")
            .current_dir(dir.path());
        let (text, status) = output(spawn).await;
        assert!(status.success());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "one arg");
        // The shell adds PWD (and some add SHLVL): the rest is what was given.
        let env: Vec<&str> = lines[1..lines.len() - 1]
            .iter()
            .copied()
            .filter(|l| !l.starts_with("PWD=") && !l.starts_with("SHLVL=") && !l.starts_with("_="))
            .collect();
        assert_eq!(env, ["A=2", "PATH=/usr/bin:/bin"]);
        let pwd = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(lines[lines.len() - 1], pwd.to_str().unwrap());
    }

    /// Nothing of arena's signal handling reaches the program: none blocked, SIGPIPE not
    /// ignored (Rust ignores it for itself), whatever arena's thread had blocked.
    #[tokio::test]
    async fn the_program_starts_with_no_signal_blocked_or_ignored_by_arena() {
        let mut spawn = Spawn::new("/bin/cat");
        spawn.args(["/proc/self/status"]);
        // SAFETY: plain calls on sets owned here; the test's thread is the one that spawns.
        let mut usr1: libc::sigset_t = unsafe { std::mem::zeroed() };
        unsafe {
            libc::sigemptyset(&mut usr1);
            libc::sigaddset(&mut usr1, libc::SIGUSR1);
            libc::pthread_sigmask(libc::SIG_BLOCK, &usr1, std::ptr::null_mut());
        }
        let (text, status) = output(spawn).await;
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &usr1, std::ptr::null_mut()) };
        assert!(status.success());
        let field = |name: &str| {
            let line = text.lines().find(|l| l.starts_with(name)).unwrap();
            u64::from_str_radix(line.split_whitespace().nth(1).unwrap(), 16).unwrap()
        };
        assert_eq!(field("SigBlk:"), 0, "{text}");
        let sigpipe = 1u64 << (libc::SIGPIPE - 1);
        assert_eq!(field("SigIgn:") & sigpipe, 0, "{text}");
    }

    /// RLIMIT_NPROC counts every process of the user, but in a user namespace of the child's
    /// own only the child's: under a limit of 2, with 4 other processes of its user running, a
    /// shell forks once, and a second fork while the first child lives is refused. Run as root
    /// (which RLIMIT_NPROC never binds), as `nobody`.
    #[tokio::test]
    async fn in_a_user_namespace_of_its_own_a_child_is_held_to_its_own_processes() {
        assert!(
            user_namespaces(),
            "this kernel gives no user namespace: arena cannot hold processes for a bot alone"
        );
        let user = nix::unistd::geteuid().is_root().then_some((65534, 65534));
        let others: Vec<Child> = (0..4)
            .map(|_| {
                let mut sleep = Spawn::new("/bin/sleep");
                sleep.args(["30"]).stdout(Stdio::Null);
                sleep.user = user;
                sleep.spawn().unwrap()
            })
            .collect();
        // Each child lives a moment; a refused fork is EAGAIN, told at once (no retry).
        let script = "import os, time\n\
                      def fork():\n\
                      \x20   try:\n\
                      \x20       pid = os.fork()\n\
                      \x20   except BlockingIOError:\n\
                      \x20       return 'refused'\n\
                      \x20   if pid == 0:\n\
                      \x20       time.sleep(0.5)\n\
                      \x20       os._exit(0)\n\
                      \x20   return 'forked'\n\
                      print(fork(), fork(), flush=True)\n";
        let run = |new_userns: bool| {
            let mut spawn = Spawn::new("/usr/bin/python3");
            spawn.args(["-c", script]);
            spawn.user = user;
            spawn.new_userns = new_userns;
            spawn.rlimits = vec![(libc::RLIMIT_NPROC as c_int, 2, 2)];
            output(spawn)
        };
        let (text, _) = run(true).await;
        assert_eq!(text, "forked refused\n", "one fork, not two at once");
        let (text, _) = run(false).await;
        assert_eq!(text, "refused refused\n", "the user's others count");
        drop(others);
    }

    #[tokio::test]
    async fn a_program_that_cannot_be_run_is_an_error_of_the_right_kind() {
        let missing = Spawn::new("/nonexistent/program").spawn();
        assert_eq!(missing.err().unwrap().kind(), std::io::ErrorKind::NotFound);
        let not_found_in_path = Spawn::new("no-such-program-anywhere").spawn();
        assert_eq!(
            not_found_in_path.err().unwrap().kind(),
            std::io::ErrorKind::NotFound
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-executable");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        let denied = Spawn::new(&file).spawn();
        assert_eq!(
            denied.err().unwrap().kind(),
            std::io::ErrorKind::PermissionDenied
        );
    }

    #[tokio::test]
    async fn a_failed_set_up_is_reported_with_its_error() {
        let mut spawn = Spawn::new("/bin/true");
        spawn.current_dir("/nonexistent/folder");
        let e = spawn.spawn().err().unwrap();
        assert_eq!(e.raw_os_error(), Some(libc::ENOENT));
    }

    #[tokio::test]
    async fn wait_gives_the_exit_and_a_dropped_child_is_killed() {
        let mut spawn = Spawn::new("sh");
        spawn.args(["-c", "exit 3"]);
        let status = spawn.spawn().unwrap().wait().await.unwrap();
        assert_eq!(status.code(), Some(3));

        let mut spawn = Spawn::new("sleep");
        spawn.args(["30"]);
        let child = spawn.spawn().unwrap();
        let pid = child.id();
        drop(child);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while std::path::Path::new(&format!("/proc/{pid}")).exists()
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "killed and reaped"
        );
    }
}
