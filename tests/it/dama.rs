//! dama over Code Colosseum's text protocol. The default stream is the live server's: a captured
//! game replayed byte for byte, a bot written from the server's behaviour playing full games, and
//! the server's answers to invalid moves. The seed document's stream (`-a protocol=docs`): its
//! example streams, retries after an invalid move, the end-of-game messages, and old logs (made
//! before the parameter existed) replaying with it.

use crate::common::*;
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
            "protocol=docs",
            "-a",
            retries,
            "--timeout",
            "1",
            // Black's silence is its first move, timed by the startup allowance (10 s by default).
            "--startup-timeout",
            "3",
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
        .args(["-a", "protocol=docs"])
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

// ---- The live server's stream (the default) ----

/// One `< b'...'` or `> b'...'` line of a capture: Python's bytes literal, decoded.
fn py_bytes(literal: &str) -> Vec<u8> {
    let body = literal
        .strip_prefix('b')
        .and_then(|l| {
            let q = l.chars().next()?;
            l.strip_prefix(q)?.strip_suffix(q)
        })
        .unwrap_or_else(|| panic!("not a bytes literal: {literal}"));
    let mut out = Vec::new();
    let mut chars = body.bytes();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => out.push(b'\n'),
            Some(b'r') => out.push(b'\r'),
            Some(b't') => out.push(b'\t'),
            Some(b'x') => {
                let hex: String = [chars.next().unwrap(), chars.next().unwrap()]
                    .iter()
                    .map(|&c| c as char)
                    .collect();
                out.push(u8::from_str_radix(&hex, 16).unwrap());
            }
            Some(c) => out.push(c),
            None => panic!("a lone backslash in {literal}"),
        }
    }
    out
}

/// The captured game: what the client (white) received, what it sent, and what its opponent
/// (the server's bot, black) played, read from the `Attendi il tuo turno!` lines.
struct Capture {
    received: Vec<u8>,
    white: Vec<String>,
    black: Vec<String>,
}

fn capture() -> Capture {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/dama/cc-dama-live-stream.log"),
    )
    .unwrap();
    let mut c = Capture {
        received: Vec::new(),
        white: Vec::new(),
        black: Vec::new(),
    };
    let mut after_wait = false;
    for line in text.lines() {
        let (dir, lit) = line.split_at(2);
        let bytes = py_bytes(lit);
        match dir {
            "> " => c
                .white
                .push(String::from_utf8(bytes).unwrap().trim().to_string()),
            "< " if bytes == b"<EOF>" => {} // the capture's marker for the end of the stream
            "< " => {
                if after_wait {
                    c.black
                        .push(String::from_utf8(bytes.clone()).unwrap().trim().to_string());
                }
                after_wait = bytes == b"Attendi il tuo turno!\n";
                c.received.extend(bytes);
            }
            _ => panic!("unexpected capture line {line}"),
        }
    }
    c
}

/// The capture's bytes up to and including the `n`th time (from 1) that `line` arrived.
fn through(received: &[u8], line: &[u8], n: usize) -> Vec<u8> {
    let mut at = 0;
    for _ in 0..n {
        let found = received[at..]
            .windows(line.len())
            .position(|w| w == line)
            .expect("in the capture");
        at += found + line.len();
    }
    received[..at].to_vec()
}

struct Played {
    white: Vec<u8>,
    black: String,
    spectators: String,
    record: serde_json::Value,
}

