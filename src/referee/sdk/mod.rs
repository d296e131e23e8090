//! Games refereed by a CodinGame game-engine SDK referee (cg-brutaltester's default mode): a
//! program that starts its players itself, from `-p1 CMD -p2 CMD ...`, feeds and times them,
//! and prints their scores when the game is over.
//!
//! arena gives the referee a seat relay for each player (`relay`), not the bot, so that the bots
//! stay arena's: started, sandboxed, limited and ended by arena, their stderr captured whole.
//! Each seat's bytes pass through this loop, which logs every input and answer, times each
//! answer, and freezes every bot but the one the referee has just written to (the SDK asks one
//! player at a time). The SDK keeps its own deadlines and decides the game; arena decides only
//! what it saw itself: a bot that crashed, ran out of memory or flooded loses with that reason.

mod link;
pub mod recorded;
pub mod relay;
mod scores;

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::OptionFuture;
use tokio::io::AsyncWriteExt;
use tokio::net::UnixListener;
use tokio::time::Instant;

use link::{Links, RelayWriter, Relayed};

use crate::games::program::{SDK_TIMES, java_seed, seed_args};

use super::log::{GameLog, clock};
use super::program::{self, RefereeProgram};
use super::times::AnswerTimes;
use super::{GameRecord, Judge, MatchSetup, Played, stderr_path, stderr_paths};
use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, BotSpec, Capture, Connection, Event, StartError};
use crate::error::{Error, Result};
use crate::games::{Game, Outbox, Places, Ranking, Seat, Seats, Step};
use crate::failure::{Cause, Fault, FaultKind, Framing, Reason};

/// Whether a referee was seen to ignore its seed: said once a run, not for every game.
static SEED_WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a game is played by an SDK referee.
pub fn is_sdk(setup: &MatchSetup) -> bool {
    setup.referee.is_some() && is_sdk_game(setup.game, &setup.params)
}

/// Whether a game and its parameters name an SDK referee's game.
pub fn is_sdk_game(game: &crate::games::GameInfo, params: &crate::games::Params) -> bool {
    game.name == crate::games::program::INFO.name && params.text("protocol") == "sdk"
}

/// Whether a log's header records an SDK referee's game (old logs have no `protocol`).
pub fn is_sdk_header(header: &super::log::Header) -> bool {
    header.referee.is_some()
        && header
            .params
            .pairs()
            .iter()
            .any(|(k, v)| k == "protocol" && v == "sdk")
}

/// A game's default seconds per move and for the first: an SDK referee's are the SDK's own
/// (`turnMaxTime` 50 ms, `firstTurnMaxTime` 1 s), which it keeps itself; arena times the answers
/// against them.
pub fn default_times(
    game: &crate::games::GameInfo,
    params: &crate::games::Params,
) -> (f64, f64) {
    match is_sdk_game(game, params) {
        true => SDK_TIMES,
        false => (game.timeout, game.startup_timeout),
    }
}

/// The SDK's own game log (`-l`), kept beside arena's.
pub fn sdk_log_path(log_path: &Path) -> PathBuf {
    log_path.with_extension("sdk.json")
}

