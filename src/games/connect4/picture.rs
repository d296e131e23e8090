//! connect4's board for the report's viewer: six rows from the top, as the wire form lists them,
//! and the columns labelled with the numbers the moves use.

use super::rules::{Board, COLS, ROWS};
use crate::games::picture::{self, Picture, Piece};

impl Board {
    /// The discs in the grid; `last` is the column just played, if any.
    pub fn picture(&self, last: Option<u8>) -> Picture {
        let cells = self.board_string().replace(' ', ".");
        let pieces = vec![
            Piece::new('x', "red (player 1, x)", "#d33", "#fff", ""),
            Piece::new('o', "yellow (player 2, o)", "#f2c200", "#222", ""),
        ];
        let mut grid = picture::Grid::square(ROWS as u32, COLS as u32, cells, pieces);
        grid.col_labels = (0..COLS).map(|c| c.to_string()).collect();
        // The disc just dropped is the highest one in its column.
        grid.last = last
            .and_then(|col| {
                let col = col as usize;
                (0..ROWS)
                    .find(|&row| self.cell(row, col).is_some())
                    .map(|row| (row * COLS + col) as u32)
            })
            .into_iter()
            .collect();
        Picture {
            board: picture::Board::Grid(grid),
            notes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::json_protocol::testing::{move_line, started};
    use crate::games::{Outbox, Step, TwoPlayer};

    #[test]
    fn the_start_is_an_empty_six_by_seven() {
        let p = Board::default().picture(None);
        let g = p.grid();
        assert_eq!((g.rows, g.cols), (6, 7));
        assert_eq!(g.views[0].cells, ".".repeat(42));
        assert_eq!(g.col_labels.concat(), "0123456");
        assert!(g.last.is_empty());
    }

    #[test]
    fn discs_fall_to_the_bottom_and_the_last_is_marked() {
        let mut game = started::<Board>();
        let mut out = Outbox::default();
        let empty = ".".repeat(28);
        // The two bottom rows after each move.
        for (seat, mv, bottom, last) in [
            (First, "3", concat!(".......", "...x..."), 38),
            (Second, "3", concat!("...o...", "...x..."), 31),
            (First, "\"4\"", concat!("...o...", "...xx.."), 39),
        ] {
            let line = move_line(&game, mv);
            assert_eq!(game.on_line(seat, &line, &mut out), Ok(Step::Done), "{mv}");
            let p = game.picture();
            assert_eq!(p.grid().views[0].cells, empty.clone() + bottom, "{mv}");
            assert_eq!(p.grid().last, [last], "{mv}");
        }
        assert_eq!(game.picture().notes[0], "beta (player 2) to move");
    }
}
