//! `arena replay LOG`: feed a game log's received lines and failures back through the judge,
//! check that arena would send exactly what the log says it sent and reach the same result, and
//! print the spectator stream. Nothing a log names is run: a referee program's game is checked
//! against the user's `--referee`.

use std::path::Path;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, SpectatorSink, shell_line};
use crate::error::{Error, Result};
use crate::file_kind::Kind;
use crate::games::Msg;
use crate::referee::Judge;
use crate::referee::format_score;
use crate::referee::log::{Entry, Header, Recorded, apply};
use crate::referee::program::Link;
use crate::referee::program::RefereeProgram;

/// The referee program to check a log's game with: the user's `--referee`, never the program the
/// log names. A log is data (students hand them in, ladders publish them), and its argv would run
/// as the user. Without `--referee`, the refusal shows the log's argv, ready to copy for a user
/// who trusts it. Errors come before anything runs.
fn referee_to_run(
    path: &Path,
    header: &Header,
    given: Option<&str>,
) -> Result<Option<RefereeProgram>> {
    let shown = path.display();
    let (info, cmd) = match (&header.referee, given) {
        (None, None) => return Ok(None),
        (None, Some(_)) => {
            return Err(Error::Usage(format!(
                "{shown}: this game of {} was not played by a referee program: leave out \
                 --referee",
                header.game
            )));
        }
        (Some(info), None) => {
            let line = shell_line(&info.argv);
            return Err(Error::Usage(format!(
                "{shown}: this game was played by the referee program\n    {line}\nwhich replay \
                 does not run: a log may come from anyone, and its program would run as you. To \
                 check the game, give the referee yourself with --referee CMD (this one, if you \
                 trust it):\n    arena replay {} --referee {}",
                shell_words::quote(&path.to_string_lossy()),
                shell_words::quote(&line)
            )));
        }
        (Some(info), Some(cmd)) => (info, cmd),
    };
    let base = std::env::current_dir().map_err(Error::io("reading the current directory"))?;
    // The log's times and turns, checked with its header: the game as it was played.
    let program = RefereeProgram::new(
        cmd,
        &base,
        Some(info.timeout),
        Some(info.startup_timeout),
        info.max_turns.map(i64::from),
        ["timeout", "startup_timeout", "max_turns"],
    )
    .map_err(|e| Error::Usage(format!("--referee: {e}")))?;
    if let BotCommand::Program(argv) = &program.bot.command
        && *argv != info.argv
    {
        crate::out::warn(&format!(
            "replay: --referee runs {}, not the log's referee {}; the game is checked against \
             yours",
            shell_line(argv),
            shell_line(&info.argv)
        ));
    }
    Ok(Some(program))
}

/// The user's referee program started, heard with the longest line the game allowed.
async fn start_referee(program: &RefereeProgram, max_line: usize, dir: &Path) -> Result<Link> {
    // As the game heard it: a line it accepted must not be too long now.
    let limits = IoLimits {
        max_line,
        framing: crate::failure::Framing::Lines,
        ..IoLimits::default()
    };
    Link::spawn(program, &dir.join("referee.stderr"), limits)
        .await
        .map_err(|e| {
            let why = match e {
                crate::bot::StartError::Bot(f) => f.detail,
                crate::bot::StartError::Arena(why) => why,
            };
            Error::Disagrees(format!(
                "replay: the referee program '{}' could not be started: {why}",
                program.bot.label
            ))
        })
}

/// A line of the game quoted in a message: no longer than a message can bear (a referee's line
/// may be a whole map), as it was written, not escaped as Rust would.
fn quoted(line: &str) -> String {
    format!("'{}'", crate::failure::head(line, 200))
}

/// A result in words: `a 1-0 b (normal, 9 plies)`, or `a, b, c: places 1 3 2 (...)` for more
/// than two players.
fn in_words(names: &[String], scores: &[f64], places: &str, reason: &str, plies: u64) -> String {
    match (names, scores) {
        ([a, b], [sa, sb]) => format!(
            "{a} {}-{} {b} ({reason}, {plies} plies)",
            format_score(*sa),
            format_score(*sb)
        ),
        _ => format!(
            "{}: places {places} ({reason}, {plies} plies)",
            names.join(", ")
        ),
    }
}

