//! Where a results folder's game logs are. A run's folder holds its own, in `logs`: the report
//! reads `DIR/logs/NAME`, whatever path `games.csv` records (that is where the folder was when
//! the games were played; in a forged `games.csv`, any file at all). A folder merged from shards
//! (`arena ratings --out`) holds none: its `games.csv` leads to each shard's logs, relative to
//! itself, and its `merged.json` lists the shards. Of those, the report opens a log only in a
//! listed shard whose own `games.csv` records that very game, and only as it opens its own
//! (`files::open_log_file`: no link, regular files only).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::GameRow;
use super::grades::Lineup;
use crate::error::{Error, Result};

pub const MERGED: &str = "merged.json";

/// `merged.json`: what a merged folder was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Merged {
    /// The shards' folders, relative to the merged folder.
    pub shards: Vec<String>,
    /// The shards' run, when each had a record and all were the same: the grades need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<Lineup>,
}

impl Merged {
    /// The folder's `merged.json`, read never through a link; none in a run's own folder.
    pub fn read(dir: &Path) -> Result<Option<Merged>> {
        let path = dir.join(MERGED);
        match crate::files::read_folder_file(&path, crate::files::MOST_RECORD) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| Error::Corrupt(format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io(format!("reading {}", path.display()))(e)),
        }
    }

    pub fn save(&self, dir: &Path) -> Result<()> {
        let mut text = serde_json::to_vec_pretty(self).expect("a record serialises");
        text.push(b'\n');
        super::write_atomic(&dir.join(MERGED), &text)
    }
}

/// The lineup of a folder's games: its `run.json`'s, or a merged folder's shards'.
pub fn lineup(dir: &Path) -> Option<Lineup> {
    match Merged::read(dir) {
        Ok(Some(merged)) => merged.run,
        _ => Lineup::of_run(dir),
    }
}

/// Where each game's log is read.
pub enum Logs {
    /// A run's folder: its own `logs`.
    Own(PathBuf),
    /// A merged folder: by the log's path as `games.csv` gives it, the file to read, or why it
    /// is not read.
    Merged {
        dir: PathBuf,
        files: HashMap<String, std::result::Result<PathBuf, String>>,
    },
}

impl Logs {
    /// The logs of `rows`, the games of the folder `dir`.
    pub fn of(dir: &Path, rows: &[GameRow]) -> Result<Logs> {
        Ok(match Merged::read(dir)? {
            None => Logs::Own(dir.to_path_buf()),
            Some(merged) => Logs::Merged {
                dir: dir.to_path_buf(),
                files: vouched(dir, &merged, rows),
            },
        })
    }

    /// The file to read for a row's log, or why it is not read.
    pub fn file(&self, row: &GameRow) -> std::result::Result<PathBuf, String> {
        match self {
            Logs::Own(dir) => Ok(dir.join("logs").join(log_name(row))),
            Logs::Merged { files, .. } => files.get(&row.log).cloned().unwrap_or_else(|| {
                Err(format!(
                    "game {} is not a game of the merged games.csv",
                    row.id
                ))
            }),
        }
    }

    /// The log's link, relative to the folder (and its report page).
    pub fn link(&self, row: &GameRow) -> String {
        match self {
            Logs::Own(_) => Path::new("logs").join(log_name(row)).display().to_string(),
            Logs::Merged { .. } => row.log.clone(),
        }
    }
}

/// The log's file name as the row records it (`read_games` checked it is the game's).
fn log_name(row: &GameRow) -> &std::ffi::OsStr {
    Path::new(&row.log).file_name().unwrap_or_default()
}

/// The shard folder of a merged row's log `SHARD/logs/game-N.jsonl`: `SHARD`.
fn shard_of(log: &str) -> &Path {
    Path::new(log)
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new(""))
}

/// Each row's log in a merged folder, read only when its shard is listed in `merged.json`, its
/// path from the merged folder holds no link (`files::no_link_below`), and its own `games.csv`
/// records the same game (id, seed and bots).
fn vouched(
    dir: &Path,
    merged: &Merged,
    rows: &[GameRow],
) -> HashMap<String, std::result::Result<PathBuf, String>> {
    let listed: BTreeSet<&Path> = merged.shards.iter().map(Path::new).collect();
    let mut read: BTreeMap<&Path, std::result::Result<Vec<GameRow>, String>> = BTreeMap::new();
    for shard in rows.iter().map(|r| shard_of(&r.log)) {
        if listed.contains(shard) && !read.contains_key(shard) {
            // Followed only where it holds no link (`evil -> ../private` would put another
            // folder's logs and stderr in the page), and never from an absolute path.
            let games = crate::files::no_link_below(dir, shard)
                .map_err(|e| format!("the shard {} in {}: {e}", shard.display(), dir.join(MERGED).display()))
                .and_then(|_| super::read_folder_games(&dir.join(shard)).map_err(|e| e.to_string()));
            read.insert(shard, games);
        }
    }
    let key = |g: &GameRow| -> (u64, u64, Vec<String>) { (g.id, g.seed, g.seats.clone()) };
    let shards: BTreeMap<&Path, std::result::Result<BTreeSet<_>, &String>> = read
        .iter()
        .map(|(s, games)| (*s, games.as_ref().map(|g| g.iter().map(key).collect())))
        .collect();
    rows.iter()
        .map(|row| {
            let shard = shard_of(&row.log);
            let file = match shards.get(shard) {
                None => Err(format!(
                    "the log of game {} is in {}, not in a shard {} lists",
                    row.id,
                    shard.display(),
                    dir.join(MERGED).display()
                )),
                Some(Err(e)) => Err(e.to_string()),
                Some(Ok(games)) if games.contains(&key(row)) => Ok(dir.join(&row.log)),
                Some(Ok(_)) => Err(format!(
                    "{} does not record game {} as the merged games.csv does",
                    dir.join(shard).join("games.csv").display(),
                    row.id
                )),
            };
            (row.log.clone(), file)
        })
        .collect()
}

/// The path to `to` from `from`, both canonical (absolute, without links, `.` or `..`).
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path: PathBuf = from[common..]
        .iter()
        .map(|_| Component::ParentDir)
        .collect();
    path.extend(&to[common..]);
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_to_the_common_folder() {
        let r = |a: &str, b: &str| relative(Path::new(a), Path::new(b)).display().to_string();
        assert_eq!(r("/w/merged", "/w/shards/1"), "../shards/1");
        assert_eq!(r("/w/a/b", "/w/c"), "../../c");
        assert_eq!(r("/w", "/w/shards/2"), "shards/2");
        assert_eq!(r("/w/x", "/w/x"), "");
    }

    #[test]
    fn a_merged_row_leads_to_its_shard() {
        assert_eq!(
            shard_of("../shards/1/logs/game-00001.jsonl"),
            Path::new("../shards/1")
        );
        assert_eq!(shard_of("logs/game-00001.jsonl"), Path::new(""));
    }
}
