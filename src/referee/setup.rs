//! What a match is played with, checked, and playing a game again when arena itself could not
//! set it up.

use std::time::Duration;

use super::{GameRecord, MatchSetup, play};
use crate::error::{Error, Result};
use crate::games::{self, GameInfo, Params};

/// How many times a game is set up before arena gives it up, and the pause between: a machine
/// out of processes or memory for a moment, or a sandbox that failed once, is worth a retry.
pub const SETUP_ATTEMPTS: u32 = 3;
pub const SETUP_PAUSE: Duration = Duration::from_secs(1);

/// Play a game, set up again (after a pause) when arena could not set it up. `Err(Setup)` when
/// no attempt could: the game was not played, and is no one's fault.
pub async fn play_retrying(mut setup: impl FnMut() -> MatchSetup) -> Result<GameRecord> {
    let mut attempt = 1;
    loop {
        match play(setup()).await {
            Err(Error::Setup(why)) if attempt < SETUP_ATTEMPTS => {
                crate::out::warn(&format!(
                    "arena: could not set the game up ({why}); trying again in {} s",
                    SETUP_PAUSE.as_secs_f64()
                ));
                tokio::time::sleep(SETUP_PAUSE).await;
                attempt += 1;
            }
            played => return played,
        }
    }
}

/// What a match needs besides its bots: the game, its parameters and the times, checked.
#[derive(Clone)]
pub struct MatchOptions {
    pub game: &'static GameInfo,
    pub params: Params,
    pub timeout: Duration,
    pub startup_timeout: Duration,
}

impl MatchOptions {
    /// The game called `game` with `key=value` parameters, and times in seconds (the game's
    /// own when `None`). Errors name the option at fault as `flags` spell it.
    pub fn resolve(
        game: &str,
        pairs: &[String],
        timeout: Option<f64>,
        startup_timeout: Option<f64>,
    ) -> std::result::Result<MatchOptions, String> {
        let game = games::find_game(game)?;
        let params = game
            .resolve_params(Params::parse_pairs(pairs)?)
            .map_err(|e| format!("{}: {e}", game.name))?;
        let time = |what: &str, secs: Option<f64>, default: f64| {
            games::move_time(secs.unwrap_or(default)).map_err(|e| format!("{what} {e}"))
        };
        Ok(MatchOptions {
            game,
            params,
            timeout: time("--timeout", timeout, game.timeout)?,
            startup_timeout: time("--startup-timeout", startup_timeout, game.startup_timeout)?,
        })
    }
}
