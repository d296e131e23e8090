//! The one referee loop: drives any `Game` between two seats, enforces deadlines while waiting,
//! writes the game log, and produces the result. Games never do I/O or keep time themselves.

use std::path::PathBuf;
use std::time::Duration;

use futures_util::FutureExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
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
pub mod program;
pub mod sdk;
mod setup;
pub mod times;

pub use judge::{Judge, Verdict};
use log::{GameLog, Header, PlayerInfo, RefereeInfo, clock};
use program::Link;
use program::RefereeProgram;
pub use setup::{MatchOptions, RefereeArgs};

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

/// One finished game, as `--json` prints it and the tables record it.
#[derive(Debug, Clone, Serialize)]
pub struct GameRecord {
    pub game: String,
    /// One name per seat.
    pub players: Vec<String>,
    /// The judge's verdict, its fields inline in the JSON.
    #[serde(flatten)]
    pub verdict: Verdict,
    pub seed: u64,
    pub duration_ms: u64,
    pub log: String,
    /// Each seat's answer times, in seat order (empty where nothing was timed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub times: Vec<times::AnswerTimes>,
}

impl GameRecord {
    /// The record of a game of `setup` begun at `started`, and its JSON for the log's end.
    fn of(
        setup: &MatchSetup,
        players: Vec<String>,
        verdict: Verdict,
        started: Instant,
        times: Vec<times::AnswerTimes>,
    ) -> (GameRecord, serde_json::Value) {
        let record = GameRecord {
            game: setup.game.name.to_string(),
            players,
            verdict,
            seed: setup.seed,
            duration_ms: started.elapsed().as_millis() as u64,
            log: setup.log_path.display().to_string(),
            times,
        };
        let result = serde_json::to_value(&record).expect("a record serialises");
        (record, result)
    }

    /// The line printed when game `id` ends: who played, the score, why it ended, and the fault.
    pub fn finished_line(&self, id: usize) -> String {
        let v = &self.verdict;
        let mut line = match self.players.len() {
            2 => format!(
                "Finished game {id} ({} vs {}): {}-{} {}, {} plies",
                self.players[0],
                self.players[1],
                format_score(v.scores[0]),
                format_score(v.scores[1]),
                v.reason.as_str(),
                v.plies
            ),
            _ => format!(
                "Finished game {id} ({}): places {} {}, {} plies",
                self.players.join(" vs "),
                v.places,
                v.reason.as_str(),
                v.plies
            ),
        };
        match (v.faulted, &v.detail) {
            (Some(seat), Some(detail)) => {
                line.push_str(&format!(": {} {detail}", self.players[seat]))
            }
            (None, Some(detail)) => line.push_str(&format!(": {detail}")),
            _ => {}
        }
        // With more players, the failures the game went on after.
        for out in v.out.iter().filter(|o| Some(o.seat) != v.faulted) {
            line.push_str(&format!("; {} {}", self.players[out.seat], out.detail));
        }
        line
    }
}

/// A seat's score as the lines print it: `1`, `0`, or `1/2`.
pub fn format_score(x: f64) -> String {
    if x == 0.5 {
        "1/2".into()
    } else {
        format!("{x}")
    }
}

/// The stderr capture file of a seat, beside the game log.
pub fn stderr_path(log_path: &std::path::Path, seat: impl Into<Seat>) -> PathBuf {
    let seat: Seat = seat.into();
    log_path.with_extension(format!("seat{}.stderr", seat.index()))
}

enum SeatIo {
    Builtin {
        name: String,
        rng: Box<ChaCha8Rng>,
    },
    Remote {
        conn: Box<Connection>,
        /// Writing to the bot failed; it fails when next awaited (not before: it may already
        /// have said all it had to).
        broken: Option<Fault>,
    },
    /// Could not be started; its fault is already recorded.
    Gone,
}

