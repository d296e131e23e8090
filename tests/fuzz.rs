//! Fuzz and property tests: every game's move parser, driven through the `Game` trait as the
//! referee drives it, and the tournament spec parser. Whatever a bot sends and whatever a spec
//! says, arena refuses it with a fault or an error message; it never panics.
//!
//! Each property runs `PROPTEST_CASES` cases (256 by default) from a fresh random seed; set
//! `PROPTEST_RNG_SEED` to repeat a run. A failure prints the smallest input found (the case's
//! seed, its prefix of built-in moves and its feeds), the game, the last lines sent, and for a
//! panic its message and location: that input replays the failure exactly.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Once;

use arena::games::{
    self, FaultKind, Game, GameInfo, Msg, Outbox, Params, Reason, Seating, Step, derive_seed,
};
use arena::spec::Spec;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Running properties, and catching panics with their location.

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        // A failure is reported, not written into a regressions file beside the tests.
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

thread_local! {
    /// Inside `guarded`: a panic is recorded for the report instead of printed.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_else(|| "an unknown place".into());
                let msg = info.payload_as_str().unwrap_or("(no message)");
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("panicked at {at}: {msg}")));
            } else {
                default(info);
            }
        }));
    });
}

/// Run `f`; a panic becomes `Err` with its message and location.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_panic_hook();
    LAST_PANIC.with(|p| p.borrow_mut().take());
    GUARDED.with(|g| g.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(false));
    r.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "panicked".into())
    })
}

