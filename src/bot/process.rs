//! Bots as processes: spawning on either channel, line I/O under deadlines, capturing stderr, and
//! making sure nothing a bot started outlives its game.

use std::fs::OpenOptions;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::Duration;

use futures_util::StreamExt;
use nix::sys::signal::{Signal, killpg};
use nix::sys::stat::Mode;
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep, sleep_until, timeout};
use tokio_util::codec::{FramedRead, LinesCodecError};

use super::chunk::read_chunk;
use super::framing::{FrameCodec, Framing};

use super::controllers::Controlled;
use super::spawn::{Child, Spawn, Stdio};
use super::{BotCommand, BotSpec, Channel, cgroup::Cgroup, reaper, ready, tree};
use crate::failure::{Cause, Exit, Fault, FaultKind};

/// How long arena keeps listening after a bot's process exited, for lines it wrote just before.
const EXIT_LINGER: Duration = Duration::from_millis(100);

/// How often a bot with a process limit has its processes counted while arena waits for it.
const PROCESS_POLL: Duration = Duration::from_millis(100);

/// Limits on what arena accepts from a bot.
#[derive(Debug, Clone, Copy)]
pub struct IoLimits {
    /// Longest line accepted, in bytes, without its newline.
    pub max_line: usize,
    /// Bytes of stderr kept in the capture file; the rest is counted and dropped.
    pub stderr_cap: u64,
    /// After the game: how long the bot may take to exit once its input is closed, and again
    /// after SIGTERM, before SIGKILL.
    pub grace: Duration,
    /// How messages are delimited: lines, or JSON values for the JSON games.
    pub framing: Framing,
}

impl Default for IoLimits {
    fn default() -> Self {
        IoLimits {
            max_line: 64 * 1024,
            stderr_cap: 1024 * 1024,
            grace: Duration::from_secs(1),
            framing: Framing::Lines,
        }
    }
}

/// What waiting for a line from a bot produced.
#[derive(Debug, PartialEq)]
pub enum Event {
    Line(String),
    /// The deadline passed with no complete line.
    Timeout,
    /// The bot closed its output (end of file).
    Eof,
    /// The bot's process ended (how, and in words) and left no line.
    Exited(Exit, String),
    /// A line longer than the limit.
    TooLong,
    /// Bytes that are not UTF-8.
    NotUtf8,
    ReadError(String),
}

impl Event {
    /// The fault for anything but a line; `waited` says what arena was waiting for.
    pub fn into_fault(self, waited: &str, max_line: usize) -> Fault {
        match self {
            Event::Line(_) => unreachable!("a line is not a fault"),
            Event::Timeout => {
                Fault::new(FaultKind::Timeout, format!("timed out {waited}")).because(Cause::Late)
            }
            Event::Eof => Fault::new(
                FaultKind::Crash,
                format!("closed its output {waited} (end of file)"),
            )
            .because(Cause::ClosedOutput),
            Event::Exited(exit, how) => {
                let kind = match exit {
                    Exit::MemoryLimit => FaultKind::Memory,
                    _ => FaultKind::Crash,
                };
                Fault::new(kind, format!("{how} {waited}")).because(Cause::Exited(exit))
            }
            Event::TooLong => {
                Fault::protocol(format!("sent a line longer than {max_line} bytes {waited}"))
                    .because(Cause::TooLong)
            }
            Event::NotUtf8 => Fault::protocol(format!("sent bytes that are not UTF-8 {waited}"))
                .because(Cause::NotUtf8),
            Event::ReadError(e) => {
                Fault::new(FaultKind::Crash, format!("read error {waited}: {e}"))
                    .because(Cause::ReadError)
            }
        }
    }
}

/// What runtimes that reserve much more address space than they use say when RLIMIT_AS stops
/// them at start (lowercased), and who they are.
const RESERVE_FAILURES: &[(&str, &str)] = &[
    ("error occurred during initialization of vm", "the Java VM"),
    ("could not reserve enough space", "the Java VM"),
    ("failed to reserve virtual memory", "Node.js"),
    ("fatal process oom", "Node.js"),
    ("failed to create coreclr", ".NET"),
    ("gc heap initialization failed", ".NET"),
];

/// How a process ended, as a fact.
pub fn exit_of(status: ExitStatus) -> Exit {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Exit::Status(code),
        (None, Some(sig)) => Exit::Signal(sig),
        _ => Exit::Unknown,
    }
}

pub fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => {
            let name = Signal::try_from(sig)
                .map(|s| s.as_str().to_string())
                .unwrap_or_else(|_| sig.to_string());
            format!("was killed by {name}")
        }
        _ => format!("ended ({status})"),
    }
}

type Lines = FramedRead<Box<dyn AsyncRead + Send + Unpin>, FrameCodec>;

