//! CodinGame's Tron Battle (light cycles): pure rules, no I/O.
//!
//! 2 to 4 cycles on a grid 30 cells wide and 20 high; x runs 0..=29 left to right, y 0..=19 top
//! to bottom, so `UP` is y - 1, as on CodinGame. Each cycle starts on a cell of its own, its
//! tail, and leaves a ribbon on every cell it enters; its head is the cell it is on.
//!
//! Players move one at a time in index order, skipping those who are out; a *turn* is one move
//! by each player still in (turn 1 is everyone's first move). So a player sees the moves made
//! before it in the same turn. A cycle that leaves the grid or enters a ribbon (its own
//! included, or a cell another cycle entered earlier in the same turn) is out, and so is one
//! that fails outside the rules (late, crashed, an answer that is not a direction: the referee
//! calls [`Tron::eliminate`]). A cycle that is out leaves the grid and its ribbon disappears:
//! its cells are free again for the others. The game is over when at most one cycle is in.
//!
//! Ranking: the players still in share the best place, then the players out, the later out the
//! better. Players out in the same turn share a place, competition style (1 2 2 4): they made
//! the same number of moves. When the last two go out in the same turn (only the referee's
//! eliminations can do that: a move that puts one of the last two out ends the game), no one
//! is left in and they tie for first.
//!
//! A bound on the game's length: every move that keeps a cycle in adds a cell to its ribbon,
//! and a ribbon only disappears with its cycle, so a cycle makes at most 599 such moves and one
//! more that puts it out: a game of n players ends within `600 * n` moves ([`move_bound`]).
//! With two players no ribbon disappears before the end, so every move but the last fills a
//! cell of the 598 free at the start: 599 moves at most. With more players a freed ribbon is
//! room for the others, so "each move fills a cell" gives no bound of 600 then.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const WIDTH: u8 = 30;
pub const HEIGHT: u8 = 20;
pub const CELLS: usize = WIDTH as usize * HEIGHT as usize;
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;

/// How far apart (in moves, |dx| + |dy|) the seeded start cells are at least. CodinGame draws
/// them freely; two cycles a cell or two apart make the first moves a lottery decided by turn
/// order (the first to move takes the cell between), so they start a few moves apart. Four
/// cells this far apart always fit, so the drawing always ends.
pub const MIN_APART: u32 = 5;

/// A cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

impl Cell {
    pub fn new(x: u8, y: u8) -> Option<Cell> {
        (x < WIDTH && y < HEIGHT).then_some(Cell { x, y })
    }

    /// Row-major, from the top-left: the viewer's order.
    pub fn index(self) -> usize {
        self.y as usize * WIDTH as usize + self.x as usize
    }

    pub fn from_index(i: usize) -> Cell {
        Cell {
            x: (i % WIDTH as usize) as u8,
            y: (i / WIDTH as usize) as u8,
        }
    }

    /// The neighbour in `dir`, or `None` off the grid.
    pub fn step(self, dir: Dir) -> Option<Cell> {
        let (dx, dy) = dir.delta();
        let x = self.x.checked_add_signed(dx)?;
        let y = self.y.checked_add_signed(dy)?;
        Cell::new(x, y)
    }

    /// Moves between two cells on an empty grid: |dx| + |dy|.
    pub fn distance(self, other: Cell) -> u32 {
        (self.x.abs_diff(other.x) + self.y.abs_diff(other.y)) as u32
    }

    /// The on-grid neighbours.
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        Dir::ALL.into_iter().filter_map(move |d| self.step(d))
    }
}

/// A move: one of the four words a player answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// In the order perft and the bots try them.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The word on the wire.
    pub fn word(self) -> &'static str {
        match self {
            Dir::Up => "UP",
            Dir::Down => "DOWN",
            Dir::Left => "LEFT",
            Dir::Right => "RIGHT",
        }
    }

    /// (dx, dy); y grows downwards.
    pub fn delta(self) -> (i8, i8) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }
}

/// A player's answer, as CodinGame's statement asks for it: exactly `UP`, `DOWN`, `LEFT` or
/// `RIGHT`, in capitals, alone on its line; blanks around it are ignored. CodinGame's own Tron
/// referee is not public (the game predates its open game engine), and its statement says that
/// an invalid output loses; the one public referee written for it (for cg-brutaltester) also
/// takes `left` and `UP and away`, but the statement is the reference. A bot written for
/// CodinGame prints one of the four words, so the strict reading costs such a bot nothing.
pub fn parse_answer(line: &str) -> Result<Dir, String> {
    const EXPECTED: &str = "where UP, DOWN, LEFT or RIGHT was expected";
    let text = line.trim();
    if let Some(dir) = Dir::ALL.into_iter().find(|d| d.word() == text) {
        return Ok(dir);
    }
    if text.is_empty() {
        return Err(format!("sent an empty line {EXPECTED}"));
    }
    let first = text.split_whitespace().next().unwrap_or_default();
    let hint = if Dir::ALL.iter().any(|d| d.word() == first) {
        ": nothing may follow the direction on its line"
    } else if Dir::ALL
        .iter()
        .any(|d| d.word().eq_ignore_ascii_case(first))
    {
        ": directions are written in capitals"
    } else {
        ""
    };
    Err(format!("sent '{text}' {EXPECTED}{hint}"))
}