fn run_property<S: Strategy>(
    what: &str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let mut runner = TestRunner::new(config());
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{what}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Games: what a case feeds the seats.

/// One line for an awaited seat.
#[derive(Debug, Clone)]
enum Feed {
    /// Random bytes, as lossy UTF-8 without newlines (what the line reader can deliver).
    Bytes(Vec<u8>),
    /// A line in the game's alphabet, built from this seed (and the real token where the
    /// protocol has one).
    Looking(u64),
    /// The built-in random bot's line with a few random edits, from this seed.
    Mutated(u64),
    /// The built-in random bot's line: the game goes on.
    Builtin,
}

#[derive(Debug, Clone)]
struct GameCase {
    /// The game's seed; the built-in bots and the generators derive theirs from it.
    seed: u64,
    /// Built-in moves before the feeds, to reach positions deep in the game.
    prefix: usize,
    feeds: Vec<Feed>,
    /// After the feeds, play the built-in bot to the end.
    finish: bool,
}

fn feed() -> impl Strategy<Value = Feed> {
    let byte = prop_oneof![
        any::<u8>(),
        0x20u8..0x7f,
        select(b" \t\r-{}[]\":,0123456789".to_vec())
    ];
    // Long lines too: a pattern repeated up to the referee's line limit (64 KiB).
    let long = (
        select(vec![
            "ROCK ",
            "1",
            "6A ",
            "g4-",
            "b1b3 ",
            "[",
            "{\"moves\":[",
            "\u{0}",
            "é",
        ]),
        0usize..65_536,
    )
        .prop_map(|(unit, len)| unit.repeat(len / unit.len()).into_bytes());
    prop_oneof![
        3 => vec(byte, 0..48).prop_map(Feed::Bytes),
        1 => long.prop_map(Feed::Bytes),
        4 => any::<u64>().prop_map(Feed::Looking),
        4 => any::<u64>().prop_map(Feed::Mutated),
        3 => Just(Feed::Builtin),
    ]
}

fn game_case(max_prefix: usize) -> impl Strategy<Value = GameCase> {
    (
        any::<u64>(),
        0..=max_prefix,
        vec(feed(), 1..12),
        any::<bool>(),
    )
        .prop_map(|(seed, prefix, feeds, finish)| GameCase {
            seed,
            prefix,
            feeds,
            finish,
        })
}

fn new_game(info: &GameInfo, seed: u64) -> Box<dyn Game> {
    let params = Params::resolve(info.params, []).expect("the defaults are valid");
    let seating = Seating {
        names: ["alpha".into(), "beta".into()],
        seed,
        timeout: info.timeout,
    };
    info.new_game(&params, &seating)
        .expect("a game with the defaults")
}

/// Lines a built-in random game takes at most over a few seeds: how deep a prefix may go.
fn typical_length(info: &GameInfo) -> usize {
    (0..3)
        .map(|seed| {
            let mut game = new_game(info, seed);
            let mut out = Outbox::default();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            game.start(&mut out);
            let mut lines = 0;
            while let Some(seat) = (0..2).find(|&s| game.awaiting()[s]) {
                let line = game.builtin_line(seat, "random", &mut rng);
                game.on_line(seat, &line, &mut out)
                    .expect("a built-in move");
                out.take();
                lines += 1;
                assert!(lines < 50_000, "{} does not end", info.name);
            }
            lines
        })
        .max()
        .unwrap_or(0)
}

/// The lines the game sent one seat lately, newest last.
#[derive(Default)]
struct Heard {
    lines: [Vec<String>; 2],
}

impl Heard {
    const KEEP: usize = 64;

    fn absorb(&mut self, out: &mut Outbox) -> Result<(), TestCaseError> {
        for msg in out.take() {
            if let Msg::To(seat, line) = msg {
                prop_assert!(seat < 2, "a line to seat {seat}");
                let lines = &mut self.lines[seat];
                lines.push(line);
                if lines.len() > Self::KEEP {
                    lines.drain(..lines.len() - Self::KEEP);
                }
            }
        }
        Ok(())
    }
}

/// Play one case; every invariant that fails, and any panic, is an error naming the game, the
/// case and the last lines fed.
fn play(info: &GameInfo, case: &GameCase) -> Result<(), TestCaseError> {
    let mut game = new_game(info, case.seed);
    let mut bots = ChaCha8Rng::seed_from_u64(derive_seed(case.seed, 100));
    let mut chooser = ChaCha8Rng::seed_from_u64(derive_seed(case.seed, 200));
    let mut out = Outbox {
        now_ms: 1_767_225_600_000,
        ..Outbox::default()
    };
    let mut heard = Heard::default();
    let mut failed = [false; 2];
    let mut transcript: Vec<String> = Vec::new();
    let name = info.name;
    let report = |transcript: &[String], what: String| {
        let tail = &transcript[transcript.len().saturating_sub(12)..];
        TestCaseError::fail(format!(
            "{name} (seed {}): {what}\n  after {} lines; the last ones:\n    {}",
            case.seed,
            transcript.len(),
            tail.join("\n    ")
        ))
    };

    guarded(|| game.start(&mut out)).map_err(|p| report(&transcript, format!("start {p}")))?;
    heard.absorb(&mut out)?;

    let mut feeds = std::iter::repeat_n(&Feed::Builtin, case.prefix)
        .chain(&case.feeds)
        .chain(std::iter::repeat(&Feed::Builtin).take_while(|_| case.finish));
    let mut steps = 0;
    loop {
        let a = game.awaiting();
        let open = [a[0] && !failed[0], a[1] && !failed[1]];
        let seat = match open {
            [false, false] => break,
            [true, true] => chooser.random_range(0..2),
            [true, false] => 0,
            [false, true] => 1,
        };
        let Some(feed) = feeds.next() else { break };
        steps += 1;
        if steps > 50_000 {
            return Err(report(&transcript, "does not end".into()));
        }
        let builtin = |game: &dyn Game, bots: &mut ChaCha8Rng| {
            guarded(|| game.builtin_line(seat, "random", bots))
                .map_err(|p| report(&transcript, format!("builtin_line({seat}, \"random\") {p}")))
        };
        let line = match feed {
            Feed::Bytes(bytes) => String::from_utf8_lossy(bytes).replace('\n', ""),
            Feed::Looking(seed) => {
                let mut rng = ChaCha8Rng::seed_from_u64(*seed);
                looking(name, &heard.lines[seat], &mut rng)
            }
            Feed::Mutated(seed) => {
                let mut rng = ChaCha8Rng::seed_from_u64(*seed);
                mutate(&builtin(game.as_ref(), &mut bots)?, &mut rng)
            }
            Feed::Builtin => builtin(game.as_ref(), &mut bots)?,
        };
        debug_assert!(!line.contains('\n'));
        transcript.push(format!("seat {seat} <- {line:?} ({feed:?})"));
        let result = guarded(|| game.on_line(seat, &line, &mut out))
            .map_err(|p| report(&transcript, format!("on_line({seat}, {line:?}) {p}")))?;
        match result {
            Ok(Step::Done) => {}
            Ok(Step::Retry) => {
                if !game.awaiting()[seat] {
                    return Err(report(
                        &transcript,
                        "a line to retry, but the seat is no longer awaited".into(),
                    ));
                }
            }
            Err(fault) => {
                if !matches!(fault.kind, FaultKind::Protocol | FaultKind::Illegal) {
                    return Err(report(
                        &transcript,
                        format!("a line became a {:?} fault: {}", fault.kind, fault.detail),
                    ));
                }
                transcript.push(format!(
                    "  fault: {} ({})",
                    fault.kind.as_str(),
                    fault.detail
                ));
                // As the referee's judge does: the game hears of the fault once, and the seat
                // is not read again.
                guarded(|| game.on_fault(seat, &fault, &mut out))
                    .map_err(|p| report(&transcript, format!("on_fault({seat}, {fault:?}) {p}")))?;
                failed[seat] = true;
                if game.awaiting()[seat] {
                    return Err(report(
                        &transcript,
                        "the game still waits for a seat that failed".into(),
                    ));
                }
            }
        }
        heard.absorb(&mut out)?;
        if game.outcome().is_some() && game.awaiting() != [false, false] {
            return Err(report(
                &transcript,
                format!(
                    "the game has an outcome but still awaits {:?}",
                    game.awaiting()
                ),
            ));
        }
        out.now_ms += 37;
    }

    if failed == [false, false] && game.awaiting() == [false, false] {
        let Some(outcome) = game.outcome() else {
            return Err(report(
                &transcript,
                "the game awaits no one but has no outcome".into(),
            ));
        };
        let sum: f64 = outcome.scores.iter().sum();
        if sum != 1.0
            || !matches!(
                outcome.reason,
                Reason::Normal | Reason::Draw | Reason::Limit
            )
        {
            return Err(report(
                &transcript,
                format!("a finished game's outcome is {outcome:?}"),
            ));
        }
    }
    Ok(())
}

fn fuzz_game(name: &str) {
    let info = games::find(name).unwrap_or_else(|| panic!("no game {name}"));
    let depth = typical_length(info);
    run_property(name, game_case(depth), |case| play(info, &case));
}

macro_rules! fuzz_games {
    ($($game:ident),* $(,)?) => {
        $(
            #[test]
            fn $game() {
                fuzz_game(stringify!($game));
            }
        )*

        #[test]
        fn every_game_is_fuzzed() {
            let fuzzed = [$(stringify!($game)),*];
            for info in games::ALL {
                assert!(fuzzed.contains(&info.name), "add {} to fuzz_games!", info.name);
            }
        }
    };
}

fuzz_games!(
    roshambo, royalur, dama, checkers, tictactoe, loa, batalo, krom, connect4,
);

// ---------------------------------------------------------------------------------------------
// Lines that look like moves.

fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    items.choose(rng).expect("a non-empty list")
}

