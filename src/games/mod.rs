//! The games arena can referee, and the one trait the referee drives them through.
//!
//! A game is a state machine over lines: the referee tells it which line arrived from which seat,
//! and the game answers with what to send to each seat and to the spectators. It never reads,
//! writes or waits by itself, so one referee loop (with its deadlines, logging and failure
//! handling) serves every game, and a logged game can be replayed through the same code.

use std::time::Duration;

use rand_chacha::ChaCha8Rng;

pub mod batalo;
pub mod checkers;
pub mod connect4;
pub mod dama;
pub mod draughts;
pub mod fuzz;
pub mod json_protocol;
pub mod krom;
pub mod line_breaks;
pub mod line_protocol;
pub mod loa;
/// A game for the tests alone, built in only with the feature `test-game` (which `cargo test`
/// turns on): the proof that a game is its folder plus one line in [`ALL`].
#[cfg(feature = "test-game")]
#[path = "../../tests/games/nim/mod.rs"]
pub mod nim;
pub mod openings;
pub mod params;
pub mod picture;
pub mod position;
pub mod program;
pub mod roshambo;
pub mod royalur;
pub mod seat;
pub mod tictactoe;
pub mod tron;
pub mod two_player;

use crate::failure::{Fault, Framing, Reason};
pub use params::{ParamKind, ParamSpec, Params};
pub use seat::{MAX_SEATS, Places, Seat, Seats, Side};
pub use two_player::{TwoPlayer, two_player};

/// How a game that ran to its end (no fault) finished: won by a seat, or drawn. Nothing else
/// can be expressed, so the winner is never re-derived from scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won(Side),
    Drawn(Draw),
}

/// Why a game was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draw {
    /// By the game's rules (a position repeated, nothing left to win with...).
    Rules,
    /// A move limit stopped the game.
    Limit,
}

impl Outcome {
    pub fn win(side: Side) -> Self {
        Outcome::Won(side)
    }
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Won(seat) => Some(seat),
            Outcome::Drawn(_) => None,
        }
    }
    /// `Normal` for a decided game, else why it was drawn.
    pub fn reason(self) -> Reason {
        match self {
            Outcome::Won(_) => Reason::Normal,
            Outcome::Drawn(Draw::Rules) => Reason::Draw,
            Outcome::Drawn(Draw::Limit) => Reason::Limit,
        }
    }
    /// The points each seat scores: 1 and 0, or a half each.
    pub fn scores(self) -> [f64; 2] {
        match self {
            Outcome::Won(seat) => {
                let mut scores = [0.0; 2];
                scores[seat] = 1.0;
                scores
            }
            Outcome::Drawn(_) => [0.5, 0.5],
        }
    }
}

/// How a game of any number of players ended by its rules: each seat's place, and why
/// (`Normal`, or `Draw` or `Limit` when every seat still in is tied).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranking {
    pub places: Places,
    pub reason: Reason,
}

impl From<Outcome> for Ranking {
    fn from(o: Outcome) -> Ranking {
        Ranking {
            places: Places::two(o.winner()),
            reason: o.reason(),
        }
    }
}

/// What a game asks the referee to do, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// One line (without its newline) to one seat.
    To(Seat, String),
    /// One line to the spectator stream.
    Spectators(String),
    /// Wait before going on (a game's `pace`).
    Pause(Duration),
}

/// The messages a game produces in one step; the referee delivers them in order.
#[derive(Debug, Default)]
pub struct Outbox {
    pub msgs: Vec<Msg>,
    /// The time of the event being handled, in milliseconds since the Unix epoch, for protocols
    /// that send timestamps. The referee sets it from the time it logs, so a replay sees the
    /// same clock; games never read the system clock themselves.
    pub now_ms: u64,
}

