//! Shared draughts machinery for `checkers` (English draughts) and `dama` (Italian draughts):
//! the 8x8 geometry, the pieces, move generation with the capture search, applying a move, PDN
//! FEN, and a material evaluation. Pure rules, no I/O.
//!
//! Both games use the same board: 64 cells, index = row * 8 + col, row 0 at the top and col 0 at
//! the left, exactly as they print it. Only the dark squares, where row + col is odd, are played
//! on. They are also numbered 1..=32 left to right, top to bottom (square 1 = index 1, square 5 =
//! index 8, square 32 = index 62), the numbering PDN FEN uses.
//!
//! The games differ only in what [`Variant`] describes: which way each side's men move, whether
//! men may capture kings, and whether the Italian precedence rules choose among captures.
//!
//! Kings move one square in both games (no flying kings). That makes one question moot that
//! other draughts games must settle, whether jumped pieces leave the board at once or at the end
//! of the move: a jumping piece always lands on squares of one colour class (row and column
//! parity both fixed) while the pieces it jumps stand on the other class, so it can never land on
//! a square it jumped over. The search therefore removes a jumped piece as it goes, which also
//! forbids jumping the same piece twice.

use crate::games::{Side, picture};

/// A move: the start square, then every square landed on, as board indices. A simple move has
/// two entries; a capture of k pieces has k + 1. The path identifies the move completely: each
/// two-row step jumps the one piece between its ends.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub path: Vec<u8>,
}

impl Move {
    pub fn new(path: Vec<u8>) -> Self {
        Move { path }
    }

    /// The square the moving piece starts on.
    pub fn origin(&self) -> u8 {
        self.path[0]
    }

    /// The square it ends on.
    pub fn destination(&self) -> u8 {
        self.path[self.path.len() - 1]
    }

    /// Whether the move jumps (a capture) rather than steps.
    pub fn is_capture(&self) -> bool {
        self.path.len() > 2 || (self.path.len() == 2 && self.path[0].abs_diff(self.path[1]) > 9)
    }
}

impl From<Vec<u8>> for Move {
    fn from(path: Vec<u8>) -> Self {
        Move { path }
    }
}

/// What stands on a cell: one byte, so a board is cheap to copy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Cell {
    #[default]
    Empty,
    Man(Side),
    King(Side),
}

impl Cell {
    /// The seat owning the piece, if any.
    pub fn seat(self) -> Option<Side> {
        match self {
            Cell::Empty => None,
            Cell::Man(s) | Cell::King(s) => Some(s),
        }
    }

    pub fn is_empty(self) -> bool {
        self == Cell::Empty
    }

    pub fn is_king(self) -> bool {
        matches!(self, Cell::King(_))
    }

    pub fn is_man(self) -> bool {
        matches!(self, Cell::Man(_))
    }
}

/// What distinguishes one draughts game from another here.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// Whether each seat's men move down the board (to higher rows). The side moving down
    /// starts on squares 1..=12, the other on 21..=32.
    pub down: [bool; 2],
    /// Whether a man may capture a king (English: yes; Italian: no).
    pub men_take_kings: bool,
    /// The Italian (FID) precedence among captures: most pieces, then with a king, then most
    /// kings, then the king met earliest. Without it any complete capture sequence is legal.
    pub fid_precedence: bool,
    /// Each seat's colour letter in PDN FEN (`W` or `B`).
    pub fen_colour: [char; 2],
    /// Each seat's letters for a man and a king, in board strings and drawings.
    pub letters: [[char; 2]; 2],
}

/// Marks a missing neighbour (off the board) in the geometry tables.
pub const NO_SQUARE: u8 = u8::MAX;

/// Diagonal directions as (row, col) steps: up-left, up-right, down-left, down-right. Men moving
/// up use the first two, men moving down the last two, kings all four.
const DIRS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
const UP: [usize; 2] = [0, 1];
const DOWN: [usize; 2] = [2, 3];
const ALL: [usize; 4] = [0, 1, 2, 3];