/// A running process of a bot: its group, its captured stderr, its directories.
struct Process {
    child: Child,
    /// The bot's first process: its session and process group.
    pgid: Pid,
    /// The same process as the root of its tree, where there is no cgroup; `None` also if it
    /// was gone before it was looked at.
    root: Option<tree::Root>,
    /// The bot's cgroup, where arena may make one: then it, not the tree, is what is frozen,
    /// counted and killed. (A bot that arena runs as root, unsandboxed, could move a process of
    /// its own out of it; one whose parent dies is then given to arena and swept as an orphan.)
    cgroup: Option<Cgroup>,
    /// The limits the kernel holds the bot to (memory, processes), where it can.
    controlled: Controlled,
    /// Whether the kernel holds the bot alone to its process limit: a pids controller, or
    /// RLIMIT_NPROC in a user namespace of its own. Else arena counts its processes, and a fork
    /// refused is not told as the bot's excess.
    processes_held: bool,
    /// Levels of the tree that are the sandbox's own processes, not the bot's.
    wrappers: usize,
    /// Stopped while the bot is not to move (`Connection::freeze`).
    frozen: bool,
    /// arena's end of the bot's input, as the kernel names the file: what the bot waits on once
    /// it has started (`ready`).
    input: Option<ready::FileId>,
    limits: super::Limits,
    stderr_path: Option<PathBuf>,
    /// How the process ended, and that in words.
    exit: Option<(Exit, String)>,
    /// Set once `terminate` has killed the group; until then dropping the process kills it.
    terminated: bool,
    capture: Capture,
    // Removed when the game is over; kept alive until then.
    _workdir: Option<super::workdir::WorkDir>,
    _fifo_dir: Option<tempfile::TempDir>,
}

impl Process {
    /// Kill everything the bot runs: its tree (whatever group or session a process moved to;
    /// with a sandbox, the pid namespace, whose first process takes every other with it), and
    /// its process group, where a process whose parent died meanwhile may still be.
    fn kill(&mut self) {
        let killed = self.cgroup.as_ref().is_some_and(Cgroup::kill);
        if !killed && let Some(root) = self.root {
            tree::kill_all(root);
        }
        let _ = killpg(self.pgid, Signal::SIGKILL);
    }

    /// Whether arena must count the bot's processes itself: it has a limit that the kernel does
    /// not hold for the bot alone (no controller, no user namespace of its own).
    fn counts_processes(&self) -> bool {
        self.limits.processes.is_some() && !self.processes_held
    }

    fn set_frozen(&mut self, frozen: bool) {
        if self.frozen == frozen || self.exit.is_some() {
            return;
        }
        if let Some(cgroup) = &self.cgroup
            && cgroup.set_frozen(frozen)
        {
            self.frozen = frozen;
            return;
        }
        let Some(root) = self.root else {
            return;
        };
        if frozen {
            tree::freeze(root);
            // What escaped the tree while the bot was running must not run on meanwhile: swept
            // here and now, not left to the reaper's thread.
            reaper::sweep_here();
        } else {
            tree::thaw(root);
        }
        self.frozen = frozen;
    }

    /// `Connection::until_ready`, for a process whose tree is `root` and input `input`.
    async fn until_ready(
        &mut self,
        root: tree::Root,
        input: ready::FileId,
        begun: Instant,
        deadline: Instant,
    ) -> Start {
        let mut ready = ready::watch(root, self.wrappers, input, begun.into_std());
        tokio::select! {
            biased;
            status = self.child.wait(), if self.exit.is_none() => {
                self.exit = Some(match status {
                    Ok(s) => self.ended(s).await,
                    Err(e) => (Exit::Unknown, format!("could not be waited for: {e}")),
                });
                Start::Unseen
            }
            took = &mut ready => took.map_or(Start::Unseen, Start::Ready),
            _ = sleep_until(deadline) => Start::Starting,
        }
    }

    /// How the process ended, as a fact: an out-of-memory kill in the bot's group is its own.
    fn fact(&self, status: ExitStatus) -> Exit {
        if !status.success() && self.controlled.out_of_memory() {
            Exit::MemoryLimit
        } else {
            exit_of(status)
        }
    }

    /// How the process ended, as a fact and in words, once what it said as it failed is in its
    /// stderr file.
    async fn ended(&mut self, status: ExitStatus) -> (Exit, String) {
        let how = self.described(status).await;
        (self.fact(status), how)
    }

    /// How the process ended, naming the limit that stopped it when one did.
    fn describe(&self, status: ExitStatus) -> String {
        self.describe_saying(status, "")
    }

    /// `describe`, with `said` (what else the bot wrote as it failed, such as a line on its
    /// move stream) among its last words.
    fn describe_saying(&self, status: ExitStatus, said: &str) -> String {
        use std::os::unix::process::ExitStatusExt;
        let how = describe_exit(status);
        match Signal::try_from(status.signal().unwrap_or(0)) {
            Ok(Signal::SIGXCPU) => {
                let secs = self.limits.cpu_seconds.unwrap_or(0);
                return format!("{how}: it used up its CPU limit of {secs} s");
            }
            Ok(Signal::SIGXFSZ) => {
                let mb = self.limits.output_mb.unwrap_or(0);
                return format!("{how}: it wrote a file over its output limit of {mb} MiB");
            }
            _ => {}
        }
        if status.success() {
            return how;
        }
        // Told by the kernel's own counts, where a controller held the limit.
        if let Some(mb) = self.limits.memory_mb
            && self.controlled.out_of_memory()
        {
            return match status.signal() {
                Some(9) => format!(
                    "was killed by the kernel for using more than its memory limit of {mb} MiB"
                ),
                _ => format!(
                    "{how} after the kernel killed one of its processes for using more than its \
                     memory limit of {mb} MiB"
                ),
            };
        }
        if let Some(n) = self.limits.processes
            && self.controlled.refused_processes()
        {
            return format!("{how}: it ran more processes than its limit of {n}");
        }
        // A limit that makes a call fail (rather than send a signal) shows only in what the bot
        // said as it died.
        let Some(path) = &self.stderr_path else {
            return how;
        };
        let said = format!("{}\n{}", said.to_lowercase(), stderr_tail(path));
        self.limit_said(&how, &said).unwrap_or(how)
    }

