//! The words of failure, below both the bots and the games: how a bot's output is cut into
//! messages (`Framing`), why a seat failed (`FaultKind`, with its facts: `Cause`, `Exit`, and a
//! sentence: `Fault`), and why a game ended (`Reason`). The bot layer reports them, the games
//! raise them, the referee judges by them, and the tables and `arena check` word them.

/// How a game's messages are delimited on a bot's output: a game says, the bot layer cuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framing {
    /// One message per line.
    #[default]
    Lines,
    /// One JSON value per message, a newline after it or not.
    Json,
    /// One message per line, a line ended by `\n`, `\r` or `\r\n`: as CodinGame's game-engine
    /// SDK reads its players.
    AnyLineEnd,
}

/// Why a seat failed. The names are the `reason` values of the output contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// No complete line before the deadline.
    Timeout,
    /// The bot exited, closed its output, or could not be started.
    Crash,
    /// A well-formed move that the rules forbid.
    Illegal,
    /// A line that is not a move at all: garbage, too long, not UTF-8, a line break inside it,
    /// a wrong token.
    Protocol,
    /// The kernel killed the bot for using more than its memory limit.
    Memory,
}

impl FaultKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Illegal => "illegal",
            FaultKind::Protocol => "protocol",
            FaultKind::Memory => "memory",
        }
    }
}

/// What happened when a seat failed, as facts: `check`, the printer and the report choose their
/// words from these, never from the detail's sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The game refused what the bot sent; the detail gives the game's reason.
    #[default]
    Refused,
    /// No complete line before the deadline.
    Late,
    /// The bot did not read what arena wrote to it, until writing blocked past the deadline.
    StoppedReading,
    /// Writing to the bot failed: its input was closed.
    ClosedInput,
    /// The bot closed its output (end of file) while it was still running.
    ClosedOutput,
    /// The bot's process ended.
    Exited(Exit),
    /// Its output was not a line: longer than the limit.
    TooLong,
    /// Its output was not text.
    NotUtf8,
    /// Its line held a character some readers end a line at (a carriage return, U+2028...), so
    /// that it would be two lines to them: see `games::line_breaks`.
    LineBreak,
    /// Reading its output failed.
    ReadError,
    /// The program could not be started (missing, not executable).
    NotStarted,
    /// On the pipe channel, it never opened its two FIFOs.
    PipesNotOpened,
    /// A referee program wrote more than its bound without waiting for arena.
    Flooded,
}

/// How a bot's process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exit {
    /// It exited with this status.
    Status(i32),
    /// A signal killed it.
    Signal(i32),
    /// arena killed it for running more processes than its limit.
    ProcessLimit,
    /// The kernel killed it (or one of its processes) for using more than its memory limit.
    MemoryLimit,
    /// Neither (it could not be waited for).
    Unknown,
}

/// A failure of one seat, with a sentence a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
    pub cause: Cause,
    /// The move the bot failed at (1 is its first), when it failed waiting for one.
    pub at_move: Option<u32>,
}

/// Details quote what a bot sent; the log keeps the whole line, tables keep it short.
const MAX_DETAIL: usize = 300;

/// The longest prefix of `text` no longer than `len` bytes, on a character boundary.
pub(crate) fn head(text: &str, len: usize) -> &str {
    let mut cut = len.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Self {
        let mut detail = detail.into();
        if detail.len() > MAX_DETAIL {
            // Keep the start (what was sent) and the end (what was expected).
            let mut start = detail.len() - MAX_DETAIL / 2;
            while !detail.is_char_boundary(start) {
                start += 1;
            }
            let first = head(&detail, MAX_DETAIL / 2);
            let elided = start - first.len();
            detail = format!("{first}[... {elided} bytes ...]{}", &detail[start..]);
        }
        Fault {
            kind,
            detail,
            cause: Cause::Refused,
            at_move: None,
        }
    }
    pub fn because(mut self, cause: Cause) -> Self {
        self.cause = cause;
        self
    }
    pub fn at_move(mut self, n: u32) -> Self {
        self.at_move = Some(n);
        self
    }
    pub fn illegal(detail: impl Into<String>) -> Self {
        Self::new(FaultKind::Illegal, detail)
    }
    pub fn protocol(detail: impl Into<String>) -> Self {
        Self::new(FaultKind::Protocol, detail)
    }
}

/// Why a game ended: the `reason` of the output contract.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    Normal,
    Draw,
    Timeout,
    Crash,
    Illegal,
    Protocol,
    /// The kernel killed a bot for using more than its memory limit.
    Memory,
    Limit,
    /// The referee program failed (crashed, hung, broke its protocol): the game counts for no
    /// one.
    Referee,
}

impl From<FaultKind> for Reason {
    fn from(kind: FaultKind) -> Self {
        match kind {
            FaultKind::Timeout => Reason::Timeout,
            FaultKind::Crash => Reason::Crash,
            FaultKind::Illegal => Reason::Illegal,
            FaultKind::Protocol => Reason::Protocol,
            FaultKind::Memory => Reason::Memory,
        }
    }
}

impl Reason {
    /// Whether a seat's failure ended the game.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Reason::Timeout | Reason::Crash | Reason::Illegal | Reason::Protocol | Reason::Memory
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Normal => "normal",
            Reason::Draw => "draw",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::Illegal => "illegal",
            Reason::Protocol => "protocol",
            Reason::Memory => "memory",
            Reason::Limit => "limit",
            Reason::Referee => "referee",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_details_keep_their_start_and_end() {
        let line = "x".repeat(10_000);
        let f = Fault::protocol(format!("sent '{line}' where ROCK was expected"));
        assert!(f.detail.len() < 400, "{}", f.detail.len());
        assert!(f.detail.starts_with("sent 'xxx"));
        assert!(f.detail.ends_with("xxx' where ROCK was expected"));
        // What was kept plus what was elided is the whole original detail.
        let original = format!("sent '{line}' where ROCK was expected").len();
        let (kept_start, rest) = f.detail.split_once("[... ").unwrap();
        let (elided, kept_end) = rest.split_once(" bytes ...]").unwrap();
        let elided: usize = elided.parse().unwrap();
        assert_eq!(kept_start.len() + elided + kept_end.len(), original);
        assert_eq!(Fault::protocol("short").detail, "short");
    }
}