/// For each cell and direction, the cell `dist` diagonal steps away, or [`NO_SQUARE`]. Built at
/// compile time so the hot loops are table look-ups with no bounds arithmetic.
const fn neighbours(dist: i8) -> [[u8; 4]; 64] {
    let mut table = [[NO_SQUARE; 4]; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = ((i / 8) as i8, (i % 8) as i8);
        let mut d = 0;
        while d < 4 {
            let (nr, nc) = (r + DIRS[d].0 * dist, c + DIRS[d].1 * dist);
            if nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                table[i][d] = (nr * 8 + nc) as u8;
            }
            d += 1;
        }
        i += 1;
    }
    table
}

/// The adjacent cell in each direction.
static STEP: [[u8; 4]; 64] = neighbours(1);
/// The cell two steps away in each direction: where a jump lands.
static JUMP: [[u8; 4]; 64] = neighbours(2);

/// The board index of each square number 1..=32 (entry 0 is square 1).
pub const DARK: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut k = 0;
    while k < 32 {
        let row = k / 4;
        // Even rows start with a light square, odd rows with a dark one.
        let col = 2 * (k % 4) + if row % 2 == 0 { 1 } else { 0 };
        t[k] = (row * 8 + col) as u8;
        k += 1;
    }
    t
};

/// Whether a board index is a dark (playable) square.
pub const fn is_dark(idx: u8) -> bool {
    idx < 64 && (idx / 8 + idx % 8) % 2 == 1
}

/// The board index of square number `n` (1..=32).
pub fn square_index(n: u8) -> Option<u8> {
    (1..=32).contains(&n).then(|| DARK[n as usize - 1])
}

/// The square number 1..=32 of a dark board index.
pub fn square_number(idx: u8) -> Option<u8> {
    is_dark(idx).then_some(idx / 2 + 1)
}

pub fn row(idx: u8) -> u8 {
    idx / 8
}

pub fn col(idx: u8) -> u8 {
    idx % 8
}

impl Variant {
    /// The directions a man of `seat` moves and captures in.
    fn man_dirs(&self, seat: Side) -> &'static [usize] {
        if self.down[seat] { &DOWN } else { &UP }
    }

    fn dirs(&self, cell: Cell) -> &'static [usize] {
        match cell {
            Cell::King(_) => &ALL,
            Cell::Man(s) => self.man_dirs(s),
            Cell::Empty => &[],
        }
    }

    /// The row where `seat`'s men are crowned.
    pub fn crowning_row(&self, seat: Side) -> u8 {
        if self.down[seat] { 7 } else { 0 }
    }

    /// The seat whose FEN colour letter is `c` (either case).
    fn seat_of_colour(&self, c: char) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&s| self.fen_colour[s] == c.to_ascii_uppercase())
    }

    fn colour_name(&self, seat: Side) -> &'static str {
        if self.fen_colour[seat] == 'W' {
            "white"
        } else {
            "black"
        }
    }

    /// The letter drawn for a cell, `empty` for an empty one.
    pub fn letter(&self, cell: Cell, empty: char) -> char {
        match cell {
            Cell::Empty => empty,
            Cell::Man(s) => self.letters[s][0],
            Cell::King(s) => self.letters[s][1],
        }
    }
}

/// What playing a move did, for the games' draw counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    /// Pieces captured.
    pub captured: u8,
    /// Whether the piece that moved was a man (an irreversible move).
    pub man_moved: bool,
    /// Whether it was crowned at the end of the move.
    pub crowned: bool,
}

/// The pieces on the board; who is to move and the counters belong to each game's position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    pub cells: [Cell; 64],
}

impl Grid {
    pub fn empty() -> Self {
        Grid {
            cells: [Cell::Empty; 64],
        }
    }

