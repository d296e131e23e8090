//! The one referee loop: drives any `Game` between its seats, enforces deadlines while waiting,
//! writes the game log, and produces the result. Games never do I/O or keep time themselves.

use std::future::Future;
use std::pin::Pin;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::FutureExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokio::sync::mpsc::UnboundedSender;
use tokio::time::Instant;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, BotSpec, Capture, Connection, Event, Start, StartError};
use crate::seeds::derive_seed;
use crate::error::{Error, Result};
use crate::games::{GameInfo, Msg, Outbox, Params, Seat, Seating, Seats, Step};
use crate::failure::{Cause, Fault, FaultKind};

pub mod judge;
pub mod log;
mod opening;
pub mod program;
mod record;
pub mod sdk;
mod seat;
mod setup;
mod table;
pub mod times;

pub use judge::{Judge, Verdict};
use log::{GameLog, Header, PlayerInfo, RefereeInfo, clock};
use program::Link;
use program::RefereeProgram;
// The game's stages, each its own file; their items are the loop's, shared by glob.
use opening::*;
pub use record::{GameRecord, Played, format_score};
pub use seat::stderr_path;
use seat::*;
pub use setup::{MatchOptions, RefereeArgs};
use table::{Table, open_referee};

pub struct Player {
    pub name: String,
    pub bot: BotSpec,
}

/// Everything one game needs.
pub struct MatchSetup {
    pub game: &'static GameInfo,
    pub params: Params,
    pub seed: u64,
    /// One per seat, in seat order: as many as the game is played by.
    pub players: Vec<Player>,
    pub timeout: Duration,
    pub startup_timeout: Duration,
    pub limits: IoLimits,
    /// The JSONL log; each bot's stderr is kept beside it as `<stem>.seat<N>.stderr`.
    pub log_path: PathBuf,
    pub spectator: Option<UnboundedSender<String>>,
    /// Let a bot run while the game does not wait for it. Otherwise its processes are stopped
    /// until it is asked to move, so that it cannot take CPU its opponent is timed on.
    pub ponder: bool,
    /// The position the game starts from, in the game's own format; `None` for the usual start.
    pub opening: Option<String>,
    /// The program that referees a game of `referee` (`games::program`).
    pub referee: Option<RefereeProgram>,
    /// What sees the log's bytes as they are written (the report's live packers).
    pub tap: Option<Box<dyn log::Tap>>,
}

/// Play one game to its end, its log on disk. Bots that misbehave lose the game; only arena's own
/// failures (a log that cannot be written) are errors.
pub async fn play(setup: MatchSetup) -> Result<GameRecord> {
    play_unsynced(setup).await?.durable().await
}

/// Play one game to its end; the caller makes the log durable (`Played::durable`), so that a
/// tournament can start the next game while the disk catches up.
///
/// Boxed here, once, with nothing around it: a running game's future is as large as its largest
/// stage of either loop, every running game holds one, and an `async fn` around it held its
/// setup a second time (and its callers a third), 4 KiB a game for nothing (docs/design.md,
/// Memory).
pub fn play_unsynced(setup: MatchSetup) -> Pin<Box<dyn Future<Output = Result<Played>> + Send>> {
    if sdk::is_sdk(&setup) {
        Box::pin(sdk::play_unsynced(setup))
    } else {
        Box::pin(play_table(setup))
    }
}

/// A game of arena's own referee loop (every game but an SDK referee's).
///
/// Not an `async fn`, which would hold its setup twice (its argument, and the local the body
/// works on) for the whole game. The table and the opened seats are boxed: a local that is
/// borrowed keeps its room to the end of its block, beside every later stage's (docs/design.md,
/// Memory).
#[allow(clippy::manual_async_fn, reason = "an async fn holds its arguments twice")]
fn play_table(mut setup: MatchSetup) -> impl Future<Output = Result<Played>> + Send {
    async move {
        let _running = crate::bot::process::Running::start();
        let names: Vec<String> = setup.players.iter().map(|p| p.name.clone()).collect();
        let game = {
            let seating = Seating {
                names: names.clone(),
                seed: setup.seed,
                timeout: setup.timeout.as_secs_f64(),
                opening: setup.opening.clone(),
            };
            setup
                .game
                .new_game(&setup.params, &seating)
                .map_err(Error::Usage)?
        };
        let header = header(&setup);
        let start_ms = header.start_ms;
        let (log, again) = GameLog::create(&setup.log_path, header, setup.tap.take())?;
        if again {
            // Made at a bot's first byte: one left by the last attempt at this game must not
            // pass for what this one's bots said.
            for path in stderr_paths(&setup.log_path, names.len()) {
                let _ = std::fs::remove_file(path);
            }
        }
        let started = Instant::now();
        let opened = match Box::pin(open_all(&setup)).await {
            Ok(opened) => Box::new(opened),
            Err(e) => {
                // Not played: nothing of it may pass for a game. Without its log, a resume
                // would not know to clear what a bot that did start wrote on its stderr
                // meanwhile.
                drop(log);
                for path in stderr_paths(&setup.log_path, names.len()) {
                    let _ = std::fs::remove_file(path);
                }
                let _ = std::fs::remove_file(&setup.log_path);
                return Err(Error::Setup(format!(
                    "game {}: {e}",
                    setup.log_path.display()
                )));
            }
        };
        let mut table = Box::new(Table::new(&setup, game, opened.seats.len(), log, start_ms));
        Box::pin(table.begin(*opened, started + setup.startup_timeout)).await;
        table.play().await;
        Box::pin(table.finish(names, started)).await
    }
}
