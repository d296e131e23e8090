//! The frames of a game played by a CodinGame SDK referee. arena holds no rules of that game
//! (the referee decides everything, `referee::sdk`), so nothing can be replayed: the frames are
//! the turns as the log recorded them, each an input the referee wrote a seat and that seat's
//! answer, timed from the log's own clock. The SDK's log adds its summaries, frame by frame.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::frames::{Frame, failure, quote};
use crate::games::Fault;
use crate::games::picture::{Board, Picture};
use crate::referee::log::{Entry, Header};

/// The most of an SDK log that is read: its views make it the largest file of a game (a frame's
/// view is the whole board for some games), yet no real game's reaches this.
pub const MOST_SDK_LOG: u64 = 64 * 1024 * 1024;
/// A summary is cut to this many bytes: a referee may write anything there.
const MAX_SUMMARY: usize = 2000;

/// Whether a log's header is that of an SDK referee's game.
pub fn is_sdk(header: &Header) -> bool {
    header.game == crate::games::program::INFO.name
        && header
            .params
            .pairs()
            .iter()
            .any(|(k, v)| k == "protocol" && v == "sdk")
}

/// One turn: what the referee wrote a seat, and what the seat answered.
struct Turn {
    /// Counted from 1 over the turns the referee asked; 0 for lines no one asked for.
    number: u32,
    seat: usize,
    input: Vec<String>,
    answer: Vec<String>,
    /// The log's times (µs) of the input's first line and of the answer's last.
    asked: u64,
    answered: Option<u64>,
    /// What the seat was allowed, in ms: the SDK's first turn's time, then every other's.
    limit_ms: f64,
    failed: Option<String>,
}

pub struct Turns {
    names: Vec<String>,
    first_ms: f64,
    move_ms: f64,
    open: Option<Turn>,
    /// Turns asked so far, of the game and of each seat.
    turns: u32,
    seat_turns: Vec<u32>,
    /// Frames made so far, the start's included: where each asked turn's frame is.
    frames: usize,
    turn_frames: Vec<usize>,
    /// The referee's lines not shown yet (its scores, at the end).
    said: Vec<String>,
    failures: BTreeMap<usize, String>,
    referee_failure: Option<String>,
    made: Vec<Frame>,
    /// The log's time (µs) of the referee's last line said.
    said_t: u64,
}

fn columns() -> Vec<String> {
    ["turn", "seat", "input", "answer", "ms"]
        .map(String::from)
        .to_vec()
}

fn picture(row: Option<Vec<String>>, notes: Vec<String>) -> Picture {
    Picture {
        board: Board::Table {
            columns: columns(),
            row,
        },
        notes,
    }
}

impl Turns {
    pub fn new(header: &Header) -> Turns {
        let n = header.players.len();
        Turns {
            names: header.players.iter().map(|p| p.name.clone()).collect(),
            first_ms: header.startup_timeout * 1000.0,
            move_ms: header.timeout * 1000.0,
            open: None,
            turns: 0,
            seat_turns: vec![0; n],
            frames: 1,
            turn_frames: Vec::new(),
            said: Vec::new(),
            failures: BTreeMap::new(),
            referee_failure: None,
            made: Vec::new(),
            said_t: 0,
        }
    }

    pub fn start() -> Frame {
        Frame {
            picture: picture(None, Vec::new()),
            caption: "start".into(),
            ms: 0,
        }
    }

    fn who(&self, seat: usize) -> String {
        format!("{} (seat {seat})", self.names[seat])
    }

    fn push(&mut self, frame: Frame) {
        self.frames += 1;
        self.made.push(frame);
    }

    /// The open turn, as a frame.
    fn close(&mut self) {
        let Some(turn) = self.open.take() else {
            return;
        };
        let took = turn
            .answered
            .map(|a| a.saturating_sub(turn.asked) as f64 / 1000.0);
        let who = self.who(turn.seat);
        let mut caption = match (turn.number, took) {
            (0, _) => format!("{who} wrote a line no input asked for"),
            (k, Some(ms)) => format!("turn {k}: {who} answered in {ms:.1} ms"),
            (k, None) => format!("turn {k}: {who} did not answer"),
        };
        let mut notes = Vec::new();
        if let Some(ms) = took.filter(|&ms| turn.number > 0 && ms > turn.limit_ms) {
            notes.push(format!(
                "late: {ms:.1} ms, past the {} ms the referee allows",
                turn.limit_ms
            ));
        }
        if let Some(f) = &turn.failed {
            caption.push_str("  ·  ");
            caption.push_str(f);
        }
        let row = vec![
            match turn.number {
                0 => String::new(),
                k => k.to_string(),
            },
            who,
            turn.input.join("\n"),
            turn.answer.join("\n"),
            took.map(|ms| format!("{ms:.1}")).unwrap_or_default(),
        ];
        if turn.number > 0 {
            self.turn_frames.push(self.frames);
        }
        let t = turn.answered.unwrap_or(turn.asked);
        self.push(Frame {
            picture: picture(Some(row), notes),
            caption,
            ms: t / 1000,
        });
    }

    /// The referee's lines said since the last frame, as one.
    fn flush_said(&mut self) {
        let t = self.said_t;
        if self.said.is_empty() {
            return;
        }
        let caption = std::mem::take(&mut self.said).join("  ·  ");
        self.push(Frame {
            picture: picture(None, Vec::new()),
            caption,
            ms: t / 1000,
        });
    }

