//! The tournament spec (contract: docs/design.md, section Contracts): a TOML file, checked
//! completely before any game starts. Every error names the file, line and column of what is wrong.

use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::Spanned;

use crate::bot::{BotSpec, Channel, Limits, Sandbox};
use crate::error::{Error, Result};
use crate::games::openings::{self, Book, Order};
use crate::games::{self, GameInfo, Params};
use crate::format::{self, Format};

mod bots;
mod counts;
mod raw;
mod words;

use bots::{ForBots, check_bots, check_name, entrant_of, sandbox_of};
use counts::{check_counts, check_schedule, games_per_bot_of, players_of};
use raw::{Raw, RawReferee, Source};

/// The largest run arena accepts. Each bound is far beyond a real tournament on one machine and far
/// below what exhausts its memory: a spec that asks for more is a typo or an attack, and is
/// refused before anything is planned.
pub mod bounds {
    /// Games at once (`jobs`, `--jobs`): each running game has two bots and their pipes.
    pub const JOBS: usize = 1024;
    /// `games_per_pairing`.
    pub const GAMES_PER_PAIRING: u32 = 10_000;
    /// Swiss `rounds`.
    pub const ROUNDS: u32 = 1_000;
    /// Games in one cycle of a schedule: the plan is held in memory, and at 10 ms a game it is
    /// already three hours of play.
    pub const SCHEDULE: u64 = 1_000_000;
    /// Bots in a Swiss: each round's matching weighs every pair of bots.
    pub use crate::format::swiss::MOST_BOTS as SWISS_BOTS;
    /// `--games` of a duel or a check.
    pub const MATCH_GAMES: u32 = 100_000;
    /// `min_free_mb`: a pebibyte, more than any disk; 0 turns the check off.
    pub const MIN_FREE_MB: u64 = 1 << 30;
    /// `random_plies`, as a duel's `--random-plies`.
    pub const RANDOM_PLIES: u32 = 1_000;
}

/// Free space the results folder's disk must have for a game to start, in MiB, unless the spec
/// says otherwise: room for many games' logs, and for the tables and the report at the end.
pub const DEFAULT_MIN_FREE_MB: u64 = 64;

/// The spec's seed when it gives none.
const DEFAULT_SEED: u64 = 1;

/// One bot of a tournament.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub name: String,
    pub bot: BotSpec,
    /// Gauntlet: plays every bot that is not a seed.
    pub seed: bool,
}

/// Where a tournament's games start: what the spec asked for, and the book made of it.
#[derive(Debug, Clone)]
pub struct Openings {
    pub book: Book,
    /// The file's positions as it lists them (the book may play them shuffled); empty without
    /// a file.
    pub listed: Vec<String>,
    pub order: Order,
    pub random_plies: u32,
}

/// A checked tournament spec.
#[derive(Clone)]
pub struct Spec {
    pub path: PathBuf,
    pub name: String,
    pub game: &'static GameInfo,
    pub format: &'static dyn Format,
    /// Round-robin and gauntlet: 1 or more; swiss: 1 or an even number (a mini-match per pairing).
    pub games_per_pairing: u32,
    /// Swiss rounds.
    pub rounds: u32,
    /// How many play each game: the game's number, or `players` for a game that takes several
    /// (`[referee] players` for a referee program's).
    pub players: usize,
    /// Pods: the games each bot plays.
    pub games_per_bot: u32,
    pub timeout: Duration,
    pub startup_timeout: Duration,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub ladder: bool,
    /// Let the bot that is not to move run (turn-based games freeze it otherwise).
    pub ponder: bool,
    /// No game starts while the results folder's disk has less free space than this, in MiB.
    pub min_free_mb: u64,
    pub params: Params,
    /// The tournament's `channel`, `[limits]` and sandbox, which each bot has unless its own
    /// table says otherwise (the sandbox it always has).
    pub channel: Channel,
    pub limits: Limits,
    pub sandbox: Option<Sandbox>,
    pub bots: Vec<Entrant>,
    /// `None`: every game from the usual start.
    pub openings: Option<Openings>,
    /// `[referee]`: the program that plays a game of `referee`.
    pub referee: Option<crate::referee::program::RefereeProgram>,
    /// What the run must say before its first game (a gauntlet's student whose script is
    /// missing), each with its file, line and column.
    pub warnings: Vec<String>,
}

