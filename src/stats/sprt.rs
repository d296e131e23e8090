//! The sequential probability ratio test: play until the games favour "the first bot is `elo1`
//! better" (H1) over "it is `elo0` better" (H0) strongly enough, either way, to keep both
//! error rates (α: accepting H1 when H0 holds; β: accepting H0 when H1 holds) in bounds. Wald's
//! test needs the full distribution of a game under each hypothesis, but an Elo difference fixes
//! only the mean score; the generalized SPRT (GSPRT) fills in the rest by maximum likelihood, so
//! the log-likelihood ratio (LLR) is
//!
//! ```text
//! LLR = N · Σ_i p̂_i · ln(p1_i / p0_i)
//! ```
//!
//! over the outcomes i of one observation (3 for games, 5 for pairs), p̂ the observed
//! frequencies and p0, p1 the distributions closest to p̂ (most likely) that satisfy H0 and H1.
//!
//! This is the exact form fastchess uses today (app/src/matchmaking/sprt/sprt.cpp in
//! github.com/Disservin/fastchess), after Michel Van den Bergh, "Comments on Normalized Elo"
//! (<https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>): proposition 1.1 for a
//! hypothesis on the mean score (the logistic model), section 4.1 for one on the normalized Elo.
//! Earlier fastchess versions used the quadratic approximation from Van den Bergh's GSPRT notes,
//! `N (μ1 − μ0)(2μ̂ − μ0 − μ1) / (2σ̂²)`; the two agree closely when elo0 and elo1 are near each
//! other and the observed score, and the tests check both. As in fastchess, an outcome that never
//! happened counts 0.001 times, so that the maximum-likelihood problems always have a solution.

use std::f64::consts::LN_10;

use super::{Sample, score_from_elo};

/// What `elo0` and `elo1` measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Logistic Elo: a hypothesis fixes the expected score per game, `1/(1 + 10^(−elo/400))`.
    /// What cutechess-cli's SPRT uses, and the default here.
    Logistic,
    /// Normalized Elo: a hypothesis fixes `(μ − ½)/σ_game · 800/ln 10`, the score's distance
    /// from 50% in per-game standard deviations. Its bounds hold for any draw rate, which is
    /// why Fishtest uses it: a logistic `elo1` is harder to reach when most games are drawn.
    Normalized,
}

impl Model {
    /// As `--sprt` spells it (`model=...`).
    pub fn as_str(self) -> &'static str {
        match self {
            Model::Logistic => "logistic",
            Model::Normalized => "normalized",
        }
    }
}

/// The hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The first bot is `elo0` stronger (or less): the change is not the gain hoped for.
    H0,
    /// The first bot is `elo1` stronger (or more).
    H1,
}

/// A rejected SPRT setting; the message names the key and value at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SPRT: {0}")]
pub struct SprtError(String);

/// An SPRT's hypotheses and error rates; valid by construction (see [`Sprt::new`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: Model,
}

/// Outside this, an Elo hypothesis means a score beyond 99.7% (logistic), and the
/// maximum-likelihood problems lose precision; no useful test asks for it.
const MAX_ELO: f64 = 1000.0;

/// A zero count's weight in the LLR, as in fastchess.
const ZERO_COUNT: f64 = 1e-3;

