//! Ratings benchmark: how long do the standings' ratings take for 1,000,000 games?
//!
//! Draws 1,000,000 random games among 64 players, and again among 1,000 players, from known true
//! strengths (Elo, normal with sd 200; Bradley-Terry results, with draws that keep the expected
//! score), then times, alternating, the fastest run of each (noise only slows a run down):
//!
//!   (a) baseline:       `ratings::pair_results`, just aggregating the games per pair;
//!   (b) Bradley-Terry:  `ratings::bradley_terry` (aggregates, fits, computes the errors);
//!   (c) Glicko-2:       `ratings::glicko2`, one rating period per round of n/2 games.
//!
//! Prints wall milliseconds (fastest, median, slowest), the CPU time of the thread in the fastest
//! run (a check on a busy machine: wall time far above CPU time means the bench waited for a
//! core), the ratio of the fastest runs to the baseline's, and the correlation of each rating with the true strengths. Goal: (b) and (c)
//! under 1 s each. A miss is reported, not failed (benchmarks report, tests assert).
//!
//! Run: `cargo bench --bench ratings` (repetitions: env ARENA_BENCH_REPS, default 7). Without
//! `--bench` on the command line (e.g. under `cargo test --benches`) it does nothing.

mod common;

use common::{fail, fastest, median, ms};

use arena::ratings::{GameScore, bradley_terry, glicko2, pair_results};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::{Duration, Instant};

const GAMES: usize = 1_000_000;
const GOAL: Duration = Duration::from_secs(1);

fn main() {
    if !common::should_run("ratings") {
        return;
    }
    let reps = common::fastest_reps();
    println!("ratings bench: {GAMES} games, {reps} rep(s) + 1 warm-up, alternating");
    for players in [64, 1000] {
        bench(players, reps);
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
    let base = fastest(&tb.iter().map(|t| t.0).collect::<Vec<_>>());
    let elo: Vec<f64> = bt.iter().map(|e| e.elo).collect();
    let glicko: Vec<f64> = gl.iter().map(|r| r.0).collect();
    let mean_error = bt.iter().map(|e| e.error).sum::<f64>() / n as f64;
    let mean_rd = gl.iter().map(|r| r.1).sum::<f64>() / n as f64;

    println!(
        "    {:<16} {:>10} {:>10} {:>10} {:>10} {:>9} {:>8}  goal < 1 s",
        "", "fastest ms", "median ms", "max ms", "cpu ms", "x base", "corr"
    );
    let rows: [(&str, &[Timing], Option<f64>); 3] = [
        ("aggregate (base)", &tb, None),
        ("Bradley-Terry", &tf, Some(correlation(&elo, &truth))),
        ("Glicko-2", &tg, Some(correlation(&glicko, &truth))),
    ];
    for (name, runs, corr) in rows {
        let mut v: Vec<Duration> = runs.iter().map(|t| t.0).collect();
        let best = runs.iter().min_by_key(|t| t.0).expect("at least one run");
        let med = median(&mut v);
        println!(
            "    {:<16} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>8.1}x {:>8}  {}",
            name,
            ms(best.0),
            ms(med),
            ms(v[v.len() - 1]),
            ms(best.1),
            best.0.as_secs_f64() / base.as_secs_f64(),
            corr.map_or(String::new(), |c| format!("{c:.4}")),
            match corr {
                None => "",
                Some(_) if best.0 < GOAL => "PASS",
                Some(_) => "MISS",
            }
        );
    }
    println!(
        "    mean Bradley-Terry 95% error {mean_error:.1} Elo; mean Glicko-2 deviation {mean_rd:.1}"
    );
}

/// True strengths (Elo) and `count` games between random pairs; round k holds games
/// k*n/2 .. (k+1)*n/2. Each game: expected score p from the strengths, a draw with probability
/// 0.6 min(p, 1 - p), otherwise a win with probability p - draw/2 (so the mean score is p).
fn generate(n: usize, count: usize, seed: u64) -> (Vec<f64>, Vec<GameScore>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth: Vec<f64> = (0..n)
        .map(|_| {
            // Box-Muller.
            let (u, v): (f64, f64) = (rng.random(), rng.random());
            200.0 * (-2.0 * (1.0 - u).ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        })
        .collect();
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

/// Pearson correlation.
fn correlation(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}
