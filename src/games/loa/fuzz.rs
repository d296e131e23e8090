//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{BLANKS, junk_text, pad, pick};

pub fn line(heard: &[String], rng: &mut ChaCha8Rng) -> String {
    // The legal moves the game listed for this seat: four-character lines such as b1b3.
    let listed: Vec<&String> = heard
        .iter()
        .filter(|l| l.len() == 4 && l.as_bytes()[1].is_ascii_digit())
        .collect();
    let word = match rng.random_range(0..6) {
        0 => pick(
            rng,
            &[
                "random", "RANDOM", "Random", "pass", "PASS", "null", "b1b3-", "b1",
            ],
        )
        .to_string(),
        1 if !listed.is_empty() => pick(rng, &listed).to_string(),
        _ => {
            let sq = |rng: &mut ChaCha8Rng| {
                format!(
                    "{}{}",
                    *pick(rng, b"abcdefghijABH") as char,
                    rng.random_range(0..10)
                )
            };
            format!("{}{}", sq(rng), sq(rng))
        }
    };
    match rng.random_range(0..3) {
        0 => pad(&word, rng),
        1 => format!("{word} {}", junk_text(rng)),
        _ => format!(
            "{}{word}{}{}",
            pick(rng, BLANKS),
            pick(rng, BLANKS),
            junk_text(rng)
        ),
    }
}
