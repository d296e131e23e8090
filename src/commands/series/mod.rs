//! `arena duel` and `arena match`: a series of games between the same bots, seats rotated so
//! that each bot sits in each seat equally often, recorded as they are played. A duel is a
//! match of two bots, summed up with the statistics of two (`summary`: Elo, LOS, pentanomial,
//! SPRT); a match of any number is summed up by places (`places`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures_util::{Stream, StreamExt};

use crate::bot::{BotCommand, BotSpec, Channel, SpectatorSink, descriptors};
use crate::error::{Error, Result};
use crate::games::openings::{self, Book, Order};
use crate::out::plural;
use crate::engine::{self, Games, retry, workers};
use crate::referee::{MatchOptions, MatchSetup, Played, Player};
use crate::report::GameRow;
use crate::report::live::Live;
use crate::stats::Sprt;
use crate::engine::Lock;
use crate::engine::journal::{Journal, Trip};
use crate::engine::stop::{Stop, watch_signals};
use crate::engine::threads::{GameThreads, cores};

mod places;
mod summary;
mod told;

use summary::SprtState;
use told::{Outcome, Scoring, Told};

/// Which command: the summary at the end, and the folder's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `arena duel`: two bots, the statistics of two, and an SPRT if asked.
    Duel,
    /// `arena match`: any number of bots the game takes, summed up by places.
    Match,
}

/// What `arena duel` or `arena match` was asked for.
#[derive(Clone)]
pub struct Options {
    pub kind: Kind,
    /// The BOT arguments, as given: one per seat.
    pub bots: Vec<String>,
    pub matched: MatchOptions,
    /// How many games; with an SPRT, at most this many.
    pub games: u32,
    /// Stop as soon as this test accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// Games at once; `None` for the default.
    pub jobs: Option<usize>,
    /// Each bot's channel.
    pub channels: Vec<Channel>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    /// The spectator program's command line.
    pub spectate: Option<String>,
    pub json: bool,
    /// Run both bots in the sandbox as this user.
    pub sandbox: Option<String>,
    pub ponder: bool,
    /// `NAME0,NAME1,...`, as given.
    pub names: Option<String>,
    /// The openings file, as given.
    pub openings: Option<PathBuf>,
    pub openings_order: Order,
    /// Random moves from the start (or each opening) before the bots play.
    pub random_plies: u32,
}

/// Names for the bots: as given, else from their commands, made distinct (`random-1`,
/// `random-2` for two bots of one name).
fn names(args: &Options, bots: &[BotSpec]) -> Result<Vec<String>> {
    let n = bots.len();
    if let Some(given) = &args.names {
        let names: Vec<String> = given.split(',').map(|s| s.trim().to_string()).collect();
        let distinct = names
            .iter()
            .enumerate()
            .all(|(i, a)| !names[..i].contains(a));
        if names.len() != n || !distinct || names.iter().any(String::is_empty) {
            let form: Vec<String> = (0..n).map(|i| format!("NAME{i}")).collect();
            return Err(Error::Usage(format!(
                "--names {given}: expected {n} different names, as {}",
                form.join(",")
            )));
        }
        return Ok(names);
    }
    let plain: Vec<String> = bots.iter().map(|b| b.command.default_name()).collect();
    Ok(crate::bot::distinct_names(plain))
}

/// A new folder for a series' results: `results/duel-GAME-DATE-TIME` (or `match-...`), made
/// here and by no one else. Two started in the same second must not share one and interleave
/// their logs: the folder is created exclusively, and a taken name gets `-2`, `-3`, ...
fn default_out(kind: Kind, game: &str) -> Result<PathBuf> {
    let stamp: String = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .chars()
        .filter(|c| c.is_ascii_digit())
        .collect();
    let parent = Path::new("results");
    std::fs::create_dir_all(parent).map_err(Error::io(format!("creating {}", parent.display())))?;
    new_folder(
        parent,
        &format!("{}-{game}-{}-{}", kind.as_str(), &stamp[..8], &stamp[8..]),
    )
    .map_err(Error::io(format!(
        "creating a folder in {}",
        parent.display()
    )))
}

/// Make `parent/stem`, or `parent/stem-N` for the first N free, exclusively.
fn new_folder(parent: &Path, stem: &str) -> std::io::Result<PathBuf> {
    for n in 1u32.. {
        let name = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        let path = parent.join(name);
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("some number is free")
}

/// A game over: its number (0 is the first) and how it went, `None` if it was abandoned (a
/// second interrupt).
type Over = workers::Done<usize>;

/// A game over, or why a worker's task was lost.
type Joined = std::result::Result<Over, tokio::task::JoinError>;

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Duel => "duel",
            Kind::Match => "match",
        }
    }
}

