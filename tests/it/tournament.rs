//! `arena run` and `arena ratings`: real tournaments of real bot processes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::*;
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
    run_into(&path, dir.path().join("out"))
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
        .stderr(predicate::str::contains(
            ":3:1: unknown key 'speed' (the keys here: name,",
        ));
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
    let assert = run_into(&path, &out).assert().success();
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
    run_into(&path, &out)
        .assert()
        .success()
        .stderr(predicate::str::contains("nothing to play"));
    assert_eq!(games(&out).len(), total);
    // The answer times of the games before the kill came back from their logs: every bot's
    // (0.02 s a move) are in the standings, and `arena ratings` rebuilds them to the byte.
    for row in standings(&out) {
        let mean: f64 = row["mean_answer_ms"].parse().unwrap();
        let max: f64 = row["max_answer_ms"].parse().unwrap();
        assert!((15.0..1000.0).contains(&mean) && max >= mean, "{row:?}");
        assert_eq!(row["near_limit"], "0", "{row:?}");
    }
    let rated = dir.path().join("rated");
    arena()
        .args(["ratings", "--out"])
        .arg(&rated)
        .arg(out.join("games.csv"))
        .assert()
        .success()
        .stdout(predicate::str::contains("answer ms (max)"));
    assert_eq!(
        std::fs::read_to_string(rated.join("standings.csv")).unwrap(),
        std::fs::read_to_string(out.join("standings.csv")).unwrap()
    );
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
    run_into(&path, &out)
        .assert()
        .code(75)
        .stderr(predicate::str::contains(format!(
            "in use by another run: arena pid {}",
            first.id()
        )));
    first.wait().unwrap();
}

