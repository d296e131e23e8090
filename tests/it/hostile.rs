//! Hostile bots (tests/bots/hostile/) in one real tournament: each game ends with the right
//! reason, the tournament completes, every other game is unaffected, and no process of any bot is
//! left afterwards.
//!
//! One gauntlet is played: two seeds, `builtin:random` and `bots/roshambo/random.py`, play every
//! other bot twice (seats alternating): the well-behaved `builtin:counter` (so the two good
//! programs, random.py and counter, also meet) and each hostile bot, which thus plays both seeds
//! twice. One test checks everything the run shows (each check a line of its failure), so that
//! the run's half-minute of deadlines is played once, not once per check; it runs alone
//! (`common::alone`, tests/it/alone.rs).
//! The sandbox case is a small tournament of its own (`sandbox = true`).
//! Set `HOSTILE_KEEP=1` to keep the results folder (its path is printed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

const TIMEOUT_S: f64 = 1.0;
const ROUNDS: u64 = 5;

/// A hostile bot: its script in tests/bots/hostile/ (also its name in the tournament, without
/// `.py`), and the spec lines that go with it (channel, `[bot.limits]`).
const HOSTILE: &[(&str, &str)] = &[
    ("crash_start", ""),
    ("crash_mid", ""),
    ("hang", ""),
    ("late", ""),
    ("flood", ""),
    ("gigabyte_stdout", ""),
    ("gigabyte_stderr", "[bot.limits]\noutput_mb = 2"),
    ("bad_utf8", ""),
    ("close_stdout", ""),
    ("close_stdin", ""),
    ("exit_early", ""),
    ("ignore_sigterm", ""),
    ("fork_holds_pipes", ""),
    ("outlive", ""),
    ("setsid_child", ""),
    ("daemon", ""),
    ("leave_cgroup", ""),
    ("memory_hog", "[bot.limits]\nmemory_mb = 200"),
    ("cpu_spinner", "[bot.limits]\ncpu_seconds = 1"),
    ("big_file", "[bot.limits]\noutput_mb = 2"),
    ("fd_hog", "[bot.limits]\nopen_files = 32"),
    ("fork_many", "[bot.limits]\nprocesses = 10"),
    ("never_opens_fifos", "channel = \"pipe\""),
];

/// The seeds (good, reference) and the good non-seed.
const SEEDS: &[&str] = &["random", "random_py"];
const GOOD: &str = "counter";

/// One finished game, read back from the results folder.
struct Game {
    row: BTreeMap<String, String>,
    /// The `result` entry of the game's log (the --json record: detail, faulted, plies...).
    result: Value,
    log: Vec<Value>,
    /// Each seat's stderr capture.
    stderr: [Vec<u8>; 2],
}

impl Game {
    fn seat_of(&self, bot: &str) -> usize {
        if self.row["seat0"] == bot { 0 } else { 1 }
    }
    fn plies(&self) -> u64 {
        self.result["plies"].as_u64().unwrap()
    }
    fn detail(&self) -> &str {
        self.result["detail"].as_str().unwrap_or_default()
    }
    /// How the bot's process ended, from the log's exit entry.
    fn exit_status(&self, seat: usize) -> String {
        self.log
            .iter()
            .find(|e| e["exit"] == seat)
            .map(|e| e["status"].as_str().unwrap_or_default().to_string())
            .unwrap_or_default()
    }
    fn describe(&self) -> String {
        format!("{:?} {}", self.row, self.result)
    }
}

struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
    games: Vec<Game>,
    standings: Vec<BTreeMap<String, String>>,
    /// Each bot's marker.
    markers: BTreeMap<String, String>,
    /// Each bot's processes still running after the run (killed since, by pid).
    leftovers: BTreeMap<String, Vec<String>>,
}

impl Run {
    /// The games `bot` played, at least one.
    fn games_of(&self, bot: &str) -> Vec<&Game> {
        let g: Vec<&Game> = self
            .games
            .iter()
            .filter(|g| g.row["seat0"] == bot || g.row["seat1"] == bot)
            .collect();
        assert!(!g.is_empty(), "{bot} played no game");
        g
    }
}

/// Unique digits for this run (markers are digits so that `sleep 3601.MARKER` is a number).
fn marker_base() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{:05}{:05}", std::process::id() % 100_000, nanos % 100_000)
}

fn read_csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    r.deserialize().map(|row| row.unwrap()).collect()
}

