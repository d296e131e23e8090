//! The settings that decide how a tournament's games may end (deadlines, limits, channel,
//! sandbox, the referee program and its turns, each bot's command), as `run.json` keeps them: a
//! run into a folder whose games were played under other rules is refused, naming each setting
//! that changed (docs/tournaments.md, section Resuming).
//!
//! A setting that names files (a command's program and the files its arguments name, a bot's
//! folder) keeps each file twice: its canonical path, and that path from the spec's canonical
//! folder. Two spellings of one file are the same setting (`./x.py`, `x.py`, `../d/./x.py`), and
//! so is a file whose path changed with the spec's (a project folder renamed or moved): the file
//! is another one only when both differ.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bot::Channel;
use crate::referee::log::Header;
use crate::spec::{Entrant, Spec};

/// Each setting by its name in the spec (`timeout`, `[limits] memory_mb`, `[referee] max_turns`;
/// a bot's as its table names them: `command`, `limits memory_mb`). A setting left out is unset.
pub type Settings = BTreeMap<String, Value>;

/// A setting's value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Text(String),
    /// A command line or a folder, word by word.
    Words(Vec<Word>),
}

/// A word of a command line: as written, or the file it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Word {
    Text(String),
    File { path: String, from_spec: String },
}

impl Value {
    fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Words(a), Value::Words(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.same(b))
            }
            _ => self == other,
        }
    }

    /// For people: a file by its canonical path.
    fn shown(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            Value::Words(words) => shell_words::join(words.iter().map(|w| match w {
                Word::Text(t) => t.as_str(),
                Word::File { path, .. } => path.as_str(),
            })),
        }
    }
}

impl Word {
    fn same(&self, other: &Word) -> bool {
        match (self, other) {
            (
                Word::File { path, from_spec },
                Word::File {
                    path: p,
                    from_spec: f,
                },
            ) => path == p || from_spec == f,
            _ => self == other,
        }
    }
}

/// How the settings of `was` differ from `now`'s, as (name, was, now); a setting absent on one
/// side is unset there.
pub fn changes(was: &Settings, now: &Settings) -> Vec<(String, String, String)> {
    let names: BTreeSet<&String> = was.keys().chain(now.keys()).collect();
    let unset = Value::Text("none".into());
    names
        .into_iter()
        .filter_map(|name| {
            let (w, n) = (
                was.get(name).unwrap_or(&unset),
                now.get(name).unwrap_or(&unset),
            );
            (!w.same(n)).then(|| (name.clone(), w.shown(), n.shown()))
        })
        .collect()
}

