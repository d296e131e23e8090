//! Italian draughts (dama) on Code Colosseum's board, by FID's rules or by Code Colosseum's
//! server's ([`Rules`]): pure rules, no I/O.
//!
//! The board is drawn with row 1 at the top (board row index 0) and columns A..H left to right;
//! cells are board indices row * 8 + col, dark squares have row + col odd, and are also numbered
//! 1..=32 left to right, top to bottom for FEN (see [`crate::games::draughts`]). Side 0 plays
//! white (`b` man, `B` king), starts on rows 6..8 and moves first, its men moving up; seat 1
//! plays black (`n`, `N`) from rows 1..3, its men moving down. Squares are named row digit then
//! column letter, `6A`, and a move is its squares separated by spaces: `6A 5B`, `6A 4C 2A`.
//!
//! Rules (FID): men step one square diagonally forward, kings one square any way. Capturing is
//! compulsory and a capture sequence must be completed. Men capture forward only and cannot
//! capture kings; kings capture in all four directions. Among several captures the legal ones
//! (1) take the most pieces; if equal (2) capture with a king rather than a man; if equal (3)
//! take the most kings; if equal (4) meet a king earliest; any tie left is free choice. A man
//! reaching the last row is promoted and the move ends. A side with no piece or no legal move
//! loses. The same position with the same side to move for the third time is a draw, and so is
//! reaching the move limit (default 200 plies).
//!
//! Code Colosseum's server plays looser rules (see `server_rules.rs`): nothing forces a capture,
//! a capture may stop after any jump, and it ends a game only when a side cannot move (by its
//! own test) or has no pieces. Under them the move limit is the only draw.

use super::server_rules;
use crate::games::draughts::{self, Cell, Grid, Variant};
use crate::games::position::Position;
use crate::games::{Draw, Outcome, Side};

pub use crate::games::draughts::Move;

/// Italian draughts in the shared machinery's terms.
pub const VARIANT: Variant = Variant {
    down: [false, true],
    men_take_kings: false,
    fid_precedence: true,
    fen_colour: ['W', 'B'],
    letters: [['b', 'B'], ['n', 'N']],
};

/// Plies after which a game is drawn by the move limit, unless set otherwise.
pub const DEFAULT_MAX_PLIES: u32 = 200;

/// The column letters header of the drawing, above and below the board.
const HEADER: &str = "   A  B  C  D  E  F  G  H";

/// A position's identity for repetition: the pieces exactly, and the side to move.
type Key = ([u32; 4], Side);

/// Whose rules decide which moves are legal and when a game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    /// The Italian federation's.
    #[default]
    Fid,
    /// Code Colosseum's server's, exactly.
    Server,
}

/// A dama position: the pieces, the side to move, and what the draw rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    to_move: Side,
    rules: Rules,
    plies: u32,
    /// Plies after which the game is drawn (0: no limit).
    max_plies: u32,
    /// The positions since the last capture or man's move, the current one last. Those moves
    /// cannot be undone, so no earlier position can come back; the list stays short (and a
    /// clone of an empty list does not allocate).
    history: Vec<Key>,
    /// Whether the current position has now occurred three times.
    repeated: bool,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

/// The name of a board index as Code Colosseum writes it: row digit, column letter (`6A`).
pub fn square_name(idx: u8) -> String {
    format!(
        "{}{}",
        draughts::row(idx) + 1,
        (b'A' + draughts::col(idx)) as char
    )
}

/// The board index of a dark square named like `6A` or `5b`; `None` for anything else.
pub fn parse_square(s: &str) -> Option<u8> {
    let &[digit, letter] = s.as_bytes() else {
        return None;
    };
    let row = digit.checked_sub(b'1').filter(|r| *r < 8)?;
    let col = letter
        .to_ascii_uppercase()
        .checked_sub(b'A')
        .filter(|c| *c < 8)?;
    let idx = row * 8 + col;
    draughts::is_dark(idx).then_some(idx)
}

