//! A gauntlet's grades: per student, the score against each reference bot, its failures by
//! kind, and why it first failed (the words of its "Finished game" line, and what it wrote on
//! stderr), so that a teacher can hand back why a bot lost. Written to `grades.csv`, printed at
//! the end of a gauntlet, and shown in the report.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::GameRow;
use super::logs::Logs;
use crate::games::Seat;
use crate::failure::Reason;
use crate::referee::stderr_path;

/// What `first_failure_stderr` says of a bot that wrote nothing on stderr.
pub const NO_STDERR: &str = "(nothing written on stderr)";

/// The failures counted apart, in the columns' order.
const KINDS: [Reason; 4] = [
    Reason::Timeout,
    Reason::Crash,
    Reason::Illegal,
    Reason::Protocol,
];

/// What the grades need of a run: its format and its bots, the references marked (the fields
/// of `run.json` of the same names, or of a merged folder's `merged.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lineup {
    pub format: String,
    pub bots: Vec<LineupBot>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineupBot {
    pub name: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seed: bool,
}

impl Lineup {
    /// The lineup of a results folder's `run.json`, read never through a link; none when it is
    /// missing or unreadable (a folder from before records were kept).
    pub fn of_run(dir: &Path) -> Option<Lineup> {
        let bytes = crate::files::read_folder_file(&dir.join("run.json"), crate::files::MOST_RECORD).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// A gauntlet's students and references, in the spec's order; none for another format.
    pub fn gauntlet(&self) -> Option<(Vec<String>, Vec<String>)> {
        if !crate::format::find(&self.format).is_some_and(|f| f.takes_reference_bots()) {
            return None;
        }
        let (refs, students): (Vec<&LineupBot>, Vec<&LineupBot>) =
            self.bots.iter().partition(|b| b.seed);
        let names = |v: Vec<&LineupBot>| v.into_iter().map(|b| b.name.clone()).collect();
        Some((names(students), names(refs)))
    }
}

/// A student's first failure: the game, its reason, the judge's words, and the stderr file
/// (as games.csv's log column leads to it), if the bot wrote one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstFailure {
    pub game: u64,
    pub reason: &'static str,
    pub detail: String,
    pub stderr: Option<String>,
}

/// One student's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grade {
    pub student: String,
    /// (points, games) against each reference, in the references' order.
    pub against: Vec<(f64, u32)>,
    pub score: f64,
    pub games: u32,
    /// Timeouts, crashes, illegal moves, protocol failures.
    pub failures: [u32; 4],
    pub first: Option<FirstFailure>,
}

/// The grades of `students` against `references` over `rows`, whose logs `logs` finds.
pub fn grades(
    students: &[String],
    references: &[String],
    rows: &[GameRow],
    logs: &Logs,
) -> Vec<Grade> {
    let mut ordered: Vec<&GameRow> = rows.iter().filter(|r| r.counts()).collect();
    ordered.sort_by_key(|r| r.id);
    students
        .iter()
        .map(|student| grade(student, references, &ordered, logs))
        .collect()
}

fn grade(student: &str, references: &[String], rows: &[&GameRow], logs: &Logs) -> Grade {
    let mut g = Grade {
        student: student.to_string(),
        against: vec![(0.0, 0); references.len()],
        score: 0.0,
        games: 0,
        failures: [0; 4],
        first: None,
    };
    let mut first: Option<(&GameRow, Seat)> = None;
    for row in rows {
        let Some(seat) = row.seat_of(student) else {
            continue;
        };
        for (_, them) in row.pairs().filter(|&(me, _)| me == seat) {
            if let Some(r) = references.iter().position(|r| *r == row.seats[them]) {
                g.against[r].0 += row.against(seat, them);
                g.against[r].1 += 1;
            }
        }
        g.score += row.scores()[seat];
        g.games += 1;
        if let Some(reason) = row.faults[seat] {
            // A bot killed at its memory limit crashed, as the standings count it; games.csv's
            // reason and the first failure tell the two apart.
            let kind = match reason {
                Reason::Memory => Reason::Crash,
                other => other,
            };
            if let Some(k) = KINDS.iter().position(|&k| k == kind) {
                g.failures[k] += 1;
            }
            first.get_or_insert((row, seat));
        }
    }
    g.first = first.map(|(row, seat)| first_failure(row, seat, logs));
    g
}

/// Why `seat` failed in `row`, from its log's last line (the judge's verdict), and its stderr.
fn first_failure(row: &GameRow, seat: Seat, logs: &Logs) -> FirstFailure {
    let log = logs.file(row).ok();
    let detail = log
        .as_deref()
        .and_then(|log| seat_detail(log, seat))
        .unwrap_or_else(|| "(the game's log is not there to say)".to_string());
    // Pointed to as games.csv leads to the log; looked for where the log was found.
    let stderr = log
        .filter(|log| stderr_path(log, seat).is_file())
        .map(|_| stderr_path(Path::new(&row.log), seat).display().to_string());
    FirstFailure {
        game: row.id,
        reason: row.faults[seat].unwrap_or(row.reason).as_str(),
        detail,
        stderr,
    }
}

