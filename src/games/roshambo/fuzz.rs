//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{junk_text, pad, pick};

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
    const WORDS: &[&str] = &[
        "ROCK",
        "PAPER",
        "SCISSORS",
        "PAPR",
        "ROCKS",
        "SCISSOR",
        "rock",
        "Paper",
        "sCISSORS",
        "RETIRE",
        "",
        "R",
        "ROCK PAPER",
        "ROCK\tROCK",
        "ROCK\u{0}",
        "ＲＯＣＫ",
    ];
    let word = pick(rng, WORDS).to_string();
    if rng.random_bool(0.2) {
        format!("{} {}", pad(&word, rng), junk_text(rng))
    } else {
        pad(&word, rng)
    }
}
