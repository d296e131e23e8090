//! `arena duel` as a bot's author uses it to compare two versions: games in parallel, told and
//! recorded in order.

mod common;

use common::*;
use predicates::prelude::*;

/// With `--jobs 2`, game 1 can only end after game 2 has (tests/bots/nim_waits.py): both finish
/// normally only if they run at once, and the records still come in the order of the games.
#[test]
fn parallel_games_finish_out_of_order_and_are_recorded_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let waits = bot("nim_waits.py", &dir.path().display().to_string());
    let a = arena()
        .args([
            "duel",
            &waits,
            "builtin:random",
            "-g",
            "nim",
            "-a",
            "heaps=1",
        ])
        .args([
            "--games",
            "2",
            "--jobs",
            "2",
            "--timeout",
            "20",
            "--json",
            "--out",
        ])
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stderr(predicate::str::contains("2 game(s), 2 at a time"));
    let records = json_records(&a.get_output().stdout);
    let logs: Vec<&str> = records.iter().map(|r| r["log"].as_str().unwrap()).collect();
    assert_eq!(logs.len(), 2);
    assert!(logs[0].ends_with("game-0001.jsonl") && logs[1].ends_with("game-0002.jsonl"));
    for r in &records {
        assert_eq!(r["reason"], "normal", "{r}");
    }
    // Seats alternate: the waiting bot took the stone in game 1, the built-in in game 2.
    assert_eq!(records[0]["winner"], 0);
    assert_eq!(records[1]["winner"], 0);
    let text = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    let one = text.find("Finished game 1").unwrap();
    let two = text.find("Finished game 2").unwrap();
    assert!(one < two, "told in order: {text}");
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
