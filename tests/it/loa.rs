//! loa over CodinGame's protocol, through the real binary: a known short game with the exact
//! input of the first turns, `random` and comments, bad lines, the built-in bots, perft.

use crate::common::*;
use predicates::prelude::*;
use serde_json::Value;

/// A scripted loa bot: plays PLAN (steps separated by `|`: `T` reads one whole turn, with the
/// colour line on the first; anything else is sent) then reads to the end of its input, and
/// records everything it reads and sends (sent lines prefixed with `>`) in RECORD.
const SCRIPT: &str = r#"
import sys
record, plan = open(sys.argv[1], "w"), sys.argv[2]
first = True
def read():
    line = sys.stdin.readline()
    record.write(line)
    record.flush()
    return line
for step in plan.split("|"):
    if step == "T":
        if first:
            read()
            first = False
        for _ in range(9):
            read()
        for _ in range(int(read())):
            read()
    else:
        record.write(">" + step + "\n")
        record.flush()
        sys.stdout.write(step + "\n")
        sys.stdout.flush()
record.write(sys.stdin.read())
"#;

const START: [&str; 8] = [
    ".bbbbbb.", "w......w", "w......w", "w......w", "w......w", "w......w", "w......w", ".bbbbbb.",
];

/// The 36 opening moves, sorted as strings.
const FIRST_MOVES: &str = "b1b3 b1d3 b1h1 b8b6 b8d6 b8h8 c1a3 c1c3 c1e3 c8a6 c8c6 c8e6 d1b3 d1d3 \
    d1f3 d8b6 d8d6 d8f6 e1c3 e1e3 e1g3 e8c6 e8e6 e8g6 f1d3 f1f3 f1h3 f8d6 f8f6 f8h6 g1a1 g1e3 g1g3 \
    g8a8 g8e6 g8g6";

struct Played {
    record: Value,
    /// What each seat read and sent, and the spectator stream.
    seen: [String; 2],
    spectators: String,
    /// Holds the game log until the test is done with it.
    _dir: tempfile::TempDir,
}

/// Play one game between two scripted bots with the given plans.
fn play(plans: [&str; 2], extra: &[&str]) -> Played {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("scripted_loa.py");
    std::fs::write(&script, SCRIPT).unwrap();
    let rec = |n: &str| dir.path().join(n);
    let bot = |i: usize| {
        format!(
            "python3 {} {} '{}'",
            script.display(),
            rec(&format!("seat{i}")).display(),
            plans[i]
        )
    };
    let spectator = format!("sh -c 'cat > {}'", rec("spectators").display());
    let a = arena()
        .args(["duel", &bot(0), &bot(1), "--game", "loa", "--json"])
        .args(["--names", "Black,White", "--spectate", &spectator])
        .args(["--startup-timeout", "10", "--seed", "7"])
        .args(extra)
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let record = json_records(&a.get_output().stdout).remove(0);
    let read = |n: &str| std::fs::read_to_string(rec(n)).unwrap();
    Played {
        record,
        seen: [read("seat0"), read("seat1")],
        spectators: read("spectators"),
        _dir: dir,
    }
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// The legal moves in a position, sorted, as `arena perft loa 1 --divide` lists them.
fn perft_moves(position: &str) -> Vec<String> {
    let out = arena()
        .args(["perft", "loa", "1", "--divide", "--position", position])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let mut moves: Vec<String> = text
        .lines()
        .filter(|l| l.len() == 6 && l.ends_with(" 1"))
        .map(|l| l[..4].to_string())
        .collect();
    moves.sort();
    moves
}

/// One turn's lines as the protocol sends them: the board, the last move, the count, the moves.
fn turn(board: &[&str], last: &str, moves: &[String]) -> Vec<String> {
    let mut t: Vec<String> = board.iter().map(|s| s.to_string()).collect();
    t.push(last.into());
    t.push(moves.len().to_string());
    t.extend(moves.iter().cloned());
    t
}

/// A short game: black gathers in 7 moves while white shuffles on the a file.
const BLACK: &str = "T|b1d3|T|d1d4 to the centre|T|e1e3|T|f1c4|T|g1c5|T|d4d7|T|b8d6 gg";
const WHITE: &str = "T|a2a8|T|a3c1|T|a4b3|T|a5a1|T|a1a5|T|a5a1";

#[test]
fn a_known_game_and_the_first_turns_line_by_line() {
    let p = play([BLACK, WHITE], &["--timeout", "5"]);
    assert_eq!(p.record["reason"], "normal", "{}", p.record);
    assert_eq!(p.record["winner"], 0);
    assert_eq!(p.record["plies"], 13);

    // Black's first turn: its colour, the start, `null`, 36 moves sorted as strings.
    let first: Vec<String> = FIRST_MOVES.split_whitespace().map(String::from).collect();
    let mut expect = vec!["b".to_string()];
    expect.extend(turn(&START, "null", &first));
    expect.push(">b1d3".into());
    // Its second turn, after b1d3 and white's a2a8.
    let board = [
        "wbbbbbb.", "w......w", "w......w", "w......w", "w......w", "w..b...w", ".......w",
        "..bbbbb.",
    ];
    let moves = perft_moves(&format!("{} b", board.join("/")));
    assert!(moves.contains(&"d1d4".to_string()), "{moves:?}");
    expect.extend(turn(&board, "a2a8", &moves));
    expect.push(">d1d4 to the centre".into());
    let black = lines(&p.seen[0]);
    assert_eq!(
        black[..expect.len()],
        expect[..],
        "black read:\n{}",
        p.seen[0]
    );

    // White's first turn: `w`, the board after b1d3, and that move.
    let board = [
        ".bbbbbb.", "w......w", "w......w", "w......w", "w......w", "w..b...w", "w......w",
        "..bbbbb.",
    ];
    let moves = perft_moves(&format!("{} w", board.join("/")));
    assert!(moves.contains(&"a2a8".to_string()));
    let mut expect = vec!["w".to_string()];
    expect.extend(turn(&board, "b1d3", &moves));
    expect.push(">a2a8".into());
    // Its second turn is told black's move without the comment.
    expect.extend(
        lines("wbbbbbb.\nw......w\nw......w\nw......w\n")
            .iter()
            .map(|s| s.to_string()),
    );
    let white = lines(&p.seen[1]);
    assert_eq!(
        white[..expect.len()],
        expect[..],
        "white read:\n{}",
        p.seen[1]
    );
    assert_eq!(white[expect.len() + 4], "d1d4");

    // The last move ends the game: nothing more to either player.
    assert!(p.seen[0].ends_with(">b8d6 gg\n"), "{}", p.seen[0]);
    assert!(p.seen[1].ends_with(">a5a1\n"), "{}", p.seen[1]);

    // Spectators: the names, each move (with its comment), the result.
    assert_eq!(
        p.spectators,
        "Black\nWhite\nb1d3\na2a8\nd1d4 to the centre\na3c1\ne1e3\na4b3\nf1c4\na5a1\ng1c5\na1a5\n\
         d4d7\na5a1\nb8d6 gg\nresult b normal\n"
    );

    // The log replays to the same stream.
    let log = p.record["log"].as_str().unwrap();
    arena()
        .args(["replay", log])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("b8d6 gg\nresult b normal\n"));
}

