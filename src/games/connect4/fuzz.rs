//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::games::fuzz::{json_index, json_line};

/// A column, often off the board.
fn column(rng: &mut ChaCha8Rng) -> Value {
    json_index(rng, 7)
}

pub fn line(heard: &[String], rng: &mut ChaCha8Rng) -> String {
    json_line("connect4", heard, rng, column)
}
