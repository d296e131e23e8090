//! What each seat wrote to stderr, by frame: the viewer shows a bot's words at the move it wrote
//! them, as CodinGame's viewer shows each turn's. The log marks how far into its stderr file a
//! bot had written before each answer or failure (`Entry::Stderr`); the bytes up to a mark go to
//! the next frame made, and what follows the last mark (a crash's last words) to the last frame.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::games::Seat;
use crate::referee::stderr_path;

/// The most of a seat's stderr one frame shows, and the most a game's frames show in all: the
/// file beside the log has it all, and a report holds thousands of games.
const PER_FRAME: u64 = 2 * 1024;
const PER_SEAT: u64 = 16 * 1024;

/// The seats' stderr, by the frame each part goes to.
pub struct StderrByFrame {
    /// Whether the log marks stderr at all (`Header::stderr_marks`): an older log's is shown
    /// whole only, never all of it at its last frame.
    marking: bool,
    /// The last mark read of each seat, and how far its frames have taken.
    marked: Vec<u64>,
    shown: Vec<u64>,
    /// Frames made so far (the start is frame 0).
    frames: usize,
    /// (frame, seat, from, to), in the order made.
    parts: Vec<(usize, usize, u64, u64)>,
}

impl StderrByFrame {
    pub fn new(players: usize, marking: bool) -> StderrByFrame {
        StderrByFrame {
            marking,
            marked: vec![0; players],
            shown: vec![0; players],
            frames: 1,
            parts: Vec::new(),
        }
    }

    /// A seat's bot had written `upto` bytes of stderr.
    pub fn mark(&mut self, seat: usize, upto: u64) {
        if let Some(m) = self.marked.get_mut(seat) {
            *m = (*m).max(upto);
        }
    }

    /// `n` frames were just made: what was marked since the last goes to the first of them.
    pub fn made(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        for (seat, (&marked, shown)) in self.marked.iter().zip(&mut self.shown).enumerate() {
            if marked > *shown {
                self.parts.push((self.frames, seat, *shown, marked));
                *shown = marked;
            }
        }
        self.frames += n;
    }

    /// The parts' text, by frame and seat, read from the stderr files beside the log once the
    /// game is over (`has` says whether a file is there; most bots write none). What follows
    /// the last mark goes to the last frame. A seat past its budget gets one note, where it ran
    /// out, naming its file.
    pub fn read(
        &self,
        log: &Path,
        has: impl Fn(&Path) -> bool,
    ) -> BTreeMap<usize, BTreeMap<usize, String>> {
        let mut by_frame: BTreeMap<usize, BTreeMap<usize, String>> = BTreeMap::new();
        if !self.marking {
            return by_frame;
        }
        for seat in Seat::all(self.marked.len()) {
            let path = stderr_path(log, seat);
            if !has(&path) {
                continue;
            }
            let Ok(mut file) = crate::files::open_log_file(&path) else {
                continue;
            };
            let len = file.metadata().map_or(0, |m| m.len());
            let s = seat.index();
            let last = (self.frames - 1, s, self.shown[s], len);
            let parts = self.parts.iter().filter(|p| p.1 == s);
            let mut budget = PER_SEAT;
            for &(frame, _, from, to) in parts.chain(Some(&last)) {
                let to = to.min(len);
                if from >= to {
                    continue;
                }
                let spent = budget == 0;
                let text = match spent {
                    true => format!("[more, in {}]", file_name(&path)),
                    false => {
                        let take = (to - from).min(PER_FRAME).min(budget);
                        budget -= take;
                        part(&mut file, from, take, to - from, &path)
                    }
                };
                let words = by_frame.entry(frame).or_default().entry(s).or_default();
                if !words.is_empty() && !words.ends_with('\n') {
                    words.push('\n');
                }
                words.push_str(&text);
                if spent {
                    break;
                }
            }
        }
        by_frame
    }
}

