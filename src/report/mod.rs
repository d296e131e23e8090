//! The results tables (contract: docs/design.md, section Contracts): `games.csv` records, and the
//! standings, crosstable and grades computed from them alone, so that `arena ratings` rebuilds
//! exactly what `arena run` wrote.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::games::{Reason, Side};
use crate::ratings::{self, GameScore};
use crate::referee::{GameRecord, stderr_path};

pub mod frames;
pub mod html;
pub mod live;
pub mod pack;

/// One finished game: a row of `games.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub id: u64,
    pub round: u32,
    pub seat0: String,
    pub seat1: String,
    pub score0: f64,
    pub score1: f64,
    /// The winning bot's name; empty for a draw (or when both failed).
    pub winner: String,
    pub reason: Reason,
    pub plies: u32,
    pub duration_ms: u64,
    pub seed: u64,
    pub log: String,
}

impl GameRow {
    pub fn new(id: u64, round: u32, r: &GameRecord) -> GameRow {
        GameRow {
            id,
            round,
            seat0: r.players[0].clone(),
            seat1: r.players[1].clone(),
            score0: r.verdict.scores[0],
            score1: r.verdict.scores[1],
            winner: r
                .verdict
                .winner
                .map(|w| r.players[w].clone())
                .unwrap_or_default(),
            reason: r.verdict.reason,
            plies: r.verdict.plies,
            duration_ms: r.duration_ms,
            seed: r.seed,
            log: r.log.clone(),
        }
    }

    pub fn names(&self) -> [&str; 2] {
        [&self.seat0, &self.seat1]
    }

    /// Whether the game counts for its players: not when its referee program failed.
    pub fn counts(&self) -> bool {
        self.reason != Reason::Referee
    }

    /// The seats whose failure decided the game (a failed seat scores 0 against a 1, or both 0).
    pub fn failed(&self) -> [bool; 2] {
        if !self.reason.is_fault() {
            return [false; 2];
        }
        [self.score0 == 0.0, self.score1 == 0.0]
    }
}

pub const GAMES_HEADER: &str =
    "id,round,seat0,seat1,score0,score1,winner,reason,plies,duration_ms,seed,log\n";

/// Read a `games.csv` the user names (`arena ratings FILE...`). A row that cannot be read, or
/// that no game could have written (a score such as 0.25, a game recorded twice, a log outside
/// the folder's `logs`), is an error naming the file and line: the tables and ratings built on
/// it would be wrong, or would not be built at all.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>> {
    let bytes = std::fs::read(path).map_err(Error::io(format!("reading {}", path.display())))?;
    games_from(path, bytes)
}

/// Read a results folder's `games.csv`, as `read_games`, never through a link: a forged folder's
/// `games.csv -> /elsewhere/games.csv` would put another folder's games in its report.
pub fn read_folder_games(dir: &Path) -> Result<Vec<GameRow>> {
    let path = dir.join("games.csv");
    let bytes = crate::files::read_folder_file(&path)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    games_from(&path, bytes)
}

