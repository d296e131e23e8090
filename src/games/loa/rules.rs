//! Lines of Action on an 8x8 board: pure rules, no I/O.
//!
//! Squares are named in chess notation, file `a`..`h` then rank `1`..`8` (`b1`); inside they are
//! indices rank * 8 + file, so `a1` is 0, `h1` is 7 and `h8` is 63, and each side's checkers are a
//! 64-bit set. Side 0 plays black (`b`), starts on b1..g1 and b8..g8 and moves first; seat 1 plays
//! white (`w`) from a2..a7 and h2..h7.
//!
//! A checker moves along its row, column or either diagonal exactly as many squares as there are
//! checkers (both colours) on that whole line. It may jump over its own checkers but not over the
//! opponent's, and lands on an empty square or captures by landing on an opponent's checker. A side
//! whose checkers all form one group, connected in the 8-neighbourhood, has won; a single checker
//! is a group. After every move the mover is checked first, then the opponent, so a move that
//! connects both sides wins for the mover and one that connects only the opponent (a capture of
//! its last stray checker) wins for the opponent. A side with no legal move passes (`pass`), which
//! counts as a ply. After `max_plies` plies (150 unless set otherwise) the game is a draw.

use crate::games::position::Position;
use crate::games::{Draw, Outcome, Side};

/// Plies after which a game is drawn (reason `limit`), unless set otherwise.
pub const DEFAULT_MAX_PLIES: u32 = 150;

/// The letter of each seat's checkers: black moves first.
pub const COLOURS: [char; 2] = ['b', 'w'];

/// A move: a checker from one square to another, or a pass when the side has no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Step { from: u8, to: u8 },
    Pass,
}

pub fn file(sq: u8) -> u8 {
    sq % 8
}

pub fn rank(sq: u8) -> u8 {
    sq / 8
}

/// `b1` for index 1.
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + file(sq)) as char, rank(sq) + 1)
}

/// The index of a square named like `b1` (lowercase); `None` off the board or for anything else.
pub fn parse_square(s: &str) -> Option<u8> {
    let &[f, r] = s.as_bytes() else {
        return None;
    };
    let f = f.checked_sub(b'a').filter(|f| *f < 8)?;
    let r = r.checked_sub(b'1').filter(|r| *r < 8)?;
    Some(r * 8 + f)
}

/// The four line kinds and, for each, its two directions as (file step, rank step).
const LINE_DIRS: [[(i8, i8); 2]; 4] = [
    [(1, 0), (-1, 0)],  // the rank (row)
    [(0, 1), (0, -1)],  // the file (column)
    [(1, 1), (-1, -1)], // the diagonal a1-h8
    [(1, -1), (-1, 1)], // the anti-diagonal a8-h1
];

/// For each line kind and square, every square of the whole line through it.
const LINES: [[u64; 64]; 4] = {
    let mut lines = [[0u64; 64]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 64 {
            let mut mask = 1u64 << sq;
            let mut d = 0;
            while d < 2 {
                let (df, dr) = LINE_DIRS[kind][d];
                let mut f = (sq % 8) as i8 + df;
                let mut r = (sq / 8) as i8 + dr;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    mask |= 1u64 << (r * 8 + f);
                    f += df;
                    r += dr;
                }
                d += 1;
            }
            lines[kind][sq] = mask;
            sq += 1;
        }
        kind += 1;
    }
    lines
};

const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// The set grown by one square in all eight directions.
fn dilate(x: u64) -> u64 {
    let row = x | ((x << 1) & NOT_FILE_A) | ((x >> 1) & NOT_FILE_H);
    row | (row << 8) | (row >> 8)
}

/// The group of `set` that holds its lowest square.
fn first_group(set: u64) -> u64 {
    let mut group = set & set.wrapping_neg();
    loop {
        let grown = dilate(group) & set;
        if grown == group {
            return group;
        }
        group = grown;
    }
}

/// Whether the checkers form one 8-connected group (a single checker does; so would none).
pub fn connected(set: u64) -> bool {
    set == 0 || first_group(set) == set
}

