//! A cgroup (version 2) per bot, where arena may make them (as root, or with a delegated
//! hierarchy): the kernel keeps every process the bot starts in it, whatever session or parent
//! it moves to, so freezing (`cgroup.freeze`), killing (`cgroup.kill`) and counting them takes
//! one file each and leaves no race with a bot that forks. Where arena may not, `tree` does the
//! same with signals.
//!
//! Layout: `<arena's own cgroup>/arena-<pid>/bot-<n>`. Only arena writes there; a bot starts in
//! its group (`clone3` with `CLONE_INTO_CGROUP`), or joins it between clone and exec, before it
//! drops to the sandbox's user, and as that user it could not move itself out.

use std::fs::File;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// This run's folder of bot groups, made on first use; `None` where arena may not make one.
static RUN: OnceLock<Option<PathBuf>> = OnceLock::new();
static NEXT: AtomicU64 = AtomicU64::new(0);
const PREFIX: &str = "arena-";

/// Where the cgroup v2 hierarchy is mounted, and arena's own group in it.
fn own_group() -> Option<PathBuf> {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // Fields: id parent dev root mountpoint options ... - fstype source options.
    let mount = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        (right.split_whitespace().next()? == "cgroup2").then(|| left.split_whitespace().nth(4))?
    })?;
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    Some(Path::new(mount).join(path.trim_start_matches('/')))
}

/// Freezing and killing are the core of cgroup v2 (5.2 and 5.14); a kernel without them, or a
/// hierarchy arena may not write, leaves the signals.
fn run_folder() -> Option<&'static Path> {
    RUN.get_or_init(|| {
        let parent = own_group()?;
        if !parent.join("cgroup.freeze").exists() && !parent.join("cgroup.procs").exists() {
            return None;
        }
        let run = parent.join(format!("{PREFIX}{}", std::process::id()));
        std::fs::create_dir(&run).ok()?;
        let usable = ["cgroup.freeze", "cgroup.kill", "cgroup.procs"]
            .iter()
            .all(|f| run.join(f).exists());
        if !usable {
            let _ = std::fs::remove_dir(&run);
            return None;
        }
        // The bots' groups get the memory and pids controllers where arena's own group passes
        // them down (`controllers`); none of the run folder's own processes stops that, as it
        // has none.
        for controller in super::controllers::V2_CONTROLLERS {
            let _ = std::fs::write(run.join("cgroup.subtree_control"), controller);
        }
        start_janitor(&run);
        Some(run)
    })
    .as_deref()
}

/// Whether this run's bots' groups get `controller` (v2's `cgroup.subtree_control`).
pub fn passes_down(controller: &str) -> bool {
    run_folder()
        .and_then(|run| std::fs::read_to_string(run.join("cgroup.subtree_control")).ok())
        .is_some_and(|c| c.split_whitespace().any(|c| c == controller))
}

/// The end of arena's pipe to its janitor, never written: the janitor reads to its end, which
/// comes when arena exits, however it dies.
static JANITOR: OnceLock<std::process::ChildStdin> = OnceLock::new();

