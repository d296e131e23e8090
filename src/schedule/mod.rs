//! Schedules: who plays whom, in which seat, in which round. The algorithms; what each
//! tournament format is, and which of them it uses, is `format`.

pub mod balance;
mod meetings;
pub mod pods;
pub mod round_robin;
mod seating;
pub mod swiss;

pub use balance::Balance;

/// Refuses a field that `format` ("a swiss", ...) cannot schedule in games of `k` players: `k`
/// out of 2 to 8, fewer bots than `k`, or more than `max`.
pub(crate) fn check_field(format: &str, n: usize, k: usize, max: usize) -> Result<(), String> {
    use crate::games::MAX_SEATS;
    if !(2..=MAX_SEATS).contains(&k) {
        return Err(format!(
            "games of {k} players: a game seats 2 to {MAX_SEATS}"
        ));
    }
    if n < k {
        return Err(format!(
            "{format} of games of {k} players needs at least {k} bots; this one has {n}"
        ));
    }
    if n > max {
        return Err(format!(
            "{format} takes at most {max} bots; this one has {n}"
        ));
    }
    Ok(())
}

/// A game the schedule calls for: indices into the tournament's bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub round: u32,
    /// The bot in each seat, seat 0 first.
    pub seats: Vec<usize>,
    /// The opening pair it starts from (`openings::Book::opening`): the two games of a pair
    /// start from the same position, seats swapped.
    pub pair: u64,
}

/// The seats of game `k` (from 0) of a pairing whose first game puts `first` in seat 0 and
/// `second` in seat 1: the seats swap after every game, so that a pair of games gives each bot
/// each seat once.
pub fn seats_of_game<T>(k: u64, [first, second]: [T; 2]) -> [T; 2] {
    if k.is_multiple_of(2) {
        [first, second]
    } else {
        [second, first]
    }
}

/// Which of `n` bots sits in each seat of game `k` (from 0): bot `(seat + k) mod n`, so that
/// the seats rotate and every `n` games sit each bot in each seat once. For two bots, the
/// seats swap after every game (`seats_of_game`).
pub fn rotation(k: u64, n: usize) -> Vec<usize> {
    (0..n)
        .map(|seat| (seat + (k % n as u64) as usize) % n)
        .collect()
}

/// The opening pair of game `k` of a pairing (or pod of `players`) in Swiss round `round` (from
/// 1): each round has its own openings, the same on every board, and a mini-match of
/// `games_per_pairing` games plays them a rotation of the seats each (two games for two
/// players, as above; a single game per pairing plays its round's opening alone).
pub fn swiss_pair(round: u32, games_per_pairing: u32, players: usize, k: u32) -> u64 {
    let players = players as u32;
    let per_round = u64::from(games_per_pairing.div_ceil(players));
    u64::from(round - 1) * per_round + u64::from(k / players)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeds::{pair_of_game, pair_seed};

    #[test]
    fn a_rotation_sits_each_bot_in_each_seat_once() {
        for n in 2..=8 {
            let mut seen = vec![vec![0; n]; n];
            for k in 0..n as u64 {
                let seats = rotation(k, n);
                let mut sorted = seats.clone();
                sorted.sort();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "a bot per seat");
                for (seat, &bot) in seats.iter().enumerate() {
                    seen[bot][seat] += 1;
                }
            }
            assert!(seen.iter().flatten().all(|&c| c == 1), "{n}: {seen:?}");
        }
        for k in 0..6 {
            assert_eq!(rotation(k, 2), seats_of_game(k, [0, 1]));
        }
    }

    #[test]
    fn swiss_rounds_have_their_own_pairs_and_mini_matches_play_them_twice() {
        // One game per pairing: one opening per round.
        let single: Vec<u64> = (1..=4).map(|r| swiss_pair(r, 1, 2, 0)).collect();
        assert_eq!(single, [0, 1, 2, 3]);
        // Four games per pairing: two pairs per round, each played by two games.
        let mini: Vec<Vec<u64>> = (1..=3)
            .map(|r| (0..4).map(|k| swiss_pair(r, 4, 2, k)).collect())
            .collect();
        assert_eq!(mini, [[0, 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5]]);
        assert_eq!(swiss_pair(1000, 10_000, 2, 9_999), 999 * 5_000 + 4_999);
    }

    #[test]
    fn a_pair_of_games_shares_its_seed_and_no_other_does() {
        let of = |k: u32, bots: [usize; 2]| {
            pair_seed(7, pair_of_game(k), &seats_of_game(u64::from(k), bots))
        };
        assert_eq!(of(0, [0, 1]), of(1, [0, 1]));
        assert_eq!(of(2, [2, 5]), of(3, [2, 5]));
        let mut all: Vec<u64> = (0..6)
            .flat_map(|k| [of(k, [0, 1]), of(k, [0, 2]), of(k, [1, 2])])
            .collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 9);
    }
}
