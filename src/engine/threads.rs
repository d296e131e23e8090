//! Where a tournament's games run: tokio-util's `LocalPoolHandle`, one single-threaded runtime
//! per core, the least busy taking the next game. Each game runs from start to end on one
//! thread.
//!
//! A game that stays on its thread wakes no other thread when a line arrives, as a work-stealing
//! runtime does at every line. More than one thread is needed all the same: built-in bots think
//! on their game's thread, and starting a program stops its thread until the program has exec'd
//! (vfork), which with one thread held up every other game meanwhile.

use std::future::Future;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tokio::task::{AbortHandle, JoinHandle};
use tokio_util::task::LocalPoolHandle;

/// The cores this process may run on: a tournament's default number of games at once.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Give the allocator's free pages back to the system, once the last game has been started and
/// its worker is done: the games' memory was freed on the game threads, in malloc arenas of
/// their own that the tables and the report (made on another thread) do not reuse, so that
/// arena's peak was the games' memory and the report's on top of it (bench/README.md, issue 43).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and only returns memory that is free to the system.
    unsafe {
        nix::libc::malloc_trim(0);
    }
}

/// Whether `n` more threads can be started now: each is started, and all are let go.
pub fn can_start(n: usize) -> std::io::Result<()> {
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let wait = Arc::new(Mutex::new(wait));
    let started = (0..n)
        .map(|_| {
            let wait = Arc::clone(&wait);
            std::thread::Builder::new().spawn(move || {
                let _ = wait.lock().map(|w| w.recv());
            })
        })
        .collect::<Vec<_>>();
    drop(release);
    let mut failed = None;
    for thread in started {
        match thread {
            Ok(t) => {
                let _ = t.join();
            }
            Err(e) => failed = Some(e),
        }
    }
    failed.map_or(Ok(()), Err)
}

/// The runtimes games are spread over, and how many games run at once.
pub struct GameThreads {
    pool: LocalPoolHandle,
    jobs: usize,
    /// The games spawned and not over, to abort when the threads go.
    games: Mutex<Vec<AbortHandle>>,
    /// How many games (or workers) are not yet over or dropped.
    live: Arc<(Mutex<usize>, Condvar)>,
}

/// Counts a game as live until it is over or dropped.
struct Live(Arc<(Mutex<usize>, Condvar)>);

impl Drop for Live {
    fn drop(&mut self) {
        let (count, changed) = &*self.0;
        *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        changed.notify_all();
    }
}

impl GameThreads {
    /// For `jobs` games at once, on up to `threads` threads; an error if they cannot be started
    /// (a limit on processes: `ulimit -u`), where tokio-util's pool would panic.
    pub fn new(jobs: usize, threads: usize) -> std::io::Result<GameThreads> {
        let threads = jobs.min(threads).max(1);
        can_start(threads)?;
        Ok(GameThreads {
            pool: LocalPoolHandle::new(threads),
            jobs,
            games: Mutex::default(),
            live: Arc::default(),
        })
    }

    /// How many games run at once.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// Run a game (or a worker that plays games one after another) on the least busy thread.
    /// Dropping the handle does not stop it: abort it.
    pub fn spawn<F>(&self, game: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        *self.live.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        let live = Live(self.live.clone());
        // Boxed: the pool moves the future through closures and tasks of its own, each of which
        // held a copy of its whole state (12 KiB of a duel's 5.5 KiB worker), for every game.
        let game = Box::pin(game);
        let handle = self.pool.spawn_pinned(move || async move {
            let _live = live;
            game.await
        });
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.retain(|g| !g.is_finished());
        games.push(handle.abort_handle());
        handle
    }
}

impl Drop for GameThreads {
    /// Abort the games still running, and wait until they are dropped on their threads (their
    /// bots killed). The pool's threads themselves are not joined: a person's seat can block one
    /// on the terminal.
    fn drop(&mut self) {
        for game in self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            game.abort();
        }
        let (count, changed) = &*self.live;
        let live = count.lock().unwrap_or_else(|e| e.into_inner());
        let _ = changed.wait_timeout_while(live, Duration::from_secs(10), |n| *n > 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::oneshot;

    /// Run `test` on a single-threaded runtime, as a tournament runs.
    fn on_a_runtime(test: impl Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(test);
    }

    #[test]
    fn games_spread_over_the_threads_and_each_stays_on_one() {
        on_a_runtime(async {
            let threads = GameThreads::new(6, 3).unwrap();
            let handles: Vec<_> = (0..6)
                .map(|_| {
                    threads.spawn(async {
                        let before = std::thread::current().id();
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                        (before, std::thread::current().id())
                    })
                })
                .collect();
            let mut seen = std::collections::HashSet::new();
            for h in handles {
                let (before, after) = h.await.unwrap();
                assert_eq!(before, after, "a game moved threads");
                seen.insert(before);
            }
            assert_eq!(seen.len(), 3, "six games at once use all three threads");
        });
    }

    #[test]
    fn an_aborted_game_is_dropped_on_its_thread() {
        on_a_runtime(async {
            let threads = GameThreads::new(2, 2).unwrap();
            let (tx, rx) = oneshot::channel::<()>();
            // Both threads get a game; the second one holds `tx` until dropped.
            let first = threads.spawn(std::future::pending::<()>());
            let second = threads.spawn(async move {
                let _tx = tx;
                std::future::pending::<()>().await
            });
            second.abort();
            assert!(rx.await.is_err(), "the game was dropped, and `tx` with it");
            assert!(second.await.unwrap_err().is_cancelled());
            first.abort();
        });
    }

    #[test]
    fn the_games_still_running_are_dropped_before_the_threads_are() {
        on_a_runtime(async {
            let threads = GameThreads::new(2, 2).unwrap();
            let (tx, mut rx) = oneshot::channel::<()>();
            let (started_tx, started) = oneshot::channel::<()>();
            let _game = threads.spawn(async move {
                let _tx = tx;
                let _ = started_tx.send(());
                std::future::pending::<()>().await
            });
            started.await.unwrap();
            drop(threads);
            assert!(
                rx.try_recv()
                    .is_err_and(|e| e == oneshot::error::TryRecvError::Closed)
            );
        });
    }
}
