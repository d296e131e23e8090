//! Memory benchmark: arena's own memory per running game.
//!
//! `JOBS` roshambo games (default 32) of 5 rounds between two copies of `bench/slow_bot.c`, which
//! thinks 100 ms before each move, so that games stay running while they are measured. Each is
//! played one game at a time and then `JOBS` at a time, by `arena run` (a two-bot round-robin)
//! and by `arena duel --games JOBS --jobs J`, the same games in each run.
//!
//! What is measured is arena's process alone, not its bots: its peak resident memory (`VmHWM`
//! in `/proc/PID/status`, the kernel's high-water mark of that process's RSS; bots are other
//! processes with their own), read every 2 ms until it exits, together with the number of bots
//! running (its threads' `children` files), of which half is the number of games running at
//! once. (`wait4`'s `ru_maxrss` or a wrapper's `RUSAGE_CHILDREN` would be the largest of arena
//! and any bot it reaped, not arena's own.) The peak can be missed only if it grows in the last
//! 2 ms before arena exits, after its games are over.
//!
//! Memory per running game = (peak with JOBS at a time - peak with one at a time) / (games at
//! once - 1). Also printed: the whole peak divided by the games at once, which charges arena's
//! fixed memory (its binary, runtime and threads) to the games. Goal: under 2 MiB per running
//! game.
//!
//! Run: `cargo bench --bench memory` (env JOBS). Without `--bench` on the command line it does
//! nothing.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{compile_c, fail};

const GOAL_MIB: f64 = 2.0;
const ROUNDS: u32 = 5;
const THINK_MS: u32 = 100;

struct Peak {
    /// arena's `VmHWM`, in KiB.
    hwm_kib: u64,
    /// The most games seen running at once (bots running, halved).
    games: usize,
    wall: Duration,
}

fn main() {
    if !common::should_run("memory") {
        return;
    }
    let jobs = common::env_count("JOBS", 32);
    if jobs < 2 {
        fail("JOBS must be at least 2");
    }
    let tmp = tempfile::Builder::new()
        .prefix("arena-memory-bench-")
        .tempdir()
        .unwrap_or_else(|e| fail(&format!("cannot create a temp dir: {e}")));
    let tmp = tmp.path();
    let bot = compile_c(Path::new("bench/slow_bot.c"), tmp, "slow", &[]);
    let command = format!("{} {THINK_MS}", bot.display());
    let spec = tmp.join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"memory\"\ngame = \"roshambo\"\nformat = \"round-robin\"\n\
             games_per_pairing = {jobs}\nseed = 1\ntimeout = 10\n\n[params]\nrounds = {ROUNDS}\n\n\
             [[bot]]\nname = \"a\"\ncommand = \"{command}\"\n\n\
             [[bot]]\nname = \"b\"\ncommand = \"{command}\"\n"
        ),
    )
    .unwrap();
    let arena = env!("CARGO_BIN_EXE_arena");
    let mut runs = 0;
    let mut measure = |what: &str, at_once: usize| {
        runs += 1;
        let out = tmp.join(format!("out-{runs}"));
        let mut cmd = Command::new(arena);
        common::bots_env(&mut cmd);
        if what == "run" {
            cmd.arg("run").arg(&spec);
        } else {
            cmd.args(["duel", &command, &command, "--game", "roshambo"])
                .args(["-a", &format!("rounds={ROUNDS}")])
                .args([
                    "--games",
                    &jobs.to_string(),
                    "--seed",
                    "1",
                    "--timeout",
                    "10",
                ]);
        }
        cmd.args(["--jobs", &at_once.to_string()])
            .arg("--out")
            .arg(&out);
        sample(cmd, &tmp.join(format!("stderr-{runs}")))
    };

    println!(
        "memory bench: {jobs} roshambo games of {ROUNDS} rounds, bots thinking {THINK_MS} ms a move, \
         one at a time and {jobs} at a time; arena's own peak memory (VmHWM)"
    );
    let load_before = common::load();
    let mut rows = Vec::new();
    for what in ["run", "duel"] {
        let one = measure(what, 1);
        let many = measure(what, jobs);
        rows.push((what, one, many));
    }
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "\n  {:<12} {:>14} {:>14} {:>16} {:>14} {:>10}",
        "", "peak, 1 game", "peak, N games", "N games at once", "per game", "peak / N"
    );
    for (what, one, many) in &rows {
        if one.games != 1 || many.games < 2 {
            println!(
                "  arena {what}: {} and {} games seen running at once, expected 1 and about \
                 {jobs}: the figure below means little",
                one.games, many.games
            );
        }
        let per_game =
            mib(many.hwm_kib.saturating_sub(one.hwm_kib)) / (many.games.max(2) - 1) as f64;
        println!(
            "  arena {what:<6} {:>10.1} MiB {:>10.1} MiB {:>16} {:>10.2} MiB {:>6.2} MiB   \
             goal: < {GOAL_MIB} MiB per game {}   ({:.1} s and {:.1} s)",
            mib(one.hwm_kib),
            mib(many.hwm_kib),
            many.games,
            per_game,
            mib(many.hwm_kib) / many.games.max(1) as f64,
            if per_game < GOAL_MIB { "PASS" } else { "MISS" },
            one.wall.as_secs_f64(),
            many.wall.as_secs_f64(),
        );
    }
    println!(
        "  load average (1, 5, 15 min): {load_before} before, {} after",
        common::load()
    );
}

/// Runs `cmd`, sampling its process every 2 ms until it exits: the last `VmHWM` read and the
/// most bots seen running. Fails the benchmark if it exits non-zero.
fn sample(mut cmd: Command, stderr: &Path) -> Peak {
    let log = std::fs::File::create(stderr).unwrap_or_else(|e| fail(&format!("{e}")));
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(log);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| fail(&format!("cannot start {cmd:?}: {e}")));
    let proc = format!("/proc/{}", child.id());
    let (mut hwm_kib, mut bots) = (0, 0);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(status)) => fail(&format!(
                "{cmd:?} failed ({status}):\n{}",
                common::tail(&std::fs::read(stderr).unwrap_or_default())
            )),
            Ok(None) => {}
            Err(e) => fail(&format!("waiting for arena: {e}")),
        }
        if let Ok(status) = std::fs::read_to_string(format!("{proc}/status")) {
            let field = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            hwm_kib = hwm_kib.max(field.unwrap_or(0));
        }
        bots = bots.max(children(&proc));
        std::thread::sleep(Duration::from_millis(2));
    }
    Peak {
        hwm_kib,
        games: bots / 2,
        wall: start.elapsed(),
    }
}

/// The processes that `proc`'s threads started and that are still running.
fn children(proc: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("{proc}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .map(|c| c.split_whitespace().count())
        .sum()
}
