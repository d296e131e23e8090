//! `arena ratings GAMES.csv...`: the standings over every record given, as `arena run` computes
//! them, merged from shards and ladder runs; with `--out`, shards merged into one results folder
//! (`merge`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::report::{
    GameRow, bot_names, crosstable_csv, read_games, standings, standings_csv, standings_text,
    write_atomic,
};
use merge::Input;

mod merge;

/// `arena ratings GAMES.csv...`: the standings over every record, as `arena run` computes them.
pub fn run(files: &[PathBuf], out: Option<&Path>) -> Result<()> {
    let mut inputs = Vec::new();
    // Shards and ladders merge; the same file given twice would count its games twice.
    let mut seen: BTreeMap<(u64, u64, Vec<String>), &Path> = BTreeMap::new();
    // Files of one number of players: a game of four and a game of two are not the same game
    // (their points and ratings mean other things), and a table of both would mix them.
    let mut players: Option<(usize, &Path)> = None;
    for f in files {
        let rows_of = read_games(f).map_err(|e| other_kind(f, e))?;
        if let Some(n) = rows_of.first().map(|r| r.players()) {
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
        for row in &rows_of {
            let key = (row.id, row.seed, row.seats.clone());
            if let Some(first) = seen.insert(key, f.as_path()) {
                return Err(Error::Usage(format!(
                    "{}: game {} is also in {}: the same game would count twice",
                    f.display(),
                    row.id,
                    first.display()
                )));
            }
        }
        inputs.push(Input {
            file: f.clone(),
            rows: rows_of,
        });
    }
    let rows: Vec<GameRow> = inputs.iter().flat_map(|i| i.rows.iter().cloned()).collect();
    let names = bot_names(&[], &rows);
    let table = standings(&names, &rows, rows.first().map_or(2, GameRow::players));
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(Error::io(format!("creating {}", dir.display())))?;
        write_atomic(&dir.join("standings.csv"), &standings_csv(&table))?;
        write_atomic(&dir.join("crosstable.csv"), &crosstable_csv(&names, &rows))?;
        merge::write(dir, &inputs)?;
    }
    eprintln!("arena: {} games from {} file(s)", rows.len(), files.len());
    crate::out::text(&standings_text(&table));
    Ok(())
}

/// A file that is not a games.csv at all (a log, a spec) is told so, rather than by its first
/// line's fault.
fn other_kind(path: &Path, e: Error) -> Error {
    use crate::file_kind::{self, Kind};
    match (e, file_kind::of_file(path)) {
        (Error::Corrupt(_), kind) if kind != Kind::GamesCsv => Error::Usage(file_kind::refused(
            path,
            kind,
            "an arena games.csv",
            "ratings takes the games.csv of a results folder",
        )),
        (e, _) => e,
    }
}
