//! A bot's running process: frozen and thawed, stopped, and what its end says (a limit it hit,
//! a runtime that could not reserve its memory).

use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::time::{Instant, sleep_until, timeout};


use crate::bot::controllers::Controlled;
use crate::bot::spawn::Child;
use crate::bot::{cgroup::Cgroup, reaper, ready, tree};
use crate::failure::Exit;

use super::capture::Capture;
use super::{STDERR_LINGER, Start, StartError};

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

/// How `describe_exit` words a clean exit.
pub const CLEAN_EXIT: &str = "exited with status 0";

pub fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(0), _) => CLEAN_EXIT.to_string(),
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

/// A running process of a bot: its group, its captured stderr, its directories.
pub(super) struct Process {
    pub(super) child: Child,
    /// The bot's first process: its session and process group.
    pub(super) pgid: Pid,
    /// The same process as the root of its tree, where there is no cgroup; `None` also if it
    /// was gone before it was looked at.
    pub(super) root: Option<tree::Root>,
    /// The bot's cgroup, where arena may make one: then it, not the tree, is what is frozen,
    /// counted and killed. (A bot that arena runs as root, unsandboxed, could move a process of
    /// its own out of it; one whose parent dies is then given to arena and swept as an orphan.)
    pub(super) cgroup: Option<Cgroup>,
    /// The limits the kernel holds the bot to (memory, processes), where it can.
    pub(super) controlled: Controlled,
    /// Whether the kernel holds the bot alone to its process limit: a pids controller, or
    /// RLIMIT_NPROC in a user namespace of its own. Else arena counts its processes, and a fork
    /// refused is not told as the bot's excess.
    pub(super) processes_held: bool,
    /// Levels of the tree that are the sandbox's own processes, not the bot's.
    pub(super) wrappers: usize,
    /// Stopped while the bot is not to move (`Connection::freeze`).
    pub(super) frozen: bool,
    /// arena's end of the bot's input, as the kernel names the file: what the bot waits on once
    /// it has started (`ready`).
    pub(super) input: Option<ready::FileId>,
    pub(super) limits: crate::bot::Limits,
    pub(super) stderr_path: Option<PathBuf>,
    /// How the process ended, and that in words.
    pub(super) exit: Option<(Exit, String)>,
    /// Set once `terminate` has killed the group; until then dropping the process kills it.
    pub(super) terminated: bool,
    pub(super) capture: Capture,
    // Removed when the game is over; kept alive until then.
    pub(super) _workdir: Option<crate::bot::workdir::WorkDir>,
    pub(super) _fifo_dir: Option<tempfile::TempDir>,
}

impl Process {
    /// Kill everything the bot runs: its tree (whatever group or session a process moved to;
    /// with a sandbox, the pid namespace, whose first process takes every other with it), and
    /// its process group, where a process whose parent died meanwhile may still be.
    pub(super) fn kill(&mut self) {
        let killed = self.cgroup.as_ref().is_some_and(Cgroup::kill);
        if !killed && let Some(root) = self.root {
            tree::kill_all(root);
        }
        let _ = killpg(self.pgid, Signal::SIGKILL);
    }

    /// Whether arena must count the bot's processes itself: it has a limit that the kernel does
    /// not hold for the bot alone (no controller, no user namespace of its own).
    pub(super) fn counts_processes(&self) -> bool {
        self.limits.processes.is_some() && !self.processes_held
    }

    pub(super) fn set_frozen(&mut self, frozen: bool) {
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
    pub(super) async fn until_ready(
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
    pub(super) fn fact(&self, status: ExitStatus) -> Exit {
        if !status.success() && self.controlled.out_of_memory() {
            Exit::MemoryLimit
        } else {
            exit_of(status)
        }
    }

    /// How the process ended, as a fact and in words, once what it said as it failed is in its
    /// stderr file.
    pub(super) async fn ended(&mut self, status: ExitStatus) -> (Exit, String) {
        let how = self.described(status).await;
        (self.fact(status), how)
    }

    /// How the process ended, naming the limit that stopped it when one did.
    pub(super) fn describe(&self, status: ExitStatus) -> String {
        self.describe_saying(status, "")
    }

    /// `describe`, with `said` (what else the bot wrote as it failed, such as a line on its
    /// move stream) among its last words.
    pub(super) fn describe_saying(&self, status: ExitStatus, said: &str) -> String {
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
    pub(super) fn limit_said(&self, how: &str, said: &str) -> Option<String> {
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
    pub(super) async fn described(&mut self, status: ExitStatus) -> String {
        if !status.success() {
            self.capture.wait(STDERR_LINGER).await;
        }
        self.describe(status)
    }

    /// End a bot that failed before its game started, with all its stderr in its file.
    pub(super) async fn stop_before_start(&mut self, grace: Duration) {
        let (_, capture) = self.terminate_in_place(grace).await;
        capture.finish().await;
    }

    /// End a bot whose sandbox could not be set up: what bwrap said is arena's business, not
    /// the bot's stderr, and goes in the error.
    pub(super) async fn sandbox_failed(&mut self, why: &str, stderr_path: &Path) -> StartError {
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
    ///
    /// Not an `async fn`, which would hold the process twice (its argument, and the value the
    /// body works on) for as long as the bot takes to end.
    pub(super) fn terminate(
        self,
        grace: Duration,
    ) -> impl Future<Output = (String, Capture)> + Send + 'static {
        let mut process = self;
        async move {
            let ended = process.terminate_in_place(grace).await;
            // Its control group goes now, not when the future is dropped.
            drop(process);
            ended
        }
    }

    /// `terminate`, leaving the process to be dropped by its owner.
    pub(super) async fn terminate_in_place(&mut self, grace: Duration) -> (String, Capture) {
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
            crate::bot::cgroup::release(group);
        }
    }
}