impl Outbox {
    pub fn to(&mut self, seat: impl Into<Seat>, line: impl Into<String>) {
        self.msgs.push(Msg::To(seat.into(), line.into()));
    }
    pub fn spectators(&mut self, line: impl Into<String>) {
        self.msgs.push(Msg::Spectators(line.into()));
    }
    /// The same line to both sides of a two-player game and the spectators.
    pub fn everyone(&mut self, line: &str) {
        self.to(Side::First, line);
        self.to(Side::Second, line);
        self.spectators(line);
    }
    pub fn pause(&mut self, seconds: f64) {
        if seconds > 0.0 {
            self.msgs.push(Msg::Pause(Duration::from_secs_f64(seconds)));
        }
    }
    pub fn take(&mut self) -> Vec<Msg> {
        std::mem::take(&mut self.msgs)
    }
}

/// What a line from a seat did to the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The line was taken; the seat's next wait (if any) is a new turn with a fresh deadline.
    Done,
    /// The line was refused but the seat may try again within the same deadline (dama's retries).
    Retry,
    /// The line was taken, and the same move goes on: more lines are due within the same
    /// deadline (a referee program's `###Output i n` with n above 1).
    More,
}

/// One match of a game of N players, driven by the referee.
pub trait Game: Send + Sync {
    /// The opening lines (names, seats, the first board).
    fn start(&mut self, out: &mut Outbox);

    /// The seats whose next line the game is waiting for: one, several, or all at once (moves
    /// made together); none when the game is over.
    fn awaiting(&self) -> Seats;

    /// A line (newline removed) from a seat the game was waiting for.
    fn on_line(&mut self, seat: Seat, line: &str, out: &mut Outbox) -> Result<Step, Fault>;

    /// A seat failed (its line was refused, or the referee saw it time out or crash): it is out.
    /// The game tells the others (e.g. `RETIRE`) and goes on for them where its rules allow
    /// (Tron does, as on CodinGame); it never waits for the failed seat again.
    fn on_fault(&mut self, seat: Seat, fault: &Fault, out: &mut Outbox);

    /// The result once the game has ended by its rules, every seat placed: with more than two
    /// players, those that failed below those still in (`referee::judge` says how). A two-player
    /// game whose player failed has none: the judge decides it, as it always has.
    fn outcome(&self) -> Option<Ranking>;

    /// Moves (or rounds) played so far.
    fn plies(&self) -> u32;

    /// Whether the game is greeting its bots: the lines it takes now are not moves (the JSON
    /// protocol's request for a game), and failures count moves from the first line after.
    fn greeting(&self) -> bool {
        false
    }

    /// The line the built-in bot `name` would send now for `seat`. Only called while the game
    /// awaits that seat, and `name` is one of the game's `builtins`.
    fn builtin_line(&self, seat: Seat, name: &str, rng: &mut ChaCha8Rng) -> String;

    /// The game as it stands, for the report's viewer.
    fn picture(&self) -> picture::Picture;

    /// For a game whose rules run in a referee program, its side of that program's protocol:
    /// the referee loop hears the program for it. `None` for the games arena plays itself.
    fn program(&mut self) -> Option<&mut program::ProgramGame> {
        None
    }
}

/// Who plays, with which seed and time limit: what a game may need besides its parameters.
#[derive(Debug, Clone)]
pub struct Seating {
    /// One per seat, in seat order.
    pub names: Vec<String>,
    pub seed: u64,
    /// Seconds per move, for protocols that tell the bots (the JSON games' `timelimit`).
    pub timeout: f64,
    /// The position the game starts from, in the game's own format (an opening); `None` for the
    /// usual start. Only for games with [`GameInfo::positions`].
    pub opening: Option<String>,
}

impl Seating {
    /// The two players' names of a two-player game, in seat order.
    pub fn two_names(&self) -> [String; 2] {
        let name = |i: usize| self.names.get(i).cloned().unwrap_or_default();
        [name(0), name(1)]
    }
}

/// Builds a match from resolved parameters and the seating.
pub type CreateGame = fn(&Params, &Seating) -> Result<Box<dyn Game>, String>;