    /// The limit a failing bot's last words (lowercased) name, with how it ended.
    fn limit_said(&self, how: &str, said: &str) -> Option<String> {
        let found = |words: &[&str]| words.iter().any(|w| said.contains(w));
        if let Some(mb) = self.limits.memory_mb {
            // Under RLIMIT_AS, a runtime that reserves more address space than it uses fails
            // before it runs a line of the bot's.
            if !self.controlled.limits_memory()
                && let Some((_, runtime)) = RESERVE_FAILURES.iter().find(|(w, _)| said.contains(w))
            {
                return Some(format!(
                    "{how}: {runtime} could not reserve its memory under memory_mb = {mb} \
                     (RLIMIT_AS here: no cgroup memory controller); raise it, or run arena as root"
                ));
            }
            if found(&[
                "memoryerror",
                "cannot allocate memory",
                "out of memory",
                "bad_alloc",
                "memory allocation",
            ]) {
                return Some(format!(
                    "{how}: it ran out of memory under its memory limit of {mb} MiB"
                ));
            }
        }
        if let Some(mb) = self.limits.output_mb
            && found(&["file too large", "efbig"])
        {
            return Some(format!(
                "{how}: it wrote a file over its output limit of {mb} MiB"
            ));
        }
        if let Some(n) = self.limits.open_files
            && found(&["too many open files", "emfile"])
        {
            return Some(format!("{how}: it hit its limit of {n} open files"));
        }
        // RLIMIT_NPROC in the bot's own user namespace fails the fork instead. Where it would
        // count other processes than the bot's, it is not set, and a fork refused is not the
        // bot's excess.
        if let Some(n) = self.limits.processes
            && self.processes_held
            && found(&[
                "resource temporarily unavailable",
                "eagain",
                "cannot fork",
                "fork: retry",
            ])
        {
            return Some(format!(
                "{how}: it was refused a process or thread past its limit of {n} (processes \
                 and threads count)"
            ));
        }
        None
    }

    /// How the process ended, once what it said as it failed is in its stderr file: a failing
    /// exit is described from its last words. Waits for them only so long, since a child of the
    /// bot may hold the pipe open.
    async fn described(&mut self, status: ExitStatus) -> String {
        if !status.success() {
            self.capture.wait(EXIT_LINGER).await;
        }
        self.describe(status)
    }

    /// End a bot that failed before its game started, with all its stderr in its file.
    async fn stop_before_start(&mut self, grace: Duration) {
        let (_, capture) = self.terminate_in_place(grace).await;
        capture.finish().await;
    }

    /// End a bot whose sandbox could not be set up: what bwrap said is arena's business, not
    /// the bot's stderr, and goes in the error.
    async fn sandbox_failed(&mut self, why: &str, stderr_path: &Path) -> StartError {
        self.stop_before_start(Duration::ZERO).await;
        let said = std::fs::read_to_string(stderr_path).unwrap_or_default();
        let _ = std::fs::remove_file(stderr_path);
        let said = said.trim();
        StartError::Arena(format!(
            "the sandbox could not be set up ({why}){}{said}",
            if said.is_empty() { "" } else { ": " }
        ))
    }

    /// Close-out: wait for the process to exit, then SIGTERM its group, a grace, SIGKILL, reap.
    /// The group is killed even when the leader exited by itself, so that children it left behind
    /// (holding the pipes open, or just running) go too. Returns how it ended, and its stderr
    /// capture, which may still be copying the last of it.
    async fn terminate(mut self, grace: Duration) -> (String, Capture) {
        self.terminate_in_place(grace).await
    }

    /// `terminate`, leaving the process to be dropped by its owner.
    async fn terminate_in_place(&mut self, grace: Duration) -> (String, Capture) {
        // A stopped bot could not read its end of file, nor exit.
        self.set_frozen(false);
        if self.exit.is_none()
            && let Ok(Ok(status)) = timeout(grace, self.child.wait()).await
        {
            self.exit = Some(self.ended(status).await);
        }
        if self.exit.is_none() {
            let _ = killpg(self.pgid, Signal::SIGTERM);
            if let Ok(Ok(status)) = timeout(grace, self.child.wait()).await {
                let how = format!("{} (after arena's SIGTERM)", describe_exit(status));
                self.exit = Some((exit_of(status), how));
            }
        }
        self.kill();
        self.terminated = true;
        if self.exit.is_none() {
            self.exit = Some(match self.child.wait().await {
                Ok(status) => (exit_of(status), describe_exit(status)),
                Err(e) => (Exit::Unknown, format!("could not be reaped: {e}")),
            });
        }
        reaper::release(self.pgid.as_raw());
        let capture = std::mem::replace(&mut self.capture, Capture::none());
        (
            self.exit.take().map(|(_, how)| how).unwrap_or_default(),
            capture,
        )
    }
}

/// The end of a bot's captured stderr, lowercased: where a failing program says why.
fn stderr_tail(stderr: &Path) -> String {
    let Ok(bytes) = std::fs::read(stderr) else {
        return String::new();
    };
    String::from_utf8_lossy(&bytes[bytes.len().saturating_sub(4096)..]).to_lowercase()
}

