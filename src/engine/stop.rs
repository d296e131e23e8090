//! SIGINT, SIGTERM and SIGHUP for the commands that play many games (`arena run`, `arena
//! duel`): the first stops new games and lets the running ones finish and be recorded, the second
//! abandons those too. Either way the command then writes what it has and exits with status 130.
//! SIGHUP (a closed terminal, a dropped ssh session) counts as the others do, unless arena was
//! started with it ignored (`nohup`); a terminal that hung up takes no more output, so arena's is
//! then sent to /dev/null rather than fail.

/// How far an interruption has gone: 0 none, 1 finish running games, 2 abandon them.
pub type Stop = tokio::sync::watch::Receiver<u8>;

/// Watch for SIGINT, SIGTERM and SIGHUP from now on (the handlers are in place when this returns), on
/// the current runtime. `abandoned` says, after "abandoning the running games; ", what becomes
/// of them.
pub fn watch_signals(abandoned: &'static str) -> Stop {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, rx) = tokio::sync::watch::channel(0u8);
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        return rx;
    };
    let mut hup = (!ignored(nix::sys::signal::Signal::SIGHUP))
        .then(|| signal(SignalKind::hangup()).ok())
        .flatten();
    tokio::spawn(async move {
        for level in 1..=2u8 {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
                Some(_) = async { hup.as_mut()?.recv().await } => leave_a_dead_terminal(),
            }
            if level == 1 {
                eprintln!(
                    "\narena: stopping: no new games; the running ones finish and are recorded \
                     (interrupt again to abandon them)"
                );
            } else {
                eprintln!("\narena: abandoning the running games; {abandoned}");
            }
            let _ = tx.send(level);
        }
    });
    rx
}

/// Whether `signal` is ignored (SIG_IGN): set so by whoever started arena.
fn ignored(signal: nix::sys::signal::Signal) -> bool {
    let mut old: nix::libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: a null new action only reads the current one into `old`.
    let read = unsafe { nix::libc::sigaction(signal as _, std::ptr::null(), &mut old) };
    read == 0 && old.sa_sigaction == nix::libc::SIG_IGN
}

/// After a hang-up: standard output and error that are a terminal which no longer answers (its
/// session ended) go to /dev/null, where a write to them would fail and take arena down.
fn leave_a_dead_terminal() {
    use std::os::fd::AsRawFd;
    let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") else {
        return;
    };
    for fd in [1, 2] {
        // SAFETY: tcgetattr only asks about the descriptor and fills `t`; dup2 puts
        // /dev/null on a descriptor arena owns for good (always open: main's `harden`).
        unsafe {
            let mut t: nix::libc::termios = std::mem::zeroed();
            // A hung-up terminal answers EIO (isatty too says no then); a pipe or file ENOTTY.
            let gone = nix::libc::tcgetattr(fd, &mut t) == -1
                && nix::errno::Errno::last() == nix::errno::Errno::EIO;
            if gone {
                nix::libc::dup2(null.as_raw_fd(), fd);
            }
        }
    }
}

/// A `Stop` no signal moves: for a command that plays its games to the end whatever comes
/// (`arena check`, whose games are few and whose folder is its own). Its sender is gone, so a
/// wait for a level never ends in one (`retry::play` then waits for the game alone).
pub fn never() -> Stop {
    tokio::sync::watch::channel(0u8).1
}