    /// The initial position: the side whose men move down on squares 1..=12, the other on
    /// 21..=32.
    pub fn start(v: &Variant) -> Self {
        let mut g = Grid::empty();
        let top = if v.down[Side::First] {
            Side::First
        } else {
            Side::Second
        };
        for k in 0..12 {
            g.cells[DARK[k] as usize] = Cell::Man(top);
            g.cells[DARK[k + 20] as usize] = Cell::Man(top.other());
        }
        g
    }

    pub fn cell(&self, idx: u8) -> Cell {
        self.cells[idx as usize]
    }

    /// Men and kings of each seat: `[seat][0]` men, `[seat][1]` kings.
    pub fn count(&self) -> [[u32; 2]; 2] {
        let mut n = [[0; 2]; 2];
        for &i in &DARK {
            match self.cells[i as usize] {
                Cell::Man(s) => n[s][0] += 1,
                Cell::King(s) => n[s][1] += 1,
                Cell::Empty => {}
            }
        }
        n
    }

    /// An exact, compact key of the pieces: one bit per square for each seat's men and kings.
    /// Used for repetition, where a hash collision would wrongly end a game.
    pub fn key(&self) -> [u32; 4] {
        let mut k = [0u32; 4];
        for (n, &i) in DARK.iter().enumerate() {
            match self.cells[i as usize] {
                Cell::Man(s) => k[2 * s.index()] |= 1 << n,
                Cell::King(s) => k[2 * s.index() + 1] |= 1 << n,
                Cell::Empty => {}
            }
        }
        k
    }

    /// Whether `seat` has any legal move, without building the list: any step to an empty
    /// square or any single jump. Cheap, so `outcome` can call it at every node.
    pub fn has_move(&self, seat: Side, v: &Variant) -> bool {
        DARK.iter().any(|&from| {
            let piece = self.cells[from as usize];
            piece.seat() == Some(seat)
                && v.dirs(piece).iter().any(|&d| {
                    let to = STEP[from as usize][d];
                    to != NO_SQUARE
                        && (self.cells[to as usize].is_empty()
                            || self.can_jump(piece, seat, from, d, v))
                })
        })
    }

    /// Whether `piece` on `from` can jump in direction `d` (on the current cells).
    fn can_jump(&self, piece: Cell, seat: Side, from: u8, d: usize, v: &Variant) -> bool {
        let (over, to) = (STEP[from as usize][d], JUMP[from as usize][d]);
        if to == NO_SQUARE {
            return false;
        }
        let victim = self.cells[over as usize];
        victim.seat() == Some(seat.other())
            && self.cells[to as usize].is_empty()
            && (piece.is_king() || v.men_take_kings || !victim.is_king())
    }

    /// Every legal move of `seat` (the game decides separately whether the game is over).
    /// Capturing is compulsory: when any capture exists only captures are returned, each a
    /// complete sequence (one that could go on is not a move), filtered by the FID precedence
    /// where the variant has it. Order: by start square, then direction, so it is reproducible.
    pub fn moves(&self, seat: Side, v: &Variant) -> Vec<Move> {
        let mut search = CaptureSearch {
            cells: self.cells,
            v,
            seat,
            king: false,
            dirs: &[],
            path: [0; MAX_PATH],
            len: 0,
            kings_taken: 0,
            king_mask: 0,
            best: 0,
            out: Vec::new(),
        };
        for &from in &DARK {
            let piece = self.cells[from as usize];
            if piece.seat() != Some(seat) {
                continue;
            }
            // Only start the (copying, recursive) search where a first jump exists.
            if !v
                .dirs(piece)
                .iter()
                .any(|&d| self.can_jump(piece, seat, from, d, v))
            {
                continue;
            }
            // Lift the piece for the search: its own start square is free to land on again
            // (a king going round a ring of pieces).
            search.cells[from as usize] = Cell::Empty;
            search.king = piece.is_king();
            search.path[0] = from;
            search.len = 1;
            search.dirs = v.dirs(piece);
            search.extend(from);
            search.cells[from as usize] = piece;
        }
        if !search.out.is_empty() {
            return search.out;
        }
        let mut out = Vec::new();
        for &from in &DARK {
            let piece = self.cells[from as usize];
            if piece.seat() != Some(seat) {
                continue;
            }
            for &d in v.dirs(piece) {
                let to = STEP[from as usize][d];
                if to != NO_SQUARE && self.cells[to as usize].is_empty() {
                    out.push(Move::new(vec![from, to]));
                }
            }
        }
        out
    }