/// Play the spec `path` whole into `dir/all`, and as two shards into `dir/SHARD`.
fn play_whole_and_in_two_shards(dir: &Path, path: &Path, shards: [&str; 2]) {
    let run = |extra: &[&str], out: &str| {
        arena()
            .arg("run")
            .arg(path)
            .args(extra)
            .arg("--out")
            .arg(dir.join(out))
            .assert()
            .success();
    };
    run(&[], "all");
    run(&["--shard", "1/2"], shards[0]);
    run(&["--shard", "2/2"], shards[1]);
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
    play_whole_and_in_two_shards(dir.path(), &path, ["a", "b"]);
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
fn a_gauntlet_writes_grades_with_the_first_failures_words_and_stderr() {
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
    let run = run_into(&path, &out).assert().success();
    // The run ends with the grades, the students alone: not standings mixing in the reference.
    let printed = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    let table = printed.split_once("student").map_or("", |t| t.1);
    assert!(
        table.contains("vs ref") && table.contains("first failure"),
        "{printed}"
    );
    assert!(!table.contains("\nref "), "{printed}");
    let crashy_line = table.lines().find(|l| l.starts_with("crashy")).unwrap();
    assert!(
        crashy_line.contains("(crash): exited with status"),
        "{printed}"
    );
    let csv_path = out.join("grades.csv");
    assert!(
        table.contains(&format!("grades in {}", csv_path.display())),
        "{printed}"
    );
    let mut r = csv::Reader::from_path(out.join("grades.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header[..3], ["student", "vs ref", "score"]);
    let grades: Vec<BTreeMap<String, String>> = r.deserialize().map(|x| x.unwrap()).collect();
    let crashy = grades.iter().find(|g| g["student"] == "crashy").unwrap();
    assert_eq!(crashy["crashes"], "2");
    assert_eq!(crashy["vs ref"], "0/2");
    assert!(crashy["first_failure"].ends_with("(crash)"));
    // Why, in the words of its "Finished game" line; and that it said nothing on stderr.
    assert!(
        crashy["first_failure_detail"].starts_with("exited with status 3"),
        "{crashy:?}"
    );
    assert_eq!(
        crashy["first_failure_stderr"],
        "(nothing written on stderr)"
    );
    let loud = grades.iter().find(|g| g["student"] == "loud").unwrap();
    assert!(
        loud["first_failure_detail"].contains("status 3"),
        "{loud:?}"
    );
    let said = std::fs::read_to_string(&loud["first_failure_stderr"]).unwrap();
    assert_eq!(said, "oops\n");
    let good = grades.iter().find(|g| g["student"] == "good").unwrap();
    assert_eq!(good["first_failure"], "");
    assert_eq!(good["first_failure_detail"], "");
    // The report has the same grades, in a section of their own.
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let data = page.split(r#"id="arena-data">"#).nth(1).unwrap();
    let data: serde_json::Value =
        serde_json::from_str(data.split("</script>").next().unwrap()).unwrap();
    assert_eq!(data["grades"]["references"], serde_json::json!(["ref"]));
    let students = data["grades"]["students"].as_array().unwrap();
    let names: Vec<&str> = students
        .iter()
        .map(|g| g["student"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["good", "crashy", "loud"]);
    assert_eq!(
        students[1]["first"]["detail"],
        crashy["first_failure_detail"].as_str()
    );
    assert!(page.contains(r#"<section id="grades" hidden>"#));
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
    let run = || run_into(&path, &out).assert().success();
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
    run_into(&path, &out).assert().success();
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
    let run = || run_into(&path, &out).assert();
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
            ":3: score0 is 0.25; a game scores 1-0, 0.5-0.5 or 0-1".to_string(),
        ),
        (
            with_scores("2,-1"),
            ":3: score0 is 2; a game scores".to_string(),
        ),
        (
            with_scores("NaN,0"),
            ":3: score0 is NaN; a game scores".to_string(),
        ),
        // Rows are in the order games finished: line 2 holds whichever game did first.
        (
            format!("{good}{}\n", lines[1]),
            format!(
                ":5: game {} is already on line 2: a game is recorded once",
                lines[1].split(',').next().unwrap()
            ),
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&csv, &text).unwrap();
        let expected = format!("{}{expected}", csv.display());
        // A corrupt record is not a usage error: exit 1, with its file and line.
        arena()
            .arg("ratings")
            .arg(&csv)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(expected.as_str()));
        run()
            .code(1)
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
    // A run killed while it wrote the header: the header is written again, every game played.
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(&csv, "id,round,se").unwrap();
    run().success();
    assert_eq!(games(&out).len(), 3);
}

/// A ladder spec of quick roshambo games between `bots` (random and counter, deterministic).
fn ladder_spec(dir: &Path, bots: &[&str]) -> PathBuf {
    let list: Vec<(&str, &str, &str)> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let command = ["builtin:random", "builtin:counter"][i % 2];
            (*b, command, "")
        })
        .collect();
    spec(
        dir,
        "name = \"lad\"\ngame = \"roshambo\"\nladder = true\nseed = 11\n[params]\nrounds = 3",
        &list,
    )
}

fn run_ok(path: &Path, out: &Path) -> String {
    let a = run_into(path, out).assert().success();
    String::from_utf8_lossy(&a.get_output().stderr).to_string()
}

/// Remove the rows of the `n` highest ids from games.csv, as a run killed before it recorded
/// its last games leaves it.
fn forget_last_games(out: &Path, n: usize) {
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let header = lines.remove(0);
    let id = |l: &&str| l.split(',').next().unwrap().parse::<u64>().unwrap();
    lines.sort_by_key(id);
    lines.truncate(lines.len() - n);
    let kept: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(out.join("games.csv"), format!("{header}\n{kept}")).unwrap();
}

/// Nightly ladders grow and shrink: 4 bots two nights, then 5, then 3. A night stopped before
/// the end of its cycle is finished by the next, whatever its spec says, with the rounds it
/// would have had: the ratings are those of a ladder never stopped.
#[test]
fn a_ladder_takes_new_and_departed_bots_every_night_and_an_interrupted_cycle_changes_no_rating() {
    let dir = tempfile::tempdir().unwrap();
    let (steady, stopped) = (dir.path().join("steady"), dir.path().join("stopped"));
    let four = ladder_spec(dir.path(), &["a", "b", "c", "d"]);
    for out in [&steady, &stopped] {
        run_ok(&four, out);
        run_ok(&four, out);
    }
    assert_eq!(games(&steady).len(), 24);
    // The second night of `stopped` ends before its last three games were recorded (their
    // rounds are split: two from the last round, one from the round before).
    forget_last_games(&stopped, 3);
    // The next night a bot joins: the cycle on record is finished first, by its own bots.
    let five = ladder_spec(dir.path(), &["a", "b", "c", "d", "e"]);
    let said = run_ok(&five, &stopped);
    assert!(
        said.contains(
            "cycle 2 was stopped before its end: playing its 3 missing games (21 games on \
             record before it)"
        ),
        "{said}"
    );
    let key = |out: &Path| -> Vec<(String, String, String, String, String)> {
        let mut rows: Vec<_> = games(out)
            .into_iter()
            .map(|r| {
                let f = |k: &str| r[k].clone();
                (f("id"), f("round"), f("seat0"), f("seat1"), f("score0"))
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(
        key(&stopped),
        key(&steady),
        "the same games in the same rounds"
    );
    let ratings = |out: &Path| -> Vec<(String, String, String, String)> {
        standings(out)
            .into_iter()
            .filter(|t| t["games"] != "0")
            .map(|t| {
                let f = |k: &str| t[k].clone();
                (f("bot"), f("elo"), f("glicko2"), f("glicko2_rd"))
            })
            .collect()
    };
    assert_eq!(ratings(&stopped), ratings(&steady));

    // Then e plays its first cycle, and next night b and d are gone.
    for out in [&steady, &stopped] {
        run_ok(&ladder_spec(dir.path(), &["a", "b", "c", "d", "e"]), out);
        assert_eq!(games(out).len(), 24 + 20);
        let three = ladder_spec(dir.path(), &["a", "c", "e"]);
        run_ok(&three, out);
        let rows = games(out);
        assert_eq!(rows.len(), 24 + 20 + 6);
        let ids: BTreeSet<u64> = rows.iter().map(|r| r["id"].parse().unwrap()).collect();
        assert_eq!(ids.len(), rows.len(), "ids never repeat");
        let table = standings(out);
        let count = |bot: &str| -> u32 {
            let t = table.iter().find(|t| t["bot"] == bot).unwrap();
            t["games"].parse().unwrap()
        };
        assert_eq!(
            ["a", "b", "c", "d", "e"].map(count),
            [6 + 6 + 8 + 4, 6 + 6 + 8, 6 + 6 + 8 + 4, 6 + 6 + 8, 8 + 4]
        );
        // Each cycle has rounds of its own.
        let last_cycle: BTreeSet<u32> = rows
            .iter()
            .filter(|r| r["id"].parse::<u64>().unwrap() > 44)
            .map(|r| r["round"].parse().unwrap())
            .collect();
        assert!(
            rows.iter()
                .filter(|r| r["id"].parse::<u64>().unwrap() <= 44)
                .all(|r| r["round"].parse::<u32>().unwrap() < *last_cycle.first().unwrap())
        );
    }
    assert_eq!(key(&stopped), key(&steady));
    assert_eq!(ratings(&stopped), ratings(&steady));
}

/// A resume into a folder played with another game, parameters, seed, format or bots is
/// refused, saying what changed; jobs and the disk's threshold may change. A ladder may change
/// its bots only.
#[test]
fn a_changed_spec_is_refused_on_resume_saying_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let head = "name = \"x\"\ngame = \"roshambo\"\ngames_per_pairing = 1\nseed = 1";
    let bots = [
        ("a", "builtin:random", ""),
        ("b", "builtin:counter", ""),
        ("c", "builtin:random", ""),
    ];
    let path = spec(dir.path(), &format!("{head}\n[params]\nrounds = 3"), &bots);
    run_ok(&path, &out);
    let refused = |head: String, bots: &[(&str, &str, &str)], expected: &str| {
        refused_into(&spec(dir.path(), &head, bots), &out, expected)
    };
    refused(
        head.replace("roshambo", "tictactoe"),
        &[bots[0], ("b", "builtin:search", ""), bots[2]],
        "game = roshambo; this spec says tictactoe",
    );
    refused(
        format!("{head}\n[params]\nrounds = 5"),
        &bots,
        "[params] rounds = 3; this spec says 5",
    );
    refused(
        format!(
            "{}\n[params]\nrounds = 3",
            head.replace("seed = 1", "seed = 2")
        ),
        &bots,
        "seed = 1; this spec says 2",
    );
    refused(
        format!(
            "{}\n[params]\nrounds = 3",
            head.replace("games_per_pairing = 1", "games_per_pairing = 2")
        ),
        &bots,
        "games_per_pairing = 1; this spec says 2",
    );
    refused(
        format!("{head}\nladder = true\n[params]\nrounds = 3"),
        &bots,
        "ladder = false; this spec says true",
    );
    refused(
        format!("{head}\n[params]\nrounds = 3"),
        &[bots[0], bots[1], bots[2], ("d", "builtin:random", "")],
        "bots = [a, b, c]; this spec says [a, b, c, d]",
    );
    refused(
        format!("{head}\n[params]\nrounds = 3"),
        &[bots[1], bots[0], bots[2]],
        "bots = [a, b, c]; this spec says [b, a, c]",
    );
    refused(
        format!(
            "{}\n[params]\nrounds = 4",
            head.replace("seed = 1", "seed = 2")
        ),
        &bots,
        "[params] rounds = 3, seed = 1; this spec says [params] rounds = 4, seed = 2",
    );
    // What may change: how many at once, and when the disk is too full.
    let path = spec(
        dir.path(),
        &format!("{head}\njobs = 1\nmin_free_mb = 1\n[params]\nrounds = 3"),
        &bots,
    );
    let said = run_ok(&path, &out);
    assert!(said.contains("nothing to play"), "{said}");

    // A folder from before run.json: its games say what they were played with.
    std::fs::remove_file(out.join("run.json")).unwrap();
    refused(
        head.replace("roshambo", "tictactoe"),
        &[bots[0], ("b", "builtin:search", ""), bots[2]],
        "game = roshambo; this spec says tictactoe",
    );
    refused(
        format!("{head}\n[params]\nrounds = 5"),
        &bots,
        "[params] pace = 0, rounds = 3; this spec says pace = 0, rounds = 5",
    );
    refused(
        format!(
            "{}\n[params]\nrounds = 3",
            head.replace("seed = 1", "seed = 2")
        ),
        &bots,
        "another seed than this spec's seed = 2 (game 1's is not derived from it)",
    );
    assert!(!out.join("run.json").exists());
    run_ok(
        &spec(dir.path(), &format!("{head}\n[params]\nrounds = 3"), &bots),
        &out,
    );
    assert!(out.join("run.json").is_file());

    // A ladder changes its bots, and nothing else.
    let ladder = dir.path().join("ladder");
    run_ok(&ladder_spec(dir.path(), &["a", "b"]), &ladder);
    run_ok(&ladder_spec(dir.path(), &["a", "b", "c"]), &ladder);
    let path = ladder_spec(dir.path(), &["a", "b", "c"]);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("seed = 11", "seed = 12")).unwrap();
    run_into(&path, &ladder)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "was played with seed = 11; this spec says 12",
        ));
}

/// A quick round-robin of roshambo between a (random, with an environment) and b (counter),
/// with `keys` among the tournament's and `tables` after its parameters.
fn rules_spec(dir: &Path, keys: &str, tables: &str, b: &str, level: &str) -> PathBuf {
    let head = format!(
        "name = \"x\"\ngame = \"roshambo\"\ngames_per_pairing = 2\nseed = 1\n{keys}\n\
         [params]\nrounds = 3\n{tables}"
    );
    let env = format!("env = {{ LEVEL = \"{level}\" }}");
    spec(dir, &head, &[("a", "builtin:random", &env), ("b", b, "")])
}

/// `arena run SPEC --out OUT`, which must be refused as another tournament's folder, saying
/// that it `was played with` what follows.
fn refused_into(path: &Path, out: &Path, expected: &str) {
    let recorded = std::fs::read_to_string(out.join("games.csv")).unwrap();
    run_into(path, out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{} was played with {expected}: use another --out or remove the folder",
            out.display()
        )));
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        recorded
    );
}

