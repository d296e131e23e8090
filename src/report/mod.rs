//! The results tables (contract: docs/design.md, section Contracts): `games.csv` records, and the
//! standings, crosstable and grades computed from them alone, so that `arena ratings` rebuilds
//! exactly what `arena run` wrote.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::games::Seat;
use crate::failure::Reason;
use crate::ratings::{self, GameScore, RankedGame};

pub use games::{GameRow, csv_line, games_csv, is_whole_row, read_folder_games, read_games};

pub mod columns;
pub mod derived;
pub mod frames;
pub mod games;
pub mod grades;
pub mod html;
pub mod live;
pub mod logs;
pub mod pack;
mod stderr_frames;
pub mod times;
mod turns;

/// Replace a file at once: write a temporary file beside it, sync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// `write_atomic` of what `write` writes, as it writes it.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let context = || format!("writing {}", path.display());
    // Results are for reading by others (a web server, a teacher): the usual mode, less umask.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(Error::io(context()))?;
    let mut out = std::io::BufWriter::new(&mut tmp);
    write(&mut out).map_err(Error::io(context()))?;
    out.flush().map_err(Error::io(context()))?;
    drop(out);
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
    /// Games of more than two players: the bot's average place (1 the best). Absent from the
    /// two-player tables, whose columns stay as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_place: Option<f64>,
    /// Games of more than two players: Weng-Lin's rating and uncertainty (skillratings' scale,
    /// 25 ± 8.3 to start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weng_lin: Option<(f64, f64)>,
    /// The bot's mean answer, in milliseconds, over the games whose times are known; empty
    /// without any. Appended last, so that the columns before keep their places; the three are
    /// absent (`None`) from a table no game of which was timed (logs from before issue 43),
    /// whose standings.csv keeps the form it had.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_answer_ms: Option<Option<f64>>,
    /// Its slowest answer, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_answer_ms: Option<Option<f64>>,
    /// How many of its answers took 80% of their allowance or more, the late ones included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near_limit: Option<u32>,
    /// Its answer times in all.
    #[serde(skip)]
    pub times: crate::referee::times::AnswerTimes,
    /// How many played each game: the table's columns follow (`standings_csv`).
    #[serde(skip)]
    pub players: usize,
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

/// The two-player games that count for the ratings, as scores between indices of `index`; a
/// game every seat lost (both failed) tells nothing and is left out. (Games of more players are
/// rated from their rankings, `ranked_games`; given one, this reads it as a game per pair of
/// seats, by their places.)
pub fn game_scores(index: &BTreeMap<&str, usize>, rows: &[GameRow]) -> Vec<GameScore> {
    let mut scores = Vec::new();
    for row in rows.iter().filter(|r| r.counts() && !r.all_failed()) {
        for (a, b) in row.pairs().filter(|(a, b)| a < b) {
            scores.push(GameScore {
                a: index[row.seats[a].as_str()],
                b: index[row.seats[b].as_str()],
                score_a: row.against(a, b),
                round: row.round,
            });
        }
    }
    scores
}

/// The games that count for the ratings, as rankings between indices of `index`: each seat's
/// bot, place and whether it failed.
pub fn ranked_games(index: &BTreeMap<&str, usize>, rows: &[GameRow]) -> Vec<RankedGame> {
    rows.iter()
        .filter(|r| r.counts())
        .map(|row| {
            let bots: Vec<usize> = row.seats.iter().map(|n| index[n.as_str()]).collect();
            let failed: Vec<bool> = row.faults.iter().map(Option::is_some).collect();
            RankedGame::new(row.round, &bots, row.places.as_slice(), &failed)
        })
        .collect()
}

/// The ratings of the bots `names` from `rows`: Elo, Glicko-2, and for games of more than two
/// players Weng-Lin. Two-player games are rated from their scores, as they always were; games
/// of more from their rankings (docs/statistics.md, section Ratings of games of more than two
/// players).
struct Ratings {
    elo: Vec<ratings::EloEstimate>,
    glicko: Vec<(f64, f64)>,
    weng_lin: Option<Vec<(f64, f64)>>,
}

