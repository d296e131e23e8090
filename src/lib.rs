//! arena: a local referee for matches and tournaments between game-playing programs.
//!
//! The binary parses its command line (`src/cli.rs`) into the options of one of the `commands`,
//! which stand at the edge: a command uses the library below it and never another command.
//! Below them, `tournament` plays a spec's schedule, `referee` plays one game between two
//! `bot`s under a `games::Game`'s rules, and `report` and `ratings` turn records into tables.

pub mod bot;
pub mod commands;
pub mod error;
pub mod file_kind;
pub mod files;
pub mod games;
pub mod out;
pub mod ratings;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod spec;
pub mod stats;
pub mod tournament;

pub use error::Error;
