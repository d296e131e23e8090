//! arena: a local referee for matches and tournaments between game-playing programs.
//!
//! The binary is a thin shell over this library: `cli` parses, `duel` and `replay` run commands,
//! `referee` plays one game between two `bot`s under a `games::Game`'s rules.

pub mod bot;
pub mod check;
pub mod cli;
pub mod duel;
pub mod error;
pub mod games;
pub mod out;
pub mod perft;
pub mod ratings;
pub mod referee;
pub mod replay;
pub mod report;
pub mod schedule;
pub mod spec;
pub mod tournament;

pub use error::Error;
