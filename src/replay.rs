//! `arena replay LOG`: feed a game log's received lines and failures back through the judge,
//! check that arena would send exactly what the log says it sent and reach the same result, and
//! print the spectator stream.

use std::path::Path;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, SpectatorSink};
use crate::duel::find_game;
use crate::error::{Error, Result};
use crate::games::{Fault, Msg, Outbox, Params, Seating};
use crate::referee::Judge;
use crate::referee::log::{Entry, Header, clock};

/// A game log read back: its header and entries, and the game it records set up as it started.
pub struct Recorded<'a> {
    pub header: Header,
    pub names: [String; 2],
    /// Every entry after the header, with its line number.
    pub entries: Vec<(usize, Entry<'a>)>,
    pub judge: Judge,
    /// What the game sent as it started.
    pub out: Outbox,
}

impl<'a> Recorded<'a> {
    /// Read a log's text; errors name the file and line.
    pub fn read(path: &Path, text: &'a str) -> Result<Recorded<'a>> {
        let bad = |n: usize, what: &str| Error::Usage(format!("{}:{n}: {what}", path.display()));
        let mut lines = text.lines().enumerate();
        let header = match lines.next().map(|(_, l)| serde_json::from_str::<Entry>(l)) {
            Some(Ok(Entry::Header { header })) => header,
            Some(Err(e)) => return Err(bad(1, &e.to_string())),
            _ => {
                return Err(bad(
                    1,
                    "not an arena game log: the first line is not a header",
                ));
            }
        };
        let mut entries = Vec::new();
        for (n, line) in lines {
            let e: Entry = serde_json::from_str(line).map_err(|e| bad(n + 1, &e.to_string()))?;
            // A seat beyond the game's two was never written by arena: an edited log.
            let seat = match &e {
                Entry::Sent { to: s, .. }
                | Entry::Received { from: s, .. }
                | Entry::Fault { fault: s, .. }
                | Entry::Exit { exit: s, .. } => Some(*s),
                _ => None,
            };
            if let Some(s) = seat.filter(|&s| s >= 2) {
                return Err(bad(
                    n + 1,
                    &format!("seat {s} does not exist: the game has seats 0 and 1"),
                ));
            }
            entries.push((n + 1, e));
        }
        let game = find_game(&header.game)?;
        let pairs = header.params.clone().recorded(game.params).pairs();
        let params = Params::resolve(
            game.params,
            pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )
        .map_err(|e| bad(1, &e))?;
        if header.players.len() != 2 {
            return Err(bad(1, "a game log names exactly two players"));
        }
        let names = [
            header.players[0].name.clone(),
            header.players[1].name.clone(),
        ];
        let seating = Seating {
            names: names.clone(),
            seed: header.seed,
            timeout: header.timeout,
        };
        let mut judge = Judge::new(game.new_game(&params, &seating).map_err(|e| bad(1, &e))?);
        let mut out = Outbox {
            now_ms: header.start_ms,
            ..Outbox::default()
        };
        judge.start(&mut out);
        Ok(Recorded {
            header,
            names,
            entries,
            judge,
            out,
        })
    }
}

/// Give one logged entry to the judge as the referee did: a bot's line or a failure, at the
/// logged time. Returns whether the entry was one of those.
pub fn apply(judge: &mut Judge, start_ms: u64, entry: &Entry, out: &mut Outbox) -> bool {
    match entry {
        Entry::Received { t, from, line } if *from < 2 => {
            out.now_ms = clock(start_ms, *t);
            let _ = judge.line(*from, line, out);
            true
        }
        // A refused line was already judged a fault when it was replayed.
        Entry::Fault {
            t,
            fault,
            kind,
            detail,
        } if *fault < 2 && !judge.has_failed(*fault) => {
            out.now_ms = clock(start_ms, *t);
            judge.fault(*fault, Fault::new(*kind, detail.to_string()), out);
            true
        }
        _ => false,
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
    // What the judge produces now, to be matched against what the log says was sent.
    let start_ms = header.start_ms;
    let mut produced: std::collections::VecDeque<Msg> = out.take().into();
    let mut stream = Vec::new();
    let mut logged_result = None;
    let mut mismatch: Option<String> = None;
    for (n, entry) in entries {
        let expect = match &entry {
            Entry::Sent { to, line, .. } => Some(Msg::To(*to, line.to_string())),
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
        return Err(Error::Failed(format!(
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
        crate::duel::format_score(v.scores[0]),
        crate::duel::format_score(v.scores[1]),
        names[1],
        v.reason.as_str(),
        v.plies
    );
    match (same, mismatch) {
        (true, None) => {
            crate::out::warn(&format!("replay: the result agrees: {summary}"));
            Ok(())
        }
        (true, Some(m)) => Err(Error::Failed(format!(
            "replay: the result agrees ({summary}) but the stream differs: {m}"
        ))),
        (false, m) => Err(Error::Failed(format!(
            "replay: the result differs: the log says {} {} {} plies, the referee gives {summary}{}",
            logged["scores"],
            logged["reason"],
            logged["plies"],
            m.map(|m| format!("; {m}")).unwrap_or_default()
        ))),
    }
}
