//! A bot's processes as one unit: its first process and every descendant, whatever process group
//! or session they moved to (`setpgid`, `setsid` leave the group but not the tree). Used to count
//! them against the bot's limit, to freeze them while the bot is not to move, and to kill them
//! all. A descendant that leaves the tree (its parent died) is re-parented to arena, the child
//! subreaper, where the orphan sweep (`reaper`) kills it.
//!
//! Freezing is SIGSTOP to each process, repeated until a pass finds no process left running. A
//! process only stops once a fork it is in has returned, so each pass waits until the processes
//! it signalled are seen stopped before the next one reads their children: then the next pass
//! finds every child they made, and a pass that finds none ends the walk.

use std::collections::BTreeSet;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// More passes than any honest bot needs; a bot still forking faster than arena can stop it after
/// that is past its process limit anyway.
const MAX_PASSES: usize = 64;

/// The children of `pid` (of all its threads), from /proc.
fn children(pid: i32, into: &mut Vec<i32>) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return;
    };
    for task in tasks.flatten() {
        let path = task.path().join("children");
        if let Ok(text) = super::procfs::read(path) {
            into.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
}

/// A process as a root of its tree: its pid and when it started, so that a pid reused once the
/// process is gone and reaped is never taken for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Root {
    pid: Pid,
    start: u64,
}

impl Root {
    /// The running (or not yet reaped) process `pid`.
    pub fn of(pid: Pid) -> Option<Root> {
        Some(Root {
            pid,
            start: start_time(pid.as_raw())?,
        })
    }

    pub fn pid(&self) -> Pid {
        self.pid
    }

    /// When it started, in clock ticks since boot: with the pid, what tells it from a later
    /// process given the same pid.
    pub fn start(&self) -> u64 {
        self.start
    }
}

/// When a process started, in clock ticks since boot (the 22nd field of its stat).
fn start_time(pid: i32) -> Option<u64> {
    let stat = super::procfs::read(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .parse()
        .ok()
}

/// `root` and every process below it, with its depth (`root` at 0), parents before children.
/// None once the root is gone.
pub fn members(root: Root) -> Vec<(Pid, usize)> {
    if start_time(root.pid.as_raw()) != Some(root.start) {
        return Vec::new();
    }
    let root = root.pid;
    let mut found = vec![(root.as_raw(), 0usize)];
    let mut next = 0;
    let mut kids = Vec::new();
    while next < found.len() {
        let (pid, depth) = found[next];
        next += 1;
        kids.clear();
        children(pid, &mut kids);
        found.extend(kids.iter().map(|&k| (k, depth + 1)));
    }
    found
        .into_iter()
        .map(|(p, d)| (Pid::from_raw(p), d))
        .collect()
}

/// How many of the bot's processes there are, not counting the first `wrappers` levels of the
/// tree (the sandbox's own processes, which are not the bot's).
pub fn count(root: Root, wrappers: usize) -> usize {
    members(root)
        .into_iter()
        .filter(|&(_, d)| d >= wrappers)
        .count()
}

/// Stop every process of the tree. Returns how many were stopped.
pub fn freeze(root: Root) -> usize {
    let mut stopped = BTreeSet::new();
    for _ in 0..MAX_PASSES {
        let fresh: Vec<Pid> = members(root)
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| !stopped.contains(p))
            .collect();
        if fresh.is_empty() {
            break;
        }
        for &pid in &fresh {
            let _ = kill(pid, Signal::SIGSTOP);
            stopped.insert(pid);
        }
        wait_stopped(&fresh);
    }
    stopped.len()
}

/// How long a pass waits for the processes it signalled to stop: a process in an uninterruptible
/// wait stops only when that ends, and must not hold the game up.
const STOP_WAIT: std::time::Duration = std::time::Duration::from_millis(20);

/// Wait (up to `STOP_WAIT`) until each of `pids` is stopped, or gone.
fn wait_stopped(pids: &[Pid]) {
    let deadline = std::time::Instant::now() + STOP_WAIT;
    for &pid in pids {
        while !matches!(state(pid.as_raw()), None | Some('T' | 't' | 'Z' | 'X'))
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }
}

/// A process's state letter from /proc (`R`, `S`, `T` for stopped, `Z`...); `None` once gone.
fn state(pid: i32) -> Option<char> {
    let stat = super::procfs::read(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Let every process of the tree run again.
pub fn thaw(root: Root) {
    for (pid, _) in members(root) {
        let _ = kill(pid, Signal::SIGCONT);
    }
}

/// Kill every process of the tree: frozen first, so that none can fork while the others die.
pub fn kill_all(root: Root) {
    freeze(root);
    for (pid, _) in members(root) {
        let _ = kill(pid, Signal::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::time::{Duration, Instant};

    /// A shell whose children leave its process group and session, printing their pids.
    fn escaping_family() -> (std::process::Child, Vec<i32>) {
        let mut sh = std::process::Command::new("sh")
            .args([
                "-c",
                "setsid sleep 30 & echo $!; (set -m; sleep 30 & echo $!; wait) & wait",
            ])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(sh.stdout.take().unwrap());
        let mut pids = Vec::new();
        for _ in 0..2 {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            pids.push(line.trim().parse().unwrap());
        }
        (sh, pids)
    }

    #[test]
    fn a_root_whose_pid_is_taken_by_another_process_has_no_members() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let root = Root::of(Pid::from_raw(child.id() as i32)).unwrap();
        assert_eq!(members(root).len(), 1);
        // The same pid, started at another time: another process.
        let other = Root {
            start: root.start + 1,
            ..root
        };
        assert!(members(other).is_empty());
        kill_all(other);
        assert_eq!(members(root).len(), 1, "not killed through a stale root");
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(members(root).is_empty(), "gone once reaped");
    }

    #[test]
    fn the_tree_holds_descendants_that_left_the_group_and_the_session() {
        let (mut sh, pids) = escaping_family();
        let root = Root::of(Pid::from_raw(sh.id() as i32)).unwrap();
        let all: Vec<i32> = members(root).iter().map(|(p, _)| p.as_raw()).collect();
        for p in &pids {
            assert!(all.contains(p), "{p} missing from {all:?}");
        }
        assert!(count(root, 0) >= 3 && count(root, 1) == count(root, 0) - 1);

        freeze(root);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !pids.iter().all(|&p| state(p) == Some('T')) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        for &p in &pids {
            assert_eq!(state(p), Some('T'), "{p} is stopped");
        }
        thaw(root);
        std::thread::sleep(Duration::from_millis(50));
        for &p in &pids {
            assert_ne!(state(p), Some('T'), "{p} runs again");
        }

        kill_all(root);
        sh.wait().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        // Killed: a zombie until its parent reaps it, or gone.
        while !pids.iter().all(|&p| matches!(state(p), None | Some('Z')))
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        for &p in &pids {
            assert!(matches!(state(p), None | Some('Z')), "{p} was killed");
        }
    }
}
