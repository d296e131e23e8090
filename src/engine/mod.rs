//! Playing planned games: in parallel on the cores (`threads`), each set up again when arena
//! could not (`retry`), each finished one made durable and journaled before it counts
//! (`journal`), stopping on signals (`stop`) or a disk nearly full (`disk`), one run in a
//! folder at a time (`lock`). `arena run`, `duel`, `match` and `check` are its callers; none of
//! them plays a game but through it (tests/structure.rs).

pub mod disk;
pub mod journal;
mod lock;
pub mod retry;
pub mod stop;
pub mod threads;
pub mod workers;

pub use lock::Lock;

/// A game's log in a results folder's `logs/`, by the game's number (from 1), the same for every
/// command. Folders written before by `duel`, `match` and `check` (`game-0001.jsonl`) stay
/// readable: a log is found through the path `games.csv` gives it.
pub fn log_name(id: u64) -> String {
    format!("game-{id:05}.jsonl")
}