/// Play one game through an SDK referee. As `referee::play_unsynced`: bots that misbehave lose,
/// a referee that fails makes the game count for no one, and only arena's own failures are
/// errors.
///
/// Not an `async fn`, which would hold its setup twice for the whole game (as
/// `referee::play_table`).
#[allow(clippy::manual_async_fn, reason = "an async fn holds its arguments twice")]
pub fn play_unsynced(mut setup: MatchSetup) -> impl Future<Output = Result<Played>> + Send {
    async move {
        let _running = crate::bot::process::Running::start();
        let names: Vec<String> = setup.players.iter().map(|p| p.name.clone()).collect();
        let n = names.len();
        // Each value made in the smallest block that holds it: a local's room lasts to the end of
        // its block even once moved out, and this future holds the room of every local that spans
        // one of its waits (docs/design.md, Memory).
        let (log, start_ms) = {
            let header = super::header(&setup);
            let start_ms = header.start_ms;
            let (log, again) = GameLog::create(&setup.log_path, header, setup.tap.take())?;
            if again {
                for path in stderr_paths(&setup.log_path, n) {
                    let _ = std::fs::remove_file(path);
                }
                let _ = std::fs::remove_file(sdk_log_path(&setup.log_path));
            }
            (log, start_ms)
        };
        let started = Instant::now();
        let (rendezvous, listeners) = match listen(n) {
            Ok(listening) => listening,
            Err(e) => return Err(not_set_up(&setup, e, log)),
        };
        // Each stage boxed: the game's own future is then its locals (2.2 KiB), not the sum of
        // its stages' states (14 KiB), for every running game (docs/design.md, Memory).
        let (mut seats, early) = match Box::pin(start_bots(&setup)).await {
            Ok(started) => started,
            Err(e) => return Err(not_set_up(&setup, e, log)),
        };
        Box::pin(warm_up(&mut seats, &setup, started + setup.startup_timeout)).await;
        // Closed with the game, whether their relays ever connected or not.
        let relays = Links::new(listeners);
        let program = setup.referee.as_ref().expect("an SDK game has its referee");
        let mut table = Table {
            setup: &setup,
            log,
            start_ms,
            seats,
            turns: 0,
            awaited: None,
            referee_out: Vec::new(),
            referee_bytes: 0,
            referee_fault: None,
            relay_lost: None,
            waits: 0,
        };
        for (seat, f) in early {
            table.seat_failed(seat, f);
        }
        let referee_end = {
            let playing = match Box::pin(start_referee(&setup, program, &rendezvous)).await {
                Ok(conn) => Some(Box::pin(table.play(conn, relays))),
                Err(StartError::Bot(f)) => {
                    table.referee_fault = Some(f);
                    None
                }
                Err(StartError::Arena(e)) => return Err(not_set_up(&setup, e, table.log)),
            };
            match playing {
                Some(playing) => Some(close_referee(playing.await)),
                None => None,
            }
        };
        let record = Box::pin(table.finish(names, referee_end, started)).await;
        drop(rendezvous);
        Ok(record)
    }
}

