//! `arena duel` as a bot's author uses it to compare two versions: games in parallel, told in
//! order and recorded as they end, and what a duel stopped or killed leaves.

use crate::common::*;
use predicates::prelude::*;

/// With `--jobs 2`, game 1 is held until game 2 is in games.csv (tests/bots/nim_waits.py): both
/// finish normally only if they run at once, and a row goes to disk as its game ends, not held
/// back behind a game still running. They are still told in the order of the games.
#[test]
fn parallel_games_finish_out_of_order_and_are_told_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let waits = bot("nim_waits.py", &dir.path().display().to_string());
    let duel = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "duel",
            &waits,
            "builtin:random",
            "-g",
            "nim",
            "-a",
            "heaps=1",
        ])
        .args(["--games", "2", "--jobs", "2", "--timeout", "20", "--json"])
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&out, 1);
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "a header and game 2's row: {csv}");
    assert!(rows[0].starts_with("id,round,seat0,seat1,"), "{csv}");
    assert!(
        rows[1].starts_with("2,2,") && rows[1].ends_with("game-00002.jsonl"),
        "{csv}"
    );
    std::fs::write(dir.path().join("released"), "").unwrap();
    let a = duel.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&a.stderr).to_string();
    assert!(a.status.success(), "{text}");
    assert!(text.contains("2 game(s), 2 at a time"), "{text}");
    let records = json_records(&a.stdout);
    let logs: Vec<&str> = records.iter().map(|r| r["log"].as_str().unwrap()).collect();
    assert_eq!(logs.len(), 2);
    assert!(logs[0].ends_with("game-00001.jsonl") && logs[1].ends_with("game-00002.jsonl"));
    for r in &records {
        assert_eq!(r["reason"], "normal", "{r}");
    }
    // Seats alternate: the waiting bot took the stone in game 1, the built-in in game 2.
    assert_eq!(records[0]["winner"], 0);
    assert_eq!(records[1]["winner"], 0);
    let one = text.find("Finished game 1").unwrap();
    let two = text.find("Finished game 2").unwrap();
    assert!(one < two, "told in order: {text}");
    // games.csv holds the same records as a tournament's does, in the order they were
    // recorded: game 2's, then game 1's.
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3, "a header and two rows: {csv}");
    assert!(
        rows[2].starts_with("1,1,") && rows[2].ends_with("game-00001.jsonl"),
        "{csv}"
    );
    // So `arena report` writes a duel's page again, as it does a tournament's.
    let page = out.join("report.html");
    std::fs::remove_file(&page).unwrap();
    arena()
        .arg("report")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("2 games in"));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("game-00002.jsonl"),
        "the page lists both games"
    );
}

#[test]
fn a_person_plays_one_game_at_a_time_and_odd_matches_warn() {
    arena()
        .args(["duel", "-", "builtin:random", "-g", "nim", "--jobs", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--jobs: a person (-) plays one game at a time",
        ));
    arena()
        .args([
            "duel",
            "builtin:random",
            "builtin:random",
            "-g",
            "nim",
            "--games",
            "3",
        ])
        .arg("--out")
        .arg(tempfile::tempdir().unwrap().path())
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "3 games: random-1 plays first once more than random-2",
        ));
}

/// The header of game `n`'s log in `out`.
fn header(out: &std::path::Path, n: usize) -> serde_json::Value {
    log_entries(&game_log(out, n))[0]["header"].clone()
}

/// The lines the bots sent in game `n`, in order.
fn moves(out: &std::path::Path, n: usize) -> Vec<String> {
    log_entries(&game_log(out, n))
        .iter()
        .filter(|e| e.get("from").is_some())
        .map(|e| e["line"].as_str().unwrap().to_string())
        .collect()
}

