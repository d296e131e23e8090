//! The command line as users meet it: listings, errors that name what is wrong, the JSON
//! contract, replays, the terminal seat, and the example bots.

use std::path::Path;

use crate::common::*;
use predicates::prelude::*;

#[test]
fn games_lists_and_describes() {
    arena()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains("roshambo").and(predicate::str::contains("royalur")));
    arena()
        .args(["games", "roshambo"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Protocol for spectators")
                .and(predicate::str::contains("| `rounds` | 10 | 1 to 9999 |"))
                .and(predicate::str::contains("builtin:random")),
        );
    arena()
        .args(["games", "royalur"])
        .assert()
        .success()
        .stdout(predicate::str::contains("| `pace` | 0 | 0 to 30 |"));
}

/// Every game of the registry is listed, described with its parameters and built-in bots, and
/// plays a game between its built-in bots whose log replays to the same result.
#[test]
fn every_game_is_described_and_its_logs_replay() {
    let listing = arena().arg("games").assert().success();
    let listing = String::from_utf8_lossy(&listing.get_output().stdout).to_string();
    for info in arena::games::ALL {
        assert!(listing.contains(info.name), "{} not listed", info.name);
        let described = arena().args(["games", info.name]).assert().success();
        let text = String::from_utf8_lossy(&described.get_output().stdout).to_string();
        assert!(text.contains("## Game parameters"), "{}", info.name);
        for param in info.params {
            assert!(
                text.contains(&format!("| `{}` |", param.name)),
                "{}",
                info.name
            );
        }
        for (bot, _) in info.builtins {
            assert!(text.contains(&format!("`builtin:{bot}`")), "{}", info.name);
        }
        let dir = tempfile::tempdir().unwrap();
        let mut duel = arena();
        duel.args(["duel", "builtin:random", "builtin:random", "-g", info.name])
            .args(["--seed", "9", "--out"])
            .arg(dir.path());
        for (key, value) in info.short_game {
            duel.args(["-a", &format!("{key}={value}")]);
        }
        duel.assert().success();
        arena()
            .arg("replay")
            .arg(game_log(dir.path(), 1))
            .assert()
            .success()
            .stderr(predicate::str::contains("the result agrees"));
    }
}

