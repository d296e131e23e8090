//! Descendants that escape a bot's process group (`setsid`, double forks) must not outlive their
//! game. arena makes itself a child subreaper, so such orphans are re-parented to arena instead of
//! init; after each game, `sweep` kills and reaps every child of arena that is not a live bot.
//! That includes a bot's siblings: a process a bot makes with `clone(CLONE_PARENT)` is a child
//! of the arena thread that started the bot, outside the bot's tree and process group.
//!
//! A sweep reads /proc, waits for the orphans it kills and removes what they left in the bots'
//! directories: blocking work, done on a thread of its own (`arena-reaper`) so that the games'
//! threads go on playing. After most games there is no orphan and nothing to remove: that sweep,
//! one read and a check per directory, is done at once on the game's thread. Asking for a sweep
//! returns at once; arena does not exit, and a tournament does not report, before every sweep
//! asked for is done (`wait_swept`, `swept`).

use std::collections::BTreeSet;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, TryLockError, Weak};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

/// The processes arena started and still owns (bots and spectators), by pid.
static OWNED: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Held by a sweep; and, where arena's children are found by scanning /proc (no `children`
/// files), by every spawn from its fork until its child's pid is owned.
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
/// before it is owned, and remember the pid as owned. A program of a game (a bot, a referee, a
/// viewer) is `watched`: from then on every sweep reads the children of the thread that started
/// it, where the siblings it makes with `clone(CLONE_PARENT)` are.
pub fn spawn_owned<T>(
    watched: bool,
    spawn: impl FnOnce() -> std::io::Result<(T, Option<u32>)>,
) -> std::io::Result<T> {
    // A spawn stops its thread until the child has exec'd: it holds up no sweep but one that
    // reads this thread's children, and that on the reaper's thread (a game thread waiting that
    // long left its core idle, 83 ms in a run of a thousand short games).
    let me = ME.try_with(|me| match watched {
        true => me.get_or_init(|| parent(nix::unistd::gettid().as_raw())).clone(),
        false => me.get().cloned().flatten(),
    });
    match me {
        Ok(Some(me)) => {
            let _birth = me.birth.lock().unwrap_or_else(|e| e.into_inner());
            own(spawn())
        }
        // A thread no sweep reads (where the sweeps read threads' `children` files), or every
        // thread (where they scan /proc).
        _ if main_parent().is_some() && !on_main() => own(spawn()),
        _ => {
            let _sweep = SWEEP.lock().unwrap_or_else(|e| e.into_inner());
            own(spawn())
        }
    }
}

fn on_main() -> bool {
    nix::unistd::gettid().as_raw() == std::process::id() as i32
}

fn own<T>(spawned: std::io::Result<(T, Option<u32>)>) -> std::io::Result<T> {
    if let Ok((_, Some(pid))) = &spawned {
        OWNED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(*pid as i32);
    }
    spawned.map(|(value, _)| value)
}

/// The process has been reaped: it is no longer ours.
pub fn release(pid: i32) {
    OWNED.lock().unwrap_or_else(|e| e.into_inner()).remove(&pid);
}

/// A thread of arena that starts processes, or the main one, which the kernel gives orphans to
/// (the subreaper's first live thread): its `children` file, which lists what it forked and
/// was given (one read, where scanning /proc reads a file per process on the machine), and a
/// lock held from each of its spawns' clone until the child's pid is owned, so that no sweep
/// takes a bot being born for an orphan.
struct Parent {
    // Opened once and read from its start each time (a sweep runs after every game): the file
    // is made afresh at each read, and the open cost more than the read.
    children: std::fs::File,
    birth: Mutex<()>,
}

/// Every thread that ever started a process, while it lives, and the main thread.
static PARENTS: Mutex<Vec<Weak<Parent>>> = Mutex::new(Vec::new());

thread_local! {
    /// This thread as a parent, once it has started a program of a game; None where threads
    /// have no `children` file (the sweeps then scan /proc, and spawns hold `SWEEP`).
    static ME: std::cell::OnceCell<Option<Arc<Parent>>> = const { std::cell::OnceCell::new() };
}

/// The main thread, whatever thread asks first: orphans go to it, and it lives as long as arena.
fn main_parent() -> Option<Arc<Parent>> {
    static MAIN: OnceLock<Option<Arc<Parent>>> = OnceLock::new();
    MAIN.get_or_init(|| open_parent(std::process::id() as i32))
        .clone()
}

