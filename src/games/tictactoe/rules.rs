//! Tic-tac-toe: pure rules, no I/O.
//!
//! Cells are numbered 0..=8 left to right, top to bottom, as the wire protocol numbers them.
//! Side 0 (player 1, `x`) moves first; seat 1 is `o`. A move is the index of an empty cell.

use crate::games::position::Position;
use crate::games::{Draw, Outcome, Side};

/// The eight lines of three, as bit masks over the cell indices.
const LINES: [u16; 8] = [
    0b000_000_111, // row 0
    0b000_111_000, // row 1
    0b111_000_000, // row 2
    0b001_001_001, // column 0
    0b010_010_010, // column 1
    0b100_100_100, // column 2
    0b100_010_001, // diagonal 0-4-8
    0b001_010_100, // diagonal 2-4-6
];

/// All nine cells.
const FULL: u16 = 0b111_111_111;

/// The mark of each seat in board strings and renderings.
const MARKS: [char; 2] = ['x', 'o'];

fn has_line(marks: u16) -> bool {
    // A line is complete when none of its cells lacks a mark.
    LINES.iter().any(|&line| line & !marks == 0)
}

/// A tic-tac-toe position. One bit set per mark keeps it `Copy` and tiny, and turns the
/// win check into eight mask comparisons.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Bit `i` of `marks[seat]` is set when `seat` has a mark on cell `i`.
    marks: [u16; 2],
}

impl Board {
    fn occupied(&self) -> u16 {
        self.marks[0] | self.marks[1]
    }

    /// The seat with a mark on `cell` (0..=8), if any.
    pub fn cell(&self, cell: u8) -> Option<Side> {
        let bit = 1u16 << cell;
        Side::BOTH
            .into_iter()
            .find(|&seat| self.marks[seat] & bit != 0)
    }

