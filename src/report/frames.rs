//! A game log turned into what the report's viewer steps through: the picture after every move,
//! rebuilt by replaying the log through the same judge the referee used, so the viewer shows
//! exactly the game that was played without the log having to carry boards. An SDK referee's
//! game has no rules in arena to replay: its frames are its logged turns (`turns.rs`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::games::Seat;
use crate::games::picture::Picture;
use crate::games::Outbox;
use crate::failure::Fault;
use crate::referee::Judge;
use crate::referee::log::{Entry, Header, Recorded, Started, apply};
use crate::referee::stderr_path;

use super::stderr_frames::{StderrByFrame, read_at};
use super::turns::Turns;

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
    pub stderr: Vec<String>,
    /// The end of a referee program's stderr, for a game one played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referee_stderr: Option<String>,
    /// Who failed and how (`FrameMaker::failures`), for the header.
    pub failures: Vec<String>,
    /// What each seat wrote to stderr, by frame and seat (`FrameMaker::stderr_by_frame`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub frame_stderr: BTreeMap<usize, BTreeMap<usize, String>>,
    /// Notes known only once the game is over, by frame (`FrameMaker::late_notes`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub late_notes: BTreeMap<usize, Vec<String>>,
    /// Whether the game has an SDK referee's own log beside arena's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sdk_log: bool,
}

pub(super) fn quote(line: &str) -> String {
    if line.len() <= MAX_QUOTE {
        return line.to_string();
    }
    format!(
        "{}… ({} bytes)",
        crate::failure::head(line, MAX_QUOTE),
        line.len()
    )
}

