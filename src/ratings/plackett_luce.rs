//! Plackett-Luce maximum-likelihood ratings from places (documented on [`plackett_luce`]): games
//! of more than two players as the terms of their likelihood, which the Bradley-Terry fit adds to
//! its pairs.

use super::bradley_terry::{Tally, fit_all};
use super::ranked::RankedGame;
use super::{EloEstimate, GameScore, PRIOR_DRAWS, pair_results, upper_slot};
use crate::games::MAX_SEATS;
use std::collections::BTreeMap;

/// The largest number of players with games for which the error is computed exactly (as
/// [`super::bradley_terry()`]).
const DENSE_LIMIT: usize = 1500;
/// Pairs of seats in a game of [`MAX_SEATS`].
const MAX_PAIRS: usize = MAX_SEATS * (MAX_SEATS - 1) / 2;
/// A game's share of a comparison is counted in 1/420ths, the least common multiple of 1 to 7
/// (the number of comparisons of a seat), so that the shares add up exactly in any order.
pub(super) const SHARE: u64 = 420;

/// Plackett-Luce ratings of players `0..n` from `games` of any number of players, on the Elo
/// scale, centred so that the mean rating of the players with games is 0, each with its 95% error
/// and whether it is `marked` (see [`EloEstimate`]). Neither the order of `games`, their rounds,
/// nor the order of the seats in a game make any difference.
///
/// Model: a game's ranking is drawn place by place, each time among the seats not yet placed,
/// seat `i` with probability `gamma_i / (sum of their gammas)`, `gamma = 10^(R / 400)`. For two
/// players that is Bradley-Terry, `1 / (1 + 10^((R_j - R_i) / 400))`, the same scale as
/// [`super::bradley_terry()`]; and two-player games give exactly its figures, for they are fitted as
/// its pairs (a two-player game both of whose seats failed is not rated, 0-0).
///
/// - Ties: seats sharing a place count as every order of them at once, each with equal weight in
///   the log-likelihood (the mean of the orders' log-likelihoods). For two players that is
///   Bradley-Terry's draw, half a win and half a loss.
/// - Failed seats: rated from their places, as every seat. A failure is an elimination at that
///   turn, and the game placed the seat so (below every seat still in, above every seat already
///   out, tied with the seats out in the same turn). A game in which every seat failed is not
///   rated.
/// - Prior and `marked`: as for Bradley-Terry, [`PRIOR_DRAWS`] virtual draw of each player with a
///   virtual player rated 0. A player is marked when it finished ahead of (or behind) every other
///   player it is compared with in every game.
///
/// The fit and its error are Bradley-Terry's (Newton's method; the inverse of the observed
/// information, exactly for up to 1,500 players with games): the information of a game of
/// Plackett-Luce is a weighted sum over its pairs of seats, as that of a pair of Bradley-Terry. A
/// game costs O(k^2) per evaluation (k seats, ties cost more: 2^t terms for t seats tied), and
/// identical games (same bots in the same places) are evaluated once.
///
/// # Example
/// ```
/// use arena::ratings::{RankedGame, plackett_luce};
/// // Four bots in 3-player games: 0 first twice, 1 first once; 3 failed once.
/// let games = [
///     RankedGame::new(1, &[0, 1, 2], &[1, 2, 3], &[false; 3]),
///     RankedGame::new(1, &[2, 0, 3], &[2, 1, 3], &[false, false, true]),
///     RankedGame::new(2, &[1, 2, 3], &[1, 2, 3], &[false; 3]),
/// ];
/// let r = plackett_luce(5, &games); // bot 4 has no games
/// assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo && r[2].elo > r[3].elo);
/// assert!(r[0].marked && r[3].marked && !r[1].marked);
/// assert_eq!((r[4].elo, r[4].error, r[4].marked), (0.0, f64::INFINITY, true));
/// ```
///
/// # Panics
/// On a game with a bot `>= n` or more than 8 seats.
pub fn plackett_luce(n: usize, games: &[RankedGame]) -> Vec<EloEstimate> {
    fit_places(n, games, PRIOR_DRAWS, DENSE_LIMIT)
}

/// [`plackett_luce`] with the prior strength and the dense limit as parameters (as
/// `bradley_terry::fit`).
pub(super) fn fit_places(
    n: usize,
    games: &[RankedGame],
    prior: f64,
    dense_limit: usize,
) -> Vec<EloEstimate> {
    let (two, more): (Vec<&RankedGame>, Vec<&RankedGame>) =
        games.iter().partition(|g| g.seats.len() == 2);
    let scores: Vec<GameScore> = two
        .iter()
        .flat_map(|g| {
            g.check(n);
            g.pair_scores()
        })
        .collect();
    let rankings = Rankings::compile(n, &more);
    fit_all(n, &pair_results(n, &scores), rankings, prior, dense_limit)
}

