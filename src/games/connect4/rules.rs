//! Connect four: pure rules, no I/O.
//!
//! Six rows by seven columns. Side 0 (player 1, `x`) moves first; seat 1 is `o`. A move is a
//! column 0..=6 and the piece falls to the lowest empty cell of that column; a full column is
//! not a move. Four in a row in any direction wins; a full board without one is a draw.
//!
//! The wire form numbers cells row-major from the top-left (index = row * 7 + col, row 0 at the
//! top). Inside, each seat's pieces are a bitboard with one 7-bit group per column, bottom row
//! first: bit `col * 7 + height`. The 7th bit of each column is never set, so shifting a whole
//! board by one direction's step can never carry a line from one column into the next, and
//! the search bot's many win checks are a few shifts and ands.

use crate::games::position::Position;
use crate::games::{Draw, Outcome, Side};

pub const ROWS: usize = 6;
pub const COLS: usize = 7;

/// Bits per column in the bitboards: the rows plus an always-empty guard bit.
const STRIDE: usize = ROWS + 1;

/// The mark of each seat in board strings and renderings.
const MARKS: [char; 2] = ['x', 'o'];

/// Moves are listed centre first. Central columns take part in more lines, so they are
/// usually the better moves, and alpha-beta prunes far more when good moves come first.
const ORDER: [u8; COLS] = [3, 2, 4, 1, 5, 0, 6];

