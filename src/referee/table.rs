//! The game in play (`Table`): the loop that hears the seats and the referee program, and gives
//! the judge what they said.

use super::*;
use futures_util::future::OptionFuture;

/// A game in play: its seats, the judge, and where what it says goes.
pub(super) struct Table<'a> {
    setup: &'a MatchSetup,
    seats: Vec<SeatState>,
    wire: Wire<'a>,
    judge: Judge,
    out: Outbox,
    referee: Option<Link>,
    start_ms: u64,
}

impl<'a> Table<'a> {
    pub(super) fn new(
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
    pub(super) async fn begin(&mut self, opened: Opened, ready_by: Instant) {
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
    pub(super) async fn play(&mut self) {
        loop {
            // A referee program speaks between the players' moves, one line at a time, each
            // delivered before the next is read.
            if self.referee.is_some() && self.judge.wants_referee() {
                self.hear_referee().await;
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
            // their wake-ups. When a referee program has the turn next, the seat is stopped
            // once the referee has its answer (`hear_referee`).
            let to_referee = self.referee.is_some() && self.judge.wants_referee();
            if !self.judge.is_over() && !to_referee {
                freeze_idle(&mut self.seats, self.judge.awaiting(), self.setup);
            }
            self.deliver().await;
        }
    }

    /// Write the referee program what it is owed (the players' lines) and hear its next line; a
    /// line that breaks its protocol, or no line in time, is its failure.
    async fn hear_referee(&mut self) {
        let Some(link) = self.referee.as_mut() else {
            return;
        };
        let judge = &mut self.judge;
        let lines = judge.take_for_referee();
        for l in &lines {
            self.wire.log.to_referee(l);
        }
        self.wire.log.waiting();
        let told = link.tell(&lines).await;
        // The seat that answered is stopped now, while the referee reads its answer, rather
        // than before it was written: no bot's clock runs until the referee asks for a move,
        // and the next prompt goes out only after this (bench/README.md, issue 45).
        freeze_idle(&mut self.seats, judge.awaiting(), self.setup);
        let heard = match told {
            Ok(()) => link.hear().await,
            Err(f) => Err(f),
        };
        let failed = match heard {
            Ok(line) => {
                self.out.now_ms = clock(self.start_ms, self.wire.log.from_referee(&line));
                let broke = judge.referee_line(&line, &mut self.out).err();
                broke.or_else(|| past_turns(judge, link.max_turns()))
            }
            Err(f) => {
                judge.referee_failed(f.clone());
                Some(f)
            }
        };
        if let Some(f) = failed {
            self.wire.log.referee_fault(&f);
        }
    }

    /// The next line of a seat the game waits for, and any others already there.
    async fn hear_players(&mut self) {
        let awaiting = self.judge.awaiting();
        self.wire.log.waiting();
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
        let upto = self.seats[seat].stderr_mark();
        self.wire.log.stderr(seat, upto);
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
    ///
    /// Not an `async fn`, which would hold the table twice (its argument and the body's own).
    #[allow(clippy::manual_async_fn, reason = "an async fn holds its arguments twice")]
    pub(super) fn finish(
        mut self,
        names: Vec<String>,
        started: Instant,
    ) -> impl Future<Output = Result<Played>> + Send + 'a {
        async move {
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
            let referee = OptionFuture::from(self.referee.map(|link| link.close())).map(ended);
            let (seats, (referee_exit, referee_capture)) =
                tokio::join!(futures_util::future::join_all(closing), referee);
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
}

/// A bot whose first answer failed (a line that was no move, its input closed) and that then
/// exits failing on its own never got to play: its program or runtime could not start, and may
/// have written why on its move stream (a Java VM under an address-space limit does). That is
/// said plainly, as how it ended before its first move, instead of as a protocol fault.
pub(super) async fn restate_early(judge: &mut Judge, state: &mut SeatState, seat: Seat, log: &mut GameLog) {
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

/// The game's referee program started, or the fault that kept it from starting (the game then
/// counts for no one); an error when arena could not start it.
pub(super) async fn open_referee(
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

/// A referee that asks for a move when its game has had all its turns fails: it would
/// otherwise go on for ever.
pub(super) fn past_turns(judge: &mut Judge, max_turns: u32) -> Option<Fault> {
    if judge.game().plies() < max_turns || judge.awaiting().is_empty() {
        return None;
    }
    let f = program::over_turns(max_turns);
    judge.referee_failed(f.clone());
    Some(f)
}