/// A game arena could not set up: nothing of it may pass for a game, so its log and what its
/// bots wrote go.
fn not_set_up(setup: &MatchSetup, e: String, log: GameLog) -> Error {
    drop(log);
    for path in stderr_paths(&setup.log_path, setup.players.len()) {
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_file(&setup.log_path);
    Error::Setup(format!("game {}: {e}", setup.log_path.display()))
}

/// The seats' relay sockets, each listened on before the referee starts.
fn listen(n: usize) -> std::result::Result<(relay::Rendezvous, Vec<UnixListener>), String> {
    let rendezvous = relay::Rendezvous::new()?;
    let listeners = (0..n)
        .map(|i| {
            UnixListener::bind(rendezvous.socket(i))
                .map_err(|e| format!("opening seat {}'s relay socket: {e}", i + 1))
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok((rendezvous, listeners))
}

/// Every seat's bot, started at once; with the faults of those that could not start (theirs).
/// An error is arena's: the game cannot be set up.
async fn start_bots(
    setup: &MatchSetup,
) -> std::result::Result<(Vec<SeatState>, Vec<(Seat, Fault)>), String> {
    let n = setup.players.len();
    let bots = futures_util::future::join_all(Seat::all(n).map(|s| start_bot(setup, s))).await;
    let mut seats = Vec::with_capacity(n);
    let mut early = Vec::new();
    for (seat, bot) in Seat::all(n).zip(bots) {
        match bot {
            Ok(conn) => seats.push(SeatState::new(Some(conn))),
            Err(StartError::Bot(f)) => {
                early.push((seat, f));
                seats.push(SeatState::new(None));
            }
            Err(StartError::Arena(e)) => return Err(e),
        }
    }
    Ok((seats, early))
}

/// Every bot starts at once and runs until it waits for its first input (or the startup
/// allowance has passed), then is held until the referee first writes to it: no bot's start-up
/// is charged to its first turn, and none thinks on another's time (docs/design.md, Start-up).
async fn warm_up(seats: &mut [SeatState], setup: &MatchSetup, ready_by: Instant) {
    let warming = seats.iter_mut().filter_map(|s| {
        let times = &mut s.times;
        s.conn.as_mut().map(|conn| async move {
            if conn.until_ready(ready_by, !setup.ponder).await == crate::bot::Start::Starting {
                times.unready += 1;
            }
        })
    });
    futures_util::future::join_all(warming).await;
}

/// A bot, started as for any game; the referee reaches it through its relay.
async fn start_bot(
    setup: &MatchSetup,
    seat: Seat,
) -> std::result::Result<Connection, StartError> {
    let bot = &setup.players[seat].bot;
    if !matches!(bot.command, BotCommand::Program(_)) {
        return Err(StartError::Arena(format!(
            "{}: an SDK referee's players are programs (no built-in bots, no terminal)",
            setup.players[seat].name
        )));
    }
    let limits = IoLimits {
        framing: Framing::AnyLineEnd,
        ..setup.limits
    };
    let conn = Connection::spawn(
        bot,
        &stderr_path(&setup.log_path, seat),
        setup.startup_timeout,
        limits,
    )
    .await?;
    Ok(conn)
}

/// The referee, started with a relay for each player, the seed, and its own log's path.
async fn start_referee(
    setup: &MatchSetup,
    program: &RefereeProgram,
    rendezvous: &relay::Rendezvous,
) -> std::result::Result<Connection, StartError> {
    let BotCommand::Program(argv) = &program.bot.command else {
        unreachable!("a referee is a program (RefereeProgram::new)");
    };
    let mut argv = argv.clone();
    for i in 0..setup.players.len() {
        argv.push(format!("-p{}", i + 1));
        argv.push(rendezvous.command(i));
    }
    argv.extend(
        seed_args(
            setup.params.text("seed_form"),
            setup.params.text("seed") == "send",
            setup.seed,
        )
        .map_err(|e| StartError::Arena(e.to_string()))?,
    );
    let sdk_log = std::path::absolute(sdk_log_path(&setup.log_path))
        .map_err(|e| StartError::Arena(format!("the SDK log's path: {e}")))?;
    argv.push("-l".into());
    argv.push(sdk_log.display().to_string());
    let bot = BotSpec {
        command: BotCommand::Program(argv),
        ..program.bot.clone()
    };
    let limits = IoLimits {
        framing: Framing::Lines,
        ..setup.limits
    };
    Connection::spawn(
        &bot,
        &program::stderr_path(&setup.log_path),
        program.startup_timeout,
        limits,
    )
    .await
}

/// One seat: its bot, its relay, and its turn as arena saw it.
struct SeatState {
    conn: Option<Connection>,
    relay: Option<RelayWriter>,
    relay_ended: bool,
    relay_again: bool,
    /// When the referee wrote the input the seat is answering.
    asked: Option<Instant>,
    /// Inputs the referee wrote it (its turns), and the turn of the game at its last one.
    turns: u32,
    last_turn: u32,
    /// Lines of the input being written, not yet ended, for the log.
    partial: Vec<u8>,
    times: AnswerTimes,
    /// What it did on its last turn, in words, for a disqualification's record.
    last: Last,
    /// Lines it answered beyond the first of a turn, and the first turn it did.
    extra: (u32, Option<u32>),
    /// What it answered that the referee's pipe did not take yet. The SDK reads a player's
    /// lines only when it waits for an answer: a bot that writes more meanwhile fills the pipe
    /// and is then not read either (as under the SDK, where its write blocks), rather than
    /// holding up the game's loop and every other seat's answers.
    unsent: Vec<u8>,
    /// How long after asking it the referee went on (asked another seat, or ended) while arena
    /// had seen no answer to its turn: sooner than its allowance, the referee judged a line it
    /// had sent ahead, not its time.
    left_after: Option<Duration>,
    fault: Option<(Fault, u32)>,
}

#[derive(Clone, Default)]
enum Last {
    #[default]
    NotAsked,
    Waiting,
    Answered {
        line: String,
        took: Duration,
        limit: Duration,
    },
}

impl SeatState {
    fn new(conn: Option<Connection>) -> SeatState {
        SeatState {
            conn,
            relay: None,
            relay_ended: false,
            relay_again: false,
            asked: None,
            turns: 0,
            last_turn: 0,
            partial: Vec::new(),
            times: AnswerTimes::default(),
            last: Last::NotAsked,
            extra: (0, None),
            left_after: None,
            unsent: Vec::new(),
            fault: None,
        }
    }

    /// Write what it answered on to the referee, as far as the pipe takes it now.
    fn pass_on(&mut self) {
        while !self.unsent.is_empty() {
            let Some(relay) = self.relay.as_mut() else {
                self.unsent.clear();
                return;
            };
            match relay.write(&self.unsent).now_or_never() {
                // Full: the referee reads it when it next waits for this player.
                None => return,
                Some(Ok(n)) if n > 0 => drop(self.unsent.drain(..n)),
                // The referee does not read the player any more: its relay is gone.
                Some(_) => self.relay = None,
            }
        }
    }

    /// The referee went on from this seat: if its turn is still waiting, for how long it did.
    fn left(&mut self) {
        if let Some(asked) = self.asked {
            self.left_after = Some(asked.elapsed());
        }
    }

    /// The SDK's deadline for the answer it waits for: the first turn's, then every other's.
    fn allowance(&self, setup: &MatchSetup) -> Duration {
        match self.turns {
            0 | 1 => setup.startup_timeout,
            _ => setup.timeout,
        }
    }
}

struct Table<'a> {
    setup: &'a MatchSetup,
    log: GameLog,
    start_ms: u64,
    seats: Vec<SeatState>,
    /// Inputs the referee wrote, to any seat: the game's turns.
    turns: u32,
    /// The seat the referee wrote to last, which alone runs.
    awaited: Option<Seat>,
    referee_out: Vec<String>,
    referee_bytes: u64,
    referee_fault: Option<Fault>,
    /// A relay that ended while the referee went on with the game: (seat, turn).
    relay_lost: Option<(Seat, u32)>,
    /// Waits for the seats' answers so far: each starts with the next seat.
    waits: usize,
}

impl Table<'_> {
    fn seat_failed(&mut self, seat: Seat, fault: Fault) {
        let state = &mut self.seats[seat];
        if state.fault.is_some() {
            return;
        }
        self.log
            .stderr(seat, state.conn.as_mut().and_then(|c| c.stderr_mark()));
        self.log.fault(seat, &fault);
        state.fault = Some((fault, self.turns));
        // Its relay closed: the referee sees the player's output end, as when a bot dies.
        state.relay = None;
        if let Some(conn) = state.conn.as_mut() {
            conn.set_frozen(true);
        }
    }

    /// Relay both ways until the referee ends, hangs or breaks a bound. Returns the referee.
    ///
    /// Not an `async fn`, which would hold the referee's connection twice.
    #[allow(clippy::manual_async_fn, reason = "an async fn holds its arguments twice")]
    fn play(
        &mut self,
        mut referee: Connection,
        mut relays: Links,
    ) -> impl Future<Output = Connection> + Send + '_ {
        async move {
            let program = self.setup.referee.as_ref().expect("an SDK game has its referee");
            let mut quiet_since = Instant::now();
            let mut relays_open = true;
            loop {
                let allowance = match self.turns {
                    0 => program.startup_timeout,
                    _ => program.timeout,
                };
                let deadline = quiet_since + allowance;
                self.waits = self.waits.wrapping_add(1);
                self.log.waiting();
                tokio::select! {
                    biased;
                    msg = relays.next(), if relays_open => {
                        quiet_since = Instant::now();
                        match msg {
                            Some(msg) => self.relayed(msg).await,
                            // Every relay has ended and none can connect any more.
                            None => relays_open = false,
                        }
                        if self.turns > program.max_turns {
                            self.referee_fault = Some(Fault::protocol(format!(
                                "wrote its players more than {} turns' input (max_turns): its game \
                                 does not end",
                                program.max_turns
                            )));
                            return referee;
                        }
                    }
                    heard = next_answer(&mut self.seats, self.waits) => {
                        quiet_since = Instant::now();
                        if let Heard::Answer(seat, event) = heard {
                            self.answered(seat, event).await;
                        }
                    }
                    event = referee.next_event(deadline) => match event {
                        Event::Line(line) => {
                            quiet_since = Instant::now();
                            self.referee_bytes += line.len() as u64 + 1;
                            self.log.from_referee(&line);
                            self.referee_out.push(line);
                            if self.referee_out.len() as u32 > program::MAX_LINES
                                || self.referee_bytes > program::MAX_BYTES
                            {
                                self.referee_fault = Some(
                                    Fault::protocol(format!(
                                        "flooded: it wrote more than {} lines or {} MiB",
                                        program::MAX_LINES,
                                        program::MAX_BYTES / (1024 * 1024)
                                    ))
                                    .because(Cause::Flooded),
                                );
                                return referee;
                            }
                        }
                        Event::Timeout => {
                            let what = match self.turns {
                                0 => "wrote nothing to its players",
                                _ => "neither asked a player nor ended the game",
                            };
                            self.referee_fault = Some(
                                Fault::new(
                                    FaultKind::Timeout,
                                    format!("{what} for {} s", allowance.as_secs_f64()),
                                )
                                .because(Cause::Late),
                            );
                            return referee;
                        }
                        // It ended (its output closed, or its process exited): the game is over.
                        // What the relays reported meanwhile still says who was run.
                        _ => {
                            if let Some(last) = self.awaited {
                                self.seats[last].left();
                            }
                            while let Some(msg) = relays.settled() {
                                self.relayed(msg).await;
                            }
                            return referee;
                        }
                    },
                }
            }
        }
    }

    async fn relayed(&mut self, msg: Relayed) {
        match msg {
            Relayed::Connected(seat, write) => {
                let state = &mut self.seats[seat];
                if state.fault.is_none() && state.conn.is_some() {
                    state.relay = Some(write);
                }
            }
            Relayed::Again(seat) => self.seats[seat].relay_again = true,
            Relayed::Ended(seat) => self.seats[seat].relay_ended = true,
            Relayed::Died(seat) => {
                let state = &mut self.seats[seat];
                state.relay_ended = true;
                // The referee sees the player's output end.
                state.relay = None;
            }
            Relayed::Input(seat, bytes) => self.input(seat, bytes).await,
        }
    }

    /// The referee wrote to a seat: a new turn for it unless it is still being written its last
    /// one. It alone runs from now on.
    async fn input(&mut self, seat: Seat, bytes: Vec<u8>) {
        // A relay arena closed itself (its bot failed) is not lost.
        if let Some(lost) = self
            .seats
            .iter()
            .position(|s| s.relay_ended && s.fault.is_none())
            .filter(|_| self.relay_lost.is_none())
        {
            self.relay_lost = Some((Seat::new(lost).expect("seat"), self.turns));
        }
        let turns = self.turns;
        let setup = self.setup;
        let state = &mut self.seats[seat];
        if state.asked.is_none() {
            self.turns += 1;
            state.turns += 1;
            state.last_turn = turns + 1;
            state.asked = Some(Instant::now());
            state.last = Last::Waiting;
        }
        state.partial.extend_from_slice(&bytes);
        while let Some(end) = state.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = state.partial.drain(..=end).collect();
            self.log
                .sent(seat, String::from_utf8_lossy(&line[..end]).trim_end_matches('\r'));
        }
        // A line without its end is logged once it is as long as a line may be, not kept.
        if state.partial.len() > setup.limits.max_line {
            self.log.sent(seat, &String::from_utf8_lossy(&state.partial));
            state.partial.clear();
        }
        if let Some(before) = self.awaited.filter(|&a| a != seat) {
            self.seats[before].left();
        }
        // The others stopped first; the seat asked is let run once its input is in its pipe,
        // so that it wakes once, to read it, rather than to be let run and then to read.
        let thaw = self.awaited != Some(seat) && !setup.ponder;
        if thaw {
            for (other, s) in Seat::all(self.seats.len()).zip(self.seats.iter_mut()) {
                if let Some(conn) = s.conn.as_mut().filter(|_| other != seat) {
                    conn.set_frozen(true);
                }
            }
        }
        self.awaited = Some(seat);
        let state = &mut self.seats[seat];
        if state.fault.is_some() {
            return;
        }
        let Some(conn) = state.conn.as_mut() else {
            return;
        };
        let sent = conn.send(&bytes, setup.timeout.max(Duration::from_secs(1))).await;
        if thaw {
            conn.set_frozen(false);
        }
        let failed = match sent {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(
                Fault::new(FaultKind::Crash, format!("closed its input ({e})"))
                    .because(Cause::ClosedInput),
            ),
            Err(_) => Some(
                Fault::new(FaultKind::Timeout, "stopped reading its input".to_string())
                    .because(Cause::StoppedReading),
            ),
        };
        if let Some(f) = failed {
            let at = self.seats[seat].turns;
            self.seat_failed(seat, f.at_move(at));
        }
    }

    /// A seat's bot said something, or failed.
    async fn answered(&mut self, seat: Seat, event: Event) {
        let setup = self.setup;
        let max_line = setup.limits.max_line;
        let state = &mut self.seats[seat];
        let at = state.turns.max(1);
        let line = match event {
            Event::Line(line) => line,
            other => {
                let f = other
                    .into_fault(&format!("at move {at}"), max_line)
                    .at_move(at);
                self.seat_failed(seat, f);
                return;
            }
        };
        self.log
            .stderr(seat, state.conn.as_mut().and_then(|c| c.stderr_mark()));
        let t = self.log.received(seat, &line);
        let _ = clock(self.start_ms, t);
        match state.asked.take() {
            Some(asked) => {
                let took = asked.elapsed();
                let limit = state.allowance(setup);
                state.times.record(took, limit);
                state.last = Last::Answered {
                    line: line.clone(),
                    took,
                    limit,
                };
            }
            None => {
                state.extra.0 += 1;
                state.extra.1.get_or_insert(at);
            }
        }
        if state.relay.is_some() {
            state.unsent.extend_from_slice(line.as_bytes());
            state.unsent.push(b'\n');
            state.pass_on();
        }
    }

    /// Everything closed; the verdict from the referee's scores and what arena saw.
    async fn finish(
        mut self,
        names: Vec<String>,
        referee: Option<Ending>,
        started: Instant,
    ) -> Played {
        let n = names.len();
        let closing = self
            .seats
            .iter_mut()
            .map(|s| close_seat(s.conn.take(), s.relay.take()));
        let (seat_ends, referee_end) = tokio::join!(
            futures_util::future::join_all(closing),
            OptionFuture::from(referee)
        );
        crate::bot::reaper::sweep();
        let mut captures = Vec::new();
        for (seat, (status, capture)) in Seat::all(n).zip(seat_ends) {
            if let Some(status) = status {
                self.log.exit(seat, &status);
            }
            captures.extend(capture);
        }
        let mut referee_status = String::new();
        if let Some(how) = referee_end {
            referee_status = how.clone();
            if !how.is_empty() {
                self.log.referee_exit(&how);
            }
        }
        let stderr = read_stderr(&program::stderr_path(&self.setup.log_path));
        let verdict = self.verdict(&stderr, &referee_status);
        let times = self.seats.iter().map(|s| s.times).collect();
        let (record, result) = GameRecord::of(self.setup, names, verdict, started, times);
        Played {
            record,
            log: self.log,
            result,
            captures,
        }
    }

    /// The referee's scores and failures, with the failures arena saw, judged as for any game.
    fn verdict(&mut self, stderr: &str, referee_status: &str) -> super::Verdict {
        let n = self.seats.len();
        let printed = match self.referee_fault.take() {
            // Ended by arena (it hung, flooded or never ended its game): its status is arena's
            // doing, its stderr may still say why (a real SDK front end whose referee thread
            // died waits 150 s before it prints anything).
            Some(f) => Err(self.explained(f, stderr, "")),
            None => scores::read(&self.referee_out, n)
                .map_err(|why| self.explained(Fault::protocol(why), stderr, referee_status)),
        };
        let printed = printed.and_then(|p| self.check_seats().map(|()| p));
        let printed = match printed {
            Ok(p) => p,
            Err(f) => {
                self.log.referee_fault(&f);
                let mut judge = Judge::new(Box::new(Scored::new(n, self.turns, None)), n);
                judge.referee_failed(f);
                return judge.verdict();
            }
        };
        if let Some(played) = printed.seed
            && self.setup.params.text("seed") == "send"
            && self.setup.params.text("seed_form").contains("{seed}")
            && played != java_seed(self.setup.seed)
            && !SEED_WARNED.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            crate::out::warn(&format!(
                "arena: the referee played seed {played}, not the {} it was given: its \
                 command-line front end ignores the seed arguments ({}); set seed_form as it \
                 takes the seed (arena games referee)",
                java_seed(self.setup.seed),
                self.setup.params.text("seed_form")
            ));
        }
        // A seat the referee disqualified, which arena did not see fail: what arena saw of it.
        for seat in Seat::all(n) {
            if printed.scores[seat.index()] < 0 && self.seats[seat].fault.is_none() {
                let f = self.disqualified(seat, printed.scores[seat.index()]);
                // Put out for not answering: a timeout counts as an answer at its allowance,
                // as in every game (docs/bots.md).
                let s = &mut self.seats[seat];
                if matches!(s.last, Last::Waiting) && f.kind == FaultKind::Timeout {
                    let limit = s.allowance(self.setup);
                    s.times.record(limit, limit);
                }
                self.log.fault(seat, &f);
                let turn = self.seats[seat].last_turn;
                self.seats[seat].fault = Some((f, turn));
            }
        }
        let mut failed: Vec<(Seat, u32)> = Seat::all(n)
            .filter_map(|s| self.seats[s].fault.as_ref().map(|(_, t)| (s, *t)))
            .collect();
        failed.sort_by_key(|&(s, turn)| (turn, s.index()));
        let keys: Vec<(u8, i64)> = Seat::all(n)
            .map(|s| match self.seats[s].fault.as_ref() {
                None => (0, -printed.scores[s.index()]),
                Some((_, turn)) => (1, -i64::from(*turn)),
            })
            .collect();
        let ranking = Ranking {
            places: Places::by_key(&keys),
            reason: Reason::Normal,
        };
        let mut judge = Judge::new(Box::new(Scored::new(n, self.turns, Some(ranking))), n);
        let mut out = Outbox::default();
        for (seat, _) in failed {
            let (f, _) = self.seats[seat].fault.clone().expect("failed");
            judge.fault(seat, f, &mut out);
        }
        judge.verdict()
    }

    /// The referee did not print its scores: its failure, said with its own words and a hint.
    /// A referee's failure, with how it ended and what its stderr says: its exception, and a
    /// hint for the common setup mistakes.
    fn explained(&self, mut f: Fault, stderr: &str, status: &str) -> Fault {
        if !status.is_empty() && status != crate::bot::process::CLEAN_EXIT {
            f.detail.push_str(&format!("; it {status}"));
        }
        if let Some(line) = scores::why(stderr) {
            let line: String = line.chars().take(300).collect();
            f.detail.push_str(&format!("; its stderr says: {line}"));
        }
        if let Some(hint) = scores::hint(stderr, self.seats.len()) {
            f.detail.push_str(&format!(" (hint: {hint})"));
        }
        f
    }

    /// The referee's doing with the seats: a relay it never ran (it started players of its own
    /// choosing), ran twice, or lost while its game went on.
    fn check_seats(&self) -> std::result::Result<(), Fault> {
        for (seat, s) in Seat::all(self.seats.len()).zip(&self.seats) {
            let who = seat.index() + 1;
            if s.conn.is_none() && s.fault.is_some() {
                continue;
            }
            if s.turns == 0 && !s.relay_ended && s.relay.is_none() && !self.ran_relay(seat) {
                return Err(Fault::protocol(format!(
                    "never ran the player arena gave it for -p{who} (its seat relay): it \
                     started players of its own choosing"
                )));
            }
            if s.relay_again {
                return Err(Fault::protocol(format!(
                    "ran the player of -p{who} twice"
                )));
            }
        }
        if let Some((seat, turn)) = self.relay_lost {
            return Err(Fault::protocol(format!(
                "lost its connection to -p{}'s relay, then went on with the game (turn {})",
                seat.index() + 1,
                turn + 1
            )));
        }
        Ok(())
    }

    fn ran_relay(&self, seat: Seat) -> bool {
        self.seats[seat].turns > 0 || self.seats[seat].relay_ended
    }

    /// The record of a seat the referee scored -1: what arena saw of its last turn.
    fn disqualified(&self, seat: Seat, score: i64) -> Fault {
        let s = &self.seats[seat];
        let at = s.turns;
        let mut f = match &s.last {
            Last::NotAsked => Fault::new(
                FaultKind::Illegal,
                format!("was disqualified by the referee before it was asked anything (score {score})"),
            ),
            // Put out before its allowance ran out, with no answer seen to this move: the
            // referee read a line it had sent before (the SDK keeps extra lines for the next
            // turns) and refused it.
            Last::Waiting if s.left_after.is_some_and(|t| t < s.allowance(self.setup) / 2) => {
                Fault::new(
                    FaultKind::Illegal,
                    format!(
                        "was disqualified by the referee at move {at} (score {score}) {:.3} s \
                         after it was asked, before its allowance ran out and before it answered: \
                         the referee judged a line it had sent earlier",
                        s.left_after.unwrap_or_default().as_secs_f64()
                    ),
                )
            }
            Last::Waiting => Fault::new(
                FaultKind::Timeout,
                format!("did not answer at move {at}: the referee disqualified it (score {score})"),
            )
            .because(Cause::Late),
            Answered { line, took, limit } if took > limit => Fault::new(
                FaultKind::Timeout,
                format!(
                    "answered late at move {at} ({:.3} s, past the {} s the referee allows): \
                     it was disqualified (score {score})",
                    took.as_secs_f64(),
                    limit.as_secs_f64()
                ),
            )
            .because(Cause::Late)
            .tap_line(line),
            Answered { line, took, .. } => Fault::new(
                FaultKind::Illegal,
                format!(
                    "answered '{}' at move {at} in {:.3} s, and the referee disqualified it \
                     (score {score})",
                    clip(line),
                    took.as_secs_f64()
                ),
            ),
        };
        if let (k, Some(first)) = s.extra {
            f.detail.push_str(&format!(
                "; it had answered {k} extra line{} from move {first}, which the referee reads \
                 as the next turns' answers",
                if k == 1 { "" } else { "s" }
            ));
        }
        if at > 0 {
            f = f.at_move(at);
        }
        f
    }
}

