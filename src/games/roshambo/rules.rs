//! Rock, paper, scissors: which gesture beats which.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gesture {
    Rock,
    Paper,
    Scissors,
}

impl Gesture {
    pub const ALL: [Gesture; 3] = [Gesture::Rock, Gesture::Paper, Gesture::Scissors];

    /// The wire form: exactly `ROCK`, `PAPER` or `SCISSORS`.
    pub fn parse(word: &str) -> Option<Gesture> {
        match word {
            "ROCK" => Some(Gesture::Rock),
            "PAPER" => Some(Gesture::Paper),
            "SCISSORS" => Some(Gesture::Scissors),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Gesture::Rock => "ROCK",
            Gesture::Paper => "PAPER",
            Gesture::Scissors => "SCISSORS",
        }
    }

    pub fn beats(self, other: Gesture) -> bool {
        matches!(
            (self, other),
            (Gesture::Paper, Gesture::Rock)
                | (Gesture::Rock, Gesture::Scissors)
                | (Gesture::Scissors, Gesture::Paper)
        )
    }

    /// The gesture that beats this one.
    pub fn loser_to(self) -> Gesture {
        match self {
            Gesture::Rock => Gesture::Paper,
            Gesture::Paper => Gesture::Scissors,
            Gesture::Scissors => Gesture::Rock,
        }
    }
}

/// Points for each seat from one round: 1 to the winner, nothing for a tie.
pub fn points(a: Gesture, b: Gesture) -> [u32; 2] {
    [a.beats(b) as u32, b.beats(a) as u32]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_gesture_beats_exactly_one() {
        for g in Gesture::ALL {
            let beaten = Gesture::ALL.iter().filter(|&&o| g.beats(o)).count();
            assert_eq!(beaten, 1, "{g:?}");
            assert!(g.loser_to().beats(g));
            assert!(!g.beats(g));
        }
        assert_eq!(points(Gesture::Paper, Gesture::Rock), [1, 0]);
        assert_eq!(points(Gesture::Paper, Gesture::Scissors), [0, 1]);
        assert_eq!(points(Gesture::Rock, Gesture::Rock), [0, 0]);
    }

    #[test]
    fn parses_only_the_exact_words() {
        assert_eq!(Gesture::parse("ROCK"), Some(Gesture::Rock));
        assert_eq!(Gesture::parse("rock"), None);
        assert_eq!(Gesture::parse("ROCKS"), None);
        for g in Gesture::ALL {
            assert_eq!(Gesture::parse(g.as_str()), Some(g));
        }
    }
}