/// How a game's seats are ordered for its likelihood: by place, within a place by bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ShapeKey {
    len: u8,
    /// Bit `p` set when position `p` starts a place (a group of tied seats).
    starts: u8,
}

/// A game in canonical order: its shape and the bot at each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Canonical {
    shape: ShapeKey,
    bots: [u32; MAX_SEATS],
}

impl Canonical {
    /// `None` when the game tells nothing (see [`RankedGame::comparisons`]).
    fn of(game: &RankedGame) -> Option<Canonical> {
        game.comparisons().next()?;
        let order = game.ranking_order();
        let k = order.len();
        let mut starts = 0u8;
        let mut bots = [u32::MAX; MAX_SEATS];
        for (p, &s) in order.iter().enumerate() {
            bots[p] = game.seats[s].bot as u32;
            let place = |p: usize| game.seats[order[p]].place;
            if p == 0 || place(p) != place(p - 1) {
                starts |= 1 << p;
            }
        }
        let shape = ShapeKey {
            len: k as u8,
            starts,
        };
        Some(Canonical { shape, bots })
    }
}

/// A shape's log-likelihood, in the ratings `x` (natural units) of its positions:
/// `sum_p linear[p] x[p] - sum_terms c ln(sum_{p in mask} exp(x[p]))`.
#[derive(Debug)]
struct Shape {
    len: usize,
    linear: [f64; MAX_SEATS],
    /// `(mask, c)`, masks of two positions or more (a term of one is linear).
    terms: Vec<(u8, f64)>,
}

impl Shape {
    /// Place by place: a group of `t` tied seats above the set `below` (every position after
    /// it) contributes, for each `u` in 1..=t, the mean over the subsets `U` of the group of
    /// size `u` of `-ln(sum of gammas of U and below)`: the mean over the group's orders of the
    /// stages that draw its seats. Each seat adds its own `ln gamma`.
    fn new(key: ShapeKey) -> Shape {
        let len = key.len as usize;
        let mut linear = [0.0; MAX_SEATS];
        linear[..len].iter_mut().for_each(|l| *l = 1.0);
        let mut terms = Vec::new();
        let starts: Vec<usize> = (0..len)
            .filter(|&p| key.starts & (1 << p) != 0)
            .chain([len])
            .collect();
        for group in starts.windows(2) {
            let (g0, g1) = (group[0], group[1]);
            let t = g1 - g0;
            let below = (((1u32 << len) - 1) & !((1u32 << g1) - 1)) as u8;
            for subset in 1u32..(1 << t) {
                let c = 1.0 / binomial(t, subset.count_ones() as usize);
                let mask = ((subset << g0) as u8) | below;
                if mask.count_ones() == 1 {
                    linear[mask.trailing_zeros() as usize] -= c;
                } else {
                    terms.push((mask, c));
                }
            }
        }
        Shape { len, linear, terms }
    }
}

fn binomial(t: usize, u: usize) -> f64 {
    (0..u).fold(1.0, |acc, i| acc * (t - i) as f64 / (i + 1) as f64)
}

/// The games of more than two players, compiled for the fit: each distinct game once, with how
/// many times it was played.
#[derive(Default)]
pub(super) struct Rankings {
    shapes: Vec<Shape>,
    /// Per distinct game: its shape, and how many times it was played.
    shape: Vec<u16>,
    count: Vec<f64>,
    /// Per distinct game, flattened: the bot at each of its `len` positions (the caller's
    /// indices, then the fit's after [`Rankings::link`]).
    bots: Vec<u32>,
    /// Per distinct game, flattened: the fit's pair of each of its `len (len - 1) / 2` pairs of
    /// positions, in order; `u32::MAX` for a bot in both.
    pair_of: Vec<u32>,
    /// Per player of `0..n` (empty without games): what its comparisons say.
    pub(super) tally: Vec<Tally>,
}

