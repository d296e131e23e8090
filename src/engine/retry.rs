//! Playing one game, set up again when arena could not set it up: a machine out of processes or
//! memory for a moment, or a sandbox that failed once, is no bot's doing and often passes.

use std::time::Duration;

use super::stop::Stop;
use crate::error::{Error, Result};
use crate::referee::{MatchSetup, Played, play_unsynced};

/// How many times a game is set up before arena gives it up, and the pause between.
pub const SETUP_ATTEMPTS: u32 = 3;
pub const SETUP_PAUSE: Duration = Duration::from_secs(1);

/// Play a game (`setup` makes it anew for each attempt), set up again after a pause while
/// `may_retry` and no interrupt say otherwise. `Err(Setup)` when no attempt could: the game was
/// not played, and is no one's fault. `None` when a second interrupt abandons it (its bots are
/// killed as it is dropped). The caller makes its log durable (`Played::durable`, or
/// `Played::finish_all` with others). `name` names the game in messages ("game 3 (a vs b)").
pub async fn play(
    name: &str,
    mut setup: impl FnMut() -> MatchSetup,
    stop: &mut Stop,
    may_retry: impl Fn() -> bool,
) -> Option<Result<Played>> {
    let mut attempt = 1;
    loop {
        let played = tokio::select! {
            played = play_unsynced(setup()) => played,
            Ok(_) = stop.wait_for(|&level| level >= 2) => return None,
        };
        match played {
            Err(Error::Setup(why)) if attempt < SETUP_ATTEMPTS && *stop.borrow() == 0 && may_retry() => {
                crate::out::warn(&format!(
                    "arena: {name} could not be set up ({why}); trying again in {} s",
                    SETUP_PAUSE.as_secs_f64()
                ));
                tokio::time::sleep(SETUP_PAUSE).await;
                attempt += 1;
            }
            played => return Some(played),
        }
    }
}