impl Ratings {
    /// The ratings of `names`, in that order. They depend on the records alone, not on the order
    /// of `rows` nor of `names` (which differ between `arena run`, in the spec's order, and `arena
    /// ratings`, in the order of the rows): the bots are numbered by name, for the ratings break
    /// ties by number (Glicko-2's periods of a game's pairs, the order of Weng-Lin's games in a
    /// round); every rating takes the games in an order of their own content (`crate::ratings`).
    fn of(names: &[String], rows: &[GameRow]) -> Ratings {
        let mut by_name: Vec<String> = names.to_vec();
        by_name.sort_unstable();
        let sorted = Ratings::of_sorted(&by_name, rows);
        // Back in the order of `names`.
        let at: Vec<usize> = names
            .iter()
            .map(|n| by_name.binary_search(n).expect("a name of the list"))
            .collect();
        let pick = |v: &[(f64, f64)]| at.iter().map(|&i| v[i]).collect();
        Ratings {
            elo: at.iter().map(|&i| sorted.elo[i]).collect(),
            glicko: pick(&sorted.glicko),
            weng_lin: sorted.weng_lin.as_deref().map(pick),
        }
    }

    /// [`Ratings::of`] for `names` sorted.
    fn of_sorted(names: &[String], rows: &[GameRow]) -> Ratings {
        let index = name_index(names);
        let n = names.len();
        if rows.iter().all(|r| r.players() == 2) {
            let scores = game_scores(&index, rows);
            return Ratings {
                elo: ratings::bradley_terry(n, &scores),
                glicko: ratings::glicko2(n, &scores),
                weng_lin: None,
            };
        }
        let games = ranked_games(&index, rows);
        Ratings {
            elo: ratings::plackett_luce(n, &games),
            glicko: ratings::glicko2_pairs(n, &games),
            weng_lin: Some(ratings::weng_lin(n, &games)),
        }
    }
}