/// The bitboard step of each direction: up a column, along a row, and the two diagonals.
const STEPS: [usize; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

const fn bit(col: usize, height: usize) -> u64 {
    1 << (col * STRIDE + height)
}

/// Whether a bitboard holds four in a row. `b & (b >> s)` marks cells that start a pair in
/// direction `s`; two such pairs `2s` apart make four. The guard bits keep lines from wrapping.
const fn has_four(b: u64) -> bool {
    let mut i = 0;
    while i < STEPS.len() {
        let s = STEPS[i];
        let pairs = b & (b >> s);
        if pairs & (pairs >> (2 * s)) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Every window of four cells that could make a line (69 of them), for the evaluation.
const WINDOWS: [u64; 69] = windows();

const fn windows() -> [u64; 69] {
    // (column step, height step) of each direction; a falling diagonal goes down as it goes right.
    const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut out = [0u64; 69];
    let mut n = 0;
    let mut d = 0;
    while d < DIRS.len() {
        let (dc, dh) = DIRS[d];
        let mut col = 0;
        while col < COLS as isize {
            let mut h = 0;
            while h < ROWS as isize {
                let (end_c, end_h) = (col + 3 * dc, h + 3 * dh);
                if end_c >= 0 && end_c < COLS as isize && end_h >= 0 && end_h < ROWS as isize {
                    let mut mask = 0;
                    let mut k = 0;
                    while k < 4 {
                        mask |= bit((col + k * dc) as usize, (h + k * dh) as usize);
                        k += 1;
                    }
                    out[n] = mask;
                    n += 1;
                }
                h += 1;
            }
            col += 1;
        }
        d += 1;
    }
    assert!(n == 69, "a 6x7 board has 69 windows of four");
    out
}

/// The centre column, which is in more windows than any other.
const CENTRE: u64 = 0b11_1111 << (3 * STRIDE);

/// Evaluation weights, kept far below `WIN` (69 windows at most 10 each, plus the centre).
const CENTRE_WEIGHT: i32 = 3;
/// The value of a window by how many pieces one side has in it while the other has none:
/// a lone piece is worth nothing, two a little, three (one move from a line) a lot more.
const WINDOW_WEIGHT: [i32; 5] = [0, 0, 2, 10, 0];

/// A connect four position: `Copy`, 32 bytes, cheap for the search bot to clone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each seat's pieces, in the column-major layout described at the top.
    pieces: [u64; 2],
    /// Pieces in each column.
    heights: [u8; COLS],
    plies: u8,
    /// The last move made four in a row. Kept so that `outcome`, which the search and perft
    /// call at every node, costs nothing: only the side that just moved can have made a line.
    won: bool,
}

impl Board {
    fn is_over(&self) -> bool {
        self.won || self.plies as usize == ROWS * COLS
    }

    /// The seat with a piece at `row` (0 at the top, as in the wire form) and `col`, if any.
    pub fn cell(&self, row: usize, col: usize) -> Option<Side> {
        let b = bit(col, ROWS - 1 - row);
        Side::BOTH
            .into_iter()
            .find(|&seat| self.pieces[seat] & b != 0)
    }

    /// The seat with four in a row, if any.
    pub fn winner(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&seat| has_four(self.pieces[seat]))
    }

    /// The 42-character wire form, row-major from the top-left: ' ', 'x' or 'o'.
    pub fn board_string(&self) -> String {
        (0..ROWS)
            .flat_map(|row| (0..COLS).map(move |col| (row, col)))
            .map(|(row, col)| self.cell(row, col).map_or(' ', |seat| MARKS[seat]))
            .collect()
    }

    /// Parse the wire form. Pieces must rest on the bottom or on other pieces; the side to
    /// move follows from the counts, since x always moves first (equal counts: x to move; one
    /// more x: o to move). A finished game must have been finished by its last move. Positions
    /// are not checked further for reachability (that the columns can be interleaved into
    /// alternating moves), which would take a search.
    pub fn from_board_string(s: &str) -> Result<Board, String> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != ROWS * COLS {
            return Err(format!(
                "a connect4 board has {} cells, this one has {}",
                ROWS * COLS,
                chars.len()
            ));
        }
        let mut board = Board::default();
        for col in 0..COLS {
            // Bottom up, so a piece seen after an empty cell is floating.
            for row in (0..ROWS).rev() {
                let seat = match chars[row * COLS + col] {
                    ' ' => continue,
                    'x' => 0,
                    'o' => 1,
                    other => {
                        return Err(format!(
                            "cell {} holds {other:?}; a cell is ' ', 'x' or 'o'",
                            row * COLS + col
                        ));
                    }
                };
                let h = board.heights[col] as usize;
                if h != ROWS - 1 - row {
                    return Err(format!(
                        "column {col} has a piece in row {row} above an empty cell"
                    ));
                }
                board.pieces[seat] |= bit(col, h);
                board.heights[col] += 1;
            }
        }
        let (xs, os) = (board.pieces[0].count_ones(), board.pieces[1].count_ones());
        if xs != os && xs != os + 1 {
            return Err(format!(
                "{xs} x and {os} o: x moves first, so there are as many x as o or one more"
            ));
        }
        board.plies = (xs + os) as u8;
        let (x4, o4) = (has_four(board.pieces[0]), has_four(board.pieces[1]));
        if x4 && o4 {
            return Err("both x and o have four in a row".into());
        }
        if x4 && xs == os {
            return Err("x has four in a row but o moved after it".into());
        }
        if o4 && xs > os {
            return Err("o has four in a row but x moved after it".into());
        }
        if x4 || o4 {
            // The winner's last piece is on top of some column and is in every one of its
            // lines; otherwise the game had ended before that move.
            let seat = if x4 { 0 } else { 1 };
            let mine = board.pieces[seat];
            let last_move_won = (0..COLS).any(|col| {
                let h = board.heights[col] as usize;
                h > 0 && mine & bit(col, h - 1) != 0 && !has_four(mine & !bit(col, h - 1))
            });
            if !last_move_won {
                return Err(format!(
                    "{} has four in a row that its last move cannot have made",
                    MARKS[seat]
                ));
            }
            board.won = true;
        }
        Ok(board)
    }

    /// Six lines of `.`, `x` and `o`, top row first, then a `0123456` footer naming the columns.
    pub fn render(&self) -> String {
        let mut lines: Vec<String> = (0..ROWS)
            .map(|row| {
                (0..COLS)
                    .map(|col| self.cell(row, col).map_or('.', |seat| MARKS[seat]))
                    .collect()
            })
            .collect();
        lines.push("0123456".into());
        lines.join("\n")
    }
}

impl Position for Board {
    type Move = u8;

    fn to_move(&self) -> Side {
        // x moves first and the players alternate, so the parity of the plies says whose turn.
        Side::BOTH[(self.plies % 2) as usize]
    }

