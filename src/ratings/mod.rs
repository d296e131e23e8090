//! Ratings for the standings (docs/design.md, section Contracts; docs/statistics.md, section
//! Ratings): maximum-likelihood Elo with a 95% error, Glicko-2 (from `skillratings`) with one
//! rating period per round, and Weng-Lin (OpenSkill, from `skillratings`) game by game, between
//! players numbered `0..n`.
//!
//! Two inputs: [`GameScore`], a two-player game's score, and [`RankedGame`], a game of 2 to 8
//! players as places per seat with the seats that failed. A two-player `RankedGame` is a
//! `GameScore` (see its documentation), and gives the same figures to the last bit.
//!
//! - [`bradley_terry`] (scores) and [`plackett_luce`] (places): Elo, all games at once; the order
//!   of the games does not matter. Ratings are centred so that their mean is 0. Players who won
//!   or lost everything (or played nothing) still get a finite rating, `marked`. Plackett-Luce
//!   is Bradley-Terry for two players, and is fitted as Bradley-Terry's pairs for them.
//! - [`glicko2`] (scores) and [`glicko2_pairs`] (places, as the games of every pair of seats):
//!   one rating period per distinct `round`, in increasing order; within a round every game is
//!   rated against the ratings at the start of the round, so the order inside a round does not
//!   matter either.
//! - [`weng_lin`] (places): game by game, in order of round and then in a fixed order.
//! - [`pair_results`]: the aggregated per-pair totals the fit works on (also what a crosstable
//!   needs), and [`pair_scores`]: a game of places as the games of its pairs of seats.
//!
//! Input contract of a `GameScore`: `a` and `b` are `< n`; `score_a` is player `a`'s score,
//! exactly `1.0` (a won), `0.5` (draw) or `0.0` (b won), and `b`'s score is `1 - score_a`. Games
//! where the scores do not add up to 1 (both players failed) are not rated: the caller leaves them
//! out. Games with `a == b` carry no information and are ignored. Of a `RankedGame`: every bot
//! `< n`, at most 8 seats; places may be any numbers (only their order counts), a failed
//! seat's as any other (the game placed it where it went out); what tells nothing (a game in
//! which every seat failed, one bot in two seats, a game of fewer than two seats) is ignored.
//! Anything else is a caller bug and panics. The ratings of a game of places do not depend on
//! the order of the games; the caller numbers the bots by name (`report::Ratings`), so that the
//! ties Glicko-2 and Weng-Lin break by number do not depend on the order of the records either.

mod bradley_terry;
mod glicko2;
mod linalg;
mod plackett_luce;
mod ranked;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_ranked;
mod weng_lin;

pub use bradley_terry::{PRIOR_DRAWS, bradley_terry};
pub use glicko2::{glicko2, glicko2_pairs};
pub use plackett_luce::plackett_luce;
pub use ranked::{Placed, RankedGame, pair_scores};
pub use weng_lin::weng_lin;

/// The result of one rated game. See the module documentation for the contract.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameScore {
    /// First player, an index into the caller's list of names.
    pub a: usize,
    /// Second player.
    pub b: usize,
    /// `a`'s score: 1 (a won), 0.5 (draw) or 0 (b won); `b` scored `1 - score_a`.
    pub score_a: f64,
    /// The round the game belongs to (Glicko-2 rating period); Bradley-Terry ignores it.
    pub round: u32,
}

/// One player's Bradley-Terry rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The rating on the Elo scale (a 400-point difference is 10:1 odds), centred so that the
    /// ratings of the players with at least one game have mean 0. A player without games gets 0.
    pub elo: f64,
    /// Half-width of the 95% confidence interval of `elo` (1.96 standard errors), relative to the
    /// mean of the field; `f64::INFINITY` for a player without games.
    pub error: f64,
    /// True when the data alone do not pin the rating down: the player has no games, or scored
    /// 100% (won every game), or scored 0% (lost every game). For such a player the plain
    /// maximum-likelihood rating would be +/- infinity (or undefined); the reported value is
    /// finite only thanks to the prior ([`PRIOR_DRAWS`]) and should read as "at least" (100%) or
    /// "at most" (0%). A player who only drew is not marked.
    pub marked: bool,
}

