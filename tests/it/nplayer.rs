//! Games of more than two players, from the bots to the log: CodinGame's Tron Battle for 3 and 4
//! players with bots that crash, hang, answer garbage and spin while the others think, a Python
//! referee program of 3 players, the replay of each, and what `arena match` refuses.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// The CPU-heavy tests of this file one at a time, and none beside processes' fairness tests:
/// each measures what others would disturb.
fn serial() {
    alone()
}

fn tron_bot(args: &str) -> String {
    bot("tron_bot.py", args)
}

/// `arena match BOTS... --game tron --json` into `out`, with `extra` options; every game's
/// record (the JSON lines), arena's stderr and its exit code. A Python bot's start may take
/// more than Tron's 1 s on a loaded machine: the first move gets 30.
fn tron_match(bots: &[String], out: &Path, extra: &[&str]) -> (Vec<Value>, String, Option<i32>) {
    let output = arena()
        .arg("match")
        .args(bots)
        .args(["--game", "tron", "--json", "--startup-timeout", "30"])
        // Tron's 1 s a move, unless the test gives its own.
        .args(match extra.contains(&"--timeout") {
            true => &[][..],
            false => &["--timeout", "1"][..],
        })
        .args(extra)
        .arg("--out")
        .arg(out)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    (
        json_records(&output.stdout),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}

/// The seat `name` sat in.
fn seat(record: &Value, name: &str) -> usize {
    record["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == name)
        .unwrap()
}

/// `arena replay LOG` agrees with the log.
fn replays(log: &str, args: &[&str]) {
    let output = arena().arg("replay").arg(log).args(args).output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{log}: {said}");
    assert!(said.contains("replay: the result agrees"), "{said}");
}

/// Four players, three of whom fail at their third move (a crash, a hang, garbage): each is
/// out with its own reason, ranked below the one still in, and the game goes on for the others
/// until it is over; every seat of every game is rotated, and every game replays.
#[test]
fn a_four_player_game_goes_on_past_the_players_that_fail() {
    serial();
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        tron_bot("legal"),
        tron_bot("crash 3"),
        tron_bot("hang 3"),
        tron_bot("garbage 3"),
    ];
    let names = "legal,crash,hang,garbage";
    // Two games at once, so that the hangs' seconds overlap: the test runs alone.
    let extra = ["--games", "4", "--jobs", "2", "--names", names];
    let (records, stderr, code) = tron_match(&bots, dir.path(), &extra);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records.len(), 4, "{stderr}");
    for (i, r) in records.iter().enumerate() {
        // Rotated: the first bot sits in seat 0 of game 1, seat 3 of game 2, ...
        assert_eq!(seat(r, "legal"), (4 - i) % 4, "{r}");
        let out = r["out"].as_array().unwrap();
        let fault = |name: &str| {
            out.iter()
                .find(|o| o["seat"] == seat(r, name))
                .unwrap_or_else(|| panic!("{name} failed: {r}"))
        };
        for (name, reason, words) in [
            ("crash", "crash", "exited with status 3 at move 3"),
            ("hang", "timeout", "timed out at move 3"),
            ("garbage", "protocol", "sent 'NORTH'"),
        ] {
            let f = fault(name);
            assert_eq!(f["reason"], reason, "{r}");
            assert!(f["detail"].as_str().unwrap().contains(words), "{r}");
        }
        let places = r["places"].as_array().unwrap();
        let legal = places[seat(r, "legal")].as_u64().unwrap();
        // The one still in is first; the three failed in the same turn and share second.
        assert_eq!(legal, 1, "{r}");
        for name in ["crash", "hang", "garbage"] {
            assert_eq!(places[seat(r, name)], 2, "{name}: {r}");
        }
        assert_eq!(r["winner"], seat(r, "legal"), "{r}");
        assert_eq!(r["reason"], "normal", "{r}");
        assert_eq!(r["scores"][seat(r, "legal")], 1.0, "{r}");
        replays(r["log"].as_str().unwrap(), &[]);
    }
    let csv = std::fs::read_to_string(dir.path().join("games.csv")).unwrap();
    assert!(
        csv.starts_with("id,round,seat0,seat1,seat2,seat3,place0,"),
        "{csv}"
    );
    assert!(processes_with("tron_bot.py").is_empty());
}