/// Every setting that decides how a game may end is kept in run.json: a resume that changes a
/// deadline, a limit, `ponder`, the channel, or a bot's command or environment is refused,
/// naming each setting with its old and new value. What cannot change a game's outcome (how
/// many at once, the title, the disk's threshold) stays free.
#[test]
fn a_resume_that_changes_the_rules_is_refused_naming_each_setting() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let keys = "timeout = 2\nstartup_timeout = 8";
    run_ok(
        &rules_spec(dir.path(), keys, "", "builtin:counter", "1"),
        &out,
    );
    let cases = [
        (
            "timeout = 5\nstartup_timeout = 8",
            "",
            "timeout = 2; this spec says 5",
        ),
        (
            "timeout = 2\nstartup_timeout = 9",
            "",
            "startup_timeout = 8; this spec says 9",
        ),
        (
            keys,
            "[limits]\nmemory_mb = 512",
            "[limits] memory_mb = none; this spec says 512",
        ),
        (
            "timeout = 2\nstartup_timeout = 8\nchannel = \"pipe\"",
            "",
            "channel = stdio; this spec says pipe",
        ),
        (
            "timeout = 5\nstartup_timeout = 8\nponder = true",
            "",
            "ponder = false, timeout = 2; this spec says ponder = true, timeout = 5",
        ),
    ];
    for (keys, tables, expected) in cases {
        let path = rules_spec(dir.path(), keys, tables, "builtin:counter", "1");
        refused_into(&path, &out, expected);
    }
    refused_into(
        &rules_spec(dir.path(), keys, "", "builtin:random", "1"),
        &out,
        "bot 'b' command = builtin:counter; this spec says builtin:random",
    );
    refused_into(
        &rules_spec(dir.path(), keys, "", "builtin:counter", "2"),
        &out,
        "bot 'a' env LEVEL = 1; this spec says 2",
    );
    let free = "timeout = 2\nstartup_timeout = 8\njobs = 1\nmin_free_mb = 1";
    let path = rules_spec(dir.path(), free, "", "builtin:counter", "1");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("name = \"x\"", "name = \"another title\""),
    )
    .unwrap();
    assert!(run_ok(&path, &out).contains("nothing to play"));
}

