//! `arena report DIR`: the HTML report of a results folder, written again from its records.

use std::path::Path;

use crate::error::{Error, Result};
use crate::games::find_game;
use crate::referee::log::read_header;
use crate::report::html::{ReportInput, write};
use crate::report::logs::Logs;
use crate::report::{bot_names, read_folder_games};

/// `arena report DIR`: the page again from what the folder holds. The game and its parameters
/// come from the first game's log; the spec is not needed.
pub fn run(dir: &Path, title: Option<String>) -> Result<()> {
    let games = dir.join("games.csv");
    let rows = read_folder_games(dir)?;
    let Some(first) = rows.first() else {
        return Err(Error::Usage(format!(
            "{}: no games yet, nothing to report",
            games.display()
        )));
    };
    // The game and its parameters, from the first game's log that may be read: the folder's
    // own, or a shard's.
    let logs = Logs::of(dir, &rows)?;
    let log = rows
        .iter()
        .find_map(|r| logs.file(r).ok())
        .map_or_else(|| logs.file(first).map_err(Error::Corrupt), Ok)?;
    let header = read_header(&log)?;
    let game = find_game(&header.game).map_err(Error::Usage)?;
    let names = bot_names(&[], &rows);
    let started = std::time::Instant::now();
    let page = write(
        dir,
        &ReportInput {
            title: title.unwrap_or_else(|| {
                std::path::absolute(dir)
                    .ok()
                    .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_else(|| "arena".into())
            }),
            game,
            params: header.params.pairs(),
            format: "results",
            names: &names,
            rows: &rows,
        },
        Default::default(),
    )?;
    eprintln!(
        "arena: {} games in {} ({:.2} s)",
        rows.len(),
        page.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
