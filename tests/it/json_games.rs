//! checkers, tictactoe and connect4 over the adversarial game server's JSON protocol: scripted
//! bots play known games to known results, and every kind of bad reply loses as it should. Both
//! dialects: `protocol=server` (the default: the original server's letters and bytes) and
//! `protocol=docs` (its README's); and the framing: JSON values with or without a newline.

use std::path::{Path, PathBuf};

use crate::common::*;
use arena::games::line_breaks;
use serde_json::{Value, json};

/// Play a scripted game with the game parameters `params` (`key=value`); returns the --json
/// record and each player's received JSON lines.
fn scripted(
    game: &str,
    params: &[&str],
    request: &[&str; 2],
    moves: [&[&str]; 2],
) -> (Value, [Vec<Value>; 2]) {
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
        .args(params.iter().flat_map(|p| ["-a", p]))
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let output = a.get_output();
    // Its records and words too, for a script reading them line by line.
    for said in [&output.stdout, &output.stderr] {
        let said = String::from_utf8_lossy(said);
        assert_eq!(line_breaks::find(&said.replace('\n', "")), None, "{said}");
    }
    let record = json_records(&output.stdout).remove(0);
    let received = |i: usize| -> Vec<Value> {
        let text = std::fs::read_to_string(rec(i)).unwrap();
        let lines: Vec<&str> = text.split_terminator('\n').collect();
        let lines: Vec<&str> = lines.into_iter().filter(|l| !l.starts_with('>')).collect();
        // Whatever the bots sent, no line arena wrote is two lines to some other reader.
        for l in &lines {
            assert_eq!(line_breaks::find(l), None, "player {} got {l:?}", i + 1);
        }
        let parse = |l: &&str| serde_json::from_str(l).unwrap();
        lines.iter().map(parse).collect()
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
        &["protocol=docs"],
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
        &["protocol=docs"],
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
        let (r, seen) = scripted("tictactoe", &[], &[req, req], [m0, m1]);
        assert_eq!(r["reason"], *reason, "{m0:?} {m1:?}: {r}");
        assert_eq!(r["winner"], 1 - loser, "{r}");
        let winner_view = last(&seen[1 - loser]);
        assert_eq!(winner_view["result"], 2 - loser);
        let log = winner_view["log"].as_str().unwrap();
        assert!(log.contains(words), "log {log:?} should say {words:?}");
    }
}