/// Standings over all rows of games of `players`: ranked by Elo, then score. The number is the
/// run's, not the rows': a run of 4-player games with no game recorded yet has the 4-player form.
pub fn standings(names: &[String], rows: &[GameRow], players: usize) -> Vec<Standing> {
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
            average_place: None,
            weng_lin: None,
            mean_answer_ms: None,
            max_answer_ms: None,
            near_limit: None,
            times: Default::default(),
            players,
        })
        .collect();
    let times = times::per_bot(names, rows);
    let timed = times.iter().any(|t| t.answers > 0);
    for (t, times) in table.iter_mut().zip(times) {
        t.times = times;
        if timed {
            t.mean_answer_ms = Some(times.mean_us().map(|us| round1(us as f64 / 1000.0)));
            t.max_answer_ms =
                Some((times.answers > 0).then(|| round1(times.max_us as f64 / 1000.0)));
            t.near_limit = Some(times.near);
        }
    }
    let mut place_sums = vec![0u32; names.len()];
    // Whether each bot ever finished ahead of another: a marked bot is `perfect` if so, else
    // `zero` (its points say nothing of it: two bots sharing the last place score some).
    let mut ahead = vec![false; names.len()];
    for row in rows.iter().filter(|r| r.counts()) {
        let points = row.scores();
        let winner = row.winner();
        for (s, name) in Seat::all(row.players()).zip(&row.seats) {
            let t = &mut table[index[name.as_str()]];
            t.games += 1;
            t.score += points[s];
            place_sums[index[name.as_str()]] += u32::from(row.places.of(s));
            ahead[index[name.as_str()]] |=
                Seat::all(row.players()).any(|them| them != s && row.against(s, them) == 1.0);
            // Won: first alone; drawn: first, shared, with points (not when all lost).
            match (winner, row.places.of(s)) {
                (Some(w), _) if w == name => t.wins += 1,
                (None, 1) if points[s] > 0.0 => t.draws += 1,
                _ => t.losses += 1,
            }
            match row.faults[s] {
                Some(Reason::Timeout) => t.timeouts += 1,
                // The bot died either way; games.csv's reason tells the two apart.
                Some(Reason::Crash | Reason::Memory) => t.crashes += 1,
                Some(_) => t.illegal += 1,
                None => {}
            }
        }
    }
    let Ratings {
        elo,
        glicko,
        weng_lin,
    } = Ratings::of(names, rows);
    for (i, t) in table.iter_mut().enumerate() {
        if t.players > 2 && t.games > 0 {
            t.average_place = Some(f64::from(place_sums[i]) / f64::from(t.games));
        }
        t.elo = elo[i].elo;
        t.elo_error = Some(elo[i].error).filter(|e| e.is_finite());
        (t.glicko2, t.glicko2_rd) = glicko[i];
        t.weng_lin = weng_lin.as_ref().map(|w| w[i]);
        if t.games > 0 && elo[i].marked {
            t.marked = if ahead[i] { "perfect" } else { "zero" }.into();
        }
    }
    // By Elo as standings.csv writes it (to 0.1): two bots level there are level, whatever the
    // last bits of the fit (which the bots' numbering may move), and go by score, then name.
    let shown = |t: &Standing| round1(t.elo);
    table.sort_by(|a, b| {
        shown(b)
            .total_cmp(&shown(a))
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

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `standings.csv`, of the columns `columns::COLUMNS` lists. Two-player games keep the columns
/// they always had; games of more have `average_place` in the place of `draws` and `losses`, and
/// `points` for `score`.
pub fn standings_csv(table: &[Standing]) -> Vec<u8> {
    let (form, columns) = columns::of(table);
    let mut w = csv::Writer::from_writer(Vec::new());
    // The two-player table was written by serde, which heads only a table with a line.
    if form == columns::Form::Many || !table.is_empty() {
        w.write_record(columns.iter().map(|c| c.header))
            .expect("in memory");
    }
    for t in table {
        w.write_record(columns.iter().map(|c| c.cell(t, form)))
            .expect("in memory");
    }
    w.into_inner().expect("a Vec takes all")
}

/// The standings as a table for people (the columns `columns::COLUMNS` shows), with a note
/// where a rating is held finite by the fit's prior.
pub fn standings_text(table: &[Standing]) -> String {
    let mut s = columns::text(table);
    if table.iter().any(|t| !t.marked.is_empty()) {
        s.push_str(match columns::Form::of(table) {
            columns::Form::Two => {
                "* won or lost every game: the rating is held finite by the fit's prior.\n"
            }
            columns::Form::Many => {
                "* first or last in every game: the rating is held finite by the fit's prior.\n"
            }
        });
    }
    s
}

/// A bot's mean answer and its slowest, in milliseconds: `1.2 (40)`; `-` where none was timed.
pub fn answers(t: &crate::referee::times::AnswerTimes) -> String {
    match t.mean_us() {
        Some(mean) => format!("{} ({})", times::ms(mean), times::ms(t.max_us)),
        None => "-".into(),
    }
}

/// How many answers came near the limit; `-` where none was timed.
pub fn near(t: &crate::referee::times::AnswerTimes) -> String {
    match t.answers {
        0 => "-".into(),
        _ => t.near.to_string(),
    }
}

/// Each bot's (points, games) against each other bot, indexed like the names; `None` for a pair
/// that has not played.
pub type Crosstable = Vec<Vec<Option<(f64, u32)>>>;

pub fn crosstable(names: &[String], rows: &[GameRow]) -> Crosstable {
    let index = name_index(names);
    let mut cells = vec![vec![None; names.len()]; names.len()];
    for row in rows.iter().filter(|r| r.counts()) {
        for (me, them) in row.pairs() {
            let (i, j) = (
                index[row.seats[me].as_str()],
                index[row.seats[them].as_str()],
            );
            let c: &mut (f64, u32) = cells[i][j].get_or_insert_default();
            c.0 += row.against(me, them);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u64, seats: [&str; 4], places: [u8; 4], out: [Option<Reason>; 4]) -> GameRow {
        GameRow {
            faults: out.to_vec(),
            ..GameRow::played(id, &seats, &places)
        }
    }

    /// A run of 4-player games writes the 4-player form before its first game is recorded.
    #[test]
    fn standings_of_no_game_yet_have_the_runs_form() {
        let names = ["a", "b", "c", "d"].map(String::from);
        let csv = String::from_utf8(standings_csv(&standings(&names, &[], 4))).unwrap();
        assert!(csv.starts_with("rank,bot,games,wins,average_place,points,"), "{csv}");
        let csv = String::from_utf8(standings_csv(&standings(&names, &[], 2))).unwrap();
        assert!(csv.starts_with("rank,bot,games,wins,draws,losses,score,"), "{csv}");
    }

    /// A bot that never finished ahead of anyone is never marked `perfect`, whatever points
    /// sharing the last place gave it.
    #[test]
    fn a_bot_last_in_every_game_is_not_marked_perfect() {
        let crash = Some(Reason::Crash);
        let rows = [
            row(1, ["a", "b", "c", "d"], [1, 2, 3, 4], [None; 4]),
            row(2, ["d", "a", "b", "c"], [3, 1, 2, 3], [crash, None, None, crash]),
            row(3, ["c", "d", "a", "b"], [3, 3, 1, 2], [crash, crash, None, None]),
        ];
        let names = ["a", "b", "c", "d"].map(String::from);
        let table = standings(&names, &rows, 4);
        let d = table.iter().find(|t| t.bot == "d").unwrap();
        assert!(d.score > 0.0, "d shared the last place: {d:?}");
        assert_ne!(d.marked, "perfect", "{d:?}");
        let a = table.iter().find(|t| t.bot == "a").unwrap();
        assert_eq!(a.marked, "perfect", "{a:?}");
    }
}