/// The spec's `[referee]`, checked: its program exists and its times are in bounds.
fn referee_of(
    src: &Source,
    raw: &Spanned<RawReferee>,
    base: &Path,
) -> Result<crate::referee::program::RefereeProgram> {
    use crate::referee::program::RefereeProgram;
    let r = raw.get_ref();
    for (key, value) in [
        ("timeout", &r.timeout),
        ("startup_timeout", &r.startup_timeout),
    ] {
        seconds(src, value, 1.0, &format!("referee {key}"))?;
    }
    let mut program = RefereeProgram::new(
        r.command.get_ref(),
        base,
        r.timeout.as_ref().map(|t| *t.get_ref()),
        r.startup_timeout.as_ref().map(|t| *t.get_ref()),
        r.max_turns.as_ref().map(|n| *n.get_ref()),
        ["timeout", "startup_timeout", "max_turns"],
    )
    .map_err(|e| {
        let at = match &r.max_turns {
            Some(n) if e.starts_with("max_turns ") => n.span(),
            _ => r.command.span(),
        };
        src.at(Some(at), format!("referee: {e}"))
    })?;
    program.bot.limits = r.limits;
    Ok(program)
}

fn seconds(
    src: &Source,
    value: &Option<Spanned<f64>>,
    default: f64,
    key: &str,
) -> Result<Duration> {
    seconds_within(src, value, default, key, games::move_time)
}

/// The same, with the bounds `check` sets (an SDK referee's moves may be given less).
fn seconds_within(
    src: &Source,
    value: &Option<Spanned<f64>>,
    default: f64,
    key: &str,
    check: fn(f64) -> std::result::Result<Duration, String>,
) -> Result<Duration> {
    let Some(v) = value else {
        return Ok(Duration::from_secs_f64(default));
    };
    check(*v.get_ref()).map_err(|e| src.at(Some(v.span()), format!("{key} {e}")))
}

/// A parameter value from TOML as the `key=value` text games validate.
fn param_text(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

impl Spec {
    pub fn load(path: &Path) -> Result<Spec> {
        // The spec is what was asked for: one that cannot be read is the command line's error.
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::Spec(match e.kind() {
                std::io::ErrorKind::NotFound => format!("{}: no such file", path.display()),
                _ => format!("{}: cannot be read: {e}", path.display()),
            })
        })?;
        Spec::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Spec> {
        let src = Source { path, text };
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let key = e.span().and_then(|s| words::key_at(text, s.start));
            src.at(
                e.span(),
                words::reworded(key.as_deref(), e.message().trim()),
            )
        })?;
        let base = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();

        check_name(raw.name.get_ref())
            .map_err(|e| src.at(Some(raw.name.span()), format!("name {e}")))?;
        let referee = match &raw.referee {
            Some(r) => Some(referee_of(&src, r, &base)?),
            None => None,
        };
        let game = game_of(&src, &raw)?;
        let format = raw
            .format
            .as_ref()
            .map_or(format::default(), |f| *f.get_ref());
        let players = players_of(&src, &raw, game)?;

        let params = params_of(&src, &raw, game)?;
        let (move_time, first_time) = crate::referee::sdk::default_times(game, &params);
        let check = match crate::referee::sdk::is_sdk_game(game, &params) {
            true => games::sdk_move_time,
            false => games::move_time,
        };
        let timeout = seconds_within(&src, &raw.timeout, move_time, "timeout", check)?;
        let startup_timeout =
            seconds_within(&src, &raw.startup_timeout, first_time, "startup_timeout", check)?;
        check_counts(&src, &raw, format, players)?;
        let openings = openings_of(&src, &raw, game)?;

        let sandbox = sandbox_of(&src, &raw)?;
        let channel = raw.channel.unwrap_or_default();
        let mut bots: Vec<Entrant> = Vec::new();
        let mut warnings = Vec::new();
        for b in &raw.bots {
            let for_bots = ForBots { base: &base, game, format, channel, sandbox: &sandbox };
            bots.push(entrant_of(&src, &raw, b, &for_bots, &mut warnings)?);
        }
        check_bots(&src, &raw, &bots, format, players)?;
        let default_games = format.default_games_per_pairing(players);
        let games_per_pairing = raw
            .games_per_pairing
            .as_ref()
            .map_or(default_games, |g| *g.get_ref());
        let games_per_bot = games_per_bot_of(&src, &raw, format)?;
        check_schedule(&src, &raw, format, &bots, players, (games_per_pairing, games_per_bot))?;
        let n = bots.len() as f64;
        Ok(Spec {
            path: path.to_path_buf(),
            name: raw.name.into_inner(),
            game,
            format,
            games_per_pairing,
            players,
            games_per_bot,
            rounds: raw
                .rounds
                .map_or(n.log2().ceil() as u32 + 2, |r| r.into_inner()),
            timeout,
            startup_timeout,
            seed: raw.seed.unwrap_or(DEFAULT_SEED),
            jobs: raw.jobs.map(|j| j.into_inner()),
            ladder: raw.ladder,
            ponder: raw.ponder,
            min_free_mb: raw
                .min_free_mb
                .map_or(DEFAULT_MIN_FREE_MB, |m| m.into_inner()),
            params,
            channel,
            limits: raw.limits,
            sandbox,
            bots,
            openings,
            referee,
            warnings,
        })
    }
}

