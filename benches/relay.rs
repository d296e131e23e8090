//! Relay benchmark: what does `arena duel` cost per round, against the least work any referee
//! must do?
//!
//! One roshambo game of 9,999 rounds (the most a game allows) between two copies of the compiled
//! example bot `bots/roshambo/random.c`, played two ways, alternating:
//!
//!   (a) the floor: `bench/relay_floor.c`, compiled here with `cc -O2`: spawns the two bots, writes
//!       each its header as arena does (one write of the three lines), then each round reads one
//!       line from each seat and writes each the other's, with blocking reads and writes;
//!   (b) arena: `arena duel rps rps --game roshambo -a rounds=9999 --timeout 10 --seed 1`, which
//!       checks every move, enforces the deadlines, captures stderr and writes the game's log.
//!
//! Both start the bots with the environment arena gives them (`common::bots_env`). Each whole
//! process is timed, start-up included. After one unmeasured warm-up of each, they run in turn
//! `ARENA_BENCH_REPS` times each (default 7), and the **fastest** run of each is compared: noise
//! on a shared machine only ever slows a run down. Prints microseconds per round for both, the
//! ratio arena/floor, the goal (1.5x; stretch goal 1.2x) and the load average before and after.
//! A miss is reported, not failed (benchmarks report, tests assert). The benchmark does fail if
//! either command exits non-zero or cannot be built.
//!
//! System calls per round, for both: `bench/syscalls.sh`.
//!
//! Run: `cargo bench --bench relay`. Without `--bench` on the command line (e.g. under
//! `cargo test --benches`) it does nothing.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{compile_bot, run};

const ROUNDS: u64 = 9_999;
const GOAL: f64 = 1.5;
const STRETCH: f64 = 1.2;

fn main() {
    if !common::should_run("relay") {
        return;
    }
    let reps = common::fastest_reps();

    let arena = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let tmp = common::bench_dir("arena-relay-bench-");
    let tmp = tmp.path();

    let bot = compile_bot("roshambo/random.c", tmp, "rps");
    let floor = common::build_floor(tmp);
    let out_dir = tmp.join("out");

    // arena names two bots of the same command after it, numbered: rps-1 and rps-2.
    let floor_cmd = || {
        let mut c = Command::new(&floor);
        common::bots_env(&mut c)
            .arg(&bot)
            .args([&ROUNDS.to_string(), "1", "1", "rps-1", "rps-2"]);
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
            .args(["-a", &format!("rounds={ROUNDS}")])
            .args(["--timeout", "10"])
            .args(["--seed", "1"])
            .arg("--out")
            .arg(&out_dir);
        c
    };

    println!(
        "relay bench: one roshambo game of {ROUNDS} rounds, {reps} run(s) of each + 1 warm-up, \
         alternating, fastest compared"
    );
    println!("  bot:      {}", bot.display());
    println!("  floor:    {}", floor.display());
    println!("  arena:    {}", arena.display());
    let load_before = common::load();

    // Warm-up (unmeasured): page cache, first-exec costs, and a check that both commands work
    // before we spend time measuring them.
    run("floor", floor_cmd());
    let warm = run("arena duel", arena_cmd());
    common::show_warm_up(&warm.1.stdout);

    let mut tf = Vec::with_capacity(reps);
    let mut ta = Vec::with_capacity(reps);
    for _ in 0..reps {
        tf.push(run("floor", floor_cmd()).0);
        ta.push(run("arena duel", arena_cmd()).0);
    }

    let ratio = common::floor_table("round", ROUNDS, &tf, &ta);
    println!(
        "  ratio arena/floor (fastest runs): {ratio:.2}x   goal: <= {GOAL}x {}   stretch: <= {STRETCH}x {}",
        verdict(ratio <= GOAL),
        verdict(ratio <= STRETCH),
    );
    println!(
        "  load average (1, 5, 15 min): {load_before} before, {} after",
        common::load()
    );
}

fn verdict(met: bool) -> &'static str {
    if met { "PASS" } else { "MISS" }
}