fn parent(tid: i32) -> Option<Arc<Parent>> {
    if tid == std::process::id() as i32 {
        main_parent()
    } else {
        main_parent()?;
        open_parent(tid)
    }
}

fn open_parent(tid: i32) -> Option<Arc<Parent>> {
    let me = std::process::id();
    let children = std::fs::File::open(format!("/proc/{me}/task/{tid}/children")).ok()?;
    let parent = Arc::new(Parent {
        children,
        birth: Mutex::new(()),
    });
    let mut parents = PARENTS.lock().unwrap_or_else(|e| e.into_inner());
    parents.retain(|p| p.strong_count() > 0);
    parents.push(Arc::downgrade(&parent));
    Some(parent)
}

/// Whose children a sweep reads, and whether it waits for the births under way there.
#[derive(Clone, Copy, PartialEq)]
enum Reach {
    /// Every thread's, waiting for births (the reaper's thread).
    All,
    /// Every thread's, leaving a thread in the middle of a birth to a later sweep (a game's
    /// thread, after its game).
    AllNow,
    /// Those of the main thread (the orphans) and of the calling thread (the siblings of its
    /// games' bots), leaving a birth under way to a later sweep: a freeze, which must not wait,
    /// on every move. The other threads' siblings are their own games' to sweep.
    Here,
}

/// arena's children that it does not own, as far as `reach` goes: the orphans given to it, and
/// what its bots made as their siblings; and whether that is all of them (false where a thread
/// was skipped, in the middle of a birth). The caller holds `SWEEP`.
fn orphans(reach: Reach) -> (Vec<i32>, bool) {
    let unowned = |pids: &mut dyn Iterator<Item = i32>| -> Vec<i32> {
        let owned = OWNED.lock().unwrap_or_else(|e| e.into_inner());
        pids.filter(|p| !owned.contains(p)).collect()
    };
    let Some(main) = main_parent() else {
        return (unowned(&mut scan_children().into_iter()), true);
    };
    let parents: Vec<Arc<Parent>> = match reach {
        Reach::All | Reach::AllNow => PARENTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter_map(Weak::upgrade)
            .collect(),
        Reach::Here => {
            let me = ME.try_with(|me| me.get().cloned().flatten()).ok().flatten();
            std::iter::once(main)
                .chain(me.filter(|_| !on_main()))
                .collect()
        }
    };
    let mut found = Vec::new();
    let mut complete = true;
    for parent in parents {
        // Held while the list is checked against the owned pids: a child listed is then
        // either owned or no bot (the order of locks a spawn takes: its birth, then `OWNED`).
        let _birth = match (parent.birth.try_lock(), reach) {
            (Ok(guard), _) => guard,
            (Err(TryLockError::Poisoned(e)), _) => e.into_inner(),
            (Err(TryLockError::WouldBlock), Reach::All) => {
                parent.birth.lock().unwrap_or_else(|e| e.into_inner())
            }
            (Err(TryLockError::WouldBlock), Reach::AllNow | Reach::Here) => {
                complete = false;
                continue;
            }
        };
        // A thread that has ended has no children: they went to another (the main one).
        if let Ok(text) = read_from_start(&parent.children) {
            let text = String::from_utf8_lossy(&text);
            found.extend(unowned(
                &mut text.split_whitespace().filter_map(|p| p.parse::<i32>().ok()),
            ));
        }
    }
    (found, complete)
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

/// arena's children, from every process's parent pid in /proc.
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
    let (found, complete) = orphans(Reach::AllNow);
    complete && found.is_empty() && super::workdir::Pool::shared().pool_empty()
}