/// The aggregated results of one pair of players, `a < b`, over all their games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    /// Games between them.
    pub games: u64,
    /// Player `a`'s points, in half points (a win is 2, a draw 1), so the sum is exact; `b` has
    /// `2 * games - half_points_a`.
    pub half_points_a: u64,
}

impl PairResult {
    /// Player `a`'s points (wins plus half the draws).
    pub fn points_a(&self) -> f64 {
        self.half_points_a as f64 / 2.0
    }
}

/// `score` in half points (0, 1 or 2); panics on anything but 0, 0.5 and 1.
fn half_points(score: f64) -> u64 {
    if score == 0.0 {
        0
    } else if score == 0.5 {
        1
    } else if score == 1.0 {
        2
    } else {
        panic!("ratings: score_a must be 0, 0.5 or 1, got {score}")
    }
}

/// Checks one game against the contract; returns `a`'s half points, or `None` for `a == b`.
fn check(n: usize, g: &GameScore) -> Option<u64> {
    assert!(
        g.a < n && g.b < n,
        "ratings: player index out of range (a = {}, b = {}, n = {n})",
        g.a,
        g.b
    );
    let hp = half_points(g.score_a);
    (g.a != g.b).then_some(hp)
}

/// The place of pair `i < j` among the `n (n - 1) / 2` pairs of `0..n` in order: row `i` of the
/// upper triangle starts at `i (2n - i - 1) / 2`.
fn upper_slot(n: usize, i: usize, j: usize) -> usize {
    i * (2 * n - i - 1) / 2 + j - i - 1
}

/// Aggregates `games` among players `0..n` into one [`PairResult`] per pair that played, sorted
/// by `(a, b)` with `a < b`. Exact (integer counts), so the result does not depend on the order of
/// `games`, nor on which player of a game is called `a`. Games with `a == b` are skipped.
///
/// # Panics
/// On a game that breaks the input contract (see the module documentation).
pub fn pair_results(n: usize, games: &[GameScore]) -> Vec<PairResult> {
    // A table of every pair when it is no bigger than the input, else a sort.
    let dense = n * n.saturating_sub(1) / 2 <= games.len().max(1 << 16);
    pair_results_by(n, games, dense)
}

/// [`pair_results`], choosing the method: counting into a table of all `n (n - 1) / 2` pairs, or
/// sorting one key per game. Both give the same result.
fn pair_results_by(n: usize, games: &[GameScore], dense: bool) -> Vec<PairResult> {
    assert!(n < 1 << 31, "ratings: too many players ({n})");
    // Each game as (lo, hi, lo's half points), lo < hi.
    let normalised = games.iter().filter_map(|g| {
        let hp = check(n, g)?;
        Some(if g.a < g.b {
            (g.a, g.b, hp)
        } else {
            (g.b, g.a, 2 - hp)
        })
    });
    let mut out: Vec<PairResult> = Vec::new();
    if dense {
        let mut table = vec![(0u64, 0u64); n * n.saturating_sub(1) / 2];
        for (lo, hi, hp) in normalised {
            let cell = &mut table[upper_slot(n, lo, hi)];
            cell.0 += 1;
            cell.1 += hp;
        }
        for a in 0..n {
            for b in a + 1..n {
                let (games, half_points_a) = table[upper_slot(n, a, b)];
                if games > 0 {
                    out.push(PairResult {
                        a,
                        b,
                        games,
                        half_points_a,
                    });
                }
            }
        }
        return out;
    }
    // One key per game: the pair's index (lo * n + hi) above two bits of lo's half points.
    let n64 = n as u64;
    let mut keys: Vec<u64> = normalised
        .map(|(lo, hi, hp)| ((lo as u64 * n64 + hi as u64) << 2) | hp)
        .collect();
    keys.sort_unstable();
    let mut last = u64::MAX;
    for k in keys {
        let pair = k >> 2;
        if pair != last {
            last = pair;
            out.push(PairResult {
                a: (pair / n64) as usize,
                b: (pair % n64) as usize,
                games: 0,
                half_points_a: 0,
            });
        }
        let p = out.last_mut().expect("pushed above");
        p.games += 1;
        p.half_points_a += k & 3;
    }
    out
}

/// Pearson correlation of two lists of the same length: how closely ratings follow known
/// strengths, for the tests and the bench that check a rating against a simulated field.
pub fn correlation(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}
