//! Starting a bot's process: its command, environment, folder, limits and sandbox, and its
//! wiring (pipes, or two FIFOs it opens as coco's bots do).

use std::fs::OpenOptions;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use nix::sys::stat::Mode;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite};
use tokio::net::unix::pipe;
use tokio::time::{sleep, timeout};


use crate::bot::controllers::Controlled;
use crate::bot::spawn::{Child, Spawn, Stdio};
use crate::bot::{BotSpec, Channel, cgroup::Cgroup, reaper, ready, tree};
use crate::failure::{Cause, Exit, Fault, FaultKind};

use super::capture::Capture;
use super::{IoLimits, StartError};
use super::exit::Process;

/// What a bot inherits from arena's environment; everything else (tokens, agent sockets, the
/// build's variables) is left out. The spec's `env`, `TMPDIR` (the bot's own directory) and, on
/// the pipe channel, `COCO_PIPEIN`/`COCO_PIPEOUT` are added.
pub const INHERITED_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM",
];

pub(super) fn inherited_env() -> &'static [(String, std::ffi::OsString)] {
    // Read once: arena never changes its own environment, and a run starts thousands of bots.
    static ENV: std::sync::OnceLock<Vec<(String, std::ffi::OsString)>> = std::sync::OnceLock::new();
    ENV.get_or_init(|| {
        std::env::vars_os()
            .filter_map(|(k, v)| {
                let k = k.into_string().ok()?;
                (INHERITED_ENV.contains(&k.as_str()) || k.starts_with("LC_")).then_some((k, v))
            })
            .collect()
    })
}

/// What a bot's child process does before it becomes the bot.
pub(super) struct Setup {
    /// Its cgroup, to start in.
    cgroup: Option<crate::bot::spawn::CgroupEntry>,
    /// More groups to join: those of v1 hierarchies that hold its limits.
    joins: Vec<RawFd>,
    /// The unprivileged user to become (arena runs as root, the bot in a sandbox).
    user: Option<(u32, u32)>,
    limits: crate::bot::Limits,
    /// The sandbox's ready descriptor, left open across exec.
    keep: Option<RawFd>,
}

/// How the bot is set up between clone and exec: in its cgroup (started there, or joining it
/// first: as the sandbox's user it could not), without the power to trace (as root,
/// CAP_SYS_PTRACE would let the bot read arena's environment, descriptors and memory, not
/// dumpable as it is), a session of its own (so that it has no terminal to type into: TIOCSTI;
/// and its own share of the CPU) unless that is not needed (`own_session`) and else a process
/// group of its own in arena's session, the sandbox's user, death with arena (SIGKILL when arena's thread that
/// started it goes, as when arena is killed), its resource limits.
pub(super) fn prepare_child(cmd: &mut Spawn, child: Setup) {
    use nix::libc;
    let limits = child.limits;
    let mib = |m: u64| m.saturating_mul(1024 * 1024);
    cmd.rlimits = [
        (libc::RLIMIT_AS, limits.memory_mb.map(mib)),
        (libc::RLIMIT_CPU, limits.cpu_seconds),
        (libc::RLIMIT_NPROC, limits.processes),
        (libc::RLIMIT_NOFILE, limits.open_files),
        (libc::RLIMIT_FSIZE, limits.output_mb.map(mib)),
    ]
    .into_iter()
    .filter_map(|(resource, value)| {
        let value = value?;
        // For CPU time the kernel sends SIGXCPU at the soft limit and SIGKILL at the hard one:
        // a second apart, so that the signal says which limit it was.
        let hard = if resource == libc::RLIMIT_CPU {
            value + 1
        } else {
            value
        };
        Some((resource as _, value, hard))
    })
    .collect();
    // A bot with no limit of its own gets the one arena was started with, not arena's raised one.
    if limits.open_files.is_none()
        && let Some((soft, hard)) = crate::bot::descriptors::for_bots()
    {
        cmd.rlimits.push((libc::RLIMIT_NOFILE as _, soft, hard));
    }
    cmd.cgroup = child.cgroup;
    cmd.joins = child.joins;
    cmd.drop_ptrace = crate::bot::is_root();
    cmd.setsid = own_session();
    cmd.own_group = !cmd.setsid;
    cmd.user = child.user;
    cmd.die_with_arena = true;
    cmd.keep = child.keep;
}

