//! Recorded players, for `arena replay` of an SDK referee's game: the referee is run again with
//! the same seed, and each seat is played by arena's own `sdk-recorded` program, which reads the
//! inputs the log says the seat was sent, checks that the referee sends them again, and gives
//! the answers the log says it gave. A log is data: the script each recorded player reads is
//! built from it by arena, and nothing the log names is run.
//!
//! Times: an answer that took at least half its allowance is given after as long again, so that
//! the referee judges a late answer late again; a quicker one is given at once. A seat whose bot
//! failed (it exited, flooded) exits where it did; one that never answered a turn waits.

use std::io::{BufRead, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::failure::Cause;
use crate::referee::log::{Entry, Header};

/// The hidden subcommand's name.
pub const SUBCOMMAND: &str = "sdk-recorded";

/// The exit status of a recorded player sent what the log does not have.
pub const DIFFERS: i32 = 86;

/// One seat's game as the log has it.
#[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Script {
    pub turns: Vec<Turn>,
    /// The turn after whose answers (or instead of them) the bot ended, if it did.
    pub ended_at: Option<usize>,
}

#[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Turn {
    pub input: Vec<String>,
    pub answers: Vec<String>,
    /// Microseconds before the answers are given.
    pub delay_us: u64,
}

/// The scripts of every seat, from a log's entries.
pub fn scripts(header: &Header, entries: &[(usize, Entry)]) -> Vec<Script> {
    let n = header.players.len();
    let mut scripts: Vec<Script> = (0..n).map(|_| Script::default()).collect();
    // Per seat: the `t` of its last input line, and whether its turn has been answered.
    let mut asked: Vec<Option<u64>> = vec![None; n];
    let mut answered = vec![true; n];
    for (_, entry) in entries {
        match entry {
            Entry::Sent { t, to, line } if *to < n => {
                let script = &mut scripts[*to];
                if answered[*to] || script.turns.is_empty() {
                    script.turns.push(Turn::default());
                    answered[*to] = false;
                }
                script.turns.last_mut().expect("pushed").input.push(line.to_string());
                asked[*to] = Some(*t);
            }
            Entry::Received { t, from, line } if *from < n => {
                let script = &mut scripts[*from];
                let first = script.turns.len() == 1;
                let Some(turn) = script.turns.last_mut() else {
                    continue;
                };
                if turn.answers.is_empty() && !answered[*from] {
                    let took = t.saturating_sub(asked[*from].unwrap_or(*t));
                    let limit = match first {
                        true => header.startup_timeout,
                        false => header.timeout,
                    };
                    let limit_us = (limit * 1e6) as u64;
                    turn.delay_us = if took * 2 >= limit_us { took } else { 0 };
                }
                answered[*from] = true;
                turn.answers.push(line.to_string());
            }
            Entry::Fault {
                fault, cause, ..
            } if *fault < n && ends_the_bot(cause) => {
                let script = &mut scripts[*fault];
                script.ended_at.get_or_insert(script.turns.len());
            }
            _ => {}
        }
    }
    scripts
}

/// The failures that end a bot's part, as arena saw them; a referee's disqualification does not
/// (the bot lived on).
fn ends_the_bot(cause: &Cause) -> bool {
    matches!(
        cause,
        Cause::Exited(_)
            | Cause::ClosedOutput
            | Cause::ClosedInput
            | Cause::TooLong
            | Cause::NotUtf8
            | Cause::ReadError
            | Cause::StoppedReading
    )
}

/// Play a script on standard input and output. Returns the exit status.
pub fn run(path: &Path) -> i32 {
    let script: Script = match std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arena sdk-recorded: {}: {e}", path.display());
            return 2;
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    for (k, turn) in script.turns.iter().enumerate() {
        if script.ended_at == Some(k) {
            return 1;
        }
        for expected in &turn.input {
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => return 0,
                Ok(_) => {}
            }
            let got = line.trim_end_matches(['\n', '\r']);
            if got != expected {
                eprintln!(
                    "replay: at its turn {} the referee now sends '{}' where the log has '{}'",
                    k + 1,
                    crate::failure::head(got, 200),
                    crate::failure::head(expected, 200)
                );
                return DIFFERS;
            }
        }
        if turn.answers.is_empty() {
            // It ended at this turn's input, instead of answering.
            if script.ended_at == Some(k + 1) {
                return 1;
            }
            // It never answered: it waits as it did, until the game ends.
            std::thread::sleep(std::time::Duration::from_secs(24 * 3600));
            return 0;
        }
        std::thread::sleep(std::time::Duration::from_micros(turn.delay_us));
        for a in &turn.answers {
            let _ = writeln!(out, "{a}");
        }
        let _ = out.flush();
    }
    if script.ended_at.is_some() {
        return 1;
    }
    // Played out: it reads until the referee closes its input.
    let mut rest = String::new();
    while matches!(input.read_line(&mut rest), Ok(n) if n > 0) {
        rest.clear();
    }
    0
}

