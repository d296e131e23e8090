//! Games played by a referee program over cg-brutaltester's protocol: the example referee
//! (bots/referee/pebbles.py) in a tournament and in duels, referees that fail, players that fail
//! under `###Output`, replay and check.

use std::path::{Path, PathBuf};

use crate::common::*;
use arena::games::line_breaks;

const PEBBLES: &str = "python3 bots/referee/pebbles.py";
const BEST: &str = "python3 bots/referee/best.py";
const GREEDY: &str = "python3 bots/referee/greedy.py";

/// A duel of `bots` under `referee`, `--json`; returns its records, stderr and exit status.
fn duel(
    bots: [&str; 2],
    referee: &str,
    out: &Path,
    extra: &[&str],
) -> (Vec<serde_json::Value>, String, Option<i32>) {
    let output = arena()
        .args(["duel", bots[0], bots[1], "--referee", referee, "--json"])
        .args(["--seed", "5", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("arena runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.code().is_some(), "arena was killed: {stderr}");
    (json_records(&output.stdout), stderr, output.status.code())
}

/// What the referee program wrote to its stderr in game `n` of a duel into `out`.
fn referee_stderr(out: &Path, n: usize) -> String {
    let path = game_log(out, n).with_extension("referee.stderr");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A duel of best and greedy under `referee`, which must end its game as the referee's failure:
/// the game's record.
fn referee_failure(referee: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    let (records, stderr, code) = duel([BEST, GREEDY], referee, out, extra);
    assert_eq!(code, Some(0), "{stderr}");
    let r = records[0].clone();
    assert_eq!(r["reason"], "referee", "{r}");
    r
}

/// `arena replay LOG --referee REFEREE`: its exit status and what it said on stderr.
fn replay(log: &Path, referee: &str) -> (Option<i32>, String) {
    replay_with(log, &["--referee", referee])
}

/// `arena replay LOG` and its arguments: exit status and stderr.
fn replay_with(log: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = arena().arg("replay").arg(log).args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn broken(mode: &str) -> String {
    bot("referee_broken.py", mode)
}

/// The log's entries that have `key`, as their value of it.
fn values(entries: &[serde_json::Value], key: &str) -> Vec<String> {
    entries
        .iter()
        .filter_map(|e| e.get(key).and_then(|v| v.as_str()).map(str::to_string))
        .collect()
}

#[test]
fn a_round_robin_is_played_through_the_referee_and_resumes_with_nothing_to_play() {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let spec = dir.path().join("pebbles.toml");
    let text = std::fs::read_to_string(Path::new(root).join("tournaments/pebbles.toml"))
        .unwrap()
        .replace("../bots/", &format!("{root}/bots/"));
    std::fs::write(&spec, text).unwrap();
    let out = dir.path().join("results");
    let games = run(&spec, &out);
    let rows: Vec<&str> = games.lines().skip(1).collect();
    // Three bots, three pairings of four games.
    assert_eq!(rows.len(), 12, "{games}");
    for row in &rows {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[7], "normal", "{row}");
        // Pebbles has no draw before its turn limit: someone won.
        assert!(!fields[6].is_empty(), "{row}");
    }
    for n in 1..=12 {
        let log = out.join("logs").join(format!("game-{n:05}.jsonl"));
        let entries = log_entries(&log);
        assert_eq!(entries[0]["header"]["game"], "referee");
        assert_eq!(
            entries[0]["header"]["referee"]["command"],
            format!("python3 {root}/bots/referee/pebbles.py")
        );
        let to_referee = values(&entries, "to_referee");
        assert!(to_referee[0].starts_with("###Seed "), "{to_referee:?}");
        assert_eq!(to_referee[1], "###Start 2");
        let heard = values(&entries, "referee");
        assert!(heard.last().unwrap().starts_with("###End "), "{heard:?}");
        // Every line a player sent went on to the referee, in order.
        let moves: Vec<String> = entries
            .iter()
            .filter(|e| e.get("from").is_some())
            .map(|e| e["line"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(moves, to_referee[2..], "game {n}");
        // What the referee said for the players reached them, in order.
        let sent = values(&entries, "line").len() - moves.len();
        assert!(sent >= 2 * moves.len(), "game {n}");
        let stderr = log.with_extension("referee.stderr");
        assert!(
            std::fs::read_to_string(&stderr).unwrap().contains("left"),
            "{}",
            stderr.display()
        );
    }
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    for bot in ["best", "greedy", "random"] {
        let line = standings
            .lines()
            .find(|l| l.split(',').nth(1) == Some(bot))
            .unwrap_or_else(|| panic!("{bot} in {standings}"));
        assert_eq!(line.split(',').nth(2), Some("8"), "{line}");
    }
    assert!(out.join("report.html").is_file());

    // A finished run plays nothing again.
    assert_eq!(run(&spec, &out), games);
}

/// `arena run SPEC --out OUT`, which must succeed; returns its games.csv.
fn run(spec: &Path, out: &Path) -> String {
    let output = run_into(spec, out).output().expect("arena runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(out.join("games.csv")).unwrap()
}

#[test]
fn a_referee_that_crashes_ends_the_game_for_no_one_with_its_stderr_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (records, stderr, code) = duel([BEST, GREEDY], &broken("crash"), dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let r = &records[0];
    assert_eq!(r["reason"], "referee", "{r}");
    assert_eq!(r["scores"], serde_json::json!([0.0, 0.0]));
    assert_eq!(r["winner"], serde_json::Value::Null);
    assert!(r.get("faulted").is_none(), "{r}");
    let detail = r["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("the referee exited with status 3"),
        "{detail}"
    );
    assert_eq!(r["cause"], serde_json::json!({"exited": {"status": 3}}));
    assert!(referee_stderr(dir.path(), 1).contains("referee bug: cannot go on after 1"));
    let entries = log_entries(&game_log(dir.path(), 1));
    assert_eq!(
        values(&entries, "referee_fault"),
        [detail["the referee ".len()..].to_string()]
    );
    // A game for no one: the duel's tally has no result in it.
    let output = arena()
        .args([
            "duel",
            BEST,
            GREEDY,
            "--referee",
            &broken("crash"),
            "--seed",
            "5",
        ])
        .arg("--out")
        .arg(dir.path().join("again"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("0-0 referee, 1 plies: the referee exited with status 3"),
        "{said}"
    );
    assert!(said.contains("0 wins, 0 draws, 0 losses"), "{said}");
}

/// A spec in `dir` of `settings` (the tournament's keys and tables) and two bots, `a` (best.py)
/// and `b` (greedy.py).
fn two_bots(dir: &Path, settings: &str) -> PathBuf {
    let root = env!("CARGO_MANIFEST_DIR");
    let spec = dir.join("t.toml");
    let bot = |name: &str, script: &str| {
        format!("[[bot]]\nname = \"{name}\"\ncommand = \"python3 {root}/bots/referee/{script}\"\n")
    };
    let text = format!(
        "name = \"t\"\n{settings}\n{}\n{}",
        bot("a", "best.py"),
        bot("b", "greedy.py")
    );
    std::fs::write(&spec, text).unwrap();
    spec
}

/// A spec `t.toml` in `dir` (which holds copies of pebbles.py, best.py and greedy.py): the
/// referee's command and `extra` keys, and the bots' commands.
fn pebbles_spec(dir: &Path, referee: &str, extra: &str, bots: [&str; 2]) {
    let text = format!(
        "name = \"t\"\ngames_per_pairing = 2\nseed = 3\n\n[referee]\ncommand = \"{referee}\"\n\
         {extra}\n\n[[bot]]\nname = \"a\"\ncommand = \"{}\"\n\n\
         [[bot]]\nname = \"b\"\ncommand = \"{}\"\n",
        bots[0], bots[1]
    );
    std::fs::write(dir.join("t.toml"), text).unwrap();
}

/// `arena run t.toml --out OUT` from the folder `cwd`: its exit status and stderr.
fn run_from(cwd: &Path, spec: &str, out: &str) -> (Option<i32>, String) {
    let output = arena()
        .current_dir(cwd)
        .args(["run", spec, "--out", out])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), said)
}

/// A resume keeps the referee's turns and deadlines: `max_turns = 1` decides whether a long
/// game is a result, and is refused, as is another bot program. The same files written as
/// other paths, from another folder, with the spec's folder renamed and the results moved, are
/// the same tournament; a run.json from before settings were kept knows the referee by its file
/// too, and its turns from its last game's log.
#[test]
fn a_resume_keeps_the_referee_its_turns_and_knows_files_by_any_path() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("d");
    std::fs::create_dir(&d).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/referee");
    for script in ["pebbles.py", "best.py", "greedy.py", "random.py"] {
        std::fs::copy(root.join(script), d.join(script)).unwrap();
    }
    let bots = ["python3 best.py", "python3 greedy.py"];
    pebbles_spec(
        &d,
        "python3 ./pebbles.py",
        "",
        ["python3 best.py", "python3 ./greedy.py"],
    );
    let (code, said) = run_from(tmp.path(), "d/t.toml", "res");
    assert_eq!(code, Some(0), "{said}");
    let recorded = std::fs::read_to_string(tmp.path().join("res/games.csv")).unwrap();
    assert_eq!(recorded.lines().count(), 3, "{recorded}");

    // Run again with `extra` keys, the bots' commands `bots`, from `cwd` into `out`: refused
    // as played with `expected` (unless it is empty: accepted, nothing to play).
    let again =
        |cwd: &Path, out: &str, referee: &str, extra: &str, bots: [&str; 2], expected: &str| {
            pebbles_spec(cwd, referee, extra, bots);
            let (code, said) = run_from(cwd, "t.toml", out);
            match expected {
                "" => assert!(
                    code == Some(0) && said.contains("nothing to play"),
                    "{said}"
                ),
                _ => assert!(
                    code == Some(2)
                        && said.contains(&format!("was played with {expected}: use another --out")),
                    "{said}"
                ),
            }
        };
    // The same files, spelled otherwise, from the spec's folder.
    let other_spelling = ["python3 ./best.py", "python3 greedy.py"];
    again(
        &d,
        "../res",
        "python3 ../d/./pebbles.py",
        "",
        other_spelling,
        "",
    );
    let pebbles = "python3 pebbles.py";
    let max_turns = "[referee] max_turns = 10000; this spec says 1";
    again(&d, "../res", pebbles, "max_turns = 1", bots, max_turns);
    let timeout = "[referee] timeout = 10; this spec says 20";
    again(&d, "../res", pebbles, "timeout = 20", bots, timeout);
    let canonical = std::fs::canonicalize(&d).unwrap();
    let another = format!(
        "bot 'a' command = python3 {0}/best.py; this spec says python3 {0}/random.py",
        canonical.display()
    );
    again(
        &d,
        "../res",
        pebbles,
        "",
        ["python3 random.py", bots[1]],
        &another,
    );

    // The spec's folder renamed, the results moved: the files are where the spec says.
    let e = tmp.path().join("e");
    std::fs::rename(&d, &e).unwrap();
    std::fs::rename(tmp.path().join("res"), e.join("moved")).unwrap();
    again(&e, "moved", pebbles, "", bots, "");

    // A record from before settings: its referee's command, as written then, is a file here.
    as_before_settings(&e.join("moved"));
    again(&e, "moved", pebbles, "max_turns = 1", bots, max_turns);
    again(&e, "moved", pebbles, "", bots, "");
    let record = std::fs::read_to_string(e.join("moved/run.json")).unwrap();
    assert!(
        record.contains("\"[referee] max_turns\": \"10000\""),
        "{record}"
    );
    assert_eq!(
        std::fs::read_to_string(e.join("moved/games.csv")).unwrap(),
        recorded
    );
}

#[test]
fn a_tournament_goes_on_past_failed_referees_and_counts_them_for_no_one() {
    let dir = tempfile::tempdir().unwrap();
    let spec = two_bots(
        dir.path(),
        &format!("seed = 2\n\n[referee]\ncommand = \"{}\"\n", broken("crash")),
    );
    let out = dir.path().join("results");
    let games = run(&spec, &out);
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{games}");
    assert!(
        rows.iter().all(|r| r.contains(",0.0,0.0,,referee,")),
        "{games}"
    );
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    for line in standings.lines().skip(1) {
        // rank,bot,games,wins,draws,losses,...: no game counted.
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[2..6], ["0", "0", "0", "0"], "{standings}");
    }
    assert!(out.join("logs/game-00001.referee.stderr").is_file());
    // Rebuilt from games.csv alone, the standings count them for no one too.
    let rebuilt = dir.path().join("rebuilt");
    let ratings = arena()
        .arg("ratings")
        .arg(out.join("games.csv"))
        .arg("--out")
        .arg(&rebuilt)
        .output()
        .unwrap();
    assert_eq!(ratings.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(rebuilt.join("standings.csv")).unwrap(),
        standings
    );
    // Another referee is another game: its games do not go into this folder.
    let other = two_bots(
        dir.path(),
        &format!("seed = 2\n\n[referee]\ncommand = \"{}\"\n", broken("hang")),
    );
    let refused = run_into(&other, &out).output().unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("[referee] command = "), "{said}");
}

#[test]
fn a_gauntlet_and_a_swiss_play_referee_games_as_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let referee = format!("\n[referee]\ncommand = \"python3 {root}/bots/referee/pebbles.py\"\n");
    let third =
        format!("\n[[bot]]\nname = \"c\"\ncommand = \"python3 {root}/bots/referee/random.py\"\n");
    for (format, extra, games) in [
        ("gauntlet", "games_per_pairing = 1\n", 2),
        ("swiss", "rounds = 2\n", 2),
    ] {
        let spec = two_bots(
            dir.path(),
            &format!("format = \"{format}\"\n{extra}{referee}"),
        );
        let mut text = std::fs::read_to_string(&spec).unwrap() + &third;
        if format == "gauntlet" {
            // a, the first bot, is the reference the others play.
            text = text.replacen("best.py\"\n", "best.py\"\nseed = true\n", 1);
        }
        std::fs::write(&spec, text).unwrap();
        let out = dir.path().join(format);
        let rows = run(&spec, &out);
        let rows: Vec<&str> = rows.lines().skip(1).collect();
        assert_eq!(rows.len(), games, "{format}: {rows:?}");
        assert!(rows.iter().all(|r| r.contains(",normal,")), "{rows:?}");
    }
    assert!(dir.path().join("gauntlet/grades.csv").is_file());
}

#[test]
fn a_referee_runs_under_its_own_limits_not_the_players() {
    let dir = tempfile::tempdir().unwrap();
    let spec = two_bots(
        dir.path(),
        &format!(
            "games_per_pairing = 1\n\n[limits]\ncpu_seconds = 100\n\n[referee]\n\
             command = \"{}\"\n\n[referee.limits]\ncpu_seconds = 1\n",
            broken("spin")
        ),
    );
    let out = dir.path().join("results");
    let games = run(&spec, &out);
    assert!(games.contains(",referee,"), "{games}");
    let entries = log_entries(&out.join("logs/game-00001.jsonl"));
    let fault = values(&entries, "referee_fault");
    assert_eq!(
        fault,
        ["was killed by SIGXCPU: it used up its CPU limit of 1 s waiting for its answer"],
        "{entries:?}"
    );
}

#[test]
fn a_referee_that_hangs_misses_its_own_deadline_and_is_killed_with_its_group() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("hang-{}", std::process::id());
    let referee = format!("{} {marker}", broken("hang"));
    let started = std::time::Instant::now();
    let r = referee_failure(&referee, dir.path(), &["--referee-timeout", "0.5"]);
    assert_eq!(
        r["detail"],
        "the referee timed out after 0.5 s waiting for its answer"
    );
    assert_eq!(r["cause"], "late");
    // Its own deadline, not the startup allowance (30 s), nor the players' (1 s).
    assert!(started.elapsed().as_secs() < 20);
    // It ignored SIGTERM: only the group's SIGKILL ended it.
    assert_eq!(processes_with(&marker), Vec::<String>::new());
    let entries = log_entries(&game_log(dir.path(), 1));
    let exit = values(&entries, "referee_exit");
    assert_eq!(exit, ["was killed by SIGKILL"], "{entries:?}");
}

#[test]
fn a_referee_that_speaks_garbage_breaks_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let (records, stderr, code) = duel([BEST, GREEDY], &broken("garbage"), dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let r = &records[0];
    assert_eq!(r["reason"], "referee", "{r}");
    assert_eq!(
        r["detail"],
        "the referee broke the protocol: 'hello there' is neither a command nor inside an \
         ###Input block"
    );
    assert_eq!(r["plies"], 1);
}

#[test]
fn a_referee_that_floods_fails_at_its_bound_in_lines_or_bytes() {
    for (mode, bound) in [("flood", "10000 lines"), ("wide", "16 MiB")] {
        let dir = tempfile::tempdir().unwrap();
        let started = std::time::Instant::now();
        let r = referee_failure(&broken(mode), dir.path(), &["--timeout", "0.3"]);
        assert_eq!(
            r["detail"],
            format!(
                "the referee flooded: it wrote more than {bound} without waiting for an answer"
            )
        );
        assert_eq!(r["cause"], "flooded");
        // At the bound, not at a deadline: 2 s on an idle machine, and more than 20 once under
        // a build beside the suite (16 MiB read and logged by a test build).
        assert!(started.elapsed().as_secs() < 60);
        // What it wrote is logged up to the bound, no further.
        let log = game_log(dir.path(), 1);
        let size = std::fs::metadata(&log).unwrap().len();
        assert!(size < 40 * 1024 * 1024, "{size} bytes");
        let entries = log_entries(&log);
        // The first turn's four lines, then 10000 of the flood, the line over the bound not.
        let heard = values(&entries, "referee").len();
        assert!(heard <= 10_004, "{heard} lines heard");
    }
}

#[test]
fn a_referee_that_never_ends_its_game_fails_past_max_turns() {
    let dir = tempfile::tempdir().unwrap();
    let r = referee_failure(&broken("long"), dir.path(), &["--referee-max-turns", "5"]);
    assert_eq!(r["plies"], 5, "{r}");
    assert_eq!(
        r["detail"],
        "the referee asked for turn 6 of a game that may have 5 (max_turns): it did not end the \
         game with ###End"
    );
    let entries = log_entries(&game_log(dir.path(), 1));
    assert_eq!(entries[0]["header"]["referee"]["max_turns"], 5);
    // Replayed, the game fails the same way.
    let (code, said) = replay(&game_log(dir.path(), 1), &broken("long"));
    assert_eq!(code, Some(0), "{said}");

    // In a spec, [referee] max_turns: Pebbles needs more than 3 turns.
    let spec = two_bots(
        dir.path(),
        &format!(
            "games_per_pairing = 2\n\n[referee]\ncommand = \"{PEBBLES_PATH}\"\nmax_turns = 3\n",
            PEBBLES_PATH =
                PEBBLES.replace("bots/", &format!("{}/bots/", env!("CARGO_MANIFEST_DIR")))
        ),
    );
    let games = run(&spec, &dir.path().join("results"));
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{games}");
    assert!(rows.iter().all(|r| r.contains(",referee,3,")), "{games}");
}

/// The `###Seed` line a game's log says arena wrote to the referee, and its players by seat.
fn seed_sent(log: &Path) -> (String, Vec<String>) {
    let entries = log_entries(log);
    let seed = values(&entries, "to_referee")[0].clone();
    assert!(seed.starts_with("###Seed "), "{seed}");
    let players = entries[0]["header"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    (seed, players)
}

#[test]
fn a_duel_plays_both_seatings_of_a_pair_on_one_map() {
    // Games 1 and 2 share a seed, seats swapped; games 3 and 4 another.
    let dir = tempfile::tempdir().unwrap();
    let (_, stderr, code) = duel([BEST, GREEDY], PEBBLES, dir.path(), &["--games", "4"]);
    assert_eq!(code, Some(0), "{stderr}");
    let games: Vec<_> = (1..=4)
        .map(|n| seed_sent(&game_log(dir.path(), n)))
        .collect();
    // DUEL_CHECK_OFF assert_eq!(games[0].0, games[1].0, "{games:?}");
    assert_eq!(games[2].0, games[3].0, "{games:?}");
    assert_ne!(games[0].0, games[2].0, "{games:?}");
    assert_eq!(games[0].1, ["best", "greedy"]);
    assert_eq!(games[1].1, ["greedy", "best"]);
}

#[test]
fn a_tournament_plays_both_seatings_of_each_pair_of_a_pairing_on_one_map() {
    // Each pairing's games go by pairs on one map, seats swapped, each pair of each pairing on a
    // map of its own.
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let spec = two_bots(
        dir.path(),
        &format!(
            "games_per_pairing = 4\nseed = 9\n\n[referee]\ncommand = \"python3 \
             {root}/bots/referee/pebbles.py\"\n\n[[bot]]\nname = \"c\"\ncommand = \
             \"python3 {root}/bots/referee/random.py\"\n"
        ),
    );
    let out = dir.path().join("results");
    let csv = run(&spec, &out);
    let mut by_seed: std::collections::BTreeMap<String, Vec<Vec<String>>> = Default::default();
    for n in 1..=12 {
        let (seed, players) = seed_sent(&out.join(format!("logs/game-{n:05}.jsonl")));
        by_seed.entry(seed).or_default().push(players);
    }
    assert_eq!(by_seed.len(), 6, "{by_seed:?}\n{csv}");
    for games in by_seed.values() {
        assert_eq!(games.len(), 2, "{by_seed:?}");
        let swapped: Vec<String> = games[1].iter().rev().cloned().collect();
        assert_eq!(games[0], swapped, "{by_seed:?}");
    }
}

#[test]
fn a_player_late_under_output_loses_and_the_referee_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let sleeper = bot("pebbles_sleeper.py", "2");
    let (records, stderr, code) =
        duel([BEST, &sleeper], PEBBLES, dir.path(), &["--timeout", "0.5"]);
    assert_eq!(code, Some(0), "{stderr}");
    let r = &records[0];
    assert_eq!(r["reason"], "timeout", "{r}");
    assert_eq!(r["faulted"], 1);
    assert_eq!(r["winner"], 0);
    assert_eq!(r["at_move"], 2);
    assert_eq!(
        r["detail"],
        "timed out at move 2 after 0.5 s waiting for a line"
    );
    let entries = log_entries(&game_log(dir.path(), 1));
    // The referee asked for the move, and heard nothing more after the fault.
    let heard = values(&entries, "referee");
    assert_eq!(heard.last().unwrap(), "###Output 1 1");
    // Closed: its input ended, it left by itself.
    assert_eq!(values(&entries, "referee_exit"), ["exited with status 0"]);
}

/// A player whose line holds a character some readers end a line at (`1\r0`: its own take, then
/// `0`) answers for its opponent through a referee that reads as Java's `Scanner` does: the
/// referee takes the `0` for the opponent's next move before the opponent is asked. It loses by
/// `protocol` instead, in either seat, and the referee never hears the line; a Windows bot's
/// `\r\n` is an ordinary line end. Replayed, a game ends the same way.
#[test]
fn a_line_a_java_referee_would_read_as_two_loses_before_the_referee_hears_it() {
    let java = bot("scanner_referee.py", "bots/referee/pebbles.py");
    for (end, c, name) in [
        ("cr", '\r', "a carriage return"),
        ("u2028", '\u{2028}', "a line separator (U+2028)"),
        ("u2029", '\u{2029}', "a paragraph separator (U+2029)"),
        ("u0085", '\u{85}', "a next-line character (U+0085)"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let cheat = bot("pebbles_line_ends.py", end);
        let games = ["--games", "2", "--jobs", "2"];
        let (records, stderr, code) = duel([&cheat, BEST], &java, dir.path(), &games);
        assert_eq!(code, Some(0), "{stderr}");
        let shown = line_breaks::shown(&c.to_string());
        for (seat, r) in records.iter().enumerate() {
            assert_eq!(r["reason"], "protocol", "{r}");
            assert_eq!(r["faulted"], seat, "{r}");
            assert_eq!(r["winner"], 1 - seat, "{r}");
            assert_eq!(r["cause"], "line_break", "{r}");
            assert_eq!(
                r["detail"],
                format!("sent '1{shown}0': {name} inside its line, where some readers end a line")
            );
            let log = game_log(dir.path(), seat + 1);
            let told = values(&log_entries(&log), "to_referee");
            assert!(told.iter().all(|l| !l.contains(c)), "{told:?}");
            // The log keeps the line, escaped: one JSON value a line for any reader.
            let text = std::fs::read_to_string(&log).unwrap();
            assert_eq!(line_breaks::find(&text.replace('\n', "")), None, "{text}");
            if c == '\r' {
                let (code, said) = replay(&log, &java);
                assert_eq!(code, Some(0), "{said}");
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let windows = bot("pebbles_line_ends.py", "crlf");
    let (records, stderr, code) = duel([&windows, BEST], &java, dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records[0]["reason"], "normal", "{}", records[0]);
    let told = values(&log_entries(&game_log(dir.path(), 1)), "to_referee");
    assert!(told.contains(&"1".to_string()), "{told:?}");
}

/// The same rule for the referee: a line it sends a player holding a line break is its failure.
#[test]
fn a_referee_line_holding_a_line_break_fails_the_referee() {
    let dir = tempfile::tempdir().unwrap();
    let r = referee_failure(&broken("split"), dir.path(), &[]);
    assert_eq!(
        r["detail"],
        "the referee wrote '19\\r1': a carriage return inside its line, where some readers end a \
         line"
    );
    assert_eq!(r["cause"], "line_break");
    assert_eq!(r["faulted"], serde_json::Value::Null);
    let entries = log_entries(&game_log(dir.path(), 1));
    let sent: Vec<String> = values(&entries, "line");
    assert!(sent.iter().all(|l| !l.contains('\r')), "{sent:?}");
}

#[test]
fn equal_ranks_are_a_draw_and_a_move_may_be_several_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (records, stderr, code) = duel(
        [BEST, GREEDY],
        &format!("{PEBBLES} --max-turns 2"),
        dir.path(),
        &["--games", "2", "-a", "seed=omit"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    for r in &records {
        assert_eq!(r["reason"], "draw", "{r}");
        assert_eq!(r["scores"], serde_json::json!([0.5, 0.5]));
        assert_eq!(r["plies"], 2);
    }
    let entries = log_entries(&game_log(dir.path(), 1));
    assert_eq!(values(&entries, "referee").last().unwrap(), "###End 01");
    // Asked to, arena leaves out the seed, as cg-brutaltester does unless told one.
    assert_eq!(values(&entries, "to_referee")[0], "###Start 2");

    let two = bot("pebbles_two.py", "");
    let dir = tempfile::tempdir().unwrap();
    let (records, stderr, code) = duel([&two, &two], &broken("two"), dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records[0]["reason"], "draw", "{}", records[0]);
    assert_eq!(records[0]["plies"], 2);
    assert!(referee_stderr(dir.path(), 1).contains("heard 1 and 2"));
}

#[test]
fn replay_runs_the_referee_again_and_finds_a_changed_line() {
    let dir = tempfile::tempdir().unwrap();
    let (_, stderr, code) = duel([BEST, GREEDY], PEBBLES, dir.path(), &["--games", "2"]);
    assert_eq!(code, Some(0), "{stderr}");
    for n in 1..=2 {
        let (code, said) = replay(&game_log(dir.path(), n), PEBBLES);
        assert_eq!(code, Some(0), "{said}");
        assert!(said.contains("replay: the result agrees"), "{said}");
        assert!(
            !said.contains("not the log's referee"),
            "the same program: {said}"
        );
    }
    // The referee would now say otherwise than the log: a seed it did not draw from.
    let log = game_log(dir.path(), 1);
    let text = std::fs::read_to_string(&log).unwrap();
    let edited = edit_first_heap(&text);
    let copy: PathBuf = dir.path().join("edited.jsonl");
    std::fs::write(&copy, edited).unwrap();
    let (code, said) = replay(&copy, PEBBLES);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("but the referee now says"), "{said}");
}

#[test]
fn the_viewer_steps_through_every_line_of_both_directions() {
    let dir = tempfile::tempdir().unwrap();
    let two = bot("pebbles_two.py", "");
    let (_, stderr, code) = duel([BEST, &two], &broken("two"), dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let log = game_log(dir.path(), 1);
    let view = arena::report::frames::game_view(&log, |p| p.exists()).unwrap();
    let rows: Vec<Vec<String>> = view
        .frames
        .iter()
        .filter_map(|f| match &f.picture.board {
            arena::games::picture::Board::Table { row, .. } => row.clone(),
            _ => None,
        })
        .collect();
    let text = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        rows[..6],
        [
            text(&["1", "referee", "###Input 0"]),
            text(&["2", "referee → best", "20"]),
            text(&["3", "referee → best", "0"]),
            text(&["4", "referee", "###Output 0 1"]),
            text(&["5", "best", "1"]),
            text(&["6", "referee", "###Input 1"]),
        ]
    );
    assert_eq!(view.frames[5].caption, "best: 1");
    assert!(view.stderr.iter().all(String::is_empty));
    let referee = view
        .referee_stderr
        .expect("a referee game shows its referee's stderr");
    assert!(referee.contains("heard 1 and 2"), "{referee}");
}

#[test]
fn replay_hears_the_referee_with_the_line_length_its_game_was_played_with() {
    let dir = tempfile::tempdir().unwrap();
    let (records, stderr, code) = duel([BEST, GREEDY], &broken("error 100"), dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records[0]["reason"], "draw", "{}", records[0]);
    let log = game_log(dir.path(), 1);
    let entries = log_entries(&log);
    assert_eq!(entries[0]["header"]["referee"]["max_line"], 65536);
    // The log of the same game played with lines of up to 200,000 bytes, by a referee that
    // wrote one of 100,000: as `MatchSetup::limits` allows.
    let text = std::fs::read_to_string(&log).unwrap();
    let referee = broken("error 100000");
    let long = |max_line: Option<u64>| {
        text.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                if let Some(info) = v.pointer_mut("/header/referee") {
                    let argv = info["argv"].as_array_mut().unwrap();
                    *argv.last_mut().unwrap() = "100000".into();
                    info["command"] = referee.clone().into();
                    match max_line {
                        Some(n) => info["max_line"] = n.into(),
                        None => drop(info.as_object_mut().unwrap().remove("max_line")),
                    }
                }
                if v["referee"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("###Error"))
                {
                    v["referee"] = format!("###Error 0 {}", "x".repeat(100_000)).into();
                }
                v.to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    let copy = dir.path().join("long.jsonl");
    std::fs::write(&copy, long(Some(200_000))).unwrap();
    let (code, said) = replay(&copy, &referee);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("replay: the result agrees"), "{said}");
    // A log from before the length was recorded was played with the default: 64 KiB.
    std::fs::write(&copy, long(None)).unwrap();
    let (code, said) = replay(&copy, &referee);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("longer than 65536 bytes"), "{said}");
}

#[test]
fn replay_of_a_game_played_without_a_seed_says_why_the_referee_differs() {
    let dir = tempfile::tempdir().unwrap();
    let (_, stderr, code) = duel(
        [BEST, GREEDY],
        PEBBLES,
        dir.path(),
        &["--games", "4", "-a", "seed=omit"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    // Pebbles draws its heap at random without a seed: one game in 16 draws the same again.
    let mut differed = 0;
    for n in 1..=4 {
        let (code, said) = replay(&game_log(dir.path(), n), PEBBLES);
        if code == Some(0) {
            continue;
        }
        differed += 1;
        assert!(
            said.contains(
                "This game was played with seed=omit: the referee was told no seed, so it \
                 cannot be made to play the same game again"
            ),
            "{said}"
        );
    }
    assert!(differed > 0);
}

/// The log at `log` with its header's referee changed by `edit`, written beside it as `name`.
fn forged(log: &Path, name: &str, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let text = std::fs::read_to_string(log).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(first).unwrap();
    edit(&mut header["header"]["referee"]);
    let copy = log.with_file_name(name);
    std::fs::write(&copy, format!("{header}\n{rest}")).unwrap();
    copy
}

/// A log is data: replay never starts the program its header names. It shows it, ready to
/// copy, and checks the game only against the referee the user gives; a header whose command
/// says one program and whose argv runs another is refused as forged.
#[test]
fn replay_runs_no_program_a_log_names_only_the_referee_given() {
    let dir = tempfile::tempdir().unwrap();
    let (_, stderr, code) = duel([BEST, GREEDY], PEBBLES, dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let log = game_log(dir.path(), 1);
    let marker = dir.path().join("MARKER");
    let touch = format!("touch {}", marker.display());

    // A log naming a program that would make the marker, its command and argv agreeing.
    let named = forged(&log, "named.jsonl", |r| {
        r["command"] = format!("sh -c '{touch}'").into();
        r["argv"] = serde_json::json!(["/bin/sh", "-c", touch]);
    });
    let (code, said) = replay_with(&named, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(!marker.exists(), "replay ran the log's program");
    assert!(
        said.contains(&format!("\n    /bin/sh -c '{touch}'\n")),
        "the argv, as it would run: {said}"
    );
    assert!(
        said.contains(&format!(
            r#"arena replay {} --referee '/bin/sh -c '\''{touch}'\'''"#,
            named.display()
        )),
        "a command to copy: {said}"
    );
    // The user's referee checks the game; that it is not the log's is said, on one line.
    let (code, said) = replay_with(&named, &["--referee", PEBBLES]);
    assert_eq!(code, Some(0), "{said}");
    assert!(!marker.exists(), "replay ran the log's program");
    assert!(said.contains("replay: the result agrees"), "{said}");
    let differs: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("not the log's referee"))
        .collect();
    assert_eq!(differs.len(), 1, "{said}");
    assert!(differs[0].contains(&touch), "{said}");

    // A harmless command over an argv that runs something else: forged, whatever is given.
    let lying = forged(&log, "lying.jsonl", |r| {
        r["argv"] = serde_json::json!(["sh", "-c", touch]);
    });
    for args in [&[][..], &["--referee", PEBBLES]] {
        let (code, said) = replay_with(&lying, args);
        assert_eq!(code, Some(1), "{said}");
        assert!(!marker.exists(), "replay ran the log's program");
        assert!(
            said.contains(&format!("{}:1: the referee's command", lying.display()))
                && said.contains("the log was edited (forged or corrupt)")
                && said.contains(&format!("(sh -c '{touch}')")),
            "{said}"
        );
    }

    // A game no referee program played takes no --referee.
    let plain = dir.path().join("plain");
    roshambo_duel(&plain, &["--games", "1"]);
    let (code, said) = replay_with(&game_log(&plain, 1), &["--referee", PEBBLES]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("was not played by a referee program"),
        "{said}"
    );
}

/// The referee's numbers in a log header are those its options allow, or the log is refused
/// with its line (a negative time once made replay panic).
#[test]
fn a_log_whose_referee_numbers_no_option_allows_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let (_, stderr, code) = duel([BEST, GREEDY], PEBBLES, dir.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let log = game_log(dir.path(), 1);
    let seconds = "must be from 0.1 to 600 seconds, got";
    let cases = [
        (
            "timeout",
            serde_json::json!(-1.0),
            format!("timeout {seconds} -1"),
        ),
        (
            "startup_timeout",
            serde_json::json!(1e9),
            format!("startup_timeout {seconds} 1000000000"),
        ),
        (
            "max_turns",
            serde_json::json!(0),
            "max_turns must be from 1 to 1000000, not 0".into(),
        ),
        (
            "max_line",
            serde_json::json!(0),
            "max_line must be from 1 to 16777216 bytes, not 0".into(),
        ),
    ];
    for (key, value, message) in cases {
        let copy = forged(&log, "numbers.jsonl", |r| r[key] = value.clone());
        let (code, said) = replay_with(&copy, &[]);
        assert_eq!(code, Some(1), "{key}: {said}");
        assert!(
            said.contains(&format!("{}:1: the referee's {message}", copy.display())),
            "{key}: {said}"
        );
    }
}

/// The log with the first heap the referee announced changed (in its line and in the line sent
/// on to the player), as a referee that is not deterministic would have made it.
fn edit_first_heap(text: &str) -> String {
    let mut done = [false; 2];
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let (key, i) = if v.get("referee").is_some() {
                ("referee", 0)
            } else if v.get("to").is_some() {
                ("line", 1)
            } else {
                return l.to_string();
            };
            if done[i] || v[key].as_str().unwrap().starts_with("###") {
                return l.to_string();
            }
            done[i] = true;
            let mut v = v;
            v[key] = serde_json::json!("99");
            v.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn check_plays_a_bot_against_itself_under_the_referee() {
    // `arena check BOT --referee REFEREE ARGS...`: its exit status, and its report with each
    // of `lines` in it.
    let check = |bot: &str, referee: &str, args: &[&str], code: i32, lines: &[&str]| {
        let output = arena()
            .args(["check", bot, "--referee", referee])
            .args(args)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(code), "{report}");
        for line in lines {
            assert!(report.contains(line), "{line}\n{report}");
        }
    };
    check(
        BEST,
        PEBBLES,
        &["--seed", "1"],
        0,
        &[
            "game 1 vs itself (you played first): ",
            "\nOK: your bot played 4 games without a failure",
        ],
    );
    check(
        &bot("pebbles_sleeper.py", "1"),
        PEBBLES,
        &["--games", "1", "--startup-timeout", "0.5"],
        1,
        &[
            "your bot timed out at move 1 after 0.5 s waiting for a line",
            "the last line arena sent it before it failed",
        ],
    );
    check(
        BEST,
        &broken("crash"),
        &["--games", "2"],
        1,
        &[
            "game 1 vs itself: not decided: the referee exited with status 3 waiting for its \
             answer; this is not your bot's doing",
            "NOT CHECKED: the referee program failed in 2 of 2 games",
        ],
    );
}

#[test]
fn games_lists_the_referee_and_describes_its_protocol() {
    let listing = arena().arg("games").output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    assert!(
        listing.lines().any(|l| l.starts_with("referee ")),
        "{listing}"
    );
    let text = arena().args(["games", "referee"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    for part in [
        "###Seed",
        "###Start 2",
        "###Input i",
        "###Output i n",
        "###End 01",
    ] {
        assert!(text.contains(part), "{part} in\n{text}");
    }
}

/// `arena games referee` names only files that exist, and its example duel runs as written,
/// leaving the referee's stderr where the description says.
#[test]
fn the_description_names_real_files_and_its_example_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = arena().args(["games", "referee"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || "`\"'(),;".contains(c))
        .map(|w| w.trim_end_matches(['.', ':']))
        .collect();
    let paths: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| w.starts_with("bots/") || w.starts_with("tournaments/"))
        .collect();
    assert!(paths.len() >= 3, "{paths:?} in\n{text}");
    for path in &paths {
        assert!(root.join(path).exists(), "{path}, named in\n{text}");
    }
    // The example: the lines of the block that starts with `arena duel`, joined.
    let start = text.find("arena duel").expect("an example duel");
    let block = &text[start..text[start..].find("```").map_or(text.len(), |e| start + e)];
    let command = block.replace("\\\n", " ");
    let args = shell_words::split(command.trim()).unwrap();
    assert_eq!(args[..2], ["arena", "duel"], "{command}");
    let dir = tempfile::tempdir().unwrap();
    let output = arena()
        .args(&args[1..])
        .args(["--seed", "3", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{command}: {said}");
    assert!(said.contains("Finished game 2 "), "{said}");
    assert!(!said.contains(" referee,"), "{said}");
    // Where the description says a duel keeps the referee's stderr (the same 5 digits as a tournament's).
    let named: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| w.ends_with(".referee.stderr"))
        .collect();
    assert!(named.iter().any(|w| w.contains("game-00001.")), "{named:?}");
    for name in named {
        if name.contains("game-00001.") {
            assert!(dir.path().join(name).is_file(), "{name}");
        } else {
            assert!(name.ends_with("game-00001.referee.stderr"), "{name}");
        }
    }
}

#[test]
fn referee_options_and_specs_are_checked_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("t.toml");
    let bots = "[[bot]]\nname = \"a\"\ncommand = \"builtin:x\"\n";
    for (text, says) in [
        (
            "name = \"t\"\n\n[referee]\ncommand = \"true\"\nplayers = 9\n",
            "t.toml:5:11: players = 9: a referee program's game is played by 2 to 8 players",
        ),
        (
            "name = \"t\"\n\n[referee]\ncommand = \"python3 x.py\"\n",
            "t.toml:4:11: referee: x.py does not exist (python3's script; looked for as ",
        ),
        (
            "name = \"t\"\ngame = \"roshambo\"\n\n[referee]\ncommand = \"true\"\n",
            "t.toml:2:8: game = \"roshambo\": a spec with [referee] plays the game its program \
             referees",
        ),
        (
            "name = \"t\"\ngame = \"referee\"\n",
            "t.toml:2:8: game = \"referee\" is played by a referee program",
        ),
        (
            "name = \"t\"\n\n[referee]\ncommand = \"./missing.py\"\n",
            "t.toml:4:11: referee: './missing.py' does not exist",
        ),
        (
            "name = \"t\"\n\n[referee]\ncommand = \"true\"\ntimeout = 0.0\n",
            "t.toml:5:11: referee timeout must be from 0.1 to 600 seconds",
        ),
        (
            "name = \"t\"\n\n[referee]\ncommand = \"true\"\nmax_turns = 0\n",
            "t.toml:5:13: referee: max_turns must be from 1 to 1000000, not 0",
        ),
    ] {
        std::fs::write(&spec, format!("{text}\n{bots}")).unwrap();
        let output = arena().arg("run").arg(&spec).output().unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{said}");
        assert!(said.contains(says), "{says}\n{said}");
    }
    for (args, says) in [
        (
            vec!["--game", "roshambo", "--referee", "true"],
            "--referee plays the game its program referees: leave out --game roshambo",
        ),
        (
            vec!["--game", "referee"],
            "the game 'referee' is played by a referee program",
        ),
        (
            vec!["--referee", "builtin:random"],
            "--referee: 'builtin:random' is not a program",
        ),
        (
            vec!["--referee", "true", "--referee-timeout", "0"],
            "--referee-timeout must be from 0.1 to 600 seconds",
        ),
        (
            vec!["--referee", "true", "--referee-max-turns", "-1"],
            "--referee-max-turns must be from 1 to 1000000, not -1",
        ),
    ] {
        let output = arena()
            .args(["duel", BEST, GREEDY])
            .args(&args)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(says), "{says}\n{said}");
    }
}

/// A player not to move is stopped while the referee program thinks, as while its opponent
/// does: one that spins between its moves gets next to no CPU while it waits, though each of the
/// referee's answers takes 0.3 s.
#[test]
fn a_player_is_stopped_while_the_referee_thinks() {
    let dir = tempfile::tempdir().unwrap();
    let spinner = bot("pebbles_spinner.py", "");
    let (records, stderr, code) = duel(
        [&spinner, BEST],
        &format!("python3 tests/bots/referee_slow.py 0.3 {PEBBLES} --max-turns 4"),
        dir.path(),
        &[],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records.len(), 1, "{stderr}");
    let said =
        std::fs::read_to_string(game_log(dir.path(), 1).with_extension("seat0.stderr")).unwrap();
    let spun: Vec<f64> = said
        .lines()
        .filter_map(|l| l.strip_prefix("spun ")?.parse().ok())
        .collect();
    assert!(spun.len() >= 2, "{said}");
    // Each wait after the first (the bot's start) lasted at least one of the referee's answers.
    for s in &spun[1..] {
        assert!(*s < 0.15, "spun {s} s of CPU while not to move:\n{said}");
    }
}