/// Whether this run's bots only ever run one at a time: one game at a time, the bots not to
/// move frozen (no `ponder`). Set by the run before its first game; until then, no.
static ONE_AT_A_TIME: AtomicBool = AtomicBool::new(false);

/// Say whether this run's bots only ever run one at a time (`own_session`).
pub fn one_bot_at_a_time(yes: bool) {
    ONE_AT_A_TIME.store(yes, Ordering::Relaxed);
}

/// Whether a bot gets a session of its own. A new session is a scheduler autogroup of its own on
/// most kernels, which shares the CPU between bots that run at once bot by bot rather than
/// thread by thread: a bot of 8 threads in one game then takes no more of the machine than a bot
/// of one in the game beside it. But where only one bot runs at a time, a relayed round wakes
/// arena and each bot's autogroup in turn, up to ten times slower on a busy machine
/// (bench/README.md, issue 45). So a bot shares arena's session (in a process group, cgroup and
/// tree of its own) when bots take turns and arena has no controlling terminal; where it has one,
/// a bot in its session could open it and type into it (TIOCSTI). Without a terminal (cron, CI,
/// `nohup`, a service, `setsid`) none can be had in arena's session: a session's terminal is
/// taken by its leader only.
fn own_session() -> bool {
    static TERMINAL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    !ONE_AT_A_TIME.load(Ordering::Relaxed)
        || *TERMINAL.get_or_init(|| {
            use std::os::unix::fs::OpenOptionsExt;
            OpenOptions::new()
                .read(true)
                .custom_flags(nix::libc::O_NOCTTY)
                .open("/dev/tty")
                .is_ok()
        })
}

pub(super) fn no_pipe(e: std::io::Error) -> StartError {
    StartError::Arena(format!("could not create a pipe: {e}"))
}

/// The bot's working folder: its `dir`; else a fresh one of arena's (taken from the pool, and
/// kept for as long as the bot runs); none for a sandboxed bot, which works in its own tmpfs.
pub(super) fn working_folder(
    spec: &BotSpec,
) -> Result<(Option<crate::bot::workdir::WorkDir>, Option<PathBuf>), StartError> {
    match (&spec.dir, &spec.sandbox) {
        (Some(d), _) => Ok((None, Some(d.clone()))),
        (None, Some(_)) => Ok((None, None)),
        (None, None) => {
            let t = crate::bot::workdir::Pool::shared().take().map_err(|e| {
                StartError::Arena(format!("could not create a working directory: {e}"))
            })?;
            let p = t.path().to_path_buf();
            Ok((Some(t), Some(p)))
        }
    }
}

/// The private folder of the pipe channel's FIFOs, made before the bot starts.
pub(super) fn fifo_folder(as_user: Option<(u32, u32)>) -> Result<tempfile::TempDir, StartError> {
    crate::bot::scratch()
        .and_then(|root| tempfile::Builder::new().prefix("pipes-").tempdir_in(root))
        .and_then(|d| give_to(d.path(), as_user).map(|()| d))
        .map_err(|e| StartError::Arena(format!("could not create the pipes' directory: {e}")))
}

/// The pipe on which the sandbox says it is ready: (read end, write end).
type ReadyPipe = (OwnedFd, OwnedFd);