fn games_from(path: &Path, bytes: Vec<u8>) -> Result<Vec<GameRow>> {
    let at = |line: u64, what: &dyn std::fmt::Display| {
        Error::Corrupt(format!("{}:{line}: {what}", path.display()))
    };
    let whole = |e: csv::Error| match e.position() {
        Some(p) => at(p.line(), &e),
        None => Error::Corrupt(format!("{}: {e}", path.display())),
    };
    // A row cut short by a run killed as it wrote it never counted: the run plays it again.
    let keep = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) if end + 1 < bytes.len() => {
            let header = bytes.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
            if is_whole_row(&bytes[..header], &bytes[end + 1..]) {
                bytes.len()
            } else {
                eprintln!(
                    "arena: {}: the last line is cut short (a run was killed while writing it); \
                     it is left out",
                    path.display()
                );
                end + 1
            }
        }
        _ => bytes.len(),
    };
    let mut reader = csv::Reader::from_reader(&bytes[..keep]);
    let headers = reader.headers().map_err(whole)?.clone();
    let mut rows = Vec::new();
    // Each id's line, to name the first when it comes again.
    let mut seen: BTreeMap<u64, u64> = BTreeMap::new();
    for record in reader.records() {
        let record = record.map_err(whole)?;
        let line = record.position().map_or(0, |p| p.line());
        let row: GameRow = record
            .deserialize(Some(&headers))
            .map_err(|e| at(line, &e))?;
        check_row(&row).map_err(|e| at(line, &e))?;
        if let Some(first) = seen.insert(row.id, line) {
            return Err(at(
                line,
                &format!(
                    "game {} is already on line {first}: a game is recorded once",
                    row.id
                ),
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Whether `log` is where arena wrote game `id`'s log: `logs/game-NNNNN.jsonl` (`NNNN` in a
/// duel) in a results folder, wherever that folder was. Only the name is used (the report reads
/// `DIR/logs/NAME`, `html::log_file`): a row naming any other file (`/etc/shadow`, `../../x`)
/// was not written by arena, and the report must not read it.
fn is_log_of(id: u64, log: &Path) -> bool {
    let number = log
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("game-")?.strip_suffix(".jsonl"))
        .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()));
    number.and_then(|digits| digits.parse::<u64>().ok()) == Some(id)
        && log.parent().and_then(Path::file_name) == Some("logs".as_ref())
}

/// What a game can score: one won, a draw, or both lost (failures on both sides).
const SCORES: [[f64; 2]; 4] = [[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.0, 0.0]];

/// Whether arena could have written this row; if not, what is wrong with it.
fn check_row(row: &GameRow) -> std::result::Result<(), String> {
    if row.seat0.is_empty() || row.seat1.is_empty() {
        return Err("a seat has no bot's name".into());
    }
    if row.seat0 == row.seat1 {
        return Err(format!("{} plays itself", row.seat0));
    }
    if !is_log_of(row.id, Path::new(&row.log)) {
        return Err(format!(
            "the log of game {} is \"{}\", not logs/game-{:05}.jsonl: arena reads a game's log \
             only from the results folder's logs",
            row.id, row.log, row.id
        ));
    }
    if SCORES.contains(&[row.score0, row.score1]) {
        return Ok(());
    }
    let odd = [("score0", row.score0), ("score1", row.score1)]
        .into_iter()
        .find(|(_, s)| ![0.0, 0.5, 1.0].contains(s));
    let what = match odd {
        Some((key, s)) => format!("{key} is {s}"),
        None => format!("the scores are {}-{}", row.score0, row.score1),
    };
    Err(format!(
        "{what}; a game scores 1-0, 0.5-0.5 or 0-1 (0-0 when both players lost)"
    ))
}

/// Whether `line`, the end of a `games.csv` after its last newline, is a whole row that only
/// lacks its newline (a hand edit) rather than a row cut short by a run that was killed. A cut
/// row can look whole up to its last field, the log's path: that one must end as arena ends it.
pub fn is_whole_row(headers: &[u8], line: &[u8]) -> bool {
    let mut text = headers.to_vec();
    text.extend_from_slice(line);
    text.push(b'\n');
    let mut reader = csv::Reader::from_reader(text.as_slice());
    let Some(Ok(row)) = reader.deserialize::<GameRow>().next() else {
        return false;
    };
    check_row(&row).is_ok() && row.log.ends_with(".jsonl")
}

/// A whole `games.csv`: its header and the rows.
pub fn games_csv(rows: &[GameRow]) -> Vec<u8> {
    let mut bytes = GAMES_HEADER.as_bytes().to_vec();
    bytes.extend(rows.iter().flat_map(csv_line));
    bytes
}

/// One CSV line for a row (with its newline), to append to `games.csv`.
pub fn csv_line(row: &GameRow) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.serialize(row).expect("a row serialises");
    w.into_inner().expect("a Vec takes all")
}

/// Replace a file at once: write a temporary file beside it, sync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let context = || format!("writing {}", path.display());
    // Results are for reading by others (a web server, a teacher): the usual mode, less umask.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(Error::io(context()))?;
    tmp.write_all(bytes).map_err(Error::io(context()))?;
    tmp.as_file().sync_data().map_err(Error::io(context()))?;
    tmp.persist(path)
        .map_err(|e| Error::io(context())(e.error))?;
    Ok(())
}

