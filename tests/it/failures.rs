//! Bots that misbehave lose with the right reason, within the deadline, and leave no process.

use std::time::{Duration, Instant};

use crate::common::*;

/// Play one roshambo game of `misbehave.py MODE` (after two good rounds) against a built-in;
/// returns the --json record and the game log's entries.
fn misbehave(mode: &str, extra: &[&str]) -> (serde_json::Value, Vec<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bad = bot("misbehave.py", &format!("{mode} 2 {}", extra.join(" ")));
    let assert = arena()
        .args([
            "duel",
            &bad,
            "builtin:random",
            "--game",
            "roshambo",
            "--json",
        ])
        .args(["--timeout", "1", "--seed", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let records = json_records(&assert.get_output().stdout);
    assert_eq!(records.len(), 1);
    (records[0].clone(), log_entries(&game_log(&out, 1)))
}

fn assert_lost(record: &serde_json::Value, reason: &str, detail: &str) {
    assert_eq!(record["reason"], reason, "{record}");
    assert_eq!(record["winner"], 1, "{record}");
    assert_eq!(record["scores"], serde_json::json!([0.0, 1.0]));
    assert_eq!(record["plies"], 2, "two good rounds were played first");
    let d = record["detail"].as_str().unwrap_or_default();
    assert!(d.contains(detail), "detail {d:?} should contain {detail:?}");
}

#[test]
fn a_bot_that_crashes_loses_by_crash_with_its_exit_status() {
    let (r, log) = misbehave("crash", &[]);
    assert_lost(&r, "crash", "exited with status 3 at move 3");
    // The same as facts, for scripts and `arena check`.
    assert_eq!(r["cause"], serde_json::json!({"exited": {"status": 3}}));
    assert_eq!(r["at_move"], 3);
    // The other player is told RETIRE, as Code Colosseum does.
    assert!(log.iter().any(|e| e["to"] == 1 && e["line"] == "RETIRE"));
}

#[test]
fn a_bot_that_hangs_loses_by_timeout_when_the_deadline_passes() {
    let (r, log) = misbehave("hang", &[]);
    assert_lost(
        &r,
        "timeout",
        "timed out at move 3 after 1 s waiting for a line",
    );
    assert_eq!(r["cause"], "late");
    assert_eq!(r["at_move"], 3);
    // The deadline counts from the moment the prompt (the opponent's last move) was written.
    let prompt = log
        .iter()
        .filter(|e| e["to"] == 0)
        .map(|e| e["t"].as_u64().unwrap())
        .max()
        .unwrap();
    let fault = log.iter().find(|e| e["fault"] == 0).expect("a fault entry");
    let waited = Duration::from_micros(fault["t"].as_u64().unwrap() - prompt);
    assert!(
        waited >= Duration::from_secs(1) && waited < Duration::from_millis(1500),
        "waited {waited:?} for a 1 s deadline"
    );
}

#[test]
fn a_bot_that_answers_after_the_deadline_loses_by_timeout() {
    let (r, _) = misbehave("late", &[]);
    assert_lost(&r, "timeout", "timed out at move 3");
}

#[test]
fn garbage_is_a_protocol_failure_that_quotes_the_line() {
    let (r, log) = misbehave("garbage", &[]);
    assert_lost(
        &r,
        "protocol",
        "sent 'ROCKS' where ROCK, PAPER or SCISSORS was expected",
    );
    assert!(log.iter().any(|e| e["from"] == 0 && e["line"] == "ROCKS"));
}

#[test]
fn a_flood_without_newline_is_a_protocol_failure() {
    let (r, _) = misbehave("flood", &[]);
    assert_lost(&r, "protocol", "sent a line longer than 65536 bytes");
}

#[test]
fn bytes_that_are_not_utf8_are_a_protocol_failure() {
    let (r, _) = misbehave("utf8", &[]);
    assert_lost(&r, "protocol", "not UTF-8");
}

#[test]
fn a_line_holding_a_line_break_is_a_protocol_failure_that_names_it() {
    let (r, log) = misbehave("breaks", &[]);
    assert_lost(
        &r,
        "protocol",
        "sent 'ROCK\\rPAPER': a carriage return inside its line, where some readers end a line",
    );
    assert_eq!(r["cause"], "line_break");
    // The log keeps the line as it came; the opponent was told RETIRE, not either move.
    assert!(
        log.iter()
            .any(|e| e["from"] == 0 && e["line"] == "ROCK\rPAPER")
    );
    assert!(log.iter().any(|e| e["to"] == 1 && e["line"] == "RETIRE"));
}

#[test]
fn a_windows_bots_crlf_is_an_ordinary_line_end() {
    let (r, log) = misbehave("crlf", &[]);
    assert!(
        matches!(r["reason"].as_str(), Some("normal" | "draw")),
        "{r}"
    );
    assert_eq!(r["plies"], 10, "{r}");
    let moves: Vec<&serde_json::Value> = log.iter().filter(|e| e["from"] == 0).collect();
    assert_eq!(moves.len(), 10);
    assert!(moves.iter().all(|e| e["line"] == "ROCK"), "{moves:?}");
}

#[test]
fn a_child_holding_the_pipe_open_is_killed_with_the_bot() {
    let marker = format!("{}.{}", 3000 + std::process::id() % 1000, 4321);
    let (r, _) = misbehave("fork", &[&marker]);
    // The bot exited at once; its child still holds stdout, so no end of file comes.
    assert_lost(&r, "crash", "exited with status 0 at move 3");
    assert!(
        processes_with(&format!("sleep {marker}")).is_empty(),
        "orphans left: {:?}",
        processes_with(&marker)
    );
}

#[test]
fn a_hung_bot_and_its_children_are_all_killed() {
    let marker = format!("{}.{}", 3000 + std::process::id() % 1000, 8765);
    let (r, _) = misbehave("hang-child", &[&marker]);
    assert_lost(&r, "timeout", "timed out at move 3");
    assert!(
        processes_with(&marker).is_empty(),
        "left: {:?}",
        processes_with(&marker)
    );
}

#[test]
fn a_pipe_bot_that_never_opens_its_fifos_fails_at_the_startup_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let assert = arena()
        .args(["duel", &bot("never_opens.py", ""), "builtin:random"])
        .args(["--game", "royalur", "--channel", "pipe", "--json"])
        .args(["--startup-timeout", "1", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let r = &json_records(&assert.get_output().stdout)[0];
    assert_eq!(r["reason"], "timeout");
    assert_eq!(r["winner"], 1);
    assert!(
        r["detail"]
            .as_str()
            .unwrap()
            .contains("did not open COCO_PIPEIN and COCO_PIPEOUT within 1 s"),
        "{r}"
    );
    // Generous: the point is that arena does not hang on the blocked opens.
    assert!(started.elapsed() < Duration::from_secs(8));
    assert!(processes_with("never_opens.py").is_empty());
}

#[test]
fn a_bot_that_fails_is_not_the_only_one_whose_stderr_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let chatty = "sh -c 'echo thinking hard >&2; exit 1'";
    arena()
        .args([
            "duel",
            chatty,
            "python3 bots/roshambo/random.py",
            "--game",
            "roshambo",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicates::str::contains("0-1 crash"));
    let logs = dir.path().join("logs");
    let err = std::fs::read_to_string(logs.join("game-00001.seat0.stderr")).unwrap();
    assert_eq!(err, "thinking hard\n");
    assert!(
        !logs.join("game-00001.seat1.stderr").exists(),
        "a bot that said nothing leaves no stderr file"
    );
}

#[test]
fn a_game_played_again_keeps_no_stderr_from_its_last_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let duel = |first: &str| {
        arena()
            .args([
                "duel",
                first,
                "builtin:random",
                "--game",
                "roshambo",
                "--out",
            ])
            .arg(dir.path())
            .assert()
            .success();
    };
    let err = dir.path().join("logs/game-00001.seat0.stderr");
    duel("sh -c 'echo first attempt >&2; exit 1'");
    assert!(err.exists(), "the chatty bot's stderr was kept");
    // The folder as a duel killed before it recorded its game leaves it (a duel refuses a
    // folder with games on record).
    std::fs::remove_file(dir.path().join("games.csv")).unwrap();
    duel("sh -c 'exit 1'");
    assert!(
        !err.exists(),
        "the second attempt's bot said nothing: the first attempt's file must not be shown as its"
    );
}

#[test]
fn stderr_is_capped_and_says_how_much_was_dropped() {
    let dir = tempfile::tempdir().unwrap();
    // 3 MB of stderr, then a crash: the game ends and the capture keeps the first 1 MiB.
    let loud = "sh -c 'head -c 3000000 /dev/zero | tr \"\\0\" x >&2; exit 1'";
    arena()
        .args([
            "duel",
            loud,
            "builtin:random",
            "--game",
            "roshambo",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicates::str::contains("0-1 crash"));
    let err = std::fs::read(dir.path().join("logs/game-00001.seat0.stderr")).unwrap();
    let kept = 1024 * 1024;
    assert!(err[..kept].iter().all(|&b| b == b'x'));
    let note = String::from_utf8_lossy(&err[kept..]);
    assert_eq!(
        note.trim(),
        format!(
            "[arena: {} more bytes of output dropped after the first {kept}]",
            3_000_000 - kept
        )
    );
}

/// Pipe-channel duels of a bot that exits at `stage` of the FIFO handshake (`fifo_quitter.py`,
/// or `/bin/true` for `none` at its fastest): many games, four at a time on two cores, so that
/// the bot's exit and arena's opening threads come in every order. Returns each game's record.
fn quit_during_handshake(bot_cmd: &str, games: usize) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let assert = arena()
        .args(["duel", bot_cmd, "builtin:random", "--game", "roshambo"])
        .args(["--channel", "pipe", "--json", "--jobs", "4", "--games"])
        .arg(games.to_string())
        .args(["--startup-timeout", "5", "--out"])
        .arg(dir.path())
        // A slot stuck in an open would hang the duel: fail instead.
        .timeout(Duration::from_secs(90))
        .assert()
        .success();
    let records = json_records(&assert.get_output().stdout);
    assert_eq!(records.len(), games, "every game ends");
    for (i, r) in records.iter().enumerate() {
        let quitter = i % 2;
        assert_eq!(r["winner"], 1 - quitter, "{bot_cmd}: {r}");
    }
    records
}

#[test]
fn a_pipe_bot_that_exits_at_any_point_of_the_handshake_loses_and_never_hangs_arena() {
    let started = Instant::now();
    let mut lost_at_start = quit_during_handshake("/bin/true", 60);
    for stage in ["none", "in", "out", "in-late"] {
        lost_at_start.extend(quit_during_handshake(&bot("fifo_quitter.py", stage), 20));
    }
    for r in &lost_at_start {
        assert_eq!(r["cause"], "pipes_not_opened", "{r}");
        assert_eq!(r["reason"], "crash", "{r}");
        let detail = r["detail"].as_str().unwrap();
        assert!(
            detail.contains("before opening COCO_PIPEIN and COCO_PIPEOUT"),
            "{r}"
        );
    }
    // Both opened, then gone at once: a crash either way, told as the bot's exit before its
    // opens were seen to return (arena's opening threads may run after the exit is seen), or at
    // its first move.
    for r in quit_during_handshake(&bot("fifo_quitter.py", "both"), 20) {
        assert_eq!(r["reason"], "crash", "{r}");
        if r["cause"] != "pipes_not_opened" {
            assert_eq!(r["at_move"], 1, "{r}");
        }
    }
    // Every loss came when the bot exited, not at the 5 s startup deadline.
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(processes_with("fifo_quitter.py").is_empty());
}