/// A token holding line breaks as JSON escapes: the log quotes it back to both players, escaped
/// again in either dialect (`scripted` checks every line they got), and the text is kept.
#[test]
fn what_a_bot_escaped_is_quoted_back_escaped() {
    let req = r#"{"game": "tictactoe"}"#;
    let token = r#"raw:{"token": "\u2028\u0085\u2029", "move": 0}"#;
    for dialect in ["protocol=docs", "protocol=server"] {
        let (r, seen) = scripted("tictactoe", &[dialect], &[req, req], [&["4"], &[token]]);
        assert_eq!(r["reason"], "protocol", "{r}");
        assert_eq!(r["faulted"], 1, "{r}");
        let log = last(&seen[0])["log"].as_str().unwrap().to_string();
        assert!(
            log.contains("incorrect token \"\u{2028}\u{85}\u{2029}\""),
            "{log:?}"
        );
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
        let (r, seen) = scripted("checkers", &[], &[request, good], [&[], &[]]);
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
    let (r, seen) = scripted(
        "checkers",
        &["protocol=docs"],
        &[req, req],
        [&split(0), &split(1)],
    );
    assert_eq!(r["winner"], original["winner"]);
    assert_eq!(r["plies"], original["plies"]);
    assert_eq!(last(&seen[0])["history"], history);
    // The loser has no piece left or cannot move.
    let board = last(&seen[0])["board"].as_str().unwrap().to_string();
    let loser_pieces = if r["winner"] == 0 { "rR" } else { "bB" };
    let left = board.chars().filter(|c| loser_pieces.contains(*c)).count();
    assert!(left < 12, "the loser lost pieces: {board:?}");
}

/// The tictactoe game above in the default dialect: the same play, the original server's
/// acknowledgement (its key order, whole seconds as an integer) and 40-hex-digit tokens.
#[test]
fn tictactoe_in_the_servers_dialect() {
    let req = r#"{"game": "tictactoe"}"#;
    let (r, seen) = scripted(
        "tictactoe",
        &[],
        &[req, req],
        [&["4", "2", "6"], &["0", "8"]],
    );
    assert_eq!(
        (r["winner"].clone(), r["plies"].clone()),
        (json!(0), json!(5))
    );
    // (Its key order is checked on the bytes, for checkers, below.)
    assert_eq!(
        seen[0][0],
        json!({"name": "tictactoe", "timelimit": 2, "player": 1})
    );
    let token = seen[0][1]["token"].as_str().unwrap();
    assert!(
        token.len() == 40 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{token}"
    );
    assert_eq!(
        last(&seen[1])["board"],
        "o x x x o",
        "tictactoe's letters are the README's"
    );
}

#[test]
fn connect4_in_the_servers_dialect_uses_its_letters_and_echoes_the_name_asked_for() {
    let (r, seen) = scripted(
        "connect4",
        &[],
        &[r#"{"game": "connectfour"}"#, r#"{"game": "connect4"}"#],
        [&["3", "3", "3", "3"], &["4", "4", "4"]],
    );
    assert_eq!(
        (r["winner"].clone(), r["plies"].clone()),
        (json!(0), json!(7))
    );
    assert_eq!(seen[0][0]["name"], "connectfour");
    assert_eq!(seen[1][0]["name"], "connect4");
    let board = last(&seen[1])["board"].as_str().unwrap().to_string();
    assert_eq!(
        &board[35..],
        "   br  ",
        "player 1 is b, player 2 r, on the bottom row"
    );
    for row in 2..6 {
        assert_eq!(&board[row * 7 + 3..row * 7 + 4], "b", "column 3, row {row}");
    }
}

/// A duel's records (the --json lines) and its output folder.
fn duel(args: &[&str]) -> (Vec<Value>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .arg("duel")
        .args(args)
        .args(["--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    (json_records(&a.get_output().stdout), dir)
}

/// Clients written to the original server's conventions (tests/bots/chirs_*.py: its letters,
/// no newline after their messages, their own move generation from the board string) play whole
/// games against the built-in bots and each other, in both seats, and none of them faults.
#[test]
fn clients_of_the_original_server_play_whole_games() {
    for (game, client) in [
        ("checkers", "chirs_checkers.py"),
        ("connect4", "chirs_connect4.py"),
    ] {
        for (a, b) in [
            (bot(client, "1"), "builtin:random".to_string()),
            (bot(client, "2"), bot(client, "3")),
        ] {
            let (records, _dir) = duel(&[&a, &b, "-g", game, "--games", "4", "--seed", "7"]);
            assert_eq!(records.len(), 4);
            for r in records {
                assert!(
                    r.get("faulted").is_none()
                        && (r["reason"] == "normal" || r["reason"] == "draw"),
                    "{game}: {r}"
                );
                assert!(r["plies"].as_u64().unwrap() > 6, "{r}");
            }
        }
    }
}

/// With the README's letters the same checkers client reads player 2's pieces as its own
/// (`r`): it finds itself asked to move pieces that are not there and gives up. The parameter is
/// what makes the difference.
#[test]
fn a_client_of_the_original_server_fails_under_the_docs_dialect() {
    let (records, _dir) = duel(&[
        &bot("chirs_checkers.py", "1"),
        "builtin:random",
        "-g",
        "checkers",
        "-a",
        "protocol=docs",
    ]);
    assert_eq!(records[0]["faulted"], 0, "{}", records[0]);
    assert_eq!(records[0]["reason"], "crash");
}

/// The server's messages byte for byte, as the capture of a live game of the original shows them
/// (tokens aside): the acknowledgement, the first state, and the final state's keys.
#[test]
fn the_servers_dialect_sends_the_original_servers_bytes() {
    let (records, dir) = duel(&[
        &bot("chirs_checkers.py", "1"),
        &bot("chirs_checkers.py", "2"),
        "-g",
        "checkers",
        "--timeout",
        "5",
        "--seed",
        "1",
    ]);
    let log = dir.path().join("logs/game-00001.jsonl");
    assert!(log.exists(), "{}", records[0]);
    let sent: Vec<String> = log_entries(&log)
        .iter()
        .filter(|e| e["to"] == 0)
        .map(|e| e["line"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        sent[0],
        r#"{"name": "checkers", "timelimit": 5, "player": 1}"#
    );
    let start = r#"{"player": 1, "board": " r r r rr r r r  r r r r                w w w w  w w w ww w w w ", "result": 0, "token": ""#;
    assert!(sent[1].starts_with(start), "{}", sent[1]);
    let token = &sent[1][start.len()..sent[1].len() - 2];
    assert!(
        token.len() == 40
            && token.bytes().all(|b| b.is_ascii_hexdigit())
            && sent[1].ends_with("\"}"),
        "{}",
        sent[1]
    );
    let end = sent.last().unwrap();
    for piece in [
        ", \"history\": [[",
        "], [",
        ", \"log\": \"The game starts.\\n",
    ] {
        assert!(end.contains(piece), "{piece} in {end}");
    }
}

/// Two JSON values in one write, no newline: the first is the move, the second the bot's next
/// message, judged when its turn comes (its stale token loses).
#[test]
fn two_json_values_in_one_write_are_two_messages() {
    let (records, _dir) = duel(&[
        &bot("json_two_writes.py", ""),
        "builtin:random",
        "-g",
        "tictactoe",
        "--seed",
        "1",
    ]);
    let r = &records[0];
    assert_eq!(r["reason"], "protocol", "{r}");
    assert_eq!(r["faulted"], 0);
    assert_eq!(
        r["plies"], 2,
        "its first move and the reply were played: {r}"
    );
    assert!(
        r["detail"].as_str().unwrap().starts_with(
            "was refused; the game says: Player 1 submitted incorrect token \"stale\""
        ),
        "{r}"
    );
}

/// A JSON value that never ends is refused as a too-long line is, at the same limit.
#[test]
fn a_json_value_that_never_ends_is_refused_at_the_line_limit() {
    for seat in [0, 1] {
        let flood = bot("json_flood.py", "connect4");
        let mut bots = [flood.as_str(), "builtin:random"];
        bots.rotate_left(seat);
        let (records, _dir) = duel(&[bots[0], bots[1], "-g", "connect4"]);
        let r = &records[0];
        assert_eq!(
            (r["reason"].clone(), r["faulted"].clone()),
            (json!("protocol"), json!(seat)),
            "{r}"
        );
        assert!(
            r["detail"]
                .as_str()
                .unwrap()
                .starts_with("sent a line longer than 65536 bytes"),
            "{r}"
        );
    }
}

/// Logs say which dialect they were played in, and replay in it; a log from before the
/// parameter existed (no `protocol` in its header) was played in the README's and replays so.
#[test]
fn logs_replay_in_their_dialect_and_old_logs_in_the_readmes() {
    for game in ["checkers", "connect4", "tictactoe"] {
        for dialect in ["server", "docs"] {
            let (records, dir) = duel(&[
                "builtin:random",
                "builtin:search",
                "-g",
                game,
                "-a",
                &format!("protocol={dialect}"),
            ]);
            let log = PathBuf::from(records[0]["log"].as_str().unwrap());
            let text = std::fs::read_to_string(&log).unwrap();
            let recorded = format!(r#""params":{{"protocol":"{dialect}"}}"#);
            assert!(text.lines().next().unwrap().contains(&recorded), "{text}");
            arena().arg("replay").arg(&log).assert().success();
            // The same log without the parameter, as arena wrote it before.
            let old = dir.path().join("old.jsonl");
            std::fs::write(&old, text.replacen(&recorded, r#""params":{}"#, 1)).unwrap();
            let replay = arena().arg("replay").arg(&old).assert();
            if dialect == "docs" {
                replay.success();
            } else {
                replay.failure();
            }
        }
    }
}
