//! SIGINT and SIGTERM for the commands that play many games (`arena run`, `arena duel`): the
//! first stops new games and lets the running ones finish and be recorded, the second abandons
//! those too. Either way the command then writes what it has and exits with status 130.

/// How far an interruption has gone: 0 none, 1 finish running games, 2 abandon them.
pub type Stop = tokio::sync::watch::Receiver<u8>;

/// Watch for SIGINT and SIGTERM from now on (the handlers are in place when this returns), on
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
    tokio::spawn(async move {
        for level in 1..=2u8 {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
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

/// A `Stop` no signal moves: for a command that plays its games to the end whatever comes
/// (`arena check`, whose games are few and whose folder is its own). Its sender is gone, so a
/// wait for a level never ends in one (`retry::play` then waits for the game alone).
pub fn never() -> Stop {
    tokio::sync::watch::channel(0u8).1
}
