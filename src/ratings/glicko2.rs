//! Glicko-2 ratings with `skillratings`, one rating period per round.

use super::{GameScore, check};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// Glicko-2 `(rating, deviation)` of players `0..n` after rating `games`, on Glicko's usual
/// scale (everyone starts at 1500, deviation 350, volatility 0.06; tau 0.5, skillratings'
/// defaults).
///
/// Each distinct `round` is one rating period, taken in increasing order of `round`. Within a
/// period every player's games are rated together against the opponents' ratings at the start of
/// the period (`skillratings::glicko2::glicko2_rating_period`), in a canonical order, so the
/// order of `games` makes no difference at all. A player who sits out a period has their
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
    assert!(n < 1 << 31, "ratings: too many players ({n})");
    // The games in order of round (usually already so), then one period at a time.
    let sorted_copy: Vec<GameScore>;
    let games = if games.is_sorted_by_key(|g| g.round) {
        games
    } else {
        sorted_copy = {
            let mut v = games.to_vec();
            v.sort_by_key(|g| g.round);
            v
        };
        &sorted_copy
    };

    let config = Glicko2Config::new();
    let mut ratings = vec![Glicko2Rating::new(); n];
    // Periods already applied to `ratings[p]`; the idle ones since are applied when needed.
    let mut applied = vec![0u64; n];
    let mut periods = 0u64;
    // Ratings at the start of the current period (valid for its players only).
    let mut start = ratings.clone();
    // Both sides of every game of the period, as player << 33 | opponent << 2 | player's half
    // points: sorted, every player's games come together and in a canonical order.
    let mut entries: Vec<u64> = Vec::new();
    let mut results: Vec<(Glicko2Rating, Outcomes)> = Vec::new();
    for period in games.chunk_by(|x, y| x.round == y.round) {
        entries.clear();
        for g in period {
            let Some(hp) = check(n, g) else { continue };
            let (a, b) = (g.a as u64, g.b as u64);
            entries.push((a << 33) | (b << 2) | hp);
            entries.push((b << 33) | (a << 2) | (2 - hp));
        }
        if entries.is_empty() {
            continue; // only ignored games: no period
        }
        entries.sort_unstable();
        let groups = || entries.chunk_by(|x, y| x >> 33 == y >> 33);
        for group in groups() {
            let p = (group[0] >> 33) as usize;
            start[p] = decayed(&ratings[p], periods - applied[p]);
        }
        for group in groups() {
            let player = (group[0] >> 33) as usize;
            results.clear();
            results.extend(group.iter().map(|&e| {
                let opponent = ((e >> 2) & ((1 << 31) - 1)) as usize;
                let outcome = match e & 3 {
                    2 => Outcomes::WIN,
                    1 => Outcomes::DRAW,
                    _ => Outcomes::LOSS,
                };
                (start[opponent], outcome)
            }));
            ratings[player] = glicko2_rating_period(&start[player], &results, &config);
            applied[player] = periods + 1;
        }
        periods += 1;
    }
    ratings
        .iter()
        .zip(&applied)
        .map(|(r, &done)| {
            let r = decayed(r, periods - done);
            (r.rating, r.deviation)
        })
        .collect()
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
