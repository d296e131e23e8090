//! The balanced format for games of more than two players, `format = "pods"`: for fields too
//! large to play every group of bots, every bot plays the same number of games, in pods drawn
//! from the seed so that every pair of bots meets about equally often and every bot sits in
//! every seat about equally often.
//!
//! # Method
//!
//! A pair of bots that played together `m` times costs `m³`; the schedule keeps the sum over
//! all pairs low, which levels the meetings and weighs on the pairs that meet most.
//!
//! 1. **Rounds, drawn** ([`draw`]). A round seats as many bots as fit in whole pods
//!    (`n - n mod k`); the others have a bye. The bots with the most games still to play are
//!    seated, ties drawn at random: the games left then never differ by more than one between
//!    bots, so every bot plays exactly `games_per_bot` and the byes go round. The round's bots are
//!    shuffled; each pod starts from the next of them and takes, one at a time, the bot that adds
//!    the least to the cost so far (weighed over every bot left in the round up to
//!    [`CANDIDATES`] of them, over that many drawn at random beyond, where unmet bots abound).
//!    The greedy's last pods take what is left, so then each bot of a pod that costs anything is
//!    offered its best swap, with a bot of another pod or one with a bye and as many games left,
//!    while a swap lowers the cost.
//! 2. **Meetings, levelled** ([`settle`]). Drawn round by round, the schedule cannot see what
//!    later rounds will need. With all the rounds drawn, the mean meetings of a pair,
//!    `λ = g (k - 1) / (n - 1)`, tell the target: every pair should meet `⌊λ⌋` or `⌈λ⌉` times. A bot of a
//!    pair that meets more is offered its best swap with any bot of another pod of the same
//!    round; a pair that meets less is brought together where a swap within a round does it;
//!    each swap lowers the cost, and passes repeat while one is made (a few at most). Swaps
//!    within a round keep every bot's games and byes.
//! 3. **Seats** (`seating::seat_level`), exactly level: every bot sits `games_per_bot / k` times
//!    in each seat, within one when `k` does not divide it.
//!
//! The greedy and the swaps find good schedules, not perfect ones: on small fields where a
//! perfectly level design exists (7 bots in pods of 4, each meeting each other twice, say) they
//! may miss it by a meeting. The balance achieved is returned, for the run to print.
//!
//! `n · games_per_bot` must be a multiple of `k`, or a game would lack players: it is refused
//! with the nearest values that work, rather than letting some bots play a game more.

mod draw;
mod settle;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Planned;
use super::balance::Balance;
use super::seating::seat_level;

/// The most bots a pods schedule takes: the meetings of every pair are held in a matrix (8 MB at
/// this bound), and a Swiss takes as many.
pub const MAX_BOTS: usize = 2_000;
/// The most games a pods schedule plans, as one cycle of any schedule (`spec::bounds`).
pub const MAX_GAMES: u64 = 1_000_000;
/// Bots weighed for each place of a pod: all those left in the round up to this many, else
/// this many drawn at random.
pub const CANDIDATES: usize = 48;

/// Small schedules are drawn several times and the most level kept: as many times as fit in
/// this many seats, up to [`MAX_ATTEMPTS`].
const ATTEMPT_SEATS: usize = 4_000;
const MAX_ATTEMPTS: usize = 8;

/// What a pair that played together `m` times costs: the sum over pairs is what the schedule
/// keeps low.
fn pair_cost(m: u16) -> i64 {
    i64::from(m).pow(3)
}

/// What one more game together adds to a pair that played `m`.
fn meet_cost(m: u16) -> i64 {
    pair_cost(m.saturating_add(1)) - pair_cost(m)
}