/// A game arena knows: its name, description, parameters and built-in bots.
pub struct GameInfo {
    pub name: &'static str,
    /// How many players a game takes: exactly 2 for every game before Tron.
    pub players: std::ops::RangeInclusive<usize>,
    pub summary: &'static str,
    /// The Markdown printed by `arena games NAME`, before the generated parameter table.
    pub description: &'static str,
    pub params: &'static [ParamSpec],
    /// Built-in bots: (name, what it does).
    pub builtins: &'static [(&'static str, &'static str)],
    /// Default seconds per move, and for a bot's first move.
    pub timeout: f64,
    pub startup_timeout: f64,
    /// How a bot's messages are delimited: lines, or JSON values for the JSON games.
    pub framing: Framing,
    /// Build a match; the parameters are already resolved against `params`. An error names the
    /// parameter whose value the game refuses.
    pub create: CreateGame,
    /// Lines that look like this game's moves, for the fuzz tests.
    pub fuzz_line: fuzz::FuzzLine,
    /// Positions as text, for `arena perft` and openings; board games only.
    pub positions: Option<position::Positions>,
    /// The folder of the game's example bots, from the repository's root: the tests play them.
    pub example_bots: &'static str,
    /// Parameters that keep a game between random bots short, for tests that step through it.
    pub short_game: &'static [(&'static str, &'static str)],
}

impl GameInfo {
    pub fn new_game(&self, params: &Params, seating: &Seating) -> Result<Box<dyn Game>, String> {
        if seating.opening.is_some() && self.positions.is_none() {
            return Err(format!("{} has no positions to start from", self.name));
        }
        (self.create)(params, seating)
    }

    /// Check `key=value` pairs against the parameter table, and that the game accepts them.
    pub fn resolve_params<'a>(
        &self,
        given: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Params, String> {
        let params = Params::resolve(self.params, given)?;
        let seating = Seating {
            names: (0..*self.players.start())
                .map(|i| format!("p{i}"))
                .collect(),
            seed: 0,
            timeout: self.timeout,
            opening: None,
        };
        self.new_game(&params, &seating)?;
        if self.name == program::INFO.name {
            program::check_seed_form(&params)?;
        }
        Ok(params)
    }

    /// How many players the game takes, in words: `2 players`, `2 to 4 players`.
    pub fn players_text(&self) -> String {
        let (low, high) = (*self.players.start(), *self.players.end());
        if low == high {
            format!("{low} players")
        } else {
            format!("{low} to {high} players")
        }
    }

    pub fn has_builtin(&self, name: &str) -> bool {
        self.builtins.iter().any(|(n, _)| *n == name)
    }

    /// `Ok` if the game has the built-in bot `name`; the error names those it has.
    pub fn check_builtin(&self, name: &str) -> Result<(), String> {
        if self.has_builtin(name) {
            return Ok(());
        }
        let known: Vec<_> = self
            .builtins
            .iter()
            .map(|(n, _)| format!("builtin:{n}"))
            .collect();
        if known.is_empty() {
            return Err(format!("{} has no built-in bots", self.name));
        }
        Err(format!(
            "{} has no built-in bot '{name}' (it has: {})",
            self.name,
            known.join(", ")
        ))
    }

