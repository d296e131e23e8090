//! A game's opening: the log's header, and every seat and the referee program started at once
//! and warmed up.

use super::*;

/// The log's header: the game, its players and what it is played with.
pub(super) fn header(setup: &MatchSetup) -> Header {
    let now = std::time::SystemTime::now();
    Header {
        game: setup.game.name.to_string(),
        params: setup.params.clone(),
        seed: setup.seed,
        players: setup
            .players
            .iter()
            .map(|p| PlayerInfo {
                name: p.name.clone(),
                bot: p.bot.label.clone(),
            })
            .collect(),
        start: humantime::format_rfc3339_seconds(now).to_string(),
        start_ms: now
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64),
        timeout: setup.timeout.as_secs_f64(),
        startup_timeout: setup.startup_timeout.as_secs_f64(),
        arena: env!("CARGO_PKG_VERSION").to_string(),
        stderr_marks: true,
        opening: setup.opening.clone(),
        referee: setup.referee.as_ref().map(|r| RefereeInfo {
            command: r.bot.label.clone(),
            argv: match &r.bot.command {
                BotCommand::Program(argv) => argv.clone(),
                _ => Vec::new(),
            },
            timeout: r.timeout.as_secs_f64(),
            startup_timeout: r.startup_timeout.as_secs_f64(),
            max_turns: Some(r.max_turns),
            max_line: setup.limits.max_line,
        }),
    }
}

/// Every seat and the referee program, started at once; with the faults of those that failed
/// to start (the bot's, or the referee's).
pub(super) struct Opened {
    pub(super) seats: Vec<SeatState>,
    pub(super) faults: Vec<Option<Fault>>,
    pub(super) referee: Option<Link>,
    pub(super) referee_fault: Option<Fault>,
}

/// Start every seat and the referee program at once. A seat that did start is closed (its bot
/// killed) when dropped, as when another could not be started (arena's failure, the error).
pub(super) async fn open_all(setup: &MatchSetup) -> std::result::Result<Opened, String> {
    let seats = Seat::all(setup.players.len()).map(|seat| open_seat(setup, seat));
    let (seats, referee) = tokio::join!(futures_util::future::join_all(seats), open_referee(setup));
    let (referee, referee_fault) = referee?;
    let (seats, faults) = seats
        .into_iter()
        .collect::<std::result::Result<Vec<_>, _>>()?
        .into_iter()
        .unzip();
    Ok(Opened {
        seats,
        faults,
        referee,
        referee_fault,
    })
}

/// Let every bot start at once, as CodinGame's runner does, until each waits for its first input
/// or `deadline` (the startup allowance from the first spawn) has passed; each is stopped as soon
/// as it is there (docs/design.md, section Start-up). The game then starts with no bot's start-up
/// charged to its first move, and no bot able to run on another's time: a ready bot's other
/// threads (a JVM's compilers and collector) would otherwise take CPU from those still starting,
/// and a bot that never reaches a read from the first to move. Pondering bots are left running,
/// and so are those the game asks first, which would be let run again at once.
pub(super) async fn warm_up(seats: &mut [SeatState], first: Seats, setup: &MatchSetup, deadline: Instant) {
    let starting = Seat::all(seats.len())
        .zip(seats.iter_mut())
        .filter_map(|(seat, s)| match &mut s.io {
            SeatIo::Remote { conn, broken: None } => Some((seat, conn, &mut s.times)),
            _ => None,
        });
    let waits = starting.map(|(seat, conn, times)| async move {
        let hold = !setup.ponder && !first.contains(seat);
        if conn.until_ready(deadline, hold).await == Start::Starting {
            times.unready += 1;
        }
    });
    futures_util::future::join_all(waits).await;
}
