//! What toml and serde say of a spec they cannot read ("invalid type: string \"2\", expected
//! f64", "integer `-1` as i128", "unknown field `colour`"), said in the spec's words: the key,
//! what it takes and what it was given. The spec is written by people who do not read Rust.

/// The key a value at byte `at` of the spec `text` is written under: `timeout` in
/// `timeout = "2"`, `bot` in a `[bot]` header, `A` in `env = { A = 1 }`. `None` where the line
/// does not show it (a value on a later line of a list).
pub fn key_at(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[line_start..line_end].trim();
    if let Some(header) = line.strip_prefix('[') {
        let name = header.trim_start_matches('[').split(']').next()?;
        return last_segment(name);
    }
    let before = &text[line_start..at];
    let assigned = &before[..before.rfind('=')?];
    last_segment(assigned.rsplit(['{', ',']).next()?)
}

/// `limits.memory_mb` → `memory_mb`, quotes and spaces dropped.
fn last_segment(key: &str) -> Option<String> {
    let last = key.rsplit('.').next()?.trim().trim_matches(['"', '\'']);
    (!last.is_empty()).then(|| last.to_string())
}

/// serde's `message` about the value under `key`, reworded; a message it does not recognise is
/// returned as it is.
pub fn reworded(key: Option<&str>, message: &str) -> String {
    // One `[bot]` reads as a table where a list was expected; two as the same table twice.
    let bot_table = message.ends_with("expected a sequence") || message.starts_with("duplicate key");
    if key == Some("bot") && bot_table {
        return "bots are written [[bot]], with two brackets: one [[bot]] table for each bot"
            .into();
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        return unknown("key", rest, None);
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return unknown("value", rest, key);
    }
    if message == "wanted string or table" {
        // toml's words for a value that names none of an enum's variants.
        let key = key.unwrap_or("this");
        return format!("{key} must be one of its names, in quotes");
    }
    if let Some(name) = message.strip_prefix("missing field ") {
        return format!("{} is missing", unquoted(name));
    }
    let wrong = ["invalid type: ", "invalid value: "]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|rest| rest.rsplit_once(", expected "));
    let Some((found, expected)) = wrong else {
        return message.to_string();
    };
    let what = takes(key.unwrap_or(""), expected);
    let found = given(found);
    match key {
        Some(key) => format!("{key} must be {what}, not {found}"),
        None => format!("this must be {what}, not {found}"),
    }
}

/// What a key takes, from the type serde expected: its unit where the key's name says it.
fn takes(key: &str, expected: &str) -> String {
    let whole = |max: u64| format!("a whole number from 0 to {max}");
    let max = match expected {
        "u8" => Some(u64::from(u8::MAX)),
        "u16" => Some(u64::from(u16::MAX)),
        "u32" => Some(u64::from(u32::MAX)),
        "u64" | "usize" => Some(u64::MAX),
        _ => None,
    };
    let number = max.is_some() || matches!(expected, "f64" | "f32" | "i64" | "i32");
    match (key, max) {
        ("timeout" | "startup_timeout", _) if number => "a number of seconds".into(),
        (k, Some(max)) if k.ends_with("_mb") => format!("{} (MiB)", whole(max)),
        (k, Some(max)) if k.ends_with("_seconds") => format!("{} (seconds)", whole(max)),
        (_, Some(max)) => whole(max),
        _ => match expected {
            "f64" | "f32" => "a number".into(),
            "i64" | "i32" => "a whole number".into(),
            "a boolean" => "true or false".into(),
            "a string" => "text in quotes".into(),
            "a map" => "a table".into(),
            "a sequence" => "a list".into(),
            other => other.replace('`', "'"),
        },
    }
}

/// serde's description of the value it was given, as the spec wrote it.
fn given(found: &str) -> String {
    let found = found.trim_end_matches(" as i128");
    for kind in ["integer ", "floating point ", "boolean ", "character "] {
        if let Some(value) = found.strip_prefix(kind) {
            return unquoted(value);
        }
    }
    match found {
        "map" => "a table".into(),
        "sequence" => "a list".into(),
        other => other
            .strip_prefix("string ")
            .unwrap_or(other)
            .replace('`', "'"),
    }
}

/// serde's "`x`, expected one of `a`, `b`" (or "expected `a` or `b`", or "there are no
/// fields") after "unknown field " or "unknown variant ".
fn unknown(noun: &str, rest: &str, key: Option<&str>) -> String {
    let (name, known) = rest.split_once(", ").unwrap_or((rest, ""));
    let name = unquoted(name);
    let choices = known
        .trim_start_matches("expected ")
        .trim_start_matches("one of ")
        .replace('`', "");
    match (noun, key) {
        ("value", Some(key)) => format!("{key} must be one of {choices}, not '{name}'"),
        _ if choices.starts_with("there are no") => format!("unknown {noun} '{name}' here"),
        _ => format!("unknown {noun} '{name}' (the {noun}s here: {choices})"),
    }
}

fn unquoted(s: &str) -> String {
    s.trim().trim_matches('`').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_read_from_the_line_of_the_value() {
        let text = "name = \"x\"\n[limits]\nmemory_mb = \"a\"\n[bot]\nenv = { A = 1 }\n";
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(key_at(text, at("\"a\"")).as_deref(), Some("memory_mb"));
        assert_eq!(key_at(text, at("[bot]")).as_deref(), Some("bot"));
        assert_eq!(key_at(text, at("1 }")).as_deref(), Some("A"));
        assert_eq!(key_at("x = [\n1]", 6), None);
    }

    #[test]
    fn serde_types_become_words() {
        let cases = [
            (
                "timeout",
                "invalid type: string \"2\", expected f64",
                "timeout must be a number of seconds, not \"2\"",
            ),
            (
                "seed",
                "invalid type: integer `99999999999999999999` as i128, expected u64",
                "seed must be a whole number from 0 to 18446744073709551615, not \
                 99999999999999999999",
            ),
            (
                "seed",
                "invalid value: integer `-1`, expected u64",
                "seed must be a whole number from 0 to 18446744073709551615, not -1",
            ),
            (
                "memory_mb",
                "invalid type: floating point `1.5`, expected u64",
                "memory_mb must be a whole number from 0 to 18446744073709551615 (MiB), not 1.5",
            ),
            (
                "ladder",
                "invalid type: string \"yes\", expected a boolean",
                "ladder must be true or false, not \"yes\"",
            ),
            (
                "format",
                "unknown variant `x`, expected one of `round-robin`, `swiss`",
                "format must be one of round-robin, swiss, not 'x'",
            ),
            (
                "colour",
                "unknown field `colour`, expected `a` or `b`",
                "unknown key 'colour' (the keys here: a or b)",
            ),
            (
                "bot",
                "invalid type: map, expected a sequence",
                "bots are written [[bot]], with two brackets",
            ),
            ("bot", "duplicate key", "bots are written [[bot]], with two brackets"),
        ];
        for (key, serde, words) in cases {
            let got = reworded(Some(key), serde);
            assert!(got.starts_with(words), "{serde}: got {got:?}");
            for rust in ["expected", "f64", "u64", "i128", "`"] {
                assert!(!got.contains(rust), "{got:?} has {rust}");
            }
        }
    }
}
