//! The game log: one JSON object per line. A header, then every line sent and received with its
//! seat and the time in microseconds since the game started, the spectator stream, failures and
//! exits, and the result last. `arena replay` reads it back.

use std::borrow::Cow;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::games::{Outbox, Params, Seat, Seating};
use crate::failure::{Cause, Fault, FaultKind};

fn is_refused(cause: &Cause) -> bool {
    *cause == Cause::Refused
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlayerInfo {
    pub name: String,
    pub bot: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Header {
    pub game: String,
    pub params: Params,
    pub seed: u64,
    pub players: Vec<PlayerInfo>,
    /// When the game started, RFC 3339 in UTC.
    pub start: String,
    /// The same, in milliseconds since the Unix epoch: the games' clock is this plus `t`.
    #[serde(default)]
    pub start_ms: u64,
    pub timeout: f64,
    pub startup_timeout: f64,
    pub arena: String,
    /// The position the game started from, when not the usual start (an opening).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    /// The referee program that played the game, for a game of `referee`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<RefereeInfo>,
    /// The log marks how far each bot's stderr reached by its answers (`Entry::Stderr`): the
    /// report then shows a bot's words by move. Absent from older logs, whose stderr is shown
    /// whole only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stderr_marks: bool,
}

/// A referee program as a log records it: enough to start it again for `arena replay`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RefereeInfo {
    /// The command as it was given.
    pub command: String,
    /// The program and its arguments, paths made absolute.
    pub argv: Vec<String>,
    pub timeout: f64,
    pub startup_timeout: f64,
    /// The turns its game might have; absent from logs made before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
    /// The longest line it might write, in bytes; logs made before it was recorded were played
    /// with the default.
    #[serde(default = "default_max_line")]
    pub max_line: usize,
}

fn default_max_line() -> usize {
    crate::bot::process::IoLimits::default().max_line
}

impl RefereeInfo {
    /// What is wrong with it, if arena could not have written it: `argv` is `command`'s words
    /// with the program found and paths made absolute (each word, or a path ending in it), and
    /// its numbers are within the bounds of `--referee`'s options. A log is data and its argv is
    /// never run (replay runs the user's `--referee`), but a command that says one program while
    /// the argv names another is how a forged log would pass for a harmless one.
    pub fn check(&self) -> std::result::Result<(), String> {
        let words = shell_words::split(&self.command).unwrap_or_default();
        let agree = !words.is_empty()
            && words.len() == self.argv.len()
            && words
                .iter()
                .zip(&self.argv)
                .all(|(w, a)| a == w || a.ends_with(&format!("/{w}")));
        if !agree {
            return Err(format!(
                "the referee's command \"{}\" is not what its argv runs ({}): the log was \
                 edited (forged or corrupt)",
                self.command,
                crate::bot::shell_line(&self.argv)
            ));
        }
        for (key, secs) in [
            ("timeout", self.timeout),
            ("startup_timeout", self.startup_timeout),
        ] {
            crate::games::move_time(secs).map_err(|e| format!("the referee's {key} {e}"))?;
        }
        use super::program::{MAX_BYTES, RefereeProgram};
        let turns = self.max_turns.map_or(1, i64::from);
        if !(1..=RefereeProgram::MAX_TURNS_BOUND).contains(&turns) {
            return Err(format!(
                "the referee's max_turns must be from 1 to {}, not {turns}",
                RefereeProgram::MAX_TURNS_BOUND
            ));
        }
        if !(1..=MAX_BYTES as usize).contains(&self.max_line) {
            return Err(format!(
                "the referee's max_line must be from 1 to {MAX_BYTES} bytes, not {}",
                self.max_line
            ));
        }
        Ok(())
    }
}

/// The games' clock at `t` microseconds into a game that started at `start_ms`.
pub fn clock(start_ms: u64, t: u64) -> u64 {
    start_ms + t / 1000
}

/// One line of the log, told apart by its keys. Written untagged; read through `Keys`.
///
/// Seats are kept as the numbers the log holds, not as `Seat`: an edited log may name any
/// number, and `Recorded::read` refuses those with its own message, naming the line.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Entry<'a> {
    Header {
        header: Box<Header>,
    },
    Sent {
        t: u64,
        to: usize,
        line: Cow<'a, str>,
    },
    Received {
        t: u64,
        from: usize,
        line: Cow<'a, str>,
    },
    Spectators {
        t: u64,
        spectators: Cow<'a, str>,
    },
    Fault {
        t: u64,
        fault: usize,
        kind: FaultKind,
        detail: Cow<'a, str>,
        /// Absent in logs from before causes were kept: the game's refusal, as then.
        #[serde(skip_serializing_if = "is_refused")]
        cause: Cause,
        #[serde(skip_serializing_if = "Option::is_none")]
        at_move: Option<u32>,
        /// Said again, plainly, of a seat already failed: a bot whose first answer was refused
        /// and that then exited failing on its own had not started (`referee::restate_early`).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        restated: bool,
    },
    Exit {
        t: u64,
        exit: usize,
        status: Cow<'a, str>,
    },
    /// How far into its stderr file (`seat{N}.stderr`) a seat's bot had written by the entry
    /// that follows (its answer, or its failure): what it wrote since its last mark is shown at
    /// that move. Written only for a bot that writes to stderr; absent from older logs.
    Stderr {
        t: u64,
        stderr: usize,
        upto: u64,
    },
    /// A line arena wrote to the referee program.
    ToReferee {
        t: u64,
        to_referee: Cow<'a, str>,
    },
    /// A line the referee program wrote.
    FromReferee {
        t: u64,
        referee: Cow<'a, str>,
    },
    /// The referee program failed: the game counts for no one.
    RefereeFault {
        t: u64,
        referee_fault: Cow<'a, str>,
        kind: FaultKind,
        #[serde(skip_serializing_if = "is_refused")]
        cause: Cause,
    },
    RefereeExit {
        t: u64,
        referee_exit: Cow<'a, str>,
    },
    Result {
        result: serde_json::Value,
    },
}