/// The games of `n` bots in pods of `k`, each bot playing `games_per_bot`, drawn from `seed`;
/// with the balance they achieve. Rounds from 1, each a partition of the bots who play it; the
/// games of round `r` play opening pair `r - 1`, the same on every board of the round.
pub fn schedule(
    n: usize,
    k: usize,
    games_per_bot: u32,
    seed: u64,
) -> Result<(Vec<Planned>, Balance), String> {
    check(n, k, games_per_bot)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let target = settle::Target::new(n, k, games_per_bot);
    let seats = n * games_per_bot as usize;
    let attempts = (ATTEMPT_SEATS / seats).clamp(1, MAX_ATTEMPTS);
    // The rounds of the most level attempt, by (spread, most meetings, cost).
    type Attempt = (Vec<Vec<Vec<usize>>>, (u16, u16, i64));
    let mut best: Option<Attempt> = None;
    for _ in 0..attempts {
        let (mut rounds, mut meetings) = draw::rounds(n, k, games_per_bot, &mut rng);
        settle::settle(&mut rounds, &mut meetings, target);
        let (lo, hi) = meetings.range();
        let score = (hi - lo, hi, meetings.total(pair_cost));
        if best.as_ref().is_none_or(|b| score < b.1) {
            best = Some((rounds, score));
        }
    }
    let rounds = best.expect("one attempt at least").0;
    let mut games: Vec<Vec<usize>> = rounds.iter().flatten().cloned().collect();
    seat_level(&mut games, n, k);
    let mut plan = Vec::with_capacity(games.len());
    let mut seated = games.into_iter();
    for (r, pods) in rounds.iter().enumerate() {
        let round = r as u32 + 1;
        for seats in seated.by_ref().take(pods.len()) {
            let pair = u64::from(round - 1);
            plan.push(Planned { round, seats, pair });
        }
    }
    let balance = Balance::of(&plan, n, k);
    Ok((plan, balance))
}

