//! Swiss pairing benchmark: how long does pairing one round of a 1,000-bot
//! Swiss take, compared with the least work any pairing must do?
//!
//! Builds a realistic round: 1,000 players with hidden strengths play
//! `ARENA_BENCH_SWISS_ROUNDS` (default 5) simulated rounds, each paired by
//! `arena::schedule::swiss::pair_round` itself (results drawn from the
//! strengths with a fixed seed), so scores, opponents, byes and seats are what
//! a real Swiss would have. Then it times pairing the next round two ways,
//! alternating, and reports the fastest run of each (noise only slows a run down):
//!
//!   (a) baseline: a greedy pairing — sort by score, pair each player with the
//!       nearest unpaired one it has not met, bye to the lowest scorer without
//!       one (no optimality, no seat balance);
//!   (b) swiss:    `pair_round` (minimum-cost perfect matching, blossom).
//!
//! Prints milliseconds for both, the ratio swiss/baseline, and the quality of
//! both pairings (rematches, sum of squared score gaps ×2, players whose seat
//! imbalance reaches 2). Goal: swiss under 1 s. A miss is reported, not failed
//! (benchmarks report, tests assert).
//!
//! Run: `cargo bench --bench swiss` (repetitions: env ARENA_BENCH_REPS,
//! default 7). Without `--bench` on the command line (e.g. under
//! `cargo test --benches`) it does nothing.

mod common;

use std::time::{Duration, Instant};

use common::{Rng, env_count, fail, fastest};

use arena::schedule::swiss::{Pairing, SwissPlayer, pair_round};

const PLAYERS: usize = 1_000;
const GOAL: Duration = Duration::from_secs(1);

fn main() {
    if !common::should_run("swiss") {
        return;
    }
    let reps = common::fastest_reps();
    let rounds = env_count("ARENA_BENCH_SWISS_ROUNDS", 5);

    // Simulate the rounds before the one we time.
    let mut rng = Rng(2026);
    let strength: Vec<f64> = (0..PLAYERS).map(|_| rng.unit() * 4.0 - 2.0).collect();
    let mut players = vec![SwissPlayer::default(); PLAYERS];
    let start = Instant::now();
    for round in 1..=rounds {
        let p = pair_round(&players).unwrap_or_else(|e| fail(&format!("round {round}: {e}")));
        if p.rematches(&players) > 0 {
            fail(&format!("round {round}: unexpected rematches"));
        }
        play(&mut players, &p, &strength, &mut rng);
    }
    let groups = {
        let mut s: Vec<u64> = players.iter().map(|p| (p.score * 2.0) as u64).collect();
        s.sort_unstable();
        s.dedup();
        s.len()
    };
    println!(
        "swiss bench: {PLAYERS} players, pairing round {} after {rounds} simulated round(s) \
         ({:.2} s, {groups} score groups); {reps} rep(s) + 1 warm-up, alternating",
        rounds + 1,
        start.elapsed().as_secs_f64()
    );

    let mut base_times = Vec::with_capacity(reps);
    let mut swiss_times = Vec::with_capacity(reps);
    let mut base_pairing = None;
    let mut swiss_pairing = None;
    for rep in 0..=reps {
        let t = Instant::now();
        let b = greedy(&players);
        let base_t = t.elapsed();
        let t = Instant::now();
        let s = pair_round(&players).unwrap_or_else(|e| fail(&e));
        let swiss_t = t.elapsed();
        if rep > 0 {
            base_times.push(base_t);
            swiss_times.push(swiss_t);
        }
        if swiss_pairing.as_ref().is_some_and(|p| p != &s) {
            fail("pair_round is not deterministic");
        }
        base_pairing = Some(b);
        swiss_pairing = Some(s);
    }
    let base = fastest(&base_times);
    let swiss = fastest(&swiss_times);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "  baseline (greedy): {:>10.3} ms  {}",
        ms(base),
        quality(&players, &base_pairing.expect("ran"))
    );
    println!(
        "  swiss (blossom):   {:>10.3} ms  {}",
        ms(swiss),
        quality(&players, &swiss_pairing.expect("ran"))
    );
    println!(
        "  ratio swiss/baseline: {:.0}x; goal swiss < {} ms: {}",
        swiss.as_secs_f64() / base.as_secs_f64().max(1e-9),
        GOAL.as_millis(),
        if swiss < GOAL { "met" } else { "MISSED" }
    );
}

/// Results from strengths: P(seat 0 wins) logistic in the difference, a
/// tenth of the games drawn; the bye is worth one point.
fn play(players: &mut [SwissPlayer], p: &Pairing, strength: &[f64], rng: &mut Rng) {
    for &(a, b) in &p.games {
        let p_win = 1.0 / (1.0 + (strength[b] - strength[a]).exp());
        let r = rng.unit();
        let (sa, sb) = if r < 0.1 {
            (0.5, 0.5)
        } else if rng.unit() < p_win {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        };
        players[a].score += sa;
        players[b].score += sb;
        players[a].opponents.push(b);
        players[b].opponents.push(a);
        players[a].seat0_games += 1;
        players[b].seat1_games += 1;
    }
    if let Some(b) = p.bye {
        players[b].score += 1.0;
        players[b].had_bye = true;
    }
}

/// The baseline: sort by score (then index), bye to the lowest-scoring
/// player without one, then pair each unpaired player with the next
/// unpaired one it has not met (or the next one at all if none is left).
fn greedy(players: &[SwissPlayer]) -> Pairing {
    let n = players.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .total_cmp(&players[a].score)
            .then(a.cmp(&b))
    });
    let mut bye = None;
    if n % 2 == 1 {
        let pick = order
            .iter()
            .rposition(|&i| !players[i].had_bye)
            .unwrap_or(n - 1);
        bye = Some(order.remove(pick));
    }
    let mut taken = vec![false; n];
    let mut games = Vec::with_capacity(n / 2);
    for k in 0..order.len() {
        let a = order[k];
        if taken[a] {
            continue;
        }
        let mut free = order[k + 1..].iter().copied().filter(|&b| !taken[b]);
        let first = free.clone().next();
        let b = free
            .find(|b| !players[a].opponents.contains(b))
            .or(first)
            .expect("an even count of players left");
        taken[a] = true;
        taken[b] = true;
        games.push((a, b));
    }
    Pairing { games, bye }
}

fn quality(players: &[SwissPlayer], p: &Pairing) -> String {
    let balance = |i: usize| players[i].seat0_games as i64 - players[i].seat1_games as i64;
    let mut gaps = 0.0;
    let mut seat_over = 0;
    for &(a, b) in &p.games {
        let d = 2.0 * (players[a].score - players[b].score);
        gaps += d * d;
        seat_over += usize::from((balance(a) + 1).abs() >= 2);
        seat_over += usize::from((balance(b) - 1).abs() >= 2);
    }
    format!(
        "(rematches {}, sum (2*gap)^2 {gaps}, seat imbalance >= 2: {seat_over})",
        p.rematches(players)
    )
}
