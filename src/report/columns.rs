//! The columns of `standings.csv`, listed once: a new rating column is an entry here (and one
//! in the page, which reads `Standing` as JSON).

use super::{Standing, round1, round2};

/// The two forms of the table: two-player games, and games of more (places and points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Two,
    Many,
}

impl Form {
    /// The table's form, which its run's number of players sets.
    pub fn of(table: &[Standing]) -> Form {
        match table.first().is_some_and(|t| t.players > 2) {
            true => Form::Many,
            false => Form::Two,
        }
    }

    /// A number as the form has always written it: the two-player table as serde wrote it
    /// (`1500.0`), the other as Rust shows it (`1500`).
    fn number(self, x: f64) -> String {
        match self {
            Form::Two => ryu::Buffer::new().format(x).to_string(),
            Form::Many => x.to_string(),
        }
    }

    /// An optional number; empty when absent.
    fn maybe(self, x: Option<f64>) -> String {
        x.map_or(String::new(), |x| self.number(x))
    }
}

/// Which tables have a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Of {
    Both,
    Two,
    Many,
}

/// One column of `standings.csv`.
pub struct Column {
    pub header: &'static str,
    of: Of,
    /// Only in a table a game of which was timed (logs from before issue 43 have none), so that
    /// older folders' tables keep their form.
    timed: bool,
    /// Its cell for a bot.
    cell: fn(&Standing, Form) -> String,
}

const fn col(header: &'static str, of: Of, cell: fn(&Standing, Form) -> String) -> Column {
    Column {
        header,
        of,
        timed: false,
        cell,
    }
}

/// Every column, in their order; each form takes its own.
pub const COLUMNS: &[Column] = &[
    col("rank", Of::Both, |t, _| t.rank.to_string()),
    col("bot", Of::Both, |t, _| t.bot.clone()),
    col("games", Of::Both, |t, _| t.games.to_string()),
    col("wins", Of::Both, |t, _| t.wins.to_string()),
    col("draws", Of::Two, |t, _| t.draws.to_string()),
    col("losses", Of::Two, |t, _| t.losses.to_string()),
    col("score", Of::Two, |t, f| f.number(t.score)),
    col("average_place", Of::Many, |t, f| f.maybe(t.average_place.map(round2))),
    col("points", Of::Many, |t, f| {
        f.number((t.score * 1000.0).round() / 1000.0)
    }),
    col("elo", Of::Both, |t, f| f.number(round1(t.elo))),
    col("elo_error", Of::Both, |t, f| f.maybe(t.elo_error.map(round1))),
    col("glicko2", Of::Both, |t, f| f.number(round1(t.glicko2))),
    col("glicko2_rd", Of::Both, |t, f| f.number(round1(t.glicko2_rd))),
    col("weng_lin", Of::Many, |t, f| f.maybe(t.weng_lin.map(|w| round2(w.0)))),
    col("weng_lin_sigma", Of::Many, |t, f| {
        f.maybe(t.weng_lin.map(|w| round2(w.1)))
    }),
    col("timeouts", Of::Both, |t, _| t.timeouts.to_string()),
    col("crashes", Of::Both, |t, _| t.crashes.to_string()),
    col("illegal", Of::Both, |t, _| t.illegal.to_string()),
    col("marked", Of::Both, |t, _| t.marked.clone()),
    Column {
        timed: true,
        ..col("mean_answer_ms", Of::Both, |t, f| f.maybe(t.mean_answer_ms.flatten()))
    },
    Column {
        timed: true,
        ..col("max_answer_ms", Of::Both, |t, f| f.maybe(t.max_answer_ms.flatten()))
    },
    Column {
        timed: true,
        ..col("near_limit", Of::Both, |t, _| t.near_limit.unwrap_or(0).to_string())
    },
];

/// The columns of `table`, in order.
pub fn of(table: &[Standing]) -> (Form, Vec<&'static Column>) {
    let form = Form::of(table);
    let timed = table.iter().any(|t| t.near_limit.is_some());
    let columns = COLUMNS
        .iter()
        .filter(|c| match c.of {
            Of::Both => true,
            Of::Two => form == Form::Two,
            Of::Many => form == Form::Many,
        })
        .filter(|c| timed || !c.timed)
        .collect();
    (form, columns)
}

impl Column {
    pub fn cell(&self, t: &Standing, form: Form) -> String {
        (self.cell)(t, form)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Places;
    use crate::failure::Reason;
    use crate::report::{GameRow, standings, standings_csv};

    fn row(id: u64, a: &str, b: &str, places: [u8; 2]) -> GameRow {
        GameRow {
            id,
            round: id as u32,
            seats: vec![a.to_string(), b.to_string()],
            places: Places::try_from(places.to_vec()).unwrap(),
            faults: vec![None, None],
            reason: Reason::Normal,
            plies: 10,
            duration_ms: 1,
            seed: id,
            log: format!("logs/game-{id:05}.jsonl"),
            times: Vec::new(),
        }
    }

    /// The two-player table was serde's serialisation of `Standing`, rounded: the columns
    /// write it byte for byte.
    #[test]
    fn the_two_player_table_is_what_serde_wrote() {
        let names = ["a", "b", "c"].map(String::from);
        let rows = [
            row(1, "a", "b", [1, 2]),
            row(2, "b", "c", [1, 1]),
            row(3, "c", "a", [2, 1]),
        ];
        let table = standings(&names, &rows, 2);
        let mut w = csv::Writer::from_writer(Vec::new());
        for t in &table {
            let mut t = t.clone();
            t.elo = round1(t.elo);
            t.elo_error = t.elo_error.map(round1);
            t.glicko2 = round1(t.glicko2);
            t.glicko2_rd = round1(t.glicko2_rd);
            w.serialize(&t).unwrap();
        }
        let serde = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(String::from_utf8(standings_csv(&table)).unwrap(), serde);
        assert!(standings_csv(&[]).is_empty());
    }
}