/// A bot's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    pub rank: usize,
    pub bot: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: f64,
    pub elo: f64,
    /// Empty for a bot without games: nothing bounds its rating.
    pub elo_error: Option<f64>,
    pub glicko2: f64,
    pub glicko2_rd: f64,
    pub timeouts: u32,
    pub crashes: u32,
    /// Illegal moves and protocol failures (garbage, over-long lines).
    pub illegal: u32,
    /// `perfect` or `zero` when the bot won or lost every game: its Elo is then held finite
    /// by the fit's prior, not by its results.
    pub marked: String,
}

/// Every bot named in `order` (first, in that order) or in the rows.
pub fn bot_names(order: &[String], rows: &[GameRow]) -> Vec<String> {
    let mut names: Vec<String> = order.to_vec();
    for row in rows {
        for n in row.names() {
            if !names.iter().any(|m| m == n) {
                names.push(n.to_string());
            }
        }
    }
    names
}

/// Each name's position in `names`.
pub fn name_index(names: &[String]) -> BTreeMap<&str, usize> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect()
}

/// The games that count for the ratings, between indices of `index`.
pub fn game_scores(index: &BTreeMap<&str, usize>, rows: &[GameRow]) -> Vec<GameScore> {
    rows.iter()
        // A game both players lost tells nothing about who is stronger.
        .filter(|row| row.score0 + row.score1 == 1.0 && row.counts())
        .map(|row| GameScore {
            a: index[row.seat0.as_str()],
            b: index[row.seat1.as_str()],
            score_a: row.score0,
            round: row.round,
        })
        .collect()
}

/// Standings over all rows: ranked by Elo, then score.
pub fn standings(names: &[String], rows: &[GameRow]) -> Vec<Standing> {
    let index = name_index(names);
    let mut table: Vec<Standing> = names
        .iter()
        .map(|n| Standing {
            rank: 0,
            bot: n.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
            elo: 0.0,
            elo_error: None,
            glicko2: 0.0,
            glicko2_rd: 0.0,
            timeouts: 0,
            crashes: 0,
            illegal: 0,
            marked: String::new(),
        })
        .collect();
    for row in rows.iter().filter(|r| r.counts()) {
        let seats = [index[row.seat0.as_str()], index[row.seat1.as_str()]];
        let points = [row.score0, row.score1];
        let failed = row.failed();
        for s in Side::BOTH {
            let t = &mut table[seats[s]];
            t.games += 1;
            t.score += points[s];
            match points[s].partial_cmp(&points[s.other()]) {
                Some(std::cmp::Ordering::Greater) => t.wins += 1,
                Some(std::cmp::Ordering::Equal) if points[s] > 0.0 => t.draws += 1,
                _ => t.losses += 1,
            }
            if failed[s] {
                match row.reason {
                    Reason::Timeout => t.timeouts += 1,
                    // The bot died either way; games.csv's reason tells the two apart.
                    Reason::Crash | Reason::Memory => t.crashes += 1,
                    _ => t.illegal += 1,
                }
            }
        }
    }
    let scores = game_scores(&index, rows);
    let elo = ratings::bradley_terry(names.len(), &scores);
    let glicko = ratings::glicko2(names.len(), &scores);
    for (i, t) in table.iter_mut().enumerate() {
        t.elo = elo[i].elo;
        t.elo_error = Some(elo[i].error).filter(|e| e.is_finite());
        (t.glicko2, t.glicko2_rd) = glicko[i];
        if t.games > 0 && elo[i].marked {
            t.marked = if t.score == 0.0 { "zero" } else { "perfect" }.into();
        }
    }
    table.sort_by(|a, b| {
        b.elo
            .total_cmp(&a.elo)
            .then(b.score.total_cmp(&a.score))
            .then(a.bot.cmp(&b.bot))
    });
    for (i, t) in table.iter_mut().enumerate() {
        t.rank = i + 1;
    }
    table
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub fn standings_csv(table: &[Standing]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for t in table {
        let mut t = t.clone();
        t.elo = round1(t.elo);
        t.elo_error = t.elo_error.map(round1);
        t.glicko2 = round1(t.glicko2);
        t.glicko2_rd = round1(t.glicko2_rd);
        w.serialize(&t).expect("a standing serialises");
    }
    w.into_inner().expect("a Vec takes all")
}

/// The standings as a table for people.
pub fn standings_text(table: &[Standing]) -> String {
    let width = table.iter().map(|t| t.bot.len()).max().unwrap_or(3).max(3);
    let mut s = format!(
        "{:>4}  {:<width$}  {:>5}  {:>5} {:>5} {:>5}  {:>7}  {:>13}  {:>13}  {:>4} {:>4} {:>4}\n",
        "rank",
        "bot",
        "games",
        "won",
        "drawn",
        "lost",
        "score",
        "elo (95%)",
        "glicko2 (rd)",
        "time",
        "crash",
        "bad"
    );
    for t in table {
        let mark = if t.marked.is_empty() { " " } else { "*" };
        s.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}  {:>5} {:>5} {:>5}  {:>7}  {:>6.0}{mark}± {:<4}  {:>6.0} ({:>4.0})  {:>4} {:>4} {:>4}\n",
            t.rank, t.bot, t.games, t.wins, t.draws, t.losses, t.score, t.elo,
            t.elo_error.map_or("-".to_string(), |e| format!("{e:.0}")),
            t.glicko2, t.glicko2_rd, t.timeouts, t.crashes, t.illegal
        ));
    }
    if table.iter().any(|t| !t.marked.is_empty()) {
        s.push_str("* won or lost every game: the rating is held finite by the fit's prior.\n");
    }
    s
}

