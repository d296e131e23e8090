//! `report.html`: one self-contained page per results folder (no network, no other files):
//! standings with error bars, the crosstable, rating progress, failures, every game, and a viewer
//! that steps through any game with its board and the bots' stderr.
//!
//! The page is a fixed template (assets/) filled with two blocks of data: a small JSON document
//! for the tables, and one compressed line per game for the viewer, which the page unpacks only
//! when that game is opened. So a report of 10,000 games opens in well under a second.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::games::GameInfo;
use crate::failure::Reason;
use crate::ratings;

use super::grades::{Grade, grades};
use super::logs::{Logs, lineup};
use super::pack::{Packer, unshowable};
use super::{
    GameRow, Standing, crosstable, game_scores, name_index, ranked_games, standings,
};

const TEMPLATE: &str = include_str!("assets/report.html");
const STYLE: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

/// More bots than this and the crosstable is left to `crosstable.csv`: a page of a million
/// cells helps no one.
const MAX_CROSSTABLE: usize = 100;
/// Points on the rating-progress chart at most (rounds are sampled evenly beyond it).
const MAX_PROGRESS_POINTS: usize = 100;

/// What a report is about.
pub struct ReportInput<'a> {
    pub title: String,
    pub game: &'static GameInfo,
    /// The game parameters as `key=value` pairs.
    pub params: Vec<(String, String)>,
    /// "round-robin", "gauntlet", "swiss" or "duel".
    pub format: &'a str,
    /// Every bot, in the spec's order.
    pub names: &'a [String],
    pub rows: &'a [GameRow],
    /// How many play each game.
    pub players: usize,
}

/// Games packed already, by the log's path as a row records it (`live`).
pub type Ready = HashMap<String, String>;

#[derive(Serialize)]
struct Progress {
    rounds: Vec<u32>,
    /// Per bot (indexed like `bots`), its Elo after each of `rounds`.
    elo: Vec<Vec<f64>>,
}

/// One game in the list: id, round, seat 0 and seat 1 (indices into `bots`), their scores,
/// reason, plies, duration in ms, and the log's path relative to the report.
#[derive(Serialize)]
/// `[id, round, [bot per seat], [points per seat], reason, plies, ms, log, [failed per seat],
/// [place per seat]]`, as the page reads it.
struct GameEntry<'a>(
    u64,
    u32,
    Vec<usize>,
    Vec<f64>,
    &'a str,
    u32,
    u64,
    String,
    Vec<bool>,
    &'a [u8],
);

#[derive(Serialize)]
struct PageData<'a> {
    title: &'a str,
    game: &'a str,
    summary: &'a str,
    format: &'a str,
    params: &'a [(String, String)],
    generated: String,
    arena: &'a str,
    bots: &'a [String],
    standings: Vec<Standing>,
    /// `[points, games]` of row bot against column bot; `None` when the field is too large.
    crosstable: Option<super::Crosstable>,
    progress: Progress,
    /// Per bot: games lost by timeout, crash, illegal move, protocol error.
    failures: Vec<[u32; 4]>,
    /// A gauntlet's grades: the students alone, against the references.
    grades: Option<GradesPage>,
    games: Vec<GameEntry<'a>>,
}

#[derive(Serialize)]
struct GradesPage {
    references: Vec<String>,
    students: Vec<Grade>,
}

impl GradesPage {
    /// The grades of a gauntlet's folder (its `run.json`, or its shards' when merged).
    fn of(dir: &Path, rows: &[GameRow], logs: &Logs) -> Option<GradesPage> {
        let (students, references) = lineup(dir)?.gauntlet()?;
        let students = grades(&students, &references, rows, logs);
        Some(GradesPage {
            references,
            students,
        })
    }
}

/// Elo after each round (cumulative), sampled to at most `MAX_PROGRESS_POINTS` rounds: from
/// the scores of two-player games, from the rankings of games of more (as the standings).
fn progress(names: &[String], rows: &[GameRow]) -> Progress {
    let index = name_index(names);
    let n = names.len();
    if rows.iter().all(|r| r.players() == 2) {
        let mut scores = game_scores(&index, rows);
        scores.sort_by_key(|s| s.round);
        return progress_of(n, &scores, |s| s.round, ratings::bradley_terry);
    }
    let mut games = ranked_games(&index, rows);
    games.sort_by_key(|g| g.round);
    progress_of(n, &games, |g| g.round, ratings::plackett_luce)
}

