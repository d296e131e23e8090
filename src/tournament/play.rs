//! Playing a run's planned games through the engine, and recording each as it finishes.

use std::path::Path;
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio::task::{JoinHandle, JoinSet};

use super::{Job, Progress, Results, disk};
use crate::engine::journal::Trip;
use crate::engine::stop::Stop;
use crate::engine::threads::GameThreads;
use crate::engine::{self, Games, retry, workers};
use crate::error::{Error, Result};
use crate::referee::{MatchOptions, MatchSetup, Player};
use crate::report::GameRow;
use crate::report::live::Live;
use crate::spec::Spec;

/// What became of the games a run did not record, beyond an interruption.
#[derive(Default)]
pub(super) struct Outcome {
    /// Why the run stopped starting games: its disk nearly full, or results it could not write.
    pub(super) halted: Option<Halt>,
    /// The games arena could not set up, however often it tried: played by no one, on resume.
    pub(super) unplayed: Vec<u64>,
}

impl Outcome {
    pub(super) fn add(&mut self, other: Outcome) {
        self.halted = self.halted.take().or(other.halted);
        self.unplayed.extend(other.unplayed);
    }
}

/// Why a run stops starting games although it was not interrupted.
#[derive(Debug, Clone)]
pub(super) struct Halt {
    pub(super) why: String,
    /// For want of space: the remedy is to free some.
    pub(super) full: bool,
    /// At the limit on file size: the remedy is to raise it.
    pub(super) file_size: bool,
}

/// The first reason to stop, shared by the workers (which start no game once it is set) and the
/// loop recording the games.
#[derive(Clone, Default)]
struct Halted(std::sync::Arc<std::sync::Mutex<Option<Halt>>>);

impl Halted {
    fn get(&self) -> Option<Halt> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Stop starting games, saying why once.
    fn set(&self, halt: Halt) {
        let mut first = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            crate::out::warn(&format!(
                "arena: stopping: {}; no new games start, the running ones finish and are \
                 recorded if they can be",
                halt.why
            ));
            *first = Some(halt);
        }
    }
}

/// The game and its bots, for messages.
fn named(spec: &Spec, job: &Job) -> String {
    let names: Vec<&str> = job
        .planned
        .seats
        .iter()
        .map(|&i| spec.bots[i].name.as_str())
        .collect();
    format!("game {} ({})", job.id, names.join(" vs "))
}

/// Play the jobs, `jobs` at a time, in order; record each as it finishes.
///
/// A slot is refilled as soon as its game ends. Finished games are made durable together (logs,
/// then games.csv) while the next ones play: one trip to the disk per batch (`journal`).
///
/// No game starts on a disk nearly full, nor once results could not be written: the run stops
/// as an interrupted one does, and says why. A game arena could not set up is left for a resume.
pub(super) async fn play_all(
    spec: &Spec,
    dir: &Path,
    threads: &GameThreads,
    todo: Vec<Job>,
    results: &mut Results,
    progress: &mut Progress,
    stop: &mut Stop,
) -> Result<Outcome> {
    let failed = |e: tokio::task::JoinError| Error::Internal(format!("a game task failed: {e}"));
    let halted = Halted::default();
    let mut outcome = Outcome::default();
    let (started, mut done_rx) = start(spec, dir, threads, todo, results, stop, &halted);
    let mut workers = JoinSet::new();
    for worker in started {
        workers.spawn(worker);
    }
    let mut playing = true;
    // Once no more signals can come, stop asking.
    let mut listening = true;
    loop {
        if !playing && results.journal.is_idle() {
            break;
        }
        tokio::select! {
            // A worker that failed (a bug in arena) ends the run now, not after the others.
            Some(worker) = workers.join_next() => worker.map_err(failed)?.map_err(failed)?,
            done = done_rx.recv(), if playing => match done {
                Some((job, played)) => over(spec, job, played, results, &halted, &mut outcome)?,
                // Every worker is over, and has sent all it played.
                None => playing = false,
            },
            trip = results.recorded(!playing) => recorded(spec, trip, results, progress, &halted),
            // The running games see a second interrupt themselves; games already over are
            // still made durable and recorded.
            changed = stop.changed(), if listening => listening = changed.is_ok(),
        }
    }
    outcome.halted = halted.get();
    Ok(outcome)
}