/// Each bot's (points, games) against each other bot, indexed like the names; `None` for a pair
/// that has not played.
pub type Crosstable = Vec<Vec<Option<(f64, u32)>>>;

pub fn crosstable(names: &[String], rows: &[GameRow]) -> Crosstable {
    let index = name_index(names);
    let mut cells = vec![vec![None; names.len()]; names.len()];
    for row in rows.iter().filter(|r| r.counts()) {
        let (a, b) = (index[row.seat0.as_str()], index[row.seat1.as_str()]);
        for (me, them, pts) in [(a, b, row.score0), (b, a, row.score1)] {
            let c: &mut (f64, u32) = cells[me][them].get_or_insert_default();
            c.0 += pts;
            c.1 += 1;
        }
    }
    cells
}

/// `crosstable.csv`: each bot's score against each other bot, as `points/games`.
pub fn crosstable_csv(names: &[String], rows: &[GameRow]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["bot".to_string()];
    header.extend(names.iter().cloned());
    w.write_record(&header).expect("in memory");
    for (me, cells) in names.iter().zip(crosstable(names, rows)) {
        let mut line = vec![me.clone()];
        line.extend(cells.into_iter().map(|c| match c {
            Some((p, g)) => format!("{p}/{g}"),
            None => String::new(),
        }));
        w.write_record(&line).expect("in memory");
    }
    w.into_inner().expect("a Vec takes all")
}

