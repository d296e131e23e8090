//! Whether a bot has started: it waits for its first input, as CodinGame's runner lets every player
//! get to before the game (docs/design.md, section Start-up). Read from /proc, never by tracing
//! the bot: each thread of each of its processes (below the sandbox's own, which hold its input
//! too) says which system call it is blocked in (`/proc/PID/task/TID/syscall`), and the bot waits
//! for its input when one is blocked reading it, whatever reads it:
//!
//! - `read` and its kin on a file descriptor that is the bot's input (the same pipe or FIFO as
//!   arena's writing end, by device and inode: a shell that runs the bot without `exec` holds it
//!   too, and a FIFO has another number in each process): Python, Java, C, Go, bash's `read`;
//! - `epoll_wait` on an epoll set that watches its input (`/proc/PID/fdinfo`): Node's event loop;
//! - `poll` or `select` with no timeout in a process that holds its input: a bot that waits on
//!   several descriptors (the set itself is in the bot's memory, not read here).
//!
//! A bot asleep (`sleep`, a timer) is not waiting for its input: its start-up goes on. Where the
//! kernel does not say (a task's system call unreadable), a tree that has used no CPU over a
//! few looks is taken for waiting.
//!
//! The looks are made by one thread for every starting bot (`watch`), not on the runtime: its
//! timers tick in milliseconds, and a compiled bot reaches its first read within one, where a
//! one-round game takes little more. The first look comes 100 us after the bot started, later
//! ones a tenth of its start-up so far apart (at most 20 ms), so that looking costs little and
//! tells late by little.

use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use std::os::unix::fs::MetadataExt;

use super::tree;

/// A file as the kernel names it: its device and inode.
pub type FileId = (u64, u64);

/// What one look at a bot's threads found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Look {
    /// A thread is blocked waiting for the bot's input.
    pub waiting: bool,
    /// A thread is running or runnable: the bot is still at work on something.
    pub running: bool,
    /// Some thread's system call could not be read: only the CPU it used tells.
    pub unknown: bool,
    /// The CPU time of all its threads so far, in nanoseconds (for `unknown`).
    pub cpu_ns: u64,
    /// No process was left to look at.
    pub gone: bool,
}

#[cfg(target_arch = "x86_64")]
mod nr {
    pub const READS: &[u64] = &[0, 17, 19, 295, 327, 45, 47];
    pub const EPOLL: &[u64] = &[232, 281, 441];
    pub const POLL: u64 = 7;
    pub const PPOLL: u64 = 271;
    pub const SELECT: &[u64] = &[23, 270];
}

#[cfg(target_arch = "aarch64")]
mod nr {
    pub const READS: &[u64] = &[63, 65, 67, 69, 286, 207, 212];
    pub const EPOLL: &[u64] = &[22, 441];
    pub const POLL: u64 = u64::MAX;
    pub const PPOLL: u64 = 73;
    pub const SELECT: &[u64] = &[72];
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod nr {
    pub const READS: &[u64] = &[];
    pub const EPOLL: &[u64] = &[];
    pub const POLL: u64 = u64::MAX;
    pub const PPOLL: u64 = u64::MAX;
    pub const SELECT: &[u64] = &[];
}

/// Look at every thread of the processes of `root`'s tree from depth `wrappers` on.
pub fn look(root: tree::Root, wrappers: usize, input: FileId) -> Look {
    if wrappers == 0 {
        match alone(root, input) {
            Alone::Waiting => {
                return Look {
                    waiting: true,
                    ..Look::default()
                };
            }
            Alone::Running => {
                return Look {
                    running: true,
                    ..Look::default()
                };
            }
            Alone::Unsure => {}
        }
    }
    let mut seen = Look {
        gone: true,
        ..Look::default()
    };
    let mut tids = Vec::new();
    for (pid, depth) in tree::members(root) {
        if depth < wrappers {
            continue;
        }
        let pid = pid.as_raw();
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse::<i32>().ok()) else {
                continue;
            };
            seen.gone = false;
            tids.push((pid, tid));
            match syscall(pid, tid) {
                Call::Running => seen.running = true,
                Call::Unknown => seen.unknown = true,
                Call::In(nr, args) => {
                    if !seen.waiting && waits_for(pid, nr, &args, input) {
                        seen.waiting = true;
                    }
                }
                Call::None => {}
            }
        }
    }
    if seen.unknown {
        seen.cpu_ns = tids.iter().map(|&(pid, tid)| cpu_ns(pid, tid)).sum();
    }
    seen
}

/// What a cheap look at the usual bot, one process of one thread, found.
enum Alone {
    /// Blocked reading its input.
    Waiting,
    /// Running: still starting.
    Running,
    /// Something else, or not alone: the whole tree is looked at.
    Unsure,
}