/// What a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The cycle is now on this cell.
    Moved(Cell),
    /// It would have left the grid.
    LeftGrid,
    /// It entered a cell of `owner`'s ribbon (its own, or another's, a head included).
    HitRibbon { at: Cell, owner: usize },
}

/// One move as played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    pub player: usize,
    pub dir: Dir,
    /// Where the cycle was.
    pub from: Cell,
    pub effect: Effect,
}

impl Played {
    pub fn is_out(&self) -> bool {
        !matches!(self.effect, Effect::Moved(_))
    }

    /// What the spectators receive for a move: `P DIR` while the cycle stays in, `P DIR out`
    /// when the move put it out.
    pub fn spectator_line(&self) -> String {
        let out = if self.is_out() { " out" } else { "" };
        format!("{} {}{out}", self.player, self.dir.word())
    }
}

/// Why a player is out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    LeftGrid,
    HitRibbon {
        owner: usize,
    },
    /// It failed outside the rules: the referee put it out ([`Tron::eliminate`]).
    Failed,
}

/// When and why a player went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone {
    /// The turn being played when it went out (1 is the first).
    pub turn: u32,
    pub why: Why,
}

/// Marks a free cell in [`Tron`]'s grid.
const FREE: u8 = u8::MAX;

/// A game of Tron as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tron {
    /// Whose ribbon holds each cell (row-major), or [`FREE`].
    grid: [u8; CELLS],
    tails: Vec<Cell>,
    heads: Vec<Cell>,
    gone: Vec<Option<Gone>>,
    /// `None` once the game is over.
    to_move: Option<usize>,
    turn: u32,
    moves: u32,
    last: Option<Played>,
}

/// Checks the number of players.
fn check_players(n: usize) -> Result<(), String> {
    if (MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
        Ok(())
    } else {
        Err(format!(
            "Tron takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}"
        ))
    }
}

/// The most moves a game of `players` can last (see the module's documentation).
pub fn move_bound(players: usize) -> u32 {
    match players {
        0..=2 => CELLS as u32 - 1,
        n => CELLS as u32 * n as u32,
    }
}

impl Tron {
    /// A game of `n` players whose start cells are drawn from `seed`: uniformly among the cells,
    /// each again until it is at least [`MIN_APART`] from those drawn before it.
    pub fn new(n: usize, seed: u64) -> Result<Tron, String> {
        check_players(n)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut starts: Vec<Cell> = Vec::with_capacity(n);
        while starts.len() < n {
            let c = Cell {
                x: rng.random_range(0..WIDTH),
                y: rng.random_range(0..HEIGHT),
            };
            if starts.iter().all(|s| s.distance(c) >= MIN_APART) {
                starts.push(c);
            }
        }
        Tron::from_starts(&starts)
    }

    /// A game starting from the given cells, one per player (distinct; no distance asked).
    pub fn from_starts(starts: &[Cell]) -> Result<Tron, String> {
        check_players(starts.len())?;
        let mut grid = [FREE; CELLS];
        for (p, c) in starts.iter().enumerate() {
            if c.x >= WIDTH || c.y >= HEIGHT {
                return Err(format!("player {p} starts off the grid at {} {}", c.x, c.y));
            }
            if grid[c.index()] != FREE {
                return Err(format!(
                    "players {} and {p} start on the same cell",
                    grid[c.index()]
                ));
            }
            grid[c.index()] = p as u8;
        }
        Ok(Tron {
            grid,
            tails: starts.to_vec(),
            heads: starts.to_vec(),
            gone: vec![None; starts.len()],
            to_move: Some(0),
            turn: 1,
            moves: 0,
            last: None,
        })
    }

    pub fn players(&self) -> usize {
        self.tails.len()
    }

    pub fn is_in(&self, player: usize) -> bool {
        self.gone.get(player) == Some(&None)
    }

    pub fn players_in(&self) -> usize {
        self.gone.iter().filter(|g| g.is_none()).count()
    }

    /// When and why `player` went out; `None` while it is in.
    pub fn gone(&self, player: usize) -> Option<Gone> {
        self.gone.get(player).copied().flatten()
    }

    /// Where the ribbon of a player still in started and where its cycle is.
    pub fn ends(&self, player: usize) -> Option<(Cell, Cell)> {
        self.is_in(player)
            .then(|| (self.tails[player], self.heads[player]))
    }

    /// Whose ribbon holds `cell`, if anyone's.
    pub fn owner(&self, cell: Cell) -> Option<usize> {
        let o = self.grid[cell.index()];
        (o != FREE).then_some(o as usize)
    }