    /// Take the log's next entry; returns the frames it completes.
    pub fn entry(&mut self, entry: &Entry) -> &[Frame] {
        self.made.clear();
        let n = self.names.len();
        match entry {
            Entry::Sent { t, to, line } if *to < n => {
                self.flush_said();
                let same = self
                    .open
                    .as_ref()
                    .is_some_and(|o| o.seat == *to && o.number > 0 && o.answer.is_empty());
                if !same {
                    self.close();
                    self.turns += 1;
                    self.seat_turns[*to] += 1;
                    self.open = Some(Turn {
                        number: self.turns,
                        seat: *to,
                        input: Vec::new(),
                        answer: Vec::new(),
                        asked: *t,
                        answered: None,
                        limit_ms: match self.seat_turns[*to] {
                            1 => self.first_ms,
                            _ => self.move_ms,
                        },
                        failed: None,
                    });
                }
                if let Some(o) = self.open.as_mut() {
                    o.input.push(quote(line));
                }
            }
            Entry::Received { t, from, line } if *from < n => {
                self.flush_said();
                if self.open.as_ref().is_none_or(|o| o.seat != *from) {
                    self.close();
                    self.open = Some(Turn {
                        number: 0,
                        seat: *from,
                        input: Vec::new(),
                        answer: Vec::new(),
                        asked: *t,
                        answered: None,
                        limit_ms: 0.0,
                        failed: None,
                    });
                }
                if let Some(o) = self.open.as_mut() {
                    o.answer.push(quote(line));
                    o.answered = Some(*t);
                }
            }
            Entry::Fault {
                t,
                fault,
                kind,
                detail,
                ..
            } if *fault < n => {
                self.flush_said();
                let words = failure(
                    &self.names[*fault],
                    &Fault::new(*kind, detail.to_string()),
                );
                self.failures.entry(*fault).or_insert_with(|| words.clone());
                match self.open.as_mut() {
                    Some(o) if o.seat == *fault && o.failed.is_none() => {
                        o.failed = Some(words);
                        self.close();
                    }
                    _ => {
                        self.close();
                        self.push(Frame {
                            picture: picture(None, Vec::new()),
                            caption: words,
                            ms: t / 1000,
                        });
                    }
                }
            }
            Entry::FromReferee { t, referee } => {
                self.close();
                self.said_t = *t;
                self.said.push(format!("referee: {}", quote(referee)));
            }
            Entry::RefereeFault {
                t,
                referee_fault,
                kind,
                ..
            } => {
                self.close();
                let words = failure(
                    "the referee",
                    &Fault::new(*kind, referee_fault.to_string()),
                );
                self.said.push(words.clone());
                self.said_t = *t;
                self.referee_failure.get_or_insert(words);
                self.flush_said();
            }
            Entry::Exit { .. } | Entry::RefereeExit { .. } | Entry::Result { .. } => {
                self.close();
                self.flush_said();
            }
            _ => {}
        }
        &self.made
    }

    /// The frames still open when the log ends (a log cut short, or read while written).
    pub fn end(&mut self) -> &[Frame] {
        self.made.clear();
        self.close();
        self.flush_said();
        &self.made
    }

    /// Who failed and how: each seat that did, then the referee.
    pub fn failures(&self) -> Vec<String> {
        self.failures
            .values()
            .cloned()
            .chain(self.referee_failure.clone())
            .collect()
    }

    /// The SDK log's summaries as notes of the frames of the turns they belong to, by frame:
    /// the SDK's frame k (after its start-up frame 0) is the k-th turn arena saw. What cannot be
    /// read is said, once, in the start's notes: the report never fails for it.
    pub fn summaries(&self, sdk_log: &Path) -> BTreeMap<usize, Vec<String>> {
        let mut notes = BTreeMap::new();
        let summaries = match read_summaries(sdk_log) {
            Ok(s) => s,
            Err(why) => {
                notes.insert(0, vec![format!("the SDK log is not shown: {why}")]);
                return notes;
            }
        };
        for (frame, summary) in self.turn_frames.iter().zip(summaries.into_iter().skip(1)) {
            let text = summary.trim_end();
            if !text.is_empty() {
                notes.insert(*frame, vec![format!("summary: {}", quote_long(text))]);
            }
        }
        notes
    }
}

fn quote_long(text: &str) -> String {
    if text.len() <= MAX_SUMMARY {
        return text.to_string();
    }
    format!(
        "{}… ({} bytes)",
        crate::games::head(text, MAX_SUMMARY),
        text.len()
    )
}

#[derive(Deserialize)]
struct SdkLog {
    #[serde(rename = "gameResult")]
    game_result: SdkResult,
}

#[derive(Deserialize)]
struct SdkResult {
    #[serde(default)]
    summaries: Vec<serde_json::Value>,
}

/// The summaries of the SDK log at `path`, one per frame, or why they cannot be read. The file
/// may be forged: read as the folder's other files are, with a bound.
fn read_summaries(path: &Path) -> Result<Vec<String>, String> {
    use std::io::Read;
    let file = crate::files::open_log_file(path).map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len > MOST_SDK_LOG {
        return Err(format!(
            "{len} bytes, more than the {} MiB read",
            MOST_SDK_LOG >> 20
        ));
    }
    let mut bytes = Vec::new();
    file.take(MOST_SDK_LOG)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    let log: SdkLog = serde_json::from_slice(&bytes).map_err(|e| format!("not its JSON ({e})"))?;
    Ok(log
        .game_result
        .summaries
        .into_iter()
        .map(|s| summary_text(&s))
        .collect())
}

/// A frame's summary: the SDK writes one text per frame; a list of texts is taken too, and
/// anything else is no summary.
fn summary_text(summary: &serde_json::Value) -> String {
    match summary {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(lines) => lines
            .iter()
            .filter_map(|l| l.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
