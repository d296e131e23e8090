//! Batalo (Scott Harmon, 1993) as pbmserv plays it: pure rules, no I/O.
//!
//! The board is a hexagon of side 7: 127 points in rows `a`..`m` of 7, 8, ..., 13, ..., 8, 7
//! points. A point is named by its row letter and its diagonal number 1..13: row `i` (a = 0)
//! holds the numbers `max(1, i-5) ..= min(13, 7+i)`. The neighbours of (r, c) are (r, c-1),
//! (r, c+1), (r-1, c-1), (r-1, c), (r+1, c) and (r+1, c+1); those six offsets are also the six
//! line directions.
//!
//! Internally the points live in a 15 x 15 grid with a border (index `(r+1)*15 + c`, c being
//! the diagonal number), cells outside the hexagon marked off the board, so that a direction is
//! one index offset and a step or hop from any point stays inside the array.
//!
//! Side 0 plays O (column on its home base g4, stones f3 f4 g3 g5 h4 h5) and moves first; seat 1
//! plays X (column on g10, stones f9 f10 g9 g11 h10 h11). The rules, with the choices where the
//! sources are silent, are in `description.md`.

use crate::games::position::Position;
use crate::games::{Draw, Outcome, Side};

/// Plies after which a game is drawn by the move limit, unless set otherwise.
pub const DEFAULT_MAX_PLIES: u32 = 200;

/// Width of the padded grid.
const W: usize = 15;
const CELLS: usize = W * W;

const EMPTY: u8 = 0;
const OFF: u8 = 1;
/// A piece: 2 + 2 * seat, plus 1 for the column.
const STONE: u8 = 2;
const COLUMN: u8 = 3;

/// The six directions as index offsets: (0,-1), (0,+1), (-1,-1), (-1,0), (+1,0), (+1,+1).
pub(super) const DIRS: [isize; 6] = [
    -1,
    1,
    -(W as isize) - 1,
    -(W as isize),
    W as isize,
    W as isize + 1,
];

/// Side letters as the board draws them, and as positions are written.
pub const SIDE_LETTER: [char; 2] = ['O', 'X'];

/// Row letters.
pub(super) const ROWS: &[u8; 13] = b"abcdefghijklm";

/// The first and last diagonal numbers of row `r` (0..13).
pub(super) fn row_span(r: usize) -> (usize, usize) {
    (1.max(r.saturating_sub(5)), 13.min(7 + r))
}

pub(super) const fn idx(r: usize, c: usize) -> usize {
    (r + 1) * W + c
}

/// The grid index of a point.
pub type Point = usize;

/// The home bases: g4 for O, g10 for X.
pub const BASE: [Point; 2] = [idx(6, 4), idx(6, 10)];

pub(super) fn row_of(p: Point) -> usize {
    p / W - 1
}

pub(super) fn num_of(p: Point) -> usize {
    p % W
}

/// The point's name, such as `g4`.
pub fn point_name(p: Point) -> String {
    format!("{}{}", ROWS[row_of(p)] as char, num_of(p))
}

/// Every point of the board, row by row.
static POINTS: [Point; 127] = {
    let mut all = [0; 127];
    let (mut n, mut r) = (0, 0);
    while r < 13 {
        let lo = if r > 6 { r - 5 } else { 1 };
        let hi = if r < 6 { 7 + r } else { 13 };
        let mut c = lo;
        while c <= hi {
            all[n] = idx(r, c);
            n += 1;
            c += 1;
        }
        r += 1;
    }
    all
};

pub(super) fn points() -> impl Iterator<Item = Point> {
    POINTS.iter().copied()
}

/// A point named like `g4` or `G10`; `None` for anything else, including names of points the
/// board does not have (`a9`).
pub fn parse_point(s: &str) -> Option<Point> {
    let b = s.as_bytes();
    let (&letter, digits) = b.split_first()?;
    let r = ROWS
        .iter()
        .position(|&l| l == letter.to_ascii_lowercase())?;
    if digits.is_empty() || digits.len() > 2 || digits[0] == b'0' {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let c: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    let (lo, hi) = row_span(r);
    (lo..=hi).contains(&c).then(|| idx(r, c))
}

/// A move: the point a piece leaves and the point where it ends. The hop points in between do not
/// matter: two ways to the same point are the same move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Point,
    pub to: Point,
}

impl Move {
    /// The move as the protocol writes it: `g4-g6`.
    pub fn text(&self) -> String {
        format!("{}-{}", point_name(self.from), point_name(self.to))
    }
}

/// A move in the protocol's form: `from-to`, such as `g4-g6`, either case, spaces allowed around
/// the dash. Only the form is checked here; legality is the position's business.
pub fn parse_move(text: &str) -> Result<Move, String> {
    let Some((a, b)) = text.split_once('-') else {
        return Err(format!(
            "'{text}' is not a move: write the two points joined by a dash, like g4-g6"
        ));
    };
    let point = |s: &str| {
        let s = s.trim();
        parse_point(s).ok_or_else(|| {
            format!("'{s}' is not a point of the board (a row letter a..m and a number, like g4)")
        })
    };
    Ok(Move {
        from: point(a)?,
        to: point(b)?,
    })
}

/// Side of a piece, `None` for an empty or off-board cell.
fn owner(cell: u8) -> Option<Side> {
    (cell >= STONE).then(|| Side::BOTH[((cell - STONE) / 2) as usize])
}

fn is_column(cell: u8) -> bool {
    cell >= STONE && cell & 1 == 1
}

fn piece(seat: Side, column: bool) -> u8 {
    (if column { COLUMN } else { STONE }) + 2 * seat.index() as u8
}

