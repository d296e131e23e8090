//! Round-robin and gauntlet schedules for games of `k` players (3 to 8; two-player games keep
//! [`round_robin`](super::round_robin) and [`gauntlet`](super::gauntlet)).
//!
//! Every group of bots plays `games_per_group` games, game `j` on map or opening pair `j / k`.
//! Game `j` of a group seats its bots (in ascending order, a gauntlet's other bot first) by
//! [`rotation`]`(j, k)`: each whole cycle of `k` games sits every bot of the group in every seat
//! once, on one map. When `k` does not divide `games_per_group`, the games of the last, partial
//! cycle (all groups' together) are seated by `seating::seat_level`, so that every bot sits in
//! every seat equally often over the schedule, within one; a bot may then take one seat twice
//! within one group's partial cycle.
//!
//! Rounds: every group of a round is disjoint from the others, so that no bot plays twice in a
//! round and the standings mean something while the schedule runs; the groups are packed into
//! rounds greedily, those whose bots have the most groups left first (not always the fewest
//! rounds possible). The rounds are played in order, then again for each further game, as the
//! two-player round-robin does.

use super::super::seating::seat_level;
use super::super::{Planned, check_field, rotation};

/// The most groups a round-robin or gauntlet of games of more than two players plays: past it a
/// field is too large to play every group (40 bots in games of 4 make 91,390), and the balanced
/// format, `format = "pods"`, is the one to use.
pub const MAX_GROUPS: u64 = 10_000;

/// Every group of `k` of the `n` bots plays `games_per_group` games (see the module
/// documentation). Refused past [`MAX_GROUPS`] groups, naming the balanced format.
pub fn groups(n: usize, k: usize, games_per_group: u32) -> Result<Vec<Planned>, String> {
    check_groups(n, k)?;
    let bots: Vec<usize> = (0..n).collect();
    let rounds = pack_rounds(n, subsets(&bots, k));
    Ok(play(n, k, &rounds, games_per_group))
}

/// What [`groups`] refuses, without planning anything: for a spec's check.
pub fn check_groups(n: usize, k: usize) -> Result<(), String> {
    check_field("a round-robin", n, k, usize::MAX)?;
    match binomial(n, k) {
        Some(count) if count <= MAX_GROUPS => {}
        count => {
            let count = count.map_or_else(|| "far more".to_string(), |c| c.to_string());
            return Err(format!(
                "a round-robin of {n} bots in games of {k} players has {count} groups of bots to \
                 play, more than {MAX_GROUPS}: use format = \"pods\", where every bot plays \
                 games_per_bot games and pairs of bots and seats are balanced"
            ));
        }
    }
    Ok(())
}

/// Each of `others` plays `games_per_group` games with each group of `k - 1` of the `seeds`
/// (reference bots): one round per group of seeds, every other bot with it. Refused with fewer
/// than `k - 1` seeds, and past [`MAX_GROUPS`] groups.
pub fn gauntlet_groups(
    seeds: &[usize],
    others: &[usize],
    k: usize,
    games_per_group: u32,
) -> Result<Vec<Planned>, String> {
    check_gauntlet(seeds.len(), others.len(), k)?;
    let rounds: Vec<Vec<Vec<usize>>> = subsets(seeds, k - 1)
        .into_iter()
        .map(|refs| {
            let with = |&o: &usize| std::iter::once(o).chain(refs.iter().copied()).collect();
            others.iter().map(with).collect()
        })
        .collect();
    let n = seeds.iter().chain(others).max().map_or(0, |&b| b + 1);
    Ok(play(n, k, &rounds, games_per_group))
}

/// What [`gauntlet_groups`] refuses, from the counts of seeds and other bots alone.
pub fn check_gauntlet(seeds: usize, others: usize, k: usize) -> Result<(), String> {
    check_field("a gauntlet", k, k, usize::MAX)?;
    if seeds < k - 1 {
        return Err(format!(
            "a gauntlet of games of {k} players seats each bot with {} seeds (reference bots); \
             this one has {seeds}",
            k - 1,
        ));
    }
    let count = binomial(seeds, k - 1).and_then(|c| c.checked_mul(others as u64));
    if count.is_none_or(|c| c > MAX_GROUPS) {
        let count = count.map_or_else(|| "far more".to_string(), |c| c.to_string());
        return Err(format!(
            "a gauntlet of {} bots against every group of {} of its {} seeds has {count} groups \
             of bots to play, more than {MAX_GROUPS}: name fewer seeds",
            others,
            k - 1,
            seeds
        ));
    }
    Ok(())
}

/// `n` choose `k`, if it fits in a `u64`.
fn binomial(n: usize, k: usize) -> Option<u64> {
    let mut c: u128 = 1;
    for i in 0..k as u128 {
        // Exact at every step: c is (n choose i) before, (n choose i + 1) after.
        c = c.checked_mul(n as u128 - i)? / (i + 1);
    }
    u64::try_from(c).ok()
}

