//! The workers that play a queue of games, one per game at a time, each on its game thread
//! taking the next game as soon as its own is over: a slot freed on one thread is refilled
//! there, without a round trip through the caller's. What each played is sent over as it is
//! over; the caller journals it.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tokio::task::JoinHandle;

use super::threads::GameThreads;
use crate::error::Result;
use crate::referee::Played;

/// A game over: the job, and how it went (`None`: abandoned by a second interrupt, its bots
/// killed on its thread).
pub type Done<J> = (J, Option<Result<Played>>);

/// Start `threads.jobs()` workers over `queue`. Before each game a worker asks `may_start`
/// (false: it stops); `play` plays a job and gives it back with what it played. A game whose
/// bots' stderr is still on its way is sent once it is there, and the slot plays on
/// meanwhile: waiting held the slot up (bench/README.md, throughput). The workers' handles
/// fail only if a worker panicked (a bug in arena).
pub fn start<J, Q, S, SF, P, PF>(
    threads: &GameThreads,
    queue: Q,
    may_start: S,
    play: P,
) -> (Vec<JoinHandle<()>>, UnboundedReceiver<Done<J>>)
where
    J: Send + 'static,
    Q: Iterator<Item = J> + Send + 'static,
    S: Fn() -> SF + Clone + Send + 'static,
    SF: Future<Output = bool> + Send,
    P: Fn(J) -> PF + Clone + Send + 'static,
    PF: Future<Output = Done<J>> + Send,
{
    let queue = Arc::new(Mutex::new(queue));
    let (done, over) = unbounded_channel();
    let working = Arc::new(AtomicUsize::new(threads.jobs()));
    let workers = (0..threads.jobs())
        .map(|_| {
            let (queue, done, may_start, play, working) = (
                queue.clone(),
                done.clone(),
                may_start.clone(),
                play.clone(),
                working.clone(),
            );
            threads.spawn(async move {
                while may_start().await {
                    let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).next() else {
                        break;
                    };
                    match play(job).await {
                        (job, Some(Ok(mut played))) if !played.settled() => {
                            let done = done.clone();
                            tokio::spawn(async move {
                                played.settle().await;
                                let _ = done.send((job, Some(Ok(played))));
                            });
                        }
                        over => {
                            if done.send(over).is_err() {
                                break;
                            }
                        }
                    }
                }
                if working.fetch_sub(1, Ordering::SeqCst) == 1 {
                    super::threads::release_free_memory();
                }
            })
        })
        .collect();
    (workers, over)
}
