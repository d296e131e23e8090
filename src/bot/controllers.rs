//! The kernel's own limits on what a bot uses, through cgroup controllers: memory (cgroup v2's
//! `memory.max`, or a v1 hierarchy's `memory.limit_in_bytes`) and processes (`pids.max`).
//!
//! A controller limits what a bot's processes use, not what they reserve: a Java, Node or .NET
//! runtime reserves gigabytes of address space at start and touches little of it, so the
//! address-space limit (RLIMIT_AS), the only one a process can be given without a controller,
//! kills them before their first move. Where no controller can be used (not root, no delegated
//! hierarchy), `process` falls back to RLIMIT_AS for memory (which leaves out what a bot keeps in
//! a memfd or a tmpfs file) and, for processes, to RLIMIT_NPROC in a user namespace of the bot's
//! own, or to counting the bot's processes while it thinks (`process_hold`); `start_notes` says
//! which, as a run starts.
//!
//! cgroup v2 puts every controller in one hierarchy: the limits go in the bot's own group (the
//! one `cgroup` freezes and kills), once its folder of groups has the controllers enabled. Many
//! machines still bind memory and pids to v1 hierarchies beside a v2 one that has none (this one
//! does): then the bot also joins a group of its own in each v1 hierarchy, made here as
//! `<arena's group there>/arena-<pid>/bot-<n>`, between clone and exec, before it drops to the
//! sandbox's user (who could not move itself out).
//!
//! A limit hit is told by the kernel's counts, read when the bot ends: an out-of-memory kill in
//! its group (`oom_kill` in `memory.events`, or in v1's `memory.oom_control`), a fork refused at
//! `pids.max` (`max` in `pids.events`).

use std::fs::File;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::cgroup::Cgroup;

const MIB: u64 = 1024 * 1024;
const PREFIX: &str = "arena-";

/// The two controllers arena uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Controller {
    Memory,
    Pids,
}

impl Controller {
    fn name(self) -> &'static str {
        match self {
            Controller::Memory => "memory",
            Controller::Pids => "pids",
        }
    }
}

/// Which limits the kernel holds one bot to, and how to tell afterwards that it hit them.
#[derive(Debug, Default)]
pub struct Controlled {
    memory: Option<Count>,
    pids: Option<Count>,
    /// The v1 groups the bot joins; removed when it is done.
    joins: Vec<V1Group>,
}

impl Controlled {
    /// Put `memory_mb` and `processes` (plus the sandbox's `wrappers`, which count too) under
    /// controllers where the machine has them: in the bot's v2 `group` when its hierarchy has
    /// them, else in v1 groups of the bot's own. A limit left out is for the caller to enforce
    /// another way.
    pub fn apply(
        memory_mb: Option<u64>,
        processes: Option<u64>,
        group: Option<&Cgroup>,
        wrappers: usize,
    ) -> Controlled {
        let mut c = Controlled::default();
        if let Some(group) = group {
            group.reset_limits();
        }
        let wanted = [
            (
                Controller::Memory,
                memory_mb.map(|mb| mb.saturating_mul(MIB)),
            ),
            (
                Controller::Pids,
                processes.map(|n| n.saturating_add(wrappers as u64)),
            ),
        ];
        for (controller, limit) in wanted {
            let Some(limit) = limit else { continue };
            let count = group
                .and_then(|g| v2_limit(g, controller, limit))
                .or_else(|| {
                    let joined = V1Group::create(controller, limit)?;
                    let count = joined.count(controller);
                    c.joins.push(joined);
                    count
                });
            match controller {
                Controller::Memory => c.memory = count,
                Controller::Pids => c.pids = count,
            }
        }
        c
    }

    /// Whether the kernel holds the bot to its memory limit (else RLIMIT_AS must).
    pub fn limits_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// Whether the kernel holds the bot to its process limit (else arena counts them).
    pub fn limits_processes(&self) -> bool {
        self.pids.is_some()
    }

