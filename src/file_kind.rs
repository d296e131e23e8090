//! Which of arena's files a file is, from its beginning: to tell a user who gave a command
//! another command's file what it is and what takes it, rather than the first line a parser
//! stumbled on.

use std::io::Read;
use std::path::Path;

/// The kinds of file arena reads that a user names on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A game's log: a first line `{"header":...}`.
    GameLog,
    /// A `games.csv`: a first line `id,round,...`.
    GamesCsv,
    /// A tournament spec: TOML with a `game`, a `[referee]` or `[[bot]]`s.
    Spec,
    /// A report: an HTML page.
    Report,
    Other,
}

impl Kind {
    /// What the file is and which command takes it, for a message: "a games.csv (arena ratings
    /// reads it)". `None` for a file of no kind arena knows.
    pub fn described(self) -> Option<&'static str> {
        match self {
            Kind::GameLog => Some("a game log (arena replay reads it)"),
            Kind::GamesCsv => Some("a games.csv (arena ratings reads it)"),
            Kind::Spec => Some("a tournament spec (arena run plays it)"),
            Kind::Report => Some("a report page (a browser shows it)"),
            Kind::Other => None,
        }
    }
}

/// The words for a command given the file at `path`, of `kind`, where it reads `wanted`: "t.toml:
/// not an arena game log; it is a tournament spec (arena run plays it): replay takes ...".
pub fn refused(path: &Path, kind: Kind, wanted: &str, takes: &str) -> String {
    let is = kind.described().map(|d| format!("; it is {d}"));
    format!(
        "{}: not {wanted}{}: {takes}",
        path.display(),
        is.unwrap_or_default()
    )
}

/// A spec or a log's header is far shorter; a file is not read whole to be named.
const LOOKED_AT: u64 = 1 << 20;

/// The kind of the file at `path`, from its first MiB; `Other` if it cannot be read, or is not a
/// regular file (a FIFO is not waited on).
pub fn of_file(path: &Path) -> Kind {
    use std::os::unix::fs::OpenOptionsExt;
    let mut start = Vec::new();
    let read = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .and_then(|f| match f.metadata()?.is_file() {
            true => f.take(LOOKED_AT).read_to_end(&mut start),
            false => Err(std::io::Error::other("not a regular file")),
        });
    match read {
        Ok(_) => of_text(&String::from_utf8_lossy(&start)),
        Err(_) => Kind::Other,
    }
}

/// The kind of a file that begins with `text`.
pub fn of_text(text: &str) -> Kind {
    let first = text
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches('\u{feff}');
    let header = serde_json::from_str::<serde_json::Value>(first)
        .is_ok_and(|v| v.get("header").is_some_and(|h| h.is_object()));
    if header {
        return Kind::GameLog;
    }
    if first.starts_with("id,round,") {
        return Kind::GamesCsv;
    }
    let lower = first.trim_start().to_ascii_lowercase();
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        return Kind::Report;
    }
    match text.parse::<toml::Table>() {
        Ok(t)
            if ["game", "referee", "bot"]
                .iter()
                .any(|k| t.contains_key(*k)) =>
        {
            Kind::Spec
        }
        _ => Kind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_told_by_its_beginning() {
        let log = "{\"header\":{\"game\":\"nim\"}}\n{\"t\":1,\"from\":0,\"line\":\"1\"}\n";
        assert_eq!(of_text(log), Kind::GameLog);
        assert_eq!(of_text("id,round,seat0,seat1\n1,1,a,b\n"), Kind::GamesCsv);
        assert_eq!(of_text("name = \"x\"\ngame = \"nim\"\n"), Kind::Spec);
        assert_eq!(of_text("[[bot]]\nname = \"a\"\n"), Kind::Spec);
        assert_eq!(of_text("<!DOCTYPE html>\n<html>"), Kind::Report);
        assert_eq!(of_text("{\"result\":{}}\n"), Kind::Other);
        assert_eq!(of_text("hello = 1\n"), Kind::Other);
        assert_eq!(of_text(""), Kind::Other);
    }
}
