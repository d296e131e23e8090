//! Fuzz and property tests of the tournament spec parser: whatever a spec says, arena refuses it
//! with an error message naming the place; it never panics. `PROPTEST_CASES` and
//! `PROPTEST_RNG_SEED` as for the games' fuzzer.

use crate::common::property::{guarded, run_property};
use std::path::Path;

use arena::spec::Spec;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;

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
