//! Bradley-Terry maximum-likelihood ratings on the Elo scale (documented on [`bradley_terry`]).

use super::linalg::{dot, inverse_diagonal, pcg};
use super::plackett_luce::{Rankings, SHARE};
use super::{EloEstimate, GameScore, PairResult, pair_results};
use std::f64::consts::LN_10;

/// Virtual draws each player gets against a virtual player rated at the mean (0).
pub const PRIOR_DRAWS: f64 = 1.0;

/// Elo points per natural log-odds unit: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / LN_10;
/// Two-sided 95% normal quantile.
const Z95: f64 = 1.96;
/// The largest number of players with games for which the error is computed exactly.
const DENSE_LIMIT: usize = 1500;
const MAX_NEWTON: usize = 200;
/// Newton stops once no rating moves by more than this (natural units, ~2e-8 Elo).
const STEP_TOL: f64 = 1e-10;
/// Steps smaller than this (natural units, ~0.02 Elo) skip the line search: the quadratic model
/// is exact enough there, and the objective's rounding noise would defeat the Armijo test.
const SMALL_STEP: f64 = 1e-4;

/// Bradley-Terry ratings of players `0..n` from `games`, on the Elo scale, centred so that the
/// mean rating of the players with at least one game is 0, each with its 95% error and whether it
/// is `marked` (see [`EloEstimate`]). The order of `games`, their `round`s, and which player of a
/// game is `a` make no difference. Players without games get `elo` 0, `error` infinite, marked.
///
/// Expects `score_a` in {0, 0.5, 1}; games where both players failed must be left out by the
/// caller. See the module documentation of [`crate::ratings`].
///
/// Model: P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)), i.e. a logistic curve in
/// `theta = R * ln(10) / 400`. A draw counts as half a win for each side (the likelihood of a game
/// where `i` scored `s` is `p^s (1 - p)^(1 - s)`), so only the per-pair totals matter: the games
/// are aggregated exactly first ([`pair_results`]), and the fit costs O(distinct pairs) per
/// iteration however many games there were.
///
/// Prior: every player with games also gets [`PRIOR_DRAWS`] virtual draw (half a win and half a
/// loss) against a virtual player whose rating is the mean of the field, 0. This keeps every rating finite (a player who
/// won everything, or a group that never met the rest) and makes the objective strictly concave;
/// its pull is worth one game, negligible beside a few dozen real ones.
///
/// The fit maximises log-likelihood + log-prior over the ratings whose mean is 0, by Newton's
/// method with a backtracking line search, until no rating moves by more than 1e-10 (natural
/// units); the Newton systems are solved by preconditioned conjugate gradients, matrix-free over
/// the pairs. The 95% error is 1.96 standard errors from the inverse of the observed information
/// `I` (minus the Hessian of the objective, prior included, at the fit) restricted to mean-zero
/// ratings: `(P I P)^+` with `P = 1 - 11'/m`, computed as `(P I P + 11'/m)^-1 - 11'/m` by a dense
/// Cholesky factorisation (m^3 / 3 multiply-adds, about 0.2 s for m = 1,000 players with games)
/// for m up to 1,500. Beyond that the variance is approximated by `1 / I_ii` (correlations
/// ignored: close, slightly pessimistic, when most pairs met, as in a big round robin; optimistic
/// when the schedule is sparse, as in a swiss).
///
/// # Example
/// ```
/// use arena::ratings::{GameScore, bradley_terry};
/// let game = |a, b, score_a| GameScore { a, b, score_a, round: 1 };
/// // 0 beat 1 twice and 2 three times; 1 and 2 drew once, then 1 won twice and lost once.
/// let mut games = vec![game(0, 1, 1.0), game(0, 1, 1.0), game(2, 1, 0.5)];
/// games.extend([game(1, 2, 1.0), game(1, 2, 1.0), game(1, 2, 0.0)]);
/// games.extend([game(0, 2, 1.0), game(0, 2, 1.0), game(0, 2, 1.0)]);
/// let r = bradley_terry(4, &games); // player 3 has no games
/// assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
/// assert!(r[0].marked && !r[1].marked && !r[2].marked); // 0 scored 100%
/// assert!(r[0].elo.is_finite() && r[0].error.is_finite());
/// assert_eq!((r[3].elo, r[3].error, r[3].marked), (0.0, f64::INFINITY, true));
/// ```
///
/// # Panics
/// On a game that breaks the input contract (index `>= n`, or another score).
pub fn bradley_terry(n: usize, games: &[GameScore]) -> Vec<EloEstimate> {
    fit(n, games, PRIOR_DRAWS, DENSE_LIMIT)
}

