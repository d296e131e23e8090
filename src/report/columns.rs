//! The columns of the standings, listed once for `standings.csv` and the table printed for
//! people: a new rating column is an entry here (and one in the page, which reads `Standing` as
//! JSON).

use super::{Standing, answers, near, round1, round2};
use crate::out::symbol;

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
    /// How it shows in the printed table, if it does (a column may show its neighbours too:
    /// `elo (95%)` is `elo` and `elo_error`).
    pub shown: Option<Shown>,
}

/// A column of the table printed for people.
pub struct Shown {
    /// Its heading (some depend on the terminal's characters).
    pub heading: fn() -> String,
    /// Spaces between it and the column before.
    pub gap: usize,
    /// Aligned left (names) rather than right (numbers).
    pub left: bool,
    pub cell: fn(&Standing) -> String,
}

const fn col(header: &'static str, of: Of, cell: fn(&Standing, Form) -> String) -> Column {
    Column {
        header,
        of,
        timed: false,
        cell,
        shown: None,
    }
}

/// `column`, shown in the printed table under `heading`, `gap` spaces after the one before.
const fn shown(
    column: Column,
    heading: fn() -> String,
    gap: usize,
    cell: fn(&Standing) -> String,
) -> Column {
    Column {
        shown: Some(Shown {
            heading,
            gap,
            left: false,
            cell,
        }),
        ..column
    }
}

/// A rating and its error, aligned on the sign between them: `  1523 ± 45 `; `*` marks a rating
/// the fit's prior holds finite.
fn elo_cell(t: &Standing) -> String {
    let mark = if t.marked.is_empty() { " " } else { "*" };
    let error = t.elo_error.map_or("-".to_string(), |e| format!("{e:.0}"));
    format!("{:>6.0}{mark}{} {error:<4}", t.elo, symbol("±", "+-"))
}

fn dash_or(x: Option<String>) -> String {
    x.unwrap_or_else(|| "-".into())
}

/// Every column, in their order; each form takes its own.
pub const COLUMNS: &[Column] = &[
    shown(col("rank", Of::Both, |t, _| t.rank.to_string()), || "rank".into(), 0, |t| {
        t.rank.to_string()
    }),
    Column {
        shown: Some(Shown {
            heading: || "bot".into(),
            gap: 2,
            left: true,
            cell: |t| t.bot.clone(),
        }),
        ..col("bot", Of::Both, |t, _| t.bot.clone())
    },
    shown(col("games", Of::Both, |t, _| t.games.to_string()), || "games".into(), 2, |t| {
        t.games.to_string()
    }),
    shown(col("wins", Of::Both, |t, _| t.wins.to_string()), || "won".into(), 2, |t| {
        t.wins.to_string()
    }),
    shown(col("draws", Of::Two, |t, _| t.draws.to_string()), || "drawn".into(), 1, |t| {
        t.draws.to_string()
    }),
    shown(col("losses", Of::Two, |t, _| t.losses.to_string()), || "lost".into(), 1, |t| {
        t.losses.to_string()
    }),
    shown(col("score", Of::Two, |t, f| f.number(t.score)), || "score".into(), 2, |t| {
        t.score.to_string()
    }),
    shown(
        col("average_place", Of::Many, |t, f| f.maybe(t.average_place.map(round2))),
        || "avg place".into(),
        2,
        |t| dash_or(t.average_place.map(|p| format!("{p:.2}"))),
    ),
    shown(
        col("points", Of::Many, |t, f| f.number((t.score * 1000.0).round() / 1000.0)),
        || "points".into(),
        2,
        |t| format!("{:.2}", t.score),
    ),
    shown(col("elo", Of::Both, |t, f| f.number(round1(t.elo))), || "elo (95%)".into(), 2, elo_cell),
    col("elo_error", Of::Both, |t, f| f.maybe(t.elo_error.map(round1))),
    shown(
        col("glicko2", Of::Both, |t, f| f.number(round1(t.glicko2))),
        || "glicko2 (rd)".into(),
        2,
        |t| format!("{:>6.0} ({:>4.0})", t.glicko2, t.glicko2_rd),
    ),
    col("glicko2_rd", Of::Both, |t, f| f.number(round1(t.glicko2_rd))),
    shown(
        col("weng_lin", Of::Many, |t, f| f.maybe(t.weng_lin.map(|w| round2(w.0)))),
        || symbol("weng-lin (σ)", "weng-lin (sd)").into(),
        2,
        |t| dash_or(t.weng_lin.map(|(r, u)| format!("{r:.1} ({u:.1})"))),
    ),
    col("weng_lin_sigma", Of::Many, |t, f| {
        f.maybe(t.weng_lin.map(|w| round2(w.1)))
    }),
    shown(col("timeouts", Of::Both, |t, _| t.timeouts.to_string()), || "time".into(), 2, |t| {
        t.timeouts.to_string()
    }),
    shown(col("crashes", Of::Both, |t, _| t.crashes.to_string()), || "crash".into(), 1, |t| {
        t.crashes.to_string()
    }),
    shown(col("illegal", Of::Both, |t, _| t.illegal.to_string()), || "bad".into(), 1, |t| {
        t.illegal.to_string()
    }),
    col("marked", Of::Both, |t, _| t.marked.clone()),
    shown(
        Column {
            timed: true,
            ..col("mean_answer_ms", Of::Both, |t, f| f.maybe(t.mean_answer_ms.flatten()))
        },
        || "answer ms (max)".into(),
        2,
        |t| answers(&t.times),
    ),
    Column {
        timed: true,
        ..col("max_answer_ms", Of::Both, |t, f| f.maybe(t.max_answer_ms.flatten()))
    },
    shown(
        Column {
            timed: true,
            ..col("near_limit", Of::Both, |t, _| t.near_limit.unwrap_or(0).to_string())
        },
        || "near".into(),
        2,
        |t| near(&t.times),
    ),
];

