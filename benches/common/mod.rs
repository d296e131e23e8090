//! What the benchmarks share: when to run, repetitions, running and timing commands, medians and
//! fastest runs, the machine's load, and compiling the C bots and the C floor they measure
//! against.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");

/// Benchmarks run only under `cargo bench` (which passes `--bench`), not under
/// `cargo test --benches` or clippy's builds.
pub fn should_run(name: &str) -> bool {
    let run = std::env::args().any(|a| a == "--bench");
    if !run {
        println!("{name} bench: skipped (run it with `cargo bench --bench {name}`)");
    }
    run
}

/// A positive count from the environment, or `default`.
pub fn env_count(var: &str, default: usize) -> usize {
    match std::env::var(var) {
        Ok(s) => match s.trim().parse() {
            Ok(n) if n > 0 => n,
            _ => fail(&format!("{var} must be a positive integer, got {s:?}")),
        },
        Err(_) => default,
    }
}

/// Repetitions of a bench, whose fastest runs are compared: `ARENA_BENCH_REPS`, default 7.
pub fn fastest_reps() -> usize {
    env_count("ARENA_BENCH_REPS", 7)
}

/// The fastest of `runs`: noise on a shared machine only ever slows a run down, so the fastest
/// run is the closest to what the program costs.
pub fn fastest(runs: &[Duration]) -> Duration {
    *runs.iter().min().expect("at least one run")
}

/// The slowest of `runs`, to show how noisy the machine was.
pub fn slowest(runs: &[Duration]) -> Duration {
    *runs.iter().max().expect("at least one run")
}

/// The load averages over 1, 5 and 15 minutes, as `/proc/loadavg` gives them: figures taken
/// under load are slower, and a bench prints the load before and after it measures.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

pub fn fail(msg: &str) -> ! {
    eprintln!("bench: FAILED: {msg}");
    std::process::exit(1)
}

/// Sorts `v` and returns its median (the mean of the middle two for even lengths).
pub fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