/// Every key a log line may have. Reading these and then looking at which are there is several
/// times cheaper than what `untagged` does (buffer the line, then try each variant in turn,
/// formatting an error for each miss), and reading logs is most of the cost of a report.
#[derive(Deserialize)]
struct Keys<'a> {
    header: Option<Box<Header>>,
    t: Option<u64>,
    to: Option<usize>,
    from: Option<usize>,
    #[serde(borrow)]
    line: Option<Text<'a>>,
    #[serde(borrow)]
    spectators: Option<Text<'a>>,
    fault: Option<usize>,
    kind: Option<FaultKind>,
    #[serde(borrow)]
    detail: Option<Text<'a>>,
    cause: Option<Cause>,
    at_move: Option<u32>,
    restated: Option<bool>,
    exit: Option<usize>,
    #[serde(borrow)]
    status: Option<Text<'a>>,
    stderr: Option<usize>,
    upto: Option<u64>,
    #[serde(borrow)]
    to_referee: Option<Text<'a>>,
    #[serde(borrow)]
    referee: Option<Text<'a>>,
    #[serde(borrow)]
    referee_fault: Option<Text<'a>>,
    #[serde(borrow)]
    referee_exit: Option<Text<'a>>,
    result: Option<serde_json::Value>,
}

/// A string of a log line, borrowed from the line where it has no escapes. (serde's own
/// `Cow<str>` always copies, and inside an `Option` `#[serde(borrow)]` cannot reach it; a long
/// game's log is tens of thousands of lines.)
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_str(Visit)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Entry<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let k = Keys::deserialize(d)?;
        Ok(match k {
            Keys {
                header: Some(header),
                ..
            } => Entry::Header { header },
            Keys {
                t: Some(t),
                to: Some(to),
                line: Some(line),
                ..
            } => Entry::Sent {
                t,
                to,
                line: line.0,
            },
            Keys {
                t: Some(t),
                from: Some(from),
                line: Some(line),
                ..
            } => Entry::Received {
                t,
                from,
                line: line.0,
            },
            Keys {
                t: Some(t),
                spectators: Some(spectators),
                ..
            } => Entry::Spectators {
                t,
                spectators: spectators.0,
            },
            Keys {
                t: Some(t),
                fault: Some(fault),
                kind: Some(kind),
                detail: Some(detail),
                cause,
                at_move,
                restated,
                ..
            } => Entry::Fault {
                t,
                fault,
                kind,
                detail: detail.0,
                cause: cause.unwrap_or_default(),
                at_move,
                restated: restated.unwrap_or(false),
            },
            Keys {
                t: Some(t),
                exit: Some(exit),
                status: Some(status),
                ..
            } => Entry::Exit {
                t,
                exit,
                status: status.0,
            },
            Keys {
                t: Some(t),
                stderr: Some(stderr),
                upto: Some(upto),
                ..
            } => Entry::Stderr { t, stderr, upto },
            k => return referee_entry(k).ok_or_else(|| {
                serde::de::Error::custom(
                    "not a log entry: no header, message, fault, exit, stderr or result keys",
                )
            }),
        })
    }
}

