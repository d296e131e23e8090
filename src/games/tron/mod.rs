//! tron: CodinGame's Tron Battle (light cycles), 2 to 4 players, over CodinGame's protocol.
//!
//! The rules, the built-in bots, the viewer's picture, the fuzzer's lines and the description;
//! the `Game` over them (the protocol) comes with the core's N-player seats.

pub mod bots;
pub mod fuzz;
pub mod picture;
pub mod rules;
#[cfg(test)]
mod tests;

/// What `arena games tron` prints before the generated parameter and bot tables.
pub const DESCRIPTION: &str = include_str!("description.md");

/// Default seconds per move and for a bot's first move: CodinGame's.
pub const TIMEOUT: f64 = 0.1;
pub const STARTUP_TIMEOUT: f64 = 1.0;