/// The fit, with the prior strength and the dense limit as parameters (tests vary them; a prior
/// of 0 is only valid when the plain maximum-likelihood estimate exists).
pub(super) fn fit(
    n: usize,
    games: &[GameScore],
    prior: f64,
    dense_limit: usize,
) -> Vec<EloEstimate> {
    let results = pair_results(n, games);
    fit_all(n, &results, Rankings::default(), prior, dense_limit)
}

/// What a player's games of more than two players say of it (beside its two-player games, which
/// [`PairResult`]s count).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// Comparisons (pairs of seats that tell something) in which it finished ahead, or tied.
    pub(super) not_behind: u64,
    /// Comparisons in which it finished behind, or tied.
    pub(super) not_ahead: u64,
    /// Its half points won and lost per game as shares of the game (each comparison counting
    /// 1 / comparisons), in 1/[`SHARE`]ths so that they add up exactly.
    pub(super) won: u64,
    pub(super) lost: u64,
}

/// The fit of the two-player games' `results` and of the games of more players in `rankings`
/// together (their log-likelihoods add up).
pub(super) fn fit_all(
    n: usize,
    results: &[PairResult],
    mut rankings: Rankings,
    prior: f64,
    dense_limit: usize,
) -> Vec<EloEstimate> {
    let mut played = vec![0u64; n];
    let mut half_points = vec![0u64; n];
    for r in results {
        played[r.a] += r.games;
        played[r.b] += r.games;
        half_points[r.a] += r.half_points_a;
        half_points[r.b] += 2 * r.games - r.half_points_a;
    }
    let mut tally = std::mem::take(&mut rankings.tally);
    tally.resize(n, Tally::default());
    let has_games = |p: usize| played[p] > 0 || tally[p] != Tally::default();
    // Compact indices for the players with games.
    let mut m = 0;
    let index: Vec<u32> = (0..n)
        .map(|p| {
            if !has_games(p) {
                return u32::MAX;
            }
            m += 1;
            m as u32 - 1
        })
        .collect();
    let two_player: Vec<(u32, u32)> = results.iter().map(|r| (index[r.a], index[r.b])).collect();
    let pairs = rankings.link(&index, &two_player);
    // The two-player results on the fit's pairs, of which theirs are a part (both sorted).
    let (mut games, mut score) = (vec![0.0; pairs.len()], vec![0.0; pairs.len()]);
    let mut k = 0;
    for (r, pair) in results.iter().zip(&two_player) {
        while pairs[k] != *pair {
            k += 1;
        }
        games[k] = r.games as f64;
        score[k] = r.points_a();
    }
    let model = Model {
        m,
        pairs,
        games,
        score,
        prior,
        rankings,
    };
    // Start from the ratings each player would have against an average field.
    let share = |x: u64| x as f64 / SHARE as f64;
    let start: Vec<f64> = (0..n)
        .filter(|&p| has_games(p))
        .map(|p| {
            let (won, lost) = (half_points[p], 2 * played[p] - half_points[p]);
            let (won, lost) = (
                won as f64 + share(tally[p].won),
                lost as f64 + share(tally[p].lost),
            );
            ((won + prior + 1.0) / (lost + prior + 1.0)).ln()
        })
        .collect();
    let theta = model.maximise(start);
    let var = model.variances(&theta, dense_limit);

    (0..n)
        .map(|p| {
            if !has_games(p) {
                return EloEstimate {
                    elo: 0.0,
                    error: f64::INFINITY,
                    marked: true,
                };
            }
            let k = index[p] as usize;
            EloEstimate {
                elo: theta[k] * ELO_PER_NAT,
                error: Z95 * ELO_PER_NAT * var[k].max(0.0).sqrt(),
                marked: (half_points[p] == 0 && tally[p].not_behind == 0)
                    || (half_points[p] == 2 * played[p] && tally[p].not_ahead == 0),
            }
        })
        .collect()
}

