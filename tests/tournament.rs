//! `arena run` and `arena ratings`: real tournaments of real bot processes.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use predicates::prelude::*;

/// Write a spec into `dir`; `bots` are (name, command, extra lines).
fn spec(dir: &Path, head: &str, bots: &[(&str, &str, &str)]) -> PathBuf {
    let mut text = format!("{head}\n");
    for (name, command, extra) in bots {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = \"{command}\"\n{extra}\n"
        ));
    }
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn games(out: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
    r.deserialize().map(|row| row.unwrap()).collect()
}

fn standings(out: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("standings.csv")).unwrap();
    r.deserialize().map(|row| row.unwrap()).collect()
}

/// Start `arena run SPEC --out OUT` in the background, stderr piped (for tests that stop it).
fn spawn_run(path: &Path, out: &Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(path)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait until games.csv holds more than `lines` lines (the header counts as one).
fn wait_for_lines(out: &Path, lines: usize) {
    let started = Instant::now();
    while std::fs::read_to_string(out.join("games.csv")).map_or(0, |t| t.lines().count()) <= lines {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the run does not progress"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A bot's exit can be seen before the end of its stderr: a game counts only once its stderr
/// is all in its file. Here the test itself holds the bot's stderr open past the bot's exit.
#[test]
fn a_game_is_recorded_only_once_its_bots_stderr_has_ended() {
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    let marker = format!("stderr-held-{}", std::process::id());
    let path = spec(
        dir.path(),
        "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 1\nseed = 1\n[params]\nrounds = 1",
        &[
            (
                "held",
                &bot("waits_for_go.py", &format!("{} {marker}", go.display())),
                "",
            ),
            ("other", "builtin:random", ""),
        ],
    );
    let out = dir.path().join("out");
    let mut run = spawn_run(&path, &out);
    let started = Instant::now();
    let pid = loop {
        if let Some(p) = processes_with(&marker).first() {
            break p.split(':').next().unwrap().to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    // A second writer on the bot's stderr pipe, as a process it left behind would be.
    let mut held = std::fs::OpenOptions::new()
        .write(true)
        .open(format!("/proc/{pid}/fd/2"))
        .unwrap();
    std::fs::write(&go, "").unwrap();
    while Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot never ended"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Well inside the one second arena waits for a capture to end.
    std::thread::sleep(Duration::from_millis(300));
    let rows = std::fs::read_to_string(out.join("games.csv")).unwrap_or_default();
    assert!(
        rows.lines().count() <= 1,
        "recorded while its stderr was open:\n{rows}"
    );
    use std::io::Write;
    held.write_all(b"late words\n").unwrap();
    drop(held);
    assert!(run.wait().unwrap().success());
    assert_eq!(games(&out).len(), 1);
    let said: String = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "stderr"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(said, "late words\n");
}

#[test]
fn spec_errors_name_file_line_and_column_and_nothing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = spec(
        dir.path(),
        "name = \"t\"\ngame = \"tictactoe\"",
        &[("a", "builtin:random", ""), ("a", "builtin:search", "")],
    );
    arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}:10:8: duplicate bot name 'a' (first used on line 5)",
            path.display()
        )));
    assert!(
        !dir.path().join("out").exists(),
        "nothing is created for a bad spec"
    );
    let path = spec(
        dir.path(),
        "name = \"t\"\ngame = \"tictactoe\"\nspeed = 1",
        &[],
    );
    arena()
        .arg("run")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":3:1: unknown field `speed`"));
}

