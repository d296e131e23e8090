//! A referee program as a process, for the games it plays (`games::program` has its protocol).
//! It is started through the bot layer, as a bot is: its own process group and working folder, a
//! clean environment, its stderr captured beside the game's log, and killed with its whole group
//! when the game ends, so nothing of it outlives the game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::time::Instant;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, BotSpec, Capture, Connection, Event, StartError};
use crate::failure::{Cause, Fault, FaultKind};

/// The referee program of a game: how to start it, and its own deadlines, longer than the
/// players' (a JVM starting, a simulation of the whole turn).
#[derive(Debug, Clone)]
pub struct RefereeProgram {
    pub bot: BotSpec,
    /// For each of its answers: from the moment arena has written to it until it asks for a
    /// player's output or ends the game.
    pub timeout: Duration,
    /// The same for its first answer, which includes its start.
    pub startup_timeout: Duration,
    /// The players' turns (`###Output`s answered) a game may have: a referee that asks for
    /// another one has not ended its game in time, and fails.
    pub max_turns: u32,
}

impl RefereeProgram {
    /// Seconds the referee gets by default for an answer, and for its first.
    pub const TIMEOUT: f64 = 10.0;
    pub const STARTUP_TIMEOUT: f64 = 30.0;
    /// Turns a game may have by default: far beyond any contest game's (a few hundred), and a
    /// bound on a referee that never sends `###End`.
    pub const MAX_TURNS: u32 = 10_000;
    /// The most turns one may allow.
    pub const MAX_TURNS_BOUND: i64 = 1_000_000;

    /// A referee program from its command line (relative paths from `base`, as for a bot), its
    /// times in seconds and its games' turns (the defaults when `None`). An error says what is
    /// wrong; `names` spells the three options as the caller's user writes them.
    pub fn new(
        command: &str,
        base: &Path,
        timeout: Option<f64>,
        startup_timeout: Option<f64>,
        max_turns: Option<i64>,
        names: [&str; 3],
    ) -> Result<RefereeProgram, String> {
        let bot = BotSpec::parse(command, base, crate::bot::Channel::Stdio)?;
        if !matches!(bot.command, BotCommand::Program(_)) {
            return Err(format!(
                "'{command}' is not a program: a referee is a command line, such as \
                 \"java -jar referee.jar\""
            ));
        }
        let time = |name: &str, secs: Option<f64>, default: f64| {
            crate::games::move_time(secs.unwrap_or(default)).map_err(|e| format!("{name} {e}"))
        };
        let max_turns = match max_turns {
            None => Self::MAX_TURNS,
            Some(n) if (1..=Self::MAX_TURNS_BOUND).contains(&n) => n as u32,
            Some(n) => {
                return Err(format!(
                    "{} must be from 1 to {}, not {n}",
                    names[2],
                    Self::MAX_TURNS_BOUND
                ));
            }
        };
        Ok(RefereeProgram {
            bot,
            timeout: time(names[0], timeout, Self::TIMEOUT)?,
            startup_timeout: time(names[1], startup_timeout, Self::STARTUP_TIMEOUT)?,
            max_turns,
        })
    }
}

/// The most lines a referee may write between two writes of arena's (an `###Input` block, the
/// commands around it): far beyond any contest game's map or turn, and a bound on what a referee
/// gone wrong can make arena log and relay.
pub const MAX_LINES: u32 = 10_000;
/// The same bound in bytes, newlines counted.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The referee's failure when the game has played all its `max_turns` and it asks for another.
pub fn over_turns(max_turns: u32) -> Fault {
    Fault::protocol(format!(
        "asked for turn {} of a game that may have {max_turns} (max_turns): it did not end the \
         game with ###End",
        u64::from(max_turns) + 1
    ))
}

/// The stderr capture of a game's referee program, beside its log as the seats' are.
pub fn stderr_path(log_path: &Path) -> PathBuf {
    log_path.with_extension("referee.stderr")
}