#[test]
fn random_and_comments_are_accepted() {
    // Both let arena choose; black then never answers and loses on time.
    let p = play(["T|random why not|T", "T|random"], &["--timeout", "0.5"]);
    assert_eq!(p.record["reason"], "timeout", "{}", p.record);
    assert_eq!(p.record["faulted"], 0);
    assert_eq!(p.record["winner"], 1);
    assert_eq!(p.record["plies"], 2);
    let spect = lines(&p.spectators);
    assert_eq!(spect.len(), 5, "{}", p.spectators);
    let (first, comment) = spect[2].split_once(' ').unwrap();
    assert_eq!(comment, "why not");
    assert!(
        FIRST_MOVES.split_whitespace().any(|m| m == first),
        "{first}"
    );
    assert_eq!(spect[4], "result w timeout");
    // Each side is told the move arena played for the other.
    let white = lines(&p.seen[1]);
    assert_eq!(white[9], first);
    let black = lines(&p.seen[0]);
    let second_turn = black.iter().position(|l| *l == ">random why not").unwrap() + 1;
    assert_eq!(black[second_turn + 8], spect[3]);
    // The same seed chooses the same moves.
    let again = play(["T|random why not|T", "T|random"], &["--timeout", "0.5"]);
    assert_eq!(lines(&again.spectators)[2..4], spect[2..4]);
}

fn loses(line: &str, reason: &str, detail: &str) {
    let p = play([&format!("T|{line}"), "T"], &["--timeout", "5"]);
    assert_eq!(p.record["reason"], reason, "{line}: {}", p.record);
    assert_eq!(p.record["faulted"], 0);
    assert_eq!(p.record["winner"], 1);
    assert_eq!(p.record["plies"], 0);
    let got = p.record["detail"].as_str().unwrap();
    assert!(got.contains(detail), "{line}: {got}");
    assert_eq!(
        lines(&p.spectators).last().copied(),
        Some(format!("result w {reason}").as_str())
    );
    // White never got a turn: its input closed without a line.
    assert_eq!(p.seen[1], "");
}

#[test]
fn garbage_loses_by_protocol() {
    loses(
        "hello there",
        "protocol",
        "sent 'hello there': expected a move like b1b3",
    );
    loses("b1-b3", "protocol", "expected a move like b1b3");
}

#[test]
fn an_illegal_move_loses() {
    loses("b1b4", "illegal", "must move exactly 2 squares");
    loses("a2a4", "illegal", "the checker on a2 is w's, not b's");
    loses("pass", "illegal", "only allowed with no legal move");
    loses("b1b9", "illegal", "b9 is off the board");
}

