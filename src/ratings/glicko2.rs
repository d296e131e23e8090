//! Glicko-2 ratings with `skillratings`, one rating period per round (of two-player games; the
//! pairs of a game of more players take several, see [`glicko2_pairs`]).

use super::{GameScore, RankedGame, check};
use crate::games::MAX_SEATS;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// Glicko-2 `(rating, deviation)` of players `0..n` after rating `games`, on Glicko's usual
/// scale (everyone starts at 1500, deviation 350, volatility 0.06; tau 0.5, skillratings'
/// defaults).
///
/// Each distinct `round` is one rating period, taken in increasing order of `round`. Within a
/// period every player's games are rated together against the opponents' ratings at the start of
/// the period (`skillratings::glicko2::glicko2_rating_period`), in a canonical order, so the
/// order of `games` makes no difference at all. A player who sits out a round has their
/// deviation grow as Glicko-2 prescribes (`skillratings::glicko2::decay_deviation`: never above
/// 350), applied lazily in closed form, so the cost is O(games log games + n) however many
/// periods there are; a player without any games stays at (1500, 350).
///
/// Expects `score_a` in {0, 0.5, 1}; games where both players failed must be left out by the
/// caller. See the module documentation of [`crate::ratings`].
///
/// # Panics
/// On a game that breaks the input contract (index `>= n`, or another score).
pub fn glicko2(n: usize, games: &[GameScore]) -> Vec<(f64, f64)> {
    rate_rounds(
        n,
        games,
        |g| g.round,
        |g, periods| {
            if let Some(hp) = check(n, g) {
                push_game(&mut periods[0], g.a, g.b, hp);
            }
        },
    )
}

/// Glicko-2 `(rating, deviation)` of players `0..n` from `games` of any number of players, as
/// [`glicko2`] rates the games of every pair of seats that tells something
/// ([`RankedGame::comparisons`]: who finished ahead by their places, a tie as a draw; nothing
/// from a game every seat failed in). A two-player game is one game, as [`glicko2`]
/// rates its [`GameScore`], in its round's one period: the same figures to the bit.
///
/// A game of k players is k - 1 games for each of its players, which are not independent (if A
/// beat B and B beat C, A beat C): rated in one period, their surprises add up to more than
/// Glicko-2 expects of independent games, which it takes for volatility, and the volatility then
/// grows round after round until the ratings are noise (measured: 64 bots in 4-player games,
/// after 16,000 rounds deviations of 10^64). So a round's pairs take k - 1 periods (k when k is
/// odd), each pair of a game in the period of the circle method's round in which its seats
/// meet ([`period_of_pair`]), seats in the order of the ranking: a period holds at most one
/// game of each player per game. A player's deviation grows once per round it sits out, not per
/// period. The deviations still shrink as after k - 1 games; Plackett-Luce's error is the one
/// that counts a game once.
///
/// # Panics
/// On a game with a bot `>= n` or more than 8 seats.
pub fn glicko2_pairs(n: usize, games: &[RankedGame]) -> Vec<(f64, f64)> {
    rate_rounds(
        n,
        games,
        |g| g.round,
        |g, periods| {
            g.check(n);
            let order = g.ranking_order();
            for (i, &p) in order.iter().enumerate() {
                for (j, &q) in order.iter().enumerate().skip(i + 1) {
                    if let Some(hp) = g.half_points(p, q) {
                        let period = &mut periods[period_of_pair(order.len(), i, j)];
                        push_game(period, g.seats[p].bot, g.seats[q].bot, hp);
                    }
                }
            }
        },
    )
}

/// The period, among its round's, of the pair of positions `i < j` of a game of `k`: the round
/// of the circle method in which they meet (k - 1 rounds of k/2 pairs for an even k; k rounds,
/// one position resting in each, for an odd k). Position `k - 1` of an even k is the fixed one.
pub(super) fn period_of_pair(k: usize, i: usize, j: usize) -> usize {
    let rounds = k + k % 2 - 1;
    if j == rounds {
        2 * i % rounds
    } else {
        (i + j) % rounds
    }
}

/// Both sides of a game between `a` and `b`, `a`'s half points `hp`, as entries
/// `player << 33 | opponent << 2 | player's half points`.
fn push_game(entries: &mut Vec<u64>, a: usize, b: usize, hp: u64) {
    let (a, b) = (a as u64, b as u64);
    entries.push((a << 33) | (b << 2) | hp);
    entries.push((b << 33) | (a << 2) | (2 - hp));
}

