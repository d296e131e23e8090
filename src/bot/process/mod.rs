//! Bots as processes: spawning on either channel, line I/O under deadlines, capturing stderr, and
//! making sure nothing a bot started outlives its game. This file is the connection a game
//! talks through; `launch` starts the process, `exit` holds it running and says how it ended,
//! `capture` keeps its stderr, `spectator` feeds a viewer program, `busy` says how long a wait
//! for a line polls before it sleeps.

mod busy;
mod capture;
mod exit;
mod launch;
mod spectator;

pub use busy::Running;
pub use capture::Capture;
pub use exit::{CLEAN_EXIT, describe_exit, exit_of};
pub use launch::{INHERITED_ENV, one_bot_at_a_time};
pub use spectator::SpectatorSink;

use exit::Process;
use launch::launch;

use std::path::Path;
use std::time::Duration;

use futures_util::{FutureExt, StreamExt};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, sleep, sleep_until, timeout};
use tokio_util::codec::LinesCodecError;

use super::chunk::FrameReader;
use super::framing::{FrameCodec, Framing};

use super::{BotCommand, BotSpec, tree};
use crate::failure::{Cause, Exit, Fault, FaultKind};

/// How long arena keeps listening after a bot's process exited, for lines it wrote just before.
const EXIT_LINGER: Duration = Duration::from_millis(100);

/// How long arena waits, once a bot's process has failed, for the end of its stderr: the limit a
/// failure names is read from its last words (Python's "File too large"). The end comes at once
/// unless a process it left holds its stderr; `EXIT_LINGER` was too short once on a loaded
/// 2-core machine, and the failure lost the name of its limit.
const STDERR_LINGER: Duration = Duration::from_millis(500);

/// How often a bot with a process limit has its processes counted while arena waits for it.
const PROCESS_POLL: Duration = Duration::from_millis(100);

/// Limits on what arena accepts from a bot.
#[derive(Debug, Clone, Copy)]
pub struct IoLimits {
    /// Longest line accepted, in bytes, without its newline.
    pub max_line: usize,
    /// Bytes of stderr kept in the capture file; the rest is counted and dropped.
    pub stderr_cap: u64,
    /// After the game: how long the bot may take to exit once its input is closed, and again
    /// after SIGTERM, before SIGKILL.
    pub grace: Duration,
    /// How messages are delimited: lines, or JSON values for the JSON games.
    pub framing: Framing,
}

impl Default for IoLimits {
    fn default() -> Self {
        IoLimits {
            max_line: 64 * 1024,
            stderr_cap: 1024 * 1024,
            grace: Duration::from_secs(1),
            framing: Framing::Lines,
        }
    }
}

/// What waiting for a line from a bot produced.
#[derive(Debug, PartialEq)]
pub enum Event {
    Line(String),
    /// The deadline passed with no complete line.
    Timeout,
    /// The bot closed its output (end of file).
    Eof,
    /// The bot's process ended (how, and in words) and left no line.
    Exited(Exit, String),
    /// A line longer than the limit.
    TooLong,
    /// Bytes that are not UTF-8.
    NotUtf8,
    ReadError(String),
}

impl Event {
    /// The fault for anything but a line; `waited` says what arena was waiting for.
    pub fn into_fault(self, waited: &str, max_line: usize) -> Fault {
        match self {
            Event::Line(_) => unreachable!("a line is not a fault"),
            Event::Timeout => {
                Fault::new(FaultKind::Timeout, format!("timed out {waited}")).because(Cause::Late)
            }
            Event::Eof => Fault::new(
                FaultKind::Crash,
                format!("closed its output {waited} (end of file)"),
            )
            .because(Cause::ClosedOutput),
            Event::Exited(exit, how) => {
                let kind = match exit {
                    Exit::MemoryLimit => FaultKind::Memory,
                    _ => FaultKind::Crash,
                };
                Fault::new(kind, format!("{how} {waited}")).because(Cause::Exited(exit))
            }
            Event::TooLong => {
                Fault::protocol(format!("sent a line longer than {max_line} bytes {waited}"))
                    .because(Cause::TooLong)
            }
            Event::NotUtf8 => Fault::protocol(format!("sent bytes that are not UTF-8 {waited}"))
                .because(Cause::NotUtf8),
            Event::ReadError(e) => {
                Fault::new(FaultKind::Crash, format!("read error {waited}: {e}"))
                    .because(Cause::ReadError)
            }
        }
    }
}