fn players(header: &serde_json::Value) -> Vec<String> {
    header["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

/// Two copies of a deterministic bot play one game over and over; with `--random-plies` each
/// pair of games starts from its own position, played twice with seats swapped, and a log
/// replays from its opening.
#[test]
fn random_plies_make_deterministic_bots_play_different_games_in_pairs() {
    let first = bot("nim_first.py", "");
    let play = |extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        arena()
            .args([
                "duel", &first, &first, "-g", "nim", "--games", "6", "--seed", "11",
            ])
            .args(extra)
            .arg("--out")
            .arg(dir.path())
            .assert()
            .success();
        dir
    };
    let same = play(&[]);
    for n in 2..=6 {
        assert_eq!(moves(same.path(), n), moves(same.path(), 1));
        assert!(header(same.path(), n).get("opening").is_none());
    }
    let varied = play(&["--random-plies", "4"]);
    let mut openings = std::collections::HashSet::new();
    for pair in 0..3 {
        let (a, b) = (
            header(varied.path(), 2 * pair + 1),
            header(varied.path(), 2 * pair + 2),
        );
        let opening = a["opening"].as_str().expect("an opening").to_string();
        assert_eq!(b["opening"], a["opening"], "pair {pair}: the same opening");
        let (mut pa, pb) = (players(&a), players(&b));
        pa.reverse();
        assert_eq!(pa, pb, "pair {pair}: seats swapped");
        assert_ne!(opening, "3,4,5 0", "four plies from the start");
        openings.insert(opening);
    }
    assert!(openings.len() > 1, "{openings:?}");
    let games: std::collections::HashSet<Vec<String>> =
        (1..=6).map(|n| moves(varied.path(), n)).collect();
    assert!(games.len() > 1, "the games differ");
    arena()
        .arg("replay")
        .arg(game_log(varied.path(), 3))
        .assert()
        .success()
        .stderr(predicate::str::contains("the result agrees"));
}

/// `--openings` naming what is not a regular file (a FIFO, a device, a directory) is refused at
/// once, without reading it: a FIFO held the duel forever, deaf to SIGTERM. A file beyond the
/// bound is refused before it is read.
#[test]
fn openings_that_are_not_a_regular_file_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("book.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let huge = dir.path().join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((16 << 20) + 1)
        .unwrap();
    let cases = [
        (
            fifo,
            "is a FIFO (a named pipe): openings are read from a regular file",
        ),
        (
            "/dev/zero".into(),
            "is a character device: openings are read from a regular file",
        ),
        (
            "/dev/stdin".into(),
            ": openings are read from a regular file",
        ),
        (
            dir.path().to_path_buf(),
            "is a directory: openings are read from a regular file",
        ),
        (
            huge,
            "has 16777217 bytes, more than an openings file may have (16 MiB)",
        ),
    ];
    for (path, why) in cases {
        arena()
            .args(["duel", "builtin:random", "builtin:random", "-g", "nim"])
            .arg("--openings")
            .arg(&path)
            .arg("--out")
            .arg(dir.path().join("out"))
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "--openings: {}",
                path.display()
            )))
            .stderr(predicate::str::contains(why));
    }
}

/// An openings file is played in order, each position twice; a bad line is refused with the
/// file and its number, before any game.
#[test]
fn openings_files_are_played_in_order_and_checked_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "# two openings\n1,2 0\n\n2,2 1\n").unwrap();
    let out = dir.path().join("out");
    arena()
        .args([
            "duel",
            "builtin:random",
            "builtin:search",
            "-g",
            "nim",
            "--games",
            "4",
        ])
        .arg("--openings")
        .arg(&book)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let openings: Vec<String> = (1..=4)
        .map(|n| header(&out, n)["opening"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(openings, ["1,2 0", "1,2 0", "2,2 1", "2,2 1"]);

    for (text, why) in [
        ("1,2 0\n1,2\n", "a position is HEAPS SEAT"),
        ("1,2 0\n\n0,0 1\n", "no stone is left"),
    ] {
        std::fs::write(&book, text).unwrap();
        let line = text.lines().count();
        arena()
            .args(["duel", "builtin:random", "builtin:random", "-g", "nim"])
            .arg("--openings")
            .arg(&book)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "--openings: {}:{line}: ",
                book.display()
            )))
            .stderr(predicate::str::contains(why));
    }
    // Refused before anything is made: no results folder is left behind.
    let cwd = tempfile::tempdir().unwrap();
    arena()
        .current_dir(cwd.path())
        .args(["duel", "builtin:random", "builtin:random", "-g", "roshambo"])
        .args(["--random-plies", "4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "roshambo has no positions to start from",
        ));
    assert!(!cwd.path().join("results").exists());
}

