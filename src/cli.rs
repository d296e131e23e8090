//! The command line, parsed once here at the edge into the library's own types: no library
//! module sees a clap struct (contract: docs/design.md, section Contracts).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use arena::bot::Channel;
use arena::commands;
use arena::error::{Error, Result};
use arena::games::openings::Order;
use arena::referee::{MatchOptions, RefereeArgs};
use arena::stats::Sprt;

#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    about = "Run matches and tournaments between game-playing programs, locally.",
    after_help = "A BOT is a command line (\"python3 bots/royalur/random.py\"), a path to an \
executable, builtin:NAME for one of arena's own bots, or - to play yourself on this terminal."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games, or print one game's rules, protocol and parameters.
    Games {
        /// The game to describe.
        game: Option<String>,
    },
    /// Play a match between two bots, with the statistics of two (Elo, LOS, pairs, SPRT).
    Duel(DuelArgs),
    /// Play a match between two or more bots (as many as the game takes), seats rotated.
    Match(MatchCmdArgs),
    /// Try a bot against the game's built-in bots and explain what went wrong, before you submit.
    Check(CheckArgs),
    /// Run a tournament from a spec: round-robin, gauntlet or swiss, in parallel.
    Run {
        /// The tournament spec (TOML).
        spec: PathBuf,
        /// Games played at once (default: the spec's `jobs`, else the number of cores).
        #[arg(long, short = 'j', value_parser = jobs)]
        jobs: Option<usize>,
        /// Results folder (default: results/<spec name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue a run that stopped; only the missing games are played. (Running the same
        /// spec again does the same; --resume also insists that there is a run to continue.)
        #[arg(long)]
        resume: bool,
        /// Play only slice K of N of a round-robin or gauntlet (games whose id is K modulo N).
        #[arg(long, value_name = "K/N")]
        shard: Option<arena::tournament::Shard>,
    },
    /// Rebuild the standings from games.csv records (merging shards and ladders).
    Ratings {
        /// games.csv files written by `arena run` (or `arena duel`), or the results folders
        /// that hold them.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Also write standings.csv and crosstable.csv into this folder; shards of one run
        /// make it that run's results folder (games.csv, grades.csv, report.html).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Shards of a run with some not given: write only standings.csv and crosstable.csv
        /// into --out (without it, merging an incomplete set of shards is refused).
        #[arg(long)]
        partial: bool,
    },
    /// Write a results folder's report.html again, from its games.csv and game logs.
    Report {
        /// A results folder written by `arena run` (or `arena duel --out`, which has no games.csv).
        dir: PathBuf,
        /// The page's title (default: the folder's name).
        #[arg(long)]
        title: Option<String>,
    },
    /// Count the positions DEPTH moves from a position (for game authors and rules tests).
    Perft {
        game: String,
        depth: u32,
        /// The position, in the game's own format (`arena games GAME` gives it, e.g. a PDN FEN
        /// `W:W21,22:B5,K9` for the draughts games). Default: the start.
        #[arg(long)]
        position: Option<String>,
        /// Also print the count under each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Re-check a game log against the referee and print its spectator stream.
    Replay {
        /// A game log (.jsonl) written by arena.
        log: PathBuf,
        /// Pipe the spectator stream into this program instead of printing it.
        #[arg(long, value_name = "CMD")]
        spectate: Option<String>,
        /// For a game played by a referee program: the referee to check it with, as `duel
        /// --referee` takes it. A log is data: replay never runs the program it names.
        #[arg(long, value_name = "CMD")]
        referee: Option<String>,
    },
    /// What an SDK referee runs for a seat: relays its pipes to the arena that started it.
    #[command(name = "sdk-relay", hide = true)]
    SdkRelay {
        /// The socket of the seat, in the game's relay folder.
        socket: PathBuf,
    },
    /// What `arena replay` gives an SDK referee for a seat: the seat's answers from its log.
    #[command(name = "sdk-recorded", hide = true)]
    SdkRecorded {
        /// The seat's script, written by arena from the log.
        script: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// The bot in seat 0 of the first game.
    pub bot0: String,
    /// The bot in seat 1 of the first game.
    pub bot1: String,
    #[command(flatten)]
    pub matched: MatchArgs,
    /// Number of games; the bots swap seats after each game. Default: 1, or with `--sprt` the
    /// most a duel plays (the test usually stops long before).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=arena::spec::bounds::MATCH_GAMES as i64))]
    pub games: Option<u32>,
    /// Stop as soon as a sequential probability ratio test decides whether the first bot is
    /// better: `elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=logistic|normalized]`. `--games`
    /// is then the most that are played.
    #[arg(long, value_name = "TEST")]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Debug, Args)]
pub struct MatchCmdArgs {
    /// The bots, in their seats of the first game (2 to 8, as many as the game takes); the seats
    /// rotate after each game.
    #[arg(required = true, num_args = 2.., value_name = "BOT")]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub matched: MatchArgs,
    /// Number of games (default: one per bot, so that each bot sits in each seat once).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=arena::spec::bounds::MATCH_GAMES as i64))]
    pub games: Option<u32>,
    #[command(flatten)]
    pub series: SeriesArgs,
}

/// What `duel` and `match` both take: how the games are played and recorded.
#[derive(Debug, Args)]
pub struct SeriesArgs {
    /// Games played at once. Default: the number of cores divided by two, at least 1; 1 with a
    /// person's seat (`-`) or `--spectate`.
    #[arg(long, short = 'j', value_parser = jobs)]
    pub jobs: Option<usize>,
    /// How the bots talk to arena: one channel for all, or one per bot (`pipe,stdio`).
    #[arg(
        long,
        short = 'c',
        value_enum,
        value_delimiter = ',',
        default_value = "stdio"
    )]
    pub channel: Vec<ChannelArg>,
    /// Seed for the games' randomness and the built-in bots (default: random, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Folder for the game logs and the bots' stderr (default: results/duel-<game>-<time>, or
    /// match-...).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Pipe the live spectator stream of each game into this program.
    #[arg(long, value_name = "CMD")]
    pub spectate: Option<String>,
    /// Print one JSON object per finished game on stdout; everything else goes to stderr.
    #[arg(long)]
    pub json: bool,
    /// Run each bot in a sandbox (bubblewrap): it sees the system's folders and its own files,
    /// read-only, and a small /tmp; no network, no other process, no terminal.
    #[arg(long)]
    pub sandbox: bool,
    /// Run as root, the user sandboxed bots run as (a name or a uid; never root).
    #[arg(long, value_name = "USER", default_value = arena::bot::Sandbox::DEFAULT_USER)]
    pub sandbox_user: String,
    /// Let the bots that are not to move keep running (pondering). By default, in turn-based
    /// games, their processes are stopped until they are sent their next input.
    #[arg(long)]
    pub ponder: bool,
    /// The bots' names, as sent to them by the games that send names (default: from the
    /// commands).
    #[arg(long, value_name = "NAME0,NAME1,...")]
    pub names: Option<String>,
    /// Start the games from the positions in FILE, one per line in the format `arena perft
    /// --position` takes (`arena games GAME` says which); each is played twice, seats swapped.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The order the openings are played in.
    #[arg(long, value_enum, default_value = "sequential", requires = "openings")]
    pub openings_order: OrderArg,
    /// Start each pair of games N random legal moves from the start (or from its opening), drawn
    /// from the match's seed; both games of a pair start from the same position, seats swapped.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=arena::spec::bounds::RANDOM_PLIES as i64))]
    pub random_plies: u32,
}

