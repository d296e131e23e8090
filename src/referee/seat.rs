//! A seat: its bot started, what it is owed and what it says, and the waits for its lines.

use super::*;

/// The stderr capture file of a seat, beside the game log.
pub fn stderr_path(log_path: &std::path::Path, seat: impl Into<Seat>) -> PathBuf {
    let seat: Seat = seat.into();
    log_path.with_extension(format!("seat{}.stderr", seat.index()))
}

pub(super) enum SeatIo {
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
pub(super) struct SeatState {
    pub(super) io: SeatIo,
    /// When the current wait for this seat began: the moment its prompt was written.
    pub(super) turn_start: Option<Instant>,
    /// Lines accepted so far; the first gets the startup allowance.
    pub(super) moves: u32,
    /// Of those, the lines of the game's greeting, which are not moves.
    pub(super) greetings: u32,
    /// How long its answers took.
    pub(super) times: times::AnswerTimes,
}

impl SeatState {
    /// The move the seat is on, as `at_move` and the failures count it: 1 for its first.
    pub(super) fn next_move(&self) -> u32 {
        self.moves - self.greetings + 1
    }

    /// How far its bot's stderr reaches by now, if further than at its last mark.
    pub(super) fn stderr_mark(&mut self) -> Option<u64> {
        match &mut self.io {
            SeatIo::Remote { conn, .. } => conn.stderr_mark(),
            _ => None,
        }
    }
}

/// A seat ready to play, with the bot's fault if it failed to start; an error when arena could
/// not start it.
pub(super) async fn open_seat(
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
pub(super) struct Wire<'a> {
    pub(super) log: GameLog,
    pub(super) spectator: Option<&'a UnboundedSender<String>>,
    pub(super) timeout: Duration,
    /// Each seat's lines, gathered to go out in one write.
    pub(super) buf: Vec<Vec<u8>>,
}

impl Wire<'_> {
    /// Log and deliver a game's messages in order; each seat's lines go out in one write.
    pub(super) async fn deliver(&mut self, out: &mut Outbox, seats: &mut [SeatState]) {
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

    pub(super) async fn flush(&mut self, seats: &mut [SeatState]) {
        for (state, buf) in seats.iter_mut().zip(self.buf.iter_mut()) {
            if buf.is_empty() {
                continue;
            }
            let at = state.next_move();
            if let SeatIo::Remote { conn, broken } = &mut state.io
                && broken.is_none()
            {
                *broken = match conn.send(buf, self.timeout).await {
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

/// Every stderr capture a game may leave beside its log: each seat's, and a referee program's.
pub(super) fn stderr_paths(log_path: &std::path::Path, players: usize) -> Vec<PathBuf> {
    Seat::all(players)
        .map(|seat| stderr_path(log_path, seat))
        .chain([program::stderr_path(log_path)])
        .collect()
}

/// Not an `async fn`, which would hold the seat's connection beside its closing (as
/// `Connection::close`).
pub(super) fn close(
    io: SeatIo,
) -> impl Future<Output = (Option<String>, Option<Capture>)> + Send + 'static {
    let closing = match io {
        SeatIo::Remote { conn, .. } => Some((*conn).close()),
        _ => None,
    };
    futures_util::future::OptionFuture::from(closing).map(ended)
}

/// A seat's end as its game records it: how its bot ended (if it said), and its stderr.
pub(super) fn ended(closed: Option<(String, Capture)>) -> (Option<String>, Option<Capture>) {
    match closed {
        Some((how, capture)) => (Some(how).filter(|s| !s.is_empty()), Some(capture)),
        None => (None, None),
    }
}

pub(super) fn allowance(state: &SeatState, setup: &MatchSetup) -> Duration {
    if state.moves == 0 {
        setup.startup_timeout
    } else {
        setup.timeout
    }
}

/// Stop the bots the game will not wait for (unless they may ponder).
pub(super) fn freeze_idle(seats: &mut [SeatState], awaiting: Seats, setup: &MatchSetup) {
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
pub(super) async fn next_line(
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
pub(super) async fn first_event(
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

pub(super) async fn wait(state: &mut SeatState, setup: &MatchSetup) -> Event {
    let deadline = state.turn_start.unwrap_or_else(Instant::now) + allowance(state, setup);
    match &mut state.io {
        SeatIo::Remote { conn, .. } => conn.next_event(deadline).await,
        _ => unreachable!("only remote seats are waited on"),
    }
}
