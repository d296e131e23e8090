//! Round-robin benchmark: a 64-bot round-robin of connect4 (2,016 games) between 24 copies of the
//! compiled example bot `bots/connect4/connect4.c` and 20 each of `builtin:random` and
//! `builtin:search`, played by `arena run`.
//!
//! Prints games per second, arena's own share of all the CPU used (arena's time, which includes
//! the built-in bots' thinking, against arena's plus every bot process's), and arena's peak
//! memory per running game: the run is made twice, one game at a time and `JOBS` at a time
//! (default 16), and the difference in peak resident memory is divided by the extra games.
//! Goal: under 2 MiB per running game.
//!
//! arena's peak memory and the CPU of everything come from `wait4` (arena reaps every bot, so its
//! rusage holds theirs); arena's own CPU from /proc/PID/stat, read every 20 ms until it exits.
//!
//! Run: `cargo bench --bench roundrobin` (env JOBS for the parallel run). Without `--bench` on the
//! command line it does nothing.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{compile_bot, fail};
use nix::libc;

const GOAL_MIB: f64 = 2.0;

struct Measured {
    wall: Duration,
    /// arena alone, and arena with every bot process.
    own_cpu: Duration,
    all_cpu: Duration,
    peak_kib: u64,
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf only reads a configuration value.
    (unsafe { libc::sysconf(libc::_SC_CLK_TCK) }) as f64
}

/// utime + stime of a live process, in seconds.
fn own_cpu(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / clock_ticks())
}

fn measure(arena: &str, spec: &Path, out: &Path, jobs: usize) -> Measured {
    let started = Instant::now();
    // Reaped below by wait4, which also returns its resource usage.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(arena)
        .arg("run")
        .arg(spec)
        .args(["--jobs", &jobs.to_string(), "--out"])
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| fail(&format!("cannot start arena: {e}")));
    let pid = child.id();
    let mut own = 0.0;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        if let Some(t) = own_cpu(pid) {
            own = t;
        }
        // SAFETY: pid is our child; status and usage are valid out-pointers.
        let r = unsafe { libc::wait4(pid as i32, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid as i32 {
            break;
        }
        if r < 0 {
            fail("wait4 failed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        fail(&format!("arena run failed (status {status})"));
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Measured {
        wall: started.elapsed(),
        own_cpu: Duration::from_secs_f64(own),
        all_cpu: Duration::from_secs_f64(tv(usage.ru_utime) + tv(usage.ru_stime)),
        peak_kib: usage.ru_maxrss as u64,
    }
}

fn main() {
    if !common::should_run("roundrobin") {
        return;
    }
    let jobs = common::env_count("JOBS", 16);
    let tmp = tempfile::Builder::new()
        .prefix("arena-roundrobin-bench-")
        .tempdir()
        .unwrap_or_else(|e| fail(&format!("cannot create a temp dir: {e}")));
    let tmp = tmp.path();
    let bot = compile_bot("connect4/connect4.c", tmp, "connect4");
    let mut spec = String::from(
        "name = \"roundrobin-64\"\ngame = \"connect4\"\nformat = \"round-robin\"\nseed = 1\n",
    );
    let kinds = [
        (24, bot.display().to_string(), "c"),
        (20, "builtin:random".into(), "random"),
        (20, "builtin:search".into(), "search"),
    ];
    for (count, command, name) in &kinds {
        for i in 0..*count {
            spec.push_str(&format!(
                "\n[[bot]]\nname = \"{name}-{i:02}\"\ncommand = \"{command}\"\n"
            ));
        }
    }
    let spec_path = tmp.join("spec.toml");
    std::fs::write(&spec_path, spec).unwrap();
    let games = 64 * 63 / 2;
    let arena = env!("CARGO_BIN_EXE_arena");
    println!(
        "roundrobin bench: 64 bots (24 compiled, 20 builtin:random, 20 builtin:search), {games} connect4 games"
    );
    common::settle_disk(tmp);
    let one = measure(arena, &spec_path, &tmp.join("out-1"), 1);
    let many = measure(arena, &spec_path, &tmp.join(format!("out-{jobs}")), jobs);
    println!(
        "\n  {:<8} {:>9} {:>9} {:>12} {:>12} {:>10} {:>13}",
        "jobs", "wall s", "games/s", "arena CPU s", "all CPU s", "arena %", "peak RSS MiB"
    );
    for (j, m) in [(1, &one), (jobs, &many)] {
        println!(
            "  {j:<8} {:>9.2} {:>9.0} {:>12.2} {:>12.2} {:>9.0}% {:>13.1}",
            m.wall.as_secs_f64(),
            games as f64 / m.wall.as_secs_f64(),
            m.own_cpu.as_secs_f64(),
            m.all_cpu.as_secs_f64(),
            100.0 * m.own_cpu.as_secs_f64() / m.all_cpu.as_secs_f64(),
            m.peak_kib as f64 / 1024.0
        );
    }
    let per_game =
        (many.peak_kib as f64 - one.peak_kib as f64).max(0.0) / 1024.0 / (jobs - 1).max(1) as f64;
    println!(
        "\n  peak memory per running game: {per_game:.2} MiB (({:.1} - {:.1}) / {})   goal: < {GOAL_MIB} MiB   {}",
        many.peak_kib as f64 / 1024.0,
        one.peak_kib as f64 / 1024.0,
        jobs - 1,
        if per_game < GOAL_MIB { "PASS" } else { "MISS" }
    );
}
