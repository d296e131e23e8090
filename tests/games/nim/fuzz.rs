//! Lines that look like nim's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{pad, pick};

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
    let number = |rng: &mut ChaCha8Rng| -> String {
        match rng.random_range(0..8) {
            0 => pick(rng, &["", "0", "-1", "+2", "01", "256", "1.5", "٣", "x"]).to_string(),
            _ => rng.random_range(1..7).to_string(),
        }
    };
    let (heap, count) = (number(rng), number(rng));
    let sep = pick(rng, &["-", "-", "-", " - ", "--", "", " ", "—"]);
    pad(&format!("{heap}{sep}{count}"), rng)
}
