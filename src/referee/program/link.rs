//! The referee program as a process. It is started through the bot layer, as a bot is: its own
//! process group and working folder, a clean environment, its stderr captured beside the game's
//! log, and killed with its whole group when the game ends, so nothing of it outlives the game.

use std::path::{Path, PathBuf};

use tokio::time::Instant;

use super::RefereeProgram;
use crate::bot::process::IoLimits;
use crate::bot::{Capture, Connection, Event, StartError};
use crate::games::{Cause, Fault, FaultKind};

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
        })
    }

    /// Write `lines` (none: the referee is still answering what it was last given), then wait
    /// for its next line. The referee's clock for an answer starts when arena has written to it;
    /// all the lines of that answer are due by the same deadline.
    pub async fn ask(&mut self, lines: &[String]) -> Result<String, Fault> {
        if !lines.is_empty() || self.deadline.is_none() {
            let allowance = match self.writes {
                0 => self.program.startup_timeout,
                _ => self.program.timeout,
            };
            self.writes += 1;
            let deadline = Instant::now() + allowance;
            self.deadline = Some(deadline);
            let mut bytes = Vec::new();
            for l in lines {
                bytes.extend_from_slice(l.as_bytes());
                bytes.push(b'\n');
            }
            match tokio::time::timeout_at(deadline, self.conn.send(&bytes)).await {
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
        let deadline = self.deadline.expect("set above");
        match self.conn.next_event(deadline).await {
            Event::Line(line) => Ok(line),
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

    /// Close its input, let it exit, then kill its group: how it ended, and its stderr capture.
    pub async fn close(self) -> (String, Capture) {
        self.conn.close().await
    }
}
