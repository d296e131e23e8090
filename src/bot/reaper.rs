//! Descendants that escape a bot's process group (`setsid`, double forks) must not outlive their
//! game. arena makes itself a child subreaper, so such orphans are re-parented to arena instead of
//! init; after each game, `sweep` kills and reaps every child of arena that is not a live bot.
//!
//! A sweep reads /proc, waits for the orphans it kills and removes what they left in the bots'
//! directories: blocking work, done on a thread of its own (`arena-reaper`) so that the games'
//! threads go on playing. After most games there is no orphan and nothing to remove: that sweep,
//! one read and a check per directory, is done at once on the game's thread. Asking for a sweep
//! returns at once; arena does not exit, and a tournament does not report, before every sweep
//! asked for is done (`wait_swept`, `swept`).

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, TryLockError};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

/// The processes arena started and still owns (bots and spectators), by pid.
static OWNED: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Held by a sweep, and by a spawn whose child a sweep could list before its pid is owned (from
/// the fork until the pid is in `OWNED`): a sweep never mistakes a bot being born for an orphan.
/// Only the reaper's thread waits for it (a spawn holds it until its child has exec'd): a game
/// thread waiting that long left its core idle, 83 ms in a run of a thousand short games.
static SWEEP: Mutex<()> = Mutex::new(());

/// How many sweeps were asked for, and how many of them are done (a sweep serves every request
/// made before it started).
struct Sweeps {
    asked: u64,
    done: u64,
}

static SWEEPS: Mutex<Sweeps> = Mutex::new(Sweeps { asked: 0, done: 0 });
/// Told when a sweep is asked for (the reaper's thread waits on it).
static ASKED: Condvar = Condvar::new();
/// Told when a sweep is done (whoever waits for the sweeps waits on it).
static DONE: Condvar = Condvar::new();

fn sweeps() -> MutexGuard<'static, Sweeps> {
    SWEEPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Become the reaper of our descendants' orphans. Call once, before starting bots. From then
/// on, arena's exit waits for the sweeps asked for.
pub fn become_subreaper() {
    // Without it (not Linux, or refused) escaped processes go to init, as before.
    let _ = nix::sys::prctl::set_child_subreaper(true);
    static AT_EXIT: OnceLock<()> = OnceLock::new();
    AT_EXIT.get_or_init(|| {
        extern "C" fn at_exit() {
            wait_swept();
        }
        // SAFETY: registers a function that takes no argument and does not unwind (it only
        // locks, waits and reads counters).
        unsafe { nix::libc::atexit(at_exit) };
    });
}

/// Run `spawn` (which starts a process and returns its pid) so that no sweep sees the process
/// before it is owned, and remember the pid as owned.
pub fn spawn_owned<T>(
    spawn: impl FnOnce() -> std::io::Result<(T, Option<u32>)>,
) -> std::io::Result<T> {
    // A spawn stops its thread until the child has exec'd: spawns on game threads other than
    // the main one, which no sweep can see, do not wait for sweeps or hold them up.
    spawn_seen(seen_by_sweeps(), spawn)
}

fn spawn_seen<T>(
    seen: bool,
    spawn: impl FnOnce() -> std::io::Result<(T, Option<u32>)>,
) -> std::io::Result<T> {
    // A sweep under way finishes first; one asked for meanwhile waits, on the reaper's thread.
    let sweep = seen.then(|| SWEEP.lock().unwrap_or_else(|e| e.into_inner()));
    let spawned = spawn();
    if let Ok((_, Some(pid))) = &spawned {
        OWNED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(*pid as i32);
    }
    drop(sweep);
    spawned.map(|(value, _)| value)
}

/// The process has been reaped: it is no longer ours.
pub fn release(pid: i32) {
    OWNED.lock().unwrap_or_else(|e| e.into_inner()).remove(&pid);
}

/// The orphans given to arena, with its own children started from the main thread. The kernel
/// hands an orphan to the subreaper's first live thread, the main one, and each thread's
/// `children` file lists what it forked and was given: one read, where scanning /proc reads a
/// file per process on the machine. The scan remains for kernels without those files.
fn children() -> Vec<i32> {
    // Opened once and read from its start each time (a sweep runs after every game): the file
    // is made afresh at each read, and the open cost more than the read.
    static FILE: OnceLock<Option<std::fs::File>> = OnceLock::new();
    let Some(file) = FILE.get_or_init(|| std::fs::File::open(children_file()).ok()) else {
        return scan_children();
    };
    match read_from_start(file) {
        Ok(list) => String::from_utf8_lossy(&list)
            .split_whitespace()
            .filter_map(|p| p.parse::<i32>().ok())
            .collect(),
        Err(_) => scan_children(),
    }
}

/// The whole of a file read at its start, whoever else reads it meanwhile.
fn read_from_start(file: &std::fs::File) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut list = vec![0; 256];
    let mut len = 0;
    loop {
        if len == list.len() {
            list.resize(len * 2, 0);
        }
        match file.read_at(&mut list[len..], len as u64)? {
            0 => break,
            n => len += n,
        }
    }
    list.truncate(len);
    Ok(list)
}

