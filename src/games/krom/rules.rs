//! KROM (8ixi8): pure rules, no I/O.
//!
//! A 16x16 grid, spaces `[x, y]` with x and y in 0..=15 and y growing downwards (row 0 at the
//! top). Each player (red = seat 0, blue = seat 1) has a factory, and builds walls and guns that
//! must stay in touch with it to build further. Every action costs one move; 3 moves are added
//! each turn and unused ones roll over (up to a cap). A gun's shot hits the first piece in its
//! direction, of either colour. Destroying a factory ends the game.
//!
//! Camo is a property of a space, visible to both players; it hides the pieces on it from the
//! player who does not own them. Legality is judged on what the player can see: an action that
//! fails only because of a hidden enemy piece (moving or making onto it) costs its move and does
//! nothing (a "bump"), while one that is illegal on what the player sees loses the game.

use crate::games::Side;

/// The side of the board.
pub const SIZE: usize = 16;
/// Moves each player has at its first turn, and moves added at every later turn.
pub const MOVES_PER_TURN: u32 = 3;
/// The default cap on the moves a player may have at the start of a turn.
pub const DEFAULT_CAP: u32 = 15;
/// The default number of turns (both players together) after which the game is a draw.
pub const DEFAULT_MAX_TURNS: u32 = 200;

/// A space of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: u8,
    pub y: u8,
}

impl Pos {
    pub const fn new(x: u8, y: u8) -> Pos {
        Pos { x, y }
    }

    /// The space `[x, y]`, or `None` off the board.
    pub fn at(x: i64, y: i64) -> Option<Pos> {
        let ok = |v: i64| (0..SIZE as i64).contains(&v);
        (ok(x) && ok(y)).then(|| Pos::new(x as u8, y as u8))
    }

    /// The next space in a direction, or `None` off the board.
    pub fn step(self, dir: Dir) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        Pos::at(self.x as i64 + dx, self.y as i64 + dy)
    }

    /// The (up to four) orthogonal neighbours on the board.
    pub fn neighbours(self) -> impl Iterator<Item = Pos> {
        Dir::ALL.into_iter().filter_map(move |d| self.step(d))
    }

    pub fn is_adjacent(self, other: Pos) -> bool {
        self.x.abs_diff(other.x) + self.y.abs_diff(other.y) == 1
    }

    pub fn distance(self, other: Pos) -> u32 {
        self.x.abs_diff(other.x) as u32 + self.y.abs_diff(other.y) as u32
    }

    /// Every space, row by row.
    pub fn all() -> impl Iterator<Item = Pos> {
        (0..SIZE as u8).flat_map(|y| (0..SIZE as u8).map(move |x| Pos::new(x, y)))
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// A firing direction: 0 north (y - 1), 1 east (x + 1), 2 south (y + 1), 3 west (x - 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub fn from_index(i: i64) -> Option<Dir> {
        usize::try_from(i)
            .ok()
            .and_then(|i| Dir::ALL.get(i).copied())
    }

    pub fn index(self) -> u8 {
        self as u8
    }

    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Factory,
    Wall,
    Gun,
}

impl Kind {
    /// Hits it takes to destroy a fresh piece.
    pub fn hits(self) -> u8 {
        match self {
            Kind::Factory => 3,
            Kind::Wall => 2,
            Kind::Gun => 1,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Kind::Factory => 'f',
            Kind::Wall => 'w',
            Kind::Gun => 'g',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        match c {
            'f' => Some(Kind::Factory),
            'w' => Some(Kind::Wall),
            'g' => Some(Kind::Gun),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Factory => "factory",
            Kind::Wall => "wall",
            Kind::Gun => "gun",
        }
    }
}

/// The colour letter of a seat: `r` (red, seat 0) or `b` (blue, seat 1).
pub fn colour(seat: Side) -> char {
    match seat {
        Side::First => 'r',
        Side::Second => 'b',
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub owner: Side,
    pub kind: Kind,
    /// Hits left before it is destroyed.
    pub hits: u8,
}

impl Piece {
    pub fn new(owner: Side, kind: Kind) -> Piece {
        Piece {
            owner,
            kind,
            hits: kind.hits(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    pub piece: Option<Piece>,
    pub camo: bool,
}

/// One action of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Move an own wall or gun one space N/S/E/W to an empty space.
    Move(Pos, Pos),
    /// Make a wall or a gun on an empty space next to the factory's chain.
    Make(Pos, Kind),
    /// Fire an own gun.
    Fire(Pos, Dir),
    /// Camouflage a space of the factory's chain or next to it.
    Camo(Pos),
    /// Spend a move doing nothing.
    Pass,
}

/// What an action did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It took effect (a move, a make, a camo, a pass).
    Done,
    /// A move or make onto a space holding an enemy piece the player could not see: nothing
    /// happened, the move is spent.
    Bumped,
    /// A shot hit the piece on a space; `destroyed` when that was its last hit.
    Hit {
        at: Pos,
        piece: Piece,
        destroyed: bool,
    },
    /// A shot that met no piece.
    Missed,
}

/// An action as the opponent of its author may see it (see [`Board::apply`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Nothing of it was visible.
    Hidden,
    Pass,
    /// A move; a space the viewer could not see is `None`.
    Move(Option<Pos>, Option<Pos>),
    Make(Pos, Kind),
    Fire(Pos, Dir),
    /// A shot from a gun the viewer could not see hit the (visible) piece on this space.
    Hit(Pos),
    Camo(Pos),
}

impl Seen {
    /// The spaces it says something about, camo aside (camo is public).
    pub fn piece_spaces(&self) -> Vec<Pos> {
        match *self {
            Seen::Move(a, b) => a.into_iter().chain(b).collect(),
            Seen::Make(p, _) | Seen::Fire(p, _) | Seen::Hit(p) => vec![p],
            Seen::Hidden | Seen::Pass | Seen::Camo(_) => vec![],
        }
    }
}

/// The board: a cell per space, `cells[y][x]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    cells: [[Cell; SIZE]; SIZE],
}

/// The start: each factory with three walls on the sides facing the other.
pub const FACTORIES: [Pos; 2] = [Pos::new(7, 1), Pos::new(8, 14)];
pub const START_WALLS: [[Pos; 3]; 2] = [
    [Pos::new(6, 1), Pos::new(8, 1), Pos::new(7, 2)],
    [Pos::new(7, 14), Pos::new(9, 14), Pos::new(8, 13)],
];

impl Board {
    pub fn empty() -> Board {
        Board {
            cells: [[Cell::default(); SIZE]; SIZE],
        }
    }