impl Rankings {
    /// # Panics
    /// On a game with a bot `>= n` or more than 8 seats.
    fn compile(n: usize, games: &[&RankedGame]) -> Rankings {
        assert!(n < 1 << 31, "ratings: too many players ({n})");
        let mut tally = vec![Tally::default(); if games.is_empty() { 0 } else { n }];
        let mut canonical: Vec<Canonical> = Vec::with_capacity(games.len());
        for game in games {
            game.check(n);
            count_comparisons(game, &mut tally);
            canonical.extend(Canonical::of(game));
        }
        canonical.sort_unstable();
        let mut out = Rankings {
            tally,
            ..Rankings::default()
        };
        let mut shape_ids: BTreeMap<ShapeKey, u16> = BTreeMap::new();
        for same in canonical.chunk_by(|a, b| a == b) {
            let c = same[0];
            let next = shape_ids.len() as u16;
            let id = *shape_ids.entry(c.shape).or_insert_with(|| {
                out.shapes.push(Shape::new(c.shape));
                next
            });
            out.shape.push(id);
            out.count.push(same.len() as f64);
            out.bots.extend_from_slice(&c.bots[..c.shape.len as usize]);
        }
        out
    }

    /// Every game's seats as a slice of `bots`, with the game's shape.
    fn games(&self) -> impl Iterator<Item = (usize, &Shape, &[u32])> + '_ {
        let mut at = 0;
        self.shape.iter().enumerate().map(move |(g, &s)| {
            let shape = &self.shapes[s as usize];
            let bots = &self.bots[at..at + shape.len];
            at += shape.len;
            (g, shape, bots)
        })
    }

    /// Renumbers the bots by `index` (the fit's numbering, `u32::MAX` for a player without
    /// games, which no game here holds), then numbers the pairs of seats: returns every pair of
    /// the fit, `i < j`, sorted, the union of `two_player` (sorted) and the pairs of these games.
    pub(super) fn link(&mut self, index: &[u32], two_player: &[(u32, u32)]) -> Vec<(u32, u32)> {
        for b in &mut self.bots {
            *b = index[*b as usize];
            debug_assert!(*b != u32::MAX, "a game's bot has comparisons");
        }
        let m = index.iter().filter(|&&i| i != u32::MAX).count();
        let pairs = self
            .seat_pairs()
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (a.min(b), a.max(b)));
        let numbers = PairNumbers::new(m, two_player, pairs);
        let pair_of = self
            .seat_pairs()
            .map(|(a, b)| if a == b { u32::MAX } else { numbers.get(a, b) })
            .collect();
        self.pair_of = pair_of;
        numbers.pairs
    }

    /// The bots of every pair of positions of every game, in order.
    fn seat_pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.games().flat_map(|(_, _, bots)| {
            (0..bots.len()).flat_map(move |p| bots[p + 1..].iter().map(move |&b| (bots[p], b)))
        })
    }

    /// Adds the games' log-likelihood at `theta` to `f`, its gradient to `grad` and its
    /// information, as weights of the fit's pairs, to `w`.
    pub(super) fn add_to(&self, theta: &[f64], f: &mut f64, grad: &mut [f64], w: &mut [f64]) {
        let mut pair_at = 0;
        for (g, shape, bots) in self.games() {
            let k = shape.len;
            let pairs = &self.pair_of[pair_at..pair_at + k * (k - 1) / 2];
            pair_at += pairs.len();
            let mut x = [0.0; MAX_SEATS];
            for (x, &b) in x.iter_mut().zip(bots) {
                *x = theta[b as usize];
            }
            let game = evaluate(shape, &x);
            let count = self.count[g];
            *f += count * game.value;
            for (&b, r) in bots.iter().zip(&game.grad) {
                grad[b as usize] += count * r;
            }
            for (&pair, pw) in pairs.iter().zip(&game.weights) {
                if pair != u32::MAX {
                    w[pair as usize] += count * pw;
                }
            }
        }
    }
}

/// The fit's pairs, sorted, and the number of each: a table of every pair of `m` players when
/// it is no bigger than the pairs given, else a binary search.
struct PairNumbers {
    pairs: Vec<(u32, u32)>,
    /// Dense: the number of each pair of `0..m`, at its [`upper_slot`] (`u32::MAX` when unused).
    table: Option<Vec<u32>>,
    m: usize,
}

impl PairNumbers {
    /// From pairs `i < j < m`, with repeats; `sorted` without.
    fn new(m: usize, sorted: &[(u32, u32)], more: impl Iterator<Item = (u32, u32)>) -> PairNumbers {
        let all = m * m.saturating_sub(1) / 2;
        let more: Vec<(u32, u32)> = more.collect();
        if all > (sorted.len() + more.len()).max(1 << 16) {
            let mut pairs: Vec<(u32, u32)> = sorted.iter().copied().chain(more).collect();
            pairs.sort_unstable();
            pairs.dedup();
            return PairNumbers {
                pairs,
                table: None,
                m,
            };
        }
        let mut numbers = PairNumbers {
            pairs: Vec::new(),
            table: None,
            m,
        };
        const USED: u32 = u32::MAX - 1;
        let mut table = vec![u32::MAX; all];
        for &(i, j) in sorted.iter().chain(&more) {
            table[upper_slot(m, i as usize, j as usize)] = USED;
        }
        for i in 0..m as u32 {
            for j in i + 1..m as u32 {
                let cell = &mut table[upper_slot(m, i as usize, j as usize)];
                if *cell == USED {
                    *cell = numbers.pairs.len() as u32;
                    numbers.pairs.push((i, j));
                }
            }
        }
        numbers.table = Some(table);
        numbers
    }