use Last::Answered;

trait TapLine {
    fn tap_line(self, line: &str) -> Self;
}

impl TapLine for Fault {
    /// A late answer's words, for the record.
    fn tap_line(mut self, line: &str) -> Self {
        self.detail.push_str(&format!(" (it answered '{}')", clip(line)));
        self
    }
}

fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push_str("...");
    }
    s
}

/// What the game's loop heard from the seats.
enum Heard {
    /// A seat's bot said something, or failed.
    Answer(Seat, Event),
    /// A seat's answers held back are all in the referee's pipe now (or its relay is gone):
    /// its bot is read again.
    PassedOn,
}

/// Wait for the first answer (or failure) of any seat whose bot is still in, and pass on what
/// seats answered that the referee's pipe had no room for. Seats frozen answer nothing; they are
/// waited on all the same, so that a line already in their pipe is passed on at once. A seat
/// with answers held back is not read until they are passed on. The seats are polled from
/// `first` on, so that a bot that always has a line ready starves no other.
async fn next_answer(seats: &mut [SeatState], first: usize) -> Heard {
    use std::task::Poll;
    use tokio::io::AsyncWrite;
    let far = Instant::now() + Duration::from_secs(24 * 3600);
    let n = seats.len();
    let mut waits = Vec::new();
    let mut held = Vec::new();
    for (seat, s) in Seat::all(n).zip(seats.iter_mut()) {
        let SeatState {
            conn,
            relay,
            unsent,
            fault,
            ..
        } = s;
        if fault.is_some() {
            continue;
        }
        let Some(conn) = conn.as_mut() else {
            continue;
        };
        let hold = relay.is_some() && !unsent.is_empty();
        if hold {
            held.push((relay, unsent));
        }
        waits.push(Box::pin(async move {
            let event = match hold {
                // Not read, but its limits still kept.
                true => conn.watch_limits().await,
                false => conn.next_event(far).await,
            };
            (seat, event)
        }));
    }
    let k = waits.len();
    if k > 0 {
        waits.rotate_left(first % k);
    }
    std::future::poll_fn(move |cx| {
        for (relay, unsent) in held.iter_mut() {
            while let Some(writer) = relay.as_mut() {
                match Pin::new(writer).poll_write(cx, unsent) {
                    Poll::Ready(Ok(k)) if k > 0 => drop(unsent.drain(..k)),
                    // The referee does not read the player any more: its relay is gone.
                    Poll::Ready(_) => **relay = None,
                    Poll::Pending => break,
                }
                if unsent.is_empty() || relay.is_none() {
                    unsent.clear();
                    return Poll::Ready(Heard::PassedOn);
                }
            }
        }
        for wait in waits.iter_mut() {
            if let Poll::Ready((seat, event)) = wait.as_mut().poll(cx) {
                return Poll::Ready(Heard::Answer(seat, event));
            }
        }
        Poll::Pending
    })
    .await
}

