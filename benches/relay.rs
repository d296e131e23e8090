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

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: u64 = 10_000;
const GAMES: u64 = 2;
const GOAL: f64 = 1.5;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("relay bench: skipped (run it with `cargo bench --bench relay`)");
        return;
    }
    let reps: usize = match std::env::var("ARENA_BENCH_REPS") {
        Ok(s) => match s.trim().parse() {
            Ok(n) if n > 0 => n,
            _ => fail(&format!(
                "ARENA_BENCH_REPS must be a positive integer, got {s:?}"
            )),
        },
        Err(_) => 5,
    };

    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let arena = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let tmp = tempfile::Builder::new()
        .prefix("arena-relay-bench-")
        .tempdir()
        .unwrap_or_else(|e| fail(&format!("cannot create temp dir: {e}")));
    let tmp = tmp.path();

    let bot = compile_bot(manifest, tmp);
    let baseline = build_baseline(manifest);
    let out_dir = tmp.join("out");

    let baseline_cmd = || {
        let mut c = Command::new(&baseline);
        c.arg(&bot).arg(ROUNDS.to_string());
        c
    };
    let arena_cmd = || {
        // Fresh output directory for every run, so runs are identical.
        let _ = std::fs::remove_dir_all(&out_dir);
        let mut c = Command::new(&arena);
        c.arg("duel")
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

/// Runs `cmd` to completion, capturing its output; returns the wall time.
/// Fails the benchmark loudly if it cannot start or exits non-zero.
fn run(name: &str, mut cmd: Command) -> (Duration, Output) {
    cmd.stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("{name}: cannot start {cmd:?}: {e}")));
    let elapsed = start.elapsed();
    if !out.status.success() {
        fail(&format!(
            "{name} failed ({})\n  command: {cmd:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            out.status,
            tail(&out.stdout),
            tail(&out.stderr),
        ));
    }
    (elapsed, out)
}

/// Sorts `v` and returns its median (mean of the middle two for even lengths).
fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

/// `cc -O2 -o <tmp>/rps bots/roshambo/random.c`
fn compile_bot(manifest: &Path, tmp: &Path) -> PathBuf {
    let src = manifest.join("bots/roshambo/random.c");
    if !src.is_file() {
        fail(&format!("bot source not found: {}", src.display()));
    }
    let exe = tmp.join("rps");
    let mut cmd = Command::new("cc");
    cmd.arg("-O2").arg("-o").arg(&exe).arg(&src);
    run("cc", cmd);
    exe
}

/// Builds `examples/relay_baseline.rs` in release mode (same target dir as
/// this bench) and returns the path cargo reports for the executable.
fn build_baseline(manifest: &Path) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(manifest).args([
        "build",
        "--quiet",
        "--release",
        "--example",
        "relay_baseline",
        "--message-format=json",
    ]);
    cmd.stderr(Stdio::inherit());
    let (_, out) = run("cargo build --example relay_baseline", cmd);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "compiler-artifact" && v["target"]["name"] == "relay_baseline")
        .find_map(|v| v["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| fail("cargo did not report a relay_baseline executable"))
}

fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

fn fail(msg: &str) -> ! {
    eprintln!("relay bench: FAILED: {msg}");
    std::process::exit(1)
}
