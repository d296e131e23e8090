//! arena: a local referee for matches and tournaments between game-playing programs.
//!
//! The binary parses its command line (`src/cli.rs`) into the options of one of the `commands`,
//! which stand at the edge: a command uses the library below it and never another command.
//! Below them, `tournament` plans a spec's schedule, `engine` plays planned games in parallel
//! and journals them, `referee` plays one game between a game's `bot`s under a `games::Game`'s
//! rules, and `report` and `ratings` turn records into tables.

// Bots are started and held with Linux's own system calls (clone3, pidfds, cgroups, prctl): on
// another system a build would fail in hundreds of places. It stops here instead, in one
// sentence, and the modules are left out so that this is the only error (the binary and the
// tests, which need the library, are then not compiled at all).
#[cfg(not(target_os = "linux"))]
compile_error!(
    "arena runs on Linux only (x86-64, or another architecture through a slower start path). \
     On Windows, build and run it inside WSL2; on macOS, inside a Linux virtual machine or \
     container (Docker, Lima, UTM). See the README, section Platforms."
);

/// Items that exist on Linux only: elsewhere the `compile_error!` above is the only error.
macro_rules! on_linux {
    ($($item:item)*) => { $(#[cfg(target_os = "linux")] $item)* };
}

on_linux! {
    pub mod bot;
    pub mod commands;
    pub mod engine;
    pub mod error;
    pub mod failure;
    pub mod file_kind;
    pub mod files;
    pub mod format;
    pub mod games;
    pub mod out;
    pub mod ratings;
    pub mod referee;
    pub mod report;
    pub mod schedule;
    pub mod seeds;
    pub mod spec;
    pub mod stats;
    pub mod tournament;

    pub use error::Error;
}