    /// Play a legal move: move the piece, remove every piece jumped, crown a man that ends on
    /// its crowning row. The path is trusted (the caller checked legality).
    pub fn apply(&mut self, path: &[u8], v: &Variant) -> Applied {
        let from = path[0] as usize;
        let to = *path.last().expect("a move has a path") as usize;
        let piece = self.cells[from];
        self.cells[from] = Cell::Empty;
        let mut captured = 0;
        for w in path.windows(2) {
            // A jump spans two rows; the jumped cell is halfway between (indices differ by 14
            // or 18, so the midpoint is exact).
            if w[0].abs_diff(w[1]) > 9 {
                self.cells[(w[0] as usize + w[1] as usize) / 2] = Cell::Empty;
                captured += 1;
            }
        }
        let crowned = match piece {
            Cell::Man(s) => row(to as u8) == v.crowning_row(s),
            _ => false,
        };
        self.cells[to] = match piece {
            Cell::Man(s) if crowned => Cell::King(s),
            p => p,
        };
        Applied {
            captured,
            man_moved: piece.is_man(),
            crowned,
        }
    }

    /// Material for `seat` minus the opponent's: man 100, king 160, and 3 per row a man has
    /// advanced, so that the search bot pushes towards crowning.
    pub fn evaluate(&self, seat: Side, v: &Variant) -> i32 {
        let mut score = [0i32; 2];
        for &i in &DARK {
            match self.cells[i as usize] {
                Cell::Man(s) => {
                    let advanced = if v.down[s] { row(i) } else { 7 - row(i) };
                    score[s] += 100 + 3 * advanced as i32;
                }
                Cell::King(s) => score[s] += 160,
                Cell::Empty => {}
            }
        }
        score[seat] - score[seat.other()]
    }

    /// PDN FEN: `W:W21,22,K30:B1,2`. The side to move, then each colour's squares, kings with a
    /// `K` prefix.
    pub fn to_fen(&self, to_move: Side, v: &Variant) -> String {
        let mut fen = String::new();
        fen.push(v.fen_colour[to_move]);
        for colour in ['W', 'B'] {
            let seat = v.seat_of_colour(colour).expect("both colours have a seat");
            fen.push(':');
            fen.push(colour);
            let mut first = true;
            for (n, &i) in DARK.iter().enumerate() {
                let cell = self.cells[i as usize];
                if cell.seat() == Some(seat) {
                    if !first {
                        fen.push(',');
                    }
                    first = false;
                    if cell.is_king() {
                        fen.push('K');
                    }
                    fen.push_str(&(n + 1).to_string());
                }
            }
        }
        fen
    }