/// The game: named, or the referee program's, never both unless they agree.
fn game_of(src: &Source, raw: &Raw) -> Result<&'static GameInfo> {
    let program = &crate::games::program::INFO;
    Ok(match (&raw.game, &raw.referee) {
        (Some(g), Some(_)) if g.get_ref() != program.name => {
            return Err(src.at(
                Some(g.span()),
                format!(
                    "game = \"{}\": a spec with [referee] plays the game its program \
                     referees; leave out game",
                    g.get_ref()
                ),
            ));
        }
        (Some(g), None) if g.get_ref() == program.name => {
            return Err(src.at(
                Some(g.span()),
                "game = \"referee\" is played by a referee program: add a [referee] with \
                 its command",
            ));
        }
        (Some(g), _) => games::find_game(g.get_ref()).map_err(|e| src.at(Some(g.span()), e))?,
        (None, Some(_)) => program,
        (None, None) => {
            return Err(src.at(
                Some(0..0),
                "missing field `game` (or a [referee] with the command of a referee program)",
            ));
        }
    })
}

/// The game's parameters, each checked where it is said: `[params]`, and `[referee]`'s
/// `protocol` and `seed_form`.
fn params_of(src: &Source, raw: &Raw, game: &'static GameInfo) -> Result<Params> {
    // Parameters one by one, so that an error points at the parameter at fault.
    let mut pairs = Vec::new();
    for (key, value) in &raw.params {
        let text = param_text(value.get_ref()).ok_or_else(|| {
            src.at(
                Some(value.span()),
                format!(
                    "parameter '{}': expected a number or a string",
                    key.get_ref()
                ),
            )
        })?;
        Params::resolve(game.params, [(key.get_ref().as_str(), text.as_str())])
            .map_err(|e| src.at(Some(key.span()), format!("{}: {e}", game.name)))?;
        pairs.push((key.get_ref().clone(), text));
    }
    // `[referee] protocol` and `seed_form` are its parameters, said where the referee is.
    if let Some(r) = &raw.referee {
        let r = r.get_ref();
        for (key, value) in [("protocol", &r.protocol), ("seed_form", &r.seed_form)] {
            let Some(value) = value else { continue };
            if raw.params.keys().any(|k| k.get_ref() == key) {
                return Err(src.at(
                    Some(value.span()),
                    format!("{key} is said in [referee]: leave it out of [params]"),
                ));
            }
            Params::resolve(game.params, [(key, value.get_ref().as_str())])
                .map_err(|e| src.at(Some(value.span()), format!("referee {e}")))?;
            pairs.push((key.to_string(), value.get_ref().clone()));
        }
    }
    game
        .resolve_params(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| {
            src.at(
                raw.params.keys().next().map(|k| k.span()),
                format!("{}: {e}", game.name),
            )
        })
}

