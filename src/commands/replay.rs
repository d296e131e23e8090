//! `arena replay LOG`: feed a game log's received lines and failures back through the judge,
//! check that arena would send exactly what the log says it sent and reach the same result, and
//! print the spectator stream.

use std::path::Path;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, SpectatorSink};
use crate::error::{Error, Result};
use crate::games::{Msg, Seat};
use crate::referee::Judge;
use crate::referee::format_score;
use crate::referee::log::{Entry, Recorded, RefereeInfo, apply};
use crate::referee::program::Link;
use crate::referee::program::RefereeProgram;

/// The log's referee program started again, as the game started it.
async fn start_referee(info: &RefereeInfo, dir: &Path) -> Result<Link> {
    let program = RefereeProgram {
        bot: crate::bot::BotSpec {
            command: BotCommand::Program(info.argv.clone()),
            channel: crate::bot::Channel::Stdio,
            dir: None,
            env: Vec::new(),
            label: info.command.clone(),
            limits: crate::bot::Limits::default(),
            sandbox: None,
            console: false,
        },
        timeout: std::time::Duration::from_secs_f64(info.timeout),
        startup_timeout: std::time::Duration::from_secs_f64(info.startup_timeout),
        max_turns: info.max_turns.unwrap_or(RefereeProgram::MAX_TURNS),
    };
    // As the game heard it: a line it accepted must not be too long now.
    let limits = IoLimits {
        max_line: info.max_line,
        framing: crate::games::Framing::Lines,
        ..IoLimits::default()
    };
    Link::spawn(&program, &dir.join("referee.stderr"), limits)
        .await
        .map_err(|e| {
            let why = match e {
                crate::bot::StartError::Bot(f) => f.detail,
                crate::bot::StartError::Arena(why) => why,
            };
            Error::Disagrees(format!(
                "replay: the referee program '{}' could not be started again: {why}",
                info.command
            ))
        })
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
            "the log has the referee's {logged:?} where the game no longer waits for it"
        ));
    }
    let lines = judge.take_for_referee();
    // Quoted no longer than a message can bear: a referee's line may be a whole map.
    let quoted = |l: &str| format!("{:?}", crate::games::head(l, 200));
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

pub async fn run(path: &Path, spectate: Option<&str>) -> Result<()> {
    let text =
        std::fs::read_to_string(path).map_err(Error::io(format!("reading {}", path.display())))?;
    let Recorded {
        header,
        names,
        entries,
        mut judge,
        mut out,
    } = Recorded::read(path, &text)?;
    // A referee program is started again and heard anew: it must answer as the log says.
    let stderr_dir = tempfile::tempdir().map_err(Error::io("creating a temporary folder"))?;
    let mut live = match &header.referee {
        Some(info) => Some(start_referee(info, stderr_dir.path()).await?),
        None => None,
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
            Entry::Sent { to, line, .. } => {
                Seat::from_index(*to).map(|to| Msg::To(to, line.to_string()))
            }
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
                    "line {n}: the log has {expect:?} but the referee now gives {got:?}"
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

    let v = judge.verdict();
    let Some(logged) = logged_result else {
        return Err(Error::Disagrees(format!(
            "{}: the log has no result (the game did not finish)",
            path.display()
        )));
    };
    let same = logged["scores"] == serde_json::json!(v.scores)
        && logged["reason"] == serde_json::json!(v.reason)
        && logged["plies"] == serde_json::json!(v.plies);
    let summary = format!(
        "{} {}-{} {} ({}, {} plies)",
        names[0],
        format_score(v.scores[0]),
        format_score(v.scores[1]),
        names[1],
        v.reason.as_str(),
        v.plies
    );
    // A referee told no seed draws its game anew: its stream differing says nothing of arena.
    let unseeded = header.referee.is_some()
        && header
            .params
            .pairs()
            .iter()
            .any(|(k, v)| k == "seed" && v == "omit");
    let mismatch = match mismatch {
        Some(m) if unseeded => Some(format!(
            "{m}. This game was played with seed=omit: the referee was told no seed, so it \
             cannot be made to play the same game again, and a referee that draws its game at \
             random plays another one; replay games played with a seed to check them"
        )),
        m => m,
    };
    match (same, mismatch) {
        (true, None) => {
            crate::out::warn(&format!("replay: the result agrees: {summary}"));
            Ok(())
        }
        (true, Some(m)) => Err(Error::Disagrees(format!(
            "replay: the result agrees ({summary}) but the stream differs: {m}"
        ))),
        (false, m) => Err(Error::Disagrees(format!(
            "replay: the result differs: the log says {} {} {} plies, the referee gives {summary}{}",
            logged["scores"],
            logged["reason"],
            logged["plies"],
            m.map(|m| format!("; {m}")).unwrap_or_default()
        ))),
    }
}