/// A seat's bot and the state of its turn.
struct SeatState {
    io: SeatIo,
    /// When the current wait for this seat began: the moment its prompt was written.
    turn_start: Option<Instant>,
    /// Lines accepted so far; the first gets the startup allowance.
    moves: u32,
    /// Of those, the lines of the game's greeting, which are not moves.
    greetings: u32,
    /// How long its answers took.
    times: times::AnswerTimes,
}

impl SeatState {
    /// The move the seat is on, as `at_move` and the failures count it: 1 for its first.
    fn next_move(&self) -> u32 {
        self.moves - self.greetings + 1
    }
}

/// A seat ready to play, with the bot's fault if it failed to start; an error when arena could
/// not start it.
async fn open_seat(
    setup: &MatchSetup,
    seat: Seat,
) -> std::result::Result<(SeatState, Option<Fault>), String> {
    let bot = &setup.players[seat].bot;
    let (io, fault) = match &bot.command {
        BotCommand::Builtin(name) => (
            SeatIo::Builtin {
                name: name.clone(),
                rng: Box::new(ChaCha8Rng::seed_from_u64(derive_seed(
                    setup.seed,
                    100 + seat.index() as u64,
                ))),
            },
            None,
        ),
        _ => match Connection::spawn(
            bot,
            &stderr_path(&setup.log_path, seat),
            setup.startup_timeout,
            setup.limits,
        )
        .await
        {
            Ok(conn) => (
                SeatIo::Remote {
                    conn: Box::new(conn),
                    broken: None,
                },
                None,
            ),
            Err(StartError::Bot(f)) => (SeatIo::Gone, Some(f)),
            Err(StartError::Arena(e)) => return Err(e),
        },
    };
    let state = SeatState {
        io,
        turn_start: None,
        moves: 0,
        greetings: 0,
        times: times::AnswerTimes::default(),
    };
    Ok((state, fault))
}

/// Where the referee's output goes: the log, the seats, the spectators.
struct Wire<'a> {
    log: GameLog,
    spectator: Option<&'a UnboundedSender<String>>,
    timeout: Duration,
    /// Each seat's lines, gathered to go out in one write.
    buf: Vec<Vec<u8>>,
}

impl Wire<'_> {
    /// Log and deliver a game's messages in order; each seat's lines go out in one write.
    async fn deliver(&mut self, out: &mut Outbox, seats: &mut [SeatState]) {
        for msg in out.take() {
            match msg {
                Msg::To(seat, line) => {
                    self.log.sent(seat, &line);
                    if matches!(seats[seat].io, SeatIo::Remote { .. }) {
                        self.buf[seat].extend_from_slice(line.as_bytes());
                        self.buf[seat].push(b'\n');
                    }
                }
                Msg::Spectators(line) => {
                    self.log.spectators(&line);
                    if let Some(tx) = self.spectator {
                        let _ = tx.send(line);
                    }
                }
                Msg::Pause(d) => {
                    self.flush(seats).await;
                    tokio::time::sleep(d).await;
                }
            }
        }
        self.flush(seats).await;
    }

    async fn flush(&mut self, seats: &mut [SeatState]) {
        for (state, buf) in seats.iter_mut().zip(self.buf.iter_mut()) {
            if buf.is_empty() {
                continue;
            }
            let at = state.next_move();
            if let SeatIo::Remote { conn, broken } = &mut state.io
                && broken.is_none()
            {
                *broken = match tokio::time::timeout(self.timeout, conn.send(buf)).await {
                    Ok(Ok(())) => None,
                    // Ended while it started (a runtime that could not): what it said and how it
                    // ended, read next, tell more than its closed input.
                    Ok(Err(_)) if conn.ended() => None,
                    Ok(Err(e)) => Some(
                        Fault::new(
                            FaultKind::Crash,
                            format!("closed its input before move {at} ({e})"),
                        )
                        .because(Cause::ClosedInput)
                        .at_move(at),
                    ),
                    Err(_) => Some(
                        Fault::new(
                            FaultKind::Timeout,
                            format!(
                                "stopped reading its input before move {at} (blocked for {} s)",
                                self.timeout.as_secs_f64()
                            ),
                        )
                        .because(Cause::StoppedReading)
                        .at_move(at),
                    ),
                };
            }
            buf.clear();
        }
    }
}