/// Three players: two crash at their first move, in the same turn, and share the last place;
/// the game is over at once, the one still in first.
#[test]
fn players_out_in_the_same_turn_share_a_place() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [tron_bot("legal"), tron_bot("crash 1"), tron_bot("crash 1")];
    // Generous: on a loaded machine the legal bot once ran out of Tron's 1 s, and placed as the
    // crashed ones did.
    let extra = ["--games", "3", "--timeout", "20"];
    let (records, stderr, code) = tron_match(&bots, dir.path(), &extra);
    assert_eq!(code, Some(0), "{stderr}");
    for r in &records {
        let legal = seat(r, "tron_bot-1");
        let places: Vec<u64> = r["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        for (s, &p) in places.iter().enumerate() {
            assert_eq!(p, if s == legal { 1 } else { 2 }, "{r}");
        }
        assert_eq!(r["out"].as_array().unwrap().len(), 2, "{r}");
        replays(r["log"].as_str().unwrap(), &[]);
    }
}

/// The thinking windows of the honest bot, from its stderr.
fn windows(said: &str) -> Vec<(f64, f64)> {
    thought_windows(said, "tron_bot")
}

/// One honest bot that needs 0.3 s of CPU for each of its first 6 moves, and three that leave 8
/// spinners each after every move of theirs: the beats of the spinners that came while the honest bot thought, and
/// the games' records.
fn spinners_against_the_honest(ponder: bool) -> (Vec<f64>, usize, Vec<Value>, String) {
    let dir = readable_tempdir();
    let beat = dir.path().join("beat");
    let marker = format!("{}.{}", 4000 + std::process::id() % 1000, 4321);
    let spinner = tron_bot(&format!("spin {marker} {}", beat.display()));
    // The control needs one game, and two thinking moves, to show the spinners run: the honest
    // bot moves first, before any spinner exists, and then shares the CPU with 24 spinners, each
    // in a session (a scheduler autogroup) of its own: 0.3 s of CPU takes about 4 s, so its
    // deadline is 10 s (at 1 s it timed out and said nothing of its second move). The guarantee
    // gets two games of six thinking moves at 1 s.
    let honest = if ponder { "burn 0.3 2" } else { "burn 0.3 6" };
    let bots = [tron_bot(honest), spinner.clone(), spinner.clone(), spinner];
    let games = if ponder { "1" } else { "2" };
    let mut extra = vec!["--games", games, "--names", "honest,s1,s2,s3"];
    if ponder {
        extra.extend(["--ponder", "--timeout", "10"]);
    }
    let (records, stderr, code) = tron_match(&bots, &dir.path().join("out"), &extra);
    assert_eq!(code, Some(0), "{stderr}");
    let mut said = String::new();
    for r in &records {
        let log = PathBuf::from(r["log"].as_str().unwrap());
        let honest = seat(r, "honest");
        said.push_str(
            &std::fs::read_to_string(log.with_extension(format!("seat{honest}.stderr")))
                .unwrap_or_default(),
        );
    }
    let beats = beat_times(&beat);
    let thought = windows(&said);
    let stolen = beats_while_thinking(&beats, &thought);
    assert!(processes_with(&marker).is_empty(), "spinners were left");
    (stolen, beats.len(), records, said)
}

/// The fairness guarantee with N - 1 idle bots: while one thinks, the other three and all
/// their processes are stopped.
#[test]
fn three_idle_bots_cannot_steal_cpu_from_the_one_to_move() {
    serial();
    let (stolen, beats, records, said) = spinners_against_the_honest(false);
    assert!(beats > 0, "the spinners never ran");
    assert!(
        stolen.is_empty(),
        "{} beats while the honest bot thought, at {stolen:?}\n{said}",
        stolen.len()
    );
    for r in &records {
        let honest = seat(r, "honest");
        let failed = r["out"]
            .as_array()
            .is_some_and(|out| out.iter().any(|o| o["seat"] == honest));
        assert!(!failed, "the honest bot failed: {r}");
    }
    assert!(windows(&said).len() >= 4, "too few moves: {said}");
}

/// Control: with `--ponder` nothing is stopped, and the spinners do run while the honest bot
/// thinks: the test above can fail.
#[test]
fn control_with_ponder_the_idle_bots_run_while_one_thinks() {
    serial();
    let (stolen, beats, _, said) = spinners_against_the_honest(true);
    assert!(beats > 0);
    assert!(
        !stolen.is_empty(),
        "no beat while the honest bot thought\n{said}"
    );
}