    /// Parse PDN FEN such as `W:W21,22:B5,K9` or `B:W18,24,K10:B12,16-20`: the side to move
    /// (`W` or `B`), then up to one list per colour of square numbers 1..=32, `K` before a king,
    /// ranges `a-b` allowed. Whitespace, surrounding quotes and a trailing `.` are ignored. A
    /// colour without a list has no pieces. Men on their own crowning row are refused: no game
    /// reaches that, and the rules would leave such a man stuck.
    pub fn from_fen(fen: &str, v: &Variant) -> Result<(Grid, Side), String> {
        let text: String = fen.chars().filter(|c| !c.is_whitespace()).collect();
        let text = text.trim_matches('"');
        let text = text.strip_suffix('.').unwrap_or(text);
        let mut fields = text.split(':');
        let side = fields.next().unwrap_or("");
        let to_move = match side.chars().collect::<Vec<_>>()[..] {
            [c] => v.seat_of_colour(c),
            _ => None,
        }
        .ok_or_else(|| format!("FEN {fen:?}: the side to move must be W or B, not {side:?}"))?;
        let mut grid = Grid::empty();
        let mut seen = [false; 2];
        for field in fields {
            let mut chars = field.chars();
            let colour = chars
                .next()
                .ok_or_else(|| format!("FEN {fen:?}: an empty field"))?;
            let seat = v.seat_of_colour(colour).ok_or_else(|| {
                format!("FEN {fen:?}: the field {field:?} must start with W or B")
            })?;
            if std::mem::replace(&mut seen[seat], true) {
                return Err(format!(
                    "FEN {fen:?}: two lists for {}",
                    v.colour_name(seat)
                ));
            }
            let list = chars.as_str();
            if list.is_empty() {
                continue;
            }
            for token in list.split(',') {
                let (king, squares) = match token.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, token),
                };
                let bad = || {
                    format!(
                        "FEN {fen:?}: {token:?} in the {} list is not a square 1..32, \
                         a king K<n> or a range <a>-<b>",
                        v.colour_name(seat)
                    )
                };
                let number = |s: &str| -> Result<u8, String> {
                    s.parse::<u8>()
                        .ok()
                        .filter(|n| (1..=32).contains(n))
                        .ok_or_else(bad)
                };
                let (lo, hi) = match squares.split_once('-') {
                    Some((a, b)) => (number(a)?, number(b)?),
                    None => (number(squares)?, number(squares)?),
                };
                if lo > hi {
                    return Err(bad());
                }
                for n in lo..=hi {
                    let idx = DARK[n as usize - 1];
                    if !grid.cells[idx as usize].is_empty() {
                        return Err(format!("FEN {fen:?}: square {n} is listed twice"));
                    }
                    if !king && row(idx) == v.crowning_row(seat) {
                        return Err(format!(
                            "FEN {fen:?}: a {} man on square {n} stands on its crowning row \
                             (write K{n} for a king)",
                            v.colour_name(seat)
                        ));
                    }
                    grid.cells[idx as usize] = if king {
                        Cell::King(seat)
                    } else {
                        Cell::Man(seat)
                    };
                }
            }
        }
        Ok((grid, to_move))
    }
}

/// How one game colours a seat's pieces in the report's viewer: (colour name, fill, ink).
pub type Colour = (&'static str, &'static str, &'static str);

impl Grid {
    /// The board for the report's viewer, laid out as both games print it (board index = cell
    /// index), so the picture matches the game's own drawing. The piece keys are the game's own
    /// letters, and `last` marks the squares of the move just played and the pieces it took.
    pub fn picture(&self, v: &Variant, colours: [Colour; 2], last: Option<&Move>) -> picture::Grid {
        let cells = self.cells.iter().map(|&c| v.letter(c, '.')).collect();
        let mut pieces = Vec::with_capacity(4);
        for ([man, king], (colour, fill, ink)) in v.letters.into_iter().zip(colours) {
            pieces.push(picture::Piece::new(
                man,
                &format!("{colour} man"),
                fill,
                ink,
                "",
            ));
            pieces.push(picture::Piece::new(
                king,
                &format!("{colour} king"),
                fill,
                ink,
                "K",
            ));
        }
        let mut grid = picture::Grid::square(8, 8, cells, pieces);
        grid.ground = (0..64u8)
            .map(|i| if is_dark(i) { '#' } else { '.' })
            .collect();
        if let Some(mv) = last {
            grid.last = mv.path.iter().map(|&i| i as u32).collect();
            // A jump spans two rows and the taken piece stood halfway, as in `apply`.
            grid.last.extend(
                mv.path
                    .windows(2)
                    .filter(|w| w[0].abs_diff(w[1]) > 9)
                    .map(|w| (w[0] as u32 + w[1] as u32) / 2),
            );
        }
        grid
    }
}

/// The longest possible path: 12 captures (every enemy piece) plus the start square.
const MAX_PATH: usize = 13;

/// The depth-first search for capture sequences from one piece at a time. It works on its own
/// copy of the cells, removing each jumped piece and putting it back on the way out, and keeps
/// the path in a fixed array; only a finished sequence allocates.
struct CaptureSearch<'a> {
    cells: [Cell; 64],
    v: &'a Variant,
    seat: Side,
    /// Whether the moving piece is a king (it stays what it is for the whole move).
    king: bool,
    dirs: &'static [usize],
    path: [u8; MAX_PATH],
    len: usize,
    /// Kings captured so far, and a bit per capture that took a king, the first capture in the
    /// highest bit, so that a larger mask means kings met earlier (FID rule 4).
    kings_taken: u32,
    king_mask: u32,
    /// The rank of the sequences in `out` (all equal): a better one replaces them.
    best: u32,
    out: Vec<Move>,
}

