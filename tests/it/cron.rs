//! What a nightly ladder run from cron sees: each night announced as a new cycle (not as the
//! resume of a failed night), a loud note when a ladder starts in an empty folder, the progress
//! line's leader the standings' first, and ASCII tables without a UTF-8 locale. (The lock's own
//! exit status is tested beside the lock, in tests/it/tournament.rs.)

use std::path::{Path, PathBuf};

use crate::common::*;

/// A roshambo bot that plays `moves` (one gesture a round, 3 rounds) in every game.
fn plays(moves: [&str; 3]) -> String {
    let [a, b, c] = moves;
    bot(
        "scripted.py",
        &format!("/dev/null 'r|r|r|{a}|r|{b}|r|{c}|r'"),
    )
}

fn ladder(dir: &Path, bots: &[(&str, String)]) -> PathBuf {
    let mut text = "name = \"night\"\ngame = \"roshambo\"\nladder = true\nseed = 1\n\
                    [params]\nrounds = 3\n"
        .to_string();
    for (name, command) in bots {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = \"{command}\"\n"
        ));
    }
    let path = dir.join("ladder.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `arena run SPEC` from `dir` (as cron's `cd DIR && arena run ...`), its results relative to
/// it, with `env` set; stderr and stdout.
fn night(dir: &Path, spec: &Path, env: &[(&str, &str)]) -> (String, String) {
    let mut cmd = arena();
    cmd.current_dir(dir).arg("run").arg(spec);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (err, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Night 1: a (paper) beats b (rock). Night 2 adds z, who beats both, and ends level with a on
/// points (4 each), but z won every game, a lost two to z: the standings put z first, and so
/// must the last progress line (by name alone it would say a).
#[test]
fn each_night_of_a_ladder_is_a_new_cycle_and_the_leader_is_the_standings_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut bots = vec![
        ("a", plays(["PAPER", "PAPER", "PAPER"])),
        ("b", plays(["ROCK", "ROCK", "ROCK"])),
    ];
    let (first, _) = night(dir.path(), &ladder(dir.path(), &bots), &[]);
    assert!(
        first.contains("arena: NOTE: ladder: results/night holds no games yet"),
        "{first}"
    );
    assert!(
        first.contains("Results are relative to the current folder ("),
        "{first}"
    );
    assert!(
        first.contains("arena: ladder: cycle 1 begins: 2 games"),
        "{first}"
    );
    assert!(
        first.contains(&format!(
            "results in results/night (in {})",
            dir.path().display()
        )),
        "{first}"
    );

    bots.push(("z", plays(["SCISSORS", "PAPER", "PAPER"])));
    let (second, _) = night(dir.path(), &ladder(dir.path(), &bots), &[]);
    assert!(
        second.contains("arena: ladder: cycle 2 begins: 6 games (2 games on record before it)"),
        "{second}"
    );
    assert!(
        !second.contains("resum"),
        "a new night is no resume: {second}"
    );
    assert!(!second.contains("NOTE"), "{second}");
    let standings =
        std::fs::read_to_string(dir.path().join("results/night/standings.csv")).unwrap();
    let first_row = standings.lines().nth(1).unwrap();
    assert!(first_row.starts_with("1,z,"), "{standings}");
    assert!(second.contains("6/6 games, leader: z (4)"), "{second}");
}

/// Without a UTF-8 locale (cron's is often none) the tables are plain ASCII; with one they keep
/// their symbols.
#[test]
fn tables_are_ascii_without_a_utf8_locale() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        ("a", plays(["PAPER", "PAPER", "PAPER"])),
        ("b", plays(["ROCK", "ROCK", "ROCK"])),
    ];
    let spec = ladder(dir.path(), &bots);
    let (_, plain) = night(
        dir.path(),
        &spec,
        &[("LC_ALL", ""), ("LC_CTYPE", ""), ("LANG", "C")],
    );
    assert!(plain.is_ascii(), "{plain}");
    assert!(plain.contains("+-"), "{plain}");
    let (_, fancy) = night(dir.path(), &spec, &[("LC_ALL", "C.UTF-8")]);
    assert!(fancy.contains('±'), "{fancy}");
}
