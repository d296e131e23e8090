//! Games refereed by a CodinGame game-engine SDK referee (`protocol = "sdk"`): the referee starts
//! its players itself, and arena gives it seat relays to bots it holds. The referee here is the
//! made-up contest of bots/sdk (Gem Heist), which behaves as the notes say an SDK command-line
//! front end does: it starts the players from single-space split commands, reads answers byte by
//! byte with `\r` as a line end, keeps extra lines for the next turn, keeps its deadlines by wall
//! clock, and prints `League level` and the scores.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::*;

/// A folder of its own for a test, with the contest's referee and players copied in: their paths
/// mark the test's processes (no other test's) and hold no space.
struct Contest {
    dir: tempfile::TempDir,
}

impl Contest {
    fn new() -> Contest {
        let dir = tempfile::Builder::new().prefix("sdk-").tempdir().unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (from, to) in [
            ("bots/sdk/referee.py", "referee.py"),
            ("bots/sdk/greedy.py", "greedy.py"),
            ("bots/sdk/starter.py", "starter.py"),
            ("tests/bots/sdk/player.py", "player.py"),
            ("tests/bots/sdk/spy.py", "spy.py"),
            ("tests/bots/sdk/watch.py", "watch.py"),
        ] {
            std::fs::copy(root.join(from), dir.path().join(to)).unwrap();
        }
        assert!(!dir.path().display().to_string().contains(' '));
        Contest { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn script(&self, name: &str, args: &str) -> String {
        format!("python3 {} {args}", self.path().join(name).display())
            .trim_end()
            .to_string()
    }

    /// The referee with `options`: its deadlines made generous (the SDK keeps them by wall
    /// clock, and the tests share a loaded machine) unless the options give their own.
    fn referee(&self, options: &str) -> String {
        let mut options = options.to_string();
        if !options.contains("--turn-ms") {
            options.push_str(" --turn-ms 500");
        }
        if !options.contains("--first-ms") {
            options.push_str(" --first-ms 5000");
        }
        self.script("referee.py", options.trim())
    }

    /// arena, its relays' folder in the test's own: their paths mark the test's processes.
    fn arena(&self) -> assert_cmd::Command {
        let mut cmd = arena();
        cmd.env("TMPDIR", self.path());
        cmd
    }

    fn out(&self) -> PathBuf {
        self.path().join("out")
    }

    /// `arena duel` or `arena match` of `bots` under the referee with `options`, `--json`, with
    /// the relays' folder in the test's own: records, stderr, exit status.
    fn play(
        &self,
        bots: &[String],
        options: &str,
        extra: &[&str],
    ) -> (Vec<serde_json::Value>, String, Option<i32>) {
        let command = if bots.len() == 2 { "duel" } else { "match" };
        let _ = std::fs::remove_dir_all(self.out());
        let output = self
            .arena()
            .arg(command)
            .args(bots)
            .args([
                "--referee",
                &self.referee(options),
                "--referee-protocol",
                "sdk",
            ])
            .args(["--json", "--seed", "5", "--out"])
            .arg(self.out())
            .args(extra)
            .timeout(Duration::from_secs(240))
            .output()
            .expect("arena runs");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.code().is_some(), "arena was killed: {stderr}");
        let records = match output.status.code() {
            Some(0) => json_records(&output.stdout),
            _ => Vec::new(),
        };
        (records, stderr, output.status.code())
    }

    /// One game of `bots`, which must be played: its record.
    fn one(&self, bots: &[String], options: &str, extra: &[&str]) -> serde_json::Value {
        let (records, stderr, code) =
            self.play(bots, options, &[&["--games", "1"], extra].concat());
        assert_eq!(code, Some(0), "{stderr}");
        records[0].clone()
    }

    /// Nothing of the test's is left running: no bot, relay or referee.
    fn assert_nothing_left(&self) {
        let marker = self.path().display().to_string();
        let started = Instant::now();
        loop {
            let left = processes_with(&marker);
            if left.is_empty() {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "left running: {left:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// A command that must have succeeded; its stderr shown when it did not.
fn assert_ok(output: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

fn detail(record: &serde_json::Value) -> String {
    record["detail"].as_str().unwrap_or_default().to_string()
}

#[test]
fn two_players_share_a_seed_rotate_seats_and_keep_the_sdks_log() {
    let c = Contest::new();
    let bots = [c.script("greedy.py", ""), c.script("starter.py", "")];
    let (records, stderr, code) = c.play(&bots, "", &["--games", "2"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records.len(), 2);
    assert_eq!(
        records[0]["seed"], records[1]["seed"],
        "a rotation shares its seed"
    );
    assert_eq!(
        records[0]["players"],
        serde_json::json!(["greedy", "starter"])
    );
    assert_eq!(
        records[1]["players"],
        serde_json::json!(["starter", "greedy"])
    );
    assert_eq!(
        records[0]["scores"],
        serde_json::json!([1.0, 0.0]),
        "{}",
        records[0]
    );
    assert_eq!(
        records[1]["scores"],
        serde_json::json!([0.0, 1.0]),
        "{}",
        records[1]
    );
    for (n, r) in records.iter().enumerate() {
        assert_eq!(r["reason"], "normal");
        // Gem Heist: 12 gems, one a turn.
        assert_eq!(r["plies"], 12);
        let times = r["times"].as_array().expect("answer times");
        assert_eq!(times.len(), 2);
        assert!(times.iter().all(|t| t["answers"] == 6), "{r}");
        let log = game_log(&c.out(), n + 1);
        let entries = log_entries(&log);
        let header = &entries[0]["header"];
        assert_eq!(header["params"]["protocol"], "sdk");
        let argv = header["referee"]["argv"].to_string();
        assert!(argv.contains("referee.py"), "{argv}");
        // Every input and answer is arena's to log.
        let sent = entries.iter().filter(|e| e.get("to").is_some()).count();
        let received = entries.iter().filter(|e| e.get("from").is_some()).count();
        assert_eq!(received, 12);
        assert_eq!(
            sent,
            12 * 2 + 2,
            "two lines a turn, and each seat's first line"
        );
        let referee: Vec<&str> = entries
            .iter()
            .filter_map(|e| e["referee"].as_str())
            .collect();
        assert_eq!(referee[0], "League level: 3.");
        // The SDK's own log, kept beside arena's.
        let sdk = std::fs::read_to_string(log.with_extension("sdk.json")).unwrap();
        let sdk: serde_json::Value = serde_json::from_str(&sdk).unwrap();
        assert!(sdk["gameResult"]["summaries"].is_array());
    }
    // The same seed and bots give the same game.
    let first: Vec<String> = log_entries(&game_log(&c.out(), 1))
        .iter()
        .filter_map(|e| e["line"].as_str().map(String::from))
        .collect();
    let (again, _, _) = c.play(&bots, "", &["--games", "1"]);
    let second: Vec<String> = log_entries(&game_log(&c.out(), 1))
        .iter()
        .filter_map(|e| e["line"].as_str().map(String::from))
        .collect();
    assert_eq!(again[0]["seed"], records[0]["seed"]);
    assert_eq!(first, second);
    c.assert_nothing_left();
}

#[test]
fn four_players_are_placed_by_score_then_by_when_they_failed() {
    let c = Contest::new();
    let bots = [
        c.script("greedy.py", ""),
        c.script("starter.py", ""),
        c.script("player.py", "crash 3"),
        c.script("player.py", "hang 2"),
    ];
    let r = c.one(&bots, "", &[]);
    assert_eq!(r["places"], serde_json::json!([1, 2, 3, 4]), "{r}");
    let out = r["out"].as_array().expect("the failed seats");
    // The hanging bot went out first (turn 2), the crashing one later (turn 3).
    assert_eq!(out[0]["seat"], 3, "{r}");
    assert_eq!(out[0]["reason"], "timeout");
    assert!(
        out[0]["detail"]
            .as_str()
            .unwrap()
            .contains("did not answer at move 2"),
        "{r}"
    );
    assert_eq!(out[1]["seat"], 2);
    assert_eq!(out[1]["reason"], "crash");
    assert!(
        out[1]["detail"]
            .as_str()
            .unwrap()
            .contains("exited with status 3"),
        "{r}"
    );
    c.assert_nothing_left();
}

#[test]
fn what_the_referee_disqualified_is_recorded_as_arena_saw_it() {
    let c = Contest::new();
    let starter = c.script("starter.py", "");
    // Late past the referee's 100 ms (told to arena with --timeout).
    let r = c.one(
        &[c.script("player.py", "late 2 700"), starter.clone()],
        "",
        &["--timeout", "0.5"],
    );
    assert_eq!(
        (r["reason"].as_str(), r["faulted"].as_u64()),
        (Some("timeout"), Some(0)),
        "{r}"
    );
    assert!(detail(&r).contains("answered late at move 2"), "{r}");
    assert!(detail(&r).contains("past the 0.5 s"), "{r}");
    assert_eq!(r["times"][0]["near"], 1, "{r}");
    // Two lines for one: the referee reads the second as the next turn's answer.
    let r = c.one(
        &[c.script("player.py", "extra 2"), starter.clone()],
        "",
        &[],
    );
    assert_eq!(r["faulted"], 0, "{r}");
    // From then on the referee reads each of its answers a turn late (or at once, when it is
    // already there) until one is refused: an illegal answer, not a timeout. Which one, and how
    // many lines it is then ahead by, depend on the game and on when the referee read them.
    assert_eq!(r["reason"], "illegal", "{r}");
    assert!(detail(&r).contains("extra line"), "{r}");
    assert!(detail(&r).contains("from move 2"), "{r}");
    // A turn never answered counts in the answer times, at its allowance.
    let r = c.one(
        &[c.script("player.py", "hang 3"), starter.clone()],
        "",
        &["--timeout", "0.5"],
    );
    assert_eq!(r["reason"], "timeout", "{r}");
    assert!(detail(&r).contains("did not answer at move 3"), "{r}");
    assert_eq!(r["times"][0]["answers"], 3, "{r}");
    assert_eq!(r["times"][0]["near"], 1, "{r}");
    assert_eq!(r["times"][0]["max_us"], 500_000, "{r}");
    // An answer the game refuses.
    let r = c.one(
        &[c.script("player.py", "invalid 3"), starter.clone()],
        "",
        &[],
    );
    assert_eq!(r["reason"], "illegal", "{r}");
    assert!(detail(&r).contains("answered '99' at move 3"), "{r}");
    // Answers ended by `\r` alone are answers, as the SDK reads them.
    let r = c.one(&[c.script("player.py", "cr"), starter], "", &[]);
    assert_eq!(r["scores"], serde_json::json!([1.0, 0.0]), "{r}");
    c.assert_nothing_left();
}

#[test]
fn a_bot_that_floods_its_answers_costs_its_opponent_no_time() {
    // The SDK reads a player's lines only when it waits for one: the flood fills the pipe and
    // the flooder waits, as under the SDK, while its opponent's answers go through at once.
    let c = Contest::new();
    let r = c.one(
        &[
            c.script("player.py", "flood 2 200000"),
            c.script("starter.py", ""),
        ],
        "",
        &["--timeout", "0.5"],
    );
    assert_eq!(r["winner"], 1, "{r}");
    assert_eq!(r["faulted"], 0, "{r}");
    assert_eq!(r["times"][1]["near"], 0, "{r}");
    c.assert_nothing_left();
}

/// A bot whose answers the referee has not taken yet is not read (its flood waits in the pipe,
/// as under the SDK), but it is still held to its process limit where arena counts processes
/// itself (no pids controller and no user namespace: a user's account): floodfork.py's child
/// forks 20 processes once the flood has filled the pipe. arena runs as nobody under root
/// (root's bots are in cgroups, which the kernel counts), else as the user. `ponder` lets the
/// held bot run while its opponent thinks, so that its child forks at once.
#[test]
fn a_bot_held_back_is_still_held_to_its_process_limit_where_arena_counts_them() {
    let nobody = is_root() && nobody_possible();
    let c = Contest::new();
    std::fs::set_permissions(
        c.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let spec = c.path().join("held.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"held\"\nformat = \"round-robin\"\ngames_per_pairing = 1\nseed = 3\n\
             ponder = true\n\n[referee]\ncommand = \"{referee}\"\nprotocol = \"sdk\"\n\n\
             [[bot]]\nname = \"flooder\"\ncommand = \"{flooder}\"\n[bot.limits]\nprocesses = 10\n\n\
             [[bot]]\nname = \"slow\"\ncommand = \"{slow}\"\n",
            referee = c.referee("--turn-ms 2000"),
            flooder = c.script("player.py", "floodfork 1 20"),
            slow = c.script("player.py", "slow 300"),
        ),
    )
    .unwrap();
    let output = arena_as(nobody)
        .env("TMPDIR", c.path())
        .env("ARENA_TEST_NO_USER_NAMESPACES", "1")
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(c.out())
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ok(&output);
    assert!(
        stderr.contains("processes is not held by the kernel here"),
        "arena did not count the bot's processes itself, so this tests nothing: {stderr}"
    );
    let faults: Vec<String> = log_entries(&game_log(&c.out(), 1))
        .iter()
        .filter_map(|e| e["detail"].as_str().map(String::from))
        .collect();
    assert!(
        faults
            .iter()
            .any(|d| d.contains("ran more processes than its limit of 10")),
        "{faults:?}"
    );
    c.assert_nothing_left();
}

#[test]
fn arena_holds_the_bots_stderr_processes_and_time() {
    let c = Contest::new();
    let starter = c.script("starter.py", "");
    // 100 kB of stderr would block a bot under the SDK (4 KB a turn); arena takes it whole.
    let r = c.one(
        &[c.script("player.py", "stderr 2 100000"), starter.clone()],
        "",
        &[],
    );
    assert_eq!(r["scores"], serde_json::json!([1.0, 0.0]), "{r}");
    let stderr = game_log(&c.out(), 1).with_extension("seat0.stderr");
    assert_eq!(std::fs::metadata(&stderr).unwrap().len(), 100_000);
    // A child that spins for ever ends with its game.
    let r = c.one(&[c.script("player.py", "fork 2"), starter.clone()], "", &[]);
    assert_eq!(r["reason"], "normal", "{r}");
    c.assert_nothing_left();
    // A bot that spins from its start never answers, and its opponent plays on its own time:
    // every one of its answers in time.
    let r = c.one(
        &[c.script("player.py", "spin"), c.script("greedy.py", "")],
        "--first-ms 1000",
        &[],
    );
    assert_eq!(
        (r["reason"].as_str(), r["winner"].as_u64()),
        (Some("timeout"), Some(1)),
        "{r}"
    );
    assert!(detail(&r).contains("did not answer at move 1"), "{r}");
    assert_eq!(r["times"][1]["answers"], 12, "{r}");
    c.assert_nothing_left();
}

#[test]
fn a_failing_referee_counts_for_no_one_and_says_what_to_change() {
    let c = Contest::new();
    let bots = [c.script("greedy.py", ""), c.script("starter.py", "")];
    let cases: [(&str, &[&str], &str); 7] = [
        (
            "--need-add-opens",
            &[],
            "--add-opens java.base/java.lang=ALL-UNNAMED",
        ),
        // As a real front end does: the trace, then nothing until its 150 s read timeout.
        (
            "--need-add-opens --hang",
            &["--referee-startup-timeout", "2"],
            "--add-opens java.base/java.lang=ALL-UNNAMED",
        ),
        ("--crash", &[], "printed no scores"),
        ("--own-players /bin/cat", &[], "players of its own choosing"),
        ("--twice", &[], "ran the player of -p1 twice"),
        (
            "--hang",
            &["--referee-timeout", "2"],
            "neither asked a player nor ended the game",
        ),
        ("", &["--referee-max-turns", "5"], "more than 5 turns"),
    ];
    for (option, extra, says) in cases {
        let (records, stderr, code) = c.play(&bots, option, &[&["--games", "1"], extra].concat());
        assert_eq!(code, Some(0), "{option}: {stderr}");
        let r = &records[0];
        assert_eq!(r["reason"], "referee", "{option}: {r}");
        assert_eq!(r["scores"], serde_json::json!([0.0, 0.0]), "{option}: {r}");
        assert!(detail(r).contains(says), "{option}: {r}");
    }
    // A front end that takes two players only, given three.
    let three = [bots[0].clone(), bots[1].clone(), c.script("greedy.py", "")];
    let (records, stderr, code) = c.play(&three, "--max-players 2", &["--games", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        detail(&records[0]).contains("Unrecognized option: -p3"),
        "{}",
        records[0]
    );
    assert!(
        detail(&records[0]).contains("players = 2"),
        "{}",
        records[0]
    );
    c.assert_nothing_left();
}

#[test]
fn a_referee_that_ignores_its_seed_is_said_to() {
    let c = Contest::new();
    let bots = [c.script("greedy.py", ""), c.script("starter.py", "")];
    let (_, stderr, code) = c.play(&bots, "--ignore-d", &["--games", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("ignores the seed arguments"), "{stderr}");
    // Given the seed as it takes it, it plays the game asked.
    let (_, stderr, code) = c.play(
        &bots,
        "--ignore-d",
        &["--games", "1", "-a", "seed_form=-seed {seed}"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("ignores the seed"), "{stderr}");
}

#[test]
fn a_missing_referee_is_refused_before_any_game() {
    let c = Contest::new();
    let bots = [c.script("greedy.py", ""), c.script("starter.py", "")];
    let output = arena()
        .args([
            "duel",
            &bots[0],
            &bots[1],
            "--referee-protocol",
            "sdk",
            "--referee",
        ])
        .arg(format!("python3 {}/nothere.py", c.path().display()))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nothere.py"), "{stderr}");
    // --referee-protocol without a referee.
    let output = arena()
        .args([
            "duel",
            &bots[0],
            &bots[1],
            "--game",
            "roshambo",
            "--referee-protocol",
            "sdk",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("need --referee"));
}

#[test]
fn a_relay_killed_mid_game_voids_the_game_and_nothing_outlives_it() {
    let c = Contest::new();
    let bots = [
        c.script("player.py", "late 3 2500"),
        c.script("starter.py", ""),
    ];
    let child = std::process::Command::new(arena_bin())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", c.path())
        .args([
            "duel",
            &bots[0],
            &bots[1],
            "--referee-protocol",
            "sdk",
            "--json",
        ])
        .args([
            "--referee",
            &c.referee("--turn-ms 4000"),
            "--games",
            "1",
            "--out",
        ])
        .arg(c.out())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Seat 1's relay, once the game is on (the slow answer gives the time to find it).
    let marker = format!("sdk-relay {}", c.path().display());
    let started = Instant::now();
    let relay = loop {
        let found = processes_with(&marker)
            .into_iter()
            .find(|p| p.ends_with("seat1 ") || p.ends_with("seat1"));
        if let Some(p) = found.filter(|_| started.elapsed() > Duration::from_millis(1500)) {
            break p;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no relay");
        std::thread::sleep(Duration::from_millis(50));
    };
    let pid: i32 = relay.split(':').next().unwrap().parse().unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_ok(&output);
    let r = &json_records(&output.stdout)[0];
    assert_eq!(r["reason"], "referee", "{r}");
    assert!(
        detail(r).contains("lost its connection to -p1's relay"),
        "{r}"
    );
    c.assert_nothing_left();
}

#[test]
fn replay_runs_the_referee_again_with_the_logged_answers() {
    let c = Contest::new();
    let bots = [
        c.script("player.py", "late 3 700"),
        c.script("greedy.py", ""),
    ];
    let r = c.one(&bots, "", &["--timeout", "0.5"]);
    assert_eq!(r["reason"], "timeout", "{r}");
    let log = game_log(&c.out(), 1);
    let replay = |referee: &str| {
        let output = arena()
            .args(["replay"])
            .arg(&log)
            .args(["--referee", referee])
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    // The late answer is given late again: the same disqualification.
    let (code, stderr) = replay(&c.referee(""));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("the result agrees"), "{stderr}");
    // A referee that draws another game sends other inputs: said where. The recorded players
    // leave at their first input, and the referee waits out each one's first turn twice (as the
    // SDK waits for a player that died): a short first turn keeps that wait short.
    let (code, stderr) = replay(&c.referee("--ignore-d --first-ms 500"));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("where the log has"), "{stderr}");
    // Without --referee, nothing the log names is run.
    let output = arena().arg("replay").arg(&log).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    // Each game played, then replayed alike.
    let agrees = |player: &str, extra: &[&str], reason: &str| {
        let bots = [c.script("player.py", player), c.script("greedy.py", "")];
        let r = c.one(&bots, "", extra);
        assert_eq!(r["reason"], reason, "{r}");
        let (code, stderr) = replay(&c.referee(""));
        assert_eq!(code, Some(0), "{player}: {stderr}");
        assert!(stderr.contains("the result agrees"), "{player}: {stderr}");
    };
    // A bot that died at its turn's input dies there again, rather than waiting.
    agrees("crash 2", &["--timeout", "0.5"], "crash");
    // A game played with no seed cannot be played again: said so.
    let r = c.one(
        &[
            c.script("player.py", "invalid 4"),
            c.script("greedy.py", ""),
        ],
        "",
        &["-a", "seed=omit"],
    );
    assert_eq!(r["reason"], "illegal", "{r}");
    let (code, stderr) = replay(&c.referee(""));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("played with seed=omit"), "{stderr}");
    c.assert_nothing_left();
}

/// A spec of the contest in `dir`: a round-robin of 3 bots, 2 games a pairing.
fn spec(c: &Contest, extra: &str) -> PathBuf {
    let path = c.path().join("contest.toml");
    let text = format!(
        r#"name = "contest"
format = "round-robin"
games_per_pairing = 2
seed = 3
jobs = 1
timeout = 0.5
{extra}
[referee]
command = "{referee}"
protocol = "sdk"

[[bot]]
name = "greedy"
command = "{greedy}"

[[bot]]
name = "starter"
command = "{starter}"

[[bot]]
name = "slow"
command = "{slow}"
"#,
        referee = c.referee(""),
        greedy = c.script("greedy.py", ""),
        starter = c.script("starter.py", ""),
        slow = c.script("player.py", "late 6 60"),
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_tournament_killed_mid_game_resumes_with_nothing_left_behind() {
    let c = Contest::new();
    let spec = spec(&c, "");
    let out = c.out();
    let mut child = std::process::Command::new(arena_bin())
        .env("TMPDIR", c.path())
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&out, 2);
    child.kill().unwrap();
    child.wait().unwrap();
    c.assert_nothing_left();
    let before = games(&out).len();
    assert!((2..6).contains(&before), "{before} games before the kill");
    let output = c
        .arena()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .arg("--resume")
        .output()
        .unwrap();
    assert_ok(&output);
    let rows = games(&out);
    assert_eq!(rows.len(), 6);
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    assert!(standings.contains("greedy"), "{standings}");
    // The ratings rebuilt from the folder agree with the run's.
    let again = arena()
        .arg("ratings")
        .arg(out.join("games.csv"))
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0));
    c.assert_nothing_left();
    // Nor any folder of the killed run's (its scratch, its games' seat relays): the next start
    // removed them.
    let folders: Vec<_> = std::fs::read_dir(c.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("arena-"))
        .collect();
    assert!(
        folders.is_empty(),
        "left in the temporary folder: {folders:?}"
    );
}

#[test]
fn spec_mistakes_name_the_line() {
    let c = Contest::new();
    let path = spec(&c, "");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("protocol = \"sdk\"", "protocol = \"new\""),
    )
    .unwrap();
    let output = run_into(&path, c.out()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("contest.toml:"), "{stderr}");
    assert!(stderr.contains("old, sdk"), "{stderr}");
    let both = spec(&c, "[params]\nprotocol = \"sdk\"\n");
    let output = run_into(&both, c.out()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("protocol is said in [referee]"), "{stderr}");
    // A seed form that cannot be read is refused before any game, at its line.
    let path = spec(&c, "");
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text.replace(
        "protocol = \"sdk\"",
        "protocol = \"sdk\"\nseed_form = '-d \"seed={seed}'",
    );
    assert_ne!(broken, text);
    std::fs::write(&path, broken).unwrap();
    let output = run_into(&path, c.out()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("contest.toml:"), "{stderr}");
    assert!(stderr.contains("seed_form"), "{stderr}");
    assert!(!c.out().join("games.csv").exists(), "{stderr}");
    // On the command line, and a form that would give no seed.
    let bots = [c.script("greedy.py", ""), c.script("starter.py", "")];
    let (_, stderr, code) = c.play(&bots, "", &["-a", "seed_form=-seed 5"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("has no {seed}"), "{stderr}");
}

#[test]
fn check_plays_a_bot_against_the_contests_starter_bot() {
    let c = Contest::new();
    let output = c
        .arena()
        .args(["check", &c.script("greedy.py", "")])
        .args(["--against", &c.script("starter.py", "")])
        // Deadlines a loaded machine keeps: a Python bot's turn took over 0.5 s once in a
        // full run of the suite.
        .args([
            "--referee",
            &c.referee("--turn-ms 2000"),
            "--referee-protocol",
            "sdk",
        ])
        .args(["--games", "2", "--timeout", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("game 1 vs starter (you played first): won"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 2 vs starter (you played second): won"),
        "{stdout}"
    );
    // What a player tunes by: every answer of the two games timed.
    let answers = stdout
        .lines()
        .find(|l| l.starts_with("Answers of your bot: mean "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        answers.ends_with("at 80% of the allowance or more"),
        "{answers}"
    );
    // A bot the referee disqualifies is told why.
    let output = c
        .arena()
        .args(["check", &c.script("player.py", "invalid 2")])
        .args(["--against", &c.script("starter.py", "")])
        .args(["--referee", &c.referee(""), "--referee-protocol", "sdk"])
        .args(["--games", "1", "--timeout", "0.5"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("answered '99' at move 2"), "{stdout}");
    c.assert_nothing_left();
}

#[test]
fn sandboxed_bots_play_under_an_sdk_referee() {
    // The referee (the organiser's) runs outside; its relays reach bots arena sandboxed.
    let c = Contest::new();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(c.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for f in ["greedy.py", "starter.py"] {
        std::fs::set_permissions(c.path().join(f), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let bots = [
        format!("/usr/bin/python3 {}/greedy.py", c.path().display()),
        format!("/usr/bin/python3 {}/starter.py", c.path().display()),
    ];
    let (records, stderr, code) = c.play(&bots, "", &["--games", "2", "--sandbox"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        records[0]["scores"],
        serde_json::json!([1.0, 0.0]),
        "{}",
        records[0]
    );
    assert_eq!(
        records[1]["scores"],
        serde_json::json!([0.0, 1.0]),
        "{}",
        records[1]
    );
    c.assert_nothing_left();
}

#[test]
fn shards_of_a_run_merge_into_its_results_folder() {
    let c = Contest::new();
    let spec = spec(&c, "");
    let mut folders = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = c.path().join(format!("shard{}", &shard[..1]));
        let output = c
            .arena()
            .arg("run")
            .arg(&spec)
            .args(["--shard", shard, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_ok(&output);
        folders.push(out);
    }
    let merged = c.path().join("merged");
    let output = arena()
        .arg("ratings")
        .arg(folders[0].join("games.csv"))
        .arg(folders[1].join("games.csv"))
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_ok(&output);
    assert_eq!(games(&merged).len(), 6);
    let standings = std::fs::read_to_string(merged.join("standings.csv")).unwrap();
    assert_eq!(standings.lines().count(), 4, "{standings}");
    c.assert_nothing_left();
}

#[test]
fn no_bot_thinks_while_the_referee_waits_for_another() {
    let c = Contest::new();
    let dir = c.path().display().to_string();
    let bots = [c.script("spy.py", &dir), c.script("watch.py", &dir)];
    let r = c.one(&bots, "", &["--timeout", "0.5"]);
    assert_eq!(r["reason"], "normal", "{r}");
    let watched = std::fs::read_to_string(c.path().join("watched")).unwrap();
    let ticks: Vec<u64> = watched.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(ticks.len(), 6, "one look a turn of the watcher: {watched}");
    // A spinner let run would take its 10 ticks of the 100 ms; held, none.
    assert!(
        ticks.iter().all(|&t| t == 0),
        "the spinner ran while not asked: {ticks:?}"
    );
    c.assert_nothing_left();
}

#[test]
fn a_bot_slower_to_start_than_the_sdks_first_turn_plays() {
    // The referee's first turn is its 1 s; the bot sleeps 1.2 s before its first read (a JVM):
    // started before the referee, it has most of its start behind it when asked.
    let c = Contest::new();
    let bots = [
        c.script("player.py", "slowstart 1200"),
        c.script("starter.py", ""),
    ];
    let r = c.one(&bots, "--first-ms 1000", &["--startup-timeout", "1"]);
    assert_eq!(r["scores"], serde_json::json!([1.0, 0.0]), "{r}");
    assert_eq!(r["times"][0]["unready"], 1, "{r}");
    assert!(r["times"][1].get("unready").is_none(), "{r}");
    c.assert_nothing_left();
}

#[test]
fn a_scratch_folder_too_long_for_a_socket_still_plays() {
    // A socket's path holds 107 bytes: the relays' folder goes to /tmp instead.
    let c = Contest::new();
    let long = c.path().join("x".repeat(100));
    std::fs::create_dir(&long).unwrap();
    let output = c
        .arena()
        .env("TMPDIR", &long)
        .args([
            "duel",
            &c.script("greedy.py", ""),
            &c.script("starter.py", ""),
        ])
        .args(["--referee", &c.referee(""), "--referee-protocol", "sdk"])
        .args(["--games", "1", "--json", "--out"])
        .arg(c.out())
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let r = &json_records(&output.stdout)[0];
    assert_ne!(r["reason"], "referee", "{r}");
    c.assert_nothing_left();
}
