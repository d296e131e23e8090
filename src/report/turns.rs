//! The frames of a game played by a CodinGame SDK referee. arena holds no rules of that game
//! (the referee decides everything, `referee::sdk`), so nothing can be replayed: the frames are
//! the turns as the log recorded them, each an input the referee wrote a seat and that seat's
//! answer, timed from the log's own clock. The SDK's log adds its summaries, frame by frame.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::frames::{Frame, failure, quote};
use crate::failure::Fault;
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
        let late = took.filter(|&ms| turn.number > 0 && ms > turn.limit_ms);
        if let Some(ms) = late {
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
            match (took, late) {
                (_, Some(ms)) => format!("{ms:.1} late"),
                (Some(ms), None) => format!("{ms:.1}"),
                (None, None) => String::new(),
            },
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
            Entry::Sent { t, to, line } if *to < n => self.sent(*t, *to, line),
            Entry::Received { t, from, line } if *from < n => self.received(*t, *from, line),
            Entry::Fault {
                t,
                fault,
                kind,
                detail,
                ..
            } if *fault < n => self.fault(*t, *fault, Fault::new(*kind, detail.to_string())),
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

    /// An input to a seat: a turn begins, unless the seat's is still being written.
    fn sent(&mut self, t: u64, to: usize, line: &str) {
        self.flush_said();
        let same = self
            .open
            .as_ref()
            .is_some_and(|o| o.seat == to && o.number > 0 && o.answer.is_empty());
        if !same {
            self.close();
            self.turns += 1;
            self.seat_turns[to] += 1;
            self.open = Some(Turn {
                number: self.turns,
                seat: to,
                input: Vec::new(),
                answer: Vec::new(),
                asked: t,
                answered: None,
                limit_ms: match self.seat_turns[to] {
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

    /// A seat's answer.
    fn received(&mut self, t: u64, from: usize, line: &str) {
        self.flush_said();
        if self.open.as_ref().is_none_or(|o| o.seat != from) {
            self.close();
            self.open = Some(Turn {
                number: 0,
                seat: from,
                input: Vec::new(),
                answer: Vec::new(),
                asked: t,
                answered: None,
                limit_ms: 0.0,
                failed: None,
            });
        }
        if let Some(o) = self.open.as_mut() {
            o.answer.push(quote(line));
            o.answered = Some(t);
        }
    }

    /// A seat's failure: its turn's, or a frame of its own.
    fn fault(&mut self, t: u64, seat: usize, fault: Fault) {
        self.flush_said();
        let words = failure(&self.names[seat], &fault);
        self.failures.entry(seat).or_insert_with(|| words.clone());
        match self.open.as_mut() {
            Some(o) if o.seat == seat && o.failed.is_none() => {
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
        crate::failure::head(text, MAX_SUMMARY),
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

#[cfg(test)]
mod tests {
    use super::super::frames::{GameView, game_view};
    use crate::games::picture::Board;

    const HEADER: &str = r#"{"header":{"game":"referee","params":{"protocol":"sdk","seed":"send","seed_form":"-d seed={seed}"},"seed":1,"players":[{"name":"a","bot":"a"},{"name":"b","bot":"b"}],"start":"","start_ms":0,"timeout":0.05,"startup_timeout":1.0,"arena":"0","referee":{"command":"r","argv":["r"],"timeout":10.0,"startup_timeout":30.0,"max_turns":100,"max_line":65536}}}"#;

    /// Two turns each: a answers, b answers late on its second turn, a crashes on its third.
    const ENTRIES: &str = r#"{"t":1000,"to":0,"line":"2 0"}
{"t":1100,"to":0,"line":"5 5"}
{"t":301000,"from":0,"line":"1"}
{"t":302000,"to":1,"line":"2 1"}
{"t":302100,"to":1,"line":"0 5"}
{"t":402000,"from":1,"line":"0"}
{"t":403000,"to":0,"line":"0 0"}
{"t":403500,"from":0,"line":"0"}
{"t":404000,"to":1,"line":"0 0"}
{"t":484000,"from":1,"line":"1"}
{"t":485000,"to":0,"line":"0 0"}
{"t":490000,"fault":0,"kind":"crash","detail":"exited with status 3 at move 3","cause":{"exited":{"status":3}},"at_move":3}
{"t":500000,"referee":"-1"}
{"t":500100,"referee":"5"}
{"t":510000,"exit":1,"status":"exited with status 0"}
"#;

    fn view_of(dir: &std::path::Path, log: &str, sdk: Option<&[u8]>) -> GameView {
        let path = dir.join("game-1.jsonl");
        std::fs::write(&path, log).unwrap();
        let sdk_path = dir.join("game-1.sdk.json");
        let _ = std::fs::remove_file(&sdk_path);
        if let Some(bytes) = sdk {
            std::fs::write(&sdk_path, bytes).unwrap();
        }
        game_view(&path, |p| p.exists()).unwrap()
    }

    fn rows(view: &GameView) -> Vec<Vec<String>> {
        view.frames
            .iter()
            .filter_map(|f| match &f.picture.board {
                Board::Table { row, .. } => row.clone(),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_turn_is_an_input_and_its_answer_timed_by_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let view = view_of(dir.path(), &format!("{HEADER}\n{ENTRIES}"), None);
        let text = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            rows(&view),
            [
                text(&["1", "a (seat 0)", "2 0\n5 5", "1", "300.0"]),
                text(&["2", "b (seat 1)", "2 1\n0 5", "0", "100.0"]),
                text(&["3", "a (seat 0)", "0 0", "0", "0.5"]),
                text(&["4", "b (seat 1)", "0 0", "1", "80.0 late"]),
                text(&["5", "a (seat 0)", "0 0", "", ""]),
            ]
        );
        let captions: Vec<&str> = view.frames.iter().map(|f| f.caption.as_str()).collect();
        assert_eq!(captions[0], "start");
        assert_eq!(captions[1], "turn 1: a (seat 0) answered in 300.0 ms");
        assert_eq!(
            captions[5],
            "turn 5: a (seat 0) did not answer  ·  a failed (crash): exited with status 3 at \
             move 3"
        );
        assert_eq!(captions[6], "referee: -1  ·  referee: 5");
        assert_eq!(view.frames.len(), 7);
        // The first turn has its second; every other, the SDK's 50 ms.
        assert!(view.frames[1].picture.notes.is_empty());
        assert_eq!(
            view.frames[4].picture.notes,
            ["late: 80.0 ms, past the 50 ms the referee allows"]
        );
        assert_eq!(view.frames[4].ms, 484);
        assert_eq!(
            view.failures,
            ["a failed (crash): exited with status 3 at move 3"]
        );
        assert!(!view.sdk_log && view.late_notes.is_empty());
    }

    #[test]
    fn a_log_cut_short_still_shows_its_last_turn_and_unasked_lines_are_their_own_row() {
        let dir = tempfile::tempdir().unwrap();
        let cut = r#"{"t":1000,"to":0,"line":"2 0"}
{"t":2000,"from":1,"line":"9"}
{"t":3000,"to":0,"line":"2 0"}
"#;
        let view = view_of(dir.path(), &format!("{HEADER}\n{cut}"), None);
        let rows = rows(&view);
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert_eq!(rows[1][0], "", "no turn: no input asked for it");
        assert_eq!(rows[1][3], "9");
        assert_eq!(view.frames[2].caption, "b (seat 1) wrote a line no input asked for");
        assert_eq!(rows[2][0], "2");
    }

    #[test]
    fn the_sdk_logs_summaries_go_to_their_turns_and_a_bad_sdk_log_is_said_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let log = format!("{HEADER}\n{ENTRIES}");
        let sdk = br#"{"gameResult":{"summaries":["start-up","","b thinks",["two","lines"],"",{"x":1},"beyond"],"views":["a"]}}"#;
        let view = view_of(dir.path(), &log, Some(sdk));
        assert!(view.sdk_log);
        let notes: Vec<(usize, Vec<String>)> = view.late_notes.into_iter().collect();
        assert_eq!(
            notes,
            [
                (2, vec!["summary: b thinks".to_string()]),
                (3, vec!["summary: two\nlines".to_string()]),
            ]
        );

        for (bytes, why) in [
            (&b"{\"gameResult\": [1"[..], "not its JSON"),
            (&b"{\"summaries\":[]}"[..], "not its JSON"),
        ] {
            let view = view_of(dir.path(), &log, Some(bytes));
            let note = &view.late_notes[&0][0];
            assert!(note.starts_with("the SDK log is not shown: "), "{note}");
            assert!(note.contains(why), "{note}");
            assert_eq!(view.frames.len(), 7, "the game is shown all the same");
        }

        // Too big to read: said, not read.
        let sdk_path = dir.path().join("game-1.sdk.json");
        let view = view_of(dir.path(), &log, Some(b"{}"));
        std::fs::File::options()
            .write(true)
            .open(&sdk_path)
            .unwrap()
            .set_len(super::MOST_SDK_LOG + 1)
            .unwrap();
        let path = dir.path().join("game-1.jsonl");
        let big = game_view(&path, |p| p.exists()).unwrap();
        assert!(big.late_notes[&0][0].contains("more than the 64 MiB read"));
        drop(view);

        // A link is not followed (the page may be published), nor is a FIFO waited on.
        std::fs::remove_file(&sdk_path).unwrap();
        let secret = dir.path().join("secret.json");
        std::fs::write(&secret, br#"{"gameResult":{"summaries":["","secret"]}}"#).unwrap();
        std::os::unix::fs::symlink(&secret, &sdk_path).unwrap();
        let linked = game_view(&path, |p| p.exists()).unwrap();
        let said = format!("{:?}", linked.late_notes);
        assert!(!said.contains("secret\""), "{said}");
        assert!(linked.late_notes.contains_key(&0), "{said}");
        std::fs::remove_file(&sdk_path).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &sdk_path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let fifo = game_view(&path, |p| p.exists()).unwrap();
        assert!(fifo.late_notes[&0][0].contains("not a regular file"));
    }

    #[test]
    fn an_sdk_game_packs_the_same_from_its_file_and_from_pieces_as_played() {
        use super::super::pack::Packer;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game-1.jsonl");
        let text = format!("{HEADER}\n{ENTRIES}");
        std::fs::write(&log, &text).unwrap();
        std::fs::write(
            dir.path().join("game-1.sdk.json"),
            r#"{"gameResult":{"summaries":["","","b thinks"]}}"#,
        )
        .unwrap();
        let whole = Packer::file(&log, |p| p.exists());
        assert!(!whole.starts_with('!'), "{whole}");
        for cut in [1, 13, 4096] {
            let mut p = Packer::new(&log);
            for piece in text.as_bytes().chunks(cut) {
                p.bytes(piece);
            }
            assert_eq!(p.finish(|p| p.exists()), whole, "pieces of {cut} bytes");
        }
    }
}