/// A run.json from before settings were kept still resumes: it is checked against the
/// deadlines its last game was played with (its log says), then keeps the spec's settings. A
/// folder without run.json is checked the same way.
#[test]
fn a_run_json_from_before_settings_resumes_checked_against_its_last_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let same = |dir: &Path| rules_spec(dir, "timeout = 2", "", "builtin:counter", "1");
    run_ok(&same(dir.path()), &out);
    forget_last_games(&out, 1);
    as_before_settings(&out);
    let slower = |dir: &Path| rules_spec(dir, "timeout = 5", "", "builtin:counter", "1");
    refused_into(&slower(dir.path()), &out, "timeout = 2; this spec says 5");
    let said = run_ok(&same(dir.path()), &out);
    assert!(said.contains("1 to play"), "{said}");
    assert_eq!(games(&out).len(), 2);
    let record = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(record.contains("\"timeout\": \"2\""), "{record}");
    assert!(record.contains("\"env LEVEL\": \"1\""), "{record}");
    refused_into(&slower(dir.path()), &out, "timeout = 2; this spec says 5");

    std::fs::remove_file(out.join("run.json")).unwrap();
    refused_into(&slower(dir.path()), &out, "timeout = 2; this spec says 5");
    run_ok(&same(dir.path()), &out);
    assert!(out.join("run.json").is_file());
}