    /// The player to move; `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        self.to_move
    }

    /// The turn being played (1 is the first).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Moves played so far, those that put a cycle out included; the referee's eliminations
    /// are not moves.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The last move, unless an elimination came after it.
    pub fn last(&self) -> Option<&Played> {
        self.last.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.players_in() <= 1
    }

    /// What moving `player`'s cycle in `dir` would do now.
    pub fn effect(&self, player: usize, dir: Dir) -> Effect {
        let Some(to) = self.heads[player].step(dir) else {
            return Effect::LeftGrid;
        };
        match self.owner(to) {
            None => Effect::Moved(to),
            Some(owner) => Effect::HitRibbon { at: to, owner },
        }
    }

    /// The moves that keep the player to move in; empty once the game is over.
    pub fn safe_moves(&self) -> Vec<Dir> {
        let Some(p) = self.to_move else {
            return Vec::new();
        };
        Dir::ALL
            .into_iter()
            .filter(|&d| matches!(self.effect(p, d), Effect::Moved(_)))
            .collect()
    }

    /// The player to move moves in `dir`; `None` (and nothing happens) once the game is over.
    pub fn play(&mut self, dir: Dir) -> Option<Played> {
        let player = self.to_move?;
        let from = self.heads[player];
        let effect = self.effect(player, dir);
        self.moves += 1;
        match effect {
            Effect::Moved(to) => {
                self.grid[to.index()] = player as u8;
                self.heads[player] = to;
            }
            Effect::LeftGrid => self.put_out(player, Why::LeftGrid),
            Effect::HitRibbon { owner, .. } => self.put_out(player, Why::HitRibbon { owner }),
        }
        let played = Played {
            player,
            dir,
            from,
            effect,
        };
        self.pass_move(player);
        self.last = Some(played);
        Some(played)
    }

    /// `player` failed outside the rules (late, crashed, not a direction): it is out in the
    /// turn being played, its ribbon disappears, and if it was to move the move passes on.
    /// Whether it was in (an elimination of a player out does nothing).
    pub fn eliminate(&mut self, player: usize) -> bool {
        if !self.is_in(player) {
            return false;
        }
        self.put_out(player, Why::Failed);
        self.last = None;
        if self.is_over() {
            self.to_move = None;
        } else if self.to_move == Some(player) {
            self.pass_move(player);
        }
        true
    }

    fn put_out(&mut self, player: usize, why: Why) {
        self.gone[player] = Some(Gone {
            turn: self.turn,
            why,
        });
        for owner in self.grid.iter_mut().filter(|o| **o == player as u8) {
            *owner = FREE;
        }
    }

    /// The move passes from `player` to the next player in, in index order; going round past
    /// the last index starts a new turn.
    fn pass_move(&mut self, player: usize) {
        if self.is_over() {
            self.to_move = None;
            return;
        }
        let n = self.players();
        let mut next = player;
        loop {
            next = (next + 1) % n;
            if next == 0 {
                self.turn += 1;
            }
            if self.is_in(next) {
                break;
            }
        }
        self.to_move = Some(next);
    }

    /// Each player's place, 1 the best: those in share the best place, then those out, the
    /// later the better; players out in the same turn share a place (1 2 2 4).
    pub fn places(&self) -> Vec<u32> {
        let rank = |g: &Option<Gone>| g.map_or(u32::MAX, |g| g.turn);
        self.gone
            .iter()
            .map(|g| 1 + self.gone.iter().filter(|o| rank(o) > rank(g)).count() as u32)
            .collect()
    }

    /// The lines `player` reads before its move, exactly as CodinGame sends them: `N P` (the
    /// number of players, its own index), then for each player `X0 Y0 X1 Y1`, where its ribbon
    /// started (its tail) and where its cycle is (its head); `-1 -1 -1 -1` for a player out.
    pub fn turn_input(&self, player: usize) -> Vec<String> {
        let mut lines = vec![format!("{} {player}", self.players())];
        lines.extend((0..self.players()).map(|p| match self.ends(p) {
            Some((t, h)) => format!("{} {} {} {}", t.x, t.y, h.x, h.y),
            None => "-1 -1 -1 -1".to_string(),
        }));
        lines
    }

    /// What the spectators receive before the first move: the number of players, then each
    /// player's start cell `X Y`.
    pub fn spectator_start(&self) -> Vec<String> {
        let mut lines = vec![self.players().to_string()];
        lines.extend(self.tails.iter().map(|c| format!("{} {}", c.x, c.y)));
        lines
    }

    /// What the spectators receive at the end: `places` and each player's place, in index order.
    pub fn spectator_end(&self) -> String {
        let places: Vec<String> = self.places().iter().map(u32::to_string).collect();
        format!("places {}", places.join(" "))
    }

    /// The number of move sequences `depth` moves long from here, where each player to move
    /// plays every move that keeps it in; a player with no such move has one, which puts it
    /// out (whichever way it goes, the game goes on the same). A game that ends within `depth`
    /// moves is not counted (it has no sequence that long).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.is_over() {
            return 0;
        }
        let mut moves = self.safe_moves();
        if moves.is_empty() {
            moves.push(Dir::Up);
        }
        moves
            .into_iter()
            .map(|d| {
                let mut next = self.clone();
                next.play(d);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// What the spectators receive when the referee puts `player` out (late, crashed, not a
/// direction): `P out`. Its line is not passed on.
pub fn spectator_failed(player: usize) -> String {
    format!("{player} out")
}
