//! tictactoe's board for the report's viewer: the 3x3 cells in the wire form's order.

use super::rules::Board;
use crate::games::picture::{self, Picture, Piece};

impl Board {
    /// The marks on the board; `last` is the cell just played, if any.
    pub fn picture(&self, last: Option<u8>) -> Picture {
        let cells = self.board_string().replace(' ', ".");
        let pieces = vec![
            Piece::new('x', "x (player 1)", "#f5f0e1", "#222", "X"),
            Piece::new('o', "o (player 2)", "#2b2b2b", "#eee", "O"),
        ];
        let mut grid = picture::Grid::square(3, 3, cells, pieces);
        grid.last = last.map(u32::from).into_iter().collect();
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
    fn the_start_is_an_empty_three_by_three() {
        let p = Board::default().picture(None);
        let g = p.grid();
        assert_eq!((g.rows, g.cols), (3, 3));
        assert_eq!(g.views[0].cells, ".........");
        assert_eq!(g.ground, ".........");
        assert!(g.last.is_empty());
    }

    #[test]
    fn each_move_marks_its_cell() {
        let mut game = started::<Board>();
        let mut out = Outbox::default();
        assert_eq!(game.picture().notes[0], "alpha (player 1) to move");
        for (seat, mv, cells) in [
            (First, "4", "....x...."),
            (Second, "\"0\"", "o...x...."),
            (First, "8", "o...x...x"),
        ] {
            let line = move_line(&game, mv);
            assert_eq!(game.on_line(seat, &line, &mut out), Ok(Step::Done));
            let p = game.picture();
            assert_eq!(p.grid().views[0].cells, cells);
            let played: u32 = mv.trim_matches('"').parse().unwrap();
            assert_eq!(p.grid().last, [played]);
        }
        for (seat, mv) in [(Second, "2"), (First, "6"), (Second, "3"), (First, "7")] {
            let line = move_line(&game, mv);
            assert_eq!(game.on_line(seat, &line, &mut out), Ok(Step::Done));
        }
        let p = game.picture();
        assert_eq!(p.grid().views[0].cells, "o.oox.xxx");
        assert_eq!(p.notes[0], "alpha (player 1) wins");
        assert_eq!(p.notes[1], "moves played: 7");
    }
}
