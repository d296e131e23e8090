//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{pad, pick};

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
    const SEPS: &[&str] = &["-", "-", "-", " - ", "--", "—", "", " ", "-g5-"];
    let point = |rng: &mut ChaCha8Rng| -> String {
        match rng.random_range(0..10) {
            0 => pick(
                rng,
                &["", "g", "4", "g04", "g100", "G", "é4", "g-1", "g+4", "4g"],
            )
            .to_string(),
            _ => {
                let letter = *pick(rng, b"abcdefghijklmnoAGMz") as char;
                format!("{letter}{}", rng.random_range(0..16))
            }
        }
    };
    let (a, b) = (point(rng), point(rng));
    pad(&format!("{a}{}{b}", pick(rng, SEPS)), rng)
}
