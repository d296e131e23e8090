//! checkers, tictactoe and connect4 over the adversarial game server's JSON protocol: scripted
//! bots play known games to known results, and every kind of bad reply loses as it should.

mod common;

use std::path::Path;

use common::*;
use serde_json::{Value, json};

/// Play a scripted game; returns the --json record and each player's received JSON lines.
fn scripted(game: &str, request: &[&str; 2], moves: [&[&str]; 2]) -> (Value, [Vec<Value>; 2]) {
    let dir = tempfile::tempdir().unwrap();
    let rec = |i: usize| dir.path().join(format!("p{i}"));
    let bot = |i: usize| {
        let mut args = vec![rec(i).display().to_string(), request[i].to_string()];
        args.extend(moves[i].iter().map(|m| m.to_string()));
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        bot("json_script.py", &quoted.join(" "))
    };
    let a = arena()
        .args([
            "duel",
            &bot(0),
            &bot(1),
            "--game",
            game,
            "--json",
            "--timeout",
            "2",
        ])
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
    (record, [received(0), received(1)])
}

fn last(lines: &[Value]) -> &Value {
    lines.last().expect("a final state")
}

#[test]
fn tictactoe_known_game_player_one_wins_on_the_diagonal() {
    let req = r#"{"game": "tictactoe"}"#;
    let (r, seen) = scripted(
        "tictactoe",
        &[req, req],
        [&["4", "\"2\"", "6"], &["0", "8"]],
    );
    assert_eq!(r["reason"], "normal");
    assert_eq!(r["winner"], 0);
    assert_eq!(r["plies"], 5);
    assert_eq!(
        seen[0][0],
        json!({"name": "tictactoe", "player": 1, "timelimit": 2.0})
    );
    assert_eq!(
        seen[1][0],
        json!({"name": "tictactoe", "player": 2, "timelimit": 2.0})
    );
    assert_eq!(seen[0][1]["board"], "         ");
    assert_eq!(seen[0][1]["player"], 1);
    assert_eq!(seen[0][1]["result"], 0);
    assert_eq!(
        seen[1][1]["board"], "    x    ",
        "player 2 sees player 1's move"
    );
    for (i, lines) in seen.iter().enumerate() {
        let end = last(lines);
        assert_eq!(end["result"], 1);
        assert_eq!(end["player"], i + 1, "each gets its own player number");
        assert_eq!(end["board"], "o x x x o");
        assert_eq!(end["history"], json!([4, 0, 2, 8, 6]));
        assert_eq!(end["log"], "The game starts.\nPlayer 1 wins.\n");
    }
}

#[test]
fn connect4_known_game_vertical_four_and_the_original_request_name() {
    let (r, seen) = scripted(
        "connect4",
        &[r#"{"game": "connectfour"}"#, r#"{"game": "connect4"}"#],
        [&["3", "3", "3", "3"], &["4", "4", "4"]],
    );
    assert_eq!(
        (r["winner"].clone(), r["plies"].clone()),
        (json!(0), json!(7))
    );
    assert_eq!(seen[0][0]["name"], "connect4");
    let board = last(&seen[1])["board"].as_str().unwrap().to_string();
    assert_eq!(board.len(), 42);
    for row in 2..6 {
        assert_eq!(&board[row * 7 + 3..row * 7 + 4], "x", "column 3, row {row}");
    }
    assert_eq!(last(&seen[1])["history"], json!([3, 4, 3, 4, 3, 4, 3]));
}

#[test]
fn bad_replies_lose_with_the_original_servers_words() {
    let req = r#"{"game": "tictactoe"}"#;
    // (moves of player 1, moves of player 2, reason, loser, log line)
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a str, usize, &'a str);
    let cases: &[Case] = &[
        (
            &["4"],
            &["badtoken:0"],
            "protocol",
            1,
            "Player 2 submitted incorrect token",
        ),
        (
            &["4", "4"],
            &["0"],
            "illegal",
            0,
            "Player 1 submitted illegal move 4",
        ),
        (
            &["raw:{\"move\": 3"],
            &[],
            "protocol",
            0,
            "Player 1 submitted ill-formed json",
        ),
        (
            &["raw:{\"token\": \"x\"}"],
            &[],
            "protocol",
            0,
            "Key 'move' not in move json",
        ),
        (
            &["raw:{\"move\": 3}"],
            &[],
            "protocol",
            0,
            "Move json does not contain 'token'",
        ),
        (
            &["9"],
            &[],
            "protocol",
            0,
            "Player 1 submitted ill-formed move 9",
        ),
        (
            &["[1, 2]"],
            &[],
            "protocol",
            0,
            "Player 1 submitted ill-formed move [1,2]",
        ),
        (
            &["4"],
            &[],
            "timeout",
            1,
            "Player 2 took too long to submit move",
        ),
    ];
    for (m0, m1, reason, loser, words) in cases {
        let (r, seen) = scripted("tictactoe", &[req, req], [m0, m1]);
        assert_eq!(r["reason"], *reason, "{m0:?} {m1:?}: {r}");
        assert_eq!(r["winner"], 1 - loser, "{r}");
        let winner_view = last(&seen[1 - loser]);
        assert_eq!(winner_view["result"], 2 - loser);
        let log = winner_view["log"].as_str().unwrap();
        assert!(log.contains(words), "log {log:?} should say {words:?}");
    }
}

#[test]
fn a_bad_request_is_answered_with_a_log_and_loses() {
    let good = r#"{"game": "checkers"}"#;
    for (request, words) in [
        ("hello", "Game request is not json."),
        (r#"{"name": "checkers"}"#, "Please specify a game."),
        (
            r#"{"game": "chess"}"#,
            "We don't know that game here: this match plays checkers.",
        ),
    ] {
        let (r, seen) = scripted("checkers", &[request, good], [&[], &[]]);
        assert_eq!(r["reason"], "protocol");
        assert_eq!(r["winner"], 1);
        assert_eq!(seen[0][0], json!({ "log": words }));
    }
}

/// A checkers game between the built-in bots, recorded once (seed 3); the scripted bots replay
/// its moves and must reach the same end. The history also checks the draughts rules end to end:
/// every move in it was legal when it was played, and the last player to move won.
#[test]
fn checkers_known_game_replayed_by_scripted_bots() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", "builtin:search", "builtin:random", "-g", "checkers"])
        .args(["--seed", "3", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let original = json_records(&a.get_output().stdout).remove(0);
    assert_eq!(original["reason"], "normal", "{original}");
    let entries = log_entries(Path::new(original["log"].as_str().unwrap()));
    let history = entries
        .iter()
        .rev()
        .find_map(|e| e["to"].as_u64().and_then(|_| e["line"].as_str()))
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["history"].clone())
        .unwrap();
    let moves: Vec<String> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let split = |seat: usize| -> Vec<&str> {
        moves
            .iter()
            .skip(seat)
            .step_by(2)
            .map(String::as_str)
            .collect()
    };
    let req = r#"{"game": "checkers"}"#;
    let (r, seen) = scripted("checkers", &[req, req], [&split(0), &split(1)]);
    assert_eq!(r["winner"], original["winner"]);
    assert_eq!(r["plies"], original["plies"]);
    assert_eq!(last(&seen[0])["history"], history);
    // The loser has no piece left or cannot move.
    let board = last(&seen[0])["board"].as_str().unwrap().to_string();
    let loser_pieces = if r["winner"] == 0 { "rR" } else { "bB" };
    let left = board.chars().filter(|c| loser_pieces.contains(*c)).count();
    assert!(left < 12, "the loser lost pieces: {board:?}");
}