fn step(p: Point, d: isize) -> Point {
    p.wrapping_add_signed(d)
}

/// The distance in single steps between two points.
const fn distance(a: Point, b: Point) -> i32 {
    let dr = (a / W) as i32 - (b / W) as i32;
    let dc = (a % W) as i32 - (b % W) as i32;
    if (dr >= 0) == (dc >= 0) {
        let (r, c) = (dr.abs(), dc.abs());
        if r > c { r } else { c }
    } else {
        dr.abs() + dc.abs()
    }
}

/// `GOAL[seat][p]`: the distance from `p` to the enemy base of `seat`.
static GOAL: [[i32; CELLS]; 2] = {
    let mut table = [[0; CELLS]; 2];
    let mut p = 0;
    while p < CELLS {
        table[0][p] = distance(p, BASE[1]);
        table[1][p] = distance(p, BASE[0]);
        p += 1;
    }
    table
};

/// Stones a side has at the start, and at most.
const STONES: usize = 6;

/// A Batalo position: the pieces, the side to move, the move count and the limit.
#[derive(Clone, Debug)]
pub struct Board {
    cells: [u8; CELLS],
    to_move: Side,
    plies: u32,
    /// Plies after which the game is drawn (0: no limit).
    max_plies: u32,
    /// Where each side's pieces are: the first `count[seat]` entries of `pieces[seat]`, in no
    /// particular order.
    pieces: [[u8; STONES + 1]; 2],
    count: [u8; 2],
    /// The result, worked out after every move.
    result: Option<Outcome>,
}

/// The same pieces on the same points, the same side to move, move count and limit (the piece
/// lists may be in different orders).
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.cells == other.cells
            && self.to_move == other.to_move
            && self.plies == other.plies
            && self.max_plies == other.max_plies
    }
}

/// The points one piece can end its move on, each once, in the order found.
struct Reach {
    mark: [bool; CELLS],
    list: [u8; 128],
    len: usize,
}

impl Reach {
    /// Reach from `from`, which is marked so that it is never a destination.
    fn new(from: Point) -> Reach {
        let mut mark = [false; CELLS];
        mark[from] = true;
        Reach {
            mark,
            list: [0; 128],
            len: 0,
        }
    }

    /// Add `p`; false if it was already there.
    fn add(&mut self, p: Point) -> bool {
        if self.mark[p] {
            return false;
        }
        self.mark[p] = true;
        self.list[self.len] = p as u8;
        self.len += 1;
        true
    }

    fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.list[..self.len].iter().map(|&p| p as Point)
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

/// Why a well-formed move is not legal.
fn reason(mv: &Move, why: impl std::fmt::Display) -> String {
    format!("{}: {why}", mv.text())
}

impl Board {
    fn empty() -> Board {
        let mut cells = [OFF; CELLS];
        for p in points() {
            cells[p] = EMPTY;
        }
        Board {
            cells,
            to_move: Side::First,
            plies: 0,
            max_plies: DEFAULT_MAX_PLIES,
            pieces: [[0; STONES + 1]; 2],
            count: [0; 2],
            result: None,
        }
    }

    /// The initial position, O (seat 0) to move.
    pub fn start() -> Board {
        Board::from_position("O:O(g4),f3,f4,g3,g5,h4,h5:X(g10),f9,f10,g9,g11,h10,h11")
            .expect("the start position is valid")
    }

