//! Fuzz and property tests of every game's move parser, driven through the `Game` trait as the
//! referee drives it: whatever a bot sends, arena refuses it with a fault; it never panics. Every
//! game of the registry is fuzzed, with the lines that look like its moves that its folder
//! provides (`GameInfo::fuzz_line`).
//!
//! Each property runs `PROPTEST_CASES` cases (256 by default) from a fresh random seed; set
//! `PROPTEST_RNG_SEED` to repeat a run. A failure prints the smallest input found (the case's
//! seed, its prefix of built-in moves and its feeds), the game, the last lines sent, and for a
//! panic its message and location: that input replays the failure exactly.

use crate::common::property::{guarded, run_property};

use arena::failure::FaultKind;
use arena::games::fuzz::{json_value, junk_text, pick};
use arena::games::{
    self, Game, GameInfo, Msg, Outbox, Params, Seat, Seating, Seats, Step, line_breaks,
};
use arena::seeds::derive_seed;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

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
    /// How many play: one of the numbers the game takes.
    players: usize,
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

fn game_case(info: &GameInfo, max_prefix: usize) -> impl Strategy<Value = GameCase> {
    (
        any::<u64>(),
        info.players.clone(),
        0..=max_prefix,
        vec(feed(), 1..12),
        any::<bool>(),
    )
        .prop_map(|(seed, players, prefix, feeds, finish)| GameCase {
            seed,
            players,
            prefix,
            feeds,
            finish,
        })
}

fn new_game(info: &GameInfo, seed: u64, players: usize) -> Box<dyn Game> {
    let params = Params::resolve(info.params, []).expect("the defaults are valid");
    let seating = Seating {
        names: (0..players).map(|i| format!("player{i}")).collect(),
        seed,
        timeout: info.timeout,
        opening: None,
    };
    info.new_game(&params, &seating)
        .expect("a game with the defaults")
}

/// Lines a built-in random game takes at most over a few seeds: how deep a prefix may go.
fn typical_length(info: &GameInfo) -> usize {
    (0..3)
        .map(|seed| {
            let mut game = new_game(info, seed, *info.players.end());
            let mut out = Outbox::default();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            game.start(&mut out);
            let mut lines = 0;
            while let Some(seat) = game.awaiting().iter().next() {
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
struct Heard {
    /// Each seat's.
    lines: Vec<Vec<String>>,
}

impl Heard {
    const KEEP: usize = 64;

    /// Take what the game sent; a line holding a line break, which a reader would take for two
    /// (whatever the bots sent, the game must not pass one on), is an error saying which.
    fn absorb(&mut self, out: &mut Outbox) -> Result<(), String> {
        for msg in out.take() {
            let (to, line) = match msg {
                Msg::To(seat, line) => (Some(seat), line),
                Msg::Spectators(line) => (None, line),
                Msg::Pause(_) => continue,
            };
            if let Some(c) = line_breaks::find(&line) {
                let whom = to.map_or("the spectators".into(), |s| format!("seat {}", s.index()));
                return Err(format!("sent {whom} a line holding {c:?}: {line:?}"));
            }
            if let Some(seat) = to {
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
    let mut game = new_game(info, case.seed, case.players);
    let mut bots = ChaCha8Rng::seed_from_u64(derive_seed(case.seed, 100));
    let mut chooser = ChaCha8Rng::seed_from_u64(derive_seed(case.seed, 200));
    let mut out = Outbox {
        now_ms: 1_767_225_600_000,
        ..Outbox::default()
    };
    let mut heard = Heard {
        lines: vec![Vec::new(); case.players],
    };
    let mut failed = Seats::NONE;
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
    heard.absorb(&mut out).map_err(|e| report(&transcript, e))?;

    let mut feeds = std::iter::repeat_n(&Feed::Builtin, case.prefix)
        .chain(&case.feeds)
        .chain(std::iter::repeat(&Feed::Builtin).take_while(|_| case.finish));
    let mut steps = 0;
    loop {
        let open: Vec<Seat> = game.awaiting().without(failed).iter().collect();
        let seat = match open.len() {
            0 => break,
            n => open[chooser.random_range(0..n)],
        };
        let Some(feed) = feeds.next() else { break };
        steps += 1;
        if steps > 50_000 {
            return Err(report(&transcript, "does not end".into()));
        }
        let builtin = |game: &dyn Game, bots: &mut ChaCha8Rng| {
            guarded(|| game.builtin_line(seat, "random", bots)).map_err(|p| {
                report(
                    &transcript,
                    format!("builtin_line({seat:?}, \"random\") {p}"),
                )
            })
        };
        let line = match feed {
            Feed::Bytes(bytes) => String::from_utf8_lossy(bytes).replace('\n', ""),
            Feed::Looking(seed) => {
                let mut rng = ChaCha8Rng::seed_from_u64(*seed);
                (info.fuzz_line)(&heard.lines[seat], &mut rng)
            }
            Feed::Mutated(seed) => {
                let mut rng = ChaCha8Rng::seed_from_u64(*seed);
                mutate(&builtin(game.as_ref(), &mut bots)?, &mut rng)
            }
            Feed::Builtin => builtin(game.as_ref(), &mut bots)?,
        };
        debug_assert!(!line.contains('\n'));
        transcript.push(format!("seat {seat:?} <- {line:?} ({feed:?})"));
        // As the referee's judge does: a line holding a line break never reaches the game.
        let result = match line_breaks::check(&line, "sent") {
            Err(fault) => Err(fault),
            Ok(()) => guarded(|| game.on_line(seat, &line, &mut out))
                .map_err(|p| report(&transcript, format!("on_line({seat:?}, {line:?}) {p}")))?,
        };
        match result {
            Ok(Step::Done) => {}
            // Both keep the seat's turn open: it must still be awaited.
            Ok(Step::Retry | Step::More) => {
                if !game.awaiting().contains(seat) {
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
                guarded(|| game.on_fault(seat, &fault, &mut out)).map_err(|p| {
                    report(&transcript, format!("on_fault({seat:?}, {fault:?}) {p}"))
                })?;
                failed.insert(seat);
                if game.awaiting().contains(seat) {
                    return Err(report(
                        &transcript,
                        "the game still waits for a seat that failed".into(),
                    ));
                }
            }
        }
        heard.absorb(&mut out).map_err(|e| report(&transcript, e))?;
        if game.outcome().is_some() && !game.awaiting().is_empty() {
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

    if failed.is_empty() && game.awaiting().is_empty() {
        // Its outcome, a win or a draw, cannot be anything else: only that it is there.
        if game.outcome().is_none() {
            return Err(report(
                &transcript,
                "the game awaits no one but has no outcome".into(),
            ));
        }
    }
    Ok(())
}

fn fuzz_game(info: &GameInfo) {
    let depth = typical_length(info);
    run_property(info.name, game_case(info, depth), |case| play(info, &case));
}

/// Every game of the registry, each on a thread of its own: a game added to the registry is
/// fuzzed without a line here.
#[test]
fn every_game_survives_what_bots_send() {
    let failures: Vec<String> = std::thread::scope(|scope| {
        let running: Vec<_> = games::ALL
            .iter()
            .map(|info| (info.name, scope.spawn(move || fuzz_game(info))))
            .collect();
        running
            .into_iter()
            .filter_map(|(name, thread)| {
                let panic = thread.join().err()?;
                let text = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Some(format!("{name}: {text}"))
            })
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
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
