//! Lines that look like Tron's answers, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::games::fuzz::{junk_text, pad, pick};

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
    const WORDS: &[&str] = &["UP", "DOWN", "LEFT", "RIGHT"];
    const ODD: &[&str] = &[
        "up",
        "Left",
        "rIGHT",
        "U",
        "D",
        "NORTH",
        "WAIT",
        "UPP",
        "UP UP",
        "LEFT hello",
        "RIGHT;",
        "UP\tDOWN",
        "ＵＰ",
        "ᴜᴘ",
        "DOWN\u{0}",
        "LEFT\u{200b}",
        "-1 -1 -1 -1",
        "2 0",
        "0",
        "",
    ];
    let word = match rng.random_range(0..10) {
        0..=5 => pick(rng, WORDS).to_string(),
        6..=8 => pick(rng, ODD).to_string(),
        _ => format!("{} {}", pick(rng, WORDS), junk_text(rng)),
    };
    pad(&word, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tron::rules::parse_answer;
    use rand::SeedableRng;

    /// Most lines are moves, so the fuzzer gets past the first answer; many are not.
    #[test]
    fn lines_are_often_moves_and_often_not() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let lines: Vec<String> = (0..1000).map(|_| line(&[], &mut rng)).collect();
        let moves = lines.iter().filter(|l| parse_answer(l).is_ok()).count();
        assert!((400..900).contains(&moves), "{moves} of 1000 are moves");
    }
}