impl Drop for Process {
    /// A game abandoned half-way (Ctrl-C, a panic) still takes its bots' process groups with it.
    fn drop(&mut self) {
        if !self.terminated {
            self.kill();
            reaper::release(self.pgid.as_raw());
        }
        if let Some(group) = self.cgroup.take() {
            super::cgroup::release(group);
        }
    }
}

/// How a bot's start-up went (`Connection::until_ready`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// It waited for its first input after this long.
    Ready(Duration),
    /// It still did not when the startup allowance ran out.
    Starting,
    /// Nothing to tell: no process (the terminal), or it ended meanwhile.
    Unseen,
}

/// Why a bot did not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The bot's own doing (it exited, or did not open its pipes in time): it loses the game.
    Bot(Fault),
    /// arena's or the machine's (no pipe, no folder, no sandbox): the game is no one's fault.
    Arena(String),
}

/// A live line connection to a bot (a process, or the terminal).
pub struct Connection {
    writer: Box<dyn AsyncWrite + Send + Unpin>,
    lines: Lines,
    process: Option<Process>,
    limits: IoLimits,
}

impl Connection {
    /// Start a bot program. For the pipe channel this waits (up to `startup`) until the bot has
    /// opened both FIFOs, as coco does.
    pub async fn spawn(
        spec: &BotSpec,
        stderr_path: &Path,
        startup: Duration,
        limits: IoLimits,
    ) -> Result<Connection, StartError> {
        let argv = match &spec.command {
            BotCommand::Program(argv) => argv,
            BotCommand::Terminal => return Ok(Self::terminal(limits)),
            BotCommand::Builtin(_) => unreachable!("built-in bots have no process"),
        };
        if let Some(why) = &spec.unstartable {
            let fault = Fault::new(FaultKind::Crash, why.clone()).because(Cause::NotStarted);
            return Err(StartError::Bot(fault));
        }
        let sandbox = spec.sandbox.as_ref();
        let (workdir, dir) = working_folder(spec)?;
        // Run as root, arena starts the sandbox as an unprivileged user: inside it the bot is
        // that user, with no capability over anything of the machine's.
        let as_user = sandbox.filter(|_| super::is_root()).map(|s| s.user);
        let fifo_dir = match spec.channel {
            Channel::Pipe => Some(fifo_folder(as_user)?),
            Channel::Stdio => None,
        };
        let (argv, ready) = match sandbox {
            None => (argv.clone(), None),
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
        Ok(Connection {
            writer,
            lines: FramedRead::with_capacity(
                reader,
                FrameCodec::new(limits.framing, limits.max_line),
                LINE_BUFFER,
            ),
            process: Some(process),
            limits,
        })
    }

    /// A person playing on this terminal: the stream goes to stdout, moves come from stdin.
    pub fn terminal(limits: IoLimits) -> Connection {
        Connection {
            writer: Box::new(tokio::io::stdout()),
            lines: FramedRead::new(
                Box::new(tokio::io::stdin()),
                FrameCodec::new(limits.framing, limits.max_line),
            ),
            process: None,
            limits,
        }
    }

    /// Write lines (each already ending in a newline) and flush them. A frozen bot's pipe takes
    /// what it can hold; beyond that the bot is let run to read it, rather than blamed for not
    /// reading.
    pub async fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        use futures_util::FutureExt;
        let mut rest = bytes;
        if self.process.as_ref().is_some_and(|p| p.frozen) {
            while !rest.is_empty() {
                match self.writer.write(rest).now_or_never() {
                    Some(Ok(n)) if n > 0 => rest = &rest[n..],
                    _ => break,
                }
            }
            if !rest.is_empty() {
                self.set_frozen(false);
            }
        }
        self.writer.write_all(rest).await?;
        self.writer.flush().await
    }

    /// Wait for the next line until `deadline`. Cancel-safe: a partly read line stays buffered.
    pub async fn next_event(&mut self, deadline: Instant) -> Event {
        if let Some(event) = self.over_process_limit() {
            return event;
        }
        let mut deadline = deadline;
        loop {
            let exited = self.process.as_ref().is_none_or(|p| p.exit.is_some());
            tokio::select! {
                biased;
                item = self.lines.next() => return match item {
                    Some(Ok(line)) => Event::Line(line),
                    None => self.eof().await,
                    Some(Err(LinesCodecError::MaxLineLengthExceeded)) => Event::TooLong,
                    Some(Err(LinesCodecError::Io(e))) if e.kind() == std::io::ErrorKind::InvalidData => Event::NotUtf8,
                    Some(Err(LinesCodecError::Io(e))) => Event::ReadError(e.to_string()),
                },
                status = async { self.process.as_mut().expect("checked").child.wait().await }, if !exited => {
                    let exited_at = Instant::now();
                    let ended = match status {
                        Ok(s) => self.process.as_mut().expect("checked").ended(s).await,
                        Err(e) => (Exit::Unknown, format!("could not be waited for: {e}")),
                    };
                    self.process.as_mut().expect("checked").exit = Some(ended);
                    // Its last words may still be in the pipe, or a child may hold it open.
                    deadline = deadline.min(exited_at + EXIT_LINGER);
                }
                // RLIMIT_NPROC counts all of a user's processes and never binds root: count the
                // bot's group ourselves while it thinks.
                _ = sleep(PROCESS_POLL), if !exited && self.process.as_ref().is_some_and(Process::counts_processes) => {
                    if let Some(event) = self.over_process_limit() {
                        return event;
                    }
                }
                _ = sleep_until(deadline) => {
                    return match self.process.as_ref().and_then(|p| p.exit.clone()) {
                        Some((exit, how)) => Event::Exited(exit, how),
                        None => Event::Timeout,
                    };
                }
            }
        }
    }

