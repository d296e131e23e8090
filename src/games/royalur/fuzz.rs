//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{pad, pick};

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
    const ODD: &[&str] = &[
        "+2",
        "02",
        "-0",
        "1.0",
        "0x1",
        "1e0",
        "٣",
        "３",
        "99999999999999999999",
        "18446744073709551616",
        "-9223372036854775809",
        "1 2",
        "",
        "RETIRE",
    ];
    let word = if rng.random_bool(0.6) {
        rng.random_range(-3i64..12).to_string()
    } else {
        pick(rng, ODD).to_string()
    };
    pad(&word, rng)
}
