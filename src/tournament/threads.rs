//! Where a tournament's games run: on the thread that runs the tournament, and on one more
//! single-threaded runtime per extra core. Each game runs from start to end on one thread.
//!
//! A game that stays on its thread wakes no other thread when a line arrives, as a work-stealing
//! runtime does at every line. More than one thread is needed all the same: built-in bots think
//! on their game's thread, and starting a program stops its thread until the program has exec'd
//! (vfork), which with one thread held up every other game meanwhile.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The runtimes games are spread over, the least busy first, and how many games run at once.
pub struct GameThreads {
    lanes: Vec<Lane>,
    jobs: usize,
}

struct Lane {
    handle: Handle,
    running: Arc<AtomicUsize>,
    /// Dropped to end the thread (its runtime drops the games it still holds).
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Counts a game as running on its lane until the game is over or dropped.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl GameThreads {
    /// For `jobs` games at once: the current runtime (which must be single-threaded), and one
    /// more thread per game up to `threads` in all.
    pub fn new(jobs: usize, threads: usize) -> std::io::Result<GameThreads> {
        let mut lanes = vec![Lane {
            handle: Handle::current(),
            running: Arc::default(),
            stop: None,
            thread: None,
        }];
        for i in 1..jobs.min(threads) {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let (stop, stopped) = oneshot::channel::<()>();
            let handle = rt.handle().clone();
            let thread = std::thread::Builder::new()
                .name(format!("arena-games-{i}"))
                .spawn(move || {
                    rt.block_on(async {
                        let _ = stopped.await;
                    });
                    // A person's seat can block a thread on the terminal: do not wait for it.
                    rt.shutdown_timeout(std::time::Duration::from_millis(50));
                })?;
            lanes.push(Lane {
                handle,
                running: Arc::default(),
                stop: Some(stop),
                thread: Some(thread),
            });
        }
        Ok(GameThreads { lanes, jobs })
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
        let lane = self
            .lanes
            .iter()
            .min_by_key(|l| l.running.load(Ordering::Relaxed))
            .expect("at least one lane");
        lane.running.fetch_add(1, Ordering::Relaxed);
        let running = Running(lane.running.clone());
        lane.handle.spawn(async move {
            let _running = running;
            game.await
        })
    }
}

impl Drop for GameThreads {
    fn drop(&mut self) {
        for lane in &mut self.lanes {
            drop(lane.stop.take());
        }
        for lane in &mut self.lanes {
            if let Some(t) = lane.thread.take() {
                let _ = t.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_spread_over_the_threads_and_each_stays_on_one() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
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
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
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
}
