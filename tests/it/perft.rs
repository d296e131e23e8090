//! `arena perft` from the command line, against published counts.

use crate::common::*;
use predicates::prelude::*;

#[test]
fn checkers_from_the_start() {
    arena()
        .args(["perft", "checkers", "6"])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth 6: 36768 nodes"));
}

#[test]
fn tictactoe_finished_games_in_all() {
    arena()
        .args(["perft", "tictactoe", "9"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "depth 9: 127872 nodes, 255168 games finished within 9 moves",
        ));
}

#[test]
fn divide_from_a_fen_position() {
    // Seat 1 (white, `r`) to move with men on 21 and 22; black has a man on 5 and a king on 9.
    let out = arena()
        .args([
            "perft",
            "checkers",
            "1",
            "--divide",
            "--position",
            "W:W21,22:B5,K9",
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('[')).collect();
    let total: u64 = rows
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(text.contains(&format!("depth 1: {total} nodes")), "{text}");
    assert_eq!(rows.len() as u64, total, "at depth 1 each move is one node");
}

#[test]
fn bad_positions_and_games_without_perft_are_usage_errors() {
    arena()
        .args(["perft", "checkers", "2", "--position", "W:W33:B5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--position"));
    arena()
        .args(["perft", "roshambo", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("roshambo is not one"));
}

/// Every board game of the registry counts from its start, and its counts split by first move
/// add up to the total.
#[test]
fn every_board_game_counts_and_divides_from_its_start() {
    for info in arena::games::ALL {
        let Some(_) = info.positions else {
            arena()
                .args(["perft", info.name, "1"])
                .assert()
                .code(2)
                .stderr(predicate::str::contains("is not one"));
            continue;
        };
        let count = |args: &[&str]| -> (u64, Vec<String>) {
            let out = arena()
                .arg("perft")
                .arg(info.name)
                .args(args)
                .assert()
                .success();
            let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
            let mut lines: Vec<String> = text.lines().map(String::from).collect();
            let last = lines.pop().unwrap();
            let nodes = last.split(' ').nth(2).unwrap().parse().unwrap();
            (nodes, lines)
        };
        let (moves, _) = count(&["1"]);
        let (total, lines) = count(&["2", "--divide"]);
        // The last lines before the total are one per first move: the move, then its count.
        let rows = &lines[lines.len() - moves as usize..];
        let split: u64 = rows
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        let text = lines.join("\n");
        assert!(moves > 0, "{}: {text}", info.name);
        assert_eq!(split, total, "{}: {text}", info.name);
    }
}