/// The result a log records, in the words of `in_words`; a forged one that is not a result of
/// these players is shown as it is.
fn logged_in_words(names: &[String], logged: &serde_json::Value) -> String {
    let numbers = |key: &str| -> Option<Vec<f64>> {
        let list = logged[key].as_array()?;
        let numbers: Vec<f64> = list.iter().filter_map(serde_json::Value::as_f64).collect();
        (numbers.len() == list.len()).then_some(numbers)
    };
    let scores = numbers("scores").filter(|s| s.len() == names.len());
    let places = match names.len() {
        2 => Some(String::new()),
        _ => numbers("places").map(|p| {
            let places: Vec<String> = p.iter().map(|n| n.to_string()).collect();
            places.join(" ")
        }),
    };
    match (
        scores,
        places,
        logged["reason"].as_str(),
        logged["plies"].as_u64(),
    ) {
        (Some(scores), Some(places), Some(reason), Some(plies)) => {
            in_words(names, &scores, &places, reason, plies)
        }
        _ => format!("the result {logged}"),
    }
}

/// A message the game sends, in words: which line, to whom.
fn described(msg: Option<&Msg>) -> String {
    match msg {
        Some(Msg::To(seat, line)) => format!("{} to seat {}", quoted(line), seat.index()),
        Some(Msg::Spectators(line)) => format!("{} to the spectators", quoted(line)),
        Some(Msg::Pause(d)) => format!("a pause of {} s", d.as_secs_f64()),
        None => "nothing".into(),
    }
}

/// Hear the referee program where the log heard `logged` from it, and give its line to the
/// judge: how the two differ, if they do.
async fn hear_again(
    link: &mut Link,
    judge: &mut Judge,
    logged: &str,
    out: &mut crate::games::Outbox,
) -> Option<String> {
    if !judge.wants_referee() {
        return Some(format!(
            "the log has the referee's {} where the game no longer waits for it",
            quoted(logged)
        ));
    }
    let lines = judge.take_for_referee();
    match link.ask(&lines).await {
        Ok(line) => {
            let _ = judge.referee_line(&line, out);
            (line != logged).then(|| {
                format!(
                    "the log has the referee's {} but the referee now says {}",
                    quoted(logged),
                    quoted(&line)
                )
            })
        }
        Err(f) => {
            let d = format!(
                "the log has the referee's {} but the referee now {}",
                quoted(logged),
                f.detail
            );
            judge.referee_failed(f);
            Some(d)
        }
    }
}