/// A strong built-in against `random` reaches H1 long before `--games`, says so, and exits 0;
/// equal bots against a large elo1 reach H0.
#[test]
fn sprt_stops_as_soon_as_it_knows() {
    let duel = |a: &str, b: &str, sprt: &str| {
        let dir = tempfile::tempdir().unwrap();
        let out = arena()
            .args([
                "duel",
                a,
                b,
                "-g",
                "tictactoe",
                "--seed",
                "1",
                "--games",
                "1000",
            ])
            // Games still running when the verdict comes are recorded, and change nothing: those
            // that started while the deciding games went to disk too, since a game counts once
            // it is on disk.
            .args(["--sprt", sprt, "--jobs", "3", "--json", "--out"])
            .arg(dir.path())
            .assert()
            .success();
        let records = json_records(&out.get_output().stdout);
        let summary = json_summary(&out.get_output().stdout);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        (records, summary, stderr)
    };
    let (records, summary, stderr) = duel("builtin:search", "builtin:random", "elo0=0,elo1=100");
    let games = records.len();
    assert!(games < 1000, "{games} games: the duel did not stop");
    assert_eq!(summary["games"], games);
    assert_eq!(summary["sprt"]["result"], "H1");
    let llr = summary["sprt"]["llr"].as_f64().unwrap();
    assert!(
        llr >= summary["sprt"]["upper"].as_f64().unwrap(),
        "{summary}"
    );
    let decided = summary["sprt"]["games"].as_u64().unwrap() as usize;
    assert!(decided <= games && decided < 200, "{summary}");
    assert!(
        stderr.contains(&format!("H1 accepted after {decided} games")),
        "{stderr}"
    );
    assert!(stderr.contains("H1 accepted after"), "{stderr}");
    assert!(
        stderr.contains("; LLR "),
        "the LLR on each game's line: {stderr}"
    );

    let (records, summary, stderr) = duel("builtin:random", "builtin:random", "elo0=0,elo1=400");
    assert!(
        records.len() < 1000,
        "{} games: the duel did not stop",
        records.len()
    );
    assert!(
        summary["sprt"]["games"].as_u64().unwrap() < 200,
        "{summary}"
    );
    assert_eq!(summary["sprt"]["result"], "H0", "{summary}");
    assert!(stderr.contains("H0 accepted after"), "{stderr}");

    arena()
        .args(["duel", "builtin:random", "builtin:random", "-g", "nim"])
        .args(["--sprt", "elo0=5,elo1=0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--sprt elo0=5,elo1=0: "));
}