/// `(ln sigmoid(x), sigmoid(x))`, with one `exp` and without overflow or cancellation.
fn log_sigmoid_and_sigmoid(x: f64) -> (f64, f64) {
    let e = (-x.abs()).exp();
    if x >= 0.0 {
        (-e.ln_1p(), 1.0 / (1.0 + e))
    } else {
        (x - e.ln_1p(), e / (1.0 + e))
    }
}

/// Subtracts the mean, so that `v` is in the mean-zero hyperplane.
fn centre(v: &mut [f64]) {
    if v.is_empty() {
        return;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.iter_mut().for_each(|x| *x -= mean);
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |a, x| a.max(x.abs()))
}

/// The games in compact indices (players with games only): the two-player games aggregated on
/// every pair of players that met in a game of either kind, sorted as [`pair_results`] sorts
/// them; the games of more players; and the prior.
struct Model {
    m: usize,
    /// `(i, j)`, `i < j`.
    pairs: Vec<(u32, u32)>,
    /// Two-player games per pair (0 for a pair that met only in games of more players).
    games: Vec<f64>,
    /// `i`'s points per pair.
    score: Vec<f64>,
    prior: f64,
    /// The games of more than two players.
    rankings: Rankings,
}

/// The objective and its derivatives at a point: the value `f`, the gradient `grad`, and the
/// Hessian as per-pair information weights `w` and the prior's diagonal `d`:
/// `I = -H = sum_pairs w (e_i - e_j)(e_i - e_j)' + diag(d)`.
struct Eval {
    f: f64,
    grad: Vec<f64>,
    w: Vec<f64>,
    d: Vec<f64>,
}

impl Model {
    /// Log-likelihood plus log-prior (natural units), with its derivatives.
    fn eval(&self, theta: &[f64]) -> Eval {
        let mut f = 0.0;
        let mut grad = vec![0.0; self.m];
        let mut d = vec![0.0; self.m];
        // Per virtual draw against rating 0: 0.5 ln p + 0.5 ln(1 - p) = ln p - t / 2.
        for (k, &t) in theta.iter().enumerate() {
            let (lp, p) = log_sigmoid_and_sigmoid(t);
            f += self.prior * (lp - 0.5 * t);
            grad[k] = self.prior * (0.5 - p);
            d[k] = self.prior * p * (1.0 - p);
        }
        let mut w = Vec::with_capacity(self.pairs.len());
        for (k, &(i, j)) in self.pairs.iter().enumerate() {
            let (i, j) = (i as usize, j as usize);
            let (g, s) = (self.games[k], self.score[k]);
            // s ln p + (g - s) ln(1 - p) = g ln p - (g - s) x, with x = theta_i - theta_j.
            let x = theta[i] - theta[j];
            let (lp, p) = log_sigmoid_and_sigmoid(x);
            f += g * lp - (g - s) * x;
            let r = s - g * p;
            grad[i] += r;
            grad[j] -= r;
            w.push(g * p * (1.0 - p));
        }
        self.rankings.add_to(theta, &mut f, &mut grad, &mut w);
        Eval { f, grad, w, d }
    }

    /// out = I v (the information times v).
    fn information_times(&self, ev: &Eval, v: &[f64], out: &mut [f64]) {
        for k in 0..self.m {
            out[k] = ev.d[k] * v[k];
        }
        for (&(i, j), &w) in self.pairs.iter().zip(&ev.w) {
            let (i, j) = (i as usize, j as usize);
            let t = w * (v[i] - v[j]);
            out[i] += t;
            out[j] -= t;
        }
    }

    /// diag(I).
    fn information_diagonal(&self, ev: &Eval) -> Vec<f64> {
        let mut h = ev.d.clone();
        for (&(i, j), &w) in self.pairs.iter().zip(&ev.w) {
            h[i as usize] += w;
            h[j as usize] += w;
        }
        h
    }

