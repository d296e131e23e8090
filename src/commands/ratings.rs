//! `arena ratings GAMES.csv...`: the standings over every record given, as `arena run` computes
//! them, merged from shards and ladder runs; with `--out`, shards merged into one results folder
//! (`merge`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::report::derived::{Inputs, Which, write_tables};
use crate::report::{GameRow, bot_names, read_games, standings, standings_text};
use merge::Input;

mod merge;

/// `arena ratings GAMES.csv...`: the standings over every record, as `arena run` computes them.
/// Shards must be of one run; with `out`, all of them, unless `partial` (then only the
/// standings and crosstable are written, as for a ladder).
pub fn run(files: &[PathBuf], out: Option<&Path>, partial: bool) -> Result<()> {
    let mut inputs = Vec::new();
    // Files of one number of players: a game of four and a game of two are not the same game
    // (their points and ratings mean other things), and a table of both would mix them.
    let mut players: Option<(usize, &Path)> = None;
    // A results folder stands for its games.csv.
    let files: Vec<PathBuf> = files
        .iter()
        .map(|f| match f.is_dir() {
            true => f.join("games.csv"),
            false => f.clone(),
        })
        .collect();
    for f in &files {
        let mut rows = read_games(f).map_err(|e| other_kind(f, e))?;
        // The answer times are in the logs beside the file, as the report reads them.
        let folder = f.parent().unwrap_or(Path::new("."));
        if let Ok(logs) = crate::report::logs::Logs::of(folder, &rows) {
            crate::report::times::fill(&mut rows, &logs);
        }
        if let Some(n) = rows.first().map(|r| r.players()) {
            match players {
                Some((m, first)) if m != n => {
                    return Err(Error::Usage(format!(
                        "{} holds games of {n} players and {} games of {m}: rate the games of \
                         each number of players apart",
                        f.display(),
                        first.display()
                    )));
                }
                None => players = Some((n, f.as_path())),
                _ => {}
            }
        }
        inputs.push(Input {
            file: f.clone(),
            rows,
        });
    }
    // Shards of other runs, or of another split, are told as such before their games.
    let missing = merge::missing_shards(&inputs)?;
    // Shards and ladders merge; the same file given twice would count its games twice.
    let mut seen: BTreeMap<(u64, u64, Vec<String>), &Path> = BTreeMap::new();
    for input in &inputs {
        for row in &input.rows {
            let key = (row.id, row.seed, row.seats.clone());
            if let Some(first) = seen.insert(key, input.file.as_path()) {
                return Err(Error::Usage(format!(
                    "{}: game {} is also in {}: the same game would count twice",
                    input.file.display(),
                    row.id,
                    first.display()
                )));
            }
        }
    }
    let whole = missing.is_empty();
    if !whole {
        let missing: Vec<String> = missing.iter().map(|s| s.to_string()).collect();
        let said = format!(
            "shard{} {} of the run {} not given: every bot is rated on part of its games",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" },
        );
        match (out, partial) {
            (Some(_), false) => {
                return Err(Error::Usage(format!(
                    "{said}; give every shard, or --partial to write only the standings and \
                     crosstable"
                )));
            }
            (Some(dir), true) => crate::out::warn(&format!(
                "arena: {said}: only the standings and crosstable are written to {}",
                dir.display()
            )),
            (None, _) => crate::out::warn(&format!("arena: {said}")),
        }
    }
    let rows: Vec<GameRow> = inputs.iter().flat_map(|i| i.rows.iter().cloned()).collect();
    let names = bot_names(&[], &rows);
    let table = standings(&names, &rows, rows.first().map_or(2, GameRow::players));
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(Error::io(format!("creating {}", dir.display())))?;
        let made_from = Inputs {
            names: &names,
            rows: &rows,
            players: rows.first().map_or(2, GameRow::players),
            gauntlet: None,
        };
        write_tables(dir, &made_from, Which::Required)?;
        if whole {
            merge::write(dir, &inputs)?;
        }
    }
    eprintln!("arena: {} games from {} file(s)", rows.len(), files.len());
    crate::out::text(&standings_text(&table));
    Ok(())
}

/// A file that is not a games.csv at all (a log, a spec) is told so, rather than by its first
/// line's fault.
fn other_kind(path: &Path, e: Error) -> Error {
    use crate::file_kind::{self, Kind};
    match e {
        Error::Corrupt(_) => match file_kind::of_file(path) {
            Kind::GamesCsv => e,
            kind => Error::Usage(file_kind::refused(
                path,
                kind,
                "an arena games.csv",
                "ratings takes the games.csv of a results folder",
            )),
        },
        e => e,
    }
}