impl CaptureSearch<'_> {
    fn extend(&mut self, at: u8) {
        let mut extended = false;
        for &d in self.dirs {
            let (over, to) = (STEP[at as usize][d], JUMP[at as usize][d]);
            if to == NO_SQUARE {
                continue;
            }
            let victim = self.cells[over as usize];
            if victim.seat() != Some(self.seat.other())
                || !self.cells[to as usize].is_empty()
                || (victim.is_king() && !self.king && !self.v.men_take_kings)
            {
                continue;
            }
            extended = true;
            let taken = self.len - 1;
            let was_mask = self.king_mask;
            if victim.is_king() {
                self.kings_taken += 1;
                self.king_mask |= 1 << (15 - taken);
            }
            self.cells[over as usize] = Cell::Empty;
            self.path[self.len] = to;
            self.len += 1;
            // A man never jumps on from its crowning row: its forward jumps leave the board
            // there, so "crowning ends the move" needs no extra test.
            self.extend(to);
            self.len -= 1;
            self.cells[over as usize] = victim;
            if victim.is_king() {
                self.kings_taken -= 1;
            }
            self.king_mask = was_mask;
        }
        if !extended && self.len > 1 {
            self.finish();
        }
    }

    /// A complete sequence: keep it if it ranks at least as high as the best so far.
    fn finish(&mut self) {
        let rank = if self.v.fid_precedence {
            // FID precedence as one number compared high to low: (1) pieces taken, (2) taken by
            // a king, (3) kings taken, (4) kings met earliest. Taken <= 12 and kings <= 12.
            let taken = (self.len - 1) as u32;
            (taken << 24) | ((self.king as u32) << 23) | (self.kings_taken << 16) | self.king_mask
        } else {
            0
        };
        if rank > self.best {
            self.best = rank;
            self.out.clear();
        }
        if rank == self.best {
            self.out.push(Move::new(self.path[..self.len].to_vec()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering() {
        assert_eq!(DARK[0], 1);
        assert_eq!(DARK[1], 3);
        assert_eq!(DARK[4], 8);
        assert_eq!(DARK[31], 62);
        for n in 1..=32 {
            let idx = square_index(n).unwrap();
            assert!(is_dark(idx));
            assert_eq!(square_number(idx), Some(n));
        }
        assert_eq!(square_index(0), None);
        assert_eq!(square_index(33), None);
        assert_eq!(square_number(0), None);
        assert_eq!((0..64).filter(|&i| is_dark(i)).count(), 32);
    }

    #[test]
    fn tables() {
        // Square 1 (index 1): down-left is index 8, down-right 10; nothing above.
        assert_eq!(STEP[1], [NO_SQUARE, NO_SQUARE, 8, 10]);
        assert_eq!(JUMP[1], [NO_SQUARE, NO_SQUARE, NO_SQUARE, 19]);
        assert_eq!(STEP[62], [53, 55, NO_SQUARE, NO_SQUARE]);
    }
}