/// The end of a stderr capture in a results folder's `logs`, at most `STDERR_TAIL` bytes,
/// saying what was left out. Never read through a link: the page may be published.
fn stderr_tail(path: &Path) -> String {
    let tail = |mut file: std::fs::File| -> std::io::Result<(u64, Vec<u8>)> {
        let len = file.metadata()?.len();
        let skipped = len.saturating_sub(STDERR_TAIL as u64);
        Ok((skipped, read_at(&mut file, skipped, STDERR_TAIL as u64)?))
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
pub(super) fn failure(who: &str, fault: &Fault) -> String {
    format!("{who} failed ({}): {}", fault.kind.as_str(), fault.detail)
}

/// A game log's frames, made line by line as the log is read or written: the start, then one
/// frame whenever the board changed or a seat failed.
pub struct FrameMaker {
    names: Vec<String>,
    last: Frame,
    referee: bool,
    how: How,
    by_frame: StderrByFrame,
}

/// How the frames are made.
enum How {
    /// By replaying the log through the game's rules.
    Judged(Box<Judged>),
    /// From the turns the log records: an SDK referee's game, whose rules arena does not hold.
    Turns(Box<Turns>),
}

struct Judged {
    start_ms: u64,
    judge: Judge,
    out: Outbox,
    /// The lines said since the last frame.
    said: Vec<String>,
}

impl FrameMaker {
    /// The game of the log at `path` set up from its header, and its first frame.
    pub fn new(path: &Path, header: &Header) -> Result<FrameMaker> {
        let Started {
            names,
            judge,
            mut out,
        } = Started::new(path, header)?;
        let referee = header.referee.is_some();
        if super::turns::is_sdk(header) {
            return Ok(FrameMaker {
                by_frame: StderrByFrame::new(names.len(), header.stderr_marks),
                names,
                last: Turns::start(),
                referee,
                how: How::Turns(Box::new(Turns::new(header))),
            });
        }
        out.msgs.clear();
        let last = Frame {
            picture: judge.game().picture(),
            caption: "start".into(),
            ms: 0,
        };
        Ok(FrameMaker {
            by_frame: StderrByFrame::new(names.len(), header.stderr_marks),
            names,
            last,
            referee,
            how: How::Judged(Box::new(Judged {
                start_ms: header.start_ms,
                judge,
                out,
                said: Vec::new(),
            })),
        })
    }

    /// Who failed so far and how, in the words of the frames' captions: each seat that failed,
    /// then the referee program if it did (for the viewer's header).
    pub fn failures(&self) -> Vec<String> {
        let judged = match &self.how {
            How::Judged(judged) => judged,
            How::Turns(turns) => return turns.failures(),
        };
        let judge = &judged.judge;
        let seats = Seat::all(self.players())
            .filter_map(|s| judge.fault_of(s).map(|f| failure(&self.names[s], f)));
        let referee = judge.referee_fault().map(|f| failure("the referee", f));
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

    /// Take the log's next entry; returns the frames it makes (most make none, a judged game's
    /// at most one).
    pub fn entry(&mut self, entry: &Entry) -> &[Frame] {
        if let Entry::Stderr { stderr, upto, .. } = entry {
            self.by_frame.mark(*stderr, *upto);
            return &[];
        }
        let judged = match &mut self.how {
            How::Judged(judged) => judged,
            How::Turns(turns) => {
                let made = turns.entry(entry);
                self.by_frame.made(made.len());
                return made;
            }
        };
        match judged.entry(&self.names, &self.last, entry) {
            Some(frame) => {
                self.last = frame;
                self.by_frame.made(1);
                std::slice::from_ref(&self.last)
            }
            None => &[],
        }
    }

    /// The frames the log's end completes: none but for a game made of turns, whose last turn
    /// is complete only once nothing follows.
    pub fn end(&mut self) -> &[Frame] {
        match &mut self.how {
            How::Judged(_) => &[],
            How::Turns(turns) => {
                let made = turns.end();
                self.by_frame.made(made.len());
                made
            }
        }
    }

    /// What each seat wrote to stderr, by frame and seat (`StderrByFrame::read`); asked once
    /// the log has been read to its end.
    pub fn stderr_by_frame(
        &self,
        log: &Path,
        has_stderr: impl Fn(&Path) -> bool,
    ) -> BTreeMap<usize, BTreeMap<usize, String>> {
        self.by_frame.read(log, has_stderr)
    }

    /// What the frames get only once the game is over, by frame: an SDK referee's summaries,
    /// from its own log (`has` says whether a file is there).
    pub fn late_notes(
        &self,
        log: &Path,
        has: impl Fn(&Path) -> bool,
    ) -> (BTreeMap<usize, Vec<String>>, bool) {
        let How::Turns(turns) = &self.how else {
            return (BTreeMap::new(), false);
        };
        let sdk_log = crate::referee::sdk::sdk_log_path(log);
        if !has(&sdk_log) {
            return (BTreeMap::new(), false);
        }
        (turns.summaries(&sdk_log), true)
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

impl Judged {
    /// The frame an entry makes, if it makes one: when the board changed or someone failed.
    fn entry(&mut self, names: &[String], last: &Frame, entry: &Entry) -> Option<Frame> {
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
                self.said.push(format!("{}: {}", names[*from], quote(line)));
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
        if !picture.differs_from(&last.picture)
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
            caption.push_str(&failure(&names[seat], fault));
        }
        if let Some(fault) = referee_fault {
            if !caption.is_empty() {
                caption.push_str("  ·  ");
            }
            caption.push_str(&failure("the referee", fault));
        }
        Some(Frame {
            picture,
            caption,
            ms: t / 1000,
        })
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
        frames.extend_from_slice(maker.entry(entry));
    }
    frames.extend_from_slice(maker.end());
    let (stderr, referee_stderr) = maker.stderr(log, &has_stderr);
    let (late_notes, sdk_log) = maker.late_notes(log, &has_stderr);
    Ok(GameView {
        frames,
        stderr,
        referee_stderr,
        frame_stderr: maker.stderr_by_frame(log, &has_stderr),
        failures: maker.failures(),
        late_notes,
        sdk_log,
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