/// How a bot's start-up went (`Connection::until_ready`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// It waited for its first input after this long.
    Ready(Duration),
    /// It still did not when the startup allowance ran out.
    Starting,
    /// Nothing to tell: no process (the terminal), or it ended meanwhile.
    Unseen,
}

/// Why a bot did not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The bot's own doing (it exited, or did not open its pipes in time): it loses the game.
    Bot(Fault),
    /// arena's or the machine's (no pipe, no folder, no sandbox): the game is no one's fault.
    Arena(String),
}

/// A live line connection to a bot (a process, or the terminal).
pub struct Connection {
    writer: Box<dyn AsyncWrite + Send + Unpin>,
    lines: FrameReader,
    process: Option<Process>,
    limits: IoLimits,
}

impl Connection {
    /// Start a bot program. For the pipe channel this waits (up to `startup`) until the bot has
    /// opened both FIFOs, as coco does.
    pub async fn spawn(
        spec: &BotSpec,
        stderr_path: &Path,
        startup: Duration,
        limits: IoLimits,
    ) -> Result<Connection, StartError> {
        let argv = match &spec.command {
            BotCommand::Program(argv) => argv,
            BotCommand::Terminal => return Ok(Self::terminal(limits)),
            BotCommand::Builtin(_) => unreachable!("built-in bots have no process"),
        };
        if let Some(why) = &spec.unstartable {
            let fault = Fault::new(FaultKind::Crash, why.clone()).because(Cause::NotStarted);
            return Err(StartError::Bot(fault));
        }
        let (process, writer, reader, limits) =
            launch(spec, argv, stderr_path, startup, limits).await?;
        Ok(Connection {
            writer,
            lines: FrameReader::new(reader, FrameCodec::new(limits.framing, limits.max_line)),
            process: Some(process),
            limits,
        })
    }

    /// A person playing on this terminal: the stream goes to stdout, moves come from stdin.
    pub fn terminal(limits: IoLimits) -> Connection {
        Connection {
            writer: Box::new(tokio::io::stdout()),
            lines: FrameReader::new(
                Box::new(tokio::io::stdin()),
                FrameCodec::new(limits.framing, limits.max_line),
            ),
            process: None,
            limits,
        }
    }

    /// Write lines (each already ending in a newline) and flush them, waiting at most `within`
    /// for the bot to take them (`Err`: it did not). Most moves fit in the pipe and are written
    /// at once, with no timer made (bench/README.md, issue 45). A frozen bot's pipe takes what
    /// it can hold; beyond that the bot is let run to read it, rather than blamed for not
    /// reading.
    pub async fn send(
        &mut self,
        bytes: &[u8],
        within: Duration,
    ) -> Result<std::io::Result<()>, tokio::time::error::Elapsed> {
        use futures_util::FutureExt;
        let mut rest = bytes;
        while !rest.is_empty() {
            match self.writer.write(rest).now_or_never() {
                Some(Ok(n)) if n > 0 => rest = &rest[n..],
                Some(Err(e)) => return Ok(Err(e)),
                _ => break,
            }
        }
        if rest.is_empty()
            && let Some(flushed) = self.writer.flush().now_or_never()
        {
            return Ok(flushed);
        }
        if !rest.is_empty() && self.process.as_ref().is_some_and(|p| p.frozen) {
            self.set_frozen(false);
        }
        let writer = &mut self.writer;
        timeout(within, async move {
            writer.write_all(rest).await?;
            writer.flush().await
        })
        .await
    }

