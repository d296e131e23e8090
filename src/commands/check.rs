//! `arena check BOT --game G`: a few games of a bot against the game's built-in bots, and a report
//! in plain words of what went wrong, if anything. For students, before they submit a bot.

use std::path::Path;

use std::path::PathBuf;

use crate::bot::{BotCommand, BotSpec, Channel};
use crate::error::{Error, Result};
use crate::games::{GameInfo, Seat};
use crate::failure::{Cause, Exit, Reason};
use crate::out::plural;
use crate::referee::judge::SeatFault;
use crate::engine::{self, Games, retry, stop};
use crate::referee::times::AnswerTimes;
use crate::referee::{GameRecord, MatchOptions, Player, stderr_path};

/// What `arena check` was asked for.
#[derive(Clone)]
pub struct Options {
    /// The BOT argument, as given.
    pub bot: String,
    pub matched: MatchOptions,
    /// Default: every seat of every number of players the game takes, at least 4 games.
    pub games: Option<u32>,
    /// Only games of this many players (of those the game takes).
    pub players: Option<usize>,
    pub channel: Channel,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    /// The opponent, instead of the built-in bots (or the bot itself).
    pub against: Option<String>,
}

/// Lines of the bot's stderr quoted for a failure.
const STDERR_LINES: usize = 5;
/// Longest line quoted, in characters; the rest is summarised.
const QUOTE_CHARS: usize = 200;
/// Width the hints are wrapped to.
const WIDTH: usize = 100;

/// What the report needs to know about one game, gathered before its logs may go away.
struct Played {
    /// The line printed for the game.
    line: String,
    /// "won", "drawn" or "lost".
    outcome: &'static str,
    /// The explanation of the bot's failure, if it failed.
    failure: Option<Failure>,
    /// The bot's answer times in the game.
    times: AnswerTimes,
}

struct Failure {
    reason: Reason,
    text: String,
}