/// The judge's words on `seat`'s failure, as the "Finished game" line gives them: the verdict's
/// detail when the seat ended the game, else its own entry among the seats that went out.
fn seat_detail(log: &Path, seat: Seat) -> Option<String> {
    let last = last_line(log)?;
    let entry: serde_json::Value = serde_json::from_str(&last).ok()?;
    let verdict = entry.get("result")?;
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    if verdict.get("faulted").and_then(serde_json::Value::as_u64) == Some(seat.index() as u64) {
        return verdict.get("detail").and_then(text);
    }
    verdict
        .get("out")?
        .as_array()?
        .iter()
        .find(|o| o.get("seat").and_then(serde_json::Value::as_u64) == Some(seat.index() as u64))
        .and_then(|o| o.get("detail").and_then(text))
}

/// The last line of a log (its result), read from its end: a long game's log is megabytes, and
/// the grades are written again every few seconds of a run. Read as the report reads logs
/// (`files::open_log_file`: no link, regular files only).
fn last_line(log: &Path) -> Option<String> {
    // A verdict's words are a few hundred bytes per seat that failed.
    last_line_within(log, 64 * 1024)
}

/// The last line of a log, if it ends within `TAIL` bytes of its end.
pub(super) fn last_line_within(log: &Path, tail: u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = crate::files::open_log_file(log).ok()?;
    let len = file.metadata().ok()?.len();
    let start = len.saturating_sub(tail);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(tail).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_end_matches('\n');
    match text.rfind('\n') {
        Some(at) => Some(text[at + 1..].to_string()),
        None if start == 0 => Some(text.to_string()),
        None => None,
    }
}

fn points(p: f64) -> String {
    format!("{}", (p * 1000.0).round() / 1000.0)
}

/// `grades.csv`.
pub fn grades_csv(references: &[String], grades: &[Grade]) -> Vec<u8> {
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
            "first_failure_detail",
            "first_failure_stderr",
        ]
        .map(String::from),
    );
    w.write_record(&header).expect("in memory");
    for g in grades {
        let mut line = vec![g.student.clone()];
        line.extend(g.against.iter().map(|(p, n)| format!("{}/{n}", points(*p))));
        line.push(points(g.score));
        line.push(g.games.to_string());
        line.extend(g.failures.iter().map(u32::to_string));
        match &g.first {
            Some(f) => line.extend([
                format!("game {} ({})", f.game, f.reason),
                f.detail.clone(),
                f.stderr.clone().unwrap_or_else(|| NO_STDERR.to_string()),
            ]),
            None => line.extend([String::new(), String::new(), String::new()]),
        }
        w.write_record(&line).expect("in memory");
    }
    w.into_inner().expect("a Vec takes all")
}

/// The grades as a short table for people: the students alone, the columns a teacher reads.
pub fn grades_text(references: &[String], grades: &[Grade]) -> String {
    let width =
        |it: &mut dyn Iterator<Item = usize>, least: usize| it.max().unwrap_or(0).max(least);
    let name_w = width(&mut grades.iter().map(|g| crate::out::columns(&g.student)), 7);
    let mut columns: Vec<String> = references.iter().map(|r| format!("vs {r}")).collect();
    columns.extend(["total", "failures"].map(String::from));
    let mut lines = Vec::new();
    for g in grades {
        let mut cells: Vec<String> = g
            .against
            .iter()
            .map(|(p, n)| format!("{}/{n}", points(*p)))
            .collect();
        cells.push(format!("{}/{}", points(g.score), g.games));
        cells.push(g.failures.iter().sum::<u32>().to_string());
        lines.push((g, cells));
    }
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let cells = &mut lines.iter().map(|(_, cells)| crate::out::columns(&cells[i]));
            width(cells, crate::out::columns(c))
        })
        .collect();
    let row = |name: &str, cells: &[String], last: &str| {
        let mut s = crate::out::padded(name, name_w, true);
        for (c, &w) in cells.iter().zip(&widths) {
            s.push_str("  ");
            s.push_str(&crate::out::padded(c, w, false));
        }
        if !last.is_empty() {
            s.push_str(&format!("  {last}"));
        }
        s.push('\n');
        s
    };
    let mut s = row("student", &columns, "first failure");
    for (g, cells) in &lines {
        let first = g.first.as_ref().map_or(String::new(), |f| {
            format!("game {} ({}): {}", f.game, f.reason, f.detail)
        });
        s.push_str(&row(&g.student, cells, &first));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Places;

    fn lost(id: u64, student: &str, reason: Reason) -> GameRow {
        GameRow {
            id,
            round: 1,
            seats: vec![student.into(), "ref".into()],
            places: Places::try_from(vec![2, 1]).unwrap(),
            faults: vec![Some(reason), None],
            reason,
            plies: 3,
            duration_ms: 1,
            seed: 0,
            log: format!("nowhere/logs/game-{id}.jsonl"),
            times: Vec::new(),
        }
    }

    /// A bot killed at its memory limit counts as a crash, as in the standings; the others by
    /// their own kind.
    #[test]
    fn failures_are_counted_by_kind_a_memory_kill_as_a_crash() {
        let rows = [
            lost(1, "s", Reason::Memory),
            lost(2, "s", Reason::Crash),
            lost(3, "s", Reason::Timeout),
            lost(4, "s", Reason::Protocol),
        ];
        let logs = Logs::Own(std::path::PathBuf::from("nowhere"));
        let grades = grades(&["s".into()], &["ref".into()], &rows, &logs);
        assert_eq!(grades[0].failures, [1, 2, 0, 1]);
        assert_eq!(grades[0].games, 4);
        assert_eq!(grades[0].first.as_ref().map(|f| f.game), Some(1));
    }
}