const BLANKS: &[&str] = &[
    "", "", "", " ", "  ", "\t", "\r", " \r", "\u{a0}", "\u{3000}", "\u{b}", "\u{feff}",
];

/// Blanks around a word, sometimes.
fn pad(word: &str, rng: &mut ChaCha8Rng) -> String {
    format!("{}{word}{}", pick(rng, BLANKS), pick(rng, BLANKS))
}

/// Short text of any kind, for comments and names.
fn junk_text(rng: &mut ChaCha8Rng) -> String {
    const PARTS: &[&str] = &[
        "a", "b1", "Z", " ", "  ", "\t", "é", "€", "😀", "\u{0}", "\u{7f}", "\u{202e}", "ROCK",
        "-", "{", "}", "\"", "\\", ",", "random", "pass", "#", "10", "-1", "\r",
    ];
    let n = rng.random_range(0..6);
    (0..n).map(|_| *pick(rng, PARTS)).collect()
}

fn looking(game: &str, heard: &[String], rng: &mut ChaCha8Rng) -> String {
    match game {
        "roshambo" => roshambo_line(rng),
        "royalur" => royalur_line(rng),
        "dama" => dama_line(rng),
        "checkers" | "tictactoe" | "connect4" => json_game_line(game, heard, rng),
        "batalo" => batalo_line(rng),
        "loa" => loa_line(heard, rng),
        "krom" => krom_line(rng),
        // A game added since: words and numbers.
        _ => format!("{} {}", junk_text(rng), rng.random_range(-2i32..100)),
    }
}

fn roshambo_line(rng: &mut ChaCha8Rng) -> String {
    const WORDS: &[&str] = &[
        "ROCK",
        "PAPER",
        "SCISSORS",
        "PAPR",
        "ROCKS",
        "SCISSOR",
        "rock",
        "Paper",
        "sCISSORS",
        "RETIRE",
        "",
        "R",
        "ROCK PAPER",
        "ROCK\tROCK",
        "ROCK\u{0}",
        "ＲＯＣＫ",
    ];
    let word = pick(rng, WORDS).to_string();
    if rng.random_bool(0.2) {
        format!("{} {}", pad(&word, rng), junk_text(rng))
    } else {
        pad(&word, rng)
    }
}

fn royalur_line(rng: &mut ChaCha8Rng) -> String {
    const ODD: &[&str] = &[
        "+2",
        "02",
        "-0",
        "1.0",
        "0x1",
        "1e0",
        "٣",
        "３",
        "99999999999999999999",
        "18446744073709551616",
        "-9223372036854775809",
        "1 2",
        "",
        "RETIRE",
    ];
    let word = if rng.random_bool(0.6) {
        rng.random_range(-3i64..12).to_string()
    } else {
        pick(rng, ODD).to_string()
    };
    pad(&word, rng)
}

fn dama_line(rng: &mut ChaCha8Rng) -> String {
    const SEPS: &[&str] = &[" ", " ", " ", "  ", "\t", "-", ",", "x", ""];
    let square = |rng: &mut ChaCha8Rng| -> String {
        match rng.random_range(0..10) {
            0 => pick(
                rng,
                &["10A", "6", "A6", "6AA", "0A", "9I", "6Ä", "６A", "66"],
            )
            .to_string(),
            _ => format!(
                "{}{}",
                rng.random_range(0..10),
                *pick(rng, b"ABCDEFGHIJabcdefghij") as char
            ),
        }
    };
    let n = rng.random_range(0..7);
    let sep = pick(rng, SEPS);
    let squares: Vec<String> = (0..n).map(|_| square(rng)).collect();
    pad(&squares.join(sep), rng)
}

fn batalo_line(rng: &mut ChaCha8Rng) -> String {
    const SEPS: &[&str] = &["-", "-", "-", " - ", "--", "—", "", " ", "-g5-"];
    let point = |rng: &mut ChaCha8Rng| -> String {
        match rng.random_range(0..10) {
            0 => pick(
                rng,
                &["", "g", "4", "g04", "g100", "G", "é4", "g-1", "g+4", "4g"],
            )
            .to_string(),
            _ => {
                let letter = *pick(rng, b"abcdefghijklmnoAGMz") as char;
                format!("{letter}{}", rng.random_range(0..16))
            }
        }
    };
    let (a, b) = (point(rng), point(rng));
    pad(&format!("{a}{}{b}", pick(rng, SEPS)), rng)
}

fn loa_line(heard: &[String], rng: &mut ChaCha8Rng) -> String {
    // The legal moves the game listed for this seat: four-character lines such as b1b3.
    let listed: Vec<&String> = heard
        .iter()
        .filter(|l| l.len() == 4 && l.as_bytes()[1].is_ascii_digit())
        .collect();
    let word = match rng.random_range(0..6) {
        0 => pick(
            rng,
            &[
                "random", "RANDOM", "Random", "pass", "PASS", "null", "b1b3-", "b1",
            ],
        )
        .to_string(),
        1 if !listed.is_empty() => pick(rng, &listed).to_string(),
        _ => {
            let sq = |rng: &mut ChaCha8Rng| {
                format!(
                    "{}{}",
                    *pick(rng, b"abcdefghijABH") as char,
                    rng.random_range(0..10)
                )
            };
            format!("{}{}", sq(rng), sq(rng))
        }
    };
    match rng.random_range(0..3) {
        0 => pad(&word, rng),
        1 => format!("{word} {}", junk_text(rng)),
        _ => format!(
            "{}{word}{}{}",
            pick(rng, BLANKS),
            pick(rng, BLANKS),
            junk_text(rng)
        ),
    }
}