fn read_games(out: &Path) -> Vec<Game> {
    read_csv(&out.join("games.csv"))
        .into_iter()
        .map(|row| {
            let log_path = PathBuf::from(&row["log"]);
            let log = log_entries(&log_path);
            let result = log
                .iter()
                .find_map(|e| e.get("result").cloned())
                .unwrap_or_else(|| panic!("{} has no result", log_path.display()));
            let stderr = [0, 1].map(|s| {
                std::fs::read(log_path.with_extension(format!("seat{s}.stderr")))
                    .unwrap_or_default()
            });
            Game {
                row,
                result,
                log,
                stderr,
            }
        })
        .collect()
}

/// Processes whose command line holds `marker`, waiting up to a second for them to go (a process
/// SIGKILLed an instant ago may not be gone yet); those still there are reported, then killed.
fn leftovers(marker: &str) -> Vec<String> {
    let started = Instant::now();
    let mut found = processes_with(marker);
    while !found.is_empty() && started.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(50));
        found = processes_with(marker);
    }
    for p in &found {
        if let Some(pid) = p.split(':').next().and_then(|p| p.parse::<i32>().ok()) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
    found
}

/// The good Python bot, from the repository.
fn random_py() -> String {
    format!(
        "python3 {}/bots/roshambo/random.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn play() -> Run {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let base = marker_base();
    let mut markers = BTreeMap::new();
    let mut text = format!(
        "name = \"hostile\"\ngame = \"roshambo\"\nformat = \"gauntlet\"\n\
         timeout = {TIMEOUT_S:.1}\nstartup_timeout = 3.0\njobs = 2\nseed = 1\n\n\
         [params]\nrounds = {ROUNDS}\n\n\
         # Safety nets for every bot; some bots override one to test it.\n\
         [limits]\nmemory_mb = 1024\ncpu_seconds = 30\n\n\
         [[bot]]\nname = \"random\"\ncommand = \"builtin:random\"\nseed = true\n\n\
         [[bot]]\nname = \"random_py\"\ncommand = \"{}\"\nseed = true\n\n\
         [[bot]]\nname = \"{GOOD}\"\ncommand = \"builtin:counter\"\n",
        random_py()
    );
    for (i, (name, extra)) in HOSTILE.iter().enumerate() {
        let marker = format!("{base}{i:02}");
        let command = bot(&format!("hostile/{name}.py"), &marker);
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = \"{command}\"\n{extra}\n"
        ));
        markers.insert(name.to_string(), marker);
    }
    let spec = dir.path().join("hostile.toml");
    std::fs::write(&spec, text).unwrap();

    let started = Instant::now();
    let output = run_into(&spec, &out)
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let leftovers = markers
        .iter()
        .map(|(name, m)| (name.clone(), leftovers(m)))
        .collect();
    let games = if out.join("games.csv").exists() {
        read_games(&out)
    } else {
        Vec::new()
    };
    let standings = if out.join("standings.csv").exists() {
        read_csv(&out.join("standings.csv"))
    } else {
        Vec::new()
    };
    eprintln!(
        "hostile tournament: {elapsed:?}, results in {}",
        out.display()
    );
    if std::env::var_os("HOSTILE_KEEP").is_some() {
        let _ = dir.keep();
    }
    Run {
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        elapsed,
        games,
        standings,
        markers,
        leftovers,
    }
}