    /// The number of the pair of different players `a` and `b`, in either order.
    fn get(&self, a: u32, b: u32) -> u32 {
        let (i, j) = (a.min(b), a.max(b));
        match &self.table {
            Some(table) => table[upper_slot(self.m, i as usize, j as usize)],
            None => self
                .pairs
                .binary_search(&(i, j))
                .expect("every pair is numbered") as u32,
        }
    }
}

/// A game's log-likelihood at one point, its gradient per position, and its information as a
/// weight per pair of positions (in [`upper_slot`] order).
struct GameEval {
    value: f64,
    grad: [f64; MAX_SEATS],
    weights: [f64; MAX_PAIRS],
}

/// Evaluates `shape` at ratings `x` (natural units). A term `-c ln S`, `S = sum exp(x_p)` over
/// its mask, has gradient `-c q` with `q_p = exp(x_p) / S`, and information
/// `c (diag(q) - q q')`, which is `sum_{p < q} c q_p q_q (e_p - e_q)(e_p - e_q)'` because the
/// `q` add up to 1.
fn evaluate(shape: &Shape, x: &[f64; MAX_SEATS]) -> GameEval {
    let k = shape.len;
    let shift = x[..k].iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let mut e = [0.0; MAX_SEATS];
    for p in 0..k {
        e[p] = (x[p] - shift).exp();
    }
    let mut out = GameEval {
        value: (0..k).map(|p| shape.linear[p] * x[p]).sum(),
        grad: shape.linear,
        weights: [0.0; MAX_PAIRS],
    };
    for &(mask, c) in &shape.terms {
        let (log_sum, q) = term(mask, x, &e, shift);
        out.value -= c * log_sum;
        let mut rest = mask;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out.grad[p] -= c * q[p];
            let mut others = rest;
            while others != 0 {
                let r = others.trailing_zeros() as usize;
                others &= others - 1;
                out.weights[upper_slot(k, p, r)] += c * q[p] * q[r];
            }
        }
    }
    out
}

/// `ln(sum_{p in mask} exp(x_p))` and each `q_p = exp(x_p) / sum`, from `e = exp(x - shift)`;
/// recomputed around the mask's own maximum when its sum of `e` underflows.
fn term(
    mask: u8,
    x: &[f64; MAX_SEATS],
    e: &[f64; MAX_SEATS],
    shift: f64,
) -> (f64, [f64; MAX_SEATS]) {
    let positions = || (0..MAX_SEATS).filter(move |&p| mask & (1 << p) != 0);
    let mut sum: f64 = positions().map(|p| e[p]).sum();
    let (mut e, mut shift) = (*e, shift);
    if sum < 1e-250 {
        shift = positions().fold(f64::NEG_INFINITY, |a, p| a.max(x[p]));
        for p in positions() {
            e[p] = (x[p] - shift).exp();
        }
        sum = positions().map(|p| e[p]).sum();
    }
    let mut q = [0.0; MAX_SEATS];
    for p in positions() {
        q[p] = e[p] / sum;
    }
    (shift + sum.ln(), q)
}

/// Adds what `game`'s comparisons say of each of its bots to `tally`.
fn count_comparisons(game: &RankedGame, tally: &mut [Tally]) {
    // Per seat: comparisons ahead, tied, behind.
    let mut seat = [[0u64; 3]; MAX_SEATS];
    for (p, q, hp) in game.comparisons() {
        seat[p][2 - hp as usize] += 1;
        seat[q][hp as usize] += 1;
    }
    for (s, &[ahead, tied, behind]) in game.seats.iter().zip(&seat) {
        let comparisons = ahead + tied + behind;
        if comparisons == 0 {
            continue;
        }
        let t = &mut tally[s.bot];
        t.not_behind += ahead + tied;
        t.not_ahead += tied + behind;
        t.won += SHARE * (2 * ahead + tied) / comparisons;
        t.lost += SHARE * (2 * behind + tied) / comparisons;
    }
}