#[test]
fn a_round_robin_with_a_known_winner() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let path = spec(
        dir.path(),
        "name = \"ttt\"\ngame = \"tictactoe\"\ngames_per_pairing = 4\nseed = 7",
        &[
            ("rand1", "builtin:random", ""),
            ("perfect", "builtin:search", ""),
            ("rand2", "builtin:random", ""),
            (
                "rand3",
                "python3 ../../../../work/main/bots/tictactoe/random.py",
                "",
            ),
        ],
    );
    // The Python bot's path is relative to the spec's folder; make it point at the repository.
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "python3 ../../../../work/main/bots/tictactoe/random.py",
        &format!(
            "python3 {}/bots/tictactoe/random.py",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    std::fs::write(&path, text).unwrap();
    arena()
        .arg("run")
        .arg(&path)
        .args(["--jobs", "2", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Finished game 24 (").and(predicate::str::contains("perfect")),
        );
    let rows = games(&out);
    assert_eq!(rows.len(), 4 * 3 / 2 * 4, "every pair, four games each");
    let ids: BTreeSet<u64> = rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert_eq!(ids, (1..=24).collect());
    // The perfect player never loses.
    for r in &rows {
        if r["seat0"] == "perfect" || r["seat1"] == "perfect" {
            assert!(r["winner"] == "perfect" || r["winner"].is_empty(), "{r:?}");
        }
    }
    let table = standings(&out);
    assert_eq!(table[0]["bot"], "perfect");
    assert_eq!(table[0]["rank"], "1");
    assert_eq!(table[0]["losses"], "0");
    let cross = std::fs::read_to_string(out.join("crosstable.csv")).unwrap();
    assert!(
        cross.starts_with("bot,rand1,perfect,rand2,rand3\n"),
        "{cross}"
    );
    for r in &rows {
        assert!(Path::new(&r["log"]).is_file(), "{}", r["log"]);
    }
}

#[test]
fn a_swiss_of_nine_has_no_rematch_and_one_bye_per_round() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bots: Vec<(String, &str)> = (0..9)
        .map(|i| {
            (
                format!("b{i}"),
                if i % 3 == 0 {
                    "builtin:greedy"
                } else {
                    "builtin:random"
                },
            )
        })
        .collect();
    let list: Vec<(&str, &str, &str)> = bots.iter().map(|(n, c)| (n.as_str(), *c, "")).collect();
    let path = spec(
        dir.path(),
        "name = \"sw\"\ngame = \"royalur\"\nformat = \"swiss\"\nrounds = 5",
        &list,
    );
    let assert = arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    let rows = games(&out);
    assert_eq!(rows.len(), 5 * 4);
    let mut pairs = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for round in 1..=5 {
        let this: Vec<_> = rows
            .iter()
            .filter(|r| r["round"] == round.to_string())
            .collect();
        assert_eq!(this.len(), 4, "round {round}");
        let mut seen = BTreeSet::new();
        for r in &this {
            assert!(seen.insert(r["seat0"].clone()) && seen.insert(r["seat1"].clone()));
            let pair = (
                r["seat0"].clone().min(r["seat1"].clone()),
                r["seat0"].clone().max(r["seat1"].clone()),
            );
            assert!(pairs.insert(pair), "a rematch in round {round}: {r:?}");
        }
        let bye: Vec<_> = bots
            .iter()
            .map(|(n, _)| n)
            .filter(|n| !seen.contains(*n))
            .collect();
        assert_eq!(bye.len(), 1, "one bye in round {round}");
        assert!(byes.insert(bye[0].clone()), "{} had two byes", bye[0]);
        assert!(stdout.contains(&format!("Round {round}: {} has a bye", bye[0])));
    }
}

#[test]
fn kill_9_midway_then_resume_plays_exactly_the_missing_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let slow = bot("slow_rps.py", "0.02");
    let list: Vec<(String, String)> = (0..5).map(|i| (format!("s{i}"), slow.clone())).collect();
    let list: Vec<(&str, &str, &str)> = list
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str(), ""))
        .collect();
    let path = spec(
        dir.path(),
        "name = \"k\"\ngame = \"roshambo\"\njobs = 2\n[params]\nrounds = 8",
        &list,
    );
    let total = 5 * 4; // 10 pairs, two games each
    let mut child = spawn_run(&path, &out);
    wait_for_lines(&out, 4);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = games(&out).len();
    assert!(before < total, "killed midway");
    // A second run while none holds the lock resumes.
    arena()
        .arg("run")
        .arg(&path)
        .arg("--resume")
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "resuming: {before} games on record"
        )));
    let ids: Vec<u64> = games(&out)
        .iter()
        .map(|r| r["id"].parse().unwrap())
        .collect();
    let unique: BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "a game was played twice: {ids:?}");
    assert_eq!(unique, (1..=total as u64).collect());
    // Running it again plays nothing.
    arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("nothing to play"));
    assert_eq!(games(&out).len(), total);
}

#[test]
fn a_second_run_on_the_same_folder_is_refused_and_says_who_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let slow = bot("slow_rps.py", "0.05");
    let path = spec(
        dir.path(),
        "name = \"l\"\ngame = \"roshambo\"",
        &[("a", &slow, ""), ("b", &slow, "")],
    );
    let mut first = spawn_run(&path, &out);
    let started = Instant::now();
    while !out.join(".lock").exists()
        || std::fs::read_to_string(out.join(".lock"))
            .unwrap()
            .is_empty()
    {
        assert!(started.elapsed() < Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(10));
    }
    arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "in use by another run: arena pid {}",
            first.id()
        )));
    first.wait().unwrap();
}