/// `now`'s settings that `known` also has: what a folder that tells only some of its settings
/// is checked against.
pub fn known(now: &Settings, told: &Settings) -> Settings {
    now.iter()
        .filter(|(name, _)| told.contains_key(*name))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

fn text(value: impl ToString) -> Value {
    Value::Text(value.to_string())
}

fn seconds(d: std::time::Duration) -> Value {
    text(d.as_secs_f64())
}

fn channel(c: Channel) -> Value {
    text(match c {
        Channel::Stdio => "stdio",
        Channel::Pipe => "pipe",
    })
}

fn limit(value: Option<u64>) -> Value {
    text(value.map_or("none".to_string(), |v| v.to_string()))
}

/// The tournament's settings: its deadlines, `ponder`, `channel`, sandbox and `[limits]`, and
/// its referee program's.
pub fn of(spec: &Spec) -> Settings {
    let files = Files::of(spec);
    let mut s = Settings::new();
    s.insert("timeout".into(), seconds(spec.timeout));
    s.insert("startup_timeout".into(), seconds(spec.startup_timeout));
    s.insert("ponder".into(), text(spec.ponder));
    s.insert("channel".into(), channel(spec.channel));
    s.insert("sandbox".into(), text(spec.sandbox.is_some()));
    if let Some(sandbox) = &spec.sandbox {
        // By number: a user's name and number are one user.
        s.insert(
            "sandbox_user".into(),
            text(format!("uid {}", sandbox.user.0)),
        );
    }
    for (name, value) in spec.limits.named() {
        s.insert(format!("[limits] {name}"), limit(value));
    }
    if let Some(r) = &spec.referee {
        s.insert("[referee] command".into(), files.command(&r.bot.label));
        s.insert("[referee] timeout".into(), seconds(r.timeout));
        s.insert(
            "[referee] startup_timeout".into(),
            seconds(r.startup_timeout),
        );
        s.insert("[referee] max_turns".into(), text(r.max_turns));
        for (name, value) in r.bot.limits.named() {
            s.insert(format!("[referee.limits] {name}"), limit(value));
        }
    }
    s
}

/// Each bot's own settings, in the spec's order: its command, folder and environment, and its
/// channel and limits where they are not the tournament's.
pub fn of_bots(spec: &Spec) -> Vec<Settings> {
    let files = Files::of(spec);
    spec.bots.iter().map(|b| of_bot(spec, &files, b)).collect()
}

fn of_bot(spec: &Spec, files: &Files, entrant: &Entrant) -> Settings {
    let bot = &entrant.bot;
    let mut s = Settings::new();
    s.insert("command".into(), files.command(&bot.label));
    if let Some(dir) = &bot.dir {
        s.insert("dir".into(), Value::Words(vec![files.word(dir)]));
    }
    for (name, value) in &bot.env {
        s.insert(format!("env {name}"), text(value));
    }
    if bot.channel != spec.channel {
        s.insert("channel".into(), channel(bot.channel));
    }
    let tournament = spec.limits.named();
    for ((name, value), (_, theirs)) in bot.limits.named().into_iter().zip(tournament) {
        if value != theirs {
            s.insert(format!("limits {name}"), limit(value));
        }
    }
    s
}

/// What a folder from before these settings were kept tells of them: its referee program's
/// command (`referee`, as its `run.json` gave it, from the spec's folder), and the deadlines and
/// turns a game's log (`log`) was played with.
pub fn told(spec: &Spec, referee: Option<&str>, log: Option<&Header>) -> Settings {
    let mut s = Settings::new();
    if let Some(command) = referee {
        s.insert("[referee] command".into(), Files::of(spec).command(command));
    }
    let Some(header) = log else {
        return s;
    };
    s.insert("timeout".into(), text(header.timeout));
    s.insert("startup_timeout".into(), text(header.startup_timeout));
    if let Some(r) = &header.referee {
        s.insert("[referee] timeout".into(), text(r.timeout));
        s.insert("[referee] startup_timeout".into(), text(r.startup_timeout));
        if let Some(turns) = r.max_turns {
            s.insert("[referee] max_turns".into(), text(turns));
        }
    }
    s
}

/// Names the files of a spec's settings: paths as written are taken from the spec's folder.
struct Files {
    base: PathBuf,
    /// The spec's folder, canonical; `None` if it cannot be resolved.
    canonical: Option<PathBuf>,
}

impl Files {
    fn of(spec: &Spec) -> Files {
        let base = spec
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Files {
            canonical: std::fs::canonicalize(&base).ok(),
            base,
        }
    }

    /// A command line as the spec writes it, word by word: each word that names a file or a
    /// folder there, as that file; a program found in PATH (`python3`) by its name, as written,
    /// so that a new interpreter of the same name does not change the setting.
    fn command(&self, written: &str) -> Value {
        let words = shell_words::split(written).unwrap_or_else(|_| vec![written.to_string()]);
        Value::Words(
            words
                .iter()
                .enumerate()
                .map(|(i, word)| {
                    let path = self.base.join(word);
                    // As `BotCommand::parse` finds the program: by a path, or in the spec's
                    // folder; an option is never a file.
                    let file = match i {
                        0 => word.contains('/') || path.is_file(),
                        _ => !word.starts_with('-') && path.exists(),
                    };
                    match file {
                        true => self.word(&path),
                        false => Word::Text(word.clone()),
                    }
                })
                .collect(),
        )
    }

    /// A file or folder (its path taken from where arena runs), as the setting keeps it; as
    /// given if it cannot be resolved.
    fn word(&self, path: &Path) -> Word {
        let Ok(canonical) = std::fs::canonicalize(path) else {
            return Word::Text(path.to_string_lossy().into_owned());
        };
        let from_spec = match &self.canonical {
            Some(base) => relative(base, &canonical),
            None => canonical.clone(),
        };
        Word::File {
            path: canonical.to_string_lossy().into_owned(),
            from_spec: from_spec.to_string_lossy().into_owned(),
        }
    }
}

/// `to` from the folder `from`, both canonical: `x.py`, `../bots/x.py`, `.`.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let (from, to): (Vec<Component>, Vec<Component>) =
        (from.components().collect(), to.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path: PathBuf = std::iter::repeat_n(Component::ParentDir, from.len() - common)
        .chain(to[common..].iter().copied())
        .collect();
    if path.as_os_str().is_empty() {
        path.push(".");
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_from_a_folder_goes_up_as_far_as_they_differ() {
        let cases = [
            ("/p/d", "/p/d/x.py", "x.py"),
            ("/p/d", "/p/bots/x.py", "../bots/x.py"),
            ("/p/d", "/p/d", "."),
            ("/p/d", "/usr/bin/python3", "../../usr/bin/python3"),
            ("/", "/p/x", "p/x"),
        ];
        for (from, to, expected) in cases {
            assert_eq!(
                relative(Path::new(from), Path::new(to)),
                Path::new(expected),
                "{to} from {from}"
            );
        }
    }

    fn file(path: &str, from_spec: &str) -> Word {
        Word::File {
            path: path.into(),
            from_spec: from_spec.into(),
        }
    }

    /// A file is the same when either its path or its path from the spec is; a word as written
    /// only when it is written the same.
    #[test]
    fn a_file_moved_with_its_spec_is_the_same_setting() {
        let was = |w: Vec<Word>| Settings::from([("command".to_string(), Value::Words(w))]);
        let python = || Word::Text("python3".into());
        let at_p = was(vec![python(), file("/p/d/x.py", "x.py")]);
        let moved = was(vec![python(), file("/q/d/x.py", "x.py")]);
        let spec_moved = was(vec![python(), file("/p/d/x.py", "../d/x.py")]);
        let other = was(vec![python(), file("/q/d/y.py", "y.py")]);
        assert_eq!(changes(&at_p, &moved), []);
        assert_eq!(changes(&at_p, &spec_moved), []);
        assert_eq!(
            changes(&at_p, &other),
            [(
                "command".to_string(),
                "python3 /p/d/x.py".to_string(),
                "python3 /q/d/y.py".to_string()
            )]
        );
        let unset = Settings::new();
        assert_eq!(
            changes(&at_p, &unset),
            [(
                "command".to_string(),
                "python3 /p/d/x.py".to_string(),
                "none".to_string()
            )]
        );
    }
}