pub async fn run(args: Options) -> Result<()> {
    let game = args.matched.game;
    let base = std::env::current_dir().map_err(Error::io("reading the current directory"))?;
    // Read as `arena duel` reads its first bot, so that it means the same and is refused with
    // the same words.
    let bot = BotSpec::for_game(&args.bot, &base, args.channel, game)
        .map_err(|e| Error::Usage(format!("bot 1 ({}): {e}", args.bot)))?;
    if bot.command == BotCommand::Terminal {
        return Err(Error::Usage(
            "check tries a program; to play yourself, use `arena duel - builtin:random`".into(),
        ));
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    // The logs go to --out, else to a temporary folder removed when the check is over.
    let (_temporary, out) = match &args.out {
        Some(out) => (None, out.clone()),
        None => {
            let t = tempfile::Builder::new()
                .prefix("arena-check-")
                .tempdir()
                .map_err(Error::io("creating a temporary folder"))?;
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    };
    let logs = out.join("logs");
    std::fs::create_dir_all(&logs).map_err(Error::io(format!("creating {}", logs.display())))?;
    let line_up = line_up(game, args.players)?;
    let games = args.games.unwrap_or((line_up.len() as u32).max(4)) as usize;
    let opponent = match &args.against {
        Some(text) => Some(
            BotSpec::for_game(text, &base, Channel::Stdio, game)
                .map_err(|e| Error::Usage(format!("--against ({text}): {e}")))?,
        ),
        None => None,
    };
    // A game with no built-in bots (a referee program's) is played against the bot itself.
    let against = match (&args.against, game.builtins) {
        (Some(text), _) => text.as_str(),
        (None, []) => "itself",
        (None, _) => "the built-in bots",
    };
    eprintln!(
        "arena: checking {} at {}: {games} game(s) against {against}, seed {seed}",
        args.bot, game.name
    );
    let check = Check {
        args: &args,
        bot,
        opponent,
        seed,
        games: Games {
            limits: engine::limits_of(&args.matched),
            options: args.matched.clone(),
            logs,
            ponder: false,
            live: None,
        },
        line_up,
    };
    let mut checked = Checked::default();
    for i in 0..games {
        match check.play(i).await? {
            Game::Played(p) => {
                crate::out::line(&p.line);
                checked.played.push(p);
            }
            Game::Unplayed => checked.unplayed += 1,
            Game::RefereeFailed => checked.referee_failed += 1,
        }
    }
    conclude(&args, &check.games.logs, games, &checked)
}

/// What a check plays with.
struct Check<'a> {
    args: &'a Options,
    bot: BotSpec,
    /// `--against`: the opponent of every game.
    opponent: Option<BotSpec>,
    seed: u64,
    /// The game, its options and the logs' folder.
    games: Games,
    /// The players and the bot's seat of the games before the built-ins change.
    line_up: Vec<(usize, Seat)>,
}

/// One game of a check, told.
enum Game {
    Played(Played),
    /// arena could not set it up: not the bot's doing.
    Unplayed,
    /// Its referee program failed: decided by no one.
    RefereeFailed,
}

/// The games of a check.
#[derive(Default)]
struct Checked {
    played: Vec<Played>,
    unplayed: usize,
    referee_failed: usize,
}

impl Check<'_> {
    /// Game `i`: every seat of every number of players in turn, then again with the next
    /// built-in (a two-player game meets each built-in twice in a row, the bot first, then
    /// second).
    async fn play(&self, i: usize) -> Result<Game> {
        let game = self.args.matched.game;
        let (n, seat) = self.line_up[i % self.line_up.len()];
        let builtin = (!game.builtins.is_empty() && self.opponent.is_none())
            .then(|| game.builtins[(i / self.line_up.len()) % game.builtins.len()].0);
        let opponent = match (&self.opponent, builtin) {
            (Some(bot), _) => bot.clone(),
            (None, None) => self.bot.clone(),
            (None, Some(name)) => {
                BotSpec::parse(&format!("builtin:{name}"), Path::new("."), Channel::Stdio)
                    .expect("a built-in parses")
            }
        };
        let against = self.opponent.as_ref().map(|b| b.command.default_name());
        let opponent_name = match (&against, builtin) {
            (Some(name), _) => name.clone(),
            (None, Some(b)) => format!("builtin:{b}"),
            (None, None) => "itself".to_string(),
        };
        let default = self.bot.command.default_name();
        let other = against.as_deref().or(builtin).unwrap_or(&default);
        let names = names(&self.bot, other, n, seat);
        let players = || {
            Seat::all(n)
                .zip(&names)
                .map(|(s, name)| Player {
                    name: name.clone(),
                    bot: if s == seat {
                        self.bot.clone()
                    } else {
                        opponent.clone()
                    },
                })
                .collect::<Vec<_>>()
        };
        let name = format!("game {} vs {opponent_name}", i + 1);
        let seed = crate::seeds::of_series(self.seed, i, 1, false);
        let setup = || self.games.setup(i as u64 + 1, players(), seed, None);
        // Never abandoned: no signal moves a check's stop.
        let Some(result) = retry::play(&name, setup, &mut stop::never(), || true).await else {
            return Ok(Game::Unplayed);
        };
        let result = match result {
            Ok(played) => played.durable().await,
            Err(e) => Err(e),
        };
        let record = match result {
            Ok(record) => record,
            // arena's failure, not the bot's: said so, and not held against it.
            Err(Error::Setup(why)) => {
                crate::out::line(&format!(
                    "game {} vs {opponent_name}: not played: arena could not set it up \
                     ({why}); this is not your bot's doing",
                    i + 1
                ));
                return Ok(Game::Unplayed);
            }
            Err(e) => return Err(e),
        };
        if record.verdict.reason == Reason::Referee {
            crate::out::line(&format!(
                "game {} vs {opponent_name}: not decided: {}; this is not your bot's doing",
                i + 1,
                record
                    .verdict
                    .detail
                    .as_deref()
                    .unwrap_or("the referee failed")
            ));
            return Ok(Game::RefereeFailed);
        }
        // Against itself, whichever seat failed was the bot.
        let seat = match (builtin, record.verdict.faulted) {
            (None, Some(failed)) => failed,
            _ => seat,
        };
        let log_path = self.games.logs.join(engine::log_name(i as u64 + 1));
        let p = examine(i + 1, &opponent_name, seat, &record, &log_path, self.args);
        Ok(Game::Played(p))
    }
}