/// The command line that starts the bot in its sandbox, and the pipe on which the sandbox says
/// it is ready.
pub(super) fn sandboxed(
    spec: &BotSpec,
    sandbox: &crate::bot::Sandbox,
    argv: &[String],
    dir: Option<&Path>,
    fifo_dir: Option<&tempfile::TempDir>,
) -> Result<(Vec<String>, Option<ReadyPipe>), StartError> {
    let bwrap = crate::bot::Sandbox::bwrap().map_err(StartError::Arena)?;
    let (ready_read, ready_write) = bot_pipe(End::Read).map_err(no_pipe)?;
    let disk = spec
        .limits
        .disk_mb
        .unwrap_or(crate::bot::Sandbox::DEFAULT_DISK_MB);
    let fifos = fifo_dir.map(|d| d.path());
    let wrapped = sandbox.wrap(
        &bwrap,
        argv,
        dir,
        fifos,
        disk,
        sandbox_processes(spec),
        ready_write.as_raw_fd(),
    );
    Ok((wrapped, Some((ready_read, ready_write))))
}

/// The process limit the sandbox sets itself (RLIMIT_NPROC, in the user namespace bwrap makes
/// for the bot): where no pids controller holds it and the kernel gives user namespaces.
pub(super) fn sandbox_processes(spec: &BotSpec) -> Option<u64> {
    spec.limits
        .processes
        .filter(|_| !crate::bot::controllers::can_limit_processes() && crate::bot::spawn::user_namespaces())
}

/// The bot's program, arguments, folder and clean environment (`inherited_env`).
pub(super) fn command(spec: &BotSpec, argv: &[String], dir: Option<&Path>) -> Spawn {
    let mut cmd = Spawn::new(&argv[0]);
    let tmpdir = match spec.sandbox {
        Some(_) => PathBuf::from("/tmp"),
        None => dir.expect("an unsandboxed bot has a folder").to_path_buf(),
    };
    cmd.args(&argv[1..])
        // bwrap changes into the bot's folder itself, inside the sandbox.
        .current_dir(if spec.sandbox.is_some() {
            Path::new("/")
        } else {
            tmpdir.as_path()
        })
        .envs(inherited_env().iter().map(|(k, v)| (k, v)))
        .env("TMPDIR", &tmpdir)
        .envs(spec.env.iter().map(|(k, v)| (k, v)));
    cmd
}

/// The bot's cgroup, the limits the kernel holds it to, the levels of its tree that are the
/// sandbox's, and whether the kernel holds the bot alone to its process limit; the set-up
/// between clone and exec (`prepare_child`) for all of it.
pub(super) fn limit(
    cmd: &mut Spawn,
    spec: &BotSpec,
    as_user: Option<(u32, u32)>,
    keep: Option<RawFd>,
) -> (Option<Cgroup>, Controlled, usize, bool) {
    let sandboxed = spec.sandbox.is_some();
    let cgroup = Cgroup::create();
    let wrappers = if sandboxed {
        crate::bot::SANDBOX_WRAPPERS
    } else {
        0
    };
    let controlled = Controlled::apply(
        spec.limits.memory_mb,
        spec.limits.processes,
        cgroup.as_ref(),
        wrappers,
    );
    // Where no controller holds them: memory as address space, which runtimes that reserve much
    // more than they use do not survive (see `controllers`); processes by RLIMIT_NPROC in a user
    // namespace of the bot's own, where it counts the bot's processes and threads alone (in the
    // sandbox, bwrap's namespace: `sandbox_processes`). Elsewhere RLIMIT_NPROC would count every
    // process of the user (arena's threads, the desktop, the other bots) and refuse an honest
    // bot's fork: it is not set, and arena counts the bot's processes (root is not bound by it).
    let own_namespace = !sandboxed
        && !controlled.limits_processes()
        && spec.limits.processes.is_some()
        && !crate::bot::is_root()
        && crate::bot::spawn::user_namespaces();
    let held = controlled.limits_processes()
        || own_namespace
        || (sandboxed && sandbox_processes(spec).is_some());
    cmd.new_userns = own_namespace;
    let rlimits = crate::bot::Limits {
        memory_mb: spec
            .limits
            .memory_mb
            .filter(|_| !controlled.limits_memory()),
        processes: spec.limits.processes.filter(|_| own_namespace),
        ..spec.limits
    };
    prepare_child(
        cmd,
        Setup {
            cgroup: cgroup.as_ref().map(Cgroup::entry),
            joins: controlled.join_fds(),
            user: as_user,
            limits: rlimits,
            keep,
        },
    );
    (cgroup, controlled, wrappers, held)
}