/// The standings as a table for people: the shown columns of `table`'s form, each as wide as
/// its widest cell.
pub fn text(table: &[Standing]) -> String {
    let (_, columns) = of(table);
    let shown: Vec<&Shown> = columns.iter().filter_map(|c| c.shown.as_ref()).collect();
    let mut lines = vec![shown.iter().map(|s| (s.heading)()).collect::<Vec<_>>()];
    lines.extend(
        table
            .iter()
            .map(|t| shown.iter().map(|s| (s.cell)(t)).collect::<Vec<_>>()),
    );
    let widths: Vec<usize> = (0..shown.len())
        .map(|i| lines.iter().map(|l| crate::out::columns(&l[i])).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for line in &lines {
        for (i, (cell, s)) in line.iter().zip(&shown).enumerate() {
            let width = widths[i];
            out.push_str(&" ".repeat(s.gap));
            out.push_str(&crate::out::padded(cell, width, s.left));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

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
    use crate::report::{GameRow, standings, standings_csv};

    fn row(id: u64, a: &str, b: &str, places: [u8; 2]) -> GameRow {
        GameRow::played(id, &[a, b], &places)
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

    /// Names of wide characters (CJK, two columns each) or with combining marks keep the
    /// columns in line on a terminal: widths are counted in columns, not characters.
    #[test]
    fn wide_names_keep_the_printed_table_in_line() {
        let names = ["Zoë 日本", "e\u{301}ve", "plain"].map(String::from);
        let rows = [
            row(1, &names[0], &names[1], [1, 2]),
            row(2, &names[1], &names[2], [1, 1]),
            row(3, &names[2], &names[0], [2, 1]),
        ];
        let table = standings(&names, &rows, 2);
        let text = text(&table);
        let lines: Vec<&str> = text.lines().collect();
        let ends: Vec<usize> = lines.iter().map(|l| crate::out::columns(l)).collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "ragged: {ends:?}\n{text}");
    }

    /// The printed table takes its columns from the same list, per form, and keeps each
    /// column's cells under its heading whatever the numbers' widths.
    #[test]
    fn the_printed_table_shows_each_forms_columns_aligned() {
        let names = ["a", "long_name_b", "c"].map(String::from);
        let rows = [
            row(1, "a", "long_name_b", [1, 2]),
            row(2, "long_name_b", "c", [1, 1]),
            row(3, "c", "a", [2, 1]),
        ];
        let table = standings(&names, &rows, 2);
        let text = text(&table);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].contains("drawn") && !lines[0].contains("avg place"), "{text}");
        let ends: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "ragged: {text}");
        let sign = |l: &str| l.find('±').or_else(|| l.find("+-"));
        let signs: Vec<Option<usize>> = lines[1..].iter().map(|l| sign(l)).collect();
        assert!(signs.iter().all(|s| s.is_some() && *s == signs[0]), "{text}");
        // Names are set left, under their heading.
        let at = lines[0].find("bot").unwrap();
        for (line, name) in lines[1..].iter().zip(table.iter().map(|t| &t.bot)) {
            assert_eq!(line[at..].split(' ').next(), Some(name.as_str()), "{text}");
        }
    }
}