/// How many 8-connected groups the checkers form.
pub fn groups(mut set: u64) -> u32 {
    let mut n = 0;
    while set != 0 {
        set &= !first_group(set);
        n += 1;
    }
    n
}

/// The centre of mass of a non-empty set of checkers, rounded to a square: (file, rank).
fn centre(set: u64) -> (i32, i32) {
    let n = (set.count_ones() as i32).max(1);
    let (mut sf, mut sr) = (0, 0);
    let mut rest = set;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        sf += file(sq) as i32;
        sr += rank(sq) as i32;
    }
    ((2 * sf + n) / (2 * n), (2 * sr + n) / (2 * n))
}

/// A Lines of Action position: the checkers, the side to move, and the move count.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Each seat's checkers, bit `sq` set for a checker on `sq`.
    sides: [u64; 2],
    to_move: Side,
    plies: u32,
    /// Plies after which the game is drawn (0: no limit).
    max_plies: u32,
    /// Decided after each move.
    result: Option<Outcome>,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The initial position, black (seat 0) to move.
    pub fn start() -> Board {
        let black = 0x7E00_0000_0000_007E; // b1..g1 and b8..g8
        let white = 0x0081_8181_8181_8100; // a2..a7 and h2..h7
        Board::from_sides([black, white], Side::First)
    }

    fn from_sides(sides: [u64; 2], to_move: Side) -> Board {
        let mut b = Board {
            sides,
            to_move,
            plies: 0,
            max_plies: DEFAULT_MAX_PLIES,
            result: None,
        };
        // A position given ready-made may already be decided: the side that moved last first.
        b.result = b.decide(to_move.other());
        b
    }

    /// The same position with a limit of `n` plies in all (0: no limit).
    pub fn with_max_plies(mut self, n: u32) -> Board {
        self.max_plies = n;
        self.result = self.decide(self.to_move.other());
        self
    }

    /// Plies after which the game is drawn (0: no limit).
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// A position as `arena perft loa --position` takes it: the eight rows from rank 8 down to
    /// rank 1, each eight characters `.`, `b` or `w` from file a to h, joined by `/`, then a space
    /// and the side to move, `b` or `w`. The start is
    /// `.bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b`.
    pub fn from_position(text: &str) -> Result<Board, String> {
        let text = text.trim();
        let (rows, side) = text
            .rsplit_once(' ')
            .ok_or("expected the 8 rows joined by '/', a space, and the side to move (b or w)")?;
        let to_move = match side {
            "b" => Side::First,
            "w" => Side::Second,
            _ => return Err(format!("the side to move is b or w, not {side:?}")),
        };
        let rows: Vec<&str> = rows.trim().split('/').collect();
        if rows.len() != 8 {
            return Err(format!(
                "expected 8 rows joined by '/', rank 8 first, got {}",
                rows.len()
            ));
        }
        let mut sides = [0u64; 2];
        for (i, row) in rows.iter().enumerate() {
            let r = 7 - i as u8;
            if row.chars().count() != 8 {
                return Err(format!(
                    "rank {}: expected 8 characters of '.', 'b' and 'w', got {row:?}",
                    r + 1
                ));
            }
            for (f, c) in row.chars().enumerate() {
                let bit = 1u64 << (r * 8 + f as u8);
                match c {
                    '.' => {}
                    'b' => sides[0] |= bit,
                    'w' => sides[1] |= bit,
                    _ => {
                        return Err(format!("rank {}: {c:?} is not '.', 'b' or 'w'", r + 1));
                    }
                }
            }
        }
        for (seat, set) in Side::BOTH.into_iter().zip(sides) {
            if set == 0 {
                return Err(format!("{} has no checker", COLOURS[seat]));
            }
        }
        Ok(Board::from_sides(sides, to_move))
    }

    /// The position in the form [`Board::from_position`] reads.
    pub fn position_text(&self) -> String {
        format!("{} {}", self.board_lines().join("/"), COLOURS[self.to_move])
    }

    /// The eight rows as the protocol sends them: rank 8 first, `.`, `b` or `w` from file a to h.
    pub fn board_lines(&self) -> Vec<String> {
        (0..8u8)
            .rev()
            .map(|r| (0..8u8).map(|f| self.letter(r * 8 + f)).collect())
            .collect()
    }

    /// The board for people, `arena perft` and debugging: the rows then who is to move.
    pub fn render(&self) -> String {
        format!(
            "{}\n{} to move\n",
            self.board_lines().join("\n"),
            COLOURS[self.to_move]
        )
    }

    /// What stands on a square: `.`, `b` or `w`.
    pub fn letter(&self, sq: u8) -> char {
        match self.owner(sq) {
            Some(seat) => COLOURS[seat],
            None => '.',
        }
    }

    /// The seat whose checker stands on `sq`, if any.
    pub fn owner(&self, sq: u8) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&s| self.sides[s] & (1u64 << sq) != 0)
    }

    /// Each seat's checkers as a set (bit `sq`).
    pub fn sides(&self) -> [u64; 2] {
        self.sides
    }

    /// The ordinary moves (no pass) of the side to move, whether or not the game is over, the
    /// promising ones first (for the search's pruning): captures, then those that bring a
    /// checker closest to its side's centre of mass.
    fn steps(&self) -> Vec<Move> {
        let me = self.to_move;
        let own = self.sides[me];
        let theirs = self.sides[me.other()];
        let occupied = own | theirs;
        let mut moves = Vec::with_capacity(48);
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            for (kind, dirs) in LINE_DIRS.iter().enumerate() {
                let n = (occupied & LINES[kind][from as usize]).count_ones() as i8;
                'dir: for &(df, dr) in dirs {
                    let tf = file(from) as i8 + n * df;
                    let tr = rank(from) as i8 + n * dr;
                    if !(0..8).contains(&tf) || !(0..8).contains(&tr) {
                        continue;
                    }
                    let to = (tr * 8 + tf) as u8;
                    if own & (1u64 << to) != 0 {
                        continue;
                    }
                    for k in 1..n {
                        let sq = (file(from) as i8 + k * df) + 8 * (rank(from) as i8 + k * dr);
                        if theirs & (1u64 << sq) != 0 {
                            continue 'dir;
                        }
                    }
                    moves.push(Move::Step { from, to });
                }
            }
        }
        let (cf, cr) = centre(own);
        let away = |sq: u8| {
            (file(sq) as i32 - cf)
                .abs()
                .max((rank(sq) as i32 - cr).abs())
        };
        moves.sort_by_cached_key(|m| match *m {
            Move::Step { from, to } => {
                2 * (away(to) - away(from)) - (theirs & (1u64 << to) != 0) as i32
            }
            Move::Pass => 0,
        });
        moves
    }

    /// Why a step from `from` to `to` (both on the board) is not legal for the side to move, in a
    /// sentence; `None` if it is legal.
    pub fn why_illegal(&self, from: u8, to: u8) -> Option<String> {
        let me = self.to_move;
        let (mine, name) = (COLOURS[me], square_name(from));
        if self.result.is_some() {
            return Some("the game is over".into());
        }
        match self.owner(from) {
            None => return Some(format!("there is no checker on {name}")),
            Some(s) if s != me => {
                return Some(format!(
                    "the checker on {name} is {}'s, not {mine}'s",
                    COLOURS[s]
                ));
            }
            _ => {}
        }
        let (df, dr) = (
            file(to) as i8 - file(from) as i8,
            rank(to) as i8 - rank(from) as i8,
        );
        let dist = df.abs().max(dr.abs());
        if dist == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return Some(format!(
                "{} is not on a row, column or diagonal from {name}",
                square_name(to)
            ));
        }
        let kind = match (df.signum(), dr.signum()) {
            (_, 0) => 0,
            (0, _) => 1,
            (a, b) if a == b => 2,
            _ => 3,
        };
        let n = (self.sides[0] | self.sides[1]) & LINES[kind][from as usize];
        let n = n.count_ones() as i8;
        if dist != n {
            return Some(format!(
                "the checker on {name} must move exactly {n} squares along that line \
                 (it holds {n} checkers), not {dist}"
            ));
        }
        let (sf, sr) = (df.signum(), dr.signum());
        for k in 1..n {
            let sq = ((file(from) as i8 + k * sf) + 8 * (rank(from) as i8 + k * sr)) as u8;
            if self.owner(sq) == Some(me.other()) {
                return Some(format!(
                    "it would jump over {}'s checker on {}",
                    COLOURS[me.other()],
                    square_name(sq)
                ));
            }
        }
        if self.owner(to) == Some(me) {
            return Some(format!(
                "{} is taken by {mine}'s own checker",
                square_name(to)
            ));
        }
        None
    }

    /// The result for a position where `mover` has just moved: the mover first, then the other.
    fn decide(&self, mover: Side) -> Option<Outcome> {
        if connected(self.sides[mover]) {
            Some(Outcome::win(mover))
        } else if connected(self.sides[mover.other()]) {
            Some(Outcome::win(mover.other()))
        } else if self.max_plies > 0 && self.plies >= self.max_plies {
            Some(Outcome::Drawn(Draw::Limit))
        } else {
            None
        }
    }

    /// Sum over the checkers of their distance (king's moves) to the group's centre of mass, less
    /// the least that many checkers can have: 0 for a tight cluster.
    fn spread(set: u64) -> i32 {
        let n = set.count_ones() as i32;
        if n <= 1 {
            return 0;
        }
        let (cf, cr) = centre(set);
        let mut sum = 0;
        let mut rest = set;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            sum += (file(sq) as i32 - cf)
                .abs()
                .max((rank(sq) as i32 - cr).abs());
        }
        // The least: one checker on the centre, 8 around it at 1, 16 at 2.
        let least = match n {
            0..=1 => 0,
            2..=9 => n - 1,
            _ => 8 + 2 * (n - 9),
        };
        sum - least
    }

    /// How far the checkers are from the centre of the board, summed (king's moves from the
    /// central four squares).
    fn off_centre(set: u64) -> i32 {
        let mut sum = 0;
        let mut rest = set;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let d = |x: u8| if x < 4 { 3 - x as i32 } else { x as i32 - 4 };
            sum += d(file(sq)).max(d(rank(sq)));
        }
        sum
    }

    /// One side's shortcomings: spread out, split into groups, far from the centre.
    fn badness(set: u64) -> i32 {
        let n = set.count_ones() as i32;
        10 * Self::spread(set)
            + 20 * (groups(set) as i32 - 1)
            + 4 * Self::off_centre(set) / n.max(1)
    }
}

