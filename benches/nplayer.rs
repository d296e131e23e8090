//! N-player benchmark: does a move of a 4-player game cost more than a move of a 2-player one?
//!
//! Tron games between copies of `bench/tron_first.c` (the first move that keeps it in: the same
//! small cost a move whatever the number of players, so that what is compared is arena's work,
//! not the bot's), played by `arena match` one at a time: a match of 2 players and a match of 4, the same number of games from the
//! same seed, alternating. Each whole process is timed; the time per move is the run's time over
//! the moves its games recorded (`plies` in games.csv), so each game's start (its bots' processes,
//! its log) is shared by its moves, as it is in a real match. After one unmeasured warm-up of
//! each, they run in turn `ARENA_BENCH_REPS` times each (default 7), and the **fastest** run of
//! each is compared: noise on a shared machine only ever slows a run down. Prints microseconds
//! per move for both and the ratio 4-player/2-player, against the goal: no more (1.0x). With 4
//! players arena stops the three bots not to move (the fairness guarantee) where it stops one
//! with 2: the goal says that this costs nothing per move, since each move thaws one bot and
//! stops the one before whatever the number of players.
//!
//! Run: `cargo bench --bench nplayer`. Without `--bench` on the command line (e.g. under
//! `cargo test --benches`) it does nothing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{compile_c, fail, fastest, run, slowest};

const GAMES: u32 = 30;
const GOAL: f64 = 1.0;

fn main() {
    if !common::should_run("nplayer") {
        return;
    }
    let reps = common::fastest_reps();
    let arena = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let tmp = common::bench_dir("arena-nplayer-bench-");
    let tmp = tmp.path();
    let bot = compile_c(Path::new("bench/tron_first.c"), tmp, "first", &[]);
    let out = |n: usize| tmp.join(format!("out{n}"));
    let cmd = |n: usize| {
        let _ = std::fs::remove_dir_all(out(n));
        let mut c = Command::new(&arena);
        common::bots_env(&mut c)
            .arg("match")
            .args(std::iter::repeat_n(&bot, n))
            .args(["--game", "tron", "--jobs", "1", "--seed", "1"])
            .args(["--games", &GAMES.to_string()])
            .arg("--out")
            .arg(out(n));
        c
    };
    println!(
        "nplayer bench: {GAMES} tron games of tron_first.c bots, 2 players then 4, {reps} run(s) of \
         each + 1 warm-up, alternating, fastest compared"
    );
    let load_before = common::load();
    run("match of 2", cmd(2));
    run("match of 4", cmd(4));
    let moves = [plies(&out(2)), plies(&out(4))];
    let (mut t2, mut t4) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        t2.push(run("match of 2", cmd(2)).0);
        t4.push(run("match of 4", cmd(4)).0);
    }
    let per_move = |d: std::time::Duration, moves: u64| d.as_secs_f64() * 1e6 / moves as f64;
    println!();
    println!(
        "  {:<12} {:>8} {:>10} {:>12} {:>12}",
        "", "moves", "us/move", "fastest ms", "slowest ms"
    );
    for (name, v, m) in [("2 players", &t2, moves[0]), ("4 players", &t4, moves[1])] {
        println!(
            "  {:<12} {:>8} {:>10.1} {:>12.1} {:>12.1}",
            name,
            m,
            per_move(fastest(v), m),
            common::ms(fastest(v)),
            common::ms(slowest(v)),
        );
    }
    let ratio = per_move(fastest(&t4), moves[1]) / per_move(fastest(&t2), moves[0]);
    println!();
    println!(
        "  ratio 4 players/2 players per move (fastest runs): {ratio:.2}x   goal: <= {GOAL}x {}",
        if ratio <= GOAL { "PASS" } else { "MISS" }
    );
    println!(
        "  load average (1, 5, 15 min): {load_before} before, {} after",
        common::load()
    );
}

/// The moves the games of a match's folder recorded.
fn plies(dir: &Path) -> u64 {
    let text = std::fs::read_to_string(dir.join("games.csv"))
        .unwrap_or_else(|e| fail(&format!("reading {}: {e}", dir.display())));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "plies")
        .unwrap_or_else(|| fail("games.csv has no plies column"));
    lines
        .filter_map(|l| l.split(',').nth(at)?.parse::<u64>().ok())
        .sum()
}