/// The usual bot, looked at cheaply: a look is made every 100 us of a compiled bot's start, on
/// machines whose cores the bots keep busy, and the whole tree is a dozen files. One file says
/// that a single-threaded process is still running, the usual answer; three more that it reads
/// its input.
fn alone(root: tree::Root, input: FileId) -> Alone {
    let pid = root.pid().as_raw();
    let Ok(stat) = super::procfs::read(format!("/proc/{pid}/stat")) else {
        return Alone::Unsure;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return Alone::Unsure;
    };
    let fields: Vec<&str> = rest.split_whitespace().take(20).collect();
    // Its thread count, and its start: the same process, not one given its pid since.
    if fields.get(17) != Some(&"1") || fields.get(19) != Some(&root.start().to_string().as_str())
    {
        return Alone::Unsure;
    }
    if fields.first() == Some(&"R") {
        return Alone::Running;
    }
    let no_child = super::procfs::read(format!("/proc/{pid}/task/{pid}/children"))
        .is_ok_and(|c| c.trim().is_empty());
    match no_child
        && matches!(syscall(pid, pid), Call::In(nr, args)
            if nr::READS.contains(&nr) && is_input(pid, args[0], input))
    {
        true => Alone::Waiting,
        false => Alone::Unsure,
    }
}

enum Call {
    Running,
    Unknown,
    /// Not in a system call (stopped in user space, or a zombie).
    None,
    In(u64, [u64; 6]),
}

/// The system call a thread is blocked in, with its arguments.
fn syscall(pid: i32, tid: i32) -> Call {
    let Ok(text) = super::procfs::read(format!("/proc/{pid}/task/{tid}/syscall")) else {
        // Gone meanwhile, or not ours to read.
        return match std::path::Path::new(&format!("/proc/{pid}/task/{tid}")).exists() {
            true => Call::Unknown,
            false => Call::None,
        };
    };
    let mut words = text.split_whitespace();
    match words.next() {
        Some("running") => Call::Running,
        Some(n) if n.starts_with('-') => Call::None,
        Some(n) => {
            let Ok(nr) = n.parse::<u64>() else {
                return Call::Unknown;
            };
            let mut args = [0u64; 6];
            for a in args.iter_mut() {
                *a = words
                    .next()
                    .and_then(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).ok())
                    .unwrap_or(0);
            }
            Call::In(nr, args)
        }
        None => Call::Unknown,
    }
}

/// Whether a thread blocked in system call `nr` waits for the bot's input.
fn waits_for(pid: i32, nr: u64, args: &[u64; 6], input: FileId) -> bool {
    if nr::READS.contains(&nr) {
        return is_input(pid, args[0], input);
    }
    if nr::EPOLL.contains(&nr) {
        return epoll_watches(pid, args[0], input);
    }
    // No timeout: it waits for a descriptor, not for a clock.
    let forever = match nr {
        _ if nr == nr::POLL => args[2] as u32 == u32::MAX,
        _ if nr == nr::PPOLL => args[2] == 0,
        _ if nr::SELECT.contains(&nr) => args[4] == 0,
        _ => false,
    };
    forever && holds_input(pid, input)
}

/// Whether descriptor `fd` of process `pid` is the bot's input.
fn is_input(pid: i32, fd: u64, input: FileId) -> bool {
    std::fs::metadata(format!("/proc/{pid}/fd/{fd}"))
        .is_ok_and(|m| (m.dev(), m.ino()) == input)
}

/// Whether the epoll set `epfd` of process `pid` watches the bot's input.
fn epoll_watches(pid: i32, epfd: u64, input: FileId) -> bool {
    let Ok(info) = super::procfs::read(format!("/proc/{pid}/fdinfo/{epfd}")) else {
        return false;
    };
    info.lines()
        .filter_map(|l| l.strip_prefix("tfd:"))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .any(|fd| is_input(pid, fd, input))
}

/// Whether process `pid` has the bot's input open.
fn holds_input(pid: i32, input: FileId) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten()
        .any(|fd| fd.metadata().is_ok_and(|m| (m.dev(), m.ino()) == input))
}

/// A thread's time on the CPU so far, in nanoseconds (its schedstat, else its stat's ticks).
fn cpu_ns(pid: i32, tid: i32) -> u64 {
    if let Ok(text) = super::procfs::read(format!("/proc/{pid}/task/{tid}/schedstat"))
        && let Some(ns) = text.split_whitespace().next().and_then(|w| w.parse().ok())
    {
        return ns;
    }
    let Ok(stat) = super::procfs::read(format!("/proc/{pid}/task/{tid}/stat")) else {
        return 0;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0;
    };
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|w| w.parse::<u64>().ok())
        .sum();
    ticks * 10_000_000
}

/// The device and inode of an open descriptor of arena's.
pub fn file_id(fd: impl std::os::fd::AsFd) -> Option<FileId> {
    let st = nix::sys::stat::fstat(fd).ok()?;
    Some((st.st_dev as u64, st.st_ino as u64))
}

/// How soon a starting bot is first looked at, and the shortest pause between looks.
const FIRST_LOOK: Duration = Duration::from_micros(100);

/// The longest pause between two looks at a starting bot.
const MOST_PAUSE: Duration = Duration::from_millis(20);

/// How long a bot that waits for its input while other threads of it still run is let finish.
const SETTLE: Duration = Duration::from_millis(100);

/// Where the kernel does not say what a bot's threads wait for: whether it has used no CPU for a
/// while.
#[derive(Default)]
struct IdleWatch {
    cpu_ns: u64,
    since: Option<Instant>,
}