/// `take` bytes of the file from `from`, of a part `whole` bytes long, saying where the rest is.
/// A cut never splits a character.
fn part(file: &mut std::fs::File, from: u64, take: u64, whole: u64, path: &Path) -> String {
    let Ok(mut bytes) = read_at(file, from, take) else {
        return String::new();
    };
    if whole > take
        && let Err(e) = std::str::from_utf8(&bytes)
        && e.error_len().is_none()
    {
        bytes.truncate(e.valid_up_to());
    }
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if whole > bytes.len() as u64 {
        text.push_str(&format!(
            "\n[{} bytes more, in {}]",
            whole - bytes.len() as u64,
            file_name(path)
        ));
    }
    text
}

/// Up to `take` bytes of the file from `from`.
pub(super) fn read_at(
    file: &mut std::fs::File,
    from: u64,
    take: u64,
) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(from))?;
    file.take(take).read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(i: usize) -> Seat {
        Seat::new(i).unwrap()
    }

    /// Two seats' files and marks: each part goes to the frame made after its mark, what follows
    /// the last mark to the last frame, and a seat past its budget is pointed at its file.
    #[test]
    fn words_go_to_the_frame_after_their_mark_and_the_rest_to_the_last() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game-1.jsonl");
        std::fs::write(stderr_path(&log, seat(0)), "one\ntwo\nlast words\n").unwrap();
        std::fs::write(stderr_path(&log, seat(1)), "x".repeat(40_000)).unwrap();
        let mut said = StderrByFrame::new(2, true);
        said.mark(0, 4);
        said.made(0);
        said.made(1); // frame 1
        said.made(1); // frame 2: nothing new
        said.mark(0, 8);
        said.mark(1, 30_000);
        said.made(2); // frames 3 and 4: the marks go to 3
        let got = said.read(&log, |p| p.exists());
        assert_eq!(got[&1][&0], "one\n");
        assert!(!got.contains_key(&2));
        assert_eq!(got[&3][&0], "two\n");
        assert_eq!(got[&4][&0], "last words\n");
        let first = &got[&3][&1];
        assert!(first.starts_with(&"x".repeat(2048)), "{first:.80}");
        assert!(first.ends_with("[27952 bytes more, in game-1.seat1.stderr]"));
        assert_eq!(got[&4][&1], "x".repeat(2048) + "\n[7952 bytes more, in game-1.seat1.stderr]");
    }

    /// A cut backs off to a character's start; parts that meet in one frame are lines apart; a
    /// log from before marks shows nothing by frame.
    #[test]
    fn cuts_keep_characters_whole_and_parts_apart() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game-3.jsonl");
        let text = format!("{}日本語 and more", "a".repeat(2047));
        std::fs::write(stderr_path(&log, seat(0)), &text).unwrap();
        let mut said = StderrByFrame::new(1, true);
        said.mark(0, 2060);
        said.made(1);
        let got = said.read(&log, |p| p.exists());
        let cut = format!("{}\n[{} bytes more, in game-3.seat0.stderr]\n", "a".repeat(2047), 2060 - 2047);
        assert_eq!(got[&1][&0], cut + &text[2060..]);
        let old = StderrByFrame::new(1, false);
        assert!(old.read(&log, |p| p.exists()).is_empty());
    }

    #[test]
    fn a_seat_past_its_budget_is_pointed_at_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game-2.jsonl");
        std::fs::write(stderr_path(&log, seat(0)), "y".repeat(20 * 1024)).unwrap();
        let mut said = StderrByFrame::new(1, true);
        for k in 1..=10 {
            said.mark(0, k * 2048);
            said.made(1);
        }
        let got = said.read(&log, |p| p.exists());
        assert_eq!(got[&8][&0], "y".repeat(2048));
        assert_eq!(got[&9][&0], "[more, in game-2.seat0.stderr]");
        assert_eq!(got.len(), 9, "one note where the budget ran out, then nothing");
    }
}
