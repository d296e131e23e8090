//! dama's board for the report's viewer, as Code Colosseum draws it: row 1 at the top, columns
//! A to H, so the squares read as the moves name them.

use super::rules::{Board, Move, VARIANT};
use crate::games::draughts::Colour;
use crate::games::picture;

/// Side 0 plays the white pieces, seat 1 the black.
pub const COLOURS: [Colour; 2] = [("white", "#f5f0e1", "#222"), ("black", "#2b2b2b", "#eee")];

impl Board {
    /// The pieces on the board; `last` is the move that led here, if any.
    pub fn picture(&self, last: Option<&Move>) -> picture::Grid {
        let mut grid = self.grid().picture(&VARIANT, COLOURS, last);
        grid.col_labels = ('A'..='H').map(String::from).collect();
        grid.row_labels = (1..=8).map(|r: u8| r.to_string()).collect();
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::super::protocol::{Dama, tests::seating};
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::{Outbox, Params, Step, TwoPlayer};

    /// Row 1 (black's men) first, as the game prints it.
    const START: &str = concat!(
        ".n.n.n.n", "n.n.n.n.", ".n.n.n.n", "........", "........", "b.b.b.b.", ".b.b.b.b",
        "b.b.b.b.",
    );

    fn cells(g: &picture::Grid) -> &str {
        &g.views[0].cells
    }

    #[test]
    fn the_start_is_drawn_as_the_game_prints_it() {
        let g = Board::start().picture(None);
        assert_eq!(g.check(), Ok(()));
        assert_eq!(cells(&g), START);
        assert_eq!(g.ground, ".#.#.#.##.#.#.#.".repeat(4));
        assert_eq!(g.col_labels.concat(), "ABCDEFGH");
        assert_eq!(g.row_labels.concat(), "12345678");
        assert!(g.last.is_empty());
        let king = g.pieces.iter().find(|p| p.key == 'N').expect("black kings");
        assert_eq!(king.label, "K");
    }

    #[test]
    fn moves_and_captures_are_marked() {
        let params = Params::resolve(super::super::INFO.params, []).unwrap();
        let mut game = Dama::new(&params, &seating(["alpha", "beta"])).unwrap();
        let mut out = Outbox::default();
        game.start(&mut out);
        assert_eq!(cells(game.picture().grid()), START);
        assert!(
            game.picture()
                .notes
                .iter()
                .any(|n| n == "alpha (white) to move")
        );

        assert_eq!(game.on_line(First, "6e 5d", &mut out), Ok(Step::Done));
        let p = game.picture();
        let g = p.grid();
        // 6E is index 44, 5D index 35.
        assert_eq!(g.last, [44, 35]);
        let mut want: Vec<char> = START.chars().collect();
        want[44] = '.';
        want[35] = 'b';
        assert_eq!(cells(g), want.iter().collect::<String>());

        // A refused line changes nothing.
        assert_eq!(game.on_line(Second, "3a 4a", &mut out), Ok(Step::Retry));
        assert_eq!(game.picture().grid(), g);

        assert_eq!(game.on_line(Second, "3F 4E", &mut out), Ok(Step::Done));
        assert_eq!(game.picture().grid().last, [21, 28]);
        // White must take 4E, landing on 3F.
        assert_eq!(game.on_line(First, "5D 3F", &mut out), Ok(Step::Done));
        let p = game.picture();
        let g = p.grid();
        assert_eq!(g.last, [35, 21, 28], "from, to, and the piece taken");
        want[35] = '.';
        want[21] = 'b';
        assert_eq!(cells(g), want.iter().collect::<String>());
        let notes = p.notes;
        assert!(
            notes.iter().any(|n| n == "beta (black) to move"),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n == "black: 11 men, 0 kings"),
            "{notes:?}"
        );
    }
}