/// A ladder folder from before `run.json`: its games stay as they are, and the next cycle
/// follows them, ids and rounds.
#[test]
fn a_ladder_played_before_run_json_goes_on_after_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run_ok(&ladder_spec(dir.path(), &["a", "b", "c"]), &out);
    std::fs::remove_file(out.join("run.json")).unwrap();
    forget_last_games(&out, 1);
    run_ok(&ladder_spec(dir.path(), &["a", "b", "c", "d"]), &out);
    let rows = games(&out);
    assert_eq!(rows.len(), 5 + 12);
    let (old, new) = rows.split_at(5);
    let last_round = old.iter().map(|r| r["round"].parse::<u32>().unwrap()).max();
    assert!(new.iter().all(|r| r["id"].parse::<u64>().unwrap() > 5));
    assert!(
        new.iter()
            .all(|r| Some(r["round"].parse::<u32>().unwrap()) > last_round)
    );
    assert!(out.join("run.json").is_file());
}

/// A ladder night killed (SIGKILL) in the middle of its cycle: the next night finishes it, and
/// the games, their rounds and the ratings are those of a ladder never stopped.
#[test]
fn a_ladder_night_killed_midway_rates_as_one_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let slow = bot("slow_rps.py", "0.02");
    let path = spec(
        dir.path(),
        "name = \"k\"\ngame = \"roshambo\"\nladder = true\njobs = 2\nseed = 5\n[params]\nrounds = 3",
        &[
            ("a", &slow, ""),
            ("b", "builtin:counter", ""),
            ("c", &slow, ""),
            ("d", "builtin:random", ""),
        ],
    );
    let (steady, stopped) = (dir.path().join("steady"), dir.path().join("stopped"));
    for out in [&steady, &stopped] {
        run_ok(&path, out);
    }
    run_ok(&path, &steady);
    let mut child = spawn_run(&path, &stopped);
    wait_for_lines(&stopped, 12 + 4);
    child.kill().unwrap();
    child.wait().unwrap();
    let before = games(&stopped).len();
    assert!(before < 24, "killed midway");
    let said = run_ok(&path, &stopped);
    assert!(
        said.contains(&format!("{before} games on record")),
        "{said}"
    );
    let key = |out: &Path| -> Vec<(u64, String, String, String, String)> {
        let mut rows: Vec<_> = games(out)
            .into_iter()
            .map(|r| {
                let f = |k: &str| r[k].clone();
                let id = r["id"].parse().unwrap();
                (id, f("round"), f("seat0"), f("seat1"), f("score0"))
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(key(&stopped), key(&steady));
    let ratings = |out: &Path| -> Vec<(String, String, String)> {
        standings(out)
            .into_iter()
            .map(|t| {
                (
                    t["bot"].clone(),
                    t["glicko2"].clone(),
                    t["glicko2_rd"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(ratings(&stopped), ratings(&steady));
}

/// A swiss resumed from records naming a bot the spec does not have: refused, not a panic.
#[test]
fn a_swiss_resumed_from_records_with_a_stranger_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let path = spec(
        dir.path(),
        "name = \"s\"\ngame = \"roshambo\"\nformat = \"swiss\"\nrounds = 2\n[params]\nrounds = 3",
        &[
            ("a", "builtin:random", ""),
            ("b", "builtin:counter", ""),
            ("c", "builtin:random", ""),
            ("d", "builtin:counter", ""),
        ],
    );
    run_ok(&path, &out);
    let csv = out.join("games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    // A game of the first round added by hand, beyond the swiss's ids: the second round's
    // pairing would count it.
    let first = text.lines().nth(1).unwrap();
    let fields: Vec<&str> = first.split(',').collect();
    let id = "99";
    let mut added = fields.clone();
    added[0] = id;
    added[2] = "zed";
    let log = Path::new(fields[11]).with_file_name("game-00099.jsonl");
    let log = log.to_string_lossy();
    added[11] = &log;
    std::fs::write(&csv, format!("{text}{}\n", added.join(","))).unwrap();
    run_into(&path, &out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: game {id} was played by zed, who is not in this spec",
            csv.display()
        )));
}

/// A results folder may have been made ready by someone else (a shared /tmp, a folder handed
/// over): a link planted under the name of a log, a stderr capture or games.csv is never
/// written through, whatever it points to.
#[test]
fn a_run_never_writes_through_a_link_planted_in_its_folder() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let talker = dir.path().join("talker.py");
    std::fs::write(
        &talker,
        "import sys\nfor _ in range(3): sys.stdin.readline()\nfor _ in range(3):\n    \
         print('ROCK', flush=True)\n    print('said', file=sys.stderr, flush=True)\n    \
         sys.stdin.readline()\n",
    )
    .unwrap();
    let command = format!("python3 {}", talker.display());
    let path = spec(
        dir.path(),
        "name = \"links\"\ngame = \"roshambo\"\ngames_per_pairing = 2\n[params]\nrounds = 3",
        &[("a", "builtin:random", ""), ("t", &command, "")],
    );
    run_ok(&path, &out);
    let precious = dir.path().join("precious");
    std::fs::write(&precious, "precious\n").unwrap();
    // Both games to play again: game 1's log, and game 2's stderr captures, are links.
    forget_last_games(&out, 2);
    let logs = out.join("logs");
    let planted = [
        "game-00001.jsonl",
        "game-00002.seat0.stderr",
        "game-00002.seat1.stderr",
    ];
    std::fs::remove_file(logs.join("game-00002.jsonl")).unwrap();
    for name in planted {
        let _ = std::fs::remove_file(logs.join(name));
        symlink(&precious, logs.join(name)).unwrap();
    }
    run_ok(&path, &out);
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious\n");
    assert_eq!(games(&out).len(), 2);
    let is_link = |name: &str| {
        logs.join(name)
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
    };
    assert!(!is_link("game-00001.jsonl"), "the log was made anew");
    let talker_said: String = ["game-00002.seat0.stderr", "game-00002.seat1.stderr"]
        .iter()
        .filter(|name| !is_link(name))
        .filter_map(|name| std::fs::read_to_string(logs.join(name)).ok())
        .collect();
    assert_eq!(
        talker_said, "said\nsaid\nsaid\n",
        "the capture was made anew"
    );

    // games.csv a link: the run refuses to append through it.
    let elsewhere = dir.path().join("elsewhere.csv");
    std::fs::rename(out.join("games.csv"), &elsewhere).unwrap();
    symlink(&elsewhere, out.join("games.csv")).unwrap();
    forget_last_games(&out, 1);
    let before = std::fs::read_to_string(&elsewhere).unwrap();
    run_into(&path, &out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "games.csv: it is a symbolic link, which arena never follows in a results folder",
        ));
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), before);
}

/// A games.csv's rows as a set, apart from the columns that differ from run to run of the same
/// games: the log (where the folder is) and the time taken.
fn rows_but_log(path: &Path) -> BTreeSet<Vec<(String, String)>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.deserialize::<BTreeMap<String, String>>()
        .map(|row| {
            row.unwrap()
                .into_iter()
                .filter(|(k, _)| k != "log" && k != "duration_ms")
                .collect()
        })
        .collect()
}