    /// The `cgroup.procs` of each v1 group the child writes itself into before exec.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.joins.iter().map(|g| g.procs.as_raw_fd()).collect()
    }

    /// Whether the kernel killed a process of the bot for using more than its memory limit.
    pub fn out_of_memory(&self) -> bool {
        self.memory.as_ref().is_some_and(Count::rose)
    }

    /// Whether the kernel refused the bot a process past its limit.
    pub fn refused_processes(&self) -> bool {
        self.pids.as_ref().is_some_and(Count::rose)
    }
}

/// Whether the kernel can hold bots to a memory limit here (else RLIMIT_AS must): a v2
/// hierarchy that gives the bots' groups the memory controller, or a v1 memory hierarchy arena
/// may write.
pub fn can_limit_memory() -> bool {
    super::cgroup::passes_down(Controller::Memory.name()) || v1_run(Controller::Memory).is_some()
}

/// Whether the kernel can hold bots to a process limit here with a pids controller (a v2
/// hierarchy that gives the bots' groups the controller, or a v1 pids hierarchy arena may write).
pub fn can_limit_processes() -> bool {
    super::cgroup::passes_down(Controller::Pids.name()) || v1_run(Controller::Pids).is_some()
}

/// How a bot's `processes` is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessHold {
    /// By a pids controller (`pids.max`).
    Controller,
    /// By RLIMIT_NPROC in a user namespace of the bot's own (bwrap's, in the sandbox), where it
    /// counts the bot's processes and threads alone.
    Namespace,
    /// Not by the kernel: arena counts the bot's processes while it waits for its move.
    Counted,
}

/// How a bot's `processes` is held here, sandboxed or not. RLIMIT_NPROC outside a namespace of
/// the bot's own would count every process and thread of the user, and never binds root.
pub fn process_hold(sandboxed: bool) -> ProcessHold {
    if can_limit_processes() {
        ProcessHold::Controller
    } else if (sandboxed || !super::is_root()) && super::spawn::user_namespaces() {
        ProcessHold::Namespace
    } else {
        ProcessHold::Counted
    }
}

/// What arena says as a run starts about the limits of its bots, each `(limits, sandboxed)`:
/// what holds `memory_mb` and `processes` here, and what they leave out.
pub fn start_notes<'a>(bots: impl IntoIterator<Item = (&'a super::Limits, bool)>) -> Vec<String> {
    let bots: Vec<_> = bots.into_iter().collect();
    let mut notes = Vec::new();
    let memory: Vec<bool> = bots
        .iter()
        .filter(|(l, _)| l.memory_mb.is_some())
        .map(|&(_, sandboxed)| sandboxed)
        .collect();
    if !memory.is_empty() && !can_limit_memory() {
        let mut note = "memory_mb is held here as an address-space limit (RLIMIT_AS): arena may \
                        use no cgroup memory controller (it needs root, or a delegated cgroup). \
                        Java, Node.js and .NET reserve far more than they use and may fail to \
                        start under it; see the README, section Limits. Not held: memory a bot \
                        keeps outside its address space, in a memfd or System V shared memory"
            .to_string();
        if memory.iter().any(|&s| !s) {
            note.push_str(", or in files of a tmpfs (/dev/shm; /tmp where it is one)");
        }
        if memory.iter().any(|&s| s) {
            note.push_str(
                "; in the sandbox, its /tmp and /dev/shm are tmpfs of disk_mb MiB each (64 by \
                 default), on top of memory_mb",
            );
        }
        note.push('.');
        notes.push(note);
    }
    let holds: Vec<ProcessHold> = bots
        .iter()
        .filter(|(l, _)| l.processes.is_some())
        .map(|&(_, sandboxed)| process_hold(sandboxed))
        .collect();
    if holds.contains(&ProcessHold::Namespace) {
        notes.push(
            "processes is held here as RLIMIT_NPROC in a user namespace of each bot's own (no \
             cgroup pids controller arena may use): it counts the bot's processes and threads \
             (a JVM runs about 24), not the user's others."
                .to_string(),
        );
    }
    if holds.contains(&ProcessHold::Counted) {
        let why = match super::is_root() {
            true => "RLIMIT_NPROC does not bind root",
            false => "no user namespace may be made",
        };
        notes.push(format!(
            "processes is not held by the kernel here (no cgroup pids controller arena may use; \
             {why}): arena counts each bot's processes (not threads) every 100 ms while it waits \
             for its move, and stops a bot past its limit; a burst between counts is not stopped."
        ));
    }
    notes
}