/// Play one game to its end, its log on disk. Bots that misbehave lose the game; only arena's own
/// failures (a log that cannot be written) are errors.
pub async fn play(setup: MatchSetup) -> Result<GameRecord> {
    play_unsynced(setup).await?.durable().await
}

/// A game played out whose log is written but not yet synced to disk, and whose bots' stderr
/// may still be on its way to their files (`settle` waits for it).
pub struct Played {
    pub record: GameRecord,
    log: GameLog,
    result: serde_json::Value,
    /// The bots' stderr, possibly still on its way to their files.
    captures: Vec<Capture>,
}

impl Played {
    /// Whether the bots' stderr is all in their files.
    pub fn settled(&self) -> bool {
        self.captures.iter().all(Capture::is_done)
    }

    /// Wait until the bots' stderr is all in their files (or cut off after the grace): a game
    /// counts with all its files complete. Both seats at once, so a game waits one grace at most.
    pub async fn settle(&mut self) {
        futures_util::future::join_all(self.captures.drain(..).map(Capture::finish)).await;
    }

    /// Write the result into the log and wait for the disk. On the blocking pool: a runtime
    /// thread would stop relaying other games meanwhile.
    pub async fn durable(mut self) -> Result<GameRecord> {
        self.settle().await;
        tokio::task::spawn_blocking(move || self.finish())
            .await
            .map_err(|e| Error::Internal(format!("writing a game log: {e}")))?
    }

    /// The same, blocking the calling thread, for a settled game.
    fn finish(self) -> Result<GameRecord> {
        debug_assert!(
            self.settled(),
            "a game counts once its stderr is in its files"
        );
        let Played {
            record,
            log,
            result,
            ..
        } = self;
        log.finish(result).map(|()| record)
    }

    /// Make several settled games durable at once, blocking the calling thread: cheaper than
    /// one by one (see `log::finish_all`). Their records, in the same order.
    pub fn finish_all(games: impl IntoIterator<Item = Played>) -> Result<Vec<GameRecord>> {
        let (records, logs): (Vec<_>, Vec<_>) = games
            .into_iter()
            .map(|p| {
                debug_assert!(p.settled(), "a game counts once its stderr is in its files");
                (p.record, (p.log, p.result))
            })
            .unzip();
        log::finish_all(logs).map(|()| records)
    }
}

/// Play one game to its end; the caller makes the log durable (`Played::durable`), so that a
/// tournament can start the next game while the disk catches up.
pub async fn play_unsynced(setup: MatchSetup) -> Result<Played> {
    // Boxed, each: a running game's future is as large as its largest stage of either loop, and
    // every running game holds one (docs/design.md, Memory).
    if sdk::is_sdk(&setup) {
        Box::pin(sdk::play_unsynced(setup)).await
    } else {
        Box::pin(play_table(setup)).await
    }
}

