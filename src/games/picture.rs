//! What the HTML report's game viewer draws for one moment of a game. Games describe their boards
//! as data (a grid of cells and a legend of pieces, or a table of rounds) so that one drawing
//! routine in the page serves every game, and the rules stay the only place that knows a board.

use serde::Serialize;

/// One moment of a game, as the viewer shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Picture {
    pub board: Board,
    /// Short lines beside the board: whose move, the dice, pieces in hand or home, the score.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Board {
    Grid(Grid),
    /// A game of rounds (roshambo): the viewer shows a table whose rows are the `row`s of every
    /// frame up to the current one, so a long game costs one row per frame, not a whole table.
    Table {
        columns: Vec<String>,
        /// The round this moment added, if any.
        row: Option<Vec<String>>,
    },
}

/// How the cells of a grid sit on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Square cells in rows and columns.
    Square,
    /// Hexagons in slanted rows: cell (r, c) is drawn at x = c - r/2, so that it touches
    /// (r, c±1), (r-1, c-1), (r-1, c), (r+1, c) and (r+1, c+1).
    Hex,
}

/// A board of `rows` x `cols` cells, listed row by row from the top, one character per cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grid {
    pub rows: u32,
    pub cols: u32,
    pub shape: Shape,
    /// The board itself: ' ' no cell here, '.' a plain (light) cell, '#' a dark cell (the
    /// draughts squares), '*' a marked cell (royalur's rosettes, Batalo's home bases).
    pub ground: String,
    /// What stands on each cell: '.' nothing, otherwise the `key` of one of `pieces`. Several
    /// views when the sides see different things (KROM): the referee's first, then what each
    /// seat could see.
    pub views: Vec<View>,
    pub pieces: Vec<Piece>,
    /// Cells the last move touched, to highlight (row-major indices).
    pub last: Vec<u32>,
    /// Labels along the top (one per column) and down the side (one per row); empty for none.
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct View {
    /// "referee", or what a seat could see, such as "red sees".
    pub label: String,
    pub cells: String,
}

/// A kind of piece in a grid's legend.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Piece {
    pub key: char,
    /// What it is, for the legend and tooltips: "white king", "red gun facing north".
    pub name: String,
    /// CSS colours of the disc and of its label.
    pub fill: String,
    pub ink: String,
    /// Drawn on the disc: "K" for a king, an arrow for a gun's direction; often empty.
    pub label: String,
}

impl Piece {
    pub fn new(key: char, name: &str, fill: &str, ink: &str, label: &str) -> Piece {
        Piece {
            key,
            name: name.into(),
            fill: fill.into(),
            ink: ink.into(),
            label: label.into(),
        }
    }
}

impl Grid {
    /// A square grid with one view, every cell plain ('.') and no labels; the caller fills in
    /// the rest.
    pub fn square(rows: u32, cols: u32, cells: String, pieces: Vec<Piece>) -> Grid {
        Grid {
            rows,
            cols,
            shape: Shape::Square,
            ground: ".".repeat((rows * cols) as usize),
            views: vec![View {
                label: "board".into(),
                cells,
            }],
            pieces,
            last: Vec::new(),
            col_labels: Vec::new(),
            row_labels: Vec::new(),
        }
    }

    /// Check the invariants the viewer relies on (for the games' tests).
    pub fn check(&self) -> Result<(), String> {
        let n = (self.rows * self.cols) as usize;
        if self.ground.chars().count() != n {
            return Err(format!("ground has {} cells, not {n}", self.ground.len()));
        }
        if let Some(bad) = self.ground.chars().find(|c| !" .#*".contains(*c)) {
            return Err(format!("ground has {bad:?}"));
        }
        if self.views.is_empty() {
            return Err("no view".into());
        }
        for v in &self.views {
            if v.cells.chars().count() != n {
                return Err(format!(
                    "view {:?} has {} cells, not {n}",
                    v.label,
                    v.cells.len()
                ));
            }
            for (i, c) in v.cells.chars().enumerate() {
                if c != '.' && !self.pieces.iter().any(|p| p.key == c) {
                    return Err(format!(
                        "view {:?}: cell {i} holds {c:?}, not in the legend",
                        v.label
                    ));
                }
            }
        }
        if let Some(i) = self.last.iter().find(|&&i| i as usize >= n) {
            return Err(format!("last move cell {i} is off the board"));
        }
        for (labels, len, what) in [
            (&self.col_labels, self.cols, "column"),
            (&self.row_labels, self.rows, "row"),
        ] {
            if !labels.is_empty() && labels.len() != len as usize {
                return Err(format!("{} {what} labels for {len} {what}s", labels.len()));
            }
        }
        Ok(())
    }
}

impl Picture {
    /// Whether the viewer, showing `before`, would show something else for this picture. A table
    /// keeps the rows it has shown, so a moment that adds no row changes it only by its notes:
    /// in a round of simultaneous throws, the first throw is hidden and shows nothing new.
    pub fn differs_from(&self, before: &Picture) -> bool {
        match (&self.board, &before.board) {
            (Board::Table { columns, row: None }, Board::Table { columns: shown, .. }) => {
                columns != shown || self.notes != before.notes
            }
            _ => self != before,
        }
    }

    /// Check the invariants the viewer relies on (for the games' tests).
    pub fn check(&self) -> Result<(), String> {
        match &self.board {
            Board::Grid(g) => g.check(),
            Board::Table { columns, row } => match row {
                Some(r) if r.len() != columns.len() => Err(format!(
                    "a row of {} cells under {} columns",
                    r.len(),
                    columns.len()
                )),
                _ => Ok(()),
            },
        }
    }
}

#[cfg(test)]
impl Picture {
    /// The grid, for the games' tests: it must pass `check`, as the viewer relies on that.
    pub fn grid(&self) -> &Grid {
        if let Err(e) = self.check() {
            panic!("the picture fails its check: {e}");
        }
        match &self.board {
            Board::Grid(g) => g,
            other => panic!("the picture is not a grid: {other:?}"),
        }
    }
}