fn children_file() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let me = std::process::id();
        format!("/proc/{me}/task/{me}/children")
    })
}

/// Whether a sweep could list the children of the calling thread: those of the main thread, or
/// those of any thread where the list comes from scanning /proc.
fn seen_by_sweeps() -> bool {
    static MAIN_ONLY: OnceLock<bool> = OnceLock::new();
    thread_local! {
        static ON_MAIN: bool = nix::unistd::gettid() == nix::unistd::getpid();
    }
    let main_only = *MAIN_ONLY.get_or_init(|| std::fs::metadata(children_file()).is_ok());
    !main_only || ON_MAIN.with(|m| *m)
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
            super::procfs::read(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(')').map(|(_, rest)| rest.to_string()))
                .and_then(|rest| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
                == Some(me)
        })
        .collect()
}

/// Ask for every orphan of a bot given to arena (what `children` lists that arena does not own)
/// to be killed and reaped, and for the bots' directories given back to be recycled. Returns at
/// once: the reaper's thread sweeps as soon as the spawn under way (if any) has its child owned.
pub fn sweep() {
    if swept_at_once() {
        return;
    }
    sweeps().asked += 1;
    if reaper_running() {
        ASKED.notify_one();
    } else {
        // No thread could be started for it: sweep here, as arena always did.
        let mut sweeps = sweeps();
        let asked = sweeps.asked;
        drop(sweeps);
        sweep_now();
        sweeps = self::sweeps();
        sweeps.done = sweeps.done.max(asked);
        DONE.notify_all();
    }
}

/// The sweep after most games: no orphan, and the bots' directories left empty. Done here, on
/// the game's thread, it is one read and a check per directory; asked of the reaper's thread, it
/// cost a wake-up and two context switches per game besides. Whether it was all there was to do;
/// if not (orphans to kill and wait for, directories to empty, or a sweep or a spawn under way),
/// nothing was done but pooling the directories left empty, and the rest is the reaper's.
fn swept_at_once() -> bool {
    let Ok(_guard) = SWEEP.try_lock() else {
        return false;
    };
    let owned = OWNED.lock().unwrap_or_else(|e| e.into_inner());
    let orphans = children().into_iter().any(|p| !owned.contains(&p));
    drop(owned);
    !orphans && super::workdir::Pool::shared().pool_empty()
}

/// Sweep on the calling thread, now, unless a spawn holds the lock (then the reaper's thread
/// sweeps once it lets go): for when an orphan must not run on a moment longer, as when a bot
/// is frozen while its opponent thinks. Cheap when there is no orphan: one read of /proc.
pub fn sweep_here() {
    match SWEEP.try_lock() {
        // The orphans only: the bots' directories are left to the reaper's thread.
        Ok(_guard) => {
            kill_orphans();
        }
        Err(TryLockError::Poisoned(e)) => {
            let _guard = e.into_inner();
            kill_orphans();
        }
        Err(TryLockError::WouldBlock) => sweep(),
    }
}

/// Wait until every sweep asked for before this call is done.
pub fn wait_swept() {
    let mut sweeps = sweeps();
    let asked = sweeps.asked;
    while sweeps.done < asked {
        sweeps = DONE.wait(sweeps).unwrap_or_else(|e| e.into_inner());
    }
}

/// The same, for a task: waits on the blocking pool.
pub async fn swept() {
    let pending = {
        let sweeps = sweeps();
        sweeps.done < sweeps.asked
    };
    if pending {
        let _ = tokio::task::spawn_blocking(wait_swept).await;
    }
}

/// Start the reaper's thread, once; whether it runs.
fn reaper_running() -> bool {
    static RUNNING: OnceLock<bool> = OnceLock::new();
    *RUNNING.get_or_init(|| {
        std::thread::Builder::new()
            .name("arena-reaper".into())
            .spawn(reaper)
            .is_ok()
    })
}

/// The reaper's thread: one sweep at a time, each for every request made before it started.
fn reaper() {
    let mut sweeps = sweeps();
    loop {
        while sweeps.done == sweeps.asked {
            sweeps = ASKED.wait(sweeps).unwrap_or_else(|e| e.into_inner());
        }
        let asked = sweeps.asked;
        drop(sweeps);
        sweep_now();
        sweeps = self::sweeps();
        sweeps.done = asked;
        DONE.notify_all();
    }
}