/// The engine's workers over the jobs: each asks before a game whether the run still starts
/// games (no interrupt, no halt, room on the disk).
fn start(
    spec: &Spec,
    dir: &Path,
    threads: &GameThreads,
    todo: Vec<Job>,
    results: &Results,
    stop: &Stop,
    halted: &Halted,
) -> (Vec<JoinHandle<()>>, UnboundedReceiver<workers::Done<Job>>) {
    let may_start = {
        let (stop, halted, dir, min_free_mb) =
            (stop.clone(), halted.clone(), dir.to_path_buf(), spec.min_free_mb);
        move || {
            let (stop, halted, dir) = (stop.clone(), halted.clone(), dir.clone());
            async move {
                if *stop.borrow() != 0 || halted.get().is_some() {
                    return false;
                }
                // A statfs per game: next to starting two processes, nothing. A disk that looks
                // full is looked at again once the sweeps asked for are done: they remove what
                // the last games' bots left in their directories.
                if disk::too_full(&dir, min_free_mb).is_some() {
                    crate::bot::reaper::swept().await;
                    if let Some(why) = disk::too_full(&dir, min_free_mb) {
                        halted.set(Halt {
                            why,
                            full: true,
                            file_size: false,
                        });
                        return false;
                    }
                }
                true
            }
        }
    };
    let play = {
        let games = Arc::new(games(spec, dir, results.live.clone()));
        let (spec, stop, halted) = (spec.clone(), stop.clone(), halted.clone());
        move |job: Job| {
            let (games, spec, mut stop, halted) =
                (games.clone(), spec.clone(), stop.clone(), halted.clone());
            async move {
                let played = retry::play(
                    &named(&spec, &job),
                    || setup(&games, &spec, &job),
                    &mut stop,
                    || halted.get().is_none(),
                )
                .await;
                (job, played)
            }
        }
    };
    workers::start(threads, todo.into_iter(), may_start, play)
}

/// A game over: journaled, or why not (abandoned, not set up, its log not made).
fn over(
    spec: &Spec,
    job: Job,
    played: Option<Result<crate::referee::Played>>,
    results: &mut Results,
    halted: &Halted,
    outcome: &mut Outcome,
) -> Result<()> {
    let played = match played {
        Some(Ok(played)) => played,
        // Abandoned: nothing of it was recorded. What its bots left goes too (on the reaper's
        // thread).
        None => {
            crate::bot::reaper::sweep();
            return Ok(());
        }
        Some(Err(Error::Setup(why))) => {
            crate::out::warn(&format!(
                "arena: {} was not played: arena could not set it up ({why}); it counts for no \
                 one and is played on resume",
                named(spec, &job)
            ));
            outcome.unplayed.push(job.id);
            return Ok(());
        }
        // Its log could not be made: arena's, and the results' disk's, not a bot's.
        Some(Err(e @ Error::Io { .. })) => {
            crate::out::warn(&format!(
                "arena: {} was not played, and will be on resume: {e}",
                named(spec, &job)
            ));
            halted.set(Halt {
                full: disk::is_full(&e),
                file_size: disk::is_past_file_size(&e),
                why: e.to_string(),
            });
            return Ok(());
        }
        Some(Err(e)) => return Err(e),
    };
    let row = GameRow::new(job.id, job.planned.round, &played.record);
    results.journal.push(job, played, row);
    Ok(())
}

/// A batch's trip to the disk over: its games told, or forgotten and the run halted.
fn recorded(
    spec: &Spec,
    trip: Trip<Job>,
    results: &mut Results,
    progress: &mut Progress,
    halted: &Halted,
) {
    let games = match trip {
        Trip::Recorded(games, tables) => {
            if let Some(Err(e)) = tables {
                halted.set(Halt {
                    full: disk::is_full(&e),
                file_size: disk::is_past_file_size(&e),
                    why: e.to_string(),
                });
            }
            games
        }
        Trip::Unrecorded(jobs, e) => {
            results.forget(results.rows.len() - jobs.len());
            let games: Vec<String> = jobs.iter().map(|j| named(spec, j)).collect();
            crate::out::warn(&format!(
                "arena: not recorded, and played again on resume: {}: {e}",
                games.join(", ")
            ));
            halted.set(Halt {
                full: disk::is_full(&e),
                file_size: disk::is_past_file_size(&e),
                why: e.to_string(),
            });
            return;
        }
    };
    for (job, record, _) in games {
        let leader = results.leader(progress.done + 1 == progress.total);
        progress.finished(&record.finished_line(job.id as usize), leader);
    }
}

/// What every game of the run is set up with.
fn games(spec: &Spec, dir: &Path, live: Option<Arc<Live>>) -> Games {
    let options = MatchOptions {
        game: spec.game,
        params: spec.params.clone(),
        timeout: spec.timeout,
        startup_timeout: spec.startup_timeout,
        referee: spec.referee.clone(),
    };
    Games {
        limits: engine::limits_of(&options),
        options,
        logs: dir.join("logs"),
        ponder: spec.ponder,
        live,
    }
}

fn setup(games: &Games, spec: &Spec, job: &Job) -> MatchSetup {
    let players = job
        .planned
        .seats
        .iter()
        .map(|&i| Player {
            name: spec.bots[i].name.clone(),
            bot: spec.bots[i].bot.clone(),
        })
        .collect();
    let seed = crate::seeds::of_planned(
        spec.seed,
        job.id,
        job.planned.pair,
        &job.planned.seats,
        spec.referee.is_some(),
    );
    let opening = spec
        .openings
        .as_ref()
        .map(|o| o.book.opening(job.planned.pair));
    games.setup(job.id, players, seed, opening)
}