    /// A bot running more processes than its limit is stopped, and the reason says so. Every
    /// process below the bot counts, whatever group or session it moved to; the sandbox's own
    /// do not.
    fn over_process_limit(&mut self) -> Option<Event> {
        let p = self.process.as_mut()?;
        let limit = p.limits.processes?;
        let running = match &p.cgroup {
            Some(cgroup) => cgroup.count().saturating_sub(p.wrappers),
            None => p.root.map_or(0, |root| tree::count(root, p.wrappers)),
        };
        if p.exit.is_some() || running as u64 <= limit {
            return None;
        }
        p.kill();
        let how = format!("was killed: it ran more processes than its limit of {limit}");
        p.exit = Some((Exit::ProcessLimit, how.clone()));
        Some(Event::Exited(Exit::ProcessLimit, how))
    }

    /// Whether the bot's process is known to have ended.
    pub fn ended(&self) -> bool {
        self.process.as_ref().is_some_and(|p| p.exit.is_some())
    }

    /// Stop every process of the bot while it is not to move, so that it cannot use the CPU its
    /// opponent is timed on; let them run again before it is asked for its move.
    pub fn set_frozen(&mut self, frozen: bool) {
        if let Some(p) = self.process.as_mut() {
            p.set_frozen(frozen);
        }
    }

    /// Let the bot start until it waits for its first input (`ready`), it exits, or `deadline`
    /// passes; then, if `hold`, stop it until it is asked for its first move. How long it took to
    /// get there, or why not.
    pub async fn until_ready(&mut self, deadline: Instant, hold: bool) -> Start {
        let begun = Instant::now();
        let Some(p) = self.process.as_mut() else {
            return Start::Unseen;
        };
        let start = match (p.input, tree::Root::of(p.pgid)) {
            (Some(input), Some(root)) => p.until_ready(root, input, begun, deadline).await,
            _ => Start::Unseen,
        };
        if hold {
            p.set_frozen(true);
        }
        start
    }

    /// How the bot ended, if it ends failing on its own within a moment: asked of a bot whose
    /// first answer failed, which may be its runtime's complaint that it could not start (`said`,
    /// what it wrote, is read with its stderr for the words that tell why).
    pub async fn failed_on_its_own(&mut self, said: &str) -> Option<(Exit, String)> {
        let p = self.process.as_mut()?;
        if p.terminated {
            return None;
        }
        // A stopped process could not finish exiting.
        p.set_frozen(false);
        let status = match timeout(EXIT_LINGER, p.child.wait()).await {
            Ok(Ok(status)) if !status.success() => status,
            _ => return None,
        };
        p.capture.wait(EXIT_LINGER).await;
        let ended = (p.fact(status), p.describe_saying(status, said));
        p.exit = Some(ended.clone());
        Some(ended)
    }

    /// End of the bot's output: usually it exited, and how it did says more than 'end of file'.
    async fn eof(&mut self) -> Event {
        let Some(p) = self.process.as_mut() else {
            return Event::Eof;
        };
        if p.exit.is_none()
            && let Ok(Ok(status)) = timeout(EXIT_LINGER, p.child.wait()).await
        {
            p.exit = Some(p.ended(status).await);
        }
        match &p.exit {
            Some((exit, how)) => Event::Exited(*exit, how.clone()),
            None => Event::Eof,
        }
    }

    /// End the connection: close the bot's input, let it exit, then kill its whole group.
    /// Returns how the process ended (empty for the terminal), and its stderr capture: the last
    /// of it may still be on its way to the file, and the game needs it there before it is
    /// recorded, not before the next game starts.
    pub async fn close(self) -> (String, Capture) {
        let Connection {
            writer,
            lines,
            process,
            limits,
        } = self;
        drop(writer);
        drop(lines);
        match process {
            Some(p) => p.terminate(limits.grace).await,
            None => (String::new(), Capture::none()),
        }
    }
}

/// What a bot inherits from arena's environment; everything else (tokens, agent sockets, the
/// build's variables) is left out. The spec's `env`, `TMPDIR` (the bot's own directory) and, on
/// the pipe channel, `COCO_PIPEIN`/`COCO_PIPEOUT` are added.
pub const INHERITED_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM",
];

fn inherited_env() -> &'static [(String, std::ffi::OsString)] {
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
struct Setup {
    /// Its cgroup, to start in.
    cgroup: Option<super::spawn::CgroupEntry>,
    /// More groups to join: those of v1 hierarchies that hold its limits.
    joins: Vec<RawFd>,
    /// The unprivileged user to become (arena runs as root, the bot in a sandbox).
    user: Option<(u32, u32)>,
    limits: super::Limits,
    /// The sandbox's ready descriptor, left open across exec.
    keep: Option<RawFd>,
}

