//! `arena duel`: one quick match between two bots.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use futures_util::{FutureExt, Stream, StreamExt};
use tokio::sync::mpsc::UnboundedSender;

use crate::bot::process::IoLimits;
use crate::bot::{BotCommand, BotSpec, Channel, SpectatorSink};
use crate::error::{Error, Result};
use crate::games::openings::{self, Book, Order};
use crate::games::{Seat, derive_seed};
use crate::out::plural;
use crate::referee::{GameRecord, MatchOptions, MatchSetup, Played, Player, play_retrying};
use crate::report::live::Live;
use crate::schedule::pair_of_game;
use crate::stats::{Sprt, Tally, Wdl};
use crate::tournament::threads::{GameThreads, cores};

mod summary;

use summary::SprtState;

/// What `arena duel` was asked for.
#[derive(Clone)]
pub struct Options {
    /// The two BOT arguments, as given.
    pub bots: [String; 2],
    pub matched: MatchOptions,
    /// How many games; with an SPRT, at most this many.
    pub games: u32,
    /// Stop as soon as this test accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// Games at once; `None` for the default.
    pub jobs: Option<usize>,
    /// Each bot's channel.
    pub channels: [Channel; 2],
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    /// The spectator program's command line.
    pub spectate: Option<String>,
    pub json: bool,
    /// Run both bots in the sandbox as this user.
    pub sandbox: Option<String>,
    pub ponder: bool,
    /// `NAME0,NAME1`, as given.
    pub names: Option<String>,
    /// The openings file, as given.
    pub openings: Option<PathBuf>,
    pub openings_order: Order,
    /// Random moves from the start (or each opening) before the bots play.
    pub random_plies: u32,
}

/// Names for the two bots: as given, else from their commands, made distinct.
fn names(args: &Options, bots: &[BotSpec; 2]) -> Result<[String; 2]> {
    if let Some(given) = &args.names {
        return match given.split(',').map(str::trim).collect::<Vec<_>>()[..] {
            [a, b] if !a.is_empty() && !b.is_empty() && a != b => Ok([a.into(), b.into()]),
            _ => Err(Error::Usage(format!(
                "--names {given}: expected two different names, as NAME0,NAME1"
            ))),
        };
    }
    let a = bots[0].command.default_name();
    let b = bots[1].command.default_name();
    Ok(if a == b {
        [format!("{a}-1"), format!("{b}-2")]
    } else {
        [a, b]
    })
}