/// Sweep on the calling thread, once no spawn holds the lock: the orphans, then the bots'
/// directories given back. Returns how many orphans it found.
fn sweep_now() -> usize {
    let pool = super::workdir::Pool::shared();
    let guard = SWEEP.lock().unwrap_or_else(|e| e.into_inner());
    // Taken before the orphans are killed: no descendant of the bots that gave these back is
    // left to write in them once the kill is done.
    let returned = pool.returned();
    let found = kill_orphans();
    // Emptied without the lock: removing what a bot left (20,000 files took 0.3 s) held up every
    // freeze's sweep meanwhile, and a bot frozen in the next game had its orphans run on into its
    // opponent's turn.
    drop(guard);
    pool.recycle(returned);
    found
}

/// The orphans' part of a sweep, with the lock held. Sweeps until one finds no orphan: an
/// orphan killed may leave children of its own, given to arena in turn (a chain of `setsid`s, a
/// process that forks again as it is killed). Each orphan and everything below it is stopped
/// before it is killed, so none can fork meanwhile.
fn kill_orphans() -> usize {
    let mut found = 0;
    loop {
        let owned = OWNED.lock().unwrap_or_else(|e| e.into_inner());
        let orphans: Vec<i32> = children()
            .into_iter()
            .filter(|p| !owned.contains(p))
            .collect();
        drop(owned);
        if orphans.is_empty() {
            break;
        }
        // All stopped at once before any tree is walked: orphans that spin, each in a session
        // (and so a CPU share) of its own, otherwise take most of the CPU this walk needs, and
        // a sweep of 24 took 0.3 s, well into the next game, whose freezes could not sweep
        // meanwhile (measured as a user, where no cgroup freezes them: docs/design.md).
        for &pid in &orphans {
            // Not reaped yet: the pid is still this orphan's.
            let _ = kill(Pid::from_raw(pid), Signal::SIGSTOP);
        }
        for &pid in &orphans {
            if let Some(root) = super::tree::Root::of(Pid::from_raw(pid)) {
                super::tree::kill_all(root);
            }
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        for &pid in &orphans {
            // Only this pid: never collect the exit status of a process tokio is waiting for.
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::__WALL));
        }
        found += orphans.len();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why spawns on game threads other than the main one take no lock: the sweep's list (the
    /// main thread's children) never shows a child of another thread, even alive.
    #[test]
    fn a_child_of_another_thread_is_not_in_the_sweeps_list() {
        // Tests run on threads other than the main one.
        assert!(!seen_by_sweeps());
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let (listed, scanned) = (children(), scan_children());
        let _ = child.kill();
        let _ = child.wait();
        assert!(!listed.contains(&pid), "{listed:?} has {pid}");
        // The scan, used where that file is missing, sees every thread's: spawns lock then.
        assert!(scanned.contains(&pid), "{scanned:?} lacks {pid}");
    }

    /// Tests that make orphans or sweep them take turns, in this process or another (nextest
    /// runs each test in a process of its own): a lock file per user, which `flock` holds for
    /// each open of it apart.
    fn orphans_turn() -> nix::fcntl::Flock<std::fs::File> {
        let uid = nix::unistd::getuid();
        let path = std::env::temp_dir().join(format!("arena-tests-{uid}-orphans.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .unwrap();
        nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusive)
            .unwrap_or_else(|(_, e)| panic!("locking {}: {e}", path.display()))
    }

    /// A `sleep` whose parent exited: an orphan given to this process, the subreaper.
    fn orphan() -> i32 {
        use std::io::BufRead;
        become_subreaper();
        // Tests run on their own threads: the orphan still goes to the main thread.
        let mut sh = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & echo $!"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(sh.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        sh.wait().unwrap();
        line.trim().parse().unwrap()
    }

    #[test]
    fn a_sweep_asked_for_during_a_spawn_does_not_wait_and_is_done_when_the_spawn_lets_go() {
        let _turn = orphans_turn();
        let pid = orphan();
        spawn_seen(true, || {
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                sweep();
                tx.send(()).unwrap();
            });
            rx.recv_timeout(std::time::Duration::from_secs(10))
                .expect("the sweep returns while the spawn holds the lock");
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(
                children().contains(&pid),
                "nothing is swept during the spawn"
            );
            Ok(((), None))
        })
        .unwrap();
        wait_swept();
        assert!(!children().contains(&pid), "swept when the spawn let go");
    }

    #[test]
    fn a_sweep_is_done_on_the_reapers_thread_and_waited_for() {
        let _turn = orphans_turn();
        let pid = orphan();
        sweep();
        wait_swept();
        assert!(!children().contains(&pid), "swept");
        assert_eq!(sweep_now(), 0, "nothing left");
    }

    #[test]
    fn an_orphan_is_found_by_the_main_threads_file_and_by_the_scan() {
        let _turn = orphans_turn();
        let pid = orphan();
        let (fast, slow) = (children(), scan_children());
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::__WALL));
        assert!(fast.contains(&pid), "{fast:?} lacks {pid}");
        assert!(slow.contains(&pid), "{slow:?} lacks {pid}");
        assert!(!children().contains(&pid), "a reaped orphan is gone");
    }
}