/// A running referee program and the deadline of the answer arena waits for.
pub struct Link {
    conn: Connection,
    program: RefereeProgram,
    max_line: usize,
    /// Batches of lines written so far: the first (`###Seed`, `###Start`) gets the startup
    /// allowance for its answer.
    writes: u32,
    deadline: Option<Instant>,
    /// Lines and bytes it has written since arena last wrote to it.
    heard: (u32, u64),
}

impl Link {
    /// Start the program; it is heard once it has been written to.
    pub async fn spawn(
        program: &RefereeProgram,
        stderr: &Path,
        limits: IoLimits,
    ) -> Result<Link, StartError> {
        let conn = Connection::spawn(&program.bot, stderr, program.startup_timeout, limits).await?;
        Ok(Link {
            conn,
            program: program.clone(),
            max_line: limits.max_line,
            writes: 0,
            deadline: None,
            heard: (0, 0),
        })
    }

    /// Write `lines` (none: the referee is still answering what it was last given), then wait
    /// for its next line.
    pub async fn ask(&mut self, lines: &[String]) -> Result<String, Fault> {
        self.tell(lines).await?;
        self.hear().await
    }

    /// Write `lines` (none: the referee is still answering what it was last given). The
    /// referee's clock for an answer starts when arena has written to it; all the lines of that
    /// answer are due by the same deadline.
    pub async fn tell(&mut self, lines: &[String]) -> Result<(), Fault> {
        if !lines.is_empty() || self.deadline.is_none() {
            let allowance = match self.writes {
                0 => self.program.startup_timeout,
                _ => self.program.timeout,
            };
            self.writes += 1;
            self.heard = (0, 0);
            let deadline = Instant::now() + allowance;
            self.deadline = Some(deadline);
            let mut bytes = Vec::new();
            for l in lines {
                bytes.extend_from_slice(l.as_bytes());
                bytes.push(b'\n');
            }
            match self.conn.send(&bytes, allowance).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    return Err(
                        Fault::new(FaultKind::Crash, format!("closed its input ({e})"))
                            .because(Cause::ClosedInput),
                    );
                }
                Err(_) => {
                    return Err(Fault::new(
                        FaultKind::Timeout,
                        format!(
                            "stopped reading its input (blocked for {} s)",
                            allowance.as_secs_f64()
                        ),
                    )
                    .because(Cause::StoppedReading));
                }
            }
        }
        Ok(())
    }

    /// The referee's next line, due by the deadline its last `tell` set.
    pub async fn hear(&mut self) -> Result<String, Fault> {
        let deadline = self.deadline.expect("told before heard");
        match self.conn.next_event(deadline).await {
            Event::Line(line) => {
                let (lines, bytes) = &mut self.heard;
                *lines += 1;
                *bytes += line.len() as u64 + 1;
                if *lines > MAX_LINES || *bytes > MAX_BYTES {
                    let bound = match *lines > MAX_LINES {
                        true => format!("{MAX_LINES} lines"),
                        false => format!("{} MiB", MAX_BYTES / (1024 * 1024)),
                    };
                    return Err(Fault::protocol(format!(
                        "flooded: it wrote more than {bound} without waiting for an answer"
                    ))
                    .because(Cause::Flooded));
                }
                Ok(line)
            }
            event => {
                let allowance = match self.writes {
                    1 => self.program.startup_timeout,
                    _ => self.program.timeout,
                };
                let waited = match event {
                    Event::Timeout => {
                        format!("after {} s waiting for its answer", allowance.as_secs_f64())
                    }
                    _ => "waiting for its answer".into(),
                };
                Err(event.into_fault(&waited, self.max_line))
            }
        }
    }

    /// The turns its game may have.
    pub fn max_turns(&self) -> u32 {
        self.program.max_turns
    }

    /// Close its input, let it exit, then kill its group: how it ended, and its stderr capture.
    pub fn close(self) -> impl Future<Output = (String, Capture)> + Send + 'static {
        self.conn.close()
    }
}
