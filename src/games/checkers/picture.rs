//! checkers' board for the report's viewer, as the game prints it: row 0 at the top, player 1
//! (black) above. Labels give the board indices the moves are written in: a square's index is
//! its row's label plus its column's.

use super::rules::{Board, Move, VARIANT};
use crate::games::draughts::Colour;
use crate::games::picture;

/// Player 1 (seat 0) plays `b`, black; player 2 plays `r`, red.
pub const COLOURS: [Colour; 2] = [("black", "#2b2b2b", "#eee"), ("red", "#c62828", "#fff")];

impl Board {
    /// The pieces on the board and the quiet plies towards the 40-move draw; `last` is the move
    /// that led here, if any.
    pub fn picture(&self, last: Option<&Move>) -> picture::Picture {
        let mut grid = self.grid().picture(&VARIANT, COLOURS, last);
        grid.col_labels = (0..8).map(|c: u8| c.to_string()).collect();
        grid.row_labels = (0..8).map(|r: u8| (8 * r).to_string()).collect();
        picture::Picture {
            board: picture::Board::Grid(grid),
            notes: vec![format!(
                "plies without a capture or a man's move: {} of {}",
                self.quiet_plies(),
                super::rules::QUIET_PLIES_DRAW
            )],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::json_protocol::testing::{move_line, started};
    use crate::games::{Outbox, Step, TwoPlayer};

    /// The wire form's start with `.` for every empty square.
    const START: &str = concat!(
        ".b.b.b.b", "b.b.b.b.", ".b.b.b.b", "........", "........", "r.r.r.r.", ".r.r.r.r",
        "r.r.r.r.",
    );

    #[test]
    fn the_start_is_drawn_as_the_game_prints_it() {
        let p = Board::start().picture(None);
        let g = p.grid();
        assert_eq!(g.views[0].cells, START);
        assert_eq!(g.ground, ".#.#.#.##.#.#.#.".repeat(4));
        assert_eq!(g.row_labels[2], "16");
        assert_eq!(g.col_labels[7], "7");
        assert!(g.last.is_empty());
        assert_eq!(
            p.notes,
            ["plies without a capture or a man's move: 0 of 80"]
        );
        // Kings are drawn as such.
        let b = Board::from_fen("W:WK29:B5").unwrap();
        let p = b.picture(None);
        let g = p.grid();
        assert_eq!(g.views[0].cells.chars().nth(56), Some('R'));
        let king = g.pieces.iter().find(|p| p.key == 'R').unwrap();
        assert_eq!((king.name.as_str(), king.label.as_str()), ("red king", "K"));
    }

    #[test]
    fn moves_and_captures_are_marked() {
        let mut game = started::<Board>();
        let mut out = Outbox::default();
        for (seat, mv, last) in [
            (First, "[21, 28]", vec![21, 28]),
            (Second, "[42, 35]", vec![42, 35]),
            // Black must jump 35, landing on the square red left.
            (First, "[28, 42]", vec![28, 42, 35]),
        ] {
            let line = move_line(&game, mv);
            assert_eq!(game.on_line(seat, &line, &mut out), Ok(Step::Done), "{mv}");
            assert_eq!(game.picture().grid().last, last, "{mv}");
        }
        let picture = game.picture();
        let mut want: Vec<char> = START.chars().collect();
        want[21] = '.';
        want[42] = 'b';
        assert_eq!(
            picture.grid().views[0].cells,
            want.iter().collect::<String>()
        );
        assert!(
            picture.notes.iter().any(|n| n == "beta (player 2) to move"),
            "{:?}",
            picture.notes
        );
    }
}