    /// The full text of `arena games NAME`: the description, then parameters and built-in bots
    /// generated from the tables the code uses, so the two cannot drift apart.
    pub fn full_description(&self) -> String {
        let mut text = self.description.trim_end().to_string();
        text.push_str(
            "\n\n## Game parameters\n\nSet with `-a key=value` (duel) or `[params]` (spec).\n\n",
        );
        if self.params.is_empty() {
            text.push_str("This game takes none.\n");
        } else {
            text.push_str("| parameter | default | bounds | meaning |\n|---|---|---|---|\n");
        }
        for p in self.params {
            text.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                p.name,
                p.kind.default_text(),
                p.kind.bounds_text(),
                p.help
            ));
        }
        text.push_str(&format!(
            "\nTimeouts: {} s per move by default (`--timeout`), {} s for a bot's first move \
             (`startup_timeout`).\n",
            self.timeout, self.startup_timeout
        ));
        if self.name == program::INFO.name {
            let (turn, first) = program::SDK_TIMES;
            text.push_str(&format!(
                "Under an SDK referee (`protocol = \"sdk\"`): {turn} s and {first} s, the SDK's \
                 own (`turnMaxTime`, `firstTurnMaxTime`).\n"
            ));
        }
        if self.positions.is_some() {
            text.push_str(
                "\n## Openings\n\n`arena duel --openings FILE` takes one position per line in the \
                 format `arena perft --position` takes (see above; empty lines and lines starting \
                 with `#` are skipped), and `--random-plies N` plays N random legal moves from the \
                 start (or from each opening). Each opening is played twice, seats swapped. The \
                 players learn the position as this game's protocol gives a position (above).\n",
            );
        }
        text.push_str("\n## Built-in bots\n\n");
        if self.builtins.is_empty() {
            text.push_str("None.\n");
        }
        for (name, help) in self.builtins {
            text.push_str(&format!("- `builtin:{name}`: {help}\n"));
        }
        text
    }
}

/// Every game, in the order `arena games` lists them.
pub static ALL: &[&GameInfo] = &[
    &roshambo::INFO,
    &royalur::INFO,
    &dama::INFO,
    &checkers::INFO,
    &tictactoe::INFO,
    &loa::INFO,
    &batalo::INFO,
    &krom::INFO,
    &connect4::INFO,
    &tron::INFO,
    #[cfg(feature = "test-game")]
    &nim::INFO,
];

/// The game called `name`: one of [`ALL`], or `referee` for the games a referee program plays.
pub fn find(name: &str) -> Option<&'static GameInfo> {
    let program: &'static GameInfo = &program::INFO;
    ALL.iter()
        .copied()
        .chain(std::iter::once(program))
        .find(|g| g.name == name)
}

/// The game called `name`; the error names the games there are.
pub fn find_game(name: &str) -> Result<&'static GameInfo, String> {
    find(name).ok_or_else(|| {
        let program = program::INFO.name;
        let known: Vec<_> = ALL.iter().map(|g| g.name).chain([program]).collect();
        format!("unknown game '{name}' (known: {})", known.join(", "))
    })
}

/// A time for a move, within the bounds every Code Colosseum game checks: 0.1 to 600 seconds.
pub fn move_time(secs: f64) -> Result<std::time::Duration, String> {
    if secs.is_finite() && (0.1..=600.0).contains(&secs) {
        Ok(std::time::Duration::from_secs_f64(secs))
    } else {
        Err(format!("must be from 0.1 to 600 seconds, got {secs}"))
    }
}

/// Seconds an SDK referee gives a move, as arena is told them: the SDK keeps that deadline
/// itself (50 ms by default), arena only times the answers against it.
pub fn sdk_move_time(secs: f64) -> Result<std::time::Duration, String> {
    if secs.is_finite() && (0.001..=600.0).contains(&secs) {
        Ok(std::time::Duration::from_secs_f64(secs))
    } else {
        Err(format!("must be from 0.001 to 600 seconds, got {secs}"))
    }
}

/// The suite every registered game runs through the `Game` trait, as the referee drives it:
/// built-in bots play to the end within the game's limits, a finished game waits for no one,
/// and lines that are not moves are refused without a panic.
#[cfg(test)]
mod suite {
    use super::*;
    use crate::failure::FaultKind;
    use rand::SeedableRng;

    fn names(players: usize) -> Vec<String> {
        (0..players).map(|i| format!("player{i}")).collect()
    }

    fn new_game(info: &GameInfo, seed: u64, players: usize) -> Box<dyn Game> {
        let params = Params::resolve(info.params, []).expect("defaults are valid");
        let seating = Seating {
            names: names(players),
            seed,
            timeout: 1.0,
            opening: None,
        };
        info.new_game(&params, &seating)
            .expect("a game with defaults")
    }