/// The token the game sent this seat last, if any.
fn last_token(heard: &[String]) -> Option<String> {
    heard.iter().rev().find_map(|l| {
        let v: Value = serde_json::from_str(l).ok()?;
        v.get("token")?.as_str().map(str::to_string)
    })
}

/// JSON whose text serde_json may choke on, or whose numbers are out of every range.
const RAW_JSON: &[&str] = &[
    "1e5",
    "-0",
    "4.0",
    "18446744073709551616",
    "-9223372036854775809",
    "1e400",
    "\"\\ud800\"",
    "\"4\\u0000\"",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "[17, 26,]",
    "[17 26]",
    "NaN",
    "Infinity",
    "true",
    "{}",
    "",
];

/// A random JSON value, mostly small numbers and lists of them.
fn json_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
    match rng.random_range(0..if depth == 0 { 9 } else { 12 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.random()),
        2..=4 => json!(rng.random_range(-3i64..72)),
        5 => match rng.random_range(0..8) {
            0 => json!(i64::MIN),
            1 => json!(i64::MAX),
            2 => json!(u64::MAX),
            3 => json!(0.5),
            4 => json!(3.0),
            5 => json!(-0.0),
            6 => json!(1e300),
            _ => json!(9_007_199_254_740_993u64),
        },
        6 => json!(format!(
            "{}{}{}",
            pick(rng, BLANKS),
            rng.random_range(-2i64..70),
            pick(rng, BLANKS)
        )),
        7 => json!(pick(rng, &["", "x", "４", "1.5", "0x3", "1e1", "-", "[1]"]).to_string()),
        8 => json!(junk_text(rng)),
        9 | 10 => {
            let n = rng.random_range(0..6);
            Value::Array((0..n).map(|_| json_value(rng, depth - 1)).collect())
        }
        _ => {
            let n = rng.random_range(0..3);
            let mut map = serde_json::Map::new();
            for _ in 0..n {
                let key = pick(rng, &["move", "token", "game", "x", ""]).to_string();
                map.insert(key, json_value(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

/// A move of the right shape for the JSON game: a cell, a column, or a path of squares.
fn json_move(game: &str, rng: &mut ChaCha8Rng) -> Value {
    let index = |rng: &mut ChaCha8Rng, bound: i64| -> Value {
        let n = rng.random_range(-1..bound + 2);
        if rng.random_bool(0.8) {
            json!(n)
        } else {
            json!(n.to_string())
        }
    };
    match game {
        "tictactoe" => index(rng, 9),
        "connect4" => index(rng, 7),
        _ => {
            // A checkers path: a dark square, then one or more steps or jumps diagonally.
            let mut at = rng.random_range(0i64..64);
            let mut path = vec![json!(at)];
            for _ in 0..rng.random_range(0..4) {
                let step = *pick(rng, &[7, 9, -7, -9, 14, 18, -14, -18, 1, 8]);
                at += step;
                path.push(json!(at));
            }
            Value::Array(path)
        }
    }
}

/// A request or a move of the JSON games, with the real token most of the time.
fn json_game_line(game: &str, heard: &[String], rng: &mut ChaCha8Rng) -> String {
    let token = last_token(heard);
    let mut msg = serde_json::Map::new();
    let request = (token.is_none() && rng.random_bool(0.7)) || rng.random_bool(0.1);
    if request {
        let names = [
            game,
            "checkers",
            "connect4",
            "connectfour",
            "tictactoe",
            "chess",
            "",
        ];
        if rng.random_bool(0.9) {
            let name = if rng.random_bool(0.8) {
                json!(pick(rng, &names))
            } else {
                json_value(rng, 1)
            };
            msg.insert("game".into(), name);
        }
    } else {
        let tok = match (rng.random_range(0..10), &token) {
            (0..=5, Some(t)) => Some(json!(t)),
            (6, _) => None,
            (7, _) => Some(json!("AAAAAAAA")),
            (8, Some(t)) => Some(json!(format!(" {t}"))),
            _ => Some(json_value(rng, 1)),
        };
        if let Some(tok) = tok {
            msg.insert("token".into(), tok);
        }
        if rng.random_bool(0.9) {
            let mv = if rng.random_bool(0.7) {
                json_move(game, rng)
            } else {
                json_value(rng, 2)
            };
            msg.insert("move".into(), mv);
        }
    }
    if rng.random_bool(0.1) {
        msg.insert(junk_text(rng), json_value(rng, 1));
    }
    let text = Value::Object(msg).to_string();
    match rng.random_range(0..12) {
        // A move given as raw text serde_json may refuse.
        0 => match &token {
            Some(t) => format!("{{\"token\": \"{t}\", \"move\": {}}}", pick(rng, RAW_JSON)),
            None => format!("{{\"game\": {}}}", pick(rng, RAW_JSON)),
        },
        // Not an object at all, or cut short.
        1 => pick(rng, RAW_JSON).to_string(),
        2 => {
            let cut = rng.random_range(0..=text.len());
            text.chars().take(cut).collect()
        }
        // A key twice.
        3 => text.replacen('{', "{\"move\": 3, ", 1),
        _ => pad(&text, rng),
    }
}

/// A krom action: mostly the right shape, with values on the board and a little off it.
fn krom_action(rng: &mut ChaCha8Rng) -> Value {
    let coord = |rng: &mut ChaCha8Rng| -> Value {
        match rng.random_range(0..12) {
            0 => json!(rng.random_range(-3i64..0)),
            1 => json!(rng.random_range(16i64..20)),
            2 => json_value(rng, 0),
            _ => json!(rng.random_range(0i64..16)),
        }
    };
    let mut items = match rng.random_range(0..6) {
        0 => vec![
            json!("move"),
            coord(rng),
            coord(rng),
            coord(rng),
            coord(rng),
        ],
        1 => {
            let kind = pick(rng, &["wall", "gun", "factory", "tank", "", "WALL"]);
            vec![json!("make"), coord(rng), coord(rng), json!(kind)]
        }
        2 => {
            let dir = if rng.random_bool(0.8) {
                json!(rng.random_range(-1i64..5))
            } else {
                json_value(rng, 0)
            };
            vec![json!("fire"), coord(rng), coord(rng), dir]
        }
        3 => vec![json!("camo"), coord(rng), coord(rng)],
        4 => vec![json!("pass")],
        _ => {
            let name = pick(rng, &["hit", "hidden", "Move", "", "jump"]);
            vec![json!(name), coord(rng), coord(rng)]
        }
    };
    // The wrong number of items, now and then.
    match rng.random_range(0..10) {
        0 => {
            items.pop();
        }
        1 => items.push(coord(rng)),
        2 => return json_value(rng, 1),
        _ => {}
    }
    Value::Array(items)
}

fn krom_line(rng: &mut ChaCha8Rng) -> String {
    let mut msg = serde_json::Map::new();
    let kind = pick(
        rng,
        &["hello", "join", "move", "move", "move", "you", "", "MOVE"],
    );
    if rng.random_bool(0.95) {
        msg.insert("msg".into(), json!(kind));
    }
    if rng.random_bool(0.5) {
        let nick = if rng.random_bool(0.7) {
            json!(junk_text(rng))
        } else {
            json_value(rng, 1)
        };
        msg.insert("nick".into(), nick);
    }
    if rng.random_bool(0.8) {
        let moves = if rng.random_bool(0.9) {
            let n = rng.random_range(0..7);
            Value::Array((0..n).map(|_| krom_action(rng)).collect())
        } else {
            json_value(rng, 1)
        };
        msg.insert("moves".into(), moves);
    }
    let text = Value::Object(msg).to_string();
    match rng.random_range(0..10) {
        0 => {
            let cut = rng.random_range(0..=text.len());
            text.chars().take(cut).collect()
        }
        1 => pick(rng, RAW_JSON).to_string(),
        _ => pad(&text, rng),
    }
}

// ---------------------------------------------------------------------------------------------
// Mutating a real move.

/// A few random edits: inside the JSON value for a JSON line, else to its characters.
fn mutate(line: &str, rng: &mut ChaCha8Rng) -> String {
    if let Ok(mut value) = serde_json::from_str::<Value>(line)
        && value.is_object()
        && rng.random_bool(0.9)
    {
        for _ in 0..rng.random_range(1..3) {
            // Mostly the move itself: a changed token or message kind is refused at once.
            let key = ["move", "moves"]
                .into_iter()
                .find(|k| value.get(k).is_some());
            match key {
                Some(k) if rng.random_bool(0.8) => mutate_json(&mut value[k], rng),
                _ => mutate_json(&mut value, rng),
            }
        }
        return value.to_string();
    }
    let mut chars: Vec<char> = line.chars().collect();
    const ALPHABET: &[char] = &[
        ' ', ' ', '-', '0', '1', '5', '9', 'a', 'h', 'm', 'A', 'J', 'z', '"', '[', ']', '{', '}',
        ',', ':', '\t', '\r', 'é', '😀', '\u{0}',
    ];
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=chars.len());
        let within = at.min(chars.len().saturating_sub(1));
        match rng.random_range(0..8) {
            0 if !chars.is_empty() => {
                chars.remove(within);
            }
            1 if !chars.is_empty() => {
                let c = chars[within];
                chars.insert(within, c);
            }
            2 if !chars.is_empty() => {
                let c = *pick(rng, &chars);
                chars[within] = c;
            }
            3 if !chars.is_empty() => {
                // The next or previous digit or letter.
                let c = chars[within];
                let up = rng.random_bool(0.5);
                chars[within] = match (c, up) {
                    ('0'..='8' | 'a'..='y' | 'A'..='Y', true) => char::from(c as u8 + 1),
                    ('1'..='9' | 'b'..='z' | 'B'..='Z', false) => char::from(c as u8 - 1),
                    _ => c,
                };
            }
            4 if chars.len() > 1 => {
                let j = (within + 1).min(chars.len() - 1);
                chars.swap(within, j);
            }
            5 => chars.truncate(at),
            6 => chars.iter_mut().for_each(|c| {
                *c = if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            }),
            _ => chars.insert(at, *pick(rng, ALPHABET)),
        }
    }
    chars.into_iter().collect()
}

/// Change one place of a JSON value: mostly a number becomes a neighbour; else a leaf becomes
/// another type, or a container loses, doubles or gains an item.
fn mutate_json(value: &mut Value, rng: &mut ChaCha8Rng) {
    let roll = rng.random_range(0..20);
    match value {
        Value::Array(items) if !items.is_empty() && roll >= 2 => {
            let i = rng.random_range(0..items.len());
            match roll {
                2 => {
                    items.remove(i);
                }
                3 => {
                    let v = items[i].clone();
                    items.insert(i, v);
                }
                4 => items.insert(i, json_value(rng, 1)),
                _ => mutate_json(&mut items[i], rng),
            }
        }
        Value::Object(map) if !map.is_empty() && roll >= 2 => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = pick(rng, &keys).clone();
            match roll {
                2 => {
                    map.remove(&key);
                }
                3 => {
                    map.insert(junk_text(rng), json_value(rng, 1));
                }
                _ => mutate_json(map.get_mut(&key).expect("a key"), rng),
            }
        }
        Value::Number(n) if roll >= 2 => {
            let v = n.as_i64().unwrap_or(0);
            let by = *pick(rng, &[-2i64, -1, 1, 2]);
            *value = json!(v.saturating_add(by));
        }
        Value::String(s) if roll >= 6 => {
            *s = mutate(s, rng);
        }
        _ => *value = json_value(rng, 1),
    }
}

// ---------------------------------------------------------------------------------------------
// The tournament spec.

const SPEC_PATH: &str = "fuzz.toml";

/// Valid specs to mutate; `valid_specs_parse` checks that they are.
const SPECS: &[&str] = &[
    r#"name = "class"
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
"#,
    r#"name = "grading"
game = "dama"
format = "gauntlet"
games_per_pairing = 4
startup_timeout = 10.0
seed = 7
jobs = 2
channel = "pipe"
ladder = false

[params]
retries = 1
max_moves = 120
pace = 0.0

[limits]
memory_mb = 512
cpu_seconds = 60
open_files = 64
output_mb = 10
processes = 4096

[[bot]]
name = "reference"
command = "builtin:search"
seed = true

[[bot]]
name = "student"
command = "builtin:random"
dir = "tests"
channel = "stdio"
env = { LEVEL = "3", NAME = "é" }
[bot.limits]
memory_mb = 256
"#,
    r#"# A swiss of krom.
name = 'swiss-night'   # comment
game = "krom"
format = "swiss"
rounds = 3
timeout = 0.5
ladder = true
params = { max_turns = 50, move_cap = 9 }
bot = [
  { name = "a", command = "builtin:random" },
  { name = "b", command = "builtin:random", seed = false },
  { name = "c", command = "builtin:random" },
]
"#,
];

fn spec_error(text: &str) -> Result<(), TestCaseError> {
    let parsed = guarded(|| Spec::parse(Path::new(SPEC_PATH), text).map(|_| ()))
        .map_err(|p| TestCaseError::fail(format!("Spec::parse {p}\n--- text ---\n{text}")))?;
    let Err(e) = parsed else { return Ok(()) };
    let msg = e.to_string();
    let Some(rest) = msg.strip_prefix(SPEC_PATH) else {
        return Err(TestCaseError::fail(format!(
            "the error does not start with the file name: {msg:?}\n--- text ---\n{text}"
        )));
    };
    prop_assert!(
        rest.starts_with(':'),
        "no ':' after the file name: {msg:?}\n--- text ---\n{text}"
    );
    // `fuzz.toml:LINE:COLUMN: message`, or `fuzz.toml: message` without a place.
    let mut parts = rest[1..].splitn(3, ':');
    let number = |s: Option<&str>| {
        s.filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse::<usize>().ok())
    };
    if let (Some(line), Some(column)) = (number(parts.next()), number(parts.next())) {
        let lines: Vec<&str> = text.split('\n').collect();
        prop_assert!(
            (1..=lines.len()).contains(&line),
            "line {line} of {} lines: {msg:?}\n--- text ---\n{text}",
            lines.len()
        );
        let width = lines[line - 1].chars().count();
        prop_assert!(
            (1..=width + 1).contains(&column),
            "column {column} of a line of {width} characters: {msg:?}\n--- text ---\n{text}"
        );
    }
    Ok(())
}

#[test]
fn valid_specs_parse() {
    for text in SPECS {
        if let Err(e) = Spec::parse(Path::new(SPEC_PATH), text) {
            panic!("{e}\n{text}");
        }
    }
}

/// Characters TOML gives meaning to, and some it does not expect.
const TOML_CHARS: &[char] = &[
    ' ', '\n', '\n', '\r', '\t', '=', '=', '"', '"', '\'', '[', ']', '{', '}', ',', '.', '#', '-',
    '_', '+', ':', '\\', '0', '1', '7', '9', 'e', 'a', 'z', 'T', 'Z', 'é', '😀', '\u{0}', '\u{7f}',
    '\u{feff}', '\u{2028}',
];

#[test]
fn spec_parser_survives_random_bytes() {
    let byte = prop_oneof![
        any::<u8>(),
        select(
            TOML_CHARS
                .iter()
                .filter(|c| c.is_ascii())
                .map(|&c| c as u8)
                .collect::<Vec<u8>>()
        ),
        0x20u8..0x7f,
    ];
    run_property("random bytes", vec(byte, 0..400), |bytes| {
        spec_error(&String::from_utf8_lossy(&bytes))
    });
}

/// An edit of a spec's text. Places are taken modulo the text's length.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Duplicate(usize, usize),
    Replace(usize, char),
    Insert(usize, String),
    /// A `key = value` line inserted before a line.
    Line(usize, String),
    SwapLines(usize, usize),
    Truncate(usize),
}

