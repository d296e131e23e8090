//! Weng-Lin (OpenSkill) ratings with `skillratings`, game by game.

use super::RankedGame;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Weng-Lin `(rating, uncertainty)` of players `0..n` after `games` of any number of players, on
/// skillratings' scale: everyone starts at 25 with uncertainty 25/3, and beta, the difference
/// that makes about 2:1 odds, is 25/6 (`WengLinConfig::new()`). A player without games stays at
/// (25, 8.33).
///
/// Weng-Lin is a rating that learns game by game: the games are rated one after the other in
/// order of round, and within a round in a fixed order (of their seats' bots and places), so that
/// the order of `games` makes no difference. A bot that plays at most once a round (round-robin,
/// Swiss) is rated the same whatever the order inside a round.
///
/// Each game is `skillratings::weng_lin::weng_lin_multi_team` with every seat a team of one,
/// ranked by its place (a tie shares a rank; a failed seat where the game placed it). That is
/// Weng and Lin's Bradley-Terry model with every pair of teams compared (openskill's
/// `BradleyTerryFull`), not their Plackett-Luce model (openskill's default). A game that tells
/// nothing ([`RankedGame::comparisons`]: every seat failed, or one bot in every seat) is not
/// rated. A bot in two seats of one game (arena schedules none) keeps the result of its first
/// seat.
///
/// # Panics
/// On a game with a bot `>= n` or more than 8 seats.
pub fn weng_lin(n: usize, games: &[RankedGame]) -> Vec<(f64, f64)> {
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); n];
    let mut order: Vec<&RankedGame> = games.iter().collect();
    // By round first (RankedGame's order), then by the seats.
    order.sort_unstable();
    for game in order {
        game.check(n);
        if game.comparisons().next().is_some() {
            rate(game, &mut ratings, &config);
        }
    }
    ratings.iter().map(|r| (r.rating, r.uncertainty)).collect()
}

/// Rates one game that tells something.
fn rate(game: &RankedGame, ratings: &mut [WengLinRating], config: &WengLinConfig) {
    let teams: Vec<[WengLinRating; 1]> = game.seats.iter().map(|s| [ratings[s.bot]]).collect();
    let ranked: Vec<_> = game
        .seats
        .iter()
        .zip(&teams)
        .map(|(s, team)| (&team[..], MultiTeamOutcome::new(usize::from(s.place))))
        .collect();
    let after = weng_lin_multi_team(&ranked, config);
    // The first seat of a bot last, so that its result stays.
    for (s, r) in game.seats.iter().zip(after).rev() {
        ratings[s.bot] = r[0];
    }
}
