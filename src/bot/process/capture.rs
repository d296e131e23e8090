//! A bot's stderr, captured whole to its file in batches, with its end kept for messages, and
//! how much of it the bot had written by each of its answers.

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, ReadBuf};

use tokio::net::unix::pipe;
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep_until, timeout};

use crate::bot::chunk::read_chunk;


use super::IoLimits;

/// A bot's stderr on its way to its capture file. The copy ends at the end of the pipe, once
/// every process holding it is gone: usually as the bot exits, but the exit can be seen first.
pub struct Capture {
    task: Option<JoinHandle<()>>,
    /// Sent (or dropped) to cut the copy off between two writes.
    cut: Option<tokio::sync::oneshot::Sender<()>>,
    /// How long a copy held open (by a process that escaped the bot's group) is waited for.
    grace: Duration,
    /// The pipe, shared with the copy, and how much of it the file holds.
    pipe: Option<Arc<StderrPipe>>,
    /// What `mark` last gave, and the most the file keeps.
    marked: u64,
    cap: u64,
}

/// A bot's stderr pipe, read by its capture's copy and looked at by its game, which asks at each
/// answer how much the bot had said by then: the report shows what a bot wrote at the move it
/// wrote it (CodinGame's viewer shows each turn's stderr).
struct StderrPipe {
    rx: pipe::Receiver,
    /// Bytes the copy has taken for the file.
    kept: AtomicU64,
}

impl Capture {
    pub(super) fn start(rx: pipe::Receiver, path: &Path, limits: IoLimits) -> Capture {
        let (cut, cut_off) = tokio::sync::oneshot::channel();
        let pipe = Arc::new(StderrPipe {
            rx,
            kept: AtomicU64::new(0),
        });
        Capture {
            task: Some(tokio::spawn(capture(
                pipe.clone(),
                path.to_path_buf(),
                limits,
                cut_off,
            ))),
            cut: Some(cut),
            grace: limits.grace,
            pipe: Some(pipe),
            marked: 0,
            cap: limits.stderr_cap,
        }
    }

    pub(super) fn none() -> Capture {
        Capture {
            task: None,
            cut: None,
            grace: Duration::ZERO,
            pipe: None,
            marked: 0,
            cap: 0,
        }
    }

    /// How far into its capture file the bot's stderr reaches by now, if further than the last
    /// time asked: what the copy took, and what waits in the pipe, which the bot wrote before
    /// anything arena reads from it now. Asking the pipe is a system call, made only for a bot
    /// that has written something; a silent bot's first words can be counted at its next
    /// answer, when the game read this one before arena's event loop saw them arrive.
    pub fn mark(&mut self) -> Option<u64> {
        let pipe = self.pipe.as_ref()?;
        let kept = pipe.kept.load(Ordering::Relaxed);
        let ask = || rustix::io::ioctl_fionread(&pipe.rx).map_err(std::io::Error::from);
        // `try_io` asks only if tokio has seen the pipe become readable since the copy last
        // drained it: no system call. A bot that has written asks every time, so that words
        // written just before an answer that arena read at once are counted with it.
        let waiting = match kept {
            0 => pipe.rx.try_io(ask),
            _ => ask(),
        };
        let upto = waiting.map_or(kept, |w| (kept + w).min(self.cap));
        (upto > self.marked).then(|| {
            self.marked = upto;
            upto
        })
    }

