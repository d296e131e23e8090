//! A spectator program: fed the game's lines, never read, never waited on.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;


use crate::bot::controllers::Controlled;
use crate::bot::spawn::{Spawn, Stdio};
use crate::bot::{BotCommand, reaper, tree};

use super::IoLimits;
use super::capture::Capture;
use super::exit::Process;
use super::launch::{End, bot_pipe};

/// A spectator program (`--spectate CMD`): receives the spectator stream on its stdin.
pub struct SpectatorSink {
    tx: Option<mpsc::UnboundedSender<String>>,
    task: JoinHandle<()>,
    process: Option<Process>,
}

impl SpectatorSink {
    pub fn spawn(command: &BotCommand, limits: IoLimits) -> Result<SpectatorSink, String> {
        let BotCommand::Program(argv) = command else {
            return Err("--spectate needs a program".into());
        };
        let no_pipe = |e| format!("could not start spectator '{}': {e}", argv[0]);
        let (read, write) = bot_pipe(End::Write).map_err(no_pipe)?;
        let mut stdin = pipe::Sender::from_owned_fd_unchecked(write).map_err(no_pipe)?;
        // The person's program: their environment, and their terminal to draw on.
        let mut cmd = Spawn::new(&argv[0]);
        cmd.args(&argv[1..])
            .envs(std::env::vars_os())
            .stdin(Stdio::Fd(read));
        cmd.own_group = true;
        let child = reaper::spawn_owned(true, || {
            let child = cmd.spawn()?;
            let pid = child.id().as_raw() as u32;
            Ok((child, Some(pid)))
        })
        .map_err(no_pipe)?;
        let pgid = child.id();
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        let task = tokio::spawn(async move {
            while let Some(mut line) = rx.recv().await {
                line.push('\n');
                // A spectator that stops reading only loses its own view.
                if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
                    break;
                }
            }
        });
        let _ = limits;
        Ok(SpectatorSink {
            tx: Some(tx),
            task,
            process: Some(Process {
                child,
                pgid,
                root: tree::Root::of(pgid),
                cgroup: None,
                controlled: Controlled::default(),
                processes_held: false,
                wrappers: 0,
                frozen: false,
                input: None,
                limits: crate::bot::Limits::default(),
                stderr_path: None,
                exit: None,
                terminated: false,
                capture: Capture::none(),
                _workdir: None,
                _fifo_dir: None,
            }),
        })
    }

    pub fn sender(&self) -> mpsc::UnboundedSender<String> {
        self.tx.clone().expect("open until finished")
    }

    /// Close the stream and let the spectator finish drawing, then end it.
    pub async fn finish(mut self, grace: Duration) {
        self.tx = None;
        let _ = (&mut self.task).await;
        if let Some(p) = self.process.take() {
            let _ = p.terminate(grace).await;
        }
    }
}