const KEYS: &[&str] = &[
    "name",
    "game",
    "format",
    "games_per_pairing",
    "rounds",
    "timeout",
    "startup_timeout",
    "seed",
    "jobs",
    "channel",
    "ladder",
    "params",
    "limits",
    "bot",
    "command",
    "dir",
    "env",
    "memory_mb",
    "cpu_seconds",
    "open_files",
    "output_mb",
    "processes",
    "max_moves",
    "max_plies",
    "max_turns",
    "move_cap",
    "rounds",
    "retries",
    "pace",
    "rolls",
    "colour",
    "bot.limits",
    "\"quoted key\"",
    "'name'",
    "a.b.c",
    "",
];

/// A TOML value of a random type, as text: sometimes not valid TOML.
fn toml_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        (-3i64..700).prop_map(|i| i.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        select(vec![
            "nan",
            "inf",
            "-inf",
            "+inf",
            "1e400",
            "-0.0",
            "0.05",
            "0.1",
            "600.0001",
            "1_000",
            "0x10",
            "0o7",
            "0b1",
            "18446744073709551616",
            "4294967296",
            "true",
            "false",
            "1979-05-27T07:32:00Z",
            "1979-05-27",
            "07:32:00",
            "\"\"",
            "''",
            "\"\"\"x\"\"\"",
            "\"builtin:random\"",
            "\"builtin:search\"",
            "\"builtin:\"",
            "\"-\"",
            "\"python3 tests/bots/scripted.py\"",
            "\"./nothing.py\"",
            "\"'unclosed\"",
            "\"tests\"",
            "\"stdio\"",
            "\"pipe\"",
            "\"round-robin\"",
            "\"gauntlet\"",
            "\"swiss\"",
            "\"royalur\"",
            "\"roshambo\"",
            "\"dama\"",
            "\"loa\"",
            "\"krom\"",
            "\"chess\"",
            "\"a/b\"",
            "\"..\"",
            "\"x,y\"",
            "\" \"",
            "\"0011,1111\"",
            "\"\\u00e9\"",
            "\"\\ud800\"",
            "\"\\x\"",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,12}".prop_map(|s| format!("{s:?}")),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
            vec((select(KEYS), inner), 0..4).prop_map(|kv| {
                let kv: Vec<String> = kv.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                format!("{{ {} }}", kv.join(", "))
            }),
        ]
    })
}

