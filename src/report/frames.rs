//! A game log turned into what the report's viewer steps through: the picture after every move,
//! rebuilt by replaying the log through the same judge the referee used, so the viewer shows
//! exactly the game that was played without the log having to carry boards.

use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::games::Seat;
use crate::games::picture::Picture;
use crate::games::{Fault, Outbox};
use crate::referee::Judge;
use crate::referee::log::{Entry, Header, Recorded, Started, apply};
use crate::referee::stderr_path;

/// The most of a bot's stderr the report carries per game; the file beside the log has it all.
pub const STDERR_TAIL: usize = 8 * 1024;
/// A move quoted in a caption is cut to this many bytes (a flood is not worth showing).
const MAX_QUOTE: usize = 160;

#[derive(Debug, Clone, Serialize)]
pub struct Frame {
    pub picture: Picture,
    /// What led to this moment: the lines the bots sent since the last frame, or a failure.
    pub caption: String,
    /// Milliseconds into the game.
    pub ms: u64,
}

#[derive(Debug, Serialize)]
pub struct GameView {
    pub frames: Vec<Frame>,
    /// The end of each seat's stderr.
    /// Each seat's.
    pub stderr: Vec<String>,
    /// The end of a referee program's stderr, for a game one played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referee_stderr: Option<String>,
    /// Who failed and how (`FrameMaker::failures`), for the header.
    pub failures: Vec<String>,
}

fn quote(line: &str) -> String {
    if line.len() <= MAX_QUOTE {
        return line.to_string();
    }
    format!(
        "{}… ({} bytes)",
        crate::games::head(line, MAX_QUOTE),
        line.len()
    )
}

