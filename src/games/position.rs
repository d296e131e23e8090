//! What every turn-based board game's pure rules provide, and what arena builds on it once for all
//! of them: perft, the built-in `random` and search bots, and the rules test suite.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::{Outcome, Side};

/// A position of a two-player game where one side moves at a time.
pub trait Position: Clone + Send + Sync + 'static {
    type Move: Clone + PartialEq + std::fmt::Debug + Send;

    /// The seat to move (0 moves first). Meaningless once the game is over.
    fn to_move(&self) -> Side;

    /// Every legal move; empty once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Play a move known to be legal (one of `legal_moves`): the search, perft and the built-in
    /// bots, which only ever play those. An illegal move leaves the position meaningless.
    fn play_unchecked(&mut self, mv: &Self::Move);

    /// Play `mv` if it is legal here; otherwise the position is left as it was.
    fn play(&mut self, mv: &Self::Move) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove);
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// The result once the game is over (a win, a draw, a move limit); `None` while it goes on.
    /// A side with no legal move is a finished game here, never an empty move list mid-game.
    fn outcome(&self) -> Option<Outcome>;

    /// Moves played so far.
    fn plies(&self) -> u32;

    /// The move in the game's own notation, for `perft --divide`, logs and messages.
    fn move_text(&self, mv: &Self::Move) -> String;

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: &Self::Move) -> bool {
        self.outcome().is_none() && self.legal_moves().contains(mv)
    }

    /// A static score of the position for `seat` (higher is better), for the search bot.
    /// Only its differences matter; keep it well below [`WIN`].
    fn evaluate(&self, _seat: Side) -> i32 {
        0
    }
}

/// The seats a game played over `pos` waits for: the side to move, unless the game is over or a
/// player `failed` (then no one: a failed seat is not waited for, and the other need not move).
pub fn awaiting<P: Position>(pos: &P, failed: bool) -> [bool; 2] {
    let mut a = [false; 2];
    if !failed && pos.outcome().is_none() {
        a[pos.to_move()] = true;
    }
    a
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove;

/// Leaf counts of a move-generation tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Perft {
    /// Positions exactly `depth` moves from the root (the classic perft number).
    pub nodes: u64,
    /// Games that finished within `depth` moves (finished positions are not expanded).
    pub finished: u64,
}

impl std::ops::AddAssign for Perft {
    fn add_assign(&mut self, o: Perft) {
        self.nodes += o.nodes;
        self.finished += o.finished;
    }
}

pub fn perft<P: Position>(pos: &P, depth: u32) -> Perft {
    let over = pos.outcome().is_some();
    if depth == 0 || over {
        return Perft {
            nodes: (depth == 0) as u64,
            finished: over as u64,
        };
    }
    let mut total = Perft::default();
    for mv in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(&mv);
        total += perft(&next, depth - 1);
    }
    total
}

/// Perft split by first move: (move, counts below it).
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(String, Perft)> {
    if depth == 0 || pos.outcome().is_some() {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play_unchecked(&mv);
            (pos.move_text(&mv), perft(&next, depth - 1))
        })
        .collect()
}

/// The score of a won game; wins sooner score higher.
pub const WIN: i32 = 1_000_000;