/// `grades.csv` for a gauntlet: per student, the score against each reference bot, failures by
/// kind, and the stderr of its first failure, so a teacher can hand back why a bot lost.
pub fn grades_csv(students: &[String], references: &[String], rows: &[GameRow]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["student".to_string()];
    header.extend(references.iter().map(|r| format!("vs {r}")));
    header.extend(
        [
            "score",
            "games",
            "timeouts",
            "crashes",
            "illegal",
            "protocol",
            "first_failure",
            "first_failure_stderr",
        ]
        .map(String::from),
    );
    w.write_record(&header).expect("in memory");
    let mut ordered: Vec<&GameRow> = rows.iter().filter(|r| r.counts()).collect();
    ordered.sort_by_key(|r| r.id);
    for student in students {
        let mut against = vec![(0.0f64, 0u32); references.len()];
        let (mut total, mut games) = (0.0, 0);
        let mut failures: BTreeMap<Reason, u32> = BTreeMap::new();
        let mut first: Option<(&GameRow, Side)> = None;
        for row in &ordered {
            let Some(seat) = Side::BOTH
                .into_iter()
                .find(|&s| row.names()[s] == student.as_str())
            else {
                continue;
            };
            let other = row.names()[seat.other()];
            let pts = [row.score0, row.score1][seat];
            if let Some(r) = references.iter().position(|r| r == other) {
                against[r].0 += pts;
                against[r].1 += 1;
            }
            total += pts;
            games += 1;
            if row.failed()[seat] {
                *failures.entry(row.reason).or_default() += 1;
                first.get_or_insert((row, seat));
            }
        }
        let mut line = vec![student.clone()];
        line.extend(against.iter().map(|(p, g)| format!("{p}/{g}")));
        line.push(total.to_string());
        line.push(games.to_string());
        for kind in [
            Reason::Timeout,
            Reason::Crash,
            Reason::Illegal,
            Reason::Protocol,
        ] {
            line.push(failures.get(&kind).copied().unwrap_or(0).to_string());
        }
        match first {
            Some((row, seat)) => {
                line.push(format!("game {} ({})", row.id, row.reason.as_str()));
                // A bot that said nothing has no stderr file.
                let path = stderr_path(Path::new(&row.log), seat);
                line.push(if path.exists() {
                    path.display().to_string()
                } else {
                    String::new()
                });
            }
            None => line.extend([String::new(), String::new()]),
        }
        w.write_record(&line).expect("in memory");
    }
    w.into_inner().expect("a Vec takes all")
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW1: &str = "1,1,a,b,1,0,a,normal,3,1,7,out/logs/game-00001.jsonl\n";
    const ROW2: &str = "2,1,b,a,0.5,0.5,,draw,3,1,8,out/logs/game-00002.jsonl\n";

    /// `games.csv` made of the header and `rows`, read back.
    fn read(rows: &str) -> std::result::Result<Vec<GameRow>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, format!("{GAMES_HEADER}{rows}")).unwrap();
        read_games(&path).map_err(|e| {
            let e = e.to_string();
            e.strip_prefix(&path.display().to_string())
                .unwrap_or(&e)
                .to_string()
        })
    }

    #[test]
    fn scores_no_game_gives_are_refused_with_their_line() {
        let cases = [
            (
                "0.25,0.75",
                ":3: score0 is 0.25; a game scores 1-0, 0.5-0.5 or 0-1",
            ),
            ("2,-1", ":3: score0 is 2; a game scores"),
            ("1,-1", ":3: score1 is -1; a game scores"),
            ("NaN,1", ":3: score0 is NaN; a game scores"),
            ("inf,0", ":3: score0 is inf; a game scores"),
            ("1,1", ":3: the scores are 1-1; a game scores"),
            ("0.5,0", ":3: the scores are 0.5-0; a game scores"),
        ];
        for (scores, expected) in cases {
            let row = ROW2.replace("0.5,0.5", scores);
            let e = read(&format!("{ROW1}{row}")).unwrap_err();
            assert!(e.starts_with(expected), "{scores}: {e}");
        }
        // Both players lost: a game arena records.
        let both_lost = ROW2.replace("0.5,0.5", "0,0");
        assert_eq!(read(&format!("{ROW1}{both_lost}")).unwrap().len(), 2);
    }

    #[test]
    fn a_game_recorded_twice_is_refused_and_a_missing_last_newline_is_not() {
        let e = read(&format!("{ROW1}{ROW2}{ROW1}")).unwrap_err();
        assert_eq!(
            e,
            ":4: game 1 is already on line 2: a game is recorded once"
        );
        let rows = read(&format!("{ROW1}{}", ROW2.trim_end())).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].log, "out/logs/game-00002.jsonl");
        // Cut short, in its log's path: it never counted.
        let rows = read(&format!("{ROW1}{}", &ROW2[..ROW2.len() - 4])).unwrap();
        assert_eq!(rows.len(), 1);
        let e = read(&ROW1.replace(",b,", ",a,")).unwrap_err();
        assert_eq!(e, ":2: a plays itself");
    }

    #[test]
    fn a_whole_last_row_is_told_from_one_cut_short() {
        let header = GAMES_HEADER.as_bytes();
        assert!(is_whole_row(header, ROW2.trim_end().as_bytes()));
        // Cut anywhere before its end, the row is not whole.
        for cut in 1..ROW2.trim_end().len() {
            assert!(
                !is_whole_row(header, &ROW2.as_bytes()[..cut]),
                "{}",
                &ROW2[..cut]
            );
        }
    }
}
