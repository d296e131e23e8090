//! What a match is played with, checked.

use std::time::Duration;

use crate::games::{self, GameInfo, Params};
use crate::referee::program::RefereeProgram;

/// What a match needs besides its bots: the game, its parameters and the times, checked.
#[derive(Clone)]
pub struct MatchOptions {
    pub game: &'static GameInfo,
    pub params: Params,
    pub timeout: Duration,
    pub startup_timeout: Duration,
    /// The referee program of a game of `referee`.
    pub referee: Option<RefereeProgram>,
}

/// `--referee CMD` and its times, as given.
#[derive(Clone, Default)]
pub struct RefereeArgs {
    pub command: Option<String>,
    pub timeout: Option<f64>,
    pub startup_timeout: Option<f64>,
    pub max_turns: Option<i64>,
    /// `--referee-protocol`: the `protocol` parameter.
    pub protocol: Option<String>,
}

impl MatchOptions {
    /// The game called `game` (or, with a referee program and no game, `referee`) with
    /// `key=value` parameters, and times in seconds (the game's own when `None`). Errors name
    /// the option at fault as the flags spell it.
    pub fn resolve(
        game: Option<&str>,
        pairs: &[String],
        timeout: Option<f64>,
        startup_timeout: Option<f64>,
        referee: &RefereeArgs,
    ) -> std::result::Result<MatchOptions, String> {
        let protocol = referee.protocol.clone();
        let referee = match &referee.command {
            None if referee.timeout.is_some()
                || referee.startup_timeout.is_some()
                || referee.max_turns.is_some()
                || referee.protocol.is_some() =>
            {
                return Err("--referee-timeout, --referee-startup-timeout, \
                            --referee-max-turns and --referee-protocol need --referee"
                    .into());
            }
            None => None,
            Some(cmd) => {
                let base = std::env::current_dir()
                    .map_err(|e| format!("reading the current directory: {e}"))?;
                Some(
                    RefereeProgram::new(
                        cmd,
                        &base,
                        referee.timeout,
                        referee.startup_timeout,
                        referee.max_turns,
                        [
                            "--referee-timeout",
                            "--referee-startup-timeout",
                            "--referee-max-turns",
                        ],
                    )
                    .map_err(|e| format!("--referee: {e}"))?,
                )
            }
        };
        let program = &crate::games::program::INFO;
        let game = match (game, &referee) {
            (None, Some(_)) => program.name,
            (Some(g), Some(_)) if g != program.name => {
                return Err(format!(
                    "--referee plays the game its program referees: leave out --game {g}"
                ));
            }
            (Some(g), None) if g == program.name => {
                return Err(
                    "the game 'referee' is played by a referee program: give it with \
                     --referee CMD"
                        .into(),
                );
            }
            (Some(g), _) => g,
            (None, None) => return Err("give the game to play with --game GAME".into()),
        };
        let game = games::find_game(game)?;
        let mut given = Params::parse_pairs(pairs)?;
        if let Some(protocol) = &protocol {
            if given.iter().any(|(k, _)| *k == "protocol") {
                return Err("--referee-protocol is the protocol parameter: leave out -a protocol=".into());
            }
            given.push(("protocol", protocol));
        }
        let params = game
            .resolve_params(given)
            .map_err(|e| format!("{}: {e}", game.name))?;
        let check = match crate::referee::sdk::is_sdk_game(game, &params) {
            true => games::sdk_move_time,
            false => games::move_time,
        };
        let time = |what: &str, secs: Option<f64>, default: f64| {
            check(secs.unwrap_or(default)).map_err(|e| format!("{what} {e}"))
        };
        let (move_time, first_time) = crate::referee::sdk::default_times(game, &params);
        Ok(MatchOptions {
            game,
            timeout: time("--timeout", timeout, move_time)?,
            startup_timeout: time("--startup-timeout", startup_timeout, first_time)?,
            params,
            referee,
        })
    }
}