/// `--openings-order`, as the library's [`Order`].
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OrderArg {
    /// As the file lists them, from the first again after the last.
    Sequential,
    /// Shuffled by the match's seed.
    Random,
}

impl From<OrderArg> for Order {
    fn from(o: OrderArg) -> Order {
        match o {
            OrderArg::Sequential => Order::Sequential,
            OrderArg::Random => Order::Random,
        }
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The bot to check.
    pub bot: String,
    #[command(flatten)]
    pub matched: MatchArgs,
    /// Number of games; the bot meets each built-in bot in turn, in every seat of every number
    /// of players the game takes (default: those games once, at least 4).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=arena::spec::bounds::MATCH_GAMES as i64))]
    pub games: Option<u32>,
    /// Only games of this many players (for a game of 2 to 4 players, such as tron).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// How the bot talks to arena.
    #[arg(long, short = 'c', value_enum, default_value = "stdio")]
    pub channel: ChannelArg,
    /// Seed for the games' randomness and the built-in bots (default: random, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Keep the game logs and the bot's stderr in this folder (default: a temporary folder,
    /// removed afterwards).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play against this bot instead of the game's built-in bots (or, for a referee's game,
    /// instead of itself): a contest's starter bot, say.
    #[arg(long, value_name = "BOT")]
    pub against: Option<String>,
}

/// What a match is played with, as `duel` and `check` both take it.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The game to play (see `arena games`).
    #[arg(long, short = 'g', required_unless_present = "referee")]
    pub game: Option<String>,
    /// A referee program that plays the game over cg-brutaltester's protocol (`arena games
    /// referee`), such as "java -jar referee.jar"; then no --game.
    #[arg(long, value_name = "CMD")]
    pub referee: Option<String>,
    /// Seconds the referee program has for each answer (default: 10).
    #[arg(long, value_name = "SECS")]
    pub referee_timeout: Option<f64>,
    /// Seconds the referee program has for its first answer, to start up (default: 30).
    #[arg(long, value_name = "SECS")]
    pub referee_startup_timeout: Option<f64>,
    /// The most turns (moves asked of a player) a referee program's game may have; asking for
    /// one more is the referee's failure (default: 10000).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub referee_max_turns: Option<i64>,
    /// The referee's protocol: `old` (cg-brutaltester's `###Start`, the default) or `sdk` (a
    /// CodinGame game-engine SDK referee's command line, which starts its players itself).
    #[arg(long, value_name = "PROTOCOL", value_parser = ["old", "sdk"])]
    pub referee_protocol: Option<String>,
    /// A game parameter, as key=value (repeatable).
    #[arg(short = 'a', long = "arg", value_name = "KEY=VAL")]
    pub args: Vec<String>,
    /// Seconds allowed per move (default: the game's).
    #[arg(long, short = 't')]
    pub timeout: Option<f64>,
    /// Seconds allowed for a bot's first move, to start up (default: the game's).
    #[arg(long)]
    pub startup_timeout: Option<f64>,
}