/// The openings the spec asks for, their file read and every position in it checked.
fn openings_of(src: &Source, raw: &Raw, game: &'static GameInfo) -> Result<Option<Openings>> {
    let random_plies = match &raw.random_plies {
        Some(r) if *r.get_ref() > bounds::RANDOM_PLIES => {
            return Err(src.at(
                Some(r.span()),
                format!("random_plies must be from 0 to {}", bounds::RANDOM_PLIES),
            ));
        }
        Some(r) => *r.get_ref(),
        None => 0,
    };
    let order = match raw.openings_order.as_ref() {
        Some(o) if raw.openings.is_none() => {
            return Err(src.at(Some(o.span()), "openings_order needs openings = \"FILE\""));
        }
        Some(o) => *o.get_ref(),
        None => Order::Sequential,
    };
    let listed = match &raw.openings {
        Some(file) => {
            // Joined to the spec's folder as given: `book.txt` next to `t.toml` stays
            // `book.txt` in messages.
            let path = src
                .path
                .parent()
                .unwrap_or(Path::new(""))
                .join(file.get_ref());
            let listed = openings::read(game, &path)
                .map_err(|e| src.at(Some(file.span()), format!("openings: {e}")))?;
            Some(listed)
        }
        None => None,
    };
    // A file was refused above by a game without positions: only random plies are left to be.
    let seed = raw.seed.unwrap_or(DEFAULT_SEED);
    let book = Book::new(game, listed.clone(), order, random_plies, seed).map_err(|e| {
        let at = raw.random_plies.as_ref().map(|r| r.span());
        src.at(at, format!("random_plies: {e}"))
    })?;
    Ok(book.map(|book| Openings {
        book,
        listed: listed.unwrap_or_default(),
        order,
        random_plies,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::BotCommand;

    const GOOD: &str = r#"name = "class"
game = "royalur"
format = "round-robin"
timeout = 2
[params]
max_moves = 300
[[bot]]
name = "alice"
command = "builtin:random"
[[bot]]
name = "bob"
command = "builtin:greedy"
"#;

    fn error(text: &str) -> String {
        match Spec::parse(Path::new("t.toml"), text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_good_spec_with_defaults() {
        let s = Spec::parse(Path::new("t.toml"), GOOD).unwrap();
        assert_eq!(s.game.name, "royalur");
        assert_eq!(s.games_per_pairing, 2);
        assert_eq!(s.timeout, Duration::from_secs(2));
        assert_eq!(s.params.int("max_moves"), 300);
        assert_eq!(s.bots.len(), 2);
        assert_eq!(s.bots[1].bot.command, BotCommand::Builtin("greedy".into()));
    }

    #[test]
    fn each_kind_of_error_names_its_line_and_column() {
        let cases = [
            (
                GOOD.replace("timeout = 2", "timeout = 2\ncolour = 1"),
                "t.toml:5:1: unknown key 'colour' (the keys here: name, game,",
            ),
            (
                GOOD.replace("timeout = 2", "timeout = \"2\""),
                "t.toml:4:11:",
            ),
            (
                GOOD.replace("name = \"bob\"", "name = \"alice\""),
                "t.toml:11:8: duplicate bot name 'alice' (first used on line 8)",
            ),
            (
                GOOD.replace("builtin:greedy", "./nothing-here.py"),
                "t.toml:12:11: bot 'bob': './nothing-here.py' does not exist",
            ),
            (
                GOOD.replace("builtin:greedy", "builtin:best"),
                "t.toml:12:11: bot 'bob': royalur has no built-in bot 'best'",
            ),
            (
                GOOD.replace("game = \"royalur\"", "game = \"chess\""),
                "t.toml:2:8: unknown game 'chess'",
            ),
            (
                GOOD.replace("max_moves = 300", "max_moves = 0"),
                "t.toml:6:1: royalur: parameter 'max_moves': expected a whole number from 1 to 100000",
            ),
            (
                GOOD.replace("max_moves = 300", "speed = 3"),
                "t.toml:6:1: royalur: unknown parameter 'speed'",
            ),
            (
                GOOD.replace("timeout = 2", "timeout = 0"),
                "t.toml:4:11: timeout must be from 0.1 to 600 seconds",
            ),
            (
                GOOD.replace("round-robin", "knockout"),
                "t.toml:3:10: format must be one of round-robin, gauntlet",
            ),
            (
                GOOD.replace("timeout = 2", "rounds = 3"),
                "t.toml:4:10: rounds is for the swiss format only",
            ),
            (
                GOOD.replace("round-robin", "gauntlet"),
                "a gauntlet needs at least one bot with seed = true",
            ),
            (
                GOOD.replace("name = \"class\"", "name = \"../up\""),
                "t.toml:1:8: name '../up' cannot be used",
            ),
            (
                // The names are lines of royalur's stream: a reader would see two.
                GOOD.replace("name = \"bob\"", "name = \"bo\\u2028b\""),
                "t.toml:11:8: bot name 'bo\\u{2028}b' cannot be used: names may not contain",
            ),
            (
                GOOD.replace("timeout = 2", "random_plies = 2"),
                "t.toml:4:16: random_plies: royalur has no positions to start from (games with openings: ",
            ),
            (
                GOOD.replace("timeout = 2", "openings = \"book.txt\""),
                "t.toml:4:12: openings: royalur has no positions to start from (games with openings: ",
            ),
            (
                GOOD.replace("timeout = 2", "random_plies = 1001"),
                "t.toml:4:16: random_plies must be from 0 to 1000",
            ),
            (
                GOOD.replace("timeout = 2", "openings_order = \"random\""),
                "t.toml:4:18: openings_order needs openings = \"FILE\"",
            ),
            (
                GOOD.replace("timeout = 2", "openings_order = \"shuffled\""),
                "t.toml:4:18: openings_order must be one of sequential or random, not 'shuffled'",
            ),
        ];
        for (text, expected) in cases {
            let e = error(&text);
            assert!(
                e.starts_with(expected) || e.contains(expected),
                "got {e:?}, expected {expected:?}"
            );
        }
    }

    /// A spec of `n` built-in bots in `format`, with `extra` lines at the top.
    fn many_bots(format: &str, n: usize, extra: &str) -> String {
        let mut text =
            format!("name = \"big\"\ngame = \"roshambo\"\nformat = \"{format}\"\n{extra}\n");
        for i in 0..n {
            text.push_str(&format!(
                "[[bot]]\nname = \"b{i}\"\ncommand = \"builtin:random\"\n"
            ));
        }
        text
    }

    #[test]
    fn absurd_sizes_are_refused_before_anything_is_planned() {
        let cases = [
            (
                GOOD.replace("timeout = 2", "games_per_pairing = 4294967295"),
                "t.toml:4:21: games_per_pairing must be from 1 to 10000",
            ),
            (
                GOOD.replace("timeout = 2", "jobs = 10000000"),
                "t.toml:4:8: jobs must be from 1 to 1024",
            ),
            (
                GOOD.replace("timeout = 2", "min_free_mb = 1e6"),
                "t.toml:4:15: min_free_mb must be a whole number from 0 to 18446744073709551615 (MiB), not \
                 1000000.0",
            ),
            (
                GOOD.replace("timeout = 2", "min_free_mb = 99999999999"),
                "t.toml:4:15: min_free_mb must be from 0 (no check) to 1073741824 MiB",
            ),
            (
                GOOD.replace("round-robin", "swiss")
                    .replace("timeout = 2", "rounds = 4294967295"),
                "t.toml:4:10: rounds must be from 1 to 1000",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected);
        }
        let e = error(&many_bots("swiss", 10_000, ""));
        assert!(
            e.starts_with("t.toml:")
                && e.contains("a swiss takes at most 2000 bots, this one has 10000"),
            "{e}"
        );
        let e = error(&many_bots(
            "round-robin",
            1_000,
            "games_per_pairing = 10000",
        ));
        assert!(e.contains("this schedule has 4995000000 games (1000 bots, round-robin format, 10000 per pairing); at most 1000000"), "{e}");
        // Large but sane fields pass.
        Spec::parse(Path::new("t.toml"), &many_bots("swiss", 2_000, "")).unwrap();
        Spec::parse(
            Path::new("t.toml"),
            &many_bots("round-robin", 1_000, "games_per_pairing = 2"),
        )
        .unwrap();
    }

    #[test]
    fn openings_are_read_from_the_spec_folder_and_checked_line_by_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.txt"), "1,2 0\n# a comment\n2,2 1\n").unwrap();
        let nim = "name = \"n\"\ngame = \"nim\"\n\
                   [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
                   [[bot]]\nname = \"b\"\ncommand = \"builtin:search\"\n";
        let with =
            |keys: &str| nim.replace("game = \"nim\"\n", &format!("game = \"nim\"\n{keys}\n"));
        let parse = |text: &str| Spec::parse(&dir.path().join("t.toml"), text);
        let spec = parse(&with(
            "openings = \"book.txt\"\nopenings_order = \"random\"",
        ))
        .unwrap();
        let o = spec.openings.unwrap();
        assert_eq!(o.listed, ["1,2 0", "2,2 1"]);
        assert_eq!((o.order, o.random_plies), (Order::Random, 0));
        let spec = parse(&with("random_plies = 3")).unwrap();
        assert_eq!(spec.openings.unwrap().random_plies, 3);
        assert!(parse(nim).unwrap().openings.is_none());

        std::fs::write(dir.path().join("book.txt"), "1,2 0\n\n0,0 1\n").unwrap();
        let e = parse(&with("openings = \"book.txt\""))
            .err()
            .unwrap()
            .to_string();
        let book = dir.path().join("book.txt");
        assert!(
            e.starts_with(&format!(
                "{}:3:12: openings: {}:3: ",
                dir.path().join("t.toml").display(),
                book.display()
            )),
            "{e}"
        );
        // Beside a spec named without a folder, the file keeps the name it was given.
        let e = error(&with("openings = \"no-such-book.txt\""));
        assert!(
            e.starts_with("t.toml:3:12: openings: reading no-such-book.txt: "),
            "{e}"
        );
    }

    #[test]
    fn a_swiss_plays_one_game_per_pairing_or_an_even_mini_match() {
        let swiss = GOOD.replace("round-robin", "swiss");
        let spec = Spec::parse(Path::new("t.toml"), &swiss).unwrap();
        assert_eq!(spec.games_per_pairing, 1);
        for n in [1, 2, 4] {
            let text = swiss.replace("timeout = 2", &format!("games_per_pairing = {n}"));
            let spec = Spec::parse(Path::new("t.toml"), &text).unwrap();
            assert_eq!(spec.games_per_pairing, n);
        }
        let e = error(&swiss.replace("timeout = 2", "games_per_pairing = 3"));
        assert!(
            e.starts_with("t.toml:4:21: games_per_pairing = 3: a swiss plays 1 game per pairing or an even number")
                && e.contains("first seat once more"),
            "{e}"
        );
    }

    #[test]
    fn relative_paths_are_taken_from_the_spec_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("alice")).unwrap();
        std::fs::write(dir.path().join("bot.py"), "").unwrap();
        let text = GOOD.replace(
            "command = \"builtin:random\"",
            "command = \"python3 bot.py\"\ndir = \"alice\"",
        );
        let s = Spec::parse(&dir.path().join("t.toml"), &text).unwrap();
        let BotCommand::Program(argv) = &s.bots[0].bot.command else {
            panic!()
        };
        assert_eq!(argv[1], dir.path().join("bot.py").to_string_lossy());
        assert_eq!(
            s.bots[0].bot.dir.as_deref(),
            Some(dir.path().join("alice").as_path())
        );
    }

    #[test]
    fn a_script_is_looked_for_where_the_bot_runs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("alice")).unwrap();
        std::fs::write(dir.path().join("alice/mine.py"), "").unwrap();
        let parse = |bot: &str| {
            let text = GOOD.replace("command = \"builtin:random\"", bot);
            Spec::parse(&dir.path().join("t.toml"), &text)
        };
        // Run in its dir, the bot finds its script there.
        let s = parse("command = \"python3 mine.py\"\ndir = \"alice\"").unwrap();
        assert_eq!(s.bots[0].bot.unstartable, None);
        assert!(s.warnings.is_empty());
        // Run in an empty folder, it would not.
        let Err(Error::Spec(e)) = parse("command = \"python3 mine.py\"") else {
            panic!("refused")
        };
        assert_eq!(
            e,
            format!(
                "{}:9:11: bot 'alice': mine.py does not exist (python3's script; looked for as {})",
                dir.path().join("t.toml").display(),
                dir.path().join("mine.py").display()
            )
        );
    }
}