    pub fn start() -> Board {
        let mut b = Board::empty();
        for seat in Side::BOTH {
            b.cell_mut(FACTORIES[seat]).piece = Some(Piece::new(seat, Kind::Factory));
            for w in START_WALLS[seat] {
                b.cell_mut(w).piece = Some(Piece::new(seat, Kind::Wall));
            }
        }
        b
    }

    pub fn cell(&self, p: Pos) -> &Cell {
        &self.cells[p.y as usize][p.x as usize]
    }

    pub fn cell_mut(&mut self, p: Pos) -> &mut Cell {
        &mut self.cells[p.y as usize][p.x as usize]
    }

    /// The piece on a space as `seat` sees it: its own everywhere, the opponent's only where
    /// there is no camo.
    pub fn seen(&self, seat: Side, p: Pos) -> Option<Piece> {
        let c = self.cell(p);
        c.piece.filter(|pc| pc.owner == seat || !c.camo)
    }

    /// Whether a space holds a piece of `owner` under camo (hidden from the other player).
    pub fn hides(&self, owner: Side, p: Pos) -> bool {
        let c = self.cell(p);
        c.camo && c.piece.is_some_and(|pc| pc.owner == owner)
    }

    /// The board as `seat` sees it: the opponent's pieces under camo removed.
    pub fn view(&self, seat: Side) -> Board {
        let mut b = self.clone();
        for p in Pos::all() {
            b.cell_mut(p).piece = self.seen(seat, p);
        }
        b
    }

    /// Where `seat`'s factory stands (factories never move), unless it was destroyed.
    pub fn factory(&self, seat: Side) -> Option<Pos> {
        let p = FACTORIES[seat];
        let own = |pc: Piece| pc.owner == seat && pc.kind == Kind::Factory;
        self.cell(p).piece.is_some_and(own).then_some(p)
    }

    /// The spaces of `seat`'s pieces joined to its factory by an unbroken orthogonal chain of
    /// its own pieces (the factory included). Only the player's own pieces count, so this is
    /// the same whether computed on the full board or on the player's view.
    pub fn chain(&self, seat: Side) -> [[bool; SIZE]; SIZE] {
        let mut in_chain = [[false; SIZE]; SIZE];
        let Some(f) = self.factory(seat) else {
            return in_chain;
        };
        let mut stack = vec![f];
        in_chain[f.y as usize][f.x as usize] = true;
        while let Some(p) = stack.pop() {
            for n in p.neighbours() {
                let own = self.cell(n).piece.is_some_and(|pc| pc.owner == seat);
                if own && !in_chain[n.y as usize][n.x as usize] {
                    in_chain[n.y as usize][n.x as usize] = true;
                    stack.push(n);
                }
            }
        }
        in_chain
    }

    /// Spaces next to the chain (N/S/E/W of one of its pieces), chain spaces excluded.
    pub fn next_to_chain(&self, seat: Side) -> [[bool; SIZE]; SIZE] {
        next_to(&self.chain(seat))
    }