impl IdleWatch {
    /// How long the bot must have been quiet to count as waiting.
    const QUIET: Duration = Duration::from_millis(50);

    fn quiet(&mut self, cpu_ns: u64, running: bool, now: Instant) -> bool {
        // Less than 1 ms of CPU between looks is a runtime's housekeeping, not a start-up.
        if running || cpu_ns > self.cpu_ns + 1_000_000 {
            self.cpu_ns = cpu_ns;
            self.since = None;
            return false;
        }
        now.duration_since(*self.since.get_or_insert(now)) >= Self::QUIET
    }
}

/// One starting bot the watcher looks at.
struct Watch {
    root: tree::Root,
    wrappers: usize,
    input: FileId,
    begun: Instant,
    next: Instant,
    waiting_since: Option<Instant>,
    idle: IdleWatch,
    /// Told how long the bot took to wait for its input; dropped by a caller no longer asking.
    tx: oneshot::Sender<Duration>,
}

impl Watch {
    /// Look once: whether it is done (told, or no longer asked for), else when to look again.
    fn look(&mut self, now: Instant) -> bool {
        if self.tx.is_closed() {
            return true;
        }
        let seen = look(self.root, self.wrappers, self.input);
        if seen.gone {
            return true;
        }
        let mut ready = false;
        if seen.waiting {
            // Threads still at work beside the one that waits (a JVM's compilers) are let
            // finish for a moment: that is start-up too; a bot that computes on for longer
            // while it waits (a search in a thread of its own) does so on its own account.
            let since = *self.waiting_since.get_or_insert(now);
            ready = !seen.running || now.duration_since(since) >= SETTLE;
        } else {
            self.waiting_since = None;
        }
        ready |= seen.unknown && self.idle.quiet(seen.cpu_ns, seen.running, now);
        if ready {
            let tx = std::mem::replace(&mut self.tx, oneshot::channel().0);
            let _ = tx.send(now.duration_since(self.begun));
            return true;
        }
        self.next = now + (now.duration_since(self.begun) / 10).clamp(FIRST_LOOK, MOST_PAUSE);
        false
    }
}

/// Watch a bot started at `begun`, whose tree is `root` (its first `wrappers` levels the
/// sandbox's) and whose input is `input`: the receiver is told how long it took to wait for its
/// input, once it does. Dropping the receiver ends the watch.
pub fn watch(
    root: tree::Root,
    wrappers: usize,
    input: FileId,
    begun: Instant,
) -> oneshot::Receiver<Duration> {
    static WATCHER: OnceLock<Option<mpsc::Sender<Watch>>> = OnceLock::new();
    let (tx, rx) = oneshot::channel();
    let watch = Watch {
        root,
        wrappers,
        input,
        begun,
        next: begun + FIRST_LOOK,
        waiting_since: None,
        idle: IdleWatch::default(),
        tx,
    };
    let sender = WATCHER.get_or_init(|| {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("arena-ready".into())
            .spawn(move || watcher(rx))
            .ok()
            .map(|_| tx)
    });
    // The thread lives as long as arena: the send cannot fail. Where it could not start (a
    // limit on processes), the watch is dropped with its sender, and the start goes unseen.
    if let Some(sender) = sender {
        let _ = sender.send(watch);
    }
    rx
}

/// The watcher's thread: looks at each bot when due, sleeps until the next is.
fn watcher(new: mpsc::Receiver<Watch>) {
    let mut watches: Vec<Watch> = Vec::new();
    loop {
        let next = watches.iter().map(|w| w.next).min();
        let received = match next {
            None => new.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(at) => new.recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(w) => watches.push(w),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
        watches.extend(new.try_iter());
        let now = Instant::now();
        watches.retain_mut(|w| w.next > now || !w.look(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    /// `program` with arena's end of a pipe on its stdin; what one look finds once it has had
    /// `after` to start.
    fn look_at(program: &[&str], after: Duration) -> Look {
        let mut child = Command::new(program[0])
            .args(&program[1..])
            .stdin(Stdio::piped())
            .spawn()
            .expect("the program starts");
        let input = file_id(child.stdin.as_ref().expect("piped")).expect("a pipe");
        std::thread::sleep(after);
        let root = tree::Root::of(nix::unistd::Pid::from_raw(child.id() as i32)).expect("running");
        let seen = look(root, 0, input);
        let _ = child.kill();
        let _ = child.wait();
        seen
    }

    #[test]
    fn a_reader_of_its_input_waits_for_it_and_a_sleeper_does_not() {
        let read = look_at(&["sh", "-c", "read line"], Duration::from_millis(300));
        assert!(read.waiting && !read.running && !read.gone, "{read:?}");
        // A shell that runs its reader without `exec`: the child reads the same pipe.
        let child = look_at(&["sh", "-c", "head -n 1; true"], Duration::from_millis(300));
        assert!(child.waiting, "{child:?}");
        let asleep = look_at(&["sleep", "5"], Duration::from_millis(300));
        assert!(!asleep.waiting && !asleep.gone, "{asleep:?}");
    }
}