/// What replaying a log found: the result as the referee now gives it, and how it differs from
/// the log's, if it does.
pub struct Replayed {
    pub record: crate::referee::GameRecord,
    pub differs: Option<String>,
}

/// Run `program` again on the game a log records, its seats played by recorded players, in a
/// temporary folder; compare the scores it prints and the result with the log's.
pub async fn replay(
    header: &Header,
    entries: &[(usize, Entry<'_>)],
    program: crate::referee::program::RefereeProgram,
) -> crate::error::Result<Replayed> {
    use crate::error::Error;
    let dir = tempfile::tempdir().map_err(Error::io("creating a temporary folder"))?;
    let exe = std::env::current_exe().map_err(Error::io("finding arena's own program"))?;
    let mut players = Vec::new();
    for (k, script) in scripts(header, entries).into_iter().enumerate() {
        let file = dir.path().join(format!("seat{k}.json"));
        let bytes = serde_json::to_vec(&script).expect("a script serialises");
        std::fs::write(&file, bytes).map_err(Error::io(format!("writing {}", file.display())))?;
        let argv = vec![
            exe.display().to_string(),
            SUBCOMMAND.to_string(),
            file.display().to_string(),
        ];
        let bot = crate::bot::BotSpec {
            command: crate::bot::BotCommand::Program(argv),
            label: format!("{} (recorded)", header.players[k].bot),
            ..crate::bot::BotSpec::parse("builtin:none", Path::new("."), crate::bot::Channel::Stdio)
                .expect("a built-in parses")
        };
        players.push(crate::referee::Player {
            name: header.players[k].name.clone(),
            bot,
        });
    }
    let time = |secs: f64| std::time::Duration::from_secs_f64(secs.clamp(0.001, 600.0));
    let max_line = header.referee.as_ref().map_or(64 * 1024, |r| r.max_line);
    let setup = crate::referee::MatchSetup {
        game: &crate::games::program::INFO,
        params: header.params.clone(),
        seed: header.seed,
        players,
        timeout: time(header.timeout),
        startup_timeout: time(header.startup_timeout),
        limits: crate::bot::process::IoLimits {
            max_line,
            ..Default::default()
        },
        log_path: dir.path().join("game.jsonl"),
        spectator: None,
        ponder: false,
        opening: None,
        referee: Some(program),
        tap: None,
    };
    let record = super::play_unsynced(setup).await?.durable().await?;
    let logged: Vec<&str> = entries
        .iter()
        .filter_map(|(_, e)| match e {
            Entry::FromReferee { referee, .. } => Some(referee.as_ref()),
            _ => None,
        })
        .collect();
    let again = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap_or_default();
    let now: Vec<String> = again
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["referee"].as_str().map(String::from))
        .collect();
    let n = header.players.len();
    let scores = |lines: Vec<String>| super::scores::read(&lines, n).ok().map(|p| p.scores);
    let mut differs = None;
    if scores(logged.iter().map(|s| s.to_string()).collect()) != scores(now.clone()) {
        differs = Some(format!(
            "the referee now prints {:?} where the log has {:?}",
            now, logged
        ));
    }
    // A recorded player sent other inputs than the log's: the first such says where.
    for k in 0..n {
        let stderr = dir.path().join(format!("game.seat{k}.stderr"));
        let text = crate::files::read_named_file(&stderr, 64 * 1024).unwrap_or_default();
        if let Some(line) = String::from_utf8_lossy(&text)
            .lines()
            .find(|l| l.starts_with("replay: "))
        {
            differs = Some(format!(
                "seat {k} ({}): {}",
                header.players[k].name,
                line.trim_start_matches("replay: ")
            ));
            break;
        }
    }
    Ok(Replayed { record, differs })
}