    /// The Newton step for mean-zero ratings: solves (P I P + 11'/m) x = P grad, where
    /// P grad = `b`, to a residual of `tol * |b|`.
    fn newton_step(&self, ev: &Eval, b: &[f64], tol: f64) -> Vec<f64> {
        let m = self.m;
        let precond: Vec<f64> = self
            .information_diagonal(ev)
            .into_iter()
            .map(|h| if h > 0.0 && h.is_finite() { h } else { 1.0 })
            .collect();
        let mut u = vec![0.0; m];
        let mut apply = |v: &[f64], out: &mut [f64]| {
            let mean = v.iter().sum::<f64>() / m as f64;
            u.iter_mut().zip(v).for_each(|(u, v)| *u = v - mean);
            self.information_times(ev, &u, out);
            centre(out);
            out.iter_mut().for_each(|x| *x += mean);
        };
        let mut x = pcg(&mut apply, &precond, b, tol, 10 * m + 100);
        centre(&mut x);
        x
    }

    /// The maximum of the objective over mean-zero ratings (natural units), from `theta`.
    ///
    /// Inexact Newton: the conjugate-gradient tolerance shrinks with the gradient (relative to
    /// the first one), which keeps the final steps quadratic and the early ones cheap.
    fn maximise(&self, mut theta: Vec<f64>) -> Vec<f64> {
        if self.m == 0 {
            return theta;
        }
        centre(&mut theta);
        let mut ev = self.eval(&theta);
        let mut first = None;
        for _ in 0..MAX_NEWTON {
            let mut b = ev.grad.clone();
            centre(&mut b);
            let norm = dot(&b, &b).sqrt();
            let first = *first.get_or_insert(norm);
            let tol = (norm / first).clamp(1e-12, 1e-2);
            let step = self.newton_step(&ev, &b, tol);
            let size = max_abs(&step);
            let slope = dot(&b, &step);
            if !(size.is_finite() && slope.is_finite()) {
                break;
            }
            if size < SMALL_STEP {
                theta.iter_mut().zip(&step).for_each(|(t, s)| *t += s);
                centre(&mut theta);
                if size < STEP_TOL {
                    break;
                }
                ev = self.eval(&theta);
                continue;
            }
            // Backtracking (Armijo) line search along the step.
            let mut t = 1.0;
            let mut accepted = false;
            while t * size >= STEP_TOL {
                let mut cand: Vec<f64> = theta.iter().zip(&step).map(|(a, s)| a + t * s).collect();
                centre(&mut cand);
                let evc = self.eval(&cand);
                if evc.f >= ev.f + 1e-4 * t * slope {
                    theta = cand;
                    ev = evc;
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if !accepted {
                break;
            }
        }
        theta
    }

    /// Variances of the mean-zero ratings (natural units): diag((P I P)^+).
    fn variances(&self, theta: &[f64], dense_limit: usize) -> Vec<f64> {
        let m = self.m;
        if m == 0 {
            return Vec::new();
        }
        let ev = self.eval(theta);
        if m > dense_limit {
            return self
                .information_diagonal(&ev)
                .into_iter()
                .map(|h| if h > 0.0 { 1.0 / h } else { f64::INFINITY })
                .collect();
        }
        // Dense I, then P I P + 11'/m = I - rowmean_i - rowmean_j + mean + 1/m.
        let mut a = vec![0.0; m * m];
        for k in 0..m {
            a[k * m + k] = ev.d[k];
        }
        for (&(i, j), &w) in self.pairs.iter().zip(&ev.w) {
            let (i, j) = (i as usize, j as usize);
            a[i * m + i] += w;
            a[j * m + j] += w;
            a[i * m + j] -= w;
            a[j * m + i] -= w;
        }
        let mf = m as f64;
        let row_mean: Vec<f64> = a
            .chunks_exact(m)
            .map(|r| r.iter().sum::<f64>() / mf)
            .collect();
        let mean = row_mean.iter().sum::<f64>() / mf;
        for i in 0..m {
            for j in 0..=i {
                a[i * m + j] += mean + 1.0 / mf - row_mean[i] - row_mean[j];
            }
        }
        match inverse_diagonal(&mut a, m) {
            Some(diag) => diag.into_iter().map(|x| x - 1.0 / mf).collect(),
            // Not positive definite: only possible without a prior on data whose plain
            // maximum-likelihood estimate does not exist.
            None => vec![f64::INFINITY; m],
        }
    }
}