/// How the bot is set up between clone and exec: in its cgroup (started there, or joining it
/// first: as the sandbox's user it could not), without the power to trace (as root,
/// CAP_SYS_PTRACE would let the bot read arena's environment, descriptors and memory, not
/// dumpable as it is), a session of its own (no controlling terminal, so it cannot type into
/// arena's: TIOCSTI), the sandbox's user, death with arena (SIGKILL when arena's thread that
/// started it goes, as when arena is killed), its resource limits.
fn prepare_child(cmd: &mut Spawn, child: Setup) {
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
    cmd.cgroup = child.cgroup;
    cmd.joins = child.joins;
    cmd.drop_ptrace = super::is_root();
    cmd.setsid = true;
    cmd.user = child.user;
    cmd.die_with_arena = true;
    cmd.keep = child.keep;
}

fn no_pipe(e: std::io::Error) -> StartError {
    StartError::Arena(format!("could not create a pipe: {e}"))
}

/// The bot's working folder: its `dir`; else a fresh one of arena's (taken from the pool, and
/// kept for as long as the bot runs); none for a sandboxed bot, which works in its own tmpfs.
fn working_folder(
    spec: &BotSpec,
) -> Result<(Option<super::workdir::WorkDir>, Option<PathBuf>), StartError> {
    match (&spec.dir, &spec.sandbox) {
        (Some(d), _) => Ok((None, Some(d.clone()))),
        (None, Some(_)) => Ok((None, None)),
        (None, None) => {
            let t = super::workdir::Pool::shared().take().map_err(|e| {
                StartError::Arena(format!("could not create a working directory: {e}"))
            })?;
            let p = t.path().to_path_buf();
            Ok((Some(t), Some(p)))
        }
    }
}

/// The private folder of the pipe channel's FIFOs, made before the bot starts.
fn fifo_folder(as_user: Option<(u32, u32)>) -> Result<tempfile::TempDir, StartError> {
    super::scratch()
        .and_then(|root| tempfile::Builder::new().prefix("pipes-").tempdir_in(root))
        .and_then(|d| give_to(d.path(), as_user).map(|()| d))
        .map_err(|e| StartError::Arena(format!("could not create the pipes' directory: {e}")))
}

/// The pipe on which the sandbox says it is ready: (read end, write end).
type ReadyPipe = (OwnedFd, OwnedFd);