/// A bot's first process dies with arena (a parent-death signal), but not what it started. A
/// small process outside the bots' groups waits for arena's end, then kills every process left
/// in this run's groups. Best effort: without it, the groups are killed by arena itself as ever.
fn start_janitor(run: &Path) {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new("/bin/sh");
    cmd.args(["-c", "cat >/dev/null; echo 1 >\"$0\" 2>/dev/null"])
        .arg(run.join("cgroup.kill"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        // Out of the terminal's process group: Ctrl-C is for arena, which handles it.
        .process_group(0);
    let started = super::reaper::spawn_owned(false, || {
        let child = cmd.spawn()?;
        let pid = child.id();
        Ok((child, Some(pid)))
    });
    if let Ok(mut child) = started
        && let Some(stdin) = child.stdin.take()
    {
        let _ = JANITOR.set(stdin);
        // Reaped by no one while arena lives; after, by init.
        std::mem::forget(child);
    }
}

/// A bot's group.
#[derive(Debug)]
pub struct Cgroup {
    path: PathBuf,
    /// The group's folder, open for a bot to be started in it (`CLONE_INTO_CGROUP`).
    dir: File,
    /// `cgroup.procs`, open for the bot to write itself into between clone and exec, where the
    /// kernel cannot start it in the group.
    procs: File,
    /// `cgroup.freeze`, written twice a move: opened once.
    freeze: File,
    /// `cgroup.events`, which says whether any process is left in the group.
    events: File,
    /// `cgroup.kill`, written once per bot: opened once per group, as an open of a cgroup file
    /// costs more than the write.
    kill: File,
    frozen: AtomicBool,
    /// Whether a bot was given limits here (`controllers`), to be lifted for the next.
    limited: AtomicBool,
    /// Whether `cgroup.kill` was ever written. A kernel that counts kills (6.18 here) may kill a
    /// child started in such a group at birth (it seems to compare the count with arena's own
    /// group's), so the bots of a killed group join it instead.
    killed: AtomicBool,
}

/// Groups whose bots are gone, for the next bots: making and removing a group costs more than
/// the rest of a short game's set-up. A group is given out again only once it is empty.
static SPARE: Mutex<Vec<Cgroup>> = Mutex::new(Vec::new());

/// More spare groups than games at once are never needed.
const MAX_SPARE: usize = 256;

impl Cgroup {
    /// An empty group for one bot, or `None` where cgroups cannot be used.
    pub fn create() -> Option<Cgroup> {
        let run = run_folder()?;
        {
            let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = spare.iter().position(Cgroup::is_empty) {
                return Some(spare.swap_remove(i));
            }
        }
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = run.join(format!("bot-{n}"));
        std::fs::create_dir(&path).ok()?;
        let open = |file, write| {
            File::options()
                .write(write)
                .read(!write)
                .open(path.join(file))
        };
        match (
            File::open(&path),
            open("cgroup.procs", true),
            open("cgroup.freeze", true),
            open("cgroup.events", false),
            open("cgroup.kill", true),
        ) {
            (Ok(dir), Ok(procs), Ok(freeze), Ok(events), Ok(kill)) => Some(Cgroup {
                path,
                dir,
                procs,
                freeze,
                events,
                kill,
                frozen: AtomicBool::new(false),
                limited: AtomicBool::new(false),
                killed: AtomicBool::new(false),
            }),
            _ => {
                let _ = std::fs::remove_dir(&path);
                None
            }
        }
    }

    /// Whether no process is left in the group (read from `cgroup.events`).
    fn is_empty(&self) -> bool {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 128];
        let n = self.events.read_at(&mut buf, 0).unwrap_or(0);
        buf[..n]
            .split(|&b| b == b'\n')
            .any(|line| line == b"populated 0")
    }

    /// Remove the group once empty (its processes were killed and have exited); one still in
    /// use by a process arena could not kill is left for `remove_stale` after this run.
    fn remove(&self) {
        for _ in 0..100 {
            if std::fs::remove_dir(&self.path).is_ok() || self.count() > 0 {
                break;
            }
            // Exited but not yet taken off the group.
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }

    /// The group's folder, where its controllers' files are.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Note that a bot's limits were set in the group's controllers' files.
    pub fn mark_limited(&self) {
        self.limited.store(true, Ordering::Relaxed);
    }

    /// Lift the limits a bot before had here, for a bot with other limits or none.
    pub fn reset_limits(&self) {
        if self.limited.swap(false, Ordering::Relaxed) {
            for file in super::controllers::V2_LIMIT_FILES {
                let _ = std::fs::write(self.path.join(file), "max");
            }
        }
    }

    /// What the child writes "0" to, to join the group (see `join`).
    pub fn procs_fd(&self) -> RawFd {
        self.procs.as_raw_fd()
    }

    /// How a child is put in the group: started there, or, in a group once killed, joining it.
    pub fn entry(&self) -> super::spawn::CgroupEntry {
        let killed = self.killed.load(Ordering::Relaxed);
        super::spawn::CgroupEntry {
            dir: if killed { -1 } else { self.dir.as_raw_fd() },
            procs: self.procs.as_raw_fd(),
        }
    }

    /// Join the group `procs_fd` names: in the child, between fork and exec. Async-signal-safe.
    pub fn join(procs_fd: RawFd) -> std::io::Result<()> {
        // SAFETY: a plain write(2) of a static buffer to a descriptor the child inherited.
        let n = unsafe { nix::libc::write(procs_fd, b"0".as_ptr().cast(), 1) };
        if n == 1 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }

    /// Stop (or let run again) every process of the group at once.
    pub fn set_frozen(&self, frozen: bool) -> bool {
        use std::os::unix::fs::FileExt;
        let value: &[u8] = if frozen { b"1" } else { b"0" };
        let done = self.freeze.write_at(value, 0).is_ok();
        if done {
            self.frozen.store(frozen, Ordering::Relaxed);
        }
        done
    }

    /// SIGKILL to every process of the group, by the kernel, at once. An empty group is left as
    /// it is: nothing but arena can start a process in it.
    pub fn kill(&self) -> bool {
        use std::os::unix::fs::FileExt;
        if self.is_empty() {
            return true;
        }
        self.killed.store(true, Ordering::Relaxed);
        self.kill.write_at(b"1", 0).is_ok()
    }

    /// How many processes the group holds.
    pub fn count(&self) -> usize {
        std::fs::read_to_string(self.path.join("cgroup.procs"))
            .map_or(0, |t| t.lines().filter(|l| !l.is_empty()).count())
    }
}

/// A bot's group, its bot done with (its processes killed, or about to be): kept for another
/// bot, or removed.
pub fn release(group: Cgroup) {
    if group.frozen.load(Ordering::Relaxed) {
        group.set_frozen(false);
    }
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    if spare.len() < MAX_SPARE {
        spare.push(group);
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        if self.frozen.load(Ordering::Relaxed) {
            self.set_frozen(false);
        }
        self.remove();
    }
}

/// Remove this run's groups and their folder, at exit.
pub fn remove_run() {
    drop(std::mem::take(
        &mut *SPARE.lock().unwrap_or_else(|e| e.into_inner()),
    ));
    if let Some(Some(run)) = RUN.get() {
        let _ = std::fs::remove_dir(run);
    }
}

/// Remove the folders of groups that runs killed before they could clean up left: those whose
/// arena is gone (their bots died with it, so the groups are empty).
pub fn remove_stale() {
    if let Some(parent) = own_group() {
        remove_stale_runs(&parent, PREFIX);
    }
}

/// Remove the run folders named `<prefix><pid>` in `parent` (any hierarchy's) whose arena is
/// gone, with their bots' groups.
pub fn remove_stale_runs(parent: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        remove_tree(&entry.path());
    }
}

/// Remove a run folder and its bots' groups, all empty.
pub fn remove_tree(run: &Path) {
    if let Ok(bots) = std::fs::read_dir(run) {
        for bot in bots.flatten().filter(|b| b.path().is_dir()) {
            let _ = std::fs::remove_dir(bot.path());
        }
    }
    let _ = std::fs::remove_dir(run);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};

    fn events(group: &Cgroup) -> String {
        std::fs::read_to_string(group.path.join("cgroup.events")).unwrap_or_default()
    }

    /// A shell in the group whose children leave its session and parent: all stay in the group,
    /// are frozen together and killed together.
    #[test]
    fn a_group_holds_freezes_and_kills_processes_that_left_the_session() {
        let Some(group) = Cgroup::create() else {
            eprintln!("skipped: arena may not make cgroups here (the signals are used instead)");
            return;
        };
        let procs = group.procs_fd();
        let mut cmd = std::process::Command::new("sh");
        cmd.args([
            "-c",
            "setsid sh -c 'sleep 30 & echo $!' ; (sleep 30 & echo $!) ; sleep 30",
        ])
        .stdout(std::process::Stdio::piped());
        // SAFETY: join only writes to an inherited descriptor.
        unsafe {
            cmd.pre_exec(move || Cgroup::join(procs));
        }
        let mut sh = cmd.spawn().unwrap();
        let mut out = std::io::BufReader::new(sh.stdout.take().unwrap());
        for _ in 0..2 {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
        }
        // The shell, its sleep, and two sleeps whose parents are gone or elsewhere.
        assert!(group.count() >= 3, "{}", group.count());
        assert!(group.set_frozen(true));
        let deadline = Instant::now() + Duration::from_secs(5);
        while !events(&group).contains("frozen 1") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(events(&group).contains("frozen 1"));
        assert!(group.kill());
        sh.wait().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while group.count() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(group.count(), 0, "every process of the group was killed");
        let path = group.path.clone();
        drop(group);
        assert!(!path.exists(), "an empty group is removed");
    }

    /// Starts `sh -c script` in `group`; returns what it printed and how it ended.
    async fn run_in(group: &Cgroup, script: &str) -> (String, std::process::ExitStatus) {
        run_in_entry(group.entry(), script).await
    }

    async fn run_in_entry(
        entry: super::super::spawn::CgroupEntry,
        script: &str,
    ) -> (String, std::process::ExitStatus) {
        let mut spawn = super::super::spawn::Spawn::new("/bin/sh");
        spawn.args(["-c", script]);
        spawn.cgroup = Some(entry);
        super::super::spawn::tests::output(spawn).await
    }

    /// A bot's first process is in its group from its start (`CLONE_INTO_CGROUP` where the
    /// kernel has it), and still is, alive, in a group killed before (which it joins instead:
    /// a kernel that counts kills would kill it at birth). An empty group is not killed.
    #[tokio::test]
    async fn a_child_starts_in_its_group_even_one_killed_before() {
        let Some(group) = Cgroup::create() else {
            eprintln!("skipped: arena may not make cgroups here (the signals are used instead)");
            return;
        };
        let name = group
            .path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let in_group = |text: &str| {
            text.lines()
                .any(|l| l.starts_with("0::") && l.ends_with(&format!("/{name}")))
        };
        let (text, status) = run_in(&group, "cat /proc/self/cgroup").await;
        assert!(status.success(), "{status:?}");
        assert!(in_group(&text), "{text}");

        assert!(group.kill());
        assert!(
            !group.killed.load(Ordering::Relaxed),
            "an empty group is left alone"
        );
        let (text, status) = run_in(&group, "sleep 30 >/dev/null & echo $!").await;
        assert!(status.success(), "{status:?}");
        assert_eq!(group.count(), 1, "{text}");
        assert!(group.kill());
        let deadline = Instant::now() + Duration::from_secs(5);
        while group.count() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(group.count(), 0, "the sleep was killed");

        let (text, status) = run_in(&group, "cat /proc/self/cgroup").await;
        assert!(
            status.success(),
            "started in a group killed before: {status:?}"
        );
        assert!(in_group(&text), "{text}");

        // Asked to start a child in that group all the same, arena finds it killed at birth,
        // if the kernel does that, and starts it again to join the group.
        let mut entry = group.entry();
        entry.dir = group.dir.as_raw_fd();
        let (text, status) = run_in_entry(entry, "cat /proc/self/cgroup").await;
        assert!(status.success(), "{status:?}");
        assert!(in_group(&text), "{text}");
        // Other tests are better served by the quick way; it is right either way.
        super::super::spawn::NO_INTO_CGROUP.store(false, Ordering::Relaxed);
    }
}