/// Elo of `n` bots after each sampled round of `games` (sorted by round), fitted by `fit`.
fn progress_of<G>(
    n: usize,
    games: &[G],
    round: impl Fn(&G) -> u32,
    fit: impl Fn(usize, &[G]) -> Vec<ratings::EloEstimate>,
) -> Progress {
    let mut rounds: Vec<u32> = games.iter().map(&round).collect();
    rounds.dedup();
    if rounds.len() > MAX_PROGRESS_POINTS {
        let len = rounds.len();
        rounds = (1..=MAX_PROGRESS_POINTS)
            .map(|k| rounds[k * len / MAX_PROGRESS_POINTS - 1])
            .collect();
    }
    let mut elo = vec![Vec::with_capacity(rounds.len()); n];
    for &r in &rounds {
        let upto = games.partition_point(|g| round(g) <= r);
        for (bot, e) in fit(n, &games[..upto]).into_iter().enumerate() {
            elo[bot].push((e.elo * 10.0).round() / 10.0);
        }
    }
    Progress { rounds, elo }
}

fn failures(names: &[String], rows: &[GameRow]) -> Vec<[u32; 4]> {
    let index = name_index(names);
    let mut counts = vec![[0u32; 4]; names.len()];
    for row in rows {
        for (name, fault) in row.seats.iter().zip(&row.faults) {
            let kind = match fault {
                Some(Reason::Timeout) => 0,
                Some(Reason::Crash | Reason::Memory) => 1,
                Some(Reason::Illegal) => 2,
                Some(_) => 3,
                None => continue,
            };
            counts[index[name.as_str()]][kind] += 1;
        }
    }
    counts
}

/// The files in the results folder's `logs`, listed once: the report looks for a log and two
/// stderr files per game, and most stderr files do not exist. One listing replaced three
/// lookups per game, two of them failing, in a folder of thousands of files.
struct Present {
    logs: PathBuf,
    names: std::collections::HashSet<std::ffi::OsString>,
}

impl Present {
    fn list(dir: &Path) -> Present {
        let logs = dir.join("logs");
        let names = std::fs::read_dir(&logs)
            .map(|entries| entries.filter_map(|e| Some(e.ok()?.file_name())).collect())
            .unwrap_or_default();
        Present { logs, names }
    }

    /// Whether a file is there: looked up in the listing when it is in `logs`, else asked.
    fn has(&self, path: &Path) -> bool {
        match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) if parent == self.logs => self.names.contains(name),
            _ => path.exists(),
        }
    }
}

/// One game for the viewer (`pack`). A game that cannot be drawn (even one a picture bug panics
/// on) is shown as such, and the run and the rest of the report go on.
fn pack(log: &Path, present: &Present) -> String {
    std::panic::catch_unwind(|| Packer::file(log, |p| present.has(p)))
        .unwrap_or_else(|_| drawing_failed(log))
}

/// What the viewer shows of a game whose drawing panicked.
pub fn drawing_failed(log: &Path) -> String {
    unshowable(&format!(
        "drawing {} failed (a bug in arena)",
        log.display()
    ))
}

/// Games packed at once by each core when the report packs them: a batch is written before
/// the next is packed, so that a report of many games holds a batch of packs, not all of them.
const PACK_BATCH: usize = 16;