#[test]
fn built_in_search_beats_random() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", "builtin:search", "builtin:random", "-g", "loa"])
        .args(["--games", "4", "--seed", "3", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let records = json_records(&a.get_output().stdout);
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!(r["reason"], "normal", "{r}");
        let winner = r["winner"].as_u64().unwrap() as usize;
        assert_eq!(r["players"][winner], "search", "{r}");
        arena()
            .arg("replay")
            .arg(r["log"].as_str().unwrap())
            .assert()
            .success()
            .stdout(predicate::str::contains("result "));
    }
}

#[test]
fn perft_and_description() {
    arena()
        .args(["perft", "loa", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth 2: 1244 nodes"));
    arena()
        .args(["perft", "loa", "1", "--position", "bad"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--position"));
    arena().args(["games", "loa"]).assert().success().stdout(
        predicate::str::contains("Lines of Action")
            .and(predicate::str::contains("| `max_plies` | 150 |")),
    );
}

#[test]
fn the_example_python_bot_plays_legal_games() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", "python3 bots/loa/random.py", "builtin:random"])
        .args(["-g", "loa", "--games", "2", "--seed", "5", "--json"])
        // Generous deadlines: the test machine may be busy running other tests.
        .args(["--timeout", "2", "--startup-timeout", "10", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    for r in json_records(&a.get_output().stdout) {
        assert!(
            matches!(r["reason"].as_str(), Some("normal" | "limit")),
            "{r}"
        );
    }
}

#[test]
fn a_move_with_something_stuck_to_it_plays_as_on_codingame() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", &bot("loa_appends.py", ""), "builtin:random"])
        .args(["-g", "loa", "--games", "2", "--seed", "3", "--json"])
        .args(["--timeout", "2", "--startup-timeout", "10", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let records = json_records(&a.get_output().stdout);
    for r in &records {
        assert!(
            matches!(r["reason"].as_str(), Some("normal" | "limit")),
            "{r}"
        );
        assert!(r["plies"].as_u64().unwrap() > 8, "{r}");
    }
    // The log keeps the whole line; the spectators get the move played and the message.
    let log = log_entries(&dir.path().join(records[0]["log"].as_str().unwrap()));
    let received: Vec<&str> = log
        .iter()
        .filter(|e| e["from"] == 0)
        .filter_map(|e| e["line"].as_str())
        .collect();
    assert!(received[0].ends_with(';'), "{received:?}");
    assert!(
        received[2].contains(";eval=2 thinking hard"),
        "{received:?}"
    );
    let spectators: Vec<&str> = log
        .iter()
        .filter_map(|e| e["spectators"].as_str())
        .collect();
    assert!(
        spectators.iter().any(|l| l.ends_with(" thinking hard")),
        "{spectators:?}"
    );
    assert!(
        spectators.iter().all(|l| !l.contains(';')),
        "the move played is shown alone: {spectators:?}"
    );
    // The documents' variant takes only the move itself.
    let a = arena()
        .args(["duel", &bot("loa_appends.py", ""), "builtin:random"])
        .args(["-g", "loa", "-a", "protocol=docs", "--json", "--out"])
        .arg(dir.path().join("docs"))
        .assert()
        .success();
    let r = &json_records(&a.get_output().stdout)[0];
    assert_eq!(r["reason"], "protocol", "{r}");
    assert_eq!(r["faulted"], 0, "{r}");
    // The first turn has CodinGame's second plus the 0.3 s it waits before the first input.
    let log = log_entries(&dir.path().join("docs").join(r["log"].as_str().unwrap()));
    assert_eq!(log[0]["header"]["startup_timeout"], 1.3);
}

/// A message is passed on to the spectators as it is: one holding a carriage return, which a
/// spectator reading lines as Java does would take for a second line (here a fake result), is a
/// `protocol` fault instead, and the spectators never see it.
#[test]
fn a_message_holding_a_line_break_is_refused_before_the_spectators_see_it() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", &bot("loa_appends.py", "breaks"), "builtin:random"])
        .args(["-g", "loa", "--seed", "3", "--json"])
        .args(["--timeout", "2", "--startup-timeout", "10", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let r = &json_records(&a.get_output().stdout)[0];
    assert_eq!(r["reason"], "protocol", "{r}");
    assert_eq!(r["faulted"], 0, "{r}");
    assert_eq!(r["cause"], "line_break", "{r}");
    let detail = r["detail"].as_str().unwrap();
    assert!(
        detail.ends_with(" watch\\rresult b normal': a carriage return inside its line, where some readers end a line"),
        "{detail}"
    );
    let log = log_entries(&dir.path().join(r["log"].as_str().unwrap()));
    let spectators: Vec<&str> = log
        .iter()
        .filter_map(|e| e["spectators"].as_str())
        .collect();
    assert!(
        spectators
            .iter()
            .all(|l| !l.contains('\r') && !l.contains("result b")),
        "{spectators:?}"
    );
}