/// What went wrong in each game the bot failed, and the verdict: OK, PROBLEM, or NOT CHECKED.
fn conclude(args: &Options, logs: &Path, asked: usize, checked: &Checked) -> Result<()> {
    let played = &checked.played;
    let failed: Vec<(usize, &Failure)> = played
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.failure.as_ref().map(|f| (i + 1, f)))
        .collect();
    for (id, failure) in &failed {
        crate::out::line("");
        crate::out::line(&format!(
            "What went wrong in game {id} (lost by {}):",
            failure.reason.as_str()
        ));
        crate::out::text(&failure.text);
    }
    if !failed.is_empty() {
        crate::out::line("");
        crate::out::line(&match &args.out {
            Some(_) => format!(
                "The game logs and your bot's stderr are in {} (arena replay LOG plays one back).",
                logs.display()
            ),
            None => "To keep the game logs and your bot's stderr, run again with --out DIR.".into(),
        });
    }
    crate::out::line("");
    let mut times = AnswerTimes::default();
    for p in played {
        times.add(&p.times);
    }
    if let Some(line) = crate::report::times::answer_line("your bot", &times) {
        crate::out::line(&line);
    }
    let games = plural(played.len() as u64, "game", "games");
    let undecided = undecided(checked.unplayed, checked.referee_failed);
    if failed.is_empty() && !undecided.is_empty() {
        crate::out::line(&format!(
            "NOT CHECKED: {undecided} of {} (not your bot's doing); your bot played {games} \
             without a failure. Run the check again.",
            plural(asked as u64, "game", "games"),
        ));
        return Err(Error::Unplayed(format!(
            "{} could not be played",
            plural(
                (checked.unplayed + checked.referee_failed) as u64,
                "game",
                "games"
            )
        )));
    }
    if failed.is_empty() {
        let count = |outcome| played.iter().filter(|p| p.outcome == outcome).count();
        crate::out::line(&format!(
            "OK: your bot played {games} without a failure ({} won, {} drawn, {} lost)",
            count("won"),
            count("drawn"),
            count("lost"),
        ));
        Ok(())
    } else {
        let mut line = format!(
            "PROBLEM: your bot failed {} of {games} ({})",
            failed.len(),
            reasons(failed.iter().map(|(_, f)| f.reason))
        );
        if !undecided.is_empty() {
            line.push_str(&format!("; {undecided} more (not your bot's doing)"));
        }
        crate::out::line(&line);
        Err(Error::BotFailed(format!(
            "the bot failed {} of {games}",
            failed.len()
        )))
    }
}

/// The games no one decided, in words: "arena could not set up 1" and "the referee program
/// failed in 2"; empty when there are none.
fn undecided(unplayed: usize, referee_failed: usize) -> String {
    let mut parts = Vec::new();
    if unplayed > 0 {
        parts.push(format!("arena could not set up {unplayed}"));
    }
    if referee_failed > 0 {
        parts.push(format!("the referee program failed in {referee_failed}"));
    }
    parts.join(" and ")
}

/// The games of a check before the built-ins change: for every number of players the game
/// takes (or the one asked for), the bot in every seat.
fn line_up(game: &GameInfo, players: Option<usize>) -> Result<Vec<(usize, Seat)>> {
    let counts = match players {
        Some(n) if game.players.contains(&n) => n..=n,
        Some(n) => {
            return Err(Error::Usage(format!(
                "--players {n}: {} is played by {}",
                game.name,
                game.players_text()
            )));
        }
        // A referee program may referee any number: two unless asked.
        None if game.name == crate::games::program::INFO.name => 2..=2,
        None => game.players.clone(),
    };
    Ok(counts
        .flat_map(|n| Seat::all(n).map(move |s| (n, s)))
        .collect())
}