/// Which bot sits in each seat of game `i` (0 is the first) of `n`: the first bot takes seat 0
/// in game 1, then the seats rotate (`schedule::rotation`), so that over every `n` games each
/// bot sits in each seat once.
fn seats(i: usize, n: usize) -> Vec<usize> {
    crate::schedule::rotation(i as u64, n)
}

/// What every game of a series shares, for the threads the games run on.
struct Duel {
    /// The game, its options, the logs' folder and the report's live packers.
    games: Games,
    names: Vec<String>,
    bots: Vec<BotSpec>,
    seed: u64,
    spectate: Option<BotCommand>,
    book: Option<Book>,
    /// Set once the SPRT has its answer, or arena failed: no game starts after that.
    stop: AtomicBool,
    /// SIGINT and SIGTERM: the first starts no more games, the second abandons the running ones.
    signals: Stop,
}

impl Duel {
    /// The seed of game `i`: its own, or for a referee program's game its rotation's, so that
    /// the games of one rotation (1 and 2 of a duel, seats swapped) are played on one map.
    fn seed_of(&self, i: usize) -> u64 {
        let referee = self.games.options.referee.is_some();
        crate::seeds::of_series(self.seed, i, self.bots.len(), referee)
    }

    /// Whether no game may start any more.
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || *self.signals.borrow() > 0
    }

    /// Play game `i` (0 is the first), its spectator program beside it if there is one; `None`
    /// if a second interrupt abandons it (its bots killed as it is dropped). The bots' last
    /// stderr may still be on its way to their files.
    async fn play_unsettled(&self, i: usize) -> Option<Result<Played>> {
        let sink = match &self.spectate {
            Some(cmd) => match SpectatorSink::spawn(cmd, self.games.limits) {
                Ok(sink) => Some(sink),
                Err(e) => return Some(Err(Error::Usage(e))),
            },
            None => None,
        };
        let seated = seats(i, self.bots.len());
        let named: Vec<&str> = seated.iter().map(|&b| self.names[b].as_str()).collect();
        let name = format!("game {} ({})", i + 1, named.join(" vs "));
        let mut signals = self.signals.clone();
        let setup = || {
            let players = seated
                .iter()
                .map(|&b| Player {
                    name: self.names[b].clone(),
                    bot: self.bots[b].clone(),
                })
                .collect();
            // The games of a rotation (1 and 2 of a duel, seats swapped) start from one opening.
            let opening = self
                .book
                .as_ref()
                .map(|b| b.opening((i / self.bots.len()) as u64));
            MatchSetup {
                spectator: sink.as_ref().map(|s| s.sender()),
                ..self.games.setup(i as u64 + 1, players, self.seed_of(i), opening)
            }
        };
        let played = retry::play(&name, setup, &mut signals, || true).await;
        match sink {
            // Boxed with the game's outcome: that stage (the outcome kept while the viewer
            // ends) would otherwise size every running game's future (docs/design.md, Memory).
            Some(sink) => {
                let grace = self.games.limits.grace;
                Box::pin(async move {
                    sink.finish(grace).await;
                    played
                })
                .await
            }
            None => played,
        }
    }

    /// Play game `i`, and wait for its files to be complete: a game counts with all of them.
    async fn play(&self, i: usize) -> Over {
        let mut played = self.play_unsettled(i).await;
        if let Some(Ok(played)) = &mut played {
            played.settle().await;
        }
        (i, played)
    }
}

