//! `arena ratings ... --out DIR`: the shards' games as one results folder, what one unsharded
//! run writes: `games.csv` (each log leading to its shard's, relative to DIR, so that the
//! folders can move together), `merged.json` (the shards, and their run for the grades), the
//! tables, `grades.csv` for a gauntlet, and `report.html`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::report::derived::{Gauntlet, Inputs, Which, write_tables};
use crate::report::grades::Lineup;
use crate::report::logs::{Logs, Merged, lineup, relative};
use crate::report::{GameRow, games_csv, write_atomic};
use crate::tournament::Shard;
use crate::tournament::record::Record;

/// One `games.csv` given, and its games.
pub struct Input {
    pub file: PathBuf,
    pub rows: Vec<GameRow>,
}

impl Input {
    /// The folder the file is in.
    fn folder(&self) -> &Path {
        match self.file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        }
    }
}

/// Write the merged folder `dir` from `inputs`, unless their games cannot be one run's there
/// (`not_one_run`), which is said: the caller writes the tables either way.
pub fn write(dir: &Path, inputs: &[Input]) -> Result<()> {
    let here = canonical(dir)?;
    if let Some(why) = not_one_run(&here, inputs)? {
        crate::out::warn(&format!(
            "arena: {why}: only the standings and crosstable are written to {}",
            dir.display()
        ));
        return Ok(());
    }
    let mut rows = Vec::new();
    for input in inputs {
        let folder = canonical(input.folder())?;
        let logs = Logs::of(input.folder(), &input.rows)?;
        let to = relative(&here, &folder);
        rows.extend(input.rows.iter().map(|row| GameRow {
            log: to.join(logs.link(row)).display().to_string(),
            ..row.clone()
        }));
    }
    rows.sort_by_key(|r| r.id);
    let shards: BTreeSet<String> = rows
        .iter()
        .filter_map(|r| Some(Path::new(&r.log).parent()?.parent()?.display().to_string()))
        .collect();
    let run = run_of(inputs);
    let players = rows.first().map_or(2, GameRow::players);
    write_atomic(&dir.join("games.csv"), &games_csv(players, &rows))?;
    Merged {
        shards: shards.into_iter().collect(),
        run: run.clone(),
    }
    .save(dir)?;
    let gauntlet = match run.as_ref().and_then(Lineup::gauntlet) {
        Some((students, references)) => Some(Gauntlet {
            students,
            references,
            logs: Logs::of(dir, &rows)?,
        }),
        None => None,
    };
    // The tables every folder has are the caller's; these are a whole run's.
    let names = crate::report::bot_names(&[], &rows);
    let inputs = Inputs {
        names: &names,
        rows: &rows,
        players,
        gauntlet,
    };
    write_tables(dir, &inputs, Which::Optional)?;
    match rows.is_empty() {
        true => Ok(()),
        false => {
            let (page, _) = crate::report::html::write_folder(dir, None)?;
            eprintln!("arena: report in {}", page.display());
            Ok(())
        }
    }
}

/// Why `input` is not a results folder's own `games.csv`, whose logs are beside it in `logs/`.
fn not_a_folders(input: &Input) -> Result<Option<String>> {
    let logs_dir = input.folder().join("logs");
    if input.file.file_name() != Some("games.csv".as_ref()) {
        return Ok(Some(format!(
            "{} is not named games.csv, so it is no results folder's own (a merged report \
             reads each shard's folder)",
            input.file.display()
        )));
    }
    let logs = Logs::of(input.folder(), &input.rows)?;
    let found = |row: &GameRow| logs.file(row).is_ok_and(|f| f.is_file());
    if !input.rows.is_empty() && !input.rows.iter().any(found) {
        return Ok(Some(format!(
            "the logs of {} are not beside it (none in {})",
            input.file.display(),
            logs_dir.display()
        )));
    }
    Ok(None)
}

fn canonical(dir: &Path) -> Result<PathBuf> {
    std::fs::canonicalize(dir).map_err(Error::io(format!("resolving {}", dir.display())))
}