/// `--channel`, as the library's [`Channel`].
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ChannelArg {
    /// The bot reads its stdin and writes its stdout; stderr is free.
    Stdio,
    /// Two FIFOs named by `COCO_PIPEIN` (arena to bot) and `COCO_PIPEOUT` (bot to arena).
    Pipe,
}

impl From<ChannelArg> for Channel {
    fn from(c: ChannelArg) -> Channel {
        match c {
            ChannelArg::Stdio => Channel::Stdio,
            ChannelArg::Pipe => Channel::Pipe,
        }
    }
}

impl MatchArgs {
    fn resolve(&self) -> Result<MatchOptions> {
        let referee = RefereeArgs {
            command: self.referee.clone(),
            timeout: self.referee_timeout,
            startup_timeout: self.referee_startup_timeout,
            max_turns: self.referee_max_turns,
            protocol: self.referee_protocol.clone(),
        };
        MatchOptions::resolve(
            self.game.as_deref(),
            &self.args,
            self.timeout,
            self.startup_timeout,
            &referee,
        )
        .map_err(Error::Usage)
    }
}

impl DuelArgs {
    pub fn options(self) -> Result<commands::series::Options> {
        let sprt = match &self.sprt {
            Some(text) => Some(
                text.parse::<Sprt>()
                    .map_err(|e| Error::Usage(format!("--sprt {text}: {e}")))?,
            ),
            None => None,
        };
        let games = self.games.unwrap_or(match sprt {
            Some(_) => arena::spec::bounds::MATCH_GAMES,
            None => 1,
        });
        let bots = vec![self.bot0, self.bot1];
        self.series.options(
            commands::series::Kind::Duel,
            bots,
            self.matched.resolve()?,
            games,
            sprt,
        )
    }
}

impl MatchCmdArgs {
    pub fn options(self) -> Result<commands::series::Options> {
        let games = self.games.unwrap_or(self.bots.len() as u32);
        self.series.options(
            commands::series::Kind::Match,
            self.bots,
            self.matched.resolve()?,
            games,
            None,
        )
    }
}

impl SeriesArgs {
    fn options(
        self,
        kind: commands::series::Kind,
        bots: Vec<String>,
        matched: MatchOptions,
        games: u32,
        sprt: Option<Sprt>,
    ) -> Result<commands::series::Options> {
        let channels = match self.channel.len() {
            1 => vec![self.channel[0].into(); bots.len()],
            n if n == bots.len() => self.channel.iter().map(|&c| c.into()).collect(),
            _ => {
                return Err(Error::Usage(format!(
                    "--channel takes one channel, or one per bot ({}) separated by commas",
                    bots.len()
                )));
            }
        };
        Ok(commands::series::Options {
            kind,
            matched,
            bots,
            games,
            sprt,
            jobs: self.jobs,
            channels,
            seed: self.seed,
            out: self.out,
            spectate: self.spectate,
            json: self.json,
            sandbox: self.sandbox.then_some(self.sandbox_user),
            ponder: self.ponder,
            names: self.names,
            openings: self.openings,
            openings_order: self.openings_order.into(),
            random_plies: self.random_plies,
        })
    }
}

impl CheckArgs {
    pub fn options(self) -> Result<commands::check::Options> {
        Ok(commands::check::Options {
            matched: self.matched.resolve()?,
            bot: self.bot,
            games: self.games,
            players: self.players,
            channel: self.channel.into(),
            seed: self.seed,
            out: self.out,
            against: self.against,
        })
    }
}

/// `--jobs`: from 1 to the bound every run keeps (see `spec::bounds`).
fn jobs(text: &str) -> std::result::Result<usize, String> {
    let max = arena::spec::bounds::JOBS;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of games at once from 1 to {max}"
        )),
    }
}
