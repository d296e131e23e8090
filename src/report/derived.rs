//! A results folder's derived files: what `arena run` writes beside `games.csv` and `arena
//! ratings --out` rebuilds from it. They are listed once (`FILES`), so that both write the same
//! files by construction: adding one is an entry here.

use std::path::{Path, PathBuf};

use super::GameRow;
use super::grades::{grades, grades_csv};
use super::logs::Logs;

/// What the tables are made from.
pub struct Inputs<'a> {
    /// The bots, in the order the crosstable shows them.
    pub names: &'a [String],
    pub rows: &'a [GameRow],
    /// How many play each game.
    pub players: usize,
    pub gauntlet: Option<Gauntlet>,
}

/// A gauntlet's students and references, and where its games' logs are (a grade tells the
/// first failure from them).
pub struct Gauntlet {
    pub students: Vec<String>,
    pub references: Vec<String>,
    pub logs: Logs,
}

/// How a derived file is made.
pub enum Make {
    /// From the games alone; `None` when the folder has none of it (grades without a gauntlet).
    Table(fn(&Inputs) -> Option<Vec<u8>>),
    /// The page, which replays the games: each writer makes it its own way once the games are
    /// in (`html::write_alongside` as a run ends, `html::write_folder` for a merged folder),
    /// after the tables.
    Page,
}

/// One derived file of a results folder.
pub struct Derived {
    pub name: &'static str,
    pub make: Make,
    /// Written only for a whole run: a partial merge of shards (`arena ratings --partial`, or
    /// files that are not one run's) writes only the files that are not optional.
    pub optional: bool,
}

/// Every derived file, in the order they are written.
pub const FILES: &[Derived] = &[
    Derived {
        name: "standings.csv",
        make: Make::Table(standings),
        optional: false,
    },
    Derived {
        name: "crosstable.csv",
        make: Make::Table(crosstable),
        optional: false,
    },
    Derived {
        name: "grades.csv",
        make: Make::Table(gauntlet_grades),
        optional: true,
    },
    Derived {
        name: "report.html",
        make: Make::Page,
        optional: true,
    },
];

fn standings(i: &Inputs) -> Option<Vec<u8>> {
    Some(super::standings_csv(&super::standings(
        i.names, i.rows, i.players,
    )))
}

fn crosstable(i: &Inputs) -> Option<Vec<u8>> {
    Some(super::crosstable_csv(i.names, i.rows))
}

fn gauntlet_grades(i: &Inputs) -> Option<Vec<u8>> {
    let g = i.gauntlet.as_ref()?;
    let grades = grades(&g.students, &g.references, i.rows, &g.logs);
    Some(grades_csv(&g.references, &grades))
}

/// Which of the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    All,
    /// Those every folder has, whole run or not.
    Required,
    /// Those of a whole run's folder alone.
    Optional,
}

impl Which {
    fn takes(self, d: &Derived) -> bool {
        match self {
            Which::All => true,
            Which::Required => !d.optional,
            Which::Optional => d.optional,
        }
    }
}

/// The tables of `dir` (`which` of them) and their contents.
pub fn tables(dir: &Path, inputs: &Inputs, which: Which) -> Vec<(PathBuf, Vec<u8>)> {
    FILES
        .iter()
        .filter(|d| which.takes(d))
        .filter_map(|d| match d.make {
            Make::Table(make) => Some((dir.join(d.name), make(inputs)?)),
            Make::Page => None,
        })
        .collect()
}

/// Write the tables of `dir` (`tables`), each at once.
pub fn write_tables(dir: &Path, inputs: &Inputs, which: Which) -> crate::error::Result<()> {
    tables(dir, inputs, which)
        .iter()
        .try_for_each(|(path, bytes)| super::write_atomic(path, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u64, a: &str, b: &str) -> GameRow {
        GameRow::played(id, &[a, b], &[1, 2])
    }

    /// A small gauntlet's folder, which has every file.
    fn gauntlet_tables(dir: &Path, which: Which) -> Vec<(PathBuf, Vec<u8>)> {
        let names = ["s", "r"].map(String::from);
        let rows = [row(1, "s", "r"), row(2, "r", "s")];
        let inputs = Inputs {
            names: &names,
            rows: &rows,
            players: 2,
            gauntlet: Some(Gauntlet {
                students: vec!["s".into()],
                references: vec!["r".into()],
                logs: Logs::Own(dir.to_path_buf()),
            }),
        };
        tables(dir, &inputs, which)
    }

    /// `arena run` writes every table (`Which::All`); `arena ratings --out` writes the required
    /// ones and its merge the optional ones: together the same files, with the same bytes, and
    /// every table of the list among them.
    #[test]
    fn a_run_and_a_rebuild_write_the_same_files() {
        let dir = Path::new("/nonexistent/folder");
        let run = gauntlet_tables(dir, Which::All);
        let mut rebuilt = gauntlet_tables(dir, Which::Required);
        rebuilt.extend(gauntlet_tables(dir, Which::Optional));
        assert_eq!(run, rebuilt);
        let written: Vec<&Path> = run.iter().map(|(p, _)| p.as_path()).collect();
        for d in FILES {
            let table = matches!(d.make, Make::Table(_));
            assert_eq!(table, written.contains(&dir.join(d.name).as_path()), "{}", d.name);
        }
    }

    #[test]
    fn each_file_is_listed_once() {
        let mut names: Vec<&str> = FILES.iter().map(|d| d.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FILES.len());
    }
}