/// Why the inputs' games cannot be written as one run's into the folder `here`: it is a run's
/// own (its `run.json` and `logs` are not to be mixed with others'), or an input's; an input is
/// not a results folder's `games.csv` with its logs beside it (a copy elsewhere: the merged
/// report leads to the shards' folders); or a game id is in two files (ladders, or runs of other
/// specs).
fn not_one_run(here: &Path, inputs: &[Input]) -> Result<Option<String>> {
    if here.join("run.json").exists() {
        return Ok(Some(format!("{} is a run's folder", here.display())));
    }
    let mut seen = std::collections::BTreeMap::new();
    for input in inputs {
        if canonical(input.folder())? == here {
            return Ok(Some(format!("{} is in the folder", input.file.display())));
        }
        if let Some(why) = not_a_folders(input)? {
            return Ok(Some(why));
        }
        for row in &input.rows {
            if let Some(first) = seen.insert(row.id, &input.file) {
                return Ok(Some(format!(
                    "game {} is in {} and {}: they are not the shards of one run",
                    row.id,
                    first.display(),
                    input.file.display()
                )));
            }
        }
    }
    Ok(None)
}

/// The run the shards played, when every folder records it (`run.json`, or a merged folder's)
/// and all the same; a gauntlet's grades need its references. Said when one is missing or
/// differs in a gauntlet, which then has no grades.
fn run_of(inputs: &[Input]) -> Option<Lineup> {
    let lineups: Vec<Option<Lineup>> = inputs.iter().map(|i| lineup(i.folder())).collect();
    let gauntlet = lineups.iter().flatten().any(|l| l.gauntlet().is_some());
    let first = lineups.first()?.clone();
    let odd = inputs
        .iter()
        .zip(&lineups)
        .find(|(_, l)| **l != first || l.is_none());
    match odd {
        None => first,
        Some((input, l)) => {
            if gauntlet {
                let why = match l {
                    None => "has no run.json to name the reference bots",
                    Some(_) => "played another run (its run.json's format or bots differ)",
                };
                crate::out::warn(&format!(
                    "arena: {} {why}: no grades.csv",
                    input.folder().display()
                ));
            }
            None
        }
    }
}

/// The shards among `inputs`, checked. When one is a shard (its folder's `run.json` says which:
/// `--shard K/N`), every one must be a shard of the same run: the same spec (game, parameters,
/// seed, format, settings, bots and their commands, as a resume compares them:
/// `Record::differs`), split the same way, each slice once. Returns the slices not given, in
/// order; none when the set is whole or no input is a shard (ladders, runs from before shards
/// were recorded: anything may be rated together).
pub fn missing_shards(inputs: &[Input]) -> Result<Vec<Shard>> {
    let records: Vec<Option<Record>> = inputs
        .iter()
        .map(|i| Record::read(i.folder()))
        .collect::<Result<_>>()?;
    let Some((first, record, shard)) = inputs
        .iter()
        .zip(&records)
        .find_map(|(i, r)| Some((i, r.as_ref()?, r.as_ref()?.shard?)))
    else {
        return Ok(Vec::new());
    };
    let not_one_run = |input: &Input, why: String| {
        Err(Error::Usage(format!(
            "{} is not a shard of the run of {} (shard {shard}): {why}; merge the shards of \
             one run",
            input.file.display(),
            first.file.display()
        )))
    };
    let mut given = std::collections::BTreeMap::new();
    for (input, other) in inputs.iter().zip(&records) {
        let Some(other) = other else {
            return not_one_run(input, format!("{} has no run.json", input.folder().display()));
        };
        let Some(theirs) = other.shard else {
            return not_one_run(
                input,
                "its run.json records a whole run (or a shard from before arena recorded \
                 shards)"
                    .into(),
            );
        };
        let changed = record.differs(other);
        if !changed.is_empty() {
            let said = |pick: fn(&(String, String, String)) -> &String| {
                let all: Vec<String> = changed
                    .iter()
                    .map(|c| format!("{} = {}", c.0, pick(c)))
                    .collect();
                all.join(", ")
            };
            return not_one_run(
                input,
                format!(
                    "it was played with {}, and the other with {}",
                    said(|c| &c.2),
                    said(|c| &c.1)
                ),
            );
        }
        if theirs.count != shard.count {
            return not_one_run(
                input,
                format!("it is shard {theirs}, of another split of the games"),
            );
        }
        if let Some(twice) = given.insert(theirs.index, input) {
            return Err(Error::Usage(format!(
                "{} and {} are both shard {theirs}: each shard is given once",
                twice.file.display(),
                input.file.display()
            )));
        }
    }
    Ok((1..=shard.count)
        .filter(|k| !given.contains_key(k))
        .map(|index| Shard {
            index,
            count: shard.count,
        })
        .collect())
}
