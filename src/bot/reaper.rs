//! Descendants that escape a bot's process group (`setsid`, double forks) must not outlive their
//! game. arena makes itself a child subreaper, so such orphans are re-parented to arena instead of
//! init; after each game, `sweep` kills and reaps every child of arena that is not a live bot.

use std::collections::BTreeSet;
use std::sync::Mutex;

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

/// The processes arena started and still owns (bots and spectators), by pid. Held while
/// spawning, so that a sweep never mistakes a bot being born for an orphan.
static OWNED: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Become the reaper of our descendants' orphans. Call once, before starting bots.
pub fn become_subreaper() {
    // Without it (not Linux, or refused) escaped processes go to init, as before.
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Run `spawn` (which starts a process and returns its pid) so that no sweep runs meanwhile,
/// and remember the pid as owned.
pub fn spawn_owned<T>(
    spawn: impl FnOnce() -> std::io::Result<(T, Option<u32>)>,
) -> std::io::Result<T> {
    let mut owned = OWNED.lock().unwrap_or_else(|e| e.into_inner());
    let (value, pid) = spawn()?;
    if let Some(pid) = pid {
        owned.insert(pid as i32);
    }
    Ok(value)
}

/// The process has been reaped: it is no longer ours.
pub fn release(pid: i32) {
    OWNED.lock().unwrap_or_else(|e| e.into_inner()).remove(&pid);
}

/// The pids of arena's own children. Each thread's `children` file lists the processes it
/// forked and the orphans given to it: a handful of reads, where scanning all of /proc reads a
/// file per process on the machine. The scan remains for kernels without those files.
fn children() -> Vec<i32> {
    let mut pids = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return scan_children();
    };
    for task in tasks.filter_map(|t| t.ok()) {
        match std::fs::read_to_string(task.path().join("children")) {
            Ok(list) => pids.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            ),
            // A thread that ended meanwhile has no file: it had no children to leave either.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => return scan_children(),
        }
    }
    pids
}

/// The same, from every process's parent pid in /proc.
fn scan_children() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            // The parent pid is the 4th field, after the command name in parentheses.
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(')').map(|(_, rest)| rest.to_string()))
                .and_then(|rest| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
                == Some(me)
        })
        .collect()
}

/// Kill and reap every child of arena that is not an owned process: orphans of bots.
/// Returns how many there were.
pub fn sweep() -> usize {
    let owned = OWNED.lock().unwrap_or_else(|e| e.into_inner());
    let orphans: Vec<i32> = children()
        .into_iter()
        .filter(|p| !owned.contains(p))
        .collect();
    for &pid in &orphans {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
    for &pid in &orphans {
        // Only this pid: never collect the exit status of a process tokio is waiting for.
        let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::__WALL));
    }
    drop(owned);
    // No finished bot's descendant is left to write in the directories bots gave back.
    super::workdir::recycle();
    orphans.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_children_files_and_the_scan_both_find_a_child() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        // Other tests start processes at the same time: compare only on this one.
        let (fast, slow) = (children(), scan_children());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(fast.contains(&pid), "{fast:?} lacks {pid}");
        assert!(slow.contains(&pid), "{slow:?} lacks {pid}");
        assert!(!children().contains(&pid), "a reaped child is gone");
    }
}