pub async fn run(args: Options) -> Result<()> {
    let game = args.matched.game;
    let base = std::env::current_dir().map_err(Error::io("reading the current directory"))?;
    let mut bots = parse_bots(&args, &base)?;
    let spectate = match &args.spectate {
        Some(cmd) => Some(
            BotCommand::parse_runnable(cmd, &base)
                .map_err(|e| Error::Usage(format!("--spectate: {e}")))?,
        ),
        None => None,
    };
    if let Some(user) = &args.sandbox {
        sandbox(&mut bots, user)?;
    }
    // coco leaves a pipe-channel program the terminal it was started from; so does a duel, so
    // that a person can play through such a bot. Elsewhere (a run, output piped, no terminal)
    // the bot's input is /dev/null and its output goes with its stderr.
    let console = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    for b in bots.iter_mut() {
        b.console = console && b.channel == Channel::Pipe;
    }
    let names = names(&args, &bots)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    // Everything the user gave is checked before a results folder is made: a refused series
    // leaves none behind.
    let book = book(&args, &base, seed).await?;
    let jobs = jobs(&args, &mut bots, spectate.is_some())?;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => default_out(args.kind, game.name)?,
    };
    let logs = out.join("logs");
    std::fs::create_dir_all(&logs).map_err(Error::io(format!("creating {}", logs.display())))?;
    // One series at a time in a folder (their rows would mix), and none into a folder with
    // games: a series is not resumed, and its games.csv is appended to as games finish.
    let _lock = Lock::acquire(&out)?;
    let (journal, on_record) = Journal::open(&out.join("games.csv"), bots.len())?;
    if !on_record.is_empty() {
        return Err(Error::Conflict(format!(
            "{} already holds {}: a {} does not add to games played before; use another \
             --out or remove the folder",
            out.join("games.csv").display(),
            plural(on_record.len() as u64, "game", "games"),
            args.kind.as_str()
        )));
    }
    announce(&args, &names, seed, jobs, &logs);

    let duel = Arc::new(Duel {
        games: Games {
            limits: engine::limits_of(&args.matched),
            options: args.matched.clone(),
            logs: logs.clone(),
            ponder: args.ponder,
            live: Live::start().map(Arc::new),
        },
        names: names.clone(),
        bots,
        seed,
        spectate,
        book,
        stop: AtomicBool::new(false),
        signals: watch_signals("they are not recorded"),
    });
    // One game at a time is played on this thread: a game that stays on its thread wakes no
    // other at each line (bench/README.md). Games at once are played by one worker per job on
    // the game threads, each taking the next game as soon as its own is over: a slot is
    // refilled on its thread, without a round trip through this one.
    crate::bot::process::one_bot_at_a_time(jobs == 1 && !args.ponder);
    let threads = match jobs {
        1 => None,
        _ => Some(
            GameThreads::new(jobs, cores())
                .map_err(Error::io("starting the threads games run on (is the limit on processes, `ulimit -u`, too low?)"))?,
        ),
    };
    let finished = games_over(&duel, threads.as_ref(), args.games as usize);
    let scoring = match args.kind {
        Kind::Duel => Scoring::duel(args.sprt.map(SprtState::new)),
        Kind::Match => Scoring::places(names.len()),
    };
    let mut told = Told::new(&names, args.json, scoring);
    let failed = record(&duel, finished, journal, &mut told).await;
    conclude(&args, &duel, &out, &told, failed)
}

/// The BOT arguments as bots for the game, as many as it takes.
fn parse_bots(args: &Options, base: &Path) -> Result<Vec<BotSpec>> {
    let game = args.matched.game;
    let n = args.bots.len();
    if n > crate::games::MAX_SEATS {
        return Err(Error::Usage(format!(
            "{n} bots: a game has at most {} players",
            crate::games::MAX_SEATS
        )));
    }
    if !game.players.contains(&n) {
        return Err(Error::Usage(format!(
            "{n} bots: {} is played by {}",
            game.name,
            game.players_text()
        )));
    }
    let bots = args
        .bots
        .iter()
        .zip(&args.channels)
        .enumerate()
        .map(|(i, (text, &channel))| {
            BotSpec::for_game(text, base, channel, game)
                .map_err(|e| Error::Usage(format!("bot {} ({text}): {e}", i + 1)))
        })
        .collect::<Result<Vec<_>>>()?;
    if bots
        .iter()
        .filter(|b| b.command == BotCommand::Terminal)
        .count()
        > 1
    {
        return Err(Error::Usage("only one bot can be the terminal (-)".into()));
    }
    Ok(bots)
}

/// Every bot in the sandbox, run as `user`.
fn sandbox(bots: &mut [BotSpec], user: &str) -> Result<()> {
    crate::bot::Sandbox::bwrap().map_err(|e| Error::Usage(format!("--sandbox: {e}")))?;
    let sandbox =
        crate::bot::Sandbox::new(user).map_err(|e| Error::Usage(format!("--sandbox-user: {e}")))?;
    for b in bots.iter_mut() {
        sandbox
            .check_reachable(b)
            .map_err(|e| Error::Usage(format!("{}: {e}", b.label)))?;
        b.sandbox = Some(sandbox.clone());
    }
    Ok(())
}

