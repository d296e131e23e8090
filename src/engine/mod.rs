//! Playing planned games: in parallel on the cores (`threads`), each set up again when arena
//! could not (`retry`), each finished one made durable and journaled before it counts
//! (`journal`), stopping on signals (`stop`) or a disk nearly full (`disk`), one run in a
//! folder at a time (`lock`). `arena run`, `duel`, `match` and `check` are its callers; none of
//! them plays a game but through it (tests/it/structure.rs).

pub mod disk;
pub mod journal;
mod lock;
pub mod retry;
pub mod stop;
pub mod threads;
pub mod workers;

pub use lock::Lock;

use std::path::PathBuf;
use std::sync::Arc;

use crate::bot::process::IoLimits;
use crate::referee::{MatchOptions, MatchSetup, Player};
use crate::report::live::Live;

/// A game's log in a results folder's `logs/`, by the game's number (from 1), the same for every
/// command. Folders written before by `duel`, `match` and `check` (`game-0001.jsonl`) stay
/// readable: a log is found through the path `games.csv` gives it.
pub fn log_name(id: u64) -> String {
    format!("game-{id:05}.jsonl")
}

/// What every game of a run or a series is set up with; `setup` makes each game's the same way
/// for every command.
pub struct Games {
    pub options: MatchOptions,
    /// The results folder's `logs/`.
    pub logs: PathBuf,
    pub limits: IoLimits,
    pub ponder: bool,
    /// The report's live packers, if the run keeps a report.
    pub live: Option<Arc<Live>>,
}

impl Games {
    /// Game `id` (from 1) between `players`, in seat order, on `seed`, from `opening`.
    pub fn setup(
        &self,
        id: u64,
        players: Vec<Player>,
        seed: u64,
        opening: Option<String>,
    ) -> MatchSetup {
        let log_path = self.logs.join(log_name(id));
        MatchSetup {
            game: self.options.game,
            params: self.options.params.clone(),
            seed,
            players,
            timeout: self.options.timeout,
            startup_timeout: self.options.startup_timeout,
            limits: self.limits,
            tap: self.live.as_ref().map(|l| l.tap(&log_path)),
            log_path,
            spectator: None,
            ponder: self.ponder,
            opening,
            referee: self.options.referee.clone(),
        }
    }
}

/// The limits of a game's bots' input and output: the defaults, read as the game frames lines.
pub fn limits_of(options: &MatchOptions) -> IoLimits {
    IoLimits {
        framing: options.game.framing,
        ..IoLimits::default()
    }
}
