//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::games::fuzz::{json_line, pick};

/// A path: a square, then one or more steps or jumps diagonally (and a few that are not).
fn path(rng: &mut ChaCha8Rng) -> Value {
    let mut at = rng.random_range(0i64..64);
    let mut path = vec![json!(at)];
    for _ in 0..rng.random_range(0..4) {
        let step = *pick(rng, &[7, 9, -7, -9, 14, 18, -14, -18, 1, 8]);
        at += step;
        path.push(json!(at));
    }
    Value::Array(path)
}

pub fn line(heard: &[String], rng: &mut ChaCha8Rng) -> String {
    json_line("checkers", heard, rng, path)
}