    /// The same position with a move limit of `n` plies in all (0: no limit).
    pub fn with_max_plies(mut self, n: u32) -> Board {
        self.max_plies = n;
        self.settle();
        self
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// A position in arena's text form: the side to move, then each side's pieces, separated by
    /// colons: `O:O(g4),f3,f4:X(g10),f9` (the start is
    /// `O:O(g4),f3,f4,g3,g5,h4,h5:X(g10),f9,f10,g9,g11,h10,h11`). A point in brackets is the
    /// side's column (at most one), as the board draws it; the two lists may come in either order
    /// and may be empty (`X:O:X(g10)`). Either case; spaces are ignored.
    pub fn from_position(text: &str) -> Result<Board, String> {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let parts: Vec<&str> = text.split(':').collect();
        let [side, a, b] = parts[..] else {
            return Err(format!(
                "'{text}' is not a position like O:O(g4),f3:X(g10),f9 (side to move, then each \
                 side's pieces, separated by colons)"
            ));
        };
        let seat_of = |s: &str| match s {
            "O" | "o" => Some(Side::First),
            "X" | "x" => Some(Side::Second),
            _ => None,
        };
        let mut board = Board::empty();
        board.to_move =
            seat_of(side).ok_or_else(|| format!("'{side}': the side to move is O or X"))?;
        let mut seen = [false; 2];
        for list in [a, b] {
            let seat = list
                .get(..1)
                .and_then(seat_of)
                .ok_or_else(|| format!("'{list}': a side's pieces start with O or X"))?;
            if std::mem::replace(&mut seen[seat], true) {
                return Err(format!("{} is listed twice", SIDE_LETTER[seat]));
            }
            let (mut columns, mut stones) = (0, 0);
            for item in list[1..].split(',').filter(|s| !s.is_empty()) {
                let (column, name) = match item.strip_prefix('(').and_then(|s| s.strip_suffix(')'))
                {
                    Some(inner) => (true, inner),
                    None => (false, item),
                };
                let p = parse_point(name).ok_or_else(|| {
                    format!("'{item}' is not a point such as g4, or (g4) for a column")
                })?;
                if board.cells[p] != EMPTY {
                    return Err(format!("{} holds two pieces", point_name(p)));
                }
                if column {
                    columns += 1;
                    if columns > 1 {
                        return Err(format!("{} has two columns", SIDE_LETTER[seat]));
                    }
                } else {
                    stones += 1;
                    if stones > STONES {
                        return Err(format!(
                            "{} has more than {STONES} stones",
                            SIDE_LETTER[seat]
                        ));
                    }
                    if p == BASE[seat] {
                        return Err(format!(
                            "{}: a stone cannot stand on its own base",
                            point_name(p)
                        ));
                    }
                }
                board.cells[p] = piece(seat, column);
                board.pieces[seat][board.count[seat] as usize] = p as u8;
                board.count[seat] += 1;
            }
        }
        let on_base = |s: Side| owner(board.cells[BASE[s.other()]]) == Some(s);
        if on_base(Side::First) && on_base(Side::Second) {
            return Err("both sides stand on the enemy base".into());
        }
        if board.count(Side::First) == 0 && board.count(Side::Second) == 0 {
            return Err("neither side has a piece".into());
        }
        board.settle();
        Ok(board)
    }

    /// The position in the text form [`Board::from_position`] reads.
    pub fn position_text(&self) -> String {
        let list = |seat: Side| {
            let mut items: Vec<String> = Vec::new();
            for p in points() {
                let cell = self.cells[p];
                if owner(cell) == Some(seat) {
                    let name = point_name(p);
                    if is_column(cell) {
                        items.insert(0, format!("({name})"));
                    } else {
                        items.push(name);
                    }
                }
            }
            format!("{}{}", SIDE_LETTER[seat], items.join(","))
        };
        format!(
            "{}:{}:{}",
            SIDE_LETTER[self.to_move],
            list(Side::First),
            list(Side::Second)
        )
    }

    /// What stands on a point: `None` (empty) or `Some((seat, is_column))`.
    pub fn at(&self, p: Point) -> Option<(Side, bool)> {
        let cell = self.cells[p];
        owner(cell).map(|s| (s, is_column(cell)))
    }

    /// Pieces `seat` has on the board.
    pub fn count(&self, seat: Side) -> usize {
        self.count[seat] as usize
    }

    /// The pbmserv drawing, 16 lines: the diagonal numbers, then rows a..m. Stones are `o` and
    /// `x`, a column is enclosed in brackets, `(o)`; an empty home base is `*`. The arrows at the
    /// right say which way each side attacks (O towards the right, X towards the left).
    pub fn board_lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!("{}1 2 3 4 5 6 7", " ".repeat(18)),
            format!("{}/ / / / / / / 8", " ".repeat(17)),
            format!("{}/ 9", " ".repeat(30)),
        ];
        for (r, &letter) in ROWS.iter().enumerate() {
            let (lo, hi) = row_span(r);
            // Point (r, c) is drawn at column 15 - r + 2 (c - 1).
            let x = |c: usize| 13 + 2 * c - r;
            let mut line = vec![b' '; x(hi) + 12];
            line[x(lo) - 4] = letter;
            line[x(lo) - 3] = b'-';
            for c in lo..=hi {
                let p = idx(r, c);
                let cell = self.cells[p];
                line[x(c)] = match owner(cell) {
                    Some(Side::First) => b'o',
                    Some(Side::Second) => b'x',
                    None if BASE.contains(&p) => b'*',
                    None => b'.',
                };
                if is_column(cell) {
                    line[x(c) - 1] = b'(';
                    line[x(c) + 1] = b')';
                }
            }
            let tail: &[u8] = match r {
                0 => b"/ 10",
                1 => b"/ 11",
                2 => b"/ 12",
                3 => b"/ 13",
                4 => b"/",
                10 => b" O->",
                12 => b" <-X",
                _ => b"",
            };
            let at = x(hi) + 4;
            line[at..at + tail.len()].copy_from_slice(tail);
            let text = String::from_utf8(line).expect("ASCII");
            lines.push(text.trim_end().to_string());
        }
        lines
    }

    /// The drawing and the side to move, for `arena perft` and debugging.
    pub fn render(&self) -> String {
        let mut text = self.board_lines().join("\n");
        text.push_str(&format!("\n{} to move\n", SIDE_LETTER[self.to_move]));
        text
    }

    /// Add the points the piece on `from` can reach by a chain of one or more hops over friendly
    /// pieces. The start counts as empty (it is marked in `reach`, so no chain lands there).
    /// Run before anything else is added: `reach` doubles as the set of points already landed on.
    fn hops(&self, from: Point, seat: Side, column: bool, reach: &mut Reach) {
        let mut stack = [0usize; 128];
        let mut top = 0;
        stack[top] = from;
        top += 1;
        while top > 0 {
            top -= 1;
            let at = stack[top];
            // Landing on the enemy base wins: the move ends there.
            if at == BASE[seat.other()] {
                continue;
            }
            for d in DIRS {
                let over = step(at, d);
                if over == from || owner(self.cells[over]) != Some(seat) {
                    continue;
                }
                let land = step(over, d);
                if self.cells[land] != EMPTY || (!column && land == BASE[seat]) {
                    continue;
                }
                if reach.add(land) {
                    stack[top] = land;
                    top += 1;
                }
            }
        }
    }

    /// Every point the piece on `from` can end its move on.
    fn destinations(&self, from: Point) -> Reach {
        let mut reach = Reach::new(from);
        let cell = self.cells[from];
        let Some(seat) = owner(cell) else {
            return reach;
        };
        let column = is_column(cell);
        self.hops(from, seat, column, &mut reach);
        for d in DIRS {
            let mut to = step(from, d);
            loop {
                match self.cells[to] {
                    EMPTY => {
                        if column || to != BASE[seat] {
                            reach.add(to);
                        }
                    }
                    OFF => {}
                    other => {
                        if column && self.capturable(to, other, seat) {
                            reach.add(to);
                        }
                    }
                }
                // Stones step once; columns slide over empty points.
                if !column || self.cells[to] != EMPTY {
                    break;
                }
                to = step(to, d);
            }
        }
        reach
    }