/// The summary of a match whose every game the first mover wins (nim with one stone): 2 wins
/// and 2 losses, two pairs of a win and a loss. By hand: the score is 0.5, so the Elo
/// difference is 0; the per-game standard deviation is 0.5, the standard error 0.5/√4 = 0.25, so
/// the score's 95% interval is 0.5 ± 1.959964·0.25 = [0.010009, 0.989991], which is
/// ±400·log10(1/0.010009 - 1) = ±400·1.99524 = ±798.1 Elo; LOS = Φ(0) = 50%. Every pair scores exactly
/// 1, so the pairs have no variance and no interval.
#[test]
fn the_summary_matches_a_hand_computed_example() {
    let dir = tempfile::tempdir().unwrap();
    let first = bot("nim_first.py", "1");
    let out = arena()
        .args([
            "duel",
            &first,
            "builtin:random",
            "-g",
            "nim",
            "-a",
            "heaps=1",
        ])
        .args(["--games", "4", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(json_records(&out.get_output().stdout).len(), 4);
    let summary = &json_summary(&out.get_output().stdout);
    assert_eq!(
        (&summary["wins"], &summary["draws"], &summary["losses"]),
        (&2.into(), &0.into(), &2.into())
    );
    assert_eq!(summary["pentanomial"], serde_json::json!([0, 0, 2, 0, 0]));
    assert_eq!(summary["elo"]["estimate"], 0.0);
    let upper = summary["elo"]["upper"].as_f64().unwrap();
    assert!((upper - 798.1).abs() < 0.05, "{upper}");
    assert!((summary["elo"]["lower"].as_f64().unwrap() + upper).abs() < 1e-9);
    assert_eq!(summary["los"], 0.5);
    assert_eq!(summary["pair_elo"]["lower"], serde_json::Value::Null);
    let text = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        text.contains("Score 2 of 4 games (50.0%), draw ratio 0.0%; Elo difference 0.0 +/- 798.1 (95%), LOS 50.0%"),
        "{text}"
    );
    assert!(
        text.contains("Pairs (LL, LD, DD/WL, WD, WW): 0, 0, 2, 0, 0"),
        "{text}"
    );
}

/// In a parallel duel a slot plays on while a finished game's bot's stderr is still coming (a
/// process it left holds the pipe): that game is written only once its stderr has ended, with
/// every word of it. Here the test holds both games' bots' stderr open past their exits.
#[test]
fn a_parallel_game_is_written_once_its_bots_stderr_has_ended() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    let marker = format!("duel-stderr-held-{}", std::process::id());
    let held = bot("waits_for_go.py", &format!("{} {marker}", go.display()));
    let out = dir.path().join("out");
    let mut duel = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["duel", &held, "builtin:random"])
        .args([
            "-g", "roshambo", "-a", "rounds=1", "--games", "2", "--jobs", "2",
        ])
        .args([
            "--timeout",
            "30",
            "--startup-timeout",
            "30",
            "--json",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let pids = loop {
        // The bots, not arena, whose command line names them (nor a process arena is
        // starting, which shows arena's command line until it execs), nor a wrapper that
        // `python3` may be (pyenv's shim is a shell script that forks before it execs Python).
        let python = |pid: &String| {
            std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| {
                exe.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("python"))
            })
        };
        let found: Vec<String> = processes_with(&marker)
            .iter()
            .filter(|p| p.contains("waits_for_go.py") && !p.contains(" duel "))
            .map(|p| p.split(':').next().unwrap().to_string())
            .filter(python)
            .collect();
        if found.len() == 2 {
            break found;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "both games' bots never started: {found:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    // A second writer on each bot's stderr pipe, as a process it left behind would be.
    let mut writers: Vec<std::fs::File> = pids
        .iter()
        .map(|pid| {
            std::fs::OpenOptions::new()
                .write(true)
                .open(format!("/proc/{pid}/fd/2"))
                .unwrap()
        })
        .collect();
    std::fs::write(&go, "").unwrap();
    for pid in &pids {
        while std::path::Path::new(&format!("/proc/{pid}")).exists() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "a bot never ended"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    // Well inside the one second arena waits for a capture to end.
    std::thread::sleep(Duration::from_millis(50));
    if let Some(status) = duel.try_wait().unwrap() {
        let mut text = String::new();
        use std::io::Read;
        duel.stdout
            .take()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        panic!(
            "the duel {} ended ({status}) while its bots' stderr was open: {:?} {text}",
            duel.id(),
            processes_with(&marker)
        );
    }
    for w in &mut writers {
        w.write_all(b"late words\n").unwrap();
    }
    drop(writers);
    let output = duel.wait_with_output().unwrap();
    assert!(output.status.success());
    let records = json_records(&output.stdout);
    let logs: Vec<String> = records
        .iter()
        .map(|r| r["log"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        logs,
        [1, 2].map(|n| game_log(&out, n).display().to_string())
    );
    for n in [1, 2] {
        let entries = log_entries(&game_log(&out, n));
        assert!(
            entries.last().unwrap().get("result").is_some(),
            "game {n}'s log ends with its result"
        );
        // The held bot sits in seat 0 of game 1 and seat 1 of game 2.
        let seat = n - 1;
        let said =
            std::fs::read_to_string(game_log(&out, n).with_extension(format!("seat{seat}.stderr")))
                .unwrap();
        assert_eq!(said, "late words\n", "game {n}");
    }
}

/// `arena duel` of two slow roshambo bots (every game a draw), `--jobs 2`, in the background
/// into `out`, with `extra` arguments; stdout and stderr piped.
fn spawn_slow_duel(out: &std::path::Path, extra: &[&str]) -> std::process::Child {
    slow_duel(out, extra).spawn().unwrap()
}

fn slow_duel(out: &std::path::Path, extra: &[&str]) -> std::process::Command {
    let slow = bot("slow_rps.py", "0.02");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(["duel", &slow, &slow, "-g", "roshambo", "-a", "rounds=4"])
        .args(["--names", "a,b", "--games", "400", "--jobs", "2"])
        .args(["--timeout", "10", "--out"])
        .arg(out)
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    cmd
}

/// SIGHUP (a closed terminal, a dropped ssh session) stops a duel as SIGTERM does, its games
/// recorded; and arena started with SIGINT, SIGTERM and SIGHUP blocked, as a supervisor may
/// start it, still hears them. (Before, a hang-up killed it with its running games, and blocked
/// signals left it deaf to all but SIGKILL.)
#[test]
fn a_hangup_and_signals_blocked_by_whoever_started_arena_stop_a_duel_as_sigterm_does() {
    use nix::sys::signal::{SigSet, SigmaskHow, Signal, kill, sigprocmask};
    use nix::unistd::Pid;
    use std::os::unix::process::CommandExt;
    for (signal, blocked) in [(Signal::SIGHUP, false), (Signal::SIGTERM, true)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let mut cmd = slow_duel(&out, &[]);
        if blocked {
            // SAFETY: sigprocmask is async-signal-safe; nothing else runs before exec.
            unsafe {
                cmd.pre_exec(|| {
                    let mut set = SigSet::empty();
                    for s in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
                        set.add(s);
                    }
                    sigprocmask(SigmaskHow::SIG_BLOCK, Some(&set), None)
                        .map_err(std::io::Error::from)
                });
            }
        }
        let duel = cmd.spawn().unwrap();
        wait_for_lines(&out, 2);
        kill(Pid::from_raw(duel.id() as i32), signal).unwrap();
        let output = duel.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        let what = format!("{signal}, blocked: {blocked}");
        assert_eq!(output.status.code(), Some(130), "{what}: {stderr}");
        assert!(
            stderr.contains("stopping: no new games"),
            "{what}: {stderr}"
        );
        let n = recorded_once(&out).len();
        assert!((2..400).contains(&n), "{what}: {n} games");
        assert!(
            stderr.contains(&format!("stopped with {n} games recorded in")),
            "{what}: {stderr}"
        );
    }
}

/// The ids in `out/games.csv`, checked to be there once each, and each with its log whole: a row
/// is written only after its game's log has its result.
fn recorded_once(out: &std::path::Path) -> std::collections::BTreeSet<usize> {
    let rows = games(out);
    let ids: std::collections::BTreeSet<usize> =
        rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert_eq!(ids.len(), rows.len(), "a game recorded twice: {rows:?}");
    for &id in &ids {
        let entries = log_entries(&game_log(out, id));
        assert!(entries.last().unwrap().get("result").is_some(), "game {id}");
    }
    ids
}

/// SIGTERM or SIGINT: no new game starts, the running ones finish and are recorded, the summary
/// (and the SPRT's state) of the games recorded is printed, and the exit status is 130.
#[test]
fn a_signal_stops_a_duel_with_its_games_recorded_and_summed_up() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    for (signal, extra) in [
        (Signal::SIGTERM, &["--sprt", "elo0=0,elo1=10"][..]),
        (Signal::SIGINT, &["--json"][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let duel = spawn_slow_duel(&out, extra);
        wait_for_lines(&out, 2);
        kill(Pid::from_raw(duel.id() as i32), signal).unwrap();
        let output = duel.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert_eq!(output.status.code(), Some(130), "{signal}: {stderr}");
        assert!(stderr.contains("stopping: no new games"), "{stderr}");
        let ids = recorded_once(&out);
        let n = ids.len();
        assert!((2..400).contains(&n), "{signal}: {n} games");
        // Every game that started finished and was recorded: the first n.
        assert_eq!(ids, (1..=n).collect(), "{signal}");
        let logs = std::fs::read_dir(out.join("logs")).unwrap();
        let started = logs
            .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "jsonl")
            .count();
        assert_eq!(started, n, "{signal}: a game started and was not recorded");
        assert!(
            stderr.contains(&format!("stopped with {n} games recorded in")),
            "{stderr}"
        );
        if signal == Signal::SIGTERM {
            assert_eq!(stdout.matches("Finished game").count(), n, "{stdout}");
            assert!(
                stdout.contains(&format!("a vs b: 0 wins, {n} draws, 0 losses for a")),
                "{stdout}"
            );
            assert!(
                stdout.contains(&format!(
                    "no verdict yet: stopped with {n} games recorded, LLR "
                )),
                "{stdout}"
            );
        } else {
            assert_eq!(json_records(&output.stdout).len(), n);
            let summary = json_summary(&output.stdout);
            assert_eq!(summary["games"], n, "{summary}");
            assert_eq!(summary["draws"], n, "{summary}");
            assert_eq!(summary["interrupted"], true, "{summary}");
        }
    }
}

/// A parallel duel killed outright leaves every game finished before in games.csv, from which
/// `arena report` and `arena ratings` work as on a tournament's folder.
#[test]
fn a_duel_killed_midway_keeps_its_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut duel = spawn_slow_duel(&out, &[]);
    wait_for_lines(&out, 2);
    duel.kill().unwrap(); // SIGKILL
    duel.wait().unwrap();
    let n = recorded_once(&out).len();
    assert!((2..400).contains(&n), "{n} games");
    arena()
        .arg("report")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("{n} games in")));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains("game-00002.jsonl"),
        "the page lists the games"
    );
    arena()
        .arg("ratings")
        .arg(out.join("games.csv"))
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("{n} games from 1 file")))
        .stdout(predicate::str::contains("a").and(predicate::str::contains("b")));
}