fn toml_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (select(KEYS), toml_value()).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => select(vec![
            "[params]", "[limits]", "[[bot]]", "[bot.limits]", "[bot]", "[[params]]", "[env]",
            "[[bot.limits]]", "[]", "[[", "#", "=",
        ])
        .prop_map(str::to_string),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    let pos = any::<usize>();
    prop_oneof![
        1 => (pos, 1usize..20).prop_map(|(a, n)| Edit::Delete(a, n)),
        1 => (pos, 1usize..40).prop_map(|(a, n)| Edit::Duplicate(a, n)),
        1 => (pos, prop_oneof![select(TOML_CHARS), any::<char>()])
            .prop_map(|(a, c)| Edit::Replace(a, c)),
        1 => (pos, vec(select(TOML_CHARS), 1..8))
            .prop_map(|(a, cs)| Edit::Insert(a, cs.into_iter().collect())),
        3 => (pos, toml_line()).prop_map(|(a, l)| Edit::Line(a, l)),
        1 => (pos, pos).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        1 => pos.prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = |i: usize, chars: &[char]| i % (chars.len() + 1);
    match edit {
        Edit::Delete(a, n) => {
            let a = at(*a, &chars);
            let b = (a + n).min(chars.len());
            chars.drain(a..b);
        }
        Edit::Duplicate(a, n) => {
            let a = at(*a, &chars);
            let b = (a + n).min(chars.len());
            let copy: Vec<char> = chars[a..b].to_vec();
            chars.splice(b..b, copy);
        }
        Edit::Replace(a, c) => {
            if !chars.is_empty() {
                let a = a % chars.len();
                chars[a] = *c;
            }
        }
        Edit::Insert(a, s) => {
            let a = at(*a, &chars);
            chars.splice(a..a, s.chars());
        }
        Edit::Line(a, line) => {
            let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
            let a = a % (lines.len() + 1);
            lines.insert(a, line.clone());
            return lines.join("\n");
        }
        Edit::SwapLines(a, b) => {
            let mut lines: Vec<&str> = text.split('\n').collect();
            let (a, b) = (a % lines.len(), b % lines.len());
            lines.swap(a, b);
            return lines.join("\n");
        }
        Edit::Truncate(a) => {
            let a = at(*a, &chars);
            chars.truncate(a);
        }
    }
    chars.into_iter().collect()
}