    /// Wait for the next line until `deadline`. Cancel-safe: a partly read line stays buffered.
    pub async fn next_event(&mut self, deadline: Instant) -> Event {
        if let Some(event) = self.over_process_limit() {
            return event;
        }
        if let Some(event) = self.line_soon().await {
            return event;
        }
        let mut deadline = deadline;
        loop {
            let exited = self.process.as_ref().is_none_or(|p| p.exit.is_some());
            tokio::select! {
                biased;
                item = self.lines.next() => return self.heard(item).await,
                status = async { self.process.as_mut().expect("checked").child.wait().await }, if !exited => {
                    let exited_at = Instant::now();
                    let ended = match status {
                        Ok(s) => self.process.as_mut().expect("checked").ended(s).await,
                        Err(e) => (Exit::Unknown, format!("could not be waited for: {e}")),
                    };
                    self.process.as_mut().expect("checked").exit = Some(ended);
                    // Its last words may still be in the pipe, or a child may hold it open.
                    deadline = deadline.min(exited_at + EXIT_LINGER);
                }
                // RLIMIT_NPROC counts all of a user's processes and never binds root: count the
                // bot's group ourselves while it thinks.
                _ = sleep(PROCESS_POLL), if !exited && self.process.as_ref().is_some_and(Process::counts_processes) => {
                    if let Some(event) = self.over_process_limit() {
                        return event;
                    }
                }
                _ = sleep_until(deadline) => {
                    return match self.process.as_ref().and_then(|p| p.exit.clone()) {
                        Some((exit, how)) => Event::Exited(exit, how),
                        None => Event::Timeout,
                    };
                }
            }
        }
    }

    /// While the bot is not read (a referee has not taken its last answers yet), what must
    /// still be watched: its number of processes, where the kernel does not bound it. Pending
    /// otherwise; its lines and its exit are seen once it is read again.
    pub async fn watch_limits(&mut self) -> Event {
        loop {
            let counts = self
                .process
                .as_ref()
                .is_some_and(|p| p.exit.is_none() && p.counts_processes());
            if !counts {
                return std::future::pending().await;
            }
            sleep(PROCESS_POLL).await;
            if let Some(event) = self.over_process_limit() {
                return event;
            }
        }
    }

