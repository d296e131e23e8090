//! KROM through the real binary: scripted bots play known games to known results, the handshake
//! and message shapes are as documented, failures lose as they should, and logs replay.

use std::path::{Path, PathBuf};

use crate::common::*;
use predicates::prelude::*;
use serde_json::{Value, json};

struct Played {
    record: Value,
    /// The JSON lines each seat received.
    seen: [Vec<Value>; 2],
    log: PathBuf,
    _dir: tempfile::TempDir,
}

/// Play one game between two scripted bots (`turns[seat]`, see tests/bots/krom_script.py).
fn scripted(turns: [&[&str]; 2], timeout: &str) -> Played {
    let dir = tempfile::tempdir().unwrap();
    let rec = |i: usize| dir.path().join(format!("p{i}"));
    let bot = |i: usize| {
        let mut args = vec![
            rec(i).display().to_string(),
            ["Lisa", "Bart"][i].to_string(),
        ];
        args.extend(turns[i].iter().map(|t| t.to_string()));
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        bot("krom_script.py", &quoted.join(" "))
    };
    let a = arena()
        .args(["duel", &bot(0), &bot(1), "--game", "krom", "--json"])
        .args(["--names", "Lisa,Bart", "--timeout", timeout])
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let record = json_records(&a.get_output().stdout).remove(0);
    let received = |i: usize| -> Vec<Value> {
        std::fs::read_to_string(rec(i))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('>'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let log = PathBuf::from(record["log"].as_str().unwrap());
    Played {
        record,
        seen: [received(0), received(1)],
        log,
        _dir: dir,
    }
}

fn kinds(lines: &[Value]) -> Vec<&str> {
    lines.iter().map(|l| l["msg"].as_str().unwrap()).collect()
}

fn replay_agrees(log: &Path) {
    arena()
        .arg("replay")
        .arg(log)
        .assert()
        .success()
        .stderr(predicate::str::contains("the result agrees"))
        .stdout(predicate::str::contains("\"msg\":\"over\""));
}

/// Red makes a gun on [8,2] and shoots down column 8: blue's wall [8,13] (2 hits), then blue's
/// factory [8,14] (3 hits). Blue passes.
#[test]
fn handshake_and_a_known_game_where_red_shoots_blues_factory() {
    let p = scripted(
        [
            &[
                r#"[["make", 8, 2, "gun"], ["fire", 8, 2, 2], ["fire", 8, 2, 2]]"#,
                r#"[["fire", 8, 2, 2], ["fire", 8, 2, 2], ["fire", 8, 2, 2]]"#,
            ],
            &[r#"[["pass"]]"#],
        ],
        "2",
    );
    let r = &p.record;
    assert_eq!(r["reason"], "normal", "{r}");
    assert_eq!(r["winner"], 0);
    assert_eq!(r["plies"], 3);
    let [red, blue] = &p.seen;
    assert_eq!(
        kinds(red),
        [
            "welcome", "start", "state", "you", "state", "moved", "state", "you", "state", "over"
        ]
    );
    assert_eq!(
        kinds(blue),
        [
            "welcome", "start", "state", "moved", "state", "you", "state", "moved", "state", "over"
        ]
    );
    assert_eq!(red[0], json!({"msg": "welcome", "id": "u-1"}));
    assert_eq!(blue[0], json!({"msg": "welcome", "id": "u-2"}));
    let start = &red[1];
    assert_eq!(start, &blue[1]);
    assert_eq!(start["moves"], 3);
    assert_eq!(start["game"]["id"], "g-1");
    assert_eq!(
        start["game"]["players"],
        json!([{"id": "u-1", "nick": "Lisa"}, {"id": "u-2", "nick": "Bart"}])
    );
    let t = start["game"]["start"].as_u64().unwrap();
    assert!(
        t > 1_600_000_000 && t < 10_000_000_000,
        "POSIX seconds: {t}"
    );
    // The first state: the start position, red to move.
    let s = &red[2];
    assert_eq!(s["id"], "g-1");
    assert_eq!(s["start"], t);
    assert_eq!(
        s["players"],
        json!({"r": {"id": "u-1", "moves": 3, "moving": true},
               "b": {"id": "u-2", "moves": 3, "moving": false}})
    );
    let board = s["board"].as_array().unwrap();
    assert_eq!(board.len(), 16);
    assert!(board.iter().all(|row| row.as_array().unwrap().len() == 16));
    for (x, y, cell) in [
        (7, 1, "-rf3"),
        (6, 1, "-rw2"),
        (8, 1, "-rw2"),
        (7, 2, "-rw2"),
        (8, 14, "-bf3"),
        (7, 14, "-bw2"),
        (9, 14, "-bw2"),
        (8, 13, "-bw2"),
        (0, 0, "-"),
    ] {
        assert_eq!(board[y][x], cell, "[{x}, {y}]");
    }
    assert_eq!(red[3], json!({"msg": "you", "moves": 3}));
    // Blue sees red's first turn in full (nothing is camouflaged) and the damage.
    assert_eq!(
        blue[3],
        json!({"msg": "moved", "uid": "u-1",
               "moves": [["make", 8, 2, "gun"], ["fire", 8, 2, 2], ["fire", 8, 2, 2]]})
    );
    assert_eq!(blue[4]["board"][2][8], "-rg1");
    assert_eq!(blue[4]["board"][13][8], "-", "the wall took its two hits");
    assert_eq!(blue[4]["players"]["b"]["moving"], true);
    assert_eq!(blue[5], json!({"msg": "you", "moves": 3}));
    // Blue passed: one move spent, 2 + 3 = 5 next time; red sees the pass.
    assert_eq!(
        red[5],
        json!({"msg": "moved", "uid": "u-2", "moves": [["pass"]]})
    );
    assert_eq!(red[6]["players"]["b"]["moves"], 5);
    assert_eq!(red[7], json!({"msg": "you", "moves": 3}));
    // The end.
    let over = &red[9];
    assert_eq!(over, &blue[9]);
    let res = &over["results"];
    assert_eq!(
        (&res["id"], &res["won"], &res["lost"], &res["forfeit"]),
        (&json!("g-1"), &json!("u-1"), &json!("u-2"), &json!(false))
    );
    assert_eq!(res["start"], t);
    assert!(res["end"].as_u64().unwrap() >= t);
    let log = over["log"].as_array().unwrap();
    let moves: Vec<(&str, u64, &Value)> = log
        .iter()
        .filter(|e| e["event"] == "move")
        .map(|e| {
            (
                e["id"].as_str().unwrap(),
                e["turn"].as_u64().unwrap(),
                &e["move"],
            )
        })
        .collect();
    assert_eq!(moves.len(), 7);
    assert_eq!(moves[0], ("u-1", 1, &json!(["make", 8, 2, "gun"])));
    assert_eq!(moves[3], ("u-2", 2, &json!(["pass"])));
    assert_eq!(moves[6], ("u-1", 3, &json!(["fire", 8, 2, 2])));
    assert_eq!(log.last().unwrap()["event"], "over");
    assert!(log.iter().all(|e| e["when"].as_u64().unwrap() >= t));
    let last_state = &blue[8];
    assert_eq!(last_state["board"][14][8], "-", "blue's factory is gone");
    assert_eq!(last_state["players"]["r"]["moving"], false);
    assert_eq!(last_state["players"]["b"]["moving"], false);
    // The log replays to the same lines (the clock is the referee's, not the system's).
    replay_agrees(&p.log);
}

#[test]
fn messages_without_a_newline_are_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let bot = |i: usize, nick: &str| {
        let rec = dir.path().join(format!("p{i}"));
        bot(
            "krom_script.py",
            &format!("'{}' 'nonl:{nick}'", rec.display()),
        )
    };
    let a = arena()
        .args(["duel", &bot(0, "Lisa"), &bot(1, "Bart"), "--game", "krom"])
        .args(["-a", "max_turns=4", "--json", "--timeout", "5", "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let record = &json_records(&a.get_output().stdout)[0];
    assert_eq!(record["reason"], "limit", "{record}");
    let log = log_entries(Path::new(record["log"].as_str().unwrap()));
    let hello = log
        .iter()
        .find(|e| e["from"] == 1)
        .and_then(|e| e["line"].as_str())
        .unwrap();
    assert_eq!(hello, r#"{"msg": "hello", "nick": "Bart"}"#);
}

#[test]
fn an_illegal_action_loses() {
    // Red tries to fire its factory; the turn is refused and red loses.
    let p = scripted([&[r#"[["pass"], ["fire", 7, 1, 2]]"#], &[]], "2");
    let r = &p.record;
    assert_eq!(r["reason"], "illegal", "{r}");
    assert_eq!(r["winner"], 1);
    assert_eq!(r["plies"], 0);
    assert!(
        r["detail"]
            .as_str()
            .unwrap()
            .contains("action 2 of the turn: has no gun of its own on [7, 1]"),
        "{r}"
    );
    let over = p.seen[1].last().unwrap();
    assert_eq!(over["msg"], "over");
    assert_eq!(over["results"]["won"], "u-2");
    assert_eq!(over["results"]["forfeit"], false);
    let log = over["log"].as_array().unwrap();
    assert_eq!(log.len(), 2, "no move was played: {log:?}");
    assert_eq!(log[0]["event"], "illegal");
    assert_eq!(log[0]["id"], "u-1");
    // More actions than moves, and a line that is not a move message.
    let p = scripted([&[r#"[["pass"], ["pass"], ["pass"], ["pass"]]"#], &[]], "2");
    assert_eq!(p.record["reason"], "illegal");
    let p = scripted([&["raw:{\"msg\": \"move\", \"moves\": 3}"], &[]], "2");
    assert_eq!(p.record["reason"], "protocol");
    assert_eq!(p.seen[1].last().unwrap()["log"][0]["event"], "protocol");
    replay_agrees(&p.log);
}

#[test]
fn a_bot_that_times_out_forfeits() {
    let p = scripted([&[r#"[["make", 7, 3, "wall"]]"#], &["hang"]], "1");
    let r = &p.record;
    assert_eq!(r["reason"], "timeout", "{r}");
    assert_eq!(r["winner"], 0);
    let over = p.seen[0].last().unwrap();
    assert_eq!(over["msg"], "over");
    assert_eq!(over["results"]["won"], "u-1");
    assert_eq!(over["results"]["lost"], "u-2");
    assert_eq!(over["results"]["forfeit"], true);
    let log = over["log"].as_array().unwrap();
    assert_eq!(log[0]["move"], json!(["make", 7, 3, "wall"]));
    assert_eq!(log[1]["event"], "disconnect");
    assert_eq!(log[1]["id"], "u-2");
    replay_agrees(&p.log);
}

#[test]
fn a_bot_that_crashes_forfeits() {
    let p = scripted([&["exit"], &[]], "2");
    assert_eq!(p.record["reason"], "crash");
    let over = p.seen[1].last().unwrap();
    assert_eq!(over["results"]["forfeit"], true);
    assert_eq!(over["log"][0]["event"], "disconnect");
}

/// The example Python bot plays only legal actions, against both built-in bots.
#[test]
fn the_example_random_bot_plays_legal_games() {
    for opponent in ["builtin:random", "builtin:greedy"] {
        let dir = tempfile::tempdir().unwrap();
        let a = arena()
            .args(["duel", "python3 bots/krom/random.py", opponent])
            .args(["--game", "krom", "--games", "3", "--seed", "7", "--json"])
            .arg("--out")
            .arg(dir.path())
            .assert()
            .success();
        let records = json_records(&a.get_output().stdout);
        assert_eq!(records.len(), 3);
        for r in &records {
            assert!(
                matches!(r["reason"].as_str(), Some("normal" | "limit")),
                "{r}"
            );
        }
        replay_agrees(Path::new(records[0]["log"].as_str().unwrap()));
    }
}

#[test]
fn arena_games_krom_describes_the_game() {
    arena()
        .args(["games", "krom"])
        .assert()
        .success()
        .stdout(predicate::str::contains("`max_turns` | 200"))
        .stdout(predicate::str::contains("`builtin:greedy`"))
        .stdout(predicate::str::contains("[\"hit\", x, y]"));
}
