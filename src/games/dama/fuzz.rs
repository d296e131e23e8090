//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{pad, pick};

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
    const SEPS: &[&str] = &[" ", " ", " ", "  ", "\t", "-", ",", "x", ""];
    let square = |rng: &mut ChaCha8Rng| -> String {
        match rng.random_range(0..10) {
            0 => pick(
                rng,
                &["10A", "6", "A6", "6AA", "0A", "9I", "6Ä", "６A", "66"],
            )
            .to_string(),
            _ => format!(
                "{}{}",
                rng.random_range(0..10),
                *pick(rng, b"ABCDEFGHIJabcdefghij") as char
            ),
        }
    };
    let n = rng.random_range(0..7);
    let sep = pick(rng, SEPS);
    let squares: Vec<String> = (0..n).map(|_| square(rng)).collect();
    pad(&squares.join(sep), rng)
}
