//! A short busy wait for a bot's line before the game's thread goes to sleep.
//!
//! A bot that answers at once answers within microseconds, but a thread that sleeps in
//! `epoll_wait` for it lets its CPU halt, and on a virtual machine a halted CPU takes tens of
//! microseconds to wake: that, not arena's work, was most of a relayed move's cost over the C
//! floor (bench/README.md, "a short busy wait"). So a wait for a line first polls for it, for at
//! most `SPIN`, and only then sleeps. It polls only while a CPU is spare (fewer games running in
//! this process than CPUs it may use): where every CPU has a game, the polling would take CPU
//! from the bots of the others, and short games ran 15% slower with it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

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
    static CPUS: OnceLock<usize> = OnceLock::new();
    // The CPUs this process may run on (its affinity and cgroup quota), not the machine's.
    let cpus = *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if RUNNING.load(Ordering::Relaxed) < cpus {
        SPIN
    } else {
        Duration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_only_while_a_cpu_is_spare() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Other unit tests may run games at once: hold enough that every CPU has one.
        let held: Vec<_> = (0..cpus).map(|_| Running::start()).collect();
        assert_eq!(budget(), Duration::ZERO);
        drop(held);
    }
}
