//! A match summed up by places: for each bot, its games, wins (first alone), average place and
//! points ((N - place) / (N - 1) a game, ties sharing: `Places::points`).

use serde_json::{Value, json};

use crate::referee::times::AnswerTimes;
use crate::report::GameRow;

/// Each bot's games so far, indexed as the match's bots.
pub struct Places {
    bots: Vec<Record>,
}

#[derive(Default, Clone)]
struct Record {
    games: u32,
    wins: u32,
    place_sum: u32,
    points: f64,
    failures: u32,
}

impl Places {
    pub fn new(bots: usize) -> Places {
        Places {
            bots: vec![Record::default(); bots],
        }
    }

    /// Count a game on record; one its referee program failed counts for no one.
    pub fn add(&mut self, row: &GameRow, names: &[String]) {
        if !row.counts() {
            return;
        }
        let scores = row.scores();
        for (seat, name) in row.seats.iter().enumerate() {
            let Some(bot) = names.iter().position(|n| n == name) else {
                continue;
            };
            let r = &mut self.bots[bot];
            r.games += 1;
            r.wins += u32::from(row.winner() == Some(name.as_str()));
            r.place_sum += u32::from(row.places.as_slice()[seat]);
            r.points += scores[seat];
            r.failures += u32::from(row.faults[seat].is_some());
        }
    }

    fn average_place(r: &Record) -> Option<f64> {
        (r.games > 0).then(|| f64::from(r.place_sum) / f64::from(r.games))
    }

    /// The table, best points first: a line a bot.
    pub fn lines(&self, names: &[String], times: &[AnswerTimes]) -> Vec<String> {
        let width = names.iter().map(String::len).max().unwrap_or(3).max(3);
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| {
            self.bots[b]
                .points
                .total_cmp(&self.bots[a].points)
                .then(names[a].cmp(&names[b]))
        });
        let mut lines = vec![format!(
            "{:<width$}  {:>5}  {:>5}  {:>10}  {:>7}  {:>8}  {:>16}  {:>4}",
            "bot", "games", "wins", "avg place", "points", "failures", "answer ms (max)", "near"
        )];
        for i in order {
            let r = &self.bots[i];
            let place = Self::average_place(r).map_or("-".into(), |p| format!("{p:.2}"));
            let t = times.get(i).copied().unwrap_or_default();
            lines.push(format!(
                "{:<width$}  {:>5}  {:>5}  {:>10}  {:>7}  {:>8}  {:>16}  {:>4}",
                names[i],
                r.games,
                r.wins,
                place,
                format!("{:.2}", r.points),
                r.failures,
                crate::report::answers(&t),
                crate::report::near(&t)
            ));
        }
        lines
    }

    /// The summary object of `--json`: each bot's figures, and whether the match was stopped
    /// before its last game.
    pub fn json(&self, names: &[String], stopped: bool) -> Value {
        let bots: Vec<Value> = names
            .iter()
            .zip(&self.bots)
            .map(|(name, r)| {
                json!({
                    "bot": name,
                    "games": r.games,
                    "wins": r.wins,
                    "average_place": Self::average_place(r),
                    "points": r.points,
                    "failures": r.failures,
                })
            })
            .collect();
        json!({"summary": {"bots": bots, "interrupted": stopped}})
    }
}