/// Negamax with alpha-beta, to `depth` moves; scores are for the side to move.
fn negamax<P: Position>(pos: &P, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    let me = pos.to_move();
    if let Some(o) = pos.outcome() {
        // The side to move in a finished position: compare its score with the other's.
        let scores = o.scores();
        let (mine, theirs) = (scores[me], scores[me.other()]);
        return if mine > theirs {
            WIN - ply
        } else if mine < theirs {
            -(WIN - ply)
        } else {
            0
        };
    }
    if depth == 0 {
        return pos.evaluate(me);
    }
    let mut best = i32::MIN + 1;
    for mv in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(&mv);
        // A game may give the same side another move (a capture chain, an extra turn).
        let score = if next.to_move() == me && next.outcome().is_none() {
            negamax(&next, depth - 1, ply + 1, alpha, beta)
        } else {
            -negamax(&next, depth - 1, ply + 1, -beta, -alpha)
        };
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The move a `depth`-move search prefers, ties broken at random so that games vary.
pub fn search_move<P: Position>(pos: &P, depth: u32, rng: &mut ChaCha8Rng) -> Option<P::Move> {
    let me = pos.to_move();
    let mut scored = Vec::new();
    for mv in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(&mv);
        let score = if next.to_move() == me && next.outcome().is_none() {
            negamax(&next, depth.saturating_sub(1), 1, -WIN - 1, WIN + 1)
        } else {
            -negamax(&next, depth.saturating_sub(1), 1, -WIN - 1, WIN + 1)
        };
        scored.push((score, mv));
    }
    let best = scored.iter().map(|(s, _)| *s).max()?;
    let top: Vec<_> = scored.into_iter().filter(|(s, _)| *s == best).collect();
    top.choose(rng).map(|(_, mv)| mv.clone())
}

pub fn random_move<P: Position>(pos: &P, rng: &mut ChaCha8Rng) -> Option<P::Move> {
    pos.legal_moves().choose(rng).cloned()
}

/// The move of the built-in bot `name`: `search` looks `depth` moves ahead, anything else
/// (`random`) plays at random. Only asked while the game goes on, when a move exists.
pub fn builtin_move<P: Position>(pos: &P, name: &str, depth: u32, rng: &mut ChaCha8Rng) -> P::Move {
    match name {
        "search" => search_move(pos, depth, rng),
        _ => random_move(pos, rng),
    }
    .expect("a game in progress has a legal move")
}

/// The rules test suite every board game runs (see each game's tests): legal moves agree with
/// the legality check, a finished game accepts no move, and random playouts never panic and end
/// within `max_plies`.
#[cfg(test)]
pub mod suite {
    use super::*;
    use rand::SeedableRng;

    pub fn check<P: Position>(start: &P, playouts: u32, max_plies: u32) {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for game in 0..playouts {
            let mut pos = start.clone();
            loop {
                let legal = pos.legal_moves();
                for mv in &legal {
                    assert!(
                        pos.is_legal(mv),
                        "game {game}: {mv:?} is listed but not legal"
                    );
                }
                if pos.outcome().is_some() {
                    assert!(
                        legal.is_empty(),
                        "game {game}: a finished game offers moves"
                    );
                    break;
                }
                assert!(
                    !legal.is_empty(),
                    "game {game}: no legal move but no outcome at ply {}",
                    pos.plies()
                );
                assert!(
                    pos.plies() < max_plies,
                    "game {game}: still going after {max_plies} plies"
                );
                let before = pos.plies();
                let mv = legal.choose(&mut rng).expect("not empty").clone();
                assert!(!pos.move_text(&mv).is_empty());
                // A move of the next position that is not legal here is refused by the checked
                // play, which leaves the position as it was.
                let mut next = pos.clone();
                next.play_unchecked(&mv);
                if let Some(foreign) = next.legal_moves().into_iter().find(|m| !legal.contains(m)) {
                    let mut tried = pos.clone();
                    assert_eq!(
                        tried.play(&foreign),
                        Err(IllegalMove),
                        "game {game}: {foreign:?}"
                    );
                    assert_eq!(tried.plies(), before);
                    assert_eq!(
                        tried.legal_moves(),
                        legal,
                        "game {game}: changed by {foreign:?}"
                    );
                }
                assert_eq!(pos.clone().play(&mv), Ok(()), "game {game}: {mv:?}");
                pos.play_unchecked(&mv);
                assert_eq!(pos.plies(), before + 1, "a move counts one ply");
            }
            pos.outcome().expect("a finished position has an outcome");
        }
    }
}

