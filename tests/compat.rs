//! Folders and logs written by arena before games of more than two players (fixtures made by
//! that arena, tests/fixtures/two-player/): every log replays to the same result, `arena
//! ratings` rebuilds the same standings byte for byte, and `arena report` draws them.

mod common;

use std::path::{Path, PathBuf};

use common::*;

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