    /// Whether all of it is in the file.
    pub fn is_done(&self) -> bool {
        self.task.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Wait up to `limit` for the copy to end.
    pub(super) async fn wait(&mut self, limit: Duration) {
        if let Some(task) = self.task.as_mut()
            && timeout(limit, task).await.is_ok()
        {
            self.task = None;
        }
    }

    /// Wait for the copy to end, up to the grace; then it is cut off where it is, once the
    /// write under way (if any) is in the file.
    pub async fn finish(mut self) {
        self.wait(self.grace).await;
        if let Some(task) = self.task {
            if let Some(cut) = self.cut.take() {
                let _ = cut.send(());
            }
            let _ = task.await;
        }
    }
}

/// How long a bot's stderr may wait in memory before it goes to its file, and how much of it.
const CAPTURE_DELAY: Duration = Duration::from_millis(20);
const CAPTURE_BATCH: usize = 32 * 1024;
/// The room for what waits that a capture keeps between batches.
const CAPTURE_KEPT: usize = 1024;

/// A capture file, made and written on the blocking pool.
struct CaptureFile {
    path: PathBuf,
    /// Made at the first byte: most bots say nothing, and a file per bot per game is a real
    /// part of a short game's cost.
    file: Option<std::fs::File>,
    /// Could not be made or written (a full disk): what comes is drained, not kept.
    failed: bool,
    pending: Vec<u8>,
}

impl CaptureFile {
    /// Write what is pending, making the file first if need be, and wait for it.
    async fn write_out(&mut self) {
        if self.failed {
            self.pending.clear();
            return;
        }
        let (path, file, pending) = (
            self.path.clone(),
            self.file.take(),
            std::mem::take(&mut self.pending),
        );
        let written = tokio::task::spawn_blocking(move || {
            use std::io::Write;
            let file = match file {
                Some(f) => Ok(f),
                // Made anew: a link planted under its name is removed, never written through.
                None => crate::files::create_anew(&path).map(|(f, _)| f),
            };
            // A full disk must not stop the game: stop keeping, keep draining.
            let file = file.and_then(|mut f| f.write_all(&pending).map(|()| f));
            (file.ok(), pending)
        })
        .await;
        match written {
            Ok((file, mut pending)) => {
                self.failed = file.is_none();
                self.file = file;
                pending.clear();
                // A bot that said a lot once need not hold a batch's room for the whole game.
                if pending.capacity() <= CAPTURE_KEPT {
                    self.pending = pending;
                }
            }
            Err(_) => self.failed = true,
        }
    }
}

/// Copy a bot's stderr to its capture file, up to the cap; count what goes beyond. The file is
/// made and written on the blocking pool, not on the game's thread: what the bot says is kept
/// in memory for `CAPTURE_DELAY` (or up to `CAPTURE_BATCH`), then written in one go, so that a
/// bot saying a line per move costs a trip to the pool per game rather than per line. Ends at
/// `cut_off` (a copy held open past its grace) once what it read is in the file.
///
/// Not an `async fn`, which would hold its arguments twice for as long as the bot runs
/// (docs/design.md, Memory).
#[allow(clippy::manual_async_fn, reason = "an async fn holds its arguments twice")]
fn capture(
    pipe: Arc<StderrPipe>,
    path: PathBuf,
    limits: IoLimits,
    mut cut_off: tokio::sync::oneshot::Receiver<()>,
) -> impl Future<Output = ()> + Send {
    async move {
        let mut out = CaptureFile {
            path,
            file: None,
            failed: false,
            pending: Vec::new(),
        };
        let mut reading = Reading(&pipe.rx);
        let mut kept = 0u64;
        let mut dropped = 0u64;
        let mut listening = true;
        // When what is pending must be written.
        let mut due: Option<Instant> = None;
        loop {
            let read = tokio::select! {
                biased;
                cut = &mut cut_off, if listening => match cut {
                    Ok(()) => {
                        if due.is_some() {
                            out.write_out().await;
                        }
                        return;
                    }
                    // The capture was let go without `finish`: copy on to the end.
                    Err(_) => {
                        listening = false;
                        continue;
                    }
                },
                _ = sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                    due = None;
                    out.write_out().await;
                    continue;
                }
                read = read_chunk(&mut reading) => read,
            };
            let buf = match read {
                Ok(chunk) if !chunk.is_empty() => chunk,
                _ => break,
            };
            let n = buf.len();
            let room = limits.stderr_cap.saturating_sub(kept) as usize;
            let keep = n.min(room);
            if !out.failed {
                out.pending.extend_from_slice(&buf[..keep]);
            }
            kept += keep as u64;
            pipe.kept.store(kept, Ordering::Relaxed);
            dropped += (n - keep) as u64;
            if out.pending.len() >= CAPTURE_BATCH {
                due = None;
                out.write_out().await;
            } else if due.is_none() && (keep > 0 || (out.file.is_none() && !out.failed)) {
                due = Some(Instant::now() + CAPTURE_DELAY);
            }
        }
        if dropped > 0 && !out.failed {
            out.pending.extend_from_slice(
                format!("\n[arena: {dropped} more bytes of output dropped after the first {kept}]\n")
                    .as_bytes(),
            );
        }
        if due.is_some() || !out.pending.is_empty() {
            out.write_out().await;
        }
    }
}

/// The shared pipe, read as `AsyncRead` (tokio reads a pipe so only through `&mut`).
struct Reading<'a>(&'a pipe::Receiver);

impl AsyncRead for Reading<'_> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        loop {
            ready!(self.0.poll_read_ready(cx))?;
            match self.0.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::process::launch::{End, bot_pipe};
    use std::os::fd::OwnedFd;
    use std::fs::File;
    use std::io::Write;

    /// A capture of a pipe whose write end the test holds, as a bot (or its escaped child) would.
    fn capturing(path: &Path, grace: Duration) -> (OwnedFd, Capture) {
        let (read, write) = bot_pipe(End::Read).unwrap();
        let rx = pipe::Receiver::from_owned_fd_unchecked(read).unwrap();
        let limits = IoLimits {
            grace,
            ..IoLimits::default()
        };
        (write, Capture::start(rx, path, limits))
    }

    #[tokio::test]
    async fn a_capture_is_done_once_its_pipe_is_closed_and_then_holds_everything() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stderr");
        let (write, capture) = capturing(&path, Duration::from_secs(10));
        let said = "last words\n".repeat(20_000);
        let mut writer = File::from(write);
        // More than a pipe holds, so the copy runs while the writer writes.
        let feeder = std::thread::spawn(move || {
            writer.write_all(said.as_bytes()).unwrap();
            writer
        });
        while !feeder.is_finished() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let writer = feeder.join().unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!capture.is_done(), "the pipe is still open");
        drop(writer);
        let started = std::time::Instant::now();
        capture.finish().await;
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "ended at end of file"
        );
        assert_eq!(std::fs::read(&path).unwrap().len(), 11 * 20_000);
    }

    #[tokio::test]
    async fn a_capture_held_open_is_cut_off_after_its_grace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stderr");
        let (write, capture) = capturing(&path, Duration::from_millis(200));
        let mut writer = File::from(write);
        writer.write_all(b"before\n").unwrap();
        let started = std::time::Instant::now();
        capture.finish().await;
        assert!(started.elapsed() >= Duration::from_millis(200));
        // Cut off where it was: what came before the grace ran out is kept.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "before\n");
        drop(writer);
    }
}
