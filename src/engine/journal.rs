//! `games.csv` as games finish, for `arena run` and `arena duel` alike: a finished game counts
//! once its log is synced, then its row appended to games.csv and synced.
//!
//! Games that finish within `BATCH` of each other, or while the games before them are being
//! written, share one trip to the disk (one `fdatasync` of games.csv; from three logs on, one
//! pass of the file system for the logs: `log::finish_all`), on the blocking pool, while the next
//! games play. A row goes to disk as soon as its batch does, never held back behind a slower
//! game with a smaller id: rows are in the order the games were recorded, which under parallel
//! games is not their ids' (every reader goes by `id` and `round`, docs/outputs.md).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::disk;
use crate::error::{Error, Result};
use crate::referee::{GameRecord, Played};
use crate::report::{self, GameRow};

/// How long a trip to the disk waits, after the first game of its batch, for others to join it.
const BATCH: Duration = Duration::from_millis(20);

/// Work done on the blocking pool in a trip, after its rows are on disk (a run's tables).
pub type Also = Box<dyn FnOnce() -> Result<()> + Send>;

/// What a trip to the disk did with its games, each with the tag it was pushed with.
pub enum Trip<T> {
    /// On disk: they count from now on. And how `Also` went, if there was one.
    Recorded(Vec<(T, GameRecord, GameRow)>, Option<Result<()>>),
    /// A log or games.csv could not be written: these games do not count.
    Unrecorded(Vec<T>, Error),
}

/// The trip under way: the work on the blocking pool, and its games' tags and rows.
type Writing<T> = (
    JoinHandle<Result<(Vec<GameRecord>, Option<Result<()>>)>>,
    Vec<T>,
    Vec<GameRow>,
);

/// A results folder's games.csv, open for appending, and the finished games on their way to it.
pub struct Journal<T> {
    path: PathBuf,
    file: Arc<File>,
    /// Finished games not yet on their way, and when their trip is due.
    waiting: Vec<(T, Played, GameRow)>,
    due: Instant,
    writing: Option<Writing<T>>,
}

impl<T: Send + 'static> Journal<T> {
    /// Open `path` for appending, with the rows it holds: a last line cut short by a process
    /// killed as it wrote it is cut off, and an empty or missing file gets its header.
    pub fn open(path: &Path, players: usize) -> Result<(Journal<T>, Vec<GameRow>)> {
        if path.exists() {
            repair_torn_tail(path)?;
        }
        // A run killed as it made the file may have left it empty: it gets its header again.
        let empty = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
        let rows = if !empty {
            let dir = path.parent().unwrap_or(Path::new("."));
            let mut rows = report::read_folder_games(dir)?;
            // Read once: the games played from now on bring theirs with their records.
            report::times::fill(&mut rows, &report::logs::Logs::Own(dir.to_path_buf()));
            if let Some(row) = rows.iter().find(|r| r.players() != players) {
                return Err(Error::Conflict(format!(
                    "{} holds games of {} players, and these are of {players}: use another \
                     --out",
                    path.display(),
                    row.players()
                )));
            }
            rows
        } else {
            crate::files::create_anew(path)
                .and_then(|(mut file, _)| file.write_all(report::games::header(players).as_bytes()))
                .map_err(Error::io(format!("creating {}", path.display())))?;
            Vec::new()
        };
        let file = crate::files::open(crate::files::options().append(true), path)
            .map_err(Error::io(format!("opening {}", path.display())))?;
        let journal = Journal {
            path: path.to_path_buf(),
            file: Arc::new(file),
            waiting: Vec::new(),
            due: Instant::now(),
            writing: None,
        };
        Ok((journal, rows))
    }

    /// A finished game whose bots' stderr is all in its files (`Played::settle`), and its row.
    pub fn push(&mut self, tag: T, played: Played, row: GameRow) {
        if self.waiting.is_empty() {
            self.due = Instant::now() + BATCH;
        }
        self.waiting.push((tag, played, row));
    }

    /// Whether every game pushed has been through its trip.
    pub fn is_idle(&self) -> bool {
        self.waiting.is_empty() && self.writing.is_none()
    }

    /// The next trip's outcome: the one under way, or the next one once due (at once when
    /// `closing`: no more games will come). `also` is given the rows of a trip as it starts, and
    /// may return work to do after them. Never ready while there is nothing to write; safe to
    /// drop unfinished (in `select!`): a trip under way is kept, and finished by the next call.
    pub async fn next(
        &mut self,
        closing: bool,
        also: impl FnOnce(&[GameRow]) -> Option<Also>,
    ) -> Trip<T> {
        if self.writing.is_none() {
            if self.waiting.is_empty() {
                return std::future::pending().await;
            }
            if !closing {
                tokio::time::sleep_until(self.due).await;
            }
            self.start(also);
        }
        let (handle, ..) = self.writing.as_mut().expect("a trip under way");
        let written = handle.await;
        let (_, tags, rows) = self.writing.take().expect("a trip under way");
        let written = written.unwrap_or_else(|e| {
            Err(Error::Internal(format!(
                "writing to {}: {e}",
                self.path.display()
            )))
        });
        match written {
            Ok((records, also)) => Trip::Recorded(
                tags.into_iter()
                    .zip(records)
                    .zip(rows)
                    .map(|((tag, record), row)| (tag, record, row))
                    .collect(),
                also,
            ),
            Err(e) => Trip::Unrecorded(tags, e),
        }
    }

    /// Send the waiting games to the disk: their logs, then their rows, then `also`'s work.
    fn start(&mut self, also: impl FnOnce(&[GameRow]) -> Option<Also>) {
        let (mut tags, mut played, mut rows) = (Vec::new(), Vec::new(), Vec::new());
        for (tag, game, row) in std::mem::take(&mut self.waiting) {
            tags.push(tag);
            played.push(game);
            rows.push(row);
        }
        let bytes: Vec<u8> = rows.iter().flat_map(report::csv_line).collect();
        let also = also(&rows);
        let file = self.file.clone();
        let context = format!("appending to {}", self.path.display());
        let handle = tokio::task::spawn_blocking(move || {
            let records = Played::finish_all(played)?;
            disk::append_synced(&file, &bytes).map_err(Error::io(context))?;
            Ok((records, also.map(|work| work())))
        });
        self.writing = Some((handle, tags, rows));
    }
}

/// A run killed while appending can leave half a line at the end of `games.csv`: that game was
/// not finished on disk, so it is cut off (a resume plays it again). A whole row that only lacks
/// its newline (an edit by hand) stays, and gets its newline before more rows follow it.
fn repair_torn_tail(path: &Path) -> Result<()> {
    let bytes = crate::files::read_folder_file(path, crate::files::MOST_GAMES_CSV)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let context = || format!("repairing {}", path.display());
    let header = bytes.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep > 0 && report::is_whole_row(&bytes[..header], &bytes[keep..]) {
        let mut file = crate::files::open(crate::files::options().append(true), path)
            .map_err(Error::io(context()))?;
        return file
            .write_all(b"\n")
            .and_then(|_| file.sync_data())
            .map_err(Error::io(context()));
    }
    let file = crate::files::open(crate::files::options().write(true), path)
        .map_err(Error::io(context()))?;
    file.set_len(keep as u64)
        .and_then(|_| file.sync_data())
        .map_err(Error::io(context()))?;
    eprintln!(
        "arena: {}: removed an unfinished last line (a run was killed while writing it)",
        path.display()
    );
    Ok(())
}
