//! The seed documents' example streams, reproduced byte for byte: scripted bots send the
//! example's moves and record everything they receive; a spectator records its stream.

use crate::common::*;

const ROSHAMBO_P0: &str = "Player0\nPlayer1\n3\n>ROCK\nPAPER\n>PAPER\nPAPER\n>ROCK\nSCISSORS\n";
const ROSHAMBO_P1: &str = "Player1\nPlayer0\n3\n>PAPER\nROCK\n>PAPER\nPAPER\n>SCISSORS\nROCK\n";
const ROSHAMBO_SPECTATORS: &str =
    "Player0\nPlayer1\n3\nROCK\nPAPER\nPAPER\nPAPER\nROCK\nSCISSORS\n";

fn play_roshambo_example(channel: &str) {
    let dir = tempfile::tempdir().unwrap();
    let rec = |n: &str| dir.path().join(n);
    let p0 = bot(
        "scripted.py",
        &format!("{} 'r|r|r|ROCK|r|PAPER|r|ROCK|r*'", rec("p0").display()),
    );
    let p1 = bot(
        "scripted.py",
        &format!(
            "{} 'r|r|r|PAPER|r|PAPER|r|SCISSORS|r*'",
            rec("p1").display()
        ),
    );
    let spectator = format!("sh -c 'cat > {}'", rec("spectators").display());
    arena()
        .args(["duel", &p0, &p1, "--game", "roshambo", "-a", "rounds=3"])
        .args(["--names", "Player0,Player1", "--channel", channel])
        .args(["--spectate", &spectator, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "Finished game 1 (Player0 vs Player1): 1/2-1/2 draw, 3 plies",
        ));
    let read = |n: &str| std::fs::read_to_string(rec(n)).unwrap();
    assert_eq!(read("p0"), ROSHAMBO_P0);
    assert_eq!(read("p1"), ROSHAMBO_P1);
    assert_eq!(read("spectators"), ROSHAMBO_SPECTATORS);
}

#[test]
fn roshambo_example_stream_on_stdio() {
    play_roshambo_example("stdio");
}

#[test]
fn roshambo_example_stream_on_pipes() {
    play_roshambo_example("pipe");
}

const ROYALUR_A: &str = "PlayerA\nPlayerB\n0\n0 0 1 1\n>3\n1 1 1 1\n0\n1 0 1 0\n0\n0 1 0 0\n>3\n\
0 0 0 0\n1 0 1 1\n>3\n0 0 1 1\n0\n0 0 0 1\n>4\n1 0 1 0\nRETIRE\n";
const ROYALUR_B: &str = "PlayerA\nPlayerB\n1\n0 0 1 1\n3\n1 1 1 1\n>0\n1 0 1 0\n>0\n0 1 0 0\n3\n\
0 0 0 0\n1 0 1 1\n3\n0 0 1 1\n>0\n0 0 0 1\n4\n1 0 1 0\n>2\n";
const ROYALUR_SPECTATORS: &str = "PlayerA\nPlayerB\n0 0 1 1\n3\n1 1 1 1\n0\n1 0 1 0\n0\n\
0 1 0 0\n3\n0 0 0 0\n1 0 1 1\n3\n0 0 1 1\n0\n0 0 0 1\n4\n1 0 1 0\nRETIRE\n";
/// The example's dice: the seed document's game is "hypothetical", so its rolls are scripted.
const ROYALUR_ROLLS: &str = "rolls=0011,1111,1010,0100,0000,1011,0011,0001,1010";

#[test]
fn royalur_example_stream_and_illegal_final_move() {
    let dir = tempfile::tempdir().unwrap();
    let rec = |n: &str| dir.path().join(n);
    let a = bot(
        "scripted.py",
        &format!(
            "{} 'r|r|r|r|3|r|r|r|r|r|3|r|r|3|r|r|r|4|r*'",
            rec("a").display()
        ),
    );
    let b = bot(
        "scripted.py",
        &format!(
            "{} 'r|r|r|r|r|r|0|r|0|r|r|r|r|r|r|0|r|r|r|2|r*'",
            rec("b").display()
        ),
    );
    let spectator = format!("sh -c 'cat > {}'", rec("spectators").display());
    let out = dir.path().join("out");
    let assert = arena()
        .args(["duel", &a, &b, "--game", "royalur", "-a", ROYALUR_ROLLS])
        .args([
            "--names",
            "PlayerA,PlayerB",
            "--json",
            "--spectate",
            &spectator,
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let read = |n: &str| std::fs::read_to_string(rec(n)).unwrap();
    assert_eq!(read("a"), ROYALUR_A);
    assert_eq!(read("b"), ROYALUR_B);
    assert_eq!(read("spectators"), ROYALUR_SPECTATORS);
    let records = json_records(&assert.get_output().stdout);
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["reason"], "illegal");
    assert_eq!(r["winner"], 0);
    assert_eq!(r["scores"], serde_json::json!([1.0, 0.0]));
    assert_eq!(r["plies"], 7, "seven legal moves before the illegal one");
    assert!(
        r["detail"]
            .as_str()
            .unwrap()
            .contains("token 2 cannot move 2"),
        "{r}"
    );
    // The log replays to the same result and the same stream.
    arena()
        .arg("replay")
        .arg(game_log(&out, 1))
        .assert()
        .success()
        .stdout(ROYALUR_SPECTATORS);
}
