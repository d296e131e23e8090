//! Every seed arena derives, in one place: a run's or a series' seed gives each game its own,
//! and each game's gives its dice, its built-in bots and its openings. Changing any of these
//! changes which game a seed plays: old records replay only as long as they stay the same
//! (tests in each caller's module, and tests/it/compat.rs).

/// Mix a seed with a stream number so that related generators (the dice, each seat's built-in bot,
/// each game of a match) are independent yet reproducible. SplitMix64's finaliser.
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of a game a referee program plays: the games of opening pair `pair` between the
/// bots `seats` (in any order) share it, so that every seating is played on one map, as
/// cg-brutaltester's `-s` plays them; every pair of every pairing (or group) has a map of its
/// own. Games arena plays itself keep a seed each (`derive_seed(seed, id)`).
pub fn pair_seed(seed: u64, pair: u64, seats: &[usize]) -> u64 {
    let first = derive_seed(seed, pair);
    if let [a, b] = seats {
        let (a, b) = (*a as u64, *b as u64);
        return derive_seed(first, (a.min(b) << 32) | a.max(b));
    }
    let mut bots = seats.to_vec();
    bots.sort_unstable();
    bots.iter().fold(first, |x, &b| derive_seed(x, b as u64))
}

/// The opening pair of game `k` (from 0) of a pairing: games 0 and 1 play pair 0, seats swapped,
/// games 2 and 3 pair 1, and so on. Every pairing of a round-robin or gauntlet meets the same
/// openings in the same order, so that the bots' results are comparable: none drew easier
/// positions than another.
pub fn pair_of_game(k: u32) -> u64 {
    u64::from(k / 2)
}

/// The seed of game `id` of a tournament (`arena run`), of opening pair `pair` between the bots
/// `seats`: a referee program's games share their pair's, every other game has its own.
pub fn of_planned(seed: u64, id: u64, pair: u64, seats: &[usize], referee: bool) -> u64 {
    match referee {
        // Both seatings of a pair on one map, as cg-brutaltester's `-s` plays them.
        true => pair_seed(seed, pair, seats),
        false => derive_seed(seed, id),
    }
}

/// The seed of game `i` (from 0) of a series of `bots` bots (`arena duel`, `match`), whose
/// games rotate the seats: a referee program's rotation shares one map.
pub fn of_series(seed: u64, i: usize, bots: usize, referee: bool) -> u64 {
    match (referee, bots) {
        (true, 2) => pair_seed(seed, pair_of_game(i as u32), &[0, 1]),
        (true, n) => derive_seed(derive_seed(seed, (i / n) as u64), n as u64),
        (false, _) => derive_seed(seed, i as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_never_change() {
        // Records made by every arena so far replay with these: a change here is a change of
        // which game a seed plays.
        assert_eq!(derive_seed(0, 0), PINNED[0]);
        assert_eq!(derive_seed(42, 7), PINNED[1]);
        assert_eq!(pair_seed(42, 3, &[1, 0]), PINNED[2]);
        assert_eq!(pair_seed(42, 3, &[2, 0, 1]), PINNED[3]);
    }

    const PINNED: [u64; 4] = [
        16_294_208_416_658_607_535,
        12_985_122_760_672_971_203,
        7_233_012_233_596_173_000,
        7_844_744_442_936_695_643,
    ];

    #[test]
    fn a_rotation_of_a_referee_program_shares_its_map_and_nothing_else_does() {
        for bots in [2, 3, 4] {
            let firsts: Vec<u64> = (0..bots).map(|i| of_series(9, i, bots, true)).collect();
            assert!(firsts.iter().all(|&s| s == firsts[0]), "{bots}: {firsts:?}");
            assert_ne!(of_series(9, bots, bots, true), firsts[0]);
            let own: std::collections::BTreeSet<u64> =
                (0..bots).map(|i| of_series(9, i, bots, false)).collect();
            assert_eq!(own.len(), bots);
        }
        assert_eq!(
            of_planned(9, 1, 4, &[0, 1], true),
            of_planned(9, 2, 4, &[1, 0], true)
        );
        assert_ne!(
            of_planned(9, 1, 4, &[0, 1], false),
            of_planned(9, 2, 4, &[1, 0], false)
        );
        assert_eq!(of_planned(9, 5, 0, &[0, 1], false), derive_seed(9, 5));
    }
}
