//! The shape of the source, checked: the modules of `src/` import each other without a circle,
//! and a command never imports another command. Read from the source text, so that a `use`
//! added anywhere is seen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The module path of a file under `src/`: `games/dama/protocol.rs` is `[games, dama, protocol]`,
/// `games/mod.rs` is `[games]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The text without comments, so that a doc comment naming a module is not an import, and
/// without its unit tests (in a `mod tests` whose `super` is the file itself).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names from the crate's root, resolved: `crate::a::b`, `super::x` (from the
/// file's own module), and each item of `use crate::{a, b::c}` and `use super::{...}`.
fn named_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let text = code(text);
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let starts_word = i == 0 || !word(bytes[i - 1]);
        let (base, skip): (Vec<String>, usize) = if starts_word && rest.starts_with("crate::") {
            (Vec::new(), "crate::".len())
        } else if starts_word && rest.starts_with("super::") {
            // `super::` from `a/b.rs` (module a::b) is `a`; repeated supers climb further.
            let mut up = module.to_vec();
            let mut n = 0;
            while rest[n..].starts_with("super::") {
                up.pop();
                n += "super::".len();
            }
            (up, n)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let after = &rest[skip..];
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let first: String = item.trim().chars().take_while(|&c| word(c as u8)).collect();
                if !first.is_empty() {
                    out.push([base.clone(), vec![first]].concat());
                }
            }
        } else {
            let segs: Vec<String> = after
                .split("::")
                .map(|s| s.chars().take_while(|&c| word(c as u8)).collect::<String>())
                .take_while(|s| !s.is_empty())
                .take(2)
                .collect();
            out.push([base, segs].concat());
        }
        i += skip;
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// For every file of the library (not the binary's `main.rs` and `cli.rs`), its module path and
/// the paths it names.
fn library() -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let root = src();
    sources(&root)
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(&root).unwrap().to_path_buf();
            let module = module_of(&rel);
            if matches!(module.as_slice(), [m] if m == "main" || m == "cli" || m == "lib") {
                return None;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let named = named_paths(&module, &text);
            Some((module, named))
        })
        .collect()
}

/// A circle in `edges`, if there is one, as the modules on it.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut found = path[i..].to_vec();
            found.push(at.to_string());
            return Some(found);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_top_level_modules_import_each_other_without_a_circle() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, named) in library() {
        let from = module[0].clone();
        let entry = edges.entry(from.clone()).or_default();
        for path in named {
            if let Some(to) = path.first().filter(|to| **to != from) {
                entry.insert(to.clone());
            }
        }
    }
    // Names at the root that are not modules (`crate::Error`) are not edges.
    let modules: BTreeSet<String> = edges.keys().cloned().collect();
    for targets in edges.values_mut() {
        targets.retain(|t| modules.contains(t));
    }
    assert!(edges.contains_key("games") && edges.contains_key("commands"));
    if let Some(c) = circle(&edges) {
        panic!("modules import each other in a circle: {}", c.join(" -> "));
    }
}

#[test]
fn a_command_never_imports_another_command() {
    let commands: BTreeSet<String> = library()
        .into_iter()
        .filter(|(m, _)| m.len() == 2 && m[0] == "commands")
        .map(|(m, _)| m[1].clone())
        .collect();
    assert!(
        commands.contains("series") && commands.contains("run"),
        "{commands:?}"
    );
    for (module, named) in library() {
        let Some(me) = module.get(1).filter(|_| module[0] == "commands") else {
            // Nothing below the commands names one.
            for path in &named {
                assert!(
                    path.first().is_none_or(|p| p != "commands"),
                    "{} uses {}: the library must not use a command",
                    module.join("::"),
                    path.join("::")
                );
            }
            continue;
        };
        for path in named {
            if path.first().is_some_and(|p| p == "commands")
                && let Some(other) = path.get(1).filter(|o| *o != me)
            {
                panic!("the command {me} imports the command {other}");
            }
        }
    }
}

#[test]
fn the_reader_sees_imports_in_each_form() {
    let module = vec!["games".to_string(), "dama".to_string()];
    let text = "use crate::{bot, referee::log};\nuse super::picture::X;\n// crate::out\n\
                let g = crate::games::find_game(x);\nuse super::super::spec;";
    let named = named_paths(&module, text);
    let firsts: Vec<&str> = named.iter().map(|p| p[0].as_str()).collect();
    assert_eq!(firsts, ["bot", "referee", "games", "games", "spec"]);
    assert_eq!(named[2], ["games", "picture", "X"]);
}