#[test]
fn usage_errors_exit_2_and_say_what_is_wrong() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["games", "chess"],
            "unknown game 'chess' (known: roshambo, royalur",
        ),
        (
            &["duel", "builtin:random", "./nope.py", "--game", "roshambo"],
            "bot 2 (./nope.py): './nope.py' does not exist",
        ),
        (
            &[
                "duel",
                "builtin:random",
                "no-such-bot-cmd",
                "--game",
                "roshambo",
            ],
            "not found in PATH",
        ),
        (
            &[
                "duel",
                "builtin:best",
                "builtin:random",
                "--game",
                "roshambo",
            ],
            "roshambo has no built-in bot 'best' (it has: builtin:random, builtin:counter)",
        ),
        (
            &[
                "duel",
                "builtin:random",
                "builtin:random",
                "-g",
                "roshambo",
                "-a",
                "rounds=0",
            ],
            "roshambo: parameter 'rounds': expected a whole number from 1 to 9999, got '0'",
        ),
        (
            &[
                "duel",
                "builtin:random",
                "builtin:random",
                "-g",
                "roshambo",
                "-a",
                "speed=2",
            ],
            "unknown parameter 'speed' (known: rounds, pace)",
        ),
        (
            &[
                "duel",
                "builtin:random",
                "builtin:random",
                "-g",
                "royalur",
                "-a",
                "rolls=0012",
            ],
            "'0012' is not a roll",
        ),
        (
            &[
                "duel",
                "builtin:random",
                "builtin:random",
                "-g",
                "royalur",
                "--timeout",
                "0",
            ],
            "--timeout must be from 0.1 to 600 seconds",
        ),
        (
            &["duel", "-", "-", "-g", "royalur"],
            "only one bot can be the terminal",
        ),
        // Sizes that would exhaust memory are refused, not attempted.
        (
            &["run", "tournaments/royalur.toml", "--jobs", "10000000"],
            "expected a number of games at once from 1 to 1024",
        ),
        (
            &[
                "duel",
                "builtin:random",
                "builtin:random",
                "-g",
                "roshambo",
                "--games",
                "4294967295",
            ],
            "4294967295 is not in 1..=100000",
        ),
        (
            &[
                "check",
                "builtin:random",
                "-g",
                "roshambo",
                "--games",
                "4294967295",
            ],
            "4294967295 is not in 1..=100000",
        ),
    ];
    for (args, message) in cases {
        arena()
            .args(*args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn json_records_follow_the_contract_and_seats_alternate() {
    let dir = tempfile::tempdir().unwrap();
    let assert = arena()
        .args(["duel", "builtin:greedy", "builtin:random", "-g", "royalur"])
        .args(["--games", "3", "--seed", "11", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Finished game 3 (greedy vs random)",
        ));
    let records = json_records(&assert.get_output().stdout);
    assert_eq!(
        records.len(),
        3,
        "one line per game and nothing else on stdout"
    );
    for (i, r) in records.iter().enumerate() {
        let first = if i % 2 == 0 { "greedy" } else { "random" };
        assert_eq!(r["game"], "royalur");
        assert_eq!(r["players"][0], first, "seats alternate");
        let scores: Vec<f64> = r["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_f64().unwrap())
            .collect();
        assert_eq!(scores.iter().sum::<f64>(), 1.0);
        let winner = r["winner"].as_u64().unwrap() as usize;
        assert_eq!(scores[winner], 1.0);
        assert_eq!(r["reason"], "normal");
        assert!(
            r["plies"].as_u64().unwrap() > 14,
            "seven tokens need many moves"
        );
        let log = std::path::Path::new(r["log"].as_str().unwrap());
        assert!(log.is_file(), "{log:?}");
    }
}

#[test]
fn the_same_seed_replays_the_same_games() {
    let run = |seed: &str| {
        let dir = tempfile::tempdir().unwrap();
        let a = arena()
            .args(["duel", "builtin:random", "builtin:random", "-g", "royalur"])
            .args(["--games", "2", "--json", "--seed", seed, "--out"])
            .arg(dir.path())
            .assert()
            .success();
        json_records(&a.get_output().stdout)
            .iter()
            .map(|r| (r["plies"].clone(), r["winner"].clone(), r["seed"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(run("42"), run("42"));
    assert_ne!(run("42"), run("43"));
}

#[test]
fn replay_agrees_with_a_log_and_catches_a_tampered_one() {
    let dir = tempfile::tempdir().unwrap();
    arena()
        .args(["duel", "builtin:random", "python3 bots/royalur/random.py"])
        .args(["-g", "royalur", "--seed", "5", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let log = game_log(dir.path(), 1);
    arena()
        .arg("replay")
        .arg(&log)
        .assert()
        .success()
        .stderr(predicate::str::contains("the result agrees"));
    // Change one move the second bot made: the referee must notice.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let i = lines
        .iter()
        .position(|l| l.contains("\"from\":1"))
        .expect("seat 1 moved");
    let mut entry: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
    entry["line"] = "9".into();
    lines[i] = entry.to_string();
    let tampered = dir.path().join("tampered.jsonl");
    std::fs::write(&tampered, lines.join("\n") + "\n").unwrap();
    arena()
        .arg("replay")
        .arg(&tampered)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("replay: the result differs"));
    // A line from a seat the game does not have: refused with its line, not a panic.
    for key in ["from", "to", "fault", "exit"] {
        let Some(i) = lines
            .iter()
            .position(|l| l.contains(&format!("\"{key}\":1")))
        else {
            continue;
        };
        let mut edited = lines.clone();
        edited[i] = edited[i].replace(&format!("\"{key}\":1"), &format!("\"{key}\":2"));
        std::fs::write(&tampered, edited.join("\n") + "\n").unwrap();
        // A corrupt log is not a usage error: exit 1.
        arena()
            .arg("replay")
            .arg(&tampered)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "{}:{}: seat 2 does not exist",
                tampered.display(),
                i + 1
            )));
    }
}

#[test]
fn a_person_can_play_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    arena()
        .args([
            "duel",
            "-",
            "builtin:random",
            "-g",
            "roshambo",
            "-a",
            "rounds=2",
        ])
        .args(["--names", "me,it", "--out"])
        .arg(dir.path())
        .write_stdin("ROCK\nPAPER\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("me\nit\n2\n"))
        .stdout(predicate::str::contains("Finished game 1 (me vs it)"));
}

/// The example bots of every game in the registry (in its `example_bots` folder), with their
/// extension `ext`.
fn example_bots(ext: &str) -> Vec<(&'static str, std::path::PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for info in arena::games::ALL {
        let Ok(dir) = std::fs::read_dir(root.join(info.example_bots)) else {
            continue;
        };
        let mut files: Vec<_> = dir
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        found.extend(files.into_iter().map(|f| (info.name, f)));
    }
    found
}

#[test]
fn every_game_has_example_python_bots_that_play_full_games() {
    let bots = example_bots("py");
    for info in arena::games::ALL {
        assert!(
            bots.iter().any(|(g, _)| *g == info.name),
            "{}/ has no example Python bot",
            info.example_bots
        );
    }
    // One bot on each channel.
    let dir = tempfile::tempdir().unwrap();
    let a = arena()
        .args([
            "duel",
            "python3 bots/royalur/pipe.py",
            "python3 bots/royalur/random.py",
        ])
        .args([
            "-g",
            "royalur",
            "--channel",
            "pipe,stdio",
            "--json",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(json_records(&a.get_output().stdout)[0]["reason"], "normal");
    for (game, path) in bots {
        // `pipe.py` talks over the pipe channel, the others over stdio.
        let channel = match path.file_stem().is_some_and(|s| s == "pipe") {
            true => "pipe",
            false => "stdio",
        };
        let bot = format!("python3 {}", path.display());
        let dir = tempfile::tempdir().unwrap();
        // The same program in both seats, on the same channel; deadlines for a busy machine:
        // what is checked here is that the bots play legal games to their end.
        let a = arena()
            .args(["duel", &bot, &bot, "-g", game, "--channel", channel])
            .args(["--games", "2", "--timeout", "5", "--startup-timeout", "10"])
            .args(["--json", "--out"])
            .arg(dir.path())
            .assert()
            .success();
        for r in json_records(&a.get_output().stdout) {
            let reason = r["reason"].as_str().unwrap();
            // What the failed bot said, to tell its fault from the machine's.
            let said = r["faulted"].as_u64().map(|seat| {
                let log = std::path::PathBuf::from(r["log"].as_str().unwrap());
                std::fs::read_to_string(log.with_extension(format!("seat{seat}.stderr")))
                    .unwrap_or_default()
            });
            assert!(
                matches!(reason, "normal" | "draw" | "limit"),
                "{game} {}: {r}\nits stderr: {}",
                path.display(),
                said.unwrap_or_default()
            );
        }
    }
}

#[test]
fn example_c_bots_compile_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let sources = example_bots("c");
    assert!(!sources.is_empty(), "bots/ shows one compiled language");
    for (game, source) in sources {
        let exe = dir.path().join(source.file_stem().unwrap());
        let status = std::process::Command::new("cc")
            .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(&source)
            .status()
            .expect("a C compiler");
        assert!(status.success(), "{}", source.display());
        let a = arena()
            .arg("duel")
            .arg(&exe)
            .args([
                "builtin:random",
                "-g",
                game,
                "--games",
                "2",
                "--json",
                "--out",
            ])
            .arg(dir.path().join(format!("{game}-out")))
            .assert()
            .success();
        for r in json_records(&a.get_output().stdout) {
            assert!(
                matches!(r["reason"].as_str(), Some("normal" | "draw")),
                "{}: {r}",
                source.display()
            );
        }
    }
}

#[test]
fn replay_can_feed_a_spectator_program() {
    let dir = tempfile::tempdir().unwrap();
    arena()
        .args([
            "duel",
            "builtin:random",
            "builtin:counter",
            "-g",
            "roshambo",
        ])
        .args(["--names", "a,b", "-a", "rounds=4", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let seen = dir.path().join("seen");
    arena()
        .arg("replay")
        .arg(game_log(dir.path(), 1))
        .arg("--spectate")
        .arg(format!("sh -c 'cat > {}'", seen.display()))
        .assert()
        .success();
    let stream = std::fs::read_to_string(&seen).unwrap();
    let lines: Vec<&str> = stream.lines().collect();
    assert_eq!(lines[..3], ["a", "b", "4"]);
    assert_eq!(lines.len(), 3 + 2 * 4, "two gestures per round");
}