/// The openings the games start from, when asked for.
async fn book(args: &Options, base: &Path, seed: u64) -> Result<Option<Book>> {
    let game = args.matched.game;
    let listed = match &args.openings {
        Some(path) => {
            let path = base.join(path);
            // Off the runtime's thread, which must stay free to hear SIGINT and SIGTERM.
            let read = tokio::task::spawn_blocking(move || openings::read(game, &path))
                .await
                .map_err(|e| Error::Internal(format!("reading --openings: {e}")))?;
            Some(read.map_err(|e| Error::Usage(format!("--openings: {e}")))?)
        }
        None => None,
    };
    Book::new(game, listed, args.openings_order, args.random_plies, seed)
        .map_err(|e| Error::Usage(format!("--random-plies: {e}")))
}

/// Games at once: as asked, else half the cores (each game runs bots that take turns), one with
/// a person or a spectator program watching, and no more than arena's limit on open files holds
/// (`bot::descriptors`). Bots of games played at once cannot share the terminal.
fn jobs(args: &Options, bots: &mut [BotSpec], spectator: bool) -> Result<usize> {
    let person = bots.iter().any(|b| b.command == BotCommand::Terminal);
    let jobs = match args.jobs {
        Some(jobs) if person && jobs > 1 => {
            return Err(Error::Usage(
                "--jobs: a person (-) plays one game at a time".into(),
            ));
        }
        Some(jobs) => jobs,
        // One spectator program, or one bot on the terminal, after another, as a person
        // watching expects.
        None if person || spectator || bots.iter().any(|b| b.console) => 1,
        None => (cores() / 2).max(1),
    };
    let m = &args.matched;
    let sdk = crate::referee::sdk::is_sdk_game(m.game, &m.params);
    let per_game = descriptors::per_game(bots.len(), m.referee.is_some(), sdk);
    let jobs = descriptors::cap_jobs(jobs, per_game, "--jobs").map_err(Error::Usage)?;
    if jobs > 1 {
        for b in bots.iter_mut() {
            b.console = false;
        }
    }
    Ok(jobs)
}

/// What is about to be played, on stderr; and that the seats will not balance, if they won't.
fn announce(args: &Options, names: &[String], seed: u64, jobs: usize, logs: &Path) {
    let game = args.matched.game;
    eprintln!(
        "arena: {} at {}, {} game(s), {jobs} at a time, seed {seed}, logs in {}",
        names.join(" vs "),
        game.name,
        args.games,
        logs.display()
    );
    let n = names.len() as u32;
    if !args.games.is_multiple_of(n) && args.games > 1 {
        if n == 2 {
            crate::out::warn(&format!(
                "arena: {} games: {} plays first once more than {}; an even number balances \
                 the seats",
                args.games, names[0], names[1]
            ));
        } else {
            crate::out::warn(&format!(
                "arena: {} games: the seats rotate every {n} games; a multiple of {n} sits \
                 each bot in each seat equally often",
                args.games
            ));
        }
    }
}

/// The report, the summary, and how the series ended: interrupted, with games arena could not
/// set up, or arena's own failure.
fn conclude(
    args: &Options,
    duel: &Duel,
    out: &Path,
    told: &Told,
    failed: Option<Error>,
) -> Result<()> {
    let names = &duel.names;
    let input = crate::report::html::ReportInput {
        title: names.join(" vs "),
        game: args.matched.game,
        params: args.matched.params.pairs(),
        format: args.kind.as_str(),
        names,
        rows: &told.rows,
        players: names.len(),
    };
    let ready = duel.games.live.as_ref().map(|l| l.finish()).unwrap_or_default();
    let page = crate::report::html::write(out, &input, ready);
    if let Ok(page) = &page {
        eprintln!("arena: report in {}", page.display());
    }
    let interrupted = *duel.signals.borrow() > 0;
    told.summarize(interrupted);
    if let Some(e) = failed {
        return Err(e);
    }
    page?;
    if interrupted {
        eprintln!(
            "arena: stopped with {} recorded in {} (a {} is not resumed)",
            plural(told.rows.len() as u64, "game", "games"),
            out.join("games.csv").display(),
            args.kind.as_str()
        );
        return Err(Error::Interrupted);
    }
    if !told.unplayed.is_empty() {
        let ids: Vec<String> = told.unplayed.iter().map(usize::to_string).collect();
        return Err(Error::Unplayed(format!(
            "{} of {} could not be played ({} {}): arena could not set {} up (see above); \
             no one is to blame",
            ids.len(),
            plural(args.games.into(), "game", "games"),
            if ids.len() == 1 { "game" } else { "games" },
            ids.join(", "),
            if ids.len() == 1 { "it" } else { "them" }
        )));
    }
    Ok(())
}