/// The games packed for the viewer of a folder's report.html, one line each (`!` and why, for a
/// game it cannot show).
fn packed_games(dir: &Path) -> Vec<String> {
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let packed = page.split(r#"id="arena-games">"#).nth(1).unwrap();
    let packed = packed.split("</script>").next().unwrap();
    packed.lines().map(String::from).collect()
}

/// A gauntlet played whole and in two shards; the shards merged by `arena ratings --out` make
/// the folder one run makes, its logs the shards' own. Returns the folder holding all three.
fn merge_shards_of_a_gauntlet(head: &str, bots: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = spec(dir.path(), head, bots);
    play_whole_and_in_two_shards(dir.path(), &path, ["shards/1", "shards/2"]);
    let merged = dir.path().join("merged");
    arena()
        .arg("ratings")
        .arg(dir.path().join("shards/1/games.csv"))
        .arg(dir.path().join("shards/2/games.csv"))
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(
        rows_but_log(&merged.join("games.csv")),
        rows_but_log(&dir.path().join("all/games.csv"))
    );
    // Each log leads, from the merged folder, to its shard's own.
    let shards = [1, 2].map(|k| {
        dir.path()
            .join(format!("shards/{k}/logs"))
            .canonicalize()
            .unwrap()
    });
    for row in games(&merged) {
        let log = merged.join(&row["log"]).canonicalize().unwrap();
        assert!(
            log.is_file() && shards.contains(&log.parent().unwrap().to_path_buf()),
            "{log:?}"
        );
        assert!(
            !row["log"].starts_with('/'),
            "relative, to move with the folders"
        );
    }
    for file in [
        "standings.csv",
        "crosstable.csv",
        "report.html",
        "grades.csv",
    ] {
        assert!(merged.join(file).is_file(), "{file}");
    }
    // The grades are the unsharded run's, but for where the stderr files are.
    let grades = |dir: &Path| -> Vec<BTreeMap<String, String>> {
        let mut r = csv::Reader::from_path(dir.join("grades.csv")).unwrap();
        r.deserialize::<BTreeMap<String, String>>()
            .map(|g| {
                let mut g = g.unwrap();
                g.remove("first_failure_stderr");
                g
            })
            .collect()
    };
    assert_eq!(grades(&merged), grades(&dir.path().join("all")));
    // `arena report` reads the merged folder from anywhere, and its viewer draws every game.
    arena()
        .current_dir(dir.path().join("shards"))
        .arg("report")
        .arg(&merged)
        .assert()
        .success();
    let packed = packed_games(&merged);
    assert_eq!(packed.len(), games(&merged).len());
    assert!(packed.iter().all(|g| !g.starts_with('!')), "{packed:?}");
    // A run into the merged folder would mix its games with the shards'.
    run_into(&path, &merged)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "holds shards merged by arena ratings",
        ));
    dir
}