#[test]
fn spec_parser_survives_mutated_specs() {
    let case = (0..SPECS.len(), vec(edit(), 1..6));
    run_property("mutated specs", case, |(base, edits)| {
        let text = edits
            .iter()
            .fold(SPECS[base].to_string(), |t, e| apply(&t, e));
        spec_error(&text)
    });
}

/// A value for a key of a spec's table: mostly a valid one, sometimes one the spec refuses, now
/// and then any value at all.
fn plausible(table: &str, key: &'static str) -> BoxedStrategy<String> {
    let (valid, invalid): (Vec<&'static str>, Vec<&'static str>) = match (table, key) {
        (_, "name") => (
            vec![
                "\"alice\"",
                "\"bob\"",
                "\"carol\"",
                "\"dave\"",
                "\"eve\"",
                "'é ü'",
            ],
            vec!["\"a/b\"", "\"..\"", "\"\"", "\" \"", "\"x,y\"", "\"a\\nb\""],
        ),
        (_, "game") => (
            vec![
                "\"roshambo\"",
                "\"royalur\"",
                "\"dama\"",
                "\"checkers\"",
                "\"tictactoe\"",
                "\"loa\"",
                "\"batalo\"",
                "\"krom\"",
                "\"connect4\"",
            ],
            vec!["\"chess\"", "\"\"", "\"ROYALUR\""],
        ),
        (_, "format") => (
            vec!["\"round-robin\"", "\"gauntlet\"", "\"swiss\""],
            vec!["\"knockout\"", "\"Swiss\""],
        ),
        (_, "command") => (
            vec![
                "\"builtin:random\"",
                "\"builtin:random\"",
                "\"builtin:random\"",
                "\"python3 tests/bots/scripted.py\"",
            ],
            vec![
                "\"builtin:greedy\"",
                "\"builtin:search\"",
                "\"builtin:\"",
                "\"-\"",
                "\"./nothing.py\"",
                "\"tests\"",
                "\"'x\"",
                "\"\"",
                "\"tests/fuzz.rs\"",
            ],
        ),
        (_, "dir") => (vec!["\"tests\"", "\".\""], vec!["\"nothing-here\"", "\"\""]),
        (_, "channel") => (vec!["\"stdio\"", "\"pipe\""], vec!["\"tcp\"", "\"STDIO\""]),
        ("bot", "seed") | (_, "ladder") => (vec!["true", "false"], vec!["1", "\"true\""]),
        (_, "seed") => (
            vec!["0", "1", "18446744073709551615"],
            vec!["-1", "true", "1.5"],
        ),
        (_, "env") => (
            vec!["{ A = \"1\" }", "{}", "{ \"é\" = \"\" }"],
            vec!["{ A = 1 }", "[]"],
        ),
        (_, "timeout" | "startup_timeout") => (
            vec!["0.1", "2", "2.5", "600", "1e2"],
            vec!["0.05", "0", "600.5", "nan", "inf", "-1", "\"2\"", "1e400"],
        ),
        (_, "games_per_pairing" | "rounds" | "jobs") => {
            (vec!["1", "2", "3"], vec!["0", "-1", "4294967296", "1.0"])
        }
        ("params", "rolls") => (
            vec!["\"0011, 1111\"", "\"0000\"", "\"\""],
            vec!["\"2\"", "\"00112\"", "[]"],
        ),
        ("params", "pace") => (vec!["0", "0.5", "\"1\""], vec!["-1", "nan", "1e9", "true"]),
        ("params", _) => (
            vec!["1", "3", "50", "200", "\"20\""],
            vec!["0", "-1", "100001", "1.5", "\"x\"", "true", "[1]"],
        ),
        // Limits, and anything else: counts.
        _ => (
            vec!["1", "64", "512", "4096"],
            vec!["0", "-1", "1.5", "\"64\""],
        ),
    };
    prop_oneof![
        // A spec sets a dozen keys: mostly valid values, so that some specs pass every check.
        80 => select(valid).prop_map(str::to_string),
        2 => select(invalid).prop_map(str::to_string),
        1 => toml_value(),
    ]
    .boxed()
}