/// The games of the duel as they are over: played one at a time on this thread, or by one
/// worker per job on `threads`. A worker's task lost (a bug in arena) comes as an error. Over
/// once no game may start and every game started is over.
fn games_over<'a>(
    duel: &Arc<Duel>,
    threads: Option<&'a GameThreads>,
    games: usize,
) -> Pin<Box<dyn Stream<Item = Joined> + 'a>> {
    let Some(threads) = threads else {
        let (stopping, duel) = (Arc::clone(duel), Arc::clone(duel));
        return Box::pin(
            futures_util::stream::iter(0..games)
                .take_while(move |_| std::future::ready(!stopping.stopping()))
                .then(move |i| {
                    let duel = Arc::clone(&duel);
                    async move { Ok(duel.play(i).await) }
                }),
        );
    };
    let may_start = {
        let duel = Arc::clone(duel);
        move || std::future::ready(!duel.stopping())
    };
    let play = {
        let duel = Arc::clone(duel);
        move |i: usize| {
            let duel = Arc::clone(&duel);
            async move { (i, duel.play_unsettled(i).await) }
        }
    };
    let (workers, mut results) = workers::start(threads, 0..games, may_start, play);
    let workers: futures_util::stream::FuturesUnordered<_> = workers.into_iter().collect();
    let lost = workers.filter_map(|joined| std::future::ready(joined.err().map(Err)));
    let results = futures_util::stream::poll_fn(move |cx| results.poll_recv(cx)).map(Ok);
    Box::pin(futures_util::stream::select(results, lost))
}

/// Record each game as it is over (its log, then its row in games.csv, on disk before it
/// counts: `Journal`), and tell it in the order of the games. The first failure that is
/// arena's own, if any: no game starts after it, and the games already played are still
/// recorded, told and summed up.
async fn record(
    duel: &Duel,
    mut finished: Pin<Box<dyn Stream<Item = Joined> + '_>>,
    mut journal: Journal<usize>,
    told: &mut Told<'_>,
) -> Option<Error> {
    let mut failed = None;
    let mut fail = |e: Error| {
        duel.stop.store(true, Ordering::Relaxed);
        failed.get_or_insert(e);
    };
    let mut playing = true;
    while playing || !journal.is_idle() {
        tokio::select! {
            over = finished.next(), if playing => match over {
                None => playing = false,
                Some(Err(e)) => fail(Error::Internal(format!("a game's task: {e}"))),
                Some(Ok((i, Some(Ok(played))))) => {
                    let row = GameRow::new(i as u64 + 1, i as u32 + 1, &played.record);
                    journal.push(i, played, row);
                }
                Some(Ok((i, Some(Err(Error::Setup(why)))))) => told.add(i, Outcome::Unplayed(why)),
                Some(Ok((i, Some(Err(e))))) => {
                    fail(e);
                    told.add(i, Outcome::Lost);
                }
                Some(Ok((i, None))) => {
                    // Abandoned: what its bots left goes too (on the reaper's thread).
                    crate::bot::reaper::sweep();
                    told.add(i, Outcome::Lost);
                }
            },
            trip = journal.next(!playing, |_| None) => match trip {
                Trip::Recorded(games, _) => {
                    for (i, record, row) in games {
                        told.add(i, Outcome::Recorded(Box::new(record), row));
                    }
                }
                Trip::Unrecorded(games, e) => {
                    let ids: Vec<String> = games.iter().map(|i| (i + 1).to_string()).collect();
                    crate::out::warn(&format!(
                        "arena: not recorded, so counted for no one: {} {}",
                        if ids.len() == 1 { "game" } else { "games" },
                        ids.join(", ")
                    ));
                    fail(e);
                    for i in games {
                        told.add(i, Outcome::Lost);
                    }
                }
            },
        }
        if told.decided() {
            duel.stop.store(true, Ordering::Relaxed);
        }
    }
    if let Some((first, later)) = told.untold() {
        // A game never told holds up every later one: arena's failure, said, not passed over.
        fail(Error::Internal(format!(
            "game {first} ended without a result; {later} later game(s) were played but not told"
        )));
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::new_folder;

    #[test]
    fn a_duel_folder_is_never_shared() {
        let parent = tempfile::tempdir().unwrap();
        let made: Vec<_> = (0..3)
            .map(|_| new_folder(parent.path(), "duel-roshambo-20261124-101500").unwrap())
            .collect();
        let names: Vec<_> = made
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "duel-roshambo-20261124-101500",
                "duel-roshambo-20261124-101500-2",
                "duel-roshambo-20261124-101500-3"
            ]
        );
        assert!(made.iter().all(|p| p.is_dir()));
    }
}
