//! A short busy wait for a bot's line before the game's thread goes to sleep.
//!
//! A bot that answers at once answers within microseconds, but a thread that sleeps in
//! `epoll_wait` for it lets its CPU halt, and on a virtual machine a halted CPU takes tens of
//! microseconds to wake: that, not arena's work, was most of a relayed move's cost over the C
//! floor (bench/README.md, "a short busy wait"). So a wait for a line first polls for it, for at
//! most `SPIN`, and only then sleeps. It polls only while a CPU is spare: fewer games running in
//! this process than CPUs it may use (where every CPU has a game, the polling took CPU from the
//! bots of the others, and short games ran 15% slower with it), and half a CPU or more idle on the
//! whole machine over the last tenth of a second (other arenas, a build, a loaded server: none
//! of them is to wait while arena polls).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a wait polls before it sleeps: past the answer of an instant bot even on a loaded
/// machine (50 us took the relay bench as far as 150 did), and a small share of a move that
/// takes a millisecond.
const SPIN: Duration = Duration::from_micros(50);

static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// One game running, for as long as it is held.
pub struct Running(());

impl Running {
    pub fn start() -> Running {
        RUNNING.fetch_add(1, Ordering::Relaxed);
        Running(())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How long a wait for a line may poll before it sleeps now: `SPIN` while a CPU is spare, else
/// nothing.
pub fn budget() -> Duration {
    if RUNNING.load(Ordering::Relaxed) < cpus_allowed() && machine_has_room() {
        SPIN
    } else {
        Duration::ZERO
    }
}

/// How often the machine's idle time is looked at: the kernel counts it in ticks of 10 ms, and a
/// look costs a few system calls where a game waits for lines thousands of times a second.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// Whether the machine's CPUs were idle half a CPU's worth or more since the last look
/// (`/proc/stat`), so that polling takes no thread's CPU. Until a first interval has passed, and
/// where it cannot be read, a CPU spare in this process is all that is asked.
fn machine_has_room() -> bool {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    static LOOKED_US: AtomicU64 = AtomicU64::new(u64::MAX);
    static TICKS: AtomicU64 = AtomicU64::new(0);
    static IDLE: AtomicU64 = AtomicU64::new(0);
    static ROOM: AtomicBool = AtomicBool::new(true);
    let now = EPOCH.get_or_init(Instant::now).elapsed().as_micros() as u64;
    let last = LOOKED_US.load(Ordering::Relaxed);
    if last != u64::MAX && now.saturating_sub(last) < LOOK_EVERY.as_micros() as u64 {
        return ROOM.load(Ordering::Relaxed);
    }
    LOOKED_US.store(now, Ordering::Relaxed);
    let Some((ticks, idle)) = cpu_ticks() else {
        return ROOM.load(Ordering::Relaxed);
    };
    let (ticks_before, idle_before) = (TICKS.swap(ticks, Ordering::Relaxed), IDLE.swap(idle, Ordering::Relaxed));
    if ticks_before == 0 || ticks <= ticks_before {
        return ROOM.load(Ordering::Relaxed);
    }
    let cpus = cpus_online().unwrap_or(1) as u64;
    // Idle ticks over all ticks, times the CPUs: the CPUs' worth that were idle.
    let room = idle.saturating_sub(idle_before) * cpus * 2 >= ticks - ticks_before;
    ROOM.store(room, Ordering::Relaxed);
    room
}

/// All the CPUs' ticks so far and their idle ones (idle and waiting for I/O): the first line of
/// `/proc/stat` (`cpu  user nice system idle iowait irq softirq steal ...`).
fn cpu_ticks() -> Option<(u64, u64)> {
    use std::io::Read;
    let mut buf = [0u8; 256];
    let n = std::fs::File::open("/proc/stat")
        .and_then(|mut f| f.read(&mut buf))
        .ok()?;
    parse_cpu_ticks(std::str::from_utf8(buf[..n].split(|&b| b == b'\n').next()?).ok()?)
}

fn parse_cpu_ticks(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    // Guest time is counted in user and nice already.
    let ticks: Vec<u64> = fields.take(8).map(|f| f.parse().ok()).collect::<Option<_>>()?;
    if ticks.len() < 5 {
        return None;
    }
    Some((ticks.iter().sum(), ticks[3] + ticks[4]))
}

/// The CPUs this process may run on (its affinity and cgroup quota), not the machine's; looked up
/// once, since a game asks at every wait. (`engine::threads::cores` is the same number, above
/// `bot` in the layering.)
fn cpus_allowed() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn cpus_online() -> Option<usize> {
    static CPUS: OnceLock<Option<usize>> = OnceLock::new();
    *CPUS.get_or_init(|| {
        nix::unistd::sysconf(nix::unistd::SysconfVar::_NPROCESSORS_ONLN)
            .ok()
            .flatten()
            .and_then(|n| usize::try_from(n).ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_only_while_a_cpu_is_spare() {
        // Other unit tests may run games at once: hold enough that every CPU has one.
        let held: Vec<_> = (0..cpus_allowed()).map(|_| Running::start()).collect();
        assert_eq!(budget(), Duration::ZERO);
        drop(held);
    }

    #[test]
    fn the_idle_ticks_are_read_from_proc_stat() {
        let line = "cpu  100 5 50 800 20 3 2 10 0 0";
        assert_eq!(parse_cpu_ticks(line), Some((990, 820)));
        assert_eq!(parse_cpu_ticks("cpu0 1 2 3 4 5"), None);
        assert_eq!(parse_cpu_ticks("cpu  1 2 x 4 5"), None);
        assert_eq!(parse_cpu_ticks("cpu  1 2 3"), None);
        // This machine's.
        assert!(cpu_ticks().is_some_and(|(all, idle)| all > 0 && idle <= all));
        assert!(cpus_online().is_some_and(|n| n >= 1));
    }
}