impl Sprt {
    /// Checks that `elo0 < elo1` (both within ±1000) and `0 < alpha, beta < 0.5`. The error
    /// rates are kept below one half so that the lower bound is negative and the upper positive:
    /// the test starts undecided.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: Model,
    ) -> Result<Sprt, SprtError> {
        for (key, elo) in [("elo0", elo0), ("elo1", elo1)] {
            if elo.is_nan() || elo.abs() > MAX_ELO {
                return Err(SprtError(format!(
                    "{key}={elo} is not between -{MAX_ELO} and {MAX_ELO}"
                )));
            }
        }
        for (key, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError(format!(
                    "{key}={rate} is not between 0 and 0.5 (exclusive)"
                )));
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError(format!(
                "elo0={elo0} must be less than elo1={elo1}"
            )));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05,model=logistic`, the form of fastchess's
    /// `-sprt` options in one word. `elo0` and `elo1` are required; alpha and beta default to
    /// 0.05, the model to logistic (`model=normalized` for the other).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta, mut model) = (None, None, None, None, None);
        for item in text.split(',').map(str::trim) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(SprtError(format!(
                    "`{item}` is not key=value (expected e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05)"
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            let number = || {
                value
                    .parse::<f64>()
                    .map_err(|_| SprtError(format!("{key}=`{value}` is not a number")))
            };
            let slot_was_empty = match key {
                "elo0" => elo0.replace(number()?).is_none(),
                "elo1" => elo1.replace(number()?).is_none(),
                "alpha" => alpha.replace(number()?).is_none(),
                "beta" => beta.replace(number()?).is_none(),
                "model" => {
                    let m = match value {
                        "logistic" => Model::Logistic,
                        "normalized" => Model::Normalized,
                        _ => {
                            return Err(SprtError(format!(
                                "model=`{value}` is not a model (logistic or normalized)"
                            )));
                        }
                    };
                    model.replace(m).is_none()
                }
                _ => {
                    return Err(SprtError(format!(
                        "unknown key `{key}` (expected elo0, elo1, alpha, beta or model)"
                    )));
                }
            };
            if !slot_was_empty {
                return Err(SprtError(format!("`{key}` is given twice")));
            }
        }
        let missing = |key: &str| SprtError(format!("`{key}` is missing"));
        Sprt::new(
            elo0.ok_or_else(|| missing("elo0"))?,
            elo1.ok_or_else(|| missing("elo1"))?,
            alpha.unwrap_or(0.05),
            beta.unwrap_or(0.05),
            model.unwrap_or(Model::Logistic),
        )
    }

    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn beta(&self) -> f64 {
        self.beta
    }

    pub fn model(&self) -> Model {
        self.model
    }

    /// Wald's bounds on the LLR, `(ln(β/(1−α)), ln((1−β)/α))`: stopping at them keeps the
    /// error rates at about α and β.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// H1 once `llr` reaches the upper bound, H0 once it reaches the lower, else `None`: play on.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// The log-likelihood ratio of H1 against H0 given `sample` (see the module documentation);
    /// pass the pairs when games are paired. 0 for an empty sample, and always finite.
    pub fn llr<S: Sample>(&self, sample: &S) -> f64 {
        let outcomes = sample.outcomes();
        if outcomes.iter().all(|&(_, c)| c == 0) {
            return 0.0;
        }
        let scores: Vec<f64> = outcomes.iter().map(|&(a, _)| a).collect();
        let weights: Vec<f64> = outcomes
            .iter()
            .map(|&(_, c)| if c == 0 { ZERO_COUNT } else { c as f64 })
            .collect();
        let total: f64 = weights.iter().sum();
        let observed: Vec<f64> = weights.iter().map(|w| w / total).collect();
        let (p0, p1) = match self.model {
            Model::Logistic => (
                closest_with_mean(&scores, &observed, score_from_elo(self.elo0)),
                closest_with_mean(&scores, &observed, score_from_elo(self.elo1)),
            ),
            Model::Normalized => {
                // A hypothesis on normalized Elo fixes t = (μ − ½)/σ of one observation; a
                // pair's σ is a game's over √2.
                let t = |elo: f64| elo * (S::GAMES_PER_OBSERVATION as f64).sqrt() / (800.0 / LN_10);
                (
                    closest_with_t(&scores, &observed, t(self.elo0)),
                    closest_with_t(&scores, &observed, t(self.elo1)),
                )
            }
        };
        total
            * observed
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(q, (a, b))| q * (b.ln() - a.ln()))
                .sum::<f64>()
    }
}

impl std::str::FromStr for Sprt {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        Sprt::parse(text)
    }
}

/// The root of `f`, decreasing on the open interval `(lo, hi)` from +inf to -inf, by bisection
/// down to adjacent floats. Slow beside Newton's method but it cannot leave the interval (where
/// the probabilities below would turn negative) and its cost, a few hundred evaluations of a
/// five-term sum, does not matter.
fn decreasing_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    loop {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            return mid;
        }
        let v = f(mid);
        if v > 0.0 {
            lo = mid;
        } else if v < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
}

/// The distribution closest to the `observed` one (the most likely given it) under which `phi`
/// has mean 0: `p_i = p̂_i / (1 + θ φ_i)` with θ the root of `Σ p̂_i φ_i/(1 + θ φ_i) = 0`
/// between `−1/max φ` and `−1/min φ` (Van den Bergh, "Comments on Normalized Elo", equations
/// 1.2–1.3 and 4.9). `None` unless φ takes both signs: then no such distribution exists. Every
/// observed frequency must be positive, for the root to lie strictly inside.
fn reweighted(observed: &[f64], phi: &[f64]) -> Option<Vec<f64>> {
    let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(u < 0.0 && v > 0.0) {
        return None;
    }
    let theta = decreasing_root(
        |x| {
            observed
                .iter()
                .zip(phi)
                .map(|(q, f)| q * f / (1.0 + x * f))
                .sum()
        },
        -1.0 / v,
        -1.0 / u,
    );
    Some(
        observed
            .iter()
            .zip(phi)
            .map(|(q, f)| q / (1.0 + theta * f))
            .collect(),
    )
}

/// The distribution over `scores` with mean `s` that makes the `observed` frequencies most
/// likely (Van den Bergh, proposition 1.1): [`reweighted`] with `φ_i = a_i − s`.
pub(super) fn closest_with_mean(scores: &[f64], observed: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    reweighted(observed, &phi).expect("Sprt::new keeps a hypothesis's score inside (0, 1)")
}

/// The distribution over `scores` with `(μ − ½)/σ = t` that makes the `observed` frequencies
/// most likely (Van den Bergh, "Comments on Normalized Elo", section 4.1): a fixed-point
/// iteration from the uniform distribution, each step a [`reweighted`] with
/// `φ_i = a_i − ½ − ½ t σ (1 + ((a_i − μ)/σ)²)`, μ and σ those of the previous step.
/// Stops when no probability moves by more than 1e-10 (fastchess: 1e-4), or after 1000 steps;
/// when a step has no solution (a hypothesis far outside what the outcomes allow), the last
/// distribution stands.
fn closest_with_t(scores: &[f64], observed: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..1000 {
        let mean: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mean).powi(2))
            .sum();
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            break;
        }
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma).powi(2)))
            .collect();
        let Some(next) = reweighted(observed, &phi) else {
            break;
        };
        let moved = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-10 {
            break;
        }
    }
    p
}
