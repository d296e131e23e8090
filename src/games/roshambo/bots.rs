//! Built-in roshambo bots.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::rules::Gesture;

pub const BUILTINS: &[(&str, &str)] = &[
    ("random", "plays a uniformly random gesture each round"),
    (
        "counter",
        "plays what beats the opponent's most frequent gesture so far (random on the first round)",
    ),
];

pub fn choose(name: &str, opponent_history: &[Gesture], rng: &mut ChaCha8Rng) -> Gesture {
    let random = *Gesture::ALL.choose(rng).expect("three gestures");
    match name {
        "counter" if !opponent_history.is_empty() => {
            let count = |g: Gesture| opponent_history.iter().filter(|&&h| h == g).count();
            let favourite = Gesture::ALL
                .into_iter()
                .max_by_key(|&g| count(g))
                .expect("three gestures");
            favourite.loser_to()
        }
        _ => random,
    }
}