    /// The line, if it comes within the busy wait's budget (`busy`). Each poll of a line not
    /// there yet yields to the runtime, whose driver then looks for readiness without sleeping.
    async fn line_soon(&mut self) -> Option<Event> {
        let budget = busy::budget();
        if budget.is_zero() {
            return None;
        }
        let until = std::time::Instant::now() + budget;
        loop {
            if let Some(item) = futures_util::FutureExt::now_or_never(self.lines.next()) {
                return Some(self.heard(item).await);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            tokio::task::yield_now().await;
        }
    }

    /// What a read of the next line gave, as an event.
    async fn heard(
        &mut self,
        item: Option<std::result::Result<String, LinesCodecError>>,
    ) -> Event {
        match item {
            Some(Ok(line)) => Event::Line(line),
            None => self.eof().await,
            Some(Err(LinesCodecError::MaxLineLengthExceeded)) => Event::TooLong,
            Some(Err(LinesCodecError::Io(e))) if e.kind() == std::io::ErrorKind::InvalidData => {
                Event::NotUtf8
            }
            Some(Err(LinesCodecError::Io(e))) => Event::ReadError(e.to_string()),
        }
    }

    /// A bot running more processes than its limit is stopped, and the reason says so. Every
    /// process below the bot counts, whatever group or session it moved to; the sandbox's own
    /// do not.
    fn over_process_limit(&mut self) -> Option<Event> {
        let p = self.process.as_mut()?;
        let limit = p.limits.processes?;
        let running = match &p.cgroup {
            Some(cgroup) => cgroup.count().saturating_sub(p.wrappers),
            None => {
                // What left the bot's tree (an orphan, a sibling) is not in this count: it is
                // killed now rather than at the bot's next freeze, so that a bot that forks
                // twice and lets the middle exit cannot grow past its limit for a whole turn.
                super::reaper::sweep_here();
                p.root.map_or(0, |root| tree::count(root, p.wrappers))
            }
        };
        if p.exit.is_some() || running as u64 <= limit {
            return None;
        }
        p.kill();
        let how = format!("was killed: it ran more processes than its limit of {limit}");
        p.exit = Some((Exit::ProcessLimit, how.clone()));
        Some(Event::Exited(Exit::ProcessLimit, how))
    }

    /// How far into its stderr file the bot's words reach by now, if further than when last
    /// asked (`Capture::mark`): the game logs it beside each answer.
    pub fn stderr_mark(&mut self) -> Option<u64> {
        self.process.as_mut()?.capture.mark()
    }

    /// Whether the bot's process is known to have ended.
    pub fn ended(&self) -> bool {
        self.process.as_ref().is_some_and(|p| p.exit.is_some())
    }

    /// Stop every process of the bot while it is not to move, so that it cannot use the CPU its
    /// opponent is timed on; let them run again before it is asked for its move.
    pub fn set_frozen(&mut self, frozen: bool) {
        if let Some(p) = self.process.as_mut() {
            p.set_frozen(frozen);
        }
    }

    /// Let the bot start until it waits for its first input (`ready`), it exits, or `deadline`
    /// passes; then, if `hold`, stop it until it is asked for its first move. How long it took to
    /// get there, or why not.
    pub async fn until_ready(&mut self, deadline: Instant, hold: bool) -> Start {
        let begun = Instant::now();
        let Some(p) = self.process.as_mut() else {
            return Start::Unseen;
        };
        let start = match (p.input, tree::Root::of(p.pgid)) {
            (Some(input), Some(root)) => p.until_ready(root, input, begun, deadline).await,
            _ => Start::Unseen,
        };
        if hold {
            p.set_frozen(true);
        }
        start
    }

    /// How the bot ended, if it ends failing on its own within a moment: asked of a bot whose
    /// first answer failed, which may be its runtime's complaint that it could not start (`said`,
    /// what it wrote, is read with its stderr for the words that tell why).
    pub async fn failed_on_its_own(&mut self, said: &str) -> Option<(Exit, String)> {
        let p = self.process.as_mut()?;
        if p.terminated {
            return None;
        }
        // A stopped process could not finish exiting.
        p.set_frozen(false);
        let status = match timeout(EXIT_LINGER, p.child.wait()).await {
            Ok(Ok(status)) if !status.success() => status,
            _ => return None,
        };
        p.capture.wait(STDERR_LINGER).await;
        let ended = (p.fact(status), p.describe_saying(status, said));
        p.exit = Some(ended.clone());
        Some(ended)
    }

    /// End of the bot's output: usually it exited, and how it did says more than 'end of file'.
    async fn eof(&mut self) -> Event {
        let Some(p) = self.process.as_mut() else {
            return Event::Eof;
        };
        if p.exit.is_none()
            && let Ok(Ok(status)) = timeout(EXIT_LINGER, p.child.wait()).await
        {
            p.exit = Some(p.ended(status).await);
        }
        match &p.exit {
            Some((exit, how)) => Event::Exited(*exit, how.clone()),
            None => Event::Eof,
        }
    }

    /// End the connection: close the bot's input, let it exit, then kill its whole group.
    /// Returns how the process ended (empty for the terminal), and its stderr capture: the last
    /// of it may still be on its way to the file, and the game needs it there before it is
    /// recorded, not before the next game starts.
    ///
    /// Not an `async fn`: one would hold the whole connection for as long as the bot takes to
    /// end, beside the process it moved out of it; this future holds the process alone, once
    /// (docs/design.md, Memory).
    pub fn close(self) -> impl Future<Output = (String, Capture)> + Send + 'static {
        let Connection {
            writer,
            lines,
            process,
            limits,
        } = self;
        drop(writer);
        drop(lines);
        let terminating = process.map(|p| p.terminate(limits.grace));
        futures_util::future::OptionFuture::from(terminating)
            .map(|ended| ended.unwrap_or_else(|| (String::new(), Capture::none())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Channel;

    /// A bot that never reads: a move that fits in its pipe is written at once, and one that
    /// does not waits the allowance given and no longer, whether the bot is frozen or not.
    #[tokio::test]
    async fn a_send_waits_only_when_the_pipe_is_full_and_then_at_most_its_allowance() {
        let dir = tempfile::tempdir().unwrap();
        let spec = BotSpec::parse("sleep 30", dir.path(), Channel::Stdio).unwrap();
        let stderr = dir.path().join("stderr");
        let limits = IoLimits::default();
        let mut conn = Connection::spawn(&spec, &stderr, Duration::from_secs(5), limits)
            .await
            .unwrap();
        let started = Instant::now();
        assert!(matches!(conn.send(b"ROCK\n", Duration::ZERO).await, Ok(Ok(()))));
        let pipe_and_more = vec![b'x'; 1 << 20];
        for frozen in [false, true] {
            conn.set_frozen(frozen);
            let before = Instant::now();
            let sent = conn.send(&pipe_and_more, Duration::from_millis(300)).await;
            let waited = before.elapsed();
            assert!(sent.is_err(), "a full pipe, never read, took the bytes: {sent:?}");
            assert!(waited >= Duration::from_millis(300), "{waited:?}");
            assert!(waited < Duration::from_secs(10), "{waited:?}");
        }
        assert!(started.elapsed() < Duration::from_secs(20));
        conn.close().await;
    }
}