/// A duel of two `dama_script.py` bots with the capture's names, on the default stream, with
/// these `-a` parameters.
fn play_scripted(white_moves: &[String], black_moves: &[String], params: &[&str]) -> Played {
    let dir = tempfile::tempdir().unwrap();
    let rec = |n: &str| dir.path().join(n);
    let white = bot(
        "dama_script.py",
        &format!("{} '{}'", rec("w").display(), white_moves.join("|")),
    );
    let black = bot(
        "dama_script.py",
        &format!("{} '{}'", rec("b").display(), black_moves.join("|")),
    );
    let spectator = format!("sh -c 'cat > {}'", rec("s").display());
    let a = arena()
        .args(["duel", &white, &black, "--game", "dama"])
        .args(["--names", "ccdamaclient,ServerBot$0", "--timeout", "1"])
        .args(params.iter().flat_map(|p| ["-a", p]))
        .args(["--json", "--spectate", &spectator, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .success();
    Played {
        white: std::fs::read(rec("w")).unwrap(),
        black: std::fs::read_to_string(rec("b")).unwrap(),
        spectators: std::fs::read_to_string(rec("s")).unwrap(),
        record: json_records(&a.get_output().stdout).remove(0),
    }
}

/// The capture, byte for byte, to its end: the client's 25 moves and the server bot's 25, then
/// the client's timeout. The server bot's 13th move `4C 6A` is a capture that could go on to 8C;
/// the server takes it, and so does arena by the server's rules (the default).
#[test]
fn the_captured_live_game_replays_byte_for_byte() {
    let cap = capture();
    assert_eq!(cap.white.len(), 25, "the client's moves");
    assert_eq!(cap.black.len(), 25, "the server bot's moves");
    assert_eq!(cap.black[12], "4C 6A");
    let p = play_scripted(&cap.white, &cap.black, &[]);
    assert_eq!(p.record["reason"], "timeout", "{}", p.record);
    assert_eq!(p.record["winner"], 1);
    assert_eq!(p.record["plies"], 50);
    assert!(
        p.white == cap.received,
        "white's stream differs from the capture; arena sent:\n{}",
        String::from_utf8_lossy(&p.white)
    );

    // Black and the spectators, as the server's source writes them.
    let (b, s) = (&p.black, &p.spectators);
    let start = format!(
        "ccdamaclient\nServerBot$0\nAvvio la partita di dama...\n\n{}\n",
        board(START)
    );
    assert!(
        b.starts_with(&format!(
            "{start}Sei i Neri\nAttendi il tuo turno!\n6G 5F \n\n{HEADER}"
        )),
        "{b}"
    );
    assert_eq!(b.matches("Turno nero!\nInserisci").count(), 25);
    assert_eq!(b.matches("Attendi il tuo turno!\n").count(), 26);
    assert!(b.contains("Attendi il tuo turno!\n5B 3D \n\n"), "{b}");
    assert!(
        b.ends_with(
            "Attendi il tuo turno!\n\nI binachi hanno abbandonato la partita.\nI neri vincono \
             la partita!\n\nGame Over ;)\n\n"
        ),
        "{b}"
    );
    assert!(
        s.starts_with(&format!(
            "{start}Il giocatore ccdamaclient è i bianchi e il giocatore ServerBot$0 è i \
             neri.\nTurno bianco!\n\n{HEADER}"
        )),
        "{s}"
    );
    assert_eq!(s.matches("Turno bianco!\n\n").count(), 25);
    assert_eq!(s.matches("Turno nero!\n\n").count(), 25);
    assert!(!s.contains("Inserisci") && !s.contains("Attendi") && !s.contains("Sei i"));
    assert!(s.ends_with("Turno bianco!\nGame Over ;)\n\n"), "{s}");
}

/// By FID's rules (`-a rules=fid`) the server bot's unfinished capture is refused, with the
/// reason in the server's manner; the bot, like the server's, does not try again and loses on
/// time. Up to the refusal the client's stream is still the capture's.
#[test]
fn by_fid_rules_the_server_bots_unfinished_capture_is_refused_with_the_reason() {
    let cap = capture();
    let p = play_scripted(&cap.white[..13], &cap.black[..13], &["rules=fid"]);
    assert_eq!(p.record["reason"], "timeout", "{}", p.record);
    assert_eq!(p.record["winner"], 0);
    assert_eq!(p.record["plies"], 25);
    let mut expect = through(&cap.received, b"Attendi il tuo turno!\n", 13);
    expect.extend(b"\nI neri hanno abbandonato la partita.\nI bianchi vincono la partita!\n\n");
    expect.extend(b"Game Over ;)\n\n");
    assert!(
        p.white == expect,
        "arena sent:\n{}",
        String::from_utf8_lossy(&p.white)
    );
    let refused = format!(
        "Turno nero!\n{}\n\nMossa non valida!\nLa presa multipla va completata (regole FID).\n{}\n\n\
         Tempo scaduto, hai esaurito il tempo per fare una mossa!\nGame Over ;)\n\n",
        &PROMPT[PROMPT.find("Inserisci").unwrap()..PROMPT.len() - 1],
        &PROMPT[PROMPT.find("Inserisci").unwrap()..PROMPT.len() - 1],
    );
    assert!(p.black.ends_with(&refused), "{}", p.black);
}

/// `dama_cc.py` chooses its moves as Code Colosseum's own bot does (one jump only, the first
/// capture it finds) and, every third turn that offers a capture, steps instead. Against arena's
/// random bot, both seats: by the server's rules every move is taken and the games end by the
/// rules; by FID's its first such move is refused and, waiting like CC's bot for a `Turno` line
/// that never comes, it loses on time.
fn cc_bot_games(params: &[&str]) -> (Vec<serde_json::Value>, String) {
    cc_bot_games_with("4 3", Some("builtin:random"), params)
}

/// Two games of `dama_cc.py` with these arguments (after its record file) against `opponent`
/// (`None`: itself, with the same arguments), with these `-a` parameters: the records and what
/// the bot wrote down.
fn cc_bot_games_with(
    args: &str,
    opponent: Option<&str>,
    params: &[&str],
) -> (Vec<serde_json::Value>, String) {
    let mut extra = vec!["--seed", "4", "--games", "2", "--timeout", "1"];
    extra.extend(params.iter().flat_map(|p| ["-a", p]));
    let (records, written) = duel_writing("dama_cc.py", args, opponent, &extra);
    assert_eq!(records.len(), 2, "{written}");
    (records, written)
}

/// A dama duel of the bot `script` (its first argument a file in a fresh folder, then `args`)
/// against `opponent` (`None`: itself), with these further arena arguments: the records and
/// what the bot wrote to its file.
fn duel_writing(
    script: &str,
    args: &str,
    opponent: Option<&str>,
    extra: &[&str],
) -> (Vec<serde_json::Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("written");
    let first = bot(script, &format!("{} {args}", file.display()));
    let second = opponent.map_or(first.clone(), str::to_string);
    let a = arena()
        .args(["duel", &first, &second, "-g", "dama", "--json", "--out"])
        .arg(dir.path().join("out"))
        .args(extra)
        .assert()
        .success();
    let written = std::fs::read_to_string(file).unwrap_or_default();
    (json_records(&a.get_output().stdout), written)
}

/// Every game ended by the rules (a draw by repetition only under FID's) or the move limit, no
/// one at fault.
fn assert_played_out(records: &[serde_json::Value]) {
    for r in records {
        assert!(
            matches!(r["reason"].as_str(), Some("normal" | "draw" | "limit")),
            "{r}"
        );
        assert!(r["faulted"].is_null(), "{r}");
    }
}

#[test]
fn a_bot_that_plays_as_code_colosseums_has_every_move_taken() {
    let (records, moves) = cc_bot_games(&[]);
    assert_played_out(&records);
    let count = |kind: &str| moves.lines().filter(|l| l.starts_with(kind)).count();
    assert!(count("stopped ") >= 2, "captures stopped early:\n{moves}");
    assert!(count("declined ") >= 4, "captures not taken:\n{moves}");
    assert_eq!(count("refused "), 0, "{moves}");
}

#[test]
fn a_bot_that_plays_as_code_colosseums_plays_itself_with_every_move_taken() {
    let (records, moves) = cc_bot_games_with("6", None, &[]);
    assert_played_out(&records);
    assert!(
        moves.contains("stopped "),
        "no capture stopped early:\n{moves}"
    );
    assert!(!moves.contains("refused "), "{moves}");
}

#[test]
fn by_fid_rules_a_bot_that_plays_as_code_colosseums_loses_on_time() {
    let (records, moves) = cc_bot_games(&["rules=fid"]);
    for (game, r) in records.iter().enumerate() {
        assert_eq!(r["reason"], "timeout", "{r}");
        assert_eq!(r["faulted"], game, "{r}");
    }
    assert_eq!(
        moves.matches("refused Mossa non valida!").count(),
        2,
        "{moves}"
    );
}

/// With no retries a capture stopped early is an illegal move at once, and the fault names
/// FID's rule: asked for (`rules=fid`), and by default with the documented stream. (This bot
/// never declines a capture, so stopping one is what it is refused for.)
#[test]
fn by_fid_rules_a_capture_stopped_early_is_an_illegal_move_naming_the_rule() {
    for stream in ["protocol=server", "protocol=docs"] {
        let params: &[&str] = match stream {
            "protocol=server" => &[stream, "rules=fid", "retries=0"],
            _ => &[stream, "retries=0"],
        };
        let (records, _) = cc_bot_games_with("5", Some("builtin:random"), params);
        for (game, r) in records.iter().enumerate() {
            assert_eq!(r["reason"], "illegal", "{stream}: {r}");
            assert_eq!(r["faulted"], game, "{stream}: {r}");
            let detail = r["detail"].as_str().unwrap();
            assert!(
                detail.ends_with(
                    "which FID's rules refuse (rules=fid): a multiple capture must be completed"
                ),
                "{stream}: {detail}"
            );
        }
    }
}

/// `dama_live.py` plays the live stream as a real bot does (its colour from `Sei i ...`, the
/// position from the drawn boards, every relayed move checked against `rules`) and stops with an
/// error on any line it does not expect; at a clean end it writes one `ok` line to its result
/// file.
fn live_games(opponent: Option<&str>, games: usize, rules: &str) {
    let (rules_param, count) = (format!("rules={rules}"), games.to_string());
    let extra = ["--seed", "7", "-a", &rules_param, "--games", &count];
    let (records, ok) = duel_writing("dama_live.py", rules, opponent, &extra);
    assert_eq!(records.len(), games);
    assert_played_out(&records);
    let live_seats = if opponent.is_some() { 1 } else { 2 };
    assert_eq!(ok.lines().count(), games * live_seats, "{ok}");
    assert!(ok.lines().all(|l| l.starts_with("ok ")), "{ok}");
}

#[test]
fn a_bot_written_for_the_live_stream_plays_full_games_against_random() {
    live_games(Some("builtin:random"), 4, "server");
    live_games(Some("builtin:random"), 2, "fid");
}

#[test]
fn a_bot_written_for_the_live_stream_plays_itself() {
    live_games(None, 2, "server");
}

/// A log written before the `protocol` parameter existed has none in its header: it was played
/// with the seed document's stream, and replays (the referee re-checking every line) as such.
#[test]
fn an_old_log_without_the_protocol_replays_as_docs() {
    let dir = tempfile::tempdir().unwrap();
    arena()
        .args(["duel", "builtin:search", "builtin:random", "-g", "dama"])
        .args(["-a", "protocol=docs", "--seed", "5", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let log = game_log(dir.path(), 1);
    let text = std::fs::read_to_string(&log).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    let params = header["header"]["params"].as_object_mut().unwrap();
    assert_eq!(params.remove("protocol").unwrap(), "docs");
    let old = dir.path().join("old.jsonl");
    std::fs::write(&old, format!("{header}\n{rest}")).unwrap();
    arena()
        .arg("replay")
        .arg(&old)
        .assert()
        .success()
        .stdout(predicate::str::contains("Turno bianco!\n\n\n"))
        .stdout(predicate::str::contains("Il giocatore").not())
        .stdout(predicate::str::ends_with("Game Over ;)\n"));
    // The same log saying `server` is not what was played: the replay finds the difference.
    params_set(&old, "server");
    arena().arg("replay").arg(&old).assert().failure();
}

/// Rewrite a log's header with `protocol` set to `value`.
fn params_set(log: &std::path::Path, value: &str) {
    let text = std::fs::read_to_string(log).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    header["header"]["params"]["protocol"] = value.into();
    std::fs::write(log, format!("{header}\n{rest}")).unwrap();
}

#[test]
fn a_server_stream_game_replays() {
    let dir = tempfile::tempdir().unwrap();
    arena()
        .args(["duel", "builtin:search", "builtin:random", "-g", "dama"])
        .args(["--seed", "5", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let log = game_log(dir.path(), 1);
    let head = std::fs::read_to_string(&log).unwrap();
    assert!(
        head.lines()
            .next()
            .unwrap()
            .contains(r#""protocol":"server""#)
    );
    arena()
        .arg("replay")
        .arg(&log)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Il giocatore search è i bianchi e il giocatore random è i neri.\nTurno bianco!\n",
        ))
        .stdout(predicate::str::ends_with("Game Over ;)\n\n"));
}

// ---- Games from before the `rules` parameter ----

fn before_rules() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dama/before-rules")
}

/// A results folder made by arena before `rules` existed (tests/fixtures/dama/before-rules, from
/// before-rules.toml): Code Colosseum's bot, as dama_cc.py plays it, refused by FID's rules in
/// every game. Each log replays to its result; said to be played by the server's rules, it
/// does not.
#[test]
fn logs_from_before_the_rules_parameter_replay_by_fid_rules() {
    let logs: Vec<_> = std::fs::read_dir(before_rules().join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 6);
    for log in &logs {
        let text = std::fs::read_to_string(log).unwrap();
        assert!(
            !text.lines().next().unwrap().contains("rules"),
            "{}",
            log.display()
        );
        let out = arena().arg("replay").arg(log).output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {said}", log.display());
        assert!(said.contains("replay: the result agrees"), "{said}");
        assert!(String::from_utf8_lossy(&out.stdout).ends_with("Game Over ;)\n\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.jsonl");
    std::fs::copy(&logs[0], &log).unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    header["header"]["params"]["rules"] = "server".into();
    std::fs::write(&log, format!("{header}\n{rest}")).unwrap();
    arena().arg("replay").arg(&log).assert().failure();
}

/// The same folder, its last game lost as if the run had stopped before recording it: the spec
/// it was made with now means the server's rules (`auto` with the server's stream), and a resume
/// with it is refused, saying so; with `rules = "fid"` the folder resumes and the game is played
/// again as it was.
#[test]
fn a_folder_from_before_the_rules_parameter_resumes_by_fid_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("before-rules");
    std::fs::create_dir_all(out.join("logs")).unwrap();
    for name in ["run.json", "standings.csv", "crosstable.csv", "games.csv"] {
        std::fs::copy(before_rules().join(name), out.join(name)).unwrap();
    }
    for entry in std::fs::read_dir(before_rules().join("logs")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, out.join("logs").join(path.file_name().unwrap())).unwrap();
    }
    let rows = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let last = rows.lines().find(|l| l.starts_with("6,")).unwrap();
    std::fs::write(
        out.join("games.csv"),
        rows.replace(&format!("{last}\n"), ""),
    )
    .unwrap();
    let spec = dir.path().join("spec.toml");
    std::fs::copy(before_rules().with_extension("toml"), &spec).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/dama_cc.py"),
        dir.path().join("dama_cc.py"),
    )
    .unwrap();
    let resume = || {
        let mut cmd = arena();
        cmd.arg("run")
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .arg("--resume");
        cmd
    };
    resume()
        .assert()
        .failure()
        .stderr(predicate::str::contains("[params] rules = fid"))
        .stderr(predicate::str::contains("auto"));
    let mut text = std::fs::read_to_string(&spec).unwrap();
    text.push_str("\n[params]\nrules = \"fid\"\n");
    std::fs::write(&spec, text).unwrap();
    resume().assert().success();
    let again = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let replayed = again.lines().find(|l| l.starts_with("6,")).unwrap();
    // All but the time it took and the log's path: the same game, the same result.
    let fields = |row: &str| -> Vec<String> {
        let f: Vec<&str> = row.split(',').collect();
        [&f[..9], &f[10..11]]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(fields(replayed), fields(last));
    assert_eq!(again.lines().count(), rows.lines().count());
}