    /// Whether a column of `seat` may end a slide on `p`, which holds `cell`.
    fn capturable(&self, p: Point, cell: u8, seat: Side) -> bool {
        owner(cell) == Some(seat.other()) && !(is_column(cell) && p == BASE[seat.other()])
    }

    /// The points of `seat`'s pieces.
    fn pieces(&self, seat: Side) -> impl Iterator<Item = Point> + '_ {
        self.pieces[seat][..self.count[seat] as usize]
            .iter()
            .map(|&p| p as Point)
    }

    /// Whether `seat` has any legal move (one hop is enough: every chain starts with one).
    fn has_move(&self, seat: Side) -> bool {
        self.pieces(seat).any(|p| {
            let cell = self.cells[p];
            let column = is_column(cell);
            DIRS.iter().any(|&d| {
                let q = step(p, d);
                match self.cells[q] {
                    EMPTY => column || q != BASE[seat],
                    OFF => false,
                    c if owner(c) == Some(seat) => {
                        let land = step(q, d);
                        self.cells[land] == EMPTY && (column || land != BASE[seat])
                    }
                    c => column && self.capturable(q, c, seat),
                }
            })
        })
    }

    /// Work out the result after a move (or for a new position).
    fn settle(&mut self) {
        // A side wins with a piece on the enemy base or with no enemy piece left (both at once
        // cannot happen: the mover neither loses pieces nor leaves the enemy base).
        let won =
            |s: Side| owner(self.cells[BASE[s.other()]]) == Some(s) || self.count[s.other()] == 0;
        self.result = if won(Side::First) {
            Some(Outcome::win(Side::First))
        } else if won(Side::Second) {
            Some(Outcome::win(Side::Second))
        } else if !self.has_move(self.to_move) {
            // Arena's rule: a side that cannot move loses.
            Some(Outcome::win(self.to_move.other()))
        } else if self.max_plies > 0 && self.plies >= self.max_plies {
            Some(Outcome::Drawn(Draw::Limit))
        } else {
            None
        };
    }

    /// Why `mv` is not legal here, as a sentence starting with the move (`g4-g9: the column's
    /// path is blocked at g5`); `None` if it is legal.
    pub fn why_illegal(&self, mv: &Move) -> Option<String> {
        if self.result.is_some() {
            return Some(reason(mv, "the game is over"));
        }
        if self.is_legal(mv) {
            return None;
        }
        let me = self.to_move;
        let (from, to) = (mv.from, mv.to);
        let (fname, tname) = (point_name(from), point_name(to));
        let cell = self.cells[from];
        let why = match owner(cell) {
            None => format!("there is no piece on {fname}"),
            Some(s) if s != me => format!(
                "the piece on {fname} is {}'s, and you play {}",
                SIDE_LETTER[s], SIDE_LETTER[me]
            ),
            _ if from == to => "a piece cannot end its move on the point where it started".into(),
            _ if owner(self.cells[to]) == Some(me) => format!("{tname} holds one of your pieces"),
            _ if !is_column(cell) => {
                if to == BASE[me] {
                    format!("a stone cannot land on its own base {tname}")
                } else if self.cells[to] != EMPTY {
                    format!("{tname} is taken, and stones never capture")
                } else {
                    format!(
                        "a stone steps to a neighbouring empty point or hops over its own \
                         pieces, and cannot reach {tname} from {fname}"
                    )
                }
            }
            _ => match self.line_block(from, to) {
                Some(Some(block)) => {
                    format!("the column's path is blocked at {}", point_name(block))
                }
                _ if is_column(self.cells[to]) && to == BASE[me.other()] => format!(
                    "the {} column on its home base {tname} cannot be captured",
                    SIDE_LETTER[me.other()]
                ),
                // In line and clear: only an unlisted case would get here.
                Some(None) => format!("the column cannot move to {tname}"),
                None if self.cells[to] != EMPTY => format!(
                    "{tname} is not in a straight line from {fname}, and a column captures only \
                     by sliding in a line"
                ),
                None => format!(
                    "{tname} is neither in a straight line from {fname} nor reachable by hops \
                     over your own pieces"
                ),
            },
        };
        Some(reason(mv, why))
    }

    /// For `to` in a straight line from `from`: the first piece in between, if any. `None` if
    /// the two points are not in a line.
    fn line_block(&self, from: Point, to: Point) -> Option<Option<Point>> {
        for d in DIRS {
            let mut p = step(from, d);
            let mut block = None;
            while self.cells[p] != OFF {
                if p == to {
                    return Some(block);
                }
                if block.is_none() && self.cells[p] != EMPTY {
                    block = Some(p);
                }
                p = step(p, d);
            }
        }
        None
    }
}

impl Position for Board {
    type Move = Move;

