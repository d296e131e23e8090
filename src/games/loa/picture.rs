//! The Lines of Action board as the report's viewer draws it: 8 x 8 squares, rank 8 at the top
//! and file a on the left, as the protocol sends the rows and as the notation reads.

use super::rules::{Board, COLOURS, Move, file, rank};
use crate::games::picture::{Grid, Piece};

/// The grid cell of a square: rank 8 is the top row.
fn cell(sq: u8) -> u32 {
    (7 - rank(sq) as u32) * 8 + file(sq) as u32
}

impl Board {
    /// The board for the viewer, `last` (the move just played, if any) highlighted. The cells
    /// are the protocol's rows, so the viewer shows what the bots were told.
    pub fn picture(&self, last: Option<&Move>) -> Grid {
        let pieces = vec![
            Piece::new(COLOURS[0], "black checker", "#2b2b2b", "#eee", ""),
            Piece::new(COLOURS[1], "white checker", "#f5f0e1", "#222", ""),
        ];
        let mut grid = Grid::square(8, 8, self.board_lines().concat(), pieces);
        grid.last = match last {
            Some(&Move::Step { from, to }) => vec![cell(from), cell(to)],
            _ => Vec::new(),
        };
        grid.col_labels = ('a'..='h').map(String::from).collect();
        grid.row_labels = (1..=8).rev().map(|r: u8| r.to_string()).collect();
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::loa::rules::parse_square;
    use crate::games::position::Position;

    fn step(from: &str, to: &str) -> Move {
        Move::Step {
            from: parse_square(from).unwrap(),
            to: parse_square(to).unwrap(),
        }
    }

    #[test]
    fn the_start() {
        let g = Board::start().picture(None);
        g.check().unwrap();
        assert_eq!(
            g.views[0].cells,
            concat!(
                ".bbbbbb.", // rank 8
                "w......w", "w......w", "w......w", "w......w", "w......w", "w......w",
                ".bbbbbb.", // rank 1
            )
        );
        assert_eq!(g.ground, ".".repeat(64));
        assert_eq!(g.col_labels.join(""), "abcdefgh");
        assert_eq!(g.row_labels.join(""), "87654321");
        assert!(g.last.is_empty());
    }

    #[test]
    fn two_moves_and_the_last_one() {
        let mut b = Board::start();
        // Each checker goes as far as there are checkers on its line: two on file b, two on
        // rank 2.
        for mv in [step("b1", "b3"), step("a2", "c2")] {
            assert!(b.is_legal(&mv));
            b.play_unchecked(&mv);
        }
        let last = step("a2", "c2");
        let g = b.picture(Some(&last));
        g.check().unwrap();
        let rows: Vec<&str> = (0..8)
            .map(|i| &g.views[0].cells[i * 8..i * 8 + 8])
            .collect();
        assert_eq!(rows[5], "wb.....w", "rank 3");
        assert_eq!(rows[6], "..w....w", "rank 2");
        assert_eq!(rows[7], "..bbbbb.", "rank 1");
        // a2 is row 6, column 0; c2 row 6, column 2.
        assert_eq!(g.last, [48, 50]);
        assert!(b.picture(Some(&Move::Pass)).last.is_empty());
    }
}
