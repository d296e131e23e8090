//! One game packed for the report's viewer: its frames and stderr as zlib-compressed JSON in
//! base64, or `!` and why it cannot be shown. Made from the log's bytes as they come: read from
//! the file when a report is written, or handed over while the game is played (`live`). The
//! same bytes make the same pack, however they were cut.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;

use super::frames::{Frame, FrameMaker};
use crate::error::{Error, Result};
use crate::referee::log::{parse_entry, parse_header};

/// The view's JSON goes into the compressor in pieces of about this size: a long game's frames
/// are megabytes, not worth holding whole, and the compressor does work per call.
const PIECE: usize = 64 * 1024;

/// zlib level 3: a third of the default level's time on a long game, for a page a sixth larger.
fn encoder() -> flate2::write::ZlibEncoder<Vec<u8>> {
    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(3))
}

pub struct Packer {
    log: PathBuf,
    /// Lines taken so far.
    lines: usize,
    /// The end of the bytes given, short of a whole line.
    partial: Vec<u8>,
    maker: Option<FrameMaker>,
    /// The view's JSON not yet compressed.
    json: Vec<u8>,
    /// Made once the JSON passes a piece; a short game's is compressed whole at the end.
    z: Option<flate2::write::ZlibEncoder<Vec<u8>>>,
    failed: Option<Error>,
}

impl Packer {
    pub fn new(log: &Path) -> Packer {
        Packer {
            log: log.to_path_buf(),
            lines: 0,
            partial: Vec::new(),
            maker: None,
            json: Vec::new(),
            z: None,
            failed: None,
        }
    }

    pub fn log(&self) -> &Path {
        &self.log
    }

    /// The game whose log is at `log` (in a results folder's `logs`), packed from the file.
    pub fn file(log: &Path, has_stderr: impl Fn(&Path) -> bool) -> String {
        let mut p = Packer::new(log);
        match crate::files::read_log_file(log) {
            Ok(bytes) => p.bytes(&bytes),
            Err(e) => p.failed = Some(Error::io(format!("reading {}", log.display()))(e)),
        }
        p.finish(has_stderr)
    }

    /// Take the next bytes of the log.
    pub fn bytes(&mut self, mut bytes: &[u8]) {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            if self.partial.is_empty() {
                self.line(&bytes[..end]);
            } else {
                let mut line = std::mem::take(&mut self.partial);
                line.extend_from_slice(&bytes[..end]);
                self.line(&line);
            }
            bytes = &bytes[end + 1..];
        }
        self.partial.extend_from_slice(bytes);
    }

    fn line(&mut self, line: &[u8]) {
        self.lines += 1;
        if self.failed.is_none()
            && let Err(e) = self.take(line)
        {
            self.failed = Some(e);
        }
    }

    fn take(&mut self, line: &[u8]) -> Result<()> {
        let n = self.lines;
        let line = std::str::from_utf8(line)
            .map_err(|e| Error::Corrupt(format!("{}:{n}: not UTF-8 ({e})", self.log.display())))?;
        let Some(maker) = &mut self.maker else {
            let header = parse_header(&self.log, Some(line))?;
            let maker = FrameMaker::new(&self.log, &header)?;
            self.json.extend_from_slice(b"{\"frames\":[");
            frame_json(&mut self.json, maker.last());
            self.maker = Some(maker);
            return Ok(());
        };
        let players = maker.players();
        let frames = maker.entry(&parse_entry(&self.log, n, line, players)?);
        add_frames(&mut self.json, &mut self.z, frames);
        Ok(())
    }

    /// The pack: the frames, then the stderr tails and the notes known only at the end
    /// (`has_stderr` says whether a file is there; most bots write none).
    pub fn finish(mut self, has_stderr: impl Fn(&Path) -> bool) -> String {
        if !self.partial.is_empty() {
            let last = std::mem::take(&mut self.partial);
            self.line(&last);
        }
        let mut maker = match (self.failed, self.maker) {
            (Some(e), _) => return unshowable(&e.to_string()),
            (None, Some(maker)) => maker,
            (None, None) => {
                let e = parse_header(&self.log, None).expect_err("no header line");
                return unshowable(&e.to_string());
            }
        };
        let mut json = self.json;
        add_frames(&mut json, &mut self.z, maker.end());
        let (stderr, referee) = maker.stderr(&self.log, &has_stderr);
        json.extend_from_slice(b"],\"stderr\":");
        serde_json::to_writer(&mut json, &stderr).expect("strings serialise");
        if let Some(referee) = referee {
            json.extend_from_slice(b",\"referee_stderr\":");
            serde_json::to_writer(&mut json, &referee).expect("a string serialises");
        }
        json.extend_from_slice(b",\"failures\":");
        serde_json::to_writer(&mut json, &maker.failures()).expect("strings serialise");
        let (late_notes, sdk_log) = maker.late_notes(&self.log, &has_stderr);
        if !late_notes.is_empty() {
            json.extend_from_slice(b",\"late_notes\":");
            serde_json::to_writer(&mut json, &late_notes).expect("notes serialise");
        }
        let by_frame = maker.stderr_by_frame(&self.log, &has_stderr);
        if !by_frame.is_empty() {
            json.extend_from_slice(b",\"frame_stderr\":");
            serde_json::to_writer(&mut json, &by_frame).expect("strings serialise");
        }
        if sdk_log {
            json.extend_from_slice(b",\"sdk_log\":true");
        }
        json.push(b'}');
        let bytes = match self.z {
            Some(mut z) => {
                z.write_all(&json).expect("writing to memory");
                z.finish().expect("writing to memory")
            }
            None => compress_whole(&json),
        };
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }
}