/// The end of a stderr capture in a results folder's `logs`, at most `STDERR_TAIL` bytes,
/// saying what was left out. Never read through a link: the page may be published.
fn stderr_tail(path: &Path) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let tail = |mut file: std::fs::File| -> std::io::Result<(u64, Vec<u8>)> {
        let len = file.metadata()?.len();
        let skipped = len.saturating_sub(STDERR_TAIL as u64);
        file.seek(SeekFrom::Start(skipped))?;
        let mut bytes = Vec::new();
        file.take(STDERR_TAIL as u64).read_to_end(&mut bytes)?;
        Ok((skipped, bytes))
    };
    let Ok((skipped, bytes)) = crate::files::open_log_file(path).and_then(tail) else {
        return String::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    if skipped == 0 {
        return text.into_owned();
    }
    format!(
        "[the first {skipped} bytes are in {}]\n{text}",
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

/// `who` failed, in the viewer's words: `bob failed (timeout): timed out at move 3 ...`.
fn failure(who: &str, fault: &Fault) -> String {
    format!("{who} failed ({}): {}", fault.kind.as_str(), fault.detail)
}

/// A game log's frames, made line by line as the log is read or written: the start, then one
/// frame whenever the board changed or a seat failed.
pub struct FrameMaker {
    start_ms: u64,
    names: Vec<String>,
    judge: Judge,
    out: Outbox,
    /// The lines said since the last frame.
    said: Vec<String>,
    last: Frame,
    referee: bool,
}

impl FrameMaker {
    /// The game of the log at `path` set up from its header, and its first frame.
    pub fn new(path: &Path, header: &Header) -> Result<FrameMaker> {
        let Started {
            names,
            judge,
            mut out,
        } = Started::new(path, header)?;
        out.msgs.clear();
        let last = Frame {
            picture: judge.game().picture(),
            caption: "start".into(),
            ms: 0,
        };
        Ok(FrameMaker {
            start_ms: header.start_ms,
            names,
            judge,
            out,
            said: Vec::new(),
            last,
            referee: header.referee.is_some(),
        })
    }

    /// Who failed so far and how, in the words of the frames' captions: each seat that failed,
    /// then the referee program if it did (for the viewer's header).
    pub fn failures(&self) -> Vec<String> {
        let seats = Seat::all(self.players())
            .filter_map(|s| self.judge.fault_of(s).map(|f| failure(&self.names[s], f)));
        let referee = self
            .judge
            .referee_fault()
            .map(|f| failure("the referee", f));
        seats.chain(referee).collect()
    }

    /// How many play.
    pub fn players(&self) -> usize {
        self.names.len()
    }

    /// The last frame made: the start, until a move changes the board.
    pub fn last(&self) -> &Frame {
        &self.last
    }

    /// Take the log's next entry; returns the frame it makes, if it makes one.
    pub fn entry(&mut self, entry: &Entry) -> Option<&Frame> {
        let judge = &mut self.judge;
        let players = judge.players();
        let failed: Vec<bool> = Seat::all(players).map(|s| judge.has_failed(s)).collect();
        let referee_failed = judge.referee_fault().is_some();
        if !apply(judge, self.start_ms, entry, &mut self.out) {
            return None;
        }
        self.out.msgs.clear();
        let t = match entry {
            Entry::Received { t, from, line } => {
                self.said
                    .push(format!("{}: {}", self.names[*from], quote(line)));
                *t
            }
            Entry::FromReferee { t, referee } => {
                self.said.push(format!("referee: {}", quote(referee)));
                *t
            }
            Entry::Fault { t, .. } | Entry::RefereeFault { t, .. } => *t,
            _ => unreachable!("apply takes only lines and failures"),
        };
        let referee_fault = judge.referee_fault().filter(|_| !referee_failed);
        let newly_failed = Seat::all(players).find(|&s| !failed[s] && judge.has_failed(s));
        let picture = judge.game().picture();
        if !picture.differs_from(&self.last.picture)
            && newly_failed.is_none()
            && referee_fault.is_none()
        {
            return None;
        }
        let mut caption = self.said.join("  ·  ");
        self.said.clear();
        if let Some((seat, fault)) = newly_failed.and_then(|s| judge.fault_of(s).map(|f| (s, f))) {
            if !caption.is_empty() {
                caption.push_str("  ·  ");
            }
            caption.push_str(&failure(&self.names[seat], fault));
        }
        if let Some(fault) = referee_fault {
            if !caption.is_empty() {
                caption.push_str("  ·  ");
            }
            caption.push_str(&failure("the referee", fault));
        }
        self.last = Frame {
            picture,
            caption,
            ms: t / 1000,
        };
        Some(&self.last)
    }

    /// The end of each seat's stderr, and of a referee program's for a game one played.
    /// `has_stderr` says whether a file is there (most bots write none).
    pub fn stderr(
        &self,
        log: &Path,
        has_stderr: impl Fn(&Path) -> bool,
    ) -> (Vec<String>, Option<String>) {
        let tail = |path: &Path| {
            if has_stderr(path) {
                stderr_tail(path)
            } else {
                String::new()
            }
        };
        (
            Seat::all(self.names.len())
                .map(|s| tail(&stderr_path(log, s)))
                .collect(),
            self.referee
                .then(|| tail(&crate::referee::program::stderr_path(log))),
        )
    }
}

/// Replay a game log into its frames and stderr.
pub fn game_view(log: &Path, has_stderr: impl Fn(&Path) -> bool) -> Result<GameView> {
    let bytes = crate::files::read_log_file(log)
        .map_err(Error::io(format!("reading {}", log.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| Error::Corrupt(format!("{}: not UTF-8 ({e})", log.display())))?;
    let Recorded {
        header, entries, ..
    } = Recorded::read(log, &text)?;
    let mut maker = FrameMaker::new(log, &header)?;
    let mut frames = vec![maker.last().clone()];
    for (_, entry) in &entries {
        if let Some(frame) = maker.entry(entry) {
            frames.push(frame.clone());
        }
    }
    let (stderr, referee_stderr) = maker.stderr(log, has_stderr);
    Ok(GameView {
        frames,
        stderr,
        referee_stderr,
        failures: maker.failures(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_stderr_keeps_its_end_and_says_where_the_rest_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game-1.seat0.stderr");
        let text = format!("{}{}", "a".repeat(10_000), "the last words\n");
        std::fs::write(&path, &text).unwrap();
        let tail = stderr_tail(&path);
        let omitted = text.len() - STDERR_TAIL;
        assert!(
            tail.starts_with(&format!(
                "[the first {omitted} bytes are in game-1.seat0.stderr]\n"
            )),
            "{}",
            &tail[..80]
        );
        assert!(tail.ends_with("the last words\n"));
        assert_eq!(stderr_tail(&dir.path().join("none")), "");
        std::fs::write(&path, "short").unwrap();
        assert_eq!(stderr_tail(&path), "short");
    }

    #[test]
    fn quotes_are_cut_on_a_character_boundary() {
        let line = "é".repeat(200);
        let q = quote(&line);
        assert!(q.ends_with("… (400 bytes)"), "{q}");
        assert_eq!(quote("3"), "3");
    }
}
