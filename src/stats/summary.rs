//! The duel summary: score, Elo with its 95% interval, normalized Elo and LOS, computed the way
//! fastchess does (app/src/matchmaking/elo/elo_wdl.cpp and elo_pentanomial.cpp in
//! github.com/Disservin/fastchess), so that a duel's figures can be compared with theirs.
//!
//! All of them rest on the normal approximation of the sample mean: mean score μ of one
//! observation (a game, or a pair's mean per game), its population variance σ², and the
//! standard error σ/√n over n observations. A sample whose observations are all alike (σ = 0:
//! every game won, or every pair drawn) cannot measure its own error that way; rather than report
//! a zero-width interval or a certain superiority, those figures then say "unknown" (an
//! unbounded interval, `None`).

use std::f64::consts::{FRAC_2_SQRT_PI, LN_10, SQRT_2};

use super::{Pentanomial, Sample, Trinomial, moments};

/// The two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of a player `elo` points stronger, on the logistic Elo scale (a
/// 400-point difference is 10:1 odds).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The inverse of [`score_from_elo`]: `-400 log10(1/s - 1)`. A score of 1 or more is
/// `+inf`, 0 or less `-inf`, never NaN, so that a clipped interval end reads as unbounded.
pub fn elo_from_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The error function. Its Taylor series below 3 (relative error under 1e-13 there: the
/// terms grow to ~10^4 at most before they shrink), and above, the continued fraction of erfc,
/// which converges fast for large arguments (error under 1e-15 with 80 terms). std has no erf.
pub(super) fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let value = if ax < 3.0 {
        // erf x = 2/√π Σ (-1)^k x^(2k+1) / (k! (2k+1))
        let (mut sum, mut power, mut k) = (0.0f64, ax, 0.0f64);
        loop {
            let term = power / (2.0 * k + 1.0);
            sum += term;
            if term.abs() <= 1e-17 * sum.abs() {
                break;
            }
            k += 1.0;
            power *= -ax * ax / k;
        }
        FRAC_2_SQRT_PI * sum
    } else {
        // erfc x = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
        let mut tail = ax;
        for k in (1..=80).rev() {
            tail = ax + (k as f64 / 2.0) / tail;
        }
        1.0 - (-ax * ax).exp() * FRAC_2_SQRT_PI / 2.0 / tail
    };
    value.copysign(x)
}

/// P(Z <= z) for a standard normal Z.
pub(super) fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / SQRT_2))
}

/// An estimate with its 95% confidence interval. The ends may be infinite: the interval of a
/// score mapped to Elo is unbounded where the score's interval reaches 0% or 100%, and fully
/// unbounded when the sample cannot measure its error (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub estimate: f64,
    pub lower: f64,
    pub upper: f64,
}

impl Interval {
    /// Half the interval's width: the "±" fastchess prints after its Elo. Elo intervals are not
    /// symmetric, so `lower` and `upper` say more; this is for the familiar one-number display.
    pub fn half_width(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// What a duel summary shows: the game counts and score over all games, and the figures
/// estimated from the sample the games form (pairs when the games are paired, so that each
/// opening's bias cancels out and the error is the real one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins plus half the draws.
    pub points: f64,
    /// `points / games`; `None` without games.
    pub score: Option<f64>,
    /// Draws per game; `None` without games.
    pub draw_ratio: Option<f64>,
    /// The pair counts, when the summary was made from pairs.
    pub pairs: Option<Pentanomial>,
    /// The Elo difference (logistic), with its 95% interval; `None` without games.
    pub elo: Option<Interval>,
    /// Normalized Elo: the score's distance from 50% in per-game standard deviations (scaled so
    /// that it is close to logistic Elo for draw-free games between close players), which
    /// makes results with different draw rates comparable. `None` without games or when the
    /// variance is zero.
    pub normalized_elo: Option<Interval>,
    /// Likelihood of superiority: the probability that the first bot is the stronger, under the
    /// normal approximation with a flat prior. `None` when the sample holds no evidence either
    /// way (no decisive games; for pairs, no variance).
    pub los: Option<f64>,
}

impl Summary {
    /// The summary of `games` (every game played, from the first bot's side), with the
    /// estimates taken from `pairs` (the complete pairs among them) when the games are paired,
    /// from `games` otherwise.
    ///
    /// LOS differs by sample as in fastchess: over games, the classic formula
    /// `Φ((W − L)/√(W + L))` of cutechess-cli and the chessprogramming wiki (draws carry no
    /// information about who is stronger); over pairs, `Φ((μ − ½)/(σ/√n))` from the pair mean.
    pub fn new(games: &Trinomial, pairs: Option<&Pentanomial>) -> Summary {
        let count = games.games();
        let ratio = |x: f64| (count > 0).then(|| x / count as f64);
        let (elo, normalized_elo, los) = match pairs {
            Some(p) => {
                let los = moments(p).and_then(|(n, mean, var)| {
                    (var > 0.0).then(|| normal_cdf((mean - 0.5) / (var / n).sqrt()))
                });
                (elo(p), normalized_elo(p), los)
            }
            None => {
                let decisive = (games.wins + games.losses) as f64;
                let lead = games.wins as f64 - games.losses as f64;
                let los = (decisive > 0.0).then(|| normal_cdf(lead / decisive.sqrt()));
                (elo(games), normalized_elo(games), los)
            }
        };
        Summary {
            games: count,
            wins: games.wins,
            draws: games.draws,
            losses: games.losses,
            points: games.points(),
            score: ratio(games.points()),
            draw_ratio: ratio(games.draws as f64),
            pairs: pairs.copied(),
            elo,
            normalized_elo,
            los,
        }
    }
}

/// Logistic Elo of the mean score, the interval being μ ± 1.96 σ/√n mapped through
/// [`elo_from_score`] (so that it stays inside the possible scores).
fn elo(sample: &impl Sample) -> Option<Interval> {
    let (n, mean, var) = moments(sample)?;
    let estimate = elo_from_score(mean);
    if var == 0.0 {
        return Some(Interval {
            estimate,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
        });
    }
    let margin = Z95 * (var / n).sqrt();
    Some(Interval {
        estimate,
        lower: elo_from_score(mean - margin),
        upper: elo_from_score(mean + margin),
    })
}

/// Normalized Elo: (μ − ½)/σ_game · 800/ln 10, where σ_game is the standard deviation of one
/// game's score (a pair's σ times √2, as fastchess takes it). The factor 800/ln 10 makes it
/// match logistic Elo near 50% when there are no draws (σ_game = ½).
fn normalized_elo<S: Sample>(sample: &S) -> Option<Interval> {
    let (n, mean, var) = moments(sample)?;
    if var == 0.0 {
        return None;
    }
    let sigma_game = (var * S::GAMES_PER_OBSERVATION as f64).sqrt();
    let nelo = |score: f64| (score - 0.5) / sigma_game * (800.0 / LN_10);
    let margin = Z95 * (var / n).sqrt();
    Some(Interval {
        estimate: nelo(mean),
        lower: nelo(mean - margin),
        upper: nelo(mean + margin),
    })
}