/// Every game's pack, in the rows' order, a newline between each: those packed already
/// (`ready`, by the log's path as the row records it), the others packed here on all cores,
/// a batch at a time: replaying ten thousand logs is the report's main cost.
fn write_packed_games(
    out: &mut dyn Write,
    dir: &Path,
    logs: &Logs,
    rows: &[GameRow],
    ready: &mut Ready,
) -> std::io::Result<()> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let present = &Present::list(dir);
    for (b, batch) in rows.chunks(threads * PACK_BATCH).enumerate() {
        let mut packed: Vec<Option<String>> = batch.iter().map(|r| ready.remove(&r.log)).collect();
        let mut todo: Vec<(&GameRow, &mut Option<String>)> = batch
            .iter()
            .zip(packed.iter_mut())
            .filter(|(_, p)| p.is_none())
            .collect();
        let chunk = todo.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            for part in todo.chunks_mut(chunk) {
                s.spawn(move || {
                    for (r, slot) in part {
                        **slot = Some(match logs.file(r) {
                            Ok(log) => pack(&log, present),
                            Err(why) => unshowable(&why),
                        });
                    }
                });
            }
        });
        for (i, pack) in packed.iter().enumerate() {
            if b > 0 || i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(pack.as_deref().unwrap_or_default().as_bytes())?;
        }
    }
    Ok(())
}

/// JSON to sit inside a `<script>` element: no `<` at all, since `</script>` would end it early
/// and `<!--` would make the parser skip past the element's end.
fn script_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .expect("report data serialises")
        .replace('<', "\\u003c")
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The whole page, written to `out` as it is made: a report of many games holds their packs
/// once, not again in a page (docs/design.md, Memory).
pub fn render(
    dir: &Path,
    input: &ReportInput,
    logs: &Logs,
    ready: &mut Ready,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let index = name_index(input.names);
    let games = input
        .rows
        .iter()
        .map(|r| {
            GameEntry(
                r.id,
                r.round,
                r.seats.iter().map(|n| index[n.as_str()]).collect(),
                r.scores(),
                r.reason.as_str(),
                r.plies,
                r.duration_ms,
                // Relative to the page, wherever the log was when the game was played.
                logs.link(r),
                r.failed(),
                r.places.as_slice(),
            )
        })
        .collect();
    let data = PageData {
        title: &input.title,
        game: input.game.name,
        summary: input.game.summary,
        format: input.format,
        params: &input.params,
        generated: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        arena: env!("CARGO_PKG_VERSION"),
        bots: input.names,
        standings: standings(input.names, input.rows, input.players),
        crosstable: (input.names.len() <= MAX_CROSSTABLE)
            .then(|| crosstable(input.names, input.rows)),
        progress: progress(input.names, input.rows),
        failures: failures(input.names, input.rows),
        grades: GradesPage::of(dir, input.rows, logs),
        games,
    };
    let mut games = |out: &mut dyn Write| write_packed_games(out, dir, logs, input.rows, ready);
    fill(
        out,
        TEMPLATE,
        &mut [
            ("title", Fill::Text(&[&escape_html(&input.title)])),
            ("style", Fill::Text(&[STYLE])),
            ("data", Fill::Text(&[&script_json(&data)])),
            ("games", Fill::Made(&mut games)),
            ("script", Fill::Text(&[SCRIPT])),
        ],
    )
}

/// What a placeholder of the template is filled with.
enum Fill<'a> {
    /// Pieces of text, a newline between each.
    Text(&'a [&'a str]),
    /// Text written as it is made.
    Made(&'a mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>),
}

/// Write the template with each `{{name}}` put in one pass, so that inserted text (a bot's
/// name, say) is never taken for a placeholder.
fn fill(out: &mut dyn Write, template: &str, values: &mut [(&str, Fill)]) -> std::io::Result<()> {
    let mut rest = template;
    while let Some(at) = rest.find("{{") {
        let end = rest[at..].find("}}").map(|e| at + e);
        let value = end.and_then(|end| {
            let name = &rest[at + 2..end];
            values.iter_mut().find(|(k, _)| *k == name)
        });
        match (end, value) {
            (Some(end), Some((_, value))) => {
                out.write_all(&rest.as_bytes()[..at])?;
                match value {
                    Fill::Text(pieces) => {
                        for (i, piece) in pieces.iter().enumerate() {
                            if i > 0 {
                                out.write_all(b"\n")?;
                            }
                            out.write_all(piece.as_bytes())?;
                        }
                    }
                    Fill::Made(make) => make(out)?,
                }
                rest = &rest[end + 2..];
            }
            _ => {
                out.write_all(&rest.as_bytes()[..at + 2])?;
                rest = &rest[at + 2..];
            }
        }
    }
    out.write_all(rest.as_bytes())
}