/// Games are played through the engine alone: outside `engine/` and `referee/` (which plays
/// one game), nothing starts one, so that every command retries, journals and stops alike.
#[test]
fn no_command_plays_games_but_through_the_engine() {
    let root = src();
    let mut offenders = Vec::new();
    for path in sources(&root) {
        let rel = path.strip_prefix(&root).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy();
        if top == "engine" || top == "referee" {
            continue;
        }
        let text = code(&std::fs::read_to_string(&path).unwrap());
        for call in ["play_unsynced(", "referee::play(", "sdk::play_unsynced("] {
            if text.contains(call) {
                offenders.push(format!("{}: {call}", rel.display()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "games played outside the engine: {offenders:?}"
    );
    // And the engine does play them (the check above would pass on a renamed function).
    let retry = std::fs::read_to_string(root.join("engine/retry.rs")).unwrap();
    assert!(code(&retry).contains("play_unsynced("));
}

/// Functions longer than this are split along their steps: a reader sees each at once.
const LONGEST_FUNCTION: usize = 100;

/// Longer today, and to be split: the list may only shrink. A listed function no longer over
/// the bound fails the test too, so that the list never goes stale.
const TOO_LONG_FOR_NOW: &[&str] = &[];

/// Each function of a production file (its unit tests cut off) and its length in lines, from
/// its `fn` line to the closing brace at the same indentation.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| w[0].starts_with("#[cfg(test)]") && w[1].starts_with("mod "))
        .unwrap_or(lines.len());
    let mut out = Vec::new();
    for (i, line) in lines[..end].iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let after_qualifiers = [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ]
        .iter()
        .fold(body, |rest, q| rest.strip_prefix(q).unwrap_or(rest));
        let Some(signature) = after_qualifiers.strip_prefix("fn ") else {
            continue;
        };
        let name: String = signature
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let closing = format!("{indent}}}");
        if let Some(last) = lines[i..end].iter().position(|l| *l == closing) {
            out.push((name, last + 1));
        }
    }
    out
}

#[test]
fn no_production_function_is_longer_than_the_bound() {
    let root = src();
    let mut long = BTreeSet::new();
    for path in sources(&root) {
        let rel = path.strip_prefix(&root).unwrap().display().to_string();
        if path
            .file_name()
            .is_some_and(|f| f.to_string_lossy().starts_with("tests"))
        {
            continue;
        }
        for (name, lines) in function_lengths(&std::fs::read_to_string(&path).unwrap()) {
            if lines > LONGEST_FUNCTION {
                long.insert(format!("{rel}::{name}"));
            }
        }
    }
    let listed: BTreeSet<String> = TOO_LONG_FOR_NOW.iter().map(|s| s.to_string()).collect();
    let new: Vec<&String> = long.difference(&listed).collect();
    assert!(new.is_empty(), "over {LONGEST_FUNCTION} lines: {new:?}");
    let mended: Vec<&String> = listed.difference(&long).collect();
    assert!(
        mended.is_empty(),
        "no longer over {LONGEST_FUNCTION} lines, take them off TOO_LONG_FOR_NOW: {mended:?}"
    );
}

#[test]
fn function_lengths_are_read_from_fn_to_its_closing_brace() {
    let text = "fn a() {\n    x();\n}\n\n    pub async fn b(\n        y: u8,\n    ) {\n    }\n#[cfg(test)]\nmod tests {\n    fn c() {\n    }\n}\n";
    assert_eq!(
        function_lengths(text),
        [("a".to_string(), 3), ("b".to_string(), 4)]
    );
}

/// The failure vocabulary sits below both the bots and the games, which speak it: it names
/// neither, nor anything above them.
#[test]
fn the_failure_vocabulary_sits_below_bot_and_games() {
    let text = code(&std::fs::read_to_string(src().join("failure.rs")).unwrap());
    let named: Vec<Vec<String>> = named_paths(&["failure".to_string()], &text);
    let above: Vec<&Vec<String>> = named
        .iter()
        .filter(|p| p.first().is_some_and(|m| m != "failure"))
        .collect();
    assert!(above.is_empty(), "failure.rs names {above:?}");
    for lower in ["bot", "games"] {
        let uses = library()
            .into_iter()
            .filter(|(m, _)| m[0] == lower)
            .any(|(_, named)| {
                named
                    .iter()
                    .any(|p| p.first().is_some_and(|m| m == "failure"))
            });
        assert!(uses, "{lower} speaks the failure vocabulary");
    }
}

/// A tournament format has one home (issue 44): outside `src/format/`, production code asks a
/// format what it takes and how it is scheduled, never compares its name, so that a new format
/// is its file and its line in `format::ALL`.
#[test]
fn no_format_is_known_by_name_outside_its_home() {
    let root = src();
    let names = ["\"round-robin\"", "\"gauntlet\"", "\"swiss\"", "\"pods\""];
    let mut offenders = Vec::new();
    for path in sources(&root) {
        let rel = path.strip_prefix(&root).unwrap();
        if rel.starts_with("format") {
            continue;
        }
        let text = code(&std::fs::read_to_string(&path).unwrap());
        for name in names {
            if text.contains(name) {
                offenders.push(format!("{}: {name}", rel.display()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "formats known by name outside src/format/: {offenders:?}"
    );
    // And the names are where the check looks for them.
    let home = sources(&root.join("format"))
        .iter()
        .map(|p| code(&std::fs::read_to_string(p).unwrap()))
        .collect::<String>();
    assert!(names.iter().all(|n| home.contains(n)), "{names:?}");
}