/// The players' names in seat order, the bot in `seat` and the built-in elsewhere, made
/// distinct as a duel makes them (`random-1`, `random-2` when names meet).
fn names(bot: &BotSpec, builtin: &str, players: usize, seat: Seat) -> Vec<String> {
    let plain: Vec<String> = Seat::all(players)
        .map(|s| match s == seat {
            true => bot.command.default_name(),
            false => builtin.to_string(),
        })
        .collect();
    crate::bot::distinct_names(plain)
}

/// "timed out in 2, crashed in 1", in the order first seen.
fn reasons(all: impl Iterator<Item = Reason>) -> String {
    let mut counts: Vec<(Reason, usize)> = Vec::new();
    for r in all {
        match counts.iter_mut().find(|(seen, _)| *seen == r) {
            Some((_, n)) => *n += 1,
            None => counts.push((r, 1)),
        }
    }
    counts
        .iter()
        .map(|(r, n)| {
            let what = match r {
                Reason::Timeout => "timed out",
                Reason::Crash => "crashed",
                Reason::Protocol => "broke the protocol",
                Reason::Illegal => "played an illegal move",
                other => other.as_str(),
            };
            format!("{what} in {n}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The game's line, and for a failure of the bot everything a student needs to mend it.
fn examine(
    id: usize,
    opponent: &str,
    seat: Seat,
    record: &GameRecord,
    log_path: &Path,
    args: &Options,
) -> Played {
    let order = match seat.index() {
        0 => "first".to_string(),
        1 => "second".to_string(),
        i => format!("in seat {i}"),
    };
    let v = &record.verdict;
    let players = record.players.len();
    let outcome = match v.winner {
        Some(w) if w == seat => "won",
        Some(_) => "lost",
        None if v.fault_of(seat).is_some() => "lost",
        None if players > 2 && v.places.of(seat) > 1 => "lost",
        None => "drawn",
    };
    let mut line = format!("game {id} vs {opponent} (you played {order}): {outcome}");
    if players > 2 {
        line.push_str(&format!(", placed {} of {players}", v.places.of(seat)));
    }
    // It had not reached its first read when the game began: its start-up was what was slow.
    let unready = record
        .times
        .get(seat.index())
        .is_some_and(|t| t.unready > 0)
        .then_some(args.matched.startup_timeout);
    let failure = v.fault_of(seat).map(|f| {
        line.push_str(&format!(": {}", f.detail));
        Failure {
            reason: f.reason,
            text: explain(&f, seat, log_path, args, unready),
        }
    });
    Played {
        line,
        outcome,
        failure,
        times: record.times.get(seat.index()).copied().unwrap_or_default(),
    }
}

/// The failure's detail, the last lines exchanged, the bot's last stderr lines and a hint.
fn explain(
    fault: &SeatFault,
    seat: Seat,
    log_path: &Path,
    args: &Options,
    unready: Option<std::time::Duration>,
) -> String {
    let (game, channel) = (args.matched.game, args.channel);
    let mut text = format!("  your bot {}\n", fault.detail);
    // A bot that never started (it did not open its pipes, or could not be run) was sent
    // nothing, whatever the log says the game wrote for it.
    let cause = fault.cause;
    let started = !matches!(cause, Cause::PipesNotOpened | Cause::NotStarted);
    let exchanged = last_lines(log_path, seat);
    if started {
        match &exchanged.sent {
            Some(l) => text.push_str(&format!(
                "  the last line arena sent it before it failed: {}\n",
                quote(l)
            )),
            // The game waited for this seat before sending it anything: the bot speaks first.
            None => text.push_str(&format!(
                "  arena had sent it nothing: in {0} the bot writes the first line (see `arena \
                 games {0}`)\n",
                game.name
            )),
        }
        match &exchanged.received {
            Some(l) if exchanged.count == 1 => {
                text.push_str(&format!("  the only line it sent: {}\n", quote(l)))
            }
            Some(l) => text.push_str(&format!(
                "  the last of the {} lines it sent: {}\n",
                exchanged.count,
                quote(l)
            )),
            None => text.push_str("  it had sent no line\n"),
        }
    }
    let what = match channel {
        Channel::Stdio => "stderr",
        Channel::Pipe => "stderr and stdout",
    };
    let stderr = tail(&stderr_path(log_path, seat));
    let wrote_stderr = !stderr.is_empty();
    if wrote_stderr {
        text.push_str(&format!("  the last lines of its {what}:\n"));
        for l in &stderr {
            text.push_str(&format!("    | {l}\n"));
        }
    } else {
        text.push_str(&format!("  it wrote nothing on its {what}\n"));
    }
    let failed = Failed {
        reason: fault.reason,
        cause,
        at_move: fault.at_move,
        unready,
        sdk: crate::referee::sdk::is_sdk_game(game, &args.matched.params),
    };
    let hint = hint(&failed, game, channel, wrote_stderr);
    text.push_str(&wrap(&format!("  hint: {hint}"), "        "));
    text
}

/// Words wrapped at `WIDTH` columns, continuation lines indented; each line ends in a newline.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if line.trim().is_empty() {
            line.push_str(word);
            line.push(' ');
            continue;
        }
        if line.len() + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
        }
        line.push_str(word);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

struct Exchanged {
    /// The last line arena sent the seat before its failure.
    sent: Option<String>,
    /// The last line the seat sent before its failure, and how many it sent.
    received: Option<String>,
    count: usize,
}

/// Read the game log up to the seat's failure.
fn last_lines(log_path: &Path, seat: Seat) -> Exchanged {
    let mut found = Exchanged {
        sent: None,
        received: None,
        count: 0,
    };
    let Ok(log) = crate::files::read_log_file(log_path) else {
        return found;
    };
    let log = String::from_utf8_lossy(&log);
    // The log holds seats as numbers.
    let seat = seat.index();
    for entry in log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    {
        let line = || entry["line"].as_str().map(str::to_string);
        if entry["fault"] == seat {
            break;
        } else if entry["to"] == seat {
            found.sent = line();
        } else if entry["from"] == seat {
            found.received = line();
            found.count += 1;
        }
    }
    found
}

/// The last lines of a stderr capture, blank ones left out.
fn tail(path: &Path) -> Vec<String> {
    let Ok(bytes) = crate::files::read_log_file(path) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(STDERR_LINES)..]
        .iter()
        .map(|l| shorten(l))
        .collect()
}

/// A line as the bot sent or received it, quoted, control characters shown, long ones cut.
fn quote(line: &str) -> String {
    format!("'{}'", shorten(line))
}

fn shorten(line: &str) -> String {
    let mut shown = String::new();
    for c in line.chars().take(QUOTE_CHARS) {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    let more = line.chars().count().saturating_sub(QUOTE_CHARS);
    if more > 0 {
        shown.push_str(&format!("... ({more} more characters)"));
    }
    shown
}

/// What the bot did, as the record gives it: the facts a hint is chosen from.
struct Failed {
    reason: Reason,
    cause: Cause,
    at_move: Option<u32>,
    /// The startup allowance, when the bot had not reached its first read at its end.
    unready: Option<std::time::Duration>,
    /// The game's referee is an SDK referee, which keeps its own deadlines.
    sdk: bool,
}

/// How a process ended, in words.
fn ended(exit: Exit) -> String {
    match exit {
        Exit::Status(code) => format!("exited with status {code}"),
        Exit::Signal(sig) => match nix::sys::signal::Signal::try_from(sig) {
            Ok(s) => format!("was killed by {}", s.as_str()),
            Err(_) => format!("was killed by signal {sig}"),
        },
        Exit::ProcessLimit => "was killed for running more processes than its limit".into(),
        Exit::MemoryLimit => "was killed for using more memory than its limit".into(),
        Exit::Unknown => "ended".into(),
    }
}

/// What a student most likely did wrong.
fn hint(failed: &Failed, game: &GameInfo, channel: Channel, wrote_stderr: bool) -> String {
    let rules = format!("`arena games {}`", game.name);
    let see_stderr = if wrote_stderr {
        "see its stderr above".to_string()
    } else {
        "it wrote nothing on stderr: print what it does there to see where it stops".to_string()
    };
    match (failed.reason, failed.cause) {
        (_, Cause::PipesNotOpened) => "on the pipe channel the bot must open \
             COCO_PIPEIN (to read) and COCO_PIPEOUT (to write), the paths named in its \
             environment, as its first action; a bot that reads stdin and writes stdout needs \
             --channel stdio."
            .into(),
        (_, Cause::StoppedReading) => format!(
            "your bot stopped reading its input while arena was writing to it: read every line \
             the game sends, even the ones you do not need (see {rules})."
        ),
        (Reason::Timeout, _) => timeout_hint(failed, channel, &rules),
        (_, Cause::Exited(Exit::MemoryLimit)) => {
            "the bot used more memory than its limit (memory_mb, --memory-mb): does it keep \
             every position it searched? Free what it no longer needs, or bound its tables."
                .into()
        }
        (_, Cause::Exited(Exit::Status(0))) => format!(
            "the bot exited with status 0 while the game was still going: keep reading and \
             answering until the game is over (see {rules})."
        ),
        (_, Cause::Exited(exit)) => format!("the bot {}: {see_stderr}.", ended(exit)),
        (_, Cause::ClosedInput) => {
            format!(
                "the bot stopped reading its input, most likely because it ended: {see_stderr}."
            )
        }
        (_, Cause::ClosedOutput) => {
            "the bot closed its output while still running: keep it open until the game is over."
                .into()
        }
        (_, Cause::NotStarted) => {
            "arena could not start the bot: check that the command runs from this folder.".into()
        }
        (_, Cause::TooLong) => {
            "a line that long is not a move: does your bot print something else on its move \
             stream, or forget the newline after its move?"
                .into()
        }
        (_, Cause::NotUtf8) => {
            "write moves as plain text lines; binary bytes are not a move.".into()
        }
        (_, Cause::LineBreak) => {
            "end each line with a newline (\\n, or \\r\\n) and put no other line break inside \
             it: a carriage return, a vertical tab, a form feed, U+0085, U+2028 or U+2029 ends a \
             line for some readers, so arena refuses a line that holds one."
                .into()
        }
        (Reason::Crash, _) => format!("{see_stderr}."),
        (Reason::Protocol, _) => {
            let stream = match channel {
                Channel::Stdio => "stdout",
                Channel::Pipe => "COCO_PIPEOUT",
            };
            format!(
                "arena expected a move and got the line quoted above. Write only moves to \
                 {stream}, one per line, exactly as {rules} shows; write debugging output to \
                 stderr."
            )
        }
        (Reason::Illegal, _) => format!(
            "the move is well formed, but the rules do not allow it in that position: check \
             your bot's moves against the rules in {rules}."
        ),
        _ => format!("{see_stderr}."),
    }
}


/// What to look at when the bot did not answer in time: at its first move, its start-up or its
/// output; later, a flush, a line waited for, or its speed.
fn timeout_hint(failed: &Failed, channel: Channel, rules: &str) -> String {
    match (failed.at_move, failed.unready) {
        // The startup allowance is also the first turn's limit the referee keeps (the SDK's
        // `firstTurnMaxTime`): raised past it, a late first answer would pass for a refused one.
        (Some(1), Some(unready)) if failed.sdk => {
            let secs = unready.as_secs_f64();
            format!(
                "your bot had not reached its first read after {secs} s, and did not answer \
                 within the referee's first turn either: its start-up (a JVM, an interpreter \
                 loading its libraries, tables computed before the first read) takes longer \
                 than the contest allows, here as on CodinGame, where every player is started \
                 before the game and given the first turn's limit. Make the start-up shorter \
                 (for a JVM: a class-data archive, -XX:TieredStopAtLevel=1, as `arena games \
                 referee` says), or read the input before anything else it waits for. Raise \
                 startup_timeout (--startup-timeout) only to the first-turn limit your \
                 contest's referee sets, if it sets one longer than {secs} s."
            )
        }
        (Some(1), Some(unready)) => {
            let secs = unready.as_secs_f64();
            format!(
                "your bot had not reached its first read after {secs} s, and did not answer \
                 within its first move's allowance either: its start-up (a JVM, an interpreter \
                 loading its libraries, tables computed before the first read) takes longer \
                 than the startup allowance. Raise it (startup_timeout, --startup-timeout), or \
                 make the start-up shorter; if it should be quick, does it read its input \
                 before anything else it waits for?"
            )
        }
        (Some(1), None) => {
            let open = match channel {
                Channel::Stdio => {
                    "did you flush stdout after writing your move (print(move, flush=True) in \
                     Python, fflush(stdout) in C)? On the pipe channel, did you open COCO_PIPEIN \
                     and COCO_PIPEOUT?"
                }
                Channel::Pipe => {
                    "did you open COCO_PIPEIN and COCO_PIPEOUT, and flush COCO_PIPEOUT after \
                     writing your move?"
                }
            };
            format!(
                "your bot never sent its first move: {open} Does it read exactly the lines the \
                 game sends before the first move (see {rules}), and no more?"
            )
        }
        _ => format!(
            "your bot answered before, then went silent: did you flush stdout after every \
             move, not only the first? Is it waiting for a line the game does not send (see \
             {rules}), stuck in a loop, or too slow for the allowance (--timeout)?"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_lines_visibly_and_briefly() {
        assert_eq!(quote("ROCK\r"), "'ROCK\\r'");
        let long = "A".repeat(QUOTE_CHARS + 5);
        assert!(quote(&long).ends_with("... (5 more characters)'"));
    }

    #[test]
    fn wraps_hints_with_an_indent() {
        let text = format!("  hint: {}", "word ".repeat(40));
        let wrapped = wrap(text.trim_end(), "        ");
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.len() > 1, "{wrapped}");
        assert!(lines.iter().all(|l| l.len() <= WIDTH), "{wrapped}");
        assert!(lines[1].starts_with("        word"), "{wrapped}");
        assert_eq!(wrapped.matches("word").count(), 40);
    }

    #[test]
    fn counts_the_reasons_in_order() {
        let r = reasons([Reason::Timeout, Reason::Crash, Reason::Timeout].into_iter());
        assert_eq!(r, "timed out in 2, crashed in 1");
    }

    #[test]
    fn a_first_move_late_after_a_start_up_not_over_speaks_of_the_start_up() {
        let game = crate::games::find_game("tron").unwrap();
        let failed = |unready| Failed {
            reason: Reason::Timeout,
            cause: Cause::Late,
            at_move: Some(1),
            unready,
            sdk: false,
        };
        let slow = hint(
            &failed(Some(std::time::Duration::from_secs(1))),
            game,
            Channel::Stdio,
            false,
        );
        assert!(slow.contains("had not reached its first read after 1 s"), "{slow}");
        assert!(slow.contains("startup_timeout"), "{slow}");
        let silent = hint(&failed(None), game, Channel::Stdio, false);
        assert!(silent.contains("never sent its first move"), "{silent}");
        // Under an SDK referee the allowance is also the referee's first turn: not to be raised
        // past what the contest sets.
        let sdk = hint(
            &Failed {
                sdk: true,
                ..failed(Some(std::time::Duration::from_secs(1)))
            },
            game,
            Channel::Stdio,
            false,
        );
        assert!(sdk.contains("had not reached its first read after 1 s"), "{sdk}");
        assert!(sdk.contains("only to the first-turn limit"), "{sdk}");
        assert!(!sdk.contains("  "), "{sdk}");
    }

    #[test]
    fn names_the_status_of_a_crash() {
        let game = crate::games::find_game("roshambo").unwrap();
        let failed = |cause| Failed {
            reason: Reason::Crash,
            cause,
            at_move: Some(2),
            unready: None,
            sdk: false,
        };
        let h = hint(
            &failed(Cause::Exited(Exit::Status(3))),
            game,
            Channel::Stdio,
            true,
        );
        assert_eq!(h, "the bot exited with status 3: see its stderr above.");
        let h = hint(
            &failed(Cause::Exited(Exit::Signal(9))),
            game,
            Channel::Stdio,
            false,
        );
        assert!(
            h.starts_with("the bot was killed by SIGKILL: it wrote nothing"),
            "{h}"
        );
    }
}