    /// The seat that has three in a row, if any.
    pub fn winner(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&seat| has_line(self.marks[seat]))
    }

    /// The 9-character wire form: ' ' for empty, 'x' and 'o' for the marks.
    pub fn board_string(&self) -> String {
        (0..9)
            .map(|i| self.cell(i).map_or(' ', |seat| MARKS[seat]))
            .collect()
    }

    /// Parse the wire form. The side to move follows from the counts, since x always moves
    /// first: equal counts mean x to move, one more x means o to move. Positions no game can
    /// reach are refused, so the rules never have to handle them.
    pub fn from_board_string(s: &str) -> Result<Board, String> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 9 {
            return Err(format!(
                "a tictactoe board has 9 cells, this one has {}",
                chars.len()
            ));
        }
        let mut board = Board::default();
        for (i, c) in chars.iter().enumerate() {
            match c {
                ' ' => {}
                'x' => board.marks[0] |= 1 << i,
                'o' => board.marks[1] |= 1 << i,
                other => {
                    return Err(format!(
                        "cell {i} holds {other:?}; a cell is ' ', 'x' or 'o'"
                    ));
                }
            }
        }
        let (xs, os) = (board.marks[0].count_ones(), board.marks[1].count_ones());
        if xs != os && xs != os + 1 {
            return Err(format!(
                "{xs} x and {os} o: x moves first, so there are as many x as o or one more"
            ));
        }
        // Only the side that moved last can have a line, or the game went on after it ended.
        // In a 3x3 board this (with the counts) is exactly reachability: any two lines share a
        // cell, so a winner's last mark can always be the one on all of its lines.
        let (x_line, o_line) = (has_line(board.marks[0]), has_line(board.marks[1]));
        if x_line && o_line {
            return Err("both x and o have three in a row".into());
        }
        if x_line && xs == os {
            return Err("x has three in a row but o moved after it".into());
        }
        if o_line && xs > os {
            return Err("o has three in a row but x moved after it".into());
        }
        Ok(board)
    }

    /// Three lines like `x|o| ` for people.
    pub fn render(&self) -> String {
        let cells: Vec<char> = self.board_string().chars().collect();
        cells
            .chunks(3)
            .map(|row| format!("{}|{}|{}", row[0], row[1], row[2]))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Position for Board {
    type Move = u8;

    fn to_move(&self) -> Side {
        // x moves first and the players alternate, so the parity of the plies says whose turn.
        Side::BOTH[(self.plies() % 2) as usize]
    }

    fn legal_moves(&self) -> Vec<u8> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let empty = !self.occupied() & FULL;
        (0..9).filter(|&i| empty & (1 << i) != 0).collect()
    }

    fn play_unchecked(&mut self, mv: &u8) {
        let seat = self.to_move();
        self.marks[seat] |= 1 << mv;
    }

    fn outcome(&self) -> Option<Outcome> {
        // A line is checked before fullness: the ninth mark can complete a line.
        if let Some(seat) = self.winner() {
            Some(Outcome::win(seat))
        } else if self.occupied() == FULL {
            Some(Outcome::Drawn(Draw::Rules))
        } else {
            None
        }
    }

    fn plies(&self) -> u32 {
        self.occupied().count_ones()
    }

    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }

    fn is_legal(&self, mv: &u8) -> bool {
        // Cheaper than the default, which builds the move list.
        *mv < 9 && self.occupied() & (1 << mv) == 0 && self.outcome().is_none()
    }

    // `evaluate` stays 0: the tree has under 550,000 nodes, so the search bot plays to the end.
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::position::{perft, search_move, suite};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn board(s: &str) -> Board {
        Board::from_board_string(s).unwrap()
    }

    #[test]
    fn perft_counts_match_the_known_tree() {
        let expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
        let start = Board::default();
        let mut last = perft(&start, 0);
        for (depth, &nodes) in (1..).zip(&expected) {
            last = perft(&start, depth);
            assert_eq!(last.nodes, nodes, "depth {depth}");
        }
        // All 255,168 possible games end within nine moves.
        assert_eq!(last.finished, 255_168);
    }

    #[test]
    fn three_in_a_row_wins_and_stops_the_game() {
        let mut b = Board::default();
        for mv in [0, 3, 1, 4, 2] {
            assert!(b.outcome().is_none());
            b.play_unchecked(&mv);
        }
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        assert!(b.legal_moves().is_empty());
        assert!(!b.is_legal(&5));

        let b = board("xx ooo x ");
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
        assert!(b.legal_moves().is_empty());
        // Diagonals too.
        assert_eq!(board("xo  xo  x").outcome(), Some(Outcome::win(First)));
        assert_eq!(board("xxo o o x").outcome(), Some(Outcome::win(Second)));
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let b = board("xoxxoooxx");
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Rules)));
        assert!(b.legal_moves().is_empty());
        // The ninth mark completing a line is a win, not a draw.
        let b = board("xoxoxoox ");
        let mut won = b;
        won.play_unchecked(&8);
        assert_eq!(won.outcome(), Some(Outcome::win(First)));
    }

    #[test]
    fn moves_and_strings() {
        let mut b = Board::default();
        assert_eq!(b.to_move(), First);
        assert_eq!(b.legal_moves(), (0..9).collect::<Vec<u8>>());
        b.play_unchecked(&4);
        assert_eq!(b.to_move(), Second);
        assert_eq!(b.plies(), 1);
        assert!(!b.is_legal(&4));
        assert!(!b.is_legal(&9));
        assert!(b.is_legal(&0));
        b.play_unchecked(&0);
        assert_eq!(b.board_string(), "o   x    ");
        assert_eq!(b.render(), "o| | \n |x| \n | | ");
        assert_eq!(b.move_text(&7), "7");
        assert_eq!(Board::from_board_string(&b.board_string()), Ok(b));
        assert_eq!(board("x        ").to_move(), Second);
        assert_eq!(board("xo       ").to_move(), First);
    }

    #[test]
    fn impossible_boards_are_refused() {
        for (s, why) in [
            ("        ", "9 cells"),
            ("x       xx", "9 cells"),
            ("x   .    ", "'.'"),
            ("xx       ", "as many x as o"),
            ("o        ", "as many x as o"),
            ("xxxooo   ", "both"),
            ("xxxoo o  ", "o moved after"),
            ("ooox xxx ", "x moved after"),
        ] {
            let err = Board::from_board_string(s).unwrap_err();
            assert!(err.contains(why), "{s:?}: {err}");
        }
    }

    /// Every game the opponent can play against the search bot, which moves for `bot`.
    /// Returns how many games were played out; panics on a loss.
    fn never_loses(pos: Board, bot: Side, rng: &mut ChaCha8Rng) -> u32 {
        if let Some(o) = pos.outcome() {
            assert!(
                o.winner() != Some(bot.other()),
                "the search bot lost as {}: {}",
                MARKS[bot],
                pos.board_string()
            );
            return 1;
        }
        if pos.to_move() == bot {
            let mv = search_move(&pos, 9, rng).expect("a move");
            let mut next = pos;
            next.play_unchecked(&mv);
            never_loses(next, bot, rng)
        } else {
            pos.legal_moves()
                .iter()
                .map(|mv| {
                    let mut next = pos;
                    next.play_unchecked(mv);
                    never_loses(next, bot, rng)
                })
                .sum()
        }
    }

    #[test]
    fn full_depth_search_never_loses() {
        // One generator shared through the walk, so ties are broken differently across it.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for bot in Side::BOTH {
            assert!(never_loses(Board::default(), bot, &mut rng) > 0);
        }
    }

    #[test]
    fn rules_suite() {
        suite::check(&Board::default(), 300, 10);
    }
}
