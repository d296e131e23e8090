//! Ratings benchmark: how long do the standings' ratings take for 1,000,000 games, of two players
//! and of four?
//!
//! Two players: draws 1,000,000 random games among 64 players, and again among 1,000 players, from
//! known true strengths (Elo, normal with sd 200; Bradley-Terry results, with draws that keep the
//! expected score), then times, alternating, the fastest run of each (noise only slows a run
//! down):
//!
//!   (a) baseline:       `ratings::pair_results`, just aggregating the games per pair;
//!   (b) Bradley-Terry:  `ratings::bradley_terry` (aggregates, fits, computes the errors);
//!   (c) Glicko-2:       `ratings::glicko2`, one rating period per round of n/2 games.
//!
//! Four players: 1,000,000 games of 4 different players among 64, and among 1,000, their places
//! drawn by Plackett-Luce from the same kind of true strengths, 2% of the seats failed (placed
//! last, tied with any other seat placed last), rounds of n/4 games; then, the same way:
//!
//!   (a) baseline:       `ratings::pair_scores` and `pair_results`, counting each pair of seats;
//!   (b) Plackett-Luce:  `ratings::plackett_luce`, Elo with its error;
//!   (c) Glicko-2:       `ratings::glicko2_pairs`, the pairs of seats by rounds;
//!   (d) Weng-Lin:       `ratings::weng_lin`, game by game;
//!   and, for comparison, Bradley-Terry over every pair of seats (the tables' rating before).
//!
//! Prints wall milliseconds (fastest, median, slowest), the CPU time of the thread in the fastest
//! run (a check on a busy machine: wall time far above CPU time means the bench waited for a
//! core), the ratio of the fastest runs to the baseline's, and the correlation of each rating
//! with the true strengths. Goals: two players, (b) and (c) under 1 s each; four players, (b),
//! (c) and (d) together under 5 s. A miss is reported, not failed (benchmarks report, tests
//! assert).
//!
//! Run: `cargo bench --bench ratings` (repetitions: env ARENA_BENCH_REPS, default 7). Without
//! `--bench` on the command line (e.g. under `cargo test --benches`) it does nothing.

mod common;

use common::{fail, fastest, median, ms};