/// A duel is not resumed, and does not write over the games of another: a folder with games is
/// refused, and keeps them.
#[test]
fn a_duel_into_a_folder_with_games_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let duel = || {
        let mut cmd = arena();
        cmd.args(["duel", "builtin:random", "builtin:random", "-g", "nim"])
            .args(["--games", "2", "--out"])
            .arg(dir.path());
        cmd
    };
    duel().assert().success();
    let before = std::fs::read(dir.path().join("games.csv")).unwrap();
    duel()
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{} already holds 2 games: a duel does not add to games played before",
            dir.path().join("games.csv").display()
        )));
    assert_eq!(std::fs::read(dir.path().join("games.csv")).unwrap(), before);
}

/// Each bot's answer times, what a player tunes by: in the duel's summary, in the standings of
/// its report, and in every game's record.
#[test]
fn a_duel_sums_up_each_bots_answer_times() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let slow = bot("slow_rps.py", "0.05");
    let output = arena()
        .args([
            "duel",
            &slow,
            "python3 bots/roshambo/random.py",
            "-g",
            "roshambo",
        ])
        .args([
            "--names",
            "slow,quick",
            "--games",
            "2",
            "-a",
            "rounds=4",
            "--json",
        ])
        .args(["--timeout", "5", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    for r in json_records(&output.stdout) {
        let times = r["times"].as_array().expect("each seat's times");
        assert_eq!(times.len(), 2, "{r}");
        for t in times {
            assert_eq!(t["answers"], 4, "{r}");
            assert_eq!(t["near"], 0, "{r}");
        }
    }
    let line = |name: &str| {
        stderr_or_stdout_line(&output, &format!("Answers of {name}: mean "))
            .unwrap_or_else(|| panic!("no answer times of {name}: {stdout}"))
    };
    // "Answers of slow: mean 51 ms, slowest 60 ms, 0 of 8 at 80% of the allowance or more"
    let ms = |l: &str, after: &str| -> f64 {
        let rest = &l[l.find(after).unwrap() + after.len()..];
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    let slow_line = line("slow");
    assert!(ms(&slow_line, "mean ") >= 45.0, "{slow_line}");
    assert!(
        slow_line.ends_with("0 of 8 at 80% of the allowance or more"),
        "{slow_line}"
    );
    assert!(ms(&line("quick"), "mean ") < 45.0, "{}", line("quick"));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains("\"mean_answer_ms\""),
        "the report's standings have them"
    );
}

/// The line of arena's output (stdout or stderr) that starts with `start`.
fn stderr_or_stdout_line(output: &std::process::Output, start: &str) -> Option<String> {
    [&output.stdout, &output.stderr]
        .iter()
        .flat_map(|b| {
            String::from_utf8_lossy(b)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .find(|l| l.starts_with(start))
}

/// `arena ratings` takes a results folder for its games.csv: the same table either way.
#[test]
fn ratings_of_a_results_folder_are_those_of_its_games_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    arena()
        .args([
            "duel",
            "builtin:random",
            "builtin:counter",
            "-g",
            "roshambo",
        ])
        .args(["--games", "4", "--seed", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let table = |path: &std::path::Path| {
        let output = arena().arg("ratings").arg(path).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let of_folder = table(&out);
    assert!(of_folder.contains("counter"), "{of_folder}");
    assert_eq!(of_folder, table(&out.join("games.csv")));
}