/// The bot's standard streams, and arena's ends of its channel: pipes, or the two FIFOs (made
/// here, opened once it has started).
pub(super) fn wire(
    cmd: &mut Spawn,
    spec: &BotSpec,
    fifo_dir: Option<tempfile::TempDir>,
    as_user: Option<(u32, u32)>,
    err_write: OwnedFd,
) -> Result<Wiring, StartError> {
    match spec.channel {
        Channel::Stdio => {
            let (bot_in, to_bot) = bot_pipe(End::Write).map_err(no_pipe)?;
            let (from_bot, bot_out) = bot_pipe(End::Read).map_err(no_pipe)?;
            cmd.stdin(Stdio::Fd(bot_in))
                .stdout(Stdio::Fd(bot_out))
                .stderr(Stdio::Fd(err_write));
            Ok(Wiring::Stdio(
                pipe::Sender::from_owned_fd_unchecked(to_bot).map_err(no_pipe)?,
                pipe::Receiver::from_owned_fd_unchecked(from_bot).map_err(no_pipe)?,
            ))
        }
        Channel::Pipe => {
            let d = fifo_dir.expect("made for the pipe channel");
            let (pin, pout) = (d.path().join("coco.in"), d.path().join("coco.out"));
            for p in [&pin, &pout] {
                nix::unistd::mkfifo(p, Mode::S_IRUSR | Mode::S_IWUSR)
                    .map_err(std::io::Error::from)
                    .and_then(|()| give_to(p, as_user))
                    .map_err(|e| StartError::Arena(format!("could not create a FIFO: {e}")))?;
            }
            cmd.env("COCO_PIPEIN", &pin).env("COCO_PIPEOUT", &pout);
            if spec.console && spec.sandbox.is_none() {
                cmd.stdin(Stdio::Inherit).stdout(Stdio::Inherit);
            } else {
                // The bot's stdout is free on this channel: keep it with its stderr.
                let err_write2 = err_write.try_clone().map_err(no_pipe)?;
                cmd.stdin(Stdio::Null).stdout(Stdio::Fd(err_write2));
            }
            cmd.stderr(Stdio::Fd(err_write));
            Ok(Wiring::Fifos(d, pin, pout))
        }
    }
}

/// Start the bot. The bot's ends of the pipes go with `cmd`, closed once the bot has them: else
/// the capture would never end.
pub(super) fn start(cmd: Spawn, program: &str) -> Result<Child, StartError> {
    let spawned = reaper::spawn_owned(true, || {
        let child = cmd.spawn()?;
        let pid = child.id().as_raw() as u32;
        Ok((child, Some(pid)))
    });
    spawned.map_err(|e| {
        let what = format!("could not start '{program}': {e}");
        // A program gone or not executable is the bot's; no memory or processes left is not.
        match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
                StartError::Bot(Fault::new(FaultKind::Crash, what).because(Cause::NotStarted))
            }
            _ => StartError::Arena(what),
        }
    })
}

