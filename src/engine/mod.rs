//! Playing planned games: in parallel on the cores (`threads`), each set up again when arena
//! could not (`retry`), each finished one made durable and journaled before it counts
//! (`journal`), stopping on signals (`stop`) or a disk nearly full (`disk`), one run in a
//! folder at a time (`lock`). `arena run`, `duel`, `match` and `check` are its callers; none of
//! them plays a game but through it (tests/structure.rs).

pub mod disk;
pub mod journal;
mod lock;
pub mod stop;
pub mod threads;

pub use lock::Lock;