/// Refuses what cannot be scheduled, in words that name the spec's keys: what [`schedule`]
/// refuses, without planning anything.
pub fn check(n: usize, k: usize, games_per_bot: u32) -> Result<(), String> {
    super::check_field("a pods tournament", n, k, MAX_BOTS)?;
    if games_per_bot == 0 {
        return Err("games_per_bot must be at least 1".into());
    }
    let seats = n as u64 * u64::from(games_per_bot);
    if !seats.is_multiple_of(k as u64) {
        // games_per_bot must be a multiple of k / gcd(n, k).
        let step = (k / gcd(n, k)) as u32;
        let below = games_per_bot / step * step;
        let above = below + step;
        let choices = if below == 0 {
            above.to_string()
        } else {
            format!("{below} or {above}")
        };
        return Err(format!(
            "{n} bots playing {games_per_bot} games each fill {seats} seats, which games of {k} \
             players cannot share out: with {n} bots, games_per_bot must be a multiple of \
             {step} (say {choices})"
        ));
    }
    let games = seats / k as u64;
    if games > MAX_GAMES {
        return Err(format!(
            "{n} bots playing {games_per_bot} games each make {games} games of {k} players, \
             more than {MAX_GAMES}"
        ));
    }
    Ok(())
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The meetings every pair would have in a perfectly level schedule: `⌊λ⌋` to `⌈λ⌉`.
    fn ideal(n: usize, k: usize, g: u32) -> (u32, u32) {
        let (num, den) = (g * (k as u32 - 1), n as u32 - 1);
        (num / den, num.div_ceil(den))
    }

    /// Every bot plays exactly its games, each round a partition, seats level (exactly when k
    /// divides the games), meetings near level: over k = 3 to 5, every field of k to 40 bots,
    /// two game counts and two seeds each.
    #[test]
    fn every_bot_plays_its_games_with_pairs_and_seats_balanced() {
        let (mut level, mut runs, mut worst) = (0, 0, (0, String::new()));
        for k in 3..=5 {
            for n in k..=40 {
                let step = (k / gcd(n, k)) as u32;
                for g in [step * (6 / step).max(1), step * (20 / step)] {
                    for seed in [1, 2] {
                        let (plan, b) = schedule(n, k, g, seed).unwrap();
                        let what = format!("n={n} k={k} g={g} seed={seed}: {b}");
                        assert_eq!(plan.len(), n * g as usize / k, "{what}");
                        assert_eq!(b.games_per_bot, (g, g), "{what}");
                        assert_eq!(b, Balance::of(&plan, n, k));
                        let spread = u32::from(g % k as u32 != 0);
                        assert!(b.seat_spread() <= spread, "{what}");
                        check_rounds(&plan, n, k);
                        let (lo, hi) = ideal(n, k, g);
                        let excess = (b.meetings.1 - b.meetings.0) - (hi - lo);
                        level += usize::from(excess == 0);
                        runs += 1;
                        if excess > worst.0 {
                            worst = (excess, what);
                        }
                    }
                }
            }
        }
        // Measured: 203 of the 444 runs perfectly level (every pair ⌊λ⌋ or ⌈λ⌉ times), the
        // others one meeting wider, two at most (6 bots in games of 3, 6 games each: 1 to 4
        // where 2 to 3 is level). A level design is a rare combinatorial object on small
        // fields, and the swaps do not always find one.
        assert!(level * 10 >= runs * 4, "{level} of {runs} level");
        assert!(worst.0 <= 2, "{worst:?}");
    }

    /// No bot twice in a round; every round but the last seats `n - n mod k` bots; the games of
    /// round `r` play pair `r - 1`.
    fn check_rounds(plan: &[Planned], n: usize, k: usize) {
        let last = plan.last().unwrap().round;
        for r in 1..=last {
            let games: Vec<&Planned> = plan.iter().filter(|p| p.round == r).collect();
            let bots: BTreeSet<usize> = games.iter().flat_map(|p| p.seats.clone()).collect();
            assert_eq!(bots.len(), games.len() * k, "round {r}: a bot twice");
            if r < last {
                assert_eq!(bots.len(), n - n % k, "round {r}");
            }
            assert!(games.iter().all(|p| p.pair == u64::from(r - 1)));
        }
    }

    #[test]
    fn forty_bots_in_pods_of_four_meet_once_or_twice_and_sit_five_times_in_each_seat() {
        for seed in 0..4 {
            let (_, b) = schedule(40, 4, 20, seed).unwrap();
            assert_eq!(b.meetings, (1, 2), "seed {seed}: {b}");
            assert_eq!(b.seat_games(), (5, 5), "seed {seed}: {b}");
            assert_eq!(
                b.to_string(),
                "40 bots, 200 games of 4 players: each bot plays 20 games; two bots meet in 1 to \
                 2 games; each bot sits 5 times in each seat"
            );
        }
    }

    #[test]
    fn the_seed_draws_the_schedule() {
        let (a, _) = schedule(17, 3, 9, 5).unwrap();
        assert_eq!(a, schedule(17, 3, 9, 5).unwrap().0);
        assert_ne!(a, schedule(17, 3, 9, 6).unwrap().0);
    }

    #[test]
    fn what_cannot_be_scheduled_is_refused_in_words() {
        let err = |n, k, g| schedule(n, k, g, 1).unwrap_err();
        assert_eq!(
            err(10, 4, 5),
            "10 bots playing 5 games each fill 50 seats, which games of 4 players cannot share \
             out: with 10 bots, games_per_bot must be a multiple of 2 (say 4 or 6)"
        );
        assert!(err(7, 3, 1).ends_with("games_per_bot must be a multiple of 3 (say 3)"));
        assert_eq!(
            err(3, 4, 4),
            "a pods tournament of games of 4 players needs at least 4 bots; this one has 3"
        );
        assert_eq!(err(8, 4, 0), "games_per_bot must be at least 1");
        assert_eq!(err(8, 9, 9), "games of 9 players: a game seats 2 to 8");
        assert_eq!(
            err(2_001, 3, 3),
            "a pods tournament takes at most 2000 bots; this one has 2001"
        );
        assert_eq!(
            err(2_000, 4, 2_004),
            "2000 bots playing 2004 games each make 1002000 games of 4 players, more than 1000000"
        );
    }
}