/// The bot's program started as `spec` says (folder, sandbox, limits, channel) and connected:
/// its process held, arena's ends of its input and output, and `limits` with the bot's own
/// stderr cap.
pub(super) async fn launch(
    spec: &BotSpec,
    argv: &[String],
    stderr_path: &Path,
    startup: Duration,
    limits: IoLimits,
) -> Result<(Process, Writer, Reader, IoLimits), StartError> {
    let sandbox = spec.sandbox.as_ref();
    let (workdir, dir) = working_folder(spec)?;
    // Run as root, arena starts the sandbox as an unprivileged user: inside it the bot is
    // that user, with no capability over anything of the machine's.
    let as_user = sandbox.filter(|_| crate::bot::is_root()).map(|s| s.user);
    let fifo_dir = match spec.channel {
        Channel::Pipe => Some(fifo_folder(as_user)?),
        Channel::Stdio => None,
    };
    let (argv, ready) = match sandbox {
        None => (argv.to_vec(), None),
        Some(sandbox) => sandboxed(spec, sandbox, argv, dir.as_deref(), fifo_dir.as_ref())?,
    };
    let mut cmd = command(spec, &argv, dir.as_deref());
    let (cgroup, controlled, wrappers, processes_held) = limit(
        &mut cmd,
        spec,
        as_user,
        ready.as_ref().map(|(_, w)| w.as_raw_fd()),
    );
    let mut limits = limits;
    if let Some(mb) = spec.limits.output_mb {
        limits.stderr_cap = mb * 1024 * 1024;
    }
    let (err_read, err_write) = bot_pipe(End::Read).map_err(no_pipe)?;
    let err_read = pipe::Receiver::from_owned_fd_unchecked(err_read).map_err(no_pipe)?;
    let wiring = wire(&mut cmd, spec, fifo_dir, as_user, err_write)?;
    let child = start(cmd, &argv[0])?;
    let pgid = child.id();
    let mut process = Process {
        child,
        pgid,
        // Read from /proc: not needed beside a cgroup, and a bot is started every few ms.
        root: cgroup.is_none().then(|| tree::Root::of(pgid)).flatten(),
        cgroup,
        controlled,
        processes_held,
        wrappers,
        frozen: false,
        input: None,
        limits: spec.limits,
        stderr_path: Some(stderr_path.to_path_buf()),
        exit: None,
        terminated: false,
        capture: Capture::start(err_read, stderr_path, limits),
        _workdir: workdir,
        _fifo_dir: None,
    };
    if let Some((ready_read, ready_write)) = ready {
        // Only the sandbox may hold the writing end, or its end would never be seen.
        drop(ready_write);
        if let Err(why) = sandbox_ready(ready_read, startup).await {
            return Err(process.sandbox_failed(&why, stderr_path).await);
        }
    }
    let (writer, reader) = connect(&mut process, wiring, startup, limits.grace).await?;
    Ok((process, writer, reader, limits))
}

/// arena's end of a bot's input, and of its output.
pub(super) type Writer = Box<dyn AsyncWrite + Send + Unpin>;
pub(super) type Reader = Box<dyn AsyncRead + Send + Unpin>;

/// Arena's ends of the bot's channel: at once for pipes; for FIFOs once the bot has opened its
/// own, as coco does. A bot that never does is over before its game starts, and what it said as
/// it failed is what `arena check` and the report show: all of it is kept.
pub(super) async fn connect(
    process: &mut Process,
    wiring: Wiring,
    startup: Duration,
    grace: Duration,
) -> Result<
    (
        Writer,
        Reader,
    ),
    StartError,
> {
    match wiring {
        Wiring::Stdio(tx, rx) => {
            process.input = ready::file_id(&tx);
            Ok((Box::new(tx), Box::new(rx)))
        }
        Wiring::Fifos(d, pin, pout) => {
            process._fifo_dir = Some(d);
            match open_fifos(process, &pin, &pout, startup).await {
                Ok((tx, rx)) => {
                    process.input = ready::file_id(&tx);
                    Ok((Box::new(tx), Box::new(rx)))
                }
                Err(fault) => {
                    process.stop_before_start(grace).await;
                    Err(StartError::Bot(fault))
                }
            }
        }
    }
}

/// Hand a folder or FIFO that the sandbox's user must open over to it (arena runs as root).
pub(super) fn give_to(path: &Path, user: Option<(u32, u32)>) -> std::io::Result<()> {
    let Some((uid, gid)) = user else {
        return Ok(());
    };
    std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
    // bwrap, running as that user, must get through the scratch folder to bind it.
    let scratch = crate::bot::scratch()?;
    std::fs::set_permissions(scratch, std::fs::Permissions::from_mode(0o711))
}