/// A move in Code Colosseum's input form: two or more squares separated by spaces (`6A 5B`,
/// `6a 4c 2a`). Only the form is checked here; legality is the position's business.
pub fn parse_move(text: &str) -> Result<Move, String> {
    let path = text
        .split_whitespace()
        .map(|s| parse_square(s).ok_or_else(|| format!("{s:?} is not a dark square like 6A")))
        .collect::<Result<Vec<u8>, String>>()?;
    if path.len() < 2 {
        return Err(format!(
            "{text:?}: a move is the piece's square then where it goes, like 6A 5B"
        ));
    }
    Ok(Move::new(path))
}

impl Board {
    /// The initial position, white (seat 0) to move.
    pub fn start() -> Board {
        Board::from_grid(Grid::start(&VARIANT), Side::First)
    }

    fn from_grid(grid: Grid, to_move: Side) -> Board {
        Board {
            grid,
            to_move,
            rules: Rules::Fid,
            plies: 0,
            max_plies: DEFAULT_MAX_PLIES,
            history: vec![(grid.key(), to_move)],
            repeated: false,
        }
    }

    /// The same position with a move limit of `n` plies in all (0: no limit).
    pub fn with_max_plies(mut self, n: u32) -> Board {
        self.max_plies = n;
        self
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// The same position played by `rules`.
    pub fn with_rules(mut self, rules: Rules) -> Board {
        self.rules = rules;
        self
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// A position from PDN FEN, e.g. `W:W21-32:B1-12` (the start): `W` (white) is seat 0, on
    /// the bottom; `B` (black) is seat 1. Squares 1..=32 from the top left; `K` marks a king.
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        let (grid, to_move) = Grid::from_fen(fen, &VARIANT)?;
        Ok(Board::from_grid(grid, to_move))
    }

    /// The position as PDN FEN.
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

    /// Code Colosseum's drawing, 10 lines: the column header, rows 1..8 as `1 [ ][n]...[n] 1`,
    /// and the header again.
    pub fn board_lines(&self) -> Vec<String> {
        let mut lines = Vec::with_capacity(10);
        lines.push(HEADER.to_string());
        for r in 0..8u8 {
            let mut line = format!("{} ", r + 1);
            for c in 0..8u8 {
                line.push('[');
                line.push(VARIANT.letter(self.grid.cell(r * 8 + c), ' '));
                line.push(']');
            }
            line.push_str(&format!(" {}", r + 1));
            lines.push(line);
        }
        lines.push(HEADER.to_string());
        lines
    }

    /// The drawing as one text, for `arena perft --position` and debugging.
    pub fn render(&self) -> String {
        let mut text = self.board_lines().join("\n");
        text.push('\n');
        text
    }

    /// Whether the side to move has lost for want of a piece or a move, as the rules judge it.
    fn stuck(&self) -> bool {
        match self.rules {
            Rules::Fid => !self.grid.has_move(self.to_move, &VARIANT),
            Rules::Server => server_rules::stuck(&self.grid, self.to_move),
        }
    }

    /// Drawn by repetition (FID's rules only) or by the move limit (a side without moves has
    /// lost instead).
    fn drawn(&self) -> Option<Draw> {
        if self.repeated && self.rules == Rules::Fid {
            Some(Draw::Rules)
        } else if self.max_plies > 0 && self.plies >= self.max_plies {
            Some(Draw::Limit)
        } else {
            None
        }
    }
}

impl Position for Board {
    type Move = Move;

    fn to_move(&self) -> Side {
        self.to_move
    }

    /// Under the server's rules, each of its moves that takes every piece at most once (see
    /// [`server_rules::moves`]); [`Position::is_legal`] takes the others too.
    fn legal_moves(&self) -> Vec<Move> {
        match self.rules {
            _ if self.drawn().is_some() => Vec::new(),
            Rules::Fid => self.grid.moves(self.to_move, &VARIANT),
            Rules::Server if self.stuck() => Vec::new(),
            Rules::Server => server_rules::moves(&self.grid, self.to_move),
        }
    }

