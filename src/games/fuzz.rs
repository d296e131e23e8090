//! Lines that look like a game's moves, for the fuzz tests: each game's `fuzz_line` builds them
//! from these pieces (blanks, junk, JSON of every shape), so that the fuzzer reaches deep into
//! the game's parser instead of stopping at its first check.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// A line that looks like one of a game's moves, given what the seat has heard so far.
pub type FuzzLine = fn(&[String], &mut ChaCha8Rng) -> String;

pub fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    items.choose(rng).expect("a non-empty list")
}

pub const BLANKS: &[&str] = &[
    "", "", "", " ", "  ", "\t", "\r", " \r", "\u{a0}", "\u{3000}", "\u{b}", "\u{feff}",
];

/// Blanks around a word, sometimes; now and then a line break inside.
pub fn pad(word: &str, rng: &mut ChaCha8Rng) -> String {
    let padded = format!("{}{word}{}", pick(rng, BLANKS), pick(rng, BLANKS));
    match rng.random_bool(0.1) {
        true => broken(&padded, rng),
        false => padded,
    }
}

/// `line` with a character some reader ends a line at put anywhere in it (`games::line_breaks`):
/// the referee refuses such a line before the game sees it, and the game must pass on nothing of
/// it when told of the fault.
pub fn broken(line: &str, rng: &mut ChaCha8Rng) -> String {
    let bounds: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| i)
        .chain([line.len()])
        .collect();
    let at = *pick(rng, &bounds);
    // Not a newline: it ends the line before the game is given it.
    let (c, _) = *pick(rng, &super::line_breaks::BREAKS[1..]);
    format!("{}{c}{}", &line[..at], &line[at..])
}

/// Short text of any kind, for comments and names.
pub fn junk_text(rng: &mut ChaCha8Rng) -> String {
    const PARTS: &[&str] = &[
        "a", "b1", "Z", " ", "  ", "\t", "é", "€", "😀", "\u{0}", "\u{7f}", "\u{202e}", "ROCK",
        "-", "{", "}", "\"", "\\", ",", "random", "pass", "#", "10", "-1", "\r", "\u{2028}",
        "\u{85}",
    ];
    let n = rng.random_range(0..6);
    (0..n).map(|_| *pick(rng, PARTS)).collect()
}

/// The token the game sent this seat last, if any.
pub fn last_token(heard: &[String]) -> Option<String> {
    heard.iter().rev().find_map(|l| {
        let v: Value = serde_json::from_str(l).ok()?;
        v.get("token")?.as_str().map(str::to_string)
    })
}

/// JSON whose text serde_json may choke on, or whose numbers are out of every range.
pub const RAW_JSON: &[&str] = &[
    "1e5",
    "-0",
    "4.0",
    "18446744073709551616",
    "-9223372036854775809",
    "1e400",
    "\"\\ud800\"",
    "\"4\\u0000\"",
    // Line breaks a JSON string may hold, escaped: no reader ends a line at the escape, but a
    // game that writes the string again must escape it again.
    "\"1\\r0\"",
    "\"1\\u20280\"",
    "\"\\u2029\\u0085\\u000b\"",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "[17, 26,]",
    "[17 26]",
    "NaN",
    "Infinity",
    "true",
    "{}",
    "",
];

/// `value` as JSON text; now and then with the line breaks serde_json leaves raw (U+0085, U+2028,
/// U+2029) escaped, as other writers do: the same value, and a line no reader cuts.
pub fn json_text(value: &Value, rng: &mut ChaCha8Rng) -> String {
    let text = value.to_string();
    if rng.random_bool(0.5) {
        return text;
    }
    text.replace('\u{85}', "\\u0085")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// A random JSON value, mostly small numbers and lists of them.
pub fn json_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
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

/// An index below `bound` or a little out of it, as a number or, now and then, a string.
pub fn json_index(rng: &mut ChaCha8Rng, bound: i64) -> Value {
    let n = rng.random_range(-1..bound + 2);
    if rng.random_bool(0.8) {
        json!(n)
    } else {
        json!(n.to_string())
    }
}

/// A request or a move of the JSON games, with the real token most of the time.
pub fn json_line(
    game: &str,
    heard: &[String],
    rng: &mut ChaCha8Rng,
    json_move: fn(&mut ChaCha8Rng) -> Value,
) -> String {
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
                json_move(rng)
            } else {
                json_value(rng, 2)
            };
            msg.insert("move".into(), mv);
        }
    }
    if rng.random_bool(0.1) {
        msg.insert(junk_text(rng), json_value(rng, 1));
    }
    let text = json_text(&Value::Object(msg), rng);
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