/// Sweep on the calling thread, now, unless a sweep is under way (then the reaper's thread
/// sweeps again once it is done): for when an orphan must not run on a moment longer, as when a
/// bot is frozen while its opponent thinks (`Reach::Here`). Cheap when there is no orphan: a
/// read of /proc, two where the games are on threads of their own.
pub fn sweep_here() {
    match SWEEP.try_lock() {
        // The orphans only: the bots' directories are left to the reaper's thread.
        Ok(_guard) => {
            kill_orphans(Reach::Here);
        }
        Err(TryLockError::Poisoned(e)) => {
            let _guard = e.into_inner();
            kill_orphans(Reach::Here);
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

/// Sweep on the calling thread, once no other sweep holds the lock: the orphans, then the bots'
/// directories given back. Returns how many orphans it found.
fn sweep_now() -> usize {
    let pool = super::workdir::Pool::shared();
    let guard = SWEEP.lock().unwrap_or_else(|e| e.into_inner());
    // Taken before the orphans are killed: no descendant of the bots that gave these back is
    // left to write in them once the kill is done.
    let returned = pool.returned();
    let found = kill_orphans(Reach::All);
    // Emptied without the lock: removing what a bot left (50,000 files took 3 s beside spinning
    // orphans) held up every freeze's sweep meanwhile, and a bot frozen in the next game had its
    // orphans run on into its opponent's turn.
    drop(guard);
    pool.recycle(returned);
    found
}

/// The orphans' part of a sweep, with the lock held. Sweeps until one finds no orphan: an
/// orphan killed may leave children of its own, given to arena in turn (a chain of `setsid`s, a
/// process that forks again as it is killed). Each orphan and everything below it is stopped
/// before it is killed, so none can fork meanwhile.
fn kill_orphans(reach: Reach) -> usize {
    let mut found = 0;
    loop {
        let (orphans, _) = orphans(reach);
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

    /// arena's children that no sweep may take (a bot, or one being born), and one that it
    /// must: what a bot made with `clone(CLONE_PARENT)` is a child of the thread that started
    /// the bot, like the bot, and arena does not own it.
    fn sleeper() -> std::process::Child {
        std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap()
    }

    fn alive(pid: i32) -> bool {
        kill(Pid::from_raw(pid), None).is_ok()
    }

    #[test]
    fn a_child_of_a_thread_that_starts_bots_is_swept_unless_it_is_owned() {
        let _turn = orphans_turn();
        become_subreaper();
        let mut bot = spawn_owned(true, || {
            let child = sleeper();
            let pid = child.id();
            Ok((child, Some(pid)))
        })
        .unwrap();
        // As a bot's sibling would be: this thread's child, not owned.
        let sibling = sleeper().id() as i32;
        sweep();
        wait_swept();
        let bot_alive = alive(bot.id() as i32);
        let _ = bot.kill();
        let _ = bot.wait();
        release(bot.id() as i32);
        assert!(!alive(sibling), "the sibling was swept");
        assert!(bot_alive, "the bot was not");
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

    /// Everything a sweep would take now.
    fn listed() -> Vec<i32> {
        orphans(Reach::All).0
    }

    #[test]
    fn a_sweep_asked_for_during_a_spawn_does_not_wait_and_takes_no_process_being_born() {
        let _turn = orphans_turn();
        let pid = orphan();
        let mut born = spawn_owned(true, || {
            let child = sleeper();
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                sweep();
                tx.send(()).unwrap();
            });
            rx.recv_timeout(std::time::Duration::from_secs(10))
                .expect("the sweep returns while the spawn is under way");
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(alive(child.id() as i32), "not taken for an orphan");
            let id = child.id();
            Ok((child, Some(id)))
        })
        .unwrap();
        wait_swept();
        let born_alive = alive(born.id() as i32);
        let _ = born.kill();
        let _ = born.wait();
        release(born.id() as i32);
        assert!(born_alive, "owned once born: never swept");
        assert!(!listed().contains(&pid), "the orphan was swept");
    }

    #[test]
    fn a_sweep_is_done_on_the_reapers_thread_and_waited_for() {
        let _turn = orphans_turn();
        let pid = orphan();
        sweep();
        wait_swept();
        assert!(!listed().contains(&pid), "swept");
        assert_eq!(sweep_now(), 0, "nothing left");
    }

    #[test]
    fn an_orphan_is_found_by_the_main_threads_file_and_by_the_scan() {
        let _turn = orphans_turn();
        let pid = orphan();
        let (fast, slow) = (listed(), scan_children());
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::__WALL));
        assert!(fast.contains(&pid), "{fast:?} lacks {pid}");
        assert!(slow.contains(&pid), "{slow:?} lacks {pid}");
        assert!(!listed().contains(&pid), "a reaped orphan is gone");
    }
}
