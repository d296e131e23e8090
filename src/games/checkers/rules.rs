//! English draughts (checkers): pure rules, no I/O.
//!
//! The board is the adversarial game server's: 64 cells, index = row * 8 + col, row 0 at the top;
//! dark squares have row + col odd and are numbered 1..=32 left to right, top to bottom (see
//! [`crate::games::draughts`]). Side 0 ("player 1") plays `b`/`B`, starts on squares 1..=12 and
//! moves first, its men moving down; seat 1 ("player 2") plays `r`/`R` from squares 21..=32, its
//! men moving up. In PDN FEN seat 0 is black (`B`) and seat 1 white (`W`).
//!
//! Rules: men step one square diagonally forward, kings one square in any diagonal direction.
//! Capturing is compulsory, men jump forward only, kings any way; any capture sequence may be
//! chosen but it must be completed; a man reaching the far row is crowned and the move ends.
//! A side with no piece or no legal move loses. After 40 moves by each side (80 plies) with no
//! capture and no man's move the game is drawn.

use crate::games::draughts::{self, Cell, Grid, Variant};
use crate::games::position::Position;
use crate::games::{Draw, Outcome, Side};

pub use crate::games::draughts::Move;

/// English draughts in the shared machinery's terms.
pub const VARIANT: Variant = Variant {
    down: [true, false],
    men_take_kings: true,
    fid_precedence: false,
    fen_colour: ['B', 'W'],
    letters: [['b', 'B'], ['r', 'R']],
};

/// Plies without a capture or a man's move that draw the game: 40 moves by each side.
pub const QUIET_PLIES_DRAW: u32 = 80;

/// A checkers position: the pieces, the side to move and the counters the rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    to_move: Side,
    plies: u32,
    /// Plies since the last capture or man's move, for the 40-move draw.
    quiet: u32,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The initial position, seat 0 to move.
    pub fn start() -> Board {
        Board {
            grid: Grid::start(&VARIANT),
            to_move: Side::First,
            plies: 0,
            quiet: 0,
        }
    }

    /// A position from PDN FEN, e.g. `W:W21,22:B5,K9` or `B:W18,24,K10:B12,16-20`. `B` (black)
    /// is seat 0, whose pieces start at the top; `W` (white) is seat 1. The counters start at 0.
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        let (grid, to_move) = Grid::from_fen(fen, &VARIANT)?;
        Ok(Board {
            grid,
            to_move,
            plies: 0,
            quiet: 0,
        })
    }

    /// The position as PDN FEN (white's list first).
    pub fn fen(&self) -> String {
        self.grid.to_fen(self.to_move, &VARIANT)
    }

    /// What stands on board index `idx` (0..64).
    pub fn cell(&self, idx: u8) -> Cell {
        self.grid.cell(idx)
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Plies since the last capture or man's move.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The wire form: 64 characters, ' ' for every empty cell, `b`, `B`, `r`, `R` for pieces.
    pub fn board_string(&self) -> String {
        self.grid
            .cells
            .iter()
            .map(|&c| VARIANT.letter(c, ' '))
            .collect()
    }

    /// A readable board: 8 lines of the 8 cells (`.` an empty dark square, ' ' a light one),
    /// each followed by the numbers of the squares on that row.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for r in 0..8u8 {
            for c in 0..8u8 {
                let idx = r * 8 + c;
                text.push(if draughts::is_dark(idx) {
                    VARIANT.letter(self.grid.cell(idx), '.')
                } else {
                    ' '
                });
            }
            let first = 4 * r + 1;
            text.push_str(&format!("  {}-{}\n", first, first + 3));
        }
        text
    }

    fn drawn(&self) -> bool {
        self.quiet >= QUIET_PLIES_DRAW
    }
}

impl Position for Board {
    type Move = Move;