#[test]
fn sharded_runs_merge_to_the_unsharded_standings() {
    let dir = tempfile::tempdir().unwrap();
    let path = spec(
        dir.path(),
        "name = \"sh\"\ngame = \"connect4\"\ngames_per_pairing = 2\nseed = 5",
        &[
            ("r1", "builtin:random", ""),
            ("r2", "builtin:random", ""),
            ("s1", "builtin:search", ""),
            ("r3", "builtin:random", ""),
        ],
    );
    let run = |extra: &[&str], out: &str| {
        arena()
            .arg("run")
            .arg(&path)
            .args(extra)
            .arg("--out")
            .arg(dir.path().join(out))
            .assert()
            .success();
    };
    run(&[], "all");
    run(&["--shard", "1/2"], "a");
    run(&["--shard", "2/2"], "b");
    let key = |rows: Vec<BTreeMap<String, String>>| -> BTreeSet<(String, String, String, String)> {
        rows.into_iter()
            .map(|r| {
                (
                    r["id"].clone(),
                    r["seat0"].clone(),
                    r["seat1"].clone(),
                    r["score0"].clone(),
                )
            })
            .collect()
    };
    let (a, b) = (games(&dir.path().join("a")), games(&dir.path().join("b")));
    assert!(!a.is_empty() && !b.is_empty());
    let mut merged = key(a);
    merged.extend(key(b));
    assert_eq!(
        merged,
        key(games(&dir.path().join("all"))),
        "the shards play the same games"
    );
    let merged_out = dir.path().join("merged");
    let ratings = arena()
        .arg("ratings")
        .arg(dir.path().join("a/games.csv"))
        .arg(dir.path().join("b/games.csv"))
        .arg("--out")
        .arg(&merged_out)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&ratings.get_output().stdout).to_string();
    assert!(text.contains("rank"), "{text}");
    let strip = |rows: Vec<BTreeMap<String, String>>| -> Vec<(String, String, String, String)> {
        rows.into_iter()
            .map(|r| {
                (
                    r["bot"].clone(),
                    r["score"].clone(),
                    r["elo"].clone(),
                    r["glicko2"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        strip(standings(&merged_out)),
        strip(standings(&dir.path().join("all")))
    );
}

#[test]
fn a_gauntlet_writes_grades_with_the_first_failures_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let crasher = bot("misbehave.py", "crash 1");
    let path = spec(
        dir.path(),
        "name = \"class\"\ngame = \"roshambo\"\nformat = \"gauntlet\"",
        &[
            ("ref", "builtin:counter", "seed = true"),
            ("good", "builtin:random", ""),
            ("crashy", &crasher, ""),
            (
                "loud",
                "python3 -c 'import sys; print(sys.argv[1], file=sys.stderr); sys.exit(3)' oops",
                "",
            ),
        ],
    );
    arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let mut r = csv::Reader::from_path(out.join("grades.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header[..3], ["student", "vs ref", "score"]);
    let grades: Vec<BTreeMap<String, String>> = r.deserialize().map(|x| x.unwrap()).collect();
    let crashy = grades.iter().find(|g| g["student"] == "crashy").unwrap();
    assert_eq!(crashy["crashes"], "2");
    assert_eq!(crashy["vs ref"], "0/2");
    assert!(crashy["first_failure"].ends_with("(crash)"));
    // It crashed without a word: there is no stderr file to point to.
    assert_eq!(crashy["first_failure_stderr"], "");
    let loud = grades.iter().find(|g| g["student"] == "loud").unwrap();
    let said = std::fs::read_to_string(&loud["first_failure_stderr"]).unwrap();
    assert_eq!(said, "oops\n");
    let good = grades.iter().find(|g| g["student"] == "good").unwrap();
    assert_eq!(good["first_failure"], "");
    assert_eq!(
        games(&out).len(),
        6,
        "the reference plays each of the 3 students twice, never itself"
    );
}

#[test]
fn a_ladder_adds_a_cycle_each_run_and_keeps_departed_bots() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let head = "name = \"lad\"\ngame = \"tictactoe\"\nladder = true\ngames_per_pairing = 2";
    let three = [
        ("a", "builtin:random", ""),
        ("b", "builtin:search", ""),
        ("c", "builtin:random", ""),
    ];
    let path = spec(dir.path(), head, &three);
    let run = || {
        arena()
            .arg("run")
            .arg(&path)
            .arg("--out")
            .arg(&out)
            .assert()
            .success()
    };
    run();
    assert_eq!(games(&out).len(), 6);
    run();
    assert_eq!(games(&out).len(), 12, "a second night adds a cycle");
    // c leaves, d joins: the next cycle is a and b and d; c keeps its history.
    spec(
        dir.path(),
        head,
        &[
            ("a", "builtin:random", ""),
            ("b", "builtin:search", ""),
            ("d", "builtin:random", ""),
        ],
    );
    run();
    let rows = games(&out);
    assert_eq!(rows.len(), 18);
    let ids: BTreeSet<u64> = rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert_eq!(ids.len(), 18, "ids never repeat");
    let table = standings(&out);
    let bots: BTreeSet<&str> = table.iter().map(|t| t["bot"].as_str()).collect();
    assert_eq!(bots, ["a", "b", "c", "d"].into_iter().collect());
    let c = table.iter().find(|t| t["bot"] == "c").unwrap();
    assert_eq!(c["games"], "8", "c's two cycles stay");
}

#[test]
fn the_example_specs_are_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tournaments");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            arena::spec::Spec::load(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 3, "the examples are there");
}

#[test]
fn sigint_finishes_the_running_games_writes_the_tables_and_resumes() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let slow = bot("slow_rps.py", "0.03");
    let list: Vec<(String, String)> = (0..4).map(|i| (format!("s{i}"), slow.clone())).collect();
    let list: Vec<(&str, &str, &str)> = list
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str(), ""))
        .collect();
    let path = spec(
        dir.path(),
        "name = \"i\"\ngame = \"roshambo\"\njobs = 2\n[params]\nrounds = 10",
        &list,
    );
    let child = spawn_run(&path, &out);
    wait_for_lines(&out, 1);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("stopping: no new games"), "{stderr}");
    let recorded = games(&out).len();
    assert!(recorded < 12, "stopped before the end");
    assert!(
        out.join("standings.csv").is_file(),
        "the tables are written"
    );
    assert!(processes_with("slow_rps.py 0.03").is_empty(), "no bot left");
    arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let ids: BTreeSet<u64> = games(&out)
        .iter()
        .map(|r| r["id"].parse().unwrap())
        .collect();
    assert_eq!(ids, (1..=12).collect(), "resumed to the end, no game twice");
    assert_eq!(games(&out).len(), 12);
}