/// An entry about the referee program, or the result, if the keys are one's.
fn referee_entry(k: Keys<'_>) -> Option<Entry<'_>> {
    Some(match k {
        Keys {
            t: Some(t),
            to_referee: Some(line),
            ..
        } => Entry::ToReferee {
            t,
            to_referee: line.0,
        },
        Keys {
            t: Some(t),
            referee: Some(line),
            ..
        } => Entry::FromReferee { t, referee: line.0 },
        Keys {
            t: Some(t),
            referee_fault: Some(detail),
            kind: Some(kind),
            cause,
            ..
        } => Entry::RefereeFault {
            t,
            referee_fault: detail.0,
            kind,
            cause: cause.unwrap_or_default(),
        },
        Keys {
            t: Some(t),
            referee_exit: Some(status),
            ..
        } => Entry::RefereeExit {
            t,
            referee_exit: status.0,
        },
        Keys {
            result: Some(result),
            ..
        } => Entry::Result { result },
        _ => return None,
    })
}

/// Sees every byte of a game log as it goes to the file: the report's live packers
/// (`report::live`), which then have the game drawn by the time it ends.
pub trait Tap: Send + Sync {
    fn bytes(&mut self, bytes: &[u8]);
    /// The log is whole, its result written, and the bots' stderr is in its files.
    fn whole(self: Box<Self>);
}

/// The log's file, and what sees its bytes.
struct LogFile {
    file: File,
    tap: Option<Box<dyn Tap>>,
}

impl Write for LogFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        if let Some(tap) = &mut self.tap {
            tap.bytes(&buf[..n]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Small: every running game holds one (64 KiB was a third of arena's memory per game, 8 KiB
/// still a sixth; bench/sdk.sh), and a write per 4 KiB of log costs little beside the pipe
/// rounds of the moves it holds (40 to 80 of them).
pub const LOG_BUFFER: usize = 4 * 1024;

/// A buffer's room when it is made: it grows to `LOG_BUFFER` only in a game whose entries come
/// faster than they are written out. A game whose bots think lets it go at each wait and holds
/// only the few entries of a turn (4 KiB a game, before, among many games at once: bench/sdk.sh).
const LOG_BUFFER_START: usize = 256;

/// How long a game's log may keep unwritten bytes in memory while it waits (`GameLog::waiting`).
const HOLD_US: u64 = 1_000;

/// The log's bytes on their way to its file: as `BufWriter`, but the buffer is let go while the
/// game waits long (`GameLog::waiting`), where `BufWriter` holds its room for the whole game.
struct LogOut {
    file: LogFile,
    buf: Vec<u8>,
    /// The log's start, and when the buffer was last written out, in microseconds since.
    t0: Instant,
    written_at: u64,
}

impl LogOut {
    /// Microseconds since the log's start.
    fn micros(&self) -> u64 {
        self.t0.elapsed().as_micros() as u64
    }

    fn write_out(&mut self, now: u64) -> std::io::Result<()> {
        self.written_at = now;
        if self.buf.is_empty() {
            return Ok(());
        }
        let r = self.file.write_all(&self.buf);
        self.buf.clear();
        if self.buf.capacity() > 2 * LOG_BUFFER {
            // An entry far longer than most: its room is not kept for the rest.
            self.buf = Vec::new();
        }
        r
    }
}

impl Write for LogOut {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.buf.capacity() == 0 {
            self.buf.reserve(LOG_BUFFER_START.max(bytes.len()));
        }
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= LOG_BUFFER {
            self.write_out(self.micros())?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write_out(self.micros())?;
        self.file.flush()
    }
}

pub struct GameLog {
    out: LogOut,
    path: String,
    /// The first write error; the game goes on, and the error is reported at the end.
    error: Option<std::io::Error>,
}

impl GameLog {
    /// A new log, and whether one was there already: the game is being played again (a resumed
    /// run, or a duel into the same folder), and what its last attempt left beside it is stale.
    pub fn create(
        path: &Path,
        header: Header,
        tap: Option<Box<dyn Tap>>,
    ) -> Result<(GameLog, bool)> {
        // Made anew: a link planted under its name is removed, never written through.
        let (file, again) = crate::files::create_anew(path)
            .map_err(Error::io(format!("creating {}", path.display())))?;
        let mut log = GameLog {
            out: LogOut {
                file: LogFile { file, tap },
                buf: Vec::new(),
                t0: Instant::now(),
                written_at: 0,
            },
            path: path.display().to_string(),
            error: None,
        };
        log.write(&Entry::Header {
            header: Box::new(header),
        });
        Ok((log, again))
    }

    pub fn micros(&self) -> u64 {
        self.out.micros()
    }

    /// The game is about to wait for a bot or its referee. A game whose waits are long (its
    /// bytes held a millisecond or more since they were last written) writes them now and holds
    /// no buffer while it waits: hundreds of SDK games at once, each waiting for a JVM or a bot
    /// that thinks, held 4 KiB each for nothing (bench/README.md, issue 43). A game whose bots
    /// answer in microseconds fills its buffer first, and writes no more often than before.
    pub fn waiting(&mut self) {
        if self.out.buf.capacity() > 0 {
            self.waiting_at(self.micros());
        }
    }

    /// `waiting`, at `now` in the log's microseconds.
    fn waiting_at(&mut self, now: u64) {
        if self.out.buf.capacity() == 0 || self.error.is_some() {
            return;
        }
        if now.saturating_sub(self.out.written_at) < HOLD_US {
            return;
        }
        if let Err(e) = self.out.write_out(now) {
            self.error = Some(e);
        }
        self.out.buf = Vec::new();
    }

    fn write(&mut self, entry: &Entry) {
        if self.error.is_some() {
            return;
        }
        // One line for any reader, whatever line breaks a bot's line held.
        let r = crate::games::line_breaks::write_json(&mut self.out, entry)
            .map_err(std::io::Error::from)
            .and_then(|_| self.out.write_all(b"\n"));
        if let Err(e) = r {
            self.error = Some(e);
        }
    }

    pub fn sent(&mut self, seat: Seat, line: &str) {
        let t = self.micros();
        self.write_text(t, Some(("to", seat.index())), "line", line);
    }

    /// Returns the time logged, in microseconds since the start.
    pub fn received(&mut self, seat: Seat, line: &str) -> u64 {
        let t = self.micros();
        self.write_text(t, Some(("from", seat.index())), "line", line);
        t
    }

    /// An entry of a time, maybe a seat, and a line: a move (`Entry::Sent`, `Entry::Received`)
    /// or a line to or from a referee program (`Entry::ToReferee`, `Entry::FromReferee`), byte
    /// for byte as serde writes it (`line_entries_are_what_serde_writes`), without its
    /// serializer's walk of the entry. These are nearly every line of a log: two a round, or
    /// four of a referee program's six a turn (bench/README.md, issue 45). The line goes
    /// through the same escaping as every entry's text.
    fn write_text(&mut self, t: u64, seat: Option<(&str, usize)>, key: &str, line: &str) {
        if self.error.is_some() {
            return;
        }
        let out = &mut self.out;
        let r = write!(out, "{{\"t\":{t}")
            .and_then(|()| match seat {
                Some((role, seat)) => write!(out, ",\"{role}\":{seat}"),
                None => Ok(()),
            })
            .and_then(|()| write!(out, ",\"{key}\":"))
            .and_then(|()| {
                crate::games::line_breaks::write_json(&mut *out, line).map_err(std::io::Error::from)
            })
            .and_then(|()| out.write_all(b"}\n"));
        if let Err(e) = r {
            self.error = Some(e);
        }
    }

    pub fn spectators(&mut self, line: &str) {
        let t = self.micros();
        self.write(&Entry::Spectators {
            t,
            spectators: Cow::Borrowed(line),
        });
    }

    /// Returns the time logged, in microseconds since the start.
    pub fn fault(&mut self, seat: Seat, fault: &Fault) -> u64 {
        self.write_fault(seat, fault, false)
    }

    /// A seat's failure said again, plainly (see `Entry::Fault`).
    pub fn restated_fault(&mut self, seat: Seat, fault: &Fault) -> u64 {
        self.write_fault(seat, fault, true)
    }

    fn write_fault(&mut self, seat: Seat, fault: &Fault, restated: bool) -> u64 {
        let t = self.micros();
        self.write(&Entry::Fault {
            t,
            fault: seat.index(),
            kind: fault.kind,
            detail: Cow::Borrowed(&fault.detail),
            cause: fault.cause,
            at_move: fault.at_move,
            restated,
        });
        t
    }

    /// How far into its stderr file a seat's bot had written, before its answer or failure, if
    /// further than at its last mark (`Connection::stderr_mark`).
    pub fn stderr(&mut self, seat: Seat, upto: Option<u64>) {
        let Some(upto) = upto else {
            return;
        };
        let t = self.micros();
        self.write(&Entry::Stderr {
            t,
            stderr: seat.index(),
            upto,
        });
    }

    pub fn exit(&mut self, seat: Seat, status: &str) {
        let t = self.micros();
        self.write(&Entry::Exit {
            t,
            exit: seat.index(),
            status: Cow::Borrowed(status),
        });
    }

    pub fn to_referee(&mut self, line: &str) {
        let t = self.micros();
        self.write_text(t, None, "to_referee", line);
    }

    /// Returns the time logged, in microseconds since the start.
    pub fn from_referee(&mut self, line: &str) -> u64 {
        let t = self.micros();
        self.write_text(t, None, "referee", line);
        t
    }

    pub fn referee_fault(&mut self, fault: &Fault) {
        let t = self.micros();
        self.write(&Entry::RefereeFault {
            t,
            referee_fault: Cow::Borrowed(&fault.detail),
            kind: fault.kind,
            cause: fault.cause,
        });
    }

    pub fn referee_exit(&mut self, status: &str) {
        let t = self.micros();
        self.write(&Entry::RefereeExit {
            t,
            referee_exit: Cow::Borrowed(status),
        });
    }

    /// Write the result and make the whole log durable.
    pub fn finish(self, result: serde_json::Value) -> Result<()> {
        sync_all(vec![self.complete(result)?])
    }

    /// Write the result and flush: the log is whole, but perhaps not yet on disk.
    fn complete(mut self, result: serde_json::Value) -> Result<GameLog> {
        self.write(&Entry::Result { result });
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
        match self.error.take() {
            None => {
                if let Some(tap) = self.out.file.tap.take() {
                    tap.whole();
                }
                Ok(self)
            }
            Some(e) => Err(self.failed(e)),
        }
    }

    fn failed(&self, source: std::io::Error) -> Error {
        Error::Io {
            context: format!("writing the game log {}", self.path),
            source,
        }
    }
}

/// Write each game's result into its log and make all the logs durable.
///
/// A few logs are synced one by one. From `ONE_PASS` on, one `syncfs` per file system writes
/// them all in one pass of the disk, their new directory entries with them; on an unjournaled
/// ext4 that took a third of the CPU and a quarter of the time of a sync per log. It also writes
/// whatever else on that file system is waiting, which is why a lone log does not use it. (It
/// reports write errors since Linux 5.8; before, only the per-file sync did.)
pub fn finish_all(logs: Vec<(GameLog, serde_json::Value)>) -> Result<()> {
    let logs = logs
        .into_iter()
        .map(|(log, result)| log.complete(result))
        .collect::<Result<Vec<_>>>()?;
    sync_all(logs)
}

const ONE_PASS: usize = 3;

fn sync_all(logs: Vec<GameLog>) -> Result<()> {
    if logs.len() < ONE_PASS {
        return logs.iter().try_for_each(|log| {
            log.out
                .file
                .file
                .sync_data()
                .map_err(|e| log.failed(e))
        });
    }
    let mut devices: Vec<u64> = Vec::new();
    for log in &logs {
        let file = &log.out.file.file;
        let dev = file.metadata().map_err(|e| log.failed(e))?.dev();
        if !devices.contains(&dev) {
            devices.push(dev);
            nix::unistd::syncfs(file).map_err(|e| log.failed(e.into()))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Reading a log back, for `arena replay` and the report's viewer.

/// The header of the game log at `path` in a results folder's `logs`, from its first line
/// alone: a long game's log is megabytes, and its header is all that says which game it is.
pub fn read_header(path: &Path) -> Result<Header> {
    use std::io::Read;
    // No header is near this long: a forged first line must not fill the memory.
    const LONGEST: u64 = 1 << 20;
    let file = crate::files::open_log_file(path)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(file.take(LONGEST)), &mut first)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    parse_header(
        path,
        (!first.is_empty()).then_some(first.trim_end_matches('\n')),
    )
}

pub fn parse_header(path: &Path, first: Option<&str>) -> Result<Header> {
    let bad = |what: &str| Error::Corrupt(format!("{}:1: {what}", path.display()));
    match first.map(serde_json::from_str::<Entry>) {
        Some(Ok(Entry::Header { header })) => Ok(*header),
        Some(Err(e)) => Err(bad(&e.to_string())),
        _ => Err(bad("not an arena game log: the first line is not a header")),
    }
}

/// A game log read back: its header and entries, and the game it records set up as it started.
pub struct Recorded<'a> {
    pub header: Header,
    pub names: Vec<String>,
    /// Every entry after the header, with its line number.
    pub entries: Vec<(usize, Entry<'a>)>,
    pub judge: super::Judge,
    /// What the game sent as it started.
    pub out: Outbox,
}

impl<'a> Recorded<'a> {
    /// Read a log's text; errors name the file and line.
    pub fn read(path: &Path, text: &'a str) -> Result<Recorded<'a>> {
        let mut lines = text.lines().enumerate();
        let header = parse_header(path, lines.next().map(|(_, l)| l))?;
        let entries = lines
            .map(|(n, line)| {
                parse_entry(path, n + 1, line, header.players.len()).map(|e| (n + 1, e))
            })
            .collect::<Result<Vec<_>>>()?;
        let Started { names, judge, out } = Started::new(path, &header)?;
        Ok(Recorded {
            header,
            names,
            entries,
            judge,
            out,
        })
    }
}

/// One line after the header of a game of `players`, numbered `n` in the file at `path`; errors
/// name both.
pub fn parse_entry<'a>(path: &Path, n: usize, line: &'a str, players: usize) -> Result<Entry<'a>> {
    let bad = |what: &str| Error::Corrupt(format!("{}:{n}: {what}", path.display()));
    let e: Entry = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
    // A seat beyond the game's was never written by arena: an edited log.
    let seat = match &e {
        Entry::Sent { to: s, .. }
        | Entry::Received { from: s, .. }
        | Entry::Fault { fault: s, .. }
        | Entry::Exit { exit: s, .. }
        | Entry::Stderr { stderr: s, .. } => Some(*s),
        _ => None,
    };
    match seat.filter(|&s| s >= players) {
        Some(s) => Err(bad(&format!(
            "seat {s} does not exist: the game has seats 0 to {}",
            players.saturating_sub(1)
        ))),
        None => Ok(e),
    }
}

/// The game a log's header describes, set up as it started.
pub struct Started {
    pub names: Vec<String>,
    pub judge: super::Judge,
    /// What the game sent as it started.
    pub out: Outbox,
}

impl Started {
    /// Errors name the header's line of the log at `path`.
    pub fn new(path: &Path, header: &Header) -> Result<Started> {
        let bad = |what: &str| Error::Corrupt(format!("{}:1: {what}", path.display()));
        let game = crate::games::find_game(&header.game).map_err(|e| bad(&e))?;
        let pairs = header.params.clone().recorded(game.params).pairs();
        let params = Params::resolve(
            game.params,
            pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )
        .map_err(|e| bad(&e))?;
        let n = header.players.len();
        if !game.players.contains(&n) {
            return Err(bad(&format!(
                "the log names {n} players, and {} is played by {}",
                game.name,
                game.players_text()
            )));
        }
        if let Some(referee) = &header.referee {
            referee.check().map_err(|e| bad(&e))?;
        }
        let names: Vec<String> = header.players.iter().map(|p| p.name.clone()).collect();
        let seating = Seating {
            names: names.clone(),
            seed: header.seed,
            timeout: header.timeout,
            opening: header.opening.clone(),
        };
        let game = game.new_game(&params, &seating).map_err(|e| bad(&e))?;
        let mut judge = super::Judge::new(game, n);
        let mut out = Outbox {
            now_ms: header.start_ms,
            ..Outbox::default()
        };
        judge.start(&mut out);
        Ok(Started { names, judge, out })
    }
}

/// Give one logged entry to the judge as the referee did: a bot's line or a failure, or a line or
/// failure of a referee program, at the logged time. Returns whether the entry was one of those.
pub fn apply(judge: &mut super::Judge, start_ms: u64, entry: &Entry, out: &mut Outbox) -> bool {
    match entry {
        Entry::Received { t, from, line } => {
            let Some(seat) = judge.seat(*from) else {
                return false;
            };
            out.now_ms = clock(start_ms, *t);
            let _ = judge.line(seat, line, out);
            true
        }
        // A refused line was already judged a fault when it was replayed.
        Entry::Fault {
            t,
            fault,
            kind,
            detail,
            cause,
            at_move,
            restated,
        } => {
            let Some(seat) = judge.seat(*fault) else {
                return false;
            };
            let mut f = Fault::new(*kind, detail.to_string()).because(*cause);
            f.at_move = *at_move;
            if *restated {
                judge.restate(seat, f);
                return true;
            }
            if judge.has_failed(seat) {
                return false;
            }
            out.now_ms = clock(start_ms, *t);
            judge.fault(seat, f, out);
            true
        }
        Entry::FromReferee { t, referee } => {
            out.now_ms = clock(start_ms, *t);
            let _ = judge.referee_line(referee, out);
            true
        }
        Entry::RefereeFault {
            referee_fault,
            kind,
            cause,
            ..
        } => {
            judge.referee_failed(Fault::new(*kind, referee_fault.to_string()).because(*cause));
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            game: "roshambo".into(),
            params: Params::default(),
            seed: 1,
            players: vec![],
            start: String::new(),
            start_ms: 0,
            timeout: 1.0,
            startup_timeout: 1.0,
            arena: String::new(),
            opening: None,
            referee: None,
            stderr_marks: true,
        }
    }

    /// Every kind of line reads back as what was written, escapes and all; a line with none of
    /// the keys is an error that says so.
    #[test]
    fn every_entry_reads_back_as_written() {
        let line = |s: &str| Cow::Owned(s.to_string());
        let entries = [
            Entry::Header {
                header: Box::new(header()),
            },
            Entry::Sent {
                t: 1,
                to: 1,
                line: line("say \"hi\"\\"),
            },
            Entry::Received {
                t: 2,
                from: 0,
                line: line("ROCK"),
            },
            Entry::Spectators {
                t: 3,
                spectators: line(""),
            },
            Entry::Fault {
                t: 4,
                fault: 1,
                kind: FaultKind::Illegal,
                detail: line("e9 is off the board"),
                cause: Cause::Refused,
                at_move: None,
                restated: false,
            },
            Entry::Fault {
                t: 4,
                fault: 0,
                kind: FaultKind::Crash,
                detail: line("exited with status 3 at move 2"),
                cause: Cause::Exited(crate::failure::Exit::Status(3)),
                at_move: Some(2),
                restated: false,
            },
            Entry::Exit {
                t: 5,
                exit: 0,
                status: line("exited with status 0"),
            },
            Entry::Stderr {
                t: 5,
                stderr: 1,
                upto: 4096,
            },
            Entry::ToReferee {
                t: 6,
                to_referee: line("###Start 2"),
            },
            Entry::FromReferee {
                t: 7,
                referee: line("###Output 0 1"),
            },
            Entry::RefereeFault {
                t: 8,
                referee_fault: line("timed out after 10 s"),
                kind: FaultKind::Timeout,
                cause: Cause::Late,
            },
            Entry::RefereeExit {
                t: 9,
                referee_exit: line("exited with status 1"),
            },
            Entry::Result {
                result: serde_json::json!({"scores": [1.0, 0.0]}),
            },
        ];
        for entry in &entries {
            let text = serde_json::to_string(entry).unwrap();
            let back: Entry = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), text);
            assert_eq!(
                std::mem::discriminant(&back),
                std::mem::discriminant(entry),
                "{text}"
            );
        }
        let err = serde_json::from_str::<Entry>(r#"{"t":1,"line":"x"}"#).unwrap_err();
        assert!(err.to_string().contains("not a log entry"), "{err}");
    }

    /// The entries written by hand (moves, a referee program's lines) are serde's, whatever the
    /// line holds.
    #[test]
    fn line_entries_are_what_serde_writes() {
        let dir = tempfile::tempdir().unwrap();
        let lines = [
            "ROCK",
            "",
            "say \"hi\" \\ /",
            "tab\tcr\rnul\u{0}del\u{7f}",
            "é 😀 \u{85} \u{2028} \u{2029}",
            "{\"json\": [1, 2]}",
        ];
        let path = dir.path().join("game.jsonl");
        let (mut log, _) = GameLog::create(&path, header(), None).unwrap();
        let mut expected = String::new();
        for (i, line) in lines.iter().enumerate() {
            let seat = Seat::new(i % 2).unwrap();
            log.sent(seat, line);
            log.received(seat, line);
            log.to_referee(line);
            log.from_referee(line);
            for entry in [
                Entry::Sent { t: 0, to: i % 2, line: Cow::Borrowed(line) },
                Entry::Received { t: 0, from: i % 2, line: Cow::Borrowed(line) },
                Entry::ToReferee { t: 0, to_referee: Cow::Borrowed(line) },
                Entry::FromReferee { t: 0, referee: Cow::Borrowed(line) },
            ] {
                expected.push_str(&crate::games::line_breaks::json(&entry));
                expected.push('\n');
            }
        }
        log.finish(serde_json::json!({})).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // The times differ; everything else is the same.
        let untimed = |l: &str| {
            let rest = l.strip_prefix("{\"t\":").unwrap();
            rest[rest.find(',').unwrap()..].to_string()
        };
        let written: Vec<String> = text.lines().skip(1).take(4 * lines.len()).map(untimed).collect();
        let wanted: Vec<String> = expected.lines().map(untimed).collect();
        assert_eq!(written, wanted);
    }

    /// A report reads every line of every log: a line's text is the log's own, not a copy,
    /// unless it had escapes to undo.
    #[test]
    fn text_without_escapes_is_borrowed_from_the_log() {
        let plain = r#"{"t":1,"from":0,"line":"ROCK"}"#;
        let escaped = r#"{"t":1,"from":0,"line":"say \"hi\""}"#;
        match serde_json::from_str::<Entry>(plain).unwrap() {
            Entry::Received { line, .. } => assert!(matches!(line, Cow::Borrowed("ROCK"))),
            other => panic!("{other:?}"),
        }
        match serde_json::from_str::<Entry>(escaped).unwrap() {
            Entry::Received { line, .. } => assert_eq!(line, r#"say "hi""#),
            other => panic!("{other:?}"),
        }
    }

    /// Both ways of making logs durable (one sync each, or one pass of the file system) leave
    /// every log whole: its lines, then the result last.
    #[test]
    fn logs_finished_alone_or_together_end_with_their_result() {
        let dir = tempfile::tempdir().unwrap();
        for n in [1, ONE_PASS - 1, ONE_PASS, 2 * ONE_PASS] {
            let logs = (0..n)
                .map(|i| {
                    let path = dir.path().join(format!("{n}-{i}.jsonl"));
                    let (mut log, _) = GameLog::create(&path, header(), None).unwrap();
                    log.sent(Seat::FIRST, "ROCK");
                    (log, serde_json::json!({ "game": i }))
                })
                .collect();
            finish_all(logs).unwrap();
            for i in 0..n {
                let text =
                    std::fs::read_to_string(dir.path().join(format!("{n}-{i}.jsonl"))).unwrap();
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(lines.len(), 3, "{text}");
                assert!(lines[1].contains("ROCK"), "{text}");
                assert_eq!(lines[2], format!(r#"{{"result":{{"game":{i}}}}}"#));
            }
        }
    }

    /// A game that waits long writes what it has and holds no buffer meanwhile; one that waits
    /// briefly keeps its bytes until its buffer fills. Either way the log is the same, in order.
    #[test]
    fn a_game_waiting_long_writes_its_bytes_and_holds_no_buffer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.jsonl");
        let (mut log, _) = GameLog::create(&path, header(), None).unwrap();
        log.sent(Seat::FIRST, "ROCK");
        let since = log.out.written_at;
        log.waiting_at(since + HOLD_US - 1);
        assert!(log.out.buf.capacity() > 0, "a brief wait keeps the buffer");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        log.waiting_at(since + HOLD_US);
        assert_eq!(log.out.buf.capacity(), 0, "a long wait lets the buffer go");
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
        // Filled past its size, the buffer is written out whatever the waits.
        let long = "P".repeat(LOG_BUFFER);
        log.received(Seat::new(1).unwrap(), &long);
        assert!(std::fs::metadata(&path).unwrap().len() > LOG_BUFFER as u64);
        log.sent(Seat::FIRST, "PAPER");
        log.finish(serde_json::json!({"game": 1})).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[1].contains("ROCK") && lines[2].contains(&long) && lines[3].contains("PAPER"));
    }

    /// A forged stderr mark is refused with its line, as any entry naming a seat the game does
    /// not have; one that is not a number is not an entry.
    #[test]
    fn a_forged_stderr_mark_is_refused_with_its_line() {
        let path = Path::new("logs/game-00001.jsonl");
        let ok = parse_entry(path, 3, r#"{"t":1,"stderr":1,"upto":12}"#, 2).unwrap();
        assert!(matches!(ok, Entry::Stderr { stderr: 1, upto: 12, .. }));
        let e = parse_entry(path, 3, r#"{"t":1,"stderr":2,"upto":12}"#, 2).unwrap_err();
        assert!(e.to_string().contains("game-00001.jsonl:3: seat 2 does not exist"), "{e}");
        let e = parse_entry(path, 4, r#"{"t":1,"stderr":0,"upto":-5}"#, 2).unwrap_err();
        assert!(e.to_string().contains("game-00001.jsonl:4: "), "{e}");
    }
}