/// Wait for the sandbox to say it is set up, just before it starts the bot.
pub(super) async fn sandbox_ready(ready: OwnedFd, startup: Duration) -> Result<(), String> {
    let mut rx = pipe::Receiver::from_owned_fd_unchecked(ready).map_err(|e| e.to_string())?;
    let mut byte = [0u8; 1];
    match timeout(startup, rx.read(&mut byte)).await {
        Ok(Ok(1)) => Ok(()),
        Ok(Ok(_)) => Err("bwrap exited".into()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("not ready within {} s", startup.as_secs_f64())),
    }
}

/// Open arena's ends of the two FIFOs, as coco does: both at once (the bot may open them in
/// either order); the bot has started when both opens return. Blocking opens run on the blocking
/// pool; on failure they are released by opening the other ends ourselves.
pub(super) async fn open_fifos(
    process: &mut Process,
    pin: &Path,
    pout: &Path,
    startup: Duration,
) -> Result<(pipe::Sender, pipe::Receiver), Fault> {
    let (pin2, pout2) = (pin.to_path_buf(), pout.to_path_buf());
    let open_in = tokio::task::spawn_blocking(move || OpenOptions::new().write(true).open(pin2));
    let open_out = tokio::task::spawn_blocking(move || OpenOptions::new().read(true).open(pout2));
    let mut both = tokio::spawn(async move { (open_in.await, open_out.await) });
    let failure = tokio::select! {
        biased;
        opened = &mut both => {
            let (Ok(Ok(fin)), Ok(Ok(fout))) = opened.expect("the opener does not panic") else {
                return Err(Fault::new(FaultKind::Crash, "the pipes could not be opened")
                    .because(Cause::PipesNotOpened));
            };
            let wrap = |e: std::io::Error| {
                Fault::new(FaultKind::Crash, format!("pipe: {e}")).because(Cause::PipesNotOpened)
            };
            return Ok((pipe::Sender::from_file(fin).map_err(wrap)?, pipe::Receiver::from_file(fout).map_err(wrap)?));
        }
        status = process.child.wait() => {
            let (exit, how) = match status {
                Ok(s) => process.ended(s).await,
                Err(e) => (Exit::Unknown, e.to_string()),
            };
            process.exit = Some((exit, how.clone()));
            Fault::new(FaultKind::Crash, format!("{how} before opening COCO_PIPEIN and COCO_PIPEOUT"))
                .because(Cause::PipesNotOpened)
        }
        _ = sleep(startup) => Fault::new(
            FaultKind::Timeout,
            format!("did not open COCO_PIPEIN and COCO_PIPEOUT within {} s", startup.as_secs_f64()),
        )
        .because(Cause::PipesNotOpened),
    };
    // The blocking opens may not have reached the kernel yet: a release that only met an open
    // already waiting (a non-blocking open of one end) could come first and leave them blocked
    // for ever. Opened for reading and writing, a FIFO has both ends at once (Linux, fifo(7)),
    // so each open, whenever it comes, finds its other end while these are held.
    let _release_in = OpenOptions::new().read(true).write(true).open(pin);
    let _release_out = OpenOptions::new().read(true).write(true).open(pout);
    let _ = both.await;
    Err(failure)
}

/// How a bot's lines travel: pipes ready at once, or two FIFOs in their folder that arena opens
/// once the bot has started, as coco does.
pub(super) enum Wiring {
    Stdio(pipe::Sender, pipe::Receiver),
    Fifos(tempfile::TempDir, PathBuf, PathBuf),
}

/// Which end of a pipe is arena's.
pub(super) enum End {
    Read,
    Write,
}

/// A pipe between arena and a bot, as (read end, write end): arena's end non-blocking, for the
/// runtime; the bot's blocking, as a program expects its standard streams. Made here rather than
/// by `Stdio::piped()`, after which tokio reads back and sets each end's flags (and checks the
/// type of a pipe it is given): system calls per pipe per bot, thousands a minute in a tournament
/// of short games.
pub(super) fn bot_pipe(arena: End) -> std::io::Result<(OwnedFd, OwnedFd)> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    let ours = match arena {
        End::Read => &read,
        End::Write => &write,
    };
    fcntl(ours, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
    Ok((read, write))
}
