//! A game of any number of players as the ratings see it ([`RankedGame`]), and what every rating
//! reads from it: who finished ahead of whom ([`RankedGame::comparisons`]).

use super::GameScore;
use crate::games::MAX_SEATS;
use std::cmp::Ordering;

/// One seat of a [`RankedGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Placed {
    /// The bot in the seat, an index into the caller's list of names.
    pub bot: usize,
    /// Its place, 1 the best; seats that tie share a place (`1 2 2 4`). Only the order matters.
    pub place: u8,
    /// Whether the seat failed (timeout, crash, illegal move...). A failed seat is rated from its
    /// place, as any other: the game placed it (out at that turn: below every seat still in,
    /// above every seat already out). Only a game in which every seat failed tells nothing.
    pub failed: bool,
}

/// A rated game of 2 to 8 players: one [`Placed`] per seat, in seat order, and its round.
///
/// A two-player game is today's [`GameScore`]: `a` in seat 0, `b` in seat 1, `a`'s score 1, ½
/// or 0 as its place is better, equal or worse (a failed seat is placed second); when both
/// failed it is not rated (0-0). See the module documentation of [`crate::ratings`] for how a game of more
/// players counts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RankedGame {
    /// The round, first: ordering games orders them by round (Glicko-2's rating periods).
    pub round: u32,
    pub seats: Vec<Placed>,
}

impl RankedGame {
    /// A game from its bots, places and failures, one per seat, in seat order.
    ///
    /// # Panics
    /// If the three lists differ in length.
    pub fn new(round: u32, bots: &[usize], places: &[u8], failed: &[bool]) -> RankedGame {
        assert!(
            bots.len() == places.len() && bots.len() == failed.len(),
            "ratings: a game has {} bots, {} places and {} failures",
            bots.len(),
            places.len(),
            failed.len()
        );
        let seats = (0..bots.len())
            .map(|s| Placed {
                bot: bots[s],
                place: places[s],
                failed: failed[s],
            })
            .collect();
        RankedGame { round, seats }
    }

    /// How seat `p` did against seat `q`, in half points (2 ahead, 1 tied, 0 behind) by their
    /// places, or `None` when the pair tells nothing: every seat of the game failed, or one bot
    /// in both seats.
    pub fn half_points(&self, p: usize, q: usize) -> Option<u64> {
        let (x, y) = (&self.seats[p], &self.seats[q]);
        if x.bot == y.bot || self.all_failed() {
            return None;
        }
        Some(match x.place.cmp(&y.place) {
            Ordering::Less => 2,
            Ordering::Equal => 1,
            Ordering::Greater => 0,
        })
    }

    /// Whether every seat failed: then the game counts for no one (two players: 0-0).
    pub fn all_failed(&self) -> bool {
        self.seats.iter().all(|s| s.failed)
    }

    /// Every pair of seats `p < q` that tells something, with `p`'s half points against `q`.
    pub fn comparisons(&self) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
        let k = self.seats.len();
        (0..k).flat_map(move |p| {
            (p + 1..k).filter_map(move |q| self.half_points(p, q).map(|hp| (p, q, hp)))
        })
    }

    /// The game as a game per pair of seats that tells something (who finished ahead, a tie
    /// as a draw): a two-player game as itself, the `GameScore` of the type's documentation.
    pub fn pair_scores(&self) -> impl Iterator<Item = GameScore> + '_ {
        self.comparisons().map(|(p, q, hp)| GameScore {
            a: self.seats[p].bot,
            b: self.seats[q].bot,
            score_a: hp as f64 / 2.0,
            round: self.round,
        })
    }

    /// The seats in the order of the ranking: by place, within a place by bot (then by seat).
    pub(super) fn ranking_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.seats.len()).collect();
        order.sort_by_key(|&s| (self.seats[s].place, self.seats[s].bot, s));
        order
    }

    /// Checks the game against the contract: at most [`MAX_SEATS`] seats, every bot `< n`.
    pub(super) fn check(&self, n: usize) {
        assert!(
            self.seats.len() <= MAX_SEATS,
            "ratings: a game of {} players (at most {MAX_SEATS})",
            self.seats.len()
        );
        if let Some(s) = self.seats.iter().find(|s| s.bot >= n) {
            panic!("ratings: player index out of range ({} >= {n})", s.bot);
        }
    }
}

/// Every game as a game per pair of its seats ([`RankedGame::pair_scores`]): what Glicko-2 rates,
/// and what a crosstable counts.
///
/// # Panics
/// On a game that breaks the input contract (a bot `>= n`, more than 8 seats).
pub fn pair_scores(n: usize, games: &[RankedGame]) -> Vec<GameScore> {
    games
        .iter()
        .flat_map(|g| {
            g.check(n);
            g.pair_scores()
        })
        .collect()
}