    #[test]
    fn built_in_bots_play_every_game_to_an_end() {
        for info in ALL {
            // Many random playouts, and one game for each stronger bot: searching bots are slow
            // in debug builds, and their strength is each game's own test.
            // Every number of players the game takes.
            let runs = info.builtins.iter().flat_map(|(bot, _)| {
                let seeds = if *bot == "random" { 0..20 } else { 0..1 };
                seeds.flat_map(move |seed| info.players.clone().map(move |n| (*bot, seed, n)))
            });
            for (bot, seed, players) in runs {
                let mut game = new_game(info, seed, players);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut out = Outbox::default();
                game.start(&mut out);
                let mut steps = 0;
                while !game.awaiting().is_empty() {
                    for seat in Seat::all(players) {
                        if !game.awaiting().contains(seat) {
                            continue;
                        }
                        let line = game.builtin_line(seat, bot, &mut rng);
                        let step = game.on_line(seat, &line, &mut out);
                        assert_eq!(step, Ok(Step::Done), "{}: {bot} sent {line:?}", info.name);
                        assert_eq!(game.picture().check(), Ok(()), "{}", info.name);
                    }
                    steps += 1;
                    assert!(steps < 20_000, "{} does not end", info.name);
                }
                let ranking = game.outcome().expect("a finished game has an outcome");
                assert_eq!(ranking.places.len(), players, "{}", info.name);
                assert!(game.plies() > 0);
            }
        }
    }

    /// Every game with positions writes them as it reads them, and starts a match from one.
    #[test]
    fn openings_read_back_and_start_matches() {
        for info in ALL {
            let Some(positions) = info.positions else {
                continue;
            };
            for seed in 0..20 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let text = (positions.random)(None, seed as u32 % 7, &mut rng).unwrap();
                assert_eq!(
                    (positions.opening)(&text).as_ref(),
                    Ok(&text),
                    "{}",
                    info.name
                );
                let params = Params::resolve(info.params, []).unwrap();
                let seating = Seating {
                    names: names(*info.players.start()),
                    seed,
                    timeout: 1.0,
                    opening: Some(text.clone()),
                };
                let mut game = info.new_game(&params, &seating).expect("a game");
                game.start(&mut Outbox::default());
                assert!(!game.awaiting().is_empty(), "{}: {text}", info.name);
                // The game starts there, not at the usual start.
                let usual = (positions.random)(None, 0, &mut rng).unwrap();
                let from_start = Seating {
                    opening: None,
                    ..seating
                };
                let mut start = info.new_game(&params, &from_start).expect("a game");
                start.start(&mut Outbox::default());
                assert_eq!(
                    game.picture() == start.picture(),
                    text == usual,
                    "{}: {text}",
                    info.name
                );
            }
        }
    }

    #[test]
    fn lines_that_are_not_moves_are_refused() {
        let junk = [
            "",
            "   ",
            "\u{0}\u{1}",
            "ROCKS",
            "-1",
            "99999999999999999999",
            "{",
            "[]",
            "null",
            "6Z 9Q",
            "{\"token\": 1, \"move\": {}}",
            "ÿÿÿ",
        ];
        for info in ALL {
            for (i, line) in junk.iter().enumerate() {
                let mut game = new_game(info, i as u64, *info.players.end());
                let mut out = Outbox::default();
                game.start(&mut out);
                let seat = game.awaiting().iter().next().expect("someone moves first");
                match game.on_line(seat, line, &mut out) {
                    Err(f) => assert!(matches!(f.kind, FaultKind::Protocol | FaultKind::Illegal)),
                    // dama lets a player retry an invalid line within its turn.
                    Ok(step) => assert_eq!(step, Step::Retry, "{}: {line:?} accepted", info.name),
                }
            }
        }
    }
}