/// A kernel count that says a limit was hit: its file, its key, and its value when the bot got
/// the group (a v2 group is used again by later bots; its counts never go back to 0).
#[derive(Debug)]
struct Count {
    file: File,
    key: &'static str,
    before: u64,
}

impl Count {
    fn open(path: &Path, key: &'static str) -> Option<Count> {
        let file = File::open(path).ok()?;
        let mut count = Count {
            file,
            key,
            before: 0,
        };
        count.before = count.read()?;
        Some(count)
    }

    fn read(&self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 1024];
        let n = self.file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        // A kernel without the key (v1's oom_kill came in 4.13) counts nothing: say 0.
        Some(
            text.lines()
                .filter_map(|l| l.split_once(' '))
                .find(|(k, _)| *k == self.key)
                .and_then(|(_, v)| v.trim().parse().ok())
                .unwrap_or(0),
        )
    }

    fn rose(&self) -> bool {
        self.read().is_some_and(|n| n > self.before)
    }
}

/// Set the limit in the bot's v2 group, where its hierarchy has the controller; its count.
fn v2_limit(group: &Cgroup, controller: Controller, limit: u64) -> Option<Count> {
    let path = group.path();
    let (file, events, key) = match controller {
        Controller::Memory => ("memory.max", "memory.events", "oom_kill"),
        Controller::Pids => ("pids.max", "pids.events", "max"),
    };
    if !path.join(file).exists() {
        return None;
    }
    let count = Count::open(&path.join(events), key)?;
    group.mark_limited();
    std::fs::write(path.join(file), limit.to_string()).ok()?;
    if controller == Controller::Memory {
        // Else a bot past its limit goes on in swap, slowly, instead of being stopped.
        let _ = std::fs::write(path.join("memory.swap.max"), "0");
    }
    Some(count)
}

/// The v2 files `reset_limits` puts back to no limit, for the next bot of a group used again.
pub const V2_LIMIT_FILES: [&str; 3] = ["memory.max", "memory.swap.max", "pids.max"];

/// What to write in a v2 parent group's `cgroup.subtree_control` so that its bots' groups have
/// the controllers (each alone: one the parent lacks would fail the others).
pub const V2_CONTROLLERS: [&str; 2] = ["+memory", "+pids"];

/// A bot's group in a v1 hierarchy.
#[derive(Debug)]
struct V1Group {
    path: PathBuf,
    procs: File,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

impl V1Group {
    /// A new group limited to `limit` under this run's folder in the controller's hierarchy.
    fn create(controller: Controller, limit: u64) -> Option<V1Group> {
        let run = v1_run(controller)?;
        let path = run.join(format!("bot-{}", NEXT.fetch_add(1, Ordering::Relaxed)));
        std::fs::create_dir(&path).ok()?;
        let set = match controller {
            Controller::Memory => {
                let bytes = limit.to_string();
                let set = std::fs::write(path.join("memory.limit_in_bytes"), &bytes).is_ok();
                // Memory and swap together, where swap is accounted: a bot must not go on in
                // swap past its limit.
                let _ = std::fs::write(path.join("memory.memsw.limit_in_bytes"), &bytes);
                set
            }
            Controller::Pids => std::fs::write(path.join("pids.max"), limit.to_string()).is_ok(),
        };
        let procs = File::options().write(true).open(path.join("cgroup.procs"));
        match (set, procs) {
            (true, Ok(procs)) => Some(V1Group { path, procs }),
            _ => {
                let _ = std::fs::remove_dir(&path);
                None
            }
        }
    }

