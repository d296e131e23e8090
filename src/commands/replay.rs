//! `arena replay LOG`: feed a game log's received lines and failures back through the judge,
//! check that arena would send exactly what the log says it sent and reach the same result, and
//! print the spectator stream.

use std::path::Path;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, SpectatorSink};
use crate::error::{Error, Result};
use crate::games::{Msg, Seat};
use crate::referee::format_score;
use crate::referee::log::{Entry, Recorded, apply};

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
        if let Entry::Result { result } = entry {
            logged_result = Some(result);
        } else {
            apply(&mut judge, start_ms, &entry, &mut out);
        }
        produced.extend(out.take());
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