/// Frames after the first, into the JSON, which goes to the compressor past a piece.
fn add_frames(
    json: &mut Vec<u8>,
    z: &mut Option<flate2::write::ZlibEncoder<Vec<u8>>>,
    frames: &[Frame],
) {
    for frame in frames {
        json.push(b',');
        frame_json(json, frame);
    }
    if json.len() >= PIECE {
        let z = z.get_or_insert_with(encoder);
        z.write_all(json).expect("writing to memory");
        json.clear();
    }
}

fn frame_json(json: &mut Vec<u8>, frame: &Frame) {
    serde_json::to_writer(json, frame).expect("a frame serialises");
}

/// A game that cannot be drawn is shown as such, on one line of the page.
pub fn unshowable(why: &str) -> String {
    format!("!{why}").replace(['\n', '<'], " ")
}

/// zlib of a short game's JSON, with one compressor per thread reused from game to game: making
/// one allocates and clears a few hundred KiB, more than compressing a short game's frames.
fn compress_whole(json: &[u8]) -> Vec<u8> {
    thread_local! {
        static ENCODER: std::cell::RefCell<Option<flate2::write::ZlibEncoder<Vec<u8>>>> =
            const { std::cell::RefCell::new(None) };
    }
    ENCODER.with_borrow_mut(|slot| {
        let mut z = slot.take().unwrap_or_else(encoder);
        z.write_all(json).expect("writing to memory");
        let out = z.reset(Vec::new()).expect("writing to memory");
        *slot = Some(z);
        out
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A roshambo log of `rounds` rounds, each seat's throw changing from round to round.
    pub(in crate::report) fn roshambo_log(rounds: usize) -> String {
        let mut text = String::from(
            r#"{"header":{"game":"roshambo","params":{"rounds":"9999"},"seed":1,"players":[{"name":"a","bot":"a"},{"name":"b","bot":"b"}],"start":"","start_ms":0,"timeout":1.0,"startup_timeout":1.0,"arena":"0"}}"#,
        );
        text.push('\n');
        for r in 0..rounds {
            for seat in 0..2 {
                let throw = ["ROCK", "PAPER", "SCISSORS"][(r * (seat + 1)) % 3];
                text.push_str(&format!(
                    "{{\"t\":{},\"from\":{seat},\"line\":\"{throw}\"}}\n",
                    r * 10 + seat
                ));
            }
        }
        text
    }

    /// The pack of a log, its bytes handed over in pieces of `cut` bytes.
    fn pack_in_pieces(log: &Path, cut: usize) -> String {
        let bytes = std::fs::read(log).unwrap();
        let mut p = Packer::new(log);
        for piece in bytes.chunks(cut) {
            p.bytes(piece);
        }
        p.finish(|_| false)
    }

    #[test]
    fn a_log_cut_anywhere_packs_as_the_whole_file_does() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game-1.jsonl");
        // Enough frames to pass several pieces.
        let text = roshambo_log(3000);
        std::fs::write(&log, &text).unwrap();
        let whole = Packer::file(&log, |_| false);
        assert!(!whole.starts_with('!'), "{whole}");
        for cut in [1, 7, 4096, 70_000] {
            assert_eq!(pack_in_pieces(&log, cut), whole, "pieces of {cut} bytes");
        }
        // Without its last newline, the last line still counts.
        std::fs::write(&log, text.trim_end()).unwrap();
        assert_eq!(Packer::file(&log, |_| false), whole);
    }

    #[test]
    fn a_bad_line_is_named_and_a_log_without_a_header_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game-1.jsonl");
        std::fs::write(&log, "").unwrap();
        let pack = Packer::file(&log, |_| false);
        assert!(
            pack.starts_with(&format!("!{}:1: ", log.display())),
            "{pack}"
        );
        std::fs::write(&log, "{\"t\":1}\n").unwrap();
        assert!(Packer::file(&log, |_| false).contains(":1: "));
        let missing = Packer::file(&dir.path().join("none.jsonl"), |_| false);
        assert!(missing.starts_with("!reading "), "{missing}");
    }
}