/// A position with a text form: where `arena perft` starts, what `--position` gives it, and how
/// it is drawn for people.
pub trait Textual: Position {
    fn start() -> Self;
    fn from_position(text: &str) -> Result<Self, String>;
    /// The position as `from_position` reads it: how an opening is recorded and told.
    fn position(&self) -> String;
    /// The position drawn for people.
    fn render(&self) -> String;
}

/// `GameInfo::perft` for any game whose rules are `Textual`.
pub fn perft_of<P: Textual>(
    position: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<PerftReport, String> {
    let pos = match position {
        Some(text) => P::from_position(text)?,
        None => P::start(),
    };
    Ok(report(&pos, pos.render(), depth, divide))
}

/// What `arena perft` prints.
#[derive(Debug, Clone)]
pub struct PerftReport {
    /// The position, drawn for people.
    pub board: String,
    /// Per first move, with `--divide`.
    pub divide: Vec<(String, Perft)>,
    pub total: Perft,
}

/// Perft from a position given as text (`None`: the start), with or without the split by move.
pub type PerftFn =
    fn(position: Option<&str>, depth: u32, divide: bool) -> Result<PerftReport, String>;

/// What arena does with the positions of a game whose rules are [`Textual`]: `arena perft`, and
/// openings (the position a pair of games starts from, `--openings` and `--random-plies`).
#[derive(Debug, Clone, Copy)]
pub struct Positions {
    pub perft: PerftFn,
    /// An opening as given: the position, written as the game writes it, or why no game can
    /// start there (it cannot be read, or the game is already over).
    pub opening: fn(&str) -> Result<String, String>,
    /// `plies` random legal moves from `from` (the usual start when `None`), never one that
    /// ends the game: the position reached, written as the game writes it.
    pub random: fn(from: Option<&str>, plies: u32, &mut ChaCha8Rng) -> Result<String, String>,
}

impl Positions {
    pub const fn of<P: Textual>() -> Positions {
        Positions {
            perft: perft_of::<P>,
            opening: opening_of::<P>,
            random: random_opening::<P>,
        }
    }
}

/// Whether a game can go on from `pos`: it is not over, and the side to move has a move.
fn playable<P: Position>(pos: &P) -> bool {
    pos.outcome().is_none() && !pos.legal_moves().is_empty()
}

fn opening_of<P: Textual>(text: &str) -> Result<String, String> {
    let pos = P::from_position(text)?;
    if !playable(&pos) {
        return Err("the game is already over in this position".into());
    }
    Ok(pos.position())
}

fn random_opening<P: Textual>(
    from: Option<&str>,
    plies: u32,
    rng: &mut ChaCha8Rng,
) -> Result<String, String> {
    let mut pos = match from {
        Some(text) => P::from_position(text)?,
        None => P::start(),
    };
    for _ in 0..plies {
        // A move that ends the game leaves nothing to play: the opening stops short instead.
        let going_on: Vec<P::Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|mv| {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                playable(&next)
            })
            .collect();
        let Some(mv) = going_on.choose(rng) else {
            break;
        };
        pos.play_unchecked(mv);
    }
    Ok(pos.position())
}

/// Where a match over `P` starts: the seating's opening, else the usual start.
pub fn start_of<P: Textual>(seating: &super::Seating) -> Result<P, String> {
    match &seating.opening {
        Some(text) => P::from_position(text).map_err(|e| format!("the opening: {e}")),
        None => Ok(P::start()),
    }
}

pub fn report<P: Position>(pos: &P, board: String, depth: u32, split: bool) -> PerftReport {
    let (divide, total) = if split {
        let rows = divide(pos, depth);
        let mut total = Perft::default();
        for (_, p) in &rows {
            total += *p;
        }
        // A finished position at depth 0 has no moves to split by but still counts itself.
        if rows.is_empty() {
            total = perft(pos, depth);
        }
        (rows, total)
    } else {
        (Vec::new(), perft(pos, depth))
    };
    PerftReport {
        board,
        divide,
        total,
    }
}
