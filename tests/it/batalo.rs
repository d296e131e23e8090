//! batalo through the real binary: a known short game played by scripted bots, with both players'
//! and the spectators' streams checked byte for byte; failures; the built-in bots; the example
//! Python bot; `arena games batalo` and `arena perft batalo`.

use crate::common::*;
use predicates::prelude::*;

/// The pbmserv help page's drawing of the start.
const START: &str = "                  1 2 3 4 5 6 7
                 / / / / / / / 8
                              / 9
           a-  . . . . . . .   / 10
          b-  . . . . . . . .   / 11
         c-  . . . . . . . . .   / 12
        d-  . . . . . . . . . .   / 13
       e-  . . . . . . . . . . .   /
      f-  . . o o . . . . x x . .
     g-  . . o(o)o . . . x(x)x . .
      h-  . . o o . . . . x x . .
       i-  . . . . . . . . . . .
        j-  . . . . . . . . . .
         k-  . . . . . . . . .    O->
          l-  . . . . . . . .
           m-  . . . . . . .    <-X
";

/// O's column hops out, captures X's column (which has left its base), then the stone on g9, and
/// walks onto X's empty base. X's second move is sent in upper case with spaces.
const GAME_O: &str = "PlayerA\nPlayerB\n0\n>g4-g6\ng10-g8\n>g6-g8\nh11-i11\n>g8-g9\nh10-i10\n\
>g9-g10\n";
const GAME_X: &str = "PlayerA\nPlayerB\n1\ng4-g6\n>G10 - g8\ng6-g8\n>h11-i11\ng8-g9\n>h10-i10\n\
g9-g10\n";
const GAME_SPECTATORS: &str =
    "PlayerA\nPlayerB\ng4-g6\ng10-g8\ng6-g8\nh11-i11\ng8-g9\nh10-i10\ng9-g10\n";

/// Play scripted plans for O and X with a recording spectator; the three streams, the `--json`
/// record and the output folder.
fn scripted(
    plan_o: &str,
    plan_x: &str,
) -> (String, String, String, serde_json::Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let rec = |n: &str| dir.path().join(n);
    let o = bot("scripted.py", &format!("{} '{plan_o}'", rec("o").display()));
    let x = bot("scripted.py", &format!("{} '{plan_x}'", rec("x").display()));
    let spectator = format!("sh -c 'cat > {}'", rec("s").display());
    let a = arena()
        .args(["duel", &o, &x, "--game", "batalo"])
        .args(["--names", "PlayerA,PlayerB", "--timeout", "2", "--json"])
        .args(["--spectate", &spectator, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let read = |n: &str| std::fs::read_to_string(rec(n)).unwrap();
    let record = json_records(&a.get_output().stdout).remove(0);
    (read("o"), read("x"), read("s"), record, dir)
}

#[test]
fn a_known_game_streams_byte_for_byte() {
    let (o, x, s, record, dir) = scripted(
        "r|r|r|g4-g6|r|g6-g8|r|g8-g9|r|g9-g10|r*",
        "r|r|r|r|G10 - g8|r|h11-i11|r|h10-i10|r*",
    );
    assert_eq!(o, GAME_O);
    assert_eq!(x, GAME_X);
    assert_eq!(s, GAME_SPECTATORS);
    assert_eq!(record["reason"], "normal", "{record}");
    assert_eq!(record["winner"], 0);
    assert_eq!(record["scores"], serde_json::json!([1.0, 0.0]));
    assert_eq!(record["plies"], 7);
    // The log replays to the same result and the same stream.
    arena()
        .arg("replay")
        .arg(game_log(&dir.path().join("out"), 1))
        .assert()
        .success()
        .stdout(GAME_SPECTATORS);
}

#[test]
fn an_illegal_move_gives_retire() {
    let (o, x, s, record, _dir) = scripted("r|r|r|g4-g9|r*", "r|r|r|r*");
    assert_eq!(o, "PlayerA\nPlayerB\n0\n>g4-g9\n");
    assert_eq!(x, "PlayerA\nPlayerB\n1\nRETIRE\n");
    assert_eq!(s, "PlayerA\nPlayerB\nRETIRE\n");
    assert_eq!(record["reason"], "illegal", "{record}");
    assert_eq!(record["winner"], 1);
    assert_eq!(record["faulted"], 0);
    assert_eq!(
        record["detail"],
        "g4-g9: the column's path is blocked at g5"
    );
    assert_eq!(record["plies"], 0);
}

#[test]
fn a_line_that_is_not_a_move_is_a_protocol_fault() {
    // X answers O's first move with a point the board does not have.
    let (o, _, s, record, _dir) = scripted("r|r|r|f3-e2|r*", "r|r|r|r|a9-b9|r*");
    assert_eq!(o, "PlayerA\nPlayerB\n0\n>f3-e2\nRETIRE\n");
    assert_eq!(s, "PlayerA\nPlayerB\nf3-e2\nRETIRE\n");
    assert_eq!(record["reason"], "protocol", "{record}");
    assert_eq!(record["winner"], 0);
    assert!(
        record["detail"].as_str().unwrap().contains("'a9'"),
        "{record}"
    );
}

#[test]
fn search_beats_random() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", "builtin:search", "builtin:random", "-g", "batalo"])
        .args(["--games", "4", "--seed", "7", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let records = json_records(&a.get_output().stdout);
    assert_eq!(records.len(), 4);
    for r in &records {
        let winner = r["winner"].as_u64().unwrap_or_else(|| panic!("{r}")) as usize;
        assert_eq!(r["players"][winner], "search", "{r}");
        assert_eq!(r["reason"], "normal");
    }
}

#[test]
fn the_example_python_bot_plays_legal_moves() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", "python3 bots/batalo/random.py", "builtin:random"])
        .args(["-g", "batalo", "--games", "6", "--seed", "3", "--json"])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let records = json_records(&a.get_output().stdout);
    assert_eq!(records.len(), 6);
    for r in records {
        assert!(
            matches!(r["reason"].as_str(), Some("normal" | "limit")),
            "{r}"
        );
    }
}

#[test]
fn games_shows_the_board() {
    arena()
        .args(["games", "batalo"])
        .assert()
        .success()
        .stdout(predicate::str::contains(START))
        .stdout(predicate::str::contains("`max_moves` | 200"))
        .stdout(predicate::str::contains("builtin:search"));
    arena()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains("batalo"));
}

#[test]
fn perft_counts_from_the_start_and_from_a_position() {
    arena()
        .args(["perft", "batalo", "2"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(START))
        .stdout(predicate::str::contains("O to move\n"))
        .stdout(predicate::str::contains("depth 2: 1296 nodes"));
    // O's column on g8 can take the stone on g9 but not the column on its home base behind it;
    // with --divide each move is one line.
    let out = arena()
        .args(["perft", "batalo", "1", "--divide", "--position"])
        .arg("O:O(g8):X(g10),g9")
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("\ng8-g9 1\n"), "{text}");
    assert!(!text.contains("g8-g10"), "{text}");
    assert!(
        text.contains("     g-  . . . * . . .(o)x(x). . .\n"),
        "{text}"
    );
    arena()
        .args(["perft", "batalo", "2", "--position", "O:Og4:X(g10)"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--position"));
}