/// A game of arena's own referee loop (every game but an SDK referee's).
async fn play_table(mut setup: MatchSetup) -> Result<Played> {
    let names: Vec<String> = setup.players.iter().map(|p| p.name.clone()).collect();
    let seating = Seating {
        names: names.clone(),
        seed: setup.seed,
        timeout: setup.timeout.as_secs_f64(),
        opening: setup.opening.clone(),
    };
    let game = setup
        .game
        .new_game(&setup.params, &seating)
        .map_err(Error::Usage)?;
    let header = header(&setup);
    let start_ms = header.start_ms;
    let (log, again) = GameLog::create(&setup.log_path, header, setup.tap.take())?;
    if again {
        // Made at a bot's first byte: one left by the last attempt at this game must not pass
        // for what this one's bots said.
        for path in stderr_paths(&setup.log_path, names.len()) {
            let _ = std::fs::remove_file(path);
        }
    }
    let started = Instant::now();
    let opened = match Box::pin(open_all(&setup)).await {
        Ok(opened) => opened,
        Err(e) => {
            // Not played: nothing of it may pass for a game. Without its log, a resume would
            // not know to clear what a bot that did start wrote on its stderr meanwhile.
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
    let mut table = Table::new(&setup, game, opened.seats.len(), log, start_ms);
    Box::pin(table.begin(opened, started + setup.startup_timeout)).await;
    table.play().await;
    Box::pin(table.finish(names, started)).await
}

/// The log's header: the game, its players and what it is played with.
fn header(setup: &MatchSetup) -> Header {
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
struct Opened {
    seats: Vec<SeatState>,
    faults: Vec<Option<Fault>>,
    referee: Option<Link>,
    referee_fault: Option<Fault>,
}

/// Start every seat and the referee program at once. A seat that did start is closed (its bot
/// killed) when dropped, as when another could not be started (arena's failure, the error).
async fn open_all(setup: &MatchSetup) -> std::result::Result<Opened, String> {
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
async fn warm_up(seats: &mut [SeatState], first: Seats, setup: &MatchSetup, deadline: Instant) {
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

/// A game in play: its seats, the judge, and where what it says goes.
struct Table<'a> {
    setup: &'a MatchSetup,
    seats: Vec<SeatState>,
    wire: Wire<'a>,
    judge: Judge,
    out: Outbox,
    referee: Option<Link>,
    start_ms: u64,
}

impl<'a> Table<'a> {
    fn new(
        setup: &'a MatchSetup,
        game: Box<dyn crate::games::Game>,
        players: usize,
        log: GameLog,
        start_ms: u64,
    ) -> Table<'a> {
        Table {
            setup,
            seats: Vec::new(),
            wire: Wire {
                log,
                spectator: setup.spectator.as_ref(),
                timeout: setup.timeout,
                buf: vec![Vec::new(); players],
            },
            judge: Judge::new(game, players),
            out: Outbox {
                now_ms: start_ms,
                ..Outbox::default()
            },
            referee: None,
            start_ms,
        }
    }

    /// The opening lines once every bot has started (or `ready_by` has passed), then the
    /// failures of those that could not start.
    async fn begin(&mut self, opened: Opened, ready_by: Instant) {
        self.seats = opened.seats;
        self.referee = opened.referee;
        self.judge.start(&mut self.out);
        warm_up(&mut self.seats, self.judge.awaiting(), self.setup, ready_by).await;
        freeze_idle(&mut self.seats, self.judge.awaiting(), self.setup);
        self.deliver().await;
        for (seat, fault) in Seat::all(self.seats.len()).zip(opened.faults) {
            if let Some(f) = fault {
                self.out.now_ms = clock(self.start_ms, self.wire.log.fault(seat, &f));
                self.judge.fault(seat, f, &mut self.out);
                self.deliver().await;
            }
        }
        if let Some(f) = opened.referee_fault {
            self.wire.log.referee_fault(&f);
            self.judge.referee_failed(f);
        }
    }

    async fn deliver(&mut self) {
        self.wire.deliver(&mut self.out, &mut self.seats).await;
    }

    /// Play to the end: the referee program when the game waits for it, else the players.
    async fn play(&mut self) {
        loop {
            // A referee program speaks between the players' moves, one line at a time, each
            // delivered before the next is read.
            if let Some(link) = self.referee.as_mut().filter(|_| self.judge.wants_referee()) {
                hear_referee(
                    link,
                    &mut self.judge,
                    &mut self.wire,
                    &mut self.out,
                    self.start_ms,
                )
                .await;
                freeze_idle(&mut self.seats, self.judge.awaiting(), self.setup);
                self.deliver().await;
                continue;
            }
            if self.judge.is_over() {
                break;
            }
            self.hear_players().await;
            // Stopped before the next prompt goes out, not after: once it is written, the bot
            // to move is thinking, and on a busy machine arena may run again only much later.
            // Not once the game is over: the bots only read their last lines and exit, and
            // stopping them to start them again for that costs two writes to each cgroup and
            // their wake-ups. (A referee program's game awaits no seat while the referee has
            // the turn: not over.)
            let over =
                self.judge.is_over() && !(self.referee.is_some() && self.judge.wants_referee());
            if !over {
                freeze_idle(&mut self.seats, self.judge.awaiting(), self.setup);
            }
            self.deliver().await;
        }
    }

    /// The next line of a seat the game waits for, and any others already there.
    async fn hear_players(&mut self) {
        let awaiting = self.judge.awaiting();
        let (seat, heard) =
            next_line(&mut self.seats, awaiting, &self.judge, self.setup, true).await;
        self.take_line(seat, heard);
        // Where several seats move at once, the others' lines are often there already: taken
        // now, the seat that answered first need not be stopped and started again for nothing
        // (two writes to its cgroup, two wake-ups, its read restarted). Only while nothing is
        // to be sent: a seat's wait starts when its prompt is written.
        while !self.judge.is_over() && !self.judge.wants_referee() && self.out.msgs.is_empty() {
            let awaiting = self.judge.awaiting();
            let ready = next_line(&mut self.seats, awaiting, &self.judge, self.setup, false);
            let Some((seat, heard)) = ready.now_or_never() else {
                break;
            };
            self.take_line(seat, heard);
        }
    }

    /// Log what a seat said (or how it failed) and hand it to the judge.
    fn take_line(&mut self, seat: Seat, heard: std::result::Result<String, Fault>) {
        let out = &mut self.out;
        match heard {
            Ok(line) => {
                out.now_ms = clock(self.start_ms, self.wire.log.received(seat, &line));
                let greeting = self.judge.game().greeting();
                let state = &mut self.seats[seat];
                let limit = allowance(state, self.setup);
                let took = state.turn_start.map(|t| t.elapsed());
                match self.judge.line(seat, &line, out) {
                    Ok(Step::Done) => {
                        if let Some(took) = took {
                            self.seats[seat].times.record(took, limit);
                        }
                        self.seats[seat].moves += 1;
                        self.seats[seat].greetings += u32::from(greeting);
                        self.seats[seat].turn_start = None;
                    }
                    Ok(Step::Retry | Step::More) => {}
                    Err(f) => {
                        self.wire.log.fault(seat, &f);
                    }
                }
            }
            Err(f) => {
                if f.kind == FaultKind::Timeout && f.cause != Cause::StoppedReading {
                    // Late: counted as an answer at its allowance, near the limit.
                    let limit = allowance(&self.seats[seat], self.setup);
                    self.seats[seat].times.record(limit, limit);
                }
                out.now_ms = clock(self.start_ms, self.wire.log.fault(seat, &f));
                self.judge.fault(seat, f, out);
            }
        }
    }

    /// The verdict, every bot and the referee closed, their exits logged.
    async fn finish(mut self, names: Vec<String>, started: Instant) -> Result<Played> {
        for seat in Seat::all(self.seats.len()) {
            restate_early(
                &mut self.judge,
                &mut self.seats[seat],
                seat,
                &mut self.wire.log,
            )
            .await;
        }
        let verdict = self.judge.verdict();
        let times = self.seats.iter().map(|s| s.times).collect();
        let closing = self.seats.into_iter().map(|s| close(s.io));
        let (seats, (referee_exit, referee_capture)) =
            tokio::join!(futures_util::future::join_all(closing), async {
                match self.referee {
                    Some(link) => {
                        let (how, capture) = link.close().await;
                        (Some(how).filter(|s| !s.is_empty()), Some(capture))
                    }
                    None => (None, None),
                }
            });
        // Whatever escaped the bots' process groups and was re-parented to arena goes too.
        crate::bot::reaper::sweep();
        let mut log = self.wire.log;
        let mut captures = Vec::new();
        for (seat, (status, capture)) in Seat::all(names.len()).zip(seats) {
            if let Some(status) = status {
                log.exit(seat, &status);
            }
            captures.extend(capture);
        }
        if let Some(status) = referee_exit {
            log.referee_exit(&status);
        }
        captures.extend(referee_capture);
        let (record, result) = GameRecord::of(self.setup, names, verdict, started, times);
        Ok(Played {
            record,
            log,
            result,
            captures,
        })
    }
}

/// A bot whose first answer failed (a line that was no move, its input closed) and that then
/// exits failing on its own never got to play: its program or runtime could not start, and may
/// have written why on its move stream (a Java VM under an address-space limit does). That is
/// said plainly, as how it ended before its first move, instead of as a protocol fault.
async fn restate_early(judge: &mut Judge, state: &mut SeatState, seat: Seat, log: &mut GameLog) {
    let Some(fault) = judge.fault_of(seat) else {
        return;
    };
    let restatable = match fault.cause {
        Cause::Refused | Cause::TooLong | Cause::NotUtf8 => Some(true),
        Cause::ClosedInput | Cause::StoppedReading => Some(false),
        _ => None,
    };
    let (SeatIo::Remote { conn, .. }, 0, Some(quote)) = (&mut state.io, state.moves, restatable)
    else {
        return;
    };
    let Some((exit, how)) = conn.failed_on_its_own(&fault.detail).await else {
        return;
    };
    let kind = match exit {
        crate::failure::Exit::MemoryLimit => FaultKind::Memory,
        _ => FaultKind::Crash,
    };
    // How it ended first: a long quote is what gives way to the detail's bound.
    let detail = match quote {
        true => format!(
            "failed before its first move: it {how}; before that it {}",
            fault.detail.trim_end_matches('.')
        ),
        false => format!("failed before its first move: it {how}"),
    };
    let mut plainly = Fault::new(kind, detail).because(Cause::Exited(exit));
    plainly.at_move = Some(1);
    log.restated_fault(seat, &plainly);
    judge.restate(seat, plainly);
}

/// Every stderr capture a game may leave beside its log: each seat's, and a referee program's.
fn stderr_paths(log_path: &std::path::Path, players: usize) -> Vec<PathBuf> {
    Seat::all(players)
        .map(|seat| stderr_path(log_path, seat))
        .chain([program::stderr_path(log_path)])
        .collect()
}

/// The game's referee program started, or the fault that kept it from starting (the game then
/// counts for no one); an error when arena could not start it.
async fn open_referee(
    setup: &MatchSetup,
) -> std::result::Result<(Option<Link>, Option<Fault>), String> {
    let Some(program) = &setup.referee else {
        return Ok((None, None));
    };
    let limits = IoLimits {
        framing: crate::failure::Framing::Lines,
        ..setup.limits
    };
    let stderr = program::stderr_path(&setup.log_path);
    match Link::spawn(program, &stderr, limits).await {
        Ok(link) => Ok((Some(link), None)),
        Err(StartError::Bot(f)) => Ok((None, Some(f))),
        Err(StartError::Arena(e)) => Err(e),
    }
}

/// Write the referee program what it is owed (the players' lines) and hear its next line; a
/// line that breaks its protocol, or no line in time, is its failure.
async fn hear_referee(
    link: &mut Link,
    judge: &mut Judge,
    wire: &mut Wire<'_>,
    out: &mut Outbox,
    start_ms: u64,
) {
    let lines = judge.take_for_referee();
    for l in &lines {
        wire.log.to_referee(l);
    }
    let failed = match link.ask(&lines).await {
        Ok(line) => {
            out.now_ms = clock(start_ms, wire.log.from_referee(&line));
            let broke = judge.referee_line(&line, out).err();
            broke.or_else(|| past_turns(judge, link.max_turns()))
        }
        Err(f) => {
            judge.referee_failed(f.clone());
            Some(f)
        }
    };
    if let Some(f) = failed {
        wire.log.referee_fault(&f);
    }
}

/// A referee that asks for a move when its game has had all its turns fails: it would
/// otherwise go on for ever.
fn past_turns(judge: &mut Judge, max_turns: u32) -> Option<Fault> {
    if judge.game().plies() < max_turns || judge.awaiting().is_empty() {
        return None;
    }
    let f = program::over_turns(max_turns);
    judge.referee_failed(f.clone());
    Some(f)
}

async fn close(io: SeatIo) -> (Option<String>, Option<Capture>) {
    match io {
        SeatIo::Remote { conn, .. } => {
            let (how, capture) = (*conn).close().await;
            (Some(how).filter(|s| !s.is_empty()), Some(capture))
        }
        _ => (None, None),
    }
}

fn allowance(state: &SeatState, setup: &MatchSetup) -> Duration {
    if state.moves == 0 {
        setup.startup_timeout
    } else {
        setup.timeout
    }
}

/// Stop the bots the game will not wait for (unless they may ponder).
fn freeze_idle(seats: &mut [SeatState], awaiting: Seats, setup: &MatchSetup) {
    if setup.ponder {
        return;
    }
    for (seat, state) in Seat::all(seats.len()).zip(seats.iter_mut()) {
        if let SeatIo::Remote { conn, .. } = &mut state.io
            && !awaiting.contains(seat)
        {
            conn.set_frozen(true);
        }
    }
}

/// Wait for whichever awaited seat speaks first, or fails: misses its deadline, exits, floods.
/// Built-in bots answer at once; a seat whose input broke fails as soon as it is awaited.
/// `freeze`: stop the seats not awaited first (not when only looking for a line already there).
async fn next_line(
    seats: &mut [SeatState],
    awaiting: Seats,
    judge: &Judge,
    setup: &MatchSetup,
    freeze: bool,
) -> (Seat, std::result::Result<String, Fault>) {
    if freeze && !setup.ponder {
        // Frozen while not awaited; games where several move at once await them all.
        for (seat, state) in Seat::all(seats.len()).zip(seats.iter_mut()) {
            if let SeatIo::Remote { conn, .. } = &mut state.io {
                conn.set_frozen(!awaiting.contains(seat));
            }
        }
    }
    let now = Instant::now();
    for seat in awaiting.iter() {
        let state = &mut seats[seat];
        state.turn_start.get_or_insert(now);
        match &mut state.io {
            SeatIo::Builtin { name, rng } => {
                return (seat, Ok(judge.game().builtin_line(seat, name, rng)));
            }
            SeatIo::Remote {
                broken: Some(f), ..
            } => return (seat, Err(f.clone())),
            SeatIo::Remote { .. } => {}
            SeatIo::Gone => unreachable!("a seat that never started has failed already"),
        }
    }
    let (seat, event) = first_event(seats, awaiting, setup).await;
    let s = &seats[seat];
    let at = s.next_move();
    let heard = match event {
        Event::Line(line) => Ok(line),
        Event::Timeout => Err(event
            .into_fault(
                &format!(
                    "at move {at} after {} s waiting for a line",
                    allowance(s, setup).as_secs_f64()
                ),
                setup.limits.max_line,
            )
            .at_move(at)),
        other => Err(other
            .into_fault(&format!("at move {at}"), setup.limits.max_line)
            .at_move(at)),
    };
    (seat, heard)
}

/// The first event of the awaited seats' bots. One seat, the usual case, is waited on alone:
/// no future is boxed for a move.
async fn first_event(
    seats: &mut [SeatState],
    awaiting: Seats,
    setup: &MatchSetup,
) -> (Seat, Event) {
    let mut waits: Vec<_> = Seat::all(seats.len())
        .zip(seats.iter_mut())
        .filter(|(seat, _)| awaiting.contains(*seat))
        .collect();
    if waits.len() == 1 {
        let (seat, state) = waits.pop().expect("one");
        return (seat, wait(state, setup).await);
    }
    let futures = waits
        .into_iter()
        .map(|(seat, state)| Box::pin(async move { (seat, wait(state, setup).await) }));
    futures_util::future::select_all(futures).await.0
}

async fn wait(state: &mut SeatState, setup: &MatchSetup) -> Event {
    let deadline = state.turn_start.unwrap_or_else(Instant::now) + allowance(state, setup);
    match &mut state.io {
        SeatIo::Remote { conn, .. } => conn.next_event(deadline).await,
        _ => unreachable!("only remote seats are waited on"),
    }
}