    fn is_legal(&self, mv: &Move) -> bool {
        match self.rules {
            Rules::Fid => self.outcome().is_none() && self.legal_moves().contains(mv),
            Rules::Server => {
                self.outcome().is_none()
                    && mv.path.len() >= 2
                    && mv.path.iter().all(|&sq| sq < 64)
                    && server_rules::check(&self.grid, self.to_move, &mv.path).is_ok()
            }
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let done = self.grid.apply(&mv.path, &VARIANT);
        self.plies += 1;
        self.to_move = self.to_move.other();
        if done.captured > 0 || done.man_moved {
            self.history.clear();
        }
        let key = (self.grid.key(), self.to_move);
        self.history.push(key);
        self.repeated = self.history.iter().filter(|&&k| k == key).count() >= 3;
    }

    fn outcome(&self) -> Option<Outcome> {
        // Losing for want of a move comes first: a draw by rule does not rescue a side that
        // cannot move.
        if self.stuck() {
            return Some(Outcome::win(self.to_move.other()));
        }
        self.drawn().map(Outcome::Drawn)
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    /// Code Colosseum's input form: `6A 5B`, `6A 4C 2A`.
    fn move_text(&self, mv: &Move) -> String {
        let names: Vec<String> = mv.path.iter().map(|&i| square_name(i)).collect();
        names.join(" ")
    }

    fn evaluate(&self, seat: Side) -> i32 {
        self.grid.evaluate(seat, &VARIANT)
    }
}

impl crate::games::position::Textual for Board {
    fn start() -> Self {
        Board::start()
    }

    fn from_position(text: &str) -> Result<Self, String> {
        Board::from_fen(text)
    }

    fn position(&self) -> String {
        Board::fen(self)
    }

    fn render(&self) -> String {
        self.board_lines().join("\n")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::position::{perft, suite};
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    const START_DRAWING: &str = "   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H";

    const AFTER_6E_5D: &str = "   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][b][ ][ ][ ][ ] 5
6 [b][ ][b][ ][ ][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H";

    /// The seed's "Single catch" / "Multiple capture" position, black to move.
    const CAPTURE_DRAWING: &str = "   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][n][ ][n][ ][ ] 3
4 [n][ ][b][ ][ ][ ][n][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][ ][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H";

    /// The seed's board after `3d 5b 7d`.
    const AFTER_MULTIPLE_CAPTURE: &str = "   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][ ][ ][n][ ][ ] 3
4 [n][ ][ ][ ][ ][ ][n][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][ ][ ][b][ ][b][ ] 6
7 [ ][b][ ][n][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H";

    fn lines(drawing: &str) -> Vec<String> {
        drawing.lines().map(str::to_string).collect()
    }

    /// A position read back from a drawing (cells at columns 3, 6, ... of lines 1..=8).
    fn from_drawing(drawing: &str, to_move: Side) -> Board {
        let mut grid = Grid::empty();
        for (r, line) in drawing.lines().skip(1).take(8).enumerate() {
            let bytes = line.as_bytes();
            for c in 0..8 {
                grid.cells[r * 8 + c] = match bytes[3 + 3 * c] {
                    b'b' => Cell::Man(First),
                    b'B' => Cell::King(First),
                    b'n' => Cell::Man(Second),
                    b'N' => Cell::King(Second),
                    _ => Cell::Empty,
                };
            }
        }
        Board::from_grid(grid, to_move)
    }

    /// A position from square names, `K` before a king: `pos(First, &["6A", "K6G"], &["5B"])`.
    fn pos(to_move: Side, white: &[&str], black: &[&str]) -> Board {
        let list = |names: &[&str]| -> String {
            names
                .iter()
                .map(|name| {
                    let (k, sq) = match name.strip_prefix('K') {
                        Some(rest) => ("K", rest),
                        None => ("", *name),
                    };
                    let idx = parse_square(sq).unwrap_or_else(|| panic!("{name}"));
                    format!("{k}{}", draughts::square_number(idx).unwrap())
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = ["W", "B"][to_move];
        Board::from_fen(&format!("{side}:W{}:B{}", list(white), list(black))).unwrap()
    }

    fn texts(b: &Board) -> Vec<String> {
        let mut t: Vec<String> = b.legal_moves().iter().map(|m| b.move_text(m)).collect();
        t.sort();
        t
    }

    #[test]
    fn squares() {
        assert_eq!(square_name(40), "6A");
        assert_eq!(parse_square("6A"), Some(40));
        assert_eq!(parse_square("6a"), Some(40));
        assert_eq!(parse_square("1B"), Some(1));
        assert_eq!(parse_square("8G"), Some(62));
        assert_eq!(parse_square("1A"), None, "light square");
        assert_eq!(parse_square("9A"), None);
        assert_eq!(parse_square("0B"), None);
        assert_eq!(parse_square("6I"), None);
        assert_eq!(parse_square("A6"), None);
        assert_eq!(parse_square("6AA"), None);
        assert_eq!(parse_square(""), None);
        for idx in 0..64 {
            if draughts::is_dark(idx) {
                assert_eq!(parse_square(&square_name(idx)), Some(idx));
            }
        }
        assert_eq!(parse_move("6a  5b").unwrap(), Move::new(vec![40, 33]));
        assert_eq!(parse_move(" 6A 4C 2A ").unwrap().path.len(), 3);
        assert!(parse_move("6A").is_err());
        assert!(parse_move("").is_err());
        assert!(parse_move("6A-5B").is_err());
        assert!(parse_move("6A 5A").unwrap_err().contains("5A"));
    }

    #[test]
    fn seed_drawings() {
        let mut b = Board::start();
        assert_eq!(b.board_lines(), lines(START_DRAWING));
        assert_eq!(b.to_move(), First);
        assert_eq!(b.legal_moves().len(), 7);
        let mv = parse_move("6e 5d").unwrap();
        assert!(b.is_legal(&mv));
        b.play_unchecked(&mv);
        assert_eq!(b.board_lines(), lines(AFTER_6E_5D));
        assert_eq!(b.to_move(), Second);
        assert!(b.render().starts_with(HEADER));
    }

    #[test]
    fn seed_capture_must_be_completed() {
        let mut b = from_drawing(CAPTURE_DRAWING, Second);
        assert_eq!(b.board_lines(), lines(CAPTURE_DRAWING));
        assert!(!b.is_legal(&parse_move("3D 5B").unwrap()));
        assert!(
            !b.is_legal(&parse_move("3D 4E").unwrap()),
            "capture is compulsory"
        );
        assert_eq!(texts(&b), ["3D 5B 7D"]);
        b.play_unchecked(&parse_move("3d 5b 7d").unwrap());
        assert_eq!(b.board_lines(), lines(AFTER_MULTIPLE_CAPTURE));
    }

    #[test]
    fn fen() {
        let start = Board::start();
        assert_eq!(Board::from_fen("W:W21-32:B1-12").unwrap(), start);
        assert_eq!(
            start.fen(),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        let b = Board::from_fen("B:WK1,22:B5,K30.").unwrap();
        assert_eq!(b.to_move(), Second);
        assert_eq!(b.cell(1), Cell::King(First));
        assert_eq!(b.cell(parse_square("8C").unwrap()), Cell::King(Second));
        assert_eq!(Board::from_fen(&b.fen()).unwrap(), b);
        assert!(
            Board::from_fen("W:W1:B5")
                .unwrap_err()
                .contains("crowning row")
        );
        assert!(
            Board::from_fen("W:W21:B30")
                .unwrap_err()
                .contains("crowning row")
        );
        assert!(Board::from_fen("N:W21:B5").is_err());
    }

    #[test]
    fn fid_rule_1_most_pieces() {
        // The man on 6A takes two (5B, 3B); the king on 6G only one (5F): the man must capture.
        let b = pos(First, &["6A", "K6G"], &["5B", "3B", "5F"]);
        assert_eq!(texts(&b), ["6A 4C 2A"]);
        // Equal captures are free choice.
        let b = pos(First, &["6A", "6E"], &["5B", "5F"]);
        assert_eq!(texts(&b), ["6A 4C", "6E 4G"]);
    }

    #[test]
    fn fid_rule_2_capture_with_the_king() {
        let b = pos(First, &["6A", "K6G"], &["5B", "5F"]);
        assert_eq!(texts(&b), ["6G 4E"]);
    }

    #[test]
    fn fid_rule_3_most_kings() {
        // The king on 6C can take the man on 5B or the king on 5D: it must take the king.
        let b = pos(First, &["K6C"], &["5B", "K5D"]);
        assert_eq!(texts(&b), ["6C 4E"]);
        // More kings outweighs taking them earlier... but not more pieces: two men beat a king.
        let b = pos(First, &["K6C"], &["5B", "3B", "K5D"]);
        assert_eq!(texts(&b), ["6C 4A 2C"]);
    }

    #[test]
    fn fid_rule_4_king_met_earliest() {
        // Both lines take a king and a man with the king; 5B (a king) first wins over 5D (a man)
        // then 3F (a king).
        let b = pos(First, &["K6C"], &["K5B", "3B", "5D", "K3F"]);
        assert_eq!(texts(&b), ["6C 4A 2C"]);
        // With the kings swapped the other line is the one.
        let b = pos(First, &["K6C"], &["5B", "K3B", "K5D", "3F"]);
        assert_eq!(texts(&b), ["6C 4E 2G"]);
    }

    #[test]
    fn men_cannot_capture_kings() {
        // The man on 6C can take the man on 5D but not the king on 5B.
        let b = pos(First, &["6C"], &["K5B", "5D"]);
        assert_eq!(texts(&b), ["6C 4E"]);
        // Facing only the king, it just steps.
        let b = pos(First, &["6C"], &["K5B"]);
        assert_eq!(texts(&b), ["6C 5D"]);
        // A king takes a king; black's men cannot take white's king either.
        let b = pos(Second, &["K6C"], &["5B", "5D"]);
        assert_eq!(texts(&b), ["5B 6A", "5D 6E"]);
    }

    #[test]
    fn promotion_ends_the_move() {
        // The man on 3B takes 2C and is promoted on 1D; as a king it could take 2E, but stops.
        let mut b = pos(First, &["3B"], &["2C", "2E"]);
        assert_eq!(texts(&b), ["3B 1D"]);
        b.play_unchecked(&parse_move("3B 1D").unwrap());
        assert_eq!(b.cell(parse_square("1D").unwrap()), Cell::King(First));
        assert_eq!(b.cell(parse_square("2E").unwrap()), Cell::Man(Second));
        assert_eq!(b.to_move(), Second);
        // Promotion by a step, for black at the bottom.
        let mut b = pos(Second, &["6A"], &["7D"]);
        b.play_unchecked(&parse_move("7D 8C").unwrap());
        assert_eq!(b.cell(parse_square("8C").unwrap()), Cell::King(Second));
    }

    #[test]
    fn threefold_repetition() {
        let mut b = pos(First, &["K8A"], &["K1H"]);
        let shuttle = ["8A 7B", "1H 2G", "7B 8A", "2G 1H"].map(|t| parse_move(t).unwrap());
        for ply in 0..8 {
            assert_eq!(b.outcome(), None, "ply {ply}");
            b.play_unchecked(&shuttle[ply % 4]);
        }
        // The start position, white to move, for the third time.
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Rules)));
        assert!(b.legal_moves().is_empty());
    }

    #[test]
    fn repetition_counts_from_the_last_man_move() {
        let mut b = pos(First, &["K8A", "6C"], &["K1H"]);
        let shuttle = ["8A 7B", "1H 2G", "7B 8A", "2G 1H"].map(|t| parse_move(t).unwrap());
        for mv in &shuttle {
            b.play(mv).expect("a legal king's step");
        }
        // The man's move makes a new position; it comes back a third time 8 plies later.
        b.play_unchecked(&parse_move("6C 5D").unwrap());
        let back = ["1H 2G", "8A 7B", "2G 1H", "7B 8A"].map(|t| parse_move(t).unwrap());
        for ply in 0..8 {
            assert_eq!(b.outcome(), None, "ply {ply}");
            b.play_unchecked(&back[ply % 4]);
        }
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Rules)));
    }

    #[test]
    fn move_limit() {
        assert_eq!(Board::start().max_plies(), DEFAULT_MAX_PLIES);
        let mut b = Board::start().with_max_plies(10);
        for _ in 0..10 {
            assert_eq!(b.outcome(), None);
            let mv = b.legal_moves()[0].clone();
            b.play_unchecked(&mv);
        }
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        assert!(b.legal_moves().is_empty());
        // 0 means no limit.
        let mut b = pos(First, &["K8A"], &["K1H", "3B"]).with_max_plies(0);
        b.play_unchecked(&parse_move("8A 7B").unwrap());
        assert_eq!(b.outcome(), None);
    }

    #[test]
    fn a_side_without_moves_loses() {
        // Black's man on 7B is blocked by 8A and 8C... it is on the row before its last: the
        // white men block it and cannot be jumped off the board.
        let b = pos(Second, &["8A", "8C"], &["7B"]);
        assert!(b.legal_moves().is_empty());
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        let b = pos(First, &[], &["7B"]);
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
    }

    #[test]
    fn perft_from_start() {
        let b = Board::start();
        let counts: Vec<u64> = (1..=6).map(|d| perft(&b, d).nodes).collect();
        // English draughts has the same counts to depth 5 (the first capture choices only
        // differ in length at depth 6, where the majority rule prunes: English has 36768).
        assert_eq!(counts, [7, 49, 302, 1469, 7361, 36473]);
    }

    #[test]
    fn random_playouts() {
        suite::check(&Board::start(), 200, 400);
    }

    /// An independent, deliberately naive move generator written from the rule text: char
    /// grids, board copies, captured pieces left in place as blockers until the end, and the
    /// FID filters applied one after the other. The fast generator must agree with it.
    mod reference {
        type Grid = [[u8; 8]; 8];

        struct Seq {
            path: Vec<(i32, i32)>,
            kings: Vec<bool>,
            by_king: bool,
        }

        fn inside(r: i32, c: i32) -> bool {
            (0..8).contains(&r) && (0..8).contains(&c)
        }

        fn mine(cell: u8, white: bool) -> bool {
            if white {
                cell == b'b' || cell == b'B'
            } else {
                cell == b'n' || cell == b'N'
            }
        }

        fn jumps(g: &Grid, white: bool, king: bool, seq: &mut Seq, out: &mut Vec<Seq>) {
            let (r, c) = *seq.path.last().unwrap();
            let forward = if white { -1 } else { 1 };
            let mut more = false;
            for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                if !king && dr != forward {
                    continue;
                }
                let (mr, mc, tr, tc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
                if !inside(tr, tc) || g[tr as usize][tc as usize] != b'.' {
                    continue;
                }
                let victim = g[mr as usize][mc as usize];
                if victim == b'.' || victim == b'x' || mine(victim, white) {
                    continue;
                }
                let victim_king = victim == b'B' || victim == b'N';
                if victim_king && !king {
                    continue;
                }
                let mut next = *g;
                next[mr as usize][mc as usize] = b'x';
                seq.path.push((tr, tc));
                seq.kings.push(victim_king);
                jumps(&next, white, king, seq, out);
                seq.path.pop();
                seq.kings.pop();
                more = true;
            }
            if !more && seq.path.len() > 1 {
                out.push(Seq {
                    path: seq.path.clone(),
                    kings: seq.kings.clone(),
                    by_king: seq.by_king,
                });
            }
        }

        pub fn moves(g: &Grid, white: bool) -> Vec<Vec<u8>> {
            let mut caps = Vec::new();
            let mut steps = Vec::new();
            for r in 0..8 {
                for c in 0..8 {
                    let piece = g[r as usize][c as usize];
                    if !mine(piece, white) {
                        continue;
                    }
                    let king = piece == b'B' || piece == b'N';
                    let mut lifted = *g;
                    lifted[r as usize][c as usize] = b'.';
                    let mut seq = Seq {
                        path: vec![(r, c)],
                        kings: vec![],
                        by_king: king,
                    };
                    jumps(&lifted, white, king, &mut seq, &mut caps);
                    let forward = if white { -1 } else { 1 };
                    for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                        let (tr, tc) = (r + dr, c + dc);
                        if (king || dr == forward)
                            && inside(tr, tc)
                            && g[tr as usize][tc as usize] == b'.'
                        {
                            steps.push(vec![(r, c), (tr, tc)]);
                        }
                    }
                }
            }
            let chosen: Vec<Vec<(i32, i32)>> = if caps.is_empty() {
                steps
            } else {
                let most = caps.iter().map(|s| s.kings.len()).max().unwrap();
                caps.retain(|s| s.kings.len() == most);
                if caps.iter().any(|s| s.by_king) {
                    caps.retain(|s| s.by_king);
                }
                let count = |s: &Seq| s.kings.iter().filter(|&&k| k).count();
                let most_kings = caps.iter().map(count).max().unwrap();
                caps.retain(|s| count(s) == most_kings);
                let at = |s: &Seq| -> Vec<usize> {
                    (0..s.kings.len()).filter(|&i| s.kings[i]).collect()
                };
                let earliest = caps.iter().map(at).min().unwrap();
                caps.retain(|s| at(s) == earliest);
                caps.into_iter().map(|s| s.path).collect()
            };
            chosen
                .into_iter()
                .map(|p| p.iter().map(|&(r, c)| (r * 8 + c) as u8).collect())
                .collect()
        }
    }

    /// The naive FID generator's moves as sorted paths.
    pub(crate) fn reference_moves(b: &Board) -> Vec<Vec<u8>> {
        let mut g = [[b'.'; 8]; 8];
        for (i, cell) in b.grid.cells.iter().enumerate() {
            g[i / 8][i % 8] = VARIANT.letter(*cell, '.') as u8;
        }
        let mut m = reference::moves(&g, b.to_move == First);
        m.sort();
        m
    }

    /// The generator's moves as sorted paths, to compare with a reference's.
    pub(crate) fn sorted_paths(b: &Board) -> Vec<Vec<u8>> {
        let mut m: Vec<Vec<u8>> = b.legal_moves().into_iter().map(|m| m.path).collect();
        m.sort();
        m
    }

    /// Perft with a reference generator (sorted paths), checking the fast one at every node.
    pub(crate) fn reference_perft(
        b: &Board,
        depth: u32,
        reference: &dyn Fn(&Board) -> Vec<Vec<u8>>,
    ) -> u64 {
        let theirs = reference(b);
        assert_eq!(sorted_paths(b), theirs, "at {}", b.fen());
        if depth == 0 {
            return 1;
        }
        theirs
            .into_iter()
            .map(|p| {
                let mut next = b.clone();
                next.play_unchecked(&Move::new(p));
                reference_perft(&next, depth - 1, reference)
            })
            .sum()
    }

    #[test]
    fn perft_agrees_with_the_reference() {
        let b = Board::start();
        assert_eq!(reference_perft(&b, 6, &reference_moves), 36473);
    }

    #[test]
    fn random_games_agree_with_the_reference() {
        // Long games reach kings, multiple captures and the precedence rules.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut captures_by_king = 0;
        for _ in 0..300 {
            let mut b = Board::start().with_max_plies(0);
            while b.outcome().is_none() && b.plies() < 300 {
                assert_eq!(sorted_paths(&b), reference_moves(&b), "at {}", b.fen());
                let legal = b.legal_moves();
                let mv = legal.choose(&mut rng).unwrap().clone();
                if mv.is_capture() && b.cell(mv.origin()).is_king() {
                    captures_by_king += 1;
                }
                b.play_unchecked(&mv);
            }
        }
        assert!(captures_by_king > 100, "the playouts reached king captures");
    }
}
