//! Round-robin and gauntlet schedules: who plays whom, in which seat, in which round; for games
//! of more than two players, [`groups`] and [`gauntlet_groups`].

mod groups;

pub use groups::{MAX_GROUPS, check_gauntlet, check_groups, gauntlet_groups, groups};

use super::Planned;
use crate::seeds::pair_of_game;

/// Every pair of `n` bots plays `games_per_pairing` games, seats alternating, game `k` of each on
/// opening pair `k / 2` ([`pair_of_game`]). Rounds come from
/// the circle method, so each bot plays at most once per round and the standings mean
/// something at any point while the schedule runs.
pub fn round_robin(n: usize, games_per_pairing: u32) -> Vec<Planned> {
    // With an odd count, a phantom bot gives a bye each round.
    let m = n + n % 2;
    let mut ring: Vec<usize> = (0..m).collect();
    let mut rounds: Vec<Vec<(usize, usize)>> = Vec::new();
    for r in 0..m.saturating_sub(1) {
        let mut pairs = Vec::new();
        for i in 0..m / 2 {
            let (a, b) = (ring[i], ring[m - 1 - i]);
            if a < n && b < n {
                // Berger tables: the fixed bot changes seat every round and the others keep
                // theirs; with the rotation, every bot's seats balance to within one.
                pairs.push(if i == 0 && r % 2 == 1 { (b, a) } else { (a, b) });
            }
        }
        rounds.push(pairs);
        // Keep the first bot fixed, rotate the others.
        ring[1..].rotate_right(1);
    }
    let mut plan = Vec::new();
    for k in 0..games_per_pairing {
        for pairs in &rounds {
            let round = plan_round(&plan);
            for &(a, b) in pairs {
                let seats = super::seats_of_game(u64::from(k), [a, b]).to_vec();
                let pair = pair_of_game(k);
                plan.push(Planned { round, seats, pair });
            }
        }
    }
    plan
}

fn plan_round(plan: &[Planned]) -> u32 {
    plan.last().map_or(1, |p| p.round + 1)
}

/// Each reference bot (`seeds`) plays every other bot `games_per_pairing` times, seats
/// alternating, game `k` on opening pair `k / 2`; one round per reference bot and game.
pub fn gauntlet(seeds: &[usize], others: &[usize], games_per_pairing: u32) -> Vec<Planned> {
    let mut plan = Vec::new();
    for k in 0..games_per_pairing {
        for &s in seeds {
            let round = plan_round(&plan);
            for &o in others {
                let seats = super::seats_of_game(u64::from(k), [o, s]).to_vec();
                let pair = pair_of_game(k);
                plan.push(Planned { round, seats, pair });
            }
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn every_pair_meets_with_seats_alternating_and_once_per_round() {
        for n in 2..10 {
            let plan = round_robin(n, 2);
            assert_eq!(plan.len(), n * (n - 1));
            let mut meetings: BTreeMap<(usize, usize), Vec<Vec<usize>>> = BTreeMap::new();
            let mut per_round: BTreeMap<(u32, usize), u32> = BTreeMap::new();
            for p in &plan {
                let key = (p.seats[0].min(p.seats[1]), p.seats[0].max(p.seats[1]));
                meetings.entry(key).or_default().push(p.seats.clone());
                for &s in &p.seats {
                    *per_round.entry((p.round, s)).or_default() += 1;
                }
            }
            assert_eq!(meetings.len(), n * (n - 1) / 2);
            for seats in meetings.values() {
                assert_eq!(seats.len(), 2);
                assert_eq!(seats[0], [seats[1][1], seats[1][0]], "seats alternate");
            }
            assert!(
                per_round.values().all(|&c| c == 1),
                "n={n}: a bot twice in a round"
            );
            // Rounds are numbered without gaps.
            let last = plan.last().unwrap().round;
            assert_eq!(last as usize, 2 * (n - 1 + n % 2));
        }
    }

    #[test]
    fn seats_are_balanced_in_a_single_round_robin() {
        for n in 2..14 {
            let plan = round_robin(n, 1);
            for bot in 0..n {
                let first = plan.iter().filter(|p| p.seats[0] == bot).count() as i32;
                let second = plan.iter().filter(|p| p.seats[1] == bot).count() as i32;
                assert!(
                    (first - second).abs() <= 1,
                    "n={n} bot {bot}: {first} vs {second}"
                );
            }
        }
    }

    /// Game `k` of every pairing plays opening pair `k / 2`: the two games of a pair with
    /// seats swapped, and every pairing the same pairs in the same order.
    #[test]
    fn games_of_a_pairing_play_each_opening_twice_seats_swapped_and_all_pairings_alike() {
        let check = |plan: Vec<Planned>, games: u32| {
            let mut by_pairing: BTreeMap<(usize, usize), Vec<Planned>> = BTreeMap::new();
            for p in plan {
                let key = (p.seats[0].min(p.seats[1]), p.seats[0].max(p.seats[1]));
                by_pairing.entry(key).or_default().push(p);
            }
            for games_of in by_pairing.values() {
                let pairs: Vec<u64> = games_of.iter().map(|p| p.pair).collect();
                let expected: Vec<u64> = (0..games).map(|k| u64::from(k / 2)).collect();
                assert_eq!(pairs, expected);
                for two in games_of.chunks(2).filter(|c| c.len() == 2) {
                    assert_eq!(two[0].seats, [two[1].seats[1], two[1].seats[0]]);
                }
            }
        };
        for games in 1..6 {
            check(round_robin(5, games), games);
            check(gauntlet(&[0, 3], &[1, 2, 4], games), games);
        }
    }

    #[test]
    fn a_gauntlet_pits_references_against_everyone_else() {
        let plan = gauntlet(&[0], &[1, 2, 3], 2);
        assert_eq!(plan.len(), 6);
        assert!(plan.iter().all(|p| p.seats.contains(&0)));
        assert_eq!(plan[0].seats, [1, 0]);
        assert_eq!(plan[3].seats, [0, 1]);
        assert_eq!(plan.iter().map(|p| p.round).max(), Some(2));
    }
}