    /// Where a shot from `from` going `dir` lands: the first space holding a piece.
    pub fn shot(&self, from: Pos, dir: Dir) -> Option<Pos> {
        let mut p = from;
        while let Some(n) = p.step(dir) {
            if self.cell(n).piece.is_some() {
                return Some(n);
            }
            p = n;
        }
        None
    }

    /// Whether a space is open to `viewer`: without camo, or holding one of its own pieces.
    fn open_to(&self, viewer: Side, p: Pos) -> bool {
        let c = self.cell(p);
        !c.camo || c.piece.is_some_and(|pc| pc.owner == viewer)
    }

    /// Play one action of `seat`, judged on what `seat` can see. Returns what it did and how
    /// the opponent saw it at that moment (before any later action of the same turn; see
    /// [`Seen`] and [`mask`]). An `Err` says why the action is illegal; the board is then
    /// unchanged.
    pub fn apply(&mut self, seat: Side, action: Action) -> Result<(Effect, Seen), String> {
        match action {
            Action::Pass => Ok((Effect::Done, Seen::Pass)),
            Action::Move(from, to) => self.move_piece(seat, from, to),
            Action::Make(at, kind) => self.make(seat, at, kind),
            Action::Camo(at) => self.camouflage(seat, at),
            Action::Fire(gun, dir) => self.fire(seat, gun, dir),
        }
    }

    fn move_piece(&mut self, seat: Side, from: Pos, to: Pos) -> Result<(Effect, Seen), String> {
        let viewer = seat.other();
        match self.seen(seat, from) {
            Some(pc) if pc.owner == seat && pc.kind != Kind::Factory => {}
            Some(pc) if pc.owner == seat => {
                return Err(format!(
                    "cannot move the factory on {from}: factories do not move"
                ));
            }
            _ => return Err(format!("has no wall or gun of its own on {from} to move")),
        }
        if !from.is_adjacent(to) {
            return Err(format!(
                "cannot move from {from} to {to}: a piece moves one space north, east, south or west"
            ));
        }
        if let Some(pc) = self.seen(seat, to) {
            return Err(format!(
                "cannot move onto {to}: it holds a {} {}",
                side_name(pc.owner),
                pc.kind.name()
            ));
        }
        let seen = Seen::Move(
            self.open_to(viewer, from).then_some(from),
            self.open_to(viewer, to).then_some(to),
        );
        let seen = if seen == Seen::Move(None, None) {
            Seen::Hidden
        } else {
            seen
        };
        if self.cell(to).piece.is_some() {
            return Ok((Effect::Bumped, seen));
        }
        let piece = self.cell_mut(from).piece.take();
        self.cell_mut(to).piece = piece;
        Ok((Effect::Done, seen))
    }

    fn make(&mut self, seat: Side, at: Pos, kind: Kind) -> Result<(Effect, Seen), String> {
        let viewer = seat.other();
        if kind == Kind::Factory {
            return Err(format!(
                "cannot make a factory on {at}: only walls and guns can be made"
            ));
        }
        if let Some(pc) = self.seen(seat, at) {
            return Err(format!(
                "cannot make a {} on {at}: it holds a {} {}",
                kind.name(),
                side_name(pc.owner),
                pc.kind.name()
            ));
        }
        if !self.next_to_chain(seat)[at.y as usize][at.x as usize] {
            return Err(format!(
                "cannot make a {} on {at}: it is not next to the factory or to a piece joined to it",
                kind.name()
            ));
        }
        let seen = if self.open_to(viewer, at) {
            Seen::Make(at, kind)
        } else {
            Seen::Hidden
        };
        if self.cell(at).piece.is_some() {
            return Ok((Effect::Bumped, seen));
        }
        self.cell_mut(at).piece = Some(Piece::new(seat, kind));
        Ok((Effect::Done, seen))
    }

    fn camouflage(&mut self, seat: Side, at: Pos) -> Result<(Effect, Seen), String> {
        let chain = self.chain(seat);
        let next = next_to(&chain);
        let (x, y) = (at.x as usize, at.y as usize);
        if !chain[y][x] && !next[y][x] {
            return Err(format!(
                "cannot camouflage {at}: it is neither the factory's chain nor next to it"
            ));
        }
        let c = self.cell_mut(at);
        let seen = if c.camo { Seen::Hidden } else { Seen::Camo(at) };
        c.camo = true;
        Ok((Effect::Done, seen))
    }

    fn fire(&mut self, seat: Side, gun: Pos, dir: Dir) -> Result<(Effect, Seen), String> {
        let viewer = seat.other();
        match self.seen(seat, gun) {
            Some(pc) if pc.owner == seat && pc.kind == Kind::Gun => {}
            _ => return Err(format!("has no gun of its own on {gun} to fire")),
        }
        let target = self.shot(gun, dir);
        let seen = if self.open_to(viewer, gun) {
            Seen::Fire(gun, dir)
        } else {
            match target {
                Some(t) if self.open_to(viewer, t) => Seen::Hit(t),
                _ => Seen::Hidden,
            }
        };
        let Some(at) = target else {
            return Ok((Effect::Missed, seen));
        };
        let cell = self.cell_mut(at);
        let mut piece = cell.piece.expect("a shot lands on a piece");
        piece.hits -= 1;
        let destroyed = piece.hits == 0;
        if destroyed {
            *cell = Cell::default();
        } else {
            cell.piece = Some(piece);
        }
        Ok((
            Effect::Hit {
                at,
                piece,
                destroyed,
            },
            seen,
        ))
    }

