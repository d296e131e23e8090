//! dama over Code Colosseum's text protocol: the seed document's example streams, retries after an
//! invalid move, and the end-of-game messages.

mod common;

use common::*;
use predicates::prelude::*;

const HEADER: &str = "   A  B  C  D  E  F  G  H\n";
const START: &str = "1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
";
const AFTER_6E_5D: &str = "1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][b][ ][ ][ ][ ] 5
6 [b][ ][b][ ][ ][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
";
const PROMPT: &str = "E' il tuo turno.\n\nInserisci la pedina che vuoi muovere e poi le mosse che \
vuoi fare\nEs > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...\n";

fn board(rows: &str) -> String {
    format!("{HEADER}{rows}{HEADER}")
}

/// White plays the seed's first move (after `extra` lines it sends first); black never answers.
fn opening(extra: &[&str], retries: &str) -> (String, String, String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let rec = |n: &str| dir.path().join(n);
    let mut plan = vec!["r"; 21];
    for e in extra {
        plan.push(e);
        plan.extend(["r"; 4]); // Mossa non valida riprova!, blank, the two prompt lines
    }
    plan.push("6e 5d");
    plan.push("r*");
    let white = bot(
        "scripted.py",
        &format!("{} '{}'", rec("a").display(), plan.join("|")),
    );
    let black = bot("scripted.py", &format!("{} 'r*'", rec("b").display()));
    let spectator = format!("sh -c 'cat > {}'", rec("s").display());
    let a = arena()
        .args([
            "duel",
            &white,
            &black,
            "--game",
            "dama",
            "--names",
            "PlayerA,PlayerB",
        ])
        .args([
            "-a",
            retries,
            "--timeout",
            "1",
            "--json",
            "--spectate",
            &spectator,
        ])
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let read = |n: &str| std::fs::read_to_string(rec(n)).unwrap();
    let record = json_records(&a.get_output().stdout).remove(0);
    (read("a"), read("b"), read("s"), record)
}

#[test]
fn the_seed_opening_streams_byte_for_byte() {
    let (a, b, s, record) = opening(&[], "retries=3");
    let start = format!(
        "PlayerA\nPlayerB\nAvvio la partita di dama...\n\n{}\n",
        board(START)
    );
    let expect_a = format!(
        "{start}Sei i Bianchi\nTurno bianco!\n{PROMPT}>6e 5d\n\n{}",
        board(AFTER_6E_5D)
    );
    let expect_b = format!(
        "{start}Sei i Neri\nTurno bianco!\n\n\n{}",
        board(AFTER_6E_5D)
    );
    let expect_s = format!("{start}Turno bianco!\n\n\n{}", board(AFTER_6E_5D));
    assert!(a.starts_with(&expect_a), "white saw:\n{a}");
    assert!(b.starts_with(&expect_b), "black saw:\n{b}");
    assert!(s.starts_with(&expect_s), "spectators saw:\n{s}");
    // Black never answers: it is told, everyone learns who won, and the game is over.
    assert!(b.contains(&format!(
        "\nTurno nero!\n{PROMPT}Tempo scaduto, hai esaurito il tempo per fare una mossa!\n"
    )));
    let end = "I neri hanno abbandonato la partita.\nI bianchi vincono la partita!\nGame Over ;)\n";
    for stream in [&a, &b, &s] {
        assert!(stream.ends_with(end), "{stream}");
    }
    assert_eq!(record["reason"], "timeout");
    assert_eq!(record["winner"], 0);
    assert_eq!(record["plies"], 1);
}

#[test]
fn an_invalid_move_is_refused_and_retried_within_the_turn() {
    let (a, _, s, record) = opening(&["xx", "6A 4A"], "retries=2");
    assert_eq!(
        a.matches("Mossa non valida riprova!").count(),
        2,
        "garbage and an illegal move are both refused:\n{a}"
    );
    assert!(a.contains(&format!(
        ">6A 4A\nMossa non valida riprova!\n\n{}",
        &PROMPT[PROMPT.find("Inserisci").unwrap()..]
    )));
    assert!(!s.contains("Mossa"), "spectators do not see refusals");
    // After the retries white's move still counts, and black's timeout ends the game.
    assert_eq!(record["plies"], 1);
    assert_eq!(record["winner"], 0);
}

#[test]
fn running_out_of_retries_loses() {
    let (a, _, _, record) = opening(&["6A 4A"], "retries=0");
    assert_eq!(record["reason"], "illegal", "{record}");
    assert_eq!(record["winner"], 1);
    assert!(
        record["detail"]
            .as_str()
            .unwrap()
            .contains("'6A 4A', which is not a legal move here")
    );
    // (The scripted bot goes on to write its next planned move, which nobody reads.)
    let end = ">6A 4A\nI bianchi hanno abbandonato la partita.\nI neri vincono la partita!\n\
               Game Over ;)\n";
    assert!(a.contains(end), "{a}");
}

#[test]
fn built_in_bots_play_dama_to_an_end() {
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args(["duel", "builtin:search", "builtin:random", "-g", "dama"])
        .args(["--games", "2", "--seed", "4", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    for r in json_records(&a.get_output().stdout) {
        assert!(
            matches!(r["reason"].as_str(), Some("normal" | "draw" | "limit")),
            "{r}"
        );
        arena()
            .arg("replay")
            .arg(r["log"].as_str().unwrap())
            .assert()
            .success()
            .stdout(predicate::str::ends_with("Game Over ;)\n"));
    }
}