/// `arena match BOTS --game tron --json` with Tron's own first-move allowance of 1 s unless
/// `startup` says otherwise: the records, arena's stderr and its exit code.
fn tron_started(
    bots: &[String],
    out: &Path,
    startup: &str,
    extra: &[&str],
) -> (Vec<Value>, String) {
    let output = arena()
        .arg("match")
        .args(bots)
        .args(["--game", "tron", "--json", "--timeout", "1"])
        .args(["--startup-timeout", startup])
        .args(extra)
        .arg("--out")
        .arg(out)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    (json_records(&output.stdout), stderr)
}

/// Issue 43: every bot starts before the game and is stopped once it waits for its first input,
/// or when the startup allowance is over. A bot that spins from its start and never reads is
/// then stopped like any other: it runs during the start-up alone, never while the honest bot
/// thinks, and loses on time at its first move.
#[test]
fn a_bot_spinning_from_its_start_runs_only_before_the_game_and_loses_on_time() {
    serial();
    let dir = readable_tempdir();
    let beat = dir.path().join("beat");
    let bots = [
        tron_bot("burn 0.3 6"),
        tron_bot(&format!("spin_from_start {}", beat.display())),
        tron_bot("legal"),
    ];
    let extra = ["--games", "2", "--names", "honest,spinner,other"];
    let (records, stderr) = tron_started(&bots, &dir.path().join("out"), "2", &extra);
    let said: String = records
        .iter()
        .map(|r| {
            let log = PathBuf::from(r["log"].as_str().unwrap());
            let honest = seat(r, "honest");
            std::fs::read_to_string(log.with_extension(format!("seat{honest}.stderr")))
                .unwrap_or_default()
        })
        .collect();
    let beats = beat_times(&beat);
    assert!(!beats.is_empty(), "the spinner never ran\n{stderr}");
    let thought = windows(&said);
    assert!(thought.len() >= 6, "too few moves: {said}");
    let stolen = beats_while_thinking(&beats, &thought);
    assert!(
        stolen.is_empty(),
        "{} beats while the honest bot thought, at {stolen:?}\n{said}",
        stolen.len()
    );
    for r in &records {
        let spinner = seat(r, "spinner");
        let out = r["out"]
            .as_array()
            .expect("a game of three lists who went out");
        let failed = out
            .iter()
            .find(|o| o["seat"] == spinner)
            .expect("the spinner went out");
        assert_eq!(failed["reason"], "timeout", "{r}");
        assert_eq!(failed["at_move"], 1, "{r}");
        assert!(!out.iter().any(|o| o["seat"] == seat(r, "honest")), "{r}");
        // Its start-up never reached a read; the honest bot's answers were its own thinking.
        assert_eq!(r["times"][spinner]["unready"], 1, "{r}");
        let honest = &r["times"][seat(r, "honest")];
        assert!(honest["answers"].as_u64().unwrap() >= 2, "{r}");
        assert_eq!(honest["near"], 0, "{r}");
    }
}

/// Issue 43: a bot whose start-up (a JVM's, an interpreter's) takes 1.5 s, more than Tron's
/// first move of 1 s, used to lose at its first move; its start-up is no longer charged to it.
#[test]
fn a_bot_slower_to_start_than_its_first_move_plays() {
    serial();
    let dir = readable_tempdir();
    let bots = [tron_bot("sleep 1.5"), tron_bot("legal")];
    let extra = ["--games", "2", "--names", "slow,quick"];
    let (records, stderr) = tron_started(&bots, &dir.path().join("out"), "1", &extra);
    assert_eq!(records.len(), 2, "{stderr}");
    for r in &records {
        let slow = seat(r, "slow");
        assert!(
            r["out"].as_array().is_none_or(|o| o.is_empty()) && r["faulted"].is_null(),
            "a bot failed: {r}"
        );
        assert!(r["plies"].as_u64().unwrap() > 2, "{r}");
        // It had not reached its first read after the startup allowance: held, then let finish
        // its start-up on its first move, which it made in time.
        assert_eq!(r["times"][slow]["unready"], 1, "{r}");
        assert!(
            r["times"][slow]["max_us"].as_u64().unwrap() < 1_000_000,
            "{r}"
        );
    }
}

fn pick(k: u32) -> String {
    bot("numbers_pick.py", &k.to_string())
}

const NUMBERS: &str = "python3 bots/referee/numbers.py";