    fn legal_moves(&self) -> Vec<u8> {
        if self.is_over() {
            return Vec::new();
        }
        ORDER
            .iter()
            .copied()
            .filter(|&col| (self.heights[col as usize] as usize) < ROWS)
            .collect()
    }

    fn play_unchecked(&mut self, mv: &u8) {
        let (seat, col) = (self.to_move(), *mv as usize);
        self.pieces[seat] |= bit(col, self.heights[col] as usize);
        self.heights[col] += 1;
        self.plies += 1;
        self.won = has_four(self.pieces[seat]);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            // The side that just moved made the line.
            Some(Outcome::win(self.to_move().other()))
        } else if self.is_over() {
            Some(Outcome::Drawn(Draw::Rules))
        } else {
            None
        }
    }

    fn plies(&self) -> u32 {
        self.plies as u32
    }

    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }

    fn is_legal(&self, mv: &u8) -> bool {
        // Cheaper than the default, which builds the move list.
        (*mv as usize) < COLS && (self.heights[*mv as usize] as usize) < ROWS && !self.is_over()
    }

    /// Centre pieces, plus every window of four that only one side can still complete,
    /// weighted by how full it is. Symmetric: `evaluate(Side::First) == -evaluate(Side::Second)`.
    fn evaluate(&self, seat: Side) -> i32 {
        let (mine, theirs) = (self.pieces[seat], self.pieces[seat.other()]);
        let centre = (mine & CENTRE).count_ones() as i32 - (theirs & CENTRE).count_ones() as i32;
        let mut score = CENTRE_WEIGHT * centre;
        for &w in &WINDOWS {
            let (a, b) = ((w & mine).count_ones(), (w & theirs).count_ones());
            if b == 0 {
                score += WINDOW_WEIGHT[a as usize];
            } else if a == 0 {
                score -= WINDOW_WEIGHT[b as usize];
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::position::{WIN, perft, random_move, search_move, suite};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A full board without four in a row (21 of each).
    const DRAWN: &str = "oxxoooxxooxxxooooxoxoxxoxoooxoxoxxxxxooxox";

    fn board(s: &str) -> Board {
        Board::from_board_string(s).unwrap()
    }

    /// Play `moves` from the start: the game goes on until the last one, which wins for `seat`.
    fn assert_last_move_wins(moves: &[u8], seat: Side) {
        let mut b = Board::default();
        for (i, mv) in moves.iter().enumerate() {
            assert!(b.outcome().is_none(), "{moves:?}: over before move {i}");
            assert_eq!(b.play(mv), Ok(()), "{moves:?}: move {i}");
        }
        assert_eq!(b.outcome(), Some(Outcome::win(seat)), "{moves:?}");
        assert_eq!(b.winner(), Some(seat));
        assert!(b.legal_moves().is_empty());
        assert!((0..7).all(|c| !b.is_legal(&c)));
        // The same position read back from its wire form is the same finished game.
        assert_eq!(Board::from_board_string(&b.board_string()), Ok(b));
    }

    #[test]
    fn perft_counts_match_the_known_tree() {
        let expected = [7, 49, 343, 2401, 16807, 117649];
        let start = Board::default();
        for (depth, &nodes) in (1..).zip(&expected) {
            let p = perft(&start, depth);
            assert_eq!(p.nodes, nodes, "depth {depth}");
            // x needs four pieces, so no game can end before the seventh move.
            assert_eq!(p.finished, 0, "depth {depth}");
        }
    }

    /// Seven moves from the start, counted with a plain grid and a direct scan, nothing shared
    /// with `Board`: how many sequences there are, and how many end with x's fourth piece
    /// making a line (no line is possible earlier, so only the last piece needs scanning).
    fn brute_force_ply_7() -> (u64, u64) {
        fn walk(cols: &mut [Vec<u8>; 7], ply: u32, last: (usize, usize), out: &mut (u64, u64)) {
            if ply == 7 {
                out.0 += 1;
                let at = |c: isize, r: isize| {
                    (0..7).contains(&c)
                        && (0..6).contains(&r)
                        && cols[c as usize].get(r as usize) == Some(&b'x')
                };
                let (c, r) = (last.0 as isize, last.1 as isize);
                let wins = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    let run = |sign: isize| {
                        (1..4)
                            .take_while(|k| at(c + sign * k * dc, r + sign * k * dr))
                            .count()
                    };
                    1 + run(1) + run(-1) >= 4
                });
                out.1 += wins as u64;
                return;
            }
            let mark = if ply.is_multiple_of(2) { b'x' } else { b'o' };
            for c in 0..7 {
                if cols[c].len() < 6 {
                    cols[c].push(mark);
                    walk(cols, ply + 1, (c, cols[c].len() - 1), out);
                    cols[c].pop();
                }
            }
        }
        let mut out = (0, 0);
        walk(&mut Default::default(), 0, (0, 0), &mut out);
        out
    }

    /// Depth 7 is the first where games end: x's fourth piece can make a line. The count is
    /// 13,032 sequences (11,520 along a row, 1,512 up a column; a diagonal needs six pieces
    /// under it), ending in 728 distinct positions. A separate scan of every sequence, written
    /// outside this crate, found the same numbers.
    /// About 0.8 s unoptimised, within the time budget of these tests.
    #[test]
    fn perft_7_and_the_first_finished_games() {
        let p = perft(&Board::default(), 7);
        let (sequences, wins) = brute_force_ply_7();
        assert_eq!(p.nodes, 823_536);
        assert_eq!(p.nodes, sequences);
        assert_eq!(p.finished, wins);
        assert_eq!(p.finished, 13_032);
    }

    #[test]
    fn four_in_a_row_wins_in_every_direction() {
        // Along the bottom row, o stacking on x.
        assert_last_move_wins(&[0, 0, 1, 1, 2, 2, 3], First);
        // Up a column, for o.
        assert_last_move_wins(&[0, 1, 0, 1, 0, 1, 2, 1], Second);
        // Rising diagonal: x at (col, height) (0,0), (1,1), (2,2), (3,3).
        let rising = [0, 1, 1, 2, 3, 2, 2, 3, 5, 3, 3];
        assert_last_move_wins(&rising, First);
        // Its mirror image is the falling diagonal.
        let falling: Vec<u8> = rising.iter().map(|c| 6 - c).collect();
        assert_last_move_wins(&falling, First);
        // Lines do not wrap from one column's top into the next column's bottom.
        // Column 0 ends with two x on top and column 1 starts with two x: four consecutive
        // bits in a layout without the guard bit.
        let b = board(
            &[
                "x      ", "x      ", "o      ", "x      ", "ox     ", "oxoo   ",
            ]
            .concat(),
        );
        assert!(b.winner().is_none() && b.outcome().is_none());
    }

    #[test]
    fn pieces_fall_and_a_full_column_is_not_a_move() {
        let mut b = Board::default();
        b.play_unchecked(&3);
        assert_eq!(b.board_string().find('x'), Some(5 * 7 + 3));
        b.play_unchecked(&3);
        assert_eq!(b.board_string().find('o'), Some(4 * 7 + 3));
        for _ in 0..4 {
            b.play_unchecked(&3);
        }
        assert_eq!(b.cell(0, 3), Some(Second));
        assert!(!b.is_legal(&3));
        assert!(!b.legal_moves().contains(&3));
        assert_eq!(b.legal_moves(), vec![2, 4, 1, 5, 0, 6]);
        assert!(!b.is_legal(&7));
        assert!(b.outcome().is_none());
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let b = board(DRAWN);
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Rules)));
        assert!(b.legal_moves().is_empty());
        // And by playing the last move.
        let mut b = board(&format!(" {}", &DRAWN[1..]));
        assert_eq!(b.legal_moves(), vec![0]);
        assert_eq!(b.to_move(), Second);
        b.play_unchecked(&0);
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Rules)));
        assert_eq!(b.board_string(), DRAWN);
    }

    #[test]
    fn strings_round_trip_and_render() {
        let mut b = Board::default();
        for mv in [3, 3, 4] {
            b.play_unchecked(&mv);
        }
        let s = b.board_string();
        assert_eq!(s.len(), 42);
        assert_eq!(&s[28..], "   o      xx  ");
        assert_eq!(Board::from_board_string(&s), Ok(b));
        assert_eq!(board(&s).to_move(), Second);
        assert_eq!(
            b.render(),
            ".......\n.......\n.......\n.......\n...o...\n...xx..\n0123456"
        );
        assert_eq!(b.move_text(&6), "6");
    }

    #[test]
    fn impossible_boards_are_refused() {
        let empty = " ".repeat(42);
        let with = |cells: &[(usize, char)]| {
            let mut s: Vec<char> = empty.chars().collect();
            for &(i, c) in cells {
                s[i] = c;
            }
            s.into_iter().collect::<String>()
        };
        for (s, why) in [
            (" ".repeat(41), "42 cells"),
            (with(&[(38, '.')]), "'.'"),
            (with(&[(31, 'x'), (24, 'o')]), "above an empty cell"),
            (with(&[(38, 'x'), (31, 'x')]), "as many x as o"),
            (with(&[(38, 'o')]), "as many x as o"),
            // x along the bottom, o on top of it: x won, then o moved.
            (
                with(&[
                    (35, 'x'),
                    (36, 'x'),
                    (37, 'x'),
                    (38, 'x'),
                    (28, 'o'),
                    (29, 'o'),
                    (30, 'o'),
                    (31, 'o'),
                ]),
                "both",
            ),
            (
                with(&[
                    (35, 'x'),
                    (36, 'x'),
                    (37, 'x'),
                    (38, 'x'),
                    (28, 'o'),
                    (29, 'o'),
                    (30, 'o'),
                    (40, 'o'),
                ]),
                "o moved after",
            ),
            // Two separate lines of x: the first one ended the game.
            (
                with(&[
                    (35, 'x'),
                    (36, 'x'),
                    (37, 'x'),
                    (38, 'x'),
                    (28, 'x'),
                    (29, 'x'),
                    (30, 'x'),
                    (31, 'x'),
                    (39, 'o'),
                    (40, 'o'),
                    (41, 'o'),
                    (32, 'o'),
                    (33, 'o'),
                    (34, 'o'),
                    (25, 'o'),
                ]),
                "last move cannot",
            ),
        ] {
            let err = Board::from_board_string(&s).unwrap_err();
            assert!(err.contains(why), "{s:?}: {err}");
        }
    }

    #[test]
    fn evaluation_is_symmetric_and_likes_the_centre_and_threes() {
        let start = Board::default();
        assert_eq!(start.evaluate(First), 0);
        let mut centre = start;
        centre.play_unchecked(&3);
        let mut edge = start;
        edge.play_unchecked(&0);
        assert!(centre.evaluate(First) > edge.evaluate(First));
        assert!(centre.evaluate(First) > 0);
        assert_eq!(centre.evaluate(Second), -centre.evaluate(First));
        // Three x in a row on the bottom beat three scattered ones.
        let three = board(&format!("{:35}xxx o o", ""));
        let scattered = board(&format!("{:35}x x oxo", ""));
        assert!(three.evaluate(First) > scattered.evaluate(First));
        assert!(three.evaluate(First).abs() < WIN / 100);
    }

    #[test]
    fn search_beats_a_random_mover() {
        let mut wins = 0;
        for game in 0..20u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(game);
            let bot = Side::BOTH[(game % 2) as usize];
            let mut b = Board::default();
            while b.outcome().is_none() {
                let mv = if b.to_move() == bot {
                    search_move(&b, 6, &mut rng)
                } else {
                    random_move(&b, &mut rng)
                };
                b.play_unchecked(&mv.expect("a move while the game goes on"));
            }
            wins += (b.outcome().unwrap().winner() == Some(bot)) as u32;
        }
        assert!(wins >= 18, "the search bot won only {wins} of 20");
    }

    #[test]
    fn search_takes_a_win_and_blocks_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        // x to move with three along the bottom: it completes the line.
        let b = board(&format!("{:28}ooo    xxx    ", ""));
        assert_eq!(search_move(&b, 2, &mut rng), Some(3));
        // o to move facing the same three: it blocks.
        let b = board(&format!("{:35}xxx oo ", ""));
        assert_eq!(search_move(&b, 2, &mut rng), Some(3));
    }

    #[test]
    fn rules_suite() {
        suite::check(&Board::default(), 300, 43);
    }
}