    /// One cell as a string, as `viewer` sees it (`None`: a spectator, who sees everything):
    /// `#` or `-` (camo or not), then, if a piece is visible, its colour `r`/`b`, its kind
    /// `f`/`w`/`g` and its hits left `1`..`3`. For example `-`, `#`, `-rf3`, `#bg1`.
    pub fn cell_text(&self, viewer: Option<Side>, p: Pos) -> String {
        let c = self.cell(p);
        let mut s = String::from(if c.camo { "#" } else { "-" });
        let piece = match viewer {
            Some(v) => self.seen(v, p),
            None => c.piece,
        };
        if let Some(pc) = piece {
            s.push(colour(pc.owner));
            s.push(pc.kind.letter());
            s.push(char::from(b'0' + pc.hits));
        }
        s
    }

    /// The board as 16 rows (y = 0 first) of 16 cell strings (x = 0 first).
    pub fn rows(&self, viewer: Option<Side>) -> Vec<Vec<String>> {
        (0..SIZE as u8)
            .map(|y| {
                (0..SIZE as u8)
                    .map(|x| self.cell_text(viewer, Pos::new(x, y)))
                    .collect()
            })
            .collect()
    }

    /// Read back a board from [`Board::rows`] (a view reads back as the board of what it shows).
    pub fn from_rows<S: AsRef<str>>(rows: &[Vec<S>]) -> Result<Board, String> {
        if rows.len() != SIZE || rows.iter().any(|r| r.len() != SIZE) {
            return Err(format!("a board is {SIZE} rows of {SIZE} cells"));
        }
        let mut b = Board::empty();
        for (y, row) in rows.iter().enumerate() {
            for (x, text) in row.iter().enumerate() {
                let text = text.as_ref();
                let bad = || format!("bad cell {text:?} at [{x}, {y}]");
                let mut chars = text.chars();
                let camo = match chars.next() {
                    Some('#') => true,
                    Some('-') => false,
                    _ => return Err(bad()),
                };
                let rest: Vec<char> = chars.collect();
                let piece = match rest[..] {
                    [] => None,
                    [c, k, h] => {
                        let owner = match c {
                            'r' => Side::First,
                            'b' => Side::Second,
                            _ => return Err(bad()),
                        };
                        let kind = Kind::from_letter(k).ok_or_else(bad)?;
                        let hits = h
                            .to_digit(10)
                            .filter(|&h| h >= 1 && h <= kind.hits() as u32);
                        let hits = hits.ok_or_else(bad)? as u8;
                        Some(Piece { owner, kind, hits })
                    }
                    _ => return Err(bad()),
                };
                b.set(Pos::new(x as u8, y as u8), Cell { piece, camo });
            }
        }
        Ok(b)
    }

    pub fn set(&mut self, p: Pos, cell: Cell) {
        *self.cell_mut(p) = cell;
    }
}

/// The spaces next to (N/S/E/W of) a set of spaces, the set's own spaces excluded.
pub fn next_to(set: &[[bool; SIZE]; SIZE]) -> [[bool; SIZE]; SIZE] {
    let mut next = [[false; SIZE]; SIZE];
    for p in Pos::all() {
        if !set[p.y as usize][p.x as usize]
            && p.neighbours().any(|n| set[n.y as usize][n.x as usize])
        {
            next[p.y as usize][p.x as usize] = true;
        }
    }
    next
}

/// `red` or `blue`.
pub fn side_name(seat: Side) -> &'static str {
    match seat {
        Side::First => "red",
        Side::Second => "blue",
    }
}

/// Hide what the end of the turn would give away: a space that, once `mover`'s turn is over,
/// holds one of its pieces under camo is not named (a move's side becomes `None`, a make, fire
/// or hit becomes `Hidden`).
pub fn mask(seen: Seen, end: &Board, mover: Side) -> Seen {
    let hidden = |p: Pos| end.hides(mover, p);
    let keep = |p: Option<Pos>| p.filter(|&p| !hidden(p));
    match seen {
        Seen::Move(a, b) => match (keep(a), keep(b)) {
            (None, None) => Seen::Hidden,
            (a, b) => Seen::Move(a, b),
        },
        Seen::Make(p, _) | Seen::Fire(p, _) | Seen::Hit(p) if hidden(p) => Seen::Hidden,
        s => s,
    }
}

