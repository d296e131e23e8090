//! Messages for people: a command given another command's file says what the file is, a spec's
//! wrong value is told in the spec's words, and failures count and quote as a user reads them.

use std::path::Path;

use crate::common::*;

/// stderr of arena with `args`, which must exit with `code`.
fn said(args: &[&std::ffi::OsStr], code: i32) -> String {
    let out = arena().args(args).assert().code(code);
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

/// A finished tictactoe duel's results folder.
fn duel(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("res");
    arena()
        .args([
            "duel",
            "builtin:random",
            "builtin:random",
            "-g",
            "tictactoe",
        ])
        .args(["--seed", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    out
}

#[test]
fn replay_and_ratings_name_the_kind_of_file_they_were_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = duel(dir.path());
    let spec = dir.path().join("t.toml");
    std::fs::write(&spec, "name = \"t\"\ngame = \"tictactoe\"\n").unwrap();
    let csv = out.join("games.csv");
    let log = game_log(&out, 1);
    let cases = [
        ("replay", &csv, "not an arena game log; it is a games.csv"),
        (
            "replay",
            &spec,
            "not an arena game log; it is a tournament spec",
        ),
        ("ratings", &log, "not an arena games.csv; it is a game log"),
        (
            "ratings",
            &spec,
            "not an arena games.csv; it is a tournament spec",
        ),
    ];
    for (command, file, words) in cases {
        let e = said(&[command.as_ref(), file.as_os_str()], 2);
        assert!(e.contains(&format!("{}: {words}", file.display())), "{e}");
        let takes = if command == "replay" {
            "replay takes a game's log, logs/game-NNNNN.jsonl"
        } else {
            "ratings takes the games.csv of a results folder"
        };
        assert!(e.contains(takes), "{e}");
        assert!(!e.contains("expected"), "a parser's words: {e}");
    }
}

#[test]
fn a_replay_that_disagrees_says_so_without_rusts_forms() {
    let dir = tempfile::tempdir().unwrap();
    let out = duel(dir.path());
    let text = std::fs::read_to_string(game_log(&out, 1)).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // The first line sent to seat 0, changed: the stream differs.
    let i = lines.iter().position(|l| l.contains("\"to\":0")).unwrap();
    let mut sent: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
    sent["line"] = "{\"edited\": 1}".into();
    lines[i] = sent.to_string();
    // And the result: the log claims another one.
    let last = lines.len() - 1;
    let mut result: serde_json::Value = serde_json::from_str(&lines[last]).unwrap();
    result["result"]["plies"] = 99.into();
    lines[last] = result.to_string();
    let edited = dir.path().join("edited.jsonl");
    std::fs::write(&edited, lines.join("\n") + "\n").unwrap();
    let e = said(&["replay".as_ref(), edited.as_os_str()], 1);
    assert!(e.contains("the log has '{\"edited\": 1}' to seat 0"), "{e}");
    assert!(
        e.contains(", 99 plies), the referee now gives random-1 "),
        "{e}"
    );
    for rust in ["To(", "Some(", "\\\"", "[1.0", "\"normal\""] {
        assert!(!e.contains(rust), "{rust} in {e}");
    }
}

/// Spec errors as people read them, with file, line and column; the exit status of a spec that
/// cannot be.
#[test]
fn spec_errors_are_in_the_specs_words() {
    let dir = tempfile::tempdir().unwrap();
    let top = "name = \"t\"\ngame = \"tictactoe\"\n";
    let bots = "[[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
                [[bot]]\nname = \"b\"\ncommand = \"builtin:random\"\n";
    let cases = [
        (
            format!("{top}timeout = \"2\"\n{bots}"),
            ":3:11: timeout must be a number of seconds, not \"2\"",
        ),
        (
            format!("{top}seed = -1\n{bots}"),
            ":3:8: seed must be a whole number from 0 to 18446744073709551615, not -1",
        ),
        (
            format!("{top}seed = 99999999999999999999\n{bots}"),
            ":3:8: seed must be a whole number from 0 to 18446744073709551615, not \
             99999999999999999999",
        ),
        (
            format!("{top}[bot]\nname = \"a\"\ncommand = \"builtin:random\"\n"),
            ":3:1: bots are written [[bot]], with two brackets",
        ),
        (
            format!(
                "{top}[bot]\nname = \"a\"\ncommand = \"builtin:random\"\n\
                 [bot]\nname = \"b\"\ncommand = \"builtin:random\"\n"
            ),
            ":6:2: bots are written [[bot]], with two brackets",
        ),
        (
            format!("name = \".\"\ngame = \"tictactoe\"\n{bots}"),
            ":1:8: name '.' cannot be used: it names a folder that is already there",
        ),
    ];
    let spec = dir.path().join("s.toml");
    for (text, words) in cases {
        std::fs::write(&spec, &text).unwrap();
        let e = said(&["run".as_ref(), spec.as_os_str()], 2);
        assert!(e.contains(&format!("{}{words}", spec.display())), "{e}");
        for rust in ["expected", "f64", "u64", "i128", "`"] {
            assert!(!e.contains(rust), "{rust} in {e}");
        }
    }
    let missing = dir.path().join("missing.toml");
    let e = said(&["run".as_ref(), missing.as_os_str()], 2);
    assert!(
        e.contains(&format!("{}: no such file", missing.display())),
        "{e}"
    );
}

/// A JSON game's failures count moves as a user does (the request for a game is not one) and
/// quote the original server's words as the game's.
#[test]
fn json_failures_count_moves_and_quote_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record");
    let script = |moves: &str| {
        bot(
            "json_script.py",
            &format!("{} '{{\"game\": \"tictactoe\"}}' {moves}", record.display()),
        )
    };
    let first = |args: &[&str]| {
        let _ = std::fs::remove_dir_all(dir.path().join("out"));
        let out = arena()
            .args(["duel", "-g", "tictactoe", "--json", "-t", "0.5"])
            .args(args)
            .arg("--out")
            .arg(dir.path().join("out"))
            .assert()
            .success();
        json_records(&out.get_output().stdout).remove(0)
    };
    // No move after the request: it timed out at its first move.
    let silent = first(&[&script(""), "builtin:random"]);
    assert_eq!(silent["at_move"], 1, "{silent}");
    assert!(
        silent["detail"]
            .as_str()
            .unwrap()
            .starts_with("timed out at move 1 "),
        "{silent}"
    );
    let refused = first(&[&script("raw:hello"), "builtin:random"]);
    assert_eq!(
        refused["detail"],
        "was refused; the game says: Player 1 submitted ill-formed json: 'hello'"
    );
}
