//! Folders and logs written by arena before games of more than two players (fixtures made by
//! that arena, tests/fixtures/two-player/): every log replays to the same result, `arena
//! ratings` rebuilds the same standings byte for byte, and `arena report` draws them. And a
//! Tron ladder written before issue 42 (tests/fixtures/nplayer/) takes its next night.

use std::path::{Path, PathBuf};

use crate::common::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/two-player")
}

fn logs(folder: &str) -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(fixtures().join(folder).join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    logs.sort();
    assert!(!logs.is_empty(), "{folder} has logs");
    logs
}

#[test]
fn old_logs_replay_to_the_same_result() {
    for (folder, args) in [
        ("tournament", vec![]),
        ("connect4", vec![]),
        (
            "referee",
            vec!["--referee", "python3 bots/referee/pebbles.py"],
        ),
    ] {
        for log in logs(folder) {
            let output = arena()
                .arg("replay")
                .arg(&log)
                .args(&args)
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(0), "{}: {said}", log.display());
            assert!(said.contains("replay: the result agrees"), "{said}");
        }
    }
}

/// A log from before stderr was marked by move (its header says nothing of `stderr_marks`),
/// with a bot's stderr beside it as arena then kept it: the viewer shows that stderr whole, and
/// by move not at all (it would all land on the last move).
#[test]
fn an_old_logs_stderr_is_shown_whole_not_by_move() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let log = logs.join("game-0001.jsonl");
    std::fs::copy(fixtures().join("connect4/logs/game-0001.jsonl"), &log).unwrap();
    std::fs::write(
        log.with_extension("seat0.stderr"),
        "thinking\nstill thinking\n",
    )
    .unwrap();
    let view = arena::report::frames::game_view(&log, |p| p.exists()).unwrap();
    assert!(view.frames.len() > 2);
    assert_eq!(view.stderr[0], "thinking\nstill thinking\n");
    assert!(view.frame_stderr.is_empty(), "{:?}", view.frame_stderr);
}

#[test]
fn old_records_rate_and_report_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let rated = dir.path().join("rated");
    let tournament = fixtures().join("tournament");
    arena()
        .arg("ratings")
        .arg(tournament.join("games.csv"))
        .arg("--out")
        .arg(&rated)
        .assert()
        .success();
    // What that arena's `arena ratings` wrote for the same file (`rated/`), and its run's own
    // standings: the same figures.
    for table in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            std::fs::read_to_string(rated.join(table)).unwrap(),
            std::fs::read_to_string(fixtures().join("rated").join(table)).unwrap(),
            "{table}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(rated.join("standings.csv")).unwrap(),
        std::fs::read_to_string(tournament.join("standings.csv")).unwrap()
    );
    for folder in ["tournament", "connect4", "referee"] {
        let copy = dir.path().join(folder);
        copy_dir(&fixtures().join(folder), &copy);
        let before = std::fs::read(copy.join("games.csv")).unwrap();
        arena().arg("report").arg(&copy).assert().success();
        assert!(copy.join("report.html").is_file(), "{folder}");
        assert_eq!(std::fs::read(copy.join("games.csv")).unwrap(), before);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A Tron ladder of four written by the arena before issue 42 (tests/fixtures/nplayer/
/// tron-ladder, from tron-ladder.toml, by the arena of commit 25e3cd2): its game 1 places the
/// seat that crashed (second) above one out before it by the rules, as the game rightly did, and
/// that arena's own reader refused the file, so the ladder could take no second night. Its logs
/// replay, it rates and reports, and it takes its next night, its first four rows kept.
#[test]
fn an_old_tron_ladder_rates_reports_and_takes_its_next_night() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nplayer");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tron-ladder");
    copy_dir(&fixture.join("tron-ladder"), &out);
    let spec = dir.path().join("tron-ladder.toml");
    std::fs::copy(fixture.join("tron-ladder.toml"), &spec).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/tron_bot.py"),
        dir.path().join("tron_bot.py"),
    )
    .unwrap();
    let before = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        before.contains("\n1,1,r1,r2,fill,late,4,3,1,2,,,,crash,"),
        "{before}"
    );
    for entry in std::fs::read_dir(out.join("logs")).unwrap() {
        let log = entry.unwrap().path();
        let said = arena().arg("replay").arg(&log).output().unwrap();
        let text = String::from_utf8_lossy(&said.stderr);
        assert!(said.status.success(), "{}: {text}", log.display());
        assert!(text.contains("replay: the result agrees"), "{text}");
    }
    arena()
        .arg("ratings")
        .arg(out.join("games.csv"))
        .assert()
        .success();
    arena().arg("report").arg(&out).assert().success();
    run_into(&spec, &out).assert().success();
    let after = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        after.starts_with(&before),
        "the first night's rows are kept"
    );
    assert_eq!(
        after.lines().count(),
        9,
        "a second night of 4 games: {after}"
    );
}

/// A referee program's ladder written before SDK referees (tests/fixtures/two-player/
/// referee-ladder, from referee-ladder.toml, by the arena of commit 1a255ad): its run.json has
/// the referee game's parameters without `protocol` and `seed_form`. Its logs replay against the
/// referee, it rates and reports, and it takes its next night, its first rows kept.
#[test]
fn an_old_referee_ladder_replays_rates_reports_and_takes_its_next_night() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/two-player");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("referee-ladder");
    copy_dir(&fixture.join("referee-ladder"), &out);
    let spec = dir.path().join("referee-ladder.toml");
    std::fs::copy(fixture.join("referee-ladder.toml"), &spec).unwrap();
    for script in ["pebbles.py", "best.py", "greedy.py"] {
        std::fs::copy(
            root.join("bots/referee").join(script),
            dir.path().join(script),
        )
        .unwrap();
    }
    let before = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let referee = format!("python3 {}", dir.path().join("pebbles.py").display());
    for entry in std::fs::read_dir(out.join("logs")).unwrap() {
        let log = entry.unwrap().path();
        if log.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let said = arena()
            .arg("replay")
            .arg(&log)
            .args(["--referee", &referee])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&said.stderr);
        assert!(said.status.success(), "{}: {text}", log.display());
        assert!(text.contains("replay: the result agrees"), "{text}");
    }
    arena()
        .arg("ratings")
        .arg(out.join("games.csv"))
        .assert()
        .success();
    arena().arg("report").arg(&out).assert().success();
    run_into(&spec, &out).assert().success();
    let after = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        after.starts_with(&before),
        "the first night's rows are kept"
    );
    assert_eq!(
        after.lines().count(),
        before.lines().count() + 2,
        "a second night of 2 games: {after}"
    );
}