/// A new folder for a duel's results: `results/duel-GAME-DATE-TIME`, made here and by no one
/// else. Two duels started in the same second must not share one and interleave their logs: the
/// folder is created exclusively, and a taken name gets `-2`, `-3`, ...
fn default_out(game: &str) -> Result<PathBuf> {
    let stamp: String = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .chars()
        .filter(|c| c.is_ascii_digit())
        .collect();
    let parent = Path::new("results");
    std::fs::create_dir_all(parent).map_err(Error::io(format!("creating {}", parent.display())))?;
    new_folder(
        parent,
        &format!("duel-{game}-{}-{}", &stamp[..8], &stamp[8..]),
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

/// A game's number (0 is the first) and how it went, or why its task was lost.
type Joined = std::result::Result<(usize, Result<GameRecord>), tokio::task::JoinError>;

/// Which bot sits where in game `i` (0 is the first): the first bot takes seat 0 in game 1,
/// then seats alternate.
fn seats(i: usize) -> [usize; 2] {
    crate::schedule::seats_of_game(i as u64, [0, 1])
}

/// What every game of a duel shares, for the threads the games run on.
struct Duel {
    matched: MatchOptions,
    names: [String; 2],
    bots: [BotSpec; 2],
    seed: u64,
    logs: PathBuf,
    limits: IoLimits,
    spectate: Option<BotCommand>,
    ponder: bool,
    book: Option<Book>,
    /// Packs the games for the report as they are played.
    live: Option<Live>,
}

impl Duel {
    /// The seed of game `i`: its own, or for a referee program's game its pair's, so that
    /// games 1 and 2 are played on one map, seats swapped, and so on.
    fn seed_of(&self, i: usize) -> u64 {
        match self.matched.referee {
            Some(_) => crate::schedule::pair_seed(self.seed, pair_of_game(i as u32), [0, 1]),
            None => derive_seed(self.seed, i as u64),
        }
    }

    /// Play game `i` (0 is the first), its spectator program beside it if there is one. The
    /// bots' last stderr may still be on its way to their files.
    async fn play_unsettled(&self, i: usize) -> Result<Played> {
        let sink = match &self.spectate {
            Some(cmd) => Some(SpectatorSink::spawn(cmd, self.limits).map_err(Error::Usage)?),
            None => None,
        };
        let log_path = self.logs.join(format!("game-{:04}.jsonl", i + 1));
        let played = play_retrying(|| MatchSetup {
            game: self.matched.game,
            params: self.matched.params.clone(),
            seed: self.seed_of(i),
            players: seats(i).map(|b| Player {
                name: self.names[b].clone(),
                bot: self.bots[b].clone(),
            }),
            timeout: self.matched.timeout,
            startup_timeout: self.matched.startup_timeout,
            limits: self.limits,
            log_path: log_path.clone(),
            spectator: sink.as_ref().map(|s| s.sender()),
            ponder: self.ponder,
            // Games 1 and 2 start from the first opening, seats swapped, and so on.
            opening: self
                .book
                .as_ref()
                .map(|b| b.opening(pair_of_game(i as u32))),
            referee: self.matched.referee.clone(),
            tap: self.live.as_ref().map(|l| l.tap(&log_path)),
        })
        .await;
        if let Some(sink) = sink {
            sink.finish(self.limits.grace).await;
        }
        played
    }

    /// Play game `i` and write its result into its log once its files are complete. Its log is
    /// made durable with the others' at the end of the duel (one pass of the disk, not one per
    /// game): a duel has nothing to resume, and the page cache keeps what was written if arena
    /// itself is stopped.
    async fn play(&self, i: usize) -> Result<GameRecord> {
        self.play_unsettled(i).await?.written().await
    }

    /// Play games, taking the next number until there are none or `stop` is set, and send each
    /// result. A game whose bots' stderr is still on its way is written when it is there, and
    /// the slot plays on meanwhile: waiting held the slot up (bench/README.md, throughput).
    async fn work(
        self: Arc<Duel>,
        next: Arc<AtomicUsize>,
        games: usize,
        stop: Arc<AtomicBool>,
        done: UnboundedSender<(usize, Result<GameRecord>)>,
    ) {
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= games {
                break;
            }
            match self.play_unsettled(i).await {
                Ok(played) if !played.settled() => {
                    let done = done.clone();
                    tokio::spawn(async move {
                        // A panic here would lose the game and hold up every later one.
                        let record = std::panic::AssertUnwindSafe(played.written())
                            .catch_unwind()
                            .await
                            .unwrap_or_else(|_| {
                                Err(Error::Internal(format!("writing game {}'s log", i + 1)))
                            });
                        let _ = done.send((i, record));
                    });
                }
                played => {
                    let record = match played {
                        Ok(played) => played.written().await,
                        Err(e) => Err(e),
                    };
                    if done.send((i, record)).is_err() {
                        break;
                    }
                }
            }
        }
    }
}

pub async fn run(args: Options) -> Result<()> {
    let game = args.matched.game;
    let base = std::env::current_dir().map_err(Error::io("reading the current directory"))?;
    let bot = |i: usize| {
        let text = &args.bots[i];
        BotSpec::for_game(text, &base, args.channels[i], game)
            .map_err(|e| Error::Usage(format!("bot {} ({text}): {e}", i + 1)))
    };
    let bots = [bot(0)?, bot(1)?];
    if bots.iter().all(|b| b.command == BotCommand::Terminal) {
        return Err(Error::Usage("only one bot can be the terminal (-)".into()));
    }
    let spectate = match &args.spectate {
        Some(cmd) => Some(
            BotCommand::parse(cmd, &base).map_err(|e| Error::Usage(format!("--spectate: {e}")))?,
        ),
        None => None,
    };
    let mut bots = bots;
    if let Some(user) = &args.sandbox {
        crate::bot::Sandbox::bwrap().map_err(|e| Error::Usage(format!("--sandbox: {e}")))?;
        let sandbox = crate::bot::Sandbox::new(user)
            .map_err(|e| Error::Usage(format!("--sandbox-user: {e}")))?;
        for b in bots.iter_mut() {
            sandbox
                .check_reachable(b)
                .map_err(|e| Error::Usage(format!("{}: {e}", b.label)))?;
            b.sandbox = Some(sandbox.clone());
        }
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
    let out = match &args.out {
        Some(out) => out.clone(),
        None => default_out(game.name)?,
    };
    let logs = out.join("logs");
    std::fs::create_dir_all(&logs).map_err(Error::io(format!("creating {}", logs.display())))?;
    let limits = IoLimits {
        framing: game.framing,
        ..IoLimits::default()
    };

    let listed = match &args.openings {
        Some(path) => Some(
            openings::read(game, &base.join(path))
                .map_err(|e| Error::Usage(format!("--openings: {e}")))?,
        ),
        None => None,
    };
    let book = Book::new(game, listed, args.openings_order, args.random_plies, seed)
        .map_err(|e| Error::Usage(format!("--random-plies: {e}")))?;
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
        None if person || spectate.is_some() || bots.iter().any(|b| b.console) => 1,
        None => (cores() / 2).max(1),
    };
    // Bots of games played at once cannot share the terminal.
    if jobs > 1 {
        for b in bots.iter_mut() {
            b.console = false;
        }
    }

    // Results on stdout; with --json, only the JSON there and the words on stderr.
    let say = |text: &str| {
        if args.json {
            crate::out::warn(text);
        } else {
            crate::out::line(text);
        }
    };
    eprintln!(
        "arena: {} vs {} at {}, {} game(s), {jobs} at a time, seed {seed}, logs in {}",
        names[0],
        names[1],
        game.name,
        args.games,
        logs.display()
    );
    if !args.games.is_multiple_of(2) && args.games > 1 {
        crate::out::warn(&format!(
            "arena: {} games: {} plays first once more than {}; an even number balances the seats",
            args.games, names[0], names[1]
        ));
    }

    let duel = Arc::new(Duel {
        matched: args.matched.clone(),
        names: names.clone(),
        bots,
        seed,
        logs: logs.clone(),
        limits,
        spectate,
        ponder: args.ponder,
        book,
        live: Live::start(),
    });
    // Set once the SPRT has its answer: no game starts after that.
    let stop = Arc::new(AtomicBool::new(false));
    let games = args.games as usize;
    // One game at a time is played on this thread: a game that stays on its thread wakes no
    // other at each line (bench/README.md). Games at once are played by one worker per job on
    // the game threads, each taking the next game as soon as its own is over: a slot is
    // refilled on its thread, without a round trip through this one.
    let threads = match jobs {
        1 => None,
        _ => Some(
            GameThreads::new(jobs, cores())
                .map_err(Error::io("starting the threads games run on"))?,
        ),
    };
    let mut finished: Pin<Box<dyn Stream<Item = Joined> + '_>> = match &threads {
        None => {
            let stop = Arc::clone(&stop);
            let duel = Arc::clone(&duel);
            Box::pin(
                futures_util::stream::iter(0..games)
                    .take_while(move |_| std::future::ready(!stop.load(Ordering::Relaxed)))
                    .then(move |i| {
                        let duel = Arc::clone(&duel);
                        async move { Ok((i, duel.play(i).await)) }
                    }),
            )
        }
        Some(threads) => {
            let (done, mut results) = tokio::sync::mpsc::unbounded_channel();
            let next = Arc::new(AtomicUsize::new(0));
            let workers: futures_util::stream::FuturesUnordered<_> = (0..jobs)
                .map(|_| {
                    threads.spawn(Arc::clone(&duel).work(
                        Arc::clone(&next),
                        games,
                        Arc::clone(&stop),
                        done.clone(),
                    ))
                })
                .collect();
            drop(done);
            // The results, and a worker's task lost (a bug in arena) as an error; over once
            // every worker and every game it left to finish are.
            let lost = workers.filter_map(|joined| std::future::ready(joined.err().map(Err)));
            let results = futures_util::stream::poll_fn(move |cx| results.poll_recv(cx)).map(Ok);
            Box::pin(futures_util::stream::select(results, lost))
        }
    };

    let mut rows = Vec::new();
    let mut tally = Tally::default();
    let mut sprt = args.sprt.map(SprtState::new);
    let mut points = [0.0f64; 2];
    let mut unplayed = Vec::new();
    // Games finish in any order; they are told and recorded in the order of their ids.
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    // The first failure that is arena's own: no game starts after it, the games already played
    // are still told, recorded and summed up, and then it is the duel's result.
    let mut failed = None;
    while let Some(joined) = finished.next().await {
        let (i, played) = match joined {
            Ok(done) => done,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                failed.get_or_insert(Error::Internal(format!("a game's task: {e}")));
                continue;
            }
        };
        waiting.insert(i, played);
        while let Some(played) = waiting.remove(&next) {
            let i = next;
            next += 1;
            let order = seats(i);
            let record = match played {
                Ok(record) => record,
                // arena's failure, not a bot's: the game counts for no one, and the others go on.
                Err(Error::Setup(why)) => {
                    crate::out::warn(&format!(
                        "arena: game {} ({} vs {}) was not played: arena could not set it up \
                         ({why}); it counts for no one",
                        i + 1,
                        names[order[0]],
                        names[order[1]]
                    ));
                    unplayed.push(i + 1);
                    tally.record(i as u64, None);
                    continue;
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failed.get_or_insert(e);
                    tally.record(i as u64, None);
                    continue;
                }
            };
            // The first bot sits in seat 0 of the games with an even index.
            let first = Seat::BOTH[i % 2];
            let scores = [
                record.verdict.scores[first],
                record.verdict.scores[first.other()],
            ];
            points[0] += scores[0];
            points[1] += scores[1];
            // A game both bots lost (both failed) is a result for neither.
            let result = (scores[0] + scores[1] == 1.0)
                .then(|| Wdl::from_score(scores[0]))
                .flatten();
            tally.record(i as u64, result);
            let mut line = record.finished_line(i + 1);
            if let Some(sprt) = &mut sprt {
                sprt.update(&tally, i as u64 + 1);
                if sprt.decided.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                line.push_str(&format!("; {}", sprt.progress()));
            }
            say(&line);
            rows.push(crate::report::GameRow::new(
                i as u64 + 1,
                i as u32 + 1,
                &record,
            ));
            if args.json {
                let mut stdout = std::io::stdout().lock();
                // One line for any reader: a detail may quote a bot's JSON string.
                let _ = crate::games::line_breaks::write_json(&mut stdout, &record);
                let _ = writeln!(stdout);
                let _ = stdout.flush();
            }
        }
    }
    if !waiting.is_empty() {
        // A game never told holds up every later one: arena's failure, said, not passed over.
        failed.get_or_insert(Error::Internal(format!(
            "game {} ended without a result; {} later game(s) were played but not told",
            next + 1,
            waiting.len()
        )));
    }
    let input = crate::report::html::ReportInput {
        title: format!("{} vs {}", names[0], names[1]),
        game,
        params: args.matched.params.pairs(),
        format: "duel",
        names: &names,
        rows: &rows,
    };
    let ready = duel.live.as_ref().map(Live::finish).unwrap_or_default();
    // The logs go to disk, then the records of the games told (as a tournament keeps them: for
    // scripts, and for `arena report` to write the page again; written once, at the end: a duel
    // has nothing to resume), while the page is drawn: waiting for the disk, and drawing on
    // every core, overlap.
    let page = crate::report::html::write_alongside(&out, &input, ready, || {
        crate::referee::log::sync_folder(&logs)?;
        crate::report::write_atomic(&out.join("games.csv"), &crate::report::games_csv(&rows))
    })?;
    eprintln!("arena: report in {}", page.display());
    let games = &tally.games;
    say(&format!(
        "{} vs {}: {}, {}, {} for {} (score {}-{})",
        names[0],
        names[1],
        plural(games.wins, "win", "wins"),
        plural(games.draws, "draw", "draws"),
        plural(games.losses, "loss", "losses"),
        names[0],
        points[0],
        points[1]
    ));
    for line in summary::lines(&tally) {
        say(&line);
    }
    if let Some(sprt) = &sprt {
        say(&sprt.conclusion(&names));
    }
    if args.json {
        let mut stdout = std::io::stdout().lock();
        let _ = serde_json::to_writer(&mut stdout, &summary::json(&tally, sprt.as_ref()));
        let _ = writeln!(stdout);
        let _ = stdout.flush();
    }
    if let Some(e) = failed {
        return Err(e);
    }
    if !unplayed.is_empty() {
        let ids: Vec<String> = unplayed.iter().map(usize::to_string).collect();
        return Err(Error::Unplayed(format!(
            "{} of {} could not be played ({} {}): arena could not set {} up (see above); \
             no one is to blame",
            unplayed.len(),
            plural(args.games.into(), "game", "games"),
            if ids.len() == 1 { "game" } else { "games" },
            ids.join(", "),
            if ids.len() == 1 { "it" } else { "them" }
        )));
    }
    Ok(())
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