    fn to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.result.is_some() {
            return moves;
        }
        let me = self.to_move;
        for from in self.pieces(me) {
            let reach = self.destinations(from);
            moves.extend(reach.points().map(|to| Move { from, to }));
        }
        // Likely good moves first, which speeds up the search: wins, captures, then the moves
        // that come closest to the enemy base.
        let goal = &GOAL[me];
        moves.sort_unstable_by_key(|m| {
            let class = if goal[m.to] == 0 {
                0
            } else if self.cells[m.to] != EMPTY {
                1
            } else {
                2
            };
            (class, goal[m.to] - goal[m.from], m.from, m.to)
        });
        moves
    }

    fn is_legal(&self, mv: &Move) -> bool {
        if self.result.is_some()
            || mv.from >= CELLS
            || owner(self.cells[mv.from]) != Some(self.to_move)
            || mv.to >= CELLS
        {
            return false;
        }
        mv.to != mv.from && self.destinations(mv.from).mark[mv.to]
    }

    fn play_unchecked(&mut self, mv: &Move) {
        let me = self.to_move;
        if let Some(them) = owner(self.cells[mv.to]) {
            let n = self.count[them] as usize;
            let list = &mut self.pieces[them];
            let i = list[..n].iter().position(|&p| p as Point == mv.to);
            list[i.expect("the captured piece is listed")] = list[n - 1];
            self.count[them] -= 1;
        }
        let n = self.count[me] as usize;
        let list = &mut self.pieces[me];
        let i = list[..n].iter().position(|&p| p as Point == mv.from);
        list[i.expect("the moving piece is listed")] = mv.to as u8;
        self.cells[mv.to] = self.cells[mv.from];
        self.cells[mv.from] = EMPTY;
        self.plies += 1;
        self.to_move = self.to_move.other();
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    /// The protocol's form: `g4-g6`.
    fn move_text(&self, mv: &Move) -> String {
        mv.text()
    }

    /// Material (a stone 100, the column 300) and closeness to the enemy base, for `seat` minus
    /// the same for the opponent.
    fn evaluate(&self, seat: Side) -> i32 {
        let mut score = [0i32; 2];
        for (s, total) in Side::BOTH.into_iter().zip(&mut score) {
            for p in self.pieces(s) {
                let worth = if is_column(self.cells[p]) { 300 } else { 100 };
                *total += worth + 6 * (12 - GOAL[s][p]);
            }
        }
        score[seat] - score[seat.other()]
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

    /// The drawing on pbmserv's help page, as it draws the start.
    pub const START_DRAWING: &str = "                  1 2 3 4 5 6 7
                 / / / / / / / 8
                              / 9
           a-  . . . . . . .   / 10
          b-  . . . . . . . .   / 11
         c-  . . . . . . . . .   / 12
        d-  . . . . . . . . . .   / 13
       e-  . . . . . . . . . . .   /
      f-  . . o o . . . . x x . .
     g-  . . o(o)o . . . x(x)x . .
      h-  . . o o . . . . x x . .
       i-  . . . . . . . . . . .
        j-  . . . . . . . . . .
         k-  . . . . . . . . .    O->
          l-  . . . . . . . .
           m-  . . . . . . .    <-X";

    fn mv(text: &str) -> Move {
        parse_move(text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn pos(text: &str) -> Board {
        Board::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn texts(b: &Board) -> Vec<String> {
        let mut t: Vec<String> = b.legal_moves().iter().map(|m| m.text()).collect();
        t.sort();
        t
    }

    /// The destinations of the piece on `from`, sorted by name.
    fn dests(b: &Board, from: &str) -> Vec<String> {
        let mut t: Vec<String> = b
            .legal_moves()
            .iter()
            .filter(|m| point_name(m.from) == from)
            .map(|m| point_name(m.to))
            .collect();
        t.sort();
        t
    }

    #[test]
    fn points_and_moves() {
        assert_eq!(points().count(), 127);
        for r in 0..13 {
            let (lo, hi) = row_span(r);
            assert_eq!(hi - lo + 1, 13 - (r as isize - 6).unsigned_abs());
        }
        assert_eq!(point_name(BASE[0]), "g4");
        assert_eq!(point_name(BASE[1]), "g10");
        for p in points() {
            assert_eq!(parse_point(&point_name(p)), Some(p));
        }
        assert_eq!(parse_point("G4"), Some(BASE[0]));
        assert_eq!(parse_point("a7"), Some(idx(0, 7)));
        assert_eq!(parse_point("m13"), Some(idx(12, 13)));
        for bad in [
            "a8", "a0", "m6", "g14", "g04", "n1", "g", "4g", "g4x", "", "gg",
        ] {
            assert_eq!(parse_point(bad), None, "{bad}");
        }
        assert_eq!(mv("g4-g6").text(), "g4-g6");
        assert_eq!(mv(" G4 - g6 ").text(), "g4-g6");
        assert_eq!(mv("F3-e3"), mv("f3 -e3"));
        assert!(parse_move("g4g6").is_err());
        assert!(parse_move("g4-").is_err());
        assert!(parse_move("g4-a9").unwrap_err().contains("'a9'"));
        assert!(parse_move("g4-g6-g8").is_err());
        // Neighbours are at distance 1, and the bases 6 apart.
        assert_eq!(distance(BASE[0], BASE[1]), 6);
        for d in DIRS {
            assert_eq!(distance(BASE[0], step(BASE[0], d)), 1);
        }
        assert_eq!(distance(idx(0, 1), idx(12, 13)), 12);
        assert_eq!(distance(idx(0, 7), idx(12, 7)), 12);
    }

    #[test]
    fn the_start_is_drawn_as_pbmserv_draws_it() {
        let b = Board::start();
        assert_eq!(b.board_lines().join("\n"), START_DRAWING);
        assert!(b.render().ends_with("\nO to move\n"));
        assert!(
            include_str!("description.md").contains(START_DRAWING),
            "description.md shows the start as the help page does"
        );
        // An empty base is a star; a column off its base keeps its brackets.
        let mut b = b;
        b.play_unchecked(&mv("g4-g6"));
        let lines = b.board_lines();
        assert_eq!(lines[9], "     g-  . . o * o(o). . x(x)x . .");
    }

    #[test]
    fn position_text() {
        let start = Board::start();
        assert_eq!(
            start.position_text(),
            "O:O(g4),f3,f4,g3,g5,h4,h5:X(g10),f9,f10,g9,g11,h10,h11"
        );
        assert_eq!(
            pos(" o : x(G10), f9 : o(g4),f3 ").position_text(),
            "O:O(g4),f3:X(g10),f9"
        );
        assert_eq!(pos("X:O:X(g10)").count(First), 0);
        let b = pos("X:Oe5,(b2):Xh9");
        assert_eq!(pos(&b.position_text()), b);
        for bad in [
            "",
            "O:O(g4)",
            "Z:O(g4):X(g10)",
            "O:O(g4),(g4:X(g10)",
            "O:Cg4:X(g10)",
            "O:O(g4):O(g10)",
            "O:O(g4),(g5):X(g10)",
            "O:Og4:X(g10)",
            "O:O(g4),g4:X(g10)",
            "O:Oa9:X(g10)",
            "O:O:X",
            "O:Og10:Xg4",
            "O:O(g4):Y(g10)",
            "O:O(g4),a1,a2,a3,a4,a5,a6,a7:X(g10)",
        ] {
            assert!(Board::from_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_help_page_example_is_legal_at_the_start() {
        let mut b = Board::start();
        assert!(
            b.is_legal(&mv("g4-g6")),
            "the column hops over the stone on g5"
        );
        b.play_unchecked(&mv("g4-g6"));
        assert_eq!(b.at(parse_point("g6").unwrap()), Some((First, true)));
        assert_eq!(b.at(BASE[0]), None);
        assert_eq!(b.to_move(), Second);
        assert_eq!(b.outcome(), None);
    }

    #[test]
    fn start_moves() {
        let b = Board::start();
        // The column cannot slide (every neighbour is a stone); it hops over each of its six
        // stones, and no chain goes further.
        assert_eq!(dests(&b, "g4"), ["e2", "e4", "g2", "g6", "i4", "i6"]);
        // g5 steps to f5, g6 and h6, hops over f4 to e3 and over h5 to i5; over g4 it would land
        // on g3, which is taken.
        assert_eq!(dests(&b, "g5"), ["e3", "f5", "g6", "h6", "i5"]);
        assert_eq!(dests(&b, "f3"), ["e2", "e3", "f2", "f5", "h3"]);
        // Six stones with five moves each, and the column's six.
        assert_eq!(b.legal_moves().len(), 36);
    }

    #[test]
    fn hop_chains() {
        // O's stone on a1 hops over b2 to c3, over d4 to e5, over e6 to e7: three hops.
        let b = pos("O:Oa1,b2,d4,e6,(m13):X(g10)");
        assert_eq!(dests(&b, "a1"), ["a2", "b1", "c3", "e5", "e7"]);
        // Two ways to e5 (over d4, or over c4 then d5) are one move.
        let b = pos("O:Oc3,c4,d4,d5,(m13):X(g10)");
        let to_e5: Vec<_> = b
            .legal_moves()
            .into_iter()
            .filter(|m| m.text() == "c3-e5")
            .collect();
        assert_eq!(to_e5.len(), 1);
        // A chain that comes back to its start (d4 over d5 to d6, over e6 to f6, over e5 to d4)
        // does not make a move to the start.
        let b = pos("O:Od4,d5,e5,e6,(m13):X(g10)");
        assert!(b.legal_moves().iter().all(|m| m.from != m.to));
        // Stones never hop over enemies.
        let b = pos("O:Oa1,(m13):Xb2,(g10)");
        assert_eq!(dests(&b, "a1"), ["a2", "b1"]);
        // The column hops too, over its own stones only.
        let b = pos("O:O(a1),b2:Xa2,b1,(g10)");
        assert_eq!(dests(&b, "a1"), ["a2", "b1", "c3"]);
    }

    #[test]
    fn a_stone_cannot_land_on_its_own_base_but_may_hop_over_it() {
        // g4 is empty, and neither f4 nor g3 may step onto it.
        let b = pos("O:Of4,g3,(i3):X(g10)");
        assert!(!dests(&b, "f4").contains(&"g4".to_string()));
        assert!(!dests(&b, "g3").contains(&"g4".to_string()));
        assert!(!b.is_legal(&mv("f4-g4")));
        assert!(
            b.why_illegal(&mv("f4-g4"))
                .unwrap()
                .contains("cannot land on its own base g4")
        );
        // With the column on g4 a stone hops over it: g3 over g4 to g5.
        let b = pos("O:O(g4),g3:X(g10)");
        assert_eq!(dests(&b, "g3"), ["f2", "f3", "g2", "g5", "h3", "h4"]);
        // ... but may not land on it from a hop: g2 over g3 to g4 is refused.
        let b = pos("O:Og2,g3,(i3):X(g10)");
        assert!(!dests(&b, "g2").contains(&"g4".to_string()));
        // A column may go back onto its base, by a slide or a hop.
        let b = pos("O:O(g6):X(g10)");
        assert!(b.is_legal(&mv("g6-g4")));
        let b = pos("O:O(g2),g3:X(g10)");
        assert!(b.is_legal(&mv("g2-g4")));
    }

    #[test]
    fn capture_by_replacement() {
        // O's column on g6 slides along row g; the X stone on g9 stops the slide and is taken.
        let mut b = pos("O:O(g6),a1:X(g10),g9,m13");
        assert_eq!(
            dests(&b, "g6"),
            [
                "a6", "b1", "b6", "c2", "c6", "d3", "d6", "e4", "e6", "f5", "f6", "g1", "g2", "g3",
                "g4", "g5", "g7", "g8", "g9", "h6", "h7", "i6", "i8", "j6", "j9", "k10", "k6",
                "l11", "l6", "m12"
            ]
        );
        assert!(
            !b.is_legal(&mv("g6-g10")),
            "the slide stops at the first piece"
        );
        assert_eq!(
            b.why_illegal(&mv("g6-g10")).unwrap(),
            "g6-g10: the column's path is blocked at g9"
        );
        b.play_unchecked(&mv("g6-g9"));
        assert_eq!(b.at(parse_point("g9").unwrap()), Some((First, true)));
        assert_eq!(b.count(Second), 2);
        assert_eq!(b.outcome(), None);
        // A column captures a column away from its base, and a stone never captures.
        let mut b = pos("O:O(e5),d5:X(e7),d6");
        assert!(b.is_legal(&mv("e5-e7")));
        assert!(!b.is_legal(&mv("d5-d6")));
        assert!(
            b.why_illegal(&mv("d5-d6"))
                .unwrap()
                .contains("stones never capture")
        );
        b.play_unchecked(&mv("e5-e7"));
        assert_eq!(b.count(Second), 1);
    }

    #[test]
    fn a_column_on_its_home_base_cannot_be_captured() {
        // O's column on g8 faces X's column on g10 with g9 empty.
        let b = pos("O:O(g8):X(g10),a1");
        assert!(!b.is_legal(&mv("g8-g10")));
        assert_eq!(
            b.why_illegal(&mv("g8-g10")).unwrap(),
            "g8-g10: the X column on its home base g10 cannot be captured"
        );
        // Off its base the same column is fair game.
        let b = pos("O:O(g8):X(g11),a1");
        assert!(b.is_legal(&mv("g8-g11")));
    }

    #[test]
    fn reaching_the_enemy_base_wins() {
        // A stone steps onto X's empty base.
        let mut b = pos("O:Og9,(a1):X(m13),f9");
        assert!(b.is_legal(&mv("g9-g10")));
        b.play_unchecked(&mv("g9-g10"));
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        assert!(b.legal_moves().is_empty());
        // A column slides onto it; X reaches O's base with a hop.
        let mut b = pos("O:O(g12):X(m13),f9");
        b.play_unchecked(&mv("g12-g10"));
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        let mut b = pos("X:O(a1):Xg2,g3,(m13)");
        assert!(b.is_legal(&mv("g2-g4")));
        b.play_unchecked(&mv("g2-g4"));
        assert_eq!(b.outcome(), Some(Outcome::win(Second)));
        // A hop chain ends on the enemy base: it cannot go on through it.
        let b = pos("O:Og8,g9,g11,(a1):X(m13)");
        assert!(b.is_legal(&mv("g8-g10")));
        assert!(!b.is_legal(&mv("g8-g12")));
    }

    #[test]
    fn eliminating_every_enemy_piece_wins() {
        let mut b = pos("O:O(e5):Xe8");
        b.play_unchecked(&mv("e5-e8"));
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        assert!(b.legal_moves().is_empty());
        assert_eq!(pos("O:O(e5):X").outcome(), Some(Outcome::win(First)));
    }

    #[test]
    fn a_side_without_a_move_loses() {
        // X's only piece, a stone on a1, is boxed in by O's stones on a2 and b1, with b2 taken
        // and nothing of X's to hop over.
        let b = pos("X:Oa2,b1,b2,(m13):Xa1");
        assert!(b.legal_moves().is_empty());
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        // The same with O to move: O moves, the game goes on.
        assert_eq!(pos("O:Oa2,b1,b2,(m13):Xa1").outcome(), None);
    }

    #[test]
    fn move_limit() {
        assert_eq!(Board::start().max_plies(), DEFAULT_MAX_PLIES);
        let mut b = Board::start().with_max_plies(4);
        for m in ["f3-e2", "f9-e8", "e2-d1", "e8-d7"] {
            assert_eq!(b.outcome(), None);
            b.play_unchecked(&mv(m));
        }
        assert_eq!(b.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        assert!(b.legal_moves().is_empty());
        // A win on the last move is a win.
        let mut b = pos("O:Og9,(a1):X(m13),f9").with_max_plies(1);
        b.play_unchecked(&mv("g9-g10"));
        assert_eq!(b.outcome(), Some(Outcome::win(First)));
        // 0: no limit.
        let mut b = Board::start().with_max_plies(0);
        b.play_unchecked(&mv("f3-e2"));
        assert_eq!(b.outcome(), None);
    }

    #[test]
    fn reasons_for_illegal_moves() {
        let b = Board::start();
        let why = |t: &str| b.why_illegal(&mv(t)).unwrap_or_default();
        assert_eq!(why("g4-g6"), "");
        assert_eq!(why("g4-g9"), "g4-g9: the column's path is blocked at g5");
        assert_eq!(why("a1-a2"), "a1-a2: there is no piece on a1");
        assert_eq!(
            why("g10-g8"),
            "g10-g8: the piece on g10 is X's, and you play O"
        );
        assert_eq!(
            why("f3-f3"),
            "f3-f3: a piece cannot end its move on the point where it started"
        );
        assert_eq!(why("f3-f4"), "f3-f4: f4 holds one of your pieces");
        assert!(why("f3-c1").contains("cannot reach c1 from f3"));
        assert!(why("g4-e1").contains("neither in a straight line"));
    }

    #[test]
    fn perft_from_start() {
        let b = Board::start();
        let counts: Vec<u64> = (1..=4).map(|d| perft(&b, d).nodes).collect();
        assert_eq!(counts, [36, 1296, 56_374, 2_446_868]);
    }

    #[test]
    fn random_playouts() {
        suite::check(&Board::start(), 200, 400);
    }

    /// An independent, deliberately plain generator written from the rule text: a map from
    /// (row, number) to a piece letter, neighbours computed from the offsets, hop chains by a
    /// recursive search over sets of visited points.
    mod reference {
        use std::collections::{BTreeSet, HashMap};

        pub type Pt = (i32, i32);
        /// 'o', 'O' (O's column), 'x', 'X'.
        pub type Map = HashMap<Pt, char>;

        pub const OFFSETS: [Pt; 6] = [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1)];

        pub fn on_board((r, c): Pt) -> bool {
            (0..13).contains(&r) && c >= 1.max(r - 5) && c <= 13.min(7 + r)
        }

        pub fn name((r, c): Pt) -> String {
            format!("{}{}", (b'a' + r as u8) as char, c)
        }

        fn base(o: bool) -> Pt {
            if o { (6, 4) } else { (6, 10) }
        }

        fn mine(ch: Option<&char>, o: bool) -> bool {
            matches!((ch, o), (Some('o' | 'O'), true) | (Some('x' | 'X'), false))
        }

        fn chain(
            map: &Map,
            start: Pt,
            at: Pt,
            o: bool,
            column: bool,
            visited: &mut BTreeSet<Pt>,
            out: &mut BTreeSet<Pt>,
        ) {
            if at == base(!o) {
                return;
            }
            for (dr, dc) in OFFSETS {
                let over = (at.0 + dr, at.1 + dc);
                let land = (at.0 + 2 * dr, at.1 + 2 * dc);
                if over == start || !mine(map.get(&over), o) || !on_board(land) {
                    continue;
                }
                if map.contains_key(&land) && land != start {
                    continue;
                }
                if !column && land == base(o) {
                    continue;
                }
                if visited.insert(land) {
                    if land != start {
                        out.insert(land);
                    }
                    chain(map, start, land, o, column, visited, out);
                }
            }
        }

        pub fn moves(map: &Map, o: bool) -> Vec<String> {
            let mut all = Vec::new();
            for (&p, &ch) in map {
                if !mine(Some(&ch), o) {
                    continue;
                }
                let column = ch.is_ascii_uppercase();
                let mut out = BTreeSet::new();
                for (dr, dc) in OFFSETS {
                    let mut k = 1;
                    loop {
                        let q = (p.0 + k * dr, p.1 + k * dc);
                        if !on_board(q) {
                            break;
                        }
                        match map.get(&q) {
                            None => {
                                if column || q != base(o) {
                                    out.insert(q);
                                }
                            }
                            Some(&e) => {
                                let protected = e.is_ascii_uppercase() && q == base(!o);
                                if column && !mine(Some(&e), o) && !protected {
                                    out.insert(q);
                                }
                                break;
                            }
                        }
                        if !column {
                            break;
                        }
                        k += 1;
                    }
                }
                let mut visited = BTreeSet::from([p]);
                chain(map, p, p, o, column, &mut visited, &mut out);
                out.remove(&p);
                all.extend(out.into_iter().map(|q| format!("{}-{}", name(p), name(q))));
            }
            all.sort();
            all
        }

        /// The game is over: someone on the enemy base, or a side with no piece.
        pub fn over(map: &Map) -> bool {
            mine(map.get(&base(false)), true)
                || mine(map.get(&base(true)), false)
                || !map.values().any(|c| c.eq_ignore_ascii_case(&'o'))
                || !map.values().any(|c| c.eq_ignore_ascii_case(&'x'))
        }
    }

    fn reference_map(b: &Board) -> reference::Map {
        let mut map = reference::Map::new();
        for r in 0..13 {
            for c in 1..=13 {
                if !reference::on_board((r, c)) {
                    continue;
                }
                if let Some((s, column)) = b.at(idx(r as usize, c as usize)) {
                    let ch = match (s, column) {
                        (First, false) => 'o',
                        (First, true) => 'O',
                        (Second, false) => 'x',
                        (Second, true) => 'X',
                    };
                    map.insert((r, c), ch);
                }
            }
        }
        map
    }

    fn reference_moves(b: &Board) -> Vec<String> {
        let map = reference_map(b);
        if reference::over(&map) {
            return Vec::new();
        }
        let moves = reference::moves(&map, b.to_move() == First);
        if b.max_plies() > 0 && b.plies() >= b.max_plies() && !moves.is_empty() {
            return Vec::new();
        }
        moves
    }

    /// Perft with the reference generator, checking the fast one at every node.
    fn reference_perft(b: &Board, depth: u32) -> u64 {
        let theirs = reference_moves(b);
        assert_eq!(texts(b), theirs, "at {}", b.position_text());
        if depth == 0 {
            return 1;
        }
        theirs
            .iter()
            .map(|t| {
                let mut next = b.clone();
                next.play_unchecked(&mv(t));
                reference_perft(&next, depth - 1)
            })
            .sum()
    }

    #[test]
    fn perft_agrees_with_the_reference() {
        assert_eq!(reference_perft(&Board::start(), 3), 56_374);
    }

    #[test]
    fn random_games_agree_with_the_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut captures, mut wins) = (0, 0);
        for _ in 0..300 {
            let mut b = Board::start().with_max_plies(0);
            while b.outcome().is_none() && b.plies() < 400 {
                assert_eq!(texts(&b), reference_moves(&b), "at {}", b.position_text());
                let legal = b.legal_moves();
                let m = *legal.choose(&mut rng).unwrap();
                if b.at(m.to).is_some() {
                    captures += 1;
                }
                b.play_unchecked(&m);
            }
            assert_eq!(reference_moves(&b).is_empty(), b.outcome().is_some());
            wins += b.outcome().is_some() as u32;
        }
        assert!(captures > 100, "the playouts captured ({captures})");
        assert!(wins > 100, "the playouts ended ({wins})");
    }
}