pub fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// Runs `cmd` to completion, capturing its output; returns the wall time. Fails the benchmark
/// loudly if it cannot start or exits non-zero: a number from a broken run means nothing.
pub fn run(name: &str, mut cmd: Command) -> (Duration, Output) {
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

/// The environment arena gives its bots (`INHERITED_ENV` and `LC_*` taken from this process),
/// and nothing else, for a command that starts bots: a baseline and arena alike. Under `cargo
/// bench` the environment holds about 60 variables, among them an `LD_LIBRARY_PATH` of cargo's
/// and rustup's folders, which every dynamically linked bot's loader searches first; arena drops
/// them for its bots, and a baseline that passed them on measured 18% slower on short games.
pub fn bots_env(cmd: &mut Command) -> &mut Command {
    cmd.env_clear().envs(std::env::vars_os().filter(|(k, _)| {
        k.to_str().is_some_and(|k| {
            arena::bot::process::INHERITED_ENV.contains(&k) || k.starts_with("LC_")
        })
    }))
}

/// Let the disk settle in `dir` before a bench that makes a file per game there. On an ext4
/// without a journal (this project's VMs), making a file first skips every free inode of its
/// group deleted in the last five seconds, or in the last five minutes when that inode's table
/// block is waiting to be written back, which making files there does. Measured on such a disk:
/// a small file took 20 to 52 us to make on a quiet disk; 919, 927 and 59 us 6, 30 and 60 s
/// after 5,000 files nearby were deleted and synced; 410, 80 and 45 us at the start, 2 and 5
/// minutes into a quiet spell after an hour of runs and benches making and deleting files
/// there. The earlier benches delete 14,000 logs in the temp directory a minute or two before:
/// that is not arena's cost, and the baseline, which makes no files, does not pay it.
///
/// So: `sync`, wait, then time making files in `dir` and wait until it costs what it does on a
/// quiet disk, probing every 15 s for seven minutes at most. Each probe makes files in several
/// new folders and takes the slowest: ext4 spreads new folders over its groups, as it does the
/// runs' output folders, and one group can be slow while another is quiet (a bench's duels all
/// ran 8% slower than its `arena run`s once, after a probe of one folder had found the disk
/// quiet). The probes' files are kept (deleting them would start it again; there are 5,600 at
/// most); `dir` goes when the bench ends.
pub fn settle_disk(dir: &Path) {
    const FOLDERS: usize = 8;
    const FILES: usize = 25;
    // Twice a quiet disk's cost here (20 to 30 us in 2026-11). At the former 200 us, a run of a thousand
    // games paid up to 0.2 s of CPU in the file system, a third of the C floor's whole run.
    const QUIET: Duration = Duration::from_micros(60);
    // Past the five minutes a deleted inode stays skipped while its table block is unwritten.
    const PATIENCE: Duration = Duration::from_secs(420);
    let started = Instant::now();
    nix::unistd::sync();
    std::thread::sleep(Duration::from_secs(6));
    for probe in 1.. {
        let per_file = (0..FOLDERS)
            .map(|f| {
                let folder = dir.join(format!("disk-probe-{probe}-{f}"));
                std::fs::create_dir(&folder).unwrap_or_else(|e| fail(&format!("disk probe: {e}")));
                // The median, so that one stall of a busy machine does not decide.
                let mut times: Vec<Duration> = (0..FILES)
                    .map(|i| {
                        let t = Instant::now();
                        std::fs::write(folder.join(format!("file-{i:05}")), [b'x'; 300])
                            .unwrap_or_else(|e| fail(&format!("disk probe: {e}")));
                        t.elapsed()
                    })
                    .collect();
                median(&mut times)
            })
            .max()
            .expect("folders were probed");
        let waited = started.elapsed().as_secs();
        if per_file <= QUIET {
            println!(
                "  disk: a file made in {} us, in the slowest of {FOLDERS} new folders (settled after \
                 {waited} s)",
                per_file.as_micros()
            );
            return;
        }
        if started.elapsed() >= PATIENCE {
            println!(
                "  disk: a file still takes {} us to make after {waited} s: figures that make \
                 files are slowed by the file system",
                per_file.as_micros()
            );
            return;
        }
        std::thread::sleep(Duration::from_secs(15));
    }
}

/// `cc -O2 -o DIR/NAME bots/SOURCE`: an example bot, compiled.
pub fn compile_bot(source: &str, dir: &Path, name: &str) -> PathBuf {
    compile_c(&Path::new("bots").join(source), dir, name, &[])
}

/// `cc -O2 FLAGS -o DIR/NAME SOURCE`, SOURCE relative to the repository's root.
pub fn compile_c(source: &Path, dir: &Path, name: &str, flags: &[&str]) -> PathBuf {
    let src = Path::new(MANIFEST).join(source);
    if !src.is_file() {
        fail(&format!("C source not found: {}", src.display()));
    }
    let exe = dir.join(name);
    let mut cmd = Command::new("cc");
    cmd.arg("-O2").args(flags).arg("-o").arg(&exe).arg(&src);
    run("cc", cmd);
    exe
}

/// The C floor, `bench/relay_floor.c`, compiled into `dir`: the least work a roshambo referee
/// can do (`relay_floor BOT ROUNDS GAMES JOBS NAME0 NAME1`).
pub fn build_floor(dir: &Path) -> PathBuf {
    compile_c(
        Path::new("bench/relay_floor.c"),
        dir,
        "relay_floor",
        &["-pthread"],
    )
}

/// A temporary folder for one bench's builds and outputs, named after the bench; removed when
/// dropped.
pub fn bench_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .unwrap_or_else(|e| fail(&format!("cannot create temp dir: {e}")))
}

/// The last lines arena printed in a bench's unmeasured warm-up run, so that a reader sees it
/// played what it was asked to.
pub fn show_warm_up(stdout: &[u8]) {
    let shown: Vec<&str> = std::str::from_utf8(stdout)
        .unwrap_or("<non-UTF-8 output>")
        .lines()
        .collect();
    if !shown.is_empty() {
        println!("  arena duel stdout (warm-up, last lines):");
        for l in &shown[shown.len().saturating_sub(8)..] {
            println!("    | {l}");
        }
    }
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The floor's runs and arena's as a table: microseconds per `unit` (a whole run holds `count`),
/// the fastest and the slowest run. Returns the ratio of the fastest runs, arena to floor.
pub fn floor_table(unit: &str, count: u64, floor: &[Duration], arena: &[Duration]) -> f64 {
    floor_table_with(unit, count, &[("C floor", floor), ("arena duel", arena)])
}

/// `floor_table` with rows of one's own, the floor first and the goal's figure second: the ratio
/// of the second row's fastest run to the first's.
pub fn floor_table_with(unit: &str, count: u64, rows: &[(&str, &[Duration])]) -> f64 {
    let per = |d: Duration| d.as_secs_f64() * 1e6 / count as f64;
    println!();
    println!(
        "  {:<24} {:>10} {:>12} {:>12}",
        "",
        format!("us/{unit}"),
        "fastest ms",
        "slowest ms"
    );
    for &(name, v) in rows {
        println!(
            "  {:<24} {:>10.2} {:>12.1} {:>12.1}",
            name,
            per(fastest(v)),
            ms(fastest(v)),
            ms(slowest(v)),
        );
    }
    println!();
    fastest(rows[1].1).as_secs_f64() / fastest(rows[0].1).as_secs_f64()
}

/// splitmix64, for a fixed-seed simulation.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