    fn count(&self, controller: Controller) -> Option<Count> {
        match controller {
            Controller::Memory => Count::open(&self.path.join("memory.oom_control"), "oom_kill"),
            Controller::Pids => Count::open(&self.path.join("pids.events"), "max"),
        }
    }

    fn is_empty(&self) -> bool {
        std::fs::read_to_string(self.path.join("cgroup.procs")).is_ok_and(|t| t.trim().is_empty())
    }
}

impl Drop for V1Group {
    /// Removed once its processes are gone (killed with the bot's v2 group, or by signals): a
    /// process that has exited may take a moment to leave it. One still held is left for
    /// `remove_stale` after this run.
    fn drop(&mut self) {
        for _ in 0..100 {
            if std::fs::remove_dir(&self.path).is_ok() || !self.is_empty() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }
}

/// Where a v1 hierarchy of `controller` is mounted, and arena's own group in it.
fn v1_own_group(controller: Controller) -> Option<PathBuf> {
    let name = controller.name();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // Fields: id parent dev root mountpoint options ... - fstype source super-options.
    let (root, mount) = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        let mut right = right.split_whitespace();
        let v1 = right.next()? == "cgroup";
        let options = right.nth(1)?;
        (v1 && options.split(',').any(|o| o == name)).then_some(())?;
        let mut left = left.split_whitespace();
        Some((left.nth(3)?.to_string(), left.next()?.to_string()))
    })?;
    // Lines of /proc/self/cgroup: id:controllers:path, the path from the hierarchy's root.
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        controllers.split(',').any(|c| c == name).then_some(path)
    })?;
    // A mount of a sub-tree (a container's) shows the group from that sub-tree's root.
    let inside = Path::new(path).strip_prefix(&root).ok()?;
    Some(Path::new(&mount).join(inside))
}

/// This run's folder in the v1 hierarchy of `controller`, made on first use; `None` where there
/// is none, or arena may not write it.
fn v1_run(controller: Controller) -> Option<&'static Path> {
    static RUNS: [OnceLock<Option<PathBuf>>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match controller {
        Controller::Memory => &RUNS[0],
        Controller::Pids => &RUNS[1],
    };
    slot.get_or_init(|| {
        let run = v1_own_group(controller)?.join(format!("{PREFIX}{}", std::process::id()));
        std::fs::create_dir(&run).ok()?;
        Some(run)
    })
    .as_deref()
}

/// Remove this run's v1 folders, at exit (their bots' groups are gone by then).
pub fn remove_run() {
    for controller in [Controller::Memory, Controller::Pids] {
        if let Some(run) = v1_own_group(controller)
            .map(|g| g.join(format!("{PREFIX}{}", std::process::id())))
            .filter(|r| r.exists())
        {
            super::cgroup::remove_tree(&run);
        }
    }
}

/// Remove the v1 folders that runs killed before they could clean up left (their arena is gone,
/// and their bots with it).
pub fn remove_stale() {
    for controller in [Controller::Memory, Controller::Pids] {
        let Some(parent) = v1_own_group(controller) else {
            continue;
        };
        super::cgroup::remove_stale_runs(&parent, PREFIX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits land where the machine has the controllers, and the kernel holds a process
    /// to them: a shell that forks past `pids.max` is refused, and the count says so.
    #[tokio::test]
    async fn a_bot_is_held_to_its_process_limit_by_the_kernel() {
        let group = Cgroup::create();
        let c = Controlled::apply(None, Some(3), group.as_ref(), 0);
        if !c.limits_processes() {
            eprintln!("skipped: no pids controller arena may use here");
            return;
        }
        assert!(!c.refused_processes());
        let mut spawn = super::super::spawn::Spawn::new("/bin/sh");
        // The shell and three sleeps would be four.
        spawn.args(["-c", "sleep 0.2 & sleep 0.2 & sleep 0.2 & wait"]);
        spawn.cgroup = group.as_ref().map(Cgroup::entry);
        spawn.joins = c.join_fds();
        let _ = super::super::spawn::tests::output(spawn).await;
        assert!(c.refused_processes(), "the fork past the limit was refused");
    }
}