use arena::ratings::{
    GameScore, Placed, RankedGame, bradley_terry, correlation, glicko2, glicko2_pairs,
    pair_results, pair_scores, plackett_luce, weng_lin,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::{Duration, Instant};

const GAMES: usize = 1_000_000;
const GOAL: Duration = Duration::from_secs(1);
/// Seats of a game in the N-player part, and its goal for the three ratings together.
const SEATS: usize = 4;
const GOAL_PLACES: Duration = Duration::from_secs(5);

fn main() {
    if !common::should_run("ratings") {
        return;
    }
    let reps = common::fastest_reps();
    println!("ratings bench: {GAMES} games, {reps} rep(s) + 1 warm-up, alternating");
    for players in [64, 1000] {
        bench(players, reps);
    }
    println!();
    println!("{GAMES} games of {SEATS} players:");
    for players in [64, 1000] {
        bench_places(players, reps);
    }
}

fn bench(n: usize, reps: usize) {
    let (truth, games) = generate(n, GAMES, 2026);
    let draws = games.iter().filter(|g| g.score_a == 0.5).count();
    let pairs = pair_results(n, &games).len();
    println!();
    println!(
        "  {n} players: {GAMES} games ({:.1}% draws), {pairs} distinct pairs, {} rounds",
        100.0 * draws as f64 / GAMES as f64,
        games.last().map_or(0, |g| g.round + 1)
    );

    // Warm-up, and the results for the correlations.
    let bt = bradley_terry(n, &games);
    let gl = glicko2(n, &games);
    if bt
        .iter()
        .any(|e| !e.elo.is_finite() || !e.error.is_finite())
    {
        fail("Bradley-Terry gave a non-finite rating or error");
    }

    // (wall, cpu) per run.
    let (mut tb, mut tf, mut tg) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps {
        tb.push(time(|| black_box(pair_results(n, black_box(&games))).len()));
        tf.push(time(|| {
            black_box(bradley_terry(n, black_box(&games))).len()
        }));
        tg.push(time(|| black_box(glicko2(n, black_box(&games))).len()));
    }
    let elo: Vec<f64> = bt.iter().map(|e| e.elo).collect();
    let glicko: Vec<f64> = gl.iter().map(|r| r.0).collect();
    let mean_error = bt.iter().map(|e| e.error).sum::<f64>() / n as f64;
    let mean_rd = gl.iter().map(|r| r.1).sum::<f64>() / n as f64;

    print_rows(
        "goal < 1 s",
        &[
            ("aggregate (base)", &tb, None),
            ("Bradley-Terry", &tf, Some(correlation(&elo, &truth))),
            ("Glicko-2", &tg, Some(correlation(&glicko, &truth))),
        ],
        Some(GOAL),
    );
    println!(
        "    mean Bradley-Terry 95% error {mean_error:.1} Elo; mean Glicko-2 deviation {mean_rd:.1}"
    );
}

/// True strengths (Elo) and `count` games between random pairs; round k holds games
/// k*n/2 .. (k+1)*n/2. Each game: expected score p from the strengths, a draw with probability
/// 0.6 min(p, 1 - p), otherwise a win with probability p - draw/2 (so the mean score is p).
fn generate(n: usize, count: usize, seed: u64) -> (Vec<f64>, Vec<GameScore>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth = true_strengths(&mut rng, n);
    let per_round = (n / 2).max(1);
    let games = (0..count)
        .map(|k| {
            let a = rng.random_range(0..n);
            let mut b = rng.random_range(0..n - 1);
            if b >= a {
                b += 1;
            }
            let p = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
            let draw = 0.6 * p.min(1.0 - p);
            let u: f64 = rng.random();
            let score_a = if u < draw {
                0.5
            } else if u < draw + p - draw / 2.0 {
                1.0
            } else {
                0.0
            };
            GameScore {
                a,
                b,
                score_a,
                round: (k / per_round) as u32,
            }
        })
        .collect();
    (truth, games)
}

/// `n` true strengths (Elo), normal with sd 200.
fn true_strengths(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| {
            // Box-Muller.
            let (u, v): (f64, f64) = (rng.random(), rng.random());
            200.0 * (-2.0 * (1.0 - u).ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        })
        .collect()
}

/// The games of `SEATS` players: see [`generate_places`].
fn bench_places(n: usize, reps: usize) {
    let (truth, games) = generate_places(n, GAMES, 2027);
    let seats = games.iter().flat_map(|g| &g.seats);
    let failed = seats.filter(|s| s.failed).count();
    let pairs = pair_results(n, &pair_scores(n, &games)).len();
    println!();
    println!(
        "  {n} players: {GAMES} games, {:.1}% of the seats failed, {pairs} distinct pairs, {} rounds",
        100.0 * failed as f64 / (SEATS * GAMES) as f64,
        games.last().map_or(0, |g| g.round + 1)
    );

    // Warm-up, and the results for the correlations.
    let pl = plackett_luce(n, &games);
    let gl = glicko2_pairs(n, &games);
    let wl = weng_lin(n, &games);
    let before = bradley_terry(n, &pair_scores(n, &games));
    if pl
        .iter()
        .chain(&before)
        .any(|e| !e.elo.is_finite() || !e.error.is_finite())
    {
        fail("a fit gave a non-finite rating or error");
    }

    let mut runs: [Vec<Timing>; 5] = Default::default();
    for _ in 0..reps {
        runs[0].push(time(|| {
            black_box(pair_results(n, &pair_scores(n, black_box(&games)))).len()
        }));
        runs[1].push(time(|| {
            black_box(plackett_luce(n, black_box(&games))).len()
        }));
        runs[2].push(time(|| {
            black_box(glicko2_pairs(n, black_box(&games))).len()
        }));
        runs[3].push(time(|| black_box(weng_lin(n, black_box(&games))).len()));
        runs[4].push(time(|| {
            black_box(bradley_terry(n, &pair_scores(n, black_box(&games)))).len()
        }));
    }
    let first = |r: &[(f64, f64)]| r.iter().map(|x| x.0).collect::<Vec<f64>>();
    let elo = |r: &[arena::ratings::EloEstimate]| r.iter().map(|e| e.elo).collect::<Vec<f64>>();
    print_rows(
        "",
        &[
            ("aggregate (base)", &runs[0], None),
            (
                "Plackett-Luce",
                &runs[1],
                Some(correlation(&elo(&pl), &truth)),
            ),
            (
                "Glicko-2, pairs",
                &runs[2],
                Some(correlation(&first(&gl), &truth)),
            ),
            ("Weng-Lin", &runs[3], Some(correlation(&first(&wl), &truth))),
            (
                "BT over pairs",
                &runs[4],
                Some(correlation(&elo(&before), &truth)),
            ),
        ],
        None,
    );
    let total: Duration = runs[1..4].iter().map(|r| fastest(&walls(r))).sum();
    println!(
        "    Plackett-Luce, Glicko-2 and Weng-Lin together: {:.1} ms  goal < {} s  {}",
        ms(total),
        GOAL_PLACES.as_secs(),
        if total < GOAL_PLACES { "PASS" } else { "MISS" }
    );
    // How often the true strength (centred, as the fits are) is inside the 95% interval.
    let mean = truth.iter().sum::<f64>() / n as f64;
    let covered = |r: &[arena::ratings::EloEstimate]| {
        let inside = r
            .iter()
            .zip(&truth)
            .filter(|(e, t)| (e.elo - (*t - mean)).abs() <= e.error);
        100.0 * inside.count() as f64 / n as f64
    };
    let mean_error =
        |r: &[arena::ratings::EloEstimate]| r.iter().map(|e| e.error).sum::<f64>() / n as f64;
    println!(
        "    mean 95% error {:.1} Elo, true strength inside it for {:.1}% of the bots (Bradley-Terry over pairs: {:.1} Elo, {:.1}%)",
        mean_error(&pl),
        covered(&pl),
        mean_error(&before),
        covered(&before)
    );
}

/// True strengths (Elo) and `count` games of `SEATS` different players among `n`, round k
/// holding games k*n/4 .. (k+1)*n/4. Each game's places drawn by Plackett-Luce (a place at a
/// time, seat i with probability gamma_i / sum of the gammas left, gamma = 10^(elo/400)); then
/// each seat fails with probability 0.02, placed last (tied with any other seat placed last),
/// which every rating reads as it reads any place.
fn generate_places(n: usize, count: usize, seed: u64) -> (Vec<f64>, Vec<RankedGame>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth = true_strengths(&mut rng, n);
    let gamma: Vec<f64> = truth.iter().map(|r| 10f64.powf(r / 400.0)).collect();
    let per_round = (n / SEATS).max(1);
    let games = (0..count)
        .map(|k| {
            let mut bots: Vec<usize> = Vec::with_capacity(SEATS);
            while bots.len() < SEATS {
                let b = rng.random_range(0..n);
                if !bots.contains(&b) {
                    bots.push(b);
                }
            }
            let mut left: Vec<usize> = (0..SEATS).collect();
            let mut places = [0u8; SEATS];
            for place in 1..=SEATS as u8 {
                let mut u = rng.random::<f64>() * left.iter().map(|&s| gamma[bots[s]]).sum::<f64>();
                let mut pick = left.len() - 1;
                for (i, &s) in left.iter().enumerate() {
                    if u < gamma[bots[s]] {
                        pick = i;
                        break;
                    }
                    u -= gamma[bots[s]];
                }
                places[left.remove(pick)] = place;
            }
            let seats = (0..SEATS)
                .map(|s| {
                    let failed = rng.random::<f64>() < 0.02;
                    let place = if failed { SEATS as u8 } else { places[s] };
                    Placed {
                        bot: bots[s],
                        place,
                        failed,
                    }
                })
                .collect();
            RankedGame {
                round: (k / per_round) as u32,
                seats,
            }
        })
        .collect();
    (truth, games)
}

/// Prints one row per `(name, runs, correlation)`, the first the baseline, with PASS or MISS
/// against `goal` for the rows with a correlation when there is one.
fn print_rows(goal_label: &str, rows: &[(&str, &[Timing], Option<f64>)], goal: Option<Duration>) {
    let base = fastest(&walls(rows[0].1));
    println!(
        "    {:<16} {:>10} {:>10} {:>10} {:>10} {:>9} {:>8}  {goal_label}",
        "", "fastest ms", "median ms", "max ms", "cpu ms", "x base", "corr"
    );
    for &(name, runs, corr) in rows {
        let mut v = walls(runs);
        let best = runs.iter().min_by_key(|t| t.0).expect("at least one run");
        let med = median(&mut v);
        let verdict = match (corr, goal) {
            (Some(_), Some(goal)) if best.0 < goal => "PASS",
            (Some(_), Some(_)) => "MISS",
            _ => "",
        };
        println!(
            "    {:<16} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>8.1}x {:>8}  {verdict}",
            name,
            ms(best.0),
            ms(med),
            ms(v[v.len() - 1]),
            ms(best.1),
            best.0.as_secs_f64() / base.as_secs_f64(),
            corr.map_or(String::new(), |c| format!("{c:.4}")),
        );
    }
}

/// The wall times of `runs`.
fn walls(runs: &[Timing]) -> Vec<Duration> {
    runs.iter().map(|t| t.0).collect()
}

/// (wall time, CPU time of this thread) of one run.
type Timing = (Duration, Duration);

/// Wall time and this thread's CPU time (user + system) of `f`.
fn time<T>(f: impl FnOnce() -> T) -> Timing {
    let cpu0 = thread_cpu();
    let start = Instant::now();
    black_box(f());
    (start.elapsed(), thread_cpu().saturating_sub(cpu0))
}

fn thread_cpu() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let u = getrusage(UsageWho::RUSAGE_THREAD).unwrap_or_else(|e| fail(&format!("getrusage: {e}")));
    let d =
        |t: nix::sys::time::TimeVal| Duration::new(t.tv_sec() as u64, t.tv_usec() as u32 * 1000);
    d(u.user_time()) + d(u.system_time())
}