/// The command line that starts the bot in its sandbox, and the pipe on which the sandbox says
/// it is ready.
fn sandboxed(
    spec: &BotSpec,
    sandbox: &super::Sandbox,
    argv: &[String],
    dir: Option<&Path>,
    fifo_dir: Option<&tempfile::TempDir>,
) -> Result<(Vec<String>, Option<ReadyPipe>), StartError> {
    let bwrap = super::Sandbox::bwrap().map_err(StartError::Arena)?;
    let (ready_read, ready_write) = bot_pipe(End::Read).map_err(no_pipe)?;
    let disk = spec
        .limits
        .disk_mb
        .unwrap_or(super::Sandbox::DEFAULT_DISK_MB);
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
fn sandbox_processes(spec: &BotSpec) -> Option<u64> {
    spec.limits
        .processes
        .filter(|_| !super::controllers::can_limit_processes() && super::spawn::user_namespaces())
}

/// The bot's program, arguments, folder and clean environment (`inherited_env`).
fn command(spec: &BotSpec, argv: &[String], dir: Option<&Path>) -> Spawn {
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
fn limit(
    cmd: &mut Spawn,
    spec: &BotSpec,
    as_user: Option<(u32, u32)>,
    keep: Option<RawFd>,
) -> (Option<Cgroup>, Controlled, usize, bool) {
    let sandboxed = spec.sandbox.is_some();
    let cgroup = Cgroup::create();
    let wrappers = if sandboxed {
        super::SANDBOX_WRAPPERS
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
        && !super::is_root()
        && super::spawn::user_namespaces();
    let held = controlled.limits_processes()
        || own_namespace
        || (sandboxed && sandbox_processes(spec).is_some());
    cmd.new_userns = own_namespace;
    let rlimits = super::Limits {
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
fn wire(
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
fn start(cmd: Spawn, program: &str) -> Result<Child, StartError> {
    let spawned = reaper::spawn_owned(|| {
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

/// Arena's ends of the bot's channel: at once for pipes; for FIFOs once the bot has opened its
/// own, as coco does. A bot that never does is over before its game starts, and what it said as
/// it failed is what `arena check` and the report show: all of it is kept.
async fn connect(
    process: &mut Process,
    wiring: Wiring,
    startup: Duration,
    grace: Duration,
) -> Result<
    (
        Box<dyn AsyncWrite + Send + Unpin>,
        Box<dyn AsyncRead + Send + Unpin>,
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
fn give_to(path: &Path, user: Option<(u32, u32)>) -> std::io::Result<()> {
    let Some((uid, gid)) = user else {
        return Ok(());
    };
    std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
    // bwrap, running as that user, must get through the scratch folder to bind it.
    let scratch = super::scratch()?;
    std::fs::set_permissions(scratch, std::fs::Permissions::from_mode(0o711))
}

/// Wait for the sandbox to say it is set up, just before it starts the bot.
async fn sandbox_ready(ready: OwnedFd, startup: Duration) -> Result<(), String> {
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
async fn open_fifos(
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
enum Wiring {
    Stdio(pipe::Sender, pipe::Receiver),
    Fifos(tempfile::TempDir, PathBuf, PathBuf),
}

/// Which end of a pipe is arena's.
enum End {
    Read,
    Write,
}

/// A pipe between arena and a bot, as (read end, write end): arena's end non-blocking, for the
/// runtime; the bot's blocking, as a program expects its standard streams. Made here rather than
/// by `Stdio::piped()`, after which tokio reads back and sets each end's flags (and checks the
/// type of a pipe it is given): system calls per pipe per bot, thousands a minute in a tournament
/// of short games.
fn bot_pipe(arena: End) -> std::io::Result<(OwnedFd, OwnedFd)> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    let ours = match arena {
        End::Read => &read,
        End::Write => &write,
    };
    fcntl(ours, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
    Ok((read, write))
}

/// A bot's stderr on its way to its capture file. The copy ends at the end of the pipe, once
/// every process holding it is gone: usually as the bot exits, but the exit can be seen first.
pub struct Capture {
    task: Option<JoinHandle<()>>,
    /// Sent (or dropped) to cut the copy off between two writes.
    cut: Option<tokio::sync::oneshot::Sender<()>>,
    /// How long a copy held open (by a process that escaped the bot's group) is waited for.
    grace: Duration,
}

impl Capture {
    fn start(rx: pipe::Receiver, path: &Path, limits: IoLimits) -> Capture {
        let (cut, cut_off) = tokio::sync::oneshot::channel();
        Capture {
            task: Some(tokio::spawn(capture(
                rx,
                path.to_path_buf(),
                limits,
                cut_off,
            ))),
            cut: Some(cut),
            grace: limits.grace,
        }
    }

    fn none() -> Capture {
        Capture {
            task: None,
            cut: None,
            grace: Duration::ZERO,
        }
    }

    /// Whether all of it is in the file.
    pub fn is_done(&self) -> bool {
        self.task.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Wait up to `limit` for the copy to end.
    async fn wait(&mut self, limit: Duration) {
        if let Some(task) = self.task.as_mut()
            && timeout(limit, task).await.is_ok()
        {
            self.task = None;
        }
    }

    /// Wait for the copy to end, up to the grace; then it is cut off where it is, once the
    /// write under way (if any) is in the file.
    pub async fn finish(mut self) {
        self.wait(self.grace).await;
        if let Some(task) = self.task {
            if let Some(cut) = self.cut.take() {
                let _ = cut.send(());
            }
            let _ = task.await;
        }
    }
}

/// A reader's first buffer: a move is a short line, and a longer one grows it. tokio-util's 8 KiB
/// for each bot of each running game was a tenth of arena's memory per game (bench/sdk.sh).
const LINE_BUFFER: usize = 1024;

/// How long a bot's stderr may wait in memory before it goes to its file, and how much of it.
const CAPTURE_DELAY: Duration = Duration::from_millis(20);
const CAPTURE_BATCH: usize = 32 * 1024;
/// The room for what waits that a capture keeps between batches.
const CAPTURE_KEPT: usize = 1024;

/// A capture file, made and written on the blocking pool.
struct CaptureFile {
    path: PathBuf,
    /// Made at the first byte: most bots say nothing, and a file per bot per game is a real
    /// part of a short game's cost.
    file: Option<std::fs::File>,
    /// Could not be made or written (a full disk): what comes is drained, not kept.
    failed: bool,
    pending: Vec<u8>,
}

impl CaptureFile {
    /// Write what is pending, making the file first if need be, and wait for it.
    async fn write_out(&mut self) {
        if self.failed {
            self.pending.clear();
            return;
        }
        let (path, file, pending) = (
            self.path.clone(),
            self.file.take(),
            std::mem::take(&mut self.pending),
        );
        let written = tokio::task::spawn_blocking(move || {
            use std::io::Write;
            let file = match file {
                Some(f) => Ok(f),
                // Made anew: a link planted under its name is removed, never written through.
                None => crate::files::create_anew(&path).map(|(f, _)| f),
            };
            // A full disk must not stop the game: stop keeping, keep draining.
            let file = file.and_then(|mut f| f.write_all(&pending).map(|()| f));
            (file.ok(), pending)
        })
        .await;
        match written {
            Ok((file, mut pending)) => {
                self.failed = file.is_none();
                self.file = file;
                pending.clear();
                // A bot that said a lot once need not hold a batch's room for the whole game.
                if pending.capacity() <= CAPTURE_KEPT {
                    self.pending = pending;
                }
            }
            Err(_) => self.failed = true,
        }
    }
}

/// Copy a bot's stderr to its capture file, up to the cap; count what goes beyond. The file is
/// made and written on the blocking pool, not on the game's thread: what the bot says is kept
/// in memory for `CAPTURE_DELAY` (or up to `CAPTURE_BATCH`), then written in one go, so that a
/// bot saying a line per move costs a trip to the pool per game rather than per line. Ends at
/// `cut_off` (a copy held open past its grace) once what it read is in the file.
async fn capture(
    mut rx: pipe::Receiver,
    path: PathBuf,
    limits: IoLimits,
    mut cut_off: tokio::sync::oneshot::Receiver<()>,
) {
    let mut out = CaptureFile {
        path,
        file: None,
        failed: false,
        pending: Vec::new(),
    };
    let mut kept = 0u64;
    let mut dropped = 0u64;
    let mut listening = true;
    // When what is pending must be written.
    let mut due: Option<Instant> = None;
    loop {
        let read = tokio::select! {
            biased;
            cut = &mut cut_off, if listening => match cut {
                Ok(()) => {
                    if due.is_some() {
                        out.write_out().await;
                    }
                    return;
                }
                // The capture was let go without `finish`: copy on to the end.
                Err(_) => {
                    listening = false;
                    continue;
                }
            },
            _ = sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                due = None;
                out.write_out().await;
                continue;
            }
            read = read_chunk(&mut rx) => read,
        };
        let buf = match read {
            Ok(chunk) if !chunk.is_empty() => chunk,
            _ => break,
        };
        let n = buf.len();
        let room = limits.stderr_cap.saturating_sub(kept) as usize;
        let keep = n.min(room);
        if !out.failed {
            out.pending.extend_from_slice(&buf[..keep]);
        }
        kept += keep as u64;
        dropped += (n - keep) as u64;
        if out.pending.len() >= CAPTURE_BATCH {
            due = None;
            out.write_out().await;
        } else if due.is_none() && (keep > 0 || (out.file.is_none() && !out.failed)) {
            due = Some(Instant::now() + CAPTURE_DELAY);
        }
    }
    if dropped > 0 && !out.failed {
        out.pending.extend_from_slice(
            format!("\n[arena: {dropped} more bytes of output dropped after the first {kept}]\n")
                .as_bytes(),
        );
    }
    if due.is_some() || !out.pending.is_empty() {
        out.write_out().await;
    }
}

/// A spectator program (`--spectate CMD`): receives the spectator stream on its stdin.
pub struct SpectatorSink {
    tx: Option<mpsc::UnboundedSender<String>>,
    task: JoinHandle<()>,
    process: Option<Process>,
}

impl SpectatorSink {
    pub fn spawn(command: &BotCommand, limits: IoLimits) -> Result<SpectatorSink, String> {
        let BotCommand::Program(argv) = command else {
            return Err("--spectate needs a program".into());
        };
        let no_pipe = |e| format!("could not start spectator '{}': {e}", argv[0]);
        let (read, write) = bot_pipe(End::Write).map_err(no_pipe)?;
        let mut stdin = pipe::Sender::from_owned_fd_unchecked(write).map_err(no_pipe)?;
        // The person's program: their environment, and their terminal to draw on.
        let mut cmd = Spawn::new(&argv[0]);
        cmd.args(&argv[1..])
            .envs(std::env::vars_os())
            .stdin(Stdio::Fd(read));
        cmd.own_group = true;
        let child = reaper::spawn_owned(|| {
            let child = cmd.spawn()?;
            let pid = child.id().as_raw() as u32;
            Ok((child, Some(pid)))
        })
        .map_err(no_pipe)?;
        let pgid = child.id();
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        let task = tokio::spawn(async move {
            while let Some(mut line) = rx.recv().await {
                line.push('\n');
                // A spectator that stops reading only loses its own view.
                if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
                    break;
                }
            }
        });
        let _ = limits;
        Ok(SpectatorSink {
            tx: Some(tx),
            task,
            process: Some(Process {
                child,
                pgid,
                root: tree::Root::of(pgid),
                cgroup: None,
                controlled: Controlled::default(),
                processes_held: false,
                wrappers: 0,
                frozen: false,
                input: None,
                limits: super::Limits::default(),
                stderr_path: None,
                exit: None,
                terminated: false,
                capture: Capture::none(),
                _workdir: None,
                _fifo_dir: None,
            }),
        })
    }

    pub fn sender(&self) -> mpsc::UnboundedSender<String> {
        self.tx.clone().expect("open until finished")
    }

    /// Close the stream and let the spectator finish drawing, then end it.
    pub async fn finish(mut self, grace: Duration) {
        self.tx = None;
        let _ = (&mut self.task).await;
        if let Some(p) = self.process.take() {
            let _ = p.terminate(grace).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::io::Write;

    /// A capture of a pipe whose write end the test holds, as a bot (or its escaped child) would.
    fn capturing(path: &Path, grace: Duration) -> (OwnedFd, Capture) {
        let (read, write) = bot_pipe(End::Read).unwrap();
        let rx = pipe::Receiver::from_owned_fd_unchecked(read).unwrap();
        let limits = IoLimits {
            grace,
            ..IoLimits::default()
        };
        (write, Capture::start(rx, path, limits))
    }

    #[tokio::test]
    async fn a_capture_is_done_once_its_pipe_is_closed_and_then_holds_everything() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stderr");
        let (write, capture) = capturing(&path, Duration::from_secs(10));
        let said = "last words\n".repeat(20_000);
        let mut writer = File::from(write);
        // More than a pipe holds, so the copy runs while the writer writes.
        let feeder = std::thread::spawn(move || {
            writer.write_all(said.as_bytes()).unwrap();
            writer
        });
        while !feeder.is_finished() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let writer = feeder.join().unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!capture.is_done(), "the pipe is still open");
        drop(writer);
        let started = std::time::Instant::now();
        capture.finish().await;
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "ended at end of file"
        );
        assert_eq!(std::fs::read(&path).unwrap().len(), 11 * 20_000);
    }

    #[tokio::test]
    async fn a_capture_held_open_is_cut_off_after_its_grace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stderr");
        let (write, capture) = capturing(&path, Duration::from_millis(200));
        let mut writer = File::from(write);
        writer.write_all(b"before\n").unwrap();
        let started = std::time::Instant::now();
        capture.finish().await;
        assert!(started.elapsed() >= Duration::from_millis(200));
        // Cut off where it was: what came before the grace ran out is kept.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "before\n");
        drop(writer);
    }
}