/// Lines of a table: each key with its chance of being there, with a plausible value; now and
/// then a random line too.
fn entries(
    table: &'static str,
    keys: &'static [(&'static str, f64)],
) -> BoxedStrategy<Vec<String>> {
    let parts: Vec<BoxedStrategy<Option<String>>> = keys
        .iter()
        .map(|&(k, p)| {
            prop::option::weighted(
                p,
                plausible(table, k).prop_map(move |v| format!("{k} = {v}")),
            )
            .boxed()
        })
        .collect();
    (parts, prop::option::weighted(0.05, toml_line()))
        .prop_map(|(parts, extra)| parts.into_iter().flatten().chain(extra).collect())
        .boxed()
}

/// A whole spec of random tables, keys and values: the parts a spec has, with plausible values
/// or any types, so that the checks after TOML parsing are reached too.
fn random_spec() -> impl Strategy<Value = String> {
    const TOP: &[(&str, f64)] = &[
        ("name", 0.98),
        ("game", 0.98),
        ("format", 0.5),
        ("games_per_pairing", 0.1),
        ("rounds", 0.1),
        ("timeout", 0.2),
        ("startup_timeout", 0.2),
        ("seed", 0.2),
        ("jobs", 0.2),
        ("channel", 0.2),
        ("ladder", 0.2),
    ];
    const PARAMS: &[(&str, f64)] = &[
        ("max_moves", 0.3),
        ("max_plies", 0.1),
        ("max_turns", 0.1),
        ("move_cap", 0.1),
        ("rounds", 0.1),
        ("retries", 0.1),
        ("pace", 0.2),
        ("rolls", 0.1),
    ];
    const LIMITS: &[(&str, f64)] = &[
        ("memory_mb", 0.3),
        ("cpu_seconds", 0.3),
        ("open_files", 0.3),
        ("output_mb", 0.3),
        ("processes", 0.3),
    ];
    const BOT: &[(&str, f64)] = &[
        ("name", 0.98),
        ("command", 0.98),
        ("dir", 0.1),
        ("channel", 0.2),
        ("env", 0.1),
        ("seed", 0.25),
    ];
    let bot = (
        entries("bot", BOT),
        prop::option::weighted(0.2, entries("limits", LIMITS)),
    )
        .prop_map(|(lines, limits)| {
            let mut text = format!("[[bot]]\n{}\n", lines.join("\n"));
            if let Some(l) = limits {
                text.push_str(&format!("[bot.limits]\n{}\n", l.join("\n")));
            }
            text
        });
    (
        entries("", TOP),
        prop::option::weighted(0.25, entries("params", PARAMS)),
        prop::option::weighted(0.3, entries("limits", LIMITS)),
        prop_oneof![1 => vec(bot.clone(), 0..2), 9 => vec(bot, 2..6)],
    )
        .prop_map(|(top, params, limits, bots)| {
            let mut text = format!("{}\n", top.join("\n"));
            if let Some(p) = params {
                text.push_str(&format!("[params]\n{}\n", p.join("\n")));
            }
            if let Some(l) = limits {
                text.push_str(&format!("[limits]\n{}\n", l.join("\n")));
            }
            text.push_str(&bots.concat());
            text
        })
}

#[test]
fn spec_parser_survives_random_specs() {
    run_property("random specs", random_spec(), |text| spec_error(&text));
}