/// Glicko-2 over `games` by `round`, in increasing order; `entries_of` pushes each game's pairs
/// ([`push_game`]) into the periods of its round, rated one after the other.
fn rate_rounds<G>(
    n: usize,
    games: &[G],
    round: impl Fn(&G) -> u32,
    entries_of: impl Fn(&G, &mut [Vec<u64>; MAX_SEATS]),
) -> Vec<(f64, f64)> {
    assert!(n < 1 << 31, "ratings: too many players ({n})");
    // The games in order of round (usually already so), then one round at a time.
    let mut games: Vec<&G> = games.iter().collect();
    if !games.is_sorted_by_key(|g| round(g)) {
        games.sort_by_key(|g| round(g));
    }
    let mut state = Periods::new(n);
    let mut periods: [Vec<u64>; MAX_SEATS] = Default::default();
    for games in games.chunk_by(|x, y| round(x) == round(y)) {
        periods.iter_mut().for_each(Vec::clear);
        for g in games {
            entries_of(g, &mut periods);
        }
        // A round of only ignored games is no round.
        let played = periods.iter().any(|p| !p.is_empty());
        for period in periods.iter_mut().filter(|p| !p.is_empty()) {
            state.rate(period);
        }
        state.rounds += u64::from(played);
    }
    state.finish()
}

/// Everyone's Glicko-2 rating as the periods go by.
struct Periods {
    config: Glicko2Config,
    ratings: Vec<Glicko2Rating>,
    /// Rounds already applied to `ratings[p]`; the idle ones since are applied when needed.
    applied: Vec<u64>,
    /// Rounds rated so far.
    rounds: u64,
    /// Ratings at the start of the current period (valid for its players only).
    start: Vec<Glicko2Rating>,
    results: Vec<(Glicko2Rating, Outcomes)>,
}

impl Periods {
    fn new(n: usize) -> Periods {
        Periods {
            config: Glicko2Config::new(),
            ratings: vec![Glicko2Rating::new(); n],
            applied: vec![0; n],
            rounds: 0,
            start: vec![Glicko2Rating::new(); n],
            results: Vec::new(),
        }
    }

    /// Rates one period: both sides of every game of it ([`push_game`]), sorted here, so that
    /// every player's games come together and in a canonical order.
    fn rate(&mut self, entries: &mut [u64]) {
        entries.sort_unstable();
        let groups = || entries.chunk_by(|x, y| x >> 33 == y >> 33);
        for group in groups() {
            let p = (group[0] >> 33) as usize;
            // Rated earlier in this round: no idle round since.
            let idle = self.rounds.saturating_sub(self.applied[p]);
            self.start[p] = decayed(&self.ratings[p], idle);
        }
        for group in groups() {
            let player = (group[0] >> 33) as usize;
            self.results.clear();
            self.results.extend(group.iter().map(|&e| {
                let opponent = ((e >> 2) & ((1 << 31) - 1)) as usize;
                let outcome = match e & 3 {
                    2 => Outcomes::WIN,
                    1 => Outcomes::DRAW,
                    _ => Outcomes::LOSS,
                };
                (self.start[opponent], outcome)
            }));
            self.ratings[player] =
                glicko2_rating_period(&self.start[player], &self.results, &self.config);
            self.applied[player] = self.rounds + 1;
        }
    }

    /// Everyone's `(rating, deviation)`, the rounds each sat out at the end applied.
    fn finish(&self) -> Vec<(f64, f64)> {
        self.ratings
            .iter()
            .zip(&self.applied)
            .map(|(r, &done)| {
                let r = decayed(r, self.rounds - done);
                (r.rating, r.deviation)
            })
            .collect()
    }
}

/// `r` after `idle` rating periods without games: `skillratings::glicko2::decay_deviation`
/// applied `idle` times, in closed form (each application adds volatility^2 to the squared
/// deviation on the Glicko-2 scale, capped at 350).
fn decayed(r: &Glicko2Rating, idle: u64) -> Glicko2Rating {
    const SCALE: f64 = 173.7178; // skillratings' Glicko-2 scale factor
    if idle == 0 {
        return *r;
    }
    let phi = r.deviation / SCALE;
    let deviation =
        (SCALE * (phi * phi + idle as f64 * r.volatility * r.volatility).sqrt()).min(350.0);
    Glicko2Rating { deviation, ..*r }
}