/// What a hostile bot's games must show.
#[derive(Clone, Copy)]
enum Expect {
    /// It loses every game by this failure, after `plies` rounds, with a detail containing this.
    Fails(&'static str, u64, &'static str),
    /// It loses by this failure before the last round; how far it gets varies.
    FailsEarly(&'static str),
    /// The game is played to the end (normal or draw).
    Plays,
    /// Checked apart (`fork_many`: where it stops depends on who holds the process limit).
    Unchecked,
}

/// `arena run`'s warning when no cgroup memory controller holds `memory_mb` (RLIMIT_AS does).
fn memory_by_address_space(run: &Run) -> bool {
    run.stderr
        .contains("memory_mb is held here as an address-space limit")
}

fn expectation(bot: &str, run: &Run) -> Expect {
    use Expect::*;
    match bot {
        "crash_start" => Fails("crash", 0, "exited with status 1 at move 1"),
        "crash_mid" => Fails("crash", 2, "was killed by SIGSEGV at move 3"),
        "hang" => Fails(
            "timeout",
            2,
            "timed out at move 3 after 1 s waiting for a line",
        ),
        "late" => Fails(
            "timeout",
            2,
            "timed out at move 3 after 1 s waiting for a line",
        ),
        "flood" => Fails(
            "protocol",
            2,
            "sent a line longer than 65536 bytes at move 3",
        ),
        "gigabyte_stdout" => Fails(
            "protocol",
            2,
            "' where ROCK, PAPER or SCISSORS was expected",
        ),
        "bad_utf8" => Fails("protocol", 2, "sent bytes that are not UTF-8 at move 3"),
        "close_stdout" => Fails("crash", 2, "closed its output at move 3"),
        "close_stdin" => Fails("crash", 3, "closed its input before move 4"),
        "exit_early" => Fails("crash", 2, "exited with status 0 at move 3"),
        "fork_holds_pipes" => Fails("crash", 2, "exited with status 0 at move 3"),
        // Killed by the kernel, or failing an allocation under RLIMIT_AS.
        "memory_hog" if memory_by_address_space(run) => Fails("crash", 2, "at move 3"),
        "memory_hog" => Fails("memory", 2, "at move 3"),
        "big_file" => Fails("crash", 2, "at move 3"),
        "fd_hog" => Fails("crash", 2, "exited with status 1"),
        "cpu_spinner" => FailsEarly("crash"),
        "never_opens_fifos" => Fails(
            "timeout",
            0,
            "did not open COCO_PIPEIN and COCO_PIPEOUT within 3 s",
        ),
        "gigabyte_stderr" | "ignore_sigterm" | "outlive" | "setsid_child" | "daemon"
        | "leave_cgroup" => Plays,
        "fork_many" => Unchecked,
        other => panic!("no expectation for {other}"),
    }
}

/// Microseconds between the last line arena sent to `seat` and the fault: a failure seen at once
/// (an exit, an end of file, a broken pipe) comes well before the deadline would have.
fn fault_delay_us(g: &Game, seat: usize) -> u64 {
    let fault = g
        .log
        .iter()
        .find(|e| e["fault"] == seat)
        .unwrap_or_else(|| panic!("no fault entry: {}", g.describe()));
    let t = fault["t"].as_u64().unwrap();
    let prompt = g
        .log
        .iter()
        .filter(|e| e["to"] == seat && e["t"].as_u64().unwrap() <= t)
        .map(|e| e["t"].as_u64().unwrap())
        .max()
        .unwrap_or(0);
    t - prompt
}

#[test]
fn hostile_bots_lose_with_the_right_reason_and_leave_nothing() {
    // Alone: beside three other tests on 2 cores, the memory hog once timed out before it
    // reached its limit and the spinner ended its game inside its CPU limit.
    alone();
    let run = &play();
    assert_eq!(
        run.status,
        Some(0),
        "the tournament completes\nstdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    let others = HOSTILE.len() + 1;
    assert_eq!(
        run.games.len(),
        SEEDS.len() * others * 2,
        "every game is on record"
    );
    let mut ids: Vec<u64> = run
        .games
        .iter()
        .map(|g| g.row["id"].parse().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, (1..=run.games.len() as u64).collect::<Vec<_>>());
    eprintln!("{} games in {:?}", run.games.len(), run.elapsed);

    let mut failures = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failures.push(what);
        }
    };

    // Every other game is unaffected: the good bots never fail, and their games with each other
    // are played to the end.
    for g in &run.games {
        if let Some(f) = g.result["faulted"].as_u64() {
            let who = &g.row[&format!("seat{f}")];
            check(
                !SEEDS.contains(&who.as_str()) && who != GOOD,
                format!("a good bot failed: {}", g.describe()),
            );
        }
        let good = |s: &str| SEEDS.contains(&s) || s == GOOD;
        if good(&g.row["seat0"]) && good(&g.row["seat1"]) {
            check(
                ["normal", "draw"].contains(&g.row["reason"].as_str()) && g.plies() == ROUNDS,
                format!("good against good: {}", g.describe()),
            );
        }
    }
    assert!(
        run.games.iter().any(
            |g| [&g.row["seat0"], &g.row["seat1"]].contains(&&GOOD.to_string())
                && [&g.row["seat0"], &g.row["seat1"]].contains(&&"random_py".to_string())
        ),
        "the two good programs met"
    );
    for s in SEEDS.iter().chain([&GOOD]) {
        let row = run
            .standings
            .iter()
            .find(|r| r["bot"] == *s)
            .unwrap_or_else(|| panic!("{s} in the standings"));
        check(
            row["timeouts"] == "0" && row["crashes"] == "0" && row["illegal"] == "0",
            format!("{s}'s record has failures: {row:?}"),
        );
    }