/// games.csv edited by hand: scores no game gives and a row twice are refused with the file and
/// line, by `arena ratings` and by a resume alike; a last row without its newline still counts.
#[test]
fn hand_edited_records_are_refused_with_their_line_or_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let path = spec(
        dir.path(),
        "name = \"h\"\ngame = \"roshambo\"\ngames_per_pairing = 1\n[params]\nrounds = 3",
        &[
            ("a", "builtin:random", ""),
            ("b", "builtin:counter", ""),
            ("c", "builtin:random", ""),
        ],
    );
    let run = || {
        arena()
            .arg("run")
            .arg(&path)
            .arg("--out")
            .arg(&out)
            .assert()
    };
    run().success();
    let csv = out.join("games.csv");
    let good = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    assert_eq!(lines.len(), 4);
    // Row 3 (line 3) with other scores.
    let with_scores = |scores: &str| {
        let mut fields: Vec<&str> = lines[2].split(',').collect();
        let (s0, s1) = scores.split_once(',').unwrap();
        fields[4] = s0;
        fields[5] = s1;
        let mut edited = lines.clone();
        let row = fields.join(",");
        edited[2] = &row;
        edited.join("\n") + "\n"
    };
    let cases = [
        (
            with_scores("0.25,0.75"),
            ":3: score0 is 0.25; a game scores 1-0, 0.5-0.5 or 0-1",
        ),
        (with_scores("2,-1"), ":3: score0 is 2; a game scores"),
        (with_scores("NaN,0"), ":3: score0 is NaN; a game scores"),
        (
            format!("{good}{}\n", lines[1]),
            ":5: game 1 is already on line 2: a game is recorded once",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&csv, &text).unwrap();
        let expected = format!("{}{expected}", csv.display());
        arena()
            .arg("ratings")
            .arg(&csv)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(expected.as_str()));
        run()
            .code(2)
            .stderr(predicate::str::contains(expected.as_str()));
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            text,
            "left as it was"
        );
    }
    // The last row without its newline is a whole row: counted, not played again.
    std::fs::write(&csv, good.trim_end()).unwrap();
    arena().arg("ratings").arg(&csv).assert().success();
    run()
        .success()
        .stderr(predicate::str::contains("nothing to play"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), good);
}