impl Position for Board {
    type Move = Move;

    fn to_move(&self) -> Side {
        self.to_move
    }

    /// The moves of the side to move; only `pass` when it has none; nothing once the game is over.
    fn legal_moves(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        let moves = self.steps();
        if moves.is_empty() {
            vec![Move::Pass]
        } else {
            moves
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let me = self.to_move;
        if let Move::Step { from, to } = *mv {
            self.sides[me] = (self.sides[me] & !(1u64 << from)) | (1u64 << to);
            self.sides[me.other()] &= !(1u64 << to);
        }
        self.plies += 1;
        self.to_move = me.other();
        self.result = self.decide(me);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    /// `b1b3`, or `pass`.
    fn move_text(&self, mv: &Move) -> String {
        match *mv {
            Move::Step { from, to } => format!("{}{}", square_name(from), square_name(to)),
            Move::Pass => "pass".into(),
        }
    }

    fn is_legal(&self, mv: &Move) -> bool {
        match *mv {
            Move::Step { from, to } => from < 64 && to < 64 && self.why_illegal(from, to).is_none(),
            Move::Pass => self.result.is_none() && self.steps().is_empty(),
        }
    }

    fn evaluate(&self, seat: Side) -> i32 {
        Self::badness(self.sides[seat.other()]) - Self::badness(self.sides[seat])
    }
}

impl crate::games::position::Textual for Board {
    fn start() -> Self {
        Board::start()
    }

    fn from_position(text: &str) -> Result<Self, String> {
        Board::from_position(text)
    }

    fn position(&self) -> String {
        Board::position_text(self)
    }

    fn render(&self) -> String {
        Board::render(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::position::{perft, suite};
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    const START: &str = ".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b";

    fn texts(b: &Board) -> Vec<String> {
        let mut t: Vec<String> = b.legal_moves().iter().map(|m| b.move_text(m)).collect();
        t.sort();
        t
    }

    fn play(b: &mut Board, text: &str) {
        let mv = b
            .legal_moves()
            .into_iter()
            .find(|m| b.move_text(m) == text)
            .unwrap_or_else(|| panic!("{text} is not legal in {}", b.position_text()));
        b.play_unchecked(&mv);
    }

    fn at(text: &str) -> Board {
        Board::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn why(b: &Board, mv: &str) -> String {
        b.why_illegal(
            parse_square(&mv[..2]).unwrap(),
            parse_square(&mv[2..]).unwrap(),
        )
        .unwrap_or_default()
    }

    #[test]
    fn squares() {
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
        assert_eq!(parse_square("b1"), Some(1));
        assert_eq!(parse_square("h8"), Some(63));
        for bad in ["i1", "a9", "a0", "b", "b10", "B1", ""] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }

    #[test]
    fn start_and_position_text() {
        let b = Board::start();
        assert_eq!(b.position_text(), START);
        assert_eq!(at(START), b);
        assert_eq!(
            b.board_lines(),
            [
                ".bbbbbb.", "w......w", "w......w", "w......w", "w......w", "w......w", "w......w",
                ".bbbbbb."
            ]
        );
        for bad in [
            "",
            ".bbbbbb. b",
            &START.replace(" b", " x"),
            &START.replace(".bbbbbb./w", ".bbbbbbx/w"),
            &START.replace(".bbbbbb./w", ".bbbbbb/w"),
            // White has no checker.
            "......../......../......../......../......../......../......../bbbbbbbb w",
        ] {
            assert!(Board::from_position(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn first_moves() {
        let b = Board::start();
        let t = texts(&b);
        assert_eq!(t.len(), 36);
        // b1: rank 1 holds 6 checkers (over its own to h1), its file 2, its diagonal 2 (with
        // white's h7), its anti-diagonal 2 (with a2: off the board).
        for mv in [
            "b1h1", "b1b3", "b1d3", "g1a1", "c1c3", "c1a3", "c1e3", "g8g6",
        ] {
            assert!(t.contains(&mv.to_string()), "{mv}: {t:?}");
        }
        assert!(!t.iter().any(|m| m.starts_with("b1a")), "{t:?}");
    }

    #[test]
    fn why_illegal_explains() {
        let b = Board::start();
        assert_eq!(why(&b, "b1b3"), "");
        assert!(why(&b, "a2c2").contains("w's, not b's"));
        assert!(why(&b, "d4d6").contains("no checker on d4"));
        assert!(why(&b, "b1c3").contains("not on a row"));
        assert!(why(&b, "b1b1").contains("not on a row"));
        assert!(
            why(&b, "b1b4").contains("exactly 2 squares"),
            "{}",
            why(&b, "b1b4")
        );
        assert!(why(&b, "b1c1").contains("exactly 6 squares"));
        // White's a2 along rank 2 (a2, h2: 2 squares): c2 is fine; along its diagonal (a2,
        // b3..g8: a2 and g8) b3? No: 2 squares, to c4.
        let mut b = Board::start();
        play(&mut b, "b1b3");
        assert_eq!(why(&b, "a2c2"), "");
        // a2's diagonal now holds a2, b3 and g8: 3 squares to d5, over black's b3.
        assert!(
            why(&b, "a2d5").contains("jump over b's checker on b3"),
            "{}",
            why(&b, "a2d5")
        );
        // a3 along rank 3 (a3, b3, h3): 3 squares to d3, jumping b3.
        assert!(why(&b, "a3d3").contains("jump over b's checker on b3"));
        // White a1, a2 and a4 on file a (3 checkers), black c1 and g2.
        let b = at("......../......../......../......../w......./......../w.....b./w.b..... w");
        assert_eq!(why(&b, "a2a5"), "");
        assert_eq!(why(&b, "a1c1"), "", "a capture");
        assert!(why(&b, "a2a4").contains("exactly 3"));
        assert!(why(&b, "a1a4").contains("a4 is taken by w's own checker"));
        // The game over, nothing is legal.
        let mut b = b;
        b.result = Some(Outcome::win(First));
        assert!(why(&b, "a2a5").contains("over"));
    }

    #[test]
    fn a_single_checker_is_connected() {
        assert!(connected(1 << 20));
        assert!(connected(0));
        assert!(connected(0b11));
        assert!(connected((1 << 0) | (1 << 9))); // a1, b2: diagonal neighbours
        assert!(!connected((1 << 7) | (1 << 8))); // h1, a2: not neighbours (no wrap-around)
        assert!(!connected((1 << 0) | (1 << 2)));
        assert_eq!(groups(Board::start().sides()[0]), 2);
        assert_eq!(groups(Board::start().sides()[1]), 2);
        // Black captures white's stray e4 with h1 (h1-a8 holds h1, e4 and a8: 3 squares); white
        // is left with its single a8 checker, connected, while black is not: white wins.
        let mut b = at("w......./......../......../......../....w.../......../.bb...../.......b b");
        assert_eq!(b.outcome(), None);
        play(&mut b, "h1e4");
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
        assert!(b.legal_moves().is_empty());
    }

    #[test]
    fn a_move_that_connects_both_sides_wins_for_the_mover() {
        // h1 captures e4 (3 on the anti-diagonal: h1, e4, a8) next to c3-d4: black is one
        // group, and so is white's a7-a8.
        let mut b = at("w......./w......./......../......../...bw.../..b...../......../.......b b");
        assert_eq!(b.outcome(), None);
        play(&mut b, "h1e4");
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        // The same seen from white: white's capture that connects both wins for white.
        let mut b = at("b......./b......./......../......../...wb.../..w...../......../.......w w");
        play(&mut b, "h1e4");
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
    }

    #[test]
    fn a_capture_that_connects_only_the_opponent_loses() {
        // As above but black's c2-b2 are too far from e4: only white ends up connected.
        let mut b = at("w......./w......./......../......../....w.../......../.bb...../.......b b");
        play(&mut b, "h1e4");
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
    }

    #[test]
    fn connecting_by_an_ordinary_move_wins() {
        // Black a1 along rank 1 (only itself: 1 square) to b1 joins c2-d2.
        let mut b = at(".......w/......../......../......../w......./......../..bb..../b....... b");
        assert_eq!(b.outcome(), None);
        play(&mut b, "a1b1");
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        // A position given ready-made with white connected, white to move: black moved last
        // without connecting, white is connected, so white has won.
        let b = at("......../......../......../w......./w......./......../..bb..../b....... w");
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
        assert!(b.legal_moves().is_empty());
    }

    #[test]
    fn no_move_means_pass() {
        // White's a1 and h8 are each walled in by black: every line out of them is blocked.
        let mut b = at(".....bbw/......bb/......../......../......../......../bb....../wb...... w");
        assert_eq!(b.outcome(), None);
        assert_eq!(b.legal_moves(), [Move::Pass]);
        assert_eq!(texts(&b), ["pass"]);
        assert_eq!(reference_of(&b).moves(), ["pass"]);
        assert!(b.is_legal(&Move::Pass));
        assert!(!Board::start().is_legal(&Move::Pass));
        play(&mut b, "pass");
        assert_eq!(b.plies(), 1);
        assert_eq!(b.to_move(), First);
        assert_eq!(b.outcome(), None);
        assert!(!b.legal_moves().contains(&Move::Pass));
    }

    #[test]
    fn the_game_is_drawn_after_150_plies() {
        let mut b = Board::start();
        b.plies = 149;
        play(&mut b, "b1b3");
        assert_eq!(b.plies(), 150);
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        assert!(b.legal_moves().is_empty());
        // Passes count: a player stuck for good passes until the limit.
        let mut b = at(".....bbw/......bb/......../......../......../......../bb....../wb...... w");
        b.plies = 149;
        play(&mut b, "pass");
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        // A connecting move on the last ply still wins.
        let mut b = at(".......w/......../......../......../w......./......../..bb..../b....... b");
        b.plies = 149;
        play(&mut b, "a1b1");
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        // And a whole game of random moves that connects no one stops at exactly 150.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut seen = false;
        for _ in 0..200 {
            let mut b = Board::start();
            while b.outcome().is_none() {
                assert!(b.plies() < 150);
                let mv = *b.legal_moves().choose(&mut rng).unwrap();
                b.play_unchecked(&mv);
            }
            if b.outcome() == Some(Outcome::Drawn(Draw::Limit)) {
                assert_eq!(b.plies(), 150);
                seen = true;
            }
        }
        assert!(seen, "some random game reached the limit");
        assert_eq!(
            Board::start().with_max_plies(0).max_plies,
            0,
            "0 means no limit"
        );
    }

    #[test]
    fn perft_from_start() {
        let b = Board::start();
        let counts: Vec<u64> = (1..=3).map(|d| perft(&b, d).nodes).collect();
        assert_eq!(counts, [36, 1244, 44952]);
    }

    #[test]
    fn random_playouts() {
        suite::check(&Board::start(), 100, 160);
    }

    #[test]
    fn evaluation_prefers_a_tight_group() {
        let b = Board::start();
        assert_eq!(b.evaluate(First), 0, "the start is symmetric");
        // Black gathered in the centre against white spread along the edges.
        let b = at("......../w......w/...bb.../..bbbb../..bbbb../...bb.../w......w/......w. w");
        assert!(b.evaluate(First) > 0 && b.evaluate(Second) < 0);
        assert_eq!(b.evaluate(First), -b.evaluate(Second));
    }

    /// An independent, deliberately simple rules engine written from the rule text: a grid of
    /// characters, lines counted by walking both ways, groups found by a flood fill over
    /// explicit neighbours.
    mod reference {
        #[derive(Clone)]
        pub struct Pos {
            /// grid[rank][file], rank 0 is rank 1.
            pub grid: [[u8; 8]; 8],
            pub mover: u8,
            pub plies: u32,
        }

        fn on(f: i32, r: i32) -> bool {
            (0..8).contains(&f) && (0..8).contains(&r)
        }

        fn name(f: i32, r: i32) -> String {
            format!("{}{}", (b'a' + f as u8) as char, r + 1)
        }

        fn enemy(c: u8) -> u8 {
            if c == b'b' { b'w' } else { b'b' }
        }

        impl Pos {
            pub fn moves(&self) -> Vec<String> {
                let g = &self.grid;
                let mut out = Vec::new();
                for r in 0..8 {
                    for f in 0..8 {
                        if g[r as usize][f as usize] != self.mover {
                            continue;
                        }
                        for df in -1..=1 {
                            for dr in -1..=1 {
                                if (df, dr) == (0, 0) {
                                    continue;
                                }
                                // Count every checker on the line, both ways.
                                let mut n = 1;
                                for s in [1, -1] {
                                    let (mut x, mut y) = (f + s * df, r + s * dr);
                                    while on(x, y) {
                                        if g[y as usize][x as usize] != b'.' {
                                            n += 1;
                                        }
                                        x += s * df;
                                        y += s * dr;
                                    }
                                }
                                let (tf, tr) = (f + n * df, r + n * dr);
                                if !on(tf, tr) || g[tr as usize][tf as usize] == self.mover {
                                    continue;
                                }
                                let blocked = (1..n).any(|k| {
                                    g[(r + k * dr) as usize][(f + k * df) as usize]
                                        == enemy(self.mover)
                                });
                                if !blocked {
                                    out.push(format!("{}{}", name(f, r), name(tf, tr)));
                                }
                            }
                        }
                    }
                }
                if out.is_empty() {
                    out.push("pass".into());
                }
                out.sort();
                out
            }

            pub fn play(&mut self, mv: &str) {
                if mv != "pass" {
                    let b = mv.as_bytes();
                    let (f0, r0) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
                    let (f1, r1) = ((b[2] - b'a') as usize, (b[3] - b'1') as usize);
                    self.grid[r0][f0] = b'.';
                    self.grid[r1][f1] = self.mover;
                }
                self.mover = enemy(self.mover);
                self.plies += 1;
            }

            pub fn connected(&self, c: u8) -> bool {
                let mut cells = Vec::new();
                for r in 0..8 {
                    for f in 0..8 {
                        if self.grid[r][f] == c {
                            cells.push((f as i32, r as i32));
                        }
                    }
                }
                let Some(&first) = cells.first() else {
                    return true;
                };
                let mut seen = vec![first];
                let mut todo = vec![first];
                while let Some((f, r)) = todo.pop() {
                    for &(x, y) in &cells {
                        let near = (x - f).abs() <= 1 && (y - r).abs() <= 1;
                        if near && !seen.contains(&(x, y)) {
                            seen.push((x, y));
                            todo.push((x, y));
                        }
                    }
                }
                seen.len() == cells.len()
            }

            /// Perft by this engine alone.
            pub fn perft(&self, depth: u32) -> u64 {
                if self.result().is_some() {
                    return 0;
                }
                if depth == 0 {
                    return 1;
                }
                self.moves()
                    .iter()
                    .map(|mv| {
                        let mut next = self.clone();
                        next.play(mv);
                        next.perft(depth - 1)
                    })
                    .sum()
            }

            /// After a move: `Some(Some(colour))` a win, `Some(None)` the 150-ply draw.
            pub fn result(&self) -> Option<Option<u8>> {
                let mover = enemy(self.mover);
                if self.connected(mover) {
                    Some(Some(mover))
                } else if self.connected(self.mover) {
                    Some(Some(self.mover))
                } else if self.plies >= 150 {
                    Some(None)
                } else {
                    None
                }
            }
        }
    }

    fn reference_of(b: &Board) -> reference::Pos {
        let mut grid = [[b'.'; 8]; 8];
        for sq in 0..64u8 {
            grid[rank(sq) as usize][file(sq) as usize] = b.letter(sq) as u8;
        }
        reference::Pos {
            grid,
            mover: COLOURS[b.to_move()] as u8,
            plies: b.plies(),
        }
    }

    fn same_result(b: &Board, r: &reference::Pos) {
        let theirs = r.result().map(|w| match w {
            Some(c) => Outcome::win(if c == b'b' { First } else { Second }),
            None => Outcome::Drawn(Draw::Limit),
        });
        assert_eq!(b.outcome(), theirs, "at {}", b.position_text());
    }

    /// Perft with the reference engine, checking the fast one (moves and results) at every node.
    fn reference_perft(b: &Board, r: &mut reference::Pos, depth: u32) -> u64 {
        same_result(b, r);
        if b.outcome().is_some() {
            return 0;
        }
        let theirs = r.moves();
        assert_eq!(texts(b), theirs, "at {}", b.position_text());
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for mv in theirs {
            let mut next = b.clone();
            play(&mut next, &mv);
            let mut rn = reference_of(&next);
            total += reference_perft(&next, &mut rn, depth - 1);
        }
        total
    }

    #[test]
    fn perft_agrees_with_the_reference() {
        let b = Board::start();
        // Every node compared to depth 2, then the counts alone at depth 3.
        for (depth, expected) in [(1, 36), (2, 1244)] {
            let mut r = reference_of(&b);
            assert_eq!(
                reference_perft(&b, &mut r, depth),
                expected,
                "depth {depth}"
            );
        }
        assert_eq!(reference_of(&b).perft(3), 44952);
        assert_eq!(perft(&b, 3).nodes, 44952);
    }

    #[test]
    fn random_games_agree_with_the_reference() {
        // Whole games, played on both engines side by side, to wins, passes and the limit.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut wins, mut limits) = (0, 0);
        for _ in 0..120 {
            let mut b = Board::start();
            let mut r = reference_of(&b);
            loop {
                same_result(&b, &r);
                if b.outcome().is_some() {
                    break;
                }
                let theirs = r.moves();
                assert_eq!(texts(&b), theirs, "at {}", b.position_text());
                let mv = theirs.choose(&mut rng).unwrap().clone();
                play(&mut b, &mv);
                r.play(&mv);
            }
            match b.outcome().unwrap().reason() {
                crate::failure::Reason::Limit => limits += 1,
                _ => wins += 1,
            }
        }
        assert!(wins > 10 && limits > 10, "{wins} wins, {limits} draws");
    }
}