/// The referee's end: how it ended, once all its stderr is in its file (the verdict quotes
/// it). Boxed, so that the game's last stage holds its state once, not as its argument and
/// again as it runs.
type Ending = Pin<Box<dyn Future<Output = String> + Send>>;

fn close_referee(referee: Connection) -> Ending {
    Box::pin(referee.close().then(|(how, capture)| async move {
        capture.finish().await;
        how
    }))
}

/// Not an `async fn`, which would hold the connection beside its closing (as
/// `Connection::close`).
fn close_seat(
    conn: Option<Connection>,
    relay: Option<RelayWriter>,
) -> impl Future<Output = (Option<String>, Option<Capture>)> + Send + 'static {
    drop(relay);
    OptionFuture::from(conn.map(Connection::close)).map(super::seat::ended)
}

/// The referee's stderr as far as the failure needs it (its start: the exception).
fn read_stderr(path: &Path) -> String {
    crate::files::read_named_file(path, 64 * 1024)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// The game as the judge needs it: no moves, the places once the referee has scored them.
struct Scored {
    plies: u32,
    ranking: Option<Ranking>,
    n: usize,
}

impl Scored {
    fn new(n: usize, plies: u32, ranking: Option<Ranking>) -> Scored {
        Scored { plies, ranking, n }
    }
}

impl Game for Scored {
    fn start(&mut self, _: &mut Outbox) {}
    fn awaiting(&self) -> Seats {
        Seats::NONE
    }
    fn on_line(&mut self, _: Seat, _: &str, _: &mut Outbox) -> std::result::Result<Step, Fault> {
        Err(Fault::protocol("an SDK referee's game takes no lines from arena"))
    }
    fn on_fault(&mut self, _: Seat, _: &Fault, _: &mut Outbox) {}
    fn outcome(&self) -> Option<Ranking> {
        self.ranking.clone().filter(|r| r.places.len() == self.n)
    }
    fn plies(&self) -> u32 {
        self.plies
    }
    fn builtin_line(&self, _: Seat, _: &str, _: &mut rand_chacha::ChaCha8Rng) -> String {
        unreachable!("an SDK referee's players are programs")
    }
    fn picture(&self) -> crate::games::picture::Picture {
        crate::games::picture::Picture {
            board: crate::games::picture::Board::Table {
                columns: Vec::new(),
                row: None,
            },
            notes: vec![format!("{} turns played", self.plies)],
        }
    }
}