/// One action of a played turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    pub action: Action,
    pub effect: Effect,
    /// What the opponent sees of it, the end of the turn taken into account.
    pub seen: Seen,
}

/// A whole game: the board, the moves each player has, whose turn it is, and the result.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub board: Board,
    /// Moves each player has for its next (or current) turn.
    pub moves: [u32; 2],
    pub to_move: Side,
    /// Turns played so far (both players together).
    pub turns: u32,
    pub max_turns: u32,
    /// The most moves a player may have at the start of a turn.
    pub cap: u32,
    pub winner: Option<Side>,
    /// The turn limit was reached without a winner.
    pub drawn: bool,
}

impl State {
    pub fn new(max_turns: u32, cap: u32) -> State {
        State {
            board: Board::start(),
            moves: [MOVES_PER_TURN.min(cap); 2],
            to_move: Side::First,
            turns: 0,
            max_turns,
            cap,
            winner: None,
            drawn: false,
        }
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.drawn
    }

    /// Play the turn of the player to move: its actions in order, at most its moves. An illegal
    /// action (judged on what the player sees) refuses the whole turn and leaves the state
    /// unchanged. Actions after one that destroys a factory are not played.
    pub fn play_turn(&mut self, actions: &[Action]) -> Result<Vec<Played>, String> {
        let seat = self.to_move;
        let have = self.moves[seat];
        if actions.len() as u64 > have as u64 {
            return Err(format!(
                "sent {} actions with only {have} moves",
                actions.len()
            ));
        }
        let mut board = self.board.clone();
        let mut played = Vec::new();
        let mut winner = None;
        for (i, &action) in actions.iter().enumerate() {
            let (effect, seen) = board
                .apply(seat, action)
                .map_err(|why| format!("action {} of the turn: {why}", i + 1))?;
            played.push(Played {
                action,
                effect,
                seen,
            });
            if let Effect::Hit {
                piece:
                    Piece {
                        kind: Kind::Factory,
                        owner,
                        ..
                    },
                destroyed: true,
                ..
            } = effect
            {
                winner = Some(owner.other());
                break;
            }
        }
        for p in &mut played {
            p.seen = mask(p.seen, &board, seat);
        }
        self.board = board;
        self.moves[seat] = (have - played.len() as u32 + MOVES_PER_TURN).min(self.cap);
        self.turns += 1;
        self.to_move = seat.other();
        self.winner = winner;
        if winner.is_none() && self.turns >= self.max_turns {
            self.drawn = true;
        }
        Ok(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};

    fn p(x: u8, y: u8) -> Pos {
        Pos::new(x, y)
    }

    fn state() -> State {
        State::new(DEFAULT_MAX_TURNS, DEFAULT_CAP)
    }

    fn piece(b: &Board, at: Pos) -> Option<(Side, Kind, u8)> {
        b.cell(at).piece.map(|pc| (pc.owner, pc.kind, pc.hits))
    }

    #[test]
    fn the_start_position() {
        let b = Board::start();
        assert_eq!(piece(&b, p(7, 1)), Some((First, Kind::Factory, 3)));
        assert_eq!(piece(&b, p(8, 14)), Some((Second, Kind::Factory, 3)));
        for w in [p(6, 1), p(8, 1), p(7, 2)] {
            assert_eq!(piece(&b, w), Some((First, Kind::Wall, 2)));
        }
        for w in [p(7, 14), p(9, 14), p(8, 13)] {
            assert_eq!(piece(&b, w), Some((Second, Kind::Wall, 2)));
        }
        assert_eq!(Pos::all().filter(|&q| b.cell(q).piece.is_some()).count(), 8);
        assert_eq!(b.cell_text(Some(Second), p(7, 1)), "-rf3");
        assert_eq!(b.cell_text(None, p(0, 0)), "-");
        assert_eq!(Board::from_rows(&b.rows(None)), Ok(b));
    }

    #[test]
    fn move_one_step_to_an_empty_space_only() {
        let mut b = Board::start();
        assert_eq!(
            b.apply(First, Action::Move(p(7, 2), p(7, 3))).unwrap().0,
            Effect::Done
        );
        assert_eq!(piece(&b, p(7, 3)), Some((First, Kind::Wall, 2)));
        assert_eq!(b.cell(p(7, 2)).piece, None);
        let before = b.clone();
        for (action, why) in [
            (Action::Move(p(7, 3), p(7, 5)), "one space"),
            (Action::Move(p(7, 3), p(8, 4)), "one space"),
            (Action::Move(p(7, 1), p(7, 2)), "factories do not move"),
            (
                Action::Move(p(8, 13), p(8, 12)),
                "no wall or gun of its own",
            ),
            (Action::Move(p(3, 3), p(3, 4)), "no wall or gun of its own"),
            (Action::Move(p(6, 1), p(7, 1)), "holds a red factory"),
        ] {
            let e = b.apply(First, action).unwrap_err();
            assert!(e.contains(why), "{action:?}: {e}");
            assert_eq!(b, before, "a refused action changes nothing");
        }
    }

    #[test]
    fn make_needs_an_empty_space_next_to_the_chain() {
        let mut b = Board::start();
        // Next to a wall that touches the factory.
        b.apply(First, Action::Make(p(7, 3), Kind::Gun)).unwrap();
        assert_eq!(piece(&b, p(7, 3)), Some((First, Kind::Gun, 1)));
        // The chain goes on through the new gun.
        b.apply(First, Action::Make(p(7, 4), Kind::Wall)).unwrap();
        assert_eq!(piece(&b, p(7, 4)), Some((First, Kind::Wall, 2)));
        // Diagonal is not adjacent; two spaces away is not adjacent.
        let e = b
            .apply(First, Action::Make(p(8, 5), Kind::Wall))
            .unwrap_err();
        assert!(e.contains("not next to"), "{e}");
        let e = b
            .apply(First, Action::Make(p(7, 6), Kind::Wall))
            .unwrap_err();
        assert!(e.contains("not next to"), "{e}");
        // Occupied, a factory, the other side's chain.
        assert!(b.apply(First, Action::Make(p(7, 4), Kind::Gun)).is_err());
        assert!(
            b.apply(First, Action::Make(p(6, 2), Kind::Factory))
                .is_err()
        );
        assert!(b.apply(First, Action::Make(p(8, 12), Kind::Gun)).is_err());
        assert!(b.apply(Second, Action::Make(p(8, 12), Kind::Gun)).is_ok());
        // Break the chain: moving the gun away from the wall cuts the wall at [7,4] off.
        b.apply(First, Action::Move(p(7, 3), p(6, 3))).unwrap();
        let e = b
            .apply(First, Action::Make(p(7, 5), Kind::Wall))
            .unwrap_err();
        assert!(
            e.contains("not next to"),
            "a piece cut off from the factory: {e}"
        );
        // Destroying the link also breaks a chain.
        let mut b = Board::start();
        b.apply(First, Action::Make(p(5, 1), Kind::Gun)).unwrap();
        b.apply(First, Action::Make(p(5, 2), Kind::Wall)).unwrap();
        b.apply(First, Action::Make(p(6, 0), Kind::Gun)).unwrap();
        // The gun on [5,1] fires east... no: fire the gun on [6,0] south at the wall [6,1] twice.
        b.apply(First, Action::Fire(p(6, 0), Dir::South)).unwrap();
        b.apply(First, Action::Fire(p(6, 0), Dir::South)).unwrap();
        assert_eq!(b.cell(p(6, 1)).piece, None);
        assert!(b.apply(First, Action::Make(p(4, 2), Kind::Wall)).is_err());
        assert!(b.apply(First, Action::Make(p(6, 1), Kind::Wall)).is_ok());
        assert!(b.apply(First, Action::Make(p(4, 2), Kind::Wall)).is_ok());
    }

    #[test]
    fn camo_on_the_chain_or_next_to_it() {
        let mut b = Board::start();
        for at in [p(7, 1), p(6, 1), p(7, 3), p(5, 1), p(9, 1)] {
            assert_eq!(b.apply(First, Action::Camo(at)).unwrap().0, Effect::Done);
            assert!(b.cell(at).camo);
        }
        for at in [p(7, 4), p(5, 2), p(8, 12)] {
            let e = b.apply(First, Action::Camo(at)).unwrap_err();
            assert!(e.contains("neither"), "{e}");
        }
        // Again on a camouflaged space: allowed, nothing changes, the opponent sees nothing.
        assert_eq!(
            b.apply(First, Action::Camo(p(7, 3))).unwrap().1,
            Seen::Hidden
        );
        // Camo hides red's pieces from blue only.
        assert_eq!(b.seen(Second, p(7, 1)), None);
        assert!(b.seen(First, p(7, 1)).is_some());
        assert_eq!(b.cell_text(Some(Second), p(6, 1)), "#");
        assert_eq!(b.cell_text(Some(First), p(6, 1)), "#rw2");
        assert_eq!(b.cell_text(None, p(6, 1)), "#rw2");
    }

    #[test]
    fn hits_to_destroy_gun_1_wall_2_factory_3_and_camo_goes_with_the_piece() {
        let mut s = state();
        // Red: a gun on [8,2] fires south at blue's wall [8,13], then at the factory.
        s.play_turn(&[
            Action::Make(p(8, 2), Kind::Gun),
            Action::Fire(p(8, 2), Dir::South),
        ])
        .unwrap();
        assert_eq!(piece(&s.board, p(8, 13)), Some((Second, Kind::Wall, 1)));
        // Blue camouflages the damaged wall and makes a gun on [9,13] (east of the wall).
        s.play_turn(&[Action::Camo(p(8, 13)), Action::Make(p(9, 12), Kind::Wall)])
            .unwrap_err();
        s.play_turn(&[Action::Camo(p(8, 13)), Action::Make(p(10, 14), Kind::Gun)])
            .unwrap();
        let played = s
            .play_turn(&[
                Action::Fire(p(8, 2), Dir::South),
                Action::Fire(p(8, 2), Dir::South),
                Action::Fire(p(8, 2), Dir::South),
            ])
            .unwrap();
        assert!(matches!(
            played[0].effect,
            Effect::Hit {
                destroyed: true,
                piece: Piece {
                    kind: Kind::Wall,
                    ..
                },
                ..
            }
        ));
        assert_eq!(
            s.board.cell(p(8, 13)),
            &Cell::default(),
            "camo destroyed too"
        );
        assert_eq!(piece(&s.board, p(8, 14)), Some((Second, Kind::Factory, 1)));
        assert_eq!(s.winner, None);
        // Blue's gun on [10,14] fires west at its own wall [9,14]: hit once, then east: void.
        let played = s
            .play_turn(&[
                Action::Fire(p(10, 14), Dir::West),
                Action::Fire(p(10, 14), Dir::East),
            ])
            .unwrap();
        assert_eq!(piece(&s.board, p(9, 14)), Some((Second, Kind::Wall, 1)));
        assert_eq!(played[1].effect, Effect::Missed);
        // The factory's third hit.
        let played = s.play_turn(&[Action::Fire(p(8, 2), Dir::South)]).unwrap();
        assert_eq!(s.winner, Some(First));
        assert!(s.is_over());
        assert!(matches!(
            played[0].effect,
            Effect::Hit {
                destroyed: true,
                piece: Piece {
                    kind: Kind::Factory,
                    hits: 0,
                    owner: Second
                },
                ..
            }
        ));
        // A gun takes one hit.
        let mut b = Board::start();
        b.apply(First, Action::Make(p(8, 2), Kind::Gun)).unwrap();
        b.apply(Second, Action::Make(p(8, 12), Kind::Gun)).unwrap();
        let (e, _) = b.apply(Second, Action::Fire(p(8, 12), Dir::North)).unwrap();
        assert!(matches!(e, Effect::Hit { destroyed: true, at, .. } if at == p(8, 2)));
        assert_eq!(b.cell(p(8, 2)).piece, None);
    }

    #[test]
    fn destroying_your_own_factory_loses() {
        let mut s = state();
        s.play_turn(&[Action::Make(p(7, 0), Kind::Gun)]).unwrap();
        s.play_turn(&[]).unwrap();
        s.play_turn(&[
            Action::Fire(p(7, 0), Dir::South),
            Action::Fire(p(7, 0), Dir::South),
            Action::Fire(p(7, 0), Dir::South),
            Action::Pass,
        ])
        .unwrap();
        assert_eq!(s.winner, Some(Second));
    }

    #[test]
    fn moves_roll_over_and_pass_costs_one() {
        let mut s = state();
        assert_eq!(s.moves, [3, 3]);
        s.play_turn(&[Action::Pass]).unwrap();
        assert_eq!(s.moves, [5, 3], "pass first turn: 2 left + 3 = 5");
        s.play_turn(&[Action::Pass, Action::Pass, Action::Pass])
            .unwrap();
        assert_eq!(s.moves, [5, 3]);
        assert_eq!(s.to_move, First);
        // Five actions now fit; an empty turn saves everything, up to the cap.
        s.play_turn(&[Action::Pass; 5]).unwrap();
        assert_eq!(s.moves, [3, 3]);
        s.play_turn(&[]).unwrap();
        s.play_turn(&[]).unwrap();
        assert_eq!(s.moves, [6, 6]);
        for _ in 0..10 {
            s.play_turn(&[]).unwrap();
        }
        assert_eq!(s.moves, [DEFAULT_CAP, DEFAULT_CAP], "capped");
    }

    #[test]
    fn too_many_actions_is_illegal_and_changes_nothing() {
        let mut s = state();
        let before = s.clone();
        let e = s.play_turn(&[Action::Pass; 4]).unwrap_err();
        assert!(e.contains("4 actions with only 3 moves"), "{e}");
        assert_eq!(s, before);
        // An illegal action late in the turn refuses the whole turn.
        let e = s
            .play_turn(&[
                Action::Make(p(7, 3), Kind::Gun),
                Action::Fire(p(7, 4), Dir::South),
            ])
            .unwrap_err();
        assert!(e.starts_with("action 2 of the turn"), "{e}");
        assert_eq!(s, before);
    }

    #[test]
    fn a_hidden_enemy_piece_in_the_way_costs_the_move_and_does_nothing() {
        let mut s = state();
        // Red makes a gun on [7,3] and camouflages the empty [7,4] (next to its chain).
        s.play_turn(&[
            Action::Make(p(7, 3), Kind::Gun),
            Action::Camo(p(7, 4)),
            Action::Camo(p(6, 3)),
        ])
        .unwrap();
        s.play_turn(&[]).unwrap();
        // Put a blue wall under the camo on [7,4] (as if it had walked there).
        s.board.cell_mut(p(7, 4)).piece = Some(Piece::new(Second, Kind::Wall));
        assert_eq!(s.board.seen(First, p(7, 4)), None, "red does not see it");
        let played = s
            .play_turn(&[
                Action::Move(p(7, 3), p(7, 4)),
                Action::Make(p(7, 4), Kind::Wall),
                Action::Pass,
            ])
            .unwrap();
        assert_eq!(played[0].effect, Effect::Bumped);
        assert_eq!(played[1].effect, Effect::Bumped);
        assert_eq!(piece(&s.board, p(7, 3)), Some((First, Kind::Gun, 1)));
        assert_eq!(piece(&s.board, p(7, 4)), Some((Second, Kind::Wall, 2)));
        assert_eq!(s.moves[0], 3, "all three moves spent");
        // The same wall in the open is plainly in the way: illegal.
        s.play_turn(&[]).unwrap();
        s.board.cell_mut(p(7, 4)).camo = false;
        let e = s.play_turn(&[Action::Move(p(7, 3), p(7, 4))]).unwrap_err();
        assert!(e.contains("holds a blue wall"), "{e}");
    }

    #[test]
    fn the_turn_limit_is_a_draw() {
        let mut s = State::new(4, DEFAULT_CAP);
        for _ in 0..3 {
            s.play_turn(&[Action::Pass]).unwrap();
            assert!(!s.is_over());
        }
        s.play_turn(&[]).unwrap();
        assert!(s.drawn && s.winner.is_none());
        // A win on the last turn is a win.
        let mut s = State::new(1, DEFAULT_CAP);
        s.board.cell_mut(p(8, 14)).piece.as_mut().unwrap().hits = 1;
        s.board.cell_mut(p(8, 13)).piece = None;
        s.play_turn(&[
            Action::Make(p(8, 2), Kind::Gun),
            Action::Fire(p(8, 2), Dir::South),
        ])
        .unwrap();
        assert_eq!((s.winner, s.drawn), (Some(First), false));
    }

    #[test]
    fn the_opponent_sees_only_what_is_not_under_camo() {
        let mut s = state();
        s.play_turn(&[
            Action::Camo(p(7, 3)),
            Action::Make(p(7, 3), Kind::Gun),
            Action::Make(p(8, 2), Kind::Gun),
        ])
        .unwrap();
        let played = s.play_turn(&[]).unwrap();
        assert!(played.is_empty());
        let played = s
            .play_turn(&[
                // From under camo to the open: the origin is not named.
                Action::Move(p(7, 3), p(6, 3)),
                // Fired in the open (the gun's space is empty at the end: named).
                Action::Fire(p(6, 3), Dir::West),
                // Into camo: the destination is not named.
                Action::Move(p(6, 3), p(7, 3)),
            ])
            .unwrap();
        let seen: Vec<Seen> = played.iter().map(|p| p.seen).collect();
        assert_eq!(
            seen,
            [
                Seen::Move(None, Some(p(6, 3))),
                Seen::Fire(p(6, 3), Dir::West),
                Seen::Move(Some(p(6, 3)), None)
            ]
        );
        s.play_turn(&[Action::Make(p(8, 12), Kind::Gun)]).unwrap();
        let played = s
            .play_turn(&[
                // A hidden gun's hit on a visible piece shows only the hit.
                Action::Fire(p(7, 3), Dir::South),
                Action::Camo(p(6, 3)),
                // From camo to camo: nothing.
                Action::Move(p(7, 3), p(6, 3)),
            ])
            .unwrap();
        let seen: Vec<Seen> = played.iter().map(|p| p.seen).collect();
        assert_eq!(
            seen,
            [Seen::Hit(p(7, 14)), Seen::Camo(p(6, 3)), Seen::Hidden]
        );
        // Made in the open, then camouflaged in the same turn: the make is not named either.
        s.play_turn(&[]).unwrap();
        let played = s
            .play_turn(&[Action::Make(p(9, 2), Kind::Wall), Action::Camo(p(9, 2))])
            .unwrap();
        assert_eq!(played[0].seen, Seen::Hidden);
        assert_eq!(played[1].seen, Seen::Camo(p(9, 2)));
        // A gun in the open shows its shot.
        let played = s.play_turn(&[Action::Fire(p(8, 12), Dir::North)]).unwrap();
        assert_eq!(played[0].seen, Seen::Fire(p(8, 12), Dir::North));
        assert_eq!(
            s.board.cell(p(8, 2)).piece,
            None,
            "red's gun on [8,2] is gone"
        );
    }
}
