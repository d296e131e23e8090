//! Schedules of 4-player games for 1,000 bots: how long do they take, against the least work
//! any such schedule must do?
//!
//! (1) A pods tournament, `arena::schedule::pods::schedule(1000, 4, 100, seed)`: every bot 100
//!     games, meetings and seats levelled. Baseline: each round a seeded shuffle of the field
//!     cut into pods, seats as they fall (what a schedule without any balancing costs: every
//!     bot the same games, nothing else).
//! (2) A swiss round of 1,000 bots in pods of 4 (`arena::schedule::swiss::pair_pods`) after
//!     `ARENA_BENCH_SWISS_ROUNDS` (default 5) simulated rounds it paired itself, results drawn
//!     from hidden strengths. Baseline: the bots sorted by score, cut into pods.
//!
//! Each pair is timed alternating, `ARENA_BENCH_REPS` (default 7) times after a warm-up, and the
//! fastest run of each is compared (noise only slows a run). Goals (issue 37): each under 1 s.
//! Prints the balance or quality each achieved beside its time. A miss is reported, not failed.
//!
//! Run: `cargo bench --bench pods`.

mod common;

use std::time::{Duration, Instant};

use common::{Rng, env_count, fail, fastest, ms};

use arena::schedule::Planned;
use arena::schedule::balance::Balance;
use arena::schedule::pods;
use arena::schedule::swiss::{PodPlayer, Pods, pair_pods};

const BOTS: usize = 1_000;
const SEATS: usize = 4;
const GAMES_PER_BOT: u32 = 100;
const GOAL: Duration = Duration::from_secs(1);

fn main() {
    if !common::should_run("pods") {
        return;
    }
    let reps = common::fastest_reps();
    println!(
        "pods bench: {BOTS} bots in games of {SEATS}; {reps} rep(s) + 1 warm-up, alternating; \
         load {}",
        common::load()
    );
    schedule(reps);
    swiss(reps);
}

fn schedule(reps: usize) {
    let (mut base_t, mut pods_t) = (Vec::new(), Vec::new());
    let (mut base, mut ours) = (None, None);
    for rep in 0..=reps {
        let t = Instant::now();
        let b = shuffled(BOTS, SEATS, GAMES_PER_BOT, 7);
        let bt = t.elapsed();
        let t = Instant::now();
        let (plan, balance) = pods::schedule(BOTS, SEATS, GAMES_PER_BOT, 7)
            .unwrap_or_else(|e| fail(&format!("pods: {e}")));
        let pt = t.elapsed();
        if rep > 0 {
            base_t.push(bt);
            pods_t.push(pt);
        }
        if plan.len() != BOTS * GAMES_PER_BOT as usize / SEATS {
            fail("pods: not every bot plays its games");
        }
        base = Some(Balance::of(&b, BOTS, SEATS));
        ours = Some(balance);
    }
    let (b, p) = (fastest(&base_t), fastest(&pods_t));
    println!("\n  (1) {BOTS} bots, {GAMES_PER_BOT} games each in pods of {SEATS}:");
    println!(
        "    baseline (shuffled): {:>9.1} ms  {}",
        ms(b),
        base.expect("ran")
    );
    println!(
        "    pods:                {:>9.1} ms  {}",
        ms(p),
        ours.expect("ran")
    );
    verdict(p, b);
}

fn swiss(reps: usize) {
    let rounds = env_count("ARENA_BENCH_SWISS_ROUNDS", 5);
    let mut rng = Rng(2026);
    let strength: Vec<f64> = (0..BOTS).map(|_| rng.unit() * 4.0 - 2.0).collect();
    let mut players = vec![
        PodPlayer {
            seat_games: vec![0; SEATS],
            ..PodPlayer::default()
        };
        BOTS
    ];
    for round in 1..=rounds {
        let p = pair_pods(&players, SEATS).unwrap_or_else(|e| fail(&format!("round {round}: {e}")));
        play(&mut players, &p, &strength, &mut rng);
    }
    let (mut base_t, mut ours_t) = (Vec::new(), Vec::new());
    let (mut base, mut ours) = (None, None);
    for rep in 0..=reps {
        let t = Instant::now();
        let b = by_score(&players);
        let bt = t.elapsed();
        let t = Instant::now();
        let p = pair_pods(&players, SEATS).unwrap_or_else(|e| fail(&e));
        let pt = t.elapsed();
        if rep > 0 {
            base_t.push(bt);
            ours_t.push(pt);
        }
        if ours.as_ref().is_some_and(|o| o != &p) {
            fail("pair_pods is not deterministic");
        }
        base = Some(b);
        ours = Some(p);
    }
    let (b, p) = (fastest(&base_t), fastest(&ours_t));
    let quality = |pods: &Pods| {
        format!(
            "repeated pods {}, pairs that met before {}",
            pods.repeated_pods(&players),
            pods.repeated_pairs(&players)
        )
    };
    println!(
        "\n  (2) a swiss round of {BOTS} bots in pods of {SEATS}, after {rounds} simulated rounds:"
    );
    println!(
        "    baseline (by score): {:>9.1} ms  {}",
        ms(b),
        quality(&base.expect("ran"))
    );
    println!(
        "    pair_pods:           {:>9.1} ms  {}",
        ms(p),
        quality(&ours.expect("ran"))
    );
    verdict(p, b);
}

fn verdict(ours: Duration, base: Duration) {
    println!(
        "    ratio {:.0}x the baseline; goal < {} ms: {}",
        ours.as_secs_f64() / base.as_secs_f64().max(1e-9),
        GOAL.as_millis(),
        if ours < GOAL { "PASS" } else { "MISS" }
    );
}

/// Each round, the bots with the most games left (all of them: `n` divides here) shuffled and
/// cut into pods.
fn shuffled(n: usize, k: usize, games: u32, seed: u64) -> Vec<Planned> {
    let mut rng = Rng(seed);
    let mut order: Vec<usize> = (0..n).collect();
    let mut plan = Vec::with_capacity(n * games as usize / k);
    for round in 1..=games {
        for i in (1..n).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        for pod in order.chunks_exact(k) {
            plan.push(Planned {
                round,
                seats: pod.to_vec(),
                pair: u64::from(round - 1),
            });
        }
    }
    plan
}

/// The bots by score, highest first, cut into pods; the lowest scores sit out.
fn by_score(players: &[PodPlayer]) -> Pods {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .total_cmp(&players[a].score)
            .then(a.cmp(&b))
    });
    let byes = order.split_off(order.len() - order.len() % SEATS);
    Pods {
        pods: order.chunks_exact(SEATS).map(<[usize]>::to_vec).collect(),
        byes,
    }
}

/// Places from strengths plus noise; points (k - place) / (k - 1); a bye is a game won.
fn play(players: &mut [PodPlayer], round: &Pods, strength: &[f64], rng: &mut Rng) {
    for pod in &round.pods {
        let mut perf: Vec<(f64, usize)> = pod
            .iter()
            .map(|&b| (strength[b] + rng.unit() * 3.0, b))
            .collect();
        perf.sort_by(|x, y| y.0.total_cmp(&x.0));
        for (place, &(_, b)) in perf.iter().enumerate() {
            players[b].score += (SEATS - 1 - place) as f64 / (SEATS - 1) as f64;
        }
        for (seat, &b) in pod.iter().enumerate() {
            players[b].seat_games[seat] += 1;
            players[b].games.push(pod.clone());
        }
    }
    for &b in &round.byes {
        players[b].score += 1.0;
        players[b].byes += 1;
    }
}
