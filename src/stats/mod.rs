//! The statistics of a duel between two bots, as fastchess and cutechess-cli report them: the
//! score and its Elo difference with a 95% interval, normalized Elo, the likelihood of
//! superiority, and a sequential probability ratio test (SPRT) that says when enough games have
//! been played to tell whether the first bot is better. Pure arithmetic: no I/O, no printing.
//! docs/statistics.md explains every figure for users.
//!
//! A duel is seen from the first bot's side, as one of two samples:
//!
//! - [`Trinomial`]: single games, each a win, draw or loss;
//! - [`Pentanomial`]: pairs of games that share an opening with the seats swapped. Most of what
//!   an opening favours cancels out within a pair, so pairs are the better-behaved observation
//!   (their variance shows the real noise), and fastchess computes Elo, LOS and the SPRT from
//!   them when games are paired.
//!
//! Both are a [`Sample`]: a distribution of one observation's score. [`Summary`] and [`Sprt`]
//! work on either through it.

mod sprt;
mod summary;
mod tally;
#[cfg(test)]
mod tests;

pub use sprt::{Model, Sprt, SprtError, Verdict};
pub use summary::{Interval, Summary, elo_from_score, score_from_elo};
pub use tally::Tally;

/// One game's result for the first bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

impl Wdl {
    /// The result of a game where the first bot scored `score`: `1`, `0.5` or `0`. Anything else
    /// (a game where neither bot scored, say) is no result here, so `None`.
    pub fn from_score(score: f64) -> Option<Wdl> {
        if score == 1.0 {
            Some(Wdl::Win)
        } else if score == 0.5 {
            Some(Wdl::Draw)
        } else if score == 0.0 {
            Some(Wdl::Loss)
        } else {
            None
        }
    }

    /// Points in halves (a win is 2), so that sums stay exact.
    fn half_points(self) -> usize {
        match self {
            Wdl::Win => 2,
            Wdl::Draw => 1,
            Wdl::Loss => 0,
        }
    }
}

/// Counts of single games' results, from the first bot's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Trinomial {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Trinomial {
        Trinomial {
            wins,
            draws,
            losses,
        }
    }

    pub fn record(&mut self, result: Wdl) {
        match result {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// Counts of game pairs by the first bot's points over the pair: 0 (`ll`), 0.5 (`ld`), 1
/// (`dd_wl`: two draws, or a win and a loss), 1.5 (`wd`) or 2 (`ww`). Two draws and a win plus a
/// loss are one bucket because they score the same: the statistics only see scores (fastchess
/// merges them the same way for the SPRT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub dd_wl: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Pentanomial {
    pub fn new(ll: u64, ld: u64, dd_wl: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            dd_wl,
            wd,
            ww,
        }
    }

    /// Records the pair of games `first` and `second` (in either order: only their sum counts).
    pub fn record(&mut self, first: Wdl, second: Wdl) {
        match first.half_points() + second.half_points() {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.dd_wl += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.dd_wl + self.wd + self.ww
    }

    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }
}

/// A sample of independent observations of the first bot's score: single games or game pairs.
/// The statistics need nothing else: the possible outcomes of one observation and how often each
/// happened.
pub trait Sample {
    /// Games in one observation: 1 for single games, 2 for pairs. Normalized Elo is per game,
    /// so a pair's standard deviation is scaled by the square root of this.
    const GAMES_PER_OBSERVATION: u32;

    /// Each possible outcome of one observation, as the first bot's mean score per game in it
    /// (0 to 1, increasing), with how many observations had it.
    fn outcomes(&self) -> Vec<(f64, u64)>;
}

impl Sample for Trinomial {
    const GAMES_PER_OBSERVATION: u32 = 1;

    fn outcomes(&self) -> Vec<(f64, u64)> {
        vec![(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)]
    }
}

impl Sample for Pentanomial {
    const GAMES_PER_OBSERVATION: u32 = 2;

    fn outcomes(&self) -> Vec<(f64, u64)> {
        vec![
            (0.0, self.ll),
            (0.25, self.ld),
            (0.5, self.dd_wl),
            (0.75, self.wd),
            (1.0, self.ww),
        ]
    }
}

/// The sample's size, mean and (population) variance of one observation's score, or `None`
/// for an empty sample.
fn moments(sample: &impl Sample) -> Option<(f64, f64, f64)> {
    let outcomes = sample.outcomes();
    let n: u64 = outcomes.iter().map(|&(_, c)| c).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = outcomes.iter().map(|&(a, c)| a * c as f64).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .map(|&(a, c)| c as f64 * (a - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, variance))
}