#[test]
fn shards_merged_into_a_folder_that_arena_report_reads_and_whose_games_csv_equals_an_unsharded_runs()
 {
    let loud = "python3 -c 'import sys; print(sys.argv[1], file=sys.stderr); sys.exit(3)' oops";
    let dir = merge_shards_of_a_gauntlet(
        "name = \"class\"\ngame = \"roshambo\"\nformat = \"gauntlet\"\nseed = 7",
        &[
            ("ref", "builtin:counter", "seed = true"),
            ("ref2", "builtin:random", "seed = true"),
            ("good", "builtin:random", ""),
            ("crashy", &bot("misbehave.py", "crash 1"), ""),
            ("loud", loud, ""),
        ],
    );
    let merged = dir.path().join("merged");
    let mut r = csv::Reader::from_path(merged.join("grades.csv")).unwrap();
    let grades: Vec<BTreeMap<String, String>> = r.deserialize().map(|g| g.unwrap()).collect();
    let loud = grades.iter().find(|g| g["student"] == "loud").unwrap();
    let said = std::fs::read_to_string(merged.join(&loud["first_failure_stderr"])).unwrap();
    assert_eq!(said, "oops\n", "the stderr file, from the merged folder");

    // A forged merged folder: game 1's log copied to a folder whose games.csv does not record
    // it. The report does not read it, and says so in the viewer.
    let forged = dir.path().join("forged");
    std::fs::create_dir_all(forged.join("logs")).unwrap();
    let first = &games(&merged)[0];
    let own = merged.join(&first["log"]);
    let elsewhere = dir.path().join("elsewhere/logs");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(&own, elsewhere.join(own.file_name().unwrap())).unwrap();
    let text = std::fs::read_to_string(merged.join("games.csv")).unwrap();
    let header = text.lines().next().unwrap();
    std::fs::write(
        dir.path().join("elsewhere/games.csv"),
        format!("{header}\n"),
    )
    .unwrap();
    let moved = format!(
        "../elsewhere/logs/{}",
        own.file_name().unwrap().to_string_lossy()
    );
    std::fs::write(
        forged.join("games.csv"),
        text.replacen(&first["log"], &moved, 1),
    )
    .unwrap();
    let listing = std::fs::read_to_string(merged.join("merged.json")).unwrap();
    let listing = listing.replacen("\"shards\": [", "\"shards\": [\n    \"../elsewhere\",", 1);
    std::fs::write(forged.join("merged.json"), listing).unwrap();
    arena().arg("report").arg(&forged).assert().success();
    let line = &packed_games(&forged)[0];
    assert!(
        line.starts_with("!") && line.contains("does not record game"),
        "{line}"
    );
}

#[test]
fn shards_of_a_gauntlet_of_three_player_games_merge_with_their_grades() {
    merge_shards_of_a_gauntlet(
        "name = \"t\"\ngame = \"tron\"\nplayers = 3\nformat = \"gauntlet\"\nseed = 3",
        &[
            ("ref", "builtin:fill", "seed = true"),
            ("ref2", "builtin:random", "seed = true"),
            ("a", "builtin:random", ""),
            ("b", "builtin:fill", ""),
            ("dead", "python3 -c 'import sys; sys.exit(3)'", ""),
        ],
    );
}
