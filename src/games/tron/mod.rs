//! tron: CodinGame's Tron Battle (light cycles), 2 to 4 players, over CodinGame's protocol.
//!
//! The rules (`rules`), the built-in bots, the viewer's picture, the fuzzer's lines, the
//! description, and the protocol over them.

pub mod bots;
pub mod fuzz;
pub mod picture;
mod protocol;
pub mod rules;
#[cfg(test)]
mod tests;

use super::{Framing, GameInfo};

/// What `arena games tron` prints before the generated parameter and bot tables.
pub const DESCRIPTION: &str = include_str!("description.md");

/// Default seconds per move and for a bot's first move: CodinGame's.
pub const TIMEOUT: f64 = 0.1;
pub const STARTUP_TIMEOUT: f64 = 1.0;

pub static INFO: GameInfo = GameInfo {
    name: "tron",
    players: rules::MIN_PLAYERS..=rules::MAX_PLAYERS,
    summary: "CodinGame's Tron Battle (light cycles), 2 to 4 players, over CodinGame's protocol",
    description: DESCRIPTION,
    params: &[],
    builtins: bots::BUILTINS,
    timeout: TIMEOUT,
    startup_timeout: STARTUP_TIMEOUT,
    framing: Framing::Lines,
    create: |_, seating| Ok(Box::new(protocol::TronGame::new(seating)?)),
    fuzz_line: fuzz::line,
    positions: None,
    example_bots: "bots/tron",
    short_game: &[],
};