/// Write `dir/report.html` (replaced atomically) and return its path. Games in `ready` are not
/// packed again.
pub fn write(dir: &Path, input: &ReportInput, mut ready: Ready) -> Result<PathBuf> {
    let path = dir.join("report.html");
    let logs = Logs::of(dir, input.rows)?;
    super::write_atomic_with(&path, |out| render(dir, input, &logs, &mut ready, out))?;
    Ok(path)
}

/// `write`, with `alongside` (files written at the end of a run) on another thread meanwhile:
/// waiting for the disk and drawing the page on every core overlap. `alongside`'s error comes
/// first.
pub fn write_alongside(
    dir: &Path,
    input: &ReportInput,
    ready: Ready,
    alongside: impl FnOnce() -> Result<()> + Send,
) -> Result<PathBuf> {
    let (done, page) = std::thread::scope(|s| {
        let done = s.spawn(alongside);
        let page = write(dir, input, ready);
        (done.join(), page)
    });
    done.unwrap_or_else(|_| {
        Err(crate::error::Error::Internal(
            "writing the run's files beside its report panicked".into(),
        ))
    })?;
    page
}

/// `report.html` of a results folder (a run's, or shards merged) written again from what the
/// folder holds: its page and its number of games. The game and its parameters come from the
/// first game's log that may be read; the spec is not needed.
pub fn write_folder(dir: &Path, title: Option<String>) -> Result<(PathBuf, usize)> {
    let games = dir.join("games.csv");
    let mut rows = super::read_folder_games(dir)?;
    if rows.is_empty() {
        return Err(Error::Usage(format!(
            "{}: no games yet, nothing to report",
            games.display()
        )));
    }
    // The folder's own log, or a shard's; one that cannot be read (a link, cut short) is shown
    // as a game the viewer cannot draw, as any other is, and the next one names the game.
    let logs = super::logs::Logs::of(dir, &rows)?;
    super::times::fill(&mut rows, &logs);
    let first = &rows[0];
    let header = |row: &GameRow| {
        logs.file(row)
            .map_err(Error::Corrupt)
            .and_then(|log| crate::referee::log::read_header(&log))
    };
    let header = match rows.iter().find_map(|r| header(r).ok()) {
        Some(h) => h,
        None => header(first)?,
    };
    let game = crate::games::find_game(&header.game).map_err(Error::Usage)?;
    let names = super::bot_names(&[], &rows);
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
            players: first.players(),
        },
        Default::default(),
    )?;
    Ok((page, rows.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u64, round: u32, a: &str, b: &str, s0: f64) -> GameRow {
        let places = match s0 {
            1.0 => [1, 2],
            0.0 => [2, 1],
            _ => [1, 1],
        };
        GameRow {
            round,
            plies: 3,
            seed: 0,
            log: format!("nowhere/game-{id}.jsonl"),
            ..GameRow::played(id, &[a, b], &places)
        }
    }

    #[test]
    fn placeholders_are_filled_once_and_inserted_text_is_left_alone() {
        let mut page = Vec::new();
        fill(
            &mut page,
            "<t>{{title}}</t>{{data}}{{unknown}}{{ {{games}}",
            &mut [
                ("title", Fill::Text(&["{{data}}"])),
                ("data", Fill::Text(&["D"])),
                ("games", Fill::Text(&["1", "2"])),
            ],
        )
        .unwrap();
        assert_eq!(page, b"<t>{{data}}</t>D{{unknown}}{{ 1\n2");
    }

    /// The page of a duel's `rows` in a folder with no logs.
    fn page_of(title: &str, names: &[String], rows: &[GameRow], ready: &mut Ready) -> String {
        let dir = tempfile::tempdir().unwrap();
        let mut page = Vec::new();
        let input = ReportInput {
            title: title.into(),
            game: crate::games::find("roshambo").unwrap(),
            params: Vec::new(),
            format: "duel",
            names,
            rows,
            players: 2,
        };
        let logs = Logs::Own(dir.path().to_path_buf());
        render(dir.path(), &input, &logs, ready, &mut page).unwrap();
        String::from_utf8(page).unwrap()
    }

    /// Packed a batch at a time, the games still come out one per line, in the rows' order,
    /// those packed already in their place.
    #[test]
    fn games_are_written_batch_after_batch_in_order() {
        let names = ["a".to_string(), "b".to_string()];
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let n = 2 * threads * PACK_BATCH + 3;
        let rows: Vec<GameRow> = (1..=n as u64).map(|id| row(id, 1, "a", "b", 1.0)).collect();
        let mut ready = Ready::new();
        ready.insert(rows[20].log.clone(), "PACKED-21".into());
        let page = page_of("t", &names, &rows, &mut ready);
        let games = page.split(r#"id="arena-games">"#).nth(1).unwrap();
        let games = &games[..games.find("</script>").unwrap()];
        let lines: Vec<&str> = games.lines().collect();
        assert_eq!(lines.len(), n);
        for (i, line) in lines.iter().enumerate() {
            match i {
                20 => assert_eq!(*line, "PACKED-21"),
                _ => assert!(line.contains(&format!("game-{}.jsonl", i + 1)), "{i}: {line}"),
            }
        }
        assert!(ready.is_empty());
    }

    #[test]
    fn hostile_bot_names_cannot_break_out_of_the_page() {
        let names = [
            "</script><b>x".to_string(),
            "{{script}}".to_string(),
            "<!--<script>".to_string(),
        ];
        let rows = [row(1, 1, &names[0], &names[1], 1.0)];
        let page = page_of("<title>", &names, &rows, &mut Ready::new());
        assert_eq!(page.matches("</script>").count(), 3, "only the page's own");
        assert!(page.contains("&lt;title&gt;"));
        let start = page.find(r#"id="arena-data">"#).unwrap() + r#"id="arena-data">"#.len();
        let end = start + page[start..].find("</script>").unwrap();
        assert!(!page[start..end].contains('<'), "no markup inside the data");
        let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
        assert_eq!(data["bots"][0], names[0]);
        assert_eq!(data["bots"][1], names[1]);
        assert_eq!(data["bots"][2], names[2]);
        // The log is missing: the game is listed, and the viewer says why it cannot show it.
        let games = page.split(r#"id="arena-games">"#).nth(1).unwrap();
        let first = games.lines().next().unwrap();
        assert!(
            first.starts_with("!reading ") && first.contains("game-1.jsonl: No such file"),
            "{first}"
        );
    }

    #[test]
    fn progress_has_a_point_per_round_up_to_a_hundred_and_always_the_last() {
        let names = ["a".to_string(), "b".to_string()];
        let few: Vec<GameRow> = (1..=3).map(|r| row(r as u64, r, "a", "b", 1.0)).collect();
        let p = progress(&names, &few);
        assert_eq!(p.rounds, [1, 2, 3]);
        assert_eq!(p.elo[0].len(), 3);
        assert!(p.elo[0][2] > 0.0 && p.elo[1][2] < 0.0, "{:?}", p.elo);
        let many: Vec<GameRow> = (1..=250)
            .map(|r| row(r as u64, r, "a", "b", (r % 2) as f64))
            .collect();
        let p = progress(&names, &many);
        assert_eq!(p.rounds.len(), MAX_PROGRESS_POINTS);
        assert_eq!(p.rounds.last(), Some(&250));
        assert!(p.rounds.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn failures_count_only_the_seat_that_failed() {
        let names = ["a".to_string(), "b".to_string()];
        let mut r = row(1, 1, "a", "b", 1.0);
        r.reason = Reason::Timeout;
        r.faults[1] = Some(Reason::Timeout);
        let mut both = row(2, 1, "a", "b", 0.5);
        both.reason = Reason::Crash;
        both.faults = vec![Some(Reason::Crash); 2];
        assert_eq!(failures(&names, &[r, both]), [[0, 1, 0, 0], [1, 1, 0, 0]]);
    }
}