/// An SDK referee's game: its referee run again with the seed, each seat played by what the log
/// says it answered (`referee::sdk::recorded`), and the scores and result compared.
async fn replay_sdk(
    path: &Path,
    header: &Header,
    names: &[String],
    entries: &[(usize, Entry<'_>)],
    program: RefereeProgram,
) -> Result<()> {
    let logged = entries.iter().rev().find_map(|(_, e)| match e {
        Entry::Result { result } => Some(result.clone()),
        _ => None,
    });
    let Some(logged) = logged else {
        return Err(Error::Disagrees(format!(
            "{}: the log has no result (the game did not finish)",
            path.display()
        )));
    };
    let again = crate::referee::sdk::recorded::replay(header, entries, program).await?;
    let differs = again.differs.map(|m| seedless(header, m));
    judged(names, &logged, &again.record.verdict, differs, "game")
}

/// Replay's conclusion: the result agrees (and the `what`, the stream or the game, does too), or
/// how they differ from the log's result, `logged`.
fn judged(
    names: &[String],
    logged: &serde_json::Value,
    v: &crate::referee::Verdict,
    mismatch: Option<String>,
    what: &str,
) -> Result<()> {
    // Two-player logs record no places: their scores say it all.
    let same_places = names.len() == 2 || logged["places"] == serde_json::json!(v.places);
    let same = logged["scores"] == serde_json::json!(v.scores)
        && same_places
        && logged["reason"] == serde_json::json!(v.reason)
        && logged["plies"] == serde_json::json!(v.plies);
    let summary = in_words(
        names,
        &v.scores,
        &v.places.to_string(),
        v.reason.as_str(),
        u64::from(v.plies),
    );
    match (same, mismatch) {
        (true, None) => {
            crate::out::warn(&format!("replay: the result agrees: {summary}"));
            Ok(())
        }
        (true, Some(m)) => Err(Error::Disagrees(format!(
            "replay: the result agrees ({summary}) but the {what} differs: {m}"
        ))),
        (false, m) => Err(Error::Disagrees(format!(
            "replay: the result differs: the log says {}, the referee now gives {summary}{}",
            logged_in_words(names, logged),
            m.map(|m| format!("; {m}")).unwrap_or_default()
        ))),
    }
}

/// The text of the log at `path`. Another kind of file is refused in words that say what it is,
/// before a parser's words about its first line.
fn read_log(path: &Path) -> Result<String> {
    let bytes = crate::files::read_named_file(path, crate::files::MOST_LOG)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    let text = String::from_utf8(bytes).unwrap_or_default();
    match crate::file_kind::of_text(&text) {
        Kind::GameLog => Ok(text),
        kind => Err(Error::Usage(crate::file_kind::refused(
            path,
            kind,
            "an arena game log",
            "replay takes a game's log, logs/game-NNNNN.jsonl in a results folder",
        ))),
    }
}

pub async fn run(path: &Path, spectate: Option<&str>, referee: Option<&str>) -> Result<()> {
    let text = read_log(path)?;
    let Recorded {
        header,
        names,
        entries,
        mut judge,
        mut out,
    } = Recorded::read(path, &text)?;
    // A referee program is started and heard anew: it must answer as the log says.
    let program = referee_to_run(path, &header, referee)?;
    if let (true, Some(program)) = (crate::referee::sdk::is_sdk_header(&header), &program) {
        return replay_sdk(path, &header, &names, &entries, program.clone()).await;
    }
    let stderr_dir = tempfile::tempdir().map_err(Error::io("creating a temporary folder"))?;
    let mut live = match (&program, &header.referee) {
        (Some(program), Some(info)) => {
            Some(start_referee(program, info.max_line, stderr_dir.path()).await?)
        }
        _ => None,
    };
    // What the judge produces now, to be matched against what the log says was sent.
    let start_ms = header.start_ms;
    let mut produced: std::collections::VecDeque<Msg> = out.take().into();
    let mut stream = Vec::new();
    let mut logged_result = None;
    let mut mismatch: Option<String> = None;
    for (n, entry) in entries {
        let expect = match &entry {
            // `read` refused seats beyond the two.
            Entry::Sent { to, line, .. } => judge.seat(*to).map(|to| Msg::To(to, line.to_string())),
            Entry::Spectators { spectators, .. } => Some(Msg::Spectators(spectators.to_string())),
            _ => None,
        };
        if let Some(expect) = expect {
            while matches!(produced.front(), Some(Msg::Pause(_))) {
                produced.pop_front();
            }
            let got = produced.pop_front();
            if got.as_ref() != Some(&expect) && mismatch.is_none() {
                mismatch = Some(format!(
                    "line {n}: the log has {} but the referee now sends {}",
                    described(Some(&expect)),
                    described(got.as_ref())
                ));
            }
            if let Msg::Spectators(l) = expect {
                stream.push(l);
            }
            continue;
        }
        match (entry, live.as_mut()) {
            (Entry::Result { result }, _) => logged_result = Some(result),
            (Entry::FromReferee { referee, .. }, Some(link)) => {
                let differs = hear_again(link, &mut judge, &referee, &mut out).await;
                if let (Some(d), None) = (differs, &mismatch) {
                    mismatch = Some(format!("line {n}: {d}"));
                }
            }
            (entry, _) => {
                apply(&mut judge, start_ms, &entry, &mut out);
            }
        }
        produced.extend(out.take());
    }
    if let Some(link) = live {
        link.close().await;
    }

    show(stream, spectate).await?;

    let v = judge.verdict();
    let Some(logged) = logged_result else {
        return Err(Error::Disagrees(format!(
            "{}: the log has no result (the game did not finish)",
            path.display()
        )));
    };
    let mismatch = mismatch.map(|m| seedless(&header, m));
    judged(&names, &logged, &v, mismatch, "stream")
}

/// The replayed spectator stream, to `--spectate`'s program or to stdout.
async fn show(stream: Vec<String>, spectate: Option<&str>) -> Result<()> {
match spectate {
    Some(cmd) => {
        let base =
            std::env::current_dir().map_err(Error::io("reading the current directory"))?;
        let cmd = BotCommand::parse(cmd, &base)
            .map_err(|e| Error::Usage(format!("--spectate: {e}")))?;
        let limits = IoLimits::default();
        let sink = SpectatorSink::spawn(&cmd, limits).map_err(Error::Usage)?;
        let tx = sink.sender();
        for l in stream {
            let _ = tx.send(l);
        }
        drop(tx);
        sink.finish(limits.grace).await;
    }
    None => {
        for l in stream {
            crate::out::line(&l);
        }
    }
}
    Ok(())
}

/// A difference, said with what it means for a game played with seed=omit: a referee told no
/// seed draws its game anew, so its stream differing says nothing of arena.
fn seedless(header: &Header, mismatch: String) -> String {
    let unseeded = header.referee.is_some()
        && header
            .params
            .pairs()
            .iter()
            .any(|(k, v)| k == "seed" && v == "omit");
    match unseeded {
        true => format!(
            "{mismatch}. This game was played with seed=omit: the referee was told no seed, so \
             it cannot be made to play the same game again, and a referee that draws its game \
             at random plays another one; replay games played with a seed to check them"
        ),
        false => mismatch,
    }
}
