//! Relay benchmark: how much does `arena duel` cost per round compared with
//! the least work any referee must do?
//!
//! Plays 10,000 roshambo rounds between two copies of the compiled example
//! bot `bots/roshambo/random.c`, two ways, alternating, and reports the
//! median wall time of each:
//!
//!   (a) baseline: `examples/relay_baseline.rs`, a tiny std-only program that
//!       spawns the two bots and relays the moves itself (10,000 rounds);
//!   (b) arena:    `arena duel rps rps --game roshambo --games 2
//!                  -a rounds=5000 ...` (2 x 5,000 = 10,000 rounds; the
//!                  game's rounds bound is 1..9999).
//!
//! Prints microseconds per round for both and the ratio arena/baseline.
//! Goal: ratio <= 1.5. A miss is reported, not failed (benchmarks report,
//! tests assert). The benchmark does fail if either command exits non-zero
//! or cannot be built.
//!
//! Run: `cargo bench --bench relay` (repetitions: env ARENA_BENCH_REPS,
//! default 5). Without `--bench` on the command line (e.g. under
//! `cargo test --benches`) it does nothing.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::{build_example, compile_bot, fail, median, run};

const ROUNDS: u64 = 10_000;
const GAMES: u64 = 2;
const GOAL: f64 = 1.5;

fn main() {
    if !common::should_run("relay") {
        return;
    }
    let reps = common::reps();

    let arena = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let tmp = tempfile::Builder::new()
        .prefix("arena-relay-bench-")
        .tempdir()
        .unwrap_or_else(|e| fail(&format!("cannot create temp dir: {e}")));
    let tmp = tmp.path();

    let bot = compile_bot("roshambo/random.c", tmp, "rps");
    let baseline = build_example("relay_baseline");
    let out_dir = tmp.join("out");

    let baseline_cmd = || {
        let mut c = Command::new(&baseline);
        common::bots_env(&mut c).arg(&bot).arg(ROUNDS.to_string());
        c
    };
    let arena_cmd = || {
        // Fresh output directory for every run, so runs are identical.
        let _ = std::fs::remove_dir_all(&out_dir);
        let mut c = Command::new(&arena);
        common::bots_env(&mut c)
            .arg("duel")
            .arg(&bot)
            .arg(&bot)
            .args(["--game", "roshambo"])
            .args(["--games", &GAMES.to_string()])
            .args(["-a", &format!("rounds={}", ROUNDS / GAMES)])
            .args(["--timeout", "10"])
            .args(["--seed", "1"])
            .arg("--out")
            .arg(&out_dir);
        c
    };

    println!("relay bench: roshambo, {ROUNDS} rounds, {reps} rep(s) + 1 warm-up, alternating");
    println!("  bot:      {}", bot.display());
    println!("  baseline: {}", baseline.display());
    println!("  arena:    {}", arena.display());

    // Warm-up (unmeasured): page cache, first-exec costs, and a check that
    // both commands work before we spend time measuring them.
    run("baseline", baseline_cmd());
    let warm = run("arena duel", arena_cmd());
    let shown: Vec<&str> = std::str::from_utf8(&warm.1.stdout)
        .unwrap_or("<non-UTF-8 output>")
        .lines()
        .collect();
    if !shown.is_empty() {
        println!("  arena duel stdout (warm-up, last lines):");
        for l in &shown[shown.len().saturating_sub(8)..] {
            println!("    | {l}");
        }
    }

    let mut tb = Vec::with_capacity(reps);
    let mut ta = Vec::with_capacity(reps);
    for _ in 0..reps {
        tb.push(run("baseline", baseline_cmd()).0);
        ta.push(run("arena duel", arena_cmd()).0);
    }

    let (bmed, amed) = (median(&mut tb), median(&mut ta));
    let per_round = |d: Duration| d.as_secs_f64() * 1e6 / ROUNDS as f64;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let ratio = amed.as_secs_f64() / bmed.as_secs_f64();

    println!();
    println!(
        "  {:<16} {:>10} {:>10} {:>10} {:>10}",
        "", "us/round", "median ms", "min ms", "max ms"
    );
    for (name, med, v) in [("baseline relay", bmed, &tb), ("arena duel", amed, &ta)] {
        println!(
            "  {:<16} {:>10.2} {:>10.1} {:>10.1} {:>10.1}",
            name,
            per_round(med),
            ms(med),
            ms(v[0]),
            ms(v[v.len() - 1]),
        );
    }
    println!();
    println!(
        "  ratio arena/baseline: {ratio:.2}x   goal: <= {GOAL}x   {}",
        if ratio <= GOAL { "PASS" } else { "MISS" }
    );
}
