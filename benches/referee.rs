//! Referee benchmark: what does `arena duel --referee` cost per turn of a long game, against the
//! least work any driver of a cg-brutaltester "old mode" referee must do? (Issue 45.)
//!
//! One game of 20,000 turns refereed by `bench/referee.c` (the least a referee costs: a line to
//! the player to move, its answer read, a score kept) between two copies of `bench/sdk_bot.c`
//! (which answers at once), all compiled here with `cc -O2`, played two ways, alternating:
//!
//!   (a) the floor: `bench/referee_floor.c`: spawns the referee and the bots, writes `###Seed`
//!       and `###Start 2`, then relays `###Input` blocks and `###Output` answers with blocking
//!       reads and writes until `###End`;
//!   (b) arena: `arena duel BOT BOT --referee "REFEREE 20000" --referee-max-turns 20000 --timeout
//!       10 --seed 1 --out DIR`, which checks every answer, enforces the deadlines, freezes the
//!       bot not to move, captures stderr and writes the game's log and report;
//!   (c) the same with `--ponder`, which stops no bot: not the goal's figure, printed beside it
//!       to show what stopping the bot not to move costs on the machine.
//!
//! Both run with the environment arena gives its bots (`common::bots_env`). Each whole process is
//! timed, start-up included. After one unmeasured warm-up of each, they run in turn
//! `ARENA_BENCH_REPS` times each (default 7), and the **fastest** run of each is compared: noise
//! on a shared machine only ever slows a run down. Prints microseconds per turn for both, the
//! ratio arena/floor against the goal (1.2x) and the load average before and after. A miss is
//! reported, not failed (benchmarks report, tests assert). The benchmark does fail if a command
//! exits non-zero or cannot be built, or if a game does not end normally after all its turns: a
//! figure from a game cut short means nothing.
//!
//! Run: `cargo bench --bench referee`. Without `--bench` on the command line (e.g. under
//! `cargo test --benches`) it does nothing.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{compile_c, fail, run};

const TURNS: u64 = 20_000;
const GOAL: f64 = 1.2;

fn main() {
    if !common::should_run("referee") {
        return;
    }
    let reps = common::fastest_reps();

    let arena = PathBuf::from(env!("CARGO_BIN_EXE_arena"));
    let tmp = common::bench_dir("arena-referee-bench-");
    let tmp = tmp.path();

    let referee = compile_c(Path::new("bench/referee.c"), tmp, "referee", &[]);
    let bot = compile_c(Path::new("bench/sdk_bot.c"), tmp, "sdk_bot", &[]);
    let floor = compile_c(
        Path::new("bench/referee_floor.c"),
        tmp,
        "referee_floor",
        &[],
    );
    // arena splits the referee's command as a shell would, and the temp dir may hold a space.
    let referee_cmd = shell_words::join([referee.to_string_lossy(), TURNS.to_string().into()]);

    let floor_cmd = || {
        let mut c = Command::new(&floor);
        common::bots_env(&mut c)
            .arg("1")
            .arg(&bot)
            .arg(&bot)
            .arg(&referee)
            .arg(TURNS.to_string());
        c
    };
    // A new folder every run: on ext4 a file made near files deleted in the last minutes is slow
    // to make (README, `throughput`), which deleting each run's folder before the next would cost
    // arena alone. The temp dir goes at the end.
    let mut runs = 0;
    let mut arena_cmd = |ponder: bool| {
        runs += 1;
        let out = tmp.join(format!("out-{runs}"));
        let mut c = Command::new(&arena);
        common::bots_env(&mut c)
            .arg("duel")
            .arg(&bot)
            .arg(&bot)
            .args(["--referee", &referee_cmd])
            .args(["--referee-max-turns", &TURNS.to_string()])
            .args(["--timeout", "10"])
            .args(["--seed", "1"])
            .arg("--out")
            .arg(&out);
        if ponder {
            c.arg("--ponder");
        }
        (c, out)
    };

    println!(
        "referee bench: one game of {TURNS} turns through a referee program, {reps} run(s) of each \
         + 1 warm-up, alternating, fastest compared"
    );
    println!("  referee:  {referee_cmd}");
    println!("  bot:      {}", bot.display());
    println!("  floor:    {}", floor.display());
    println!("  arena:    {}", arena.display());
    let load_before = common::load();

    // Warm-up (unmeasured): page cache, first-exec costs, and a check that both commands play the
    // whole game before we spend time measuring them.
    check_floor(&run("floor", floor_cmd()).1);
    let (cmd, out) = arena_cmd(false);
    let warm = run("arena duel", cmd);
    check_arena(&out);
    common::show_warm_up(&warm.1.stdout);

    let mut tf = Vec::with_capacity(reps);
    let mut ta = Vec::with_capacity(reps);
    let mut tp = Vec::with_capacity(reps);
    for _ in 0..reps {
        let (t, o) = run("floor", floor_cmd());
        check_floor(&o);
        tf.push(t);
        for (ponder, times) in [(false, &mut ta), (true, &mut tp)] {
            let (cmd, out) = arena_cmd(ponder);
            times.push(run("arena duel", cmd).0);
            check_arena(&out);
        }
    }

    let ratio = common::floor_table_with(
        "turn",
        TURNS,
        &[
            ("C floor", &tf),
            ("arena duel", &ta),
            ("arena duel --ponder", &tp),
        ],
    );
    println!(
        "  ratio arena/floor (fastest runs): {ratio:.2}x   goal: <= {GOAL}x {}",
        if ratio <= GOAL { "PASS" } else { "MISS" }
    );
    println!(
        "  (--ponder stops no bot: not the goal's figure, which keeps the bot not to move \
         stopped; the gap between the two rows is what stopping costs here)"
    );
    println!(
        "  load average (1, 5, 15 min): {load_before} before, {} after",
        common::load()
    );
}

/// The floor prints the referee's `###End` line and the turns it relayed.
fn check_floor(out: &Output) {
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let end = lines.next().unwrap_or_default();
    let turns = lines.next().unwrap_or_default();
    if !end.starts_with("###End ") || turns != format!("turns {TURNS}") {
        fail(&format!(
            "the floor's game did not end after {TURNS} turns:\n{text}"
        ));
    }
}

/// The duel's one game ended as the referee said, after every turn: a player out, or the
/// referee's failure, would shorten it.
fn check_arena(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("games.csv"))
        .unwrap_or_else(|e| fail(&format!("reading {}: {e}", dir.display())));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| fail(&format!("games.csv has no {name} column")))
    };
    let (reason, plies) = (column("reason"), column("plies"));
    let games: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let ok = match games.as_slice() {
        [g] => {
            g.get(reason) == Some(&"normal") && g.get(plies) == Some(&TURNS.to_string().as_str())
        }
        _ => false,
    };
    if !ok {
        fail(&format!(
            "arena's game did not end normally after {TURNS} turns ({}):\n{text}",
            dir.display()
        ));
    }
}