/// A Python referee program of 3 players (cg-brutaltester's protocol, `###Start 3`): its ranks
/// become the places, ties shared, and each game replays through it.
#[test]
fn a_referee_program_plays_three() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena()
        .arg("match")
        .args([pick(9), pick(8), pick(7)])
        .args(["--referee", NUMBERS, "--games", "3", "--json"])
        .args(["--names", "nine,eight,seven", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success());
    let records = json_records(&output.stdout);
    assert_eq!(records.len(), 3);
    for r in &records {
        // Nine's 9 is the highest unique pick every round: it is first, the others tie.
        for (name, place) in [("nine", 1), ("eight", 2), ("seven", 2)] {
            assert_eq!(r["places"][seat(r, name)], place, "{r}");
        }
        replays(r["log"].as_str().unwrap(), &["--referee", NUMBERS]);
    }
    let log = log_entries(Path::new(records[0]["log"].as_str().unwrap()));
    assert!(log.iter().any(|e| e["to_referee"] == "###Start 3"));
    let summary = json_summary(&output.stdout);
    let nine = summary["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bot"] == "nine")
        .unwrap();
    assert_eq!(nine["wins"], 3, "{summary}");
    assert_eq!(nine["average_place"], 1.0);
}

/// A referee that ranks a seat that does not exist, leaves one out or ranks one twice has
/// failed: the game counts for no one.
#[test]
fn a_referee_ranking_no_game_of_three_fails_and_counts_for_no_one() {
    for (mode, says) in [
        ("missing", "leaves player 2 out"),
        ("ghost", "'3' is not a player (0 to 2)"),
        ("twice", "ranks player 0 twice"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let output = arena()
            .arg("match")
            .args([pick(1), pick(2), pick(3)])
            .args([
                "--referee",
                &bot("referee_ranks.py", mode),
                "--json",
                "--out",
            ])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{mode}");
        let r = &json_records(&output.stdout)[0];
        assert_eq!(r["reason"], "referee", "{r}");
        assert!(r["detail"].as_str().unwrap().contains(says), "{mode}: {r}");
        assert_eq!(r["scores"], serde_json::json!([0.0, 0.0, 0.0]), "{r}");
    }
}

/// What `arena match` cannot play is refused before anything runs, saying why.
#[test]
fn a_match_the_game_cannot_be_played_by_is_refused() {
    let nine: Vec<String> = (0..9).map(|_| "builtin:random".to_string()).collect();
    let five: Vec<String> = nine[..5].to_vec();
    let three: Vec<String> = nine[..3].to_vec();
    for (bots, game, says) in [
        (
            &three,
            "roshambo",
            "3 bots: roshambo is played by 2 players",
        ),
        (&five, "tron", "5 bots: tron is played by 2 to 4 players"),
        (&nine, "tron", "9 bots: a game has at most 8 players"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let output = arena()
            .arg("match")
            .args(bots)
            .args(["--game", game, "--out"])
            .arg(dir.path().join("out"))
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{said}");
        assert!(said.contains(says), "{says}: {said}");
        assert!(!dir.path().join("out").exists(), "nothing was made");
    }
    let output = arena()
        .args([
            "match",
            "builtin:random",
            "builtin:random",
            "builtin:random",
        ])
        .args(["--game", "tron", "--names", "a,b"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected 3 different names"));
}

/// Names arena makes are distinct: `x.py`, `x.py` and `x-2.py` are not `x-1, x-2, x-2`, whose
/// summary would add two bots' games and whose folder `arena ratings` and `arena report` would
/// refuse.
#[test]
fn three_bots_whose_made_names_could_collide_get_distinct_names() {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/tron_bot.py");
    for copy in ["x.py", "x-2.py"] {
        std::fs::copy(&source, dir.path().join(copy)).unwrap();
    }
    let script = |name: &str| format!("python3 {} legal", dir.path().join(name).display());
    let out = dir.path().join("out");
    let (records, said, code) = tron_match(
        &[script("x.py"), script("x.py"), script("x-2.py")],
        &out,
        &["--games", "3"],
    );
    assert_eq!(code, Some(0), "{said}");
    for r in &records {
        let mut players: Vec<&str> = r["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        players.sort();
        assert_eq!(players, ["x-1", "x-2", "x-3"], "{r}");
    }
    let ratings = arena()
        .arg("ratings")
        .arg(out.join("games.csv"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&ratings.stderr);
    assert_eq!(ratings.status.code(), Some(0), "{said}");
    let report = arena().arg("report").arg(&out).output().unwrap();
    let said = String::from_utf8_lossy(&report.stderr);
    assert_eq!(report.status.code(), Some(0), "{said}");
}