/// Every group of `k` of `bots`, in lexicographic order of positions.
fn subsets(bots: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut at: Vec<usize> = (0..k).collect();
    if k > bots.len() {
        return out;
    }
    loop {
        out.push(at.iter().map(|&i| bots[i]).collect());
        // The last position that can still move right, moved, and those after it reset.
        let Some(i) = (0..k).rev().find(|&i| at[i] < bots.len() - k + i) else {
            return out;
        };
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
}

/// The groups packed into rounds of disjoint groups: each round takes, greedily, the groups whose
/// bots have the most groups left, so that no bot is left with a long tail of rounds to itself.
fn pack_rounds(n: usize, groups: Vec<Vec<usize>>) -> Vec<Vec<Vec<usize>>> {
    let mut left_of = vec![0u32; n];
    for g in &groups {
        for &b in g {
            left_of[b] += 1;
        }
    }
    let mut left = groups;
    let mut rounds = Vec::new();
    let mut busy = vec![false; n];
    while !left.is_empty() {
        left.sort_by_cached_key(|g| std::cmp::Reverse(g.iter().map(|&b| left_of[b]).sum::<u32>()));
        busy.fill(false);
        let (round, rest): (Vec<_>, Vec<_>) = left.into_iter().partition(|g| {
            let free = g.iter().all(|&b| !busy[b]);
            if free {
                g.iter().for_each(|&b| busy[b] = true);
            }
            free
        });
        for &b in round.iter().flatten() {
            left_of[b] -= 1;
        }
        rounds.push(round);
        left = rest;
    }
    rounds
}

/// `group`'s bots in the seats of rotation `j`.
fn rotated(group: &[usize], j: u64) -> Vec<usize> {
    rotation(j, group.len())
        .into_iter()
        .map(|i| group[i])
        .collect()
}

/// The plan: every round in turn for game 0 of each group, then again for game 1, and so on.
fn play(n: usize, k: usize, rounds: &[Vec<Vec<usize>>], games: u32) -> Vec<Planned> {
    let whole = u64::from(games) / k as u64 * k as u64;
    // The partial cycle's games, in schedule order, seated level.
    let mut partial: Vec<Vec<usize>> = (whole..u64::from(games))
        .flat_map(|_| rounds.iter().flatten().cloned())
        .collect();
    seat_level(&mut partial, n, k);
    let mut partial = partial.into_iter();
    let mut plan = Vec::new();
    let mut round = 0;
    for j in 0..u64::from(games) {
        for groups in rounds {
            round += 1;
            for group in groups {
                let seats = if j < whole {
                    rotated(group, j)
                } else {
                    partial
                        .next()
                        .expect("a seating per game of the partial cycle")
                };
                let pair = j / k as u64;
                plan.push(Planned { round, seats, pair });
            }
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::balance::Balance;
    use std::collections::{BTreeMap, BTreeSet};

    /// The fewest rounds any schedule can have: a bot plays one group a round, and a round holds
    /// at most `n / k` groups.
    fn fewest_rounds(n: usize, k: usize) -> u64 {
        let per_bot = binomial(n - 1, k - 1).unwrap();
        let per_round = (n / k) as u64;
        per_bot.max(binomial(n, k).unwrap().div_ceil(per_round))
    }

    #[test]
    fn every_group_plays_its_games_rotated_once_a_round() {
        let mut report = Vec::new();
        for k in 3..=5 {
            for n in k..=k + 9 {
                for games in [1, 2, k as u32, 2 * k as u32 + 1] {
                    let plan = groups(n, k, games).unwrap();
                    let count = binomial(n, k).unwrap() as usize;
                    assert_eq!(plan.len(), count * games as usize, "n={n} k={k}");
                    // Each group: its games, rotations of one another, a map per cycle of k.
                    let mut by_group: BTreeMap<Vec<usize>, Vec<&Planned>> = BTreeMap::new();
                    for p in &plan {
                        let mut g = p.seats.clone();
                        g.sort();
                        by_group.entry(g).or_default().push(p);
                    }
                    assert_eq!(by_group.len(), count);
                    let whole = games as usize / k * k;
                    for (group, games_of) in &by_group {
                        assert_eq!(games_of.len(), games as usize);
                        for (j, p) in games_of.iter().enumerate().take(whole) {
                            assert_eq!(p.seats, rotated(group, j as u64));
                        }
                        for (j, p) in games_of.iter().enumerate() {
                            assert_eq!(p.pair, j as u64 / k as u64);
                        }
                    }
                    // No bot twice in a round; rounds numbered without gaps.
                    let mut seen = BTreeSet::new();
                    for p in &plan {
                        for &b in &p.seats {
                            assert!(seen.insert((p.round, b)), "n={n} k={k}: bot {b} twice");
                        }
                    }
                    let rounds = plan.last().unwrap().round as u64;
                    let rounds_set: BTreeSet<u32> = plan.iter().map(|p| p.round).collect();
                    assert_eq!(rounds_set.len() as u64, rounds);
                    let per_sweep = rounds / u64::from(games);
                    report.push((n, k, per_sweep, fewest_rounds(n, k)));
                    // Seats: exact over whole cycles, within one otherwise.
                    let b = Balance::of(&plan, n, k);
                    assert_eq!(b.games_per_bot.0, b.games_per_bot.1);
                    let spread = u32::from(games % k as u32 != 0);
                    assert!(b.seat_spread() <= spread, "n={n} k={k} games={games}: {b}");
                }
            }
        }
        // Rounds: at most half as many again as the fewest possible (measured: the fewest for
        // most fields, 41% more for 12 bots in games of 4 and 43% for 9 in games of 3, where
        // the fewest need every round full).
        for &(n, k, rounds, fewest) in &report {
            assert!(
                rounds * 2 <= fewest * 3,
                "n={n} k={k}: {rounds} rounds, {fewest} at least"
            );
        }
    }

    #[test]
    fn a_gauntlet_seats_each_other_bot_with_every_group_of_seeds() {
        for k in 3..=5 {
            for games in [1, 2, k as u32] {
                let seeds = [0, 3, 5, 6];
                let others = [1, 2, 4, 7, 8];
                let plan = gauntlet_groups(&seeds, &others, k, games).unwrap();
                let subsets = binomial(seeds.len(), k - 1).unwrap() as usize;
                assert_eq!(plan.len(), others.len() * subsets * games as usize);
                for p in &plan {
                    let (mine, refs): (Vec<usize>, Vec<usize>) =
                        p.seats.iter().partition(|b| others.contains(b));
                    assert_eq!((mine.len(), refs.len()), (1, k - 1), "{p:?}");
                }
                // One round per group of seeds and game: every other bot plays once in it.
                assert_eq!(
                    plan.last().unwrap().round as usize,
                    subsets * games as usize
                );
                for r in 1..=plan.last().unwrap().round {
                    let mut mine: Vec<usize> = plan
                        .iter()
                        .filter(|p| p.round == r)
                        .flat_map(|p| p.seats.iter().copied().filter(|b| others.contains(b)))
                        .collect();
                    mine.sort();
                    assert_eq!(mine, others);
                }
                // The other bots' seats are level, within one when k does not divide the games.
                let b = Balance::of(&plan, 9, k);
                for &o in &others {
                    let (lo, hi) = b.seats_per_bot[o];
                    let exact = (subsets * games as usize).is_multiple_of(k);
                    assert!(
                        hi - lo <= u32::from(!exact),
                        "k={k} games={games} bot {o}: {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn too_many_groups_or_too_few_seeds_are_refused_in_words() {
        assert_eq!(binomial(40, 4), Some(91_390));
        let e = groups(40, 4, 4).unwrap_err();
        assert_eq!(
            e,
            "a round-robin of 40 bots in games of 4 players has 91390 groups of bots to play, \
             more than 10000: use format = \"pods\", where every bot plays games_per_bot games \
             and pairs of bots and seats are balanced"
        );
        assert!(groups(2_000, 8, 1).unwrap_err().contains("more than 10000"));
        assert!(
            groups(usize::MAX, 8, 1)
                .unwrap_err()
                .contains("far more groups")
        );
        // The bound itself is accepted: 10,000 groups or fewer.
        assert!(binomial(22, 4).unwrap() <= MAX_GROUPS);
        assert!(groups(22, 4, 1).is_ok());
        assert_eq!(
            groups(3, 4, 1).unwrap_err(),
            "a round-robin of games of 4 players needs at least 4 bots; this one has 3"
        );
        assert_eq!(
            groups(10, 9, 1).unwrap_err(),
            "games of 9 players: a game seats 2 to 8"
        );
        assert_eq!(
            gauntlet_groups(&[0, 1], &[2, 3], 4, 2).unwrap_err(),
            "a gauntlet of games of 4 players seats each bot with 3 seeds (reference bots); \
             this one has 2"
        );
        let seeds: Vec<usize> = (0..30).collect();
        let others: Vec<usize> = (30..40).collect();
        assert_eq!(
            gauntlet_groups(&seeds, &others, 4, 1).unwrap_err(),
            "a gauntlet of 10 bots against every group of 3 of its 30 seeds has 40600 groups of \
             bots to play, more than 10000: name fewer seeds"
        );
        assert_eq!(groups(5, 3, 0).unwrap(), []);
    }

    #[test]
    fn subsets_are_every_group_once_in_order() {
        assert_eq!(
            subsets(&[4, 7, 9, 11], 3),
            [[4, 7, 9], [4, 7, 11], [4, 9, 11], [7, 9, 11]]
        );
        assert_eq!(subsets(&[1, 2], 3), Vec::<Vec<usize>>::new());
        for n in 3..12 {
            assert_eq!(
                subsets(&(0..n).collect::<Vec<_>>(), 3).len() as u64,
                binomial(n, 3).unwrap()
            );
        }
    }
}