    // Each hostile bot's games.
    for (bot, _) in HOSTILE {
        let games = run.games_of(bot);
        check(
            games.len() == 2 * SEEDS.len(),
            format!("{bot} plays each seed twice"),
        );
        // Seen at once, not at the deadline: in the fastest of its games, since a loaded CI
        // machine once took a second over one of these (a Python exit, a bot's first read);
        // arena noticing late would be late in all four.
        if [
            "close_stdout",
            "close_stdin",
            "exit_early",
            "fork_holds_pipes",
        ]
        .contains(bot)
        {
            let delays: Vec<u64> = games
                .iter()
                .filter(|g| g.result["faulted"] == g.seat_of(bot))
                .map(|g| fault_delay_us(g, g.seat_of(bot)))
                .collect();
            check(
                delays
                    .iter()
                    .min()
                    .is_some_and(|&us| us < (TIMEOUT_S * 1e6 * 0.8) as u64),
                format!("{bot}: failed {delays:?} us after its prompts, never at once"),
            );
        }
        for g in games {
            let seat = g.seat_of(bot);
            let reason = g.row["reason"].as_str();
            match expectation(bot, run) {
                Expect::Fails(want, ..) | Expect::FailsEarly(want) => {
                    let lost = reason == want
                        && g.result["faulted"] == seat
                        && g.result["winner"] == 1 - seat
                        && g.row["winner"] == g.row[&format!("seat{}", 1 - seat)];
                    check(
                        lost,
                        format!("{bot} should lose by {want}: {}", g.describe()),
                    );
                    if let Expect::Fails(_, plies, detail) = expectation(bot, run) {
                        check(
                            g.plies() == plies,
                            format!("{bot}: {plies} plies expected: {}", g.describe()),
                        );
                        check(
                            g.detail().contains(detail),
                            format!("{bot}: detail should contain {detail:?}: {}", g.describe()),
                        );
                    } else {
                        check(
                            g.plies() < ROUNDS,
                            format!("{bot}: stopped before the end: {}", g.describe()),
                        );
                    }
                }
                Expect::Plays => check(
                    ["normal", "draw"].contains(&reason)
                        && g.plies() == ROUNDS
                        && g.result.get("faulted").is_none(),
                    format!("{bot}'s game should be played out: {}", g.describe()),
                ),
                Expect::Unchecked => {}
            }

            // Particulars.
            match *bot {
                // The late answer (its first PAPER) is never taken.
                "late" => check(
                    !g.log
                        .iter()
                        .any(|e| e["from"] == seat && e["line"] == "PAPER"),
                    format!("{bot}: the late line was received: {}", g.describe()),
                ),
                // SIGTERM was sent and ignored; SIGKILL ended it.
                "ignore_sigterm" => {
                    let err = String::from_utf8_lossy(&g.stderr[seat]);
                    check(
                        err.contains("ignoring SIGTERM"),
                        format!("{bot}: no SIGTERM was sent; stderr {err:?}"),
                    );
                    let how = g.exit_status(seat);
                    check(
                        how.contains("SIGKILL"),
                        format!("{bot}: should be SIGKILLed, ended as {how:?}"),
                    );
                }
                // The capture keeps `output_mb` = 2 MiB and says how much more was dropped.
                "gigabyte_stderr" => {
                    let err = &g.stderr[seat];
                    let kept = 2 << 20;
                    let head_ok =
                        err.len() > kept && err[..kept].iter().all(|&b| b == b'e' || b == b'\n');
                    let note = String::from_utf8_lossy(&err[kept.min(err.len())..]);
                    let note_ok = note.trim().starts_with("[arena: ")
                        && note.trim().ends_with(&format!(
                            "more bytes of output dropped after the first {kept}]"
                        ));
                    let dropped: u64 = note
                        .trim()
                        .strip_prefix("[arena: ")
                        .and_then(|n| n.split(' ').next())
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0);
                    // A real flood went through arena (it is cut short when the bot is killed
                    // after the game, so not always the whole gigabyte).
                    check(
                        head_ok && note_ok && dropped >= 64 << 20,
                        format!(
                            "{bot}: stderr capture of {} bytes, ending {note:?}",
                            err.len()
                        ),
                    );
                }
                _ => {}
            }
        }
    }

    // The limits that ended a bot are named.
    for (bot, words) in [
        ("memory_hog", &["memory", "limit"][..]),
        ("cpu_spinner", &["cpu", "limit"]),
        ("big_file", &["output", "limit"]),
        ("fork_many", &["process", "limit"]),
        ("fd_hog", &["open files", "limit"]),
    ] {
        failures.extend(limit_not_named(run, bot, words));
    }
    // The process limit binds: either its forks fail (RLIMIT_NPROC, for a user other than
    // root), or arena counts its processes when it next waits for a move: stopped at move 3 or
    // 4 of 5 either way.
    for g in run.games_of("fork_many") {
        if !(2..=3).contains(&g.plies()) {
            failures.push(format!(
                "fork_many should stop at its forks: {}",
                g.describe()
            ));
        }
    }

    // Nothing is left of any bot, not even of those that left their process group.
    for (bot, procs) in &run.leftovers {
        if !procs.is_empty() {
            failures.push(format!(
                "{bot} (marker {}) left {procs:?}",
                run.markers[bot]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed expectations:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Why the games of `bot` do not show a crash whose detail names the limit (all of `words` appear
/// in it, case aside); empty when they do.
fn limit_not_named(run: &Run, bot: &str, words: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    for g in run.games_of(bot) {
        let seat = g.seat_of(bot);
        let detail = g.detail().to_lowercase();
        // Killed by the kernel at its memory limit is a reason of its own.
        let died = g.row["reason"] == "crash" || g.row["reason"] == "memory";
        if !died || g.result["faulted"] != seat || !words.iter().all(|w| detail.contains(w)) {
            problems.push(format!(
                "{bot} should crash with a detail naming the limit ({words:?}): {}",
                g.describe()
            ));
        }
    }
    problems
}

/// A bot must not tamper with the results or read another bot's files: with `sandbox = true`
/// both fail. (Without a sandbox a bot runs as the user running arena, and both succeed.)
#[test]
fn a_bot_cannot_overwrite_the_results_or_read_another_bots_files() {
    let bwrap = std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "true"])
        .status();
    assert!(
        bwrap.is_ok_and(|s| s.success()),
        "the sandbox needs bubblewrap (bwrap), installed by .ci/run"
    );
    // Run as root, sandboxed bots run as nobody: their files must be readable by anyone.
    let dir = readable_tempdir();
    let out = dir.path().join("out");
    let victim = dir.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    let secret = format!("secret-{}", marker_base());
    let secret_file = victim.join("secret.txt");
    std::fs::write(&secret_file, &secret).unwrap();
    let base = marker_base();
    let (tamper_marker, snoop_marker) = (format!("{base}91"), format!("{base}92"));
    // Targets in the environment: a sandbox shows a bot the files its command line names.
    let tamper = readable_bot(dir.path(), "hostile/tamper_results.py", &tamper_marker);
    let snoop = readable_bot(dir.path(), "hostile/snoop.py", &snoop_marker);
    let victim_bot = readable_bot(dir.path(), "../../bots/roshambo/random.py", "");
    let text = format!(
        "name = \"sandbox\"\ngame = \"roshambo\"\nformat = \"gauntlet\"\ntimeout = 1.0\n\
         startup_timeout = 3.0\njobs = 2\nsandbox = true\n\n[params]\nrounds = 5\n\n\
         [[bot]]\nname = \"victim\"\ncommand = \"{}\"\nseed = true\ndir = \"{}\"\n\
         env = {{ SECRET = \"{secret}\" }}\n\n\
         [[bot]]\nname = \"tamper\"\ncommand = \"{tamper}\"\n\
         env = {{ TARGETS = \"{}\" }}\n\n\
         [[bot]]\nname = \"snoop\"\ncommand = \"{snoop}\"\n\
         env = {{ TARGETS = \"{}\" }}\n\n\
         [[bot]]\nname = \"counter\"\ncommand = \"builtin:counter\"\n",
        victim_bot,
        victim.display(),
        out.join("games.csv").display(),
        secret_file.display(),
    );
    let spec = dir.path().join("sandbox.toml");
    std::fs::write(&spec, text).unwrap();
    run_into(&spec, &out)
        .timeout(Duration::from_secs(120))
        .assert()
        .success();
    for m in [&tamper_marker, &snoop_marker] {
        let left = leftovers(m);
        assert!(left.is_empty(), "left: {left:?}");
    }
    let raw = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(!raw.contains("forged"), "games.csv was overwritten:\n{raw}");
    let games = read_games(&out);
    let mut ids: Vec<u64> = games.iter().map(|g| g.row["id"].parse().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (1..=6).collect::<Vec<_>>(), "games.csv:\n{raw}");
    for g in &games {
        // In the sandbox the bots still play: their attempts fail quietly.
        assert!(
            ["normal", "draw"].contains(&g.row["reason"].as_str()),
            "{}",
            g.describe()
        );
        for s in 0..2 {
            let err = String::from_utf8_lossy(&g.stderr[s]);
            assert!(
                !err.contains(&secret),
                "{} read the victim's secret: {err}",
                g.row[&format!("seat{s}")]
            );
        }
    }
    assert_eq!(std::fs::read_to_string(&secret_file).unwrap(), secret);
}
