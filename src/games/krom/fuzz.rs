//! Lines that look like this game's moves, for the fuzz tests (`GameInfo::fuzz_line`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use serde_json::{Value, json};

use crate::games::fuzz::{RAW_JSON, json_text, json_value, junk_text, pad, pick};

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
    let mut items = match rng.random_range(0..7) {
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
        5 => {
            let name = pick(rng, &["hit", "hidden", "Move", "", "jump"]);
            vec![json!(name), coord(rng), coord(rng)]
        }
        // Any text, which the refusal quotes back to everyone.
        _ => vec![json!(junk_text(rng))],
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

pub fn line(_heard: &[String], rng: &mut ChaCha8Rng) -> String {
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
    let text = json_text(&Value::Object(msg), rng);
    match rng.random_range(0..10) {
        0 => {
            let cut = rng.random_range(0..=text.len());
            text.chars().take(cut).collect()
        }
        1 => pick(rng, RAW_JSON).to_string(),
        _ => pad(&text, rng),
    }
}