    fn to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Move> {
        // A side without moves gets an empty list from the generator anyway; the draw is the
        // only finished state that still has moves on the board.
        if self.drawn() {
            return Vec::new();
        }
        self.grid.moves(self.to_move, &VARIANT)
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let done = self.grid.apply(&mv.path, &VARIANT);
        self.quiet = if done.captured > 0 || done.man_moved {
            0
        } else {
            self.quiet + 1
        };
        self.plies += 1;
        self.to_move = self.to_move.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        // Having no move is checked first: a side left without a move on the 80th quiet ply
        // has lost, the draw does not rescue it.
        if !self.grid.has_move(self.to_move, &VARIANT) {
            return Some(Outcome::win(self.to_move.other()));
        }
        self.drawn().then_some(Outcome::Drawn(Draw::Rules))
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    /// The path as a JSON array of board indices, the wire form: `[17,26]`.
    fn move_text(&self, mv: &Move) -> String {
        let squares: Vec<String> = mv.path.iter().map(|i| i.to_string()).collect();
        format!("[{}]", squares.join(","))
    }

    fn evaluate(&self, seat: Side) -> i32 {
        self.grid.evaluate(seat, &VARIANT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::position::{perft, suite};

    /// A move given by square numbers 1..=32.
    fn sq(squares: &[u8]) -> Move {
        Move::new(
            squares
                .iter()
                .map(|&n| draughts::square_index(n).unwrap())
                .collect(),
        )
    }

    /// What stands on square number `n` (1..=32).
    fn at(b: &Board, n: u8) -> Cell {
        b.cell(draughts::square_index(n).unwrap())
    }

    fn moves(fen: &str) -> Vec<Move> {
        Board::from_fen(fen).unwrap().legal_moves()
    }

    #[test]
    fn start_position() {
        let b = Board::start();
        assert_eq!(
            b.board_string(),
            concat!(
                " b b b b", "b b b b ", " b b b b", "        ", "        ", "r r r r ", " r r r r",
                "r r r r "
            )
        );
        assert_eq!(b.to_move(), First);
        assert_eq!(
            b.fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(Board::from_fen("B:W21-32:B1-12").unwrap(), b);
        assert_eq!(Board::default(), b);
        let first = b.legal_moves();
        assert_eq!(first.len(), 7);
        assert!(first.contains(&Move::new(vec![17, 26])));
        assert_eq!(b.move_text(&first[0]), "[17,24]");
        assert_eq!(
            b.render(),
            concat!(
                " b b b b  1-4\n",
                "b b b b   5-8\n",
                " b b b b  9-12\n",
                ". . . .   13-16\n",
                " . . . .  17-20\n",
                "r r r r   21-24\n",
                " r r r r  25-28\n",
                "r r r r   29-32\n",
            )
        );
    }

    #[test]
    fn perft_from_start() {
        let b = Board::start();
        let expected = [7, 49, 302, 1469, 7361, 36768];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&b, d as u32 + 1).nodes, n, "depth {}", d + 1);
        }
    }

    #[test]
    fn fen_round_trips() {
        for fen in [
            "W:W21,22:B5,K9",
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
            "B:W:B1",
            "W:WK1,K2:BK31,K32",
        ] {
            let b = Board::from_fen(fen).unwrap();
            assert_eq!(Board::from_fen(&b.fen()).unwrap(), b, "{fen}");
        }
        let b = Board::from_fen("W:W21,22:B5,K9").unwrap();
        assert_eq!(b.to_move(), Second);
        assert_eq!(at(&b, 21), Cell::Man(Second));
        assert_eq!(at(&b, 9), Cell::King(First));
        assert_eq!(b.fen(), "W:W21,22:B5,K9");
        // Whitespace, quotes, a trailing dot, lowercase, list order and ranges are tolerated.
        let loose = Board::from_fen(" \"W: B5, K9 : W21-22.\" ").unwrap();
        assert_eq!(loose, b);
        assert_eq!(Board::from_fen("w:Bk9,5:W21,22").unwrap(), b);
    }

    #[test]
    fn fen_errors() {
        for (fen, part) in [
            ("X:W21:B5", "side to move"),
            ("", "side to move"),
            ("WB:W21:B5", "side to move"),
            ("W:W33:B5", "\"33\""),
            ("W:W0:B5", "\"0\""),
            ("W:Wx:B5", "\"x\""),
            ("W:W21,,22:B5", "\"\""),
            ("W:W21:B5-3", "\"5-3\""),
            ("W:W21,21:B5", "listed twice"),
            ("W:W21:B21", "listed twice"),
            ("W:W21:B5:W22", "two lists"),
            ("W:W21:X5", "must start with W or B"),
            ("W:W1:B5", "crowning row"),
            ("W:W21:B30", "crowning row"),
        ] {
            let err = Board::from_fen(fen).unwrap_err();
            assert!(err.contains(part), "{fen}: {err}");
        }
    }

    #[test]
    fn capture_is_compulsory() {
        // Black man on 14 can jump 18 (to 23) or step; only the jump is legal, and other
        // pieces' steps are not either.
        let legal = moves("B:W18:B14,1");
        assert_eq!(legal, vec![sq(&[14, 23])]);
        // Without the capture, both pieces step.
        assert_eq!(moves("B:W30:B14,1").len(), 4);
    }

    #[test]
    fn any_capture_sequence_may_be_chosen() {
        // Man on 9 takes 14; man on 10 takes 14 too, or two (15 then 24): no majority rule.
        let legal = moves("B:W14,15,24:B9,10");
        assert_eq!(legal, vec![sq(&[9, 18]), sq(&[10, 17]), sq(&[10, 19, 28])]);
    }

    #[test]
    fn a_multi_jump_must_be_completed() {
        // Man on 1 jumps 6 to 10, then must jump 15 to 19.
        let b = Board::from_fen("B:W6,15:B1").unwrap();
        assert_eq!(b.legal_moves(), vec![sq(&[1, 10, 19])]);
        assert!(!b.is_legal(&sq(&[1, 10])));
        let mut b = b;
        b.play_unchecked(&sq(&[1, 10, 19]));
        assert_eq!(b.fen(), "W:W:B19");
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        assert!(b.legal_moves().is_empty());
    }

    #[test]
    fn kings_jump_backwards_and_change_direction() {
        // King on 19 jumps 15 (up) to 10, then 14 (down) to 17; a man there could not move up.
        assert_eq!(moves("B:W14,15:BK19"), vec![sq(&[19, 10, 17])]);
        assert_eq!(moves("B:W14,15:B19"), vec![sq(&[19, 23]), sq(&[19, 24])]);
        // A king takes a king as well; a man takes a king.
        assert_eq!(moves("B:WK14:B10"), vec![sq(&[10, 17])]);
        // A white king on 23 goes round a ring of four men, either way, back to its start square.
        let legal = moves("W:WK23:B18,10,11,19");
        assert_eq!(
            legal,
            vec![sq(&[23, 14, 7, 16, 23]), sq(&[23, 16, 7, 14, 23])]
        );
        let mut b = Board::from_fen("W:WK23:B18,10,11,19").unwrap();
        b.play_unchecked(&legal[0]);
        assert_eq!(b.fen(), "B:WK23:B");
    }

    #[test]
    fn crowning_ends_the_move() {
        // Man on 22 jumps 26 to 31 and is crowned; as a king it could jump 27, but the move ends.
        let mut b = Board::from_fen("B:W26,27:B22").unwrap();
        assert_eq!(b.legal_moves(), vec![sq(&[22, 31])]);
        b.play_unchecked(&sq(&[22, 31]));
        assert_eq!(at(&b, 31), Cell::King(First));
        assert_eq!(at(&b, 27), Cell::Man(Second));
        assert_eq!(b.to_move(), Second);
        // A simple move onto the far row crowns too.
        let mut b = Board::from_fen("W:W5:B20").unwrap();
        b.play_unchecked(&sq(&[5, 1]));
        assert_eq!(b.cell(1), Cell::King(Second));
        assert!(b.board_string().contains('R'));
    }

    #[test]
    fn forty_move_draw() {
        // Two kings shuttle; a draw after 80 quiet plies.
        let mut b = Board::from_fen("B:WK32:BK1").unwrap();
        let shuttle = [sq(&[1, 6]), sq(&[32, 27]), sq(&[6, 1]), sq(&[27, 32])];
        for ply in 0..QUIET_PLIES_DRAW {
            assert_eq!(b.outcome(), None, "ply {ply}");
            let mv = &shuttle[ply as usize % 4];
            assert_eq!(b.play(mv), Ok(()), "ply {ply}");
        }
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Rules)));
        assert!(b.legal_moves().is_empty());
        assert_eq!(b.plies(), 80);

        // A man's move resets the count.
        let mut b = Board::from_fen("B:WK32:BK1,9").unwrap();
        for ply in 0..60 {
            b.play_unchecked(&shuttle[ply % 4]);
        }
        assert_eq!(b.quiet_plies(), 60);
        b.play_unchecked(&sq(&[9, 13]));
        assert_eq!(b.quiet_plies(), 0);
    }

    #[test]
    fn a_side_without_moves_loses() {
        // Black's only man on 5 is blocked by 9 and cannot jump it (14 is taken).
        let b = Board::from_fen("B:W9,14:B5").unwrap();
        assert!(b.legal_moves().is_empty());
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
        // No pieces at all.
        let b = Board::from_fen("B:W9").unwrap();
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
        let b = Board::from_fen("W:W:B9").unwrap();
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
    }

    #[test]
    fn playing_updates_the_board_string() {
        let mut b = Board::start();
        b.play_unchecked(&Move::new(vec![21, 28]));
        b.play_unchecked(&Move::new(vec![42, 35]));
        // Black on 28 must now take the man on 35.
        assert_eq!(b.legal_moves(), vec![Move::new(vec![28, 42])]);
        b.play_unchecked(&Move::new(vec![28, 42]));
        let s = b.board_string();
        assert_eq!(&s[42..43], "b");
        assert_eq!(&s[35..36], " ");
        assert_eq!(&s[28..29], " ");
        assert_eq!(b.plies(), 3);
        assert!(b.evaluate(First) > 0 && b.evaluate(Second) < 0);
    }

    #[test]
    fn random_playouts() {
        suite::check(&Board::start(), 200, 400);
    }
}
