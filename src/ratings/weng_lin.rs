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
/// ranked by its place (a tie shares a rank), and the failed seats ranked below every seat
/// still in. That model compares every pair of seats, and two failed seats at one rank would
/// count as a draw, which they are not (they tell nothing about each other): so the seats
/// still in take their ratings from the whole game, and each failed seat from the game of the
/// seats still in and itself. A game that tells nothing ([`RankedGame::comparisons`]: every
/// seat failed, or one bot in every seat) is not rated. A bot in two seats of one game (arena
/// schedules none) keeps the result of its first seat.
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
    let seats = &game.seats;
    let below = seats
        .iter()
        .filter(|s| !s.failed)
        .map(|s| usize::from(s.place))
        .max()
        .unwrap_or(0)
        + 1;
    let teams: Vec<[WengLinRating; 1]> = seats.iter().map(|s| [ratings[s.bot]]).collect();
    let ranked = |s: usize| {
        let rank = if seats[s].failed {
            below
        } else {
            usize::from(seats[s].place)
        };
        (&teams[s][..], MultiTeamOutcome::new(rank))
    };
    let whole: Vec<_> = (0..seats.len()).map(ranked).collect();
    let mut after: Vec<WengLinRating> = weng_lin_multi_team(&whole, config)
        .into_iter()
        .map(|team| team[0])
        .collect();
    let (still_in, failed): (Vec<usize>, Vec<usize>) =
        (0..seats.len()).partition(|&s| !seats[s].failed);
    if failed.len() > 1 {
        for &f in &failed {
            let alone: Vec<_> = still_in.iter().chain([&f]).map(|&s| ranked(s)).collect();
            let rated = weng_lin_multi_team(&alone, config);
            after[f] = rated[still_in.len()][0];
        }
    }
    // The first seat of a bot last, so that its result stays.
    for (s, r) in seats.iter().zip(after).rev() {
        ratings[s.bot] = r;
    }
}
