//! Each game's answer times, as its log's result records them: `games.csv` has no column for
//! them (its columns do not change), so the tables read them where `arena run` wrote them, and
//! `arena ratings` and `arena report` rebuild the same figures from the same folder
//! (docs/design.md, section Answer times).

use super::GameRow;
use super::logs::Logs;
use crate::referee::times::AnswerTimes;

/// A result line is a few hundred bytes, and a few thousand with long failures: most logs are
/// read this far from their end only, a long game's log being megabytes.
const SHORT_TAIL: u64 = 8 * 1024;

/// The longest result line read (a verdict quoting the lines of several failed seats).
const LONG_TAIL: u64 = 64 * 1024;

/// Give each row that has none the times its log's result records; a row whose log is not
/// there to say, or says none (a log from before answers were timed), keeps none.
pub fn fill(rows: &mut [GameRow], logs: &Logs) {
    for row in rows.iter_mut().filter(|r| r.times.is_empty()) {
        if let Ok(log) = logs.file(row) {
            row.times = of_log(&log, row.players()).unwrap_or_default();
        }
    }
}

/// The answer times a log's result records for its `players` seats.
fn of_log(log: &std::path::Path, players: usize) -> Option<Vec<AnswerTimes>> {
    let last = super::grades::last_line_within(log, SHORT_TAIL)
        .or_else(|| super::grades::last_line_within(log, LONG_TAIL))?;
    let mut entry: serde_json::Value = serde_json::from_str(&last).ok()?;
    let times = entry.get_mut("result")?.get_mut("times")?.take();
    let times: Vec<AnswerTimes> = serde_json::from_value(times).ok()?;
    (times.len() == players).then_some(times)
}

/// Each bot's answer times over `rows`, in the order of `names`.
pub fn per_bot(names: &[String], rows: &[GameRow]) -> Vec<AnswerTimes> {
    let index = super::name_index(names);
    let mut all = vec![AnswerTimes::default(); names.len()];
    for row in rows {
        for (name, t) in row.seats.iter().zip(&row.times) {
            if let Some(&i) = index.get(name.as_str()) {
                all[i].add(t);
            }
        }
    }
    all
}

/// A bot's answer times in words, what a player tunes by: its mean answer, its slowest, and
/// how many came near the limit; none before any answer was timed. `arena duel`'s summary and
/// `arena check` say it.
pub fn answer_line(name: &str, t: &AnswerTimes) -> Option<String> {
    let mean = t.mean_us()?;
    Some(format!(
        "Answers of {name}: mean {} ms, slowest {} ms, {} of {} at 80% of the allowance or more",
        ms(mean),
        ms(t.max_us),
        t.near,
        t.answers
    ))
}

/// A time in microseconds as the tables show it, in milliseconds: `0.4`, `12`, `1500`.
pub fn ms(us: u64) -> String {
    let ms = us as f64 / 1000.0;
    if ms < 10.0 {
        format!("{:.1}", (ms * 10.0).round() / 10.0)
    } else {
        format!("{}", ms.round())
    }
}
